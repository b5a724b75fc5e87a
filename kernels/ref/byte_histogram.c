/* byte_histogram.c — CPU reference of byte_histogram.cu: every byte of `data` counted in
 * bin byte * BINS / 256 of `hist` (added to what it holds, as the kernels' atomics do). */
#include "kernels/ref/ref_util.h"

int ws_ref_byte_histogram(const ws_spec *s, const ws_variant *v, ws_buffers *expect,
                          ws_error *err)
{
    const char *ref = "byte_histogram";
    int64_t n, bins;
    uint8_t *data;
    uint32_t *hist;
    uint64_t ndata, nhist;
    (void)v;
    if (ws_ref_const_int(s, ref, "N", &n, err) || ws_ref_const_int(s, ref, "BINS", &bins, err) ||
        ws_ref_buffer(expect, ref, "data", WS_T_U8, (void **)&data, &ndata, err) ||
        ws_ref_buffer(expect, ref, "hist", WS_T_U32, (void **)&hist, &nhist, err))
        return err->code;
    if (bins < 1 || bins > 256 || n < 0 || n % 4 != 0)
        return ws_error_set(err, WS_ERR_SPEC,
                            "reference %s: BINS must be in 1..256 and N a multiple of 4", ref);
    if (ws_ref_need(ref, "data", ndata, (uint64_t)n, err) ||
        ws_ref_need(ref, "hist", nhist, (uint64_t)bins, err))
        return err->code;
    uint64_t count[256] = {0};
    for (int64_t i = 0; i < n; i++)
        count[data[i]]++;
    for (int byte = 0; byte < 256; byte++)
        hist[(uint64_t)byte * (uint64_t)bins / 256] += (uint32_t)count[byte];
    return WS_OK;
}
