/* cmd_runs.c — `warpscope runs [--db FILE] [--json]`: the runs in a results database, one
 * line each (id, when, source, workload, variant, kernel, launch, execution rate, time,
 * outputs). Reads only; never creates a database. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "store/store.h"

static const char runs_about[] =
    "Lists the runs stored in the results database (default: $WARPSCOPE_DB or\n"
    "./warpscope.db): id, when (UTC), source (sim:MODEL or gpu:DEVICE), workload, variant,\n"
    "kernel, grid x block, execution rate (active threads / 32 per warp-instruction), time\n"
    "(GPU measured, else simulator predicted) and outputs (ok, DIFF, or - when unchecked).";

/* "64" / "64x2" / "64x2x3": trailing 1s dropped. */
static void format_dim(const uint32_t d[3], char *buf, size_t n)
{
    if (d[2] != 1)
        snprintf(buf, n, "%ux%ux%u", d[0], d[1], d[2]);
    else if (d[1] != 1)
        snprintf(buf, n, "%ux%u", d[0], d[1]);
    else
        snprintf(buf, n, "%u", d[0]);
}

static void format_time(double ns, char *buf, size_t n)
{
    if (ns < 0)
        snprintf(buf, n, "-");
    else if (ns < 1e3)
        snprintf(buf, n, "%.0f ns", ns);
    else if (ns < 1e6)
        snprintf(buf, n, "%.2f us", ns / 1e3);
    else if (ns < 1e9)
        snprintf(buf, n, "%.2f ms", ns / 1e6);
    else
        snprintf(buf, n, "%.2f s", ns / 1e9);
}

static const char *outputs_word(int match)
{
    return match < 0 ? "-" : match ? "ok" : "DIFF";
}

/* Column widths that fit every row (at least the header's). */
typedef struct widths { int source, workload, variant, kernel, launch; } widths;

static void format_launch(const ws_run_row *w, char *buf, size_t n)
{
    char grid[40], block[40];
    format_dim(w->grid, grid, sizeof grid);
    format_dim(w->block, block, sizeof block);
    snprintf(buf, n, "%s x %s", grid, block);
}

static int max_int(int a, int b)
{
    return a > b ? a : b;
}

static widths measure(const ws_run_row *rows, int n)
{
    widths k = {6, 8, 7, 6, 12};
    for (int i = 0; i < n; i++) {
        char launch[96];
        format_launch(&rows[i], launch, sizeof launch);
        k.source = max_int(k.source, (int)strlen(rows[i].source));
        k.workload = max_int(k.workload, (int)strlen(rows[i].workload));
        k.variant = max_int(k.variant, (int)strlen(rows[i].variant));
        k.kernel = max_int(k.kernel, (int)strlen(rows[i].kernel));
        k.launch = max_int(k.launch, (int)strlen(launch));
    }
    return k;
}

static void print_table(const ws_run_row *rows, int n)
{
    widths k = measure(rows, n);
    printf("%4s  %-16s  %-*s  %-*s  %-*s  %-*s  %-*s  %7s  %10s  %s\n", "id", "when (UTC)",
           k.source, "source", k.workload, "workload", k.variant, "variant", k.kernel, "kernel",
           k.launch, "grid x block", "exec %", "time", "outputs");
    for (int i = 0; i < n; i++) {
        const ws_run_row *w = &rows[i];
        char when[32], launch[96], rate[16], time[32];
        /* "2026-11-22T17:36:00Z" -> "2026-11-22 17:36" */
        snprintf(when, sizeof when, "%.16s", w->created);
        if (strlen(when) > 10)
            when[10] = ' ';
        format_launch(w, launch, sizeof launch);
        if (w->execution_rate < 0)
            snprintf(rate, sizeof rate, "-");
        else
            snprintf(rate, sizeof rate, "%.1f", 100.0 * w->execution_rate);
        format_time(w->time_ns, time, sizeof time);
        printf("%4lld  %-16s  %-*s  %-*s  %-*s  %-*s  %-*s  %7s  %10s  %s\n", (long long)w->id,
               when, k.source, w->source, k.workload, w->workload, k.variant, w->variant,
               k.kernel, w->kernel, k.launch, launch, rate, time, outputs_word(w->outputs_match));
    }
    if (n == 0)
        printf("(no runs yet: 'warpscope sim SPEC --db FILE' stores one)\n");
}

static void print_json(const ws_run_row *rows, int n)
{
    ws_json j;
    ws_json_begin(&j, stdout);
    ws_json_array(&j, NULL);
    for (int i = 0; i < n; i++) {
        const ws_run_row *w = &rows[i];
        ws_json_object(&j, NULL);
        ws_json_int(&j, "id", w->id);
        ws_json_str(&j, "created", w->created);
        ws_json_str(&j, "source", w->source);
        ws_json_str(&j, "workload", w->workload);
        ws_json_str(&j, "variant", w->variant);
        ws_json_str(&j, "kernel", w->kernel);
        ws_json_str(&j, "params", w->params);
        ws_json_array(&j, "grid");
        for (int k = 0; k < 3; k++)
            ws_json_u64(&j, NULL, w->grid[k]);
        ws_json_end(&j);
        ws_json_array(&j, "block");
        for (int k = 0; k < 3; k++)
            ws_json_u64(&j, NULL, w->block[k]);
        ws_json_end(&j);
        /* The store gives -1 for "none". */
        ws_json_num(&j, "execution_rate", w->execution_rate < 0 ? NAN : w->execution_rate);
        ws_json_num(&j, "time_ns", w->time_ns < 0 ? NAN : w->time_ns);
        ws_json_bool(&j, "outputs_match", w->outputs_match);
        ws_json_end(&j);
    }
    ws_json_end(&j);
    printf("\n");
}

/* Opens an existing database only: a typo must not leave an empty warpscope.db behind. */
static int open_existing(const char *path, ws_store **st, ws_error *err)
{
    if (access(path, F_OK) != 0)
        return ws_error_set(err, WS_ERR_NOTFOUND,
                            "no database %s (runs are stored by 'warpscope sim SPEC --db %s')",
                            path, path);
    return ws_store_open(path, st, err);
}

int ws_cmd_runs(int argc, char **argv)
{
    const char *db = ws_cli_default_db();
    int json = 0, npos = 0;
    ws_error err;
    ws_error_clear(&err);
    const ws_opt opts[] = {
        WS_CLI_OPT_DB(&db),
        WS_CLI_OPT_JSON(&json, "one JSON array of objects instead of the table"),
    };
    const ws_cli_cmd cmd = {"runs", "warpscope runs [--db FILE] [--json]", runs_about, opts,
                            WS_CLI_NOPTS(opts)};
    int rc = ws_cli_parse(&cmd, argc, argv, NULL, 0, &npos, &err);
    if (rc > 0)
        return 0;
    if (rc < 0)
        return ws_cli_fail(&err);
    ws_store *st;
    if (open_existing(db, &st, &err))
        return ws_cli_fail(&err);
    ws_run_row *rows = NULL;
    int n = 0;
    rc = ws_store_list_runs(st, &rows, &n, &err);
    ws_store_close(st);
    if (rc)
        return ws_cli_fail(&err);
    if (json)
        print_json(rows, n);
    else
        print_table(rows, n);
    free(rows);
    return 0;
}
