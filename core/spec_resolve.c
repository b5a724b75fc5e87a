/* spec_resolve.c — the spec's second pass: -D overrides, constants in any order (with
 * cycle detection), buffer counts and generators, checks, and variant launch shapes and
 * arguments. Reading lines is spec.c's job; regions are region.c's. */
#include "core/core_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WS_SPEC_FAIL(p, line, ...) ws_error_at((p)->err, WS_ERR_SPEC, (p)->path, line, __VA_ARGS__)
#define WS_CONST_DEPTH 256

/* ---------------------------------------------------------------- constants */

typedef struct ws_const_walk {
    ws_parse *p;
    int stack[WS_CONST_DEPTH];
    int depth;
} ws_const_walk;

static int ws_const_index(const ws_spec *s, const char *name)
{
    for (int i = 0; i < s->nconsts; i++)
        if (strcmp(s->consts[i].name, name) == 0)
            return i;
    return -1;
}

static int ws_const_resolve(ws_const_walk *w, int i);

static int ws_const_cycle(ws_const_walk *w, int i)
{
    ws_spec *s = w->p->s;
    char chain[512] = "";
    size_t used = 0;
    int k = 0;
    while (k < w->depth && w->stack[k] != i)
        k++;
    for (; k < w->depth && used < sizeof chain; k++)
        used += (size_t)snprintf(chain + used, sizeof chain - used, "%s -> ",
                                 s->consts[w->stack[k]].name);
    if (used < sizeof chain)
        snprintf(chain + used, sizeof chain - used, "%s", s->consts[i].name);
    return WS_SPEC_FAIL(w->p, s->consts[i].line, "constants depend on each other in a "
                        "cycle: %s", chain);
}

static int ws_float_in_int(ws_parse *p, int line, const ws_const *c)
{
    return WS_SPEC_FAIL(p, line, "constant '%s' is the real number %s, not an integer (real "
                        "constants are kernel arguments and -D values only)", c->name, c->expr);
}

/* A real literal: "0.5", "-2.5e-3", "1e6" (not an integer, hex or inf/nan). */
int ws_real_literal(const char *text, double *out)
{
    char *end;
    errno = 0;
    double d = strtod(text, &end);
    if (end == text || *end || errno || !isfinite(d) || strpbrk(text, "xXnN") ||
        !strpbrk(text, ".eE"))
        return 0;
    *out = d;
    return 1;
}

/* Name lookup inside a constant's expression: resolves that constant first. */
static int ws_const_lookup_walk(void *ctx, const char *name, int64_t *value, ws_error *err)
{
    ws_const_walk *w = ctx;
    ws_spec *s = w->p->s;
    int j = ws_const_index(s, name);
    int line = w->depth ? s->consts[w->stack[w->depth - 1]].line : 0;
    if (j < 0)
        return WS_SPEC_FAIL(w->p, line, "unknown constant '%s'", name);
    int rc = ws_const_resolve(w, j);
    if (rc != WS_OK)
        return rc;
    if (s->consts[j].is_string)
        return WS_SPEC_FAIL(w->p, line, "constant '%s' is the word '%s', not a number", name,
                            s->consts[j].sval);
    if (s->consts[j].is_float)
        return ws_float_in_int(w->p, line, &s->consts[j]);
    *value = s->consts[j].ival;
    return WS_OK;
}

static int ws_const_resolve(ws_const_walk *w, int i)
{
    ws_parse *p = w->p;
    ws_const *c = &p->s->consts[i];
    if (p->const_state[i] == 2)
        return WS_OK;
    if (p->const_state[i] == 1)
        return ws_const_cycle(w, i);
    if (w->depth == WS_CONST_DEPTH)
        return WS_SPEC_FAIL(p, c->line, "constants nested more than %d deep", WS_CONST_DEPTH);
    p->const_state[i] = 1;
    w->stack[w->depth++] = i;
    int rc = WS_OK;
    /* A single word that names no constant is a word constant (DIST = uniform). */
    if (ws_real_literal(c->expr, &c->fval)) {
        c->is_float = 1;
        c->ival = (int64_t)c->fval;
    } else if (ws_is_ident(c->expr) && ws_const_index(p->s, c->expr) < 0) {
        if (strlen(c->expr) >= sizeof c->sval)
            rc = WS_SPEC_FAIL(p, c->line, "word constant '%s' is too long", c->name);
        else {
            c->is_string = 1;
            strcpy(c->sval, c->expr);
        }
    } else {
        ws_expr_env env = {ws_const_lookup_walk, w, p->path, c->line, p->err};
        rc = ws_expr_eval(c->expr, &env, &c->ival);
    }
    w->depth--;
    p->const_state[i] = 2;
    return rc;
}

static int ws_apply_defines(ws_parse *p, const ws_define *defs, int ndefs)
{
    ws_spec *s = p->s;
    for (int d = 0; d < ndefs; d++) {
        int i = ws_const_index(s, defs[d].name);
        if (i < 0) {
            char known[384] = "";
            size_t used = 0;
            for (int k = 0; k < s->nconsts && used < sizeof known; k++)
                used += (size_t)snprintf(known + used, sizeof known - used, "%s%s",
                                         k ? ", " : "", s->consts[k].name);
            return WS_SPEC_FAIL(p, 0, "unknown constant '%s' (known: %s)", defs[d].name,
                                s->nconsts ? known : "none");
        }
        if (strlen(defs[d].value) >= sizeof s->consts[i].expr || !defs[d].value[0])
            return WS_SPEC_FAIL(p, 0, "-D %s: bad value", defs[d].name);
        strcpy(s->consts[i].expr, defs[d].value);
        s->consts[i].overridden = 1;
    }
    return WS_OK;
}

int ws_spec_resolve_consts(ws_parse *p, const ws_define *defs, int ndefs)
{
    int rc = ws_apply_defines(p, defs, ndefs);
    if (rc != WS_OK)
        return rc;
    p->const_state = calloc((size_t)p->s->nconsts + 1, sizeof *p->const_state);
    if (!p->const_state)
        return ws_error_set(p->err, WS_ERR_NOMEM, "out of memory");
    ws_const_walk w = {.p = p};
    for (int i = 0; i < p->s->nconsts && rc == WS_OK; i++)
        rc = ws_const_resolve(&w, i);
    return rc;
}

/* ---------------------------------------------------------------- numbers */

typedef struct ws_lookup_ctx {
    ws_parse *p;
    int line;
} ws_lookup_ctx;

/* Lookup once every constant is resolved. */
static int ws_const_lookup(void *ctx, const char *name, int64_t *value, ws_error *err)
{
    ws_lookup_ctx *l = ctx;
    for (int k = l->p->nbound - 1; k >= 0; k--) {
        if (strcmp(l->p->bound_name[k], name) == 0) {
            *value = l->p->bound_value[k];
            return WS_OK;
        }
    }
    int j = ws_const_index(l->p->s, name);
    if (j < 0)
        return WS_SPEC_FAIL(l->p, l->line, "unknown constant '%s'", name);
    if (l->p->s->consts[j].is_string)
        return WS_SPEC_FAIL(l->p, l->line, "constant '%s' is the word '%s', not a number",
                            name, l->p->s->consts[j].sval);
    if (l->p->s->consts[j].is_float)
        return ws_float_in_int(l->p, l->line, &l->p->s->consts[j]);
    *value = l->p->s->consts[j].ival;
    return WS_OK;
}

static int ws_int_expr(ws_parse *p, int line, const char *text, int64_t *out)
{
    ws_lookup_ctx l = {p, line};
    ws_expr_env env = {ws_const_lookup, &l, p->path, line, p->err};
    return ws_expr_eval(text, &env, out);
}

int ws_spec_int_expr(ws_parse *p, int line, const char *text, int64_t *out)
{
    return ws_int_expr(p, line, text, out);
}

/* A real literal ("0.5", "1e-3", "-2"), a real constant, or else an integer expression. */
static int ws_number(ws_parse *p, int line, const char *text, double *out)
{
    const ws_const *c = ws_spec_const(p->s, text);
    if (c && c->is_float) {
        *out = c->fval;
        return WS_OK;
    }
    char *end;
    errno = 0;
    double d = strtod(text, &end);
    if (end != text && *end == '\0' && errno == 0 && isfinite(d)) {
        *out = d;
        return WS_OK;
    }
    int64_t v;
    int rc = ws_int_expr(p, line, text, &v);
    *out = (double)v;
    return rc;
}

/* ---------------------------------------------------------------- generators */

static const char *ws_gen_words = "zero, const, iota, uniform_int, uniform_real, "
                                  "random_bits, mix, file, $NAME";

static int ws_gen_nargs(ws_parse *p, int line, const char *kind, int n, int lo, int hi)
{
    if (n < lo || n > hi)
        return WS_SPEC_FAIL(p, line, "generator %s takes %s%d argument%s, got %d", kind,
                            lo == hi ? "" : "at most ", hi, hi == 1 ? "" : "s", n);
    return WS_OK;
}

/* Parses a simple generator (not mix, file or $NAME) into kind/a/b. */
static int ws_gen_simple(ws_parse *p, int line, char **tok, int ntok, ws_gen_kind *kind,
                         double *a, double *b)
{
    const char *k = tok[0];
    int n = ntok - 1, rc;
    *a = 0;
    *b = 0;
    if (strcmp(k, "zero") == 0 || strcmp(k, "random_bits") == 0) {
        *kind = k[0] == 'z' ? WS_GEN_ZERO : WS_GEN_RANDOM_BITS;
        return ws_gen_nargs(p, line, k, n, 0, 0);
    }
    if (strcmp(k, "const") == 0) {
        *kind = WS_GEN_CONST;
        if ((rc = ws_gen_nargs(p, line, k, n, 1, 1)))
            return rc;
        return ws_number(p, line, tok[1], a);
    }
    if (strcmp(k, "iota") == 0) {
        *kind = WS_GEN_IOTA;
        *b = 1;
        if ((rc = ws_gen_nargs(p, line, k, n, 0, 2)))
            return rc;
        if (n >= 1 && (rc = ws_number(p, line, tok[1], a)))
            return rc;
        return n == 2 ? ws_number(p, line, tok[2], b) : WS_OK;
    }
    if (strcmp(k, "uniform_int") == 0 || strcmp(k, "uniform_real") == 0) {
        int is_int = k[8] == 'i';
        *kind = is_int ? WS_GEN_UNIFORM_INT : WS_GEN_UNIFORM_REAL;
        *b = 1;
        if (n != 2 && !(n == 0 && !is_int))
            return WS_SPEC_FAIL(p, line, "generator %s takes LO HI%s", k,
                                is_int ? "" : " (or nothing for [0, 1))");
        if (n == 2 && ((rc = ws_number(p, line, tok[1], a)) || (rc = ws_number(p, line, tok[2], b))))
            return rc;
        if (is_int ? *a > *b : *a >= *b)
            return WS_SPEC_FAIL(p, line, "generator %s: LO %g is above HI %g", k, *a, *b);
        return WS_OK;
    }
    return WS_SPEC_FAIL(p, line, "unknown generator '%s' (generators: %s)", k, ws_gen_words);
}

static int ws_gen_mix(ws_parse *p, int line, char **tok, int ntok, ws_gen *g)
{
    double sum = 0;
    int i = 1;
    g->kind = WS_GEN_MIX;
    while (i < ntok) {
        int j = i;
        while (j < ntok && strcmp(tok[j], "|") != 0)
            j++;
        if (g->nmix == WS_MIX_MAX)
            return WS_SPEC_FAIL(p, line, "mix has more than %d parts", WS_MIX_MAX);
        if (j - i < 2)
            return WS_SPEC_FAIL(p, line, "mix part %d: expected 'WEIGHT GENERATOR...'",
                                g->nmix + 1);
        char *end;
        double w = strtod(tok[i], &end);
        if (*end || !(w > 0 && w <= 1))
            return WS_SPEC_FAIL(p, line, "mix part %d: weight '%s' is not in (0, 1]",
                                g->nmix + 1, tok[i]);
        const char *k = tok[i + 1];
        if (!strcmp(k, "mix") || !strcmp(k, "file") || k[0] == '$')
            return WS_SPEC_FAIL(p, line, "mix part %d: '%s' cannot be part of a mix",
                                g->nmix + 1, k);
        int n = g->nmix, rc = ws_gen_simple(p, line, tok + i + 1, j - i - 1, &g->mix_kind[n],
                                            &g->mix_a[n], &g->mix_b[n]);
        if (rc != WS_OK)
            return rc;
        g->mix_weight[n] = w;
        g->nmix++;
        sum += w;
        i = j + 1;
        if (j < ntok && i == ntok)
            return WS_SPEC_FAIL(p, line, "mix ends with '|'");
    }
    if (g->nmix == 0 || fabs(sum - 1.0) > 1e-6)
        return WS_SPEC_FAIL(p, line, "mix weights sum to %g, not 1", sum);
    return WS_OK;
}

static int ws_gen_file(ws_parse *p, int line, char **tok, int ntok, ws_gen *g)
{
    g->kind = WS_GEN_FILE;
    if (ntok != 2)
        return WS_SPEC_FAIL(p, line, "expected 'file PATH'");
    if (ws_spec_relative_path(p->path, tok[1], g->path, sizeof g->path))
        return WS_SPEC_FAIL(p, line, "file path too long");
    return WS_OK;
}

int ws_spec_relative_path(const char *spec_path, const char *path, char *out, size_t n)
{
    int len;
    if (path[0] == '/') {
        len = snprintf(out, n, "%s", path);
    } else {
        const char *slash = strrchr(spec_path, '/');
        int dirlen = slash ? (int)(slash - spec_path) : 1;
        len = snprintf(out, n, "%.*s/%s", dirlen, slash ? spec_path : ".", path);
    }
    return len < 0 || (size_t)len >= n;
}

/* The integer range a value must lie in for an integer buffer type. */
static void ws_type_range(ws_type t, double *lo, double *hi)
{
    size_t bits = ws_type_size(t) * 8;
    int is_signed = t == WS_T_I8 || t == WS_T_I16 || t == WS_T_I32 || t == WS_T_I64;
    *lo = is_signed ? -ldexp(1, (int)bits - 1) : 0;
    *hi = is_signed ? ldexp(1, (int)bits - 1) - 1 : ldexp(1, (int)bits) - 1;
}

static int ws_gen_fits(ws_parse *p, const ws_buffer_spec *b, ws_gen_kind k, double a,
                       double v)
{
    if (ws_type_is_float(b->type))
        return WS_OK;
    if (k == WS_GEN_UNIFORM_REAL)
        return WS_SPEC_FAIL(p, b->line, "buffer '%s': uniform_real needs a float buffer "
                            "(f32 or f64), not %s", b->name, ws_type_name(b->type));
    if (k != WS_GEN_CONST && k != WS_GEN_UNIFORM_INT && k != WS_GEN_IOTA)
        return WS_OK;
    double lo, hi;
    ws_type_range(b->type, &lo, &hi);
    if (a != floor(a) || v != floor(v))
        return WS_SPEC_FAIL(p, b->line, "buffer '%s': %s values must be integers for %s",
                            b->name, ws_gen_kind_name(k), ws_type_name(b->type));
    if (k != WS_GEN_IOTA && (a < lo || a > hi || v < lo || v > hi))
        return WS_SPEC_FAIL(p, b->line, "buffer '%s': %s value out of the range of %s",
                            b->name, ws_gen_kind_name(k), ws_type_name(b->type));
    return WS_OK;
}

static int ws_gen_check_type(ws_parse *p, const ws_buffer_spec *b)
{
    const ws_gen *g = &b->gen;
    if (g->kind != WS_GEN_MIX)
        return ws_gen_fits(p, b, g->kind, g->a, g->kind == WS_GEN_CONST ? g->a : g->b);
    for (int i = 0; i < g->nmix; i++) {
        int rc = ws_gen_fits(p, b, g->mix_kind[i], g->mix_a[i],
                             g->mix_kind[i] == WS_GEN_CONST ? g->mix_a[i] : g->mix_b[i]);
        if (rc != WS_OK)
            return rc;
    }
    return WS_OK;
}

/* `$NAME`: the word constant NAME names a `gen`; *body gets that gen's words. */
static int ws_gen_indirect(ws_parse *p, int line, const char *ref, const char **body)
{
    const ws_const *c = ws_spec_const(p->s, ref + 1);
    if (!c)
        return WS_SPEC_FAIL(p, line, "'%s': no constant named '%s'", ref, ref + 1);
    if (!c->is_string)
        return WS_SPEC_FAIL(p, line, "'%s': constant '%s' is a number, not a gen name", ref,
                            c->name);
    for (int i = 0; i < p->ngens; i++) {
        if (strcmp(p->gens[i].name, c->sval) == 0) {
            *body = p->gens[i].text;
            return WS_OK;
        }
    }
    return WS_SPEC_FAIL(p, line, "'%s' is '%s', but no 'gen %s' is defined", ref, c->sval,
                        c->sval);
}

/* Parses the generator words of buffer b; a trailing `seed S` sets *seed_given. */
static int ws_gen_parse(ws_parse *p, ws_buffer_spec *b, const char *text, int depth,
                        int *seed_given)
{
    char copy[4096], *tok[WS_TOK_MAX];
    snprintf(copy, sizeof copy, "%s", text);
    int ntok = ws_split_words(copy, tok, WS_TOK_MAX);
    if (ntok < 0)
        return WS_SPEC_FAIL(p, b->line, "generator has too many words");
    if (ntok >= 2 && strcmp(tok[ntok - 2], "seed") == 0 && depth == 0) {
        char *end;
        b->seed = strtoull(tok[ntok - 1], &end, 0);
        if (*end || end == tok[ntok - 1] || tok[ntok - 1][0] == '-')
            return WS_SPEC_FAIL(p, b->line, "buffer '%s': seed '%s' is not a non-negative "
                                "integer", b->name, tok[ntok - 1]);
        ntok -= 2;
        *seed_given = 1;
    }
    if (ntok == 0)
        return WS_SPEC_FAIL(p, b->line, "buffer '%s' has no generator", b->name);
    const char *k = tok[0];
    if (k[0] == '$') {
        if (depth > 0 || ntok != 1)
            return WS_SPEC_FAIL(p, b->line, "'%s' must be the whole generator%s", k,
                                depth ? " (a gen cannot name another)" : "");
        const char *body = NULL;
        int rc = ws_gen_indirect(p, b->line, k, &body);
        return rc == WS_OK ? ws_gen_parse(p, b, body, depth + 1, seed_given) : rc;
    }
    if (strcmp(k, "mix") == 0)
        return ws_gen_mix(p, b->line, tok, ntok, &b->gen);
    if (strcmp(k, "file") == 0)
        return ws_gen_file(p, b->line, tok, ntok, &b->gen);
    return ws_gen_simple(p, b->line, tok, ntok, &b->gen.kind, &b->gen.a, &b->gen.b);
}

/* ---------------------------------------------------------------- buffers and checks */

#define WS_BUFFER_BYTES_MAX (1ULL << 36)

static int ws_buffer_resolve(ws_parse *p, int i)
{
    ws_buffer_spec *b = &p->s->buffers[i];
    int64_t count;
    int seed_given = 0;
    if (ws_spec_const(p->s, b->name))
        return WS_SPEC_FAIL(p, b->line, "buffer '%s' has the name of a constant", b->name);
    int rc = ws_int_expr(p, b->line, b->count_expr, &count);
    if (rc != WS_OK)
        return rc;
    if (count < 1)
        return WS_SPEC_FAIL(p, b->line, "buffer '%s': count %lld is not positive", b->name,
                            (long long)count);
    if ((uint64_t)count > WS_BUFFER_BYTES_MAX / ws_type_size(b->type))
        return WS_SPEC_FAIL(p, b->line, "buffer '%s': %lld elements is too large", b->name,
                            (long long)count);
    b->count = (uint64_t)count;
    if ((rc = ws_gen_parse(p, b, p->buffer_gen_text[i], 0, &seed_given)) != WS_OK)
        return rc;
    if (!seed_given)
        b->seed = ws_hash64(b->name, strlen(b->name), p->s->seed);
    return ws_gen_check_type(p, b);
}

static int ws_check_resolve(ws_parse *p, const ws_raw_check *c)
{
    ws_spec *s = p->s;
    ws_buffer_spec *b = NULL;
    for (int i = 0; i < s->nbuffers; i++)
        if (strcmp(s->buffers[i].name, c->name) == 0)
            b = &s->buffers[i];
    if (!b)
        return WS_SPEC_FAIL(p, c->line, "check of unknown buffer '%s'", c->name);
    b->is_output = 1;
    snprintf(b->expect_path, sizeof b->expect_path, "%s", c->file);
    const char *word[2] = {"tolerance", "absolute"}, *text[2] = {c->tolerance, c->absolute};
    double *value[2] = {&b->tolerance, &b->absolute};
    for (int k = 0; k < 2; k++) {
        if (!text[k][0])
            continue;
        if (!ws_type_is_float(b->type))
            return WS_SPEC_FAIL(p, c->line, "check '%s': %s applies to f32/f64 buffers only, "
                                "this one is %s", c->name, word[k], ws_type_name(b->type));
        char *end;
        *value[k] = strtod(text[k], &end);
        if (*end || !(*value[k] >= 0) || !isfinite(*value[k]))
            return WS_SPEC_FAIL(p, c->line, "check '%s': %s '%s' is not a non-negative "
                                "number", c->name, word[k], text[k]);
    }
    return WS_OK;
}

int ws_spec_resolve_buffers(ws_parse *p)
{
    int rc = WS_OK;
    for (int i = 0; i < p->s->nbuffers && rc == WS_OK; i++)
        rc = ws_buffer_resolve(p, i);
    for (int i = 0; i < p->nchecks && rc == WS_OK; i++)
        rc = ws_check_resolve(p, &p->checks[i]);
    return rc;
}

/* ---------------------------------------------------------------- variants */

static int ws_dims_resolve(ws_parse *p, ws_variant *v, const char *what,
                           char exprs[3][WS_EXPR_MAX], uint32_t dims[3])
{
    if (!exprs[0][0])
        return WS_SPEC_FAIL(p, v->line, "variant '%s' has no %s", v->name, what);
    for (int d = 0; d < 3; d++) {
        int64_t val = 1;
        if (exprs[d][0]) {
            int rc = ws_int_expr(p, v->line, exprs[d], &val);
            if (rc != WS_OK)
                return rc;
        }
        if (val < 1 || val > UINT32_MAX)
            return WS_SPEC_FAIL(p, v->line, "variant '%s': %s %c = %lld is out of range "
                                "(1..%u)", v->name, what, "xyz"[d], (long long)val,
                                (unsigned)UINT32_MAX);
        dims[d] = (uint32_t)val;
    }
    return WS_OK;
}

static int ws_launch_check(ws_parse *p, ws_variant *v)
{
    uint64_t threads = (uint64_t)v->block[0] * v->block[1] * v->block[2];
    if (threads > 1024 || v->block[2] > 64)
        return WS_SPEC_FAIL(p, v->line, "variant '%s': block %ux%ux%u has more than 1024 "
                            "threads or z above 64", v->name, v->block[0], v->block[1],
                            v->block[2]);
    if (v->grid[1] > 65535 || v->grid[2] > 65535)
        return WS_SPEC_FAIL(p, v->line, "variant '%s': grid y and z must be at most 65535",
                            v->name);
    return WS_OK;
}

static int ws_variant_resolve(ws_parse *p, ws_variant *v)
{
    if (!v->kernel[0])
        return WS_SPEC_FAIL(p, v->line, "variant '%s' has no kernel", v->name);
    int rc = ws_dims_resolve(p, v, "grid", v->grid_expr, v->grid);
    if (rc == WS_OK)
        rc = ws_dims_resolve(p, v, "block", v->block_expr, v->block);
    if (rc == WS_OK)
        rc = ws_launch_check(p, v);
    if (rc == WS_OK && v->smem_expr[0]) {
        int64_t smem = 0;
        rc = ws_int_expr(p, v->line, v->smem_expr, &smem);
        if (rc == WS_OK && (smem < 0 || smem > UINT32_MAX))
            return WS_SPEC_FAIL(p, v->line, "variant '%s': smem %lld is out of range",
                                v->name, (long long)smem);
        v->smem_dynamic = (uint32_t)smem;
    }
    char where[WS_NAME_MAX + 16];
    snprintf(where, sizeof where, "variant '%s'", v->name);
    for (int i = 0; i < v->nargs && rc == WS_OK; i++)
        rc = ws_spec_arg_resolve(p, where, &v->args[i]);
    return rc;
}

int ws_launch_resolve(ws_parse *p, ws_variant *v)
{
    return ws_variant_resolve(p, v);
}

int ws_spec_resolve_variants(ws_parse *p)
{
    int rc = WS_OK;
    for (int i = 0; i < p->s->nvariants && rc == WS_OK; i++) {
        ws_variant *v = &p->s->variants[i];
        rc = v->nsteps ? ws_steps_resolve(p, v) : ws_variant_resolve(p, v);
    }
    return rc;
}
