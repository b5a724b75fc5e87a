/* cmd_sim.c — `warpscope sim`: simulate the variants of a workload on the SIMT warp
 * simulator, check outputs, print a table (or JSON) and store each run in the database. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "sim/sim.h"
#include "store/store.h"

typedef struct sim_args {
    const char *workload;
    const char *variant;  /* NULL = every variant */
    const char *db;
    const char *dump;     /* --dump DIR: write the outputs there; NULL = no */
    int json, quiet, no_db, no_races, fail_fast;
    const char *model, *arch; /* "sass" or "ptx"; sm_XX for sass */
    int model_given;          /* --model named it: no fallback to the PTX model */
    ws_cli_defines defs;
    ws_sim_options opt;
} sim_args;

static const char sim_about[] =
    "Runs the workload's PTX (built from its .cu by nvcc) on the SIMT warp simulator,\n"
    "lane by lane under the active mask, checks the outputs against the CPU reference\n"
    "and between variants, prints execution rate, branch efficiency, predication and\n"
    "atomics per kernel and region, and stores each run in the database. Outputs that\n"
    "differ (MISMATCH) make the exit status non-zero once every variant has run, except\n"
    "in a variant the spec marks `racy` (docs/spec-format.md, Checks).";

static int sim_parse(int argc, char **argv, sim_args *a, ws_error *err)
{
    memset(a, 0, sizeof *a);
    ws_sim_options_default(&a->opt);
    a->db = ws_cli_default_db();
    char timing_help[128];
    snprintf(timing_help, sizeof timing_help, "also run the timing model (%s, %s)",
             WS_M(SIM_CYCLES), WS_M(SIM_TIME_NS));
    const ws_opt opts[] = {
        WS_CLI_OPT_WORKLOAD,
        WS_CLI_OPT_DEFINES(&a->defs),
        WS_CLI_OPT_VARIANT(&a->variant),
        WS_CLI_OPT_JSON(&a->json, "one JSON object on stdout instead of tables"),
        WS_CLI_OPT_DB(&a->db),
        {"--no-db", WS_OPT_FLAG, &a->no_db, NULL, "do not store the runs", 0, 0},
        {"--model", WS_OPT_STRING, &a->model, "M",
         "sass (default where nvdisasm is found): the SASS ptxas makes, under Volta+ "
         "convergence barriers; ptx: the PTX under an immediate-post-dominator stack", 0, 0},
        {"--arch", WS_OPT_STRING, &a->arch, "sm_XX",
         "SASS for this GPU (sm_70 .. sm_90; default sm_90)", 0, 0},
        {"--threads", WS_OPT_INT, &a->opt.threads, "N",
         "host threads (default: all cores; 1 = deterministic order)", 0, 1 << 20},
        {"--timing", WS_OPT_FLAG, &a->opt.timing, NULL, timing_help, 0, 0},
        {"--preset", WS_OPT_STRING, &a->opt.gpu_preset, "NAME",
         "GPU preset of the timing model, whose SM count %nsmid and %smid\n"
         "(CTA i on SM i mod SMs) follow (default h100)", 0, 0},
        {"--timeline-warps", WS_OPT_INT, &a->opt.timeline_warps, "N",
         "warps whose lane timelines are recorded (default 4)", 0, 1 << 20},
        {"--no-races", WS_OPT_FLAG, &a->no_races, NULL, "skip race detection", 0, 0},
        {"--dump", WS_OPT_STRING, &a->dump, "DIR",
         "write each variant's outputs (the checked buffers; every buffer when\n"
         "none is checked) to DIR/VARIANT.BUFFER.bin, raw little-endian", 0, 0},
        WS_CLI_OPT_FAIL_FAST(&a->fail_fast),
        WS_CLI_OPT_QUIET(&a->quiet),
    };
    const ws_cli_cmd cmd = {"sim", "warpscope sim WORKLOAD [-D NAME=VALUE]... [--variant V] [options]",
                            sim_about, opts, WS_CLI_NOPTS(opts)};
    int npos = 0;
    int rc = ws_cli_parse(&cmd, argc, argv, &a->workload, 1, &npos, err);
    if (rc)
        return rc;
    if (a->no_races)
        a->opt.detect_races = 0;
    if (!a->workload)
        return -!!ws_cli_usage(err, "sim", "which workload? ('warpscope list' shows them)");
    if (a->json)
        a->opt.printf_to = stderr; /* the kernel's printf: stdout holds the JSON */
    a->model_given = a->model != NULL;
    if (!a->model)
        a->model = a->opt.timing ? ws_cli_timing_model(a->opt.gpu_preset ? a->opt.gpu_preset
                                                                          : "h100", err)
                                 : ws_cli_default_model();
    if (!a->model)
        return -1;
    if (ws_cli_check_model("sim", a->model, a->arch, err))
        return -1;
    /* The preset sets the run's SMs and round trips even without --timing: a bad one is an
       error here, not a silent fall back to defaults. */
    if (a->opt.gpu_preset && ws_gpu_preset_check(a->opt.gpu_preset, err) != WS_OK)
        return -1;
    return 0;
}

static void print_table(const ws_result *r, int racy, double seconds, int64_t run_id,
                        const char *db)
{
    double thread_insts = ws_result_value(r, WS_M(THREAD_INST_EXECUTED));
    printf("%s / %s   kernel %s   grid %ux%ux%u  block %ux%ux%u   [%s]\n", r->workload,
           r->variant, r->kernel, r->grid[0], r->grid[1], r->grid[2], r->block[0], r->block[1],
           r->block[2], r->params);
    printf("  model               %s\n", !strcmp(r->source, "sim:sass")
               ? "SASS (ptxas's cubin under convergence barriers)"
               : "PTX (immediate post-dominator reconvergence)");
    double at_once = ws_result_value(r, WS_M(SIM_CTAS_AT_ONCE));
    if (at_once > 1 && ws_result_value(r, WS_M(SIM_TIMED_ORDER)) > 0) /* CAS retry loops */
        printf("  CTAs at once        %.0f of %.0f, their warps in turns by a clock of memory "
               "round trips (a CAS retry loop: docs/spec-format.md)\n", at_once,
               ws_result_value(r, WS_M(SIM_CTAS)));
    else if (at_once > 1) /* a cooperative launch, a shared work counter, CTAs that waited */
        printf("  CTAs at once        %.0f of %.0f, their warps interleaved as the GPU holds them "
               "(docs/spec-format.md)\n", at_once, ws_result_value(r, WS_M(SIM_CTAS)));
    printf("  execution rate      %6.1f %%   (%.2f of 32 lanes active per warp-instruction)\n",
           100.0 * ws_result_value(r, WS_M(SIM_EXECUTION_RATE)),
           ws_result_value(r, WS_M(THREAD_INST_PER_INST)));
    printf("  branch efficiency   %6.1f %%   (%.0f divergent of %.0f branch targets)\n",
           ws_result_value(r, WS_M(BRANCH_UNIFORM_PCT)),
           ws_result_value(r, WS_M(BRANCH_TARGETS_DIVERGENT)),
           ws_result_value(r, WS_M(BRANCH_TARGETS)));
    double pred_on = ws_result_value(r, WS_M(THREAD_INST_PRED_ON));
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
    ws_cli_print_launches(r);
    if (r->outputs_checked)
        printf("  outputs: %s%s\n", r->outputs_match ? "" : racy ? "differ (racy variant: expected): "
                                                                : "MISMATCH: ", r->check_message);
    for (int i = 0; i < r->nwarnings; i++)
        printf("  warning: %s\n", r->warnings[i]);
    printf("  simulated in %.2f s (%.3g thread-instructions/s)\n", seconds,
           seconds > 0 ? thread_insts / seconds : 0.0);
    if (run_id > 0)
        printf("  stored as run %lld in %s\n", (long long)run_id, db);
    printf("\n");
}

static void print_json(ws_json *j, const ws_result *r, double seconds, int64_t run_id)
{
    ws_json_object(j, NULL);
    ws_json_int(j, "run_id", run_id);
    ws_json_num(j, "seconds", seconds);
    ws_json_run(j, r);
    ws_json_end(j);
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
    ws_sim_options opt = a->opt;
    opt.resources = resources;
    opt.resources_ptx = w->ptx_path;
    if (!a->quiet && !a->json && isatty(2)) {
        opt.progress = ws_cli_sim_progress;
        opt.progress_ctx = (void *)v->name;
    }
    double t0 = now_seconds();
    int rc = ws_cli_simulate(w, v, &opt, out, res, err);
    if (opt.progress)
        fputs("\r\033[K", stderr); /* also after a failed or raced last report */
    if (rc != WS_OK)
        return rc;
    *seconds = now_seconds() - t0;
    ws_result_set_metric(res, WS_M(SIM_WALL_SECONDS), *seconds);
    return ws_result_compute_regions(res, w->spec);
}

static int sim_all(sim_args *a, ws_error *err)
{
    ws_cli_workload w;
    ws_store *store = NULL;
    ws_buffers first = {0};
    int have_first = 0, mismatches = 0, rc = WS_OK;
    int opened = ws_cli_workload_open(a->workload, a->defs.defs, a->defs.n, &w, err);
    w.model_given = a->model_given;
    if (opened != WS_OK) {
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
    ws_json j;
    ws_json_begin(&j, stdout);
    if (wrap) {
        ws_json_object(&j, NULL);
        ws_json_str(&j, "workload", w.spec->name);
        ws_json_array(&j, "runs");
    }
    ws_cli_failures failures = {0};
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
        if (rc == WS_OK && a->dump)
            rc = ws_cli_dump_outputs(a->dump, w.spec, v, &out, err);
        if (rc == WS_OK)
            rc = ws_cli_check_outputs(&w, v, &out, have_first ? &first : NULL, &res, err);
        if (rc == WS_OK && store)
            rc = ws_store_save_result(store, &res, &run_id, err);
        if (rc == WS_OK) {
            if (a->json) {
                print_json(&j, &res, seconds, run_id);
            } else {
                print_table(&res, v->racy, seconds, run_id, a->db);
            }
            mismatches += res.outputs_checked && !res.outputs_match && !v->racy;
            if (!have_first && !v->racy) { /* the base the later variants are compared with */
                first = out;
                have_first = 1;
                out.b = NULL;
                out.n = 0;
            }
        }
        ws_buffers_free(&out);
        ws_result_free(&res);
        rc = ws_cli_variant_failed(&failures, v, a->fail_fast, rc, err);
    }
    if (rc == WS_OK)
        rc = ws_cli_failures_end(&failures, w.spec, err);
    if (rc == WS_OK && mismatches) /* every run is stored; the exit says they differ */
        rc = ws_error_set(err, WS_ERR_CHECK, "%s: %d variant(s) with outputs that differ (a "
                          "variant whose race is the point says `racy` in the spec)",
                          w.spec->name, mismatches);
    if (wrap) {
        ws_json_end(&j);
        ws_json_end(&j);
    }
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
    if (argc > 1 && argv[1][0] != '-' && ws_capture_is_file(argv[1]))
        return ws_cli_sim_capture(argc, argv);
    sim_args a;
    int rc = sim_parse(argc, argv, &a, &err);
    if (rc > 0) { /* --help: the capture form too */
        printf("\n");
        ws_cli_replay_help();
        return 0;
    }
    if (rc < 0 || sim_all(&a, &err) != WS_OK)
        return ws_cli_fail(&err);
    return 0;
}
