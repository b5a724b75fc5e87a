/* profile.c — the profiler's entry point: initialise CUPTI's profiler, find the chip, then
 * run the collectors one after another on the same launch target (Activity duration, Range
 * Profiler metrics, SASS Metrics), each on restored inputs: a backend kernel, or a launch
 * the injection library caught. Not the collectors themselves. */
#include <string.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>
#include "profiler/profiler_internal.h"

#define WS_ACTIVITY_LAUNCHES 5

void ws_prof_options_default(ws_prof_options *o)
{
    o->range_metrics = 1;
    o->sass = 1;
    o->activity = 1;
    o->metrics = NULL;
}

/* Instrumented (smsp__sass_*) metrics go one per Range Profiler session: in one shared
 * session CUPTI reported the same value for several of them (the atomic-instruction
 * counts repeated the divergent-branch count). Hardware counters share one session. */
static int is_sass_metric(const char *name) { return !strncmp(name, "smsp__sass_", 11); }

static int range_sessions(const ws_prof_target *t, const char *chip, const ws_prof_options *o,
                          ws_result *res, ws_error *err)
{
    const char *list[WS_PROF_MAX_METRICS];
    char copy[2048];
    int n = ws_prof_metric_list(o->metrics, list, copy, sizeof copy, err);
    if (n < 0)
        return err->code;
    const char *hw[WS_PROF_MAX_METRICS];
    int nhw = 0, strict = o->metrics != NULL;
    for (int i = 0; i < n; i++)
        if (!is_sass_metric(list[i]))
            hw[nhw++] = list[i];
    if (nhw && ws_prof_range_metrics(t, chip, hw, nhw, strict, res, err) != WS_OK)
        return err->code;
    for (int i = 0; i < n; i++)
        if (is_sass_metric(list[i]) &&
            ws_prof_range_metrics(t, chip, &list[i], 1, strict, res, err) != WS_OK)
            return err->code;
    return WS_OK;
}

static int chip_name(uint32_t device, char *chip, size_t n, ws_error *err)
{
    CUpti_Device_GetChipName_Params p = WS_CUPTI_PARAMS(CUpti_Device_GetChipName_Params);
    p.deviceIndex = device;
    CUptiResult r = cuptiDeviceGetChipName(&p);
    if (r != CUPTI_SUCCESS)
        return ws_cupti_error(err, "cuptiDeviceGetChipName", (int)r);
    snprintf(chip, n, "%s", p.pChipName);
    return WS_OK;
}

static int collect_all(const ws_prof_target *t, const ws_prof_options *o, const char *chip,
                       ws_result *res, ws_error *err)
{
    double activity_ns = 0;
    if (o->activity && ws_prof_activity_duration(t, WS_ACTIVITY_LAUNCHES, &activity_ns, err) != WS_OK)
        return err->code;
    if (o->range_metrics && range_sessions(t, chip, o, res, err) != WS_OK)
        return err->code;
    if (o->range_metrics) {
        const ws_metric *m = ws_result_metric(res, WS_M(GPU_TIME_NS));
        if (m)
            ws_result_set_metric(res, WS_M(RANGE_TIME_NS), m->value);
    }
    if (o->activity) {
        ws_result_set_metric(res, WS_M(GPU_TIME_NS), activity_ns);
        ws_result_set_metric(res, WS_M(ACTIVITY_DURATION_NS), activity_ns);
    }
    if (o->sass && ws_prof_sass_collect(t, chip, res, err) != WS_OK)
        return err->code;
    return WS_OK;
}

int ws_prof_profile_target(const ws_prof_target *t, const ws_prof_options *o, ws_result *res,
                           ws_error *err)
{
    char chip[64];
    CUpti_Profiler_Initialize_Params init = WS_CUPTI_PARAMS(CUpti_Profiler_Initialize_Params);
    CUptiResult r = cuptiProfilerInitialize(&init);
    if (r != CUPTI_SUCCESS)
        return ws_cupti_error(err, "cuptiProfilerInitialize", (int)r);
    int rc = chip_name(t->device, chip, sizeof chip, err);
    if (rc == WS_OK) {
        rc = collect_all(t, o, chip, res, err);
        ws_result_set_metric(res, WS_M(PROFILED), 1);
    }
    CUpti_Profiler_DeInitialize_Params fini = WS_CUPTI_PARAMS(CUpti_Profiler_DeInitialize_Params);
    cuptiProfilerDeInitialize(&fini);
    return rc;
}

static int kernel_restore(void *k, ws_error *err) { return ws_gpu_kernel_restore(k, err); }
static int kernel_launch(void *k, ws_error *err) { return ws_gpu_kernel_launch(k, err); }

int ws_prof_profile(ws_gpu_kernel *k, const ws_spec *s, const ws_prof_options *o,
                    ws_result *res, ws_error *err)
{
    ws_prof_target t;
    memset(&t, 0, sizeof t);
    t.ctx = ws_gpu_context(ws_gpu_kernel_gpu(k));
    t.device = (uint32_t)ws_gpu_get_info(ws_gpu_kernel_gpu(k))->ordinal;
    t.entry = ws_gpu_kernel_entry(k);
    t.cubin = ws_gpu_kernel_cubin(k, &t.cubin_size);
    t.source = s->source;
    t.restore = kernel_restore;
    t.launch = kernel_launch;
    t.self = k;
    return ws_prof_profile_target(&t, o, res, err);
}
