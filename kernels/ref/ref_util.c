/* ref_util.c — the CPU references' shared helpers: spec constants, buffers by name and
 * the seed kernels' per-item arithmetic. No reference logic of a workload lives here. */
#include "kernels/ref/ref_util.h"

#include <string.h>

static const ws_const *ws_ref_find_const(const ws_spec *s, const char *name)
{
    for (int i = 0; i < s->nconsts; i++)
        if (strcmp(s->consts[i].name, name) == 0)
            return &s->consts[i];
    return NULL;
}

int ws_ref_const_int(const ws_spec *s, const char *ref, const char *name, int64_t *out,
                     ws_error *err)
{
    const ws_const *c = ws_ref_find_const(s, name);
    if (!c || c->is_string)
        return ws_error_set(err, WS_ERR_SPEC,
                            "reference %s needs the integer constant %s in the spec", ref, name);
    *out = c->ival;
    return WS_OK;
}

const char *ws_ref_const_word(const ws_spec *s, const char *name)
{
    const ws_const *c = ws_ref_find_const(s, name);
    return c && c->is_string ? c->sval : "";
}

int ws_ref_buffer(ws_buffers *bufs, const char *ref, const char *name, ws_type type,
                  void **data, uint64_t *count, ws_error *err)
{
    for (int i = 0; i < bufs->n; i++) {
        const ws_buffer_spec *bs = bufs->b[i].spec;
        if (strcmp(bs->name, name) != 0)
            continue;
        if (bs->type != type)
            return ws_error_set(err, WS_ERR_SPEC, "reference %s: buffer %s must be %s, not %s",
                                ref, name, ws_type_name(type), ws_type_name(bs->type));
        *data = bufs->b[i].data;
        *count = bufs->b[i].bytes / ws_type_size(type);
        return WS_OK;
    }
    return ws_error_set(err, WS_ERR_SPEC, "reference %s needs a buffer named %s", ref, name);
}

int ws_ref_need(const char *ref, const char *name, uint64_t have, uint64_t need, ws_error *err)
{
    if (have >= need)
        return WS_OK;
    return ws_error_set(err, WS_ERR_SPEC,
                        "reference %s: buffer %s has %llu elements, the launch needs %llu", ref,
                        name, (unsigned long long)have, (unsigned long long)need);
}

int32_t ws_ref_square_steps(int32_t tmp, int64_t loop, uint32_t add)
{
    uint32_t u = (uint32_t)tmp;
    for (int64_t i = 0; i < loop; i++)
        u = 0xffffu & (u * u + u + add);
    return (int32_t)u;
}

int32_t ws_ref_path_a(int32_t x, int64_t loop) { return ws_ref_square_steps(x, loop, 0); }
int32_t ws_ref_path_b(int32_t x, int64_t loop) { return ws_ref_square_steps(x, loop, 1); }

int32_t ws_ref_path_c(int32_t x, int64_t loop)
{
    uint32_t u = (uint32_t)x;
    for (int64_t i = 0; i < loop; i++)
        u = 0xffffu & ((u * u) ^ u);
    return (int32_t)u;
}

int32_t ws_ref_path_d(int32_t x, int64_t loop)
{
    uint32_t u = (uint32_t)x;
    for (int64_t i = 0; i < loop; i++)
        u = 0xffffu & (u * u + 3u * u);
    return (int32_t)u;
}

int64_t ws_ref_bin_of(double x, int64_t bins)
{
    /* as the kernel: (int)(x * BINS) with the product rounded to double, clamped */
    double product = x * (double)bins;
    int64_t b = (int64_t)product;
    return b < bins ? b : bins - 1;
}
