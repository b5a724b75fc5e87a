/* spec.c — reading a workload spec: lines, directives and variant blocks (pass 1), then
 * the resolution passes of spec_resolve.c and region.c; plus the small public queries.
 * Format: docs/spec-format.md. Generating buffer contents is gen.c's job. */
#include "core/core_internal.h"

#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define WS_SPEC_FAIL(p, line, ...) ws_error_at((p)->err, WS_ERR_SPEC, (p)->path, line, __VA_ARGS__)

int ws_split_words(char *s, char **tok, int max)
{
    int n = 0;
    char *save = NULL;
    for (char *w = strtok_r(s, " \t\r\v\f", &save); w; w = strtok_r(NULL, " \t\r\v\f", &save)) {
        if (n == max)
            return -1;
        tok[n++] = w;
    }
    return n;
}

/* Grows a spec array by one zeroed element; NULL when out of memory. */
static int ws_copy_name(ws_parse *p, int line, char *dst, size_t n, const char *what,
                        const char *name)
{
    if (!ws_is_ident(name))
        return WS_SPEC_FAIL(p, line, "%s name '%s' is not an identifier", what, name);
    if (strlen(name) >= n)
        return WS_SPEC_FAIL(p, line, "%s name '%s' is too long", what, name);
    strcpy(dst, name);
    return WS_OK;
}

static int ws_copy_text(ws_parse *p, int line, char *dst, size_t n, const char *what,
                        const char *text)
{
    if (strlen(text) >= n)
        return WS_SPEC_FAIL(p, line, "%s is too long (at most %zu characters)", what, n - 1);
    strcpy(dst, text);
    return WS_OK;
}

/* The text after the first word of a (trimmed) line. */
static const char *ws_rest(const char *line)
{
    const char *r = line + strcspn(line, " \t");
    return r + strspn(r, " \t");
}

/* ---------------------------------------------------------------- directives */

static int ws_dup_check(ws_parse *p, int line, const char *what, const char *name,
                        int found_line)
{
    if (found_line)
        return WS_SPEC_FAIL(p, line, "duplicate %s '%s' (first defined at line %d)", what,
                            name, found_line);
    return WS_OK;
}

static int ws_dir_const(ws_parse *p, int line, const char *rest)
{
    ws_spec *s = p->s;
    const char *eq = strchr(rest, '=');
    char name[WS_NAME_MAX + 1];
    size_t n = eq ? (size_t)(eq - rest) : 0;
    while (n && (rest[n - 1] == ' ' || rest[n - 1] == '\t'))
        n--;
    if (!eq || n == 0)
        return WS_SPEC_FAIL(p, line, "expected 'const NAME = EXPRESSION'");
    if (n > WS_NAME_MAX)
        n = WS_NAME_MAX;
    memcpy(name, rest, n);
    name[n] = '\0';
    const char *expr = eq + 1;
    expr += strspn(expr, " \t");
    if (!*expr)
        return WS_SPEC_FAIL(p, line, "constant '%s' has no value", name);
    for (int i = 0; i < s->nconsts; i++)
        if (strcmp(s->consts[i].name, name) == 0)
            return ws_dup_check(p, line, "constant", name, s->consts[i].line);
    ws_const *c = ws_core_grow((void **)&s->consts, &s->nconsts, &p->cap_consts, sizeof *c);
    if (!c)
        return ws_error_set(p->err, WS_ERR_NOMEM, "out of memory");
    c->line = line;
    int rc = ws_copy_name(p, line, c->name, sizeof c->name, "constant", name);
    if (rc == WS_OK)
        rc = ws_copy_text(p, line, c->expr, sizeof c->expr, "expression", expr);
    return rc;
}

static int ws_dir_gen(ws_parse *p, int line, const char *rest)
{
    char name[WS_NAME_MAX + 1] = "";
    size_t n = strcspn(rest, " \t");
    if (n == 0)
        return WS_SPEC_FAIL(p, line, "expected 'gen NAME GENERATOR...'");
    snprintf(name, sizeof name, "%.*s", (int)(n > WS_NAME_MAX ? WS_NAME_MAX : n), rest);
    const char *body = ws_rest(rest);
    if (!*body)
        return WS_SPEC_FAIL(p, line, "gen '%s' has no generator", name);
    for (int i = 0; i < p->ngens; i++)
        if (strcmp(p->gens[i].name, name) == 0)
            return ws_dup_check(p, line, "gen", name, p->gens[i].line);
    ws_raw_gen *g = ws_core_grow((void **)&p->gens, &p->ngens, &p->cap_gens, sizeof *g);
    if (!g)
        return ws_error_set(p->err, WS_ERR_NOMEM, "out of memory");
    g->line = line;
    if (!(g->text = strdup(body)))
        return ws_error_set(p->err, WS_ERR_NOMEM, "out of memory");
    return ws_copy_name(p, line, g->name, sizeof g->name, "gen", name);
}

/* buffer NAME TYPE COUNT GENERATOR... [seed S] */
static int ws_dir_buffer(ws_parse *p, int line, char **tok, int ntok, const char *rest)
{
    ws_spec *s = p->s;
    if (ntok < 5)
        return WS_SPEC_FAIL(p, line, "expected 'buffer NAME TYPE COUNT GENERATOR...'");
    for (int i = 0; i < s->nbuffers; i++)
        if (strcmp(s->buffers[i].name, tok[1]) == 0)
            return ws_dup_check(p, line, "buffer", tok[1], s->buffers[i].line);
    int cap = p->cap_buffers;
    ws_buffer_spec *b = ws_core_grow((void **)&s->buffers, &s->nbuffers, &p->cap_buffers,
                                     sizeof *b);
    if (!b)
        return ws_error_set(p->err, WS_ERR_NOMEM, "out of memory");
    if (cap != p->cap_buffers) {
        char **nt = realloc(p->buffer_gen_text, (size_t)p->cap_buffers * sizeof *nt);
        if (!nt)
            return ws_error_set(p->err, WS_ERR_NOMEM, "out of memory");
        p->buffer_gen_text = nt;
    }
    p->buffer_gen_text[s->nbuffers - 1] = NULL;
    b->line = line;
    int rc = ws_copy_name(p, line, b->name, sizeof b->name, "buffer", tok[1]);
    if (rc != WS_OK)
        return rc;
    if (ws_type_parse(tok[2], &b->type) != 0)
        return WS_SPEC_FAIL(p, line, "buffer '%s': unknown type '%s' (types: i8 u8 i16 u16 "
                            "i32 u32 i64 u64 f16 bf16 f32 f64)", b->name, tok[2]);
    if ((rc = ws_copy_text(p, line, b->count_expr, sizeof b->count_expr, "count", tok[3])))
        return rc;
    /* The generator words are everything after the count, as written. */
    const char *g = rest;
    for (int i = 0; i < 4; i++)
        g = ws_rest(g);
    if (!(p->buffer_gen_text[s->nbuffers - 1] = strdup(g)))
        return ws_error_set(p->err, WS_ERR_NOMEM, "out of memory");
    return WS_OK;
}

static int ws_dir_check(ws_parse *p, int line, char **tok, int ntok)
{
    int file = ntok >= 4 && strcmp(tok[2], "file") == 0;
    int at = 2 + 2 * file;
    int tol = ntok >= at + 2 && strcmp(tok[at], "tolerance") == 0;
    int abs_at = at + 2 * tol;
    int abs_tol = ntok >= abs_at + 2 && strcmp(tok[abs_at], "absolute") == 0;
    if (ntok != abs_at + 2 * abs_tol)
        return WS_SPEC_FAIL(p, line, "expected 'check BUFFER [file PATH] [tolerance X] "
                            "[absolute Y]'");
    for (int i = 0; i < p->nchecks; i++)
        if (strcmp(p->checks[i].name, tok[1]) == 0)
            return ws_dup_check(p, line, "check of", tok[1], p->checks[i].line);
    ws_raw_check *c = ws_core_grow((void **)&p->checks, &p->nchecks, &p->cap_checks,
                                   sizeof *c);
    if (!c)
        return ws_error_set(p->err, WS_ERR_NOMEM, "out of memory");
    c->line = line;
    int rc = ws_copy_name(p, line, c->name, sizeof c->name, "buffer", tok[1]);
    if (rc == WS_OK && tol)
        rc = ws_copy_text(p, line, c->tolerance, sizeof c->tolerance, "tolerance", tok[at + 1]);
    if (rc == WS_OK && abs_tol)
        rc = ws_copy_text(p, line, c->absolute, sizeof c->absolute, "absolute", tok[abs_at + 1]);
    if (rc == WS_OK && file && ws_spec_relative_path(p->path, tok[3], c->file, sizeof c->file))
        rc = WS_SPEC_FAIL(p, line, "check '%s': file path too long", c->name);
    return rc;
}

static int ws_dir_variant(ws_parse *p, int line, char **tok, int ntok)
{
    ws_spec *s = p->s;
    if (ntok != 2)
        return WS_SPEC_FAIL(p, line, "expected 'variant NAME'");
    for (int i = 0; i < s->nvariants; i++)
        if (strcmp(s->variants[i].name, tok[1]) == 0)
            return ws_dup_check(p, line, "variant", tok[1], s->variants[i].line);
    ws_variant *v = ws_core_grow((void **)&s->variants, &s->nvariants, &p->cap_variants,
                                 sizeof *v);
    if (!v)
        return ws_error_set(p->err, WS_ERR_NOMEM, "out of memory");
    v->line = line;
    p->in_variant = 1;
    return ws_copy_name(p, line, v->name, sizeof v->name, "variant", tok[1]);
}

/* grid/block: 1-3 expressions, each one word. */
static int ws_variant_dims(ws_parse *p, int line, char **tok, int ntok,
                           char exprs[3][WS_EXPR_MAX])
{
    if (ntok < 2 || ntok > 4)
        return WS_SPEC_FAIL(p, line, "expected '%s X [Y [Z]]' (one to three expressions "
                            "without spaces)", tok[0]);
    if (exprs[0][0])
        return WS_SPEC_FAIL(p, line, "variant sets %s twice", tok[0]);
    for (int i = 0; i < ntok - 1; i++) {
        int rc = ws_copy_text(p, line, exprs[i], WS_EXPR_MAX, tok[0], tok[i + 1]);
        if (rc != WS_OK)
            return rc;
    }
    return WS_OK;
}

static int ws_variant_args(ws_parse *p, int line, ws_variant *v, char **tok, int ntok)
{
    if (v->nargs)
        return WS_SPEC_FAIL(p, line, "variant sets args twice");
    if (ntok - 1 > WS_ARGS_MAX)
        return WS_SPEC_FAIL(p, line, "too many args (at most %d)", WS_ARGS_MAX);
    for (int i = 1; i < ntok; i++) {
        int rc = ws_copy_text(p, line, v->args[v->nargs].expr, WS_EXPR_MAX, "arg", tok[i]);
        if (rc != WS_OK)
            return rc;
        v->args[v->nargs++].line = line;
    }
    return WS_OK;
}

/* The same for a launch line of a sequence (spec_steps.c). */
int ws_launch_dims(ws_parse *p, int line, char **tok, int ntok, char exprs[3][WS_EXPR_MAX])
{
    return ws_variant_dims(p, line, tok, ntok, exprs);
}

int ws_launch_args(ws_parse *p, int line, ws_variant *v, char **tok, int ntok)
{
    return ws_variant_args(p, line, v, tok, ntok);
}

/* A line inside a variant block; returns 1 in *handled when it was one. */
static int ws_dir_variant_line(ws_parse *p, int line, char **tok, int ntok, const char *rest,
                               int *handled)
{
    ws_variant *v = &p->s->variants[p->s->nvariants - 1];
    const char *d = tok[0];
    int rc = ws_dir_step(p, line, tok, ntok, handled);
    if (*handled)
        return rc;
    *handled = 1;
    if (v->nsteps && (!strcmp(d, "kernel") || !strcmp(d, "grid") || !strcmp(d, "block") ||
                      !strcmp(d, "smem") || !strcmp(d, "args")))
        return WS_SPEC_FAIL(p, line, "variant '%s' mixes '%s' with 'launch' lines (line %d): "
                            "write a single launch as one 'launch' line, or use no 'launch'",
                            v->name, d, v->steps[0].line);
    if (strcmp(d, "description") == 0)
        return ws_copy_text(p, line, v->description, sizeof v->description, "description",
                            rest);
    if (strcmp(d, "kernel") == 0) {
        if (ntok != 2)
            return WS_SPEC_FAIL(p, line, "expected 'kernel NAME'");
        if (v->kernel[0])
            return WS_SPEC_FAIL(p, line, "variant sets kernel twice");
        return ws_copy_text(p, line, v->kernel, sizeof v->kernel, "kernel name", tok[1]);
    }
    if (strcmp(d, "grid") == 0)
        return ws_variant_dims(p, line, tok, ntok, v->grid_expr);
    if (strcmp(d, "block") == 0)
        return ws_variant_dims(p, line, tok, ntok, v->block_expr);
    if (strcmp(d, "smem") == 0) {
        if (ntok != 2)
            return WS_SPEC_FAIL(p, line, "expected 'smem BYTES'");
        return ws_copy_text(p, line, v->smem_expr, sizeof v->smem_expr, "smem", tok[1]);
    }
    if (strcmp(d, "args") == 0)
        return ws_variant_args(p, line, v, tok, ntok);
    if (strcmp(d, "cooperative") == 0) { /* all CTAs co-resident: this_grid().sync() */
        if (ntok != 1)
            return WS_SPEC_FAIL(p, line, "expected 'cooperative' alone on its line");
        v->cooperative = 1;
        return WS_OK;
    }
    if (strcmp(d, "racy") == 0) { /* its outputs may differ: a race is what it shows */
        if (ntok != 1)
            return WS_SPEC_FAIL(p, line, "expected 'racy' alone on its line");
        v->racy = 1;
        return WS_OK;
    }
    *handled = 0;
    return WS_OK;
}

/* symbol NAME BUFFER: the buffer is looked up once every line is read. */
static int ws_dir_symbol(ws_parse *p, int line, char **tok, int ntok)
{
    ws_spec *s = p->s;
    if (ntok != 3)
        return WS_SPEC_FAIL(p, line, "expected 'symbol NAME BUFFER' (a __constant__ or "
                            "__device__ variable of the .cu and the buffer that fills it)");
    for (int i = 0; i < s->nsymbols; i++)
        if (strcmp(s->symbols[i].name, tok[1]) == 0)
            return ws_dup_check(p, line, "symbol", tok[1], s->symbols[i].line);
    ws_symbol *y = ws_core_grow((void **)&s->symbols, &s->nsymbols, &p->cap_symbols,
                                sizeof *y);
    if (!y)
        return ws_error_set(p->err, WS_ERR_NOMEM, "out of memory");
    y->line = line;
    y->buffer = -1;
    int rc = ws_copy_name(p, line, y->name, sizeof y->name, "symbol", tok[1]);
    return rc == WS_OK ? ws_copy_name(p, line, y->buffer_name, sizeof y->buffer_name, "buffer",
                                      tok[2])
                       : rc;
}

/* region NAME lines A-B | region NAME function FNAME */
static int ws_dir_region(ws_parse *p, int line, char **tok, int ntok)
{
    ws_spec *s = p->s;
    if (ntok != 4 || (strcmp(tok[2], "lines") != 0 && strcmp(tok[2], "function") != 0))
        return WS_SPEC_FAIL(p, line, "expected 'region NAME lines A-B' or "
                            "'region NAME function FUNCTION'");
    for (int i = 0; i < s->nregions; i++)
        if (strcmp(s->regions[i].name, tok[1]) == 0)
            return ws_dup_check(p, line, "region", tok[1], s->regions[i].line);
    ws_region *r = ws_core_grow((void **)&s->regions, &s->nregions, &p->cap_regions,
                                sizeof *r);
    if (!r)
        return ws_error_set(p->err, WS_ERR_NOMEM, "out of memory");
    r->line = line;
    int rc = ws_copy_name(p, line, r->name, sizeof r->name, "region", tok[1]);
    if (rc != WS_OK)
        return rc;
    if (tok[2][0] == 'f') {
        r->kind = WS_REGION_FUNCTION;
        return ws_copy_name(p, line, r->function, sizeof r->function, "function", tok[3]);
    }
    r->kind = WS_REGION_LINES;
    char *end;
    long a = strtol(tok[3], &end, 10), b = 0;
    if (end != tok[3] && *end == '-') {
        char *b0 = end + 1;
        b = strtol(b0, &end, 10);
        if (end == b0)
            end = b0 - 1;
    }
    if (*end || a < 1 || b < a || b > INT_MAX)
        return WS_SPEC_FAIL(p, line, "region '%s': bad line range '%s' (expected A-B with "
                            "1 <= A <= B)", r->name, tok[3]);
    r->first_line = (int)a;
    r->last_line = (int)b;
    return WS_OK;
}

static int ws_dir_single(ws_parse *p, int line, char **tok, int ntok, char *dst, size_t n,
                         int ident)
{
    if (ntok != 2)
        return WS_SPEC_FAIL(p, line, "expected '%s VALUE' (one word)", tok[0]);
    if (dst[0])
        return WS_SPEC_FAIL(p, line, "%s given twice", tok[0]);
    if (ident)
        return ws_copy_name(p, line, dst, n, tok[0], tok[1]);
    return ws_copy_text(p, line, dst, n, tok[0], tok[1]);
}

static int ws_dir_seed(ws_parse *p, int line, char **tok, int ntok)
{
    char *end;
    if (ntok != 2)
        return WS_SPEC_FAIL(p, line, "expected 'seed N'");
    if (tok[1][0] == '-')
        end = tok[1];
    else
        p->s->seed = strtoull(tok[1], &end, 0);
    if (end == tok[1] || *end)
        return WS_SPEC_FAIL(p, line, "seed '%s' is not a non-negative integer", tok[1]);
    return WS_OK;
}

static int ws_dir_line(ws_parse *p, int line, char *text)
{
    char *tok[WS_TOK_MAX], copy[4096];
    ws_spec *s = p->s;
    if (strlen(text) >= sizeof copy)
        return WS_SPEC_FAIL(p, line, "line too long");
    strcpy(copy, text);
    int ntok = ws_split_words(copy, tok, WS_TOK_MAX);
    if (ntok < 0)
        return WS_SPEC_FAIL(p, line, "too many words on one line (at most %d)", WS_TOK_MAX);
    const char *d = tok[0], *rest = ws_rest(text);
    if (p->in_variant) {
        int handled, rc = ws_dir_variant_line(p, line, tok, ntok, rest, &handled);
        if (handled)
            return rc;
        p->in_variant = 0;
        if ((rc = ws_steps_close(p)) != WS_OK)
            return rc;
    }
    if (strcmp(d, "workload") == 0)
        return ws_dir_single(p, line, tok, ntok, s->name, sizeof s->name, 1);
    if (strcmp(d, "description") == 0)
        return ws_copy_text(p, line, s->description, sizeof s->description, "description",
                            rest);
    if (strcmp(d, "source") == 0) {
        p->source_line = line;
        return ws_dir_single(p, line, tok, ntok, s->source, sizeof s->source, 0);
    }
    if (strcmp(d, "reference") == 0)
        return ws_dir_single(p, line, tok, ntok, s->reference, sizeof s->reference, 1);
    if (strcmp(d, "seed") == 0)
        return ws_dir_seed(p, line, tok, ntok);
    if (strcmp(d, "variants") == 0) {
        if (ntok != 2 || strcmp(tok[1], "independent") != 0)
            return WS_SPEC_FAIL(p, line, "expected 'variants independent'");
        s->independent = 1;
        return WS_OK;
    }
    if (strcmp(d, "const") == 0)
        return ws_dir_const(p, line, rest);
    if (strcmp(d, "gen") == 0)
        return ws_dir_gen(p, line, rest);
    if (strcmp(d, "buffer") == 0)
        return ws_dir_buffer(p, line, tok, ntok, text);
    if (strcmp(d, "check") == 0)
        return ws_dir_check(p, line, tok, ntok);
    if (strcmp(d, "variant") == 0)
        return ws_dir_variant(p, line, tok, ntok);
    if (strcmp(d, "region") == 0)
        return ws_dir_region(p, line, tok, ntok);
    if (strcmp(d, "symbol") == 0)
        return ws_dir_symbol(p, line, tok, ntok);
    if (strcmp(d, "texture") == 0 || strcmp(d, "surface") == 0)
        return ws_spec_dir_image(p, line, tok, ntok);
    if (!strcmp(d, "kernel") || !strcmp(d, "grid") || !strcmp(d, "block") ||
        !strcmp(d, "smem") || !strcmp(d, "args") || !strcmp(d, "cooperative") ||
        !strcmp(d, "racy") ||
        !strcmp(d, "launch") || !strcmp(d, "repeat") || !strcmp(d, "while") ||
        !strcmp(d, "end") || !strcmp(d, "set"))
        return WS_SPEC_FAIL(p, line, "'%s' outside a variant (write 'variant NAME' first)", d);
    return WS_SPEC_FAIL(p, line, "unknown directive '%s'", d);
}

/* Pass 1: every line, comments stripped, into the spec and the raw lists. */
static int ws_spec_read_lines(ws_parse *p, const char *text)
{
    int line = 0;
    const char *q = text;
    while (*q) {
        const char *eol = q + strcspn(q, "\n");
        line++;
        size_t n = (size_t)(eol - q);
        char buf[4096];
        if (n >= sizeof buf)
            return WS_SPEC_FAIL(p, line, "line too long");
        memcpy(buf, q, n);
        buf[n] = '\0';
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        char *start = buf + strspn(buf, " \t\r");
        size_t len = strlen(start);
        while (len && strchr(" \t\r\v\f", start[len - 1]))
            start[--len] = '\0';
        if (*start) {
            int rc = ws_dir_line(p, line, start);
            if (rc != WS_OK)
                return rc;
        }
        q = *eol ? eol + 1 : eol;
    }
    return p->in_variant ? ws_steps_close(p) : WS_OK;
}

/* Workload name from the file name when not given; source relative to the spec. */
static int ws_spec_defaults(ws_parse *p)
{
    ws_spec *s = p->s;
    char tmp[WS_PATH_MAX];
    snprintf(tmp, sizeof tmp, "%s", p->path);
    if (!s->name[0]) {
        const char *base = strrchr(tmp, '/') ? strrchr(tmp, '/') + 1 : tmp;
        size_t n = strcspn(base, ".");
        snprintf(s->name, sizeof s->name, "%.*s", (int)n, base);
    }
    if (!s->source[0])
        snprintf(s->source, sizeof s->source, "%s.cu", s->name);
    if (s->nvariants == 0)
        return WS_SPEC_FAIL(p, 0, "no variant: a spec needs at least one "
                            "'variant NAME' with kernel, grid and block");
    if (s->source[0] != '/') {
        char joined[WS_PATH_MAX * 2];
        snprintf(joined, sizeof joined, "%s/%s", dirname(tmp), s->source);
        char *real = realpath(joined, NULL);
        int n = snprintf(s->source, sizeof s->source, "%s", real ? real : joined);
        free(real);
        if (n >= (int)sizeof s->source)
            return WS_SPEC_FAIL(p, p->source_line, "source path too long");
    }
    return WS_OK;
}

static void ws_parse_free(ws_parse *p)
{
    for (int i = 0; i < p->ngens; i++)
        free(p->gens[i].text);
    free(p->gens);
    free(p->checks);
    if (p->buffer_gen_text)
        for (int i = 0; i < p->s->nbuffers; i++)
            free(p->buffer_gen_text[i]);
    free(p->buffer_gen_text);
    free(p->const_state);
}

int ws_spec_parse(const char *text, const char *path, const ws_define *defs, int ndefs,
                  ws_spec **out, ws_error *err)
{
    ws_spec *s = calloc(1, sizeof *s);
    if (!s)
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory");
    ws_parse p = {.s = s, .err = err, .path = path ? path : "<spec>"};
    snprintf(s->path, sizeof s->path, "%s", p.path);
    s->seed = 1;
    int rc = ws_spec_read_lines(&p, text);
    if (rc == WS_OK)
        rc = ws_spec_defaults(&p);
    if (rc == WS_OK)
        rc = ws_spec_resolve_consts(&p, defs, ndefs);
    if (rc == WS_OK)
        rc = ws_spec_resolve_buffers(&p);
    if (rc == WS_OK)
        rc = ws_spec_resolve_symbols(&p);
    if (rc == WS_OK)
        rc = ws_spec_resolve_variants(&p);
    if (rc == WS_OK)
        rc = ws_spec_resolve_images(&p);
    if (rc == WS_OK)
        rc = ws_spec_resolve_regions(&p);
    ws_parse_free(&p);
    if (rc != WS_OK) {
        ws_spec_free(s);
        *out = NULL;
        return rc;
    }
    *out = s;
    return WS_OK;
}

int ws_spec_load(const char *path, const ws_define *defs, int ndefs, ws_spec **out,
                 ws_error *err)
{
    char *text;
    *out = NULL;
    int rc = ws_read_file(path, &text, NULL, err);
    if (rc != WS_OK)
        return rc;
    rc = ws_spec_parse(text, path, defs, ndefs, out, err);
    free(text);
    return rc;
}

void ws_spec_free(ws_spec *s)
{
    if (!s)
        return;
    free(s->consts);
    free(s->buffers);
    for (int i = 0; s->variants && i < s->nvariants; i++)
        ws_steps_free(&s->variants[i]);
    free(s->variants);
    free(s->regions);
    free(s->symbols);
    free(s->images);
    free(s);
}

const ws_variant *ws_spec_variant(const ws_spec *s, const char *name, ws_error *err)
{
    if (!name)
        return s->nvariants ? &s->variants[0] : NULL;
    char known[256] = "";
    size_t used = 0;
    for (int i = 0; i < s->nvariants; i++) {
        if (strcmp(s->variants[i].name, name) == 0)
            return &s->variants[i];
        if (used < sizeof known)
            used += (size_t)snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "",
                                     s->variants[i].name);
    }
    ws_error_set(err, WS_ERR_NOTFOUND, "no variant '%s' in workload %s (variants: %s)", name,
                 s->name, known);
    return NULL;
}

const ws_const *ws_spec_const(const ws_spec *s, const char *name)
{
    for (int i = 0; i < s->nconsts; i++)
        if (strcmp(s->consts[i].name, name) == 0)
            return &s->consts[i];
    return NULL;
}

void ws_spec_params_string(const ws_spec *s, char *buf, size_t n)
{
    size_t used = 0;
    if (n == 0)
        return;
    buf[0] = '\0';
    for (int i = 0; i < s->nconsts && used < n; i++) {
        const ws_const *c = &s->consts[i];
        int k = c->is_string || c->is_float
                    ? snprintf(buf + used, n - used, "%s%s=%s", i ? " " : "", c->name,
                               c->is_string ? c->sval : c->expr)
                    : snprintf(buf + used, n - used, "%s%s=%lld", i ? " " : "", c->name,
                               (long long)c->ival);
        if (k < 0)
            break;
        used += (size_t)k;
    }
}

int ws_define_parse(char *arg, ws_define *d, ws_error *err)
{
    char *eq = strchr(arg, '=');
    if (!eq || eq == arg || !eq[1])
        return ws_error_set(err, WS_ERR_USAGE, "-D expects NAME=VALUE, got '%s'", arg);
    *eq = '\0';
    if (!ws_is_ident(arg)) {
        *eq = '=';
        return ws_error_set(err, WS_ERR_USAGE, "-D '%s': the name is not an identifier", arg);
    }
    d->name = arg;
    d->value = eq + 1;
    return WS_OK;
}
