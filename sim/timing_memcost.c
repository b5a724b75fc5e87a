/* timing_memcost.c — what one memory warp-instruction costs in the timing model: latency
 * (shared, L1, L2 or DRAM; atomics at L2 with per-address serialization), LSU wavefronts,
 * L2 and DRAM bytes, and the per-address atomic contention it adds. Pure bookkeeping on
 * the addresses the functional executor reported; never touches executor state. */
#include <math.h>
#include <string.h>
#include "sim/exec.h"
#include "sim/timing_model.h"

static int max_count(const ws_memset *s)
{
    uint32_t m = 0;
    for (int i = 0; i < s->n; i++) if (s->count[i] > m) m = s->count[i];
    return (int)m;
}

static void shared_cost(ws_timing *t, ws_cta_timing *c, const ws_warp_event *ev, int atom,
                        int merge, ws_cost *cost)
{
    const ws_gpu_preset *p = &t->p;
    uint32_t mask = ev->pred_on;
    if (atom) {
        /* Lanes on distinct words of one bank take a wavefront each, as loads do; lanes on
         * one word take one more each, unless ptxas merged them into one add of their count
         * (ATOMS.POPC.INC: atomicAdd of 1). bench/atomic_probe.py: 32 words of one bank cost
         * 32 cycles a request, 32 lanes on one word of an increment about 1. */
        ws_memset a;
        ws_mem_atomic_addrs(ev->addr, mask, &a);
        int same = merge ? 1 : max_count(&a);
        int wf = ws_mem_shared_wavefronts(ev->addr, mask, ev->access_bytes ? ev->access_bytes : 4,
                                          (int)p->shared_banks, (int)p->shared_bank_bytes);
        int passes = wf + same - 1;
        cost->latency = p->latency[WS_LAT_atom] + (passes - 1) * p->atom_shared_lane_cycles;
        cost->kind = WS_STALL_ATOM;
        c->sum.lsu_wavefronts += passes;
        t->shared_atom_requests++;
        return;
    }
    int wf = ws_mem_shared_wavefronts(ev->addr, mask, ev->access_bytes, (int)p->shared_banks,
                                      (int)p->shared_bank_bytes);
    c->sum.lsu_wavefronts += wf;
    cost->latency = p->shared_latency + (wf > 1 ? wf - 1 : 0);
    cost->kind = WS_STALL_MEM;
    cost->shared_cycles = wf / p->lsu_wavefronts_per_cycle;
}

/* Sectors go to L2; a sector's first touch also comes from DRAM, unless the launch's buffers
 * all fit in the L2: the model prices a launch that follows identical ones, as `warpscope
 * run` times it (the median of repeated launches), and such inputs are in L2 already.
 * Returns 1 if any sector came from DRAM. */
static int l2_traffic(ws_timing *t, ws_cta_timing *c, const ws_memset *sectors)
{
    int from_dram = 0;
    double sb = t->p.sector_bytes;
    int warm = t->shape.footprint_bytes > 0 && t->shape.footprint_bytes <= t->p.l2_bytes;
    for (int i = 0; i < sectors->n; i++) {
        if (ws_touch_first(&t->touched, sectors->key[i]) && !warm) {
            c->sum.dram_bytes += sb;
            t->touched_bytes += sb;
            from_dram = 1;
        } else {
            t->retouched_bytes += sb;
        }
    }
    c->sum.l2_bytes += sectors->n * sb;
    return from_dram;
}

/* Which L2 atomic unit serves an address (bench/atomic_probe.py measured the layout on the
 * H100): addresses go to units in chunks of unit_bytes; the chunks of one block of
 * block_bytes alternate over `ways` units of that block's own. (The H100 hashes blocks onto
 * fewer units; the model stands that in by the GPU-wide share, atom.l2_units, in
 * timing_finish.c, not address by address.) */
uint64_t ws_atomic_unit(const ws_gpu_preset *p, uint64_t addr)
{
    uint64_t chunk = addr / (uint64_t)p->atom_l2_unit_bytes, ways = (uint64_t)p->atom_l2_unit_ways;
    return addr / (uint64_t)p->atom_l2_unit_block_bytes * ways + chunk % ways;
}

/* A request's lanes are served per L2 atomic unit: the unit spends part_cycles on the
 * request's part, then passes over its sectors one after another; a pass applies one lane
 * to each word of the sector at once, so a sector takes as many passes as the most lanes
 * any one of its words has, each pass same_cycles. A word's further lanes each wait for
 * the last one's result, `again` cycles (floating-point adds take longer than integer
 * ones), while passes over other sectors go on: the part costs the longer of the passes and
 * the busiest word's chain. Different units work at once. Returns the cost of the request's
 * busiest part. (bench/atomic_probe.py: 32 float lanes on 4 words of one sector cost a
 * pass and 7 chained adds; on 16 words of two sectors, 4 passes; on 32 words, 4 passes as
 * for integers.) */
static double atomic_unit_service(ws_timing *t, const ws_memset *a, double again)
{
    const ws_gpu_preset *p = &t->p;
    uint64_t unit[WS_MEMSET_MAX], sector[WS_MEMSET_MAX];
    uint32_t passes[WS_MEMSET_MAX];
    int ns = 0, nu = 0;
    uint64_t sb = (uint64_t)p->sector_bytes;
    for (int i = 0; i < a->n; i++) { /* per sector: the most lanes on one of its words */
        uint64_t s = a->key[i] / sb;
        int k = 0;
        while (k < ns && sector[k] != s) k++;
        if (k == ns) { sector[ns] = s; passes[ns] = 0; ns++; }
        if (a->count[i] > passes[k]) passes[k] = a->count[i];
    }
    double service[WS_MEMSET_MAX];
    uint32_t chain[WS_MEMSET_MAX]; /* per unit: the most lanes on one word */
    for (int k = 0; k < ns; k++) {
        uint64_t u = ws_atomic_unit(p, sector[k] * sb);
        int j = 0;
        while (j < nu && unit[j] != u) j++;
        if (j == nu) { unit[nu] = u; service[nu] = 0; chain[nu] = 0; nu++; }
        service[j] += passes[k] * p->atom_l2_same_cycles;
        if (passes[k] > chain[j]) chain[j] = passes[k];
    }
    double most = 0;
    for (int j = 0; j < nu; j++) {
        double chained = p->atom_l2_same_cycles + (chain[j] - 1) * again;
        service[j] = p->atom_l2_part_cycles + fmax(service[j], chained);
        ws_addr_table_add(&t->atom_lines, unit[j], 0, service[j], 0);
        t->atom_unit_service += service[j];
        if (service[j] > most) most = service[j];
    }
    return most;
}

static void global_atomic_cost(ws_timing *t, ws_cta_timing *c, const ws_warp_event *ev,
                               const ws_pcinfo *pi, ws_cost *cost)
{
    const ws_gpu_preset *p = &t->p;
    ws_memset a;
    ws_mem_atomic_addrs(ev->addr, ev->pred_on, &a);
    int same = max_count(&a);
    int cas = pi->atom_cas;
    int fp = pi->atom_fp;
    double again = fp ? p->atom_l2_same_fp_cycles : p->atom_l2_same_cycles;
    /* Per address: lane-ops, for CAS the lanes whose swap happened (successes), and the
     * word's chain: each of its lanes waits for the result of the one before, in this
     * request or an earlier one (one float lane a warp on one word: ~3.5 cycles each). */
    ws_warp_timing *w = &c->warps[ev->warp];
    /* In the timed order, a CAS request none of whose lanes swapped was overtaken by
     * another warp's swap (a warp alone swaps one lane on each word): the GPU makes such
     * retries too, but cas_bound already prices them from the swaps and the contenders, so
     * the warp waits its round trip and nothing more is counted. */
    if (cas && t->shape.timed_order && !(ev->pred_on & ev->cas_ok)) {
        cost->latency = p->atom_l2_latency;
        cost->kind = WS_STALL_ATOM;
        return;
    }
    for (int i = 0; i < a.n; i++) {
        int ok = 0;
        for (uint32_t m = cas ? ev->pred_on & ev->cas_ok : 0; m; m &= m - 1)
            ok += ev->addr[__builtin_ctz(m)] == a.key[i];
        ws_addr_entry *e = ws_addr_table_at(&t->atom_addrs, a.key[i]);
        if (e) {
            e->ops += a.count[i];
            e->service += a.count[i] * again;
            e->cas += ok;
            if (pi->atom_exch) { /* a lock's release (lock_bound), fenced or not */
                e->exch += a.count[i];
                if (w->lock_fenced) e->exch_fenced += a.count[i];
            }
        } else if (cas) {
            t->cas_spilled_ops += a.count[i];
        }
        t->cas_successes += ok;
    }
    /* A swapping CAS may take a lock, an exchange gives it back (lock_bound tells the two
     * kinds of critical section apart by a fence between them). */
    if (pi->atom_exch) {
        w->lock_lanes = 0;
        w->lock_fenced = 0;
    } else if (cas && (ev->pred_on & ev->cas_ok)) {
        w->lock_fenced = 0;
        for (uint32_t m = ev->pred_on & ev->cas_ok; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            w->lock_word[l] = ev->addr[l];
            w->lock_lanes |= 1u << l;
        }
    }
    double part = atomic_unit_service(t, &a, again);
    if (cas) t->cas_lane_ops += __builtin_popcount(ev->pred_on);
    if (cas && ev->access_bytes == 8) t->cas64_lane_ops += __builtin_popcount(ev->pred_on);
    t->atom_requests++;
    t->atom_addr_ops += a.n;
    t->atom_lane_ops += __builtin_popcount(ev->pred_on);
    if (same > t->atom_max_lanes_same_addr) t->atom_max_lanes_same_addr = same;
    ws_memset sectors;
    int lines;
    ws_mem_sectors(ev->addr, ev->pred_on, ev->access_bytes, (int)p->sector_bytes, &sectors,
                   &lines, (int)p->line_bytes);
    l2_traffic(t, c, &sectors);
    c->sum.lsu_wavefronts += lines;
    t->atom_line_ops += lines;
    cost->latency = p->atom_l2_latency + part;
    cost->kind = WS_STALL_ATOM;
}

/* A plain store by a lane to the word its own CAS took: a lock given back without an
 * exchange (`__threadfence(); *lock = 0;`), counted as lock_bound counts one. */
static void store_release(ws_timing *t, ws_cta_timing *c, const ws_warp_event *ev)
{
    ws_warp_timing *w = &c->warps[ev->warp];
    for (uint32_t m = ev->pred_on & w->lock_lanes; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        if (ev->addr[l] != w->lock_word[l]) continue;
        ws_addr_entry *e = ws_addr_table_find(&t->atom_addrs, ev->addr[l]);
        if (e) {
            e->exch += 1;
            e->exch_fenced += w->lock_fenced;
        }
        w->lock_lanes &= ~(1u << l);
    }
    if (!w->lock_lanes) w->lock_fenced = 0;
}

/* Looks a sector up in the CTA's L1 tags and makes it its set's newest; returns 1 on a
 * hit. The L1 fills by the 32-byte sector, not the line: a lane that walks a line word by
 * word misses at each of its four sectors (unseen24 sorted_common: 41 us on an H200; 78 us
 * predicted with a tag a line, and direct mapped, 25 us with 4-way sets of lines, 44 us by
 * the sector). A set of WS_L1_WAYS ways keeps sectors that fall in it from different
 * arrays; a direct-mapped tag a line made a[t] and b[t] 64 KB apart evict each other. */
static int l1_touch(ws_cta_timing *c, uint64_t sector)
{
    uint64_t *set = &c->l1_tag[(sector % (WS_L1_TAGS / WS_L1_WAYS)) * WS_L1_WAYS];
    int k = 0;
    while (k < WS_L1_WAYS - 1 && set[k] != sector + 1) k++;
    int hit = set[k] == sector + 1;
    memmove(set + 1, set, (size_t)k * sizeof *set);
    set[0] = sector + 1;
    return hit;
}

/* Loads: all sectors seen by this CTA recently -> L1; else L2, or DRAM on a first touch. */
static void global_cost(ws_timing *t, ws_cta_timing *c, const ws_warp_event *ev, int store,
                        ws_cost *cost)
{
    const ws_gpu_preset *p = &t->p;
    if (store) store_release(t, c, ev);
    ws_memset sectors;
    int lines;
    ws_mem_sectors(ev->addr, ev->pred_on, ev->access_bytes, (int)p->sector_bytes, &sectors,
                   &lines, (int)p->line_bytes);
    c->sum.lsu_wavefronts += lines;
    int all_hit = !store;
    int per_line = (int)(p->line_bytes / p->sector_bytes);
    for (int i = 0; i < sectors.n; i++) {
        int hit = l1_touch(c, sectors.key[i]);
        if (!hit) all_hit = 0;
        if (!store) c->sum.l1_load_hits += hit;
    }
    if (!store) c->sum.l1_load_sectors += sectors.n;
    /* the L1 takes a line at a time: each further line delays the load's last data */
    double extra = lines > 1 ? (lines - 1) * p->l1_line_cycles : 0;
    if (all_hit) {
        cost->latency = p->l1_latency + extra;
        cost->kind = WS_STALL_MEM;
        return;
    }
    if (store) { /* L1 writes through: the stored sectors go on to the L2 */
        c->sum.l2_write_requests += ws_mem_write_requests(ev->addr, ev->pred_on, ev->access_bytes,
                                                          (int)p->line_bytes);
        c->sum.l2_write_beats += ws_mem_write_beats(&sectors, per_line);
    }
    int dram = l2_traffic(t, c, &sectors);
    cost->latency = store ? p->latency[WS_LAT_st]
                          : (dram ? p->dram_latency : p->l2_latency) + extra;
    cost->kind = WS_STALL_MEM;
}

/* Local memory as the hardware lays it out (the CUDA Programming Guide: consecutive 32-bit
 * words are accessed by consecutive thread IDs): word k of lane l's frame is at
 * k x 128 + l x 4, so the lanes that touch the same word of their frames share a line, and
 * a per-thread array indexed by data touches a line for every index the lanes pick. The
 * access's sectors, lines, and as a store its write requests (one for every 4 lines;
 * 16-byte lanes in quarter warps, as ws_mem_write_requests counts them) and the 64-byte
 * beats it takes into the L2 (ws_mem_write_beats). */
#define WS_LOCAL_ROW 128 /* 32 lanes x 4 bytes: one word of every lane's frame */
static void local_touch(const ws_warp_event *ev, int bytes, int sector_bytes, int *sectors,
                        int *lines, int *requests, int *beats)
{
    ws_memset sec, lin;
    sec.n = lin.n = 0;
    const int words = bytes >= 4 ? bytes / 4 : 1;
    uint64_t hw[WS_WARP]; /* each lane's first word where the hardware keeps it */
    for (uint32_t m = ev->pred_on; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint64_t k = (ev->addr[l] % WS_LOCAL_WINDOW) / 4; /* the word in its frame */
        hw[l] = k * WS_LOCAL_ROW + (uint64_t)l * 4;
        for (int j = 0; j < words; j++) {
            uint64_t a = hw[l] + (uint64_t)j * WS_LOCAL_ROW;
            ws_memset_add(&sec, a / (uint64_t)sector_bytes);
            ws_memset_add(&lin, a / WS_LOCAL_ROW);
        }
    }
    *sectors = sec.n;
    *lines = lin.n;
    *requests = ws_mem_write_requests_strided(hw, ev->pred_on, bytes, WS_LOCAL_ROW,
                                              WS_LOCAL_ROW);
    *beats = ws_mem_write_beats(&sec, WS_LOCAL_ROW / sector_bytes);
}

/* Local accesses are served from L1, a wavefront a line. A store writes through: its
 * sectors go on to the L2 (Nsight Compute on bench/calib local_spill and call_chain: every
 * local store sector crosses to the L2 while 96 % of them hit L1), and a spill-heavy kernel
 * is bound by the L2's input (mem.l2_write_beats_per_cycle: 64-byte beats, a line's
 * sectors in twos; the unseen recurse kernel's three-sector lines keep the L2's input as
 * busy per line as local_spill's whole ones, two beats each). */
static void local_cost(ws_timing *t, ws_cta_timing *c, const ws_warp_event *ev, int store,
                       ws_cost *cost)
{
    const ws_gpu_preset *p = &t->p;
    int sectors, lines, requests, beats;
    local_touch(ev, ev->access_bytes ? ev->access_bytes : 4, (int)p->sector_bytes, &sectors,
                &lines, &requests, &beats);
    c->sum.lsu_wavefronts += lines;
    if (store) {
        c->sum.l2_bytes += sectors * p->sector_bytes;
        c->sum.l2_write_requests += requests;
        c->sum.l2_write_beats += beats;
    }
    cost->latency = p->l1_latency + (lines > 1 ? (lines - 1) * p->l1_line_cycles : 0);
    cost->kind = WS_STALL_MEM;
}

void ws_timing_mem_cost(ws_timing *t, ws_cta_timing *c, const ws_warp_event *ev,
                        const ws_pcinfo *pi, ws_cost *cost)
{
    int atom = pi->mem_kind == WS_MEM_ATOMIC;
    int store = pi->mem_kind == WS_MEM_STORE;
    switch (ev->addr_space) {
    case WS_SPACE_SHARED: case WS_SPACE_SHARED_CLUSTER:
        shared_cost(t, c, ev, atom, pi->atom_merge, cost);
        break;
    case WS_SPACE_LOCAL:
        local_cost(t, c, ev, store, cost);
        break;
    case WS_SPACE_CONST: case WS_SPACE_PARAM: {
        /* the constant cache serves one address at a time: a warp's lanes on k distinct
           words take k passes (CUDA C++ Programming Guide, constant memory; bench/calib
           chase_const) */
        ws_memset a;
        ws_mem_atomic_addrs(ev->addr, ev->pred_on, &a);
        cost->latency = pi->latency + (a.n > 1 ? a.n - 1 : 0) * t->p.const_address_cycles;
        break;
    }
    default:
        if (atom) global_atomic_cost(t, c, ev, pi, cost);
        else global_cost(t, c, ev, store, cost);
        break;
    }
}
