/* metrics.c — the metric table, expanded from core/metrics.def: names, units, meanings,
 * the side that computes each metric and what the profiler asks CUPTI for. Data plus one
 * lookup; printing it (warpscope metrics, docs/metrics.md) is the CLI's job. */
#include <string.h>

#include "core/core.h"

#define SIM WS_MS_SIM
#define TIMING WS_MS_TIMING
#define GPU WS_MS_GPU
#define PROF WS_MS_PROFILER

const ws_metric_def ws_metric_table[WS_METRIC__COUNT] = {
#define WS_METRIC(id, name, unit, sides, ask, meaning) \
    [WS_METRIC_##id] = {name, unit, meaning, sides, WS_ASK_##ask},
#include "core/metrics.def"
#undef WS_METRIC
};

const ws_metric_def *ws_metric_lookup(const char *name)
{
    for (int i = 0; name && i < WS_METRIC__COUNT; i++)
        if (!strcmp(ws_metric_table[i].name, name))
            return &ws_metric_table[i];
    return NULL;
}
