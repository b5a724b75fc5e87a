/* gpu.c — finding the driver and the device: dlopen libcuda, resolve the driver API
 * through cuGetProcAddress, cuInit, read the device's properties, retain its primary
 * context. Every failure becomes one clear WS_ERR_GPU line. Not kernels (kernel.c). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "backend/backend.h"
#include "backend/cuda_api.h"


const char *ws_cu_describe(const ws_cu_api *api, CUresult r, char *buf, size_t n)
{
    const char *name = NULL;
    if (api && api->cuGetErrorName && api->cuGetErrorName(r, &name) != CUDA_SUCCESS)
        name = NULL;
    snprintf(buf, n, "%s (%d)", name ? name : ws_cu_result_name((int)r), (int)r);
    return buf;
}

int ws_cu_fail(const ws_cu_api *api, CUresult r, ws_error *err, const char *kernel,
               const char *what)
{
    char why[96];
    /* the kernel goes in its own field: the error's one line names it once */
    ws_error_set(err, WS_ERR_GPU, "%s failed: %s", what, ws_cu_describe(api, r, why, sizeof why));
    snprintf(err->kernel, sizeof err->kernel, "%.*s", (int)sizeof err->kernel - 1, kernel);
    return WS_ERR_GPU;
}

void ws_cu_log_one_line(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\r'))
        s[--n] = '\0';
    for (char *p = s; *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ';';
}

/* dlopen + the two entry points needed before the rest are resolved. */
static int load_lib(ws_cu_api *api, const char *path, ws_error *err)
{
    api->lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!api->lib) {
        const char *why = dlerror();
        return ws_error_set(err, WS_ERR_GPU, "no CUDA driver: cannot load %s (%s)", path,
                            why ? why : "unknown reason");
    }
    void *init = dlsym(api->lib, "cuInit"), *name = dlsym(api->lib, "cuGetErrorName");
    if (!init)
        return ws_error_set(err, WS_ERR_GPU, "no usable CUDA driver: %s lacks cuInit", path);
    memcpy(&api->cuInit, &init, sizeof init);
    memcpy(&api->cuGetErrorName, &name, sizeof name);
    return WS_OK;
}

/* Loads libcuda and cuInit()s it (so a stub or a machine with no GPU fails here with the
 * driver's own error), then resolves every function of WS_CU_FUNCTIONS. */
static int load_api(ws_cu_api *api, const char *libcuda, ws_error *err)
{
    const char *path = libcuda ? libcuda : getenv("WARPSCOPE_LIBCUDA");
    char why[96];
    if (!path || !*path)
        path = "libcuda.so.1";
    if (load_lib(api, path, err) != WS_OK)
        return err->code;
    CUresult r = api->cuInit(0);
    if (r != CUDA_SUCCESS)
        return ws_error_set(err, WS_ERR_GPU, "no CUDA GPU: cuInit returned %s",
                            ws_cu_describe(api, r, why, sizeof why));
/* dlsym of the name the header maps each function to (cuMemAlloc -> cuMemAlloc_v2), so
 * the symbol's ABI is the prototype's; cuGetProcAddress would hand out newer versions
 * (cuCtxSynchronize_v2 takes a context) under the plain names. */
#define WS_CU_NAME2(x) #x
#define WS_CU_NAME(x) WS_CU_NAME2(x)
#define WS_CU_RESOLVE(fn)                                                                 \
    {                                                                                     \
        void *p = dlsym(api->lib, WS_CU_NAME(fn));                                        \
        if (!p)                                                                           \
            return ws_error_set(err, WS_ERR_GPU, "no usable CUDA driver: %s lacks %s", path, \
                                WS_CU_NAME(fn));                                          \
        memcpy(&api->fn, &p, sizeof p);                                                   \
    }
    WS_CU_FUNCTIONS(WS_CU_RESOLVE)
#undef WS_CU_RESOLVE
    return WS_OK;
}

static int attr(ws_gpu *g, CUdevice_attribute a)
{
    int v = 0;
    if (g->api.cuDeviceGetAttribute(&v, a, g->device) != CUDA_SUCCESS)
        return -1;
    return v;
}

static void read_info(ws_gpu *g, int ordinal)
{
    ws_gpu_info *i = &g->info;
    i->ordinal = ordinal;
    g->api.cuDeviceGetName(i->name, (int)sizeof i->name, g->device);
    i->cc_major = attr(g, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
    i->cc_minor = attr(g, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    i->sm_count = attr(g, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    i->clock_khz = attr(g, CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
    i->mem_clock_khz = attr(g, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
    i->mem_bus_width = attr(g, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
    i->l2_bytes = attr(g, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
    i->max_threads_per_sm = attr(g, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
    i->max_smem_per_block_optin = attr(g, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
    g->api.cuDeviceTotalMem(&i->total_mem, g->device);
    g->api.cuDriverGetVersion(&i->driver_version);
}

static int open_device(ws_gpu *g, int ordinal, ws_error *err)
{
    char why[96];
    int count = 0;
    CUresult r = g->api.cuDeviceGetCount(&count);
    if (r != CUDA_SUCCESS || count == 0)
        return ws_error_set(err, WS_ERR_GPU, "no CUDA GPU: cuDeviceGetCount found %d devices%s%s",
                            count, r ? ", " : "", r ? ws_cu_describe(&g->api, r, why, sizeof why) : "");
    if (ordinal < 0 || ordinal >= count)
        return ws_error_set(err, WS_ERR_GPU, "no CUDA GPU %d: this machine has %d", ordinal, count);
    if ((r = g->api.cuDeviceGet(&g->device, ordinal)) != CUDA_SUCCESS ||
        (r = g->api.cuDevicePrimaryCtxRetain(&g->context, g->device)) != CUDA_SUCCESS ||
        (r = g->api.cuCtxSetCurrent(g->context)) != CUDA_SUCCESS)
        return ws_error_set(err, WS_ERR_GPU, "cannot open CUDA GPU %d: %s", ordinal,
                            ws_cu_describe(&g->api, r, why, sizeof why));
    read_info(g, ordinal);
    return WS_OK;
}

int ws_gpu_open(const char *libcuda, int ordinal, ws_gpu **out, ws_error *err)
{
    *out = NULL;
    ws_gpu *g = calloc(1, sizeof *g);
    if (!g)
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory opening the GPU");
    if (load_api(&g->api, libcuda, err) != WS_OK || open_device(g, ordinal, err) != WS_OK) {
        ws_gpu_close(g);
        return err->code;
    }
    *out = g;
    return WS_OK;
}

void ws_gpu_close(ws_gpu *g)
{
    if (!g)
        return;
    if (g->context)
        g->api.cuDevicePrimaryCtxRelease(g->device);
    if (g->api.lib)
        dlclose(g->api.lib);
    free(g);
}

const ws_gpu_info *ws_gpu_get_info(const ws_gpu *g) { return &g->info; }
CUcontext ws_gpu_context(const ws_gpu *g) { return g->context; }

void ws_gpu_info_json(const ws_gpu_info *i, char *buf, size_t n)
{
    snprintf(buf, n,
             "{\"name\":\"%s\",\"ordinal\":%d,\"cc\":\"%d.%d\",\"sms\":%d,\"clock_khz\":%d,"
             "\"mem_clock_khz\":%d,\"mem_bus_width\":%d,\"l2_bytes\":%d,\"total_mem\":%zu,"
             "\"max_threads_per_sm\":%d,\"driver_version\":%d,\"cuda_version\":\"%d.%d\","
             "\"built_with_cuda\":%d}",
             i->name, i->ordinal, i->cc_major, i->cc_minor, i->sm_count, i->clock_khz,
             i->mem_clock_khz, i->mem_bus_width, i->l2_bytes, i->total_mem,
             i->max_threads_per_sm, i->driver_version, i->driver_version / 1000,
             (i->driver_version % 1000) / 10, CUDA_VERSION);
}
