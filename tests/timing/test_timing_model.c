/* test_timing_model.c — the timing model's behaviour on real PTX runs: a dependent chain
 * takes longer than the same work as independent chains; 132 CTAs on 132 SMs take about
 * as long as one; many waves take longer; metrics are present and consistent; a constant
 * load's distinct words are served one after another (the SASS model's shared-memory queue:
 * tests/cli/test_cli_mem_paths.sh); the L1 keeps aliasing lines and fills by the sector. */
#include <stdio.h>
#include "tests/check.h"
#include "tests/timing/timing_run.h"

static double run(const char *variant, const char *ctas, const char *threads, ws_result *res)
{
    char c[64], t[64];
    snprintf(c, sizeof c, "CTAS=%s", ctas);
    snprintf(t, sizeof t, "THREADS=%s", threads);
    const char *defs[] = { c, t, NULL };
    ws_error err;
    ws_error_clear(&err);
    int rc = ws_tr_run(WS_SOURCE_DIR "/tests/timing/timing_kernels.spec", defs, variant, res, &err);
    CHECK(rc == 0, "%s x %s: %s", variant, ctas, err.msg);
    return rc ? NAN : ws_tr_metric(res, "sim__cycles");
}

int main(void)
{
    ws_result a, b, c, d, e;
    double chain1 = run("chain", "1", "32", &a), indep1 = run("indep", "1", "32", &b);
    printf("1 warp: chain %.0f cycles, independent %.0f cycles\n", chain1, indep1);
    CHECK(chain1 > 1.3 * indep1, "a dependent chain is slower (%g vs %g)", chain1, indep1);
    CHECK(ws_tr_metric(&a, "sim__stall_dependency_cycles") > ws_tr_metric(&b, "sim__stall_dependency_cycles"),
          "the chain stalls on dependencies more");
    double chain132 = run("chain", "132", "32", &c);
    printf("chain: 1 CTA %.0f, 132 CTAs %.0f cycles\n", chain1, chain132);
    CHECK(chain132 < 1.2 * chain1 && chain132 >= chain1, "132 CTAs fill 132 SMs at once (%g vs %g)",
          chain132, chain1);
    CHECK(ws_tr_metric(&c, "sim__sms_used") == 132 && ws_tr_metric(&a, "sim__sms_used") == 1,
          "SMs used: %g and %g", ws_tr_metric(&c, "sim__sms_used"), ws_tr_metric(&a, "sim__sms_used"));
    /* 256-thread CTAs: 8 per SM on H100 (64 warps); 132*8*4 CTAs = 4 waves. */
    double one_wave = run("indep", "1056", "256", &d), four = run("indep", "4224", "256", &e);
    printf("indep 256-thread CTAs: 1 wave %.0f, 4 waves %.0f cycles\n", one_wave, four);
    CHECK(four > 2.5 * one_wave, "four waves take longer (%g vs %g)", four, one_wave);
    CHECK(fabs(ws_tr_metric(&e, "sim__waves") - 4.0) < 1e-9, "waves %g", ws_tr_metric(&e, "sim__waves"));
    CHECK(ws_tr_metric(&e, "sim__theoretical_occupancy") == 1.0, "theoretical occupancy %g",
          ws_tr_metric(&e, "sim__theoretical_occupancy"));
    double tn = ws_tr_metric(&a, "sim__time_ns"), cy = ws_tr_metric(&a, "sim__cycles");
    CHECK(tn > cy / 1.98, "time_ns %g covers cycles %g at 1980 MHz", tn, cy);
    ws_result h, k;
    /* 32 distinct words a constant load: 31 passes more, mem.const_address_cycles (11) each */
    double same = run("const_same", "1", "32", &h), lanes = run("const_lanes", "1", "32", &k);
    printf("constant: one word %.0f, 32 words %.0f cycles\n", same, lanes);
    CHECK(fabs((lanes - same) - 256 * 31 * 11.0) < 0.1 * 256 * 31 * 11.0,
          "each further word of a constant load costs mem.const_address_cycles (%g vs %g)",
          lanes, same);
    /* The L1 a CTA keeps: sets of ways, filled by the sector. Two lines 64 KB apart both
     * stay: the first trip's 8 sectors and the store's 4 reach the L2 (a direct-mapped tag a
     * line made every trip miss: 65,664 bytes). A line walked word by word reaches the L2
     * once a sector, 4 of them, and the store's 4 (a tag a line: 1 and 4). */
    ws_result al, se;
    run("l1_alias", "1", "32", &al);
    run("l1_sectors", "1", "32", &se);
    double alias = ws_tr_metric(&al, "sim__l2_bytes"), sect = ws_tr_metric(&se, "sim__l2_bytes");
    printf("L1: two lines 64 KB apart %.0f L2 bytes, a line word by word %.0f\n", alias, sect);
    CHECK(alias == 12 * 32, "both lines stay in the L1 (%g L2 bytes, want 384)", alias);
    CHECK(sect == 8 * 32, "the L1 fills a line sector by sector (%g L2 bytes, want 256)", sect);
    ws_result *all[] = { &a, &b, &c, &d, &e, &h, &k, &al, &se };
    for (int i = 0; i < 9; i++) ws_result_free(all[i]);
    return ws_test_finish("timing/model");
}
