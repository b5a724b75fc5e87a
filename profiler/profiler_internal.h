/* profiler_internal.h — private to profiler/: the three collectors that profile.c runs
 * one after another on the same launch target. Each restores the inputs itself. */
#ifndef WS_PROFILER_INTERNAL_H
#define WS_PROFILER_INTERNAL_H

#include "profiler/profiler.h"

/* A CUPTI parameter struct with its size set and everything else zero. */
#define WS_CUPTI_PARAMS(type) {.structSize = type##_STRUCT_SIZE}

/* What the collectors profile: a launch they can repeat, and the state it starts from.
 * A backend kernel (ws_prof_profile) or a launch of an application the injection library
 * caught (profiler/inject/). */
typedef struct ws_prof_target {
    CUcontext ctx;
    uint32_t device;                  /* ordinal */
    const char *entry;                /* mangled kernel name, for messages */
    const void *cubin;                /* for PC -> line mapping and SASS text; may be NULL */
    size_t cubin_size;
    const char *source;               /* the .cu whose text goes with the rows; may be NULL */
    int (*restore)(void *self, ws_error *err); /* puts the launch's inputs back */
    int (*launch)(void *self, ws_error *err);  /* one launch, synchronized */
    void *self;
} ws_prof_target;

/* Runs the collectors `o` asks for on `t` into `res` (ws_prof_profile without a kernel). */
int ws_prof_profile_target(const ws_prof_target *t, const ws_prof_options *o, ws_result *res,
                           ws_error *err);

/* Range Profiler + Profiler Host: `names` (Nsight Compute metric names, at most
 * WS_PROF_MAX_METRICS) in one session into res->metrics. An unavailable metric is an error
 * when `strict`, else a warning. Adds its passes to ws__profiler_passes and
 * ws__replay_passes. */
int ws_prof_range_metrics(const ws_prof_target *t, const char *chip, const char *const *names, int n,
                          int strict, ws_result *res, ws_error *err);
/* SASS Metrics: one ws_inst_stat per SASS instruction, mapped to .cu lines via the cubin. */
int ws_prof_sass_collect(const ws_prof_target *t, const char *chip, ws_result *res, ws_error *err);
/* SASS text (cuobjdump -sass of the cubin) into res->insts[first..].text; best effort. */
void ws_prof_sass_text(const void *cubin, size_t size, ws_result *res, int first);
/* Activity API: median kernel duration over `launches` launches, in ns. */
int ws_prof_activity_duration(const ws_prof_target *t, int launches, double *median_ns, ws_error *err);

#endif
