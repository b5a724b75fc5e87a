/* derive.c — aggregations over a ws_result: per-region sums over the spec's .cu lines
 * and the kernel-level metrics under Nsight Compute's names. Pure functions of the
 * per-instruction counts; producing those counts is the simulator's or profiler's job. */
#include "core/core_internal.h"

#include <stdlib.h>
#include <string.h>

static const char *ws_basename(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* Does result file `path` name the spec's .cu? Same real path, else same base name. */
static int ws_same_source(const char *path, const char *source)
{
    if (strcmp(path, source) == 0)
        return 1;
    char *a = realpath(path, NULL), *b = realpath(source, NULL);
    int same = a && b && strcmp(a, b) == 0;
    free(a);
    free(b);
    return same || strcmp(ws_basename(path), ws_basename(source)) == 0;
}

int ws_result_compute_regions(ws_result *r, const ws_spec *s)
{
    r->nregions = 0;
    if (s->nregions == 0)
        return WS_OK;
    int *is_source = calloc((size_t)r->nfiles + 1, sizeof *is_source);
    if (!is_source)
        return WS_ERR_NOMEM;
    for (int f = 0; f < r->nfiles; f++)
        is_source[f] = ws_same_source(r->files[f].path, s->source);
    if (r->cap_regions < s->nregions) {
        ws_region_stat *nr = realloc(r->regions, (size_t)s->nregions * sizeof *nr);
        if (!nr) {
            free(is_source);
            return WS_ERR_NOMEM;
        }
        r->regions = nr;
        r->cap_regions = s->nregions;
    }
    for (int g = 0; g < s->nregions; g++) {
        const ws_region *sr = &s->regions[g];
        ws_region_stat *st = &r->regions[g];
        memset(st, 0, sizeof *st);
        snprintf(st->name, sizeof st->name, "%s", sr->name);
        st->first_line = sr->first_line;
        st->last_line = sr->last_line;
        for (int i = 0; i < r->ninsts; i++) {
            const ws_inst_stat *in = &r->insts[i];
            if (in->file < 0 || in->file >= r->nfiles || !is_source[in->file] ||
                in->line < sr->first_line || in->line > sr->last_line)
                continue;
            st->issued += in->issued;
            st->active_threads += in->active_threads;
            st->pred_on_threads += in->pred_on_threads;
            st->branch_targets += in->branch_targets;
            st->divergent_branches += in->divergent_branches;
        }
        st->execution_rate = st->issued ? (double)st->active_threads / (32.0 * st->issued) : 0;
    }
    r->nregions = s->nregions;
    free(is_source);
    return WS_OK;
}

/* Sets a metric only when the producer has not (a measured value wins). */
static int ws_metric_default(ws_result *r, const char *name, double value)
{
    return ws_result_metric(r, name) ? WS_OK : ws_result_set_metric(r, name, value);
}

int ws_result_derive_metrics(ws_result *r)
{
    uint64_t issued = 0, active = 0, pred_on = 0, targets = 0, divergent = 0;
    uint64_t atomic_warps = 0, atomic_lanes = 0;
    for (int i = 0; i < r->ninsts; i++) {
        issued += r->insts[i].issued + r->insts[i].replays;
        active += r->insts[i].active_threads + r->insts[i].replay_threads;
        pred_on += r->insts[i].pred_on_threads + r->insts[i].replay_threads;
        targets += r->insts[i].branch_targets;
        divergent += r->insts[i].divergent_branches;
    }
    for (int i = 0; i < r->natomics; i++) {
        atomic_warps += r->atomics[i].warp_execs;
        atomic_lanes += r->atomics[i].lanes;
    }
    /* As the H100 counts them (CUPTI against the SASS model, per kernel, every seed
     * workload): smsp__sass_branch_targets grows by one per warp-level execution of a branch
     * instruction and ..._threads_divergent by one per execution that split the warp; the
     * uniform share is (targets - divergent) / targets, and 0 with no branch at all (the
     * H100 reports 0.0 there too). */
    uint64_t divergent_targets = divergent;
    if (divergent_targets > targets)
        divergent_targets = targets;
    struct { const char *name; double value; } m[] = {
        {WS_M(INST_EXECUTED), (double)issued},
        {WS_M(THREAD_INST_EXECUTED), (double)active},
        {WS_M(THREAD_INST_PER_INST),
         issued ? (double)active / (double)issued : 0},
        {WS_M(THREAD_INST_PRED_ON), (double)pred_on},
        {WS_M(BRANCH_TARGETS), (double)targets},
        {WS_M(BRANCH_TARGETS_DIVERGENT), (double)divergent_targets},
        {WS_M(BRANCH_UNIFORM_PCT),
         targets ? 100.0 * (double)(targets - divergent_targets) / (double)targets : 0.0},
        {WS_M(SIM_EXECUTION_RATE), issued ? (double)active / (32.0 * (double)issued) : 0},
        {WS_M(SIM_DIVERGENT_BRANCHES), (double)divergent},
        {WS_M(SIM_ATOMIC_WARP_INSTS), (double)atomic_warps},
        {WS_M(SIM_ATOMIC_LANES), (double)atomic_lanes},
    };
    for (size_t i = 0; i < sizeof m / sizeof *m; i++) {
        int rc = ws_metric_default(r, m[i].name, m[i].value);
        if (rc != WS_OK)
            return rc;
    }
    return WS_OK;
}
