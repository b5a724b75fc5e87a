/* timing.c — the timing and contention model: consumes the executor's warp-instruction
 * events and predicts cycles and time for one launch on a preset GPU (sim/presets).
 * Per warp it follows a dependency-aware issue chain (register scoreboard, latency by
 * class, memory and atomic costs from timing_mem.c, barriers). On SASS with its control
 * bits the chain is the hardware's: in program order, each instruction at least its
 * predecessor's stall count after it (ptxas's schedule, Nsight Compute's "Stall Wait").
 * On PTX the compiler's static schedule is approximated by a small issue window and
 * predicated short branch bodies (the preset's sched.* keys). Both price the SASS control
 * flow PTX does not show: a taken branch's fetch, the BSYNC at the reconvergence point of a
 * branch that is not predicated, the YIELD of a spin loop (branch.* keys); per CTA it folds
 * that into a critical path and issue demand;
 * timing_finish.c turns CTAs on SMs in waves into time.
 * Not cycle-accurate: an explainable bound model. Memory stays bounded (no trace kept). */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sim/timing_model.h"

/* ------------------------------------------------------------------ per-PC facts */

/* The static facts of one instruction priced by the preset. */
static void decode_inst(const ws_gpu_preset *p, const ws_pcstatic *s, ws_pcinfo *pi)
{
    memset(pi, 0, sizeof *pi);
    pi->lat = s->lat;
    pi->latency = p->latency[pi->lat];
    double slots = p->issue[pi->lat] > 1 ? p->issue[pi->lat] : 1;
    pi->slots = slots;
    pi->gap = slots / p->issue_per_scheduler;
    pi->pipe = (uint8_t)ws_timing_pipe(pi->lat);
    pi->occ = p->issue[pi->lat];
    pi->nsrc = s->nsrc;
    pi->ndst = s->ndst;
    memcpy(pi->src, s->src, sizeof pi->src);
    memcpy(pi->dst, s->dst, sizeof pi->dst);
    for (int i = 0; i < s->nsrc; i++) if (s->src[i] > pi->maxreg) pi->maxreg = s->src[i];
    for (int i = 0; i < s->ndst; i++) if (s->dst[i] > pi->maxreg) pi->maxreg = s->dst[i];
    pi->is_bar = s->is_bar;
    pi->serial = s->serial;
    pi->mem_kind = s->mem_kind;
    pi->target = s->target;
    pi->atom_cas = s->atom_cas;
    pi->atom_exch = s->atom_exch;
    pi->fence = s->fence;
    pi->atom_fp = s->atom_fp;
    pi->atom_merge = s->atom_merge;
    pi->stall = s->stall;
    pi->call = s->call;
    pi->skip_latency = pi->latency;
    if (s->is_load)
        pi->skip_latency = s->shared ? p->shared_latency : p->l1_latency;
}

/* A guarded forward branch over a short straight body (no control flow, barriers or
 * atomics) is what the compiler turns into predicated instructions: they issue whether or
 * not any lane runs them. Returns the body's length, or 0. */
static int ifconvert_body(const ws_gpu_preset *p, const ws_fnstatic *fs, int pc)
{
    const ws_pcstatic *br = &fs->pc[pc];
    if (br->target < 0 || !br->guarded) return 0;
    int64_t n = (int64_t)br->target - pc - 1;
    if (n < 1 || n > p->sched_ifconvert_max) return 0;
    for (int64_t k = 1; k <= n; k++)
        if (fs->pc[pc + k].unpredicable) return 0;
    return (int)n;
}

static const ws_fnstatic *fn_static(const ws_timing *t, const ws_function *fn)
{
    for (int i = 0; i < t->desc->nfns; i++)
        if (t->desc->fns[i].fn == fn) return &t->desc->fns[i];
    return NULL;
}

static const ws_pcinfo *fn_info(ws_timing *t, const ws_function *fn, int pc)
{
    for (int i = 0; i < t->nfns; i++)
        if (t->fns[i].fn == fn) return &t->fns[i].info[pc];
    const ws_fnstatic *fs = fn_static(t, fn);
    assert(fs && pc >= 0 && pc < fs->ninsts); /* the description covers every function */
    if (t->nfns == WS_TIMING_MAXFN) { /* pathological: decode on the fly into a scratch */
        decode_inst(&t->p, &fs->pc[pc], &t->scratch);
        return &t->scratch;
    }
    ws_fninfo_t *f = &t->fns[t->nfns];
    f->info = calloc((size_t)(fs->ninsts ? fs->ninsts : 1), sizeof *f->info);
    if (!f->info) {
        decode_inst(&t->p, &fs->pc[pc], &t->scratch);
        return &t->scratch;
    }
    f->fn = fn;
    for (int i = 0; i < fs->ninsts; i++) {
        decode_inst(&t->p, &fs->pc[i], &f->info[i]);
        f->info[i].ifconv = (uint8_t)ifconvert_body(&t->p, fs, i);
        f->info[i].yield = fs->pc[i].yield;
    }
    /* A guarded branch the compiler does not predicate may diverge: SASS brackets it with
     * BSSY/BSYNC, and every warp waits at the BSYNC, at the branch's reconvergence point. */
    for (int i = 0; i < fs->ninsts; i++) {
        const ws_pcstatic *s = &fs->pc[i];
        if (s->target >= 0 && s->guarded && !f->info[i].ifconv && s->reconv_pc >= 0)
            f->info[s->reconv_pc].join = 1;
    }
    if (fs->nregs > t->max_regs) t->max_regs = fs->nregs;
    t->nfns++;
    return &f->info[pc];
}

/* ------------------------------------------------------------------ CTAs */

static ws_cta_timing *cta_find(ws_timing *t, uint32_t cta)
{
    if (t->last && t->last->cta == cta && t->last->in_use) return t->last;
    for (int i = 0; i < t->nctas; i++)
        if (t->ctas[i].in_use && t->ctas[i].cta == cta) return t->last = &t->ctas[i];
    return NULL;
}

static int warp_regs_reserve(ws_warp_timing *w, int nregs)
{
    if (nregs <= w->nregs) return 0;
    int n = nregs < 64 ? 64 : nregs;
    double *r = realloc(w->ready, (size_t)n * sizeof *r);
    if (r) w->ready = r;
    double *f = realloc(w->freed, (size_t)n * sizeof *f);
    if (f) w->freed = f;
    uint8_t *k = realloc(w->kind, (size_t)n);
    if (k) w->kind = k;
    if (!r || !f || !k) return WS_ERR_NOMEM;
    for (int i = w->nregs; i < n; i++) {
        w->ready[i] = w->freed[i] = 0;
        w->kind[i] = WS_STALL_DEP;
    }
    w->nregs = n;
    return 0;
}

static ws_cta_timing *cta_slot(ws_timing *t)
{
    for (int i = 0; i < t->nctas; i++)
        if (!t->ctas[i].in_use) return &t->ctas[i];
    if (t->nctas == t->cap_ctas) { /* more CTAs resident at once (ws_wave_run) */
        int cap = t->cap_ctas ? 2 * t->cap_ctas : 8;
        ws_cta_timing *c = realloc(t->ctas, (size_t)cap * sizeof *c);
        if (!c) return NULL;
        memset(c + t->cap_ctas, 0, (size_t)(cap - t->cap_ctas) * sizeof *c);
        t->ctas = c;
        t->cap_ctas = cap;
        t->last = NULL; /* it pointed into the old array */
    }
    return &t->ctas[t->nctas++];
}

static void on_cta_begin(void *ctx, uint32_t cta, int nwarps)
{
    ws_timing *t = ctx;
    ws_cta_timing *c = cta_slot(t);
    if (!c) { t->oom = 1; return; }
    if (nwarps > c->cap_warps) {
        ws_warp_timing *w = realloc(c->warps, (size_t)nwarps * sizeof *w);
        if (!w) { t->oom = 1; return; }
        memset(w + c->cap_warps, 0, (size_t)(nwarps - c->cap_warps) * sizeof *w);
        c->warps = w;
        c->cap_warps = nwarps;
    }
    c->cta = cta;
    c->in_use = 1;
    c->nwarps = nwarps;
    memset(&c->sum, 0, sizeof c->sum);
    c->bar_seen = -1;
    c->bar_max[0] = c->bar_max[1] = 0;
    for (int i = 0; i < nwarps; i++) {
        ws_warp_timing *w = &c->warps[i];
        if (warp_regs_reserve(w, t->max_regs)) { t->oom = 1; return; }
        memset(w->ready, 0, (size_t)w->nregs * sizeof *w->ready);
        memset(w->freed, 0, (size_t)w->nregs * sizeof *w->freed);
        memset(w->kind, WS_STALL_DEP, (size_t)w->nregs);
        w->t = w->done = w->slots = w->slot = w->shared_free = 0;
        memset(w->pipe, 0, sizeof w->pipe);
        memset(w->win, 0, sizeof w->win);
        w->win_pos = 0;
        w->stall = 0;
        w->bar_gen = 0;
        w->bar_pending = w->bar_noted = 0;
        w->lock_lanes = 0;
        w->lock_fenced = 0;
    }
    t->last = c;
}

static void on_cta_end(void *ctx, uint32_t cta)
{
    ws_timing *t = ctx;
    ws_cta_timing *c = cta_find(t, cta);
    if (!c) return;
    /* Per scheduler (warp i on scheduler i mod n): instructions dispatched, one a cycle at
     * most (issue_per_scheduler), and the cycles each pipe was held; the scheduler is busy
     * for the longer. */
    double dispatched[WS_TIMING_MAXSCHED] = { 0 }, held[WS_TIMING_MAXSCHED][WS_LAT__COUNT];
    memset(held, 0, sizeof held);
    int nsched = (int)t->p.schedulers_per_sm;
    if (nsched > WS_TIMING_MAXSCHED) nsched = WS_TIMING_MAXSCHED;
    for (int i = 0; i < c->nwarps; i++) {
        const ws_warp_timing *w = &c->warps[i];
        if (w->done > c->sum.critical_path) c->sum.critical_path = w->done;
        dispatched[i % nsched] += w->slots;
        for (int p = 0; p < WS_LAT__COUNT; p++) held[i % nsched][p] += w->pipe[p];
    }
    for (int s = 0; s < nsched; s++) {
        double busy = dispatched[s] / t->p.issue_per_scheduler;
        for (int p = 0; p < WS_LAT__COUNT; p++) busy = fmax(busy, held[s][p]);
        if (busy > c->sum.max_sched_cycles) c->sum.max_sched_cycles = busy;
    }
    c->sum.warps = c->nwarps;
    ws_timing_fold_cta(t, cta, &c->sum);
    c->in_use = 0;
}

/* A warp reached a barrier: remember when, per barrier generation. */
static void bar_arrive(ws_cta_timing *c, ws_warp_timing *w)
{
    int64_t g = w->bar_gen++;
    if (g > c->bar_seen) {
        c->bar_seen = g;
        c->bar_max[g & 1] = w->t;
    } else if (w->t > c->bar_max[g & 1]) {
        c->bar_max[g & 1] = w->t;
    }
    w->bar_pending = 1;
    w->bar_noted = 1;
}

static void on_barrier(void *ctx, uint32_t cta, uint32_t warp, int pc)
{
    (void)pc;
    ws_cta_timing *c = cta_find(ctx, cta);
    if (!c || (int)warp >= c->nwarps) return;
    ws_warp_timing *w = &c->warps[warp];
    if (!w->bar_noted) bar_arrive(c, w);
}

/* ------------------------------------------------------------------ one warp-instruction */

/* The warp issues nothing before `until` (a barrier's release, a serialized warp op). */
static void warp_hold(ws_warp_timing *w, int window, double until)
{
    for (int k = 0; k < window; k++) if (w->win[k] < until) w->win[k] = until;
    if (w->slot < until) w->slot = until;
    if (w->t < until) w->t = until;
}

/* Control flow: the warp issues nothing for `cycles` after `from` (a taken branch's fetch,
 * a BSYNC, a YIELD); counted as branch stall where it holds the warp back. */
static void branch_hold(ws_cta_timing *c, ws_warp_timing *w, int window, double from, double cycles)
{
    double until = from + cycles, now = fmax(w->slot, w->win[w->win_pos]);
    if (until > now) c->sum.stall[WS_STALL_BRANCH] += until - now;
    warp_hold(w, window, until);
}

/* When the latest instruction issued. */
static double window_latest(const ws_warp_timing *w, int window)
{
    double m = w->slot;
    for (int k = 0; k < window; k++) if (w->win[k] > m) m = w->win[k];
    return m;
}

/* Issue one warp-instruction: after the one before it (one issue gap, or that one's stall
 * count where the SASS gave it), no earlier than the instruction `window` places back (the compiler's static schedule lets a warp issue
 * that far past a stalled instruction; 1 = strictly in order) or, if it is serializing,
 * every earlier one; when its source registers are ready; and when a memory instruction
 * before it has read the registers it writes. Returns the issue cycle. */
static double issue_at(ws_timing *t, ws_cta_timing *c, ws_warp_timing *w, const ws_pcinfo *pi)
{
    int window = t->window;
    double from = pi->serial ? window_latest(w, window) : fmax(w->slot, w->win[w->win_pos]);
    double step = fmax(pi->gap, w->stall); /* the stall count of the one before it */
    double earliest = from + step, ready = earliest;
    int kind = WS_STALL_ISSUE;
    for (int i = 0; i < pi->nsrc; i++) {
        int r = pi->src[i];
        if (w->ready[r] > ready) { ready = w->ready[r]; kind = w->kind[r]; }
    }
    for (int i = 0; i < pi->ndst; i++)
        if (w->freed[pi->dst[i]] > ready) { ready = w->freed[pi->dst[i]]; kind = WS_STALL_MEM; }
    /* the stall count of the one before it is its wait (as Nsight Compute's Stall Wait counts
     * it, less the cycle of issue itself); what a pipe's gap adds beyond it, the issue's */
    double wait = w->stall > 1 ? fmin(w->stall, step) - 1 : 0;
    c->sum.stall[WS_STALL_ISSUE] += step - wait;
    c->sum.stall[WS_STALL_WAIT] += wait;
    if (ready > earliest) c->sum.stall[kind] += ready - earliest;
    w->stall = pi->stall;
    w->slot = earliest;
    w->win[w->win_pos] = ready;
    w->win_pos = (w->win_pos + 1) % window;
    if (ready > w->t) w->t = ready;
    w->slots += 1;
    w->pipe[pi->pipe] += pi->occ;
    c->sum.insts++;
    c->sum.slots += 1;
    c->sum.pipe[pi->pipe] += pi->occ;
    return ready;
}

/* Room in the warp's register table for every register the instruction names. */
static int regs_for(ws_warp_timing *w, const ws_pcinfo *pi)
{
    return pi->maxreg < w->nregs ? 0 : warp_regs_reserve(w, pi->maxreg + 1);
}

static void write_dsts(ws_warp_timing *w, const ws_pcinfo *pi, double finish, int kind)
{
    for (int i = 0; i < pi->ndst; i++) {
        w->ready[pi->dst[i]] = finish;
        w->kind[pi->dst[i]] = (uint8_t)kind;
    }
    if (finish > w->done) w->done = finish;
}

static void on_warp_inst(void *ctx, const ws_warp_event *ev)
{
    ws_timing *t = ctx;
    /* The per-PC facts are indexed by the event's pc in the event's function. */
    /* a PTX event names its instruction; a SASS event names none (its facts are static) */
    assert(ev->pc >= 0 && (!ev->inst || (ev->pc < ev->fn->ninsts && ev->inst == &ev->fn->insts[ev->pc])));
    ws_cta_timing *c = cta_find(t, ev->cta);
    if (!c || (int)ev->warp >= c->nwarps) return;
    ws_warp_timing *w = &c->warps[ev->warp];
    const ws_pcinfo *pi = fn_info(t, ev->fn, ev->pc);
    int window = t->window;
    if (w->bar_pending && !pi->is_bar) { /* first instruction after a barrier */
        double release = c->bar_max[(w->bar_gen - 1) & 1] + t->p.latency[WS_LAT_bar];
        if (release > w->t) c->sum.stall[WS_STALL_BAR] += release - w->t;
        warp_hold(w, window, release);
        w->bar_pending = 0;
    }
    if (!pi->is_bar) w->bar_noted = 0;
    if (regs_for(w, pi)) { t->oom = 1; return; }
    if (pi->join) /* the BSYNC before it: the warp waits for its lanes' paths to meet */
        branch_hold(c, w, window, window_latest(w, window), t->p.branch_reconverge_cycles);
    double start = issue_at(t, c, w, pi);
    if (pi->yield) /* a spin loop's head: the YIELD lets other threads run, each trip */
        branch_hold(c, w, window, start, t->p.branch_yield_cycles);
    if (pi->call) /* a call or a return: fetch moves to another function (bench/calib call_chain) */
        branch_hold(c, w, window, start, t->p.branch_call_cycles);
    if (ev->printf_call && ev->pred_on) {
        /* a device printf: the warp waits for vprintf's return, longer for a longer format
         * and for each further lane; the GPU-wide queue of calls is a bound (timing_finish.c) */
        double lanes = __builtin_popcount(ev->pred_on);
        const ws_gpu_preset *p = &t->p;
        branch_hold(c, w, window, start,
                    p->printf_call_cycles + ev->printf_chars * p->printf_format_char_cycles +
                        (lanes - 1) * p->printf_lane_cycles);
        c->sum.printf_calls += 1;
        c->sum.printf_lanes += lanes;
    }
    if (pi->fence && w->lock_lanes) w->lock_fenced = 1; /* a critical section's fence */
    ws_cost cost = { pi->latency, WS_STALL_DEP, 0 };
    if (ev->addr && ev->pred_on) {
        ws_timing_mem_cost(t, c, ev, pi, &cost);
        if (cost.shared_cycles > 0) {
            /* the data path serves a warp's shared accesses in order, a wavefront a cycle:
               an access starts once the ones before it are served (unseen21 sw_antidiag:
               three conflicted loads back to back, the third waits for the first two) */
            double begin = fmax(start, w->shared_free);
            cost.latency += begin - start;
            w->shared_free = begin + cost.shared_cycles;
        }
        /* The memory pipe reads the instruction's registers (address, data) after issue:
         * whatever writes one of them next waits for that read (bench/calib red_war). */
        if (ev->addr_space != WS_SPACE_CONST && ev->addr_space != WS_SPACE_PARAM)
            for (int i = 0; i < pi->nsrc; i++)
                if (w->freed[pi->src[i]] < start + t->p.mem_src_read_cycles)
                    w->freed[pi->src[i]] = start + t->p.mem_src_read_cycles;
    }
    if (ev->groups > 1) { /* the op runs once per member-mask group, the warp held meanwhile */
        double extra = (ev->groups - 1) * t->p.warp_group_cycles;
        double busy = (ev->groups - 1) * t->p.warp_group_issue; /* and its pipe busy */
        cost.latency += extra;
        c->sum.stall[WS_STALL_DEP] += extra;
        warp_hold(w, window, start + extra);
        w->pipe[pi->pipe] += busy;
        c->sum.pipe[pi->pipe] += busy;
    }
    write_dsts(w, pi, start + cost.latency, cost.kind);
    if (pi->is_bar && !w->bar_noted) bar_arrive(c, w);
    if (pi->target >= 0 && ev->taken && !pi->ifconv) /* a taken branch: fetch at its target */
        branch_hold(c, w, window, start, t->p.latency[WS_LAT_branch]);
    if (pi->target >= 0 && pi->target <= ev->pc && ev->taken) /* a loop's back edge: */
        warp_hold(w, window, window_latest(w, window));       /* no overlap across it */
    if (pi->ifconv && ev->taken == 2) /* no lane runs the body: it issues predicated off */
        for (int k = 1; k <= pi->ifconv; k++) {
            const ws_pcinfo *bi = fn_info(t, ev->fn, ev->pc + k);
            if (regs_for(w, bi)) { t->oom = 1; return; }
            double s = issue_at(t, c, w, bi);
            write_dsts(w, bi, s + bi->skip_latency, WS_STALL_DEP);
        }
}

/* ------------------------------------------------------------------ life cycle */

int ws_timing_new(const char *preset, const ws_static_desc *desc, const ws_launch_shape *shape,
                  ws_timing **out, ws_error *err)
{
    *out = NULL;
    ws_timing *t = calloc(1, sizeof *t);
    if (!t) return ws_error_set(err, WS_ERR_NOMEM, "out of memory for the timing model");
    if (ws_gpu_preset_load(preset, &t->p, err)) { free(t); return err->code; }
    t->shape = *shape;
    t->desc = desc;
    t->window = desc->in_order ? 1 : (int)t->p.sched_window;
    if (ws_timing_setup(t, desc->fns[desc->entry].nregs, err)) { ws_timing_free(t); return err->code; }
    *out = t;
    return 0;
}

ws_event_sink ws_timing_sink(ws_timing *t)
{
    ws_event_sink s = { t, on_warp_inst, on_cta_begin, on_cta_end, on_barrier };
    return s;
}

void ws_timing_free(ws_timing *t)
{
    if (!t) return;
    for (int i = 0; i < t->nfns; i++) free(t->fns[i].info);
    for (int i = 0; i < t->nctas; i++) {
        for (int k = 0; k < t->ctas[i].cap_warps; k++) {
            free(t->ctas[i].warps[k].ready);
            free(t->ctas[i].warps[k].freed);
            free(t->ctas[i].warps[k].kind);
        }
        free(t->ctas[i].warps);
    }
    free(t->ctas);
    ws_timing_teardown(t);
    free(t);
}
