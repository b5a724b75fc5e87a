/* test_timing_calls.c — the timing model on kernels that make real calls, at a launch of
 * many waves: branch unification with `extern "C"` kernels, __noinline__ paths and a file
 * input (calls_kernels.spec). A call's and a return's events belong to the function of the
 * instruction, not to the frame the warp is in after it; the ASan stage runs this too. */
#include <stdio.h>
#include <stdlib.h>
#include "tests/check.h"
#include "tests/timing/timing_run.h"

#define SPEC WS_SOURCE_DIR "/tests/timing/calls_kernels.spec"

/* calls_input.bin is what its spec says it is: the LCG's upper 16 bits, 4096 of them. */
static void check_input(void)
{
    FILE *f = fopen(WS_SOURCE_DIR "/tests/timing/calls_input.bin", "rb");
    CHECK(f != NULL, "calls_input.bin opens");
    if (!f) return;
    unsigned char b[4 * 4096];
    size_t n = fread(b, 1, sizeof b, f);
    int extra = fgetc(f) != EOF;
    fclose(f);
    CHECK(n == sizeof b && !extra, "calls_input.bin holds 4096 i32 (%zu bytes)", n);
    uint32_t x = 12345;
    int bad = -1;
    for (size_t i = 0; i < n / 4 && bad < 0; i++) {
        x = x * 1664525u + 1013904223u;
        uint32_t v = b[4 * i] | (uint32_t)b[4 * i + 1] << 8 | (uint32_t)b[4 * i + 2] << 16 |
                     (uint32_t)b[4 * i + 3] << 24;
        if (v != x >> 16) bad = (int)i;
    }
    CHECK(bad < 0, "calls_input.bin element %d is the LCG's", bad);
}

static double run(const char *variant, const char *blocks, const char *dpt, ws_result *res)
{
    char b[64], d[64];
    snprintf(b, sizeof b, "BLOCKS=%s", blocks);
    snprintf(d, sizeof d, "DPT=%s", dpt);
    const char *defs[] = { b, d, NULL };
    ws_error err;
    ws_error_clear(&err);
    int rc = ws_tr_run(SPEC, defs, variant, res, &err);
    CHECK(rc == 0, "%s at BLOCKS=%s DPT=%s: %s", variant, blocks, dpt, err.msg);
    return rc ? NAN : ws_tr_metric(res, "sim__time_ns");
}

int main(void)
{
    check_input();
    /* before: 1056 CTAs of 4 warps, about 4 waves on the H100; after: 132 CTAs. */
    ws_result r[2];
    const char *variants[] = { "before", "after" };
    for (int i = 0; i < 2; i++) {
        double ns = run(variants[i], "132", "8", &r[i]);
        printf("%s: %.0f ns, %g CTAs, %g waves\n", variants[i], ns,
               ws_tr_metric(&r[i], "sim__ctas"), ws_tr_metric(&r[i], "sim__waves"));
        CHECK(ns > 0 && isfinite(ns), "%s: predicted time %g ns", variants[i], ns);
        CHECK(ws_tr_metric(&r[i], "sim__cycles") >= ws_tr_metric(&r[i], "sim__bound_latency_cycles"),
              "%s: cycles cover the latency bound", variants[i]);
    }
    CHECK(ws_tr_metric(&r[0], "sim__ctas") == 1056, "before: %g CTAs",
          ws_tr_metric(&r[0], "sim__ctas"));
    for (int i = 0; i < 2; i++) ws_result_free(&r[i]);
    return ws_test_finish("timing/calls");
}
