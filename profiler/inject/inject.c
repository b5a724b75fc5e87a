/* inject.c — the injection library's entry point: the driver calls InitializeInjection
 * (CUDA_INJECTION64_PATH) when the application initialises CUDA; it reads what
 * `warpscope profile/capture -- APP` put in the environment, subscribes to CUPTI callbacks
 * on allocations, module loads and kernel launches, and profiles or captures the launches
 * selected (--kernel, --launch-skip, --launch-count). Every launch seen, done, skipped or
 * failed is a line of OUT.log for the CLI. The one state lives as long as the process. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <cupti_driver_cbid.h>
#include "profiler/inject/inject.h"

static ws_inject *ws_injected; /* the process's one injection; see the header comment */

static void log_line(ws_inject *in, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void log_line(ws_inject *in, const char *fmt, ...)
{
    if (!in->log)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(in->log, fmt, ap);
    va_end(ap);
    fputc('\n', in->log);
    fflush(in->log);
}

/* "_Z9transform6Params" and "transform" both match --kernel transform. */
static int selected(ws_inject *in, const char *kernel)
{
    char base[160];
    ws_launch_name(kernel, 0, base, sizeof base);
    base[strcspn(base, "#")] = '\0';
    if (in->has_filter && regexec(&in->filter, kernel, 0, NULL, 0) &&
        regexec(&in->filter, base, 0, NULL, 0))
        return 0;
    int64_t m = in->matched++;
    return m >= in->skip && (in->count < 0 || m < in->skip + in->count);
}

static void on_launch_enter(ws_inject *in, CUpti_CallbackId cbid, const CUpti_CallbackData *cb)
{
    ws_inj_launch l;
    char why[160];
    int64_t index = in->launches++;
    in->busy = 1;
    in->busy_thread = pthread_self();
    int bad = ws_inj_read_launch(cbid, cb, &l, why, sizeof why);
    in->busy = 0;
    l.index = index;
    log_line(in, "launch %lld %s %s", (long long)index, l.api, l.kernel);
    if (!selected(in, l.kernel)) {
        free(l.params);
        return;
    }
    ws_error err;
    ws_error_clear(&err);
    if (bad) {
        log_line(in, "skipped %lld %s %s: %s", (long long)index, l.api, l.kernel, why);
        if (in->cap) { /* reported in the capture file too, by name */
            ws_capture_launch s;
            memset(&s, 0, sizeof s);
            s.index = index;
            snprintf(s.kernel, sizeof s.kernel, "%s", l.kernel);
            snprintf(s.api, sizeof s.api, "%s", l.api);
            snprintf(s.status, sizeof s.status, "%s", why);
            ws_capture_add_launch(in->cap, &s, &err);
        }
        free(l.params);
        return;
    }
    in->busy = 1;
    in->busy_thread = pthread_self();
    int rc = in->capture ? ws_inj_capture_before(in, &l, &err) : ws_inj_profile(in, &l, &err);
    in->busy = 0;
    free(l.params);
    if (rc != WS_OK) {
        char line[1024];
        ws_error_format(&err, line, sizeof line);
        log_line(in, "error %lld %s: %s", (long long)index, l.kernel, line);
        if (in->has_pending)
            ws_capture_launch_free(&in->pending), in->has_pending = 0;
        return;
    }
    if (!in->capture)
        log_line(in, "done %lld %s", (long long)index, l.kernel);
    in->handled++;
}

static void on_launch_exit(ws_inject *in)
{
    if (!in->has_pending)
        return;
    ws_error err;
    ws_error_clear(&err);
    int64_t index = in->pending.index;
    char kernel[256];
    snprintf(kernel, sizeof kernel, "%s", in->pending.kernel);
    in->busy = 1;
    in->busy_thread = pthread_self();
    int rc = ws_inj_capture_after(in, &err);
    in->busy = 0;
    if (rc == WS_OK) {
        log_line(in, "done %lld %s", (long long)index, kernel);
    } else {
        char line[1024];
        ws_error_format(&err, line, sizeof line);
        log_line(in, "error %lld %s: %s", (long long)index, kernel, line);
    }
}

static int is_launch(CUpti_CallbackId id)
{
    switch (id) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel: case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx: case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernelMultiDevice:
    case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch: case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunch: case CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync:
        return 1;
    default:
        return 0;
    }
}

static void on_memory(ws_inject *in, CUpti_CallbackId id, const CUpti_CallbackData *cb)
{
    int ok = cb->functionReturnValue && *(const CUresult *)cb->functionReturnValue == CUDA_SUCCESS;
    if (cb->callbackSite == CUPTI_API_EXIT && ok) {
        if (id == CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2) {
            const cuMemAlloc_v2_params *p = cb->functionParams;
            ws_inj_alloc_add(in, *p->dptr, p->bytesize);
        } else if (id == CUPTI_DRIVER_TRACE_CBID_cuMemAllocManaged) {
            const cuMemAllocManaged_params *p = cb->functionParams;
            ws_inj_alloc_add(in, *p->dptr, p->bytesize);
        } else if (id == CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync || id == CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync_ptsz) {
            const cuMemAllocAsync_params *p = cb->functionParams;
            ws_inj_alloc_add(in, *p->dptr, p->bytesize);
        } else if (id == CUPTI_DRIVER_TRACE_CBID_cuMemAllocPitch_v2) {
            const cuMemAllocPitch_v2_params *p = cb->functionParams;
            ws_inj_alloc_add(in, *p->dptr, *p->pPitch * p->Height);
        }
    } else if (cb->callbackSite == CUPTI_API_ENTER) {
        if (id == CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2)
            ws_inj_alloc_remove(in, ((const cuMemFree_v2_params *)cb->functionParams)->dptr);
        else if (id == CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync || id == CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync_ptsz)
            ws_inj_alloc_remove(in, ((const cuMemFreeAsync_params *)cb->functionParams)->dptr);
    }
}

/* Module images as the application hands them over (capture: for their PTX). */
static void on_module(ws_inject *in, CUpti_CallbackId id, const CUpti_CallbackData *cb)
{
    const void *image = NULL;
    if (id == CUPTI_DRIVER_TRACE_CBID_cuModuleLoadData)
        image = ((const cuModuleLoadData_params *)cb->functionParams)->image;
    else if (id == CUPTI_DRIVER_TRACE_CBID_cuModuleLoadDataEx)
        image = ((const cuModuleLoadDataEx_params *)cb->functionParams)->image;
    else if (id == CUPTI_DRIVER_TRACE_CBID_cuModuleLoadFatBinary)
        image = ((const cuModuleLoadFatBinary_params *)cb->functionParams)->fatCubin;
    else if (id == CUPTI_DRIVER_TRACE_CBID_cuLibraryLoadData)
        image = ((const cuLibraryLoadData_params *)cb->functionParams)->code;
    if (!image || !in->cap || cb->callbackSite != CUPTI_API_ENTER)
        return;
    const char *kind;
    size_t size = ws_cuda_image_size(image, &kind);
    const void *data = image;
    uint32_t magic;
    memcpy(&magic, image, 4);
    if (magic == 0x466243B1u) /* the runtime's wrapper: keep the fatbinary it points to */
        memcpy(&data, (const uint8_t *)image + 8, sizeof data);
    int64_t module;
    ws_error err;
    ws_error_clear(&err);
    if (ws_capture_add_module(in->cap, kind, data, size, NULL, &module, &err) != WS_OK)
        log_line(in, "error -1 module: %s", err.msg);
}

static void on_cubin(ws_inject *in, const CUpti_ResourceData *rd)
{
    const CUpti_ModuleResourceData *md = rd->resourceDescriptor;
    if (!md || !md->pCubin || !md->cubinSize)
        return;
    ws_inj_cubin *p = realloc(in->cubins, (size_t)(in->ncubins + 1) * sizeof *p);
    if (!p)
        return;
    in->cubins = p;
    void *copy = malloc(md->cubinSize);
    if (!copy)
        return;
    memcpy(copy, md->pCubin, md->cubinSize);
    in->cubins[in->ncubins++] = (ws_inj_cubin){copy, md->cubinSize};
    if (in->cap) {
        int64_t module;
        ws_error err;
        ws_error_clear(&err);
        ws_capture_add_module(in->cap, "cubin", copy, md->cubinSize, NULL, &module, &err);
    }
}

static void CUPTIAPI on_callback(void *user, CUpti_CallbackDomain domain, CUpti_CallbackId id,
                                 const void *data)
{
    ws_inject *in = user;
    if (domain == CUPTI_CB_DOMAIN_DRIVER_API && in->busy &&
        pthread_equal(in->busy_thread, pthread_self()))
        return; /* the library's own calls (replays, copies); modules they load still count */
    pthread_mutex_lock(&in->lock); /* recursive: a module may load inside our own calls */
    if (domain == CUPTI_CB_DOMAIN_RESOURCE && id == CUPTI_CBID_RESOURCE_MODULE_LOADED) {
        on_cubin(in, data);
    } else if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
        const CUpti_CallbackData *cb = data;
        if (is_launch(id) && cb->callbackSite == CUPTI_API_ENTER)
            on_launch_enter(in, id, cb);
        else if (is_launch(id))
            on_launch_exit(in);
        else
            on_memory(in, id, cb), on_module(in, id, cb);
    }
    pthread_mutex_unlock(&in->lock);
}

static const CUpti_CallbackId ws_driver_callbacks[] = {
    CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2, CUPTI_DRIVER_TRACE_CBID_cuMemAllocManaged,
    CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync, CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuMemAllocPitch_v2, CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync, CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuModuleLoadData, CUPTI_DRIVER_TRACE_CBID_cuModuleLoadDataEx,
    CUPTI_DRIVER_TRACE_CBID_cuModuleLoadFatBinary, CUPTI_DRIVER_TRACE_CBID_cuLibraryLoadData,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernelMultiDevice,
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunch, CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync,
};

static int64_t env_int(const char *name, int64_t fallback)
{
    const char *v = getenv(name);
    return v && *v ? strtoll(v, NULL, 10) : fallback;
}

static int configure(ws_inject *in, ws_error *err)
{
    const char *mode = getenv("WARPSCOPE_INJECT_MODE"), *out = getenv("WARPSCOPE_INJECT_OUT");
    const char *filter = getenv("WARPSCOPE_INJECT_KERNEL"), *app = getenv("WARPSCOPE_INJECT_APP");
    if (!mode || !out)
        return ws_error_set(err, WS_ERR_USAGE, "WARPSCOPE_INJECT_MODE and _OUT are not set");
    in->capture = !strcmp(mode, "capture");
    snprintf(in->out, sizeof in->out, "%s", out);
    snprintf(in->app, sizeof in->app, "%s", app && *app ? app : "app");
    in->skip = env_int("WARPSCOPE_INJECT_SKIP", 0);
    in->count = env_int("WARPSCOPE_INJECT_COUNT", -1);
    ws_prof_options_default(&in->prof);
    in->prof.metrics = getenv("WARPSCOPE_INJECT_METRICS");
    in->prof.sass = !getenv("WARPSCOPE_INJECT_NO_SASS");
    if (filter && *filter) {
        if (regcomp(&in->filter, filter, REG_EXTENDED | REG_NOSUB))
            return ws_error_set(err, WS_ERR_USAGE, "--kernel: bad regular expression '%s'", filter);
        in->has_filter = 1;
    }
    char log[4200];
    snprintf(log, sizeof log, "%s.log", out);
    if (!(in->log = fopen(log, "a")))
        return ws_error_set(err, WS_ERR_IO, "%s: cannot write", log);
    if (in->capture)
        return ws_capture_create(out, &in->cap, err);
    return ws_store_open(out, &in->store, err);
}

static int subscribe(ws_inject *in, ws_error *err)
{
    CUptiResult r = cuptiSubscribe(&in->subscriber, on_callback, in);
    if (r != CUPTI_SUCCESS)
        return ws_cupti_error(err, "cuptiSubscribe", (int)r);
    for (size_t i = 0; i < sizeof ws_driver_callbacks / sizeof ws_driver_callbacks[0]; i++)
        cuptiEnableCallback(1, in->subscriber, CUPTI_CB_DOMAIN_DRIVER_API, ws_driver_callbacks[i]);
    r = cuptiEnableCallback(1, in->subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_LOADED);
    return r == CUPTI_SUCCESS ? WS_OK : ws_cupti_error(err, "cuptiEnableCallback", (int)r);
}

static void at_exit(void)
{
    ws_inject *in = ws_injected;
    if (!in)
        return;
    pthread_mutex_lock(&in->lock);
    log_line(in, "exit %lld launches, %lld handled", (long long)in->launches, (long long)in->handled);
    if (in->cap)
        ws_capture_close(in->cap), in->cap = NULL;
    if (in->store)
        ws_store_close(in->store), in->store = NULL;
    pthread_mutex_unlock(&in->lock);
}

int InitializeInjection(void);
__attribute__((visibility("default"))) int InitializeInjection(void)
{
    if (ws_injected)
        return 1;
    ws_inject *in = calloc(1, sizeof *in);
    if (!in)
        return 0;
    ws_error err;
    ws_error_clear(&err);
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&in->lock, &attr);
    pthread_mutexattr_destroy(&attr);
    unsetenv("CUDA_INJECTION64_PATH"); /* the application's own children are not injected */
    if (configure(in, &err) == WS_OK && subscribe(in, &err) == WS_OK) {
        ws_injected = in;
        log_line(in, "injected %s", in->capture ? "capture" : "profile");
        atexit(at_exit);
        return 1;
    }
    char line[1024];
    ws_error_format(&err, line, sizeof line);
    log_line(in, "error -1 injection: %s", line);
    if (in->log)
        fclose(in->log);
    return 0;
}
