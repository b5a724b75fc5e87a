/* vw_stats.c — the viewer's view of one ws_result: counts per source line and file,
 * instruction lookup by (function, pc), regions by line, the colour scales, and the
 * small HTML formatting helpers. Computes only what the result holds; invents nothing. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include "viewer/vw_internal.h"

/* ColorBrewer RdYlBu (colour-blind safe): red = few lanes active, blue = all 32. */
static const char *const rate_colors[WS_VIEWER_RATE_BUCKETS] = {
    "#d73027", "#f46d43", "#fdae61", "#fee090", "#ffffbf",
    "#e0f3f8", "#abd9e9", "#74add1", "#4575b4"};

int ws_viewer_rate_bucket(double rate)
{
    if (rate >= 1.0) return WS_VIEWER_RATE_BUCKETS - 1;
    if (rate <= 0.0) return 0;
    int b = (int)(rate * 8.0);
    return b > 7 ? 7 : b;
}

const char *ws_viewer_rate_color(int bucket)
{
    if (bucket < 0) bucket = 0;
    if (bucket >= WS_VIEWER_RATE_BUCKETS) bucket = WS_VIEWER_RATE_BUCKETS - 1;
    return rate_colors[bucket];
}

const char *vw_rate_text_color(int bucket)
{
    return (bucket == 0 || bucket == WS_VIEWER_RATE_BUCKETS - 1) ? "#ffffff" : "#111111";
}

/* Okabe-Ito-like qualitative palette; green first as in seed 000's "prepare". */
static const char *const region_colors[] = {
    "#009e73", "#d55e00", "#0072b2", "#e69f00", "#cc79a7", "#56b4e9", "#8c6d31", "#6a3d9a"};

const char *vw_region_color(int region)
{
    if (region < 0) return VW_OTHER_COLOR;
    return region_colors[region % (int)(sizeof region_colors / sizeof *region_colors)];
}

void ws_viewer_options_default(ws_viewer_options *o)
{
    memset(o, 0, sizeof *o);
    o->timeline = -1;
    o->max_timelines = 4;
    o->timeline_columns = 480;
}

void vw_counts_add(vw_counts *c, const ws_inst_stat *in)
{
    c->issued += in->issued;
    c->active += in->active_threads;
    c->pred_on += in->pred_on_threads;
    c->branch_targets += in->branch_targets;
    c->divergent += in->divergent_branches;
    c->ninsts++;
}

double vw_rate(const vw_counts *c)
{
    return c->issued ? (double)c->active / (32.0 * (double)c->issued) : -1.0;
}

uint64_t vw_pred_off(const vw_counts *c)
{
    return c->active > c->pred_on ? c->active - c->pred_on : 0;
}

int ws_viewer_missing_source(const ws_result *r, char *path, size_t n)
{
    for (int i = 0; i < r->ninsts; i++) {
        int f = r->insts[i].file;
        if (f >= 0 && f < r->nfiles && !r->files[f].text) {
            snprintf(path, n, "%s", r->files[f].path);
            return 1;
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- per run */

static int cmp_inst(const void *a, const void *b)
{
    const ws_inst_stat *x = *(const ws_inst_stat *const *)a;
    const ws_inst_stat *y = *(const ws_inst_stat *const *)b;
    int c = strcmp(x->function, y->function);
    return c ? c : (x->pc > y->pc) - (x->pc < y->pc);
}

static int split_text(vw_file *vf, const char *text)
{
    int n = 1;
    for (const char *p = text; *p; p++) n += *p == '\n';
    vf->text_buf = strdup(text);
    vf->text = calloc((size_t)n + 2, sizeof *vf->text);
    if (!vf->text_buf || !vf->text) return -1;
    int k = 1;
    char *p = vf->text_buf;
    vf->text[k] = p;
    for (; *p; p++) {
        if (*p == '\r') *p = '\0';
        if (*p == '\n') { *p = '\0'; vf->text[++k] = p + 1; }
    }
    if (k > 1 && vf->text[k][0] == '\0') k--; /* trailing newline */
    vf->nlines = k;
    return 0;
}

static int file_init(vw_run *v, int fi)
{
    const ws_result *r = v->r;
    vw_file *vf = &v->files[fi];
    vf->path = r->files[fi].path;
    vf->has_text = r->files[fi].text != NULL;
    if (vf->has_text && split_text(vf, r->files[fi].text) != 0) return -1;
    int maxline = vf->nlines;
    for (int i = 0; i < r->ninsts; i++)
        if (r->insts[i].file == fi && r->insts[i].line > maxline) maxline = r->insts[i].line;
    if (maxline > vf->nlines && vf->text) {
        char **t = realloc(vf->text, ((size_t)maxline + 2) * sizeof *t);
        if (!t) return -1;
        for (int l = vf->nlines + 1; l <= maxline + 1; l++) t[l] = "";
        vf->text = t;
    }
    vf->nlines = maxline;
    vf->line = calloc((size_t)maxline + 2, sizeof *vf->line);
    if (!vf->line) return -1;
    for (int i = 0; i < r->ninsts; i++) {
        const ws_inst_stat *in = &r->insts[i];
        if (in->file != fi || in->line <= 0) continue;
        vw_counts_add(&vf->line[in->line], in);
        vf->issued += in->issued;
    }
    return 0;
}

int vw_run_init(vw_run *v, const ws_result *r, int index, const ws_viewer_options *o,
                ws_error *err)
{
    memset(v, 0, sizeof *v);
    v->r = r;
    v->main_file = -1;
    if (o && o->run_ids)
        snprintf(v->label, sizeof v->label, "run %lld", (long long)o->run_ids[index]);
    else
        snprintf(v->label, sizeof v->label, "run %c", 'A' + index % 26);
    snprintf(v->dom_id, sizeof v->dom_id, "r%d", index);
    v->inst_order = malloc(((size_t)r->ninsts + 1) * sizeof *v->inst_order);
    v->files = calloc((size_t)r->nfiles + 1, sizeof *v->files);
    if (!v->inst_order || !v->files) goto nomem;
    for (int i = 0; i < r->ninsts; i++) {
        v->inst_order[i] = &r->insts[i];
        vw_counts_add(&v->total, &r->insts[i]);
    }
    qsort(v->inst_order, (size_t)r->ninsts, sizeof *v->inst_order, cmp_inst);
    v->nfiles = r->nfiles;
    for (int f = 0; f < r->nfiles; f++) {
        if (file_init(v, f) != 0) goto nomem;
        if (v->main_file < 0 || v->files[f].issued > v->files[v->main_file].issued)
            v->main_file = f;
    }
    return 0;
nomem:
    vw_run_free(v);
    return ws_error_set(err, WS_ERR_NOMEM, "out of memory while preparing the map");
}

void vw_run_free(vw_run *v)
{
    for (int f = 0; f < v->nfiles && v->files; f++) {
        free(v->files[f].text_buf);
        free(v->files[f].text);
        free(v->files[f].line);
    }
    free(v->files);
    free(v->inst_order);
    memset(v, 0, sizeof *v);
}

const ws_inst_stat *vw_find_inst(const vw_run *v, const char *function, int pc)
{
    int lo = 0, hi = v->r->ninsts - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        const ws_inst_stat *in = v->inst_order[mid];
        int c = strcmp(in->function, function);
        if (!c) c = (in->pc > pc) - (in->pc < pc);
        if (!c) return in;
        if (c < 0) lo = mid + 1; else hi = mid - 1;
    }
    return NULL;
}

int vw_region_of_line(const vw_run *v, int file, int line)
{
    if (file != v->main_file || line <= 0) return -1;
    int best = -1, best_span = 0;
    for (int i = 0; i < v->r->nregions; i++) {
        const ws_region_stat *g = &v->r->regions[i];
        if (line < g->first_line || line > g->last_line) continue;
        int span = g->last_line - g->first_line;
        if (best < 0 || span < best_span) { best = i; best_span = span; }
    }
    return best;
}

double vw_exec_rate(const vw_run *v, int *from_metric)
{
    const ws_metric *m = ws_result_metric(v->r, WS_M(SIM_EXECUTION_RATE));
    if (!m) {
        const ws_metric *ratio =
            ws_result_metric(v->r, WS_M(THREAD_INST_PER_INST));
        if (ratio) { *from_metric = 1; return ratio->value / 32.0; }
    }
    if (m) { *from_metric = 1; return m->value; }
    *from_metric = 0;
    return vw_rate(&v->total);
}

/* ---------------------------------------------------------------- HTML helpers */

void vw_esc_n(FILE *f, const char *s, size_t n)
{
    for (size_t i = 0; i < n && s[i]; i++) {
        switch (s[i]) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\t': fputs("    ", f); break;
        default: fputc(s[i], f);
        }
    }
}

void vw_esc(FILE *f, const char *s)
{
    vw_esc_n(f, s ? s : "", (size_t)-1);
}

void vw_fmt_u64(char *buf, size_t n, uint64_t x)
{
    char raw[32];
    int len = snprintf(raw, sizeof raw, "%llu", (unsigned long long)x);
    size_t o = 0;
    for (int i = 0; i < len && o + 2 < n; i++) {
        if (i > 0 && (len - i) % 3 == 0) buf[o++] = ',';
        buf[o++] = raw[i];
    }
    buf[o] = '\0';
    assert(o < n);
}

void vw_num(FILE *f, uint64_t x)
{
    char b[40];
    vw_fmt_u64(b, sizeof b, x);
    fprintf(f, "<span class=\"num\" data-v=\"%llu\">%s</span>", (unsigned long long)x, b);
}

void vw_pct(FILE *f, double rate)
{
    if (rate < 0) { fputs("<span class=\"num none\">&ndash;</span>", f); return; }
    fprintf(f, "<span class=\"num\" data-v=\"%.6f\">%.1f%%</span>", rate, rate * 100.0);
}
