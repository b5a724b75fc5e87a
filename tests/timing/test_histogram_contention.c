/* test_histogram_contention.c — issue 5's must-show, on the simulator: for the seed 001
 * histogram at 1 bin the model predicts atomicAddW (warp_smem, warp_shfl) beating plain
 * atomicAdd because 32 lanes serialize on one address; at 10^4 bins it predicts no gain
 * because every warp-instruction already spreads over ~32 distinct addresses. Also the
 * two effects a functional run alone misses: CAS retries under contention (a successful
 * CAS per contended round trip, one after another per word; their failed attempts, through
 * the L2 atomic unit of the words' range or, over many units, the GPU's atomic throughput)
 * and __reduce_add_sync over
 * per-lane groups (the hardware runs it once per distinct member mask). */
#include <stdio.h>
#include <unistd.h>
#include "sim/timing_internal.h"
#include "tests/check.h"
#include "tests/timing/timing_run.h"

static double run(const char *spec, const char *bins, const char *variant, ws_result *res)
{
    char b[64];
    snprintf(b, sizeof b, "BINS=%s", bins);
    const char *defs[] = { "N=100000", "TOTAL_THREADS=8192", b, NULL };
    ws_error err;
    ws_error_clear(&err);
    int rc = ws_tr_run(spec, defs, variant, res, &err);
    CHECK(rc == 0, "%s at %s bins: %s", variant, bins, err.msg);
    return rc ? NAN : ws_tr_metric(res, "sim__time_ns");
}

int main(void)
{
    const char *spec = WS_KERNELS_DIR "/histogram.spec";
    if (access(spec, R_OK) != 0) {
        printf("skipped: %s does not exist yet\n", spec);
        return ws_test_finish("timing/histogram_contention");
    }
    ws_result plain1, smem1, shfl1, plain4, smem4, shfl4;
    double tp1 = run(spec, "1", "atomic", &plain1), ts1 = run(spec, "1", "warp_smem", &smem1);
    double th1 = run(spec, "1", "warp_shfl", &shfl1);
    double tp4 = run(spec, "10000", "atomic", &plain4), ts4 = run(spec, "10000", "warp_smem", &smem4);
    double th4 = run(spec, "10000", "warp_shfl", &shfl4);
    printf("1 bin: atomic %.0f ns, warp_smem %.0f ns, warp_shfl %.0f ns\n", tp1, ts1, th1);
    printf("10^4 bins: atomic %.0f ns, warp_smem %.0f ns, warp_shfl %.0f ns\n", tp4, ts4, th4);
    CHECK(ts1 < tp1 && th1 < tp1, "1 bin: atomicAddW should beat atomicAdd (%g, %g vs %g)", ts1, th1, tp1);
    CHECK(ts4 >= 0.95 * tp4 && th4 >= 0.95 * tp4, "10^4 bins: no gain expected (%g, %g vs %g)",
          ts4, th4, tp4);
    /* The why: at 1 bin plain atomics put 32 lanes on one address per warp-instruction
     * and the hottest address sees every item; aggregated ones put one lane there. */
    CHECK(ws_tr_metric(&plain1, "sim__atomic_max_lanes_same_address") == 32,
          "1 bin plain: %g lanes on one address", ws_tr_metric(&plain1, "sim__atomic_max_lanes_same_address"));
    CHECK(ws_tr_metric(&smem1, "sim__atomic_max_lanes_same_address") == 1,
          "1 bin atomicAddW: %g lanes", ws_tr_metric(&smem1, "sim__atomic_max_lanes_same_address"));
    CHECK(ws_tr_metric(&plain1, "sim__atomic_max_same_address") == 100000,
          "1 bin plain: hottest address %g lane-ops, want N", ws_tr_metric(&plain1, "sim__atomic_max_same_address"));
    CHECK(ws_tr_metric(&plain1, "sim__bound_atomic_address_cycles") >=
              ws_tr_metric(&plain1, "sim__bound_latency_cycles"),
          "1 bin plain is bound by serialization on one address");
    CHECK(ws_tr_metric(&plain4, "sim__atomic_distinct_per_request") > 25,
          "10^4 bins: %g distinct addresses per warp-instruction",
          ws_tr_metric(&plain4, "sim__atomic_distinct_per_request"));

    /* CAS loop: at 1 bin every resident thread contends for one word -> the CAS bound
     * sets the time, far above plain atomics; at 10^4 bins ~1 contender per word. */
    ws_result cas1, cas4, match1, match4;
    double tc1 = run(spec, "1", "double_cas", &cas1), tc4 = run(spec, "10000", "double_cas", &cas4);
    printf("double_cas: 1 bin %.0f ns, 10^4 bins %.0f ns\n", tc1, tc4);
    CHECK(tc1 > 100 * tp1, "1 bin CAS loop %g ns vs plain %g ns: contention", tc1, tp1);
    CHECK(ws_tr_metric(&cas1, "sim__bound_atomic_cas_cycles") == ws_tr_metric(&cas1, "sim__cycles"),
          "1 bin CAS loop is bound by CAS retries");
    CHECK(tc4 < tc1 / 100, "10^4 bins: CAS contention mostly gone (%g vs %g)", tc4, tc1);
    /* Many contended words at once (10^3 bins, 131072 threads all resident: ~131 per word):
     * the failed attempts, half the contenders per success, pass the words' L2 atomic unit
     * one after another, above any one word's chain of round trips. */
    {
        const char *defs[] = { "N=100000", "TOTAL_THREADS=131072", "BINS=1000", NULL };
        ws_result many;
        ws_error err;
        ws_error_clear(&err);
        ws_gpu_preset p;
        int rc = ws_tr_run(spec, defs, "double_cas", &many, &err);
        CHECK(rc == 0, "double_cas at 10^3 bins: %s", err.msg);
        CHECK(ws_gpu_preset_load(WS_TR_PRESET, &p, &err) == 0, "mech.gpu: %s", err.msg);
        double n = 100000, r = 131072, spread = (n / 2 + r * n / (2 * 1000)) / p.atom_l2_ops_per_cycle;
        double got = rc ? NAN : ws_tr_metric(&many, "sim__bound_atomic_cas_cycles");
        double word = (n / 1000) * p.atom_cas_contended_cycles * (1 + log10(r / 1000) / 4);
        /* The 1000 int bins (4000 bytes) lie in one L2 atomic unit, or two where the array
         * straddles a unit boundary: the busier unit passes between half and all of the
         * attempts (half of the 131 contenders retrying per success). */
        double want = n * (1 + (r / 1000 - 1) / 2) * p.atom_cas_attempt_cycles;
        printf("double_cas, 10^3 bins x 131 contenders: CAS bound %.0f cycles (all attempts in one "
               "unit %.0f, over the GPU's throughput %.0f, one word's chain %.0f)\n", got, want,
               spread, word);
        CHECK(got >= 0.5 * want && got <= 1.02 * want && got > 1.1 * word && got > 1.1 * spread,
              "the attempts on the unit bound the CAS loop (%g vs %g, a word %g)", got, want, word);
        if (!rc) ws_result_free(&many);
        /* One word, 131072 contenders: their attempts pass its unit one by one. */
        const char *one[] = { "N=100000", "TOTAL_THREADS=131072", "BINS=1", NULL };
        rc = ws_tr_run(spec, one, "double_cas", &many, &err);
        CHECK(rc == 0, "double_cas at 1 bin: %s", err.msg);
        want = n * (1 + (r - 1) / 2) * p.atom_cas_attempt_cycles;
        got = rc ? NAN : ws_tr_metric(&many, "sim__bound_atomic_cas_cycles");
        printf("double_cas, 1 bin x 131072 contenders: CAS bound %.3g cycles (attempts %.3g)\n",
               got, want);
        CHECK(fabs(got - want) <= 0.02 * want, "one word's attempts bound it (%g vs %g)", got, want);
        if (!rc) ws_result_free(&many);
        /* Two waves of blocks: a retired block lets a waiting one in, so all resident
         * threads keep contending until the last wave, which alone thins out: 3/4 of them
         * retry on average, where one wave has half. */
        const char *two[] = { "N=540672", "TOTAL_THREADS=540672", "BINS=1", NULL };
        rc = ws_tr_run(spec, two, "double_cas", &many, &err);
        CHECK(rc == 0, "double_cas at 1 bin, two waves: %s", err.msg);
        double resident = rc ? NAN : ws_tr_metric(&many, "sim__ctas_per_sm") * p.sms * 128;
        n = 540672;
        want = n * (1 + (resident - 1) * 0.75) * p.atom_cas_attempt_cycles;
        got = rc ? NAN : ws_tr_metric(&many, "sim__bound_atomic_cas_cycles");
        printf("double_cas, 1 bin, %g threads (%.2f waves of %g resident): CAS bound %.3g cycles "
               "(attempts %.3g)\n", n, n / resident, resident, got, want);
        CHECK(resident * 2 == n, "two waves exactly (%g resident)", resident);
        CHECK(fabs(got - want) <= 0.02 * want, "two waves: attempts of 3/4 of the resident "
              "threads per success (%g vs %g)", got, want);
        if (!rc) ws_result_free(&many);
    }
    /* __match_any_sync + __reduce_add_sync: one group at 1 bin, ~31 at 10^4. */
    double tm1 = run(spec, "1", "match", &match1), tm4 = run(spec, "10000", "match", &match4);
    printf("match: 1 bin %.0f ns, 10^4 bins %.0f ns\n", tm1, tm4);
    CHECK(tm1 < ts1 && tm1 < th1, "1 bin: match beats the atomicAddW loops (%g)", tm1);
    CHECK(tm4 > 1.5 * tp4, "10^4 bins: match pays for its groups (%g vs plain %g)", tm4, tp4);
    ws_result *all[] = { &plain1, &smem1, &shfl1, &plain4, &smem4, &shfl4, &cas1, &cas4,
                         &match1, &match4 };
    for (int i = 0; i < 10; i++) ws_result_free(all[i]);
    return ws_test_finish("timing/histogram_contention");
}
