/* backend.h — run a workload variant on a real NVIDIA GPU through the CUDA driver API:
 * load the same PTX the simulator runs, fill buffers from the same generators, launch,
 * time with events, read outputs back. libcuda is loaded at run time (dlopen), so a
 * machine with no driver still runs every other command. Not a profiler (see profiler/). */
#ifndef WS_BACKEND_H
#define WS_BACKEND_H

#include <cuda.h>
#include "core/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- PTX entries (host only) */

typedef struct ws_ptx_param {
    char name[128];
    char type[16];   /* ".u64", ".u32", ".f32", ".b8" (arrays) ... */
    int size;        /* bytes */
    int align;       /* bytes */
} ws_ptx_param;

typedef struct ws_ptx_entry {
    char name[256];  /* mangled entry name, e.g. "_Z6kernelPiS_" */
    int nparams;
    ws_ptx_param params[WS_ARGS_MAX];
} ws_ptx_entry;

/* Reads every `.entry` of a PTX text with its parameter types. Caller frees *entries. */
int ws_ptx_scan_entries(const char *ptx, ws_ptx_entry **entries, int *n, ws_error *err);
/* The entry whose name matches C kernel name `kernel` (ws_kernel_name_matches). */
int ws_ptx_find_entry(const char *ptx, const char *kernel, ws_ptx_entry *out, ws_error *err);
/* The module-scope `.global` variables of a PTX text (`__device__` variables), at most `max`
 * names into names[]; returns how many. */
int ws_ptx_global_names(const char *ptx, char (*names)[WS_NAME_MAX], int max);

/* Kernel parameters packed as cuLaunchKernel wants them: one pointer per parameter. */
typedef struct ws_param_pack {
    int n;
    size_t offset[WS_ARGS_MAX];
    size_t size[WS_ARGS_MAX];
    unsigned char storage[WS_ARGS_MAX * WS_STRUCT_MAX];
    void *ptrs[WS_ARGS_MAX];
} ws_param_pack;

/* Packs the variant's arguments per the entry's .param types: buffers become the device
 * addresses in `buffer_addr` (indexed like spec->buffers) plus the argument's offset,
 * scalars are converted to the parameter's type and size (.f32/.f64 from fval, integers
 * from ival), structs are copied as laid out (ws_arg_check_param checks each). */
int ws_params_pack(const ws_ptx_entry *e, const ws_spec *s, const ws_variant *v,
                   const uint64_t *buffer_addr, ws_param_pack *out, ws_error *err);

/* "CUDA_ERROR_NO_DEVICE" for a CUresult, without needing the driver. */
const char *ws_cu_result_name(int code);

/* ---------------------------------------------------------------- module images (host only) */

/* The size of a module image as an application gives it to cuModuleLoadData or
 * cuLibraryLoadData (PTX text, ELF cubin, fatbinary, or the runtime's fatbin wrapper,
 * which is followed to its fatbinary); *kind = "ptx", "cubin" or "fatbin". */
size_t ws_cuda_image_size(const void *image, const char **kind);
/* The PTX texts in an image of `size` bytes (none for a cubin); ZSTD-compressed PTX is
 * read through libzstd.so.1 at run time. Free with ws_cuda_image_ptx_free. */
int ws_cuda_image_ptx(const void *image, size_t size, char ***ptx, int *n, ws_error *err);
void ws_cuda_image_ptx_free(char **ptx, int n);
/* Offsets of the fatbinaries (8-byte aligned, as nvcc places them in .nv_fatbin) in a
 * file's bytes, such as an application's executable; at most `max`. */
int ws_cuda_find_fatbins(const void *data, size_t size, size_t *offsets, int max);
/* How runs of an application's launch are named (the variant): "transform#3" for launch 3
 * (counted over the application's kernel launches from 0) of _Z9transform6Params. */
void ws_launch_name(const char *kernel, int64_t index, char *buf, size_t n);

/* ---------------------------------------------------------------- device */

typedef struct ws_gpu_info {
    char name[256];
    int ordinal;
    int cc_major, cc_minor;
    int sm_count;
    int clock_khz, mem_clock_khz, mem_bus_width;
    int l2_bytes, max_threads_per_sm, max_smem_per_block_optin;
    size_t total_mem;
    int driver_version;   /* e.g. 13000 */
} ws_gpu_info;

typedef struct ws_gpu ws_gpu; /* driver library, device, primary context */

/* Opens device `ordinal`. `libcuda` NULL -> $WARPSCOPE_LIBCUDA, else "libcuda.so.1".
 * No driver / no GPU -> WS_ERR_GPU with one clear line, e.g.
 * "no CUDA GPU: cuInit returned CUDA_ERROR_NO_DEVICE (100)". */
int ws_gpu_open(const char *libcuda, int ordinal, ws_gpu **out, ws_error *err);
void ws_gpu_close(ws_gpu *g);
const ws_gpu_info *ws_gpu_get_info(const ws_gpu *g);
CUcontext ws_gpu_context(const ws_gpu *g);
/* {"name":..,"cc":"9.0","sms":132,...} for ws_result.device_json. */
void ws_gpu_info_json(const ws_gpu_info *i, char *buf, size_t n);

/* ---------------------------------------------------------------- kernels */

typedef struct ws_gpu_kernel ws_gpu_kernel; /* module, function, device buffers, params */

/* JIT-compiles the PTX file to a cubin (with line info; the JIT log is put in the error
 * on failure), loads it, finds the variant's entry, allocates a device buffer for every
 * spec buffer and copies `inputs` into them. `inputs` must outlive the kernel: it is
 * what ws_gpu_kernel_restore copies back before each launch. */
int ws_gpu_kernel_load(ws_gpu *g, const char *ptx_path, const ws_spec *s, const ws_variant *v,
                       const ws_buffers *inputs, ws_gpu_kernel **out, ws_error *err);
/* The same with the cubin that ptxas made offline from that PTX (cubin_path; NULL = JIT):
 * the GPU then runs the very SASS the simulator's SASS model ran. */
int ws_gpu_kernel_load_cubin(ws_gpu *g, const char *ptx_path, const char *cubin_path,
                             const ws_spec *s, const ws_variant *v, const ws_buffers *inputs,
                             ws_gpu_kernel **out, ws_error *err);
void ws_gpu_kernel_free(ws_gpu_kernel *k);
/* Copies the inputs into the device buffers again (kernels with side effects), and each
 * `symbol NAME BUF` into the module's variable NAME (cuModuleGetGlobal; sizes must match). */
int ws_gpu_kernel_restore(ws_gpu_kernel *k, ws_error *err);
/* One launch, synchronized; a failure names the kernel and the driver's error. */
int ws_gpu_kernel_launch(ws_gpu_kernel *k, ws_error *err);
/* `warmup` launches, then `repeat` timed with events, inputs restored before each
 * (outside the timed region). Each timed launch is queued behind a 50 us spin kernel, so
 * the events measure the kernel, not the host's launch latency; *spun (may be NULL) says
 * whether the spin kernel could be loaded. Times in nanoseconds; min_ns may be NULL. */
int ws_gpu_kernel_time(ws_gpu_kernel *k, int warmup, int repeat, double *median_ns,
                       double *min_ns, int *spun, ws_error *err);
/* Copies every device buffer back into `out` (a clone of the inputs). */
int ws_gpu_kernel_read(ws_gpu_kernel *k, ws_buffers *out, ws_error *err);
/* A launch sequence (ws_variant_launches) on one loaded kernel: the module and the device
 * buffers stay, the entry, shape and parameters become those of `launch` (alive until the
 * next retarget). ws_gpu_kernel_load of a sequence variant loads its first kernel and packs
 * no parameters: retarget before launching. */
int ws_gpu_kernel_retarget(ws_gpu_kernel *k, const ws_variant *launch, ws_error *err);
/* What ws_gpu_kernel_restore copies from from now on (same buffers, e.g. the state before
 * a sequence's launch); it must outlive the kernel or the next call. */
void ws_gpu_kernel_use_inputs(ws_gpu_kernel *k, const ws_buffers *inputs);
/* One element of spec buffer `buffer` in device memory, `size` bytes (while/set). */
int ws_gpu_kernel_read_elem(ws_gpu_kernel *k, int buffer, uint64_t index, void *elem,
                            size_t size, ws_error *err);
int ws_gpu_kernel_write_elem(ws_gpu_kernel *k, int buffer, uint64_t index, const void *elem,
                             size_t size, ws_error *err);
/* One launch timed with events (behind the spin kernel when it loads), inputs not restored. */
int ws_gpu_kernel_time_once(ws_gpu_kernel *k, double *ns, int *spun, ws_error *err);
const char *ws_gpu_kernel_entry(const ws_gpu_kernel *k);  /* mangled name */
const void *ws_gpu_kernel_cubin(const ws_gpu_kernel *k, size_t *size);
ws_gpu *ws_gpu_kernel_gpu(const ws_gpu_kernel *k);

/* ---------------------------------------------------------------- occupancy (driver) */

/* One kernel JIT-loaded for occupancy queries (its own module; never launched). */
typedef struct ws_gpu_function ws_gpu_function;

typedef struct ws_gpu_occupancy_result {
    int num_regs;           /* CU_FUNC_ATTRIBUTE_NUM_REGS, per thread */
    int static_smem;        /* CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, per block */
    int local_bytes;        /* CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, per thread (spills) */
    int max_threads_block;  /* CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK for this function */
    int blocks_per_sm;      /* cuOccupancyMaxActiveBlocksPerMultiprocessor */
} ws_gpu_occupancy_result;

/* The device's per-SM limits, as the driver reports them. */
typedef struct ws_gpu_sm_limits {
    int max_threads_sm, max_blocks_sm, regs_sm, regs_block;
    int smem_sm, smem_block, smem_block_optin, smem_reserved_block;
} ws_gpu_sm_limits;

/* JIT-loads PTX text with cuModuleLoadDataEx (CU_JIT_MAX_REGISTERS = max_regs when > 0)
 * and finds `kernel` (C name or mangled entry). Failures name the driver call and the
 * CUDA error, with the JIT log on one line. */
int ws_gpu_function_load(ws_gpu *g, const char *ptx, const char *kernel, int max_regs,
                         ws_gpu_function **out, ws_error *err);
void ws_gpu_function_free(ws_gpu_function *f);
/* Blocks of `block_threads` threads with `dyn_smem` bytes of dynamic shared memory that
 * fit on one SM, per the driver; the function's attributes alongside. Above 48 KB of
 * shared memory per block the function's dynamic-size attribute is raised first. */
int ws_gpu_function_occupancy(ws_gpu_function *f, int block_threads, int dyn_smem,
                              ws_gpu_occupancy_result *out, ws_error *err);
/* Load, query, free in one call. */
int ws_gpu_occupancy(ws_gpu *g, const char *ptx, const char *kernel, int max_regs,
                     int block_threads, int dyn_smem, ws_gpu_occupancy_result *out,
                     ws_error *err);
int ws_gpu_sm_limits_read(ws_gpu *g, ws_gpu_sm_limits *out, ws_error *err);

/* ---------------------------------------------------------------- whole run */

typedef struct ws_gpu_run_options {
    int warmup;  /* default 1 */
    int repeat;  /* default 10 */
} ws_gpu_run_options;
void ws_gpu_run_options_default(ws_gpu_run_options *o);

/* Fills `res` with what ran (source "gpu:NAME", workload, variant, grid, device_json, ...)
 * for kernel `k`; used by run and profile alike. */
void ws_gpu_describe(const ws_gpu_kernel *k, const ws_spec *s, const ws_variant *v,
                     ws_result *res);
/* Times the kernel (metrics gpu__time_duration.sum = event median, ws__event_min_ns,
 * ws__event_repeat, ws__event_behind_spin) and reads the last timed launch's outputs (it
 * started from restored inputs, as each does) into `out`. */
int ws_gpu_run(ws_gpu_kernel *k, const ws_gpu_run_options *o, ws_buffers *out,
               ws_result *res, ws_error *err);

/* Called before each launch of a sequence with the kernel retargeted to it; restoring the
 * kernel gives back the device state before that launch (e.g. profile it: `one` is that
 * launch's result). */
typedef int (*ws_gpu_launch_hook)(void *ctx, ws_gpu_kernel *k, const ws_launch *l,
                                  ws_result *one, ws_error *err);
/* Runs launch-sequence variant `v` on `k` (loaded for it): inputs copied once, then each
 * launch (hook first, when not NULL; `out`, a clone of the inputs, then holds the state
 * before the launch and is what restoring k copies from) launched once, timed with events
 * (gpu__time_duration.sum, or ws__event_median_ns when the hook set the former); `while`
 * reads its element back from device memory, `set` writes it. A row per launch in `res`,
 * its metrics summed; outputs after the last launch into `out`. */
int ws_gpu_run_sequence(ws_gpu_kernel *k, const ws_spec *s, const ws_variant *v,
                        ws_gpu_launch_hook hook, void *hook_ctx, ws_buffers *out,
                        ws_result *res, ws_error *err);

#ifdef __cplusplus
}
#endif
#endif
