/* error.c — ws_error: filling, formatting and naming errors.
 * Errors are values returned up to the CLI; nothing here prints or exits. */
#include "core/core.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void ws_error_clear(ws_error *e)
{
    if (e)
        memset(e, 0, sizeof *e);
}

static void ws_error_vset(ws_error *e, ws_code code, const char *fmt, va_list ap)
{
    e->code = code;
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
}

int ws_error_set(ws_error *e, ws_code code, const char *fmt, ...)
{
    if (!e)
        return code;
    va_list ap;
    va_start(ap, fmt);
    ws_error_vset(e, code, fmt, ap);
    va_end(ap);
    return code;
}

int ws_error_at(ws_error *e, ws_code code, const char *file, int line, const char *fmt, ...)
{
    if (!e)
        return code;
    va_list ap;
    va_start(ap, fmt);
    ws_error_vset(e, code, fmt, ap);
    va_end(ap);
    snprintf(e->file, sizeof e->file, "%s", file ? file : "");
    e->line = line;
    return code;
}

/* Appends to buf at *used, never past n; keeps *used <= n-1. */
static void ws_appendf(char *buf, size_t n, size_t *used, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void ws_appendf(char *buf, size_t n, size_t *used, const char *fmt, ...)
{
    if (*used + 1 >= n)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf + *used, n - *used, fmt, ap);
    va_end(ap);
    if (k < 0)
        return;
    *used += (size_t)k;
    if (*used > n - 1)
        *used = n - 1;
}

/* "FILE:LINE: kernel K, CTA (x,y,z), warp W, lane L, PC P, address 0x...: message",
 * leaving out every part that is absent. */
void ws_error_format(const ws_error *e, char *buf, size_t n)
{
    size_t used = 0;
    int parts = 0;
    if (!buf || n == 0)
        return;
    buf[0] = '\0';
    if (e->file[0]) {
        if (e->line > 0)
            ws_appendf(buf, n, &used, "%s:%d: ", e->file, e->line);
        else
            ws_appendf(buf, n, &used, "%s: ", e->file);
    }
    if (e->kernel[0])
        ws_appendf(buf, n, &used, "%skernel %s", parts++ ? ", " : "", e->kernel);
    if (e->has_thread) {
        ws_appendf(buf, n, &used, "%sCTA (%u,%u,%u), warp %d, lane %d, PC %d",
                   parts++ ? ", " : "", e->cta[0], e->cta[1], e->cta[2], e->warp, e->lane,
                   e->pc);
        if (e->address)
            ws_appendf(buf, n, &used, ", address 0x%llx", (unsigned long long)e->address);
    }
    if (parts)
        ws_appendf(buf, n, &used, ": ");
    ws_appendf(buf, n, &used, "%s", e->msg[0] ? e->msg : ws_code_name(e->code));
}

const char *ws_code_name(ws_code c)
{
    switch (c) {
    case WS_OK: return "ok";
    case WS_ERR_USAGE: return "usage error";
    case WS_ERR_IO: return "I/O error";
    case WS_ERR_NOMEM: return "out of memory";
    case WS_ERR_SPEC: return "spec error";
    case WS_ERR_BUILD: return "build error";
    case WS_ERR_PTX: return "PTX error";
    case WS_ERR_UNSUPPORTED: return "unsupported";
    case WS_ERR_SIM: return "simulation fault";
    case WS_ERR_CHECK: return "check failed";
    case WS_ERR_GPU: return "GPU error";
    case WS_ERR_CUPTI: return "profiler error";
    case WS_ERR_DB: return "database error";
    case WS_ERR_NOTFOUND: return "not found";
    }
    return "unknown error";
}
