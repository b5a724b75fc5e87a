/* cuda_api.h — private to backend/: the driver functions the backend uses, resolved at run
 * time from libcuda through cuGetProcAddress, so warpscope starts on machines with no
 * driver. One X-macro list; each entry becomes a typed pointer in ws_cu_api. */
#ifndef WS_BACKEND_CUDA_API_H
#define WS_BACKEND_CUDA_API_H

#include <cuda.h>

#define WS_CU_FUNCTIONS(X)                                                         \
    X(cuInit) X(cuDriverGetVersion) X(cuGetErrorName) X(cuDeviceGetCount)         \
    X(cuDeviceGet) X(cuDeviceGetName) X(cuDeviceGetAttribute) X(cuDeviceTotalMem) \
    X(cuDevicePrimaryCtxRetain) X(cuDevicePrimaryCtxRelease) X(cuCtxSetCurrent)   \
    X(cuCtxSynchronize) X(cuLinkCreate) X(cuLinkAddData) X(cuLinkComplete)        \
    X(cuLinkDestroy) X(cuModuleLoadData) X(cuModuleUnload) X(cuModuleGetFunction) \
    X(cuFuncSetAttribute) X(cuMemAlloc) X(cuMemFree) X(cuMemcpyHtoD)              \
    X(cuMemcpyDtoH) X(cuLaunchKernel) X(cuLaunchCooperativeKernel)                \
    X(cuEventCreate) X(cuEventRecord)                                             \
    X(cuEventSynchronize) X(cuEventElapsedTime) X(cuEventDestroy)                \
    X(cuModuleLoadDataEx) X(cuFuncGetAttribute) X(cuModuleGetGlobal)              \
    X(cuOccupancyMaxActiveBlocksPerMultiprocessor)                                 \
    X(cuArray3DCreate) X(cuArrayDestroy) X(cuMemcpy3D) X(cuTexObjectCreate)       \
    X(cuTexObjectDestroy) X(cuSurfObjectCreate) X(cuSurfObjectDestroy)

typedef struct ws_cu_api {
    void *lib;
#define WS_CU_MEMBER(fn) __typeof__(fn) *fn;
    WS_CU_FUNCTIONS(WS_CU_MEMBER)
#undef WS_CU_MEMBER
} ws_cu_api;

/* Shared by gpu.c and kernel.c. */
struct ws_gpu {
    ws_cu_api api;
    CUdevice device;
    CUcontext context;
    ws_gpu_info info;
};

/* "CUDA_ERROR_X (N)" using the driver's names when it is loaded. */
const char *ws_cu_describe(const ws_cu_api *api, CUresult r, char *buf, size_t n);
/* Sets a WS_ERR_GPU error "kernel K: WHAT failed: CUDA_ERROR_X (N)", names the kernel in
 * err->kernel, and returns WS_ERR_GPU. */
int ws_cu_fail(const ws_cu_api *api, CUresult r, ws_error *err, const char *kernel,
               const char *what);
/* A JIT error log on one line, for an error message: newlines become ';', trailing blanks
 * go. In place. */
void ws_cu_log_one_line(char *log);

/* image.c: a spec `texture` or `surface` buffer as a CUDA array (or, `resource linear`,
 * the buffer's device memory at `memory`) and the object the kernel receives (`handle`,
 * passed in place of the buffer's pointer). */
typedef struct ws_cu_image {
    CUarray array;
    uint64_t handle;  /* CUtexObject or CUsurfObject; 0 = none */
} ws_cu_image;
int ws_cu_image_create(const ws_cu_api *api, const ws_spec *s, const ws_image *im,
                       CUdeviceptr memory, const char *kernel, ws_cu_image *out, ws_error *err);
/* The buffer's bytes into the array, or (to_host) the array's back into the buffer. */
int ws_cu_image_copy(const ws_cu_api *api, const ws_image *im, const ws_cu_image *g,
                     const ws_buffer *b, int to_host, const char *kernel, ws_error *err);
void ws_cu_image_destroy(const ws_cu_api *api, const ws_image *im, ws_cu_image *g);

#endif
