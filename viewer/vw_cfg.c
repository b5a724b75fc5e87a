/* vw_cfg.c — the divergence map proper (Coutinho et al.): the control-flow graph of basic
 * blocks laid out by Graphviz (libgvc, "dot"), drawn as our own SVG so each block carries
 * its counts as data: fill = execution rate bucket, size = issued warp-instructions,
 * thick dashed border = ends in a divergent branch. Not for per-line views. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gvc.h>
#include "viewer/vw_internal.h"

#define VW_CFG_MAX_BLOCKS 1500

typedef struct cfg_block {
    const ws_block_info *b;
    vw_counts c;
    int first_line, last_line;
    int npred;
    Agnode_t *node;
} cfg_block;

static int quiet_graphviz(char *msg) { (void)msg; return 0; }

/* Only the dot layout, linked in: no config file read, no text-layout plugin (we size the
 * boxes from our own label text), so Graphviz neither leaks its config nor loads Pango. */
extern gvplugin_library_t gvplugin_dot_layout_LTX_library;
static const lt_symlist_t vw_gv_builtins[] = {
    {"gvplugin_dot_layout_LTX_library", &gvplugin_dot_layout_LTX_library}, {NULL, NULL}};

/* Box size in inches for a label in 11-px Helvetica: about 6.3 px per character. */
static void label_size(const char *label, double *w, double *h)
{
    int lines = 1, col = 0, widest = 0;
    for (const char *p = label; *p; p++) {
        if (*p == '\n') { lines++; col = 0; continue; }
        if ((*p & 0xc0) != 0x80 && ++col > widest) widest = col;
    }
    *w = (widest * 6.3 + 16) / 72.0;
    *h = (lines * 13.0 + 10) / 72.0;
}

static void block_counts(const vw_run *v, cfg_block *cb)
{
    cb->first_line = cb->last_line = 0;
    for (int pc = cb->b->first_pc; pc <= cb->b->last_pc; pc++) {
        const ws_inst_stat *in = vw_find_inst(v, cb->b->function, pc);
        if (!in) continue;
        vw_counts_add(&cb->c, in);
        if (in->line > 0) {
            if (!cb->first_line || in->line < cb->first_line) cb->first_line = in->line;
            if (in->line > cb->last_line) cb->last_line = in->line;
        }
    }
}

static cfg_block *find_block(cfg_block *cbs, int n, const char *function, int id)
{
    for (int i = 0; i < n; i++)
        if (cbs[i].b->id == id && !strcmp(cbs[i].b->function, function)) return &cbs[i];
    return NULL;
}

/* The label text we draw inside the box; Graphviz sizes the box from the same text. */
static void block_label(const cfg_block *cb, char *buf, size_t n)
{
    char issued[40], lines[48] = "";
    vw_fmt_u64(issued, sizeof issued, cb->c.issued);
    if (cb->first_line)
        snprintf(lines, sizeof lines, cb->first_line == cb->last_line ? "  line %d" : "  lines %d-%d",
                 cb->first_line, cb->last_line);
    double rate = vw_rate(&cb->c);
    int len = snprintf(buf, n, "B%d%s\n%s issued\n", cb->b->id, lines, issued);
    if (len < 0 || (size_t)len >= n) return;
    if (rate < 0)
        snprintf(buf + len, n - (size_t)len, "not executed");
    else if (cb->c.divergent)
        snprintf(buf + len, n - (size_t)len, "%.1f%% lanes\n%llu divergent", rate * 100.0,
                 (unsigned long long)cb->c.divergent);
    else
        snprintf(buf + len, n - (size_t)len, "%.1f%% lanes", rate * 100.0);
}

static void build_graph(Agraph_t *g, const vw_run *v, cfg_block *cbs, int n)
{
    uint64_t max_issued = 1;
    for (int i = 0; i < n; i++)
        if (cbs[i].c.issued > max_issued) max_issued = cbs[i].c.issued;
    agattr(g, AGRAPH, "nodesep", "0.3");
    agattr(g, AGRAPH, "ranksep", "0.35");
    agattr(g, AGNODE, "shape", "box");
    agattr(g, AGNODE, "fontname", "Helvetica");
    agattr(g, AGNODE, "fontsize", "11");
    agattr(g, AGNODE, "width", "1");
    agattr(g, AGNODE, "height", "0.5");
    agattr(g, AGNODE, "label", "");
    agattr(g, AGNODE, "fixedsize", "true");
    agattr(g, AGEDGE, "taken", "");
    for (int i = 0; i < n; i++) {
        char name[64], label[256], w[32], h[32];
        snprintf(name, sizeof name, "n%d", i);
        cbs[i].node = agnode(g, name, 1);
        block_label(&cbs[i], label, sizeof label);
        double s = sqrt((double)cbs[i].c.issued / (double)max_issued), lw, lh;
        label_size(label, &lw, &lh);
        snprintf(w, sizeof w, "%.2f", fmax(lw, 1.3 + 1.5 * s));
        snprintf(h, sizeof h, "%.2f", fmax(lh, 0.6 + 0.5 * s));
        agsafeset(cbs[i].node, "text", label, "");
        agset(cbs[i].node, "width", w);
        agset(cbs[i].node, "height", h);
    }
    for (int i = 0; i < n; i++) {
        for (int s = 0; s < cbs[i].b->nsucc && s < 2; s++) {
            cfg_block *t = find_block(cbs, n, cbs[i].b->function, cbs[i].b->succ[s]);
            if (!t) continue;
            Agedge_t *e = agedge(g, cbs[i].node, t->node, NULL, 1);
            /* Entries into a block with one predecessor are the warp-level traversals of
             * its one incoming edge; with several predecessors they cannot be split. */
            const ws_inst_stat *entry = vw_find_inst(v, t->b->function, t->b->first_pc);
            if (t->npred == 1 && entry && entry->issued) {
                char lab[40];
                vw_fmt_u64(lab, sizeof lab, entry->issued);
                agset(e, "taken", lab);
            }
        }
    }
}

static void write_text_lines(FILE *f, const char *label, double cx, double cy, const char *fill)
{
    int nl = 1;
    for (const char *p = label; *p; p++) nl += *p == '\n';
    double y = cy - (nl - 1) * 6.5 + 4;
    const char *p = label;
    for (int k = 0; k < nl; k++) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\"%s>", cx, y + k * 13.0, fill,
                k == 0 ? " font-weight=\"bold\"" : "");
        vw_esc_n(f, p, len);
        fputs("</text>", f);
        p = e ? e + 1 : p + len;
    }
}

static void write_node(FILE *f, const vw_run *v, const cfg_block *cb, int index, double top)
{
    Agnode_t *n = cb->node;
    double cx = ND_coord(n).x, cy = top - ND_coord(n).y;
    double w = ND_width(n) * 72.0, h = ND_height(n) * 72.0;
    double rate = vw_rate(&cb->c);
    int bucket = rate < 0 ? -1 : ws_viewer_rate_bucket(rate);
    const char *fill = bucket < 0 ? "#eeeeee" : ws_viewer_rate_color(bucket);
    const char *ink = bucket < 0 ? "#555555" : vw_rate_text_color(bucket);
    fprintf(f, "<g class=\"node%s%s\" id=\"%s-n%d\" data-block=\"%d\" data-function=\"",
            bucket < 0 ? " unexecuted" : "", cb->c.divergent ? " divergent" : "", v->dom_id,
            index, cb->b->id);
    vw_esc(f, cb->b->function);
    fprintf(f, "\" data-issued=\"%llu\" data-active=\"%llu\" data-divergent=\"%llu\""
               " data-bucket=\"%d\" data-rate=\"%.6f\" data-lines=\"%d-%d\">",
            (unsigned long long)cb->c.issued, (unsigned long long)cb->c.active,
            (unsigned long long)cb->c.divergent, bucket, rate, cb->first_line, cb->last_line);
    fprintf(f, "<title>block B%d of %s, PCs %d-%d, immediate post-dominator %s%d</title>",
            cb->b->id, cb->b->function, cb->b->first_pc, cb->b->last_pc,
            cb->b->ipdom < 0 ? "exit" : "B", cb->b->ipdom < 0 ? 0 : cb->b->ipdom);
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" rx=\"3\" fill=\"%s\""
               " stroke=\"#222\" stroke-width=\"%s\"%s/>",
            cx - w / 2, cy - h / 2, w, h, fill, cb->c.divergent ? "3.5" : "1",
            cb->c.divergent ? " stroke-dasharray=\"7 4\"" : "");
    write_text_lines(f, agget(n, "text"), cx, cy, ink);
    fputs("</g>\n", f);
}

static void write_edge(FILE *f, Agedge_t *e, double top)
{
    splines *spl = ED_spl(e);
    if (!spl || spl->size < 1) return;
    const bezier *bz = &spl->list[0];
    fputs("<g class=\"edge\"><path d=\"", f);
    for (int i = 0; i < bz->size; i++)
        fprintf(f, "%s%.1f,%.1f ", i == 0 ? "M" : (i == 1 ? "C" : ""), bz->list[i].x,
                top - bz->list[i].y);
    fputs("\" fill=\"none\" stroke=\"#555\" stroke-width=\"1.2\"/>", f);
    if (bz->eflag) {
        pointf a = bz->list[bz->size - 1], tip = bz->ep;
        double dx = tip.x - a.x, dy = tip.y - a.y, len = sqrt(dx * dx + dy * dy);
        if (len > 0) {
            double ux = dx / len, uy = dy / len, px = -uy * 4, py = ux * 4;
            fprintf(f, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"#555\"/>",
                    tip.x, top - tip.y, a.x + px, top - (a.y + py), a.x - px, top - (a.y - py));
        }
    }
    const char *lab = agget(e, "taken");
    if (lab && *lab) { /* beside the middle of the curve */
        pointf mid = bz->list[bz->size / 2];
        fprintf(f, "<text class=\"elabel\" x=\"%.1f\" y=\"%.1f\">", mid.x + 5,
                top - mid.y + 4);
        vw_esc(f, lab);
        fputs("</text>", f);
    }
    fputs("</g>\n", f);
}

static int layout_and_write(FILE *f, const vw_run *v, cfg_block *cbs, int n, ws_error *err)
{
    agseterrf(quiet_graphviz);
    GVC_t *gvc = gvContextPlugins(vw_gv_builtins, 0);
    Agraph_t *g = agopen("cfg", Agdirected, NULL);
    if (!gvc || !g) {
        if (g) agclose(g);
        if (gvc) gvFreeContext(gvc);
        return ws_error_set(err, WS_ERR_NOMEM, "Graphviz could not start");
    }
    build_graph(g, v, cbs, n);
    if (gvLayout(gvc, g, "dot") != 0) {
        agclose(g);
        gvFreeContext(gvc);
        return ws_error_set(err, WS_ERR_UNSUPPORTED,
                            "Graphviz could not lay out the control-flow graph (is the dot "
                            "layout plugin installed?)");
    }
    boxf bb = GD_bb(g);
    double W = bb.UR.x - bb.LL.x + 8, H = bb.UR.y - bb.LL.y + 8, top = bb.UR.y + 4;
    fprintf(f, "<svg class=\"cfg\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" "
               "viewBox=\"%.1f 0 %.1f %.1f\" width=\"%.0f\" height=\"%.0f\" "
               "data-blocks=\"%d\"><title>control-flow graph of %s</title>\n",
            bb.LL.x - 4, W, H, W, H, n, v->r->kernel);
    for (Agnode_t *nd = agfstnode(g); nd; nd = agnxtnode(g, nd))
        for (Agedge_t *e = agfstout(g, nd); e; e = agnxtout(g, e)) write_edge(f, e, top);
    for (int i = 0; i < n; i++) write_node(f, v, &cbs[i], i, top);
    fputs("</svg>\n", f);
    gvFreeLayout(gvc, g);
    agclose(g);
    gvFreeContext(gvc);
    return 0;
}

int vw_cfg_write(FILE *f, const vw_run *v, ws_error *err)
{
    const ws_result *r = v->r;
    if (r->nblocks == 0) {
        fputs("<p class=\"note\">No basic blocks are recorded for this run (GPU runs carry "
              "per-instruction counts only), so there is no control-flow graph to draw.</p>\n",
              f);
        return 0;
    }
    if (r->nblocks > VW_CFG_MAX_BLOCKS) {
        fprintf(f, "<p class=\"note\">The control-flow graph has %d blocks, more than the %d "
                   "this page draws; see the source table below.</p>\n",
                r->nblocks, VW_CFG_MAX_BLOCKS);
        return 0;
    }
    cfg_block *cbs = calloc((size_t)r->nblocks, sizeof *cbs);
    if (!cbs) return ws_error_set(err, WS_ERR_NOMEM, "out of memory drawing the CFG");
    for (int i = 0; i < r->nblocks; i++) {
        cbs[i].b = &r->blocks[i];
        block_counts(v, &cbs[i]);
    }
    for (int i = 0; i < r->nblocks; i++)
        for (int s = 0; s < cbs[i].b->nsucc && s < 2; s++) {
            cfg_block *t = find_block(cbs, r->nblocks, cbs[i].b->function, cbs[i].b->succ[s]);
            if (t) t->npred++;
        }
    int rc = layout_and_write(f, v, cbs, r->nblocks, err);
    free(cbs);
    return rc;
}
