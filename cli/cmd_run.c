/* cmd_run.c — `warpscope run` and (with profiling on) `warpscope profile`: run a
 * workload's variants on the GPU and on the simulator from the same inputs, cross-check
 * outputs, store both runs. The GPU work is backend/ and profiler/; this is the glue. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/backend.h"
#include "cli/cli.h"
#include "profiler/profiler.h"
#include "sim/sim.h"
#include "store/store.h"

typedef struct gpu_args {
    const char *cmd;
    const char *workload, *variant, *db, *preset;
    const char *model;  /* "sass" (default where nvdisasm is found) or "ptx" */
    int json, no_db, no_sim, device, profile, quiet, no_sass, fail_fast;
    int jit;            /* --jit: the driver compiles the PTX instead of loading ptxas's cubin */
    int model_given;    /* --model named it: no fallback from the SASS model to the PTX one */
    const char *dump;   /* --dump DIR: write the GPU's outputs there; NULL = no */
    ws_gpu_run_options run;
    ws_prof_options prof;
    ws_cli_defines defs;
} gpu_args;

static const char gpu_about[] =
    "Runs the workload on the GPU through the CUDA driver API (the same PTX and the\n"
    "same generated inputs as the simulator; the GPU loads the cubin ptxas makes from\n"
    "that PTX for its architecture, as a program built with nvcc -arch=sm_XX would, or\n"
    "with --jit has the driver compile the PTX), times it with events (median of\n"
    "--repeat launches after --warmup ones; each launch is queued behind a short spin\n"
    "kernel, so the time is the kernel's, not the host's launch latency), runs the\n"
    "simulator on the same inputs, checks the GPU's outputs against the simulator's\n"
    "and the CPU reference, and stores both runs.";
static const char profile_about[] =
    "\n\nWith CUPTI it also collects Nsight Compute metrics per launch (Range\n"
    "Profiler), per-SASS-instruction counts mapped to .cu lines (SASS Metrics) and the\n"
    "kernel duration (Activity API); inputs are restored before every replay pass.";

static int gpu_parse(int argc, char **argv, gpu_args *a, ws_error *err)
{
    const ws_opt opts[] = {
        WS_CLI_OPT_DEFINES(&a->defs),
        WS_CLI_OPT_VARIANT(&a->variant),
        {"--repeat", WS_OPT_INT, &a->run.repeat, "N", "timed launches (default 10)", 1, 1 << 20},
        {"--warmup", WS_OPT_INT, &a->run.warmup, "N",
         "untimed launches first (default 1; 0 for a kernel of minutes)", 0, 1 << 20},
        {"--device", WS_OPT_INT, &a->device, "N", "GPU ordinal (default 0)", 0, 1 << 20},
        WS_CLI_OPT_DB(&a->db),
        {"--no-db", WS_OPT_FLAG, &a->no_db, NULL, "do not store the runs", 0, 0},
        {"--no-sim", WS_OPT_FLAG, &a->no_sim, NULL, "skip the simulator (no cross-check)", 0, 0},
        {"--preset", WS_OPT_STRING, &a->preset, "NAME",
         "timing-model preset for the simulator's predicted time\n"
         "(default: the preset of the GPU's compute capability, e.g. h100; a warning\n"
         "says when that preset was made for another GPU, as h100 for an H200)", 0, 0},
        {"--model", WS_OPT_STRING, &a->model, "M",
         "sass (default where nvdisasm is found): the simulator runs the SASS of the\n"
         "cubin the GPU loads (a kernel it cannot run falls back to ptx, with a\n"
         "warning); ptx: the PTX under an immediate-post-dominator stack", 0, 0},
        {"--jit", WS_OPT_FLAG, &a->jit, NULL,
         "the driver's JIT compiles the PTX (as for a program shipped as PTX only)\n"
         "instead of the GPU loading ptxas's cubin (the simulator then runs the\n"
         "PTX model; not with --model sass)", 0, 0},
        {"--dump", WS_OPT_STRING, &a->dump, "DIR",
         "write the GPU's outputs to DIR/VARIANT.BUFFER.bin (raw little-endian;\n"
         "the checked buffers, or every buffer when the spec checks none)", 0, 0},
        WS_CLI_OPT_JSON(&a->json, "one JSON object per line instead of text"),
        WS_CLI_OPT_FAIL_FAST(&a->fail_fast),
        WS_CLI_OPT_QUIET(&a->quiet),
        /* profile only: */
        {"--no-sass", WS_OPT_FLAG, &a->no_sass, NULL, "skip per-instruction SASS metrics", 0, 0},
        {"--metrics", WS_OPT_STRING, &a->prof.metrics, "LIST",
         "Range Profiler metrics to collect, comma-separated Nsight Compute\n"
         "names (default: the execution-rate, branch and atomic set)", 0, 0},
    };
    char usage[128], about[sizeof gpu_about + sizeof profile_about];
    snprintf(usage, sizeof usage, "warpscope %s WORKLOAD [-D NAME=VALUE]... [--variant V] [options]",
             a->cmd);
    snprintf(about, sizeof about, "%s%s", gpu_about, a->profile ? profile_about : "");
    const ws_cli_cmd cmd = {a->cmd, usage, about, opts, WS_CLI_NOPTS(opts) - (a->profile ? 0 : 2)};
    int npos = 0;
    int rc = ws_cli_parse(&cmd, argc, argv, &a->workload, 1, &npos, err);
    if (rc)
        return rc;
    if (a->no_sass)
        a->prof.sass = 0;
    if (!a->workload)
        return -!!ws_cli_usage(err, a->cmd, "which workload? ('warpscope list' shows them)");
    a->model_given = a->model != NULL;
    if (!a->model)
        a->model = ws_cli_default_model();
    if (ws_cli_check_model(a->cmd, a->model, NULL, err))
        return -1;
    if (a->jit && !a->model_given)
        a->model = "ptx"; /* the JIT's SASS is not the cubin the SASS model reads */
    if (a->jit && !strcmp(a->model, "sass"))
        return -!!ws_cli_usage(err, a->cmd, "--jit with --model sass: the SASS model runs "
                               "ptxas's cubin, so the GPU must load that cubin too");
    /* --metrics and --preset are checked here, before any GPU or CUPTI work. */
    const char *list[WS_PROF_MAX_METRICS];
    char buf[2048];
    if (a->prof.metrics && ws_prof_metric_list(a->prof.metrics, list, buf, sizeof buf, err) < 0)
        return -1;
    if (a->preset && ws_gpu_preset_check(a->preset, err) != WS_OK)
        return -1;
    return 0;
}

/* The timing-model preset for the GPU: --preset, else the one of its compute capability
 * (NULL, with a warning in `res`, when none models it): the device's own where there is
 * one (h200 for an H200), else one of its compute capability. */
static const char *sim_preset(const gpu_args *a, const ws_gpu_info *gi, char *buf, size_t n,
                              ws_result *res)
{
    if (a->preset)
        return a->preset;
    char cc[16];
    snprintf(cc, sizeof cc, "%d.%d", gi->cc_major, gi->cc_minor);
    if (ws_gpu_preset_for_gpu(cc, gi->name, buf, n)) {
        char made_for[128];
        if (ws_gpu_preset_other_gpu(buf, gi->name, made_for, sizeof made_for))
            ws_result_add_warning(res, "timing-model preset %s (%s) stands in for the %s, as the "
                                  "preset of compute capability %s: predicted times assume that "
                                  "GPU's clocks, memory and calibration (pass --preset NAME)",
                                  buf, made_for, gi->name, cc);
        return buf;
    }
    ws_result_add_warning(res, "no timing-model preset for compute capability %s: no predicted "
                          "time (pass --preset NAME)", cc);
    return NULL;
}

/* The simulator's run of the variant on a copy of the inputs, with the timing model of
 * the GPU's preset: outputs into `out`. */
static int sim_side(const ws_cli_workload *w, const ws_variant *v, const gpu_args *a,
                    const ws_gpu_info *gi, ws_buffers *out, ws_result *res, ws_error *err)
{
    ws_sim_options opt;
    ws_sim_options_default(&opt);
    opt.threads = 0;
    char preset[64];
    ws_kernel_resources rk;
    opt.gpu_preset = sim_preset(a, gi, preset, sizeof preset, res);
    if (opt.gpu_preset) {
        opt.timing = 1;
        if (ws_ptx_resources(w->ptx_path, v->kernel, &rk, err) == WS_OK)
            opt.resources = &rk;
        opt.resources_ptx = w->ptx_path;
        ws_error_clear(err);
    }
    if (!a->quiet && isatty(2)) {
        opt.progress = ws_cli_sim_progress;
        opt.progress_ctx = (void *)v->name;
    }
    int rc = ws_cli_simulate(w, v, &opt, out, res, err);
    if (opt.progress)
        fputs("\r\033[K", stderr);
    if (rc != WS_OK || ws_result_compute_regions(res, w->spec) != WS_OK)
        return err->code;
    return ws_cli_check_outputs(w, v, out, NULL, res, err);
}

/* Every checked output of the GPU against the simulator's; the verdict goes into `res`. */
static void cross_check(const ws_spec *s, const ws_buffers *gpu, const ws_buffers *sim,
                        ws_result *res)
{
    for (int i = 0; i < s->nbuffers; i++) {
        if (!s->buffers[i].is_output)
            continue;
        uint64_t at = 0;
        res->outputs_checked = 1;
        if (!ws_buffer_equal(&gpu->b[i], &sim->b[i], &at)) {
            res->outputs_match = 0;
            snprintf(res->check_message, sizeof res->check_message,
                     "GPU output %s differs from the simulator's at index %llu",
                     s->buffers[i].name, (unsigned long long)at);
            return;
        }
    }
    if (res->outputs_checked && res->outputs_match) {
        char prev[200];
        snprintf(prev, sizeof prev, "%.199s", res->check_message);
        snprintf(res->check_message, sizeof res->check_message, "%.200s; equal to the simulator's",
                 prev);
    }
}

/* `profile` of a launch sequence: each launch profiled from the state before it (CUPTI
 * replays each one: seconds a launch), the progress line naming the launch at work. */
typedef struct prof_hook_ctx {
    const ws_spec *s;
    const ws_prof_options *o;
    const char *variant;
    int progress;
} prof_hook_ctx;

static int prof_hook(void *ctx, ws_gpu_kernel *k, const ws_launch *l, ws_result *one,
                     ws_error *err)
{
    prof_hook_ctx *p = ctx;
    if (p->progress)
        fprintf(stderr, "\r\033[K  %s on the GPU: profiling launch %d (%s%s%s)...", p->variant,
                l->index + 1, l->v->kernel, l->vars[0] ? " " : "", l->vars);
    return ws_prof_profile(k, p->s, p->o, one, err);
}

/* A sequence: every launch once, in order, over the same device buffers. */
static int gpu_sequence(ws_gpu_kernel *k, const ws_cli_workload *w, const ws_variant *v,
                        gpu_args *a, ws_buffers *out, ws_result *res, ws_error *err)
{
    int progress = !a->quiet && isatty(2);
    prof_hook_ctx p = {w->spec, &a->prof, v->name, progress};
    if (progress)
        fprintf(stderr, "  %s on the GPU: its launches, %s...", v->name,
                a->profile ? "each profiled then timed" : "each timed once");
    int rc = ws_gpu_run_sequence(k, w->spec, v, a->profile ? prof_hook : NULL, &p, out, res,
                                 err);
    if (progress)
        fputs("\r\033[K", stderr);
    return rc;
}

/* CUPTI's correlation names an instruction's innermost source location, a toolkit header
 * for an intrinsic (atomicAdd's RED in device_atomic_functions.hpp, a cooperative group's
 * VOTE in cooperative_groups.h), where the SASS model's line table (sim/sass_parse.c) names
 * the innermost .cu/.cuh frame of nvdisasm's inlining chain: the kernel line that calls it.
 * Where the GPU ran the SASS model's own cubin, such rows take that line, so that per-line
 * rates, regions and `compare` put the same instructions under the same line on both
 * sides. The counts are CUPTI's; only their line changes. */
static void sass_source_lines(const ws_cli_workload *w, ws_result *res)
{
    if (!w->sass || !w->cubin_path[0])
        return;
    for (int i = 0; i < res->ninsts; i++) {
        ws_inst_stat *st = &res->insts[i];
        if (st->file >= 0 && st->file < res->nfiles &&
            ws_is_cuda_source(res->files[st->file].path, strlen(res->files[st->file].path)))
            continue;
        const char *path;
        int line;
        if (ws_sass_source_line(w->sass, st->function, st->pc, &path, &line) != 0 ||
            !ws_is_cuda_source(path, strlen(path)))
            continue;
        int f = ws_prof_source_file(res, w->spec->source, path);
        if (f >= 0) {
            st->file = f;
            st->line = line;
        }
    }
    ws_result_drop_unused_files(res); /* the toolkit headers CUPTI named, when no row is left there */
}

static int gpu_side(ws_gpu *g, const ws_cli_workload *w, const ws_variant *v, gpu_args *a,
                    ws_buffers *out, ws_result *res, ws_error *err)
{
    ws_gpu_kernel *k;
    if (ws_buffers_clone(&w->inputs, out, err) != WS_OK ||
        ws_gpu_kernel_load_cubin(g, w->ptx_path, w->cubin_path[0] ? w->cubin_path : NULL,
                                 w->spec, v, &w->inputs, &k, err) != WS_OK)
        return err->code;
    if (ws_variant_is_sequence(v)) {
        int rc = gpu_sequence(k, w, v, a, out, res, err);
        sass_source_lines(w, res);
        if (rc == WS_OK && res->ninsts)
            rc = ws_result_compute_regions(res, w->spec);
        ws_gpu_kernel_free(k);
        return rc == WS_OK ? ws_cli_check_outputs(w, v, out, NULL, res, err) : rc;
    }
    ws_gpu_describe(k, w->spec, v, res);
    /* One line while the GPU works: a launch can take minutes and prints nothing. */
    int progress = !a->quiet && isatty(2);
    if (progress)
        fprintf(stderr, "  %s on the GPU: %s%d warm-up + %d timed launch%s (%u blocks of %u)...",
                v->name, a->profile ? "profiling passes, then " : "", a->run.warmup,
                a->run.repeat, a->run.repeat == 1 ? "" : "es",
                res->grid[0] * res->grid[1] * res->grid[2],
                res->block[0] * res->block[1] * res->block[2]);
    int rc = WS_OK;
    if (a->profile)
        rc = ws_prof_profile(k, w->spec, &a->prof, res, err);
    if (rc == WS_OK) {
        double profiled_time = NAN;
        const ws_metric *m = ws_result_metric(res, WS_M(GPU_TIME_NS));
        if (a->profile && m)
            profiled_time = m->value;
        rc = ws_gpu_run(k, &a->run, out, res, err);
        if (rc == WS_OK && !isnan(profiled_time)) {
            ws_result_set_metric(res, WS_M(EVENT_MEDIAN_NS),
                                 ws_result_metric(res, WS_M(GPU_TIME_NS))->value);
            ws_result_set_metric(res, WS_M(GPU_TIME_NS), profiled_time);
        }
    }
    if (progress)
        fputs("\r\033[K", stderr);
    sass_source_lines(w, res);
    if (rc == WS_OK && res->ninsts)
        rc = ws_result_compute_regions(res, w->spec);
    ws_gpu_kernel_free(k);
    if (rc == WS_OK)
        rc = ws_cli_check_outputs(w, v, out, NULL, res, err);
    return rc;
}

static double metric_or(const ws_result *r, const char *name, double dflt)
{
    const ws_metric *m = ws_result_metric(r, name);
    return m ? m->value : dflt;
}

static void print_text(const ws_result *g, const ws_result *s, int racy, int64_t gid,
                       int64_t sid, const char *db, const char *code)
{
    printf("%s / %s   kernel %s   grid %ux%ux%u  block %ux%ux%u   [%s]\n", g->workload,
           g->variant, g->kernel, g->grid[0], g->grid[1], g->grid[2], g->block[0], g->block[1],
           g->block[2], g->params);
    printf("  device              %s\n", g->source + 4);
    printf("  GPU code            %s\n", code);
    if (s)
        printf("  simulator model     %s\n", !strcmp(s->source, "sim:sass") ? "SASS" : "PTX");
    printf("  GPU time            %10.3f us  (", metric_or(g, WS_M(GPU_TIME_NS), NAN) / 1e3);
    if (ws_result_metric(g, WS_M(EVENT_MEDIAN_NS))) /* profile: CUPTI's duration, then events */
        printf("CUPTI's activity record; timed with events: median %.3f us, ",
               metric_or(g, WS_M(EVENT_MEDIAN_NS), NAN) / 1e3);
    else
        printf("median; ");
    printf("min %.3f us over %.0f launches)\n", metric_or(g, WS_M(EVENT_MIN_NS), NAN) / 1e3,
           metric_or(g, WS_M(EVENT_REPEAT), 0));
    if (s && ws_result_metric(s, WS_M(SIM_TIME_NS)))
        printf("  predicted time      %10.3f us  (timing model; %.2fx the GPU's)\n",
               metric_or(s, WS_M(SIM_TIME_NS), NAN) / 1e3,
               metric_or(s, WS_M(SIM_TIME_NS), NAN) / metric_or(g, WS_M(GPU_TIME_NS), NAN));
    const char *ratio = WS_M(THREAD_INST_PER_INST);
    const char *uniform = WS_M(BRANCH_UNIFORM_PCT);
    if (s || ws_result_metric(g, ratio))
        printf("  execution rate      GPU %6.1f %%   simulator %6.1f %%\n",
               100.0 * metric_or(g, ratio, NAN) / 32, s ? 100.0 * metric_or(s, ratio, NAN) / 32 : NAN);
    if (ws_result_metric(g, uniform) || s)
        printf("  branch efficiency   GPU %6.1f %%   simulator %6.1f %%\n",
               metric_or(g, uniform, NAN), s ? metric_or(s, uniform, NAN) : NAN);
    if (g->ninsts)
        printf("  SASS instructions   %d with counts\n", g->ninsts);
    ws_cli_print_launches(g);
    printf("  outputs             %s%s\n", g->outputs_match || !g->outputs_checked ? ""
           : racy ? "differ (racy variant: expected): " : "MISMATCH: ",
           g->outputs_checked ? g->check_message : "not checked");
    for (int i = 0; i < g->nwarnings; i++)
        printf("  warning: %s\n", g->warnings[i]);
    for (int i = 0; s && i < s->nwarnings; i++)
        printf("  simulator warning: %s\n", s->warnings[i]);
    if (gid > 0)
        printf("  stored: gpu run %lld%s%.0lld in %s\n", (long long)gid, sid > 0 ? ", sim run " : "",
               (long long)(sid > 0 ? sid : 0), db);
    printf("\n");
}

static void print_json(const ws_result *g, const ws_result *s, int racy, int64_t gid,
                       int64_t sid, const char *code)
{
    ws_json j;
    ws_json_begin(&j, stdout);
    ws_json_object(&j, NULL);
    ws_json_str(&j, "workload", g->workload);
    ws_json_str(&j, "variant", g->variant);
    ws_json_raw(&j, "device", g->device_json);
    ws_json_str(&j, "gpu_code", code);
    ws_json_int(&j, "gpu_run", gid);
    ws_json_int(&j, "sim_run", sid);
    ws_json_outputs(&j, g);
    ws_json_bool(&j, "racy", racy);
    ws_json_warnings(&j, "warnings", g);
    if (s) /* the simulator's own: a preset standing in, a fallback to PTX, model caveats */
        ws_json_warnings(&j, "sim_warnings", s);
    ws_json_metrics(&j, "gpu", g);
    if (s)
        ws_json_metrics(&j, "sim", s);
    else
        ws_json_raw(&j, "sim", NULL);
    ws_json_launches(&j, g);
    ws_json_end(&j);
    printf("\n");
}

static int one_variant(ws_gpu *g, const ws_cli_workload *w, const ws_variant *v, gpu_args *a,
                       ws_store *store, int *mismatches, ws_error *err)
{
    ws_result gres, sres;
    ws_buffers gout = {0}, sout = {0};
    int64_t gid = 0, sid = 0;
    ws_result_init(&gres);
    ws_result_init(&sres);
    int rc = gpu_side(g, w, v, a, &gout, &gres, err);
    if (rc == WS_OK && a->dump)
        rc = ws_cli_dump_outputs(a->dump, w->spec, v, &gout, err);
    if (rc == WS_OK && !a->no_sim) {
        rc = sim_side(w, v, a, ws_gpu_get_info(g), &sout, &sres, err);
        if (rc == WS_OK)
            cross_check(w->spec, &gout, &sout, &gres);
    }
    if (rc == WS_OK && store && !a->no_sim)
        rc = ws_store_save_result(store, &sres, &sid, err);
    if (rc == WS_OK && store)
        rc = ws_store_save_result(store, &gres, &gid, err);
    if (rc == WS_OK) {
        const char *code = w->cubin_path[0] ? "ptxas's cubin" : "the driver's JIT of the PTX";
        if (a->json)
            print_json(&gres, a->no_sim ? NULL : &sres, v->racy, gid, sid, code);
        else
            print_text(&gres, a->no_sim ? NULL : &sres, v->racy, gid, sid, a->db, code);
        *mismatches += gres.outputs_checked && !gres.outputs_match && !v->racy;
    }
    ws_buffers_free(&gout);
    ws_buffers_free(&sout);
    ws_result_free(&gres);
    ws_result_free(&sres);
    return rc;
}

static int gpu_all(gpu_args *a, ws_error *err)
{
    ws_gpu *g = NULL;
    ws_store *store = NULL;
    ws_cli_workload w;
    int mismatches = 0, rc;
    memset(&w, 0, sizeof w);
    if (ws_gpu_open(NULL, a->device, &g, err) != WS_OK)
        return err->code;
    rc = ws_cli_workload_open(a->workload, a->defs.defs, a->defs.n, &w, err);
    w.model_given = a->model_given;
    const ws_gpu_info *gi = ws_gpu_get_info(g);
    char arch[16];
    snprintf(arch, sizeof arch, "sm_%d%d", gi->cc_major, gi->cc_minor);
    /* The cubin: the SASS model's, else ptxas's alone; the driver's JIT where ptxas does
     * not target this GPU or --jit asks for it. */
    if (rc == WS_OK && !strcmp(a->model, "sass"))
        rc = ws_cli_workload_sass(&w, arch, err);
    else if (rc == WS_OK && !a->jit && ws_sass_arch_ok(arch))
        rc = ws_sass_build(w.spec, NULL, arch, w.cubin_path, NULL, sizeof w.cubin_path, err);
    if (rc == WS_OK && a->variant && !ws_spec_variant(w.spec, a->variant, err))
        rc = err->code;
    if (rc == WS_OK && !a->no_db)
        rc = ws_store_open(a->db, &store, err);
    ws_cli_failures failures = {0};
    for (int i = 0; rc == WS_OK && i < w.spec->nvariants; i++) {
        const ws_variant *v = &w.spec->variants[i];
        if (a->variant && strcmp(v->name, a->variant))
            continue;
        rc = one_variant(g, &w, v, a, store, &mismatches, err);
        rc = ws_cli_variant_failed(&failures, v, a->fail_fast, rc, err);
    }
    if (rc == WS_OK && w.spec)
        rc = ws_cli_failures_end(&failures, w.spec, err);
    if (rc == WS_OK && mismatches)
        rc = ws_error_set(err, WS_ERR_CHECK, "%s: %d variant(s) with GPU outputs that differ",
                          w.spec->name, mismatches);
    if (store)
        ws_store_close(store);
    ws_cli_workload_close(&w);
    ws_prof_release(); /* before the context goes */
    ws_gpu_close(g);
    return rc;
}

int ws_cli_gpu_command(int argc, char **argv, int profile)
{
    ws_error err;
    gpu_args a;
    ws_error_clear(&err);
    memset(&a, 0, sizeof a);
    a.cmd = profile ? "profile" : "run";
    a.profile = profile;
    a.db = ws_cli_default_db();
    ws_gpu_run_options_default(&a.run);
    ws_prof_options_default(&a.prof);
    int rc = gpu_parse(argc, argv, &a, &err);
    if (rc > 0)
        return 0;
    if (rc < 0 || gpu_all(&a, &err) != WS_OK)
        return ws_cli_fail(&err);
    return 0;
}

int ws_cmd_run(int argc, char **argv)
{
    return ws_cli_gpu_command(argc, argv, 0);
}
