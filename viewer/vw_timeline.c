/* vw_timeline.c — a recorded warp's lane timeline as SVG, like seed 000 Figs. 2, 3, 7, 8:
 * lanes down, issue slots across, each cell coloured by the region of that slot's source
 * line, white where the lane is not in the active mask, hatched where it is active but
 * predicated off. Long timelines are binned into columns (the page says so). */
#include <stdlib.h>
#include <string.h>
#include "viewer/vw_internal.h"

#define LANE_H 9
#define LEFT 46
#define IDLE (-1)

/* A slot's state for one lane: IDLE, or region code (nregions = outside every region)
 * times two, plus one when predicated off. */
static int slot_region(const vw_run *v, const ws_timeline *t, int s)
{
    const ws_inst_stat *in = vw_find_inst(v, t->function, t->slots[s].pc);
    int reg = in ? vw_region_of_line(v, in->file, in->line) : -1;
    return reg < 0 ? v->r->nregions : reg;
}

static int lane_state(const ws_timeline_slot *sl, int region, int lane)
{
    uint32_t bit = 1u << lane;
    if (!(sl->active & bit)) return IDLE;
    return region * 2 + ((sl->pred_on & bit) ? 0 : 1);
}

static const char *state_fill(const vw_run *v, int state, int tl, char *buf, size_t n)
{
    if (state == IDLE) return "#ffffff";
    int region = state / 2;
    if (state & 1) {
        snprintf(buf, n, "url(#%s-t%d-h%d)", v->dom_id, tl, region);
        return buf;
    }
    return vw_region_color(region >= v->r->nregions ? -1 : region);
}

static void write_patterns(FILE *f, const vw_run *v, int tl)
{
    fputs("<defs>", f);
    for (int g = 0; g <= v->r->nregions; g++)
        fprintf(f, "<pattern id=\"%s-t%d-h%d\" width=\"4\" height=\"4\" "
                   "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
                   "<rect width=\"4\" height=\"4\" fill=\"#fff\"/>"
                   "<rect width=\"2\" height=\"4\" fill=\"%s\"/></pattern>",
                v->dom_id, tl, g, vw_region_color(g >= v->r->nregions ? -1 : g));
    fputs("</defs>\n", f);
}

/* Most frequent state of `lane` over slots [s0, s1). */
static int cell_state(const ws_timeline *t, const int *regions, int s0, int s1, int lane,
                      int *counts, int nstates)
{
    if (s1 - s0 == 1) return lane_state(&t->slots[s0], regions[s0], lane);
    memset(counts, 0, (size_t)(nstates + 1) * sizeof *counts);
    for (int s = s0; s < s1; s++) counts[lane_state(&t->slots[s], regions[s], lane) + 1]++;
    int best = 0;
    for (int k = 1; k <= nstates; k++)
        if (counts[k] > counts[best]) best = k;
    return best - 1;
}

static void write_lanes(FILE *f, const vw_run *v, const ws_timeline *t, int tl,
                        const int *regions, int bin, int ncols, double cw)
{
    int nstates = 2 * (v->r->nregions + 1);
    int *counts = calloc((size_t)nstates + 1, sizeof *counts);
    int *row = malloc((size_t)ncols * sizeof *row);
    if (!counts || !row) { free(counts); free(row); return; }
    char buf[64];
    for (int lane = 0; lane < 32; lane++) {
        for (int c = 0; c < ncols; c++) {
            int s0 = c * bin, s1 = s0 + bin > t->nslots ? t->nslots : s0 + bin;
            row[c] = cell_state(t, regions, s0, s1, lane, counts, nstates);
        }
        int y = 14 + lane * LANE_H;
        if (lane % 4 == 0)
            fprintf(f, "<text class=\"lane\" x=\"%d\" y=\"%d\">lane %d</text>", LEFT - 4,
                    y + LANE_H - 1, lane);
        for (int c = 0; c < ncols;) {
            int e = c;
            while (e < ncols && row[e] == row[c]) e++;
            fprintf(f, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\"/>",
                        LEFT + c * cw, y, (e - c) * cw, LANE_H - 1,
                        state_fill(v, row[c], tl, buf, sizeof buf));
            c = e;
        }
        fputc('\n', f);
    }
    free(counts);
    free(row);
}

static void write_axis(FILE *f, int nslots, int bin, int ncols, double cw)
{
    int y = 14 + 32 * LANE_H + 12;
    int step = ncols > 8 ? ncols / 8 : 1;
    for (int c = 0; c < ncols; c += step)
        fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%d\">%d</text>", LEFT + c * cw, y,
                c * bin);
    fprintf(f, "<text class=\"tick end\" x=\"%.1f\" y=\"%d\">%d issue slots</text>\n",
            LEFT + ncols * cw, y + 12, nslots);
}

static void write_legend(FILE *f, const vw_run *v)
{
    fputs("<div class=\"tl-legend\">", f);
    for (int g = 0; g < v->r->nregions; g++) {
        fprintf(f, "<span><i style=\"background:%s\"></i>", vw_region_color(g));
        vw_esc(f, v->r->regions[g].name);
        fprintf(f, " (lines %d-%d)</span>", v->r->regions[g].first_line,
                v->r->regions[g].last_line);
    }
    fprintf(f, "<span><i style=\"background:%s\"></i>outside every region</span>"
               "<span><i style=\"background:#fff\"></i>lane idle (not in the active mask)</span>"
               "<span><i class=\"hatch\"></i>active but predicated off (hatched)</span></div>\n",
            VW_OTHER_COLOR);
}

int vw_timeline_write(FILE *f, const vw_run *v, int which, int columns, ws_error *err)
{
    const ws_timeline *t = &v->r->timelines[which];
    if (t->nslots <= 0) {
        fprintf(f, "<p class=\"note\">Warp %d of CTA %u has an empty timeline.</p>\n", t->warp,
                t->cta);
        return 0;
    }
    if (columns < 16) columns = 16;
    int bin = (t->nslots + columns - 1) / columns;
    int ncols = (t->nslots + bin - 1) / bin;
    double cw = 1100.0 / ncols;
    if (cw > 16) cw = 16;
    int *regions = malloc((size_t)t->nslots * sizeof *regions);
    if (!regions) return ws_error_set(err, WS_ERR_NOMEM, "out of memory drawing a timeline");
    uint64_t lanes = 0;
    for (int s = 0; s < t->nslots; s++) {
        regions[s] = slot_region(v, t, s);
        lanes += (uint64_t)__builtin_popcount(t->slots[s].active);
    }
    fprintf(f, "<figure class=\"timeline\" id=\"%s-tl%d\" data-cta=\"%u\" data-warp=\"%d\" "
               "data-slots=\"%d\" data-bin=\"%d\" data-active-lanes=\"%llu\">\n",
            v->dom_id, which, t->cta, t->warp, t->nslots, bin, (unsigned long long)lanes);
    fprintf(f, "<figcaption>Warp %d of CTA %u (", t->warp, t->cta);
    vw_esc(f, t->function);
    fputs("): ", f);
    vw_num(f, (uint64_t)t->nslots);
    fputs(" issue slots recorded", f);
    if (t->truncated) fputs(" (truncated: the warp issued more than were kept)", f);
    fputs("; lanes active in these slots: ", f);
    vw_pct(f, (double)lanes / (32.0 * t->nslots));
    if (bin > 1)
        fprintf(f, ". Binned: each column is %d consecutive slots and shows the state the lane "
                   "was in most often during them", bin);
    fputs(".</figcaption>\n", f);
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%d\" "
               "role=\"img\"><title>lane timeline</title>",
            LEFT + ncols * cw + 8, 14 + 32 * LANE_H + 30);
    write_patterns(f, v, which);
    /* grey behind the cells: the 1-px gaps between lanes read as grid lines, not idle */
    fprintf(f, "<rect x=\"%d\" y=\"13\" width=\"%.1f\" height=\"%d\" fill=\"#e4e4e4\" "
               "stroke=\"#999\"/>\n", LEFT - 1, ncols * cw + 2, 32 * LANE_H + 1);
    write_lanes(f, v, t, which, regions, bin, ncols, cw);
    write_axis(f, t->nslots, bin, ncols, cw);
    fputs("</svg>\n", f);
    write_legend(f, v);
    fputs("</figure>\n", f);
    free(regions);
    return 0;
}
