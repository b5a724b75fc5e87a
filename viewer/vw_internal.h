/* vw_internal.h — private to viewer/: per-run aggregates (per block, per source line,
 * per region), lookups, HTML escaping and the section writers the page is built from.
 * Nothing outside viewer/ includes this; the public API is viewer.h. */
#ifndef WS_VW_INTERNAL_H
#define WS_VW_INTERNAL_H

#include "viewer/viewer.h"

/* Counts summed over some instructions. */
typedef struct vw_counts {
    uint64_t issued, active, pred_on, branch_targets, divergent;
    int ninsts;
} vw_counts;

void vw_counts_add(vw_counts *c, const ws_inst_stat *in);
/* active / (32 * issued); -1 when nothing was issued. */
double vw_rate(const vw_counts *c);
/* active - pred_on: lanes that were active but whose guard predicate was false. */
uint64_t vw_pred_off(const vw_counts *c);

/* One source file of a run: its text split into lines, and counts per line. */
typedef struct vw_file {
    const char *path;
    int has_text;
    int nlines;          /* max(lines of text, highest line with instructions) */
    char *text_buf;      /* copy of the text, NUL at each line end */
    char **text;         /* [1..nlines] line starts ("" past the text); NULL when no text */
    vw_counts *line;     /* [1..nlines] */
    uint64_t issued;     /* all instructions of this file */
} vw_file;

/* Everything the writers need about one run, computed once. */
typedef struct vw_run {
    const ws_result *r;
    char label[64];      /* "run 3" or "run A" */
    char dom_id[16];     /* "r0", "r1": prefix for element ids */
    int main_file;       /* the file regions refer to (most issued); -1 when none */
    const ws_inst_stat **inst_order; /* instructions sorted by (function, pc) */
    vw_counts total;
    int nfiles;
    vw_file *files;
} vw_run;

int vw_run_init(vw_run *v, const ws_result *r, int index, const ws_viewer_options *o,
                ws_error *err);
void vw_run_free(vw_run *v);
/* The instruction at (function, pc), or NULL. */
const ws_inst_stat *vw_find_inst(const vw_run *v, const char *function, int pc);
/* The innermost region containing `line` of the main file, or -1. */
int vw_region_of_line(const vw_run *v, int file, int line);
/* Distinct colours for regions (cycled), and for "outside every region". */
const char *vw_region_color(int region);
#define VW_OTHER_COLOR "#8c8c8c"
/* Key figures with their provenance: from the stored metric, else from instruction sums. */
double vw_exec_rate(const vw_run *v, int *from_metric);
/* Text colour readable on a rate bucket's fill. */
const char *vw_rate_text_color(int bucket);

/* Writing helpers. */
void vw_esc(FILE *f, const char *s);                  /* HTML-escaped text */
void vw_esc_n(FILE *f, const char *s, size_t n);
void vw_fmt_u64(char *buf, size_t n, uint64_t x);     /* "1,234,567" */
/* <span class="num" data-v="RAW">1,234</span> */
void vw_num(FILE *f, uint64_t x);
/* <span class="num" data-v="0.500000">50.0%</span>, or "–" when rate < 0 */
void vw_pct(FILE *f, double rate);

/* Sections. */
int vw_cfg_write(FILE *f, const vw_run *v, ws_error *err);
int vw_timeline_write(FILE *f, const vw_run *v, int which, int columns, ws_error *err);

#endif
