/* test_table4.c — seed 000's Table 4 on the simulator: execution rate of the region
 * `branch` (functionA + functionB) of kernels/branch_unification, before = 50.0% and
 * after = 50.0 / 51.8 / 66.6 / 79.5% for DPT 1 / 4 / 16 / 64 (64 blocks x 128 threads,
 * uniform random input), each within 1.5 percentage points, on the PTX model and on the
 * SASS model (whose instructions of the inlined functionA/functionB must map to those
 * functions' own lines, not to their call sites). The spec is loaded with -D overrides and
 * its PTX built by ws_ptx_build, its SASS by ws_sass_build_ptx, as the command line does. */
#include <math.h>
#include "tests/sim/sim_test.h"

static double branch_rate(const char *variant, const char *dpt, const char *loop, int sass)
{
    ws_define defs[2] = {{"DPT", dpt}, {"LOOP", loop}};
    ws_spec *s = NULL;
    ws_module *m = NULL;
    ws_sass_module *sm = NULL;
    ws_buffers bufs = {0, NULL};
    ws_result res;
    ws_result_init(&res);
    ws_error err;
    ws_error_clear(&err);
    char ptx[1024];
    double rate = -1;
    int rc = ws_spec_load(WS_KERNELS_DIR "/branch_unification.spec", defs, 2, &s, &err);
    if (!rc)
        rc = ws_ptx_build(s, NULL, ptx, sizeof ptx, &err);
    if (!rc)
        rc = ws_ptx_load(ptx, &m, &err);
    if (!rc && sass) {
        char cubin[1024], sass_path[1024];
        rc = ws_sass_build_ptx(ptx, NULL, NULL, cubin, sass_path, sizeof cubin, &err);
        if (!rc)
            rc = ws_sass_load(sass_path, cubin, &sm, &err);
    }
    if (!rc)
        rc = ws_buffers_generate(s, &bufs, &err);
    const ws_variant *v = rc ? NULL : ws_spec_variant(s, variant, &err);
    if (!rc && !v)
        rc = WS_ERR_NOTFOUND;
    ws_sim_options o;
    ws_sim_options_default(&o);
    o.threads = 2;
    o.detect_races = 0;
    if (!rc)
        rc = sm ? ws_sim_run_sass(m, sm, s, v, &bufs, &o, &res, &err)
                : ws_sim_run(m, s, v, &bufs, &o, &res, &err);
    if (!rc)
        rc = ws_result_compute_regions(&res, s);
    if (!rc)
        for (int i = 0; i < res.nregions; i++)
            if (strcmp(res.regions[i].name, "branch") == 0)
                rate = 100.0 * res.regions[i].execution_rate;
    if (rc) {
        char buf[800];
        ws_error_format(&err, buf, sizeof buf);
        fprintf(stderr, "%s DPT=%s: %s\n", variant, dpt, buf);
    }
    ws_result_free(&res);
    if (s) {
        ws_buffers_free(&bufs);
        ws_spec_free(s);
    }
    ws_module_free(m);
    ws_sass_module_free(sm);
    return rate;
}

int main(void)
{
    static const struct { const char *variant, *dpt; double paper; } rows[] = {
        {"before", "1", 50.0}, {"after", "1", 50.0}, {"after", "4", 51.8},
        {"after", "16", 66.6}, {"after", "64", 79.5},
    };
    char probe[1024];
    int models = ws_nvdisasm_find(probe, sizeof probe) ? 2 : 1;
    if (models == 1)
        printf("test_table4: SASS model part skipped: no nvdisasm (%s)\n", probe);
    for (int sass = 0; sass < models; sass++)
        for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
            double r = branch_rate(rows[i].variant, rows[i].dpt, "100", sass);
            printf("  %s model %-6s DPT=%-2s branch execution rate %6.2f%%  (seed 000 Table 4: "
                   "%.1f%%)\n", sass ? "SASS" : "PTX ", rows[i].variant, rows[i].dpt, r,
                   rows[i].paper);
            CHECK(fabs(r - rows[i].paper) <= 1.5, "%s model, %s DPT=%s: %.2f%% vs %.1f%%",
                  sass ? "SASS" : "PTX", rows[i].variant, rows[i].dpt, r, rows[i].paper);
        }
    return ws_test_finish("test_table4");
}
