/* test_viewer_html.c — the HTML writer and the terminal view on hand-built results: page
 * structure (one SVG node per block, colour per rate bucket, numbers equal to the
 * result's, regions, timelines, side-by-side table), error paths, plain terminal output. */
#include <stdlib.h>
#include <string.h>
#include "tests/check.h"
#include "tests/viewer/vw_fixture.h"
#include "viewer/viewer.h"

static char *render(const ws_result *const *runs, int n, const ws_viewer_options *o, int term,
                    int *rc, ws_error *err)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ws_error_clear(err);
    *rc = term ? ws_viewer_write_term(runs, n, f, o, err) : ws_viewer_write_html(runs, n, f, o, err);
    fclose(f);
    return buf;
}

static void test_buckets(void)
{
    CHECK(ws_viewer_rate_bucket(0.0) == 0, "0%%");
    CHECK(ws_viewer_rate_bucket(0.124) == 0, "12.4%%");
    CHECK(ws_viewer_rate_bucket(0.125) == 1, "12.5%%");
    CHECK(ws_viewer_rate_bucket(0.5) == 4, "50%%");
    CHECK(ws_viewer_rate_bucket(31.0 / 32) == 7, "31 lanes");
    CHECK(ws_viewer_rate_bucket(1.0) == 8, "32 lanes");
    for (int b = 1; b < WS_VIEWER_RATE_BUCKETS; b++)
        CHECK(strcmp(ws_viewer_rate_color(b), ws_viewer_rate_color(b - 1)) != 0, "bucket %d", b);
}

/* Expected block figures, summed here from the fixture's instructions. */
static void block_expect(const ws_result *r, int block, uint64_t *issued, uint64_t *active,
                         uint64_t *div)
{
    *issued = *active = *div = 0;
    for (int i = 0; i < r->ninsts; i++)
        if (r->insts[i].block == block) {
            *issued += r->insts[i].issued;
            *active += r->insts[i].active_threads;
            *div += r->insts[i].divergent_branches;
        }
}

static void test_cfg(const char *html, const ws_result *r)
{
    CHECK(vw_count(html, "<svg class=\"cfg\"") == 1, "one CFG svg");
    CHECK(vw_count(html, "<g class=\"node") == r->nblocks, "one node per block: %d",
          vw_count(html, "<g class=\"node"));
    CHECK(vw_count(html, "<g class=\"edge\">") == 4, "four edges");
    for (int b = 0; b < r->nblocks; b++) {
        char anchor[32], v[64];
        snprintf(anchor, sizeof anchor, "id=\"r0-n%d\"", b);
        uint64_t iss, act, div;
        block_expect(r, r->blocks[b].id, &iss, &act, &div);
        double rate = (double)act / (32.0 * (double)iss);
        int bucket = rate >= 1.0 ? 8 : (int)(rate * 8);
        CHECK(vw_attr_after(html, anchor, "data-issued", v, sizeof v) == 0 &&
                  strtoull(v, NULL, 10) == iss, "block %d issued %s", b, v);
        CHECK(vw_attr_after(html, anchor, "data-divergent", v, sizeof v) == 0 &&
                  strtoull(v, NULL, 10) == div, "block %d divergent %s", b, v);
        CHECK(vw_attr_after(html, anchor, "data-bucket", v, sizeof v) == 0 && atoi(v) == bucket,
              "block %d bucket %s want %d", b, v, bucket);
        /* the fill is the legend's swatch of that bucket */
        char legend[64], fill[32], sw[32];
        snprintf(legend, sizeof legend, "<span data-bucket=\"%d\">", bucket);
        const char *node = strstr(html, anchor);
        CHECK(node && vw_attr_after(node, "<rect", "fill", fill, sizeof fill) == 0, "rect of %d", b);
        const char *lp = strstr(html, legend);
        CHECK(lp && sscanf(strstr(lp, "background:") + 11, "%7s", sw) == 1 && !strcmp(sw, fill),
              "block %d fill %s legend %s", b, fill, sw);
    }
    CHECK(vw_count(html, "class=\"node divergent\"") == 1, "one divergent block");
    CHECK(strstr(html, "stroke-dasharray") != NULL, "dashed border");
}

static void test_key_figures(const char *html, const ws_result *r)
{
    char v[64];
    const ws_metric *m = ws_result_metric(r, "smsp__thread_inst_executed_per_inst_executed.ratio");
    const ws_metric *s = ws_result_metric(r, "sim__execution_rate");
    double want = s ? s->value : m->value / 32.0;
    CHECK(vw_attr_after(html, "data-key=\"execution_rate\"><span", "data-v", v, sizeof v) == 0 &&
              (atof(v) - want) < 1e-6 && (want - atof(v)) < 1e-6,
          "execution rate %s want %f", v, want);
    uint64_t issued = 0, div = 0;
    /* each divergent execution is one divergent target (CUPTI's count) */
    for (int i = 0; i < r->ninsts; i++) { issued += r->insts[i].issued; div += r->insts[i].divergent_branches; }
    CHECK(vw_attr_after(html, "data-key=\"issued\"><span", "data-v", v, sizeof v) == 0 &&
              strtoull(v, NULL, 10) == issued, "issued %s", v);
    CHECK(vw_attr_after(html, "data-key=\"divergent\"><span", "data-v", v, sizeof v) == 0 &&
              strtoull(v, NULL, 10) == div, "divergent %s", v);
    CHECK(strstr(html, "race: lost update at line 10") != NULL, "warning shown");
    const char *reg = strstr(html, "<tr data-region=\"1\">");
    CHECK(reg && vw_attr_after(reg, "<td class=\"rate\"", "style", v, sizeof v) == 0 &&
              vw_attr_after(strstr(reg, "<td class=\"rate\""), "<span", "data-v", v, sizeof v) == 0 &&
              atof(v) > r->regions[1].execution_rate - 1e-6 && atof(v) < r->regions[1].execution_rate + 1e-6,
          "region branch rate %s want %f", v, r->regions[1].execution_rate);
    CHECK(strstr(html, "grid (2, 1, 1) &times; block (128, 1, 1)") != NULL, "launch");
    CHECK(strstr(html, "a &lt; b &amp;&amp; c &gt; d") != NULL, "source escaped");
    CHECK(strstr(html, "a < b") == NULL, "no raw source markup");
    CHECK(strstr(html, "http://") == NULL || vw_count(html, "http://") == vw_count(html, "xmlns=\"http://www.w3.org/2000/svg\""),
          "no network references");
}

static void test_source_table(const char *html, const ws_result *r)
{
    /* line 6: the then-side; its rate and issued come from the fixture's instructions */
    uint64_t iss = 0, act = 0;
    for (int i = 0; i < r->ninsts; i++)
        if (r->insts[i].line == 6) { iss += r->insts[i].issued; act += r->insts[i].active_threads; }
    const char *row = strstr(html, "<tr data-line=\"6\" class=\"hot\">");
    CHECK(row != NULL, "line 6 row");
    char want[32], v[64];
    snprintf(want, sizeof want, "%.1f%%</span>", 100.0 * act / (32.0 * iss));
    CHECK(row && strstr(row, want) && strstr(row, want) < strstr(row, "</tr>"), "line 6 rate %s", want);
    CHECK(row && vw_attr_after(row, "<td class=\"iss\"><span class=\"bar\"", "style", v, sizeof v) == 0, "bar");
    const char *plain = strstr(html, "<tr data-line=\"7\">");
    CHECK(plain && strstr(plain, "class=\"num") > strstr(plain, "</tr>"), "line 7 plain");
    CHECK(strstr(html, "title=\"region branch\"") != NULL, "region margin");
    /* pred-off of line 5: active - pred_on of the branch */
    const char *l5 = strstr(html, "<tr data-line=\"5\"");
    CHECK(l5 && vw_attr_after(l5, "<td class=\"poff\"><span", "data-v", v, sizeof v) == 0 &&
              strtoull(v, NULL, 10) == 56, "line 5 pred-off %s", v);
}

static void test_timeline(const ws_result *r)
{
    ws_viewer_options o;
    ws_viewer_options_default(&o);
    int rc;
    ws_error err;
    const ws_result *runs[1] = {r};
    char *html = render(runs, 1, &o, 0, &rc, &err);
    CHECK(rc == 0, "render");
    CHECK(strstr(html, "data-slots=\"11\" data-bin=\"1\"") != NULL, "timeline unbinned");
    uint64_t lanes = 0;
    for (int s = 0; s < r->timelines[0].nslots; s++) lanes += (uint64_t)__builtin_popcount(r->timelines[0].slots[s].active);
    char want[64];
    snprintf(want, sizeof want, "data-active-lanes=\"%llu\"", (unsigned long long)lanes);
    CHECK(strstr(html, want) != NULL, "timeline lanes %s", want);
    CHECK(strstr(html, "url(#r0-t0-h1)") != NULL, "predicated-off lanes hatched (branch region)");
    CHECK(strstr(html, ">settlement (lines 10-11)</span>") != NULL, "region legend");
    free(html);
    /* a long timeline is binned and says so */
    ws_result big;
    vw_fixture_build(&big, 0, 1);
    ws_timeline *t = &big.timelines[0];
    t->slots = realloc(t->slots, 1000 * sizeof *t->slots);
    for (int s = 11; s < 1000; s++) t->slots[s] = t->slots[s % 11];
    t->nslots = 1000;
    o.timeline_columns = 100;
    runs[0] = &big;
    html = render(runs, 1, &o, 0, &rc, &err);
    CHECK(rc == 0 && strstr(html, "data-bin=\"10\"") && strstr(html, "Binned: each column is 10"),
          "binned timeline");
    free(html);
    o.timeline = 3;
    html = render(runs, 1, &o, 0, &rc, &err);
    CHECK(rc == WS_ERR_USAGE && strstr(err.msg, "warp index 3 is out of range"), "bad warp: %s", err.msg);
    free(html);
    ws_result_free(&big);
}

static void test_pair(const ws_result *a, const ws_result *b)
{
    const ws_result *runs[2] = {a, b};
    int64_t ids[2] = {7, 9};
    ws_viewer_options o;
    ws_viewer_options_default(&o);
    o.run_ids = ids;
    int rc;
    ws_error err;
    char *html = render(runs, 2, &o, 0, &rc, &err);
    CHECK(rc == 0, "pair render");
    CHECK(vw_count(html, "<table class=\"src cmp\">") == 1, "one side-by-side table");
    CHECK(vw_count(html, "<svg class=\"cfg\"") == 2, "two CFGs");
    CHECK(strstr(html, "run 7 and run 9, side by side") != NULL, "pair heading");
    char v[64];
    long long da = 0, db = 0;
    for (int i = 0; i < a->ninsts; i++) da += (long long)a->insts[i].divergent_branches;
    for (int i = 0; i < b->ninsts; i++) db += (long long)b->insts[i].divergent_branches;
    const char *chg = strstr(html, "<tr data-key=\"divergent\">");
    CHECK(chg && vw_attr_after(chg, "</td><td data-v", "data-v", v, sizeof v) == 0 && atoll(v) == db - da,
          "summary divergent change %s want %lld", v, db - da);
    /* line 6: delta of issued is b - a */
    const char *row = strstr(strstr(html, "table class=\"src cmp\""), "<tr data-line=\"6\"");
    CHECK(row && vw_attr_after(row, "<td class=\"diss\"", "data-v", v, sizeof v) == 0 && atoll(v) == 0,
          "line 6 issued delta %s", v);
    CHECK(row && vw_attr_after(row, "<td class=\"drate", "data-v", v, sizeof v) == 0 && atof(v) > 0,
          "line 6 rate went up: %s", v);
    free(html);
    /* different source text: one after the other, per-file tables */
    ws_result c;
    vw_fixture_build(&c, 0, 1);
    free(c.files[0].text);
    c.files[0].text = strdup("// another kernel\n__global__ void k() {}\n");
    runs[1] = &c;
    html = render(runs, 2, &o, 0, &rc, &err);
    CHECK(rc == 0 && vw_count(html, "<table class=\"src cmp\">") == 0 &&
              vw_count(html, "<table class=\"src\"") == 2, "different sources shown apart");
    free(html);
    ws_result_free(&c);
}

static void test_missing_text(void)
{
    ws_result r;
    vw_fixture_build(&r, 0, 0);
    char path[256] = "";
    CHECK(ws_viewer_missing_source(&r, path, sizeof path) == 1 && !strcmp(path, "/src/fixture_branch.cu"),
          "missing source named: %s", path);
    const ws_result *runs[1] = {&r};
    int rc;
    ws_error err;
    char *html = render(runs, 1, NULL, 0, &rc, &err);
    CHECK(rc == 0 && strstr(html, "source text of this file is not in the result"), "says so");
    int lines = 0;
    for (int l = 1; l < 100; l++) {
        int has = 0;
        for (int i = 0; i < r.ninsts; i++) has |= r.insts[i].line == l;
        lines += has;
    }
    CHECK(html && vw_count(html, "<tr data-line=") == lines, "only counted lines: %d of %d",
          vw_count(html, "<tr data-line="), lines);
    CHECK(html && vw_count(html, "<g class=\"node") == 4, "CFG still drawn");
    free(html);
    ws_result_free(&r);
}

/* A GPU measurement: per-instruction counts with lines, no blocks, no timelines. */
static void test_gpu_like(void)
{
    ws_result r;
    vw_fixture_build(&r, 0, 1);
    snprintf(r.source, sizeof r.source, "gpu:NVIDIA H100 80GB HBM3");
    r.nblocks = 0;
    for (int i = 0; i < r.ntimelines; i++) free(r.timelines[i].slots);
    r.ntimelines = 0;
    ws_result_set_metric(&r, "gpu__time_duration.sum", 12345.0);
    const ws_result *runs[1] = {&r};
    int rc;
    ws_error err;
    char *html = render(runs, 1, NULL, 0, &rc, &err);
    CHECK(rc == 0, "gpu render");
    CHECK(strstr(html, "measured on GPU NVIDIA H100 80GB HBM3") != NULL, "device named");
    CHECK(strstr(html, "no control-flow graph to draw") && !strstr(html, "<svg class=\"cfg\""), "no CFG, said so");
    CHECK(strstr(html, "No warp timeline is recorded") != NULL, "no timeline, said so");
    CHECK(strstr(html, "data-v=\"12345.000\">0.012 ms</span> (measured kernel time)") != NULL, "time");
    CHECK(vw_count(html, "<tr data-line=") == 12, "source table still there");
    free(html);
    ws_result_free(&r);
}

static void test_term(const ws_result *r)
{
    const ws_result *runs[1] = {r};
    ws_viewer_options o;
    ws_viewer_options_default(&o);
    int rc;
    ws_error err;
    char *txt = render(runs, 1, &o, 1, &rc, &err);
    CHECK(rc == 0, "term");
    CHECK(strchr(txt, '\033') == NULL, "plain: no escape codes");
    const char *l6 = strstr(txt, "\n    6  ");
    CHECK(l6 && strstr(l6, "50.0%") && strstr(l6, "acc = v * 3;") &&
              strstr(l6, "acc = v * 3;") < strchr(l6 + 1, '\n'), "line 6 row");
    CHECK(strstr(txt, "\n    7  ") && strstr(txt, "} else {"), "plain line");
    free(txt);
    o.color = 1;
    txt = render(runs, 1, &o, 1, &rc, &err);
    CHECK(rc == 0 && strstr(txt, "\033[38;5;") != NULL, "colour when asked");
    free(txt);
}

static void test_errors(const ws_result *r)
{
    const ws_result *runs[1] = {r};
    ws_error err;
    FILE *full = fopen("/dev/full", "w");
    CHECK(full != NULL, "/dev/full");
    if (full) {
        int rc = ws_viewer_write_html(runs, 1, full, NULL, &err);
        CHECK(rc == WS_ERR_IO && strstr(err.msg, "writing the page failed"), "io: %d %s", rc, err.msg);
        fclose(full);
    }
    int rc;
    char *html = render(runs, 0, NULL, 0, &rc, &err);
    CHECK(rc == WS_ERR_USAGE && !strcmp(err.msg, "no run to draw"), "no runs: %s", err.msg);
    free(html);
}

int main(void)
{
    ws_result a, b;
    vw_fixture_build(&a, 0, 1);
    vw_fixture_build(&b, 4, 1);
    test_buckets();
    const ws_result *runs[1] = {&a};
    int rc;
    ws_error err;
    char *html = render(runs, 1, NULL, 0, &rc, &err);
    CHECK(rc == 0, "render: %s", err.msg);
    if (html) {
        test_cfg(html, &a);
        test_key_figures(html, &a);
        test_source_table(html, &a);
    }
    free(html);
    test_timeline(&a);
    test_pair(&a, &b);
    test_missing_text();
    test_gpu_like();
    test_term(&a);
    test_errors(&a);
    ws_result_free(&a);
    ws_result_free(&b);
    return ws_test_finish("viewer_html");
}
