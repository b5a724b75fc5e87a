/* common.c — what the subcommands share: printing an error and picking its exit code,
 * finding a workload's spec, the default database, the shared simulate-and-check step. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "kernels/ref/ref.h"
#include "sim/sim.h"

int ws_cli_fail(const ws_error *err)
{
    char line[2048];
    ws_error_format(err, line, sizeof line);
    fprintf(stderr, "warpscope: %s\n", line);
    return err->code == WS_ERR_USAGE ? 2 : 1;
}

const char *ws_cli_kernels_dir(void)
{
    const char *env = getenv("WARPSCOPE_KERNELS");
    return env && *env ? env : WS_KERNELS_DIR;
}

int ws_cli_spec_path(const char *arg, char *path, size_t n, ws_error *err)
{
    size_t len = strlen(arg);
    if (strchr(arg, '/') || (len > 5 && !strcmp(arg + len - 5, ".spec"))) {
        if (access(arg, R_OK) != 0)
            return ws_error_set(err, WS_ERR_IO, "cannot read spec '%s'", arg);
        snprintf(path, n, "%s", arg);
        return WS_OK;
    }
    snprintf(path, n, "%s/%s.spec", ws_cli_kernels_dir(), arg);
    if (access(path, R_OK) != 0)
        return ws_error_set(err, WS_ERR_NOTFOUND,
                            "no workload '%s' (no %s; 'warpscope list' shows the workloads)", arg,
                            path);
    return WS_OK;
}

const char *ws_cli_default_db(void)
{
    const char *env = getenv("WARPSCOPE_DB");
    return env && *env ? env : "warpscope.db";
}

int ws_cli_usage(ws_error *err, const char *cmd, const char *what)
{
    return ws_error_set(err, WS_ERR_USAGE, "%s: %s (try 'warpscope %s --help')", cmd, what, cmd);
}

void ws_cli_warn_namespaced(const ws_spec *s)
{
    const char *cu = strrchr(s->source, '/') ? strrchr(s->source, '/') + 1 : s->source;
    for (int i = 0; i < s->nconsts; i++)
        if (s->consts[i].namespaced)
            fprintf(stderr, "warpscope: warning: %s:%d: constant '%s' is also an identifier in "
                    "%s: passed as -DWS_%s only\n", s->path, s->consts[i].line,
                    s->consts[i].name, cu, s->consts[i].name);
}

int ws_cli_workload_open(const char *arg, const ws_define *defs, int ndefs,
                         ws_cli_workload *w, ws_error *err)
{
    char path[WS_PATH_MAX];
    memset(w, 0, sizeof *w);
    if (ws_cli_spec_path(arg, path, sizeof path, err) != WS_OK)
        return err->code;
    if (ws_spec_load(path, defs, ndefs, &w->spec, err) != WS_OK)
        return err->code;
    ws_cli_warn_namespaced(w->spec);
    if (ws_ptx_build(w->spec, NULL, w->ptx_path, sizeof w->ptx_path, err) != WS_OK)
        return err->code;
    if (ws_ptx_load(w->ptx_path, &w->module, err) != WS_OK)
        return err->code;
    return ws_buffers_generate(w->spec, &w->inputs, err);
}

int ws_cli_workload_sass(ws_cli_workload *w, const char *arch, ws_error *err)
{
    if (w->sass)
        return WS_OK;
    if (ws_sass_build(w->spec, NULL, arch, w->cubin_path, w->sass_path, sizeof w->sass_path,
                      err) != WS_OK)
        return err->code;
    return ws_sass_load(w->sass_path, w->cubin_path, &w->sass, err);
}

const char *ws_cli_default_model(void)
{
    char path[WS_PATH_MAX];
    return ws_nvdisasm_find(path, sizeof path) ? "sass" : "ptx";
}

int ws_cli_simulate(const ws_cli_workload *w, const ws_variant *v, const ws_sim_options *opt,
                    ws_buffers *out, ws_result *res, ws_error *err)
{
    if (ws_buffers_clone(&w->inputs, out, err) != WS_OK)
        return err->code;
    if (!w->sass)
        return ws_sim_run(w->module, w->spec, v, out, opt, res, err);
    int rc = ws_sim_run_sass(w->module, w->sass, w->spec, v, out, opt, res, err);
    if (rc != WS_ERR_UNSUPPORTED || w->model_given)
        return rc;
    char why[sizeof err->msg + 128];
    snprintf(why, sizeof why, "simulated on the PTX model: the SASS model does not run it (%s)",
             err->msg);
    why[sizeof err->msg - 1] = '\0';
    ws_error_clear(err);
    ws_buffers_free(out);
    ws_result_free(res);
    ws_result_init(res);
    if (ws_buffers_clone(&w->inputs, out, err) != WS_OK)
        return err->code;
    rc = ws_sim_run(w->module, w->spec, v, out, opt, res, err);
    if (rc == WS_OK && ws_result_add_warning(res, why))
        rc = ws_error_set(err, WS_ERR_NOMEM, "out of memory");
    return rc;
}

const char *ws_cli_timing_model(const char *preset, ws_error *err)
{
    char model[8];
    if (ws_gpu_preset_model(preset, model, sizeof model, err) != WS_OK)
        return NULL;
    return !strcmp(model, "sass") ? ws_cli_default_model() : "ptx";
}

int ws_cli_check_model(const char *cmd, const char *model, const char *arch, ws_error *err)
{
    if (strcmp(model, "sass") && strcmp(model, "ptx"))
        return ws_error_set(err, WS_ERR_USAGE, "%s: --model is 'sass' (what the GPU runs, from "
                            "ptxas and nvdisasm) or 'ptx' (the PTX under an immediate post-"
                            "dominator stack), not '%s'", cmd, model);
    if (arch && !ws_sass_arch_ok(arch))
        return ws_error_set(err, WS_ERR_USAGE, "%s: --arch is sm_70 .. sm_90, not '%s'", cmd,
                            arch);
    return WS_OK;
}

void ws_cli_workload_close(ws_cli_workload *w)
{
    ws_buffers_free(&w->inputs);
    if (w->sass)
        ws_sass_module_free(w->sass);
    if (w->module)
        ws_module_free(w->module);
    if (w->spec)
        ws_spec_free(w->spec);
    memset(w, 0, sizeof *w);
}

/* Compares every checked buffer of `out` with `want`; on the first difference writes a
 * message naming buffer and index into `msg` and returns 0. */
static int outputs_equal(const ws_spec *s, const ws_buffers *out, const ws_buffers *want,
                         const char *what, char *msg, size_t n)
{
    for (int i = 0; i < s->nbuffers; i++) {
        if (!s->buffers[i].is_output)
            continue;
        uint64_t at = 0;
        if (!ws_buffer_equal(&out->b[i], &want->b[i], &at)) {
            snprintf(msg, n, "%s differs from %s at index %llu", s->buffers[i].name, what,
                     (unsigned long long)at);
            return 0;
        }
    }
    return 1;
}

int ws_cli_check_outputs(const ws_cli_workload *w, const ws_variant *v, const ws_buffers *out,
                         const ws_buffers *first, ws_result *res, ws_error *err)
{
    const ws_spec *s = w->spec;
    int nchecked = 0;
    for (int i = 0; i < s->nbuffers; i++)
        nchecked += s->buffers[i].is_output;
    if (!nchecked)
        return WS_OK;
    res->outputs_checked = 1;
    res->outputs_match = 1;
    snprintf(res->check_message, sizeof res->check_message, "outputs match");
    if (s->reference[0]) {
        ws_reference_fn ref = ws_reference_find(s->reference);
        if (!ref)
            return ws_error_at(err, WS_ERR_SPEC, s->path, 0, "no built-in reference '%s'",
                               s->reference);
        ws_buffers expect;
        if (ws_buffers_clone(&w->inputs, &expect, err) != WS_OK)
            return err->code;
        int rc = ref(s, v, &expect, err);
        if (rc == WS_OK && !outputs_equal(s, out, &expect, "the CPU reference",
                                          res->check_message, sizeof res->check_message))
            res->outputs_match = 0;
        ws_buffers_free(&expect);
        if (rc != WS_OK)
            return rc;
        if (res->outputs_match)
            snprintf(res->check_message, sizeof res->check_message,
                     "outputs match the CPU reference '%s'", s->reference);
    }
    int nfiles = 0;
    for (int i = 0; i < s->nbuffers; i++) { /* check NAME file PATH */
        const ws_buffer_spec *bs = &s->buffers[i];
        int eq = 1;
        uint64_t at = 0;
        if (!bs->expect_path[0])
            continue;
        if (ws_buffer_check_file(&out->b[i], &eq, &at, err) != WS_OK)
            return err->code;
        nfiles++;
        if (!eq && res->outputs_match) {
            const char *base = strrchr(bs->expect_path, '/');
            snprintf(res->check_message, sizeof res->check_message,
                     "%s differs from the expected file %.120s at index %llu", bs->name,
                     base ? base + 1 : bs->expect_path, (unsigned long long)at);
            res->outputs_match = 0;
        }
    }
    if (nfiles && res->outputs_match) {
        size_t n = strlen(res->check_message);
        snprintf(res->check_message + n, sizeof res->check_message - n, "%s",
                 s->reference[0] ? " and the expected files" : " the expected files");
    }
    /* Without a reference, variants are taken to compute the same outputs, unless the spec
     * says they are independent. */
    if (!s->reference[0] && !s->independent && first &&
        !outputs_equal(s, out, first, "the first variant", res->check_message,
                       sizeof res->check_message))
        res->outputs_match = 0;
    return WS_OK;
}

int ws_cli_parse_int(const char *s, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long v = s ? strtoll(s, &end, 10) : 0;
    if (!s || !*s || *end || errno || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

int ws_cli_parse_count(const char *s, int hi, int *out)
{
    long long v;
    if (ws_cli_parse_int(s, 0, hi, &v)) return -1;
    *out = (int)v;
    return 0;
}

void ws_cli_sim_progress(void *ctx, uint64_t done, uint64_t total)
{
    fprintf(stderr, "\r  simulating %s: %llu / %llu CTAs (%3.0f%%)", (const char *)ctx,
            (unsigned long long)done, (unsigned long long)total,
            total ? 100.0 * (double)done / (double)total : 100.0);
    if (done >= total)
        fputs("\r\033[K", stderr);
}

static double ws_launch_value(const ws_launch_stat *l, const char *name)
{
    for (int i = 0; i < l->nmetrics; i++)
        if (!strcmp(l->metrics[i].name, name))
            return l->metrics[i].value;
    return NAN;
}

#define WS_LAUNCHES_SHOWN 32
void ws_cli_print_launches(const ws_result *r)
{
    if (!r->nlaunches)
        return;
    printf("  launches: %d (counts and times above are their sums)\n", r->nlaunches);
    for (int i = 0; i < r->nlaunches && i < WS_LAUNCHES_SHOWN; i++) {
        const ws_launch_stat *l = &r->launches[i];
        double insts = ws_launch_value(l, WS_M(INST_EXECUTED));
        double threads = ws_launch_value(l, WS_M(THREAD_INST_EXECUTED));
        double ns = ws_launch_value(l, WS_M(SIM_TIME_NS));
        if (isnan(ns))
            ns = ws_launch_value(l, WS_M(GPU_TIME_NS));
        printf("    #%-4d %-20s grid %ux%ux%u block %ux%ux%u  %-16s", l->index, l->kernel,
               l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2],
               l->vars[0] ? l->vars : "-");
        if (!isnan(insts))
            printf(" %10.0f warp-insts", insts);
        if (!isnan(insts) && !isnan(threads) && insts > 0)
            printf("  rate %5.1f %%", 100.0 * threads / (32.0 * insts));
        if (!isnan(ns))
            printf("  %10.0f ns", ns);
        printf("\n");
    }
    if (r->nlaunches > WS_LAUNCHES_SHOWN)
        printf("    ... %d more (every launch in --json)\n", r->nlaunches - WS_LAUNCHES_SHOWN);
}

int ws_cli_variant_failed(ws_cli_failures *f, const ws_variant *v, int fail_fast, int rc,
                          ws_error *err)
{
    if (rc == WS_OK || fail_fast || rc == WS_ERR_NOMEM || rc == WS_ERR_DB)
        return rc;
    if (f->n == 1) /* a second failure: the first is printed now, in order */
        ws_cli_fail(&f->first);
    if (f->n++ == 0) {
        f->first = *err;
        snprintf(f->first_variant, sizeof f->first_variant, "%s", v->name);
    } else {
        ws_cli_fail(err);
    }
    ws_error_clear(err);
    return WS_OK;
}

int ws_cli_failures_end(const ws_cli_failures *f, const ws_spec *s, ws_error *err)
{
    if (!f->n)
        return WS_OK;
    if (f->n == 1) { /* the one error, as the command's own */
        *err = f->first;
        return err->code;
    }
    return ws_error_set(err, f->first.code, "%s: %d variants failed (the first: '%s'; the "
                        "errors are above)", s->name, f->n, f->first_variant);
}

/* --dump DIR: the variant's outputs as raw little-endian files DIR/VARIANT.BUFFER.bin (the
 * checked buffers, or every buffer when the spec checks none). */
int ws_cli_dump_outputs(const char *dir, const ws_spec *s, const ws_variant *v,
                        const ws_buffers *out, ws_error *err)
{
    if (ws_mkdir_p(dir, err) != WS_OK) {
        char why[sizeof err->msg];
        snprintf(why, sizeof why, "%s", err->msg);
        return ws_error_set(err, WS_ERR_IO, "--dump: %s", why);
    }
    int nchecked = 0;
    for (int i = 0; i < s->nbuffers; i++)
        nchecked += s->buffers[i].is_output;
    for (int i = 0; i < s->nbuffers; i++) {
        if (nchecked && !s->buffers[i].is_output)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s.%s.bin", dir, v->name, s->buffers[i].name);
        if (ws_buffer_write(&out->b[i], path, err) != WS_OK)
            return err->code;
    }
    return WS_OK;
}
