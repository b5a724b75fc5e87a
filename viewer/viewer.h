/* viewer.h — divergence maps: one self-contained HTML page (CFG coloured by execution
 * rate, source heat columns, two runs side by side, warp lane timelines) and a compact
 * terminal heat view, both drawn from ws_result alone (as loaded from the store).
 * Not for reading the database or choosing runs: the caller hands over the results. */
#ifndef WS_VIEWER_H
#define WS_VIEWER_H

#include <stdint.h>
#include <stdio.h>
#include "core/core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ws_viewer_options {
    const char *title;          /* page title; NULL -> "warpscope divergence map" */
    const int64_t *run_ids;     /* nruns database ids for labels ("run 3"); NULL -> "run A/B" */
    const char *db_path;        /* shown in the page header when not NULL */
    int timeline;               /* which recorded warp timeline to draw: index into
                                 * r->timelines; -1 = all of them (up to max_timelines) */
    int max_timelines;          /* cap when timeline == -1 (default 4) */
    int timeline_columns;       /* max columns before slots are binned (default 480) */
    int color;                  /* terminal view: 1 = ANSI colour, 0 = plain text */
} ws_viewer_options;

void ws_viewer_options_default(ws_viewer_options *o);

/* Writes the HTML page for `nruns` results (1 or more; two are also compared line by
 * line). Errors: WS_ERR_USAGE (no runs, timeline index out of range), WS_ERR_IO (write
 * failed), WS_ERR_NOMEM, WS_ERR_UNSUPPORTED (Graphviz layout failed). */
int ws_viewer_write_html(const ws_result *const *runs, int nruns, FILE *out,
                         const ws_viewer_options *o, ws_error *err);

/* Writes the per-line terminal heat view of each run (ANSI colour when o->color). */
int ws_viewer_write_term(const ws_result *const *runs, int nruns, FILE *out,
                         const ws_viewer_options *o, ws_error *err);

/* Returns 1 and names the first source file that the run's instructions point at but
 * whose text is not in the result (the map is then drawn without that text); else 0. */
int ws_viewer_missing_source(const ws_result *r, char *path, size_t n);

/* The execution-rate colour bucket of `rate` in [0,1]: 0..7 for eighths of 32 lanes,
 * 8 for exactly 32 lanes (all lanes active). Its fill colour as "#rrggbb". */
int ws_viewer_rate_bucket(double rate);
const char *ws_viewer_rate_color(int bucket);
#define WS_VIEWER_RATE_BUCKETS 9

#ifdef __cplusplus
}
#endif
#endif
