/* stats.c — the executor's statistics: per-host-thread counters per PC and per atomic
 * instruction, merged at the end into the ws_result (instructions with their source
 * locations, basic blocks, atomic contention histograms, lane timelines, source files). */
#include <stdlib.h>
#include "sim/exec.h"

int ws_stats_alloc(ws_worker *wk)
{
    const ws_run *r = wk->run;
    wk->pcstat = calloc((size_t)r->m->nfuncs, sizeof *wk->pcstat);
    wk->atoms = calloc((size_t)(r->natom_slots ? r->natom_slots : 1), sizeof *wk->atoms);
    if (!wk->pcstat || !wk->atoms)
        return WS_ERR_NOMEM;
    for (int f = 0; f < r->m->nfuncs; f++) {
        if (!r->fi[f].reachable)
            continue;
        int n = r->m->funcs[f].ninsts;
        wk->pcstat[f] = calloc((size_t)(n ? n : 1), sizeof **wk->pcstat);
        if (!wk->pcstat[f])
            return WS_ERR_NOMEM;
    }
    return 0;
}

void ws_stats_free(ws_worker *wk)
{
    if (wk->pcstat)
        for (int f = 0; f < wk->run->m->nfuncs; f++)
            free(wk->pcstat[f]);
    free(wk->pcstat);
    free(wk->atoms);
    wk->pcstat = NULL;
    wk->atoms = NULL;
}

static int distinct_addresses(const uint64_t *addr, uint32_t exec)
{
    uint64_t v[WS_WARP];
    int n = 0;
    WS_LANES(l, exec, {
        int i = n++;
        while (i > 0 && v[i - 1] > addr[l]) {
            v[i] = v[i - 1];
            i--;
        }
        v[i] = addr[l];
    });
    int k = n > 0;
    for (int i = 1; i < n; i++)
        k += v[i] != v[i - 1];
    return k;
}

/* An atomic's contention histogram (ws_stats_event calls it for memory accesses). */
void ws_stats_atomic(ws_worker *wk, int fn, const ws_warp_event *ev)
{
    int slot = wk->run->fi[fn].atom_slot[ev->pc];
    if (slot < 0)
        return;
    ws_atomcount *a = &wk->atoms[slot];
    a->warp_execs++;
    a->lanes += (uint64_t)__builtin_popcount(ev->pred_on);
    a->hist[distinct_addresses(ev->addr, ev->pred_on)]++;
}

/* ---------------------------------------------------------------- lane timelines */

static ws_timeline *timeline_of(const ws_run *r, uint32_t cta, uint32_t warp)
{
    uint64_t g = (uint64_t)cta * (uint64_t)r->nwarps + warp;
    return g < (uint64_t)r->ntimelines ? &r->timelines[g] : NULL;
}

static void timeline_cta_begin(void *ctx, uint32_t cta, int nwarps)
{
    const ws_run *r = ctx;
    for (int i = 0; i < nwarps; i++) {
        ws_timeline *t = timeline_of(r, cta, (uint32_t)i);
        if (!t)
            break;
        t->cta = cta;
        t->warp = i;
    }
}

static void timeline_inst(void *ctx, const ws_warp_event *ev)
{
    const ws_run *r = ctx;
    ws_timeline *t = timeline_of(r, ev->cta, ev->warp);
    if (!t)
        return;
    if (t->nslots >= r->opt->timeline_slots) {
        t->truncated = 1;
        return;
    }
    t->slots[t->nslots++] = (ws_timeline_slot){ ev->pc, ev->active, ev->pred_on };
}

ws_event_sink ws_timeline_sink(ws_run *r)
{
    ws_event_sink s = { r, timeline_inst, timeline_cta_begin, NULL, NULL };
    return s;
}

/* Result file index for module file `mf`, adding the source text when readable. */
static int result_file(const ws_run *run, ws_result *res, int *map, int mf)
{
    if (mf <= 0 || mf >= run->m->nfiles || !run->m->files[mf])
        return -1;
    if (map[mf] != -2)
        return map[mf];
    char *text = NULL;
    size_t len = 0;
    ws_error e;
    ws_error_clear(&e);
    if (ws_read_file(run->m->files[mf], &text, &len, &e))
        text = NULL;
    map[mf] = ws_result_add_file(res, run->m->files[mf], text);
    free(text);
    return map[mf];
}

static int fill_function(const ws_run *run, ws_worker *wks, int nwk, int f, ws_result *res,
                         int *filemap)
{
    const ws_function *fn = &run->m->funcs[f];
    for (int pc = 0; pc < fn->ninsts; pc++) {
        const ws_inst *in = &fn->insts[pc];
        ws_inst_stat *s = ws_result_add_inst(res);
        if (!s)
            return WS_ERR_NOMEM;
        snprintf(s->function, sizeof s->function, "%.*s", (int)sizeof s->function - 1, fn->name);
        s->pc = pc;
        s->ptx_line = in->ptx_line;
        s->file = result_file(run, res, filemap, in->file);
        s->line = in->line > 0 ? in->line : 0;
        s->block = in->block;
        ws_inst_opname(in, s->text, sizeof s->text);
        for (int k = 0; k < nwk; k++) {
            const ws_pcstat *p = &wks[k].pcstat[f][pc];
            s->issued += p->issued;
            s->active_threads += p->active;
            s->pred_on_threads += p->pred_on;
            s->branch_targets += p->targets;
            s->divergent_branches += p->divergent;
        }
        int slot = run->fi[f].atom_slot[pc];
        if (slot < 0)
            continue;
        ws_atomic_stat *a = ws_result_add_atomic(res);
        if (!a)
            return WS_ERR_NOMEM;
        snprintf(a->function, sizeof a->function, "%.*s", (int)sizeof a->function - 1, fn->name);
        a->pc = pc;
        a->line = s->line;
        snprintf(a->text, sizeof a->text, "%s", s->text);
        for (int k = 0; k < nwk; k++) {
            const ws_atomcount *c = &wks[k].atoms[slot];
            a->warp_execs += c->warp_execs;
            a->lanes += c->lanes;
            for (int i = 0; i < 33; i++)
                a->distinct_hist[i] += c->hist[i];
        }
    }
    for (int b = 0; b < fn->nblocks; b++) {
        ws_block_info *bi = ws_result_add_block(res);
        if (!bi)
            return WS_ERR_NOMEM;
        snprintf(bi->function, sizeof bi->function, "%.*s", (int)sizeof bi->function - 1, fn->name);
        bi->id = b;
        bi->first_pc = fn->blocks[b].first;
        bi->last_pc = fn->blocks[b].last;
        bi->nsucc = fn->blocks[b].nsucc;
        bi->succ[0] = fn->blocks[b].succ[0];
        bi->succ[1] = fn->blocks[b].succ[1];
        bi->ipdom = fn->blocks[b].ipdom;
    }
    return 0;
}

/* Moves the recorded timelines into the result (the slots change owner). */
static int fill_timelines(ws_run *run, ws_result *res)
{
    for (int i = 0; i < run->ntimelines; i++) {
        ws_timeline *t = &run->timelines[i];
        if (t->nslots == 0)
            continue;
        ws_timeline *o = ws_result_add_timeline(res);
        if (!o)
            return WS_ERR_NOMEM;
        *o = *t;
        snprintf(o->function, sizeof o->function, "%.*s", (int)sizeof o->function - 1, run->m->funcs[run->entry].name);
        t->slots = NULL;
        t->nslots = 0;
    }
    return 0;
}

int ws_stats_fill(ws_run *run, ws_worker *wks, int nwk, ws_result *res, ws_error *err)
{
    int *filemap = malloc((size_t)(run->m->nfiles + 1) * sizeof *filemap);
    if (!filemap)
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory");
    for (int i = 0; i <= run->m->nfiles; i++)
        filemap[i] = -2;
    int rc = 0;
    const ws_function *entry = &run->m->funcs[run->entry];
    if (entry->main_file > 0)
        result_file(run, res, filemap, entry->main_file);
    for (int f = 0; f < run->m->nfuncs && !rc; f++)
        if (run->fi[f].reachable)
            rc = fill_function(run, wks, nwk, f, res, filemap);
    if (!rc)
        rc = fill_timelines(run, res);
    free(filemap);
    if (rc)
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory filling the result");
    return 0;
}
