/* ptx_parse.c — the PTX module grammar: directives, variable and register declarations,
 * function headers and bodies (scopes, labels, .loc), then module finalization (.file
 * names, call targets, parameter/shared/local layout). Instructions themselves are parsed
 * by ptx_parse_inst.c; control flow is analysed by cfg.c. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/ptx_parse.h"

/* ---------------------------------------------------------------- token helpers */

const ws_tok *ws_pc_peek(ws_pctx *c) { return &c->t[c->pos]; }

const ws_tok *ws_pc_next(ws_pctx *c)
{
    const ws_tok *t = &c->t[c->pos];
    if (t->kind != WS_TK_EOF)
        c->pos++;
    return t;
}

int ws_pc_is(const ws_tok *t, const char *word)
{
    size_t n = strlen(word);
    return t->kind != WS_TK_EOF && (size_t)t->len == n && memcmp(t->s, word, n) == 0;
}

int ws_pc_fail(ws_pctx *c, ws_code code, int line, const char *fmt, ...)
{
    char msg[sizeof c->err->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return ws_error_at(c->err, code, c->name, line, "%s", msg);
}

int ws_pc_syntax(ws_pctx *c, const ws_tok *t, const char *expected)
{
    if (t->kind == WS_TK_EOF)
        return ws_pc_fail(c, WS_ERR_PTX, t->line,
                          "expected %s, found end of file (truncated PTX?)", expected);
    if (t + 1 < c->t + c->nt && t[1].kind == WS_TK_EOF) /* the text ends inside a token */
        return ws_pc_fail(c, WS_ERR_PTX, t->line, "expected %s, found '%.*s' at the end of "
                          "file (truncated PTX?)", expected, t->len > 60 ? 60 : t->len, t->s);
    return ws_pc_fail(c, WS_ERR_PTX, t->line, "expected %s, found '%.*s'", expected,
                      t->len > 60 ? 60 : t->len, t->s);
}

int ws_pc_expect(ws_pctx *c, const char *what)
{
    const ws_tok *t = ws_pc_peek(c);
    if (!ws_pc_is(t, what)) {
        char q[64];
        snprintf(q, sizeof q, "'%s'", what);
        return ws_pc_syntax(c, t, q);
    }
    c->pos++;
    return WS_OK;
}

int ws_parse_int_literal(const char *s, int len, int64_t *v)
{
    char buf[72];
    if (len <= 0 || len >= (int)sizeof buf)
        return -1;
    memcpy(buf, s, (size_t)len);
    buf[len] = 0;
    if (len > 1 && (buf[len - 1] == 'U' || buf[len - 1] == 'u'))
        buf[--len] = 0;
    char *end;
    int base = 10;
    const char *p = buf;
    if (len > 2 && buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X')) {
        base = 16;
        p += 2;
    } else if (len > 2 && buf[0] == '0' && (buf[1] == 'b' || buf[1] == 'B')) {
        base = 2;
        p += 2;
    } else if (len > 1 && buf[0] == '0') {
        base = 8;
    }
    unsigned long long u = strtoull(p, &end, base);
    if (*end || end == p)
        return -1;
    *v = (int64_t)u;
    return 0;
}

int ws_pc_num(ws_pctx *c, int64_t *v)
{
    int neg = 0;
    if (ws_pc_is(ws_pc_peek(c), "-")) {
        neg = 1;
        c->pos++;
    }
    const ws_tok *t = ws_pc_peek(c);
    if (t->kind != WS_TK_NUM || ws_parse_int_literal(t->s, t->len, v))
        return ws_pc_syntax(c, t, "an integer");
    c->pos++;
    if (neg)
        *v = -*v;
    return WS_OK;
}

static int word_is_directive(const ws_tok *t)
{
    return t->kind == WS_TK_WORD && t->len > 1 && t->s[0] == '.';
}

static int grow_array(void **arr, int *cap, int need, size_t elem)
{
    if (need <= *cap)
        return 0;
    int nc = *cap ? *cap : 8;
    while (nc < need)
        nc *= 2;
    void *p = realloc(*arr, (size_t)nc * elem);
    if (!p)
        return -1;
    memset((char *)p + (size_t)*cap * elem, 0, (size_t)(nc - *cap) * elem);
    *arr = p;
    *cap = nc;
    return 0;
}

static int nomem(ws_pctx *c)
{
    return ws_error_set(c->err, WS_ERR_NOMEM, "out of memory parsing %s", c->name);
}

/* ---------------------------------------------------------------- types */

ws_ptype ws_ptype_from(const char *s, int len)
{
    static const struct { const char *n; ws_ptype t; } tab[] = {
        {"pred", WS_P_PRED}, {"b8", WS_P_B8}, {"b16", WS_P_B16}, {"b32", WS_P_B32},
        {"b64", WS_P_B64}, {"b128", WS_P_B128}, {"u8", WS_P_U8}, {"u16", WS_P_U16},
        {"u32", WS_P_U32}, {"u64", WS_P_U64}, {"s8", WS_P_S8}, {"s16", WS_P_S16},
        {"s32", WS_P_S32}, {"s64", WS_P_S64}, {"f16", WS_P_F16}, {"f16x2", WS_P_F16X2},
        {"bf16", WS_P_BF16}, {"bf16x2", WS_P_BF16X2}, {"f32", WS_P_F32}, {"f64", WS_P_F64},
        {"u16x2", WS_P_U16X2}, {"s16x2", WS_P_S16X2}, {"e4m3x2", WS_P_E4M3X2},
        {"e5m2x2", WS_P_E5M2X2},
    };
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if ((size_t)len == strlen(tab[i].n) && memcmp(s, tab[i].n, (size_t)len) == 0)
            return tab[i].t;
    return WS_P_NONE;
}

static int type_bytes(ws_ptype t)
{
    int b = ws_ptype_bits(t);
    return b <= 8 ? 1 : b / 8;
}

/* ---------------------------------------------------------------- scopes */

static int bind(ws_pctx *c, ws_strmap *map, const char *s, int len, int val)
{
    int prev = ws_strmap_put(map, s, len, val);
    if (prev == -2)
        return nomem(c);
    if (c->depth == 0)
        return WS_OK;
    if (grow_array((void **)&c->binds, &c->cap_binds, c->nbinds + 1, sizeof *c->binds))
        return nomem(c);
    char *copy = malloc((size_t)len + 1);
    if (!copy)
        return nomem(c);
    memcpy(copy, s, (size_t)len);
    copy[len] = 0;
    c->binds[c->nbinds++] = (ws_binding){map, copy, len, prev, c->depth};
    return WS_OK;
}

static void pop_scope(ws_pctx *c)
{
    while (c->nbinds > 0 && c->binds[c->nbinds - 1].depth >= c->depth) {
        ws_binding *b = &c->binds[--c->nbinds];
        ws_strmap_put(b->map, b->s, b->len, b->prev); /* existing key: cannot fail */
        free((char *)b->s);
    }
    c->depth--;
}

/* ---------------------------------------------------------------- variables */

typedef struct var_decl {
    ws_var v;
    uint64_t count;   /* elements (product of dims); 0 for [] */
    int unsized;
    int vecn;
    int line;
    const ws_tok *name;
    int module_scope; /* a module .global/.const: its initializer may hold addresses */
} var_decl;

/* Attributes before a variable's name: .align N, .vN, the type, .ptr/.space (params). */
static int cut_after(ws_pctx *c, const ws_tok *t);

static int parse_var_attrs(ws_pctx *c, var_decl *d)
{
    d->vecn = 1;
    for (;;) {
        const ws_tok *t = ws_pc_peek(c);
        if (!word_is_directive(t))
            break;
        const char *s = t->s + 1;
        int len = t->len - 1;
        ws_ptype ty = ws_ptype_from(s, len);
        c->pos++;
        if (ty != WS_P_NONE) {
            d->v.type = (uint8_t)ty;
        } else if (ws_pc_is(t, ".align")) {
            int64_t a;
            if (ws_pc_num(c, &a))
                return c->err->code;
            if (a <= 0 || (a & (a - 1)))
                return ws_pc_fail(c, WS_ERR_PTX, t->line, "bad alignment %lld", (long long)a);
            d->v.align = (uint32_t)a;
        } else if (ws_pc_is(t, ".v2") || ws_pc_is(t, ".v4")) {
            d->vecn = t->s[2] - '0';
        } else if (ws_pc_is(t, ".ptr") || ws_pc_is(t, ".global") || ws_pc_is(t, ".shared") ||
                   ws_pc_is(t, ".const") || ws_pc_is(t, ".local")) {
            /* kernel parameter pointer attributes: informational */
        } else {
            if (cut_after(c, t)) /* `.u64` cut to `.u` by the end of the text */
                return c->err->code;
            return ws_pc_fail(c, WS_ERR_UNSUPPORTED, t->line,
                              "unsupported variable attribute '%.*s'", t->len, t->s);
        }
    }
    if (d->v.type == WS_P_NONE)
        return ws_pc_syntax(c, ws_pc_peek(c), "a type (.u32, .b8, ...)");
    return WS_OK;
}

static int put_le(uint8_t **buf, size_t *n, size_t *cap, uint64_t v, int bytes)
{
    if (*n + (size_t)bytes > *cap) {
        size_t nc = *cap ? *cap * 2 : 64;
        while (nc < *n + (size_t)bytes)
            nc *= 2;
        uint8_t *p = realloc(*buf, nc);
        if (!p)
            return -1;
        *buf = p;
        *cap = nc;
    }
    for (int i = 0; i < bytes; i++)
        (*buf)[(*n)++] = (uint8_t)(v >> (8 * i));
    return 0;
}

/* One scalar initializer value of type `ty` as raw bits. */
static int parse_init_value(ws_pctx *c, ws_ptype ty, uint64_t *bits)
{
    int neg = 0;
    if (ws_pc_is(ws_pc_peek(c), "-")) {
        neg = 1;
        c->pos++;
    }
    const ws_tok *t = ws_pc_peek(c);
    if (t->kind != WS_TK_NUM)
        return ws_pc_fail(c, t->kind == WS_TK_EOF ? WS_ERR_PTX : WS_ERR_UNSUPPORTED, t->line,
                          "unsupported initializer '%.*s' (only numbers)", t->len, t->s);
    c->pos++;
    int64_t iv;
    if (t->len > 2 && t->s[0] == '0' && (t->s[1] == 'f' || t->s[1] == 'F' || t->s[1] == 'd' ||
                                         t->s[1] == 'D')) {
        char hex[40];
        snprintf(hex, sizeof hex, "0x%.*s", t->len - 2, t->s + 2);
        if (ws_parse_int_literal(hex, (int)strlen(hex), &iv))
            return ws_pc_syntax(c, t, "a number");
        *bits = (uint64_t)iv;
        if (neg)
            *bits ^= (t->s[1] == 'f' || t->s[1] == 'F') ? 0x80000000ull : 0x8000000000000000ull;
        return WS_OK;
    }
    if (memchr(t->s, '.', (size_t)t->len) || (ws_ptype_is_float(ty) &&
                                              memchr(t->s, 'e', (size_t)t->len))) {
        char buf[64];
        snprintf(buf, sizeof buf, "%.*s", t->len, t->s);
        double d = strtod(buf, NULL) * (neg ? -1 : 1);
        if (ty == WS_P_F32) {
            float f = (float)d;
            uint32_t u;
            memcpy(&u, &f, 4);
            *bits = u;
        } else {
            memcpy(bits, &d, 8);
        }
        return WS_OK;
    }
    if (ws_parse_int_literal(t->s, t->len, &iv))
        return ws_pc_syntax(c, t, "a number");
    if (neg)
        iv = -iv;
    if (ty == WS_P_F32) {
        float f = (float)iv;
        uint32_t u;
        memcpy(&u, &f, 4);
        *bits = u;
    } else if (ty == WS_P_F64) {
        double d = (double)iv;
        memcpy(bits, &d, 8);
    } else {
        *bits = (uint64_t)iv;
    }
    return WS_OK;
}

/* An address in a module variable's 8-byte initializer element at byte `at`: NAME,
 * generic(NAME), either + or - a number, NAME a module variable or a function. Recorded
 * for ws_run_setup (ws_addrinit); the bytes stay 0 here. */
static int parse_init_address(ws_pctx *c, uint64_t at)
{
    const ws_tok *t = ws_pc_next(c);
    int generic = ws_pc_is(t, "generic");
    if (generic) {
        if (ws_pc_expect(c, "("))
            return c->err->code;
        t = ws_pc_next(c);
    }
    ws_addrinit a = {c->m->nglobals, at, ws_strmap_get(&c->globals, t->s, t->len), 0, NULL};
    if (a.target < 0) {
        if (ws_strmap_get(&c->funcs, t->s, t->len) < 0 &&
            ws_strmap_get(&c->externs, t->s, t->len) < 0)
            return ws_pc_fail(c, WS_ERR_PTX, t->line, "unknown symbol '%.*s' in an initializer",
                              t->len, t->s);
        if (!(a.fn = malloc((size_t)t->len + 1)))
            return nomem(c);
        snprintf(a.fn, (size_t)t->len + 1, "%.*s", t->len, t->s);
    }
    if (generic && ws_pc_expect(c, ")")) {
        free(a.fn);
        return c->err->code;
    }
    if (ws_pc_is(ws_pc_peek(c), "+") || ws_pc_is(ws_pc_peek(c), "-")) {
        int minus = ws_pc_is(ws_pc_next(c), "-");
        int64_t k;
        if (ws_pc_num(c, &k)) {
            free(a.fn);
            return c->err->code;
        }
        a.addend = minus ? -k : k;
    }
    ws_module *m = c->m;
    if (grow_array((void **)&m->addrinits, &c->cap_addrinits, m->naddrinits + 1,
                   sizeof *m->addrinits)) {
        free(a.fn);
        return nomem(c);
    }
    m->addrinits[m->naddrinits++] = a;
    return WS_OK;
}

/* `= value` or `= {v, v, {v, v}, ...}` into little-endian bytes. */
static int parse_initializer(ws_pctx *c, var_decl *d, uint8_t **buf, size_t *n)
{
    size_t cap = 0;
    int depth = 0, bytes = type_bytes(d->v.type);
    for (;;) {
        const ws_tok *t = ws_pc_peek(c);
        if (ws_pc_is(t, "{")) {
            depth++;
            c->pos++;
            continue;
        }
        uint64_t bits = 0;
        if (t->kind == WS_TK_WORD && d->module_scope && bytes == 8 && d->vecn == 1) {
            if (parse_init_address(c, *n))
                return c->err->code;
        } else if (parse_init_value(c, d->v.type, &bits)) {
            return c->err->code;
        }
        if (put_le(buf, n, &cap, bits, bytes))
            return nomem(c);
        while (depth > 0 && ws_pc_is(ws_pc_peek(c), "}")) {
            depth--;
            c->pos++;
        }
        if (depth == 0)
            return WS_OK;
        if (ws_pc_expect(c, ","))
            return c->err->code;
    }
}

/* name [dims] [= init] after the attributes; fills d->v size/init. */
static int parse_var_rest(ws_pctx *c, var_decl *d)
{
    const ws_tok *name = ws_pc_next(c);
    if (name->kind != WS_TK_WORD || word_is_directive(name))
        return ws_pc_syntax(c, name, "a variable name");
    d->name = name;
    d->line = name->line;
    if (name->len >= (int)sizeof d->v.name)
        return ws_pc_fail(c, WS_ERR_PTX, name->line, "variable name longer than %d characters",
                          (int)sizeof d->v.name - 1);
    snprintf(d->v.name, sizeof d->v.name, "%.*s", name->len, name->s);
    d->count = 1;
    while (ws_pc_is(ws_pc_peek(c), "[")) {
        c->pos++;
        if (ws_pc_is(ws_pc_peek(c), "]")) {
            d->unsized = 1;
        } else {
            int64_t n;
            if (ws_pc_num(c, &n))
                return c->err->code;
            if (n < 0 || n > (1ll << 40) || d->count * (uint64_t)n > (1ull << 40))
                return ws_pc_fail(c, WS_ERR_UNSUPPORTED, name->line, "array size out of range");
            d->count *= (uint64_t)n;
        }
        if (ws_pc_expect(c, "]"))
            return c->err->code;
    }
    uint64_t elem = (uint64_t)type_bytes(d->v.type) * (uint64_t)d->vecn;
    if (!d->v.align)
        d->v.align = (uint32_t)elem;
    if (ws_pc_is(ws_pc_peek(c), "=")) {
        c->pos++;
        uint8_t *buf = NULL;
        size_t n = 0;
        if (parse_initializer(c, d, &buf, &n)) {
            free(buf);
            return c->err->code;
        }
        uint64_t size = d->unsized ? n : d->count * elem;
        if (size > (256u << 20)) {
            free(buf);
            return ws_pc_fail(c, WS_ERR_UNSUPPORTED, name->line, "initialized variable '%s' "
                              "larger than 256 MiB", d->v.name);
        }
        if (n > size) {
            free(buf);
            return ws_pc_fail(c, WS_ERR_PTX, name->line, "too many initializers for '%s'",
                              d->v.name);
        }
        uint8_t *init = calloc(1, size ? size : 1);
        if (!init) {
            free(buf);
            return nomem(c);
        }
        if (n)
            memcpy(init, buf, n);
        free(buf);
        d->v.init = init;
        d->v.size = size;
    } else {
        d->v.size = d->unsized ? 0 : d->count * elem;
    }
    return WS_OK;
}

static int add_global(ws_pctx *c, var_decl *d)
{
    ws_module *m = c->m;
    if (ws_strmap_get(&c->globals, d->name->s, d->name->len) >= 0) {
        free(d->v.init);
        return ws_pc_fail(c, WS_ERR_PTX, d->line, "duplicate variable '%s'", d->v.name);
    }
    if (grow_array((void **)&m->globals, &c->cap_globals, m->nglobals + 1, sizeof *m->globals)) {
        free(d->v.init);
        return nomem(c);
    }
    m->globals[m->nglobals] = d->v;
    if (ws_strmap_put(&c->globals, d->name->s, d->name->len, m->nglobals) == -2)
        return nomem(c);
    m->nglobals++;
    return WS_OK;
}

/* Module-scope .global/.const/.shared; the space directive is consumed. */
static int parse_module_var(ws_pctx *c, ws_space space, int is_extern)
{
    for (;;) {
        var_decl d;
        memset(&d, 0, sizeof d);
        d.v.space = (uint8_t)space;
        d.v.is_extern = is_extern;
        d.module_scope = space == WS_SPACE_GLOBAL || space == WS_SPACE_CONST;
        if (parse_var_attrs(c, &d) || parse_var_rest(c, &d) || add_global(c, &d))
            return c->err->code;
        if (!ws_pc_is(ws_pc_peek(c), ","))
            break;
        c->pos++;
    }
    return ws_pc_expect(c, ";");
}

static int add_local(ws_pctx *c, var_decl *d)
{
    ws_function *f = c->fn;
    if (grow_array((void **)&f->locals, &c->cap_locals, f->nlocals + 1, sizeof *f->locals)) {
        free(d->v.init);
        return nomem(c);
    }
    if (d->v.space == WS_SPACE_PARAM) {
        uint64_t a = d->v.align ? d->v.align : 1;
        c->param_scratch = (c->param_scratch + a - 1) / a * a;
        d->v.offset = c->param_scratch;
        c->param_scratch += d->v.size;
    }
    f->locals[f->nlocals] = d->v;
    if (bind(c, &c->locals, d->name->s, d->name->len, f->nlocals))
        return c->err->code;
    f->nlocals++;
    return WS_OK;
}

/* Function-scope .shared/.local/.param (call scratch); the space directive is consumed. */
static int parse_local_var(ws_pctx *c, ws_space space)
{
    for (;;) {
        var_decl d;
        memset(&d, 0, sizeof d);
        d.v.space = (uint8_t)space;
        if (parse_var_attrs(c, &d) || parse_var_rest(c, &d) || add_local(c, &d))
            return c->err->code;
        if (!ws_pc_is(ws_pc_peek(c), ","))
            break;
        c->pos++;
    }
    return ws_pc_expect(c, ";");
}

/* ---------------------------------------------------------------- registers */

static int add_reg(ws_pctx *c, const char *s, int len, ws_ptype ty)
{
    ws_function *f = c->fn;
    if (len >= (int)sizeof f->regs[0].name)
        return ws_pc_fail(c, WS_ERR_PTX, ws_pc_peek(c)->line, "register name too long");
    if (grow_array((void **)&f->regs, &c->cap_regs, f->nregs + 1, sizeof *f->regs))
        return nomem(c);
    ws_reg *r = &f->regs[f->nregs];
    memcpy(r->name, s, (size_t)len);
    r->name[len] = 0;
    r->type = (uint8_t)ty;
    if (bind(c, &c->regs, r->name, len, f->nregs))
        return c->err->code;
    f->nregs++;
    return WS_OK;
}

/* The sink `_` (a result nobody reads: mbarrier.arrive's state in cuda::ptx): one hidden
 * .b64 register of the function, made when first written. */
int ws_pc_sink(ws_pctx *c, int32_t *reg)
{
    int r = ws_strmap_get(&c->regs, "_", 1);
    if (r < 0) {
        if (add_reg(c, "_", 1, WS_P_B64))
            return c->err->code;
        r = c->fn->nregs - 1;
    }
    *reg = r;
    return WS_OK;
}

/* .reg .b32 %r<71>;  .reg .pred %p, %q;  .reg.b16 h;  (directive consumed; `glued` is
 * the directive token when the type is written on it, as in the fp16 headers' asm) */
static int parse_reg_decl(ws_pctx *c, const ws_tok *glued)
{
    const ws_tok *t = glued ? glued : ws_pc_next(c);
    const char *ts = glued ? t->s + 4 : t->s; /* ".reg.b16" -> ".b16" */
    int tlen = glued ? t->len - 4 : t->len;
    ws_ptype ty = tlen > 1 && ts[0] == '.' ? ws_ptype_from(ts + 1, tlen - 1) : WS_P_NONE;
    if ((tlen == 3 && (memcmp(ts, ".v2", 3) == 0 || memcmp(ts, ".v4", 3) == 0)))
        return ws_pc_fail(c, WS_ERR_UNSUPPORTED, t->line, "unsupported vector register");
    if (ty == WS_P_NONE)
        return ws_pc_syntax(c, t, "a register type");
    for (;;) {
        const ws_tok *name = ws_pc_next(c);
        if (name->kind != WS_TK_WORD)
            return ws_pc_syntax(c, name, "a register name");
        if (ws_pc_is(ws_pc_peek(c), "<")) {
            int64_t n;
            c->pos++;
            if (ws_pc_num(c, &n) || ws_pc_expect(c, ">"))
                return c->err->code;
            if (n < 0 || n > 65536)
                return ws_pc_fail(c, WS_ERR_UNSUPPORTED, name->line,
                                  "register count %lld out of range", (long long)n);
            for (int64_t i = 0; i < n; i++) {
                char buf[48];
                int len = snprintf(buf, sizeof buf, "%.*s%lld", name->len > 30 ? 30 : name->len,
                                   name->s, (long long)i);
                if (add_reg(c, buf, len, ty))
                    return c->err->code;
            }
        } else if (add_reg(c, name->s, name->len, ty)) {
            return c->err->code;
        }
        if (!ws_pc_is(ws_pc_peek(c), ","))
            break;
        c->pos++;
    }
    return ws_pc_expect(c, ";");
}

/* ---------------------------------------------------------------- .loc */

/* Where an inlined location (file, line, col) was resolved to in the main file, so a
 * chain header -> header -> .cu walks out through every inlined_at. */
static int loc_key(char *buf, size_t n, int64_t f, int64_t l, int64_t col)
{
    return snprintf(buf, n, "%lld:%lld:%lld", (long long)f, (long long)l, (long long)col);
}

static void set_loc(ws_pctx *c, int file, int line, int64_t f, int64_t l, int64_t col)
{
    char key[80];
    c->loc_file = file;
    c->loc_line = line;
    if (f != file) /* remember an inlined location for the chains that point at it */
        ws_strmap_put(&c->inlined, key, loc_key(key, sizeof key, f, l, col), line);
}

/* .loc F L C [, function_name LABEL[+N]] [, inlined_at F L C]: the instruction location is
 * the innermost one in the function's main file (its first .loc's file). */
static int parse_loc(ws_pctx *c)
{
    int64_t file, line, col, ifile = -1, iline = 0, icol = 0;
    int line_no = c->t[c->pos - 1].line;
    if (ws_pc_num(c, &file) || ws_pc_num(c, &line) || ws_pc_num(c, &col))
        return c->err->code;
    while (ws_pc_is(ws_pc_peek(c), ",")) {
        c->pos++;
        const ws_tok *k = ws_pc_next(c);
        if (ws_pc_is(k, "function_name")) {
            ws_pc_next(c);
            if (ws_pc_is(ws_pc_peek(c), "+")) {
                int64_t off;
                c->pos++;
                if (ws_pc_num(c, &off))
                    return c->err->code;
            }
        } else if (ws_pc_is(k, "inlined_at")) {
            if (ws_pc_num(c, &ifile) || ws_pc_num(c, &iline) || ws_pc_num(c, &icol))
                return c->err->code;
        } else {
            return ws_pc_syntax(c, k, "function_name or inlined_at");
        }
    }
    if (file < 0 || file > 100000 || line < 0 || line > INT32_MAX || iline < 0 ||
        iline > INT32_MAX)
        return ws_pc_fail(c, WS_ERR_PTX, line_no, "bad .loc");
    ws_function *f = c->fn;
    int main = f->main_file;
    if (main < 0)
        main = f->main_file = (int)file;
    if (file == main) {
        set_loc(c, main, (int)line, file, line, col);
    } else if (ifile == main) {
        set_loc(c, main, (int)iline, file, line, col);
    } else if (ifile >= 0) {
        char key[80];
        int known = ws_strmap_get(&c->inlined, key, loc_key(key, sizeof key, ifile, iline, icol));
        if (known >= 0)
            set_loc(c, main, known, file, line, col);
    } else if (c->loc_file != main) {
        c->loc_file = (int)file; /* nothing in the main file yet: keep what we have */
        c->loc_line = (int)line;
    }
    return WS_OK;
}

/* ---------------------------------------------------------------- functions */

/* ( .param .u64 name, ... ) into vars, laid out from *offset with natural alignment. */
static int parse_param_list(ws_pctx *c, ws_var **vars, int *nvars, uint64_t *offset)
{
    int cap = 0;
    if (ws_pc_expect(c, "("))
        return c->err->code;
    if (ws_pc_is(ws_pc_peek(c), ")")) {
        c->pos++;
        return WS_OK;
    }
    for (;;) {
        const ws_tok *t = ws_pc_next(c);
        if (!ws_pc_is(t, ".param") && !ws_pc_is(t, ".reg"))
            return ws_pc_syntax(c, t, "'.param'");
        if (ws_pc_is(t, ".reg"))
            return ws_pc_fail(c, WS_ERR_UNSUPPORTED, t->line, "unsupported .reg parameter");
        var_decl d;
        memset(&d, 0, sizeof d);
        d.v.space = WS_SPACE_PARAM;
        if (parse_var_attrs(c, &d) || parse_var_rest(c, &d))
            return c->err->code;
        uint64_t a = d.v.align ? d.v.align : 1;
        *offset = (*offset + a - 1) / a * a;
        d.v.offset = *offset;
        *offset += d.v.size;
        if (grow_array((void **)vars, &cap, *nvars + 1, sizeof **vars)) {
            free(d.v.init);
            return nomem(c);
        }
        (*vars)[(*nvars)++] = d.v;
        if (!ws_pc_is(ws_pc_peek(c), ","))
            break;
        c->pos++;
    }
    return ws_pc_expect(c, ")");
}

/* .maxntid 128, 1, 1  .reqntid ...  .minnctapersm N  .maxnreg N  .noreturn  .pragma "..."; */
static int skip_performance_directives(ws_pctx *c)
{
    for (;;) {
        const ws_tok *t = ws_pc_peek(c);
        if (ws_pc_is(t, ".noreturn")) {
            c->pos++;
        } else if (ws_pc_is(t, ".pragma")) {
            c->pos++;
            ws_pc_next(c);
            if (ws_pc_expect(c, ";"))
                return c->err->code;
        } else if (ws_pc_is(t, ".maxntid") || ws_pc_is(t, ".reqntid") ||
                   ws_pc_is(t, ".minnctapersm") || ws_pc_is(t, ".maxnctapersm") ||
                   ws_pc_is(t, ".maxnreg") || ws_pc_is(t, ".reqnctapercluster") ||
                   ws_pc_is(t, ".maxclusterrank") || ws_pc_is(t, ".explicitcluster")) {
            int dims = ws_pc_is(t, ".reqnctapercluster"), n = 1;
            if (ws_pc_is(t, ".explicitcluster") && !c->cluster_ctas)
                c->cluster_ctas = -1, c->cluster_line = t->line;
            c->pos++;
            while (ws_pc_peek(c)->kind == WS_TK_NUM || ws_pc_is(ws_pc_peek(c), ",")) {
                const ws_tok *v = ws_pc_next(c);
                int64_t x;
                if (dims && v->kind == WS_TK_NUM && !ws_parse_int_literal(v->s, v->len, &x) &&
                    x > 0 && x < 1024)
                    n *= (int)x;
            }
            if (dims)
                c->cluster_ctas = n, c->cluster_line = t->line;
        } else {
            return WS_OK;
        }
    }
}

static void free_function(ws_function *f)
{
    for (int i = 0; i < f->nparams; i++)
        free(f->params[i].init);
    for (int i = 0; i < f->nrets; i++)
        free(f->rets[i].init);
    for (int i = 0; i < f->nlocals; i++)
        free(f->locals[i].init);
    free(f->params);
    free(f->rets);
    free(f->regs);
    free(f->locals);
    free(f->insts);
    free(f->blocks);
    free(f->unsupported);
    memset(f, 0, sizeof *f);
}

void ws_ptx_function_free(ws_function *f) { free_function(f); }

static void reset_function_state(ws_pctx *c)
{
    ws_strmap_clear(&c->regs);
    ws_strmap_clear(&c->locals);
    ws_strmap_clear(&c->params);
    ws_strmap_clear(&c->labels);
    ws_strmap_clear(&c->inlined);
    while (c->nbinds > 0)
        free((char *)c->binds[--c->nbinds].s);
    c->depth = 0;
    c->nlfix = 0;
    c->cap_regs = c->cap_insts = c->cap_locals = 0;
    c->param_scratch = 0;
    c->loc_file = -1;
    c->loc_line = 0;
}

/* An unknown directive that ends the text is a name cut short: a truncated file. */
static int cut_after(ws_pctx *c, const ws_tok *t)
{
    if (t + 1 >= c->t + c->nt || t[1].kind != WS_TK_EOF)
        return 0;
    ws_pc_fail(c, WS_ERR_PTX, t->line, "unexpected end of file after '%.*s' (truncated PTX?)",
               t->len, t->s);
    return 1;
}

static int parse_body_directive(ws_pctx *c, const ws_tok *t)
{
    c->pos++;
    if (ws_pc_is(t, ".reg"))
        return parse_reg_decl(c, NULL);
    if (t->len > 5 && memcmp(t->s, ".reg.", 5) == 0)
        return parse_reg_decl(c, t);
    if (ws_pc_is(t, ".loc"))
        return parse_loc(c);
    if (ws_pc_is(t, ".shared"))
        return parse_local_var(c, WS_SPACE_SHARED);
    if (ws_pc_is(t, ".local"))
        return parse_local_var(c, WS_SPACE_LOCAL);
    if (ws_pc_is(t, ".param"))
        return parse_local_var(c, WS_SPACE_PARAM);
    if (ws_pc_is(t, ".pragma")) {
        ws_pc_next(c);
        return ws_pc_expect(c, ";");
    }
    if (cut_after(c, t))
        return c->err->code;
    if (ws_pc_is(t, ".callprototype"))
        return ws_pc_fail(c, WS_ERR_UNSUPPORTED, t->line, "unsupported call through a function "
                          "pointer (.callprototype; the SASS model runs it)");
    return ws_pc_fail(c, WS_ERR_UNSUPPORTED, t->line, "unsupported directive '%.*s' in function",
                      t->len, t->s);
}

static int parse_body(ws_pctx *c)
{
    for (;;) {
        const ws_tok *t = ws_pc_peek(c);
        if (t->kind == WS_TK_EOF)
            return ws_pc_fail(c, WS_ERR_PTX, t->line,
                              "unexpected end of file in function '%s': missing '}' "
                              "(truncated PTX?)", c->fn->name);
        if (ws_pc_is(t, "{")) {
            c->pos++;
            c->depth++;
        } else if (ws_pc_is(t, "}")) {
            c->pos++;
            if (c->depth == 0)
                return ws_finish_body(c, t->line);
            pop_scope(c);
        } else if (word_is_directive(t)) {
            if (parse_body_directive(c, t))
                return c->err->code;
        } else if (t->kind == WS_TK_WORD && ws_pc_is(&c->t[c->pos + 1], ":")) {
            if (ws_strmap_get(&c->labels, t->s, t->len) >= 0)
                return ws_pc_fail(c, WS_ERR_PTX, t->line, "duplicate label '%.*s'", t->len, t->s);
            if (ws_strmap_put(&c->labels, t->s, t->len, c->fn->ninsts) == -2)
                return nomem(c);
            c->pos += 2;
        } else if (ws_parse_instruction(c)) {
            return c->err->code;
        }
    }
}

static int add_function(ws_pctx *c, ws_function *f, int line)
{
    ws_module *m = c->m;
    if (ws_strmap_get(&c->funcs, f->name, (int)strlen(f->name)) >= 0)
        return ws_pc_fail(c, WS_ERR_PTX, line, "duplicate function '%s'", f->name);
    if (grow_array((void **)&m->funcs, &c->cap_funcs, m->nfuncs + 1, sizeof *m->funcs))
        return nomem(c);
    if (ws_strmap_put(&c->funcs, f->name, (int)strlen(f->name), m->nfuncs) == -2)
        return nomem(c);
    m->funcs[m->nfuncs++] = *f;
    memset(f, 0, sizeof *f);
    return WS_OK;
}

/* The body from the token after its '{' uses something unsupported (c->err): keep the
 * function, without instructions, holding the error for a launch to report, and go on
 * after its closing brace, so the module's other kernels still load. */
static int keep_unsupported(ws_pctx *c, ws_function *f, int body_start)
{
    f->unsupported = malloc(sizeof *f->unsupported);
    if (!f->unsupported)
        return nomem(c);
    *f->unsupported = *c->err;
    free(f->insts);
    free(f->blocks);
    f->insts = NULL;
    f->blocks = NULL;
    f->ninsts = f->nblocks = 0;
    int keep = 0; /* call fixups into the dropped instructions go too */
    for (int i = 0; i < c->ncalls; i++)
        if (c->calls[i].fn != c->fn_index)
            c->calls[keep++] = c->calls[i];
    c->ncalls = keep;
    int depth = 1;
    c->pos = body_start;
    while (depth > 0) {
        const ws_tok *t = ws_pc_next(c);
        if (t->kind == WS_TK_EOF)
            return ws_pc_fail(c, WS_ERR_PTX, t->line,
                              "unexpected end of file in function '%s': missing '}' "
                              "(truncated PTX?)", f->name);
        depth += ws_pc_is(t, "{") - ws_pc_is(t, "}");
    }
    ws_error_clear(c->err);
    return WS_OK;
}

/* .entry/.func header and body; the .entry/.func directive is consumed. */
static int parse_function(ws_pctx *c, int is_entry, int is_extern)
{
    ws_function f;
    memset(&f, 0, sizeof f);
    f.is_entry = is_entry;
    f.main_file = -1;
    uint64_t offset = 0, ret_bytes = 0;
    if (!is_entry && ws_pc_is(ws_pc_peek(c), "(") &&
        parse_param_list(c, &f.rets, &f.nrets, &ret_bytes))
        goto fail;
    const ws_tok *name = ws_pc_next(c);
    if (name->kind != WS_TK_WORD || word_is_directive(name)) {
        ws_pc_syntax(c, name, "a function name");
        goto fail;
    }
    if (name->len >= (int)sizeof f.name) {
        ws_pc_fail(c, WS_ERR_PTX, name->line, "function name longer than %d characters",
                   (int)sizeof f.name - 1);
        goto fail;
    }
    snprintf(f.name, sizeof f.name, "%.*s", name->len, name->s);
    if (ws_pc_is(ws_pc_peek(c), "(") && parse_param_list(c, &f.params, &f.nparams, &offset))
        goto fail;
    /* return values follow the parameters in the function's param block */
    for (int i = 0; i < f.nrets; i++) {
        uint64_t a = f.rets[i].align ? f.rets[i].align : 1;
        offset = (offset + a - 1) / a * a;
        f.rets[i].offset = offset;
        offset += f.rets[i].size;
    }
    c->cluster_ctas = c->cluster_line = 0;
    if (skip_performance_directives(c))
        goto fail;
    if (ws_pc_is(ws_pc_peek(c), ";")) { /* a declaration (prototype or .extern) */
        c->pos++;
        if (ws_strmap_put(&c->externs, f.name, (int)strlen(f.name), is_extern) == -2)
            nomem(c);
        if (is_extern && (!strcmp(f.name, "malloc") || !strcmp(f.name, "free")))
            c->m->uses_heap = 1; /* the device heap (heap.c), for both models */
        free_function(&f);
        return c->err->code;
    }
    if (!ws_pc_is(ws_pc_peek(c), "{")) {
        ws_pc_syntax(c, ws_pc_peek(c), "'{' or ';'");
        goto fail;
    }
    c->pos++;
    reset_function_state(c);
    c->fn = &f;
    c->fn_index = c->m->nfuncs;
    for (int i = 0; i < f.nparams; i++)
        if (ws_strmap_put(&c->params, f.params[i].name, (int)strlen(f.params[i].name), i) == -2)
            goto nomem_fail;
    for (int i = 0; i < f.nrets; i++)
        if (ws_strmap_put(&c->params, f.rets[i].name, (int)strlen(f.rets[i].name),
                          f.nparams + i) == -2)
            goto nomem_fail;
    int body_start = c->pos;
    if ((parse_body(c) || ws_resolve_labels(c)) &&
        (c->err->code != WS_ERR_UNSUPPORTED || keep_unsupported(c, &f, body_start)))
        goto fail;
    c->fn = NULL;
    if (c->cluster_ctas && c->cluster_ctas != 1 && !f.unsupported) { /* __cluster_dims__ */
        if (!(f.unsupported = malloc(sizeof *f.unsupported)))
            goto nomem_fail;
        ws_error_clear(f.unsupported);
        char what[64];
        snprintf(what, sizeof what, c->cluster_ctas > 0 ? "clusters of %d CTAs" : "clusters",
                 c->cluster_ctas);
        ws_error_at(f.unsupported, WS_ERR_UNSUPPORTED, c->name, c->cluster_line,
                    "compiled for thread-block %s (__cluster_dims__, .reqnctapercluster / "
                    ".explicitcluster): clusters are not modelled", what);
    }
    if (add_function(c, &f, name->line))
        goto fail;
    return WS_OK;
nomem_fail:
    nomem(c);
fail:
    c->fn = NULL;
    free_function(&f);
    return c->err->code ? c->err->code : WS_ERR_PTX;
}

/* ---------------------------------------------------------------- module directives */

static int parse_version(ws_pctx *c)
{
    const ws_tok *t = ws_pc_next(c);
    int maj = 0, min = 0;
    if (t->kind != WS_TK_NUM || sscanf(t->s, "%d.%d", &maj, &min) != 2)
        return ws_pc_syntax(c, t, "a version number");
    c->m->version_major = maj;
    c->m->version_minor = min;
    return WS_OK;
}

static int parse_target(ws_pctx *c)
{
    const ws_tok *t = ws_pc_next(c);
    if (t->kind != WS_TK_WORD)
        return ws_pc_syntax(c, t, "a target");
    snprintf(c->m->target, sizeof c->m->target, "%.*s", t->len, t->s);
    while (ws_pc_is(ws_pc_peek(c), ",")) {
        c->pos++;
        ws_pc_next(c);
    }
    return WS_OK;
}

static int parse_file(ws_pctx *c)
{
    int64_t idx;
    if (ws_pc_num(c, &idx))
        return c->err->code;
    const ws_tok *t = ws_pc_next(c);
    if (t->kind != WS_TK_STR)
        return ws_pc_syntax(c, t, "a file name string");
    if (idx < 0 || idx > 100000)
        return ws_pc_fail(c, WS_ERR_PTX, t->line, "bad .file index %lld", (long long)idx);
    ws_module *m = c->m;
    if (idx >= m->nfiles) {
        char **nf = realloc(m->files, (size_t)(idx + 1) * sizeof *nf);
        if (!nf)
            return nomem(c);
        for (int i = m->nfiles; i <= idx; i++)
            nf[i] = NULL;
        m->files = nf;
        m->nfiles = (int)idx + 1;
    }
    free(m->files[idx]);
    m->files[idx] = strndup(t->s, (size_t)t->len);
    if (!m->files[idx])
        return nomem(c);
    while (ws_pc_is(ws_pc_peek(c), ",")) { /* , timestamp, size */
        int64_t v;
        c->pos++;
        if (ws_pc_num(c, &v))
            return c->err->code;
    }
    return WS_OK;
}

/* .section .debug_str { ... }: skipped entirely (balanced braces). */
static int skip_section(ws_pctx *c)
{
    const ws_tok *start = ws_pc_next(c);
    if (ws_pc_expect(c, "{"))
        return c->err->code;
    int depth = 1;
    while (depth > 0) {
        const ws_tok *t = ws_pc_next(c);
        if (t->kind == WS_TK_EOF)
            return ws_pc_fail(c, WS_ERR_PTX, start->line,
                              "unexpected end of file in .section %.*s "
                              "(truncated PTX?)", start->len, start->s);
        if (ws_pc_is(t, "{"))
            depth++;
        else if (ws_pc_is(t, "}"))
            depth--;
    }
    return WS_OK;
}

static int parse_module_item(ws_pctx *c)
{
    int is_extern = 0;
    const ws_tok *t = ws_pc_next(c);
    while (ws_pc_is(t, ".visible") || ws_pc_is(t, ".weak") || ws_pc_is(t, ".extern") ||
           ws_pc_is(t, ".common")) {
        if (ws_pc_is(t, ".extern"))
            is_extern = 1;
        t = ws_pc_next(c);
    }
    if (ws_pc_is(t, ".entry"))
        return parse_function(c, 1, is_extern);
    if (ws_pc_is(t, ".func"))
        return parse_function(c, 0, is_extern);
    if (ws_pc_is(t, ".global"))
        return parse_module_var(c, WS_SPACE_GLOBAL, is_extern);
    if (ws_pc_is(t, ".const"))
        return parse_module_var(c, WS_SPACE_CONST, is_extern);
    if (ws_pc_is(t, ".shared"))
        return parse_module_var(c, WS_SPACE_SHARED, is_extern);
    if (ws_pc_is(t, ".version"))
        return parse_version(c);
    if (ws_pc_is(t, ".target"))
        return parse_target(c);
    if (ws_pc_is(t, ".address_size")) {
        int64_t v;
        if (ws_pc_num(c, &v))
            return c->err->code;
        c->m->address_size = (int)v;
        return WS_OK;
    }
    if (ws_pc_is(t, ".file"))
        return parse_file(c);
    if (ws_pc_is(t, ".section"))
        return skip_section(c);
    if (ws_pc_is(t, ".pragma")) {
        ws_pc_next(c);
        return ws_pc_expect(c, ";");
    }
    if (word_is_directive(t) && cut_after(c, t))
        return c->err->code;
    if (word_is_directive(t))
        return ws_pc_fail(c, WS_ERR_UNSUPPORTED, t->line, "unsupported directive '%.*s'",
                          t->len, t->s);
    return ws_pc_syntax(c, t, "a directive");
}

/* ---------------------------------------------------------------- finalization */

static int resolve_calls(ws_pctx *c)
{
    for (int i = 0; i < c->ncalls; i++) {
        ws_fixup *fx = &c->calls[i];
        const ws_tok *t = &c->t[fx->tok];
        int idx = ws_strmap_get(&c->funcs, t->s, t->len);
        ws_function *caller = &c->m->funcs[fx->fn];
        if (idx < 0) {
            int ext = ws_strmap_get(&c->externs, t->s, t->len);
            ws_inst *call = &caller->insts[fx->pc];
            int heap = ext == 1 && ((t->len == 6 && memcmp(t->s, "malloc", 6) == 0) ||
                                    (t->len == 4 && memcmp(t->s, "free", 4) == 0));
            if (ext == 1 && caller->unsupported)
                continue;
            if (ext == 1 && t->len == 7 && memcmp(t->s, "vprintf", 7) == 0 &&
                call->src[2].imm == 2) { /* printf: run by the executor (exec_printf.c) */
                call->src[fx->slot].imm = WS_CALL_VPRINTF;
                continue;
            }
            if (heap && call->src[2].imm == 1) { /* the device heap (heap.c) */
                call->src[fx->slot].imm = t->len == 6 ? WS_CALL_MALLOC : WS_CALL_FREE;
                continue;
            }
            if (ext == 1 && t->len == 12 && memcmp(t->s, "__assertfail", 12) == 0 &&
                call->src[2].imm == 5) { /* assert(): its failure stops the run (exec_printf.c) */
                call->src[fx->slot].imm = WS_CALL_ASSERTFAIL;
                continue;
            }
            if (ext == 1) { /* only the kernels that reach this call fail */
                ws_pc_fail(c, WS_ERR_UNSUPPORTED, t->line,
                           "unsupported call to external function '%.*s' (no body in the "
                           "PTX: a device-runtime function)", t->len, t->s);
                if (!(caller->unsupported = malloc(sizeof *caller->unsupported)))
                    return nomem(c);
                *caller->unsupported = *c->err;
                ws_error_clear(c->err);
                continue;
            }
            return ws_pc_fail(c, WS_ERR_PTX, t->line, "call to undefined function '%.*s'",
                              t->len, t->s);
        }
        ws_inst *in = &caller->insts[fx->pc];
        in->src[fx->slot].imm = idx;
    }
    return WS_OK;
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
    return a ? (v + a - 1) / a * a : v;
}

/* Shared window per CTA: module .shared first, then the function's own .shared, then the
 * dynamic (extern) shared memory aligned 16, at one offset for the whole module. */
static void layout_memory(ws_module *m)
{
    uint64_t mstatic = 0, max_static = 0;
    int has_dynamic = 0;
    for (int i = 0; i < m->nglobals; i++) {
        ws_var *v = &m->globals[i];
        if (v->space != WS_SPACE_SHARED)
            continue;
        if (v->is_extern && v->size == 0) {
            has_dynamic = 1;
            continue;
        }
        v->offset = align_up(mstatic, v->align);
        mstatic = v->offset + v->size;
    }
    max_static = mstatic;
    for (int fi = 0; fi < m->nfuncs; fi++) {
        ws_function *f = &m->funcs[fi];
        uint64_t sh = mstatic, loc = 0;
        for (int i = 0; i < f->nlocals; i++) {
            ws_var *v = &f->locals[i];
            if (v->space == WS_SPACE_SHARED) {
                v->offset = align_up(sh, v->align);
                sh = v->offset + v->size;
            } else if (v->space == WS_SPACE_LOCAL) {
                v->offset = align_up(loc, v->align);
                loc = v->offset + v->size;
            }
        }
        f->shared_bytes = sh;
        f->local_bytes = loc;
        if (sh > max_static)
            max_static = sh;
    }
    if (!has_dynamic)
        return;
    uint64_t dyn = align_up(max_static, 16);
    for (int i = 0; i < m->nglobals; i++)
        if (m->globals[i].space == WS_SPACE_SHARED && m->globals[i].is_extern &&
            m->globals[i].size == 0)
            m->globals[i].offset = dyn;
    for (int fi = 0; fi < m->nfuncs; fi++)
        if (m->funcs[fi].is_entry)
            m->funcs[fi].shared_bytes = dyn;
}

int ws_parse_module(ws_pctx *c)
{
    while (ws_pc_peek(c)->kind != WS_TK_EOF)
        if (parse_module_item(c))
            return c->err->code;
    if (resolve_calls(c))
        return c->err->code;
    layout_memory(c->m);
    return WS_OK;
}
