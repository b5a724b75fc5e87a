/* range.c — per-launch hardware metrics through CUPTI's Range Profiler (target side) and
 * Profiler Host API (config images, evaluation): one user range around one launch, user
 * replay with the kernel's inputs restored before every pass. Not per-instruction (sass.c). */
#include <stdlib.h>
#include <string.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>
#include "profiler/profiler.h"
#include "profiler/profiler_internal.h"

#define WS_MAX_PASSES 128

typedef struct range_state {
    CUpti_Profiler_Host_Object *host;
    CUpti_RangeProfiler_Object *target;
    uint8_t *availability, *config, *counter_data;
    size_t config_size, counter_data_size;
    const char *names[WS_PROF_MAX_METRICS];
    int nnames;
} range_state;

#define CUPTI_TRY(call, params)                                  \
    do {                                                         \
        CUptiResult r_ = call(&(params));                        \
        if (r_ != CUPTI_SUCCESS)                                 \
            return ws_cupti_error(err, #call, (int)r_);          \
    } while (0)

static int host_init(range_state *st, CUcontext ctx, const char *chip, ws_error *err)
{
    CUpti_Profiler_GetCounterAvailability_Params av = WS_CUPTI_PARAMS(CUpti_Profiler_GetCounterAvailability_Params);
    av.ctx = ctx;
    CUPTI_TRY(cuptiProfilerGetCounterAvailability, av);
    st->availability = malloc(av.counterAvailabilityImageSize);
    if (!st->availability)
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory for the counter availability image");
    av.pCounterAvailabilityImage = st->availability;
    CUPTI_TRY(cuptiProfilerGetCounterAvailability, av);

    CUpti_Profiler_Host_Initialize_Params hi = WS_CUPTI_PARAMS(CUpti_Profiler_Host_Initialize_Params);
    hi.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    hi.pChipName = chip;
    hi.pCounterAvailabilityImage = st->availability;
    CUPTI_TRY(cuptiProfilerHostInitialize, hi);
    st->host = hi.pHostObject;
    return WS_OK;
}

static void add_to_metric(ws_result *res, const char *name, double v)
{
    const ws_metric *m = ws_result_metric(res, name);
    ws_result_set_metric(res, name, (m ? m->value : 0) + v);
}

/* Adds the metrics one by one so an unavailable one is named and skipped, not fatal. */
static int add_metrics(range_state *st, const char *const *names, int n, int strict,
                       ws_result *res, ws_error *err)
{
    for (int i = 0; i < n && st->nnames < WS_PROF_MAX_METRICS; i++) {
        CUpti_Profiler_Host_ConfigAddMetrics_Params am = WS_CUPTI_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params);
        const char *one[1] = {names[i]};
        am.pHostObject = st->host;
        am.ppMetricNames = one;
        am.numMetrics = 1;
        CUptiResult r = cuptiProfilerHostConfigAddMetrics(&am);
        if (r != CUPTI_SUCCESS && strict)
            return ws_error_set(err, WS_ERR_CUPTI, "CUPTI: metric %s is not available on this GPU "
                                "(%s); 'ncu --query-metrics' lists the names", names[i],
                                ws_cupti_result_name((int)r));
        if (r != CUPTI_SUCCESS) {
            ws_result_add_warning(res, "metric %s unavailable on this GPU: %s", names[i],
                                  ws_cupti_result_name((int)r));
            continue;
        }
        st->names[st->nnames++] = names[i];
    }
    if (!st->nnames && n == 1)
        return WS_OK; /* the one metric of this session is unavailable: warned, skipped */
    if (!st->nnames)
        return ws_error_set(err, WS_ERR_CUPTI, "CUPTI: none of the metrics is available on this GPU: %s",
                            ws_cupti_result_hint(CUPTI_ERROR_INVALID_METRIC_NAME));
    CUpti_Profiler_Host_GetConfigImageSize_Params cs = WS_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params);
    cs.pHostObject = st->host;
    CUPTI_TRY(cuptiProfilerHostGetConfigImageSize, cs);
    st->config_size = cs.configImageSize;
    st->config = malloc(st->config_size);
    if (!st->config)
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory for the config image");
    CUpti_Profiler_Host_GetConfigImage_Params ci = WS_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImage_Params);
    ci.pHostObject = st->host;
    ci.configImageSize = st->config_size;
    ci.pConfigImage = st->config;
    CUPTI_TRY(cuptiProfilerHostGetConfigImage, ci);
    CUpti_Profiler_Host_GetNumOfPasses_Params np = WS_CUPTI_PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params);
    np.configImageSize = st->config_size;
    np.pConfigImage = st->config;
    if (cuptiProfilerHostGetNumOfPasses(&np) == CUPTI_SUCCESS)
        add_to_metric(res, WS_M(PROFILER_PASSES), (double)np.numOfPasses);
    return WS_OK;
}

static int target_init(range_state *st, CUcontext ctx, ws_error *err)
{
    CUpti_RangeProfiler_Enable_Params en = WS_CUPTI_PARAMS(CUpti_RangeProfiler_Enable_Params);
    en.ctx = ctx;
    CUPTI_TRY(cuptiRangeProfilerEnable, en);
    st->target = en.pRangeProfilerObject;

    CUpti_RangeProfiler_GetCounterDataSize_Params ds = WS_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params);
    ds.pRangeProfilerObject = st->target;
    ds.pMetricNames = st->names;
    ds.numMetrics = (size_t)st->nnames;
    ds.maxNumOfRanges = 1;
    ds.maxNumRangeTreeNodes = 1;
    CUPTI_TRY(cuptiRangeProfilerGetCounterDataSize, ds);
    st->counter_data_size = ds.counterDataSize;
    st->counter_data = calloc(1, st->counter_data_size);
    if (!st->counter_data)
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory for the counter data image");
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params di = WS_CUPTI_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
    di.pRangeProfilerObject = st->target;
    di.counterDataSize = st->counter_data_size;
    di.pCounterData = st->counter_data;
    CUPTI_TRY(cuptiRangeProfilerCounterDataImageInitialize, di);

    CUpti_RangeProfiler_SetConfig_Params sc = WS_CUPTI_PARAMS(CUpti_RangeProfiler_SetConfig_Params);
    sc.pRangeProfilerObject = st->target;
    sc.configSize = st->config_size;
    sc.pConfig = st->config;
    sc.counterDataImageSize = st->counter_data_size;
    sc.pCounterDataImage = st->counter_data;
    sc.range = CUPTI_UserRange;
    sc.replayMode = CUPTI_UserReplay;
    sc.maxRangesPerPass = 1;
    sc.numNestingLevels = 1;
    sc.minNestingLevel = 1;
    sc.passIndex = 0;
    sc.targetNestingLevel = 1;
    CUPTI_TRY(cuptiRangeProfilerSetConfig, sc);
    return WS_OK;
}

/* One replay pass: restore inputs (outside the range), then range { launch }. */
static int one_pass(range_state *st, const ws_prof_target *t, int *all_submitted, ws_error *err)
{
    if (t->restore(t->self, err) != WS_OK)
        return err->code;
    CUpti_RangeProfiler_Start_Params start = WS_CUPTI_PARAMS(CUpti_RangeProfiler_Start_Params);
    start.pRangeProfilerObject = st->target;
    CUPTI_TRY(cuptiRangeProfilerStart, start);
    CUpti_RangeProfiler_PushRange_Params push = WS_CUPTI_PARAMS(CUpti_RangeProfiler_PushRange_Params);
    push.pRangeProfilerObject = st->target;
    push.pRangeName = "warpscope";
    CUPTI_TRY(cuptiRangeProfilerPushRange, push);
    int rc = t->launch(t->self, err);
    CUpti_RangeProfiler_PopRange_Params pop = WS_CUPTI_PARAMS(CUpti_RangeProfiler_PopRange_Params);
    pop.pRangeProfilerObject = st->target;
    CUPTI_TRY(cuptiRangeProfilerPopRange, pop);
    CUpti_RangeProfiler_Stop_Params stop = WS_CUPTI_PARAMS(CUpti_RangeProfiler_Stop_Params);
    stop.pRangeProfilerObject = st->target;
    CUPTI_TRY(cuptiRangeProfilerStop, stop);
    *all_submitted = stop.isAllPassSubmitted;
    return rc;
}

static int collect(range_state *st, const ws_prof_target *t, ws_result *res, ws_error *err)
{
    int all = 0, passes = 0;
    while (!all) {
        if (passes++ >= WS_MAX_PASSES)
            return ws_error_set(err, WS_ERR_CUPTI, "CUPTI range profiler: not done after %d passes",
                                WS_MAX_PASSES);
        if (one_pass(st, t, &all, err) != WS_OK)
            return err->code;
    }
    CUpti_RangeProfiler_DecodeData_Params dd = WS_CUPTI_PARAMS(CUpti_RangeProfiler_DecodeData_Params);
    dd.pRangeProfilerObject = st->target;
    CUPTI_TRY(cuptiRangeProfilerDecodeData, dd);
    double values[32] = {0};
    CUpti_Profiler_Host_EvaluateToGpuValues_Params ev = WS_CUPTI_PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params);
    ev.pHostObject = st->host;
    ev.pCounterDataImage = st->counter_data;
    ev.counterDataImageSize = st->counter_data_size;
    ev.rangeIndex = 0;
    ev.ppMetricNames = st->names;
    ev.numMetrics = (size_t)st->nnames;
    ev.pMetricValues = values;
    CUPTI_TRY(cuptiProfilerHostEvaluateToGpuValues, ev);
    for (int i = 0; i < st->nnames; i++)
        if (ws_prof_store_value(res, st->names[i], values[i]))
            return ws_error_set(err, WS_ERR_NOMEM, "out of memory storing profiler metrics");
    add_to_metric(res, WS_M(REPLAY_PASSES), passes);
    return WS_OK;
}

static void range_cleanup(range_state *st)
{
    if (st->target) {
        CUpti_RangeProfiler_Disable_Params dp = WS_CUPTI_PARAMS(CUpti_RangeProfiler_Disable_Params);
        dp.pRangeProfilerObject = st->target;
        cuptiRangeProfilerDisable(&dp);
    }
    if (st->host) {
        CUpti_Profiler_Host_Deinitialize_Params hd = WS_CUPTI_PARAMS(CUpti_Profiler_Host_Deinitialize_Params);
        hd.pHostObject = st->host;
        cuptiProfilerHostDeinitialize(&hd);
    }
    free(st->availability);
    free(st->config);
    free(st->counter_data);
}

int ws_prof_range_metrics(const ws_prof_target *t, const char *chip, const char *const *names,
                          int n, int strict, ws_result *res, ws_error *err)
{
    range_state st;
    memset(&st, 0, sizeof st);
    CUcontext ctx = t->ctx;
    int rc = host_init(&st, ctx, chip, err);
    if (rc == WS_OK)
        rc = add_metrics(&st, names, n, strict, res, err);
    if (rc == WS_OK && st.nnames)
        rc = target_init(&st, ctx, err);
    if (rc == WS_OK && st.nnames)
        rc = collect(&st, t, res, err);
    range_cleanup(&st);
    return rc;
}
