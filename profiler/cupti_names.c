/* cupti_names.c — the profiler's tables: the metrics it collects (Nsight Compute names),
 * the SASS metrics per instruction, and CUPTI result codes by name with what to do about
 * them. Pure data; CI tests it without a GPU. */
#include <stdio.h>
#include <string.h>
#include <cupti_result.h>
#include "profiler/profiler.h"

/* The Range Profiler metrics asked for by default: the RANGE rows of core/metrics.def. */
#define WS_ASK_RANGE(id, name) name,
#define WS_ASK_SASS(id, name)
#define WS_ASK_NO(id, name)
#define WS_METRIC(id, name, unit, sides, ask, meaning) WS_ASK_##ask(id, name)
static const char *const range_metrics[] = {
#include "core/metrics.def"
};
#undef WS_ASK_RANGE
#undef WS_ASK_SASS

int ws_prof_store_value(ws_result *res, const char *name, double value)
{
    size_t len = strlen(name);
    if (value < 0 && len > 4 && !strcmp(name + len - 4, ".sum"))
        return ws_result_add_warning(res, "CUPTI returned %s = %.0f, a count below zero: left "
                                     "out (not a measurement)", name, value) ? -1 : 0;
    return ws_result_set_metric(res, name, value) ? -1 : 0;
}

const char *const *ws_prof_metric_names(int *n)
{
    *n = (int)(sizeof range_metrics / sizeof range_metrics[0]);
    return range_metrics;
}

int ws_prof_metric_list(const char *metrics, const char **list, char *buf, size_t bufsize,
                        ws_error *err)
{
    int n = 0;
    if (!metrics) {
        int nd;
        const char *const *d = ws_prof_metric_names(&nd);
        for (; n < nd && n < WS_PROF_MAX_METRICS; n++)
            list[n] = d[n];
        return n;
    }
    if (strlen(metrics) >= bufsize) {
        ws_error_set(err, WS_ERR_USAGE, "--metrics: list longer than %zu characters", bufsize - 1);
        return -1;
    }
    snprintf(buf, bufsize, "%s", metrics);
    char *save = NULL;
    for (char *t = strtok_r(buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
        if (n == WS_PROF_MAX_METRICS) {
            ws_error_set(err, WS_ERR_USAGE, "--metrics: at most %d metrics", WS_PROF_MAX_METRICS);
            return -1;
        }
        list[n++] = t;
    }
    if (!n)
        ws_error_set(err, WS_ERR_USAGE, "--metrics: no metric named");
    return n ? n : -1;
}

/* The SASS metrics per instruction: the SASS rows of core/metrics.def, each with the count
 * it fills and whether the profile fails without it. */
#define WS_SASS_FIELD_SASS_INST_EXECUTED WS_SASS_ISSUED, 1
#define WS_SASS_FIELD_SASS_THREAD_INST_EXECUTED WS_SASS_ACTIVE, 1
#define WS_SASS_FIELD_SASS_THREAD_INST_PRED_ON WS_SASS_PRED_ON, 0
#define WS_ASK_RANGE(id, name)
#define WS_ASK_SASS(id, name) {name, WS_SASS_FIELD_##id},
static const ws_sass_metric sass_metrics[] = {
#include "core/metrics.def"
};
#undef WS_METRIC

const ws_sass_metric *ws_prof_sass_metrics(int *n)
{
    *n = (int)(sizeof sass_metrics / sizeof sass_metrics[0]);
    return sass_metrics;
}

const char *ws_cupti_result_name(int code)
{
    switch ((CUptiResult)code) {
    case CUPTI_SUCCESS: return "CUPTI_SUCCESS";
    case CUPTI_ERROR_INVALID_PARAMETER: return "CUPTI_ERROR_INVALID_PARAMETER";
    case CUPTI_ERROR_INVALID_DEVICE: return "CUPTI_ERROR_INVALID_DEVICE";
    case CUPTI_ERROR_INVALID_CONTEXT: return "CUPTI_ERROR_INVALID_CONTEXT";
    case CUPTI_ERROR_INVALID_EVENT_DOMAIN_ID: return "CUPTI_ERROR_INVALID_EVENT_DOMAIN_ID";
    case CUPTI_ERROR_INVALID_EVENT_ID: return "CUPTI_ERROR_INVALID_EVENT_ID";
    case CUPTI_ERROR_INVALID_EVENT_NAME: return "CUPTI_ERROR_INVALID_EVENT_NAME";
    case CUPTI_ERROR_INVALID_OPERATION: return "CUPTI_ERROR_INVALID_OPERATION";
    case CUPTI_ERROR_OUT_OF_MEMORY: return "CUPTI_ERROR_OUT_OF_MEMORY";
    case CUPTI_ERROR_HARDWARE: return "CUPTI_ERROR_HARDWARE";
    case CUPTI_ERROR_PARAMETER_SIZE_NOT_SUFFICIENT: return "CUPTI_ERROR_PARAMETER_SIZE_NOT_SUFFICIENT";
    case CUPTI_ERROR_API_NOT_IMPLEMENTED: return "CUPTI_ERROR_API_NOT_IMPLEMENTED";
    case CUPTI_ERROR_MAX_LIMIT_REACHED: return "CUPTI_ERROR_MAX_LIMIT_REACHED";
    case CUPTI_ERROR_NOT_READY: return "CUPTI_ERROR_NOT_READY";
    case CUPTI_ERROR_NOT_COMPATIBLE: return "CUPTI_ERROR_NOT_COMPATIBLE";
    case CUPTI_ERROR_NOT_INITIALIZED: return "CUPTI_ERROR_NOT_INITIALIZED";
    case CUPTI_ERROR_INVALID_METRIC_ID: return "CUPTI_ERROR_INVALID_METRIC_ID";
    case CUPTI_ERROR_INVALID_METRIC_NAME: return "CUPTI_ERROR_INVALID_METRIC_NAME";
    case CUPTI_ERROR_QUEUE_EMPTY: return "CUPTI_ERROR_QUEUE_EMPTY";
    case CUPTI_ERROR_INVALID_HANDLE: return "CUPTI_ERROR_INVALID_HANDLE";
    case CUPTI_ERROR_INVALID_STREAM: return "CUPTI_ERROR_INVALID_STREAM";
    case CUPTI_ERROR_INVALID_KIND: return "CUPTI_ERROR_INVALID_KIND";
    case CUPTI_ERROR_INVALID_EVENT_VALUE: return "CUPTI_ERROR_INVALID_EVENT_VALUE";
    case CUPTI_ERROR_DISABLED: return "CUPTI_ERROR_DISABLED";
    case CUPTI_ERROR_INVALID_MODULE: return "CUPTI_ERROR_INVALID_MODULE";
    case CUPTI_ERROR_INVALID_METRIC_VALUE: return "CUPTI_ERROR_INVALID_METRIC_VALUE";
    case CUPTI_ERROR_HARDWARE_BUSY: return "CUPTI_ERROR_HARDWARE_BUSY";
    case CUPTI_ERROR_NOT_SUPPORTED: return "CUPTI_ERROR_NOT_SUPPORTED";
    case CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED: return "CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED";
    case CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED_ON_DEVICE: return "CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED_ON_DEVICE";
    case CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED_ON_NON_P2P_DEVICES: return "CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED_ON_NON_P2P_DEVICES";
    case CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED_WITH_MPS: return "CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED_WITH_MPS";
    case CUPTI_ERROR_CDP_TRACING_NOT_SUPPORTED: return "CUPTI_ERROR_CDP_TRACING_NOT_SUPPORTED";
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED: return "CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED";
    case CUPTI_ERROR_CUDA_COMPILER_NOT_COMPATIBLE: return "CUPTI_ERROR_CUDA_COMPILER_NOT_COMPATIBLE";
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES: return "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES";
    case CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED: return "CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED";
    case CUPTI_ERROR_OPENACC_UNDEFINED_ROUTINE: return "CUPTI_ERROR_OPENACC_UNDEFINED_ROUTINE";
    case CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED: return "CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED";
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED: return "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED";
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES: return "CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES";
    case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED: return "CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED";
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED: return "CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED";
    case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED: return "CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED";
    case CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED: return "CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED";
    case CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED: return "CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED";
    case CUPTI_ERROR_INVALID_CHIP_NAME: return "CUPTI_ERROR_INVALID_CHIP_NAME";
    case CUPTI_ERROR_UNKNOWN: return "CUPTI_ERROR_UNKNOWN";
    default: return "CUPTI_ERROR_UNRECOGNIZED";
    }
}

const char *ws_cupti_result_hint(int code)
{
    switch ((CUptiResult)code) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
        return "profiling needs NVreg_RestrictProfilingToAdminUsers=0 or root";
    case CUPTI_ERROR_NOT_SUPPORTED:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_INVALID_DEVICE:
        return "this device or environment does not support CUPTI profiling; use 'warpscope run' for timing only";
    case CUPTI_ERROR_INVALID_METRIC_NAME:
        return "a requested metric is not available on this GPU";
    case CUPTI_ERROR_NOT_COMPATIBLE:
        return "the CUPTI library does not match the driver; use the CUPTI of the installed CUDA version";
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
    case CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED:
        return "another profiler (ncu, nsys, a tool) is attached; run warpscope alone";
    default:
        return "";
    }
}

int ws_cupti_error(ws_error *err, const char *call, int code)
{
    const char *hint = ws_cupti_result_hint(code);
    return ws_error_set(err, WS_ERR_CUPTI, "CUPTI %s failed: %s (%d)%s%s", call,
                        ws_cupti_result_name(code), code, hint[0] ? ": " : "", hint);
}
