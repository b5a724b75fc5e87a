/* cmd_map.c — `warpscope map RUN... [-o map.html] [--term]`: loads runs from the database
 * and hands them to the viewer (HTML page or terminal heat view). Glue only: the drawing
 * is viewer/'s, the reading store/'s. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "store/store.h"
#include "viewer/viewer.h"

#define MAP_MAX_RUNS 8

typedef struct map_args {
    const char *db, *out;
    int term;
    int64_t ids[MAP_MAX_RUNS];
    int nids;
    const char *workload;   /* instead of ids: the newest run of each of its variants */
    const char *source;     /* with a workload: "sim" (default) or "gpu" */
    ws_viewer_options opt;
} map_args;

/* One operand: a run id (into a->ids) or a workload name. */
static int take_operand(map_args *a, const char *s, ws_error *err)
{
    char what[160];
    long long id;
    if (ws_cli_parse_int(s, 1, INT64_MAX, &id) != 0) {
        if (s[0] >= '0' && s[0] <= '9') {
            snprintf(what, sizeof what, "'%.100s' is not a run id ('warpscope runs' lists them)", s);
            return ws_cli_usage(err, "map", what);
        }
        if (a->workload || a->nids)
            return ws_cli_usage(err, "map", "give run ids or one workload name, not both");
        a->workload = s;
        return 0;
    }
    if (a->workload)
        return ws_cli_usage(err, "map", "give run ids or one workload name, not both");
    if (a->nids == MAP_MAX_RUNS) {
        snprintf(what, sizeof what, "at most %d runs per map", MAP_MAX_RUNS);
        return ws_cli_usage(err, "map", what);
    }
    a->ids[a->nids++] = id;
    return 0;
}

/* 0, 1 after --help, or -1 with the error in err. */
static int map_parse(int argc, char **argv, map_args *a, ws_error *err)
{
    memset(a, 0, sizeof *a);
    ws_viewer_options_default(&a->opt);
    a->db = ws_cli_default_db();
    a->out = "map.html";
    char run_help[64];
    snprintf(run_help, sizeof run_help, "a run id (one to %d)", MAP_MAX_RUNS);
    const ws_opt opts[] = {
        {"RUN", WS_OPT_POSITIONAL, NULL, NULL, run_help, 0, 0},
        {"WORKLOAD", WS_OPT_POSITIONAL, NULL, NULL,
         "a workload name: its newest run of each variant (e.g. before and\n"
         "after, drawn side by side)", 0, 0},
        {"--source", WS_OPT_STRING, &a->source, "S",
         "with WORKLOAD: runs whose source starts with S (default sim)", 0, 0},
        {"-o", WS_OPT_STRING, &a->out, "FILE", "the page to write (default map.html)", 0, 0},
        {"--term", WS_OPT_FLAG, &a->term, NULL,
         "print a per-line heat view on the terminal instead", 0, 0},
        WS_CLI_OPT_DB(&a->db),
        {"--warp", WS_OPT_INT, &a->opt.timeline, "N",
         "draw only recorded warp timeline N (0-based; default: the first 4)", 0, 1 << 20},
        {"--columns", WS_OPT_INT, &a->opt.timeline_columns, "N",
         "timeline columns before issue slots are binned (default 480)", 16, 100000},
        {"--title", WS_OPT_STRING, &a->opt.title, "TEXT", "page title", 0, 0},
    };
    const ws_cli_cmd cmd = {"map", "warpscope map RUN [RUN] [-o FILE] [--term] [options]\n"
                            "       warpscope map WORKLOAD [--source sim|gpu] [-o FILE] [--term] [options]",
                            "Draws divergence maps of stored runs ('warpscope runs' lists their ids): one\n"
                            "self-contained HTML page with each kernel's control-flow graph coloured by execution\n"
                            "rate, the source with per-line heat columns, recorded warp lane timelines, and, for\n"
                            "two runs of the same source (before/after, simulator/GPU), the two side by side.",
                            opts, WS_CLI_NOPTS(opts)};
    const char *pos[MAP_MAX_RUNS + 1];
    int npos = 0;
    int rc = ws_cli_parse(&cmd, argc, argv, pos, MAP_MAX_RUNS + 1, &npos, err);
    if (rc)
        return rc;
    for (int i = 0; i < npos; i++)
        if (take_operand(a, pos[i], err))
            return -1;
    if (a->nids == 0 && !a->workload)
        return -!!ws_cli_usage(err, "map", "which run? give a run id or a workload name");
    if (!a->source) a->source = "sim";
    return 0;
}

/* The newest run of each variant of a->workload from a->source, variants in the order they
 * first appear in the database (sim stores them in spec order: before, then after). */
static int pick_workload_runs(ws_store *st, map_args *a, ws_error *err)
{
    ws_run_row *rows = NULL;
    int n = 0;
    if (ws_store_list_runs(st, &rows, &n, err) != WS_OK) return err->code;
    size_t plen = strlen(a->source);
    const char *variant[MAP_MAX_RUNS];
    for (int i = 0; i < n; i++) {
        if (strcmp(rows[i].workload, a->workload) || strncmp(rows[i].source, a->source, plen))
            continue;
        int slot = 0;
        while (slot < a->nids && strcmp(variant[slot], rows[i].variant)) slot++;
        if (slot == MAP_MAX_RUNS) continue;
        if (slot == a->nids) variant[a->nids++] = rows[i].variant;
        a->ids[slot] = rows[i].id; /* rows are oldest first: the newest wins */
    }
    int found = a->nids;
    free(rows);
    if (!found)
        return ws_error_set(err, WS_ERR_NOTFOUND, "no %s run of workload '%s' in %s ('warpscope "
                                                  "runs --db %s' lists the runs)",
                            a->source, a->workload, a->db, a->db);
    return WS_OK;
}

static int load_runs(map_args *a, ws_result *res, ws_error *err)
{
    if (access(a->db, F_OK) != 0)
        return ws_error_set(err, WS_ERR_IO, "no database '%s' (run 'warpscope sim ... --db %s' "
                                            "first)", a->db, a->db);
    ws_store *st = NULL;
    if (ws_store_open(a->db, &st, err) != WS_OK) return err->code;
    int rc = a->workload ? pick_workload_runs(st, a, err) : WS_OK;
    for (int i = 0; i < a->nids && rc == WS_OK; i++) {
        rc = ws_store_load_result(st, a->ids[i], &res[i], err);
        if (rc == WS_ERR_NOTFOUND)
            ws_error_set(err, WS_ERR_NOTFOUND, "no run %lld in %s ('warpscope runs --db %s' "
                                               "lists them)", (long long)a->ids[i], a->db, a->db);
    }
    ws_store_close(st);
    return rc;
}

static int check_warp(const map_args *a, const ws_result *res, ws_error *err)
{
    for (int i = 0; i < a->nids && a->opt.timeline >= 0; i++)
        if (a->opt.timeline >= res[i].ntimelines)
            return ws_error_set(err, WS_ERR_USAGE,
                                "run %lld records %d warp timeline%s; --warp %d is out of range",
                                (long long)a->ids[i], res[i].ntimelines,
                                res[i].ntimelines == 1 ? "" : "s", a->opt.timeline);
    return WS_OK;
}

static void note_missing_source(const map_args *a, const ws_result *res)
{
    char path[WS_PATH_MAX];
    for (int i = 0; i < a->nids; i++)
        if (ws_viewer_missing_source(&res[i], path, sizeof path))
            fprintf(stderr, "warpscope: note: run %lld has no source text for %s; its lines are "
                            "shown by number only\n", (long long)a->ids[i], path);
}

static int write_html(const map_args *a, const ws_result *const *runs, ws_error *err)
{
    FILE *f = fopen(a->out, "w");
    if (!f) return ws_error_set(err, WS_ERR_IO, "cannot write '%s': %s", a->out, strerror(errno));
    int rc = ws_viewer_write_html(runs, a->nids, f, &a->opt, err);
    if (fclose(f) != 0 && rc == WS_OK)
        rc = ws_error_set(err, WS_ERR_IO, "cannot write '%s': %s", a->out, strerror(errno));
    if (rc != WS_OK) {
        remove(a->out);
        return rc;
    }
    printf("wrote %s (%d run%s)\n", a->out, a->nids, a->nids == 1 ? "" : "s");
    return WS_OK;
}

int ws_cmd_map(int argc, char **argv)
{
    ws_error err;
    ws_error_clear(&err);
    map_args a;
    int prc = map_parse(argc, argv, &a, &err);
    if (prc > 0) return 0;
    if (prc < 0) return ws_cli_fail(&err);
    ws_result res[MAP_MAX_RUNS];
    const ws_result *runs[MAP_MAX_RUNS];
    for (int i = 0; i < MAP_MAX_RUNS; i++) { ws_result_init(&res[i]); runs[i] = &res[i]; }
    a.opt.run_ids = a.ids;
    a.opt.db_path = a.db;
    int rc = load_runs(&a, res, &err);
    if (rc == WS_OK) rc = check_warp(&a, res, &err);
    if (rc == WS_OK) {
        note_missing_source(&a, res);
        if (a.term) {
            a.opt.color = isatty(fileno(stdout));
            rc = ws_viewer_write_term(runs, a.nids, stdout, &a.opt, &err);
        } else {
            rc = write_html(&a, runs, &err);
        }
    }
    for (int i = 0; i < MAP_MAX_RUNS; i++) ws_result_free(&res[i]);
    return rc == WS_OK ? 0 : ws_cli_fail(&err);
}
