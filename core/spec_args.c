/* spec_args.c — kernel arguments of a workload spec: a buffer (BUF, or BUF+EXPR advanced by
 * EXPR elements), a scalar (real literal, real constant, integer expression) or a struct by
 * value (struct:TYPE=V,...) laid out as C lays it out; `symbol` lines; and the checks the
 * simulator and the GPU backend share against the compiled kernel's parameters and variables. */
#include "core/core_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WS_ARG_FAIL(p, a, ...) ws_error_at((p)->err, WS_ERR_SPEC, (p)->path, (a)->line, __VA_ARGS__)

static int ws_buffer_index(const ws_spec *s, const char *name, size_t n)
{
    for (int i = 0; i < s->nbuffers; i++)
        if (strlen(s->buffers[i].name) == n && strncmp(s->buffers[i].name, name, n) == 0)
            return i;
    return -1;
}

/* A real literal alone, or a real constant alone: 1 with *out set. */
static int ws_real_word(const ws_spec *s, const char *text, double *out)
{
    const ws_const *c = ws_spec_const(s, text);
    if (c && c->is_float) {
        *out = c->fval;
        return 1;
    }
    return ws_real_literal(text, out);
}

/* BUF+EXPR: the buffer's pointer advanced by EXPR elements, inside the buffer. */
static int ws_arg_offset(ws_parse *p, const char *where, ws_arg *a, int b, const char *expr)
{
    const ws_buffer_spec *bs = &p->s->buffers[b];
    int64_t k;
    int rc = ws_spec_int_expr(p, a->line, expr, &k);
    if (rc != WS_OK)
        return rc;
    if (k < 0 || (uint64_t)k > bs->count)
        return WS_ARG_FAIL(p, a, "%s: argument '%s': offset %lld is %s buffer '%s' (%llu "
                           "elements)", where, a->expr, (long long)k,
                           k < 0 ? "before the start of" : "past the end of", bs->name,
                           (unsigned long long)bs->count);
    a->kind = WS_ARG_BUFFER;
    a->buffer = b;
    a->offset = (uint64_t)k * ws_type_size(bs->type);
    return WS_OK;
}

/* ---------------------------------------------------------------- struct:TYPE=V,... */

/* Splits at commas outside parentheses (min(a,b) stays whole); -1 when more than max. */
static int ws_split_fields(char *s, char **f, int max)
{
    int n = 0, depth = 0;
    f[n++] = s;
    for (; *s; s++) {
        depth += (*s == '(') - (*s == ')');
        if (*s == ',' && depth == 0) {
            if (n == max)
                return -1;
            *s = '\0';
            f[n++] = s + 1;
        }
    }
    return n;
}

static int ws_field_value(ws_parse *p, const char *where, ws_arg *a, int i, ws_type t,
                          const char *text, uint8_t *dst)
{
    double d;
    if (ws_type_is_float(t)) {
        if (!ws_real_word(p->s, text, &d)) {
            int64_t v;
            int rc = ws_spec_int_expr(p, a->line, text, &v);
            if (rc != WS_OK)
                return rc;
            d = (double)v;
        }
        ws_real_store(t, dst, d);
        return WS_OK;
    }
    int64_t v;
    int rc = ws_spec_int_expr(p, a->line, text, &v);
    if (rc != WS_OK)
        return rc;
    int bits = (int)ws_type_size(t) * 8;
    int is_signed = t == WS_T_I8 || t == WS_T_I16 || t == WS_T_I32 || t == WS_T_I64;
    int fits = bits == 64 ? (is_signed || v >= 0)
               : is_signed ? v >= -(INT64_C(1) << (bits - 1)) && v < (INT64_C(1) << (bits - 1))
                           : v >= 0 && v < (INT64_C(1) << bits);
    if (!fits)
        return WS_ARG_FAIL(p, a, "%s: argument '%s': field %d value %lld is out of the range "
                           "of %s", where, a->expr, i + 1, (long long)v, ws_type_name(t));
    memcpy(dst, &v, ws_type_size(t)); /* little-endian: the low bytes */
    return WS_OK;
}

static int ws_arg_struct(ws_parse *p, const char *where, ws_arg *a)
{
    char copy[WS_EXPR_MAX], *f[WS_STRUCT_MAX];
    snprintf(copy, sizeof copy, "%s", a->expr + 7);
    int n = copy[0] ? ws_split_fields(copy, f, WS_STRUCT_MAX) : 0;
    if (n <= 0)
        return WS_ARG_FAIL(p, a, "%s: argument '%s': expected struct:TYPE=VALUE,... (e.g. "
                           "struct:i32=N,f32=0.5)", where, a->expr);
    uint32_t at = 0, align = 1;
    a->kind = WS_ARG_STRUCT;
    memset(a->bytes, 0, sizeof a->bytes);
    for (int i = 0; i < n; i++) {
        char *eq = strchr(f[i], '=');
        ws_type t;
        if (!eq || eq == f[i] || !eq[1])
            return WS_ARG_FAIL(p, a, "%s: argument '%s': field %d '%s' is not TYPE=VALUE",
                               where, a->expr, i + 1, f[i]);
        *eq = '\0';
        if (ws_type_parse(f[i], &t) != 0)
            return WS_ARG_FAIL(p, a, "%s: argument '%s': field %d has unknown type '%s' "
                               "(types: i8 u8 i16 u16 i32 u32 i64 u64 f16 bf16 f32 f64)", where,
                               a->expr, i + 1, f[i]);
        uint32_t size = (uint32_t)ws_type_size(t);
        at = (at + size - 1) / size * size;
        if (at + size > WS_STRUCT_MAX)
            return WS_ARG_FAIL(p, a, "%s: argument '%s': a struct argument is at most %d "
                               "bytes", where, a->expr, WS_STRUCT_MAX);
        int rc = ws_field_value(p, where, a, i, t, eq + 1, a->bytes + at);
        if (rc != WS_OK)
            return rc;
        at += size;
        if (size > align)
            align = size;
    }
    a->struct_align = align;
    a->struct_size = (at + align - 1) / align * align;
    return WS_OK;
}

/* ---------------------------------------------------------------- one argument */

int ws_spec_arg_resolve(ws_parse *p, const char *where, ws_arg *a)
{
    ws_spec *s = p->s;
    const char *e = a->expr;
    int b = ws_buffer_index(s, e, strlen(e));
    a->offset = 0;
    if (b >= 0) {
        a->kind = WS_ARG_BUFFER;
        a->buffer = b;
        return WS_OK;
    }
    if (strncmp(e, "struct:", 7) == 0)
        return ws_arg_struct(p, where, a);
    const char *plus = strchr(e, '+');
    if (plus && (b = ws_buffer_index(s, e, (size_t)(plus - e))) >= 0)
        return ws_arg_offset(p, where, a, b, plus + 1);
    a->kind = WS_ARG_SCALAR;
    int bound = 0; /* a loop variable of a launch sequence */
    for (int k = 0; k < p->nbound; k++)
        bound |= strcmp(p->bound_name[k], e) == 0;
    if (ws_is_ident(e) && !ws_spec_const(s, e) && !bound)
        return WS_ARG_FAIL(p, a, "%s: args: unknown buffer or constant '%s'", where, e);
    if (ws_real_word(s, e, &a->fval)) {
        a->ival = (int64_t)a->fval;
        return WS_OK;
    }
    int rc = ws_spec_int_expr(p, a->line, e, &a->ival);
    a->fval = (double)a->ival;
    return rc;
}

/* ---------------------------------------------------------------- symbols */

int ws_spec_resolve_symbols(ws_parse *p)
{
    ws_spec *s = p->s;
    for (int i = 0; i < s->nsymbols; i++) {
        ws_symbol *y = &s->symbols[i];
        y->buffer = ws_buffer_index(s, y->buffer_name, strlen(y->buffer_name));
        if (y->buffer < 0)
            return ws_error_at(p->err, WS_ERR_SPEC, p->path, y->line, "symbol '%s': unknown "
                               "buffer '%s'", y->name, y->buffer_name);
    }
    return WS_OK;
}

/* ---------------------------------------------------------------- checks at launch */

int ws_arg_check_param(const ws_spec *s, const char *variant, int argno, const ws_arg *a,
                       const ws_param_shape *p, ws_error *err)
{
    char shape[96];
    if (p->aggregate)
        snprintf(shape, sizeof shape, "a struct of %llu bytes (.align %u .b8 [%llu])",
                 (unsigned long long)p->size, p->align, (unsigned long long)p->size);
    else
        snprintf(shape, sizeof shape, "%llu bytes", (unsigned long long)p->size);
    if (a->kind == WS_ARG_STRUCT) {
        if (a->struct_size != p->size || (p->align && p->align % a->struct_align))
            return ws_error_at(err, WS_ERR_SPEC, s->path, a->line, "variant '%s': argument %d "
                               "'%s' is a struct of %u bytes (align %u) but kernel %s "
                               "parameter %d (%s) is %s", variant, argno, a->expr,
                               a->struct_size, a->struct_align, p->kernel, argno - 1, p->name,
                               shape);
        return WS_OK;
    }
    if (p->aggregate)
        return ws_error_at(err, WS_ERR_SPEC, s->path, a->line, "variant '%s': argument %d '%s' "
                           "is a %s but kernel %s parameter %d (%s) is %s: pass "
                           "struct:TYPE=VALUE,...", variant, argno, a->expr,
                           a->kind == WS_ARG_BUFFER ? "buffer pointer" : "scalar", p->kernel,
                           argno - 1, p->name, shape);
    return WS_OK;
}

int ws_symbol_check(const ws_spec *s, const ws_symbol *sym, int found, uint64_t size,
                    const char *known, ws_error *err)
{
    const char *cu = strrchr(s->source, '/') ? strrchr(s->source, '/') + 1 : s->source;
    if (!found)
        return ws_error_at(err, WS_ERR_SPEC, s->path, sym->line, "symbol '%s': %s has no "
                           "__constant__ or __device__ variable '%s'%s%s%s", sym->name, cu,
                           sym->name, known ? " (variables: " : "",
                           known ? (known[0] ? known : "none") : "", known ? ")" : "");
    const ws_buffer_spec *b = &s->buffers[sym->buffer];
    uint64_t bytes = b->count * ws_type_size(b->type);
    if (size != bytes)
        return ws_error_at(err, WS_ERR_SPEC, s->path, sym->line, "symbol '%s' is %llu bytes in "
                           "%s but buffer '%s' is %llu bytes (%llu %s)", sym->name,
                           (unsigned long long)size, cu, b->name, (unsigned long long)bytes,
                           (unsigned long long)b->count, ws_type_name(b->type));
    return WS_OK;
}

const char *ws_const_define_name(const ws_const *c, char *buf, size_t n)
{
    snprintf(buf, n, "%s%s", c->namespaced ? "WS_" : "", c->name);
    return buf;
}
