/* timing_model.h — the timing model's state, shared by timing.c (the event sink and the
 * per-warp issue chains), timing_memcost.c (what a memory instruction costs) and
 * timing_finish.c (SMs, waves, bounds, metrics). Private to those files and their tests. */
#ifndef WS_SIM_TIMING_MODEL_H
#define WS_SIM_TIMING_MODEL_H

#include "sim/timing.h"
#include "sim/timing_internal.h"

/* Where a warp's cycles went (warp-chain cycles, summed over warps). */
enum { WS_STALL_ISSUE, WS_STALL_DEP, WS_STALL_MEM, WS_STALL_BAR, WS_STALL_ATOM, WS_STALL_BRANCH,
       WS_STALL_WAIT, WS_STALL__COUNT };

/* What the model needs of one instruction: its static description priced by the preset,
 * once per function. */
typedef struct ws_pcinfo {
    uint8_t lat, nsrc, ndst, is_bar, mem_kind;
    uint8_t serial;           /* later instructions may not issue before it (barriers, fences) */
    uint8_t ifconv;           /* a forward branch over this many instructions the compiler
                               * predicates instead (they issue even when no lane runs them) */
    uint8_t join;             /* reconvergence point of a branch that may diverge (BSYNC) */
    uint8_t yield;            /* head of a spin loop (the compiler's YIELD) */
    uint8_t call;             /* a call or a return (SASS CALL, RET) */
    uint8_t atom_cas, atom_fp;/* atomics: compare-and-swap; floating point */
    uint8_t atom_exch;        /* an exchange: a lock's release where CASes take the word */
    uint8_t fence;            /* a memory fence */
    uint8_t atom_merge;       /* lanes on one word merge into one add (ATOMS.POPC.INC) */
    uint8_t stall;            /* the compiler's stall count after it (SASS), 0 = none */
    int32_t target;           /* branches: target pc, else -1 */
    int32_t maxreg;           /* the highest register it names */
    uint8_t pipe;             /* the pipe it occupies (ws_timing_pipe) */
    double latency, slots, gap;
    double occ;               /* cycles it holds its pipe (the preset's issue.<class>) */
    double skip_latency;      /* its latency when issued predicated off */
    int32_t src[WS_PC_MAXSRC], dst[WS_PC_MAXDST];
} ws_pcinfo;

#define WS_TIMING_MAXFN 64
typedef struct ws_fninfo_t { const ws_function *fn; ws_pcinfo *info; } ws_fninfo_t;


typedef struct ws_warp_timing {
    double t;                 /* issue time of the warp's latest instruction */
    double slot;              /* issue cursor: the latest instruction's earliest issue */
    double win[WS_WINDOW_MAX];/* issue times of the latest `window` instructions (a ring) */
    int win_pos;
    double done;              /* when its latest result is ready */
    double stall;             /* the latest instruction's stall count (SASS control bits) */
    double slots;             /* instructions it dispatched */
    double pipe[WS_LAT__COUNT]; /* cycles it held each pipe */
    int nregs;
    double *ready;            /* per register: cycle its value is ready */
    double *freed;            /* per register: cycle a memory instruction has read it */
    uint8_t *kind;            /* per register: what produced it (WS_STALL_*) */
    int64_t bar_gen;          /* barriers passed */
    uint32_t lock_lanes;      /* the lanes whose CAS swapped (a lock each may hold: lock_bound), */
    uint8_t lock_fenced;      /* whether a fence came since, */
    uint64_t lock_word[32];   /* and the word each took */
    int bar_pending, bar_noted;
    double shared_free;       /* when the shared-memory data path has served its accesses */
} ws_warp_timing;

/* What one finished CTA hands to its SM. */
typedef struct ws_cta_sum {
    double critical_path;     /* longest warp chain, cycles */
    double slots;             /* instructions dispatched */
    double pipe[WS_LAT__COUNT]; /* cycles each pipe was held */
    double max_sched_cycles;  /* its busiest scheduler: dispatch or its busiest pipe */
    double lsu_wavefronts;
    double l2_bytes, dram_bytes;
    double l1_load_sectors, l1_load_hits; /* global loads' sectors looked up in L1, and hits */
    double l2_write_requests; /* stores written through to the L2 (local ones too): one a 4
                                 lines (L1's store wavefronts, ws_mem_write_requests) */
    double l2_write_beats; /* the 64-byte beats those stores take into the L2: a line's
                              written sectors in twos (ws_mem_write_beats) */
    double stall[WS_STALL__COUNT];
    double printf_calls;      /* device printf calls (warp-instructions) and their lanes */
    double printf_lanes;
    uint64_t insts;
    int warps;
} ws_cta_sum;

/* The L1 tags a CTA keeps: WS_L1_TAGS 32-byte sectors (64 KB), WS_L1_WAYS to a set, each
 * set's sectors newest first (the least recently used goes out). */
#define WS_L1_TAGS 2048
#define WS_L1_WAYS 4
typedef struct ws_cta_timing {
    uint32_t cta;
    int in_use, nwarps, cap_warps;
    ws_warp_timing *warps;
    int64_t bar_seen;
    double bar_max[2];
    uint64_t l1_tag[WS_L1_TAGS]; /* sectors this CTA touched recently, sector + 1 (0: none) */
    ws_cta_sum sum;
} ws_cta_timing;

typedef struct ws_sm_timing {
    uint64_t ctas;
    double sum_cp, max_cp, slots, max_sched_cycles, lsu;
    double pipe[WS_LAT__COUNT];
    double warp_cycles;       /* sum over CTAs of warps x critical path */
    double dispatch;          /* when its CTA dispatcher can start the next CTA */
    double end;               /* when its last CTA finishes */
} ws_sm_timing;

/* A CTA slot of an SM (occupancy's CTAs per SM of them each): free from `end` on. */
typedef struct ws_cta_slot { double end; int id; } ws_cta_slot;

#define WS_TIMING_MAXSCHED 16

struct ws_timing {
    ws_gpu_preset p;
    ws_launch_shape shape;
    ws_occupancy occ;
    int nfns;
    ws_fninfo_t fns[WS_TIMING_MAXFN];
    ws_pcinfo scratch;
    const ws_static_desc *desc;
    int window;               /* sched.window, or 1 where the SASS gave its control bits */
    int max_regs;
    int nctas, cap_ctas;
    ws_cta_timing *ctas;      /* the CTAs begun and not yet ended, and free slots (grows) */
    ws_cta_timing *last;
    int oom;
    /* whole-launch accumulators */
    int nsms;
    ws_sm_timing *sms;
    int nslots;
    ws_cta_slot *slots;       /* a min-heap by (end, id); slot id sits on SM id % nsms */
    ws_cta_sum total;
    uint64_t ctas_done;
    ws_touch_set touched;     /* sectors already in L2 */
    double touched_bytes, retouched_bytes;
    ws_addr_table atom_addrs; /* global atomics per address: lane-ops, CAS requests, and
                               * the word's chain of results (service cycles) */
    ws_addr_table atom_lines; /* global atomics per L2 atomic unit: service cycles */
    double cas_lane_ops;      /* lanes of global atom.cas */
    double cas64_lane_ops;    /* of those, on 64-bit words */
    double cas_spilled_ops;   /* of those, on words atom_addrs had no room for */
    double cas_successes;     /* CAS lanes that swapped */
    double atom_requests, atom_addr_ops, atom_lane_ops, atom_max_lanes_same_addr;
    double atom_line_ops;     /* global atomics: 128-byte lines per request, summed */
    double atom_unit_service; /* global atomics: every unit's service cycles, summed */
    double shared_atom_requests;
};

/* The pipe an instruction of latency class `lat` occupies: IMAD (and IMAD.HI/.WIDE, which
 * hold it twice as long) shares the FMA pipe with fp32, and the bit operations (POPC, FLO,
 * BREV) the multi-function unit with MUFU; every other class is a pipe of its own. A
 * scheduler dispatches one instruction a cycle to whichever pipe is free (timing.c,
 * timing_finish.c). */
static inline int ws_timing_pipe(int lat)
{
    if (lat == WS_LAT_mul || lat == WS_LAT_mulwide) return WS_LAT_fp32;
    return lat == WS_LAT_bit || lat == WS_LAT_div ? WS_LAT_sfu : lat;
}

/* What a warp-instruction costs: cycles from issue to its results, what the wait counts
 * as, and the cycles it holds the warp's shared-memory data path (its wavefronts: a bank
 * conflict's wavefronts are served one after another, and the warp's next shared access
 * queues behind them). */
typedef struct ws_cost { double latency; int kind; double shared_cycles; } ws_cost;

/* timing_memcost.c */
void ws_timing_mem_cost(ws_timing *t, ws_cta_timing *c, const ws_warp_event *ev,
                        const ws_pcinfo *pi, ws_cost *cost);
/* timing_finish.c */
int ws_timing_setup(ws_timing *t, int entry_regs, ws_error *err);
void ws_timing_fold_cta(ws_timing *t, uint32_t cta, const ws_cta_sum *s);
void ws_timing_teardown(ws_timing *t);

#endif
