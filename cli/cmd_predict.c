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

#define WS_MAX_DEFINES 64

typedef struct predict_args {
    const char *workload, *preset;
    int json, quiet, threads;
    ws_define defs[WS_MAX_DEFINES];
    int ndefs;
} predict_args;

static void predict_help(void)
{
    printf("usage: warpscope predict WORKLOAD [-D NAME=VALUE]... [--preset NAME] [--json]\n\n"
           "Simulates every variant with the timing model (CTAs on SMs in waves, warp\n"
           "schedulers, dependent latencies, memory, barriers, atomic contention) and predicts\n"
           "each one's time on the preset GPU, then the time of each variant against the base\n"
           "(the variant named 'before', else the first) with the reason.\n\n"
           "  WORKLOAD         a name from 'warpscope list' or a path to a .spec\n"
           "  -D NAME=VALUE    override a constant of the spec (repeatable)\n"
           "  --preset NAME    GPU preset: h100 (default), fermi, or a path to a .gpu file\n"
           "  --json           one JSON object: per variant its metrics, and the ratios\n"
           "  --quiet          no progress on stderr\n");
}

static int predict_parse(int argc, char **argv, predict_args *a, ws_error *err)
{
    memset(a, 0, sizeof *a);
    a->preset = "h100";
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;
        int took = ws_cli_take_define(argc, argv, &i, a->defs, &a->ndefs, WS_MAX_DEFINES, err);
        if (took < 0) return err->code;
        if (took) continue;
        if (!strcmp(arg, "--json")) a->json = 1;
        else if (!strcmp(arg, "--quiet")) a->quiet = 1;
        else if (!strcmp(arg, "--preset")) {
            if (!next) return ws_cli_usage(err, "predict", "--preset needs a name");
            a->preset = argv[++i];
        } else if (arg[0] == '-') {
            char what[160];
            snprintf(what, sizeof what, "unknown option '%s'", arg);
            return ws_cli_usage(err, "predict", what);
        } else if (!a->workload) a->workload = arg;
        else return ws_cli_usage(err, "predict", "only one workload");
    }
    if (!a->workload) return ws_cli_usage(err, "predict", "which workload?");
    return 0;
}

/* ------------------------------------------------------------------ metrics and bounds */

static double metric(const ws_result *r, const char *name)
{
    const ws_metric *m = ws_result_metric(r, name);
    return m ? m->value : NAN;
}

static double exec_rate(const ws_result *r)
{
    double v = metric(r, "sim__execution_rate");
    if (isnan(v)) v = metric(r, "smsp__thread_inst_executed_per_inst_executed.ratio") / 32.0;
    return v;
}

static const char *const bound_names[] = {
    "sim__bound_latency_cycles", "sim__bound_issue_cycles", "sim__bound_lsu_cycles",
    "sim__bound_l2_cycles", "sim__bound_dram_cycles", "sim__bound_atomic_address_cycles",
    "sim__bound_atomic_throughput_cycles", "sim__bound_atomic_cas_cycles",
};
enum { B_LATENCY, B_ISSUE, B_LSU, B_L2, B_DRAM, B_ATOM_ADDR, B_ATOM_TP, B_ATOM_CAS, B_COUNT };
static const char *const bound_words[] = {
    "dependent-latency chains", "instruction issue", "shared/L1 bandwidth", "L2 bandwidth",
    "DRAM bandwidth", "atomic serialization on one L2 line", "atomic throughput",
    "CAS retries on contended words",
};

static int limiter(const ws_result *r)
{
    int best = B_LATENCY;
    for (int b = 1; b < B_COUNT; b++)
        if (metric(r, bound_names[b]) > metric(r, bound_names[best])) best = b;
    return best;
}

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

static void append(char *buf, size_t n, const char *fmt, const char *a, const char *b)
{
    size_t len = strlen(buf);
    snprintf(buf + len, n - len, "%s", len ? ", " : "");
    len = strlen(buf);
    snprintf(buf + len, n - len, fmt, a, b);
}

static void pct_pair(double a, double b, char *pa, char *pb, size_t n)
{
    snprintf(pa, n, "%.0f%%", 100 * a);
    snprintf(pb, n, "%.0f%%", 100 * b);
}

static double lanes_per_address(const ws_result *r)
{
    double tx = metric(r, "sim__atomic_l2_transactions");
    return tx > 0 ? metric(r, "sim__atomic_lane_ops") / tx : 0;
}

/* The share of a run's stall cycles that SASS control flow holds (taken branches, BSYNC,
 * the YIELD of spin loops). */
static double branch_share(const ws_result *r)
{
    static const char *const kinds[] = { "issue", "dependency", "memory", "barrier", "atomic",
                                         "branch" };
    double all = 0;
    char name[64];
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        snprintf(name, sizeof name, "sim__stall_%s_cycles", kinds[i]);
        double v = metric(r, name);
        if (v > 0) all += v;
    }
    double b = metric(r, "sim__stall_branch_cycles");
    return all > 0 && b > 0 ? b / all : 0;
}

/* The reason: what bounds the slower of the two, compared across both; then SASS control
 * flow where it holds the slower one back, execution rate and occupancy. */
static void reason(const ws_result *base, const ws_result *var, char *buf, size_t n)
{
    buf[0] = 0;
    int slower_is_var = metric(var, "sim__time_ns") >= metric(base, "sim__time_ns");
    const ws_result *slow = slower_is_var ? var : base;
    int lim = limiter(slow);
    char a[32], b[32], w[256];
    double sms = metric(slow, "sim__sms"), used = metric(slow, "sim__sms_used");
    if (lim == B_LATENCY && used < 0.75 * sms) {
        double warps = (double)slow->grid[0] * slow->grid[1] * slow->grid[2] *
                       ceil((double)slow->block[0] * slow->block[1] * slow->block[2] / 32.0);
        snprintf(w, sizeof w, "%s%.0f warps cannot fill %.0f SMs (%.0f CTAs: %.2f of a wave)",
                 slower_is_var ? "" : "before: ", warps, sms, metric(slow, "sim__ctas"),
                 metric(slow, "sim__ctas") / sms);
        append(buf, n, "%s%s", w, "");
    } else if (lim == B_ATOM_ADDR || lim == B_ATOM_TP) {
        human(metric(base, "sim__atomic_max_same_address"), a, sizeof a);
        human(metric(var, "sim__atomic_max_same_address"), b, sizeof b);
        snprintf(w, sizeof w, "%s bound %s: lane-ops on the hottest address %s -> %s",
                 bound_words[lim], slower_is_var ? "it" : "the base", a, b);
        append(buf, n, "%s%s", w, "");
        snprintf(a, sizeof a, "%.1f", lanes_per_address(base));
        snprintf(b, sizeof b, "%.1f", lanes_per_address(var));
        append(buf, n, "lanes per address in one atomic warp-instruction %s -> %s", a, b);
    } else {
        human(metric(base, bound_names[lim]), a, sizeof a);
        human(metric(var, bound_names[lim]), b, sizeof b);
        snprintf(w, sizeof w, "%s bound %s (%%s -> %%s cycles)", bound_words[lim],
                 slower_is_var ? "it" : "the base");
        append(buf, n, w, a, b);
        if (lim == B_ATOM_CAS && metric(slow, "sim__atomic_cas_contenders") >= 2) {
            /* How many threads one word has against it, and how many keep retrying:
             * half in one wave, more as waves of blocks refill the GPU. */
            human(metric(slow, "sim__atomic_cas_contenders"), a, sizeof a);
            snprintf(b, sizeof b, "%.0f%%", 100 * metric(slow, "sim__atomic_cas_retrying"));
            double waves = metric(slow, "sim__waves");
            char in[48] = "in one wave";
            if (waves > 1.05) snprintf(in, sizeof in, "over %.1f waves of blocks", waves);
            snprintf(w, sizeof w, "up to %s threads on one word, %s of them retrying per success "
                     "%s", a, b, in);
            append(buf, n, "%s%s", w, "");
        }
    }
    /* The base's atomics spread over many addresses already: aggregating them cannot help. */
    if (lim != B_ATOM_ADDR && lim != B_ATOM_TP && metric(base, "sim__atomic_requests") > 0 &&
        metric(var, "sim__atomic_requests") > 0 &&
        metric(base, "sim__atomic_distinct_per_request") >= 4) {
        snprintf(a, sizeof a, "%.1f", metric(base, "sim__atomic_distinct_per_request"));
        snprintf(b, sizeof b, "%.1f", metric(var, "sim__atomic_distinct_per_request"));
        append(buf, n, "atomics already spread (distinct addresses per warp-instruction %s -> %s)",
               a, b);
    }
    double bs = branch_share(base), vs = branch_share(var);
    double slow_share = slower_is_var ? vs : bs, fast_share = slower_is_var ? bs : vs;
    if (slow_share >= 0.15 && slow_share - fast_share >= 0.1) {
        pct_pair(bs, vs, a, b, sizeof a);
        append(buf, n, "control flow (taken branches, BSYNC, spin-loop YIELD) %s -> %s of "
               "stall cycles", a, b);
    }
    pct_pair(exec_rate(base), exec_rate(var), a, b, sizeof a);
    append(buf, n, "execution rate %s -> %s", a, b);
    double oa = metric(base, "sim__achieved_occupancy"), ob = metric(var, "sim__achieved_occupancy");
    if (fabs(oa - ob) < 0.02) append(buf, n, "occupancy unchanged%s%s", "", "");
    else {
        pct_pair(oa, ob, a, b, sizeof a);
        append(buf, n, "achieved occupancy %s -> %s", a, b);
    }
}

static void verdict(const ws_result *base, const ws_result *var, char *buf, size_t n)
{
    double ratio = metric(var, "sim__time_ns") / metric(base, "sim__time_ns");
    char why[768];
    reason(base, var, why, sizeof why);
    if (ratio < 0.95)
        snprintf(buf, n, "%s is %.1fx faster than %s: %s", var->variant, 1 / ratio, base->variant, why);
    else if (ratio > 1.05)
        snprintf(buf, n, "%s is %.1fx slower than %s: %s", var->variant, ratio, base->variant, why);
    else
        snprintf(buf, n, "%s is about as fast as %s (%.2fx): %s", var->variant, base->variant,
                 1 / ratio, why);
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
    if (ws_buffers_clone(&w->inputs, &bufs, err)) return err->code;
    ws_sim_options opt;
    ws_sim_options_default(&opt);
    opt.timing = 1;
    opt.gpu_preset = a->preset;
    opt.resources = kp;
    opt.detect_races = 0;
    if (!a->quiet && isatty(2)) {
        opt.progress = ws_cli_sim_progress;
        opt.progress_ctx = (void *)v->name;
    }
    int rc = ws_sim_run(w->module, w->spec, v, &bufs, &opt, res, err);
    if (opt.progress) fputs("\r\033[K", stderr); /* also after a failed or raced last report */
    if (rc == WS_OK && !ws_result_metric(res, "smsp__inst_executed.sum"))
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

static void print_table(const ws_spec *s, const ws_result *res, const char *preset)
{
    printf("%s on %s (model)\n\n", s->name, preset);
    printf("  %-14s %9s %9s %11s %10s %12s\n", "variant", "exec rate", "branch eff",
           "atomic txns", "occupancy", "pred. time");
    for (int i = 0; i < s->nvariants; i++) {
        const ws_result *r = &res[i];
        char t[32], at[32];
        time_str(metric(r, "sim__time_ns"), t, sizeof t);
        human(metric(r, "sim__atomic_l2_transactions") + metric(r, "sim__shared_atomic_requests"),
              at, sizeof at);
        double be = metric(r, "smsp__sass_average_branch_targets_threads_uniform.pct");
        printf("  %-14s %8.1f%% %8.1f%% %11s %9.1f%% %12s%s\n", s->variants[i].name,
               100 * exec_rate(r), isnan(be) ? 100.0 : be, at,
               100 * metric(r, "sim__achieved_occupancy"), t,
               r->outputs_checked && !r->outputs_match ? "  (outputs differ)" : "");
    }
    int b = base_index(s);
    printf("\n");
    for (int i = 0; i < s->nvariants; i++) {
        if (i == b) continue;
        char v[1024];
        verdict(&res[b], &res[i], v, sizeof v);
        printf("  %s\n", v);
    }
}

static void print_json(const ws_spec *s, const ws_result *res, const char *preset)
{
    printf("{\"workload\": ");
    ws_json_string(stdout, s->name);
    printf(", \"preset\": ");
    ws_json_string(stdout, preset);
    int b = base_index(s);
    printf(", \"base\": ");
    ws_json_string(stdout, s->variants[b].name);
    printf(", \"variants\": [");
    for (int i = 0; i < s->nvariants; i++) {
        const ws_result *r = &res[i];
        printf("%s{\"name\": ", i ? ", " : "");
        ws_json_string(stdout, s->variants[i].name);
        printf(", \"kernel\": ");
        ws_json_string(stdout, r->kernel);
        printf(", \"outputs_match\": %s, \"metrics\": {",
               r->outputs_checked ? (r->outputs_match ? "true" : "false") : "null");
        for (int m = 0; m < r->nmetrics; m++) {
            printf("%s", m ? ", " : "");
            ws_json_string(stdout, r->metrics[m].name);
            printf(": %.17g", isfinite(r->metrics[m].value) ? r->metrics[m].value : 0.0);
        }
        printf("}}");
    }
    printf("], \"ratios\": [");
    int k = 0;
    for (int i = 0; i < s->nvariants; i++) {
        if (i == b) continue;
        char v[1024];
        verdict(&res[b], &res[i], v, sizeof v);
        printf("%s{\"variant\": ", k++ ? ", " : "");
        ws_json_string(stdout, s->variants[i].name);
        printf(", \"base\": ");
        ws_json_string(stdout, s->variants[b].name);
        printf(", \"time_ratio\": %.6g, \"verdict\": ",
               metric(&res[i], "sim__time_ns") / metric(&res[b], "sim__time_ns"));
        ws_json_string(stdout, v);
        printf("}");
    }
    printf("]}\n");
}

static int predict(const predict_args *a, ws_error *err)
{
    ws_cli_workload w;
    if (ws_cli_workload_open(a->workload, a->defs, a->ndefs, &w, err)) {
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
        if (a->json) print_json(w.spec, res, a->preset);
        else print_table(w.spec, res, a->preset);
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
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) { predict_help(); return 0; }
    predict_args a;
    if (predict_parse(argc, argv, &a, &err) || predict(&a, &err)) return ws_cli_fail(&err);
    return 0;
}
