/* ptx_params.c — the host-only half of the backend: reads `.entry` names and `.param`
 * types from PTX text and packs a variant's arguments into the launch parameter array.
 * Needs no driver, so CI tests it. Not a PTX parser (sim/ owns that). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "backend/backend.h"

static const char *skip_space_and_comments(const char *p)
{
    for (;;) {
        while (*p && isspace((unsigned char)*p))
            p++;
        if (p[0] == '/' && p[1] == '/') {
            while (*p && *p != '\n')
                p++;
        } else if (p[0] == '/' && p[1] == '*') {
            const char *end = strstr(p + 2, "*/");
            p = end ? end + 2 : p + strlen(p);
        } else {
            return p;
        }
    }
}

/* Copies one token (up to a space, comma, paren) into buf; returns the position after it. */
static const char *read_token(const char *p, char *buf, size_t n)
{
    size_t len = 0;
    p = skip_space_and_comments(p);
    while (*p && !isspace((unsigned char)*p) && *p != ',' && *p != '(' && *p != ')') {
        if (len + 1 < n)
            buf[len++] = *p;
        p++;
    }
    buf[len] = '\0';
    return p;
}

static int scalar_type_size(const char *t)
{
    if (t[0] != '.' || !strchr("usbf", t[1]))
        return 0;
    int bits = atoi(t + 2);
    if (bits != 8 && bits != 16 && bits != 32 && bits != 64)
        return 0;
    if (t[1] == 'f' && bits < 32)
        return 0;
    return bits / 8;
}

/* Parses one ".param ..." declaration between `p` and `end`. */
static int parse_param(const char *p, const char *end, ws_ptx_param *out, ws_error *err)
{
    char tok[160];
    int explicit_align = 0;
    memset(out, 0, sizeof *out);
    while (p < end) {
        p = read_token(p, tok, sizeof tok);
        if (!tok[0])
            break;
        if (strcmp(tok, ".param") == 0 || strcmp(tok, ".ptr") == 0 ||
            strcmp(tok, ".global") == 0 || strcmp(tok, ".const") == 0 ||
            strcmp(tok, ".shared") == 0 || strcmp(tok, ".local") == 0)
            continue;
        if (strcmp(tok, ".align") == 0) {
            p = read_token(p, tok, sizeof tok);
            if (!out->type[0])
                explicit_align = atoi(tok);
            continue;
        }
        if (scalar_type_size(tok) && !out->type[0]) {
            snprintf(out->type, sizeof out->type, "%.15s", tok);
            out->size = scalar_type_size(tok);
            continue;
        }
        if (tok[0] != '.') {
            char *bracket = strchr(tok, '[');
            int count = 1;
            if (bracket) {
                count = atoi(bracket + 1);
                *bracket = '\0';
            }
            snprintf(out->name, sizeof out->name, "%.127s", tok);
            out->size *= count > 0 ? count : 1;
        }
    }
    if (!out->type[0] || !out->name[0] || out->size <= 0)
        return ws_error_set(err, WS_ERR_PTX, "cannot read a .param declaration of an .entry");
    out->align = explicit_align ? explicit_align : scalar_type_size(out->type);
    return WS_OK;
}

/* Parses the parameter list "( ... )" starting at `p` (at '('); returns the end or NULL. */
static const char *parse_params(const char *p, ws_ptx_entry *e, ws_error *err)
{
    const char *close = strchr(p, ')');
    if (!close) {
        ws_error_set(err, WS_ERR_PTX, "entry %s: unterminated parameter list", e->name);
        return NULL;
    }
    p++;
    while (p < close) {
        const char *q = skip_space_and_comments(p);
        if (q >= close)
            break;
        const char *comma = memchr(q, ',', (size_t)(close - q));
        const char *stop = comma ? comma : close;
        if (e->nparams >= WS_ARGS_MAX) {
            ws_error_set(err, WS_ERR_UNSUPPORTED, "entry %s: more than %d parameters",
                         e->name, WS_ARGS_MAX);
            return NULL;
        }
        if (parse_param(q, stop, &e->params[e->nparams], err) != WS_OK) {
            snprintf(err->kernel, sizeof err->kernel, "%.127s", e->name);
            return NULL;
        }
        e->nparams++;
        p = comma ? comma + 1 : close;
    }
    return close + 1;
}

/* The next ".entry " outside comments at or after `p`, or NULL. */
static const char *next_entry(const char *p)
{
    while (*p) {
        if ((p[0] == '/' && (p[1] == '/' || p[1] == '*'))) {
            p = skip_space_and_comments(p);
            continue;
        }
        if (!strncmp(p, ".entry", 6) && isspace((unsigned char)p[6]))
            return p + 6;
        p++;
    }
    return NULL;
}

static int grow(ws_ptx_entry **list, int *cap, int count, ws_error *err)
{
    if (count < *cap)
        return WS_OK;
    ws_ptx_entry *grown = realloc(*list, (size_t)*cap * 2 * sizeof **list);
    if (!grown)
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory reading PTX entries");
    *list = grown;
    *cap *= 2;
    return WS_OK;
}

int ws_ptx_scan_entries(const char *ptx, ws_ptx_entry **entries, int *n, ws_error *err)
{
    int cap = 8, count = 0;
    ws_ptx_entry *list = calloc((size_t)cap, sizeof *list);
    if (!list)
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory reading PTX entries");
    for (const char *p = next_entry(ptx); p; p = next_entry(p)) {
        if (grow(&list, &cap, count, err) != WS_OK)
            break;
        ws_ptx_entry *e = &list[count];
        memset(e, 0, sizeof *e);
        p = skip_space_and_comments(read_token(p, e->name, sizeof e->name));
        if (*p != '(') {
            ws_error_set(err, WS_ERR_PTX, "entry %s: no parameter list", e->name);
            break;
        }
        if (!(p = parse_params(p, e, err)))
            break;
        count++;
    }
    if (err->code != WS_OK) {
        free(list);
        return err->code;
    }
    *entries = list;
    *n = count;
    return WS_OK;
}

static const char *entry_at(const void *ctx, int i)
{
    return ((const ws_ptx_entry *)ctx)[i].name;
}

int ws_ptx_find_entry(const char *ptx, const char *kernel, ws_ptx_entry *out, ws_error *err)
{
    ws_ptx_entry *list;
    int n;
    if (ws_ptx_scan_entries(ptx, &list, &n, err) != WS_OK)
        return err->code;
    char names[400] = "", hits[400];
    int nmatch, found = ws_kernel_name_pick(kernel, n, entry_at, list, &nmatch, hits, sizeof hits);
    for (int i = 0; nmatch == 0 && i < n; i++) {
        size_t used = strlen(names);
        snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "", list[i].name);
    }
    if (found >= 0) {
        *out = list[found];
        free(list);
        return WS_OK;
    }
    free(list);
    if (nmatch > 1) {
        ws_error_set(err, WS_ERR_SPEC, "kernel '%s' names %d entries of the PTX (template "
                     "instances or overloads: %s): give the one to run by its mangled name",
                     kernel, nmatch, hits);
        snprintf(err->kernel, sizeof err->kernel, "%s", kernel);
        return WS_ERR_SPEC;
    }
    ws_error_set(err, WS_ERR_NOTFOUND, "kernel '%s' is not an entry of the PTX (entries: %s)",
                 kernel, n ? names : "none");
    snprintf(err->kernel, sizeof err->kernel, "%s", kernel);
    return WS_ERR_NOTFOUND;
}

static int pack_scalar(const ws_ptx_param *p, const ws_arg *a, unsigned char *dst)
{
    if (strcmp(p->type, ".f32") == 0) {
        float f = (float)a->fval;
        memcpy(dst, &f, 4);
    } else if (strcmp(p->type, ".f64") == 0) {
        memcpy(dst, &a->fval, 8);
    } else {
        int64_t v = a->ival; /* little-endian: the low bytes are the narrower value */
        memcpy(dst, &v, (size_t)p->size);
    }
    return WS_OK;
}

int ws_params_pack(const ws_ptx_entry *e, const ws_spec *s, const ws_variant *v,
                   const uint64_t *buffer_addr, ws_param_pack *out, ws_error *err)
{
    memset(out, 0, sizeof *out);
    if (v->nargs != e->nparams)
        return ws_error_set(err, WS_ERR_SPEC,
                            "variant '%s': kernel %s takes %d parameters, the spec gives %d",
                            v->name, e->name, e->nparams, v->nargs);
    size_t at = 0;
    for (int i = 0; i < e->nparams; i++) {
        const ws_ptx_param *p = &e->params[i];
        const ws_arg *a = &v->args[i];
        if (p->size > WS_STRUCT_MAX || p->size <= 0)
            return ws_error_set(err, WS_ERR_UNSUPPORTED,
                                "kernel %s parameter %d (%s %s): %d-byte parameters are not supported",
                                e->name, i, p->type, p->name, p->size);
        ws_param_shape shape = {e->name, p->name, (uint64_t)p->size, (uint32_t)p->align,
                                p->size != scalar_type_size(p->type)};
        if (ws_arg_check_param(s, v->name, i + 1, a, &shape, err) != WS_OK)
            return err->code;
        at = (at + (size_t)p->align - 1) / (size_t)p->align * (size_t)p->align;
        out->offset[i] = at;
        out->size[i] = (size_t)p->size;
        unsigned char *dst = out->storage + i * WS_STRUCT_MAX;
        if (a->kind == WS_ARG_STRUCT) {
            memcpy(dst, a->bytes, a->struct_size);
        } else if (a->kind == WS_ARG_BUFFER) {
            if (p->size != 8)
                return ws_error_set(err, WS_ERR_SPEC,
                                    "variant '%s': argument %d is buffer '%s' but kernel parameter %d is %s, not a pointer",
                                    v->name, i + 1, s->buffers[a->buffer].name, i, p->type);
            if (a->offset && ws_spec_image(s, a->buffer))
                return ws_error_at(err, WS_ERR_SPEC, s->path, a->line, "variant '%s': argument "
                                   "%d '%s' is an offset into a texture or surface (one is "
                                   "passed whole)", v->name, i + 1, a->expr);
            uint64_t addr = buffer_addr[a->buffer] + a->offset;
            memcpy(dst, &addr, 8);
        } else {
            pack_scalar(p, a, dst);
        }
        out->ptrs[i] = dst;
        at += (size_t)p->size;
        out->n++;
    }
    return WS_OK;
}

const char *ws_cu_result_name(int code)
{
    switch (code) {
    case CUDA_SUCCESS: return "CUDA_SUCCESS";
    case CUDA_ERROR_INVALID_VALUE: return "CUDA_ERROR_INVALID_VALUE";
    case CUDA_ERROR_OUT_OF_MEMORY: return "CUDA_ERROR_OUT_OF_MEMORY";
    case CUDA_ERROR_NOT_INITIALIZED: return "CUDA_ERROR_NOT_INITIALIZED";
    case CUDA_ERROR_NO_DEVICE: return "CUDA_ERROR_NO_DEVICE";
    case CUDA_ERROR_INVALID_DEVICE: return "CUDA_ERROR_INVALID_DEVICE";
    case CUDA_ERROR_STUB_LIBRARY: return "CUDA_ERROR_STUB_LIBRARY";
    case CUDA_ERROR_INVALID_PTX: return "CUDA_ERROR_INVALID_PTX";
    case CUDA_ERROR_UNSUPPORTED_PTX_VERSION: return "CUDA_ERROR_UNSUPPORTED_PTX_VERSION";
    case CUDA_ERROR_NO_BINARY_FOR_GPU: return "CUDA_ERROR_NO_BINARY_FOR_GPU";
    case CUDA_ERROR_NOT_FOUND: return "CUDA_ERROR_NOT_FOUND";
    case CUDA_ERROR_ILLEGAL_ADDRESS: return "CUDA_ERROR_ILLEGAL_ADDRESS";
    case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES: return "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES";
    case CUDA_ERROR_LAUNCH_TIMEOUT: return "CUDA_ERROR_LAUNCH_TIMEOUT";
    case CUDA_ERROR_LAUNCH_FAILED: return "CUDA_ERROR_LAUNCH_FAILED";
    case CUDA_ERROR_MISALIGNED_ADDRESS: return "CUDA_ERROR_MISALIGNED_ADDRESS";
    case CUDA_ERROR_INVALID_IMAGE: return "CUDA_ERROR_INVALID_IMAGE";
    case CUDA_ERROR_SYSTEM_DRIVER_MISMATCH: return "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH";
    case CUDA_ERROR_OPERATING_SYSTEM: return "CUDA_ERROR_OPERATING_SYSTEM";
    default: return "CUDA_ERROR_UNKNOWN";
    }
}

/* The variable a `.global` declaration names: the first word after the state space that is
 * neither a directive (.align, .b8, ...) nor a number; `[` and `=` end it. */
static int declared_name(const char *p, const char *end, char *name, size_t n)
{
    while (p < end && *p != '=') {
        while (p < end && isspace((unsigned char)*p))
            p++;
        const char *w = p;
        while (p < end && !isspace((unsigned char)*p) && *p != '[' && *p != '=' && *p != ';')
            p++;
        if (p == w) {
            p++;
            continue;
        }
        if (*w == '.' || isdigit((unsigned char)*w))
            continue;
        if ((size_t)(p - w) >= n)
            return 0;
        memcpy(name, w, (size_t)(p - w));
        name[p - w] = '\0';
        return 1;
    }
    return 0;
}

int ws_ptx_global_names(const char *ptx, char (*names)[WS_NAME_MAX], int max)
{
    int braces = 0, parens = 0, n = 0;
    for (const char *p = ptx; *p;) {
        if (p[0] == '/' && p[1] == '/') {
            const char *e = strchr(p, '\n');
            if (!e)
                break;
            p = e;
        } else if (p[0] == '/' && p[1] == '*') {
            const char *e = strstr(p + 2, "*/");
            if (!e)
                break;
            p = e + 2;
        } else if (*p == '{' || *p == '}' || *p == '(' || *p == ')') {
            braces += *p == '{' ? 1 : *p == '}' ? -1 : 0;
            parens += *p == '(' ? 1 : *p == ')' ? -1 : 0;
            p++;
        } else if (!braces && !parens && !strncmp(p, ".global", 7) &&
                   isspace((unsigned char)p[7]) && (p == ptx || isspace((unsigned char)p[-1]))) {
            const char *end = strchr(p, ';'); /* an initializer's braces stay inside */
            if (!end)
                break;
            if (n < max && declared_name(p + 7, end, names[n], WS_NAME_MAX))
                n++;
            p = end + 1;
        } else {
            p++;
        }
    }
    return n;
}
