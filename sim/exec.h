/* exec.h — private to the SIMT executor (exec_*.c, reconv.c, stats.c, race.c, sim_run.c):
 * the run, worker, CTA and warp state, the memory map and the lane helpers every
 * instruction body shares. Not for the front end, the timing model or other modules. */
#ifndef WS_SIM_EXEC_H
#define WS_SIM_EXEC_H

#include <assert.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "sim/events.h"
#include "sim/ir.h"
#include "sim/sim.h"

#define WS_WARP 32
#define WS_FULL_MASK 0xffffffffu
#define WS_MAX_CALL_DEPTH 32
#define WS_SCHED_QUANTUM 16

/* A CTA's watch for mbarrier waits that can never succeed, on both models. A scheduler
 * round is idle when every warp that ran saw an mbarrier wait fail and no mbarrier object
 * changed (an init, arrival, expect_tx, or a bulk copy's completion): only the CTA's own
 * threads and copies can change them. After WS_MBAR_IDLE_ROUNDS idle rounds in a row the
 * run stops with a located deadlock naming the last wait that failed. */
#define WS_MBAR_IDLE_ROUNDS 1024
/* Both models' line for such a CTA, and for a try_wait no thread can end (lanes, warp,
 * the mbarrier's shared offset). */
#define WS_MBAR_DEADLOCK "deadlock: lanes 0x%08x of warp %d wait for a phase of the mbarrier " \
                         "at shared offset 0x%x that never completes"
typedef struct ws_mbar_watch {
    uint64_t failed;        /* warps (bit = warp id) whose mbarrier wait failed this round */
    uint8_t changed;        /* an mbarrier object changed this round */
    uint32_t idle;          /* idle rounds in a row */
    const void *in;         /* the last failed wait: its instruction (ws_inst / ws_sass_inst), */
    int warp;               /* warp, */
    uint32_t lanes;         /* lanes */
    uint32_t offset;        /* and the mbarrier's offset in the CTA's shared memory */
} ws_mbar_watch;

static inline void ws_mbar_failed(ws_mbar_watch *m, const void *in, int warp, uint32_t lanes,
                                  uint32_t offset)
{
    assert(warp >= 0 && warp < 64); /* a CTA has at most 1024 threads: 32 warps */
    m->failed |= 1ull << warp;
    m->in = in;
    m->warp = warp;
    m->lanes = lanes;
    m->offset = offset;
}

/* Ends a round in which the warps of `ran` (bit = warp id) ran: 1 when the CTA has now
 * been idle for WS_MBAR_IDLE_ROUNDS rounds. */
static inline int ws_mbar_round(ws_mbar_watch *m, uint64_t ran)
{
    int idle = ran && !m->changed && !(ran & ~m->failed);
    m->idle = idle ? m->idle + 1 : 0;
    m->failed = 0;
    m->changed = 0;
    return m->idle >= WS_MBAR_IDLE_ROUNDS;
}

/* atom/red.add.f32 on both models (PTX atom.add.f32; SASS ATOMG/ATOMS/RED .ADD.F32.FTZ.RN):
 * rounded to nearest even, subnormal inputs and result flushed to a zero of their sign, as
 * the PTX ISA defines it. */
static inline float ws_atom_add_f32(float a, float b)
{
    a = fpclassify(a) == FP_SUBNORMAL ? copysignf(0.0f, a) : a;
    b = fpclassify(b) == FP_SUBNORMAL ? copysignf(0.0f, b) : b;
    float r = a + b;
    return fpclassify(r) == FP_SUBNORMAL ? copysignf(0.0f, r) : r;
}

/* Float min/max on both models, as sm_70+ computes them (SASS FMNMX, HMNMX2, DSETP.MIN/.MAX;
 * PTX min/max .f16/.f32/.f64 without .NaN): IEEE 754-2019 minimumNumber/maximumNumber, a
 * NaN loses to a number and -0 < +0. (C's fmin/fmax leave the zero's sign open.) Exact for
 * halves and floats, which a double holds. */
static inline double ws_fminmax(double x, double y, int pick_min)
{
    if (isnan(x))
        return y;
    if (isnan(y))
        return x;
    if (x == y && x == 0.0)
        return (signbit(x) != 0) == (pick_min != 0) ? x : y;
    return (x < y) == (pick_min != 0) ? x : y;
}

/* The NaN an FP64 add, multiply or fma passes on, from its operands' bits (before any `-`
 * or `|.|`): the last NaN operand (b of a + b, c of a * b + c), made quiet, with its own
 * sign; 0 when none is a NaN. Measured on an H200 (tests/sim/cu/intrin.cu's nan64 and nanimm):
 * DADD of an sNaN a and a qNaN b gave b, DFMA of a qNaN a and an sNaN c gave c quieted, and
 * DADD -RZ, |b| and -RZ, -|b| both gave b's own sign. Which of a and b an fma keeps when c
 * is not a NaN was not measured (b, by the same rule). */
static inline uint64_t ws_nan64_pass(const uint64_t *ops, int n)
{
    for (int k = n - 1; k >= 0; k--)
        if ((ops[k] & 0x7fffffffffffffffull) > 0x7ff0000000000000ull)
            return ops[k] | 0x0008000000000000ull;
    return 0;
}

/* An f64 NaN narrowed to f32 (`to_f16` 0) or f16 (1) as F2F.F32.F64 / F2F.F16.F64 write it:
 * its sign, made quiet, the payload's top bits (an H200 turned 0x7ff0000500000001 into
 * 0x7fc00028 and 0x7ff4000000000123 into the half 0x7f00: intrin.cu's nan64, nan16). */
static inline uint32_t ws_nan_narrow64(uint64_t d, int to_f16)
{
    uint32_t s = (uint32_t)(d >> 63);
    return to_f16 ? s << 15 | 0x7e00u | (uint32_t)(d >> 42 & 0x3ffu)
                  : s << 31 | 0x7fc00000u | (uint32_t)(d >> 29 & 0x7fffffu);
}

/* The SFU's double reciprocal / reciprocal square root seed on both models (SASS
 * MUFU.RCP64H / MUFU.RSQ64H; PTX rcp.approx.ftz.f64 and rsqrt.approx.f64, which ptxas emits
 * as that seed with a zero low word): the high word of 1/d or 1/sqrt(d) for the double d
 * whose high word is `hi` (low word 0; a subnormal d counts as zero; NaN 0x7fffffff). */
static inline uint32_t ws_mufu64h(uint32_t hi, int rsq)
{
    uint64_t u = (uint64_t)hi << 32, o;
    double d, r;
    memcpy(&d, &u, 8);
    if (fpclassify(d) == FP_SUBNORMAL)
        d = copysign(0.0, d);
    r = rsq ? 1.0 / sqrt(d) : 1.0 / d;
    memcpy(&o, &r, 8);
    if (isnan(r))
        return 0x7fffffffu;
    return (uint32_t)(o >> 32);
}

/* bmsk on both models (PTX bmsk.clamp/.wrap, SASS BMSK/BMSK.W): `width` ones from bit
 * `pos`, cut at bit 31. .clamp takes pos and width above 32 as 32 (pos 32: no bits); .wrap
 * takes both modulo 32 (width 0: no bits), as the PTX ISA's pseudocode does. */
static inline uint32_t ws_bit_mask(uint32_t pos, uint32_t width, int wrap)
{
    pos = wrap ? pos & 31 : (pos > 32 ? 32 : pos);
    width = wrap ? width & 31 : (width > 32 ? 32 : width);
    return (uint32_t)(((1ull << width) - 1) << pos);
}

/* dp4a / dp2a on both models (PTX dp4a/dp2a, SASS IDP.4A/IDP.2A): c plus the four products
 * of a's and b's bytes, or (two) a's two 16-bit halves times b's bytes 0-1 (hi: 2-3); each
 * operand signed when sa/sb; the sum wraps at 32 bits. */
static inline uint32_t ws_dot_product(uint32_t a, uint32_t b, uint32_t c, int sa, int sb,
                                      int two, int hi)
{
    uint32_t sum = c;
    for (int k = 0; k < (two ? 2 : 4); k++) {
        int32_t ea = two ? (sa ? (int16_t)(a >> 16 * k) : (int32_t)(uint16_t)(a >> 16 * k))
                         : (sa ? (int8_t)(a >> 8 * k) : (int32_t)(uint8_t)(a >> 8 * k));
        int kb = two ? (hi ? 2 : 0) + k : k;
        int32_t eb = sb ? (int8_t)(b >> 8 * kb) : (int32_t)(uint8_t)(b >> 8 * kb);
        sum += (uint32_t)ea * (uint32_t)eb;
    }
    return sum;
}

/* An mbarrier's transaction count plus `delta` (expect_tx > 0, complete_tx < 0) into *tx:
 * 1, or 0 (and *tx unchanged) when the sum leaves the PTX ISA's range |count| <=
 * WS_MBAR_TX_MAX, with both models' words for why in why[n] (`unit`: " bytes" where the
 * count is bytes, "" where it may be transactions too). Both models keep the count in 21
 * signed bits. */
#define WS_MBAR_TX_MAX 0xfffff
static inline int ws_mbar_tx_apply(int32_t *tx, int64_t delta, int phase, const char *unit,
                                   char *why, size_t n)
{
    int64_t t = (int64_t)*tx + delta;
    if (t <= WS_MBAR_TX_MAX && t >= -WS_MBAR_TX_MAX) {
        *tx = (int32_t)t;
        return 1;
    }
    snprintf(why, n, "mbarrier transaction count %lld after %s of %lld%s is out of range "
             "(|count| <= %d; phase %d)", (long long)t, delta > 0 ? "expect_tx" : "complete_tx",
             (long long)(delta > 0 ? delta : -delta), unit, WS_MBAR_TX_MAX, phase);
    return 0;
}

/* Simulated address layout: global allocations live high, shared and local memory are
 * windows of the generic address space (cvta.shared/.local add the window base). */
#define WS_GLOBAL_BASE 0x0000700000000000ull
#define WS_GLOBAL_GAP 0x10000ull
#define WS_SHARED_WINDOW 0x0000100000000000ull
#define WS_LOCAL_WINDOW 0x0000200000000000ull
#define WS_WINDOW_SIZE 0x0000000100000000ull

/* The state space a generic address falls in (shared or local window, else global); moves
 * *addr to the offset within that space. Both executors resolve generic addresses so. */
static inline int ws_generic_space(uint64_t *addr)
{
    if (*addr >= WS_SHARED_WINDOW && *addr < WS_SHARED_WINDOW + WS_WINDOW_SIZE) {
        *addr -= WS_SHARED_WINDOW;
        return WS_SPACE_SHARED;
    }
    if (*addr >= WS_LOCAL_WINDOW && *addr < WS_LOCAL_WINDOW + WS_WINDOW_SIZE) {
        *addr -= WS_LOCAL_WINDOW;
        return WS_SPACE_LOCAL;
    }
    return WS_SPACE_GLOBAL;
}

/* Visits each lane set in `mask` with `l` bound to its index; the full-mask case is a
 * plain counted loop the compiler can vectorize. */
#define WS_LANES(l, mask, ...)                                                     \
    do {                                                                            \
        uint32_t ws_m_ = (mask);                                                    \
        if (ws_m_ == WS_FULL_MASK) {                                                \
            for (int l = 0; l < WS_WARP; l++) { __VA_ARGS__ }                              \
        } else {                                                                    \
            for (; ws_m_; ws_m_ &= ws_m_ - 1) {                                     \
                int l = __builtin_ctz(ws_m_);                                       \
                __VA_ARGS__                                                         \
            }                                                                       \
        }                                                                           \
    } while (0)

/* One global-memory allocation: a spec buffer or a module .global/.const variable. */
typedef struct ws_alloc {
    uint64_t base, size;
    uint8_t *host;
    char name[64];
    int is_const;
} ws_alloc;

/* Per-PC counters (one array per function, per host thread; merged at the end). */
typedef struct ws_pcstat {
    uint64_t issued, active, pred_on, targets, divergent;
    uint64_t replays, replay_threads; /* ws_inst_stat's: passes without a PC of their own */
    /* where the SASS model is known to part from the GPU (sass_run.c, report_caveats): YIELDs issued
       while lanes of the warp were in other groups, CAS lanes whose compare failed, and
       *_syncs over a register mask (BRA.DIV URx, WARPSYNC Rx) run while lanes of the warp
       were in other groups */
    uint64_t diverged_yields, cas_failed, diverged_syncs;
} ws_pcstat;

typedef struct ws_atomcount {
    uint64_t warp_execs, lanes;
    uint64_t hist[33];
} ws_atomcount;

/* Facts about one function prepared once per run. */
typedef struct ws_fninfo {
    int reachable;          /* the entry or something it calls */
    uint64_t local_bytes;   /* per-lane .local frame */
    uint64_t param_block;   /* per-lane own params + rets (0 for the entry: kernel block) */
    uint64_t param_bytes;   /* per-lane .param area: param_block + call scratch locals */
    int *atom_slot;         /* per pc: index into worker atomics, -1 if not atom/red */
} ws_fninfo;

/* One function activation of a warp. */
typedef struct ws_frame {
    int fn;                 /* module function index */
    uint64_t *regs;         /* nregs * 32, lane-major */
    uint8_t *param;         /* 32 lanes * param_bytes */
    uint64_t local_base;    /* offset of this frame in each lane's local area */
    int policy_level;       /* the reconvergence policy's level of this activation */
    int call_pc;            /* the caller's call instruction (-1 for the entry) */
} ws_frame;

enum { WS_W_READY = 0, WS_W_BARRIER, WS_W_DONE };

/* What one warp-instruction did, as its handler reports it; the warp step (exec_warp.c)
 * turns it into the one ws_warp_event that statistics, timelines and timing consume. */
typedef struct ws_effect {
    uint64_t addr[WS_WARP]; /* effective (generic) addresses of ld/st/atom/red lanes */
    uint8_t has_addr;       /* addr, space and bytes are filled */
    uint8_t space, bytes;   /* the ws_space the addresses resolved to; bytes per lane */
    uint8_t taken;          /* bra: 1 = some lanes took it, 2 = all executing lanes did */
    uint8_t groups;         /* warp-wide .sync ops: distinct member masks (else 1) */
    uint8_t advanced;       /* the handler set the next pc itself (control flow) */
    uint8_t barrier;        /* the warp parked at a CTA barrier */
    uint32_t cas_ok;        /* atom.cas: lanes whose compare matched */
    uint8_t printf_call;    /* a device printf (vprintf) call ran here */
    uint16_t printf_chars;  /* its format's length (the timing model prices it) */
} ws_effect;

struct ws_cta;
struct ws_worker;
struct ws_run;

typedef struct ws_warp {
    struct ws_cta *cta;
    int id;
    uint32_t valid;         /* lanes that are threads of the CTA */
    uint32_t exited;
    uint32_t active;        /* current active mask (top of the reconvergence state) */
    int pc;
    int state;
    int bar_id, bar_pc;
    uint32_t bar_count;     /* threads expected (0 = all non-exited) */
    int bar_red_dst;        /* bar.red: result register (-1 = plain barrier) */
    uint32_t bar_red_lanes; /* bar.red: lanes that receive the result */
    uint64_t issued;        /* also %clock */
    uint32_t sync_epoch;    /* __syncwarp count, for race detection */
    uint64_t held[WS_WARP]; /* the lock word each lane holds, 0 none (race detection) */
    uint32_t fenced;        /* lanes that made a memory fence since their last global atomic
                               (race detection: their next one publishes, race.c) */
    uint32_t carry;         /* per-lane carry flag of add.cc / addc */
    void *policy_state;     /* the reconvergence policy's, opaque to the executor */
    int nframes;
    ws_frame frames[WS_MAX_CALL_DEPTH];
    uint64_t *reg_pool; size_t reg_cap;      /* frames' registers, stacked */
    uint8_t *param_pool; size_t param_cap;   /* frames' per-lane param areas, stacked */
    uint8_t *local;         /* 32 * run->local_bytes */
    uint32_t call_mask[WS_MAX_CALL_DEPTH]; /* lanes that entered each frame */
    uint64_t scratch[WS_MAX_SRC + 2][WS_WARP];
} ws_warp;

typedef struct ws_cta {
    struct ws_run *run;
    struct ws_worker *wk;
    uint32_t id;            /* linear */
    uint32_t ctaid[3];
    int nwarps;
    ws_warp *warps;
    uint8_t *shared;
    uint64_t shared_bytes;
    uint32_t bar_epoch;
    /* bar.red accumulators per barrier id (0..15): popc count, and, or */
    uint32_t red_popc[16], red_and[16], red_or[16];
    /* bar.arrive per barrier id since its last release: warps, and the count they named */
    uint32_t bar_arrived[16], bar_arrive_count[16];
    uint64_t *shadow_shared; /* race shadow, 2 words per 4 bytes of shared memory */
    int read_grid_envreg;    /* read %envreg1/2 (a grid sync's workspace) without one */
    ws_mbar_watch mbar;      /* mbarrier waits that can never succeed */
    int atomic_seen;         /* a lane made a global atomic (race detection: acquire) */
} ws_cta;

/* A race report candidate (de-duplicated by PC pair). */
typedef struct ws_race_rec {
    int fn1, pc1, fn2, pc2;
    int kind;               /* 0 write/write, 1 write then read, 2 read then write */
    int space;              /* ws_space */
    uint64_t address;
    uint32_t cta1, cta2;
    int warp1, lane1, warp2, lane2;
    int atomic1, atomic2;
} ws_race_rec;

typedef struct ws_worker {
    struct ws_run *run;
    int index;
    ws_pcstat **pcstat;     /* [fn][pc] */
    ws_atomcount *atoms;    /* [run->natom_slots] */
    ws_cta cta;
    ws_race_rec *races; int nraces, cap_races;
    /* barriers that completed while some warps of the CTA had exited (first per PC) */
    struct { int fn, pc, exited; uint32_t cta; } skips[8];
    int nskips;
    ws_error err;
    int failed;
    int last_alloc;         /* lookup cache */
} ws_worker;

typedef struct ws_reconv_policy ws_reconv_policy;

typedef struct ws_run {
    const ws_module *m;
    const ws_spec *spec;
    const ws_variant *v;
    const ws_sim_launch *raw;   /* ws_sim_run_launch: the parameter block as given; else NULL */
    const ws_sim_options *opt;
    const ws_reconv_policy *policy;
    int entry;                  /* function index */
    ws_fninfo *fi;              /* per module function */
    int natom_slots;
    ws_alloc *allocs; int nallocs;
    int nbuffers;               /* the first nbuffers allocations are the ws_buffers */
    uint64_t *global_addr;      /* per module global: device address or shared offset */
    uint8_t *params; uint64_t param_bytes; /* kernel parameter block */
    uint32_t grid[3], block[3];
    uint64_t nctas;
    int nwarps;                 /* per CTA */
    uint32_t threads_per_cta;
    uint64_t shared_bytes;      /* static + dynamic per CTA */
    uint64_t local_bytes;       /* per-lane local area (all frames) */
    uint64_t param_lane_bytes;  /* per-lane param area (all frames) */
    size_t reg_pool_words;      /* per warp, all frames */
    /* race detection over global memory: 2 shadow words per 4 bytes of each allocation */
    uint64_t **shadow_global;   /* per alloc */
    uint8_t *released_ctas;     /* race.c: CTAs (ids mod 2^19, a bit each) that made a global
                                   atomic after a fence, publishing their earlier writes */
    /* scheduling */
    uint64_t next_cta;          /* atomic */
    uint64_t ctas_done;         /* atomic */
    uint64_t ctas_at_once;      /* atomic: the CTAs the workers' waves began with, summed
                                   (sim__ctas_at_once; 0 when every CTA ran alone) */
    /* atomic: the lowest CTA that failed (UINT64_MAX: none). CTAs below it run on, so the
     * error a run reports is the same whatever the host threads' timing (ws_run_stopped). */
    uint64_t stop_at;
    pthread_mutex_t lock;
    ws_error err; int failed;
    uint64_t progress_step;
    ws_event_sink *sink;        /* timing model; forces one host thread */
    ws_event_sink sinks[2];     /* every consumer of the events: timelines, timing model */
    int nsinks;
    ws_timeline *timelines; int ntimelines;
    uint32_t timeline_ctas;     /* timelines are recorded for the first warps of these */
    size_t printed, printf_dropped; /* bytes of kernel printf written / over the limit (lock) */
    /* cooperative launches: cooperative groups' grid-sync workspace (%envreg1:%envreg2; 0
     * otherwise) and the atomics on it, which are arrivals at a grid barrier */
    uint64_t grid_workspace, grid_arrivals;
    /* the device heap that malloc and free serve (heap.c): 1 + its allocation (0: none) and
     * its blocks, in address order (lock) */
    int heap;
    struct ws_heap_block *heap_blocks;
    int heap_nblocks, heap_cap;
    int meet;                  /* its CTAs can see each other's atomics (an atom outside
                                  shared memory whose result a thread reads) */
    int share;                 /* its CTAs take work from a global counter (a fetch-and-op
                                  atom outside shared memory whose result a thread reads,
                                  not a CAS or an exchange): they run resident together from
                                  the start, as on the GPU, where one after another the
                                  first CTA would take every item */
    int resident;              /* CTAs a worker keeps resident at once once one waits on
                                  another (ws_run_resident) */
    int sms;                   /* SMs of the GPU the run is modelled on (ws_run_gpu): %nsmid,
                                  and %smid of CTA i is i mod sms, as the block scheduler
                                  hands out a launch's first wave */
    int max_warps;             /* warps an SM holds (%nwarpid) */
    int timed;                 /* its CTAs retry CAS loops on global words: the resident
                                  CTAs' warps take turns by a clock (ws_sass_run_timed);
                                  2 once WS_TIMED_BUDGET ran out */
    double l2_cycles;          /* a global load's round trip (mem.l2_latency), cycles */
    double atom_cycles;        /* a global atomic's round trip (atom.l2_latency) */
    double cas_lane_cycles;    /* one lane's CAS attempt at its word's unit
                                  (atom.cas_lane_cycles) */
    double far_cycles;         /* an L2 line's round trip from the SMs it is far from, over
                                  the near ones' (mem.l2_far_cycles) */
    char cc[8];                /* the compute capability its occupancy follows ("" when
                                  no preset loads) */
} ws_run;

/* Whether CTA `cta` should give up: a lower-numbered CTA failed. A failed wave of resident
 * CTAs counts as CTA 0, so it stops everything. */
static inline int ws_run_stopped(const ws_run *r, uint64_t cta)
{
    return __atomic_load_n(&r->stop_at, __ATOMIC_RELAXED) < cta;
}

/* Records CTA `cta`'s error `e` unless a lower CTA's is already there; CTAs above stop. A
 * CTA that gave up because another failed (e->code WS_OK) records nothing over it. */
static inline void ws_run_fail(ws_run *r, const ws_error *e, uint64_t cta)
{
    pthread_mutex_lock(&r->lock);
    if (!r->failed || (cta < r->stop_at && e->code != WS_OK)) {
        r->err = *e;
        r->failed = 1;
        __atomic_store_n(&r->stop_at, cta, __ATOMIC_RELAXED);
    }
    pthread_mutex_unlock(&r->lock);
}

/* CTA state the resident CTAs of one launch may take, all workers together. */
#define WS_RESIDENT_BYTES (512ull << 20)
/* CTAs run one after another, except where they take work from a global counter
 * (ws_run.share: resident together from the start). A CTA of a kernel whose CTAs meet
 * (ws_run.meet) that issues more warp-instructions than this without ending waits on
 * another CTA (a grid barrier made from atomics, a lock held elsewhere): its worker keeps it
 * and brings in up to ws_run.resident CTAs at once, their warps interleaved (ws_x_run_wave,
 * ws_sass_run_wave). */
#define WS_WAIT_BUDGET (1ull << 24)
/* Warp-instructions a launch runs in the timed order (CAS retry loops, ws_sass_run_timed)
 * before the rest of it runs one CTA after another: about ten seconds. */
#define WS_TIMED_BUDGET (1ull << 25)
/* What ws_x_run_cta / ws_sass_run_cta return for such a CTA, left running in its slot. */
#define WS_CTA_WAITS (-2)

/* ---- exec_warp.c: one warp-instruction, the CTA loop, barriers */
int ws_x_run_cta(ws_worker *wk, uint64_t cta_linear);
/* What a model does to one of a worker's CTA slots, for ws_wave_run. */
typedef struct ws_wave_ops {
    int (*begin)(void *ctx, int slot, uint64_t linear); /* start CTA `linear`: 0 or an error */
    int (*round)(void *ctx, int slot);  /* a turn for each of its warps: 1 ended, 0 goes on,
                                           else an error code */
    void (*end)(void *ctx, int slot);   /* after round returned 1 */
    void (*done)(void *ctx);            /* after each CTA that ended (progress) */
} ws_wave_ops;
/* Runs CTAs taken from r->next_cta, up to `slots` of them resident at once, each live slot
 * a round per pass in slot order, so that a CTA spinning on another's atomic sees it (as on
 * the GPU); a slot whose CTA ended takes the next one at once. With `adopt`, slot 0 holds a
 * live CTA already (the one that waited: WS_CTA_WAITS). 0, or the first error code. */
int ws_wave_run(ws_run *r, int slots, int adopt, const ws_wave_ops *ops, void *ctx);
/* ws_wave_run over the PTX model's CTAs: `slots` of them on this worker, slot 0 the
 * worker's own CTA (the one ws_x_run_cta left waiting, with `adopt`). */
int ws_x_run_wave(ws_worker *wk, int slots, int adopt, void (*done)(ws_worker *wk));
/* How many CTAs of the launch each of `workers` host threads keeps resident when one waits
 * on another: the GPU's resident CTAs (occupancy per SM at r->cc, with `regs` registers a
 * thread, times r->sms; both from ws_run_gpu, called first), shared among the workers,
 * within `max_bytes` of CTA state at `cta_bytes` a CTA; 1 when r->meet is 0. */
int ws_run_resident(const ws_run *r, int regs, int workers, uint64_t cta_bytes, uint64_t max_bytes);
/* Sets r->sms, r->max_warps and r->cc from the preset the run is modelled on (the run's,
 * else the one for compute capability cc, else h100's) and the compute capability's limits
 * (cc, else the preset's); 132 SMs of 64 warps and no cc if none loads. */
void ws_run_gpu(ws_run *r, const char *cc);
/* The SM that CTA `linear` of r runs on: the block scheduler puts a launch's first wave one
 * CTA an SM, and each later CTA where one ended, the same SM in turn when CTAs take equal
 * time (bench/placement.sh on an H200: 8, 66 and 132 CTAs on as many SMs, 264 and 528
 * exactly 2 and 4 on each). The H200 numbers the SMs in another order (CTA 0 on SM 124,
 * CTA 8 on SM 0, then SMs in pairs across its GPCs); the model keeps CTA i on SM i mod SMs,
 * which puts as many CTAs on each SM. */
static inline uint32_t ws_run_smid(const ws_run *r, uint64_t linear)
{
    return (uint32_t)(linear % (uint64_t)(r->sms > 0 ? r->sms : 1));
}
/* sim__ctas_at_once: the CTAs the run's waves began with, all workers together, at most the
 * launch's; 1 when no CTA met another. */
static inline uint64_t ws_run_ctas_at_once(const ws_run *r)
{
    uint64_t n = r->ctas_at_once;
    return n < 1 ? 1 : n > r->nctas ? r->nctas : n;
}
/* An atomic by `lanes` threads on the grid-sync workspace: after one arrival per CTA the
 * grid barrier is complete, and global accesses before it no longer race with later ones. */
void ws_x_grid_arrivals(ws_run *r, int lanes);
/* A synchronisation point of the whole CTA (a barrier, an mbarrier phase completing):
 * accesses before it no longer race with accesses after it. */
void ws_x_cta_sync_point(ws_cta *c);
int ws_x_cta_init(ws_worker *wk);
void ws_x_cta_free(ws_cta *c);

/* ---- operands (exec_warp.c) */
const uint64_t *ws_x_src(ws_warp *w, const ws_inst *in, int k, uint64_t *scratch);
static inline uint64_t *ws_x_reg(ws_warp *w, int reg)
{
    assert(reg >= 0); /* the parser resolves every register operand to a dense index */
    return w->frames[w->nframes - 1].regs + (size_t)reg * WS_WARP;
}
static inline const ws_function *ws_x_fn(const ws_warp *w)
{
    return &w->cta->run->m->funcs[w->frames[w->nframes - 1].fn];
}
/* Fills err with a thread-located simulation fault; returns WS_ERR_SIM (or `code`). */
int ws_x_fault(ws_warp *w, const ws_inst *in, int lane, uint64_t addr, ws_code code,
               const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* ---- exec_alu.c: integer, logic, floating point, conversions, comparisons */
int ws_x_alu(ws_warp *w, const ws_inst *in, uint32_t exec);
int ws_x_cmp_float(int cmp, double x, double y); /* ws_cmp on two reals, NaN-aware */

/* ---- exec_half.c: f16/bf16 and their pairs; one rounding from double to 16 bits */
int ws_x_half(ws_warp *w, const ws_inst *in, uint32_t exec);
double ws_f16_to_double(uint16_t h);
double ws_bf16_to_double(uint16_t b);
uint16_t ws_double_to_f16(double x);  /* in the current rounding mode; NaN stays NaN */
uint16_t ws_double_to_bf16(double x);
/* FP8 pairs, e4m3 or e5m2 (`e5m2` 1), as both models' conversions use them: two reals
 * (`hi` to the high byte), or an f16x2, rounded to nearest even (`sat`: .satfinite;
 * `relu`: negatives to +0); and a pair to the f16x2 of the same values. */
uint16_t ws_fp8x2_from(double hi, double lo, int e5m2, int sat, int relu);
uint16_t ws_fp8x2_from_f16x2(uint32_t h2, int e5m2, int sat, int relu);
uint32_t ws_fp8x2_to_f16x2(uint16_t v, int e5m2, int relu);

/* Handlers of the other families report what they did in `fx` (zeroed, groups 1). */

/* ---- exec_mem.c: ld/st/atom/red/cvta, address resolution */
int ws_x_mem(ws_warp *w, const ws_inst *in, uint32_t exec, ws_effect *fx);
int ws_x_cvta(ws_warp *w, const ws_inst *in, uint32_t exec);
uint64_t ws_x_symbol_address(const ws_warp *w, int32_t sym, int space_of_inst);
/* Host pointer to `n` bytes at `addr` (state space `space`) for `lane`, for reads outside
 * ld (printf's strings and arguments); NULL with a located fault set. */
const uint8_t *ws_x_host(ws_warp *w, const ws_inst *in, int space, uint64_t addr, uint64_t n,
                         int lane);

/* Writable host pointer for `n` bytes at `addr` (mbarrier objects); NULL with a fault set. */
uint8_t *ws_x_host_rw(ws_warp *w, const ws_inst *in, int space, uint64_t addr, uint64_t n,
                      int lane);
/* Effective addresses of the memory operand src[k], resolved as state space `space`. */
void ws_x_addresses(ws_warp *w, const ws_inst *in, int k, int space, uint32_t exec,
                    uint64_t *addr);

/* ---- exec_async.c: cp.async groups, cp.async.mbarrier.arrive and mbarrier.* */
int ws_x_async(ws_warp *w, const ws_inst *in, uint32_t exec, ws_effect *fx);

/* ---- exec_image.c: tex, suld, sust through the spec's texture and surface objects */
int ws_x_image(ws_warp *w, const ws_inst *in, uint32_t exec);

/* ---- exec_printf.c: the device printf (a call of the external vprintf) */
int ws_x_vprintf(ws_warp *w, const ws_inst *in, uint32_t exec, ws_effect *fx);
/* The device heap (heap.c), WS_HEAP_BYTES as CUDA's default cudaLimitMallocHeapSize. Each
 * returns 0; malloc's *addr is 0 when no block is large enough (as CUDA's malloc returns
 * NULL; malloc(0) gets a block of its own, as on the GPU), and
 * free of an address malloc did not return (or returned and free already took) gives
 * `bad` = 1. The PTX model's call sequences of each, and the heap's setup and teardown. */
#define WS_HEAP_BYTES (8ull << 20)
int ws_heap_malloc(ws_run *r, uint64_t size, uint64_t *addr);
int ws_heap_free(ws_run *r, uint64_t addr, int *bad);
/* One lane's malloc(arg) (*result: the block) or free(arg): 0, or an error code with its
 * message in `msg` (either model's fault names the lane and the call). */
int ws_heap_call(ws_run *r, int is_malloc, uint64_t arg, uint64_t *result, char *msg, size_t n);
int ws_x_heap_call(ws_warp *w, const ws_inst *in, uint32_t exec);
/* __assertfail(message, file, line, function, charSize) reached by the lanes of exec: the
 * run stops with the assertion, located at the lowest such lane (a kernel's assert()). */
int ws_x_assertfail(ws_warp *w, const ws_inst *in, uint32_t exec);

/* ---- exec_ctrl.c: branches, call/ret, exit, warp-wide operations, barriers */
int ws_x_ctrl(ws_warp *w, const ws_inst *in, int pc, uint32_t exec, ws_effect *fx);
int ws_x_warpop(ws_warp *w, const ws_inst *in, uint32_t exec, ws_effect *fx);

/* ---- shared with the SASS model (sim_run.c, exec_mem.c) */
/* Finds the entry, lays out global memory and parameters for r->m/spec/v/opt. */
int ws_run_setup(ws_run *r, ws_buffers *bufs, ws_error *err);
/* The simulator's bytes of module variable g (.global/.const), NULL for a shared one. */
uint8_t *ws_run_global_bytes(ws_run *r, int g);
/* A texture or surface as a handler sees it: its spec line and the buffer's bytes
 * (exec_image.c; the SASS model's TEX/TLD use the same sampler). */
typedef struct ws_img {
    const ws_image *spec;
    const char *name;
    uint8_t *texels;
    int esize;                /* bytes per texel */
    ws_type type;
} ws_img;
/* The image a handle (1 + the spec buffer's index) names, of kind `want`; -1 if none. */
int ws_image_get(const ws_run *r, uint64_t handle, int want, ws_img *out);
/* The texel at (x, y, z) after the address mode (0 outside a border image). */
double ws_image_texel(const ws_img *g, const int64_t c[3]);
/* One channel sampled at coord (nd of them): point or the hardware's linear filter;
 * int_coords: texel indices, as tex1Dfetch and tex.s32 take them. */
double ws_image_sample(const ws_img *g, const double coord[3], int nd, int int_coords);

/* How the device printf's formatter reads memory: `host` gives the bytes at a generic
 * address for a lane (NULL after it reported a fault), `nomem` reports running out. */
typedef struct ws_printf_io {
    const uint8_t *(*host)(void *ctx, uint64_t addr, uint64_t n, int lane);
    int (*nomem)(void *ctx, int lane);
    void *ctx;
} ws_printf_io;
/* vprintf(fmt[l], args[l]) for each lane of exec, in lane order, into the run's printf
 * stream (exec_printf.c); nargs[l] = the arguments each lane read (vprintf's result),
 * *chars = the longest of the lanes' formats (at most 65535). */
int ws_printf_lanes(ws_run *r, const ws_printf_io *io, uint32_t exec, const uint64_t *fmt,
                    const uint64_t *args, int32_t *nargs, uint16_t *chars);

/* The device assert's failure for one lane: "assertion `MSG' failed in FUNCTION", the
 * message and function read as C strings at generic addresses (at most 200 bytes each);
 * 0, or WS_ERR_SIM with the io's fault set when a string is outside memory. */
int ws_assert_message(const ws_printf_io *io, int lane, uint64_t msg, uint64_t func,
                      char *out, size_t n);

/* One lane's surface access of n bytes at (x bytes, y rows) into *p; out of range: trap
 * (WS_SURF_OUTSIDE), zero (0 with *p NULL: reads 0, writes nothing) or clamp (the nearest
 * texel). WS_SURF_MISALIGNED when x is not a multiple of n. */
enum { WS_SURF_TRAP, WS_SURF_ZERO, WS_SURF_CLAMP };   /* the out-of-range mode */
enum { WS_SURF_OUTSIDE = 1, WS_SURF_MISALIGNED };     /* ws_surface_at's failures */
int ws_surface_at(const ws_img *g, int64_t x, int64_t y, int n, int mode, uint8_t **p);

/* The one-variant spec a raw launch runs as (both zeroed and filled; v is s's variant). */
void ws_launch_spec(const ws_sim_launch *l, ws_spec *s, ws_variant *v);
void ws_run_teardown(ws_run *r, ws_buffers *bufs);
/* A sequence variant's launches one after the other over `bufs`, each run by `one` (the
 * PTX or the SASS model) with `opt` (NULL: the defaults) and the sequence's `__device__`
 * carry, summed into `res` with a row per launch. */
typedef int (*ws_run_one_fn)(void *ctx, const ws_variant *v, const ws_sim_options *opt,
                             ws_result *res, ws_error *err);
int ws_run_sequence(const ws_spec *s, const ws_variant *v, ws_buffers *bufs,
                    const ws_sim_options *opt, ws_run_one_fn one,
                    void *ctx, ws_result *res, ws_error *err);
/* Index of the allocation holding [addr, addr+n), or -1. */
int ws_x_find_alloc(ws_worker *wk, uint64_t addr, uint64_t n);
/* "4 bytes past the end of 'out' [...]" for a fault message. */
void ws_x_describe_address(const ws_run *r, uint64_t addr, uint64_t n, int is_write, char *buf,
                           size_t len);

/* ---- race.c (both executors) */
/* One lane's access of `bytes` at `addr`; `shadow` is the shadow pair of its first word. */
void ws_race_access(ws_warp *w, const ws_inst *in, int space, uint64_t addr, int bytes,
                    int lane, int is_write, int is_atomic, uint64_t *shadow);
int ws_race_merge(ws_run *run, ws_worker *wks, int nwk, ws_result *res);
/* Who made an access: the thread, the instruction (function, PC) and the CTA barriers and
 * warp syncs it came after. */
#define WS_RACE_CTAS (1u << 18) /* CTA ids race detection tells apart (race.c CTA_BITS) */
typedef struct ws_race_who {
    uint32_t cta;
    int warp, lane, fn, pc;
    uint32_t bar_epoch, sync_epoch;
    int locked; /* the lane holds a lock (ws_race_lock) */
    int fenced; /* the lane made a memory fence (membar, fence, MEMBAR) since its last
                   global atomic */
    int acquired; /* the lane's CTA has made a global atomic before this access */
    int strong;   /* a volatile, relaxed, acquire or release load or store (not CTA-scoped
                     in SASS): it and an atomic or another such access do not race */
} ws_race_who;
/* After `who` (built before the call) for a lane's global atomic: its CTA has acquired what
 * other CTAs published (who.acquired of its later accesses), and the lane's fence, if it
 * made one, has released its earlier writes (who.fenced is 0 again). Both executors call it. */
void ws_race_global_atomic(int *atomic_seen, uint32_t *fenced, int lane);
/* Lock tracking for race detection, after lane's atomic or store at `addr` (`held`: the
 * lock word the lane holds, 0 none): an atomic compare-and-swap or exchange that finds 0
 * and writes something else takes the word as a lock (`swap`: 1 for those, with the old
 * and new values); any later write of the holder to that word gives it back. */
int ws_race_lock(uint64_t *held, uint64_t addr, int swap, uint64_t old, uint64_t nv);
/* ... returns 1 when it gave the lock back. A lock that one lane holds is held by the lanes
 * a __syncwarp or __syncthreads synchronizes it with (one leader takes the lock for its warp
 * or CTA). Both take the `held` arrays of `nwarps` warps, `stride` bytes apart (an
 * executor's warps, from the first one's `held`): ws_race_lock_share gives the lanes that
 * hold none the first lock some lane holds; ws_race_lock_end gives `addr` back in every lane
 * holding it (the leader's release ends the whole group's critical section). */
void ws_race_lock_share(uint64_t *held, size_t stride, int nwarps);
void ws_race_lock_end(uint64_t *held, size_t stride, int nwarps, uint64_t addr);
/* The executor-neutral check behind ws_race_access: `sp` is the resolved space (shared or
 * global); conflicts are recorded in wk. */
void ws_race_check(ws_worker *wk, const ws_race_who *who, int sp, uint64_t addr, int bytes,
                   int is_write, int is_atomic, uint64_t *shadow);
/* "PC 12 (file.cu:7)" for a report; the executor's own numbering. */
typedef void (*ws_race_describe)(const void *ctx, int fn, int pc, char *buf, size_t n);
/* Whether the plain load at pc `load` reads the guess of the compare-and-swap at pc `cas`
 * (the same address operand): the CUDA Programming Guide's retry loop, `old = *a; do {..}
 * while (atomicCAS(a, ..) != ..)`, whose CAS checks what the load read. */
typedef int (*ws_race_cas_guess)(const void *ctx, int fn_load, int load, int fn_cas, int cas);
/* ws_race_merge over workers `stride` bytes apart (an executor's worker that embeds its
 * ws_worker first), naming PCs with `describe`. A plain load and an atomic CAS that
 * `guess` (NULL: none) says is such a pair do not race: the CAS makes a stale read fail
 * and retry instead of being used. */
int ws_race_report(const ws_worker *first, size_t stride, int nwk, ws_race_describe describe,
                   ws_race_cas_guess guess, const void *ctx, ws_result *res);

/* ---- stats.c */
int ws_stats_alloc(ws_worker *wk);
void ws_stats_free(ws_worker *wk);
int ws_stats_fill(ws_run *run, ws_worker *wks, int nwk, ws_result *res, ws_error *err);
void ws_stats_atomic(ws_worker *wk, int fn, const ws_warp_event *ev);
/* Every count of the run is kept here, from the events (per PC, branches, atomics);
 * `fn` is the module index of ev->fn. Inline: it runs once per warp-instruction. */
static inline void ws_stats_event(ws_worker *wk, int fn, const ws_warp_event *ev)
{
    ws_pcstat *st = &wk->pcstat[fn][ev->pc];
    st->issued++;
    st->active += (uint64_t)__builtin_popcount(ev->active);
    st->pred_on += (uint64_t)__builtin_popcount(ev->pred_on);
    if (ws_op_has(ev->inst->op, WS_OPF_BRANCH)) {
        /* As CUPTI counts (derive.c): one target per execution of the branch, one
         * divergent per execution whose lanes split (some took it, others did not). */
        st->targets++;
        st->divergent += (uint64_t)(ev->taken == 1);
    }
    if (ev->addr && ev->pred_on)
        ws_stats_atomic(wk, fn, ev);
}
/* The sink that records lane timelines for the first run->ntimelines warps. */
ws_event_sink ws_timeline_sink(ws_run *r);

/* ---- helpers for typed lane values */
static inline uint64_t ws_trunc(uint64_t v, int bits)
{
    return bits >= 64 ? v : (v & ((1ull << bits) - 1));
}
static inline int64_t ws_sext(uint64_t v, int bits)
{
    if (bits >= 64)
        return (int64_t)v;
    uint64_t m = 1ull << (bits - 1);
    v &= (1ull << bits) - 1;
    return (int64_t)((v ^ m) - m);
}
static inline float ws_f32(uint64_t v) { float f; uint32_t u = (uint32_t)v; memcpy(&f, &u, 4); return f; }
static inline double ws_f64(uint64_t v) { double d; memcpy(&d, &v, 8); return d; }
static inline uint64_t ws_bits_f32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline uint64_t ws_bits_f64(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

#endif
