/* inject_launch.c — one of the application's launches, as the injection library handles
 * it: reads the driver call's parameters (shape, the parameter block as bytes), makes the
 * launch again for the profiler's passes with the memory restored before each, and
 * records it into a capture file with the memory before and after. Not selecting launches
 * or tracking allocations (inject.c, inject_mem.c). */
#include <stdlib.h>
#include <string.h>
#include <cupti_driver_cbid.h>
#include "profiler/inject/inject.h"

/* The parameter block from kernelParams (sizes from cuFuncGetParamInfo, or
 * cuKernelGetParamInfo when the handle is a CUkernel) or from `extra`'s buffer. */
static int read_params(ws_inj_launch *l)
{
    if (l->extra) {
        void *buf = NULL;
        size_t size = 0;
        for (int i = 0; l->extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
            if (l->extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER)
                buf = l->extra[i + 1];
            else if (l->extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE)
                size = *(size_t *)l->extra[i + 1];
        }
        if (buf && size && (l->params = malloc(size))) {
            memcpy(l->params, buf, size);
            l->param_bytes = size;
        }
        return buf && size && !l->params ? -1 : 0;
    }
    size_t end = 0, off, size;
    CUfunctionLoadingState state;
    if (cuFuncIsLoaded(&state, l->f) == CUDA_SUCCESS && state != CU_FUNCTION_LOADING_STATE_LOADED)
        cuFuncLoad(l->f); /* lazy loading: the parameter layout comes with the module */
    int byfunc = cuFuncGetParamInfo(l->f, 0, &off, &size) == CUDA_SUCCESS;
    for (size_t i = 0;; i++) {
        CUresult r = byfunc ? cuFuncGetParamInfo(l->f, i, &off, &size)
                            : cuKernelGetParamInfo((CUkernel)l->f, i, &off, &size);
        if (r != CUDA_SUCCESS)
            break;
        if (off + size > end) {
            uint8_t *p = realloc(l->params, off + size);
            if (!p)
                return -1;
            memset(p + end, 0, off + size - end);
            l->params = p;
            end = off + size;
        }
        if (!l->kernel_params || !l->kernel_params[i])
            break;
        memcpy(l->params + off, l->kernel_params[i], size);
    }
    l->param_bytes = end;
    return 0;
}

static int is_cooperative(const CUlaunchConfig *c)
{
    for (unsigned i = 0; c && i < c->numAttrs; i++)
        if (c->attrs[i].id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE && c->attrs[i].value.cooperative)
            return 1;
    return 0;
}

int ws_inj_read_launch(CUpti_CallbackId cbid, const CUpti_CallbackData *cb, ws_inj_launch *l,
                       char *why, size_t n)
{
    memset(l, 0, sizeof *l);
    l->cbid = cbid;
    l->api = cb->functionName;
    l->kernel = cb->symbolName ? cb->symbolName : strstr(l->api, "Graph") ? "(graph)" : "?";
    why[0] = '\0';
    if (cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel || cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz) {
        const cuLaunchKernel_params *p = cb->functionParams;
        l->f = p->f;
        l->grid[0] = p->gridDimX, l->grid[1] = p->gridDimY, l->grid[2] = p->gridDimZ;
        l->block[0] = p->blockDimX, l->block[1] = p->blockDimY, l->block[2] = p->blockDimZ;
        l->smem = p->sharedMemBytes;
        l->stream = p->hStream;
        l->kernel_params = p->kernelParams;
        l->extra = p->extra;
    } else if (cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx || cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz) {
        const cuLaunchKernelEx_params *p = cb->functionParams;
        if (!p->config) {
            snprintf(why, n, "a launch with no configuration");
            return -1;
        }
        l->f = p->f;
        l->config = p->config;
        l->grid[0] = p->config->gridDimX, l->grid[1] = p->config->gridDimY, l->grid[2] = p->config->gridDimZ;
        l->block[0] = p->config->blockDimX, l->block[1] = p->config->blockDimY, l->block[2] = p->config->blockDimZ;
        l->smem = p->config->sharedMemBytes;
        l->stream = p->config->hStream;
        l->kernel_params = p->kernelParams;
        l->extra = p->extra;
        if (is_cooperative(p->config))
            snprintf(why, n, "cooperative launches (grid-wide synchronisation) are not replayed");
    } else if (strstr(l->api, "Cooperative")) {
        snprintf(why, n, "cooperative launches (grid-wide synchronisation) are not replayed");
    } else if (strstr(l->api, "Graph")) {
        snprintf(why, n, "CUDA graph launches are not replayed (launch the kernels directly)");
    } else {
        snprintf(why, n, "%s launches are not replayed", l->api);
    }
    CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
    if (!why[0] && cuStreamIsCapturing(l->stream, &status) == CUDA_SUCCESS &&
        status != CU_STREAM_CAPTURE_STATUS_NONE)
        snprintf(why, n, "a launch into a stream being captured into a CUDA graph is not replayed");
    if (!why[0] && read_params(l))
        snprintf(why, n, "out of memory reading the parameters");
    return why[0] ? -1 : 0;
}

static CUresult relaunch(const ws_inj_launch *l)
{
    if (l->config)
        return cuLaunchKernelEx(l->config, l->f, l->kernel_params, l->extra);
    return cuLaunchKernel(l->f, l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1],
                          l->block[2], l->smem, l->stream, l->kernel_params, l->extra);
}

/* ---------------------------------------------------------------- profiling */

typedef struct replay_ctx {
    ws_inject *in;
    const ws_inj_launch *l;
    ws_capture_region *saved;
    int nsaved;
    ws_prof_target *target;
} replay_ctx;

static int replay_restore(void *self, ws_error *err)
{
    replay_ctx *c = self;
    return ws_inj_regions_copy(c->saved, c->nsaved, 0, err);
}

/* The cubin (of those loaded) holding the kernel's name, for PC -> line mapping. */
static void find_cubin(ws_inject *in, ws_prof_target *t)
{
    size_t n = strlen(t->entry);
    for (int i = in->ncubins - 1; i >= 0 && !t->cubin; i--)
        if (memmem(in->cubins[i].data, in->cubins[i].size, t->entry, n + 1)) {
            t->cubin = in->cubins[i].data;
            t->cubin_size = in->cubins[i].size;
        }
}

static int replay_launch(void *self, ws_error *err)
{
    replay_ctx *c = self;
    CUresult r = relaunch(c->l);
    if (r == CUDA_SUCCESS)
        r = cuCtxSynchronize();
    if (r != CUDA_SUCCESS)
        return ws_inj_cu_fail(err, r, c->l->api);
    if (!c->target->cubin)
        find_cubin(c->in, c->target);
    return WS_OK;
}

static void describe(ws_inject *in, const ws_inj_launch *l, CUdevice dev, ws_result *res)
{
    ws_gpu_info i;
    memset(&i, 0, sizeof i);
    cuDeviceGetName(i.name, sizeof i.name, dev);
    i.ordinal = (int)dev;
    cuDeviceGetAttribute(&i.cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
    cuDeviceGetAttribute(&i.cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
    cuDeviceGetAttribute(&i.sm_count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
    cuDeviceGetAttribute(&i.clock_khz, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, dev);
    cuDeviceGetAttribute(&i.l2_bytes, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, dev);
    cuDeviceTotalMem(&i.total_mem, dev);
    cuDriverGetVersion(&i.driver_version);
    snprintf(res->source, sizeof res->source, "gpu:%.*s", (int)sizeof res->source - 5, i.name);
    snprintf(res->workload, sizeof res->workload, "%s", in->app);
    ws_launch_name(l->kernel, l->index, res->variant, sizeof res->variant);
    snprintf(res->kernel, sizeof res->kernel, "%s", l->kernel);
    memcpy(res->grid, l->grid, sizeof res->grid);
    memcpy(res->block, l->block, sizeof res->block);
    res->smem_dynamic = l->smem;
    ws_gpu_info_json(&i, res->device_json, sizeof res->device_json);
}

/* Profiles the launch with every live allocation saved first and restored before each
 * pass and at the end, so the application's own launch then starts from its own state. */
int ws_inj_profile(ws_inject *in, ws_inj_launch *l, ws_error *err)
{
    CUcontext ctx;
    CUdevice dev;
    CUresult r = cuCtxSynchronize();
    if (r == CUDA_SUCCESS)
        r = cuCtxGetCurrent(&ctx);
    if (r == CUDA_SUCCESS)
        r = cuCtxGetDevice(&dev);
    if (r != CUDA_SUCCESS)
        return ws_inj_cu_fail(err, r, "finding the launch's context");
    ws_prof_target t;
    replay_ctx c = {in, l, NULL, 0, &t};
    memset(&t, 0, sizeof t);
    t.ctx = ctx;
    t.device = (uint32_t)dev;
    t.entry = l->kernel;
    t.restore = replay_restore;
    t.launch = replay_launch;
    t.self = &c;
    find_cubin(in, &t);
    ws_result res;
    ws_result_init(&res);
    describe(in, l, dev, &res);
    int64_t run_id;
    int rc = ws_inj_snapshot_all(in, l, &c.saved, &c.nsaved, err);
    if (rc == WS_OK)
        rc = ws_prof_profile_target(&t, &in->prof, &res, err);
    ws_error restore_err;
    ws_error_clear(&restore_err);
    if (c.saved && replay_restore(&c, &restore_err) != WS_OK && rc == WS_OK) {
        *err = restore_err;
        rc = err->code;
    }
    if (rc == WS_OK) {
        ws_result_set_metric(&res, WS_M(LAUNCH_INDEX), (double)l->index);
        rc = ws_store_save_result(in->store, &res, &run_id, err);
    }
    ws_inj_regions_free(c.saved, c.nsaved);
    ws_result_free(&res);
    return rc;
}

/* ---------------------------------------------------------------- capturing */

int ws_inj_capture_before(ws_inject *in, ws_inj_launch *l, ws_error *err)
{
    ws_capture_launch *p = &in->pending;
    memset(p, 0, sizeof *p);
    p->index = l->index;
    snprintf(p->kernel, sizeof p->kernel, "%s", l->kernel);
    snprintf(p->api, sizeof p->api, "%s", l->api);
    memcpy(p->grid, l->grid, sizeof p->grid);
    memcpy(p->block, l->block, sizeof p->block);
    p->smem_dynamic = l->smem;
    p->params = l->params;       /* handed over: freed with the pending launch */
    p->param_bytes = l->param_bytes;
    l->params = NULL;
    CUresult r = cuCtxSynchronize();
    if (r != CUDA_SUCCESS)
        return ws_inj_cu_fail(err, r, "synchronizing before the launch");
    in->has_pending = 1;
    ws_inj_launch view = *l;
    view.params = p->params;
    return ws_inj_reachable(in, &view, &p->regions, &p->nregions, err);
}

int ws_inj_capture_after(ws_inject *in, ws_error *err)
{
    ws_capture_launch *p = &in->pending;
    CUresult r = cuCtxSynchronize();
    int rc = r == CUDA_SUCCESS ? WS_OK : ws_inj_cu_fail(err, r, "the launch");
    if (rc == WS_OK)
        rc = ws_inj_regions_copy(p->regions, p->nregions, 1, err);
    if (rc == WS_OK)
        rc = ws_capture_add_launch(in->cap, p, err);
    ws_capture_launch_free(p);
    in->has_pending = 0;
    return rc;
}
