/* exec_printf.c — the device printf: nvcc turns printf into a call of the external
 * vprintf(format, args), `format` the address of a .global string and `args` a local
 * buffer holding each argument at its natural alignment (floats promoted to double).
 * Each executing lane's text is formatted on the host and written in lane order. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include "sim/exec.h"

#define WS_PRINTF_LIMIT (1u << 20) /* bytes a run prints, as the device's default FIFO */
#define WS_PRINTF_LINE 4096        /* longest format string or %s argument read */

typedef struct pf_ctx {
    const ws_printf_io *io;
    int lane;
    uint64_t args, off; /* argument buffer and the next offset in it */
    int nargs;
    char *out; size_t len, cap;
} pf_ctx;

static int pf_put(pf_ctx *p, const char *s, size_t n)
{
    if (p->len + n + 1 > p->cap) {
        size_t cap = (p->len + n + 1) * 2;
        char *q = realloc(p->out, cap);
        if (!q)
            return p->io->nomem(p->io->ctx, p->lane);
        p->out = q;
        p->cap = cap;
    }
    memcpy(p->out + p->len, s, n);
    p->len += n;
    p->out[p->len] = 0;
    return 0;
}

/* The next argument of `size` bytes (4 or 8), aligned as the compiler laid it out. */
static int pf_arg(pf_ctx *p, int size, uint64_t *v)
{
    p->off = (p->off + (uint64_t)size - 1) / (uint64_t)size * (uint64_t)size;
    const uint8_t *src = p->io->host(p->io->ctx, p->args + p->off, (uint64_t)size, p->lane);
    if (!src)
        return WS_ERR_SIM;
    *v = 0;
    memcpy(v, src, (size_t)size); /* little-endian host */
    p->off += (uint64_t)size;
    p->nargs++;
    return 0;
}

/* A NUL-terminated string of device memory, cut at max - 1 bytes (printf's format and %s
 * arguments, assert's message); WS_ERR_SIM with the io's fault set outside memory. */
static int read_cstr(const ws_printf_io *io, int lane, uint64_t addr, char *buf, size_t max)
{
    size_t i = 0;
    for (; i + 1 < max; i++) {
        const uint8_t *c = io->host(io->ctx, addr + i, 1, lane);
        if (!c)
            return WS_ERR_SIM;
        if (!*c)
            break;
        buf[i] = (char)*c;
    }
    buf[i] = 0;
    return 0;
}

static int pf_string(pf_ctx *p, uint64_t addr, char *buf)
{
    return read_cstr(p->io, p->lane, addr, buf, WS_PRINTF_LINE);
}

/* One conversion: `spec` holds "%" flags width precision; `len` the length modifier;
 * `conv` the conversion character. */
static int pf_convert(pf_ctx *p, char *spec, const char *len, char conv, char *tmp)
{
    uint64_t v;
    int wide = len[0] == 'l' || len[0] == 'j' || len[0] == 'z' || len[0] == 't';
    size_t n = strlen(spec);
    int rc = 0, k = 0;
    switch (conv) {
    case 'd': case 'i':
        if ((rc = pf_arg(p, wide ? 8 : 4, &v)))
            return rc;
        if (!wide && len[0] == 'h') /* %hd, %hhd: the int converted to short, char */
            v = len[1] == 'h' ? (uint64_t)(int8_t)v : (uint64_t)(int16_t)v;
        else if (!wide)
            v = (uint64_t)(int32_t)v;
        snprintf(spec + n, 8, "ll%c", conv);
        k = snprintf(tmp, WS_PRINTF_LINE, spec, (long long)v);
        break;
    case 'u': case 'o': case 'x': case 'X':
        if ((rc = pf_arg(p, wide ? 8 : 4, &v)))
            return rc;
        if (!wide && len[0] == 'h')
            v = len[1] == 'h' ? (uint8_t)v : (uint16_t)v;
        snprintf(spec + n, 8, "ll%c", conv);
        k = snprintf(tmp, WS_PRINTF_LINE, spec, (unsigned long long)(wide ? v : (uint32_t)v));
        break;
    case 'c':
        if ((rc = pf_arg(p, 4, &v)))
            return rc;
        snprintf(spec + n, 8, "c");
        k = snprintf(tmp, WS_PRINTF_LINE, spec, (int)(uint8_t)v);
        break;
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
        if ((rc = pf_arg(p, 8, &v)))
            return rc;
        snprintf(spec + n, 8, "%c", conv);
        k = snprintf(tmp, WS_PRINTF_LINE, spec, ws_f64(v));
        break;
    case 's': {
        char *str = malloc(WS_PRINTF_LINE);
        if (!str)
            return p->io->nomem(p->io->ctx, p->lane);
        if ((rc = pf_arg(p, 8, &v)) == 0)
            rc = v ? pf_string(p, v, str) : (snprintf(str, WS_PRINTF_LINE, "(null)"), 0);
        snprintf(spec + n, 8, "s");
        if (!rc)
            k = snprintf(tmp, WS_PRINTF_LINE, spec, str);
        free(str);
        if (rc)
            return rc;
        break;
    }
    case 'p': { /* as the host's formatter prints CUDA's %p: (nil) for a null pointer */
        if ((rc = pf_arg(p, 8, &v)))
            return rc;
        char s[24];
        if (v)
            snprintf(s, sizeof s, "0x%llx", (unsigned long long)v);
        else
            snprintf(s, sizeof s, "(nil)");
        snprintf(spec + n, 8, "s"); /* flags and width apply to the text */
        k = snprintf(tmp, WS_PRINTF_LINE, spec, s);
        break;
    }
    default: /* not a conversion printf knows: printed as written */
        k = snprintf(tmp, WS_PRINTF_LINE, "%s%s%c", spec, len, conv);
        break;
    }
    return pf_put(p, tmp, k < 0 ? 0 : k >= WS_PRINTF_LINE ? WS_PRINTF_LINE - 1 : (size_t)k);
}

/* Formats `fmt` for one lane into p->out. */
static int pf_format(pf_ctx *p, const char *fmt, char *tmp)
{
    for (const char *s = fmt; *s;) {
        if (*s != '%' || s[1] == '%') {
            int rc = pf_put(p, s, 1);
            s += *s == '%' ? 2 : 1;
            if (rc)
                return rc;
            continue;
        }
        char spec[64] = "%", len[3] = "";
        size_t n = 1;
        const char *q = s + 1;
        while (*q && strchr("-+ #0", *q) && n < 8)
            spec[n++] = *q++;
        for (int part = 0; part < 2; part++) { /* width, then .precision */
            if (part == 1) {
                if (*q != '.')
                    break;
                spec[n++] = *q++;
            }
            if (*q == '*') {
                uint64_t v;
                int rc = pf_arg(p, 4, &v);
                if (rc)
                    return rc;
                n += (size_t)snprintf(spec + n, sizeof spec - n - 8, "%d", (int)(int32_t)v);
                q++;
            }
            while (*q >= '0' && *q <= '9' && n < 40)
                spec[n++] = *q++;
        }
        spec[n] = 0;
        for (int i = 0; i < 2 && *q && strchr("hlLjzt", *q); i++)
            len[i] = *q++;
        if (!*q)
            return pf_put(p, s, strlen(s));
        int rc = pf_convert(p, spec, len, *q, tmp);
        if (rc)
            return rc;
        s = q + 1;
    }
    return 0;
}

int ws_printf_lanes(ws_run *r, const ws_printf_io *io, uint32_t exec, const uint64_t *fmt,
                    const uint64_t *args, int32_t *nargs, uint16_t *chars)
{
    pf_ctx p = {.io = io};
    char *f = malloc(WS_PRINTF_LINE), *tmp = malloc(WS_PRINTF_LINE);
    int rc = f && tmp ? 0 : io->nomem(io->ctx, exec ? __builtin_ctz(exec) : 0);
    WS_LANES(l, exec, {
        if (rc)
            break;
        p.args = args[l];
        p.lane = l;
        p.off = 0;
        p.nargs = 0;
        rc = pf_string(&p, fmt[l], f);
        if (!rc) {
            size_t len = strlen(f);
            if (len > *chars)
                *chars = (uint16_t)(len < 65535 ? len : 65535);
            rc = pf_format(&p, f, tmp);
        }
        nargs[l] = p.nargs;
    });
    free(f);
    free(tmp);
    if (!rc && p.len && r->opt->printf_to) {
        pthread_mutex_lock(&r->lock);
        size_t room = r->printed < WS_PRINTF_LIMIT ? WS_PRINTF_LIMIT - r->printed : 0;
        size_t n = p.len < room ? p.len : room;
        fwrite(p.out, 1, n, r->opt->printf_to);
        r->printed += n;
        r->printf_dropped += p.len - n;
        pthread_mutex_unlock(&r->lock);
    }
    free(p.out);
    return rc;
}

/* The PTX model's memory for the formatter: generic addresses through ws_x_host. */
typedef struct ptx_io { ws_warp *w; const ws_inst *in; } ptx_io;

static const uint8_t *ptx_host(void *ctx, uint64_t addr, uint64_t n, int lane)
{
    ptx_io *x = ctx;
    return ws_x_host(x->w, x->in, WS_SPACE_GENERIC, addr, n, lane);
}

static int ptx_nomem(void *ctx, int lane)
{
    ptx_io *x = ctx;
    return ws_x_fault(x->w, x->in, lane, 0, WS_ERR_NOMEM, "out of memory (printf)");
}

/* vprintf(format, args) for every executing lane; its int result (the arguments read)
 * goes to the call's return .param. */
int ws_x_vprintf(ws_warp *w, const ws_inst *in, uint32_t exec, ws_effect *fx)
{
    ws_run *r = w->cta->run;
    const ws_frame *fr = &w->frames[w->nframes - 1];
    const ws_function *fn = ws_x_fn(w);
    uint64_t stride = r->fi[fr->fn].param_bytes, scratch0 = r->fi[fr->fn].param_block;
    if (in->src[1].sym < 0 || in->src[2].imm != 2)
        return ws_x_fault(w, in, 0, 0, WS_ERR_UNSUPPORTED, "vprintf needs 2 arguments");
    const ws_var *fa = &fn->locals[in->src[1].sym], *aa = &fn->locals[in->src[1].sym + 1];
    const ws_var *ret = in->ndst > 0 && in->dst[0].sym >= 0 ? &fn->locals[in->dst[0].sym] : NULL;
    uint64_t fmt[WS_WARP] = {0}, args[WS_WARP] = {0};
    int32_t nargs[WS_WARP] = {0};
    WS_LANES(l, exec, {
        const uint8_t *slot = fr->param + (size_t)l * stride + scratch0;
        memcpy(&fmt[l], slot + fa->offset, fa->size < 8 ? fa->size : 8);
        memcpy(&args[l], slot + aa->offset, aa->size < 8 ? aa->size : 8);
    });
    ptx_io x = {w, in};
    ws_printf_io io = {ptx_host, ptx_nomem, &x};
    uint16_t chars = 0;
    int rc = ws_printf_lanes(r, &io, exec, fmt, args, nargs, &chars);
    fx->printf_call = 1;
    fx->printf_chars = chars;
    if (!rc && ret)
        WS_LANES(l, exec, memcpy(fr->param + (size_t)l * stride + scratch0 + ret->offset,
                                 &nargs[l], ret->size < 4 ? ret->size : 4););
    return rc;
}

int ws_assert_message(const ws_printf_io *io, int lane, uint64_t msg, uint64_t func,
                      char *out, size_t n)
{
    char m[201], f[201];
    if (read_cstr(io, lane, msg, m, sizeof m) || read_cstr(io, lane, func, f, sizeof f))
        return WS_ERR_SIM;
    snprintf(out, n, "assertion `%s' failed in %s", m, f);
    return 0;
}

int ws_x_assertfail(ws_warp *w, const ws_inst *in, uint32_t exec)
{
    if (!exec)
        return 0;
    ws_run *r = w->cta->run;
    const ws_frame *fr = &w->frames[w->nframes - 1];
    const ws_function *fn = ws_x_fn(w);
    uint64_t stride = r->fi[fr->fn].param_bytes, scratch0 = r->fi[fr->fn].param_block;
    int lane = __builtin_ctz(exec);
    assert(in->src[1].sym >= 0 && in->src[2].imm == 5); /* the parser maps only that call */
    const ws_var *ma = &fn->locals[in->src[1].sym], *fa = &fn->locals[in->src[1].sym + 3];
    uint64_t msg = 0, func = 0;
    const uint8_t *slot = fr->param + (size_t)lane * stride + scratch0;
    memcpy(&msg, slot + ma->offset, ma->size < 8 ? ma->size : 8);
    memcpy(&func, slot + fa->offset, fa->size < 8 ? fa->size : 8);
    ptx_io x = {w, in};
    ws_printf_io io = {ptx_host, ptx_nomem, &x};
    char text[512];
    if (ws_assert_message(&io, lane, msg, func, text, sizeof text))
        return WS_ERR_SIM;
    return ws_x_fault(w, in, lane, 0, WS_ERR_SIM, "%s", text);
}
