/* inject.h — private to the injection library (libwarpscope_inject.so, loaded into an
 * application through CUDA_INJECTION64_PATH by `warpscope profile/capture -- APP`): its
 * state, the device allocations it tracks, and the steps of profiling or capturing one
 * launch. The CLI's side is cli/cmd_app.c; they speak through environment variables and
 * the files named in WARPSCOPE_INJECT_OUT (results or capture) and its ".log". */
#ifndef WS_INJECT_H
#define WS_INJECT_H

#include <pthread.h>
#include <regex.h>
#include <stdio.h>
#include <cuda.h>
#include <cupti.h>
#include "profiler/profiler_internal.h"
#include "store/store.h"

/* One live device allocation (cuMemAlloc and its kin, until cuMemFree). */
typedef struct ws_inj_alloc { CUdeviceptr base; size_t size; } ws_inj_alloc;

/* A cubin the driver loaded (CUPTI's module-loaded callback), for PC -> line mapping. */
typedef struct ws_inj_cubin { void *data; size_t size; } ws_inj_cubin;

/* The launch being handled: what the driver call got, and how to make it again. */
typedef struct ws_inj_launch {
    CUpti_CallbackId cbid;
    const char *api;             /* "cuLaunchKernel", ... */
    const char *kernel;          /* mangled name */
    int64_t index;               /* over all of the application's launches */
    CUfunction f;
    uint32_t grid[3], block[3], smem;
    CUstream stream;
    void **kernel_params, **extra;
    const CUlaunchConfig *config; /* cuLaunchKernelEx */
    uint8_t *params;              /* the parameter block, as bytes */
    size_t param_bytes;
} ws_inj_launch;

typedef struct ws_inject {
    int capture;                 /* 0 profile, 1 capture */
    char out[4096], app[64];
    FILE *log;
    regex_t filter;
    int has_filter;
    int64_t skip, count;         /* Nsight Compute's --launch-skip / --launch-count (-1: all) */
    int64_t launches, matched, handled;
    ws_prof_options prof;
    CUpti_SubscriberHandle subscriber;
    pthread_mutex_t lock;
    pthread_t busy_thread;       /* the thread replaying a launch: its own calls are ours */
    int busy;
    ws_inj_alloc *allocs; int nallocs, cap_allocs;
    ws_inj_cubin *cubins; int ncubins;
    ws_store *store;             /* profile: the results file */
    ws_capture *cap;             /* capture: the capture file */
    ws_capture_launch pending;   /* capture: between the launch's enter and exit */
    int has_pending;
} ws_inject;

/* ---- inject_mem.c: allocations, snapshots */
void ws_inj_alloc_add(ws_inject *in, CUdeviceptr base, size_t size);
void ws_inj_alloc_remove(ws_inject *in, CUdeviceptr base);
/* The allocations 8-byte aligned words of the parameter block point into (tracked, or
 * found by the driver), as regions with their contents now (`before`). */
int ws_inj_reachable(ws_inject *in, const ws_inj_launch *l, ws_capture_region **regions,
                     int *n, ws_error *err);
/* Every tracked allocation and those the launch reaches, with their contents now. */
int ws_inj_snapshot_all(ws_inject *in, const ws_inj_launch *l, ws_capture_region **regions,
                        int *n, ws_error *err);
/* Copies `before` (after = 0) or reads the device into `after` (after = 1). */
int ws_inj_regions_copy(ws_capture_region *regions, int n, int after, ws_error *err);
void ws_inj_regions_free(ws_capture_region *regions, int n);
/* Sets a WS_ERR_GPU error "WHAT failed: CUDA_ERROR_X (N)". */
int ws_inj_cu_fail(ws_error *err, CUresult r, const char *what);

/* ---- inject_launch.c: reading a launch, making it again, profiling and capturing it */
/* Fills `l` from a driver launch call's parameters; 0, or why it cannot be replayed
 * (a cooperative launch, a graph, ...) into `why`. */
int ws_inj_read_launch(CUpti_CallbackId cbid, const CUpti_CallbackData *cb, ws_inj_launch *l,
                       char *why, size_t n);
int ws_inj_profile(ws_inject *in, ws_inj_launch *l, ws_error *err);
int ws_inj_capture_before(ws_inject *in, ws_inj_launch *l, ws_error *err);
int ws_inj_capture_after(ws_inject *in, ws_error *err);

#endif
