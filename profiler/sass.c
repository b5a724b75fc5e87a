/* sass.c — per-instruction GPU counts through CUPTI's SASS Metrics API (instructions,
 * thread instructions, predicated-on threads per SASS PC), mapped to .cu lines with
 * cuptiGetSassToSourceCorrelation on the cubin the backend JIT-linked with line info.
 * Not per-launch metrics (range.c). */
#include <stdlib.h>
#include <string.h>
#include <cupti_pcsampling.h>
#include <cupti_profiler_target.h>
#include <cupti_sass_metrics.h>
#include "profiler/profiler_internal.h"

#define WS_SASS_MAX 8

typedef struct sass_config {
    int n;
    CUpti_SassMetrics_Config cfg[WS_SASS_MAX];
    ws_sass_field field[WS_SASS_MAX];
} sass_config;

static int configure(sass_config *c, const char *chip, uint32_t device, ws_result *res,
                     ws_error *err)
{
    int n;
    const ws_sass_metric *m = ws_prof_sass_metrics(&n);
    c->n = 0;
    for (int i = 0; i < n && c->n < WS_SASS_MAX; i++) {
        CUpti_SassMetrics_GetProperties_Params p = WS_CUPTI_PARAMS(CUpti_SassMetrics_GetProperties_Params);
        p.pChipName = chip;
        p.pMetricName = m[i].name;
        CUptiResult r = cuptiSassMetricsGetProperties(&p);
        if (r != CUPTI_SUCCESS) {
            if (m[i].required)
                return ws_cupti_error(err, "cuptiSassMetricsGetProperties", (int)r);
            ws_result_add_warning(res, "SASS metric %s unavailable: %s", m[i].name,
                                  ws_cupti_result_name((int)r));
            continue;
        }
        c->cfg[c->n].metricId = p.metric.metricId;
        c->cfg[c->n].outputGranularity = CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU;
        c->field[c->n] = m[i].field;
        c->n++;
    }
    CUpti_SassMetricsSetConfig_Params sc = WS_CUPTI_PARAMS(CUpti_SassMetricsSetConfig_Params);
    sc.numOfMetricConfig = (size_t)c->n;
    sc.pConfigs = c->cfg;
    sc.deviceIndex = device;
    CUptiResult r = cuptiSassMetricsSetConfig(&sc);
    return r == CUPTI_SUCCESS ? WS_OK : ws_cupti_error(err, "cuptiSassMetricsSetConfig", (int)r);
}

/* Source file and line of one SASS PC, from the cubin's line table. */
static void correlate(const void *cubin, size_t size, const char *function, uint32_t pc,
                      char *path, size_t n, int *line)
{
    CUpti_GetSassToSourceCorrelationParams q;
    memset(&q, 0, sizeof q);
    q.size = CUpti_GetSassToSourceCorrelationParamsSize;
    q.cubin = cubin;
    q.cubinSize = size;
    q.functionName = function;
    q.pcOffset = pc;
    *line = 0;
    path[0] = '\0';
    if (!cubin || cuptiGetSassToSourceCorrelation(&q) != CUPTI_SUCCESS)
        return;
    *line = (int)q.lineNumber;
    if (q.fileName) {
        if (q.fileName[0] == '/' || !q.dirName || !q.dirName[0])
            snprintf(path, n, "%s", q.fileName);
        else
            snprintf(path, n, "%s/%s", q.dirName, q.fileName);
    }
    free(q.fileName);
    free(q.dirName);
}

int ws_prof_source_file(ws_result *res, const char *source, const char *path)
{
    if (!path[0])
        return -1;
    const char *base = strrchr(path, '/'), *sbase = source ? strrchr(source, '/') : NULL;
    base = base ? base + 1 : path;
    sbase = sbase ? sbase + 1 : source;
    if (sbase && strcmp(base, sbase) != 0)
        return ws_result_add_file(res, path, NULL);
    const char *file = source ? source : path;
    char *text = NULL;
    size_t len;
    ws_error ignore;
    ws_error_clear(&ignore);
    ws_read_file(file, &text, &len, &ignore);
    int idx = ws_result_add_file(res, file, text);
    free(text);
    return idx;
}

/* The row of (function, pc) at or after `first`, added when absent: CUPTI gives one record
 * per metric and instruction, and they fold into one ws_inst_stat. */
static ws_inst_stat *row_for(ws_result *res, int first, const char *function, uint32_t pc,
                             int *added)
{
    *added = 0;
    for (int i = first; i < res->ninsts; i++)
        if (res->insts[i].pc == (int)pc && !strcmp(res->insts[i].function, function))
            return &res->insts[i];
    ws_inst_stat *st = ws_result_add_inst(res);
    if (st) {
        snprintf(st->function, sizeof st->function, "%s", function);
        st->pc = (int)pc;
        st->block = -1;
        st->file = -1;
        *added = 1;
    }
    return st;
}

static void add_record(ws_result *res, int first, const char *source, const sass_config *c,
                       const CUpti_SassMetrics_Data *d, size_t ninst, const void *cubin,
                       size_t cubin_size)
{
    int added;
    ws_inst_stat *st = row_for(res, first, d->functionName ? d->functionName : "", d->pcOffset,
                               &added);
    if (!st)
        return;
    for (size_t j = 0; j < ninst; j++)
        for (int m = 0; m < c->n; m++)
            if (d->pInstanceValues[j].metricId == c->cfg[m].metricId) {
                uint64_t v = d->pInstanceValues[j].value;
                if (c->field[m] == WS_SASS_ISSUED)
                    st->issued += v;
                else if (c->field[m] == WS_SASS_ACTIVE)
                    st->active_threads += v;
                else
                    st->pred_on_threads += v;
            }
    if (!added)
        return;
    char path[WS_PATH_MAX];
    int line;
    correlate(cubin, cubin_size, st->function, d->pcOffset, path, sizeof path, &line);
    int file = ws_prof_source_file(res, source, path); /* may grow res->files, not res->insts */
    st->line = line;
    st->file = file;
}

static int flush(CUcontext ctx, const sass_config *c, const ws_prof_target *t, ws_result *res,
                 ws_error *err)
{
    CUpti_SassMetricsGetDataProperties_Params dp = WS_CUPTI_PARAMS(CUpti_SassMetricsGetDataProperties_Params);
    dp.ctx = ctx;
    CUptiResult r = cuptiSassMetricsGetDataProperties(&dp);
    if (r != CUPTI_SUCCESS)
        return ws_cupti_error(err, "cuptiSassMetricsGetDataProperties", (int)r);
    size_t nrec = dp.numOfPatchedInstructionRecords, ninst = dp.numOfInstances;
    if (!nrec)
        return ws_error_set(err, WS_ERR_CUPTI, "CUPTI SASS metrics: no instruction was patched for %s",
                            t->entry);
    CUpti_SassMetrics_Data *data = calloc(nrec, sizeof *data);
    CUpti_SassMetrics_InstanceValue *values = calloc(nrec * (ninst ? ninst : 1), sizeof *values);
    if (!data || !values) {
        free(data);
        free(values);
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory for SASS metrics");
    }
    for (size_t i = 0; i < nrec; i++) {
        data[i].structSize = sizeof data[i];
        data[i].pInstanceValues = &values[i * ninst];
    }
    CUpti_SassMetricsFlushData_Params fp = WS_CUPTI_PARAMS(CUpti_SassMetricsFlushData_Params);
    fp.ctx = ctx;
    fp.numOfPatchedInstructionRecords = nrec;
    fp.numOfInstances = ninst;
    fp.pMetricsData = data;
    r = cuptiSassMetricsFlushData(&fp);
    if (r == CUPTI_SUCCESS) {
        int first = res->ninsts;
        for (size_t i = 0; i < nrec; i++)
            add_record(res, first, t->source, c, &data[i], ninst, t->cubin, t->cubin_size);
        if (t->cubin)
            ws_prof_sass_text(t->cubin, t->cubin_size, res, first);
    }
    free(data);
    free(values);
    return r == CUPTI_SUCCESS ? WS_OK : ws_cupti_error(err, "cuptiSassMetricsFlushData", (int)r);
}

/* The configuration is set once per device and process and kept: on the H100 (CUDA 13) a
 * second cuptiSassMetricsSetConfig after UnsetConfig fails with CUPTI_ERROR_OUT_OF_MEMORY,
 * so profiling several launches in one process (every variant, every launch of an
 * application) reuses the first. */
static sass_config configured;
static int configured_device = -1;

void ws_prof_release(void)
{
    if (configured_device < 0)
        return;
    CUpti_SassMetricsUnsetConfig_Params un = WS_CUPTI_PARAMS(CUpti_SassMetricsUnsetConfig_Params);
    un.deviceIndex = (uint32_t)configured_device;
    cuptiSassMetricsUnsetConfig(&un);
    configured_device = -1;
}

int ws_prof_sass_collect(const ws_prof_target *t, const char *chip, ws_result *res, ws_error *err)
{
    uint32_t device = t->device;
    CUcontext ctx = t->ctx;
    if (configured_device != (int)device) {
        if (configured_device >= 0) {
            CUpti_SassMetricsUnsetConfig_Params un = WS_CUPTI_PARAMS(CUpti_SassMetricsUnsetConfig_Params);
            un.deviceIndex = (uint32_t)configured_device;
            cuptiSassMetricsUnsetConfig(&un);
            configured_device = -1;
        }
        if (configure(&configured, chip, device, res, err) != WS_OK)
            return err->code;
        configured_device = (int)device;
    }
    const sass_config c = configured;
    CUpti_SassMetricsEnable_Params en = WS_CUPTI_PARAMS(CUpti_SassMetricsEnable_Params);
    en.ctx = ctx;
    en.enableLazyPatching = 1;
    CUptiResult r = cuptiSassMetricsEnable(&en);
    int rc = r == CUPTI_SUCCESS ? WS_OK : ws_cupti_error(err, "cuptiSassMetricsEnable", (int)r);
    if (rc == WS_OK) {
        if (t->restore(t->self, err) == WS_OK && t->launch(t->self, err) == WS_OK)
            flush(ctx, &c, t, res, err);
        rc = err->code;
        CUpti_SassMetricsDisable_Params dis = WS_CUPTI_PARAMS(CUpti_SassMetricsDisable_Params);
        dis.ctx = ctx;
        cuptiSassMetricsDisable(&dis);
    }
    return rc;
}
