/* result_launches.c — a sequence of launches as one run: each launch's result merged into
 * the variant's (counts per instruction, atomics, blocks, warnings, timelines) and kept
 * as a row with its own metrics, from which the variant's metrics are summed. */
#include "core/core_internal.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The first launch describes the run (source, device, workload, variant, shape). */
static void ws_copy_identity(ws_result *sum, const ws_result *one)
{
    memcpy(sum->source, one->source, sizeof sum->source);
    memcpy(sum->workload, one->workload, sizeof sum->workload);
    memcpy(sum->variant, one->variant, sizeof sum->variant);
    memcpy(sum->kernel, one->kernel, sizeof sum->kernel);
    memcpy(sum->grid, one->grid, sizeof sum->grid);
    memcpy(sum->block, one->block, sizeof sum->block);
    sum->smem_dynamic = one->smem_dynamic;
    memcpy(sum->params, one->params, sizeof sum->params);
    sum->seed = one->seed;
    memcpy(sum->device_json, one->device_json, sizeof sum->device_json);
}

/* "a" then "a+b": the kernels of the sequence in the order they first ran. */
static void ws_add_kernel_name(ws_result *sum, const char *kernel)
{
    size_t n = strlen(kernel), len = strlen(sum->kernel);
    for (const char *k = sum->kernel; (k = strstr(k, kernel)); k += n)
        if ((k == sum->kernel || k[-1] == '+') && (k[n] == '+' || k[n] == '\0'))
            return;
    if (len + n + 2 <= sizeof sum->kernel)
        snprintf(sum->kernel + len, sizeof sum->kernel - len, "+%s", kernel);
}

/* The index of the item of `n` (each `size` bytes, starting with a 128-byte function name)
 * whose function is `function` and whose int at `key_off` is `key`, trying *hint first
 * (launches of one kernel list their items in the same order); -1 when none. */
static int ws_find_item(const void *items, int n, size_t size, size_t key_off,
                        const char *function, int key, int *hint)
{
    for (int k = 0; k < n; k++) {
        int i = (*hint + k) % n;
        const char *item = (const char *)items + (size_t)i * size;
        int item_key;
        memcpy(&item_key, item + key_off, sizeof item_key);
        if (item_key == key && !strcmp(item, function)) {
            *hint = i + 1;
            return i;
        }
    }
    return -1;
}
#define WS_FIND(arr, n, type, field, a, hint) \
    ws_find_item((arr), (n), sizeof(type), offsetof(type, field), (a)->function, (a)->field, (hint))

static int ws_merge_insts(ws_result *sum, const ws_result *one)
{
    int hint = 0;
    for (int i = 0; i < one->ninsts; i++) {
        const ws_inst_stat *a = &one->insts[i];
        int j = WS_FIND(sum->insts, sum->ninsts, ws_inst_stat, pc, a, &hint);
        ws_inst_stat *b = j >= 0 ? &sum->insts[j] : ws_result_add_inst(sum);
        if (!b)
            return WS_ERR_NOMEM;
        if (j < 0) {
            *b = *a;
            b->issued = b->active_threads = b->pred_on_threads = 0;
            b->branch_targets = b->divergent_branches = 0;
            b->file = -1;
            if (a->file >= 0 && a->file < one->nfiles &&
                (b->file = ws_result_add_file(sum, one->files[a->file].path,
                                              one->files[a->file].text)) < 0)
                return WS_ERR_NOMEM;
        }
        b->issued += a->issued;
        b->active_threads += a->active_threads;
        b->pred_on_threads += a->pred_on_threads;
        b->branch_targets += a->branch_targets;
        b->divergent_branches += a->divergent_branches;
    }
    return WS_OK;
}

static int ws_merge_atomics_blocks(ws_result *sum, const ws_result *one)
{
    int hint = 0;
    for (int i = 0; i < one->natomics; i++) {
        const ws_atomic_stat *a = &one->atomics[i];
        int j = WS_FIND(sum->atomics, sum->natomics, ws_atomic_stat, pc, a, &hint);
        ws_atomic_stat *b = j >= 0 ? &sum->atomics[j] : ws_result_add_atomic(sum);
        if (!b)
            return WS_ERR_NOMEM;
        if (j < 0) {
            *b = *a;
            continue;
        }
        b->warp_execs += a->warp_execs;
        b->lanes += a->lanes;
        for (int k = 0; k < 33; k++)
            b->distinct_hist[k] += a->distinct_hist[k];
    }
    hint = 0;
    for (int i = 0; i < one->nblocks; i++) {
        const ws_block_info *a = &one->blocks[i];
        if (WS_FIND(sum->blocks, sum->nblocks, ws_block_info, id, a, &hint) >= 0)
            continue;
        ws_block_info *b = ws_result_add_block(sum);
        if (!b)
            return WS_ERR_NOMEM;
        *b = *a;
    }
    return WS_OK;
}

/* Whether two warnings say the same: equal, or races between the same two instructions
 * ("race: SPACE[ADDR] V1 at PC1 by CTA c warp w lane l and V2 at PC2 by ..."), whatever
 * address, CTA, warp and lane each launch happened to find (a flag every thread of a
 * host loop's kernel sets races in every launch). */
static int ws_same_warning(const char *a, const char *b)
{
    if (!strcmp(a, b))
        return 1;
    if (strncmp(a, "race: ", 6) || strncmp(b, "race: ", 6))
        return 0;
    for (;;) { /* compare with each "[0x...]" and "by CTA c warp w lane l" left out */
        if (*a == '[' && *b == '[') {
            const char *ea = strchr(a, ']'), *eb = strchr(b, ']');
            if (!ea || !eb)
                return 0;
            a = ea + 1;
            b = eb + 1;
            continue;
        }
        if (!strncmp(a, "by CTA ", 7) && !strncmp(b, "by CTA ", 7)) {
            const char *ea = strstr(a, " lane "), *eb = strstr(b, " lane ");
            if (!ea || !eb)
                return 0;
            for (a = ea + 6; *a >= '0' && *a <= '9'; a++)
                ;
            for (b = eb + 6; *b >= '0' && *b <= '9'; b++)
                ;
            continue;
        }
        if (*a != *b)
            return 0;
        if (!*a)
            return 1;
        a++;
        b++;
    }
}

/* Warnings once each (ws_same_warning); timelines of a kernel's first launch only. */
static int ws_merge_notes(ws_result *sum, const ws_result *one)
{
    for (int i = 0; i < one->nwarnings; i++) {
        int dup = 0;
        for (int k = 0; k < sum->nwarnings && !dup; k++)
            dup = ws_same_warning(sum->warnings[k], one->warnings[i]);
        if (!dup && ws_result_add_warning(sum, "%s", one->warnings[i]))
            return WS_ERR_NOMEM;
    }
    int before = sum->ntimelines;
    for (int i = 0; i < one->ntimelines; i++) {
        int seen = 0;
        for (int k = 0; k < before && !seen; k++)
            seen = !strcmp(sum->timelines[k].function, one->timelines[i].function);
        if (seen)
            continue;
        ws_timeline *t = ws_result_add_timeline(sum);
        if (!t)
            return WS_ERR_NOMEM;
        *t = one->timelines[i];
        if (!(t->slots = malloc((size_t)(t->nslots ? t->nslots : 1) * sizeof *t->slots))) {
            t->nslots = 0;
            return WS_ERR_NOMEM;
        }
        memcpy(t->slots, one->timelines[i].slots, (size_t)t->nslots * sizeof *t->slots);
    }
    return WS_OK;
}

int ws_result_add_launch(ws_result *sum, const ws_launch *l, const ws_result *one)
{
    if (sum->nlaunches == 0)
        ws_copy_identity(sum, one);
    else
        ws_add_kernel_name(sum, one->kernel);
    ws_launch_stat *st = ws_core_grow((void **)&sum->launches, &sum->nlaunches,
                                      &sum->cap_launches, sizeof *st);
    if (!st)
        return WS_ERR_NOMEM;
    st->index = l->index;
    snprintf(st->kernel, sizeof st->kernel, "%s", l->v->kernel);
    memcpy(st->grid, l->v->grid, sizeof st->grid);
    memcpy(st->block, l->v->block, sizeof st->block);
    st->smem_dynamic = l->v->smem_dynamic;
    snprintf(st->vars, sizeof st->vars, "%s", l->vars);
    st->line = l->v->line;
    if (one->nmetrics && !(st->metrics = malloc((size_t)one->nmetrics * sizeof *st->metrics)))
        return WS_ERR_NOMEM;
    memcpy(st->metrics, one->metrics, (size_t)one->nmetrics * sizeof *st->metrics);
    st->nmetrics = one->nmetrics;
    int rc = ws_merge_insts(sum, one);
    if (rc == WS_OK)
        rc = ws_merge_atomics_blocks(sum, one);
    return rc == WS_OK ? ws_merge_notes(sum, one) : rc;
}

/* Whether a metric adds up over launches: counts, times and cycles do, except those that
 * describe one launch's shape or the machine. Everything else is averaged. */
static int ws_metric_adds(const char *name)
{
    static const int per_launch[] = {
        WS_METRIC_SIM_SMS, WS_METRIC_SIM_SMS_USED, WS_METRIC_SIM_CTAS_PER_SM,
        WS_METRIC_SIM_WAVES_MAX_PER_SM, WS_METRIC_SIM_REGS_PER_THREAD, WS_METRIC_EVENT_REPEAT,
        WS_METRIC_PROFILER_PASSES, WS_METRIC_REPLAY_PASSES, WS_METRIC_LAUNCH_INDEX,
    };
    const ws_metric_def *d = ws_metric_lookup(name);
    if (!d) {
        size_t n = strlen(name);
        return n > 4 && !strcmp(name + n - 4, ".sum");
    }
    for (size_t i = 0; i < sizeof per_launch / sizeof *per_launch; i++)
        if (d == &ws_metric_table[per_launch[i]])
            return 0;
    return !strcmp(d->unit, "count") || !strcmp(d->unit, "ns") || !strcmp(d->unit, "cycles") ||
           !strcmp(d->unit, "s");
}

/* Ratios that follow from sums: set again from the summed counts. */
static int ws_ratios_from_sums(ws_result *r)
{
    double insts = ws_result_value(r, WS_M(INST_EXECUTED));
    double threads = ws_result_value(r, WS_M(THREAD_INST_EXECUTED));
    double targets = ws_result_value(r, WS_M(BRANCH_TARGETS));
    double divergent = ws_result_value(r, WS_M(BRANCH_TARGETS_DIVERGENT));
    int rc = WS_OK;
    if (!isnan(insts) && !isnan(threads) && ws_result_metric(r, WS_M(THREAD_INST_PER_INST)))
        rc = ws_result_set_metric(r, WS_M(THREAD_INST_PER_INST), insts ? threads / insts : 0);
    if (rc == WS_OK && !isnan(insts) && !isnan(threads) &&
        ws_result_metric(r, WS_M(SIM_EXECUTION_RATE)))
        rc = ws_result_set_metric(r, WS_M(SIM_EXECUTION_RATE),
                                  insts ? threads / (32.0 * insts) : 0);
    if (rc == WS_OK && !isnan(targets) && !isnan(divergent) &&
        ws_result_metric(r, WS_M(BRANCH_UNIFORM_PCT)))
        rc = ws_result_set_metric(r, WS_M(BRANCH_UNIFORM_PCT),
                                  targets ? 100.0 * (targets - divergent) / targets : 0);
    return rc;
}

int ws_result_launches_finish(ws_result *sum)
{
    sum->nmetrics = 0;
    for (int i = 0; i < sum->nlaunches; i++) {
        const ws_launch_stat *st = &sum->launches[i];
        for (int m = 0; m < st->nmetrics; m++) {
            const char *name = st->metrics[m].name;
            if (ws_result_metric(sum, name))
                continue;
            double total = 0;
            int n = 0;
            for (int k = 0; k < sum->nlaunches; k++)
                for (int q = 0; q < sum->launches[k].nmetrics; q++)
                    if (!strcmp(sum->launches[k].metrics[q].name, name)) {
                        total += sum->launches[k].metrics[q].value;
                        n++;
                    }
            int rc = ws_result_set_metric(sum, name, ws_metric_adds(name) ? total : total / n);
            if (rc != WS_OK)
                return rc;
        }
    }
    return ws_ratios_from_sums(sum);
}
