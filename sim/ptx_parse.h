/* ptx_parse.h — private to the PTX front end (ptx_lex.c, ptx_parse*.c, module.c): tokens,
 * the string map, and the parse context shared by the declaration and instruction parsers.
 * Not for the executor: it sees only the finished IR (ir.h). */
#ifndef WS_SIM_PTX_PARSE_H
#define WS_SIM_PTX_PARSE_H

#include <stddef.h>
#include "sim/ir.h"

/* ---------------------------------------------------------------- tokens */

typedef enum ws_tok_kind {
    WS_TK_EOF = 0,
    WS_TK_WORD,  /* identifiers, directives (.reg), opcodes with modifiers (ld.global.u32),
                    registers (%r1, %tid.x), labels ($L__BB0_1) */
    WS_TK_NUM,   /* 12, 0xff, 0f3F800000, 0d3FF0000000000000, 9.0 */
    WS_TK_STR,   /* "path" (s/len exclude the quotes) */
    WS_TK_PUNCT  /* one character: { } ( ) [ ] , ; : @ ! | + - < > = */
} ws_tok_kind;

typedef struct ws_tok {
    int kind;       /* ws_tok_kind */
    int line;       /* 1-based line in the PTX text */
    int len;
    const char *s;  /* points into the PTX text */
} ws_tok;

/* Splits the whole text into tokens (comments dropped, a final WS_TK_EOF added). */
int ws_ptx_lex(const char *text, size_t len, const char *name, ws_tok **toks, int *ntoks,
               ws_error *err);

/* ---------------------------------------------------------------- string map */

typedef struct ws_strmap_slot { char *key; int len; int val; } ws_strmap_slot;
typedef struct ws_strmap { ws_strmap_slot *slots; int cap, n; } ws_strmap;

void ws_strmap_init(ws_strmap *m);
void ws_strmap_free(ws_strmap *m);
void ws_strmap_clear(ws_strmap *m);
/* -1 when absent. */
int ws_strmap_get(const ws_strmap *m, const char *s, int len);
/* Adds or replaces; returns the previous value (-1 when new), -2 on out of memory. */
int ws_strmap_put(ws_strmap *m, const char *s, int len, int val);

/* ---------------------------------------------------------------- parse context */

/* A name bound inside a { } scope, restored when the scope closes. */
typedef struct ws_binding { ws_strmap *map; const char *s; int len; int prev; int depth; } ws_binding;
/* A forward reference: a label operand (fixed per function) or a call target (per module). */
typedef struct ws_fixup { int fn, pc, slot, tok; } ws_fixup;

typedef struct ws_pctx {
    ws_module *m;
    const char *name;      /* the PTX file name, for messages */
    ws_error *err;
    ws_tok *t;
    int nt, pos;
    ws_strmap funcs;       /* function name -> index in m->funcs */
    ws_strmap externs;     /* .extern .func names without a body -> 1 */
    ws_strmap globals;     /* module variable name -> index in m->globals */
    int cap_funcs, cap_globals, cap_addrinits;
    ws_fixup *calls; int ncalls, cap_calls;
    /* the function being parsed */
    ws_function *fn;
    int fn_index;
    /* the function's .reqnctapercluster (CTAs in a cluster; -1: .explicitcluster alone) and
       its line: a launch of a kernel that needs clusters is refused */
    int cluster_ctas, cluster_line;
    int cap_regs, cap_insts, cap_locals;
    ws_strmap regs, locals, params, labels;
    ws_strmap inlined;     /* "file:line:col" of an inlined location -> main-file line */
    ws_binding *binds; int nbinds, cap_binds;
    int depth;
    ws_fixup *lfix; int nlfix, cap_lfix;
    uint64_t param_scratch; /* running offset of call-sequence .param locals */
    int loc_file, loc_line; /* current effective source location */
    int have_main_loc;
} ws_pctx;

/* ptx_parse.c helpers used by ptx_parse_inst.c */
const ws_tok *ws_pc_peek(ws_pctx *c);
const ws_tok *ws_pc_next(ws_pctx *c);
int ws_pc_is(const ws_tok *t, const char *word);       /* word or punct equal to text */
int ws_pc_expect(ws_pctx *c, const char *what);        /* consumes punct/word `what` */
int ws_pc_syntax(ws_pctx *c, const ws_tok *t, const char *expected);
int ws_pc_fail(ws_pctx *c, ws_code code, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int ws_pc_num(ws_pctx *c, int64_t *v);                 /* an integer literal, maybe negative */
int ws_parse_int_literal(const char *s, int len, int64_t *v);
ws_ptype ws_ptype_from(const char *s, int len);        /* "u32" (no dot) */
int ws_pc_sink(ws_pctx *c, int32_t *reg);              /* the function's `_` register */

/* ptx_parse_inst.c: one instruction statement (guard, opcode, operands, ';'). */
int ws_parse_instruction(ws_pctx *c);
/* Appends an implicit ret (at `line`, the closing brace) when the body does not end in an
 * unguarded ret/exit/trap/bra; then resolves the function's label fixups. */
int ws_finish_body(ws_pctx *c, int line);
int ws_resolve_labels(ws_pctx *c);

/* ptx_parse.c: the whole module; freeing one function's arrays. */
int ws_parse_module(ws_pctx *c);
void ws_ptx_function_free(ws_function *f);

#endif
