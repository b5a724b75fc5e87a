/* bitonic_sort.c — CPU reference of bitonic_sort.cu: the first 2^LOG2N keys sorted
 * ascending (qsort, not a sorting network). */
#include "kernels/ref/ref_util.h"

#include <stdlib.h>

static int ws_ref_cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

int ws_ref_bitonic_sort(const ws_spec *s, const ws_variant *v, ws_buffers *expect,
                        ws_error *err)
{
    const char *ref = "bitonic_sort";
    int64_t log2n;
    uint32_t *keys;
    uint64_t nkeys;
    (void)v;
    if (ws_ref_const_int(s, ref, "LOG2N", &log2n, err) ||
        ws_ref_buffer(expect, ref, "keys", WS_T_U32, (void **)&keys, &nkeys, err))
        return err->code;
    if (log2n < 1 || log2n > 31)
        return ws_error_set(err, WS_ERR_SPEC, "reference %s: LOG2N must be in 1..31", ref);
    if (ws_ref_need(ref, "keys", nkeys, (uint64_t)1 << log2n, err))
        return err->code;
    qsort(keys, (size_t)1 << log2n, sizeof *keys, ws_ref_cmp_u32);
    return WS_OK;
}
