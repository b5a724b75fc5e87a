/* sim.h — the simulator's one public header: load PTX, run a workload variant on the
 * SIMT warp simulator, get a ws_result (counts per instruction, line, region, kernel).
 * The PTX front end, the executor, the reconvergence models and the timing model are
 * private to sim/; callers see only this. */
#ifndef WS_SIM_H
#define WS_SIM_H

#include "core/core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ws_module ws_module; /* a parsed PTX module (opaque) */

/* Parses PTX text; `name` is used in error messages (usually the .ptx path).
 * Malformed PTX -> WS_ERR_PTX naming line + token. A function using something unsupported
 * does not fail the module: launching a kernel that reaches it does (ws_module_entry_check). */
int ws_ptx_parse(const char *text, size_t len, const char *name, ws_module **out, ws_error *err);
int ws_ptx_load(const char *path, ws_module **out, ws_error *err);
void ws_module_free(ws_module *m);

/* Entry names in the module, for `warpscope list` and error messages. */
int ws_module_entry_count(const ws_module *m);
const char *ws_module_entry_name(const ws_module *m, int i);
/* A module loads when only some of its kernels use what the simulator does not support:
 * WS_OK when entry `i` (and every function it calls) can run, else the error a launch of
 * it gives (WS_ERR_UNSUPPORTED naming the construct and its PTX file:line). */
int ws_module_entry_check(const ws_module *m, int i, ws_error *err);

typedef void (*ws_progress_fn)(void *ctx, uint64_t ctas_done, uint64_t ctas_total);

/* A launch sequence's `__device__` variables: what each held when the last launch ended,
 * so the next one starts there, as on the GPU (one module for the whole sequence). The
 * sequence runners own it; opaque here. */
typedef struct ws_global_carry ws_global_carry;

typedef struct ws_sim_options {
    const char *reconvergence; /* "ipdom" (default) */
    int threads;               /* host threads; 0 = all cores */
    int timeline_warps;        /* how many warps to record lane timelines for (default 4) */
    int timeline_slots;        /* max issue slots kept per recorded warp (default 4096) */
    int detect_races;          /* 1 = report unsynchronized conflicting accesses (default 1) */
    int timing;                /* 1 = run the timing model too (sim__cycles, sim__time_ns) */
    const char *gpu_preset;    /* timing model preset name or path ("h100") */
    const ws_kernel_resources *resources; /* registers/shared memory from ptxas; may be NULL */
    const char *resources_ptx; /* a launch sequence's timing: each launch's kernel gets its
                                  resources from ptxas on this PTX (NULL: `resources`) */
    FILE *printf_to;           /* where the kernel's printf writes (default stdout; NULL:
                                  nowhere); at most 1 MiB a run, then a warning */
    uint64_t max_warp_insts;   /* a warp that issues more is an error (runaway loops in
                                * fuzzed PTX); 0 = no limit (default) */
    ws_progress_fn progress;   /* called now and then on long runs; may be NULL */
    void *progress_ctx;
    ws_global_carry *carry;    /* launch sequences (set by the runners): NULL = the module's
                                  initializers (and `symbol` lines) at every launch */
} ws_sim_options;

void ws_sim_options_default(ws_sim_options *o);

/* Runs variant `v` of spec `s` over `bufs` (inputs in, outputs out), filling `res`:
 * run description, per-instruction stats, basic blocks, atomics, timelines, metrics.
 * Regions are not computed here (ws_result_compute_regions). */
int ws_sim_run(const ws_module *m, const ws_spec *s, const ws_variant *v, ws_buffers *bufs,
               const ws_sim_options *opt, ws_result *res, ws_error *err);

/* A launch given as the driver got it (a captured launch, `warpscope sim CAPTURE`): the
 * parameter block as raw bytes, and `bufs` holding the device memory it reaches, one
 * buffer per allocation, whose device address at capture is `buffer_address[i]`. 8-byte
 * aligned words of the block that point into one of those allocations are rewritten to
 * the simulator's copy of it; pointers stored inside device memory are not. */
typedef struct ws_sim_launch {
    const char *workload;        /* names the run (e.g. the application) */
    const char *variant;         /* e.g. "kernel#3" */
    const char *kernel;          /* entry name as in the PTX (mangled) */
    uint32_t grid[3], block[3], smem_dynamic;
    const uint8_t *params;
    size_t param_bytes;
    const uint64_t *buffer_address; /* bufs->n of them */
} ws_sim_launch;

/* ws_sim_run for a raw launch: a parameter block of another size than the entry's is
 * WS_ERR_USAGE naming both sizes. */
int ws_sim_run_launch(const ws_module *m, const ws_sim_launch *l, ws_buffers *bufs,
                      const ws_sim_options *opt, ws_result *res, ws_error *err);

/* ---------------------------------------------------------------- the SASS model */

typedef struct ws_sass_module ws_sass_module; /* a kernel module's SASS + cubin (opaque) */

/* Reads nvdisasm output (`nvdisasm -g -c`) and, when cubin_path is not NULL, the cubin it
 * came from (constant banks, relocations, parameter area, shared memory, stack frame). */
int ws_sass_load(const char *sass_path, const char *cubin_path, ws_sass_module **out,
                 ws_error *err);
void ws_sass_module_free(ws_sass_module *m);
/* The source location of kernel `function`'s (mangled name) SASS instruction at byte
 * `offset`: the innermost .cu/.cuh frame of its inlining chain (sim/sass_parse.c). 0 with
 * *path (owned by m) and *line set; -1 when the kernel, the offset or a location is not
 * there. */
int ws_sass_source_line(const ws_sass_module *m, const char *function, int offset,
                        const char **path, int *line);

/* Runs variant `v` on the SASS model: the launch is laid out from the PTX module `m` of the
 * same compile, the kernel runs as SASS under Volta+ convergence barriers. Fills `res` like
 * ws_sim_run, with instructions keyed by SASS offset (res->source "sim:sass"). */
int ws_sim_run_sass(const ws_module *m, const ws_sass_module *sm, const ws_spec *s,
                    const ws_variant *v, ws_buffers *bufs, const ws_sim_options *opt,
                    ws_result *res, ws_error *err);
/* ws_sim_run_launch on the SASS model (a captured launch replayed as SASS). */
int ws_sim_run_sass_launch(const ws_module *m, const ws_sass_module *sm, const ws_sim_launch *l,
                           ws_buffers *bufs, const ws_sim_options *opt, ws_result *res,
                           ws_error *err);

/* ---------------------------------------------------------------- occupancy (seed 004) */

typedef enum ws_occ_limit {
    WS_OCC_LIMIT_WARPS, WS_OCC_LIMIT_REGS, WS_OCC_LIMIT_SMEM, WS_OCC_LIMIT_BLOCKS
} ws_occ_limit;
#define WS_OCC_NLIMITS 4

/* How many CTAs of one shape are resident per SM, and what limits them. */
typedef struct ws_occupancy {
    char cc[8];
    int threads, regs, smem;            /* the inputs: per block, per thread, bytes per block */
    int active_blocks, active_warps, active_threads; /* per SM */
    double occupancy;                   /* active warps / max warps per SM, 0..1 */
    ws_occ_limit binding;               /* the limit that binds (ties: warps, regs, smem, blocks) */
    int limit[WS_OCC_NLIMITS];          /* blocks per SM each limit alone allows */
    int max_threads_sm, max_warps_sm, max_blocks_sm, regs_sm, smem_sm; /* the CC's limits */
    int regs_alloc_block, smem_alloc_block; /* after allocation granularity (smem incl. reserved) */
} ws_occupancy;

/* cc: "9.0" etc. (see ws_occupancy_cc_name); regs 0 = no register limit.
 * Bad input -> WS_ERR_USAGE naming the valid range. */
int ws_occupancy_calc(const char *cc, int threads, int regs, int smem, ws_occupancy *out,
                      ws_error *err);
const char *ws_occupancy_limit_name(ws_occ_limit l); /* "registers", ... */
int ws_occupancy_cc_count(void);
const char *ws_occupancy_cc_name(int i);             /* NULL past the end */

/* The timing-model preset (sim/presets/NAME.gpu) whose `cc` is `cc` ("9.0" -> "h100"):
 * its NAME into `name`; 0 when no preset models that compute capability. Of several, the
 * first NAME in byte order. */
int ws_gpu_preset_for_cc(const char *cc, char *name, size_t n);
/* The same for the device `gpu` ("NVIDIA H200"): of several presets of `cc`, the one whose
 * `name` key holds the device's model word ("H200"), else as ws_gpu_preset_for_cc. */
int ws_gpu_preset_for_gpu(const char *cc, const char *gpu, char *name, size_t n);
/* 1 when preset `name` was made for another GPU than the device `gpu` ("NVIDIA H200"): the
 * preset's own name (its `name` key, e.g. "NVIDIA H100 SXM5 80GB (model)") lacks the GPU's
 * model word, the first word of `gpu` with a digit in it ("H200"; words end at spaces and
 * hyphens). The preset's name into `preset_gpu`. 0 when it matches, or cannot be told. */
int ws_gpu_preset_other_gpu(const char *name, const char *gpu, char *preset_gpu, size_t n);
/* 0 when preset `name` (or path) loads; else its error ("no GPU preset 'x' ...", file:line). */
int ws_gpu_preset_check(const char *name, ws_error *err);
/* The simulator model preset `name` was fitted on ("sass" or "ptx", its `model` key) into
 * `model`; an error as ws_gpu_preset_check's. */
int ws_gpu_preset_model(const char *name, char *model, size_t n, ws_error *err);

/* Whether variant `var` pays off against `base`, both simulated with the timing model: the
 * ratio of their predicted times and a verdict ("after is 1.3x slower than before: ...")
 * whose reasons are read off the model's bounds (the limiter of the slower run, atomics,
 * control-flow stalls, execution rate, occupancy), never canned. */
typedef struct ws_prediction {
    double time_ratio;   /* var's sim__time_ns / base's */
    char reasons[768];   /* "reason, reason, ..." */
    char verdict[1024];  /* "VAR is 2.0x faster than BASE: " + reasons */
} ws_prediction;
void ws_predict_compare(const ws_result *base, const ws_result *var, ws_prediction *out);
/* How sure the prediction of run `r` (simulated with preset `preset`) is: the mechanism that
 * set its time, and where the preset keys behind it came from (the bench/calib
 * microbenchmarks, datasheets and estimates, or the validation workloads they were fitted
 * to, whose error on other code is not known). One line into buf. */
void ws_predict_confidence(const ws_result *r, const char *preset, char *buf, size_t n);
/* How a run's warnings begin where the model is known to part from the GPU there (the SASS
 * model: a YIELD in a diverged warp, a CAS loop several warps fail in); predict repeats them
 * beside its confidence. */
#define WS_CAVEAT "model caveat: "

#ifdef __cplusplus
}
#endif
#endif
