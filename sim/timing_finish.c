/* timing_finish.c — from finished CTAs to a predicted time: CTAs resident per SM from
 * occupancy, CTAs on SMs in waves, per-SM bounds (latency chains, issue, LSU), whole-GPU
 * bounds (L2, DRAM, atomic serialization per address and atomic throughput), and the
 * sim__* metrics that explain which bound set the time. */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sim/timing_model.h"

#define WS_TOUCH_LOG2_BITS 25   /* 4 MB bit set of touched sectors */
#define WS_ATOM_TABLE_CAP (1 << 16)

int ws_timing_setup(ws_timing *t, int entry_regs, ws_error *err)
{
    const ws_launch_shape *s = &t->shape;
    uint64_t threads = (uint64_t)s->block[0] * s->block[1] * s->block[2];
    if (threads == 0 || (uint64_t)s->grid[0] * s->grid[1] * s->grid[2] == 0)
        return ws_error_set(err, WS_ERR_SIM, "timing model: empty grid or block");
    ws_error oerr;
    ws_error_clear(&oerr);
    if (ws_occupancy_calc(t->p.cc, (int)(threads > 1 << 20 ? 1 << 20 : threads),
                          s->regs_per_thread, (int)s->smem_bytes, &t->occ, &oerr))
        return ws_error_set(err, WS_ERR_SIM, "timing model (%s): %s", t->p.name, oerr.msg);
    if (t->occ.active_blocks < 1)
        return ws_error_set(err, WS_ERR_SIM,
                            "timing model (%s): a CTA of %llu threads, %d registers/thread and "
                            "%u bytes of shared memory does not fit on one SM (%s limit)",
                            t->p.name, (unsigned long long)threads, s->regs_per_thread,
                            s->smem_bytes, ws_occupancy_limit_name(t->occ.binding));
    t->nsms = (int)t->p.sms;
    t->sms = calloc((size_t)t->nsms, sizeof *t->sms);
    t->nslots = t->nsms * t->occ.active_blocks;
    t->slots = calloc((size_t)t->nslots, sizeof *t->slots);
    for (int i = 0; t->slots && i < t->nslots; i++) t->slots[i].id = i; /* a sorted heap */
    if (!t->sms || !t->slots || ws_touch_init(&t->touched, WS_TOUCH_LOG2_BITS) ||
        ws_addr_table_init(&t->atom_addrs, WS_ATOM_TABLE_CAP) ||
        ws_addr_table_init(&t->atom_lines, WS_ATOM_TABLE_CAP))
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory for the timing model");
    t->max_regs = entry_regs;
    return 0;
}

void ws_timing_teardown(ws_timing *t)
{
    free(t->sms);
    free(t->slots);
    ws_touch_free(&t->touched);
    ws_addr_table_free(&t->atom_addrs);
    ws_addr_table_free(&t->atom_lines);
}

static int slot_before(const ws_cta_slot *a, const ws_cta_slot *b)
{
    return a->end < b->end || (a->end == b->end && a->id < b->id);
}

/* The heap's top slot took a CTA until `end`: sift it down. */
static void slot_requeue(ws_cta_slot *h, int n, double end)
{
    h[0].end = end;
    for (int i = 0;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && slot_before(&h[l], &h[m])) m = l;
        if (r < n && slot_before(&h[r], &h[m])) m = r;
        if (m == i) return;
        ws_cta_slot x = h[i];
        h[i] = h[m];
        h[m] = x;
        i = m;
    }
}

/* The block scheduler hands each CTA to the CTA slot that frees first (the first wave
 * round-robin over the SMs, later ones wherever a CTA retired: the tail of a launch of
 * uneven CTAs is where the last ones land). An H200 does so (bench/placement,
 * docs/results/placement-h200.txt): 8, 66 and 132 CTAs on as many SMs, 264 and 528 CTAs
 * exactly 2 and 4 on every SM. An SM's dispatcher starts one CTA every
 * cta_launch_cycles; a CTA holds its slot for its critical path. */
void ws_timing_fold_cta(ws_timing *t, uint32_t cta, const ws_cta_sum *s)
{
    (void)cta;
    ws_cta_slot *top = &t->slots[0];
    ws_sm_timing *sm = &t->sms[top->id % t->nsms];
    double start = fmax(top->end, sm->dispatch);
    sm->dispatch = start + t->p.cta_launch_cycles;
    double end = sm->dispatch + s->critical_path;
    if (end > sm->end) sm->end = end;
    slot_requeue(t->slots, t->nslots, end);
    sm->ctas++;
    sm->sum_cp += s->critical_path;
    if (s->critical_path > sm->max_cp) sm->max_cp = s->critical_path;
    sm->slots += s->slots;
    for (int p = 0; p < WS_LAT__COUNT; p++) sm->pipe[p] += s->pipe[p];
    if (s->max_sched_cycles > sm->max_sched_cycles) sm->max_sched_cycles = s->max_sched_cycles;
    sm->lsu += s->lsu_wavefronts;
    ws_cta_sum *tot = &t->total;
    tot->slots += s->slots;
    tot->lsu_wavefronts += s->lsu_wavefronts;
    tot->l2_bytes += s->l2_bytes;
    tot->l1_load_sectors += s->l1_load_sectors;
    tot->l1_load_hits += s->l1_load_hits;
    tot->l2_write_requests += s->l2_write_requests;
    tot->l2_write_beats += s->l2_write_beats;
    tot->dram_bytes += s->dram_bytes;
    tot->printf_calls += s->printf_calls;
    tot->printf_lanes += s->printf_lanes;
    tot->insts += s->insts;
    for (int k = 0; k < WS_STALL__COUNT; k++) tot->stall[k] += s->stall[k];
    if (s->critical_path > tot->critical_path) tot->critical_path = s->critical_path;
    tot->warps = s->warps;
    t->ctas_done++;
}

/* The bounds of the launch, in cycles. */
typedef struct ws_bounds {
    double latency, issue, lsu;           /* of the slowest SM */
    double sm;                            /* slowest SM, all included */
    double sm_complete;                   /* the same were its bounds to overlap completely */
    double l2, dram, atom_addr, atom_tp;  /* whole GPU */
    double atom_cas;                      /* CAS successes on the most contended address */
    double cas_contenders, cas_retrying;  /* its contenders; the share retrying per success */
    double lock_acquisitions;             /* of spin locks */
    double printf;                        /* whole GPU: device printf calls, one at a time */
    double busy_sm_cycles, warp_cycles;   /* for achieved occupancy */
    int sms_used;
    double max_sm_waves;
} ws_bounds;

/* The bounds of a launch overlap, but not completely: where a warp's chain and the work of
 * the warps beside it on a pipe take about as long, each waits for the other part of the
 * time, and the launch takes longer than the larger of the two (bench/calib op_sfu_mul,
 * op_mulhi and op_urem at 4 and 8 warps a scheduler: up to 1.15x; docs/results/
 * pipes-h200.txt). The bounds join as a norm, (sum of x_i^k)^(1/k) with k = bound.overlap:
 * the largest bound where the others are much smaller, 2^(1/k) times it where two are
 * equal; k = 0 takes the largest alone (complete overlap). */
static double overlap(const double *x, int n, double k)
{
    double m = 0;
    for (int i = 0; i < n; i++) {
        assert(x[i] >= 0); /* cycles */
        if (x[i] > m) m = x[i];
    }
    if (k <= 0 || m <= 0) return m;
    double s = 0;
    for (int i = 0; i < n; i++) s += pow(x[i] / m, k);
    return m * pow(s, 1.0 / k);
}

static void sm_bounds(const ws_timing *t, ws_bounds *b)
{
    const ws_gpu_preset *p = &t->p;
    double R = t->occ.active_blocks, S = p->schedulers_per_sm, ipc = p->issue_per_scheduler;
    double wpc = t->total.warps;
    for (int i = 0; i < t->nsms; i++) {
        const ws_sm_timing *sm = &t->sms[i];
        if (!sm->ctas) continue;
        double waves = ceil(sm->ctas / R);
        double lat = sm->end; /* its CTAs' chains in their slots, dispatch included */
        /* dispatch (one instruction a cycle a scheduler) or the busiest pipe, whichever is
         * longer: a pipe that takes several cycles a warp-instruction (POPC, MUFU) holds
         * only itself, the scheduler dispatches to other pipes meanwhile */
        double issue = fmax(sm->slots / (S * ipc), sm->max_sched_cycles);
        for (int p = 0; p < WS_LAT__COUNT; p++) issue = fmax(issue, sm->pipe[p] / S);
        double lsu = sm->lsu / p->lsu_wavefronts_per_cycle;
        /* A warp's chain waits only for the other warps of its scheduler: a warp alone
         * waits for nobody (its chain holds its own issue), so the throughput bounds join
         * the chain with the share of them that is the others' work. */
        double warps = fmax(1.0, fmin(sm->ctas, R) * wpc / S);
        double others = 1.0 - 1.0 / warps;
        double thru = fmax(issue, lsu) + p->cta_launch_cycles;
        double parts[3] = { lat, others * issue, others * lsu };
        double total = fmax(thru, overlap(parts, 3, p->bound_overlap));
        if (fmax(lat, thru) > b->sm_complete) b->sm_complete = fmax(lat, thru);
        b->sms_used++;
        b->busy_sm_cycles += total;
        b->warp_cycles += (sm->ctas / waves) * wpc * total;
        if (waves > b->max_sm_waves) b->max_sm_waves = waves;
        if (total > b->sm) {
            b->sm = total;
            b->latency = lat;
            b->issue = issue;
            b->lsu = lsu;
        }
    }
}

/* Cycles a success on a word costs with `contenders` threads after it: measured at 32 (one
 * warp: a success a round trip), 256, 1024 and 4096 threads (bench/calib cas_loop), and
 * between them by the logarithm of the contenders. Fewer than a warp cost as one warp;
 * past 4096 the attempts bound it (cas_bound). */
static double cas_contended(const ws_gpu_preset *p, double contenders)
{
    const double at[4] = { 32, 256, 1024, 4096 };
    const double cost[4] = { p->atom_cas_contended_cycles, p->atom_cas_contended_256,
                             p->atom_cas_contended_1024, p->atom_cas_contended_4096 };
    if (contenders <= at[0]) return cost[0];
    for (int i = 1; i < 4; i++)
        if (contenders <= at[i]) {
            double f = log2(contenders / at[i - 1]) / log2(at[i] / at[i - 1]);
            return cost[i - 1] + f * (cost[i] - cost[i - 1]);
        }
    return cost[3];
}

/* Spin locks: a word that CASes take (atomicCAS(lock, 0, 1)) and exchanges give back
 * (atomicExch(lock, 0), or a plain store by the lane that took it) at least half as often.
 * A CAS increment loop's next success can come from any contender that saw the last one; a
 * lock's cannot come before its holder's release, and that release queues at the word's unit
 * behind the attempts of every thread spinning on it. So each acquisition costs atom.lock_hold_cycles + atom.lock_contender_cycles x the
 * word's contenders, one after another (bench/calib spin_lock_fence on an H200: 1861 cycles
 * an acquisition at 512 threads, 47,800 at 16,896, 207,000 at 67,584: linear in the
 * spinners); where no fence comes between the swapping CAS and the release, the
 * atom.lock_nofence_* keys (spin_lock: 1235, 32,100 and 137,000).
 * Words of one sector are served in the same passes, so their hand-offs overlap; sectors of
 * one L2 atomic unit queue one after another (spin_lock_fence on 4 words: 2 sectors a unit).
 * Returns the busiest unit's cycles; adds the acquisitions to *acquired. */
static double lock_bound(const ws_timing *t, double resident, double density, double *acquired)
{
    const ws_gpu_preset *p = &t->p;
    ws_addr_table sectors, units;
    if (ws_addr_table_init(&sectors, 1 << 12)) return 0;
    if (ws_addr_table_init(&units, 1 << 12)) { ws_addr_table_free(&sectors); return 0; }
    for (int i = 0; i < t->atom_addrs.cap; i++) {
        const ws_addr_entry *e = &t->atom_addrs.e[i];
        if (e->addr == UINT64_MAX || e->cas <= 0 || e->exch < 0.5 * e->cas) continue;
        *acquired += e->cas;
        double tries = e->ops - e->exch; /* the word's CAS lanes */
        double contenders = fmin(resident, resident * density * tries / t->cas_lane_ops);
        /* a release after a fence waits for the holder's writes first (spin_lock_fence);
         * without one (spin_lock) the hand-off is cheaper: by the share of each */
        double fenced = fmin(1.0, e->exch_fenced / e->exch);
        double each = fenced * (p->atom_lock_hold_cycles + p->atom_lock_contender_cycles * contenders) +
                      (1 - fenced) * (p->atom_lock_nofence_hold_cycles +
                                      p->atom_lock_nofence_contender_cycles * contenders);
        ws_addr_entry *s = ws_addr_table_at(&sectors, e->addr / (uint64_t)p->sector_bytes);
        if (s) s->service = fmax(s->service, e->cas * each);
    }
    for (int i = 0; i < sectors.cap; i++)
        if (sectors.e[i].addr != UINT64_MAX)
            ws_addr_table_add(&units, ws_atomic_unit(p, sectors.e[i].addr * (uint64_t)p->sector_bytes),
                              0, sectors.e[i].service, 0);
    double worst = 0;
    for (int i = 0; i < units.cap; i++)
        if (units.e[i].addr != UINT64_MAX && units.e[i].service > worst) worst = units.e[i].service;
    ws_addr_table_free(&sectors);
    ws_addr_table_free(&units);
    return worst;
}

/* CAS retry loops under contention: the functional run sees no other thread in between,
 * but on the GPU every thread resident at once retries against the same words. A
 * successful CAS on an address then costs a contended round trip, one after another, as
 * long as more than one thread is after that address: contenders = threads resident on
 * the GPU x the address's share of the CAS lanes (x the CAS lanes per thread of the grid,
 * when below one). What a success costs moves with them (cas_contended): one warp alone
 * wins once a round trip; a few warps overlap their round trips; thousands queue their
 * attempts at the word's unit. With many contended words, the failed attempts bound it
 * instead, through the GPU's CAS attempt rate (atom.cas_attempts_per_cycle).
 *
 * The winners are not taken in turn, so within one wave the threads finish one after
 * another and the contenders thin out from all resident ones to none: half of them retry
 * on average. With more blocks than fit at once, every block that retires lets a waiting
 * one in, so all resident threads contend until the last blocks are in and only the last
 * wave's thin out: on average 1 - resident / (2 x the grid's threads) of them.
 *
 * A word's successes come one after another; its attempts, failed ones too, queue with
 * those of every other word in its range of atom.cas_unit_bytes (a few dozen contended
 * doubles share one: their attempts add up). CAS attempts do not follow the plain atomics'
 * unit layout (docs/results/atomic-probe-h100.txt): 64 words on one 256-byte chunk take
 * 4x the time of 64 words 4 KB apart, but 64 words over 4 KB only 2.5x. */
static double cas_bound(const ws_timing *t, double *most, double *retrying_out, double *acquired)
{
    if (t->cas_lane_ops <= 0) return 0;
    const ws_launch_shape *s = &t->shape;
    double block = (double)s->block[0] * s->block[1] * s->block[2];
    double grid = (double)s->grid[0] * s->grid[1] * s->grid[2];
    double resident = fmin(grid, t->occ.active_blocks * t->p.sms) * block;
    double retrying = 1 - resident / (2 * grid * block);
    /* Threads contend only while they are in a CAS loop: a loop that most items leave
     * without a CAS (a max that already holds) has as many fewer contenders, by the CAS
     * lanes a thread of the grid issues (1 and more: every thread is always at it). */
    double density = fmin(1.0, t->cas_lane_ops / (grid * block));
    /* A 64-bit CAS costs atom.cas64_scale times a 32-bit one (by the share of its lanes). */
    double scale = 1 + (t->p.atom_cas64_scale - 1) * t->cas64_lane_ops / t->cas_lane_ops;
    double worst = 0, attempts = 0, lanes = 0;
    ws_addr_table units; /* attempts per L2 atomic unit: its words' attempts pass it in turn */
    int per_unit = ws_addr_table_init(&units, 1 << 12) == 0;
    for (int i = 0; i < t->atom_addrs.cap; i++) {
        const ws_addr_entry *e = &t->atom_addrs.e[i];
        if (e->addr == UINT64_MAX || e->cas <= 0) continue;
        double contenders = resident * density * (e->ops - e->exch) / t->cas_lane_ops;
        if (contenders > *most) *most = contenders;
        double each = scale * cas_contended(&t->p, contenders);
        /* Each success, the other contenders of that round fail and retry (the share
         * still running: 'retrying'), every attempt a request to the L2's atomic units,
         * and the attempts on one word pass its unit one after another. */
        double tries = e->cas * (1 + fmax(0.0, contenders - 1) * retrying);
        double tried = tries * scale * t->p.atom_cas_attempt_cycles;
        double c = fmax(e->cas * each * fmin(1.0, contenders), tried);
        if (c > worst) worst = c;
        if (per_unit)
            ws_addr_table_add(&units, e->addr / (uint64_t)t->p.atom_cas_unit_bytes, 0, tried, 0);
        attempts += tries;
        lanes += e->ops;
    }
    double locks = lock_bound(t, resident, density, acquired);
    /* Words the address table had no room for (a million bins) are taken to be like the
     * ones it holds: as many attempts per CAS lane. */
    if (t->cas_spilled_ops > 0)
        attempts += t->cas_spilled_ops * (lanes > 0 ? attempts / lanes : 1.0);
    for (int i = 0; per_unit && i < units.cap; i++)
        if (units.e[i].addr != UINT64_MAX && units.e[i].service > worst) worst = units.e[i].service;
    if (per_unit) ws_addr_table_free(&units);
    *retrying_out = retrying;
    /* Many words at once: the attempts share the GPU's CAS throughput, well below its plain
     * atomics'. A failed attempt (64 words 4 KB apart, 1056 threads on each: ~24 a cycle)
     * costs less than one that swaps and writes the word (random words of a million, no
     * contention: ~12 a cycle). */
    double swaps = t->cas_successes;
    double fails = fmax(0.0, attempts - swaps);
    return fmax(fmax(worst, locks), fails / t->p.atom_cas_attempts_per_cycle +
                                        swaps / t->p.atom_cas_successes_per_cycle);
}

static void gpu_bounds(const ws_timing *t, ws_bounds *b)
{
    const ws_gpu_preset *p = &t->p;
    double ghz = p->clock_mhz / 1000.0;
    /* Re-touched sectors come from DRAM again once the footprint outgrows the L2. */
    double spill = t->touched_bytes > p->l2_bytes ? 1.0 - p->l2_bytes / t->touched_bytes : 0;
    double dram_bytes = t->touched_bytes + t->retouched_bytes * spill;
    b->dram = dram_bytes / (p->dram_gbps / ghz);
    /* Reads come back from the L2 and writes go to it on separate paths, so either can bind.
     * Stores, which L1 writes through, enter the L2 in 64-byte beats, each line's written
     * sectors in twos (mem.l2_write_beats_per_cycle, fitted to bench/calib local_spill's
     * whole-line stores; held out, local_scatter's one-sector lines: an H200 takes 32 of
     * them a cycle where it takes 16 whole lines, and the rule says 32.4). */
    b->l2 = fmax(t->total.l2_bytes / (p->l2_gbps / ghz),
                 t->total.l2_write_beats / p->l2_write_beats_per_cycle);
    double hottest = 0, word = 0;
    for (int i = 0; i < t->atom_lines.cap; i++)
        if (t->atom_lines.e[i].addr != UINT64_MAX && t->atom_lines.e[i].service > hottest)
            hottest = t->atom_lines.e[i].service;
    for (int i = 0; i < t->atom_addrs.cap; i++)
        if (t->atom_addrs.e[i].addr != UINT64_MAX && t->atom_addrs.e[i].service > word)
            word = t->atom_addrs.e[i].service;
    /* The busiest unit's queue, behind the L2's share of every unit's work: its units serve
     * atom.l2_units units' worth at once (random words over tens of KB: many units, each
     * lightly loaded, and still about 1.5 cycles a request). */
    b->atom_addr = hottest + t->atom_unit_service / p->atom_l2_units;
    /* A word's results come one after another, across requests too (timing_memcost.c). */
    b->atom_addr = fmax(b->atom_addr, word);
    /* The L2's atomic units take so many address-ops a cycle, so many (request, line)
     * pairs (random bins: a line per lane) and so many requests: a request of one lane
     * costs a slot as one of 32 lanes does (leader loops, one lane an atomic a trip). */
    b->atom_tp = fmax(t->atom_addr_ops / p->atom_l2_ops_per_cycle,
                      fmax(t->atom_line_ops / p->atom_l2_line_ops_per_cycle,
                           t->atom_requests / p->atom_l2_requests_per_cycle));
    b->atom_cas = cas_bound(t, &b->cas_contenders, &b->cas_retrying, &b->lock_acquisitions);
    /* The GPU takes device printf calls one after another, however many SMs make them
     * (bench/calib printf_lanes: one warp on each of 132 SMs takes 132 times one's turn) */
    const ws_cta_sum *tot = &t->total;
    b->printf = tot->printf_calls * p->printf_serial_cycles +
                (tot->printf_lanes - tot->printf_calls) * p->printf_serial_lane_cycles;
}

static double hottest_ops(const ws_addr_table *a)
{
    double m = 0;
    for (int i = 0; i < a->cap; i++)
        if (a->e[i].addr != UINT64_MAX && a->e[i].ops > m) m = a->e[i].ops;
    return m;
}

static int put(ws_result *r, const char *name, double v)
{
    return ws_result_set_metric(r, name, v);
}

int ws_timing_finish(ws_timing *t, ws_result *r, ws_error *err)
{
    if (t->oom) return ws_error_set(err, WS_ERR_NOMEM, "out of memory in the timing model");
    const ws_gpu_preset *p = &t->p;
    ws_bounds b;
    memset(&b, 0, sizeof b);
    sm_bounds(t, &b);
    gpu_bounds(t, &b);
    /* The slowest SM and the memory system's bandwidths overlap in part (overlap()); the
     * queues on one atomic unit, contended words and the printf queue already hold the
     * waits of everything behind them: the larger alone. */
    double mem[3] = { b.sm, b.l2, b.dram };
    double cycles = overlap(mem, 3, p->bound_overlap);
    double queues = fmax(fmax(b.atom_addr, b.atom_tp), fmax(b.atom_cas, b.printf));
    cycles = fmax(cycles, queues);
    double complete = fmax(fmax(fmax(b.sm_complete, b.l2), b.dram), queues);
    double ghz = p->clock_mhz / 1000.0;
    double ctas = (double)t->ctas_done;
    const ws_cta_sum *tot = &t->total;
    double achieved = b.busy_sm_cycles > 0
                          ? b.warp_cycles / (b.busy_sm_cycles * t->occ.max_warps_sm) : 0;
    int rc = 0;
    rc |= put(r, WS_M(SIM_CYCLES), cycles);
    rc |= put(r, WS_M(SIM_TIME_NS), cycles / ghz + p->launch_overhead_ns);
    rc |= put(r, WS_M(SIM_CLOCK_MHZ), p->clock_mhz);
    rc |= put(r, WS_M(SIM_SMS), p->sms);
    rc |= put(r, WS_M(SIM_SMS_USED), b.sms_used);
    rc |= put(r, WS_M(SIM_CTAS), ctas);
    rc |= put(r, WS_M(SIM_WAVES), ctas / (t->occ.active_blocks * p->sms));
    rc |= put(r, WS_M(SIM_WAVES_MAX_PER_SM), b.max_sm_waves);
    rc |= put(r, WS_M(SIM_CTAS_PER_SM), t->occ.active_blocks);
    rc |= put(r, WS_M(SIM_REGS_PER_THREAD), t->shape.regs_per_thread);
    rc |= put(r, WS_M(SIM_THEORETICAL_OCCUPANCY), t->occ.occupancy);
    rc |= put(r, WS_M(SIM_OCCUPANCY_LIMIT), (double)t->occ.binding);
    rc |= put(r, WS_M(SIM_ACHIEVED_OCCUPANCY), achieved);
    rc |= put(r, WS_M(WARPS_ACTIVE_PCT), 100.0 * achieved);
    rc |= put(r, WS_M(SIM_BOUND_LATENCY), b.latency);
    rc |= put(r, WS_M(SIM_BOUND_ISSUE), b.issue);
    rc |= put(r, WS_M(SIM_BOUND_LSU), b.lsu);
    rc |= put(r, WS_M(SIM_BOUND_L2), b.l2);
    rc |= put(r, WS_M(SIM_BOUND_DRAM), b.dram);
    rc |= put(r, WS_M(SIM_BOUND_ATOMIC_ADDRESS), b.atom_addr);
    rc |= put(r, WS_M(SIM_BOUND_ATOMIC_THROUGHPUT), b.atom_tp);
    rc |= put(r, WS_M(SIM_BOUND_ATOMIC_CAS), b.atom_cas);
    rc |= put(r, WS_M(SIM_ATOMIC_CAS_CONTENDERS), b.cas_contenders);
    rc |= put(r, WS_M(SIM_ATOMIC_CAS_RETRYING), b.cas_retrying);
    rc |= put(r, WS_M(SIM_ATOMIC_LOCK_ACQUISITIONS), b.lock_acquisitions);
    rc |= put(r, WS_M(SIM_BOUND_PRINTF), b.printf);
    rc |= put(r, WS_M(SIM_BOUND_OVERLAP), cycles - complete);
    rc |= put(r, WS_M(SIM_PRINTF_CALLS), tot->printf_calls);
    rc |= put(r, WS_M(SIM_PRINTF_LANES), tot->printf_lanes);
    rc |= put(r, WS_M(SIM_STALL_ISSUE), tot->stall[WS_STALL_ISSUE]);
    rc |= put(r, WS_M(SIM_STALL_DEPENDENCY), tot->stall[WS_STALL_DEP]);
    rc |= put(r, WS_M(SIM_STALL_MEMORY), tot->stall[WS_STALL_MEM]);
    rc |= put(r, WS_M(SIM_STALL_BARRIER), tot->stall[WS_STALL_BAR]);
    rc |= put(r, WS_M(SIM_STALL_ATOMIC), tot->stall[WS_STALL_ATOM]);
    rc |= put(r, WS_M(SIM_STALL_BRANCH), tot->stall[WS_STALL_BRANCH]);
    rc |= put(r, WS_M(SIM_STALL_WAIT), tot->stall[WS_STALL_WAIT]);
    rc |= put(r, WS_M(SIM_CTA_CRITICAL_PATH_MAX), tot->critical_path);
    rc |= put(r, WS_M(SIM_L2_BYTES), tot->l2_bytes);
    rc |= put(r, WS_M(SIM_L1_GLOBAL_LOAD_HIT_PCT),
              tot->l1_load_sectors > 0 ? 100.0 * tot->l1_load_hits / tot->l1_load_sectors : 0);
    rc |= put(r, WS_M(SIM_L2_WRITE_REQUESTS), tot->l2_write_requests);
    rc |= put(r, WS_M(SIM_L2_WRITE_BEATS), tot->l2_write_beats);
    rc |= put(r, WS_M(SIM_DRAM_BYTES), t->touched_bytes);
    rc |= put(r, WS_M(SIM_ATOMIC_REQUESTS), t->atom_requests);
    rc |= put(r, WS_M(SIM_ATOMIC_L2_TRANSACTIONS), t->atom_addr_ops);
    rc |= put(r, WS_M(SIM_ATOMIC_LANE_OPS), t->atom_lane_ops);
    rc |= put(r, WS_M(SIM_ATOMIC_DISTINCT_PER_REQUEST),
              t->atom_requests ? t->atom_addr_ops / t->atom_requests : 0);
    rc |= put(r, WS_M(SIM_ATOMIC_MAX_LANES_SAME_ADDRESS), t->atom_max_lanes_same_addr);
    rc |= put(r, WS_M(SIM_ATOMIC_MAX_SAME_ADDRESS), hottest_ops(&t->atom_addrs));
    rc |= put(r, WS_M(SIM_ATOMIC_ADDRESSES), t->atom_addrs.n + (double)t->atom_addrs.overflow);
    rc |= put(r, WS_M(SIM_SHARED_ATOMIC_REQUESTS), t->shared_atom_requests);
    if (rc) return ws_error_set(err, WS_ERR_NOMEM, "out of memory adding timing metrics");
    return 0;
}
