/* test_histogram_contention.c — issue 5's must-show, on the simulator: for the seed 001
 * histogram at 1 bin the model predicts atomicAddW (warp_smem, warp_shfl) beating plain
 * atomicAdd because 32 lanes serialize on one address; at 10^4 bins it predicts no gain
 * because every warp-instruction already spreads over ~32 distinct addresses. */
#include <stdio.h>
#include <unistd.h>
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
    ws_result *all[] = { &plain1, &smem1, &shfl1, &plain4, &smem4, &shfl4 };
    for (int i = 0; i < 6; i++) ws_result_free(all[i]);
    return ws_test_finish("timing/histogram_contention");
}
