/* seed003_004.c — CPU references of divergence_examples.cu (seed 004) and predication.cu
 * (seed 003): per thread, the path its kernel takes, computed directly. The variant's
 * kernel name picks the kernel; threadIdx.x comes from the variant's block size. */
#include "kernels/ref/ref_util.h"

#include <string.h>

typedef int32_t (*ws_ref_thread_fn)(int32_t x, int64_t idx, int64_t tid, int64_t loop);

static int32_t ws_ref_tid_eq_0(int32_t x, int64_t idx, int64_t tid, int64_t loop)
{
    (void)idx;
    return tid == 0 ? ws_ref_path_a(x, loop) : ws_ref_path_b(x, loop);
}

static int32_t ws_ref_warp_uniform(int32_t x, int64_t idx, int64_t tid, int64_t loop)
{
    (void)idx;
    return tid / 32 == 0 ? ws_ref_path_a(x, loop) : ws_ref_path_b(x, loop);
}

static int32_t ws_ref_nested(int32_t j, int64_t idx, int64_t tid, int64_t loop)
{
    int32_t x = (int32_t)idx;
    if (tid % 2 == 0)
        return j < 0 ? ws_ref_path_c(x, loop) : ws_ref_path_d(x, loop);
    return j < 0 ? ws_ref_path_a(x, loop) : ws_ref_path_b(x, loop);
}

static int32_t ws_ref_loop(int32_t x, int64_t idx, int64_t tid, int64_t loop)
{
    uint32_t u = (uint32_t)x;
    int64_t trips = (tid & 31) + 1;
    (void)idx;
    (void)loop;
    for (int64_t t = 0; t < trips; t++)
        u = 0xffffu & (u * u + u + (uint32_t)t);
    return (int32_t)u;
}

static int32_t ws_ref_short_if(int32_t x, int64_t idx, int64_t tid, int64_t loop)
{
    uint32_t u = (uint32_t)x;
    (void)idx, (void)tid, (void)loop;
    return (int32_t)(x < 0 ? 0u - u * 3u : u + 7u);
}

static int32_t ws_ref_long_if(int32_t x, int64_t idx, int64_t tid, int64_t loop)
{
    (void)idx, (void)tid;
    return x < 0 ? ws_ref_path_a(x, loop) : ws_ref_path_b(x, loop);
}

static const struct {
    const char *kernel;
    ws_ref_thread_fn fn;
} ws_ref_threads_table[] = {
    {"tid_eq_0", ws_ref_tid_eq_0}, {"warp_uniform", ws_ref_warp_uniform},
    {"nested", ws_ref_nested},     {"loop", ws_ref_loop},
    {"short_if", ws_ref_short_if}, {"long_if", ws_ref_long_if},
};

/* out[idx] = the variant's kernel applied to in[idx], for every thread of a 1-D launch. */
static int ws_ref_per_thread(const char *ref, const ws_spec *s, const ws_variant *v,
                             ws_buffers *expect, ws_error *err)
{
    ws_ref_thread_fn fn = NULL;
    for (size_t i = 0; i < sizeof ws_ref_threads_table / sizeof ws_ref_threads_table[0]; i++)
        if (strcmp(ws_ref_threads_table[i].kernel, v->kernel) == 0)
            fn = ws_ref_threads_table[i].fn;
    if (!fn)
        return ws_error_set(err, WS_ERR_SPEC, "reference %s has no kernel named %s", ref,
                            v->kernel);
    int64_t loop;
    int32_t *in, *out;
    uint64_t nin, nout, block = v->block[0], n = (uint64_t)v->grid[0] * v->block[0];
    if (ws_ref_const_int(s, ref, "LOOP", &loop, err) ||
        ws_ref_buffer(expect, ref, "in", WS_T_I32, (void **)&in, &nin, err) ||
        ws_ref_buffer(expect, ref, "out", WS_T_I32, (void **)&out, &nout, err) ||
        ws_ref_need(ref, "in", nin, n, err) || ws_ref_need(ref, "out", nout, n, err))
        return err->code;
    for (uint64_t idx = 0; idx < n; idx++)
        out[idx] = fn(in[idx], (int64_t)idx, (int64_t)(idx % block), loop);
    return WS_OK;
}

int ws_ref_divergence_examples(const ws_spec *s, const ws_variant *v, ws_buffers *expect,
                               ws_error *err)
{
    return ws_ref_per_thread("divergence_examples", s, v, expect, err);
}

int ws_ref_predication(const ws_spec *s, const ws_variant *v, ws_buffers *expect, ws_error *err)
{
    return ws_ref_per_thread("predication", s, v, expect, err);
}
