/* cmd_show.c — `warpscope show RUN [--db FILE] [--json]`: one stored run in words: what
 * ran, every metric, regions with execution rates, the hottest source lines, atomics with
 * their distinct-address histograms, warnings. Reads only; never creates a database. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "store/store.h"

#define WS_SHOW_HOT_LINES 15

static const char show_about[] =
    "Prints run RUN (an id from 'warpscope runs') of the results database (default:\n"
    "$WARPSCOPE_DB or ./warpscope.db): launch and inputs, outputs check, every metric,\n"
    "regions with execution rates, the 15 hottest source lines by issued\n"
    "warp-instructions, atomics with distinct addresses per warp-instruction, warnings.";

/* Counts of one source line, summed over its instructions. */
typedef struct hot_line {
    int file, line;
    uint64_t issued, active, pred_on, divergent;
} hot_line;

static double rate_of(uint64_t active, uint64_t issued)
{
    return issued ? (double)active / (32.0 * (double)issued) : NAN;
}

static int by_issued_desc(const void *a, const void *b)
{
    const hot_line *x = a, *y = b;
    if (x->issued != y->issued)
        return x->issued < y->issued ? 1 : -1;
    if (x->file != y->file)
        return x->file - y->file;
    return x->line - y->line;
}

/* Per-line sums over r->insts, hottest first; caller frees. */
static hot_line *collect_lines(const ws_result *r, int *n)
{
    hot_line *lines = calloc((size_t)r->ninsts + 1, sizeof *lines);
    *n = 0;
    if (!lines)
        return NULL;
    for (int i = 0; i < r->ninsts; i++) {
        const ws_inst_stat *in = &r->insts[i];
        if (in->line <= 0)
            continue;
        int k = 0;
        while (k < *n && !(lines[k].file == in->file && lines[k].line == in->line))
            k++;
        if (k == *n) {
            lines[k].file = in->file;
            lines[k].line = in->line;
            (*n)++;
        }
        lines[k].issued += in->issued;
        lines[k].active += in->active_threads;
        lines[k].pred_on += in->pred_on_threads;
        lines[k].divergent += in->divergent_branches;
    }
    qsort(lines, (size_t)*n, sizeof *lines, by_issued_desc);
    return lines;
}

/* Line `line` (1-based) of the file's stored text, trimmed, into buf ("" if unknown). */
static void source_line(const ws_result *r, int file, int line, char *buf, size_t n)
{
    buf[0] = 0;
    if (file < 0 || file >= r->nfiles || !r->files[file].text)
        return;
    const char *p = r->files[file].text;
    for (int k = 1; k < line && p; k++) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    if (!p)
        return;
    while (*p == ' ' || *p == '\t')
        p++;
    size_t len = strcspn(p, "\n");
    if (len >= n)
        len = n - 1;
    memcpy(buf, p, len);
    buf[len] = 0;
}

static const char *file_name(const ws_result *r, int file)
{
    if (file < 0 || file >= r->nfiles)
        return "?";
    const char *slash = strrchr(r->files[file].path, '/');
    return slash ? slash + 1 : r->files[file].path;
}

/* Mean distinct addresses per warp-execution, from the histogram; NAN when empty. */
static double mean_distinct(const ws_atomic_stat *a)
{
    uint64_t execs = 0;
    double sum = 0;
    for (int d = 0; d <= 32; d++) {
        execs += a->distinct_hist[d];
        sum += (double)d * (double)a->distinct_hist[d];
    }
    return execs ? sum / (double)execs : NAN;
}

/* ---------------------------------------------------------------- text */

/* "40.2" or "-" for an undefined rate, in a field of `width`. */
static void print_pct(double rate, int width)
{
    if (isnan(rate))
        printf(" %*s", width, "-");
    else
        printf(" %*.1f", width, 100.0 * rate);
}

static void print_value(double v)
{
    if (isnan(v))
        printf("%20s", "-");
    else if (v == floor(v) && fabs(v) < 1e15)
        printf("%20.0f", v);
    else
        printf("%20.6g", v);
}

static void print_header_text(const ws_run_row *w, const ws_result *r)
{
    printf("run %lld  %s  %s  (warpscope %s, git %s)\n", (long long)w->id, r->source, w->created,
           w->tool_version, w->git_revision);
    printf("  workload  %s, variant %s, kernel %s\n", r->workload, r->variant, r->kernel);
    printf("  launch    grid %ux%ux%u, block %ux%ux%u, dynamic shared %u B\n", r->grid[0],
           r->grid[1], r->grid[2], r->block[0], r->block[1], r->block[2], r->smem_dynamic);
    printf("  params    %s\n", r->params[0] ? r->params : "-");
    printf("  seed      %llu\n", (unsigned long long)r->seed);
    printf("  device    %s\n", r->device_json[0] ? r->device_json : "-");
    if (!r->outputs_checked)
        printf("  outputs   not checked\n");
    else
        printf("  outputs   %s%s%s\n", r->outputs_match ? "ok" : "DIFF",
               r->check_message[0] ? ": " : "", r->check_message);
}

static void print_metrics_text(const ws_result *r)
{
    printf("\nmetrics (%d)\n", r->nmetrics);
    for (int i = 0; i < r->nmetrics; i++) {
        printf("  %-60s", r->metrics[i].name);
        print_value(r->metrics[i].value);
        printf("\n");
    }
}

static void print_regions_text(const ws_result *r)
{
    printf("\nregions (%d)\n", r->nregions);
    if (!r->nregions)
        return;
    printf("  %-20s %-11s %14s %9s %12s %12s\n", "name", "lines", "issued", "exec %",
           "divergent", "pred-off");
    for (int i = 0; i < r->nregions; i++) {
        const ws_region_stat *g = &r->regions[i];
        char lines[32];
        snprintf(lines, sizeof lines, "%d-%d", g->first_line, g->last_line);
        printf("  %-20s %-11s %14llu", g->name, lines, (unsigned long long)g->issued);
        print_pct(g->execution_rate, 9);
        printf(" %12llu %12llu\n", (unsigned long long)g->divergent_branches,
               (unsigned long long)(g->active_threads - g->pred_on_threads));
    }
}

static void print_lines_text(const ws_result *r, const hot_line *lines, int n)
{
    int shown = n < WS_SHOW_HOT_LINES ? n : WS_SHOW_HOT_LINES;
    printf("\nhottest lines (top %d of %d, by issued warp-instructions)\n", shown, n);
    if (!n)
        return;
    printf("  %-26s %14s %9s %12s %12s  %s\n", "file:line", "issued", "exec %", "divergent",
           "pred-off", "source");
    for (int i = 0; i < shown; i++) {
        const hot_line *h = &lines[i];
        char where[WS_PATH_MAX + 16], text[72];
        snprintf(where, sizeof where, "%s:%d", file_name(r, h->file), h->line);
        source_line(r, h->file, h->line, text, sizeof text);
        printf("  %-26s %14llu %9.1f %12llu %12llu  %s\n", where, (unsigned long long)h->issued,
               100.0 * rate_of(h->active, h->issued), (unsigned long long)h->divergent,
               (unsigned long long)(h->active - h->pred_on), text);
    }
}

/* "1:400 32:100": the non-empty buckets, most frequent first, at most 4. */
static void hist_summary(const ws_atomic_stat *a, char *buf, size_t n)
{
    int used[33] = {0};
    size_t len = 0;
    buf[0] = 0;
    for (int k = 0; k < 4; k++) {
        int best = -1;
        for (int d = 0; d <= 32; d++)
            if (!used[d] && a->distinct_hist[d] &&
                (best < 0 || a->distinct_hist[d] > a->distinct_hist[best]))
                best = d;
        if (best < 0)
            break;
        used[best] = 1;
        len += (size_t)snprintf(buf + len, len < n ? n - len : 0, "%s%d:%llu", k ? " " : "",
                                best, (unsigned long long)a->distinct_hist[best]);
    }
}

static void print_atomics_text(const ws_result *r)
{
    printf("\natomics (%d)\n", r->natomics);
    if (!r->natomics)
        return;
    printf("  %-24s %6s %6s %-22s %12s %12s %9s  %s\n", "function", "pc", "line", "instruction",
           "warp execs", "lanes", "distinct", "histogram (distinct:execs)");
    for (int i = 0; i < r->natomics; i++) {
        const ws_atomic_stat *a = &r->atomics[i];
        char hist[128];
        hist_summary(a, hist, sizeof hist);
        printf("  %-24s %6d %6d %-22s %12llu %12llu %9.2f  %s\n", a->function, a->pc, a->line,
               a->text, (unsigned long long)a->warp_execs, (unsigned long long)a->lanes,
               mean_distinct(a), hist);
    }
}

static void print_text(const ws_run_row *w, const ws_result *r, const hot_line *lines, int n)
{
    print_header_text(w, r);
    print_metrics_text(r);
    if (r->nlaunches)
        printf("\n");
    ws_cli_print_launches(r);
    print_regions_text(r);
    print_lines_text(r, lines, n);
    print_atomics_text(r);
    printf("\nwarnings (%d)\n", r->nwarnings);
    for (int i = 0; i < r->nwarnings; i++)
        printf("  %s\n", r->warnings[i]);
}

/* ---------------------------------------------------------------- JSON */

static void json_header(ws_json *j, const ws_run_row *w, const ws_result *r)
{
    ws_json_int(j, "id", w->id);
    ws_json_str(j, "created", w->created);
    ws_json_str(j, "tool_version", w->tool_version);
    ws_json_str(j, "git_revision", w->git_revision);
    ws_json_str(j, "source", r->source);
    ws_json_u64(j, "smem_dynamic", r->smem_dynamic);
    ws_json_u64(j, "seed", r->seed);
    ws_json_str(j, "device_json", r->device_json);
}

static void json_lines(ws_json *j, const ws_result *r, const hot_line *lines, int n)
{
    int shown = n < WS_SHOW_HOT_LINES ? n : WS_SHOW_HOT_LINES;
    ws_json_array(j, "hot_lines");
    for (int i = 0; i < shown; i++) {
        const hot_line *h = &lines[i];
        ws_json_object(j, NULL);
        ws_json_str(j, "file", h->file >= 0 && h->file < r->nfiles ? r->files[h->file].path : "");
        ws_json_int(j, "line", h->line);
        ws_json_u64(j, "issued", h->issued);
        ws_json_u64(j, "active_threads", h->active);
        ws_json_u64(j, "pred_on_threads", h->pred_on);
        ws_json_u64(j, "divergent_branches", h->divergent);
        ws_json_num(j, "execution_rate", rate_of(h->active, h->issued));
        ws_json_end(j);
    }
    ws_json_end(j);
}

static void json_atomics(ws_json *j, const ws_result *r)
{
    ws_json_array(j, "atomics");
    for (int i = 0; i < r->natomics; i++) {
        const ws_atomic_stat *a = &r->atomics[i];
        ws_json_object(j, NULL);
        ws_json_str(j, "function", a->function);
        ws_json_int(j, "pc", a->pc);
        ws_json_int(j, "line", a->line);
        ws_json_str(j, "text", a->text);
        ws_json_u64(j, "warp_execs", a->warp_execs);
        ws_json_u64(j, "lanes", a->lanes);
        ws_json_num(j, "mean_distinct", mean_distinct(a));
        ws_json_object(j, "distinct_hist");
        for (int d = 0; d <= 32; d++) {
            char key[8];
            snprintf(key, sizeof key, "%d", d);
            if (a->distinct_hist[d])
                ws_json_u64(j, key, a->distinct_hist[d]);
        }
        ws_json_end(j);
        ws_json_end(j);
    }
    ws_json_end(j);
}

static void print_json(const ws_run_row *w, const ws_result *r, const hot_line *lines, int n)
{
    ws_json j;
    ws_json_begin(&j, stdout);
    ws_json_object(&j, NULL);
    json_header(&j, w, r);
    ws_json_run(&j, r);
    json_lines(&j, r, lines, n);
    json_atomics(&j, r);
    ws_json_end(&j);
    printf("\n");
}

/* ---------------------------------------------------------------- command */

/* RUN, --db, --json: 0, 1 after --help, or -1 with the error in err. */
static int parse_args(int argc, char **argv, const char **db, int64_t *id, int *json,
                      ws_error *err)
{
    const ws_opt opts[] = {
        {"RUN", WS_OPT_POSITIONAL, NULL, NULL, "a run id from 'warpscope runs'", 0, 0},
        WS_CLI_OPT_DB(db),
        WS_CLI_OPT_JSON(json, "one JSON object instead of text"),
    };
    const ws_cli_cmd cmd = {"show", "warpscope show RUN [--db FILE] [--json]", show_about, opts,
                            WS_CLI_NOPTS(opts)};
    const char *run = NULL;
    int npos = 0;
    long long v;
    int rc = ws_cli_parse(&cmd, argc, argv, &run, 1, &npos, err);
    if (rc)
        return rc;
    if (!run)
        return -!!ws_cli_usage(err, "show", "which run? give a RUN id from 'warpscope runs'");
    if (ws_cli_parse_int(run, 1, INT64_MAX, &v)) {
        char what[300];
        snprintf(what, sizeof what, "RUN must be a run id (a positive integer), not '%.200s'", run);
        return -!!ws_cli_usage(err, "show", what);
    }
    *id = v;
    return 0;
}

int ws_cmd_show(int argc, char **argv)
{
    const char *db = ws_cli_default_db();
    int64_t id = 0;
    int json = 0;
    ws_error err;
    ws_error_clear(&err);
    int prc = parse_args(argc, argv, &db, &id, &json, &err);
    if (prc > 0)
        return 0;
    if (prc < 0)
        return ws_cli_fail(&err);
    if (access(db, F_OK) != 0) {
        ws_error_set(&err, WS_ERR_NOTFOUND,
                     "no database %s (runs are stored by 'warpscope sim SPEC --db %s')", db, db);
        return ws_cli_fail(&err);
    }
    ws_store *st;
    if (ws_store_open(db, &st, &err))
        return ws_cli_fail(&err);
    ws_run_row row;
    ws_result r;
    ws_result_init(&r);
    int rc = ws_store_get_run(st, id, &row, &err);
    if (!rc)
        rc = ws_store_load_result(st, id, &r, &err);
    ws_store_close(st);
    if (rc) {
        ws_result_free(&r);
        return ws_cli_fail(&err);
    }
    int n = 0;
    hot_line *lines = collect_lines(&r, &n);
    if (json)
        print_json(&row, &r, lines, n);
    else
        print_text(&row, &r, lines, n);
    free(lines);
    ws_result_free(&r);
    return 0;
}
