/* timing.h — the timing and contention model (private to sim/). It consumes a static
 * description of the kernel's instructions (built by a front end: timing_ptx.c for PTX)
 * and the functional executor's warp-instruction events (events.h), and predicts cycles
 * and time for a launch on a GPU described by a preset file (sim/presets/NAME.gpu). */
#ifndef WS_SIM_TIMING_H
#define WS_SIM_TIMING_H

#include "sim/events.h"

typedef struct ws_timing ws_timing;

typedef struct ws_launch_shape {
    uint32_t grid[3], block[3];
    uint32_t smem_bytes;       /* static + dynamic shared memory per CTA */
    int regs_per_thread;       /* from ws_ptx_resources; 0 = unknown */
    double footprint_bytes;    /* the launch's global buffers, bytes (0 = unknown) */
    int timed_order;           /* the stream comes from the timed order (ws_run.timed): its
                                  CAS requests can be overtaken by other warps' swaps */
} ws_launch_shape;

#define WS_PC_MAXSRC 12
#define WS_PC_MAXDST 6
/* What the timing model needs to know of one instruction (PC), whatever its front end. */
typedef struct ws_pcstatic {
    int32_t src[WS_PC_MAXSRC], dst[WS_PC_MAXDST]; /* registers read (guard included), written */
    uint8_t nsrc, ndst;
    uint8_t lat;              /* ws_lat: latency and issue class */
    uint8_t is_bar;           /* a barrier the warp waits at */
    uint8_t serial;           /* nothing is scheduled across it (barriers, fences, calls) */
    uint8_t is_load;          /* a load: issued predicated off, it costs a memory latency */
    uint8_t shared;           /* a load from shared memory */
    uint8_t mem_kind;         /* memory accesses: WS_MEM_LOAD, WS_MEM_STORE, WS_MEM_ATOMIC */
    uint8_t guarded;          /* has a guard predicate */
    uint8_t unpredicable;     /* control flow, barrier or atomic: ends a predicated body */
    uint8_t yield;            /* head of a spin loop (the compiler's YIELD) */
    uint8_t call;             /* a call or a return (SASS CALL, RET): fetch moves to another function */
    uint8_t atom_cas;         /* a compare-and-swap */
    uint8_t atom_exch;        /* an exchange (a lock's release, atomicExch(lock, 0)) */
    uint8_t fence;            /* a memory fence (MEMBAR, FENCE; PTX membar, fence) */
    uint8_t atom_fp;          /* a floating-point atomic */
    uint8_t atom_merge;       /* lanes on one word merge into one add (ATOMS.POPC.INC) */
    uint8_t stall;            /* SASS: the compiler's stall count, cycles before the warp's
                               * next instruction may issue (0: none known) */
    int32_t target;           /* direct branches: target pc, else -1 */
    int32_t reconv_pc;        /* branches: reconvergence pc, -1 = function exit */
} ws_pcstatic;
enum { WS_MEM_LOAD, WS_MEM_STORE, WS_MEM_ATOMIC };

/* One function's instructions, keyed by the function its events name. */
typedef struct ws_fnstatic {
    const ws_function *fn;
    int ninsts, nregs;
    ws_pcstatic *pc;
} ws_fnstatic;
typedef struct ws_static_desc {
    int nfns;
    ws_fnstatic *fns;
    int entry;                /* index of the kernel's function */
    int in_order;             /* SASS with its control bits: each warp issues in program
                               * order, its instructions' stall counts apart (the compiler's
                               * schedule), instead of through the preset's sched.window */
} ws_static_desc;

/* timing_ptx.c: the description of module `m` whose kernel is function `entry`. */
int ws_timing_ptx_desc(const ws_module *m, int entry, ws_static_desc *out);
/* sass_timing.c: the description of a SASS kernel, keyed by `key` (the function its
 * events name). Its branches are real: no if-conversion is inferred, and the warp waits at
 * the BSYNCs ptxas placed; spin loops are priced at their YIELDs. */
struct ws_sass_kernel;
int ws_timing_sass_desc(const struct ws_sass_kernel *k, const ws_function *key,
                        ws_static_desc *out);
void ws_static_desc_free(ws_static_desc *d);

/* preset: a name ("h100", "fermi") looked up in sim/presets, or a path. `desc` must
 * outlive the model. */
int ws_timing_new(const char *preset, const ws_static_desc *desc, const ws_launch_shape *shape,
                  ws_timing **out, ws_error *err);
/* The sink to hand to the executor; valid while `t` lives. */
ws_event_sink ws_timing_sink(ws_timing *t);
/* Adds sim__cycles, sim__time_ns, stall breakdown, achieved occupancy, ... to `r`. */
int ws_timing_finish(ws_timing *t, ws_result *r, ws_error *err);
void ws_timing_free(ws_timing *t);

#endif
