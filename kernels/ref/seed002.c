/* seed002.c — CPU references of seed 002's reductions: naive_reduction.cu (the correct
 * sum, which the racy variant is expected to miss), tree_reduction.cu (one sum per
 * block) and shuffle_reduction.cu (one total). Sums wrap like the GPU's 32-bit ints. */
#include "kernels/ref/ref_util.h"

/* Items of the launch: grid x block threads, one item each. */
static uint64_t ws_ref_threads(const ws_variant *v)
{
    return (uint64_t)v->grid[0] * v->grid[1] * v->grid[2] * v->block[0] * v->block[1] *
           v->block[2];
}

/* o[0] += every x of the launch (the kernels add to what is there). */
static int ws_ref_total(const char *ref, const ws_variant *v, ws_buffers *expect, ws_error *err)
{
    int32_t *x, *o;
    uint64_t nx, no, n = ws_ref_threads(v);
    if (ws_ref_buffer(expect, ref, "x", WS_T_I32, (void **)&x, &nx, err) ||
        ws_ref_buffer(expect, ref, "o", WS_T_I32, (void **)&o, &no, err) ||
        ws_ref_need(ref, "x", nx, n, err) || ws_ref_need(ref, "o", no, 1, err))
        return err->code;
    uint32_t sum = (uint32_t)o[0];
    for (uint64_t i = 0; i < n; i++)
        sum += (uint32_t)x[i];
    o[0] = (int32_t)sum;
    return WS_OK;
}

int ws_ref_naive_reduction(const ws_spec *s, const ws_variant *v, ws_buffers *expect,
                           ws_error *err)
{
    (void)s;
    return ws_ref_total("naive_reduction", v, expect, err);
}

int ws_ref_shuffle_reduction(const ws_spec *s, const ws_variant *v, ws_buffers *expect,
                             ws_error *err)
{
    (void)s;
    return ws_ref_total("shuffle_reduction", v, expect, err);
}

/* o[b] = sum of block b's x (both variants). */
int ws_ref_tree_reduction(const ws_spec *s, const ws_variant *v, ws_buffers *expect,
                          ws_error *err)
{
    const char *ref = "tree_reduction";
    int32_t *x, *o;
    uint64_t nx, no, blocks = (uint64_t)v->grid[0] * v->grid[1] * v->grid[2];
    uint64_t per_block = (uint64_t)v->block[0] * v->block[1] * v->block[2];
    (void)s;
    if (ws_ref_buffer(expect, ref, "x", WS_T_I32, (void **)&x, &nx, err) ||
        ws_ref_buffer(expect, ref, "o", WS_T_I32, (void **)&o, &no, err) ||
        ws_ref_need(ref, "x", nx, blocks * per_block, err) ||
        ws_ref_need(ref, "o", no, blocks, err))
        return err->code;
    for (uint64_t b = 0; b < blocks; b++) {
        uint32_t sum = 0;
        for (uint64_t t = 0; t < per_block; t++)
            sum += (uint32_t)x[b * per_block + t];
        o[b] = (int32_t)sum;
    }
    return WS_OK;
}
