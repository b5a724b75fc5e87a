/* sass_exec.h — private to the SASS executor (sass_exec*.c, sass_alu*.c): the warp state
 * under Volta+ independent thread scheduling (groups of lanes with their own PC, 16
 * convergence barrier registers), the operand helpers every handler shares, the effect
 * record handlers fill, and one handler per sass_ops.def `handler` name. */
#ifndef WS_SIM_SASS_EXEC_H
#define WS_SIM_SASS_EXEC_H

#include <stdint.h>
#include <string.h>
#include "sim/exec.h"
#include "sim/sass_ir.h"

/* A set of lanes of one warp that run together: same PC, same state. */
enum { WS_SG_READY = 0, WS_SG_BSYNC, WS_SG_WARPSYNC, WS_SG_BAR, WS_SG_MBAR, WS_SG_DONE };
typedef struct ws_sass_group {
    int32_t pc;        /* instruction index */
    uint32_t mask;
    uint8_t state;     /* WS_SG_* */
    int8_t bar;        /* WS_SG_BSYNC: barrier register; WS_SG_BAR: CTA barrier id;
                          WS_SG_MBAR: the phase parity whose completion it waits for */
    uint32_t need;     /* WS_SG_WARPSYNC: the lanes it waits for; WS_SG_MBAR: the
                          mbarrier's offset in the CTA's shared memory */
    uint32_t seq;      /* when it was made or joined: the newest ready group runs next */
    uint16_t depth;    /* WS_SG_BSYNC: the saves of its barrier register outstanding when it
                          arrived (ws_sass_warp.bdepth) */
} ws_sass_group;

struct ws_sass_cta;

typedef struct ws_sass_warp {
    struct ws_sass_cta *cta;
    int id;
    uint32_t valid;            /* lanes that are threads of the CTA */
    uint32_t exited;
    uint32_t *r;               /* nregs * 32 values, lane-major: r[reg * 32 + lane] */
    int nregs;
    uint32_t ur[WS_SASS_NUREGS];
    uint32_t p[8];             /* predicate registers as lane masks; p[7] (PT) = all */
    uint8_t up;                /* uniform predicates, bit i = UPi; bit 7 (UPT) = 1 */
    uint32_t b[WS_SASS_NBARRIERS]; /* convergence barrier registers: lane masks */
    uint16_t bdepth[WS_SASS_NBARRIERS]; /* saves of each (BMOV.32.CLEAR R, B) a restore
                                           (BMOV.32 B, R) has not yet undone: calls deep */
    int ngroups;
    ws_sass_group groups[WS_WARP];
    int cur;                   /* index of the group that runs */
    uint32_t seq;              /* groups made or joined so far */
    uint64_t issued;           /* warp-instructions issued; also the clock */
    uint64_t since_switch;     /* instructions since the running group last changed */
    uint8_t *local;            /* 32 lanes * frame bytes of local memory */
    ws_timeline *timeline;     /* when recorded */
    uint32_t sync_epoch;
    uint64_t held[WS_WARP];    /* the lock word each lane holds, 0 none (race.c) */
    uint32_t fenced;           /* lanes that made a memory fence since their last global
                                  atomic (race.c: their next one publishes) */
    uint8_t turn_over;         /* a test_wait found its phase incomplete: the warp's turn
                                  ends (nothing changes until other warps run) */
    uint8_t in_flight;         /* timed order: its next global access is on its way */
    uint8_t parked;            /* timed order: it waits on its CTA, off the clock */
    double clock;              /* timed order: the cycle its next instruction issues */
    uint8_t last_cas;          /* timed order: its last global access was a CAS (1) or
                                  another atomic (2) */
    uint8_t split_far;         /* timed order: the CAS about to run defers its far lanes */
    uint32_t far;              /* timed order: lanes of its last CAS that reach their word's
                                  L2 partition later (ws_sass_far_lanes), not yet run */
    const ws_sass_inst *far_in; /* that CAS, and its PC */
    int far_pc;
    double near_done;          /* when the near lanes' answer is back */
    uint64_t far_word;         /* the first far lane's word */
    uint8_t reserved;          /* timed order: its CAS's turn at the word is booked: 1 the
                                  near (or only) part's, 2 the far part's */
    double arrived_at;         /* when that CAS reached memory */
    double done_at;            /* when the booked turn ends (the answer leaves the word) */
    uint8_t far_event;         /* the timing model's event for that CAS waits for its far
                                  lanes' outcome (far_ev, its addresses far_ev_addr) */
    ws_warp_event far_ev;
    uint64_t far_ev_addr[WS_WARP];
    int8_t side;               /* its global access on its way: -1 all near (a CAS: its near
                                  lanes first), 1 all far, 0 both or no partitions */
} ws_sass_warp;

/* The lanes of w whose words lie in the L2 partition far from w's SM (timed order): an
 * H200's SMs fall into two halves, and a line is 33 cycles further (round trip) from the
 * half it is not near (bench/l2probe spread). Which half an SM is in and which partition a
 * line is in are not documented: the model takes the SM's parity (CTA i on SM i mod SMs) and
 * the parity of the line's address bits. */
uint32_t ws_sass_far_lanes(const ws_sass_warp *w, uint32_t exec, const uint64_t *addr);
/* The effective addresses of a memory instruction's exec lanes (nothing else is done). */
void ws_sass_mem_lanes(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, uint64_t *addr);

/* The address a call to printf (vprintf, outside the module) resolves to: a call reaching
 * it runs the device printf (sass_ctrl.c). */
#define WS_SASS_VPRINTF 0x7ff0000000000000ull
/* ... and a call to __assertfail (a failed assert()): the run stops with the assertion. */
#define WS_SASS_ASSERTFAIL 0x7ff0000000000010ull
#define WS_SASS_MALLOC 0x7ff0000000000020ull /* the device heap (heap.c) */
#define WS_SASS_FREE 0x7ff0000000000030ull

/* The bytes at a generic address for one lane (a located fault and NULL outside memory). */
const uint8_t *ws_sass_host(ws_sass_warp *w, const ws_sass_inst *in, uint64_t addr, uint64_t n,
                            int lane);

/* What one warp-instruction did, filled by its handler (zeroed before each call). */
typedef struct ws_sass_fx {
    uint64_t addr[WS_WARP];    /* effective addresses of a memory access (exec lanes) */
    uint8_t has_addr;
    uint8_t space;             /* ws_space */
    uint8_t bytes;             /* per lane */
    uint8_t groups;            /* warp-wide ops: distinct member groups (1 otherwise) */
    uint8_t passes;            /* ran once per group of lanes, `groups` passes (WARPSYNC.
                                  EXCLUSIVE; BRX/CALL/RET through registers, one per target):
                                  counted as branches the way the H100 counts them */
    uint8_t more_passes;       /* passes beyond `groups` that are no branch target (a RET's) */
    uint8_t quiet_passes;      /* the passes are no branch targets at all (WARPSYNC.COLLECTIVE:
                                  an H200 counts its further passes, not its groups' targets) */
    uint32_t replay_threads;   /* its further passes' lanes (ws_inst_stat.replay_threads) */
    uint32_t cas_ok;           /* CAS: lanes whose compare matched */
    /* control flow, for the executor */
    uint32_t taken;            /* BRA/BRX/CALL/RET/JMP: lanes that go to next_pc */
    int32_t next_pc;           /* their target instruction index */
    uint32_t again;            /* BRX/CALL/RET through registers: lanes with another target,
                                  which the handler gave groups of their own at it */
    uint8_t block;             /* the running group stops here (BSYNC, WARPSYNC, BAR, exit) */
    uint8_t yield;             /* let another ready group run (YIELD, NANOSLEEP) */
    uint8_t printf_call;       /* a call of the device printf ran (CALL to vprintf) */
    uint16_t printf_chars;     /* its format's length (the timing model prices it) */
} ws_sass_fx;

/* A constant bank as the kernel sees it (driver area, parameters, relocations applied). */
typedef struct ws_sass_bank {
    uint32_t size;
    uint8_t *data;
} ws_sass_bank;

#define WS_SASS_NBANKS 18

/* One launch on the SASS model: the shared launch state (allocations, parameters, grid,
 * timelines) plus the kernel's SASS and constant banks. */
typedef struct ws_sass_run {
    ws_run base;
    const ws_sass_kernel *k;
    ws_sass_bank banks[WS_SASS_NBANKS];
    uint64_t *sym_addr;        /* per k->syms: device address of a global, else 0 */
    uint32_t frame_bytes;      /* local memory per thread */
    int nregs;                 /* registers allocated per warp (max used + 1, pairs) */
    uint64_t quantum;          /* instructions a warp issues before the next warp runs */
    uint32_t shared_base;      /* where user shared memory starts: 0x400 on sm_90 (the
                                * reserved 1 KB and the cluster window), 0 before */
    ws_function event_fn;      /* the function the timing model's events name (a key) */
} ws_sass_run;

/* ---- decoded instructions (sass_fast.c): one per SASS instruction, made once per worker.
 * A source of a plain form: a register row, a constant (immediate, unindexed c[][], RZ/URZ;
 * `~`, `|.|` and `-` folded in) or a uniform register; neg: ~0 for a `-` on a row or UR. */
enum { WS_FS_CONST = 0, WS_FS_ROW, WS_FS_UR };
typedef struct ws_sass_fsrc {
    uint8_t kind;              /* WS_FS_* */
    int16_t reg;
    uint32_t val;              /* WS_FS_CONST */
    uint32_t neg;
} ws_sass_fsrc;

struct ws_sass_dinst;
/* A plain form's handler: cannot fail, writes one register, leaves control to the step. */
typedef void (*ws_sass_fast)(ws_sass_warp *w, const struct ws_sass_dinst *d, uint32_t exec);

typedef struct ws_sass_dinst {
    ws_sass_fast fast;         /* a plain form (LOP3, IMAD, IADD3, VIADD, MOV), else NULL */
    int (*fn)(ws_sass_warp *, const ws_sass_inst *, uint32_t, struct ws_sass_fx *);
    const ws_sass_inst *in;
    uint32_t flags;            /* the opcode's WS_SOPF_* */
    int8_t guard;              /* as in ws_sass_inst */
    uint8_t guard_neg, guard_uniform;
    uint8_t lut;               /* LOP3 */
    int16_t dst;               /* plain forms: destination row; -1 discards (RZ) */
    ws_sass_fsrc s[3];
} ws_sass_dinst;

typedef struct ws_sass_cta {
    ws_sass_run *run;
    struct ws_sass_worker *wk;
    ws_sass_dinst *dec;        /* per instruction of run->k */
    uint32_t id;               /* linear */
    uint32_t ctaid[3];
    int nwarps;
    ws_sass_warp *warps;
    uint8_t *shared;
    uint64_t shared_bytes;
    uint32_t bar_arrived[16];  /* threads waiting at each CTA barrier */
    uint32_t bar_count[16];    /* threads the barrier expects (0 = every live thread) */
    uint32_t red_popc[16], red_and[16], red_or[16];
    uint32_t bar_result[16];   /* the last BAR.RED result, read by B2R.RESULT */
    int last_bar;              /* kind of the BAR.RED being collected: 1 popc, 2 and, 3 or */
    int last_released;         /* the CTA barrier released last (B2R.RESULT reads it) */
    uint32_t bar_epoch;        /* CTA barriers released so far (race detection) */
    uint64_t *shadow_shared;   /* race shadow, 2 words per 4 bytes of shared memory; NULL
                                * without race detection */
    uint32_t mbar_timeouts;    /* rounds in a row that ended every mbarrier try_wait
                                * unfulfilled (nothing else could run) */
    ws_mbar_watch mbar;        /* test_waits that can never succeed (exec.h) */
    int atomic_seen;           /* a lane made a global atomic (race.c: acquire) */
} ws_sass_cta;

typedef struct ws_sass_worker {
    ws_worker base;            /* error, allocation cache; base.run = &run->base */
    ws_sass_run *run;
    ws_pcstat *pcstat;         /* per instruction */
    ws_atomcount *atoms;       /* per instruction (only atomics are touched) */
    ws_sass_cta *ctas;         /* run->resident slots */
    int nctas;
    uint64_t printf_calls;     /* warp-level calls of vprintf (a caveat, sass_run.c) */
    uint64_t heap_calls;       /* lanes' calls of malloc and free (a caveat, sass_run.c) */
} ws_sass_worker;

typedef int (*ws_sass_handler)(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec,
                               ws_sass_fx *fx);

#define WS_SOP(id, name, handler, cls, lat, flags, nmin, nmax, mods)                     \
    int ws_sass_x_##handler(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec,  \
                            ws_sass_fx *fx);
#include "sim/sass_ops.def"
#undef WS_SOP
/* A NOP where the PTX has a __syncwarp (sass_fast.c decodes it so): orders the warp's
 * accesses for race detection. */
int ws_sass_x_syncwarp_nop(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec,
                           ws_sass_fx *fx);

/* ---- operand access (sass_opnd.c). k is the operand index in in->o[]. */
/* The 32 lanes of register `reg` (RZ: a zero row for reading). */
const uint32_t *ws_sass_rrow(const ws_sass_warp *w, int reg);
/* A FIMM operand's bits: as the instruction reads 32 of them (an f32; an FP64 opcode's
 * high word), and as an f64. Exact for the NaNs whose payload only the cubin holds. */
uint32_t ws_sass_fimm32(const ws_sass_inst *in, const ws_sass_opnd *o);
uint64_t ws_sass_fimm64(const ws_sass_opnd *o);
/* Operand k as 32-bit values per lane: R, UR (broadcast), IMM, FIMM (as f32 bits; as the
 * high word of the f64 for FP64 opcodes), CBANK, RELOC, SREG. `~` applied; `-` and `|.|`
 * are the handler's (their meaning depends on the type): see ws_sass_int_mods. */
void ws_sass_src(ws_sass_warp *w, const ws_sass_inst *in, int k, uint32_t exec,
                 uint32_t v[WS_WARP]);
/* Operand k as 64 bits: a register pair R(k), R(k+1), a UR pair, a 64-bit constant, an
 * immediate (FIMM as f64 bits). */
void ws_sass_src64(ws_sass_warp *w, const ws_sass_inst *in, int k, uint32_t exec,
                   uint64_t v[WS_WARP]);
/* Operand k as float / double with its `-` and `|.|` applied. */
void ws_sass_srcf(ws_sass_warp *w, const ws_sass_inst *in, int k, uint32_t exec,
                  float v[WS_WARP]);
void ws_sass_srcd(ws_sass_warp *w, const ws_sass_inst *in, int k, uint32_t exec,
                  double v[WS_WARP]);
/* Integer `-` on operand k (two's complement), applied in place. */
void ws_sass_int_mods(const ws_sass_inst *in, int k, uint32_t exec, uint32_t v[WS_WARP]);
/* The same for an operand of two packed 16-bit halves (VIADD.16x2, VIADDMNMX.S16x2): |x| and
 * -x of each half on its own (-R2 of 0xfff16905 is 0x000f96fb, not 0x000e96fb). */
void ws_sass_int_mods16x2(const ws_sass_inst *in, int k, uint32_t exec, uint32_t v[WS_WARP]);
/* Predicate operand k (P, UP, PT; `!` applied) as a lane mask. */
uint32_t ws_sass_psrc(const ws_sass_warp *w, const ws_sass_inst *in, int k);
/* Writes exec lanes of destination operand k (R or UR; RZ/URZ discard). For UR the value
 * of the lowest exec lane is written. */
void ws_sass_dst(ws_sass_warp *w, const ws_sass_inst *in, int k, uint32_t exec,
                 const uint32_t v[WS_WARP]);
void ws_sass_dst64(ws_sass_warp *w, const ws_sass_inst *in, int k, uint32_t exec,
                   const uint64_t v[WS_WARP]);
/* Writes exec lanes of predicate destination k (P or UP; PT discards) from lane mask m. */
/* Parks the exec lanes of the running group in `state` (BSYNC, WARPSYNC, BAR, MBAR; the
 * group's other lanes go on past the instruction). */
void ws_sass_park(ws_sass_warp *w, uint32_t exec, int state, int bar, uint32_t need,
                  ws_sass_fx *fx);

/* The mbarrier at shared offset `off` completed a phase and is now in phase `phase`: the
 * groups that wait in SYNCS.PHASECHK.TRYWAIT for the other parity go on with P true. */
void ws_sass_mbar_wake(struct ws_sass_cta *c, uint32_t off, int phase);

/* Orders the CTA's accesses before it after it (race detection): a barrier's release, an
 * mbarrier phase's completion. */
void ws_sass_cta_sync_point(ws_sass_cta *c);
void ws_sass_pdst(ws_sass_warp *w, const ws_sass_inst *in, int k, uint32_t exec, uint32_t m);
/* Special register value for lane l. */
uint32_t ws_sass_sreg(const ws_sass_warp *w, int sreg, int lane);

/* A thread-located fault (out of bounds, unsupported form): fills the run's error with
 * the kernel, CTA, warp, lane, SASS offset and source line; returns WS_ERR_SIM or code. */
int ws_sass_fault(ws_sass_warp *w, const ws_sass_inst *in, int lane, uint64_t addr,
                  ws_code code, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* ---- sass_exec.c: the CTA loop, groups and the convergence-barrier policy */
/* Runs CTA `linear` in slot 0 to its end (0), or until it waits on another CTA
 * (WS_CTA_WAITS, exec.h: it stays there, live); else an error code. */
int ws_sass_run_cta(ws_sass_worker *wk, uint64_t linear);
/* Runs CTAs taken from run->base.next_cta, up to run->base.resident of them at once, their
 * warps interleaved, until none is left; with `adopt`, slot 0's waiting CTA is the first.
 * `done` is called after each CTA ends (progress); a non-zero return is an error code. */
int ws_sass_run_wave(ws_sass_worker *wk, int adopt, void (*done)(ws_sass_worker *wk));
/* Runs the launch's CTAs, the resident ones at once, their warps in the order of a clock
 * (CAS retry loops on global words: ws_run.timed). 0, or an error code. */
int ws_sass_run_timed(ws_sass_worker *wk, void (*done)(ws_sass_worker *wk));
/* Sets up wk->nctas = run->base.resident CTA slots (slot 0 ready, the others when used). */
int ws_sass_cta_init(ws_sass_worker *wk);
void ws_sass_cta_free(ws_sass_worker *wk);
/* The instruction is an atomic whose result a thread reads: ATOM/ATOMG with a destination
 * register other than RZ (RED, and ATOMG into RZ, return nothing). */
int ws_sass_returns(const ws_sass_inst *in);
/* Group bookkeeping the control handlers use. */
int ws_sass_group_add(ws_sass_warp *w, int32_t pc, uint32_t mask, int state);
/* Re-checks convergence barrier `b` (-1: all) and warp syncs; releases complete ones. */
void ws_sass_check_sync(ws_sass_warp *w, int b);
/* Lanes leave the warp (EXIT). */
void ws_sass_exit_lanes(ws_sass_warp *w, uint32_t lanes);

/* ---- sass_fast.c: decodes run->k into *out (ninsts records); WS_ERR_NOMEM. */
int ws_sass_decode(const ws_sass_run *r, ws_sass_dinst **out);

/* ---- sass_mem.c */
/* "SASS 0x0090 (file.cu:11)" for race reports (ws_race_describe; ctx: the ws_sass_run). */
void ws_sass_describe_pc(const void *ctx, int fn, int pc, char *buf, size_t n);
/* race.c's ws_race_cas_guess for SASS instructions (sass_mem.c). */
int ws_sass_cas_guess(const void *ctx, int fn_load, int load, int fn_cas, int cas);
/* Bytes of constant bank `bank` at `off` (n bytes) or NULL when outside it. */
const uint8_t *ws_sass_cbank_ptr(const ws_sass_run *r, int bank, uint64_t off, uint64_t n);

#endif
