/* json.c — the one JSON writer of the CLI: objects, arrays and values with the commas kept
 * for the caller, numbers that are not finite written as null, and the parts of a run
 * (what ran, metrics, regions, outputs check, warnings) that every command prints alike. */
#include <assert.h>
#include <math.h>

#include "cli/cli.h"

void ws_json_begin(ws_json *j, FILE *f)
{
    j->f = f;
    j->depth = 0;
    j->items[0] = 0;
}

/* The comma before an item and its key, when inside an object. */
static void item(ws_json *j, const char *key)
{
    if (j->items[j->depth]++)
        fputs(", ", j->f);
    if (key) {
        ws_json_string(j->f, key);
        fputs(": ", j->f);
    }
}

static void open_nested(ws_json *j, const char *key, char brace)
{
    item(j, key);
    fputc(brace, j->f);
    assert(j->depth + 1 < WS_JSON_DEPTH);
    j->items[++j->depth] = 0;
    j->close[j->depth] = brace == '{' ? '}' : ']';
}

void ws_json_object(ws_json *j, const char *key) { open_nested(j, key, '{'); }
void ws_json_array(ws_json *j, const char *key) { open_nested(j, key, '['); }

void ws_json_end(ws_json *j)
{
    assert(j->depth > 0);
    fputc(j->close[j->depth--], j->f);
}

void ws_json_str(ws_json *j, const char *key, const char *s)
{
    item(j, key);
    ws_json_string(j->f, s);
}

void ws_json_num(ws_json *j, const char *key, double v)
{
    item(j, key);
    if (isfinite(v))
        fprintf(j->f, "%.17g", v);
    else
        fputs("null", j->f);
}

void ws_json_int(ws_json *j, const char *key, long long v)
{
    item(j, key);
    fprintf(j->f, "%lld", v);
}

void ws_json_u64(ws_json *j, const char *key, uint64_t v)
{
    item(j, key);
    fprintf(j->f, "%llu", (unsigned long long)v);
}

void ws_json_bool(ws_json *j, const char *key, int v)
{
    item(j, key);
    fputs(v < 0 ? "null" : v ? "true" : "false", j->f);
}

void ws_json_raw(ws_json *j, const char *key, const char *json)
{
    item(j, key);
    fputs(json && *json ? json : "null", j->f);
}

static void dims(ws_json *j, const char *key, const uint32_t d[3])
{
    ws_json_array(j, key);
    for (int i = 0; i < 3; i++)
        ws_json_u64(j, NULL, d[i]);
    ws_json_end(j);
}

void ws_json_run_identity(ws_json *j, const ws_result *r)
{
    ws_json_str(j, "workload", r->workload);
    ws_json_str(j, "variant", r->variant);
    ws_json_str(j, "kernel", r->kernel);
    ws_json_str(j, "params", r->params);
    dims(j, "grid", r->grid);
    dims(j, "block", r->block);
    if (r->source[0])   /* "sim:sass", "sim:ipdom", "gpu:NAME": which model or device */
        ws_json_str(j, "source", r->source);
    if (r->device_json[0] == '{')   /* the model's isa, arch, reconvergence; the GPU's facts */
        ws_json_raw(j, "device", r->device_json);
}

void ws_json_metrics(ws_json *j, const char *key, const ws_result *r)
{
    ws_json_object(j, key);
    for (int i = 0; i < r->nmetrics; i++)
        ws_json_num(j, r->metrics[i].name, r->metrics[i].value);
    ws_json_end(j);
}

void ws_json_regions(ws_json *j, const ws_result *r)
{
    ws_json_object(j, "regions");
    for (int i = 0; i < r->nregions; i++) {
        const ws_region_stat *g = &r->regions[i];
        ws_json_object(j, g->name);
        ws_json_int(j, "first_line", g->first_line);
        ws_json_int(j, "last_line", g->last_line);
        ws_json_u64(j, "issued", g->issued);
        ws_json_u64(j, "active_threads", g->active_threads);
        ws_json_u64(j, "pred_on_threads", g->pred_on_threads);
        ws_json_u64(j, "branch_targets", g->branch_targets);
        ws_json_u64(j, "divergent_branches", g->divergent_branches);
        ws_json_num(j, "execution_rate", g->execution_rate);
        ws_json_end(j);
    }
    ws_json_end(j);
}

void ws_json_outputs(ws_json *j, const ws_result *r)
{
    ws_json_bool(j, "outputs_checked", r->outputs_checked);
    ws_json_bool(j, "outputs_match", r->outputs_checked ? r->outputs_match : -1);
    ws_json_str(j, "check_message", r->check_message);
}

void ws_json_warnings(ws_json *j, const char *key, const ws_result *r)
{
    ws_json_array(j, key);
    for (int i = 0; i < r->nwarnings; i++)
        ws_json_str(j, NULL, r->warnings[i]);
    ws_json_end(j);
}

void ws_json_launches(ws_json *j, const ws_result *r)
{
    if (!r->nlaunches)
        return;
    ws_json_array(j, "launches");
    for (int i = 0; i < r->nlaunches; i++) {
        const ws_launch_stat *l = &r->launches[i];
        ws_json_object(j, NULL);
        ws_json_int(j, "index", l->index);
        ws_json_str(j, "kernel", l->kernel);
        ws_json_array(j, "grid");
        for (int d = 0; d < 3; d++)
            ws_json_int(j, NULL, l->grid[d]);
        ws_json_end(j);
        ws_json_array(j, "block");
        for (int d = 0; d < 3; d++)
            ws_json_int(j, NULL, l->block[d]);
        ws_json_end(j);
        ws_json_int(j, "smem_dynamic", l->smem_dynamic);
        ws_json_str(j, "vars", l->vars);
        ws_json_int(j, "line", l->line);
        ws_json_object(j, "metrics");
        for (int m = 0; m < l->nmetrics; m++)
            ws_json_num(j, l->metrics[m].name, l->metrics[m].value);
        ws_json_end(j);
        ws_json_end(j);
    }
    ws_json_end(j);
}

void ws_json_run(ws_json *j, const ws_result *r)
{
    ws_json_run_identity(j, r);
    ws_json_metrics(j, "metrics", r);
    ws_json_regions(j, r);
    ws_json_outputs(j, r);
    ws_json_warnings(j, "warnings", r);
    ws_json_launches(j, r);
}
