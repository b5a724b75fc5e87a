/* profiler_internal.h — private to profiler/: the three collectors that profile.c runs
 * one after another on the same kernel. Each restores the kernel's inputs itself. */
#ifndef WS_PROFILER_INTERNAL_H
#define WS_PROFILER_INTERNAL_H

#include "profiler/profiler.h"

/* A CUPTI parameter struct with its size set and everything else zero. */
#define WS_CUPTI_PARAMS(type) {.structSize = type##_STRUCT_SIZE}

/* Range Profiler + Profiler Host: `names` (Nsight Compute metric names, at most
 * WS_PROF_MAX_METRICS) in one session into res->metrics. An unavailable metric is an error
 * when `strict`, else a warning. Adds its passes to ws__profiler_passes and
 * ws__replay_passes. */
int ws_prof_range_metrics(ws_gpu_kernel *k, const char *chip, const char *const *names, int n,
                          int strict, ws_result *res, ws_error *err);
/* SASS Metrics: one ws_inst_stat per SASS instruction, mapped to .cu lines via the cubin. */
int ws_prof_sass_collect(ws_gpu_kernel *k, const ws_spec *s, const char *chip, ws_result *res,
                         ws_error *err);
/* SASS text (cuobjdump -sass of the cubin) into res->insts[first..].text; best effort. */
void ws_prof_sass_text(const void *cubin, size_t size, ws_result *res, int first);
/* Activity API: median kernel duration over `launches` launches, in ns. */
int ws_prof_activity_duration(ws_gpu_kernel *k, int launches, double *median_ns, ws_error *err);

#endif
