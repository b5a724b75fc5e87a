/* test_viewer_browser.c — the divergence map in a real headless Chromium: results are saved
 * to a real SQLite database, loaded back, drawn, and the page is loaded by the browser; it
 * must raise no console error, hold the SVG, and show the database's numbers. Screenshots go
 * to build/tests/out/ for a person to look at. Skips (exit 0) only when Chromium is absent. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "store/store.h"
#include "tests/check.h"
#include "tests/viewer/vw_fixture.h"
#include "viewer/viewer.h"

#define OUT WS_BINARY_DIR "/tests/out"

static char chromium[256];

static int find_chromium(void)
{
    const char *env = getenv("WARPSCOPE_CHROMIUM");
    const char *names[] = {env, "chromium", "chromium-browser", "google-chrome"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        if (!names[i] || !*names[i]) continue;
        char cmd[400];
        snprintf(cmd, sizeof cmd, "command -v '%s' >/dev/null 2>&1", names[i]);
        if (system(cmd) == 0) { snprintf(chromium, sizeof chromium, "%s", names[i]); return 1; }
    }
    return 0;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    size_t got = s ? fread(s, 1, (size_t)n, f) : 0;
    fclose(f);
    if (s) s[got] = '\0';
    return s;
}

/* Runs Chromium on `page`: the DOM after load into *dom, console lines into *console. */
static int browse(const char *page, const char *png, char **dom, char **console)
{
    char cmd[2048];
    const char *flags = "--headless --no-sandbox --disable-gpu --hide-scrollbars "
                        "--no-first-run --user-data-dir=" OUT "/chromium-profile";
    snprintf(cmd, sizeof cmd,
             "timeout 120 %s %s --enable-logging=stderr --v=0 --dump-dom 'file://%s' "
             "> %s.dom 2> %s.log", chromium, flags, page, page, page);
    int rc = system(cmd);
    if (png) {
        snprintf(cmd, sizeof cmd,
                 "timeout 120 %s %s --window-size=1280,2400 --screenshot='%s' 'file://%s' "
                 ">/dev/null 2>&1", chromium, flags, png, page);
        rc |= system(cmd);
    }
    char path[600];
    snprintf(path, sizeof path, "%s.dom", page);
    *dom = slurp(path);
    snprintf(path, sizeof path, "%s.log", page);
    char *log = slurp(path);
    /* keep only the page's console lines: Chromium logs them as ...:CONSOLE...] "msg" */
    size_t n = 0;
    *console = calloc(1, log ? strlen(log) + 1 : 1);
    for (char *line = log ? strtok(log, "\n") : NULL; line; line = strtok(NULL, "\n"))
        if (strstr(line, ":CONSOLE") || strstr(line, "Uncaught"))
            n += (size_t)sprintf(*console + n, "%s\n", line);
    free(log);
    return rc;
}

static int write_page(const char *path, const ws_result *const *runs, int n, const int64_t *ids,
                      const char *db)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    ws_viewer_options o;
    ws_viewer_options_default(&o);
    o.run_ids = ids;
    o.db_path = db;
    ws_error err;
    int rc = ws_viewer_write_html(runs, n, f, &o, &err);
    fclose(f);
    if (rc) fprintf(stderr, "write_page: %s\n", err.msg);
    return rc;
}

/* The detector must see a broken page's error, or the check below proves nothing. */
static void test_detects_errors(void)
{
    const char *page = OUT "/broken.html";
    FILE *f = fopen(page, "w");
    fputs("<!DOCTYPE html><html><body><svg></svg><script>undefinedFunction();</script></body></html>", f);
    fclose(f);
    char *dom, *console;
    browse(page, NULL, &dom, &console);
    CHECK(console && strstr(console, "Uncaught"), "broken page's error seen: [%s]", console ? console : "");
    free(dom);
    free(console);
}

static void check_run_numbers(const char *dom, const ws_result *r, int index)
{
    char anchor[64], v[64];
    /* key figures: issued and divergent, from the loaded result's metrics */
    const ws_metric *iss = ws_result_metric(r, "smsp__inst_executed.sum");
    const ws_metric *div = ws_result_metric(r, "smsp__sass_branch_targets_threads_divergent.sum");
    const ws_metric *ratio = ws_result_metric(r, "smsp__thread_inst_executed_per_inst_executed.ratio");
    const ws_metric *rate = ws_result_metric(r, "sim__execution_rate");
    CHECK(iss && div && (rate || ratio), "metrics stored");
    if (!iss || !div || !(rate || ratio)) return;
    double want_rate = rate ? rate->value : ratio->value / 32.0;
    const char *side = dom;
    snprintf(anchor, sizeof anchor, "id=\"r%d\"", index);
    side = strstr(dom, anchor);
    CHECK(side != NULL, "run %d section", index);
    if (!side) return;
    CHECK(vw_attr_after(side, "data-key=\"issued\"><span", "data-v", v, sizeof v) == 0 &&
              strtoull(v, NULL, 10) == (uint64_t)iss->value, "run %d issued %s vs %.0f", index, v, iss->value);
    CHECK(vw_attr_after(side, "data-key=\"divergent\"><span", "data-v", v, sizeof v) == 0 &&
              strtoull(v, NULL, 10) == (uint64_t)div->value, "run %d divergent %s", index, v);
    char shown[32];
    snprintf(shown, sizeof shown, ">%.1f%%</span>", want_rate * 100.0);
    const char *er = strstr(side, "data-key=\"execution_rate\"");
    CHECK(er && vw_attr_after(side, "data-key=\"execution_rate\"><span", "data-v", v, sizeof v) == 0 &&
              atof(v) > want_rate - 1e-6 && atof(v) < want_rate + 1e-6 && strstr(er, shown) &&
              strstr(er, shown) < strstr(er, "</dd>"), "run %d rate %s %s", index, v, shown);
    /* every block is a node, with the issued count the database holds */
    for (int b = 0; b < r->nblocks; b++) {
        snprintf(anchor, sizeof anchor, "id=\"r%d-n%d\"", index, b);
        uint64_t want = 0;
        for (int i = 0; i < r->ninsts; i++)
            if (r->insts[i].block == r->blocks[b].id && !strcmp(r->insts[i].function, r->blocks[b].function))
                want += r->insts[i].issued;
        CHECK(vw_attr_after(dom, anchor, "data-issued", v, sizeof v) == 0 &&
                  strtoull(v, NULL, 10) == want, "run %d block %d issued %s want %llu", index, b, v,
              (unsigned long long)want);
    }
}

static void test_pair_in_browser(void)
{
    const char *db = OUT "/viewer_browser.db";
    remove(db);
    ws_error err;
    ws_store *st = NULL;
    CHECK(ws_store_open(db, &st, &err) == WS_OK, "open db: %s", err.msg);
    if (!st) return;
    ws_result a, b;
    vw_fixture_build(&a, 0, 1);
    vw_fixture_build(&b, 4, 1);
    int64_t ids[2] = {0, 0};
    CHECK(ws_store_save_result(st, &a, &ids[0], &err) == WS_OK, "save a: %s", err.msg);
    CHECK(ws_store_save_result(st, &b, &ids[1], &err) == WS_OK, "save b: %s", err.msg);
    ws_result_free(&a);
    ws_result_free(&b);
    ws_result la, lb;
    ws_result_init(&la);
    ws_result_init(&lb);
    CHECK(ws_store_load_result(st, ids[0], &la, &err) == WS_OK, "load a: %s", err.msg);
    CHECK(ws_store_load_result(st, ids[1], &lb, &err) == WS_OK, "load b: %s", err.msg);
    ws_store_close(st);
    const ws_result *runs[2] = {&la, &lb};
    const char *page = OUT "/map_pair.html", *png = OUT "/map_pair.png";
    CHECK(write_page(page, runs, 2, ids, db) == 0, "write pair page");
    char *dom = NULL, *console = NULL;
    remove(png);
    browse(page, png, &dom, &console);
    CHECK(dom && strstr(dom, "data-ready=\"1\""), "page scripts ran");
    CHECK(dom && strstr(dom, "data-js-errors=\"0\""), "no uncaught errors in the page");
    CHECK(console && !*console, "no console output: [%s]", console ? console : "");
    CHECK(dom && vw_count(dom, "<svg class=\"cfg\"") == 2, "two CFG SVGs");
    CHECK(dom && vw_count(dom, "<g class=\"node") == la.nblocks + lb.nblocks, "nodes: %d",
          dom ? vw_count(dom, "<g class=\"node") : -1);
    CHECK(dom && strstr(dom, "<table class=\"src cmp\">"), "side-by-side table");
    if (dom) {
        check_run_numbers(dom, &la, 0);
        check_run_numbers(dom, &lb, 1);
    }
    struct stat sb;
    CHECK(stat(png, &sb) == 0 && sb.st_size > 20000, "screenshot %s written", png);
    free(dom);
    free(console);
    /* one run alone, also screenshotted */
    page = OUT "/map_single.html";
    png = OUT "/map_single.png";
    CHECK(write_page(page, runs, 1, ids, db) == 0, "write single page");
    browse(page, png, &dom, &console);
    CHECK(dom && strstr(dom, "data-js-errors=\"0\"") && console && !*console, "single: no errors");
    CHECK(dom && vw_count(dom, "<svg class=\"cfg\"") == 1 && vw_count(dom, "<figure class=\"timeline\"") == la.ntimelines,
          "single: CFG and timelines");
    if (dom) check_run_numbers(dom, &la, 0);
    free(dom);
    free(console);
    ws_result_free(&la);
    ws_result_free(&lb);
}

/* The real thing: the simulator runs the branch-unification pair (small constants), the
 * runs land in the database, `warpscope map` draws them, Chromium loads the page. */
static void test_simulated_pair(void)
{
    const char *db = OUT "/viewer_sim.db", *page = OUT "/map_branch_unification.html";
    remove(db);
    remove(page);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s/warpscope sim branch_unification -D DPT=4 -D BLOCKS=4 "
             "-D LOOP=8 --quiet --db %s > %s/sim.out 2>&1", WS_BINARY_DIR, db, OUT);
    CHECK(system(cmd) == 0, "warpscope sim (see %s/sim.out)", OUT);
    ws_store *st = NULL;
    ws_error err;
    ws_run_row *rows = NULL;
    int n = 0;
    CHECK(ws_store_open(db, &st, &err) == WS_OK && ws_store_list_runs(st, &rows, &n, &err) == WS_OK,
          "list runs: %s", err.msg);
    CHECK(n == 2, "two runs stored: %d", n);
    if (n != 2) { free(rows); if (st) ws_store_close(st); return; }
    ws_result r[2];
    for (int i = 0; i < 2; i++) {
        ws_result_init(&r[i]);
        CHECK(ws_store_load_result(st, rows[i].id, &r[i], &err) == WS_OK, "load: %s", err.msg);
    }
    ws_store_close(st);
    snprintf(cmd, sizeof cmd, "%s/warpscope map --db %s %lld %lld -o %s > /dev/null", WS_BINARY_DIR,
             db, (long long)rows[0].id, (long long)rows[1].id, page);
    CHECK(system(cmd) == 0, "warpscope map");
    char *dom = NULL, *console = NULL;
    browse(page, OUT "/map_branch_unification.png", &dom, &console);
    CHECK(dom && strstr(dom, "data-js-errors=\"0\"") && strstr(dom, "data-ready=\"1\""), "sim page ran clean");
    CHECK(console && !*console, "sim page: no console output: [%s]", console ? console : "");
    CHECK(dom && vw_count(dom, "<g class=\"node") == r[0].nblocks + r[1].nblocks && r[0].nblocks > 2,
          "sim page: a node per block (%d + %d)", r[0].nblocks, r[1].nblocks);
    CHECK(dom && vw_count(dom, "<figure class=\"timeline\"") >= 2, "sim page: timelines");
    if (dom) {
        check_run_numbers(dom, &r[0], 0);
        check_run_numbers(dom, &r[1], 1);
    }
    free(dom);
    free(console);
    free(rows);
    ws_result_free(&r[0]);
    ws_result_free(&r[1]);
}

int main(void)
{
    if (!find_chromium()) {
        printf("skipped: chromium not installed\n");
        return 0;
    }
    mkdir(WS_BINARY_DIR "/tests", 0777);
    mkdir(OUT, 0777);
    test_detects_errors();
    test_pair_in_browser();
    test_simulated_pair();
    return ws_test_finish("viewer_browser");
}
