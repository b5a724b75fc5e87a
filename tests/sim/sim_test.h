/* sim_test.h — helpers shared by the simulator tests: load a test PTX, run an inline spec
 * (parsed with ws_spec_parse beside tests/sim/cu/) on the simulator, and look up
 * per-instruction statistics by source line. */
#ifndef WS_TEST_SIM_TEST_H
#define WS_TEST_SIM_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/sim.h"
#include "tests/check.h"

typedef struct st_run {
    ws_spec *spec;
    ws_buffers bufs;
    ws_result res;
    ws_error err;
    int rc;
} st_run;

static inline ws_module *st_load(const char *stem)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.ptx", WS_SIM_PTX_DIR, stem);
    ws_module *m = NULL;
    ws_error err;
    ws_error_clear(&err);
    if (ws_ptx_load(path, &m, &err)) {
        char buf[800];
        ws_error_format(&err, buf, sizeof buf);
        fprintf(stderr, "cannot load %s: %s\n", path, buf);
        return NULL;
    }
    return m;
}

/* Runs `variant` of the spec text (its `source` is relative to tests/sim/cu/) on the PTX
 * model, or on the SASS model when `sass` is not NULL; `fill` (may be NULL) sets the
 * generated buffers first. */
static inline int st_exec_fill(st_run *r, ws_module *m, ws_sass_module *sass,
                               const char *spec_text, const char *variant,
                               const ws_sim_options *opt, void (*fill)(st_run *))
{
    memset(r, 0, sizeof *r);
    ws_error_clear(&r->err);
    ws_result_init(&r->res);
    r->rc = ws_spec_parse(spec_text, WS_SIM_CU_DIR "/inline.spec", NULL, 0, &r->spec, &r->err);
    if (!r->rc)
        r->rc = ws_buffers_generate(r->spec, &r->bufs, &r->err);
    const ws_variant *v = r->rc ? NULL : ws_spec_variant(r->spec, variant, &r->err);
    if (!r->rc && !v)
        r->rc = r->err.code ? r->err.code : WS_ERR_NOTFOUND;
    if (!r->rc && fill)
        fill(r);
    ws_sim_options o;
    ws_sim_options_default(&o);
    if (!opt) {
        o.threads = 1;
        opt = &o;
    }
    if (!r->rc)
        r->rc = sass ? ws_sim_run_sass(m, sass, r->spec, v, &r->bufs, opt, &r->res, &r->err)
                     : ws_sim_run(m, r->spec, v, &r->bufs, opt, &r->res, &r->err);
    if (r->rc && m) {
        char buf[800];
        ws_error_format(&r->err, buf, sizeof buf);
        fprintf(stderr, "  (run %s: %s)\n", variant ? variant : "-", buf);
    }
    return r->rc;
}

static inline int st_exec_on(st_run *r, ws_module *m, ws_sass_module *sass,
                             const char *spec_text, const char *variant,
                             const ws_sim_options *opt)
{
    return st_exec_fill(r, m, sass, spec_text, variant, opt, NULL);
}

static inline int st_exec(st_run *r, ws_module *m, const char *spec_text, const char *variant,
                          const ws_sim_options *opt)
{
    return st_exec_fill(r, m, NULL, spec_text, variant, opt, NULL);
}

static inline void st_free(st_run *r)
{
    ws_result_free(&r->res);
    if (r->spec) {
        ws_buffers_free(&r->bufs);
        ws_spec_free(r->spec);
    }
    memset(r, 0, sizeof *r);
}

static inline const ws_buffer *st_buf(const st_run *r, const char *name)
{
    for (int i = 0; i < r->bufs.n; i++)
        if (strcmp(r->bufs.b[i].spec->name, name) == 0)
            return &r->bufs.b[i];
    return NULL;
}

static inline double st_metric(const st_run *r, const char *name)
{
    const ws_metric *m = ws_result_metric(&r->res, name);
    return m ? m->value : -1;
}

/* The run's warnings other than the SASS model's `model caveat` ones (where it is known to
 * part from the GPU), which say nothing of races or faults; *first the first of them. */
static inline int st_warnings(const st_run *r, const char **first)
{
    int n = 0;
    *first = "";
    for (int i = 0; i < r->res.nwarnings; i++)
        if (strncmp(r->res.warnings[i], WS_CAVEAT, strlen(WS_CAVEAT)) && !n++)
            *first = r->res.warnings[i];
    return n;
}

/* Sums of the instruction statistics of the kernel `fn` on source line `line`. */
typedef struct st_sum {
    uint64_t n, issued, active, pred_on, targets, divergent;
} st_sum;

static inline st_sum st_line(const st_run *r, int line, const char *text_prefix)
{
    st_sum s = {0, 0, 0, 0, 0, 0};
    for (int i = 0; i < r->res.ninsts; i++) {
        const ws_inst_stat *in = &r->res.insts[i];
        if (line && in->line != line)
            continue;
        if (text_prefix && strncmp(in->text, text_prefix, strlen(text_prefix)) != 0)
            continue;
        s.n++;
        s.issued += in->issued;
        s.active += in->active_threads;
        s.pred_on += in->pred_on_threads;
        s.targets += in->branch_targets;
        s.divergent += in->divergent_branches;
    }
    return s;
}

/* Line (1-based) of the first line containing `needle` in the .cu file. */
static inline int st_cu_line(const char *cu, const char *needle)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", WS_SIM_CU_DIR, cu);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char buf[512];
    int line = 0, found = 0;
    while (fgets(buf, sizeof buf, f)) {
        line++;
        if (strstr(buf, needle)) {
            found = line;
            break;
        }
    }
    fclose(f);
    return found;
}
/* The SASS of tests/sim's STEM.ptx (ptxas + nvdisasm, as `--model sass` builds it):
 * 0 with *out set; 1 with a "skipped" line when nvdisasm is missing; -1 on an error. */
static inline int st_load_sass(const char *stem, const char *test, ws_sass_module **out)
{
    char ptx_path[512], cubin[1024], sass_path[1024], probe[1024];
    *out = NULL;
    if (!ws_nvdisasm_find(probe, sizeof probe)) {
        printf("%s: SASS part skipped: no nvdisasm (%s)\n", test, probe);
        return 1;
    }
    snprintf(ptx_path, sizeof ptx_path, "%s/%s.ptx", WS_SIM_PTX_DIR, stem);
    ws_error err;
    ws_error_clear(&err);
    int rc = ws_sass_build_ptx(ptx_path, NULL, NULL, cubin, sass_path, sizeof cubin, &err);
    if (!rc)
        rc = ws_sass_load(sass_path, cubin, out, &err);
    CHECK(rc == 0, "%s.ptx's SASS builds and loads: %s", stem, err.msg);
    return rc ? -1 : 0;
}

#endif
