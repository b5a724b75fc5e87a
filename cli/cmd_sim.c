/* cmd_sim.c — `warpscope sim`: simulate the variants of a workload on the SIMT warp
 * simulator, check outputs, print a table (or JSON) and store each run in the database. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "sim/sim.h"
#include "store/store.h"

#define WS_MAX_DEFINES 64

typedef struct sim_args {
    const char *workload;
    const char *variant;  /* NULL = every variant */
    const char *db;       /* NULL with no_db */
    int json, quiet, no_db;
    const char *model, *arch; /* "sass" or "ptx"; sm_XX for sass */
    ws_define defs[WS_MAX_DEFINES];
    int ndefs;
    ws_sim_options opt;
} sim_args;

static void sim_help(void)
{
    printf("usage: warpscope sim WORKLOAD [-D NAME=VALUE]... [--variant V] [options]\n\n"
           "Runs the workload's PTX (built from its .cu by nvcc) on the SIMT warp simulator,\n"
           "lane by lane under the active mask, checks the outputs against the CPU reference\n"
           "and between variants, prints execution rate, branch efficiency, predication and\n"
           "atomics per kernel and region, and stores each run in the database.\n\n"
           "  WORKLOAD            a name from 'warpscope list' or a path to a .spec\n"
           "  -D NAME=VALUE       override a constant of the spec (repeatable)\n"
           "  --variant V         only this variant (default: every variant)\n"
           "  --model M           sass: the SASS ptxas makes, under Volta+ convergence barriers\n"
           "                      (default where nvdisasm is found); ptx: the PTX under an\n"
           "                      immediate-post-dominator stack (the seeds' model)\n"
           "  --arch sm_XX        SASS for this GPU (sm_70 .. sm_90; default sm_90)\n"
           "  --json              one JSON object on stdout instead of tables\n"
           "  --db FILE           database (default $WARPSCOPE_DB or ./warpscope.db)\n"
           "  --no-db             do not store the runs\n"
           "  --threads N         host threads (default: all cores; 1 = deterministic order)\n"
           "  --timing            also run the timing model (sim__cycles, sim__time_ns)\n"
           "  --preset NAME       GPU preset of the timing model (default h100)\n"
           "  --timeline-warps N  warps whose lane timelines are recorded (default 4)\n"
           "  --no-races          skip race detection\n"
           "  --quiet             no progress on stderr\n");
}

static int sim_parse(int argc, char **argv, sim_args *a, ws_error *err)
{
    memset(a, 0, sizeof *a);
    ws_sim_options_default(&a->opt);
    a->db = ws_cli_default_db();
    a->model = NULL;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        int took = ws_cli_take_define(argc, argv, &i, a->defs, &a->ndefs, WS_MAX_DEFINES, err);
        if (took < 0)
            return err->code;
        if (took)
            continue;
        if (!strcmp(arg, "--json")) a->json = 1;
        else if (!strcmp(arg, "--quiet")) a->quiet = 1;
        else if (!strcmp(arg, "--no-db")) a->no_db = 1;
        else if (!strcmp(arg, "--timing")) a->opt.timing = 1;
        else if (!strcmp(arg, "--no-races")) a->opt.detect_races = 0;
        else if (next && !strcmp(arg, "--variant")) a->variant = argv[++i];
        else if (next && !strcmp(arg, "--db")) a->db = argv[++i];
        else if (next && !strcmp(arg, "--preset")) a->opt.gpu_preset = argv[++i];
        else if (next && !strcmp(arg, "--model")) a->model = argv[++i];
        else if (next && !strcmp(arg, "--arch")) a->arch = argv[++i];
        else if (next && !strcmp(arg, "--threads")) {
            if (ws_cli_parse_count(argv[++i], 1 << 20, &a->opt.threads))
                return ws_cli_usage(err, "sim", "--threads needs a number");
        } else if (next && !strcmp(arg, "--timeline-warps")) {
            if (ws_cli_parse_count(argv[++i], 1 << 20, &a->opt.timeline_warps))
                return ws_cli_usage(err, "sim", "--timeline-warps needs a number");
        } else if (arg[0] == '-') {
            return ws_error_set(err, WS_ERR_USAGE, "sim: unknown or incomplete option '%s' "
                                "(try 'warpscope sim --help')", arg);
        } else if (!a->workload) {
            a->workload = arg;
        } else {
            return ws_cli_usage(err, "sim", "one workload at a time");
        }
    }
    if (!a->workload)
        return ws_cli_usage(err, "sim", "which workload? ('warpscope list' shows them)");
    if (a->model && !strcmp(a->model, "sass") && a->opt.timing)
        return ws_cli_usage(err, "sim", "--timing runs on the PTX model for now: use --model ptx");
    if (!a->model)
        a->model = a->opt.timing ? "ptx" : ws_cli_default_model();
    if (ws_cli_check_model("sim", a->model, a->arch, err))
        return err->code;
    return WS_OK;
}

static double metric(const ws_result *r, const char *name)
{
    const ws_metric *m = ws_result_metric(r, name);
    return m ? m->value : NAN;
}

static void print_table(const ws_result *r, double seconds, int64_t run_id, const char *db)
{
    double thread_insts = metric(r, "smsp__thread_inst_executed.sum");
    printf("%s / %s   kernel %s   grid %ux%ux%u  block %ux%ux%u   [%s]\n", r->workload,
           r->variant, r->kernel, r->grid[0], r->grid[1], r->grid[2], r->block[0], r->block[1],
           r->block[2], r->params);
    printf("  execution rate      %6.1f %%   (%.2f of 32 lanes active per warp-instruction)\n",
           100.0 * metric(r, "sim__execution_rate"),
           metric(r, "smsp__thread_inst_executed_per_inst_executed.ratio"));
    printf("  branch efficiency   %6.1f %%   (%.0f divergent of %.0f branch targets)\n",
           metric(r, "smsp__sass_average_branch_targets_threads_uniform.pct"),
           metric(r, "smsp__sass_branch_targets_threads_divergent.sum"),
           metric(r, "smsp__sass_branch_targets.sum"));
    double pred_on = metric(r, "smsp__thread_inst_executed_pred_on.sum");
    printf("  predicated off      %6.1f %%   of active thread-instructions\n",
           thread_insts > 0 ? 100.0 * (thread_insts - pred_on) / thread_insts : 0.0);
    if (r->nregions) {
        printf("  regions:\n");
        for (int i = 0; i < r->nregions; i++) {
            const ws_region_stat *g = &r->regions[i];
            printf("    %-16s lines %4d-%-4d  %12llu warp-insts  execution rate %5.1f %%\n",
                   g->name, g->first_line, g->last_line, (unsigned long long)g->issued,
                   100.0 * g->execution_rate);
        }
    }
    printf("  metrics:\n");
    for (int i = 0; i < r->nmetrics; i++)
        printf("    %-58s %16.6g\n", r->metrics[i].name, r->metrics[i].value);
    if (r->outputs_checked)
        printf("  outputs: %s%s\n", r->outputs_match ? "" : "MISMATCH: ", r->check_message);
    for (int i = 0; i < r->nwarnings; i++)
        printf("  warning: %s\n", r->warnings[i]);
    printf("  simulated in %.2f s (%.3g thread-instructions/s)\n", seconds,
           seconds > 0 ? thread_insts / seconds : 0.0);
    if (run_id > 0)
        printf("  stored as run %lld in %s\n", (long long)run_id, db);
    printf("\n");
}

static void print_json(FILE *f, const ws_result *r, double seconds, int64_t run_id)
{
    fprintf(f, "{\"workload\": ");
    ws_json_string(f, r->workload);
    fprintf(f, ", \"variant\": ");
    ws_json_string(f, r->variant);
    fprintf(f, ", \"kernel\": ");
    ws_json_string(f, r->kernel);
    fprintf(f, ", \"params\": ");
    ws_json_string(f, r->params);
    fprintf(f, ", \"grid\": [%u, %u, %u], \"block\": [%u, %u, %u]", r->grid[0], r->grid[1],
            r->grid[2], r->block[0], r->block[1], r->block[2]);
    fprintf(f, ", \"run_id\": %lld, \"seconds\": %.6f", (long long)run_id, seconds);
    fprintf(f, ", \"metrics\": {");
    for (int i = 0; i < r->nmetrics; i++) {
        fprintf(f, "%s", i ? ", " : "");
        ws_json_string(f, r->metrics[i].name);
        fprintf(f, ": %.17g", isfinite(r->metrics[i].value) ? r->metrics[i].value : 0.0);
    }
    fprintf(f, "}, \"regions\": {");
    for (int i = 0; i < r->nregions; i++) {
        const ws_region_stat *g = &r->regions[i];
        fprintf(f, "%s", i ? ", " : "");
        ws_json_string(f, g->name);
        fprintf(f, ": {\"first_line\": %d, \"last_line\": %d, \"issued\": %llu, "
                   "\"active_threads\": %llu, \"pred_on_threads\": %llu, "
                   "\"divergent_branches\": %llu, \"execution_rate\": %.6f}",
                g->first_line, g->last_line, (unsigned long long)g->issued,
                (unsigned long long)g->active_threads, (unsigned long long)g->pred_on_threads,
                (unsigned long long)g->divergent_branches, g->execution_rate);
    }
    fprintf(f, "}, \"outputs_checked\": %s, \"outputs_match\": %s, \"check_message\": ",
            r->outputs_checked ? "true" : "false",
            r->outputs_checked ? (r->outputs_match ? "true" : "false") : "null");
    ws_json_string(f, r->check_message);
    fprintf(f, ", \"warnings\": [");
    for (int i = 0; i < r->nwarnings; i++) {
        fprintf(f, "%s", i ? ", " : "");
        ws_json_string(f, r->warnings[i]);
    }
    fprintf(f, "]}");
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Simulates one variant; on success `out` holds its outputs and `res` its result. */
static int sim_variant(const ws_cli_workload *w, const ws_variant *v, sim_args *a,
                       const ws_kernel_resources *resources, ws_buffers *out, ws_result *res,
                       double *seconds, ws_error *err)
{
    if (ws_buffers_clone(&w->inputs, out, err) != WS_OK)
        return err->code;
    ws_sim_options opt = a->opt;
    opt.resources = resources;
    if (!a->quiet && !a->json && isatty(2)) {
        opt.progress = ws_cli_sim_progress;
        opt.progress_ctx = (void *)v->name;
    }
    double t0 = now_seconds();
    int rc = !strcmp(a->model, "sass")
                 ? ws_sim_run_sass(w->module, w->sass, w->spec, v, out, &opt, res, err)
                 : ws_sim_run(w->module, w->spec, v, out, &opt, res, err);
    if (opt.progress)
        fputs("\r\033[K", stderr); /* also after a failed or raced last report */
    if (rc != WS_OK)
        return rc;
    *seconds = now_seconds() - t0;
    ws_result_set_metric(res, "sim__wall_seconds", *seconds);
    return ws_result_compute_regions(res, w->spec);
}

static int sim_all(sim_args *a, ws_error *err)
{
    ws_cli_workload w;
    ws_store *store = NULL;
    ws_buffers first = {0};
    int have_first = 0, nprinted = 0, rc = WS_OK;
    if (ws_cli_workload_open(a->workload, a->defs, a->ndefs, &w, err) != WS_OK) {
        ws_cli_workload_close(&w);
        return err->code;
    }
    if (!a->no_db && ws_store_open(a->db, &store, err) != WS_OK) {
        ws_cli_workload_close(&w);
        return err->code;
    }
    if (a->variant && !ws_spec_variant(w.spec, a->variant, err)) {
        rc = err->code;
        goto done;
    }
    if (!strcmp(a->model, "sass") && ws_cli_workload_sass(&w, a->arch, err) != WS_OK) {
        rc = err->code;
        goto done;
    }
    /* --json: one object per run; with every variant, wrapped as {"workload", "runs"}. */
    int wrap = a->json && !a->variant;
    if (wrap) {
        printf("{\"workload\": ");
        ws_json_string(stdout, w.spec->name);
        printf(", \"runs\": [");
    }
    for (int i = 0; i < w.spec->nvariants && rc == WS_OK; i++) {
        const ws_variant *v = &w.spec->variants[i];
        if (a->variant && strcmp(v->name, a->variant))
            continue;
        ws_kernel_resources res_k, *resources = NULL;
        if (a->opt.timing && ws_ptx_resources(w.ptx_path, v->kernel, &res_k, err) == WS_OK)
            resources = &res_k;
        ws_error_clear(err);
        ws_buffers out = {0};
        ws_result res;
        ws_result_init(&res);
        double seconds = 0;
        int64_t run_id = 0;
        rc = sim_variant(&w, v, a, resources, &out, &res, &seconds, err);
        if (rc == WS_OK)
            rc = ws_cli_check_outputs(&w, v, &out, have_first ? &first : NULL, &res, err);
        if (rc == WS_OK && store)
            rc = ws_store_save_result(store, &res, &run_id, err);
        if (rc == WS_OK) {
            if (a->json) {
                printf("%s", nprinted ? ", " : "");
                print_json(stdout, &res, seconds, run_id);
            } else {
                print_table(&res, seconds, run_id, a->db);
            }
            nprinted++;
            if (!have_first) {
                first = out;
                have_first = 1;
                out.b = NULL;
                out.n = 0;
            }
        }
        ws_buffers_free(&out);
        ws_result_free(&res);
    }
    if (wrap)
        printf("]}");
    if (a->json)
        printf("\n");
done:
    if (have_first)
        ws_buffers_free(&first);
    if (store)
        ws_store_close(store);
    ws_cli_workload_close(&w);
    return rc;
}

int ws_cmd_sim(int argc, char **argv)
{
    ws_error err;
    ws_error_clear(&err);
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            sim_help();
            return 0;
        }
    sim_args a;
    if (sim_parse(argc, argv, &a, &err) != WS_OK || sim_all(&a, &err) != WS_OK)
        return ws_cli_fail(&err);
    return 0;
}
