/* seed001.c — CPU references of seed 001's workloads: histogram.cu (counts per bin, into
 * the bin array of BIN_T) and himeno.cu (one Jacobi sweep and gosa, serial and OpenMP: the
 * seed's CPU patterns (5) and (6)). Outputs are added to what the buffers hold, as the
 * kernels' atomics do. */
#include "kernels/ref/ref_util.h"

#include <string.h>

int ws_ref_histogram(const ws_spec *s, const ws_variant *v, ws_buffers *expect, ws_error *err)
{
    const char *ref = "histogram";
    int64_t n, bins;
    double *data, *hist_d;
    int32_t *hist_i;
    uint64_t ndata, nhi, nhd;
    const char *bin_t = ws_ref_const_word(s, "BIN_T");
    (void)v;
    if (ws_ref_const_int(s, ref, "N", &n, err) || ws_ref_const_int(s, ref, "BINS", &bins, err) ||
        ws_ref_buffer(expect, ref, "data", WS_T_F64, (void **)&data, &ndata, err) ||
        ws_ref_buffer(expect, ref, "hist_i", WS_T_I32, (void **)&hist_i, &nhi, err) ||
        ws_ref_buffer(expect, ref, "hist_d", WS_T_F64, (void **)&hist_d, &nhd, err) ||
        ws_ref_need(ref, "data", ndata, (uint64_t)n, err))
        return err->code;
    int is_double = strcmp(bin_t, "double") == 0;
    if (!is_double && strcmp(bin_t, "int") != 0)
        return ws_error_set(err, WS_ERR_SPEC, "reference %s: BIN_T must be int or double, not '%s'",
                            ref, bin_t);
    if (bins < 1)
        return ws_error_set(err, WS_ERR_SPEC, "reference %s: BINS must be >= 1", ref);
    if (ws_ref_need(ref, is_double ? "hist_d" : "hist_i", is_double ? nhd : nhi,
                    (uint64_t)bins, err))
        return err->code;
    for (int64_t i = 0; i < n; i++) {
        int64_t b = ws_ref_bin_of(data[i], bins);
        if (is_double)
            hist_d[b] += 1.0;
        else
            hist_i[b] = (int32_t)((uint32_t)hist_i[b] + 1u);
    }
    return WS_OK;
}

static int ws_ref_himeno_run(const char *ref, const ws_spec *s, ws_buffers *expect, int parallel,
                             ws_error *err)
{
    static const char *names[] = {"p", "a0", "a1", "a2", "a3", "b0", "b1", "b2",
                                  "c0", "c1", "c2", "wrk1", "bnd", "wrk2"};
    float *arr[14], *gosa;
    uint64_t count, ngosa;
    int64_t imax, jmax, kmax;
    if (ws_ref_const_int(s, ref, "IMAX", &imax, err) ||
        ws_ref_const_int(s, ref, "JMAX", &jmax, err) ||
        ws_ref_const_int(s, ref, "KMAX", &kmax, err))
        return err->code;
    if (imax < 3 || jmax < 3 || kmax < 3)
        return ws_error_set(err, WS_ERR_SPEC, "reference %s: IMAX, JMAX, KMAX must be >= 3", ref);
    for (int i = 0; i < 14; i++)
        if (ws_ref_buffer(expect, ref, names[i], WS_T_F32, (void **)&arr[i], &count, err) ||
            ws_ref_need(ref, names[i], count, (uint64_t)(imax * jmax * kmax), err))
            return err->code;
    if (ws_ref_buffer(expect, ref, "gosa", WS_T_F32, (void **)&gosa, &ngosa, err) ||
        ws_ref_need(ref, "gosa", ngosa, 1, err))
        return err->code;
    ws_ref_himeno_grid h = {
        .imax = (int)imax, .jmax = (int)jmax, .kmax = (int)kmax, .p = arr[0],
        .a = {arr[1], arr[2], arr[3], arr[4]}, .b = {arr[5], arr[6], arr[7]},
        .c = {arr[8], arr[9], arr[10]}, .wrk1 = arr[11], .bnd = arr[12], .wrk2 = arr[13]};
    gosa[0] += ws_ref_himeno_sweep(&h, parallel);
    return WS_OK;
}

int ws_ref_himeno(const ws_spec *s, const ws_variant *v, ws_buffers *expect, ws_error *err)
{
    (void)v;
    return ws_ref_himeno_run("himeno", s, expect, 0, err);
}

int ws_ref_himeno_omp(const ws_spec *s, const ws_variant *v, ws_buffers *expect, ws_error *err)
{
    (void)v;
    return ws_ref_himeno_run("himeno_omp", s, expect, 1, err);
}
