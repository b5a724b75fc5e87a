/* cmd_compare.c — `warpscope compare`: a simulator run beside a GPU run from the database,
 * every metric both have (simulator, GPU, absolute and relative difference) and the
 * execution rate per source line on each side, worst lines first. Reads only. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "store/store.h"

typedef struct compare_args {
    const char *db, *workload, *variant;
    int64_t sim_id, gpu_id;
    int json, max_lines;
} compare_args;

typedef struct line_row {
    int line;
    uint64_t sim_issued, sim_active, gpu_issued, gpu_active;
    double sim_rate, gpu_rate;
} line_row;

static const char compare_about[] =
    "Puts a simulator run beside a GPU run: every metric both sides have (simulator,\n"
    "GPU, absolute and relative difference), the execution rate, branch efficiency,\n"
    "instructions and time, and the execution rate per .cu source line on each side,\n"
    "worst lines first. With --workload/--variant it takes the latest of each.";

/* 0, 1 after --help, or -1 with the error in err. */
static int compare_parse(int argc, char **argv, compare_args *a, ws_error *err)
{
    const ws_opt opts[] = {
        WS_CLI_OPT_DB(&a->db),
        {"--workload", WS_OPT_STRING, &a->workload, "W", "the latest runs of this workload", 0, 0},
        {"--variant", WS_OPT_STRING, &a->variant, "V",
         "with --workload: the latest runs of this variant", 0, 0},
        {"--lines", WS_OPT_INT, &a->max_lines, "N",
         "source lines shown (default 20; JSON has all)", 0, 1 << 20},
        WS_CLI_OPT_JSON(&a->json, "one JSON object instead of text"),
    };
    const ws_cli_cmd cmd = {"compare", "warpscope compare RUN_SIM RUN_GPU [--db FILE] [--json]\n"
                            "       warpscope compare --workload W --variant V [--db FILE] [--json]",
                            compare_about, opts, WS_CLI_NOPTS(opts)};
    const char *ids[2];
    int nids = 0;
    long long id[2];
    int rc = ws_cli_parse(&cmd, argc, argv, ids, 2, &nids, err);
    if (rc)
        return rc;
    for (int i = 0; i < nids; i++)
        if (ws_cli_parse_int(ids[i], 1, INT64_MAX, &id[i]))
            return -!!ws_cli_usage(err, "compare", "runs are given as two positive run ids");
    if (nids == 2) {
        a->sim_id = id[0];
        a->gpu_id = id[1];
        return 0;
    }
    if (a->workload && nids == 0)
        return 0;
    return -!!ws_cli_usage(err, "compare", "give RUN_SIM RUN_GPU, or --workload W [--variant V]");
}

static int find_runs(ws_store *st, compare_args *a, ws_error *err)
{
    if (!a->workload)
        return WS_OK;
    if (ws_store_latest_run(st, a->workload, a->variant, "sim", &a->sim_id, err) != WS_OK)
        return err->code;
    return ws_store_latest_run(st, a->workload, a->variant, "gpu", &a->gpu_id, err);
}

/* Per source line: warp-instructions and active threads over the run's instructions. */
static int add_lines(line_row **rows, int *n, const ws_result *r, int gpu)
{
    for (int i = 0; i < r->ninsts; i++) {
        const ws_inst_stat *s = &r->insts[i];
        if (s->line <= 0)
            continue;
        int j = 0;
        while (j < *n && (*rows)[j].line != s->line)
            j++;
        if (j == *n) {
            line_row *grown = realloc(*rows, (size_t)(*n + 1) * sizeof **rows);
            if (!grown)
                return WS_ERR_NOMEM;
            *rows = grown;
            memset(&grown[j], 0, sizeof grown[j]);
            grown[j].line = s->line;
            (*n)++;
        }
        line_row *L = &(*rows)[j];
        if (gpu) {
            L->gpu_issued += s->issued;
            L->gpu_active += s->active_threads;
        } else {
            L->sim_issued += s->issued;
            L->sim_active += s->active_threads;
        }
    }
    return WS_OK;
}

static double rate(uint64_t active, uint64_t issued)
{
    return issued ? (double)active / (32.0 * (double)issued) : NAN;
}

static double line_gap(const line_row *r)
{
    if (isnan(r->sim_rate) || isnan(r->gpu_rate))
        return -1;
    return fabs(r->sim_rate - r->gpu_rate);
}

static int by_gap(const void *a, const void *b)
{
    double x = line_gap(a), y = line_gap(b);
    if (x != y)
        return x < y ? 1 : -1;
    return ((const line_row *)a)->line - ((const line_row *)b)->line;
}

/* The headline rows first (derived), then every other metric both sides have. */
typedef struct pair_row { char name[96]; double sim, gpu; } pair_row;

static int collect_pairs(const ws_result *s, const ws_result *g, pair_row **out, int *n)
{
    pair_row *rows = calloc((size_t)s->nmetrics + 4, sizeof *rows);
    if (!rows)
        return WS_ERR_NOMEM;
    int k = 0;
    const char *ratio = WS_M(THREAD_INST_PER_INST);
    rows[k++] = (pair_row){"execution_rate", ws_result_value(s, ratio) / 32,
                           ws_result_value(g, ratio) / 32};
    rows[k++] = (pair_row){"branch_efficiency.pct",
                           ws_result_value(s, WS_M(BRANCH_UNIFORM_PCT)),
                           ws_result_value(g, WS_M(BRANCH_UNIFORM_PCT))};
    rows[k] = (pair_row){"", ws_result_value(s, WS_M(SIM_TIME_NS)),
                         ws_result_value(g, WS_M(GPU_TIME_NS))};
    snprintf(rows[k++].name, sizeof rows[0].name, "time_ns (%s vs %s)", WS_M(SIM_TIME_NS),
             WS_M(GPU_TIME_NS));
    for (int i = 0; i < s->nmetrics; i++) {
        const ws_metric *gm = ws_result_metric(g, s->metrics[i].name);
        if (!gm)
            continue;
        snprintf(rows[k].name, sizeof rows[k].name, "%s", s->metrics[i].name);
        rows[k].sim = s->metrics[i].value;
        rows[k].gpu = gm->value;
        k++;
    }
    *out = rows;
    *n = k;
    return WS_OK;
}

static void print_text(const compare_args *a, const ws_result *s, const ws_result *g,
                       const pair_row *p, int np, const line_row *L, int nl)
{
    printf("%s / %s   kernel %s   [%s]\n", g->workload, g->variant, g->kernel, g->params);
    printf("  simulator run %lld (%s)   GPU run %lld (%s)\n", (long long)a->sim_id, s->source,
           (long long)a->gpu_id, g->source);
    if (strcmp(s->params, g->params))
        printf("  note: parameters differ: sim [%s] vs GPU [%s]\n", s->params, g->params);
    printf("  %-56s %14s %14s %14s %9s\n", "metric", "simulator", "GPU", "GPU - sim", "rel");
    for (int i = 0; i < np; i++) {
        double d = p[i].gpu - p[i].sim;
        double rel = p[i].sim != 0 ? d / fabs(p[i].sim) : NAN;
        printf("  %-56.56s %14.6g %14.6g %14.6g %8.1f%%\n", p[i].name, p[i].sim, p[i].gpu, d,
               100.0 * rel);
    }
    int shown = 0;
    printf("  execution rate per source line (worst first):\n   %6s %10s %10s %12s %12s\n",
           "line", "sim", "GPU", "sim insts", "GPU insts");
    for (int i = 0; i < nl && shown < a->max_lines; i++, shown++)
        printf("   %6d %9.1f%% %9.1f%% %12llu %12llu\n", L[i].line, 100.0 * L[i].sim_rate,
               100.0 * L[i].gpu_rate, (unsigned long long)L[i].sim_issued,
               (unsigned long long)L[i].gpu_issued);
    if (!nl)
        printf("   (no per-line counts on %s)\n", g->ninsts ? "the simulator side" :
               "the GPU side: run 'warpscope profile'");
    /* what the simulator said of its own run: where its model is known to part from the
       GPU (a YIELD in a diverged warp, a contended CAS loop), races, ... */
    for (int i = 0; i < s->nwarnings; i++)
        printf("  simulator warning: %s\n", s->warnings[i]);
}

static void print_json(const compare_args *a, const ws_result *s, const ws_result *g,
                       const pair_row *p, int np, const line_row *L, int nl)
{
    ws_json j;
    ws_json_begin(&j, stdout);
    ws_json_object(&j, NULL);
    ws_json_str(&j, "workload", g->workload);
    ws_json_str(&j, "variant", g->variant);
    ws_json_int(&j, "sim_run", a->sim_id);
    ws_json_int(&j, "gpu_run", a->gpu_id);
    ws_json_array(&j, "metrics");
    for (int i = 0; i < np; i++) {
        ws_json_object(&j, NULL);
        ws_json_str(&j, "name", p[i].name);
        ws_json_num(&j, "sim", p[i].sim);
        ws_json_num(&j, "gpu", p[i].gpu);
        ws_json_num(&j, "abs_diff", p[i].gpu - p[i].sim);
        ws_json_num(&j, "rel_diff", p[i].sim != 0 ? (p[i].gpu - p[i].sim) / fabs(p[i].sim) : NAN);
        ws_json_end(&j);
    }
    ws_json_end(&j);
    ws_json_array(&j, "lines");
    for (int i = 0; i < nl; i++) {
        ws_json_object(&j, NULL);
        ws_json_int(&j, "line", L[i].line);
        ws_json_num(&j, "sim_execution_rate", L[i].sim_rate);
        ws_json_num(&j, "gpu_execution_rate", L[i].gpu_rate);
        ws_json_u64(&j, "sim_issued", L[i].sim_issued);
        ws_json_u64(&j, "gpu_issued", L[i].gpu_issued);
        ws_json_end(&j);
    }
    ws_json_end(&j);
    ws_json_warnings(&j, "sim_warnings", s);
    ws_json_end(&j);
    printf("\n");
}

static int compare_runs(compare_args *a, const ws_result *s, const ws_result *g, ws_error *err)
{
    pair_row *p = NULL;
    line_row *L = NULL;
    int np = 0, nl = 0;
    if (collect_pairs(s, g, &p, &np) != WS_OK || add_lines(&L, &nl, s, 0) != WS_OK ||
        add_lines(&L, &nl, g, 1) != WS_OK) {
        free(p);
        free(L);
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory comparing runs");
    }
    int both = 0;
    for (int i = 0; i < nl; i++) {
        L[i].sim_rate = rate(L[i].sim_active, L[i].sim_issued);
        L[i].gpu_rate = rate(L[i].gpu_active, L[i].gpu_issued);
        if (L[i].sim_issued && L[i].gpu_issued)
            L[both++] = L[i];
    }
    qsort(L, (size_t)both, sizeof *L, by_gap);
    if (a->json)
        print_json(a, s, g, p, np, L, both);
    else
        print_text(a, s, g, p, np, L, both);
    free(p);
    free(L);
    return WS_OK;
}

static int compare_all(compare_args *a, ws_error *err)
{
    ws_store *st;
    ws_result s, g;
    if (ws_store_open(a->db, &st, err) != WS_OK)
        return err->code;
    ws_result_init(&s);
    ws_result_init(&g);
    int rc = find_runs(st, a, err);
    if (rc == WS_OK)
        rc = ws_store_load_result(st, a->sim_id, &s, err);
    if (rc == WS_OK)
        rc = ws_store_load_result(st, a->gpu_id, &g, err);
    if (rc == WS_OK && (strncmp(s.source, "sim", 3) || strncmp(g.source, "gpu", 3)))
        rc = ws_error_set(err, WS_ERR_USAGE,
                          "compare: run %lld is '%s' and run %lld is '%s'; give a simulator run, then a GPU run",
                          (long long)a->sim_id, s.source, (long long)a->gpu_id, g.source);
    if (rc == WS_OK)
        rc = compare_runs(a, &s, &g, err);
    ws_result_free(&s);
    ws_result_free(&g);
    ws_store_close(st);
    return rc;
}

int ws_cmd_compare(int argc, char **argv)
{
    ws_error err;
    compare_args a;
    ws_error_clear(&err);
    memset(&a, 0, sizeof a);
    a.db = ws_cli_default_db();
    a.max_lines = 20;
    int rc = compare_parse(argc, argv, &a, &err);
    if (rc > 0)
        return 0;
    if (rc < 0 || compare_all(&a, &err) != WS_OK)
        return ws_cli_fail(&err);
    return 0;
}
