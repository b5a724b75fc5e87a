/* test_core_derive.c — ws_result_compute_regions and ws_result_derive_metrics on a
 * hand-built result (pure functions of the counts; the expected sums are worked out by
 * hand below). */
#include "core/core.h"
#include "tests/check.h"

#include <math.h>
#include <string.h>

static ws_inst_stat *inst(ws_result *r, int file, int line, uint64_t issued, uint64_t active,
                          uint64_t pred_on, uint64_t targets, uint64_t divergent)
{
    ws_inst_stat *s = ws_result_add_inst(r);
    s->file = file;
    s->line = line;
    s->issued = issued;
    s->active_threads = active;
    s->pred_on_threads = pred_on;
    s->branch_targets = targets;
    s->divergent_branches = divergent;
    return s;
}

static double metric(const ws_result *r, const char *name)
{
    const ws_metric *m = ws_result_metric(r, name);
    CHECK(m != NULL, "metric %s missing", name);
    return m ? m->value : NAN;
}

int main(void)
{
    ws_result r;
    ws_result_init(&r);
    int cu = ws_result_add_file(&r, "/build/elsewhere/kern.cu", NULL);
    int other = ws_result_add_file(&r, "/usr/include/cuda_runtime.h", NULL);
    inst(&r, cu, 10, 100, 3200, 3200, 0, 0);   /* full warps */
    inst(&r, cu, 12, 100, 1600, 1000, 150, 50); /* half the lanes; a divergent branch */
    inst(&r, cu, 20, 10, 320, 320, 10, 0);
    inst(&r, other, 11, 1000, 1000, 1000, 0, 0); /* same line number, another file */
    inst(&r, -1, 11, 5, 5, 5, 0, 0);             /* unknown file */
    ws_atomic_stat *a = ws_result_add_atomic(&r);
    a->warp_execs = 7;
    a->lanes = 200;

    ws_region regions[3] = {
        {.name = "body", .first_line = 10, .last_line = 12},
        {.name = "tail", .first_line = 20, .last_line = 20},
        {.name = "none", .first_line = 30, .last_line = 40},
    };
    ws_spec s;
    memset(&s, 0, sizeof s);
    snprintf(s.source, sizeof s.source, "/work/kernels/kern.cu");
    s.nregions = 3;
    s.regions = regions;
    CHECK(ws_result_compute_regions(&r, &s) == WS_OK && r.nregions == 3, "regions");
    ws_region_stat *b = &r.regions[0];
    CHECK(strcmp(b->name, "body") == 0 && b->first_line == 10 && b->last_line == 12, "body");
    CHECK(b->issued == 200 && b->active_threads == 4800 && b->pred_on_threads == 4200 &&
          b->branch_targets == 150 && b->divergent_branches == 50, "body sums (other file out)");
    CHECK(fabs(b->execution_rate - 0.75) < 1e-12, "body rate %g", b->execution_rate);
    CHECK(r.regions[1].issued == 10 && fabs(r.regions[1].execution_rate - 1.0) < 1e-12, "tail");
    CHECK(r.regions[2].issued == 0 && r.regions[2].execution_rate == 0, "empty region");
    CHECK(ws_result_compute_regions(&r, &s) == WS_OK && r.nregions == 3, "replaces, not appends");

    ws_result_set_metric(&r, "sim__atomic_lanes", 12345); /* a producer's value wins */
    CHECK(ws_result_derive_metrics(&r) == WS_OK, "derive");
    /* Totals: issued 100+100+10+1000+5 = 1215; active 3200+1600+320+1000+5 = 6125. */
    CHECK(metric(&r, "smsp__inst_executed.sum") == 1215, "inst_executed");
    CHECK(metric(&r, "smsp__thread_inst_executed.sum") == 6125, "thread_inst_executed");
    CHECK(fabs(metric(&r, "smsp__thread_inst_executed_per_inst_executed.ratio") - 6125.0 / 1215) <
          1e-12, "ratio");
    CHECK(metric(&r, "smsp__thread_inst_executed_pred_on.sum") == 5525, "pred_on");
    CHECK(metric(&r, "smsp__sass_branch_targets.sum") == 160, "targets");
    /* 50 divergent executions count one divergent target each (as CUPTI counts on the
     * H100); 160 - 50 targets are uniform. */
    CHECK(metric(&r, "smsp__sass_branch_targets_threads_divergent.sum") == 50, "divergent");
    CHECK(fabs(metric(&r, "smsp__sass_average_branch_targets_threads_uniform.pct") -
               100.0 * 110 / 160) < 1e-12, "uniform pct");
    CHECK(fabs(metric(&r, "sim__execution_rate") - 6125.0 / (32 * 1215.0)) < 1e-12, "rate");
    CHECK(metric(&r, "sim__divergent_branches") == 50, "sim divergent");
    CHECK(metric(&r, "sim__atomic_warp_insts") == 7, "atomic warps");
    CHECK(metric(&r, "sim__atomic_lanes") == 12345, "producer's metric kept");
    ws_result_free(&r);

    ws_result e;
    ws_result_init(&e);
    CHECK(ws_result_derive_metrics(&e) == WS_OK, "derive empty");
    CHECK(metric(&e, "smsp__sass_average_branch_targets_threads_uniform.pct") == 0,
          "no branches -> 0%% (as the H100 reports it)");
    CHECK(metric(&e, "sim__execution_rate") == 0 &&
          metric(&e, "smsp__thread_inst_executed_per_inst_executed.ratio") == 0, "no division by 0");
    ws_result_free(&e);
    return ws_test_finish("core_derive");
}
