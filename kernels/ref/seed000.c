/* seed000.c — CPU references of seed 000's workloads: branch_unification.cu and
 * dynamic_assignment.cu. Both variants (before/after) of each compute the same outputs,
 * so one reference serves both; it does not model divergence, only results. */
#include "kernels/ref/ref_util.h"

/* out[i] = functionA(i) when bit 2 of data[i] is set, else functionB(i). */
int ws_ref_branch_unification(const ws_spec *s, const ws_variant *v, ws_buffers *expect,
                              ws_error *err)
{
    const char *ref = "branch_unification";
    int64_t loop;
    int32_t *data, *out;
    uint64_t ndata, nout;
    (void)v;
    if (ws_ref_const_int(s, ref, "LOOP", &loop, err) ||
        ws_ref_buffer(expect, ref, "data", WS_T_I32, (void **)&data, &ndata, err) ||
        ws_ref_buffer(expect, ref, "out", WS_T_I32, (void **)&out, &nout, err) ||
        ws_ref_need(ref, "out", nout, ndata, err))
        return err->code;
    for (uint64_t i = 0; i < ndata; i++)
        out[i] = (data[i] & 0x4) ? ws_ref_path_a((int32_t)i, loop)
                                 : ws_ref_path_b((int32_t)i, loop);
    return WS_OK;
}

/* out[i] = function() applied ceil(in[i] / TRIP_SCALE) times to in[i]. */
int ws_ref_dynamic_assignment(const ws_spec *s, const ws_variant *v, ws_buffers *expect,
                              ws_error *err)
{
    const char *ref = "dynamic_assignment";
    int64_t loop_num, trip_scale = 1;
    int32_t *in, *out;
    uint64_t nin, nout;
    (void)v;
    if (ws_ref_const_int(s, ref, "LOOP_NUM", &loop_num, err) ||
        ws_ref_buffer(expect, ref, "input", WS_T_I32, (void **)&in, &nin, err) ||
        ws_ref_buffer(expect, ref, "out", WS_T_I32, (void **)&out, &nout, err) ||
        ws_ref_need(ref, "out", nout, nin, err))
        return err->code;
    ws_error scratch;
    if (ws_ref_const_int(s, ref, "TRIP_SCALE", &trip_scale, &scratch) == WS_OK && trip_scale < 1)
        return ws_error_set(err, WS_ERR_SPEC, "reference %s: TRIP_SCALE must be >= 1, not %lld",
                            ref, (long long)trip_scale);
    for (uint64_t i = 0; i < nin; i++) {
        if (in[i] < 1)
            return ws_error_set(err, WS_ERR_SPEC,
                                "reference %s: input[%llu] = %d, trip counts must be >= 1 "
                                "(the kernel would loop about 2^32 times)",
                                ref, (unsigned long long)i, in[i]);
        int64_t trips = (in[i] + trip_scale - 1) / trip_scale;
        int32_t num = in[i];
        for (int64_t t = 0; t < trips; t++)
            num = ws_ref_path_a(num, loop_num);
        out[i] = num;
    }
    return WS_OK;
}
