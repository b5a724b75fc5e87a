/* timing_run.h — for the timing tests: load a spec with -D defines, build its PTX, run one
 * variant through ws_sim_run with the timing model on, and read a metric. */
#ifndef WS_TEST_TIMING_RUN_H
#define WS_TEST_TIMING_RUN_H
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/sim.h"

/* The timing tests' own preset (tests/timing/mech.gpu): the mechanisms they check do not
 * move when sim/presets/h100.gpu is re-fitted to the GPU. */
#define WS_TR_PRESET WS_SOURCE_DIR "/tests/timing/mech.gpu"

static inline double ws_tr_metric(const ws_result *r, const char *name)
{
    const ws_metric *m = ws_result_metric(r, name);
    return m ? m->value : NAN;
}

/* Runs `variant` of the spec at `path` with defines "K=V" (NULL-terminated) on the GPU
 * preset `preset` (a name or a .gpu path); fills res. */
static inline int ws_tr_run_on(const char *path, const char *const *defs, const char *variant,
                        const char *preset, ws_result *res, ws_error *err)
{
    ws_define d[16];
    char buf[16][128];
    int nd = 0;
    for (; defs && defs[nd] && nd < 16; nd++) {
        snprintf(buf[nd], sizeof buf[nd], "%s", defs[nd]);
        if (ws_define_parse(buf[nd], &d[nd], err)) return err->code;
    }
    ws_spec *s = NULL;
    ws_module *m = NULL;
    ws_buffers b = { 0 };
    char ptx[WS_PATH_MAX];
    int rc = ws_spec_load(path, d, nd, &s, err);
    if (!rc) rc = ws_ptx_build(s, NULL, ptx, sizeof ptx, err);
    if (!rc) rc = ws_ptx_load(ptx, &m, err);
    if (!rc) rc = ws_buffers_generate(s, &b, err);
    const ws_variant *v = rc ? NULL : ws_spec_variant(s, variant, err);
    if (!rc && !v) rc = err->code;
    ws_kernel_resources k;
    ws_sim_options opt;
    ws_sim_options_default(&opt);
    opt.timing = 1;
    opt.gpu_preset = preset;
    opt.detect_races = 0;
    opt.printf_to = NULL; /* a kernel's printf lines are not the tests' output */
    if (!rc && ws_ptx_resources(ptx, v->kernel, &k, err) == 0) opt.resources = &k;
    ws_error_clear(err);
    ws_result_init(res);
    if (!rc) rc = ws_sim_run(m, s, v, &b, &opt, res, err);
    ws_buffers_free(&b);
    if (m) ws_module_free(m);
    if (s) ws_spec_free(s);
    return rc;
}

/* A copy of the tests' preset with each "key = value" of `edits` (NULL-terminated pairs)
 * replaced, written under the build tree as tests/NAME.gpu; its path into `path`, or NULL. */
static inline const char *ws_tr_preset_edit(const char *const *edits, const char *name,
                                            char *path, size_t n)
{
    char *text = NULL;
    size_t len;
    ws_error err;
    ws_error_clear(&err);
    if (ws_read_file(WS_TR_PRESET, &text, &len, &err)) return NULL;
    snprintf(path, n, "%s/tests/%s.gpu", WS_BINARY_DIR, name);
    FILE *f = fopen(path, "w");
    if (!f) { free(text); return NULL; }
    for (char *line = text; *line;) {
        char *nl = strchr(line, '\n');
        size_t l = nl ? (size_t)(nl - line + 1) : strlen(line);
        int done = 0;
        for (int i = 0; edits[i] && !done; i += 2) {
            size_t k = strlen(edits[i]);
            if (!strncmp(line, edits[i], k) && (line[k] == ' ' || line[k] == '=')) {
                fprintf(f, "%s = %s\n", edits[i], edits[i + 1]);
                done = 1;
            }
        }
        if (!done) fwrite(line, 1, l, f);
        line += l;
    }
    fclose(f);
    free(text);
    return path;
}

static inline int ws_tr_run(const char *path, const char *const *defs, const char *variant,
                     ws_result *res, ws_error *err)
{
    return ws_tr_run_on(path, defs, variant, WS_TR_PRESET, res, err);
}
#endif
