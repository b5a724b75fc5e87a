/* sass_exec.c — the SASS executor's warp step and CTA loop under the Volta+ convergence-
 * barrier policy: a warp's lanes form groups, each with its own PC; a divergent branch
 * splits a group, BSYNC/WARPSYNC/BAR join groups again, and nothing else does.
 *
 * Scheduling rule (deterministic): a warp runs one group until it blocks (BSYNC waiting
 * for lanes, WARPSYNC, BAR, an mbarrier try_wait whose phase is incomplete, all its lanes
 * exited) or yields (YIELD, NANOSLEEP; a failed test_wait ends the warp's turn); at a
 * divergent branch the not-taken lanes keep running and the taken lanes wait as a new
 * group. The next group to run is the newest ready one (made or joined last), as a stack
 * would: the sibling of the innermost divergence finishes its convergence region before
 * an outer one resumes, so an outer group never re-arms a barrier register (BSSY) that
 * inner groups still wait on. A BSYNC waits for the barrier's live lanes that have not
 * arrived. YIELD (where ptxas lets a loop's threads give way: CAS retry loops, loops it
 * cannot bound) takes its lanes out of every barrier that holds live lanes outside its
 * group, so no BSYNC waits for them until a BSSY takes them in again (a barrier whose live
 * lanes all yield together is kept); and after a YIELD, the ready groups at the PC of the group the
 * warp goes on with join it. Held to the H100 on random kernels (bench/fuzz_gpu.sh,
 * docs/results/fuzz-gpu-h100.txt: rule chosen on 150 kernels, checked on 150 others), on
 * every seed kernel (tests/gpu/sass_check.sh) and on one warp's CAS loop, whose whole-
 * kernel counts (5.71 lanes a warp-instruction, 51.6 % branch efficiency) it equals; CUPTI's
 * per-PC counts of that loop, taken on instrumented code, show fewer joins (599 loop issues
 * for 5280 lane-attempts; the model 320).
 *
 * CTAs run one after another (ws_sass_run_cta). A cooperative launch, a launch whose CTAs
 * take work from a global counter (a global fetch-and-op atomic whose result a thread reads:
 * a persistent kernel's queue, a tile ticket; run one after another, the first CTA would
 * take every item, bench/unseen/unseen10 persistent_smid), and the rest of a launch once a
 * CTA that can meet others through global atomics (an ATOM/ATOMG whose result a thread
 * reads) has issued WS_WAIT_BUDGET warp-instructions without ending, run up to the GPU's
 * resident CTAs at once on a worker (ws_sass_run_wave), each a turn of its warps per round,
 * so that a CTA spinning on another's atomic (a grid sync, a lock) sees it. A kernel whose
 * threads retry a CAS on global memory (a lock-free update, not a lock) runs its resident
 * CTAs' warps in the order of a clock of memory round trips (ws_sass_run_timed), so that a
 * warp's compare can be overtaken by another warp's swap, as on the GPU. Locks keep the
 * one-after-another order, which the timing model's lock estimate assumes (timing_finish.c,
 * lock_bound). */
#include <assert.h>
#include <stdlib.h>
#include "sim/sass_exec.h"
#include "sim/timing_internal.h" /* ws_addr_table: the words' atomic units */

/* Lanes in a mask, without a libgcc call where the target has no popcount instruction. */
static inline uint64_t popc(uint32_t m)
{
    m = m - ((m >> 1) & 0x55555555u);
    m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
    return (uint64_t)((((m + (m >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24);
}

/* ---------------------------------------------------------------- groups */

int ws_sass_group_add(ws_sass_warp *w, int32_t pc, uint32_t mask, int state)
{
    if (!mask)
        return -1;
    for (int i = 0; i < w->ngroups; i++)
        if (w->groups[i].state == WS_SG_DONE) {
            w->groups[i] = (ws_sass_group){ pc, mask, (uint8_t)state, -1, 0, ++w->seq, 0 };
            return i;
        }
    assert(w->ngroups < WS_WARP); /* live groups hold disjoint, non-empty lane masks */
    w->groups[w->ngroups] = (ws_sass_group){ pc, mask, (uint8_t)state, -1, 0, ++w->seq, 0 };
    return w->ngroups++;
}

/* Whether group g waits in `state` on `bar` (any WARPSYNC; at a BSYNC, in the call the
 * barrier register now serves: see join). */
static int waits_on(const ws_sass_warp *w, const ws_sass_group *g, int state, int bar)
{
    if (g->state != state)
        return 0;
    if (state == WS_SG_WARPSYNC)
        return 1;
    return g->bar == bar && (state != WS_SG_BSYNC || g->depth == w->bdepth[bar]);
}

/* Moves into group g the lanes of every other group in `state` (on barrier `bar` where the
 * state has one) at g's PC, and returns g's lanes. */
static uint32_t absorb(ws_sass_warp *w, int g, int state, int bar)
{
    ws_sass_group *n = &w->groups[g];
    for (int j = 0; j < w->ngroups; j++) {
        ws_sass_group *h = &w->groups[j];
        if (j != g && h->pc == n->pc &&
            (state == WS_SG_READY ? h->state == state : waits_on(w, h, state, bar))) {
            n->mask |= h->mask;
            h->state = WS_SG_DONE;
        }
    }
    return n->mask;
}

/* Releases every group waiting in `state` on `bar`: each goes on after the instruction it
 * waits at, groups at the same one joined into one. (Two BSYNCs of one barrier register at
 * different PCs, ptxas's BSSY B1 in both arms of an if/else, release their lanes each at
 * its own PC: every thread has its own PC.)
 *
 * A BSYNC's release takes only the groups that arrived in the call the register serves
 * now. A callee that shares a barrier register with its caller (a recursion) saves the
 * caller's mask at entry (BMOV.32.CLEAR), uses the register for its own BSSY/BSYNC and
 * restores the mask before its RET (BMOV.32). Lanes that wait at the caller's BSYNC
 * meanwhile keep waiting when the callee's barrier completes, until the restore and the
 * caller's other lanes. Releasing them with the callee's lanes ran them on in the
 * callee's group, through its restore and return, and could leave two barriers waiting
 * for each other (bench/unseen/unseen6 quicksort_local); kept waiting, the H200 equals
 * the model at every PC on tests/gpu/recursion.spec's loop_alu but one (95 of 96; 21
 * before: docs/results/recursion-h200.txt). */
static void join(ws_sass_warp *w, int state, int bar)
{
    for (int i = 0; i < w->ngroups; i++) {
        ws_sass_group *g = &w->groups[i];
        if (!waits_on(w, g, state, bar))
            continue;
        uint32_t mask = absorb(w, i, state, bar);
        w->groups[i] = (ws_sass_group){ g->pc + 1, mask, WS_SG_READY, -1, 0, ++w->seq, 0 };
    }
}

/* The lanes of the groups waiting in `state` on `bar`. */
static uint32_t waiting(const ws_sass_warp *w, int state, int bar)
{
    uint32_t m = 0;
    for (int i = 0; i < w->ngroups; i++)
        if (waits_on(w, &w->groups[i], state, bar))
            m |= w->groups[i].mask;
    return m;
}

void ws_sass_check_sync(ws_sass_warp *w, int b)
{
    uint32_t live = w->valid & ~w->exited;
    /* lanes waiting at a WARPSYNC have left the BSSY regions they branched out of (a loop
       left to a WARPSYNC.ALL before __syncthreads(), without a BREAK): a BSYNC does not
       wait for them, or the two would wait for each other */
    uint32_t at_warpsync = waiting(w, WS_SG_WARPSYNC, -1);
    for (int x = b < 0 ? 0 : b; x < (b < 0 ? WS_SASS_NBARRIERS : b + 1); x++) {
        uint32_t arrived = waiting(w, WS_SG_BSYNC, x);
        if (arrived && !(w->b[x] & live & ~arrived & ~at_warpsync)) {
            join(w, WS_SG_BSYNC, x);
            /* the lanes that passed are no longer pending on it: lanes still spinning that
               reach it later wait only for each other (without this, a lane that left a
               CAS loop early and then waits at an outer BSYNC deadlocked with them) */
            w->b[x] &= ~arrived;
        }
    }
    uint32_t need = 0;
    for (int i = 0; i < w->ngroups; i++)
        if (w->groups[i].state == WS_SG_WARPSYNC)
            need |= w->groups[i].need;
    uint32_t arrived = waiting(w, WS_SG_WARPSYNC, -1);
    if (arrived && !(need & live & ~arrived))
        join(w, WS_SG_WARPSYNC, -1);
}

void ws_sass_exit_lanes(ws_sass_warp *w, uint32_t lanes)
{
    w->exited |= lanes;
    for (int i = 0; i < w->ngroups; i++) {
        ws_sass_group *g = &w->groups[i];
        if (g->state == WS_SG_DONE)
            continue;
        g->mask &= ~lanes;
        if (!g->mask)
            g->state = WS_SG_DONE;
    }
    ws_sass_check_sync(w, -1);
}

/* The newest ready group other than `not` (-1: any), or -1. */
static int pick_other(const ws_sass_warp *w, int not)
{
    int best = -1;
    for (int i = 0; i < w->ngroups; i++)
        if (i != not && w->groups[i].state == WS_SG_READY &&
            (best < 0 || w->groups[i].seq > w->groups[best].seq))
            best = i;
    return best;
}

static int pick(const ws_sass_warp *w)
{
    return pick_other(w, -1);
}

int ws_sass_returns(const ws_sass_inst *in)
{
    if (!ws_sass_op_has(in->op, WS_SOPF_ATOMIC) || ws_sass_op_has(in->op, WS_SOPF_NODST))
        return 0;
    for (int k = 0; k < in->nopnd && in->o[k].kind != WS_SO_MEM; k++)
        if (in->o[k].kind == WS_SO_R)
            return in->o[k].reg != WS_SASS_RZ;
    return 0;
}

/* ---------------------------------------------------------------- one warp-instruction */

static void record_timeline(ws_sass_warp *w, int pc, uint32_t active, uint32_t exec)
{
    ws_timeline *t = w->timeline;
    int cap = w->cta->run->base.opt->timeline_slots;
    if (t->nslots >= cap) {
        t->truncated = 1;
        return;
    }
    t->slots[t->nslots++] = (ws_timeline_slot){ pc, active, exec };
}

static uint32_t guard_mask(const ws_sass_warp *w, const ws_sass_dinst *in)
{
    if (in->guard < 0)
        return WS_FULL_MASK;
    uint32_t m;
    if (in->guard_uniform)
        m = ((w->up >> in->guard) & 1u) ? WS_FULL_MASK : 0;
    else
        m = in->guard < WS_SASS_PT ? w->p[in->guard] : WS_FULL_MASK;
    return in->guard_neg ? ~m : m;
}

/* One target per execution and one divergent per split, as CUPTI counts (derive.c). */
static void count_branch(ws_pcstat *st, uint32_t active, uint32_t taken)
{
    st->targets++;
    st->divergent += taken != 0 && (active & ~taken) != 0;
}

/* Moves the running group past the instruction: to next_pc for the lanes that branched,
 * to pc + 1 for the others (a split when both are non-empty). */
static void advance(ws_sass_warp *w, int gi, int pc, const ws_sass_fx *fx)
{
    ws_sass_group *g = &w->groups[gi];
    if (g->state != WS_SG_READY || fx->block)
        return; /* the handler parked it (BSYNC, WARPSYNC, BAR) or it exited */
    uint32_t taken = fx->taken & g->mask, again = fx->again & g->mask & ~taken;
    /* an indirect jump or call to several targets: the handler gave the lanes of the other
       targets groups of their own */
    g->mask &= ~again;
    uint32_t stay = g->mask & ~taken;
    if (!taken || fx->next_pc < 0) {
        assert(!again);
        g->pc = pc + 1;
        return;
    }
    if (!stay) {
        g->pc = fx->next_pc;
        return;
    }
    g->mask = stay;
    g->pc = pc + 1;
    ws_sass_group_add(w, fx->next_pc, taken, WS_SG_READY);
}

/* The timing model's event for one warp-instruction; the caller fills what its effect adds. */
static void event_init(ws_warp_event *ev, const ws_sass_warp *w, int pc, uint32_t active,
                       uint32_t exec)
{
    memset(ev, 0, sizeof *ev);
    ev->fn = &w->cta->run->event_fn;
    ev->pc = pc;
    ev->cta = w->cta->id;
    ev->warp = (uint32_t)w->id;
    ev->active = active;
    ev->pred_on = exec;
    ev->groups = 1;
}

/* The event for a plain form: no address, no branch, one group. */
static void plain_event(ws_sass_warp *w, int pc, uint32_t active, uint32_t exec)
{
    ws_event_sink *sink = w->cta->run->base.sink;
    ws_warp_event ev;
    event_init(&ev, w, pc, active, exec);
    sink->warp_inst(sink->ctx, &ev);
}

static int step(ws_sass_warp *w)
{
    ws_sass_run *r = w->cta->run;
    const ws_sass_kernel *k = r->k;
    int gi = w->cur;
    ws_sass_group *g = &w->groups[gi];
    int pc = g->pc;
    if (pc < 0 || pc >= k->ninsts)
        return ws_sass_fault(w, NULL, __builtin_ctz(g->mask), 0, WS_ERR_SIM,
                             "control reached instruction %d outside kernel %s (%d instructions)",
                             pc, k->name, k->ninsts);
    const ws_sass_dinst *d = &w->cta->dec[pc];
    const ws_sass_inst *in = d->in;
    uint32_t active = g->mask;
    uint32_t exec = active & guard_mask(w, d);
    uint64_t limit = r->base.opt->max_warp_insts;
    if (limit && w->issued >= limit)
        return ws_sass_fault(w, in, __builtin_ctz(active), 0, WS_ERR_SIM,
                             "warp %d issued more than %llu instructions (the run's limit)",
                             w->id, (unsigned long long)limit);
    w->issued++;
    w->since_switch++;
    ws_pcstat *st = &w->cta->wk->pcstat[pc];
    st->issued++;
    st->active += popc(active);
    st->pred_on += popc(exec);
    if (w->timeline)
        record_timeline(w, pc, active, exec);
    ws_event_sink *sink = r->base.sink;
    if (d->fast) { /* a plain form: one register written, the group goes on to pc + 1 */
        d->fast(w, d, exec);
        if (sink && sink->warp_inst)
            plain_event(w, pc, active, exec);
        g->pc = pc + 1;
        return 0;
    }
    ws_sass_fx fx;
    fx.has_addr = 0;
    fx.space = 0;
    fx.bytes = 0;
    fx.groups = 1;
    fx.passes = 0;
    fx.more_passes = 0;
    fx.quiet_passes = 0;
    fx.replay_threads = 0;
    fx.cas_ok = 0;
    fx.taken = 0;
    fx.again = 0;
    fx.next_pc = -1;
    fx.block = 0;
    fx.yield = 0;
    fx.printf_call = 0;
    fx.printf_chars = 0;
    int rc = d->fn(w, in, exec, &fx);
    if (rc)
        return rc;
    if (fx.passes) {
        /* as the H100's Range Profiler counts an instruction that ran in k passes, one per
           group of lanes (WARPSYNC.EXCLUSIVE over k member masks, bench/sass_probe.sh; an
           indirect branch, call or return whose lanes go to k targets, tests/gpu/
           indirect.spec): max(1, k-1) branch targets, k-1 divergent, and k-1 further
           passes (a return one more), which per-PC counts leave out; lanes whose guard
           was false and fall through to the next instruction are one more way out */
        assert(fx.groups >= 1);
        unsigned splits = fx.groups - 1u + ((d->flags & WS_SOPF_BRANCH) && exec != active);
        if (!fx.quiet_passes) {
            st->targets += splits > 1 ? splits : 1u;
            st->divergent += splits;
        }
        st->replays += fx.groups - 1u + fx.more_passes;
        st->replay_threads += fx.replay_threads;
    } else if (d->flags & WS_SOPF_BRANCH) {
        count_branch(st, active, fx.taken);
    }
    if (in->op == WS_SOP_YIELD && active != (w->valid & ~w->exited))
        st->diverged_yields++;
    int cas = fx.has_addr && (d->flags & WS_SOPF_ATOMIC) &&
              (ws_sass_has(in, WS_SMOD_CAS) || ws_sass_has(in, WS_SMOD_CAST));
    if (cas)
        st->cas_failed += popc(exec & ~fx.cas_ok);
    if (fx.has_addr && exec) { /* the timed order: what came back */
        w->last_cas = cas ? 1 : (d->flags & WS_SOPF_ATOMIC) ? 2 : 0;
        if (w->split_far && cas && w->far)
            w->far_pc = pc;
    }
    if (fx.has_addr && (d->flags & WS_SOPF_ATOMIC) && exec) {
        ws_atomcount *a = &w->cta->wk->atoms[pc];
        uint64_t v[WS_WARP];
        int n = 0;
        WS_LANES(l, exec, {
            int i = n++;
            while (i > 0 && v[i - 1] > fx.addr[l]) { v[i] = v[i - 1]; i--; }
            v[i] = fx.addr[l];
        });
        int distinct = n > 0;
        for (int i = 1; i < n; i++)
            distinct += v[i] != v[i - 1];
        a->warp_execs++;
        a->lanes += (uint64_t)n;
        a->hist[distinct]++;
    }
    if (sink && sink->warp_inst) { /* the timing model */
        ws_warp_event ev;
        event_init(&ev, w, pc, active, exec);
        ev.addr = fx.has_addr ? fx.addr : NULL;
        ev.addr_space = fx.space;
        ev.access_bytes = fx.bytes;
        uint32_t taken = fx.taken & active;
        ev.taken = fx.next_pc < 0 || !taken ? 0 : taken == active ? 2 : 1;
        ev.groups = fx.groups;
        ev.cas_ok = fx.cas_ok;
        ev.printf_call = fx.printf_call;
        ev.printf_chars = fx.printf_chars;
        if (cas && w->split_far && w->far) { /* the timed order: the far lanes' swaps are
                                                 known once they ran (timed_far) */
            memcpy(w->far_ev_addr, fx.addr, sizeof w->far_ev_addr);
            w->far_ev = ev;
            w->far_ev.addr = w->far_ev_addr;
            w->far_event = 1;
        } else {
            sink->warp_inst(sink->ctx, &ev);
        }
        if ((d->flags & WS_SOPF_BARRIER) && sink->barrier)
            sink->barrier(sink->ctx, ev.cta, ev.warp, pc);
    }
    advance(w, gi, pc, &fx);
    int next = w->groups[gi].state == WS_SG_READY && !fx.yield ? gi : -1;
    if (next < 0) {
        next = fx.yield ? pick_other(w, gi) : pick(w); /* YIELD: another group goes first */
        if (next < 0)
            next = pick(w);
    }
    if (fx.yield && next >= 0) /* the hardware regroups a warp's threads by PC where it
                                  yields (docs/results/fuzz-gpu-h100.txt) */
        absorb(w, next, WS_SG_READY, -1);
    if (next != w->cur)
        w->since_switch = 0;
    w->cur = next;
    return 0;
}

/* Whether w's next instruction is a shared-memory atomic whose result the warp reads. Such
 * an atomic begins the warp's next turn, not this one: the CTA's warps run at once on one
 * SM, so each reads the shared word before the others' atomics land, and in a CAS loop
 * (what ptxas makes of a float atomicAdd on shared memory) every warp's attempt made
 * against the same old value fails but one. Run in turns of many instructions, one warp
 * would otherwise read, add and swap alone, and its lanes would almost never fail
 * (bench/unseen/unseen2.spec smem_fadd on an H200: the loop issues 495 times; 470 so, 247
 * without). Global atomics keep the turn: their contenders are mostly other CTAs, which
 * the model runs one after another. */
static int shared_atomic_next(const ws_sass_warp *w)
{
    if (w->cur < 0)
        return 0;
    const ws_sass_inst *in = &w->cta->run->k->insts[w->groups[w->cur].pc];
    return ws_sass_op_has(in->op, WS_SOPF_SHARED) && ws_sass_returns(in);
}

/* Whether w's next instruction reads global memory and waits for what it reads: a load
 * or an atomic whose result a thread uses (the timed order's two halves, ws_sass_run_timed). */
static int global_return_next(const ws_sass_warp *w)
{
    if (w->cur < 0)
        return 0;
    const ws_sass_inst *in = &w->cta->run->k->insts[w->groups[w->cur].pc];
    uint32_t f = ws_sass_ops[in->op].flags;
    if (!(f & WS_SOPF_MEM) || (f & (WS_SOPF_SHARED | WS_SOPF_LOCAL)))
        return 0;
    return (f & WS_SOPF_LOAD) || ws_sass_returns(in);
}

/* Runs up to `quantum` warp-instructions of w: a group's consecutive plain forms back to
 * back here (when no timeline or timing model watches), anything else through step().
 * Returns how many ran, or -1 after a fault. */
static int64_t run_warp(ws_sass_warp *w, uint64_t quantum)
{
    ws_sass_cta *c = w->cta;
    const ws_sass_dinst *dec = c->dec;
    ws_pcstat *pcstat = c->wk->pcstat;
    int ninsts = c->run->k->ninsts;
    const ws_event_sink *sink = c->run->base.sink;
    int inline_plain = !w->timeline && !(sink && sink->warp_inst);
    int timed = c->run->base.timed == 1;
    uint64_t q = 0;
    while (q < quantum && w->cur >= 0) {
        if (inline_plain) {
            ws_sass_group *g = &w->groups[w->cur];
            uint32_t active = g->mask;
            int pc = g->pc, start = pc;
            while (q < quantum && pc >= 0 && pc < ninsts && dec[pc].fast) {
                const ws_sass_dinst *d = &dec[pc];
                uint32_t exec = active & guard_mask(w, d);
                ws_pcstat *st = &pcstat[pc];
                st->issued++;
                st->active += popc(active);
                st->pred_on += popc(exec);
                d->fast(w, d, exec);
                pc++;
                q++;
            }
            w->issued += (uint64_t)(pc - start); /* the clock S2R reads: per instruction */
            w->since_switch += (uint64_t)(pc - start);
            g->pc = pc;
            if (q >= quantum)
                break;
        }
        if (q > 0 && shared_atomic_next(w))
            break;
        int global = timed && global_return_next(w);
        if (global && !w->in_flight) { /* it goes out to memory: other warps go on */
            w->in_flight = 1;
            break;
        }
        w->split_far = global && c->run->base.far_cycles > 0;
        w->far = 0;
        int bad = step(w);
        w->split_far = 0;
        if (bad)
            return -1;
        q++;
        if (global) { /* it executed where the memory is: back after the round trip */
            w->in_flight = 2;
            break;
        }
        if (w->turn_over) { /* a test_wait that failed: let the other warps arrive */
            w->turn_over = 0;
            break;
        }
    }
    return (int64_t)q;
}

/* ---------------------------------------------------------------- CTA */

static int cta_init(ws_sass_worker *wk, ws_sass_cta *c)
{
    ws_sass_run *r = wk->run;
    memset(c, 0, sizeof *c);
    c->run = r;
    c->wk = wk;
    c->nwarps = r->base.nwarps;
    c->shared_bytes = r->base.shared_bytes;
    c->warps = calloc((size_t)c->nwarps, sizeof *c->warps);
    c->shared = calloc(c->shared_bytes ? c->shared_bytes : 1, 1);
    if (!c->warps || !c->shared || ws_sass_decode(r, &c->dec))
        return WS_ERR_NOMEM;
    if (r->base.opt->detect_races &&
        !(c->shadow_shared = calloc((c->shared_bytes / 4 + 1) * 2, sizeof(uint64_t))))
        return WS_ERR_NOMEM;
    for (int i = 0; i < c->nwarps; i++) {
        ws_sass_warp *w = &c->warps[i];
        w->cta = c;
        w->id = i;
        w->nregs = r->nregs;
        w->r = calloc((size_t)r->nregs * WS_WARP, sizeof(uint32_t));
        w->local = calloc((size_t)r->frame_bytes * WS_WARP + 1, 1);
        if (!w->r || !w->local)
            return WS_ERR_NOMEM;
    }
    return 0;
}

int ws_sass_cta_init(ws_sass_worker *wk)
{
    int n = wk->run->base.resident > 0 ? wk->run->base.resident : 1;
    wk->ctas = calloc((size_t)n, sizeof *wk->ctas);
    if (!wk->ctas)
        return WS_ERR_NOMEM;
    wk->nctas = n;
    return cta_init(wk, &wk->ctas[0]);
}

static void cta_free(ws_sass_cta *c)
{
    for (int i = 0; c->warps && i < c->nwarps; i++) {
        free(c->warps[i].r);
        free(c->warps[i].local);
    }
    free(c->warps);
    free(c->shared);
    free(c->dec);
    free(c->shadow_shared);
    memset(c, 0, sizeof *c);
}

void ws_sass_cta_free(ws_sass_worker *wk)
{
    for (int i = 0; wk->ctas && i < wk->nctas; i++)
        if (wk->ctas[i].run)
            cta_free(&wk->ctas[i]);
    free(wk->ctas);
    wk->ctas = NULL;
    wk->nctas = 0;
}

static void warp_start(ws_sass_warp *w, uint64_t cta_linear)
{
    ws_sass_run *r = w->cta->run;
    uint32_t first = (uint32_t)w->id * WS_WARP;
    uint32_t n = r->base.threads_per_cta - first;
    w->valid = n >= WS_WARP ? WS_FULL_MASK : ((1u << n) - 1);
    w->exited = 0;
    memset(w->r, 0, (size_t)w->nregs * WS_WARP * sizeof(uint32_t));
    memset(w->ur, 0, sizeof w->ur);
    memset(w->p, 0, sizeof w->p);
    w->p[WS_SASS_PT] = WS_FULL_MASK;
    w->up = 0x80;
    memset(w->b, 0, sizeof w->b);
    memset(w->bdepth, 0, sizeof w->bdepth);
    w->ngroups = 0;
    w->seq = 0;
    w->cur = ws_sass_group_add(w, 0, w->valid, WS_SG_READY);
    w->issued = 0;
    w->since_switch = 0;
    w->sync_epoch = 0;
    memset(w->held, 0, sizeof w->held);
    w->fenced = 0;
    uint64_t g = cta_linear * (uint64_t)r->base.nwarps + (uint64_t)w->id;
    w->timeline = g < (uint64_t)r->base.ntimelines ? &r->base.timelines[g] : NULL;
    if (w->timeline) {
        w->timeline->cta = (uint32_t)cta_linear;
        w->timeline->warp = w->id;
    }
}

static uint32_t cta_live_threads(const ws_sass_cta *c)
{
    uint32_t n = 0;
    for (int i = 0; i < c->nwarps; i++)
        n += (uint32_t)__builtin_popcount(c->warps[i].valid & ~c->warps[i].exited);
    return n;
}

void ws_sass_cta_sync_point(ws_sass_cta *c)
{
    c->bar_epoch++; /* accesses on either side of it do not race */
    if (c->nwarps) /* a leader's lock is the CTA's from here (race.c) */
        ws_race_lock_share(c->warps[0].held, sizeof c->warps[0], c->nwarps);
    if (c->shadow_shared)
        memset(c->shadow_shared, 0, (c->shared_bytes / 4 + 1) * 2 * sizeof(uint64_t));
}

static void release_bar(ws_sass_cta *c, int id)
{
    ws_sass_cta_sync_point(c);
    for (int i = 0; i < c->nwarps; i++) {
        ws_sass_warp *w = &c->warps[i];
        if (waiting(w, WS_SG_BAR, id))
            join(w, WS_SG_BAR, id);
        if (w->cur < 0)
            w->cur = pick(w);
    }
    c->bar_result[id] = c->last_bar == 1 ? c->red_popc[id]
                      : c->last_bar == 2 ? c->red_and[id] : c->red_or[id];
    c->last_released = id;
    c->bar_arrived[id] = 0;
    c->bar_count[id] = 0;
    c->red_popc[id] = 0;
    c->red_and[id] = 1;
    c->red_or[id] = 0;
}

static int check_bars(ws_sass_cta *c)
{
    int released = 0;
    uint32_t live = cta_live_threads(c);
    for (int id = 0; id < 16; id++) {
        if (!c->bar_arrived[id])
            continue;
        uint32_t need = c->bar_count[id] ? c->bar_count[id] : live;
        if (c->bar_arrived[id] >= need) {
            release_bar(c, id);
            released++;
        }
    }
    return released;
}

/* Ends the wait of group g (WS_SG_MBAR) at its SYNCS.PHASECHK.TRYWAIT with P = `done`. */
static void mbar_resume(ws_sass_warp *w, ws_sass_group *g, int done)
{
    const ws_sass_inst *in = &w->cta->run->k->insts[g->pc];
    uint32_t m = g->mask;
    if (in->o[0].kind == WS_SO_P && in->o[0].reg < WS_SASS_PT)
        w->p[in->o[0].reg] = done ? w->p[in->o[0].reg] | m : w->p[in->o[0].reg] & ~m;
    g->state = WS_SG_READY;
    g->pc++;
    g->seq = ++w->seq;
    if (w->cur < 0)
        w->cur = pick(w);
}

void ws_sass_mbar_wake(ws_sass_cta *c, uint32_t off, int phase)
{
    c->mbar_timeouts = 0;
    for (int i = 0; i < c->nwarps; i++) {
        ws_sass_warp *w = &c->warps[i];
        for (int j = 0; j < w->ngroups; j++) {
            ws_sass_group *g = &w->groups[j];
            if (g->state == WS_SG_MBAR && g->need == off && g->bar != phase)
                mbar_resume(w, g, 1);
        }
    }
}

/* Nothing could run and no barrier completed: try_wait's time limit runs out for every
 * group that waits on an mbarrier (P false; the kernel's loop tries again). After
 * WS_SASS_MBAR_TIMEOUTS such rounds in a row with no phase completed, it is a deadlock. */
#define WS_SASS_MBAR_TIMEOUTS 64
/* (kept out of cta_round: inlined there, it cost the warp loop 3-7 % in bench_sim) */
static __attribute__((noinline, cold)) int mbar_timeout(ws_sass_cta *c)
{
    if (c->mbar_timeouts >= WS_SASS_MBAR_TIMEOUTS)
        return 0;
    int n = 0;
    for (int i = 0; i < c->nwarps; i++) {
        ws_sass_warp *w = &c->warps[i];
        for (int j = 0; j < w->ngroups; j++)
            if (w->groups[j].state == WS_SG_MBAR) {
                mbar_resume(w, &w->groups[j], 0);
                n++;
            }
    }
    c->mbar_timeouts += n > 0;
    return n;
}

static int deadlock(ws_sass_cta *c)
{
    for (int i = 0; i < c->nwarps; i++) {
        ws_sass_warp *w = &c->warps[i];
        for (int j = 0; j < w->ngroups; j++) {
            const ws_sass_group *g = &w->groups[j];
            if (g->state == WS_SG_DONE)
                continue;
            const ws_sass_inst *in = &c->run->k->insts[g->pc];
            if (g->state == WS_SG_MBAR)
                return ws_sass_fault(w, in, __builtin_ctz(g->mask), 0, WS_ERR_SIM,
                                     WS_MBAR_DEADLOCK, g->mask, w->id, g->need);
            if (g->state == WS_SG_BAR)
                return ws_sass_fault(w, in, __builtin_ctz(g->mask), 0, WS_ERR_SIM,
                                     "deadlock: lanes 0x%08x of warp %d wait at a CTA barrier "
                                     "that can never complete (%u of %u live threads at it)",
                                     g->mask, w->id, c->bar_arrived[g->bar],
                                     cta_live_threads(c));
            uint32_t live = w->valid & ~w->exited, others;
            if (g->state == WS_SG_BSYNC && g->bar >= 0 && g->bar < WS_SASS_NBARRIERS)
                others = w->b[g->bar] & live & ~g->mask;
            else
                others = g->need & live & ~g->mask;
            return ws_sass_fault(w, in, __builtin_ctz(g->mask), 0, WS_ERR_SIM,
                                 "deadlock: lanes 0x%08x of warp %d wait at %s that can "
                                 "never complete (for lanes 0x%08x)", g->mask, w->id,
                                 g->state == WS_SG_BSYNC ? "a convergence barrier (BSYNC)"
                                                         : "WARPSYNC", others);
        }
    }
    return WS_ERR_SIM;
}

static int warp_done(const ws_sass_warp *w)
{
    return (w->valid & ~w->exited) == 0;
}

static void cta_start(ws_sass_cta *c, uint64_t linear)
{
    ws_sass_run *r = c->run;
    c->id = (uint32_t)linear;
    c->ctaid[0] = (uint32_t)(linear % r->base.grid[0]);
    c->ctaid[1] = (uint32_t)((linear / r->base.grid[0]) % r->base.grid[1]);
    c->ctaid[2] = (uint32_t)(linear / ((uint64_t)r->base.grid[0] * r->base.grid[1]));
    memset(c->bar_arrived, 0, sizeof c->bar_arrived);
    memset(c->bar_count, 0, sizeof c->bar_count);
    for (int id = 0; id < 16; id++) {
        c->red_popc[id] = c->red_or[id] = 0;
        c->red_and[id] = 1;
    }
    memset(c->shared, 0, c->shared_bytes);
    ws_sass_cta_sync_point(c);
    c->bar_epoch = 0;
    c->mbar_timeouts = 0;
    c->atomic_seen = 0;
    memset(&c->mbar, 0, sizeof c->mbar);
    for (int i = 0; i < c->nwarps; i++)
        warp_start(&c->warps[i], linear);
    ws_event_sink *sink = r->base.sink;
    if (sink && sink->cta_begin)
        sink->cta_begin(sink->ctx, c->id, c->nwarps);
}

static void cta_finish(ws_sass_cta *c)
{
    ws_event_sink *sink = c->run->base.sink;
    if (sink && sink->cta_end)
        sink->cta_end(sink->ctx, c->id);
}

/* One turn for every warp of c: 1 when the CTA ended, 0 when it goes on, an error code
 * (a fault, a deadlock, the run stopped) otherwise. */
static int cta_round(ws_sass_cta *c)
{
    ws_sass_run *r = c->run;
    int ran = 0, done = 0;
    uint64_t ran_mask = 0;
    for (int i = 0; i < c->nwarps; i++) {
        ws_sass_warp *w = &c->warps[i];
        int64_t n = run_warp(w, r->quantum);
        if (n < 0)
            return c->wk->base.err.code ? c->wk->base.err.code : WS_ERR_SIM;
        ran |= n > 0;
        ran_mask |= (uint64_t)(n > 0) << i;
        done += warp_done(w);
    }
    if (__builtin_expect(ws_mbar_round(&c->mbar, ran_mask), 0) && done < c->nwarps) {
        const ws_mbar_watch *m = &c->mbar;
        return ws_sass_fault(&c->warps[m->warp], m->in, __builtin_ctz(m->lanes), 0, WS_ERR_SIM,
                             WS_MBAR_DEADLOCK, m->lanes, m->warp, m->offset);
    }
    if (done == c->nwarps)
        return 1;
    if (check_bars(c) == 0 && !ran && !mbar_timeout(c))
        return deadlock(c);
    if (ws_run_stopped(&r->base, c->id))
        return WS_ERR_SIM;
    return 0;
}

/* Warp-instructions the CTA's warps have issued since it began. */
static uint64_t cta_issued(const ws_sass_cta *c)
{
    uint64_t n = 0;
    for (int i = 0; i < c->nwarps; i++)
        n += c->warps[i].issued;
    return n;
}

int ws_sass_run_cta(ws_sass_worker *wk, uint64_t linear)
{
    ws_run *b = &wk->run->base;
    ws_sass_cta *c = &wk->ctas[0];
    const int may_wait = b->meet && b->resident > 1;
    cta_start(c, linear);
    int rc;
    while ((rc = cta_round(c)) == 0)
        if (__builtin_expect(may_wait, 0) && cta_issued(c) > WS_WAIT_BUDGET)
            return WS_CTA_WAITS;
    if (rc != 1)
        return rc;
    cta_finish(c);
    return 0;
}

/* The SASS model's slots for ws_wave_run: wk->ctas, set up when first used. */
typedef struct sass_wave {
    ws_sass_worker *wk;
    void (*done)(ws_sass_worker *wk);
} sass_wave;

static int sass_begin(void *ctx, int s, uint64_t linear)
{
    ws_sass_worker *wk = ((sass_wave *)ctx)->wk;
    if (!wk->ctas[s].run && cta_init(wk, &wk->ctas[s]))
        return ws_error_set(&wk->base.err, WS_ERR_NOMEM, "out of memory for %d resident CTAs",
                            wk->nctas);
    cta_start(&wk->ctas[s], linear);
    return 0;
}

static int sass_round(void *ctx, int s)
{
    return cta_round(&((sass_wave *)ctx)->wk->ctas[s]);
}

static void sass_end(void *ctx, int s)
{
    cta_finish(&((sass_wave *)ctx)->wk->ctas[s]);
}

static void sass_done(void *ctx)
{
    sass_wave *x = ctx;
    x->done(x->wk);
}

/* CTAs that wait on each other through global atomics (a grid barrier made by hand, a
 * cooperative grid sync, a lock) run as the GPU runs them, many at once (ws_wave_run). */
int ws_sass_run_wave(ws_sass_worker *wk, int adopt, void (*done)(ws_sass_worker *wk))
{
    static const ws_wave_ops ops = { sass_begin, sass_round, sass_end, sass_done };
    sass_wave x = { wk, done };
    int rc = ws_wave_run(&wk->run->base, wk->nctas, adopt, &ops, &x);
    if (rc == WS_ERR_NOMEM && !wk->base.err.code)
        rc = ws_error_set(&wk->base.err, WS_ERR_NOMEM, "out of memory for resident CTAs");
    return rc;
}

/* ---------------------------------------------------------------- timed order */

/* The resident warps in a binary heap by clock (ties: CTA, then warp): the warp whose
 * next instruction issues first runs next. */
typedef struct timed_heap {
    ws_sass_warp **w;
    int n, cap;
} timed_heap;

static int timed_before(const ws_sass_warp *a, const ws_sass_warp *b)
{
    if (a->clock != b->clock)
        return a->clock < b->clock;
    return a->cta->id != b->cta->id ? a->cta->id < b->cta->id : a->id < b->id;
}

static void timed_push(timed_heap *h, ws_sass_warp *w)
{
    assert(h->n < h->cap); /* every resident warp has one place */
    int i = h->n++;
    while (i > 0 && timed_before(w, h->w[(i - 1) / 2])) {
        h->w[i] = h->w[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->w[i] = w;
}

static ws_sass_warp *timed_pop(timed_heap *h)
{
    ws_sass_warp *top = h->w[0], *last = h->w[--h->n];
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && timed_before(h->w[c + 1], h->w[c]))
            c++;
        if (!timed_before(h->w[c], last))
            break;
        h->w[i] = h->w[c];
        i = c;
    }
    if (h->n > 0)
        h->w[i] = last;
    return top;
}

/* Starts CTA `linear` in slot s at cycle `now`: its warps join the heap. */
static int timed_begin(ws_sass_worker *wk, timed_heap *h, int s, uint64_t linear, double now)
{
    ws_sass_cta *c = &wk->ctas[s];
    if (!c->run && cta_init(wk, c))
        return ws_error_set(&wk->base.err, WS_ERR_NOMEM, "out of memory for %d resident CTAs",
                            wk->nctas);
    cta_start(c, linear);
    for (int i = 0; i < c->nwarps; i++) {
        ws_sass_warp *w = &c->warps[i];
        w->clock = now;
        w->in_flight = 0;
        w->reserved = 0;
        w->parked = 0;
        if (!warp_done(w))
            timed_push(h, w);
    }
    return 0;
}

/* Puts back on the clock, at `now`, the warps of c that a barrier let go. */
static void timed_unpark(timed_heap *h, ws_sass_cta *c, double now)
{
    for (int i = 0; i < c->nwarps; i++) {
        ws_sass_warp *w = &c->warps[i];
        if (w->parked && w->cur >= 0) {
            w->parked = 0;
            w->clock = now;
            timed_push(h, w);
        }
    }
}

/* Books `lanes` CAS lanes' turn at `word`'s unit for a request that reached it at `at`: the
 * turn starts when the unit is free (its earlier requests, in the order they came) and
 * lasts atom.cas_lane_cycles a lane. The CAS runs, its compare and swap, at the turn's
 * start: a load of the word that comes meanwhile still reads the value before it. Returns
 * the start; *end the end (the unit's table full: no queue, both at `at`). */
static double book_turn(const ws_run *b, ws_addr_table *units, uint64_t word, int lanes,
                        double at, double *end)
{
    ws_addr_entry *u = ws_addr_table_at(units, word);
    double start = u && u->service > at ? u->service : at;
    *end = start + lanes * b->cas_lane_cycles;
    if (u)
        u->service = *end; /* the word's unit is busy until then */
    return start;
}

/* The lanes of w's next instruction (a global access the timed order sends out), their
 * addresses in addr and, where the preset has L2 partitions, those on far lines in *far. */
static uint32_t access_lanes(const ws_run *b, ws_sass_warp *w, const ws_sass_dinst *d,
                             uint64_t *addr, uint32_t *far)
{
    uint32_t exec = w->groups[w->cur].mask & guard_mask(w, d);
    ws_sass_mem_lanes(w, d->in, exec, addr);
    *far = b->far_cycles > 0 ? ws_sass_far_lanes(w, exec, addr) : 0;
    return exec;
}

/* w's next instruction reached memory at `now`: where it is a CAS, books the turn of its
 * lanes at their word (of the near ones, where the partitions part them: ws_sass_far_lanes)
 * and returns when that turn starts; otherwise `now`. */
static double book_arrival(const ws_run *b, ws_sass_warp *w, ws_addr_table *units, double now)
{
    const ws_sass_dinst *d = &w->cta->dec[w->groups[w->cur].pc];
    if (!ws_sass_has(d->in, WS_SMOD_CAS) || !ws_sass_op_has(d->in->op, WS_SOPF_ATOMIC))
        return now;
    uint64_t addr[WS_WARP];
    uint32_t far, exec = access_lanes(b, w, d, addr, &far);
    if (!exec)
        return now;
    uint32_t lanes = far == exec ? exec : exec & ~far; /* as the handler parts them */
    w->reserved = 1;
    w->arrived_at = now;
    return book_turn(b, units, addr[__builtin_ctz(lanes)], popc(lanes), now, &w->done_at);
}

/* After w ran n instructions: its clock goes on by one a cycle, and by half a round trip
 * each way of a global access, whose atomic waits its turn at the word's unit. A line's
 * round trip is mem.l2_far_cycles longer from the half of the SMs it is far from: an access
 * whose lanes are all near reaches memory (and comes back) a quarter of that sooner than
 * the mean round trip, one all far a quarter later; a CAS's near lanes go first and its far
 * ones follow half the difference on (ws_sass_far_lanes, timed_far). */
static void timed_advance(const ws_run *b, ws_sass_warp *w, int64_t n, ws_addr_table *units)
{
    w->clock += (double)n;
    if (w->in_flight == 0)
        return;
    double q = 0.25 * b->far_cycles;
    if (w->in_flight == 1) { /* on its way: the round trip's first half */
        assert(w->cur >= 0); /* run_warp stopped it at the access */
        const ws_sass_dinst *d = &w->cta->dec[w->groups[w->cur].pc];
        int atomic = ws_sass_op_has(d->in->op, WS_SOPF_ATOMIC);
        w->side = 0;
        if (q > 0) {
            uint64_t addr[WS_WARP];
            uint32_t far, exec = access_lanes(b, w, d, addr, &far);
            int cas = ws_sass_has(d->in, WS_SMOD_CAS);
            if (exec && (far == 0 || (cas && far != exec))) /* near, or a CAS with near lanes */
                w->side = -1;
            else if (exec && far == exec)
                w->side = 1;
        }
        w->clock += 0.5 * (atomic ? b->atom_cycles : b->l2_cycles) + w->side * q;
        return;
    }
    double half = 0.5 * (w->last_cas ? b->atom_cycles : b->l2_cycles);
    if (w->last_cas == 1 && w->reserved) { /* it ran at the start of its booked turn */
        w->reserved = 0;
        if (w->far) { /* the far lanes reach theirs half the partitions' difference after
                         the near ones reached theirs */
            w->near_done = w->done_at + half - q;
            double far_at = w->arrived_at + 2 * q;
            w->clock = far_at > w->clock ? far_at : w->clock;
            w->in_flight = 3;
            return;
        }
        w->clock = w->done_at;
    } else if (w->last_cas == 1) { /* no lanes, or no room to book: as it came */
        w->far = 0;
    }
    w->clock += half + w->side * q;
    w->in_flight = 0;
}

uint32_t ws_sass_far_lanes(const ws_sass_warp *w, uint32_t exec, const uint64_t *addr)
{
    const ws_run *b = &w->cta->run->base;
    uint32_t half = ws_run_smid(b, w->cta->id) & 1u, far = 0;
    WS_LANES(l, exec, {
        if ((uint32_t)__builtin_parityll(addr[l] >> 7) != half)
            far |= 1u << l;
    });
    return far;
}

/* The far lanes of w's last CAS reach their word (ws_sass_far_lanes): they run there now,
 * through the instruction's own handler, wait their turn at the word's unit, and the warp
 * goes on once both parts' answers are back. The instruction was counted when it issued;
 * the lanes that swap now were counted failed then, and are taken off. */
static int timed_far(const ws_run *b, ws_sass_warp *w, ws_addr_table *units)
{
    assert(w->in_flight == 3 && w->far && w->far_in);
    if (w->reserved != 2) { /* they reach their word now: book their turn there */
        double start = book_turn(b, units, w->far_word, popc(w->far), w->clock, &w->done_at);
        w->reserved = 2;
        if (start > w->clock) { /* they run when it starts */
            w->clock = start;
            return 1;
        }
    }
    w->reserved = 0;
    uint32_t lanes = w->far;
    const ws_sass_dinst *d = &w->cta->dec[w->far_pc];
    assert(d->in == w->far_in && d->fn);
    ws_sass_fx fx;
    memset(&fx, 0, sizeof fx);
    fx.groups = 1;
    fx.next_pc = -1;
    w->far = 0;
    if (d->fn(w, d->in, lanes, &fx))
        return -1;
    w->cta->wk->pcstat[w->far_pc].cas_failed -= popc(lanes & fx.cas_ok);
    if (w->far_event) { /* the instruction's event, with every lane's outcome */
        const ws_event_sink *sink = w->cta->run->base.sink;
        w->far_ev.cas_ok |= fx.cas_ok & lanes;
        w->far_event = 0;
        sink->warp_inst(sink->ctx, &w->far_ev);
    }
    double back = w->done_at + 0.5 * b->atom_cycles + 0.25 * b->far_cycles;
    w->clock = back > w->near_done ? back : w->near_done;
    w->in_flight = 0;
    return 0;
}

/* CAS retry loops on global words, many CTAs at once: the resident CTAs' warps take turns
 * by a clock. A warp runs until its next global load or returning atomic, which reaches
 * the memory half a round trip later (mem.l2_latency, atom.l2_latency) and executes there
 * in the order the warps' requests arrive; a CAS then waits its turn at the word's unit,
 * atom.cas_lane_cycles a lane (measured: bench/l2probe cas_lanes), and its result comes
 * back after the other half. So a warp whose compare value is older than another warp's
 * success fails in all its lanes, as on the GPU, where many warps on one word keep their
 * lanes together in the loop (docs/results/cas-loops-h100.txt); one after another, each
 * attempt of a warp wins for one lane and the warp comes apart. One worker runs them all:
 * the order is the clock's.
 * Each success then costs an attempt of every warp on the word, as on the GPU, so a large
 * launch (histogram double_cas at the seed's 10^7 items on one bin: minutes on an H100)
 * would take hours: past WS_TIMED_BUDGET warp-instructions the resident CTAs finish one
 * after another and the rest of the launch runs so too (ws_run.timed = 2, a caveat says so).
 * Returns 0 with CTAs possibly left for the one-after-another loop, or an error code. */
int ws_sass_run_timed(ws_sass_worker *wk, void (*done)(ws_sass_worker *wk))
{
    ws_run *b = &wk->run->base;
    int slots = wk->nctas, rc = 0, nlive = 0;
    timed_heap h = { calloc((size_t)slots * (size_t)b->nwarps + 1, sizeof(ws_sass_warp *)), 0,
                     slots * (int)b->nwarps };
    ws_addr_table units = { 0, 0, NULL, 0 };
    uint8_t *live = calloc((size_t)slots, 1);
    if (!h.w || !live || ws_addr_table_init(&units, 1 << 12)) {
        free(h.w);
        free(live);
        ws_addr_table_free(&units);
        return ws_error_set(&wk->base.err, WS_ERR_NOMEM, "out of memory for resident CTAs");
    }
    for (int s = 0; s < slots && !rc; s++) {
        uint64_t i = __atomic_fetch_add(&b->next_cta, 1, __ATOMIC_RELAXED);
        if (i >= b->nctas)
            break;
        rc = timed_begin(wk, &h, s, i, 0);
        live[s] = !rc;
        nlive += !rc;
    }
    __atomic_add_fetch(&b->ctas_at_once, (uint64_t)nlive, __ATOMIC_RELAXED);
    uint64_t steps = 0, issued = 0;
    while (!rc && nlive) {
        if (h.n == 0) { /* every live warp waits on its CTA: a barrier or an mbarrier */
            for (int s = 0; s < slots; s++)
                if (live[s] && check_bars(&wk->ctas[s]))
                    timed_unpark(&h, &wk->ctas[s], 0);
            for (int s = 0; s < slots && h.n == 0; s++)
                if (live[s] && mbar_timeout(&wk->ctas[s]))
                    timed_unpark(&h, &wk->ctas[s], 0);
            for (int s = 0; s < slots && h.n == 0 && !rc; s++)
                if (live[s])
                    rc = deadlock(&wk->ctas[s]);
            continue;
        }
        ws_sass_warp *w = timed_pop(&h);
        ws_sass_cta *c = w->cta;
        double now = w->clock;
        if (w->in_flight == 3) { /* a CAS's far lanes reach their words */
            if (timed_far(b, w, &units) < 0) {
                rc = wk->base.err.code ? wk->base.err.code : WS_ERR_SIM;
                break;
            }
            timed_push(&h, w);
            continue;
        }
        if (w->in_flight == 1 && !w->reserved && w->cur >= 0) { /* it reaches memory now */
            double start = book_arrival(b, w, &units, now);
            if (start > now) { /* a CAS waits for its turn at the word, then runs */
                w->clock = start;
                timed_push(&h, w);
                continue;
            }
        }
        int64_t n = run_warp(w, WS_WAIT_BUDGET);
        if (n < 0) {
            rc = wk->base.err.code ? wk->base.err.code : WS_ERR_SIM;
            break;
        }
        issued += (uint64_t)n;
        timed_advance(b, w, n, &units);
        if (w->cur >= 0) {
            timed_push(&h, w);
        } else if (!warp_done(w)) {
            w->parked = 1;
            if (check_bars(c))
                timed_unpark(&h, c, w->clock);
        } else {
            int all = 1;
            for (int i = 0; i < c->nwarps && all; i++)
                all = warp_done(&c->warps[i]);
            if (!all) {
                if (check_bars(c)) /* an exit can complete a barrier the others wait at */
                    timed_unpark(&h, c, w->clock);
            } else {
                int s = (int)(c - wk->ctas);
                cta_finish(c);
                done(wk);
                uint64_t i = __atomic_fetch_add(&b->next_cta, 1, __ATOMIC_RELAXED);
                if (i < b->nctas) {
                    rc = timed_begin(wk, &h, s, i, now);
                } else {
                    live[s] = 0;
                    nlive--;
                }
            }
        }
        if (!rc && (++steps & 1023) == 0 && ws_run_stopped(b, UINT64_MAX))
            rc = WS_ERR_SIM;
        if (!rc && issued > WS_TIMED_BUDGET && b->timed == 1) {
            b->timed = 2; /* the rest one after another: the resident CTAs first, in turn */
            for (int s = 0; s < slots && !rc; s++) /* CASes whose far lanes are on their way */
                for (int i = 0; live[s] && i < wk->ctas[s].nwarps && !rc; i++)
                    if (wk->ctas[s].warps[i].in_flight == 3) {
                        ws_sass_warp *fw = &wk->ctas[s].warps[i];
                        int r = timed_far(b, fw, &units);
                        if (r > 0) /* booked a later turn: the rest runs in turn now anyway */
                            r = timed_far(b, fw, &units);
                        if (r < 0)
                            rc = wk->base.err.code ? wk->base.err.code : WS_ERR_SIM;
                    }
            for (int s = 0; s < slots && !rc; s++) {
                if (!live[s])
                    continue;
                ws_sass_cta *c2 = &wk->ctas[s];
                while ((rc = cta_round(c2)) == 0)
                    ;
                if (rc == 1) {
                    rc = 0;
                    cta_finish(c2);
                    done(wk);
                }
                live[s] = 0;
            }
            break;
        }
    }
    free(h.w);
    ws_addr_table_free(&units);
    free(live);
    return rc;
}
