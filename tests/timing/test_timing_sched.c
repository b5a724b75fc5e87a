/* test_timing_sched.c — what the timing model assumes of the compiler's schedule, on real
 * PTX runs with the tests' preset (mech.gpu) and with edited copies of it:
 *   sched.window: independent shared loads overlap with a window of 2, not with 1; a loop that
 *     is not unrolled gets no overlap across its back edge either way;
 *   sched.ifconvert_max: a short branch body that no lane runs still issues (predicated);
 *   atom.l2_same_fp_cycles: float adds on one address serialize at their own rate;
 *   latency.branch, branch.reconverge_cycles, branch.yield_cycles: a taken branch costs its
 *     fetch, a branch body that is not predicated costs a wait at its reconvergence point
 *     each trip, and a spin loop (left on an atomic's result) costs its YIELD each trip;
 *   issue.*: each class holds its own pipe; a scheduler dispatches one instruction a cycle;
 *   bound.overlap: bounds about equal take longer than the larger, by the norm's rule, where
 *     a scheduler has other warps; a warp alone waits for nobody. */
#include <stdio.h>
#include <stdlib.h>
#include "sim/timing_internal.h"
#include "tests/check.h"
#include "tests/timing/timing_run.h"

#define SPEC WS_SOURCE_DIR "/tests/timing/timing_kernels.spec"

/* A copy of the tests' preset with `key` set to `value`, written under the build tree. */
static const char *preset_with(const char *key, const char *value, char *path, size_t n)
{
    const char *edits[] = { key, value, NULL };
    char name[128];
    snprintf(name, sizeof name, "h100-%s-%s", key, value);
    return ws_tr_preset_edit(edits, name, path, n);
}

static double cycles(const char *variant, const char *preset, const char *metric)
{
    const char *defs[] = { "LEN=64", NULL };
    ws_result r;
    ws_error err;
    ws_error_clear(&err);
    int rc = ws_tr_run_on(SPEC, defs, variant, preset, &r, &err);
    CHECK(rc == 0, "%s on %s: %s", variant, preset, err.msg);
    double v = rc ? NAN : ws_tr_metric(&r, metric);
    ws_result_free(&r);
    return v;
}

int main(void)
{
    char w1[1024], if0[1024];
    CHECK(preset_with("sched.window", "1", w1, sizeof w1) != NULL, "write %s", w1);
    CHECK(preset_with("sched.ifconvert_max", "0", if0, sizeof if0) != NULL, "write %s", if0);

    double s2 = cycles("smem_sum", WS_TR_PRESET, "sim__cycles"), s1 = cycles("smem_sum", w1, "sim__cycles");
    printf("32 shared loads, each added: window 2 %.0f cycles, window 1 %.0f\n", s2, s1);
    CHECK(s2 < 0.8 * s1, "a window of 2 overlaps independent loads (%g vs %g)", s2, s1);

    double l2 = cycles("loads", WS_TR_PRESET, "sim__cycles"), l1 = cycles("loads", w1, "sim__cycles");
    printf("load loop, not unrolled: window 2 %.0f cycles, window 1 %.0f\n", l2, l1);
    CHECK(l2 > 0.95 * l1 && l2 <= l1, "no overlap across a back edge (%g vs %g)", l2, l1);

    double k4 = cycles("skip", WS_TR_PRESET, "smsp__inst_executed.sum"),
           k0 = cycles("skip", if0, "smsp__inst_executed.sum");
    double c4 = cycles("skip", WS_TR_PRESET, "sim__cycles"), c0 = cycles("skip", if0, "sim__cycles");
    printf("skipped body: %.0f vs %.0f warp-insts executed; %.0f cycles predicated, %.0f branched\n",
           k4, k0, c4, c0);
    CHECK(k4 == k0, "the executed count is the executor's, not the schedule's (%g vs %g)", k4, k0);
    CHECK(c4 > 1.1 * c0, "a predicated body costs issue and latency (%g vs %g)", c4, c0);

    /* Control flow, each term against a copy of the preset with it zeroed. */
    ws_gpu_preset p;
    ws_error err;
    ws_error_clear(&err);
    CHECK(ws_gpu_preset_load(WS_TR_PRESET, &p, &err) == 0, "mech.gpu: %s", err.msg);
    char b0[1024], r0[1024], y0[1024];
    CHECK(preset_with("latency.branch", "0", b0, sizeof b0) != NULL, "write %s", b0);
    CHECK(preset_with("branch.reconverge_cycles", "0", r0, sizeof r0) != NULL, "write %s", r0);
    CHECK(preset_with("branch.yield_cycles", "0", y0, sizeof y0) != NULL, "write %s", y0);
    double lb = cycles("loads", b0, "sim__cycles");
    printf("load loop: %.0f cycles, %.0f with free taken branches\n", l2, lb);
    CHECK(l2 > lb + 64 * 2, "each taken back edge costs its fetch (%g vs %g)", l2, lb);
    double dv = cycles("diverge", WS_TR_PRESET, "sim__cycles"), dr = cycles("diverge", r0, "sim__cycles");
    double sr = cycles("skip", r0, "sim__cycles");
    printf("branch body not predicated: %.0f cycles, %.0f without the reconvergence wait; "
           "predicated: %.0f and %.0f\n", dv, dr, c4, sr);
    CHECK(dv > dr + 64 * 5, "a wait at the reconvergence point every trip (%g vs %g)", dv, dr);
    CHECK(c4 - sr < 64, "a predicated body has none, only the loops' exits (%g vs %g)", c4, sr);
    double sp = cycles("spin", WS_TR_PRESET, "sim__cycles"), sy = cycles("spin", y0, "sim__cycles");
    double ly = cycles("loads", y0, "sim__cycles");
    double st = cycles("spin", WS_TR_PRESET, "sim__stall_branch_cycles");
    printf("spin loop: %.0f cycles, %.0f without the YIELD (branch stall %.0f); "
           "counted loop %.0f and %.0f\n", sp, sy, st, l2, ly);
    /* 32 lanes take 64 items: two trips that get one each, and one that finds none. */
    double want_y = 3 * p.branch_yield_cycles;
    CHECK(fabs(sp - sy - want_y) <= 0.1 * want_y, "a spin loop pays its YIELD every trip "
          "(%g vs %g: want %g more)", sp, sy, want_y);
    CHECK(ly == l2, "a counted loop has no YIELD (%g vs %g)", ly, l2);
    CHECK(st > sp - sy - 1e-9, "the branch stall counts the YIELDs (%g)", st);

    double fi = cycles("same_int", WS_TR_PRESET, "sim__bound_atomic_address_cycles"),
           ff = cycles("same_float", WS_TR_PRESET, "sim__bound_atomic_address_cycles");
    /* 16 requests of 32 lanes on one address, per the preset's unit service terms: one
     * sector, 32 passes over it, each lane waiting for the last at the type's rate (plus the
     * GPU-wide share, a millionth of it with mech.gpu's atom.l2_units). */
    double want_i = 16 * (p.atom_l2_part_cycles + 32 * p.atom_l2_same_cycles),
           want_f = 16 * (p.atom_l2_part_cycles +
                          fmax(32 * p.atom_l2_same_cycles, p.atom_l2_same_cycles + 31 * p.atom_l2_same_fp_cycles));
    want_i *= 1 + 1 / p.atom_l2_units;
    want_f *= 1 + 1 / p.atom_l2_units;
    /* ... or the word's own chain across the requests, where that is longer: each lane
     * waits for the last result, the first of a request for the last of the one before. */
    want_i = fmax(want_i, 16 * 32 * p.atom_l2_same_cycles);
    want_f = fmax(want_f, 16 * 32 * p.atom_l2_same_fp_cycles);
    printf("one address, 16 x 32 lanes: int %.1f cycles (want %.1f), float %.1f (want %.1f)\n",
           fi, want_i, ff, want_f);
    CHECK(fabs(fi - want_i) < 1e-6 && fabs(ff - want_f) < 1e-6, "same-address service by type");

    /* Pipes: a scheduler dispatches one instruction a cycle to whichever pipe is free, so
     * POPC at 8 cycles a warp-instruction bounds a popc+xor chain by the POPC pipe alone;
     * the xors go to the ALU meanwhile. One warp on each of the 4 schedulers, 8 chains x
     * 8 x 4 steps: 256 POPCs each. */
    char b8[1024];
    CHECK(preset_with("issue.bit", "8", b8, sizeof b8) != NULL, "write %s", b8);
    {
        const char *defs[] = { "CTAS=1", "THREADS=128", "CHAINS=8", "ITERS=8", "REPS=4", NULL };
        ws_result r;
        ws_error err;
        ws_error_clear(&err);
        int rc = ws_tr_run_on(WS_SOURCE_DIR "/bench/calib/calib.spec", defs, "op_popc", b8, &r, &err);
        CHECK(rc == 0, "op_popc: %s", err.msg);
        double issue = rc ? NAN : ws_tr_metric(&r, "sim__bound_issue_cycles");
        ws_result_free(&r);
        printf("popc+xor chains: issue bound %.0f cycles (POPC pipe 2048, +256 if additive)\n", issue);
        CHECK(issue >= 2048 && issue < 2048 + 128, "the POPC pipe bounds it, the xors ride along (%g)",
              issue);
    }
    /* Bounds that overlap in part: dependent mad.lo chains, 4 warps on each scheduler (one
     * CTA of 512), then one warp on each (128), with bound.overlap 2 and 0. */
    char k2[1024];
    CHECK(preset_with("bound.overlap", "2", k2, sizeof k2) != NULL, "write %s", k2);
    for (int threads = 512; threads >= 128; threads -= 384) {
        char th[32];
        snprintf(th, sizeof th, "THREADS=%d", threads);
        const char *defs[] = { "CTAS=1", th, "CHAINS=1", "ITERS=16", "REPS=8", NULL };
        double cyc[2], over[2], lat = 0, issue = 0, lsu = 0;
        const char *presets[2] = { k2, WS_TR_PRESET };
        for (int i = 0; i < 2; i++) {
            ws_result r;
            ws_error err;
            ws_error_clear(&err);
            int rc = ws_tr_run_on(WS_SOURCE_DIR "/bench/calib/calib.spec", defs, "op_mul", presets[i],
                                  &r, &err);
            CHECK(rc == 0, "op_mul: %s", err.msg);
            if (rc) return ws_test_finish("timing/sched");
            cyc[i] = ws_tr_metric(&r, "sim__cycles");
            over[i] = ws_tr_metric(&r, "sim__bound_overlap_cycles");
            lat = ws_tr_metric(&r, "sim__bound_latency_cycles");
            issue = ws_tr_metric(&r, "sim__bound_issue_cycles");
            lsu = ws_tr_metric(&r, "sim__bound_lsu_cycles");
            ws_result_free(&r);
        }
        printf("mad chains, %d warps a scheduler: latency %.0f, issue %.0f cycles; %.0f with "
               "bound.overlap 2 (%.0f beyond complete overlap), %.0f with 0\n",
               threads / 128, lat, issue, cyc[0], over[0], cyc[1]);
        CHECK(over[1] == 0, "bound.overlap 0: nothing beyond the largest bound (%g)", over[1]);
        CHECK(fabs(cyc[0] - over[0] - cyc[1]) < 1e-6 * cyc[0],
              "sim__bound_overlap_cycles is what the norm adds (%g - %g vs %g)", cyc[0], over[0],
              cyc[1]);
        if (threads == 512) { /* the chain with the 3 other warps' issue and LSU, at k = 2 */
            double want = fmax(issue + p.cta_launch_cycles,
                               sqrt(lat * lat + 0.75 * issue * 0.75 * issue + 0.75 * lsu * 0.75 * lsu));
            CHECK(lat > 0.5 * issue && lat < 2 * issue, "a knee: latency %g, issue %g", lat, issue);
            CHECK(fabs(cyc[0] - want) < 0.01 * want && over[0] > 0.1 * cyc[1],
                  "%g cycles, want about %g", cyc[0], want);
        } else {
            CHECK(over[0] < 1e-3 * cyc[0], "one warp a scheduler adds nothing (%g of %g)", over[0],
                  cyc[0]);
        }
    }
    return ws_test_finish("timing/sched");
}
