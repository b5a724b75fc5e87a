/* occupancy.c — what the driver says about occupancy: JIT-load PTX with a register cap,
 * read the function's registers and shared memory, ask
 * cuOccupancyMaxActiveBlocksPerMultiprocessor, and read the device's per-SM limits. The
 * yardstick for sim/occupancy.c's model. Not launching (kernel.c), not a model (sim/). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "backend/backend.h"
#include "backend/cuda_api.h"

#define WS_OCC_JIT_LOG 8192
#define WS_OCC_DEFAULT_SMEM (48 * 1024) /* per block without the opt-in attribute */

struct ws_gpu_function {
    ws_gpu *gpu;
    CUmodule module;
    CUfunction function;
    char entry[256];
    int dyn_smem_max;  /* what CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES was raised to */
};

static int jit_load(ws_gpu_function *f, const char *ptx, int max_regs, ws_error *err)
{
    char *log = calloc(1, WS_OCC_JIT_LOG);
    if (!log)
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory for the JIT log");
    const ws_cu_api *api = &f->gpu->api;
    CUjit_option opt[3] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                           CU_JIT_MAX_REGISTERS};
    void *val[3] = {log, (void *)(uintptr_t)WS_OCC_JIT_LOG, (void *)(uintptr_t)max_regs};
    unsigned nopt = max_regs > 0 ? 3 : 2;
    CUresult r = api->cuModuleLoadDataEx(&f->module, ptx, nopt, opt, val);
    if (r != CUDA_SUCCESS) {
        char why[96];
        ws_cu_log_one_line(log);
        ws_error_set(err, WS_ERR_GPU, "kernel %s: cuModuleLoadDataEx failed: %s: %s", f->entry,
                     ws_cu_describe(api, r, why, sizeof why), log[0] ? log : "(empty JIT log)");
        snprintf(err->kernel, sizeof err->kernel, "%.*s", (int)sizeof err->kernel - 1, f->entry);
        f->module = NULL;
    }
    free(log);
    return r == CUDA_SUCCESS ? WS_OK : WS_ERR_GPU;
}

int ws_gpu_function_load(ws_gpu *g, const char *ptx, const char *kernel, int max_regs,
                         ws_gpu_function **out, ws_error *err)
{
    *out = NULL;
    if (max_regs < 0 || max_regs > 255)
        return ws_error_set(err, WS_ERR_USAGE, "register cap must be 0 (none) or 1..255, not %d",
                            max_regs);
    ws_ptx_entry entry;
    if (ws_ptx_find_entry(ptx, kernel, &entry, err) != WS_OK)
        return err->code;
    ws_gpu_function *f = calloc(1, sizeof *f);
    if (!f)
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory loading a kernel");
    f->gpu = g;
    snprintf(f->entry, sizeof f->entry, "%s", entry.name);
    g->api.cuCtxSetCurrent(g->context);
    int rc = jit_load(f, ptx, max_regs, err);
    if (rc == WS_OK) {
        CUresult r = g->api.cuModuleGetFunction(&f->function, f->module, f->entry);
        if (r != CUDA_SUCCESS)
            rc = ws_cu_fail(&g->api, r, err, f->entry, "cuModuleGetFunction");
    }
    if (rc != WS_OK) {
        ws_gpu_function_free(f);
        return rc;
    }
    *out = f;
    return WS_OK;
}

void ws_gpu_function_free(ws_gpu_function *f)
{
    if (!f)
        return;
    if (f->module)
        f->gpu->api.cuModuleUnload(f->module);
    free(f);
}

static int func_attr(ws_gpu_function *f, CUfunction_attribute a, const char *name, int *v,
                     ws_error *err)
{
    CUresult r = f->gpu->api.cuFuncGetAttribute(v, a, f->function);
    if (r != CUDA_SUCCESS) {
        char what[96];
        snprintf(what, sizeof what, "cuFuncGetAttribute(%s)", name);
        return ws_cu_fail(&f->gpu->api, r, err, f->entry, what);
    }
    return WS_OK;
}

/* Above 48 KB per block the launch (and the occupancy query) needs the opt-in size. */
static int allow_dyn_smem(ws_gpu_function *f, int static_smem, int dyn_smem, ws_error *err)
{
    if (static_smem + dyn_smem <= WS_OCC_DEFAULT_SMEM || dyn_smem <= f->dyn_smem_max)
        return WS_OK;
    CUresult r = f->gpu->api.cuFuncSetAttribute(
        f->function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, dyn_smem);
    if (r != CUDA_SUCCESS) {
        char what[128];
        snprintf(what, sizeof what,
                 "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES = %d, static %d)", dyn_smem,
                 static_smem);
        return ws_cu_fail(&f->gpu->api, r, err, f->entry, what);
    }
    f->dyn_smem_max = dyn_smem;
    return WS_OK;
}

int ws_gpu_function_occupancy(ws_gpu_function *f, int block_threads, int dyn_smem,
                              ws_gpu_occupancy_result *out, ws_error *err)
{
    memset(out, 0, sizeof *out);
    if (block_threads < 1)
        return ws_error_set(err, WS_ERR_USAGE, "threads per block must be at least 1, not %d",
                            block_threads);
    if (dyn_smem < 0)
        return ws_error_set(err, WS_ERR_USAGE,
                            "dynamic shared memory must be 0 or more bytes, not %d", dyn_smem);
    f->gpu->api.cuCtxSetCurrent(f->gpu->context);
    if (func_attr(f, CU_FUNC_ATTRIBUTE_NUM_REGS, "NUM_REGS", &out->num_regs, err) ||
        func_attr(f, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, "SHARED_SIZE_BYTES", &out->static_smem,
                  err) ||
        func_attr(f, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, "LOCAL_SIZE_BYTES", &out->local_bytes,
                  err) ||
        func_attr(f, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, "MAX_THREADS_PER_BLOCK",
                  &out->max_threads_block, err))
        return err->code;
    if (allow_dyn_smem(f, out->static_smem, dyn_smem, err) != WS_OK)
        return err->code;
    CUresult r = f->gpu->api.cuOccupancyMaxActiveBlocksPerMultiprocessor(
        &out->blocks_per_sm, f->function, block_threads, (size_t)dyn_smem);
    if (r != CUDA_SUCCESS) {
        char what[128];
        snprintf(what, sizeof what,
                 "cuOccupancyMaxActiveBlocksPerMultiprocessor(%d threads, %d bytes)",
                 block_threads, dyn_smem);
        return ws_cu_fail(&f->gpu->api, r, err, f->entry, what);
    }
    return WS_OK;
}

int ws_gpu_occupancy(ws_gpu *g, const char *ptx, const char *kernel, int max_regs,
                     int block_threads, int dyn_smem, ws_gpu_occupancy_result *out,
                     ws_error *err)
{
    ws_gpu_function *f;
    memset(out, 0, sizeof *out);
    if (ws_gpu_function_load(g, ptx, kernel, max_regs, &f, err) != WS_OK)
        return err->code;
    int rc = ws_gpu_function_occupancy(f, block_threads, dyn_smem, out, err);
    ws_gpu_function_free(f);
    return rc;
}

int ws_gpu_sm_limits_read(ws_gpu *g, ws_gpu_sm_limits *out, ws_error *err)
{
    static const struct { CUdevice_attribute a; const char *name; size_t off; } attrs[] = {
        {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, "MAX_THREADS_PER_MULTIPROCESSOR",
         offsetof(ws_gpu_sm_limits, max_threads_sm)},
        {CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR, "MAX_BLOCKS_PER_MULTIPROCESSOR",
         offsetof(ws_gpu_sm_limits, max_blocks_sm)},
        {CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR,
         "MAX_REGISTERS_PER_MULTIPROCESSOR", offsetof(ws_gpu_sm_limits, regs_sm)},
        {CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, "MAX_REGISTERS_PER_BLOCK",
         offsetof(ws_gpu_sm_limits, regs_block)},
        {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR,
         "MAX_SHARED_MEMORY_PER_MULTIPROCESSOR", offsetof(ws_gpu_sm_limits, smem_sm)},
        {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, "MAX_SHARED_MEMORY_PER_BLOCK",
         offsetof(ws_gpu_sm_limits, smem_block)},
        {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
         "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN", offsetof(ws_gpu_sm_limits, smem_block_optin)},
        {CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK,
         "RESERVED_SHARED_MEMORY_PER_BLOCK", offsetof(ws_gpu_sm_limits, smem_reserved_block)},
    };
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
        int *v = (int *)((char *)out + attrs[i].off);
        CUresult r = g->api.cuDeviceGetAttribute(v, attrs[i].a, g->device);
        if (r != CUDA_SUCCESS) {
            char why[96];
            return ws_error_set(err, WS_ERR_GPU, "cuDeviceGetAttribute(%s) failed: %s",
                                attrs[i].name, ws_cu_describe(&g->api, r, why, sizeof why));
        }
    }
    return WS_OK;
}
