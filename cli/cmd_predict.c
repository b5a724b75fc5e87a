/* cmd_predict.c — `warpscope predict`: runs every variant of a workload on the simulator
 * with the timing model on and says whether the transform pays off on the preset GPU:
 * per variant execution rate, branch efficiency, atomics, occupancy and predicted time,
 * then each variant's time against the base (`before`, else the first) with a verdict
 * whose reason is read off the model's bounds, never canned. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "sim/sim.h"

typedef struct predict_args {
    const char *workload, *preset;
    const char *model; /* "sass" or "ptx"; default: the one the preset was fitted on */
    int model_given;   /* --model named it: no fallback to the PTX model */
    int json, quiet, no_db;
    ws_cli_defines defs;
} predict_args;

static const char predict_about[] =
    "Simulates every variant with the timing model (CTAs on SMs in waves, warp\n"
    "schedulers, dependent latencies, memory, barriers, atomic contention) and predicts\n"
    "each one's time on the preset GPU, then the time of each variant against the base\n"
    "(the variant named 'before', else the first) with the reason.";

/* 0, 1 after --help, or -1 with the error in err. */
static int predict_parse(int argc, char **argv, predict_args *a, ws_error *err)
{
    memset(a, 0, sizeof *a);
    a->preset = "h100";
    const ws_opt opts[] = {
        WS_CLI_OPT_WORKLOAD,
        WS_CLI_OPT_DEFINES(&a->defs),
        {"--preset", WS_OPT_STRING, &a->preset, "NAME",
         "GPU preset: h100 (default), h200, fermi, or a path to a .gpu file", 0, 0},
        {"--model", WS_OPT_STRING, &a->model, "M",
         "sass: price the SASS ptxas makes (real branches, BSYNCs and YIELDs); ptx:\n"
         "the PTX, inferring them (default: the model the preset was fitted on, its\n"
         "`model` key: sass for h100, where nvdisasm is found; ptx for fermi)", 0, 0},
        WS_CLI_OPT_JSON(&a->json, "one JSON object: per variant its metrics, and the ratios"),
        WS_CLI_OPT_QUIET(&a->quiet),
        {"--no-db", WS_OPT_FLAG, &a->no_db, NULL,
         "accepted as by sim and run; predict stores nothing in any case", 0, 0},
    };
    const ws_cli_cmd cmd = {"predict", "warpscope predict WORKLOAD [-D NAME=VALUE]... [--preset NAME] [--json]",
                            predict_about, opts, WS_CLI_NOPTS(opts)};
    int npos = 0;
    int rc = ws_cli_parse(&cmd, argc, argv, &a->workload, 1, &npos, err);
    if (rc)
        return rc;
    if (!a->workload)
        return -!!ws_cli_usage(err, "predict", "which workload?");
    a->model_given = a->model != NULL;
    if (!a->model && !(a->model = ws_cli_timing_model(a->preset, err)))
        return -1;
    if (ws_cli_check_model("predict", a->model, NULL, err))
        return -1;
    return 0;
}

/* ------------------------------------------------------------------ metrics and bounds */

static void human(double v, char *buf, size_t n)
{
    if (v >= 1e9) snprintf(buf, n, "%.2fG", v / 1e9);
    else if (v >= 1e6) snprintf(buf, n, "%.2fM", v / 1e6);
    else if (v >= 1e4) snprintf(buf, n, "%.1fk", v / 1e3);
    else snprintf(buf, n, "%.0f", v);
}

static void time_str(double ns, char *buf, size_t n)
{
    if (ns >= 1e6) snprintf(buf, n, "%.3f ms", ns / 1e6);
    else if (ns >= 1e3) snprintf(buf, n, "%.1f us", ns / 1e3);
    else snprintf(buf, n, "%.0f ns", ns);
}

/* ------------------------------------------------------------------ running */

static int run_variant(const ws_cli_workload *w, const ws_variant *v, const predict_args *a,
                       ws_result *res, ws_error *err)
{
    ws_kernel_resources k, *kp = NULL;
    ws_error rerr;
    ws_error_clear(&rerr);
    if (ws_ptx_resources(w->ptx_path, v->kernel, &k, &rerr) == WS_OK) kp = &k;
    else if (!a->quiet)
        fprintf(stderr, "predict: %s: no register count (%s); occupancy ignores registers\n",
                v->name, rerr.msg);
    ws_buffers bufs = { 0 };
    ws_sim_options opt;
    ws_sim_options_default(&opt);
    opt.timing = 1;
    opt.gpu_preset = a->preset;
    opt.resources = kp;
    opt.resources_ptx = w->ptx_path;
    opt.detect_races = 0;
    if (!a->quiet && isatty(2)) {
        opt.progress = ws_cli_sim_progress;
        opt.progress_ctx = (void *)v->name;
    }
    int rc = ws_cli_simulate(w, v, &opt, &bufs, res, err);
    if (opt.progress) fputs("\r\033[K", stderr); /* also after a failed or raced last report */
    if (rc == WS_OK && !ws_result_metric(res, WS_M(INST_EXECUTED)))
        rc = ws_result_derive_metrics(res);
    if (rc == WS_OK) {
        ws_error cerr;
        ws_error_clear(&cerr);
        ws_cli_check_outputs(w, v, &bufs, NULL, res, &cerr);
    }
    ws_buffers_free(&bufs);
    return rc;
}

static int base_index(const ws_spec *s)
{
    for (int i = 0; i < s->nvariants; i++)
        if (!strcmp(s->variants[i].name, "before")) return i;
    return 0;
}

static void print_table(const ws_spec *s, const ws_result *res, const char *preset,
                        const char *model)
{
    printf("%s on %s (timing model on the %s model)\n\n", s->name, preset,
           !strcmp(model, "sass") ? "SASS" : "PTX");
    printf("  %-14s %9s %9s %11s %10s %12s\n", "variant", "exec rate", "branch eff",
           "atomic txns", "occupancy", "pred. time");
    for (int i = 0; i < s->nvariants; i++) {
        const ws_result *r = &res[i];
        char t[32], at[32];
        time_str(ws_result_value(r, WS_M(SIM_TIME_NS)), t, sizeof t);
        human(ws_result_value(r, WS_M(SIM_ATOMIC_L2_TRANSACTIONS)) +
                  ws_result_value(r, WS_M(SIM_SHARED_ATOMIC_REQUESTS)),
              at, sizeof at);
        double be = ws_result_value(r, WS_M(BRANCH_UNIFORM_PCT));
        printf("  %-14s %8.1f%% %8.1f%% %11s %9.1f%% %12s%s\n", s->variants[i].name,
               100 * ws_result_execution_rate(r), isnan(be) ? 100.0 : be, at,
               100 * ws_result_value(r, WS_M(SIM_ACHIEVED_OCCUPANCY)), t,
               r->outputs_checked && !r->outputs_match ? "  (outputs differ)" : "");
    }
    int b = base_index(s);
    printf("\n");
    for (int i = 0; i < s->nvariants; i++) {
        if (i == b) continue;
        ws_prediction p;
        ws_predict_compare(&res[b], &res[i], &p);
        printf("  %s\n", p.verdict);
    }
    printf("\n");
    for (int i = 0; i < s->nvariants; i++) {
        char c[1280];
        ws_predict_confidence(&res[i], preset, c, sizeof c);
        printf("  confidence, %s: %s\n", s->variants[i].name, c);
        for (int k = 0; k < res[i].nwarnings; k++)
            if (!strncmp(res[i].warnings[k], WS_CAVEAT, strlen(WS_CAVEAT)))
                printf("  %s, %s\n", s->variants[i].name, res[i].warnings[k]);
    }
}

static void print_json(const ws_spec *s, const ws_result *res, const char *preset,
                       const char *model)
{
    ws_json j;
    int b = base_index(s);
    ws_json_begin(&j, stdout);
    ws_json_object(&j, NULL);
    ws_json_str(&j, "workload", s->name);
    ws_json_str(&j, "preset", preset);
    ws_json_str(&j, "model", model);
    ws_json_str(&j, "base", s->variants[b].name);
    ws_json_array(&j, "variants");
    for (int i = 0; i < s->nvariants; i++) {
        const ws_result *r = &res[i];
        ws_json_object(&j, NULL);
        ws_json_str(&j, "name", s->variants[i].name);
        ws_json_str(&j, "kernel", r->kernel);
        ws_json_bool(&j, "outputs_match", r->outputs_checked ? r->outputs_match : -1);
        ws_json_metrics(&j, "metrics", r);
        ws_json_end(&j);
    }
    ws_json_end(&j);
    ws_json_array(&j, "ratios");
    for (int i = 0; i < s->nvariants; i++) {
        if (i == b) continue;
        ws_prediction p;
        ws_predict_compare(&res[b], &res[i], &p);
        ws_json_object(&j, NULL);
        ws_json_str(&j, "variant", s->variants[i].name);
        ws_json_str(&j, "base", s->variants[b].name);
        ws_json_num(&j, "time_ratio", p.time_ratio);
        ws_json_str(&j, "verdict", p.verdict);
        ws_json_end(&j);
    }
    ws_json_end(&j);
    ws_json_end(&j);
    printf("\n");
}

static int predict(const predict_args *a, ws_error *err)
{
    ws_cli_workload w;
    int opened = ws_cli_workload_open(a->workload, a->defs.defs, a->defs.n, &w, err);
    w.model_given = a->model_given;
    if (opened || (!strcmp(a->model, "sass") && ws_cli_workload_sass(&w, NULL, err))) {
        ws_cli_workload_close(&w);
        return err->code;
    }
    int n = w.spec->nvariants, rc = WS_OK;
    ws_result *res = calloc((size_t)(n ? n : 1), sizeof *res);
    if (!res) rc = ws_error_set(err, WS_ERR_NOMEM, "out of memory");
    for (int i = 0; i < n && res; i++) ws_result_init(&res[i]);
    for (int i = 0; i < n && rc == WS_OK; i++) {
        if (!a->quiet) fprintf(stderr, "predict: simulating %s (%d/%d)\n", w.spec->variants[i].name, i + 1, n);
        rc = run_variant(&w, &w.spec->variants[i], a, &res[i], err);
    }
    if (rc == WS_OK && n == 0) rc = ws_error_at(err, WS_ERR_SPEC, w.spec->path, 0, "no variants");
    if (rc == WS_OK) {
        if (a->json) print_json(w.spec, res, a->preset, a->model);
        else print_table(w.spec, res, a->preset, a->model);
    }
    for (int i = 0; i < n && res; i++) ws_result_free(&res[i]);
    free(res);
    ws_cli_workload_close(&w);
    return rc;
}

int ws_cmd_predict(int argc, char **argv)
{
    ws_error err;
    ws_error_clear(&err);
    predict_args a;
    int rc = predict_parse(argc, argv, &a, &err);
    if (rc > 0) return 0;
    if (rc < 0 || predict(&a, &err)) return ws_cli_fail(&err);
    return 0;
}
