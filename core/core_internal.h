/* core_internal.h — private to core/: the integer expression evaluator, the spec
 * parser's shared state between its files, and generator helpers. Other modules use
 * core.h only. */
#ifndef WS_CORE_INTERNAL_H
#define WS_CORE_INTERNAL_H

#include "core/core.h"

/* Resolves a name inside an expression; returns WS_OK or an error already set in err. */
typedef int (*ws_expr_lookup_fn)(void *ctx, const char *name, int64_t *value, ws_error *err);

typedef struct ws_expr_env {
    ws_expr_lookup_fn lookup; /* NULL: names are errors */
    void *ctx;
    const char *file;         /* where errors point */
    int line;
    ws_error *err;
} ws_expr_env;

/* Evaluates an integer expression: + - * / % << >> ( ) unary -, min(a,b), max(a,b),
 * decimal and 0x literals, names through env->lookup. Overflow and division by zero
 * are errors (WS_ERR_SPEC at env->file:env->line). */
int ws_expr_eval(const char *text, const ws_expr_env *env, int64_t *out);
/* 1 when `s` is a C identifier. */
int ws_is_ident(const char *s);

/* ---------------------------------------------------------------- spec parsing */

#define WS_TOK_MAX 64

typedef struct ws_raw_gen {  /* `gen NAME ...` */
    char name[WS_NAME_MAX];
    char *text;              /* the generator words */
    int line;
} ws_raw_gen;

typedef struct ws_raw_check { /* `check NAME [file PATH] [tolerance X] [absolute Y]` */
    char name[WS_NAME_MAX];
    char tolerance[WS_EXPR_MAX], absolute[WS_EXPR_MAX];
    char file[WS_PATH_MAX];   /* resolved relative to the spec; "" none */
    int line;
} ws_raw_check;

/* `path` as written in the spec at `spec_path`: absolute, or relative to the spec's folder.
 * Non-zero when it does not fit in `n`. */
int ws_spec_relative_path(const char *spec_path, const char *path, char *out, size_t n);

typedef struct ws_parse {
    ws_spec *s;
    ws_error *err;
    const char *path;
    int source_line;          /* line of `source`, 0 = defaulted */
    int in_variant;           /* the last directive opened or continued a variant */
    int ngens, cap_gens;      ws_raw_gen *gens;
    int nchecks, cap_checks;  ws_raw_check *checks;
    char **buffer_gen_text;   /* per buffer, its generator words (parallel to s->buffers) */
    int cap_buffers, cap_consts, cap_variants, cap_regions, cap_symbols,
        cap_images;
    int *const_state;         /* 0 unresolved, 1 in progress, 2 resolved */
    int loop_open[WS_LOOP_DEPTH]; /* while reading a sequence: open loops' step indexes */
    int loop_depth;
    int nbound;               /* loop variables visible to expressions (innermost last) */
    const char *bound_name[WS_LOOP_DEPTH];
    int64_t bound_value[WS_LOOP_DEPTH];
} ws_parse;

/* spec_resolve.c: after every line is read. */
int ws_spec_resolve_consts(ws_parse *p, const ws_define *defs, int ndefs);
int ws_spec_resolve_buffers(ws_parse *p);
int ws_spec_resolve_variants(ws_parse *p);
/* An integer expression over the resolved constants (a float constant is an error). */
int ws_spec_int_expr(ws_parse *p, int line, const char *text, int64_t *out);
/* spec_args.c: one word of an args list (BUF, BUF+EXPR, struct:TYPE=V,..., a real
 * literal, a float constant, an integer expression) resolved into *a (a->expr holds the
 * word, a->line its line); `where` ("variant 'v'") starts error messages. */
int ws_spec_arg_resolve(ws_parse *p, const char *where, ws_arg *a);
/* spec_args.c: every `symbol NAME BUF` names a buffer. */
int ws_spec_resolve_symbols(ws_parse *p);
/* spec_resolve.c: a single launch's shape and arguments (a variant's, or a launch line's
 * with p->bound loop variables in expressions). */
int ws_launch_resolve(ws_parse *p, ws_variant *v);
/* spec.c, for launch lines: grid/block words (tok[0] the directive) and args, read as a
 * variant's `grid`/`block`/`args` lines are. */
int ws_launch_dims(ws_parse *p, int line, char **tok, int ntok, char exprs[3][WS_EXPR_MAX]);
int ws_launch_args(ws_parse *p, int line, ws_variant *v, char **tok, int ntok);
/* spec_steps.c: a sequence line inside a variant (*handled 0 when `tok[0]` is none);
 * the end of a variant block (unclosed loops are errors); checking a sequence once every
 * constant and buffer is known. */
int ws_dir_step(ws_parse *p, int line, char **tok, int ntok, int *handled);
int ws_steps_close(ws_parse *p);
int ws_steps_resolve(ws_parse *p, ws_variant *v);
void ws_steps_free(ws_variant *v);
/* spec_image.c: a `texture` or `surface` line; after every line is read and the variants
 * resolved, each names a buffer whose count is the image's size, passed whole. */
int ws_spec_dir_image(ws_parse *p, int line, char **tok, int ntok);
int ws_spec_resolve_images(ws_parse *p);
/* region.c: reads the .cu, resolves every region's lines and marks the constants whose
 * names the .cu declares as identifiers without using them as macros (namespaced). */
int ws_spec_resolve_regions(ws_parse *p);
/* Whether C source `text` names `name` as an identifier outside comments, strings and
 * character literals (in code or in a preprocessor line). */
int ws_source_mentions(const char *text, const char *name);
/* Splits `s` in place into whitespace-separated words; returns their number or -1 when
 * more than max. */
int ws_split_words(char *s, char **tok, int max);

/* gen.c: fills `count` elements of `type` from generator `g` with rng state from `seed`. */
int ws_gen_fill(const ws_gen *g, ws_type type, uint64_t seed, uint64_t count, void *data,
                const char *spec_path, ws_error *err);
/* Uniform integer in [0, range) without modulo bias (range 0 means 2^64). */
uint64_t ws_rng_below(ws_rng *r, uint64_t range);
const char *ws_gen_kind_name(ws_gen_kind k);

/* Appends one zeroed element to a growable array (*arr, *n, *cap), doubling as needed;
 * returns it, or NULL when out of memory. Shared by results and specs. */
void *ws_core_grow(void **arr, int *n, int *cap, size_t size);

/* ptx_build.c, shared with sass_build.c: the first `lines` lines of a file, for error
 * messages. */
void ws_first_lines(const char *path, char *buf, size_t n, int lines);
/* spawn.c: runs argv[0] (searched on PATH) with stdout into `out_path` and stderr into
 * `err_path` (NULL: into out_path too); returns its exit status, -1 when it could not
 * start (errno says why), -2 when it was killed. */
int ws_spawn(char *const argv[], const char *out_path, const char *err_path);

/* A real literal: "0.5", "-2.5e-3", "1e6" (not an integer, hex or inf/nan); 1 with *out set. */
int ws_real_literal(const char *text, double *out);

#endif
