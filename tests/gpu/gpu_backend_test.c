/* gpu_backend_test.c — the backend and profiler on a real GPU, on tests/gpu/probe.spec:
 * outputs against an independent CPU computation, restore-before-replay (the atomic
 * count), JIT and launch error messages, CUPTI metrics and SASS rows. With no GPU it
 * prints "skipped: no GPU" and exits 77 (ctest SKIP_RETURN_CODE). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "backend/backend.h"
#include "profiler/profiler.h"
#include "tests/check.h"

/* The probe spec; run.sh sets WS_TEST_SOURCE_DIR where the checkout moved (GPU machine). */
static void spec_path(char *buf, size_t n)
{
    const char *dir = getenv("WS_TEST_SOURCE_DIR");
    snprintf(buf, n, "%s/tests/gpu/probe.spec", dir && *dir ? dir : WS_SOURCE_DIR);
}

typedef struct probe {
    ws_gpu *gpu;
    ws_spec *spec;
    const ws_variant *v;
    char ptx[WS_PATH_MAX];
    ws_buffers in;
} probe;

static void check_outputs(const probe *p, const ws_buffers *out, const char *when)
{
    const int32_t *data = p->in.b[0].data, *o = out->b[1].data, *count = out->b[2].data;
    size_t n = p->in.b[0].bytes / 4;
    size_t bad = n;
    for (size_t i = 0; i < n && bad == n; i++) {
        int acc = 0;
        for (int k = 0; k < (data[i] & 7); k++)
            acc = acc * 3 + k;
        if (o[i] != ((data[i] & 4) ? acc + data[i] : acc - data[i]))
            bad = i;
    }
    CHECK(bad == n, "%s: out[%zu] wrong", when, bad);
    CHECK(count[0] == (int32_t)n, "%s: count %d, want %zu (inputs not restored?)", when,
          count[0], n);
}

static double metric(const ws_result *r, const char *name)
{
    const ws_metric *m = ws_result_metric(r, name);
    return m ? m->value : -1;
}

/* The Range Profiler's atomic-instruction counts against the per-SASS-instruction counts
 * of the same opcodes (ATOMG/ATOM/RED global, ATOMS shared): two CUPTI paths, one truth. */
static void check_atomic_counts(const ws_result *res)
{
    double global = 0, shared = 0;
    for (int i = 0; i < res->ninsts; i++) {
        const char *t = res->insts[i].text;
        if (t[0] == '@') { /* a guard predicate: "@P1 ATOMG..." */
            const char *sp = strchr(t, ' ');
            t = sp ? sp + 1 : t;
        }
        if (!strncmp(t, "ATOMS", 5))
            shared += (double)res->insts[i].issued;
        else if (!strncmp(t, "ATOM", 4) || !strncmp(t, "RED", 3))
            global += (double)res->insts[i].issued;
    }
    double ga = metric(res, "smsp__sass_inst_executed_op_global_atom.sum");
    double gr = metric(res, "smsp__sass_inst_executed_op_global_red.sum");
    double sa = metric(res, "smsp__sass_inst_executed_op_shared_atom.sum");
    printf("  atomics: range global atom %g + red %g, shared %g; SASS rows global %g, shared %g\n",
           ga, gr, sa, global, shared);
    CHECK(global > 0, "the probe's atomicAdd shows in the SASS rows");
    CHECK(ga + gr == global, "global atomics: range %g + %g vs SASS %g", ga, gr, global);
    CHECK(sa == shared, "shared atomics: range %g vs SASS %g", sa, shared);
}

/* --metrics: only the named metrics; an unknown one is an error naming it. */
static void test_metric_list(ws_gpu_kernel *k, probe *p)
{
    ws_error err;
    ws_error_clear(&err);
    ws_result res;
    ws_result_init(&res);
    ws_prof_options po;
    ws_prof_options_default(&po);
    po.sass = po.activity = 0;
    po.metrics = "smsp__inst_executed.sum,smsp__sass_inst_executed_op_global_red.sum";
    int rc = ws_prof_profile(k, p->spec, &po, &res, &err);
    CHECK(rc == WS_OK, "profile --metrics: %s", err.msg);
    CHECK(metric(&res, "smsp__inst_executed.sum") > 0 &&
          metric(&res, "smsp__thread_inst_executed.sum") < 0, "only the named metrics");
    ws_result_free(&res);
    ws_result_init(&res);
    po.metrics = "smsp__inst_executed.sum,smsp__no_such_counter.sum";
    rc = ws_prof_profile(k, p->spec, &po, &res, &err);
    CHECK(rc == WS_ERR_CUPTI && strstr(err.msg, "smsp__no_such_counter.sum"),
          "unknown metric named: %s", err.msg);
    printf("unknown metric: %s\n", err.msg);
    ws_result_free(&res);
}

static void test_run(probe *p)
{
    ws_error err;
    ws_error_clear(&err);
    ws_gpu_kernel *k;
    ws_buffers out;
    ws_result res;
    ws_result_init(&res);
    CHECK(ws_buffers_clone(&p->in, &out, &err) == WS_OK, "clone");
    int rc = ws_gpu_kernel_load(p->gpu, p->ptx, p->spec, p->v, &p->in, &k, &err);
    CHECK(rc == WS_OK, "load: %s", err.msg);
    if (rc != WS_OK)
        return;
    ws_gpu_run_options o;
    ws_gpu_run_options_default(&o);
    rc = ws_gpu_run(k, &o, &out, &res, &err);
    CHECK(rc == WS_OK, "run: %s", err.msg);
    check_outputs(p, &out, "run");
    CHECK(metric(&res, "gpu__time_duration.sum") > 0, "event time");
    CHECK(metric(&res, "ws__event_behind_spin") == 1,
          "timed launches queued behind the spin kernel (launch latency kept out)");
    printf("event median %.0f ns\n", metric(&res, "gpu__time_duration.sum"));

    ws_prof_options po;
    ws_prof_options_default(&po);
    rc = ws_prof_profile(k, p->spec, &po, &res, &err);
    CHECK(rc == WS_OK, "profile: %s", err.msg);
    for (int i = 0; i < res.nmetrics; i++)
        printf("  %-56s %.6g\n", res.metrics[i].name, res.metrics[i].value);
    for (int i = 0; i < res.nwarnings; i++)
        printf("  warning: %s\n", res.warnings[i]);
    double ratio = metric(&res, "smsp__thread_inst_executed_per_inst_executed.ratio");
    CHECK(metric(&res, "smsp__inst_executed.sum") > 0, "inst executed");
    CHECK(ratio > 0 && ratio <= 32, "ratio %g", ratio);
    CHECK(metric(&res, "smsp__sass_branch_targets_threads_divergent.sum") > 0, "divergence seen");
    CHECK(res.ninsts > 0, "SASS rows");
    int with_line = 0;
    uint64_t issued = 0;
    for (int i = 0; i < res.ninsts; i++) {
        with_line += res.insts[i].line >= 9 && res.insts[i].line <= 19;
        issued += res.insts[i].issued;
    }
    for (int i = 0; i < res.ninsts; i++)
        if (strstr(res.insts[i].text, "RED") || strstr(res.insts[i].text, "ATOM") ||
            strstr(res.insts[i].text, "BRA") || strstr(res.insts[i].text, "BSYNC"))
            printf("  SASS %s+0x%x line %d %-40s issued %llu threads %llu pred_on %llu\n",
                   res.insts[i].function, res.insts[i].pc, res.insts[i].line, res.insts[i].text,
                   (unsigned long long)res.insts[i].issued,
                   (unsigned long long)res.insts[i].active_threads,
                   (unsigned long long)res.insts[i].pred_on_threads);
    printf("  %d SASS rows, %d on probe.cu lines 9-19, %llu warp-insts\n", res.ninsts,
           with_line, (unsigned long long)issued);
    CHECK(with_line > 0, "SASS rows map to probe.cu lines");
    int dups = 0;
    for (int i = 0; i < res.ninsts; i++)
        for (int j = 0; j < i; j++)
            dups += res.insts[i].pc == res.insts[j].pc &&
                    !strcmp(res.insts[i].function, res.insts[j].function);
    CHECK(dups == 0, "one row per SASS instruction, %d duplicates", dups);
    CHECK((double)issued == metric(&res, "smsp__inst_executed.sum"),
          "SASS issued %llu vs range %g", (unsigned long long)issued,
          metric(&res, "smsp__inst_executed.sum"));
    check_atomic_counts(&res);
    test_metric_list(k, p);
    rc = ws_gpu_run(k, &o, &out, &res, &err);
    CHECK(rc == WS_OK, "run after profile: %s", err.msg);
    check_outputs(p, &out, "after profiling");
    ws_gpu_kernel_free(k);
    ws_buffers_free(&out);
    ws_result_free(&res);
}

static void test_jit_error(probe *p)
{
    char *text, bad[WS_PATH_MAX];
    size_t len;
    ws_error err;
    ws_error_clear(&err);
    if (ws_read_file(p->ptx, &text, &len, &err) != WS_OK)
        return;
    char *at = strstr(text, "ld.param");
    if (at)
        memcpy(at, "xx.bogus", 8);
    snprintf(bad, sizeof bad, "/tmp/warpscope-bad-probe-%d.ptx", (int)getpid());
    FILE *f = fopen(bad, "w");
    fputs(text, f);
    fclose(f);
    free(text);
    ws_gpu_kernel *k = NULL;
    int rc = ws_gpu_kernel_load(p->gpu, bad, p->spec, p->v, &p->in, &k, &err);
    CHECK(rc == WS_ERR_GPU && strstr(err.msg, "JIT of") && strstr(err.msg, "bogus"),
          "JIT error names the bad instruction: %s", err.msg);
    CHECK(!strchr(err.msg, '\n'), "JIT error on one line: %s", err.msg);
    printf("JIT error: %s\n", err.msg);
    unlink(bad);
    ws_gpu_kernel_free(k);
}

static void test_launch_error(probe *p)
{
    ws_variant v = *p->v;
    v.block[0] = 4096; /* more threads than a block may have */
    ws_error err;
    ws_error_clear(&err);
    ws_gpu_kernel *k = NULL;
    int rc = ws_gpu_kernel_load(p->gpu, p->ptx, p->spec, &v, &p->in, &k, &err);
    CHECK(rc == WS_OK, "load: %s", err.msg);
    if (rc != WS_OK)
        return;
    rc = ws_gpu_kernel_launch(k, &err);
    char line[800];
    ws_error_format(&err, line, sizeof line);
    CHECK(rc == WS_ERR_GPU && !strcmp(line, "kernel probe: cuLaunchKernel failed: "
                                      "CUDA_ERROR_INVALID_VALUE (1)"),
          "launch error, naming the kernel once: %s", line);
    printf("launch error: %s\n", err.msg);
    ws_gpu_kernel_free(k);
}

int main(void)
{
    probe p;
    ws_error err;
    memset(&p, 0, sizeof p);
    ws_error_clear(&err);
    /* The PTX first: a machine without a GPU still fills the PTX cache for one with. */
    char spec[WS_PATH_MAX];
    spec_path(spec, sizeof spec);
    int rc = ws_spec_load(spec, NULL, 0, &p.spec, &err);
    if (rc == WS_OK)
        rc = ws_ptx_build(p.spec, NULL, p.ptx, sizeof p.ptx, &err);
    CHECK(rc == WS_OK, "probe workload: %s", err.msg);
    if (ws_gpu_open(NULL, 0, &p.gpu, &err) != WS_OK) {
        printf("skipped: no GPU (%s)\n", err.msg);
        ws_spec_free(p.spec);
        return 77;
    }
    char info[1024];
    ws_gpu_info_json(ws_gpu_get_info(p.gpu), info, sizeof info);
    printf("device %s\n", info);
    if (rc == WS_OK && !(p.v = ws_spec_variant(p.spec, "main", &err)))
        rc = err.code;
    if (rc == WS_OK)
        rc = ws_buffers_generate(p.spec, &p.in, &err);
    CHECK(rc == WS_OK, "probe workload: %s", err.msg);
    if (rc == WS_OK) {
        test_run(&p);
        test_jit_error(&p);
        test_launch_error(&p);
    }
    ws_buffers_free(&p.in);
    ws_spec_free(p.spec);
    ws_prof_release(); /* before the context goes */
    ws_gpu_close(p.gpu);
    return ws_test_finish("gpu_backend");
}
