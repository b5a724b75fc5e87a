/* vw_term.c — the compact terminal heat view: per source line the execution rate as a bar,
 * warp-instructions issued, divergent branches, predicated-off lanes and the text. ANSI
 * colour only when the caller says the output is a terminal; plain ASCII otherwise. */
#include <string.h>
#include "viewer/vw_internal.h"

#define BAR 8

/* xterm-256 colours close to the page's RdYlBu buckets. */
static const int ansi_rate[WS_VIEWER_RATE_BUCKETS] = {160, 202, 215, 222, 228, 195, 153, 74, 25};

static void bar(FILE *f, double rate, int color)
{
    if (rate < 0) { fprintf(f, "%*s", BAR + 8, ""); return; }
    int filled = (int)(rate * BAR + 0.5);
    if (color) fprintf(f, "\033[38;5;%dm", ansi_rate[ws_viewer_rate_bucket(rate)]);
    for (int i = 0; i < BAR; i++) fputs(i < filled ? (color ? "\xe2\x96\x88" : "#") : (color ? "\033[2m.\033[22m" : "."), f);
    fprintf(f, " %5.1f%%", rate * 100.0);
    if (color) fputs("\033[0m", f);
    fputc(' ', f);
}

static void header(FILE *f, const vw_run *v, int color)
{
    const ws_result *r = v->r;
    int from_metric = 0;
    double rate = vw_exec_rate(v, &from_metric);
    char iss[40], div[40], off[40];
    vw_fmt_u64(iss, sizeof iss, v->total.issued);
    vw_fmt_u64(div, sizeof div, v->total.divergent);
    vw_fmt_u64(off, sizeof off, vw_pred_off(&v->total));
    fprintf(f, "%s%s: %s / %s, kernel %s, %s%s\n", color ? "\033[1m" : "", v->label, r->workload,
            r->variant, r->kernel, r->source, color ? "\033[0m" : "");
    fprintf(f, "grid (%u,%u,%u) x block (%u,%u,%u)", r->grid[0], r->grid[1], r->grid[2],
            r->block[0], r->block[1], r->block[2]);
    if (r->params[0]) fprintf(f, ", %s", r->params);
    fputc('\n', f);
    if (rate >= 0)
        fprintf(f, "execution rate %.1f%%", rate * 100.0);
    else
        fputs("execution rate -", f);
    fprintf(f, ", warp-instructions issued %s, divergent branches %s, predicated-off lanes %s\n",
            iss, div, off);
    for (int i = 0; i < r->nwarnings; i++) fprintf(f, "warning: %s\n", r->warnings[i]);
}

static void file_view(FILE *f, const vw_run *v, int fi, int color)
{
    const vw_file *vf = &v->files[fi];
    fprintf(f, "-- %s%s\n", vf->path, vf->has_text ? "" : " (source text not stored: counted lines only)");
    fprintf(f, "%5s  %-*s %12s %8s %10s  %s\n", "line", BAR + 7, "exec rate", "issued",
            "div", "pred-off", "source");
    for (int l = 1; l <= vf->nlines; l++) {
        const vw_counts *c = &vf->line[l];
        if (!vf->has_text && !c->ninsts) continue;
        fprintf(f, "%5d  ", l);
        if (c->ninsts) {
            char iss[40], div[40], off[40];
            vw_fmt_u64(iss, sizeof iss, c->issued);
            vw_fmt_u64(div, sizeof div, c->divergent);
            vw_fmt_u64(off, sizeof off, vw_pred_off(c));
            bar(f, vw_rate(c), color);
            fprintf(f, "%12s %8s %10s  ", iss, div, off);
        } else {
            fprintf(f, "%*s%12s %8s %10s  ", BAR + 8, "", "", "", "");
        }
        fprintf(f, "%s\n", vf->text ? vf->text[l] : "");
    }
}

int ws_viewer_write_term(const ws_result *const *runs, int nruns, FILE *out,
                         const ws_viewer_options *opt, ws_error *err)
{
    ws_viewer_options defaults;
    ws_viewer_options_default(&defaults);
    const ws_viewer_options *o = opt ? opt : &defaults;
    if (nruns < 1) return ws_error_set(err, WS_ERR_USAGE, "no run to show");
    for (int i = 0; i < nruns; i++) {
        vw_run v;
        if (vw_run_init(&v, runs[i], i, o, err) != 0) return err->code;
        if (i) fputc('\n', out);
        header(out, &v, o->color);
        int shown = 0;
        for (int fi = 0; fi < v.nfiles; fi++) {
            if (!v.files[fi].issued && fi != v.main_file) continue;
            file_view(out, &v, fi, o->color);
            shown++;
        }
        if (!shown) fputs("(no instruction maps to a source line)\n", out);
        vw_run_free(&v);
    }
    if (fflush(out) != 0 || ferror(out))
        return ws_error_set(err, WS_ERR_IO, "writing the terminal view failed");
    return 0;
}
