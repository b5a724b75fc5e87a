/* kernel.c — one variant's kernel on the GPU: JIT the PTX to a cubin (kept, for the
 * profiler's PC -> line mapping), load it, allocate and fill device buffers, pack the
 * parameters, launch, time with events, read back. Not device discovery (gpu.c). */
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include "backend/backend.h"
#include "backend/cuda_api.h"

#define WS_JIT_LOG 16384

struct ws_gpu_kernel {
    ws_gpu *gpu;
    const ws_spec *spec;
    const ws_variant *variant;
    const ws_buffers *inputs;
    ws_ptx_entry entry;
    void *cubin;
    size_t cubin_size;
    CUmodule module;
    CUfunction function;
    CUdeviceptr *dptr;   /* one per spec buffer */
    uint64_t *addr;      /* what an argument naming the buffer passes */
    ws_cu_image *images; /* per spec buffer: its CUDA array when a texture or surface */
    ws_param_pack params;
    char ptx_head[96];   /* the workload PTX's .version and .target lines */
    char *ptx;           /* the PTX text, for the entries of a sequence's other launches */
    int nglobals;        /* the module's `__device__` variables (no `symbol` line names them): */
    struct {             /* what they hold at the state restore brings back */
        CUdeviceptr at;
        size_t size;
        void *host;
    } *globals;
};

static int cu_fail(ws_gpu_kernel *k, CUresult r, ws_error *err, const char *what)
{
    return ws_cu_fail(&k->gpu->api, r, err, k->variant->kernel, what);
}

/* The module's `__device__` variables as loaded (their initializers): restore brings them
 * back, as it does the buffers, so a kernel that counts in one (a work queue's head) starts
 * from the same state in every profiling pass and timed launch; a sequence re-reads them
 * before each launch (ws_gpu_kernel_read). `symbol` variables are the spec's to fill. */
static int snapshot_globals(ws_gpu_kernel *k, ws_error *err)
{
    enum { WS_GLOBALS_MAX = 256 };
    char (*names)[WS_NAME_MAX] = malloc(WS_GLOBALS_MAX * sizeof *names);
    if (!names)
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory");
    int n = ws_ptx_global_names(k->ptx, names, WS_GLOBALS_MAX);
    k->globals = calloc((size_t)(n ? n : 1), sizeof *k->globals);
    int rc = k->globals ? WS_OK : ws_error_set(err, WS_ERR_NOMEM, "out of memory");
    for (int i = 0; rc == WS_OK && i < n; i++) {
        int named = 0;
        for (int y = 0; y < k->spec->nsymbols; y++)
            named |= !strcmp(k->spec->symbols[y].name, names[i]);
        CUdeviceptr at;
        size_t size = 0;
        if (named || k->gpu->api.cuModuleGetGlobal(&at, &size, k->module, names[i]) !=
                         CUDA_SUCCESS || !size)
            continue;
        void *host = malloc(size);
        if (!host) {
            rc = ws_error_set(err, WS_ERR_NOMEM, "out of memory");
            break;
        }
        CUresult r = k->gpu->api.cuMemcpyDtoH(host, at, size);
        if (r != CUDA_SUCCESS) {
            free(host);
            rc = cu_fail(k, r, err, "reading a __device__ variable");
            break;
        }
        k->globals[k->nglobals].at = at;
        k->globals[k->nglobals].size = size;
        k->globals[k->nglobals++].host = host;
    }
    free(names);
    return rc;
}

/* PTX -> cubin through the driver's JIT linker, with line info and an error log. */
static int jit_link(ws_gpu_kernel *k, const char *ptx, size_t len, const char *path, ws_error *err)
{
    static char log[WS_JIT_LOG];
    const ws_cu_api *api = &k->gpu->api;
    CUjit_option opt[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                          CU_JIT_GENERATE_LINE_INFO};
    void *val[] = {log, (void *)(uintptr_t)sizeof log, (void *)(uintptr_t)1};
    CUlinkState link;
    log[0] = '\0';
    CUresult r = api->cuLinkCreate(3, opt, val, &link);
    if (r != CUDA_SUCCESS)
        return cu_fail(k, r, err, "cuLinkCreate");
    r = api->cuLinkAddData(link, CU_JIT_INPUT_PTX, (void *)ptx, len + 1, path, 0, NULL, NULL);
    void *cubin = NULL;
    size_t size = 0;
    if (r == CUDA_SUCCESS)
        r = api->cuLinkComplete(link, &cubin, &size);
    if (r != CUDA_SUCCESS) {
        char why[96];
        ws_cu_log_one_line(log);
        ws_error_set(err, WS_ERR_GPU, "JIT of %s failed: %s: %s", path,
                     ws_cu_describe(api, r, why, sizeof why), log[0] ? log : "(empty JIT log)");
        api->cuLinkDestroy(link);
        return WS_ERR_GPU;
    }
    k->cubin = malloc(size);
    if (k->cubin) {
        memcpy(k->cubin, cubin, size);
        k->cubin_size = size;
    }
    api->cuLinkDestroy(link);
    return k->cubin ? WS_OK : ws_error_set(err, WS_ERR_NOMEM, "out of memory keeping the cubin");
}

/* The cubin ptxas made offline (the one the SASS model runs), instead of the driver's JIT. */
static int read_cubin(ws_gpu_kernel *k, const char *cubin_path, ws_error *err)
{
    char *bytes;
    size_t len;
    if (ws_read_file(cubin_path, &bytes, &len, err) != WS_OK)
        return err->code;
    k->cubin = bytes;
    k->cubin_size = len;
    return WS_OK;
}

static int load_module(ws_gpu_kernel *k, const char *ptx_path, const char *cubin_path,
                       ws_error *err)
{
    char *ptx;
    size_t len;
    if (ws_read_file(ptx_path, &ptx, &len, err) != WS_OK)
        return err->code;
    int rc = ws_ptx_find_entry(ptx, k->variant->kernel, &k->entry, err);
    const char *ver = strstr(ptx, ".version "), *tgt = strstr(ptx, ".target ");
    if (ver && tgt)
        snprintf(k->ptx_head, sizeof k->ptx_head, "%.*s\n%.*s\n", (int)strcspn(ver, "\r\n"),
                 ver, (int)strcspn(tgt, "\r\n"), tgt);
    if (rc == WS_OK)
        rc = cubin_path ? read_cubin(k, cubin_path, err) : jit_link(k, ptx, len, ptx_path, err);
    k->ptx = ptx;
    if (rc != WS_OK)
        return rc;
    const ws_cu_api *api = &k->gpu->api;
    CUresult r = api->cuModuleLoadData(&k->module, k->cubin);
    if (r != CUDA_SUCCESS)
        return cu_fail(k, r, err, "cuModuleLoadData");
    r = api->cuModuleGetFunction(&k->function, k->module, k->entry.name);
    if (r != CUDA_SUCCESS)
        return cu_fail(k, r, err, "cuModuleGetFunction");
    if (k->variant->smem_dynamic > 48 * 1024) {
        r = api->cuFuncSetAttribute(k->function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                    (int)k->variant->smem_dynamic);
        if (r != CUDA_SUCCESS)
            return cu_fail(k, r, err, "setting the dynamic shared memory size");
    }
    return WS_OK;
}

/* `texture`/`surface` buffers: an argument naming one passes its object's handle. */
static int alloc_images(ws_gpu_kernel *k, ws_error *err)
{
    const ws_spec *s = k->spec;
    if (!s->nimages)
        return WS_OK;
    k->images = calloc((size_t)k->inputs->n + 1, sizeof *k->images);
    if (!k->images)
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory for the image table");
    for (int i = 0; i < s->nimages; i++) {
        const ws_image *im = &s->images[i];
        if (im->buffer >= k->inputs->n)
            continue;
        int rc = ws_cu_image_create(&k->gpu->api, s, im, k->dptr[im->buffer],
                                    k->variant->kernel, &k->images[im->buffer], err);
        if (rc != WS_OK)
            return rc;
        k->addr[im->buffer] = k->images[im->buffer].handle;
    }
    return WS_OK;
}

static int alloc_buffers(ws_gpu_kernel *k, ws_error *err)
{
    int n = k->inputs->n;
    k->dptr = calloc((size_t)n + 1, sizeof *k->dptr);
    k->addr = calloc((size_t)n + 1, sizeof *k->addr);
    if (!k->dptr || !k->addr)
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory for device buffer table");
    for (int i = 0; i < n; i++) {
        size_t bytes = k->inputs->b[i].bytes ? k->inputs->b[i].bytes : 4;
        CUresult r = k->gpu->api.cuMemAlloc(&k->dptr[i], bytes);
        if (r != CUDA_SUCCESS)
            return cu_fail(k, r, err, "cuMemAlloc");
        k->addr[i] = (uint64_t)k->dptr[i];
    }
    return alloc_images(k, err);
}

int ws_gpu_kernel_load(ws_gpu *g, const char *ptx_path, const ws_spec *s, const ws_variant *v,
                       const ws_buffers *inputs, ws_gpu_kernel **out, ws_error *err)
{
    return ws_gpu_kernel_load_cubin(g, ptx_path, NULL, s, v, inputs, out, err);
}

int ws_gpu_kernel_load_cubin(ws_gpu *g, const char *ptx_path, const char *cubin_path,
                             const ws_spec *s, const ws_variant *v, const ws_buffers *inputs,
                             ws_gpu_kernel **out, ws_error *err)
{
    *out = NULL;
    ws_gpu_kernel *k = calloc(1, sizeof *k);
    if (!k)
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory loading a kernel");
    k->gpu = g;
    k->spec = s;
    k->variant = v;
    k->inputs = inputs;
    g->api.cuCtxSetCurrent(g->context);
    int rc = load_module(k, ptx_path, cubin_path, err);
    if (rc == WS_OK)
        rc = snapshot_globals(k, err);
    if (rc == WS_OK)
        rc = alloc_buffers(k, err);
    if (rc == WS_OK && !ws_variant_is_sequence(v)) /* a sequence packs launch by launch */
        rc = ws_params_pack(&k->entry, s, v, k->addr, &k->params, err);
    if (rc == WS_OK)
        rc = ws_gpu_kernel_restore(k, err);
    if (rc != WS_OK) {
        ws_gpu_kernel_free(k);
        return rc;
    }
    *out = k;
    return WS_OK;
}

void ws_gpu_kernel_free(ws_gpu_kernel *k)
{
    if (!k)
        return;
    const ws_cu_api *api = &k->gpu->api;
    for (int i = 0; k->dptr && i < k->inputs->n; i++)
        if (k->dptr[i])
            api->cuMemFree(k->dptr[i]);
    for (int i = 0; k->images && i < k->spec->nimages; i++)
        if (k->spec->images[i].buffer < k->inputs->n)
            ws_cu_image_destroy(api, &k->spec->images[i], &k->images[k->spec->images[i].buffer]);
    free(k->images);
    if (k->module)
        api->cuModuleUnload(k->module);
    free(k->dptr);
    free(k->addr);
    free(k->cubin);
    free(k->ptx);
    for (int i = 0; i < k->nglobals; i++)
        free(k->globals[i].host);
    free(k->globals);
    free(k);
}

/* `symbol NAME BUF`: the module's variable NAME gets BUF's bytes. */
static int restore_symbols(ws_gpu_kernel *k, ws_error *err)
{
    const ws_spec *s = k->spec;
    for (int i = 0; i < s->nsymbols; i++) {
        const ws_symbol *y = &s->symbols[i];
        CUdeviceptr at;
        size_t bytes = 0;
        CUresult r = k->gpu->api.cuModuleGetGlobal(&at, &bytes, k->module, y->name);
        if (r != CUDA_SUCCESS && r != CUDA_ERROR_NOT_FOUND)
            return cu_fail(k, r, err, "cuModuleGetGlobal");
        if (ws_symbol_check(s, y, r == CUDA_SUCCESS, bytes, NULL, err) != WS_OK)
            return err->code;
        const ws_buffer *b = &k->inputs->b[y->buffer];
        if (b->bytes && (r = k->gpu->api.cuMemcpyHtoD(at, b->data, b->bytes)) != CUDA_SUCCESS)
            return cu_fail(k, r, err, "copying a symbol's buffer to the GPU");
    }
    return WS_OK;
}

int ws_gpu_kernel_restore(ws_gpu_kernel *k, ws_error *err)
{
    for (int i = 0; i < k->inputs->n; i++) {
        const ws_buffer *b = &k->inputs->b[i];
        if (!b->bytes)
            continue;
        CUresult r = k->gpu->api.cuMemcpyHtoD(k->dptr[i], b->data, b->bytes);
        if (r != CUDA_SUCCESS)
            return cu_fail(k, r, err, "copying inputs to the GPU");
    }
    for (int i = 0; k->images && i < k->spec->nimages; i++) {
        const ws_image *im = &k->spec->images[i];
        if (im->buffer < k->inputs->n &&
            ws_cu_image_copy(&k->gpu->api, im, &k->images[im->buffer], &k->inputs->b[im->buffer],
                             0, k->variant->kernel, err) != WS_OK)
            return err->code;
    }
    for (int i = 0; i < k->nglobals; i++) {
        CUresult r = k->gpu->api.cuMemcpyHtoD(k->globals[i].at, k->globals[i].host,
                                              k->globals[i].size);
        if (r != CUDA_SUCCESS)
            return cu_fail(k, r, err, "restoring a __device__ variable");
    }
    return restore_symbols(k, err);
}

/* A `cooperative` variant is launched so that its CTAs are co-resident (grid syncs). */
static CUresult launch_async(ws_gpu_kernel *k)
{
    const ws_variant *v = k->variant;
    if (v->cooperative)
        return k->gpu->api.cuLaunchCooperativeKernel(
            k->function, v->grid[0], v->grid[1], v->grid[2], v->block[0], v->block[1],
            v->block[2], v->smem_dynamic, NULL, k->params.ptrs);
    return k->gpu->api.cuLaunchKernel(k->function, v->grid[0], v->grid[1], v->grid[2],
                                      v->block[0], v->block[1], v->block[2], v->smem_dynamic,
                                      NULL, k->params.ptrs, NULL);
}

int ws_gpu_kernel_launch(ws_gpu_kernel *k, ws_error *err)
{
    CUresult r = launch_async(k);
    if (r != CUDA_SUCCESS)
        return cu_fail(k, r, err, k->variant->cooperative ? "cuLaunchCooperativeKernel"
                                                          : "cuLaunchKernel");
    r = k->gpu->api.cuCtxSynchronize();
    if (r != CUDA_SUCCESS)
        return cu_fail(k, r, err, "the launch");
    return WS_OK;
}

int ws_gpu_kernel_retarget(ws_gpu_kernel *k, const ws_variant *launch, ws_error *err)
{
    const ws_cu_api *api = &k->gpu->api;
    k->variant = launch;
    int rc = ws_ptx_find_entry(k->ptx, launch->kernel, &k->entry, err);
    if (rc != WS_OK)
        return rc;
    CUresult r = api->cuModuleGetFunction(&k->function, k->module, k->entry.name);
    if (r != CUDA_SUCCESS)
        return cu_fail(k, r, err, "cuModuleGetFunction");
    if (launch->smem_dynamic > 48 * 1024 &&
        (r = api->cuFuncSetAttribute(k->function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                     (int)launch->smem_dynamic)) != CUDA_SUCCESS)
        return cu_fail(k, r, err, "setting the dynamic shared memory size");
    return ws_params_pack(&k->entry, k->spec, launch, k->addr, &k->params, err);
}

void ws_gpu_kernel_use_inputs(ws_gpu_kernel *k, const ws_buffers *inputs)
{
    assert(inputs->n == k->inputs->n);
    k->inputs = inputs;
}

/* Element `index` of spec buffer `buffer` (size bytes), in device memory. */
static int elem_at(ws_gpu_kernel *k, int buffer, uint64_t index, size_t size, CUdeviceptr *at,
                   ws_error *err)
{
    if (buffer < 0 || buffer >= k->inputs->n || (index + 1) * size > k->inputs->b[buffer].bytes)
        return ws_error_set(err, WS_ERR_SPEC, "element %llu of buffer %d is outside it",
                            (unsigned long long)index, buffer);
    *at = k->dptr[buffer] + index * size;
    return WS_OK;
}

int ws_gpu_kernel_read_elem(ws_gpu_kernel *k, int buffer, uint64_t index, void *elem,
                            size_t size, ws_error *err)
{
    CUdeviceptr at = 0;
    int rc = elem_at(k, buffer, index, size, &at, err);
    CUresult r = rc == WS_OK ? k->gpu->api.cuMemcpyDtoH(elem, at, size) : CUDA_SUCCESS;
    return rc != WS_OK ? rc : r != CUDA_SUCCESS ? cu_fail(k, r, err, "reading an element back") : WS_OK;
}

int ws_gpu_kernel_write_elem(ws_gpu_kernel *k, int buffer, uint64_t index, const void *elem,
                             size_t size, ws_error *err)
{
    CUdeviceptr at = 0;
    int rc = elem_at(k, buffer, index, size, &at, err);
    CUresult r = rc == WS_OK ? k->gpu->api.cuMemcpyHtoD(at, elem, size) : CUDA_SUCCESS;
    return rc != WS_OK ? rc : r != CUDA_SUCCESS ? cu_fail(k, r, err, "writing an element") : WS_OK;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A one-thread kernel that spins for a given number of nanoseconds (%globaltimer). Timed
 * launches go right behind it, so the start event is taken when the GPU is already busy:
 * the events then bracket the kernel's own duration, not the host's launch latency. */
#define WS_SPIN_NS 50000ULL
static const char ws_spin_ptx[] =
    ".address_size 64\n"
    ".visible .entry ws_spin(.param .u64 ws_spin_ns)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b64 %rd<5>;\n"
    "  ld.param.u64 %rd1, [ws_spin_ns];\n"
    "  mov.u64 %rd2, %globaltimer;\n"
    "  add.s64 %rd3, %rd2, %rd1;\n"
    "$L_spin:\n"
    "  mov.u64 %rd4, %globaltimer;\n"
    "  setp.lt.u64 %p1, %rd4, %rd3;\n"
    "  @%p1 bra $L_spin;\n"
    "  ret;\n"
    "}\n";

typedef struct ws_spin { CUmodule module; CUfunction fn; } ws_spin;

/* Loads the spin kernel with the workload PTX's .version/.target; 0 when it cannot (the
 * launches are then timed without it, launch latency included). */
static int spin_load(ws_gpu_kernel *k, ws_spin *sp)
{
    const ws_cu_api *api = &k->gpu->api;
    char ptx[1024];
    sp->module = NULL;
    if (!k->ptx_head[0] ||
        snprintf(ptx, sizeof ptx, "%s%s", k->ptx_head, ws_spin_ptx) >= (int)sizeof ptx)
        return 0;
    if (api->cuModuleLoadData(&sp->module, ptx) != CUDA_SUCCESS) {
        sp->module = NULL;
        return 0;
    }
    if (api->cuModuleGetFunction(&sp->fn, sp->module, "ws_spin") != CUDA_SUCCESS) {
        api->cuModuleUnload(sp->module);
        sp->module = NULL;
        return 0;
    }
    return 1;
}

static int time_one(ws_gpu_kernel *k, const ws_spin *sp, CUevent start, CUevent stop,
                    int restore, double *ns, ws_error *err)
{
    const ws_cu_api *api = &k->gpu->api;
    CUresult r;
    float ms = 0;
    if (restore && ws_gpu_kernel_restore(k, err) != WS_OK)
        return err->code;
    if (sp->module) {
        unsigned long long spin_ns = WS_SPIN_NS;
        void *args[] = { &spin_ns };
        if ((r = api->cuLaunchKernel(sp->fn, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL)) != CUDA_SUCCESS)
            return cu_fail(k, r, err, "launching the timing spin kernel");
    }
    if ((r = api->cuEventRecord(start, NULL)) != CUDA_SUCCESS)
        return cu_fail(k, r, err, "cuEventRecord");
    if ((r = launch_async(k)) != CUDA_SUCCESS)
        return cu_fail(k, r, err, "cuLaunchKernel");
    if ((r = api->cuEventRecord(stop, NULL)) != CUDA_SUCCESS ||
        (r = api->cuEventSynchronize(stop)) != CUDA_SUCCESS)
        return cu_fail(k, r, err, "the timed launch");
    if ((r = api->cuEventElapsedTime(&ms, start, stop)) != CUDA_SUCCESS)
        return cu_fail(k, r, err, "cuEventElapsedTime");
    *ns = (double)ms * 1e6;
    return WS_OK;
}

int ws_gpu_kernel_time(ws_gpu_kernel *k, int warmup, int repeat, double *median_ns,
                       double *min_ns, int *spun, ws_error *err)
{
    const ws_cu_api *api = &k->gpu->api;
    if (repeat < 1)
        repeat = 1;
    for (int i = 0; i < warmup; i++)
        if (ws_gpu_kernel_restore(k, err) != WS_OK || ws_gpu_kernel_launch(k, err) != WS_OK)
            return err->code;
    double *t = calloc((size_t)repeat, sizeof *t);
    CUevent start = NULL, stop = NULL;
    CUresult r;
    if (!t)
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory for timings");
    if ((r = api->cuEventCreate(&start, CU_EVENT_DEFAULT)) != CUDA_SUCCESS ||
        (r = api->cuEventCreate(&stop, CU_EVENT_DEFAULT)) != CUDA_SUCCESS) {
        cu_fail(k, r, err, "cuEventCreate");
    } else {
        ws_spin sp;
        int have = spin_load(k, &sp);
        if (spun)
            *spun = have;
        for (int i = 0; i < repeat && err->code == WS_OK; i++)
            time_one(k, &sp, start, stop, 1, &t[i], err);
        if (have)
            api->cuModuleUnload(sp.module);
    }
    if (start)
        api->cuEventDestroy(start);
    if (stop)
        api->cuEventDestroy(stop);
    if (err->code == WS_OK) {
        qsort(t, (size_t)repeat, sizeof *t, cmp_double);
        *median_ns = repeat % 2 ? t[repeat / 2] : (t[repeat / 2 - 1] + t[repeat / 2]) / 2;
        if (min_ns)
            *min_ns = t[0];
    }
    free(t);
    return err->code;
}

int ws_gpu_kernel_time_once(ws_gpu_kernel *k, double *ns, int *spun, ws_error *err)
{
    const ws_cu_api *api = &k->gpu->api;
    CUevent start = NULL, stop = NULL;
    CUresult r;
    int rc = WS_OK;
    if ((r = api->cuEventCreate(&start, CU_EVENT_DEFAULT)) != CUDA_SUCCESS ||
        (r = api->cuEventCreate(&stop, CU_EVENT_DEFAULT)) != CUDA_SUCCESS) {
        rc = cu_fail(k, r, err, "cuEventCreate");
    } else {
        ws_spin sp;
        int have = spin_load(k, &sp);
        if (spun)
            *spun = have;
        rc = time_one(k, &sp, start, stop, 0, ns, err);
        if (have)
            api->cuModuleUnload(sp.module);
    }
    if (start)
        api->cuEventDestroy(start);
    if (stop)
        api->cuEventDestroy(stop);
    return rc;
}

int ws_gpu_kernel_read(ws_gpu_kernel *k, ws_buffers *out, ws_error *err)
{
    for (int i = 0; i < out->n && i < k->inputs->n; i++) {
        if (!out->b[i].bytes)
            continue;
        const ws_image *im = ws_spec_image(k->spec, i);
        if (im && im->kind == WS_IMAGE_SURFACE && k->images) { /* written through the array */
            if (ws_cu_image_copy(&k->gpu->api, im, &k->images[i], &out->b[i], 1,
                                 k->variant->kernel, err) != WS_OK)
                return err->code;
            continue;
        }
        CUresult r = k->gpu->api.cuMemcpyDtoH(out->b[i].data, k->dptr[i], out->b[i].bytes);
        if (r != CUDA_SUCCESS)
            return cu_fail(k, r, err, "copying outputs back");
    }
    for (int i = 0; i < k->nglobals; i++) { /* the state a later restore brings back */
        CUresult r = k->gpu->api.cuMemcpyDtoH(k->globals[i].host, k->globals[i].at,
                                              k->globals[i].size);
        if (r != CUDA_SUCCESS)
            return cu_fail(k, r, err, "reading a __device__ variable");
    }
    return WS_OK;
}

const char *ws_gpu_kernel_entry(const ws_gpu_kernel *k) { return k->entry.name; }
ws_gpu *ws_gpu_kernel_gpu(const ws_gpu_kernel *k) { return k->gpu; }

const void *ws_gpu_kernel_cubin(const ws_gpu_kernel *k, size_t *size)
{
    *size = k->cubin_size;
    return k->cubin;
}

void ws_gpu_run_options_default(ws_gpu_run_options *o)
{
    o->warmup = 1;
    o->repeat = 10;
}

void ws_gpu_describe(const ws_gpu_kernel *k, const ws_spec *s, const ws_variant *v,
                     ws_result *res)
{
    const ws_gpu_info *i = &k->gpu->info;
    snprintf(res->source, sizeof res->source, "gpu:%.*s", (int)sizeof res->source - 5, i->name);
    snprintf(res->workload, sizeof res->workload, "%s", s->name);
    snprintf(res->variant, sizeof res->variant, "%s", v->name);
    snprintf(res->kernel, sizeof res->kernel, "%s", v->kernel);
    memcpy(res->grid, v->grid, sizeof res->grid);
    memcpy(res->block, v->block, sizeof res->block);
    res->smem_dynamic = v->smem_dynamic;
    ws_spec_params_string(s, res->params, sizeof res->params);
    res->seed = s->seed;
    ws_gpu_info_json(i, res->device_json, sizeof res->device_json);
}

int ws_gpu_run(ws_gpu_kernel *k, const ws_gpu_run_options *o, ws_buffers *out,
               ws_result *res, ws_error *err)
{
    double median = 0, min = 0;
    int spun = 0;
    if (ws_gpu_kernel_time(k, o->warmup, o->repeat, &median, &min, &spun, err) != WS_OK)
        return err->code;
    ws_result_set_metric(res, WS_M(GPU_TIME_NS), median);
    ws_result_set_metric(res, WS_M(EVENT_MIN_NS), min);
    ws_result_set_metric(res, WS_M(EVENT_REPEAT), o->repeat);
    ws_result_set_metric(res, WS_M(EVENT_BEHIND_SPIN), spun);
    /* Every timed launch starts from restored inputs, so the last one's outputs are one
     * launch's: they are the ones checked (no extra launch for a kernel of minutes). */
    return ws_gpu_kernel_read(k, out, err);
}
