/* vw_html.c — the self-contained divergence-map page: header with the key figures in
 * words, how-to-read and legend, per-run CFG (vw_cfg.c), source heat tables (one run, or
 * two side by side with the difference), lane timelines (vw_timeline.c), atomics and
 * metrics. Inline CSS and a few lines of JS; nothing is fetched from the network. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "viewer/vw_internal.h"

static const char page_css[] =
    "body{font:14px/1.4 system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;"
    "color:#111;margin:0 auto;padding:12px 20px;max-width:1260px;background:#fff}"
    "h1{font-size:22px;margin:4px 0}h2{font-size:18px;margin:18px 0 6px;border-bottom:2px solid #333}"
    "h3{font-size:15px;margin:14px 0 4px}.note{background:#fff6d5;border-left:4px solid #c90;"
    "padding:4px 8px}.howto{background:#f4f6f8;padding:6px 12px;border-radius:4px}"
    ".howto p{margin:4px 0}dl.key{display:grid;grid-template-columns:max-content 1fr;"
    "gap:2px 12px;margin:6px 0}dl.key dt{font-weight:600;color:#333}dl.key dd{margin:0}"
    ".pair{display:grid;grid-template-columns:1fr 1fr;gap:16px}.pair>div{min-width:0}"
    ".cfgbox{overflow:auto;max-height:1400px;border:1px solid #ddd;padding:4px;background:#fcfcfc}"
    "svg.cfg{display:block}svg text{font:11px Helvetica,Arial,sans-serif;"
    "text-anchor:middle}svg text.lane{text-anchor:end;font-size:9px}svg text.tick{"
    "text-anchor:start;font-size:9px}svg text.tick.end{text-anchor:end}svg .elabel{font-size:10px;fill:#333;text-anchor:start}"
    "svg g.node{cursor:pointer}svg g.node.sel rect{stroke:#000;stroke-width:4}"
    "table{border-collapse:collapse;font-size:12px}td,th{padding:1px 6px;"
    "border-bottom:1px solid #eee;text-align:right;white-space:nowrap}th{background:#eee;"
    "position:sticky;top:0}td.code{text-align:left;font:12px/1.3 ui-monospace,Menlo,Consolas,"
    "monospace;white-space:pre-wrap;overflow-wrap:anywhere;min-width:300px}td.ln{color:#666}td.reg{width:6px;padding:0}"
    "tr.sel td{outline:2px solid #000}td.zero{color:#999}"
    ".bar{display:inline-block;height:8px;background:#5b7fa6;margin-right:4px;vertical-align:middle}"
    ".swatch{display:inline-block;width:22px;height:12px;border:1px solid #888;"
    "vertical-align:middle;margin-right:3px}.scale span{margin-right:10px;white-space:nowrap}"
    ".tl-legend span{margin-right:12px;white-space:nowrap;font-size:12px}.tl-legend i{"
    "display:inline-block;width:14px;height:10px;border:1px solid #888;margin-right:3px;"
    "vertical-align:middle}.tl-legend i.hatch{background:repeating-linear-gradient(45deg,"
    "#fff 0 2px,#888 2px 4px)}figure.timeline{margin:8px 0 16px}figcaption{font-size:13px}"
    ".warn{color:#a00;font-weight:600}.pos{color:#05620a}.neg{color:#a00}"
    ".src-wrap{max-height:none}";

/* Runs before any other script so the headless test sees every uncaught error. */
static const char head_js[] =
    "window.__wsErrors=[];window.addEventListener('error',function(e){"
    "window.__wsErrors.push(String(e.message));});";

static const char tail_js[] =
    "(function(){\n"
    "function rows(art){return art?art.querySelectorAll('table.src tr[data-line]'):[];}\n"
    "document.querySelectorAll('svg.cfg g.node').forEach(function(n){\n"
    " n.addEventListener('click',function(){\n"
    "  var art=n.closest('article');var lr=n.getAttribute('data-lines').split('-');\n"
    "  var a=+lr[0],b=+lr[1];var on=!n.classList.contains('sel');\n"
    "  art.querySelectorAll('g.node.sel,tr.sel').forEach(function(x){x.classList.remove('sel');});\n"
    "  if(!on||!a)return;n.classList.add('sel');\n"
    "  rows(art).forEach(function(r){var l=+r.getAttribute('data-line');\n"
    "   if(l>=a&&l<=b)r.classList.add('sel');});\n"
    " });\n"
    "});\n"
    "function done(){document.body.setAttribute('data-js-errors',String(window.__wsErrors.length));\n"
    " document.body.setAttribute('data-ready','1');}\n"
    "done();window.addEventListener('load',done);\n"
    "})();\n";

/* ---------------------------------------------------------------- key figures */

static const ws_metric *metric(const vw_run *v, const char *name)
{
    return ws_result_metric(v->r, name);
}

static void dd_open(FILE *f, const char *dt, const char *key)
{
    fprintf(f, "<dt>%s</dt><dd data-key=\"%s\">", dt, key);
}

static void describe_source(FILE *f, const ws_result *r)
{
    if (!strncmp(r->source, "sim:", 4)) {
        fputs("simulator, ", f);
        if (!strcmp(r->source + 4, "sass"))
            fputs("SASS model (the cubin ptxas made, Volta+ convergence barriers)", f);
        else {
            vw_esc(f, r->source + 4);
            fputs(" reconvergence model", f);
        }
    } else if (!strncmp(r->source, "gpu:", 4)) {
        fputs("measured on GPU ", f);
        vw_esc(f, r->source + 4);
    } else {
        vw_esc(f, r->source);
    }
}

static void write_launch(FILE *f, const ws_result *r)
{
    uint64_t threads = (uint64_t)r->grid[0] * r->grid[1] * r->grid[2] * r->block[0] *
                       r->block[1] * r->block[2];
    dd_open(f, "Launch", "launch");
    fprintf(f, "grid (%u, %u, %u) &times; block (%u, %u, %u) = ", r->grid[0], r->grid[1],
            r->grid[2], r->block[0], r->block[1], r->block[2]);
    vw_num(f, threads);
    fputs(" threads</dd>\n", f);
}

static void write_rates(FILE *f, const vw_run *v)
{
    int from_metric = 0;
    double rate = vw_exec_rate(v, &from_metric);
    dd_open(f, "Execution rate", "execution_rate");
    vw_pct(f, rate);
    fprintf(f, " of 32 lanes active per issued warp-instruction%s</dd>\n",
            from_metric ? "" : " (from the instruction counts)");
    const ws_metric *be = metric(v, WS_M(BRANCH_UNIFORM_PCT));
    dd_open(f, "Branch efficiency", "branch_efficiency");
    if (be)
        fprintf(f, "<span class=\"num\" data-v=\"%.6f\">%.1f%%</span> of branch executions "
                   "uniform across the warp</dd>\n", be->value, be->value);
    else
        fputs("not recorded for this run</dd>\n", f);
}

/* The headline counts: the stored kernel metric where there is one, else instruction sums. */
typedef struct vw_keys {
    double rate;
    uint64_t issued, divergent, pred_off;
    double time_ns; /* -1 when absent */
    const char *time_what;
} vw_keys;

static void key_values(const vw_run *v, vw_keys *k)
{
    int from_metric;
    k->rate = vw_exec_rate(v, &from_metric);
    const ws_metric *m = metric(v, WS_M(INST_EXECUTED));
    k->issued = m ? (uint64_t)m->value : v->total.issued;
    m = metric(v, WS_M(BRANCH_TARGETS_DIVERGENT));
    k->divergent = m ? (uint64_t)m->value : v->total.divergent;
    const ws_metric *act = metric(v, WS_M(THREAD_INST_EXECUTED));
    const ws_metric *pon = metric(v, WS_M(THREAD_INST_PRED_ON));
    k->pred_off = act && pon && act->value >= pon->value ? (uint64_t)(act->value - pon->value)
                                                         : vw_pred_off(&v->total);
    const ws_metric *t = metric(v, WS_M(GPU_TIME_NS));
    k->time_what = "measured kernel time";
    if (!t) { t = metric(v, WS_M(SIM_TIME_NS)); k->time_what = "timing-model estimate"; }
    k->time_ns = t ? t->value : -1;
}

static void write_counts(FILE *f, const vw_run *v)
{
    vw_keys k;
    key_values(v, &k);
    dd_open(f, "Warp-instructions issued", "issued");
    vw_num(f, k.issued);
    fputs("</dd>\n", f);
    dd_open(f, "Divergent branch targets", "divergent");
    vw_num(f, k.divergent);
    fprintf(f, " branch executions that split the warp (one each, as CUPTI counts them on"
            " the H100; Nsight Compute's %s)</dd>\n", WS_M(BRANCH_TARGETS_DIVERGENT));
    dd_open(f, "Predicated-off lanes", "pred_off");
    vw_num(f, k.pred_off);
    fputs(" thread-instructions active but with a false guard predicate</dd>\n", f);
    if (k.time_ns >= 0) {
        dd_open(f, "Time", "time_ns");
        fprintf(f, "<span class=\"num\" data-v=\"%.3f\">%.3f ms</span> (%s)</dd>\n", k.time_ns,
                k.time_ns / 1e6, k.time_what);
    }
}

static void write_atomics_summary(FILE *f, const ws_result *r)
{
    uint64_t execs = 0, lanes = 0;
    for (int i = 0; i < r->natomics; i++) {
        execs += r->atomics[i].warp_execs;
        lanes += r->atomics[i].lanes;
    }
    dd_open(f, "Atomics", "atomics");
    if (!r->natomics) { fputs("none</dd>\n", f); return; }
    fprintf(f, "%d atomic instruction%s, ", r->natomics, r->natomics == 1 ? "" : "s");
    vw_num(f, execs);
    fputs(" warp-level executions, ", f);
    vw_num(f, lanes);
    fputs(" lanes</dd>\n", f);
}

static void write_time_and_checks(FILE *f, const ws_result *r)
{
    dd_open(f, "Outputs", "outputs");
    if (!r->outputs_checked)
        fputs("not checked", f);
    else
        fputs(r->outputs_match ? "match the reference" : "<span class=\"warn\">DIFFER</span>", f);
    if (r->check_message[0]) { fputs(" &mdash; ", f); vw_esc(f, r->check_message); }
    fputs("</dd>\n", f);
    dd_open(f, "Warnings", "warnings");
    if (!r->nwarnings) fputs("none", f);
    for (int i = 0; i < r->nwarnings; i++) {
        fputs("<div class=\"warn\">", f);
        vw_esc(f, r->warnings[i]);
        fputs("</div>", f);
    }
    fputs("</dd>\n", f);
}

static void write_key_figures(FILE *f, const vw_run *v)
{
    const ws_result *r = v->r;
    fprintf(f, "<h3>%s: ", v->label);
    vw_esc(f, r->workload);
    fputs(" / ", f);
    vw_esc(f, r->variant);
    fputs("</h3>\n<dl class=\"key\">\n", f);
    dd_open(f, "Kernel", "kernel");
    vw_esc(f, r->kernel);
    fputs("</dd>\n", f);
    dd_open(f, "Measured by", "source");
    describe_source(f, r);
    fputs("</dd>\n", f);
    write_launch(f, r);
    if (r->params[0]) {
        dd_open(f, "Parameters", "params");
        vw_esc(f, r->params);
        fprintf(f, ", input seed %" PRIu64 "</dd>\n", r->seed);
    }
    write_rates(f, v);
    write_counts(f, v);
    write_atomics_summary(f, r);
    write_time_and_checks(f, r);
    fputs("</dl>\n", f);
}

/* ---------------------------------------------------------------- how to read, legend */

static void write_scale_legend(FILE *f)
{
    fputs("<p class=\"scale\"><b>Execution rate colours</b> (share of the warp's 32 lanes "
          "active, ColorBrewer RdYlBu, red = few lanes, blue = all): ", f);
    for (int b = 0; b < WS_VIEWER_RATE_BUCKETS; b++) {
        fprintf(f, "<span data-bucket=\"%d\"><i class=\"swatch\" style=\"background:%s\"></i>",
                b, ws_viewer_rate_color(b));
        if (b < WS_VIEWER_RATE_BUCKETS - 1)
            fprintf(f, "%d&ndash;%d lanes (%.1f&ndash;%.1f%%)</span>", b * 4,
                    b * 4 + 3 + (b == 7), b * 12.5, b * 12.5 + 12.5 - (b == 7 ? 0.1 : 0));
        else
            fputs("all 32 lanes (100%)</span>", f);
    }
    fputs("<span><i class=\"swatch\" style=\"background:#eee\"></i>not executed</span></p>\n", f);
}

static void write_howto(FILE *f)
{
    fputs("<section class=\"howto\"><h2>How to read this page</h2>\n"
          "<p>A GPU runs threads in <b>warps of 32 lanes</b> that issue one instruction at a "
          "time. When lanes of a warp take different sides of a branch, the warp runs each side "
          "with the other lanes idle (<b>branch divergence</b>). The <b>execution rate</b> is "
          "the share of the 32 lanes doing useful work per issued warp-instruction: active "
          "thread-instructions / (32 &times; warp-instructions issued).</p>\n"
          "<p><b>Control-flow graph</b> (a divergence map after Coutinho et al.): one box per "
          "basic block, laid out by Graphviz; fill = execution rate of the block; bigger box = "
          "more warp-instructions issued; a <b>thick dashed border</b> marks a block ending in a "
          "branch that split warps, with the count. Edge labels give how many times warps "
          "entered the target block where it has a single predecessor (other edges' counts are "
          "not separable and are left blank). Click a block to mark its source lines.</p>\n"
          "<p><b>Source heat table</b>: per source line, the execution rate (coloured as in the "
          "graph), warp-instructions issued (bar = share of the busiest line), divergent "
          "branches, and predicated-off lanes (active lanes whose guard predicate was false: "
          "they still cost the issue slot). Lines without instructions are plain. The narrow "
          "coloured margin marks the workload's named regions. With two runs on the same "
          "source, the columns sit side by side and &Delta; is the second minus the first.</p>\n"
          "<p><b>Lane timeline</b> (like Kato et al. Figs. 2, 3, 7, 8): one recorded warp, lanes "
          "down, issue slots across; a cell is coloured by the region of the instruction issued "
          "in that slot, white where the lane was idle, hatched where it was active but "
          "predicated off.</p>\n", f);
    write_scale_legend(f);
    fputs("</section>\n", f);
}

/* ---------------------------------------------------------------- source tables */

static void heat_cell(FILE *f, const vw_counts *c)
{
    double rate = vw_rate(c);
    if (rate < 0) { fputs("<td class=\"rate\"></td>", f); return; }
    int b = ws_viewer_rate_bucket(rate);
    fprintf(f, "<td class=\"rate b%d\" style=\"background:%s;color:%s\">", b,
            ws_viewer_rate_color(b), vw_rate_text_color(b));
    vw_pct(f, rate);
    fputs("</td>", f);
}

static void count_cells(FILE *f, const vw_counts *c, uint64_t max_issued)
{
    if (!c->ninsts) { fputs("<td></td><td></td><td></td>", f); return; }
    int w = max_issued ? (int)(60.0 * (double)c->issued / (double)max_issued + 0.5) : 0;
    fprintf(f, "<td class=\"iss\"><span class=\"bar\" style=\"width:%dpx\"></span>", w);
    vw_num(f, c->issued);
    fprintf(f, "</td><td class=\"div%s\">", c->divergent ? "" : " zero");
    vw_num(f, c->divergent);
    fprintf(f, "</td><td class=\"poff%s\">", vw_pred_off(c) ? "" : " zero");
    vw_num(f, vw_pred_off(c));
    fputs("</td>", f);
}

static void count_cells_run(FILE *f, const vw_counts *c, uint64_t max_issued)
{
    heat_cell(f, c);
    count_cells(f, c, max_issued);
}

static void region_cell(FILE *f, const vw_run *v, int file, int line)
{
    int g = vw_region_of_line(v, file, line);
    if (g < 0) { fputs("<td class=\"reg\"></td>", f); return; }
    fprintf(f, "<td class=\"reg\" style=\"background:%s\" title=\"region ", vw_region_color(g));
    vw_esc(f, v->r->regions[g].name);
    fputs("\"></td>", f);
}

static uint64_t max_line_issued(const vw_file *vf)
{
    uint64_t m = 0;
    for (int l = 1; l <= vf->nlines; l++)
        if (vf->line[l].issued > m) m = vf->line[l].issued;
    return m;
}

static void code_cell(FILE *f, const vw_file *vf, int l)
{
    fputs("<td class=\"code\">", f);
    if (vf->text) vw_esc(f, vf->text[l]);
    fputs("</td>", f);
}

/* Names the colours of the region margin. */
static void region_legend(FILE *f, const vw_run *v)
{
    if (!v->r->nregions) return;
    fputs("<p class=\"tl-legend\">Regions (left margin): ", f);
    for (int g = 0; g < v->r->nregions; g++) {
        fprintf(f, "<span><i style=\"background:%s\"></i>", vw_region_color(g));
        vw_esc(f, v->r->regions[g].name);
        fprintf(f, " (lines %d-%d)</span>", v->r->regions[g].first_line, v->r->regions[g].last_line);
    }
    fputs("where regions nest, the margin shows the innermost.</p>\n", f);
}

static void source_table(FILE *f, const vw_run *v, int fi)
{
    const vw_file *vf = &v->files[fi];
    uint64_t mx = max_line_issued(vf);
    fputs("<h3>Source: <code>", f);
    vw_esc(f, vf->path);
    fputs("</code></h3>\n", f);
    if (fi == v->main_file) region_legend(f, v);
    if (!vf->has_text)
        fputs("<p class=\"note\">The source text of this file is not in the result; only the "
              "lines with instructions are listed, without their text.</p>\n", f);
    fprintf(f, "<table class=\"src\" data-run=\"%s\" data-file=\"%d\"><tr><th></th><th>line</th>"
               "<th>exec. rate</th><th>warp-insts issued</th><th>divergent</th>"
               "<th>pred.-off lanes</th><th style=\"text-align:left\">source</th></tr>\n",
            v->dom_id, fi);
    for (int l = 1; l <= vf->nlines; l++) {
        const vw_counts *c = &vf->line[l];
        if (!vf->has_text && !c->ninsts) continue;
        fprintf(f, "<tr data-line=\"%d\"%s>", l, c->ninsts ? " class=\"hot\"" : "");
        region_cell(f, v, fi, l);
        fprintf(f, "<td class=\"ln\">%d</td>", l);
        count_cells_run(f, c, mx);
        code_cell(f, vf, l);
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

static void source_tables(FILE *f, const vw_run *v)
{
    int shown = 0;
    for (int fi = 0; fi < v->nfiles; fi++) {
        int any = 0;
        for (int l = 1; l <= v->files[fi].nlines && !any; l++) any = v->files[fi].line[l].ninsts;
        if (!any) continue;
        source_table(f, v, fi);
        shown++;
    }
    if (!shown)
        fputs("<p class=\"note\">No instruction of this run maps to a source line, so there is "
              "no source heat table.</p>\n", f);
}

static void delta_cells(FILE *f, const vw_counts *a, const vw_counts *b)
{
    double ra = vw_rate(a), rb = vw_rate(b);
    if (ra >= 0 && rb >= 0) {
        double d = (rb - ra) * 100.0;
        fprintf(f, "<td class=\"drate %s\" data-v=\"%.6f\">%+.1f pp</td>",
                d > 0.05 ? "pos" : (d < -0.05 ? "neg" : ""), rb - ra, d);
    } else {
        fputs("<td class=\"drate\"></td>", f);
    }
    if (a->ninsts || b->ninsts) {
        long long d = (long long)b->issued - (long long)a->issued;
        fprintf(f, "<td class=\"diss\" data-v=\"%lld\">%+lld</td>", d, d);
    } else {
        fputs("<td class=\"diss\"></td>", f);
    }
}

static void compare_table(FILE *f, const vw_run *a, const vw_run *b)
{
    const vw_file *fa = &a->files[a->main_file], *fb = &b->files[b->main_file];
    uint64_t ma = max_line_issued(fa), mb = max_line_issued(fb);
    int n = fa->nlines > fb->nlines ? fa->nlines : fb->nlines;
    fputs("<h3>Source, side by side: <code>", f);
    vw_esc(f, fa->path);
    fputs("</code></h3>\n", f);
    region_legend(f, a);
    fprintf(f, "<table class=\"src cmp\"><tr><th></th><th>line</th>"
               "<th colspan=\"4\">%s</th><th colspan=\"4\">%s</th><th colspan=\"2\">&Delta; "
               "(second &minus; first)</th><th></th></tr>\n"
               "<tr><th></th><th></th><th>rate</th><th>issued</th><th>div.</th><th>pred.-off</th>"
               "<th>rate</th><th>issued</th><th>div.</th><th>pred.-off</th><th>rate</th>"
               "<th>issued</th><th style=\"text-align:left\">source</th></tr>\n",
            a->label, b->label);
    static const vw_counts none;
    for (int l = 1; l <= n; l++) {
        const vw_counts *ca = l <= fa->nlines ? &fa->line[l] : &none;
        const vw_counts *cb = l <= fb->nlines ? &fb->line[l] : &none;
        fprintf(f, "<tr data-line=\"%d\"%s>", l, ca->ninsts || cb->ninsts ? " class=\"hot\"" : "");
        region_cell(f, a, a->main_file, l);
        fprintf(f, "<td class=\"ln\">%d</td>", l);
        count_cells_run(f, ca, ma);
        count_cells_run(f, cb, mb);
        delta_cells(f, ca, cb);
        code_cell(f, l <= fa->nlines && fa->text ? fa : fb, l);
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

/* Two runs can share one table when their main files hold the same text. */
static int same_source(const vw_run *a, const vw_run *b)
{
    if (a->main_file < 0 || b->main_file < 0) return 0;
    const ws_source_file *x = &a->r->files[a->main_file], *y = &b->r->files[b->main_file];
    if (x->text && y->text) return strcmp(x->text, y->text) == 0;
    return !x->text && !y->text && strcmp(x->path, y->path) == 0;
}

/* ---------------------------------------------------------------- atomics, metrics */

static void atomics_table(FILE *f, const ws_result *r)
{
    if (!r->natomics) return;
    fputs("<h3>Atomic instructions</h3>\n<table class=\"atomics\"><tr><th style=\"text-align:left\">instruction</th>"
          "<th>line</th><th>warp executions</th><th>lanes</th><th>mean distinct addresses "
          "per warp execution</th><th style=\"text-align:left\">distinct addresses: warp "
          "executions</th></tr>\n", f);
    for (int i = 0; i < r->natomics; i++) {
        const ws_atomic_stat *a = &r->atomics[i];
        uint64_t sum = 0, n = 0;
        for (int k = 0; k <= 32; k++) { sum += (uint64_t)k * a->distinct_hist[k]; n += a->distinct_hist[k]; }
        fputs("<tr><td class=\"code\">", f);
        vw_esc(f, a->text);
        fprintf(f, "</td><td>%d</td><td>", a->line);
        vw_num(f, a->warp_execs);
        fputs("</td><td>", f);
        vw_num(f, a->lanes);
        fprintf(f, "</td><td>%s%.2f</td><td class=\"code\">", n ? "" : "&ndash;",
                n ? (double)sum / (double)n : 0.0);
        for (int k = 0; k <= 32; k++)
            if (a->distinct_hist[k])
                fprintf(f, "%d: %llu&nbsp; ", k, (unsigned long long)a->distinct_hist[k]);
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n", f);
}

static void metrics_table(FILE *f, const ws_result *r)
{
    fprintf(f, "<details><summary>All %d stored metrics</summary><table class=\"metrics\">"
               "<tr><th style=\"text-align:left\">name</th><th>value</th></tr>\n", r->nmetrics);
    for (int i = 0; i < r->nmetrics; i++) {
        fputs("<tr><td class=\"code\">", f);
        vw_esc(f, r->metrics[i].name);
        fprintf(f, "</td><td class=\"mv\" data-v=\"%.17g\">%.6g</td></tr>\n", r->metrics[i].value,
                r->metrics[i].value);
    }
    fputs("</table></details>\n", f);
}

/* ---------------------------------------------------------------- sections */

static int timelines(FILE *f, const vw_run *v, const ws_viewer_options *o, ws_error *err)
{
    const ws_result *r = v->r;
    fprintf(f, "<h3>Warp lane timelines, %s</h3>\n", v->label);
    if (!r->ntimelines) {
        fputs("<p class=\"note\">No warp timeline is recorded for this run.</p>\n", f);
        return 0;
    }
    int first = o->timeline >= 0 ? o->timeline : 0;
    int last = o->timeline >= 0 ? o->timeline : r->ntimelines - 1;
    if (o->timeline < 0 && last >= o->max_timelines) last = o->max_timelines - 1;
    if (o->timeline < 0 && r->ntimelines > o->max_timelines)
        fprintf(f, "<p class=\"note\">%d of the %d recorded warps are drawn.</p>\n",
                o->max_timelines, r->ntimelines);
    for (int i = first; i <= last; i++)
        if (vw_timeline_write(f, v, i, o->timeline_columns, err) != 0) return -1;
    return 0;
}

/* The workload's named regions with their stored counts (seed 000 Table 4's "branch part"). */
static void regions_table(FILE *f, const vw_run *v)
{
    const ws_result *r = v->r;
    if (!r->nregions) return;
    fputs("<table class=\"regions\"><tr><th style=\"text-align:left\">region</th><th>lines</th>"
          "<th>exec. rate</th><th>warp-insts issued</th><th>divergent</th><th>pred.-off lanes</th>"
          "</tr>\n", f);
    for (int g = 0; g < r->nregions; g++) {
        const ws_region_stat *x = &r->regions[g];
        fprintf(f, "<tr data-region=\"%d\"><td style=\"text-align:left\"><i class=\"swatch\" "
                   "style=\"background:%s;width:10px\"></i>", g, vw_region_color(g));
        vw_esc(f, x->name);
        fprintf(f, "</td><td>%d-%d</td>", x->first_line, x->last_line);
        vw_counts c = {x->issued, x->active_threads, x->pred_on_threads, x->branch_targets,
                       x->divergent_branches, 1};
        double rate = x->issued ? x->execution_rate : -1;
        if (rate < 0) {
            fputs("<td class=\"rate\"></td>", f);
        } else {
            int b = ws_viewer_rate_bucket(rate);
            fprintf(f, "<td class=\"rate\" style=\"background:%s;color:%s\">",
                    ws_viewer_rate_color(b), vw_rate_text_color(b));
            vw_pct(f, rate);
            fputs("</td>", f);
        }
        fputs("<td>", f);
        vw_num(f, c.issued);
        fputs("</td><td>", f);
        vw_num(f, c.divergent);
        fputs("</td><td>", f);
        vw_num(f, vw_pred_off(&c));
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n", f);
}

static int run_card(FILE *f, const vw_run *v, ws_error *err)
{
    write_key_figures(f, v);
    regions_table(f, v);
    fprintf(f, "<h3>Control-flow graph, %s</h3>\n<div class=\"cfgbox\">\n", v->label);
    if (vw_cfg_write(f, v, err) != 0) return -1;
    fputs("</div>\n", f);
    return 0;
}

static int write_single(FILE *f, const vw_run *v, const ws_viewer_options *o, ws_error *err)
{
    fprintf(f, "<article class=\"map\" id=\"%s\">\n<h2>", v->dom_id);
    fprintf(f, "%s &mdash; ", v->label);
    vw_esc(f, v->r->kernel);
    fputs("</h2>\n", f);
    if (run_card(f, v, err) != 0) return -1;
    source_tables(f, v);
    if (timelines(f, v, o, err) != 0) return -1;
    atomics_table(f, v->r);
    metrics_table(f, v->r);
    fputs("</article>\n", f);
    return 0;
}

static void change_row(FILE *f, const char *name, const char *key, uint64_t x, uint64_t y)
{
    fprintf(f, "<tr data-key=\"%s\"><th style=\"text-align:left\">%s</th><td>", key, name);
    vw_num(f, x);
    fputs("</td><td>", f);
    vw_num(f, y);
    long long d = (long long)y - (long long)x;
    fprintf(f, "</td><td data-v=\"%lld\">%+lld", d, d);
    if (x) fprintf(f, " (&times;%.2f)", (double)y / (double)x);
    fputs("</td></tr>\n", f);
}

/* The headline figures of the two runs and how they changed, second against first. */
static void write_pair_summary(FILE *f, const vw_run *a, const vw_run *b)
{
    vw_keys ka, kb;
    key_values(a, &ka);
    key_values(b, &kb);
    fprintf(f, "<table class=\"change\"><tr><th></th><th>%s</th><th>%s</th><th>change</th></tr>\n"
               "<tr data-key=\"execution_rate\"><th style=\"text-align:left\">execution rate</th><td>",
            a->label, b->label);
    vw_pct(f, ka.rate);
    fputs("</td><td>", f);
    vw_pct(f, kb.rate);
    fputs("</td><td>", f);
    if (ka.rate >= 0 && kb.rate >= 0) fprintf(f, "%+.1f pp", (kb.rate - ka.rate) * 100.0);
    fputs("</td></tr>\n", f);
    for (int g = 0; g < a->r->nregions; g++)
        for (int h = 0; h < b->r->nregions; h++) {
            const ws_region_stat *x = &a->r->regions[g], *y = &b->r->regions[h];
            if (strcmp(x->name, y->name) || !x->issued || !y->issued) continue;
            fputs("<tr data-key=\"region_rate\"><th style=\"text-align:left\">execution rate in "
                  "region ", f);
            vw_esc(f, x->name);
            fputs("</th><td>", f);
            vw_pct(f, x->execution_rate);
            fputs("</td><td>", f);
            vw_pct(f, y->execution_rate);
            fprintf(f, "</td><td>%+.1f pp</td></tr>\n", (y->execution_rate - x->execution_rate) * 100.0);
        }
    change_row(f, "warp-instructions issued", "issued", ka.issued, kb.issued);
    change_row(f, "divergent branches", "divergent", ka.divergent, kb.divergent);
    change_row(f, "predicated-off lanes", "pred_off", ka.pred_off, kb.pred_off);
    if (ka.time_ns >= 0 && kb.time_ns >= 0)
        fprintf(f, "<tr data-key=\"time_ns\"><th style=\"text-align:left\">time (ms)</th><td>%.3f</td>"
                   "<td>%.3f</td><td>second takes &times;%.2f the time of the first</td></tr>\n",
                ka.time_ns / 1e6, kb.time_ns / 1e6, ka.time_ns > 0 ? kb.time_ns / ka.time_ns : 0.0);
    fputs("</table>\n", f);
}

static int write_pair(FILE *f, const vw_run *a, const vw_run *b, const ws_viewer_options *o,
                      ws_error *err)
{
    fprintf(f, "<article class=\"map pair-map\" id=\"%s-%s\">\n<h2>%s and %s, side by side</h2>\n"
               , a->dom_id, b->dom_id, a->label, b->label);
    write_pair_summary(f, a, b);
    fputs("<div class=\"pair\">\n", f);
    const vw_run *both[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        fprintf(f, "<div class=\"side\" id=\"%s\">\n", both[k]->dom_id);
        if (run_card(f, both[k], err) != 0) return -1;
        fputs("</div>\n", f);
    }
    fputs("</div>\n", f);
    compare_table(f, a, b);
    for (int k = 0; k < 2; k++) {
        for (int fi = 0; fi < both[k]->nfiles; fi++)
            if (fi != both[k]->main_file && both[k]->files[fi].issued) source_table(f, both[k], fi);
        if (timelines(f, both[k], o, err) != 0) return -1;
    }
    for (int k = 0; k < 2; k++) {
        fprintf(f, "<h3>%s: atomics and metrics</h3>\n", both[k]->label);
        atomics_table(f, both[k]->r);
        metrics_table(f, both[k]->r);
    }
    fputs("</article>\n", f);
    return 0;
}

static void write_head(FILE *f, const char *title, int nruns, const ws_viewer_options *o)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>", f);
    vw_esc(f, title);
    fprintf(f, "</title>\n<script>%s</script>\n<style>%s</style>\n</head>\n"
               "<body data-runs=\"%d\">\n<header><h1>", head_js, page_css, nruns);
    vw_esc(f, title);
    fprintf(f, "</h1><p>warpscope %s; ", ws_version());
    if (o->db_path) { fputs("database <code>", f); vw_esc(f, o->db_path); fputs("</code>; ", f); }
    fprintf(f, "%d run%s. Every number on this page comes from the stored results.</p></header>\n",
            nruns, nruns == 1 ? "" : "s");
}

static int check_options(const ws_result *const *runs, int nruns, const ws_viewer_options *o,
                         ws_error *err)
{
    if (nruns < 1) return ws_error_set(err, WS_ERR_USAGE, "no run to draw");
    for (int i = 0; i < nruns && o->timeline >= 0; i++)
        if (o->timeline >= runs[i]->ntimelines)
            return ws_error_set(err, WS_ERR_USAGE,
                                "%s records %d warp timeline%s; warp index %d is out of range",
                                o->run_ids ? "a run" : "the run", runs[i]->ntimelines,
                                runs[i]->ntimelines == 1 ? "" : "s", o->timeline);
    return 0;
}

int ws_viewer_write_html(const ws_result *const *runs, int nruns, FILE *out,
                         const ws_viewer_options *opt, ws_error *err)
{
    ws_viewer_options defaults;
    ws_viewer_options_default(&defaults);
    const ws_viewer_options *o = opt ? opt : &defaults;
    if (check_options(runs, nruns, o, err) != 0) return err->code;
    vw_run *v = calloc((size_t)nruns, sizeof *v);
    if (!v) return ws_error_set(err, WS_ERR_NOMEM, "out of memory");
    int rc = 0, ready = 0;
    for (; ready < nruns && rc == 0; ready++) rc = vw_run_init(&v[ready], runs[ready], ready, o, err);
    if (rc != 0) ready--;
    if (rc == 0) {
        write_head(out, o->title ? o->title : "warpscope divergence map", nruns, o);
        write_howto(out);
        if (nruns == 2 && same_source(&v[0], &v[1]))
            rc = write_pair(out, &v[0], &v[1], o, err);
        else
            for (int i = 0; i < nruns && rc == 0; i++) rc = write_single(out, &v[i], o, err);
        fprintf(out, "<script>\n%s</script>\n</body></html>\n", tail_js);
    }
    for (int i = 0; i < ready; i++) vw_run_free(&v[i]);
    free(v);
    if (rc == 0 && (fflush(out) != 0 || ferror(out)))
        rc = ws_error_set(err, WS_ERR_IO, "writing the page failed");
    return rc ? err->code : 0;
}
