/* profiler.h — measuring a kernel on the GPU with CUPTI: Range Profiler metrics per launch
 * (Nsight Compute names), SASS Metrics per instruction mapped to .cu lines, and the
 * kernel's duration from the Activity API. Works on a kernel the backend loaded; restores
 * its inputs before every pass. Not launching or checking outputs (backend/, cli/). */
#ifndef WS_PROFILER_H
#define WS_PROFILER_H

#include "backend/backend.h"
#include "core/core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ws_prof_options {
    int range_metrics;  /* 1: collect ws_prof_metric_names() with the Range Profiler */
    int sass;           /* 1: per-instruction counts with the SASS Metrics API */
    int activity;       /* 1: kernel duration with the Activity API */
    const char *metrics; /* comma-separated Range Profiler metrics; NULL = the default set */
} ws_prof_options;
void ws_prof_options_default(ws_prof_options *o); /* everything on */

/* The Range Profiler metrics collected per launch, in Nsight Compute's names. */
const char *const *ws_prof_metric_names(int *n);
/* The metrics of a --metrics list ("a,b c"; NULL = ws_prof_metric_names()) into `list`
 * (pointing into `buf`, or into the default table); returns how many, or -1 with a
 * WS_ERR_USAGE error (empty list, more than WS_PROF_MAX_METRICS, longer than `bufsize`). */
#define WS_PROF_MAX_METRICS 32
int ws_prof_metric_list(const char *metrics, const char **list, char *buf, size_t bufsize,
                        ws_error *err);
/* Stores a Range Profiler value into `res`. A count (a ".sum") below zero is no
 * measurement (CUPTI has returned one for lts__t_requests_op_red.sum under heavy CAS
 * traffic): it is left out, with a warning on the run. Returns 0, or -1 out of memory. */
int ws_prof_store_value(ws_result *res, const char *name, double value);
/* The SASS Metrics collected per instruction, and which ws_inst_stat field each fills. */
typedef enum ws_sass_field { WS_SASS_ISSUED, WS_SASS_ACTIVE, WS_SASS_PRED_ON } ws_sass_field;
typedef struct ws_sass_metric { const char *name; ws_sass_field field; int required; } ws_sass_metric;
const ws_sass_metric *ws_prof_sass_metrics(int *n);

/* "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES" for a CUptiResult, and what a user can do. */
const char *ws_cupti_result_name(int code);
const char *ws_cupti_result_hint(int code);   /* "" when there is nothing specific */
/* Sets a WS_ERR_CUPTI error "CUPTI CALL failed: NAME (N): hint" and returns its code. */
int ws_cupti_error(ws_error *err, const char *call, int code);

/* Profiles kernel `k` (inputs restored before every launch and pass) into `res`:
 * metrics (range metrics, gpu__time_duration.sum from the Activity API), per-SASS
 * instruction rows (function, pc = SASS offset, line = .cu line, file = index of the
 * spec's source) when o->sass. The device buffers hold garbage afterwards: restore and
 * launch again before reading outputs. */
/* Releases what profiling keeps set up for the process (CUPTI's SASS metrics
 * configuration, set once per device): call before the GPU's context is closed. */
void ws_prof_release(void);
/* res's file index for a source path of per-instruction rows: the workload's .cu `source`
 * (with its text) where the base names agree, else `path` itself; -1 for an empty path. */
int ws_prof_source_file(ws_result *res, const char *source, const char *path);

int ws_prof_profile(ws_gpu_kernel *k, const ws_spec *s, const ws_prof_options *o,
                    ws_result *res, ws_error *err);

#ifdef __cplusplus
}
#endif
#endif
