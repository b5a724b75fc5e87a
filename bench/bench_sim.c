/* bench_sim.c — simulator throughput: runs a workload spec's variants (default
 * kernels/branch_unification.spec, variants after then before) on one host thread and on
 * all cores, and prints simulated thread-instructions per second (best of 3). Not a test.
 * With --model sass the same variants run as the SASS ptxas makes (the SASS model);
 * --model both prints the PTX and the SASS model one after the other.
 *   bench_sim [SPEC] [-D K=V]... [--variant V]... [--timing] [--races] [--model ptx|sass|both]
 *   (run from the repository root; --variant replaces the default after and before)
 * The timed order of CAS retry loops (sass_exec.c) on the SASS model:
 *   bench_sim kernels/histogram.spec --model sass --variant double_cas --variant atomic
 *             -D N=4224 -D TOTAL_THREADS=4224 -D THREADS=32
 * One thread, M thread-inst per CPU-second, branch_unification after/before: PTX 560/500;
 * SASS 343/298 with table dispatch, 697/658 with decoded plain forms (sass_fast.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "sim/sim.h"

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double now(void) { return clock_s(CLOCK_MONOTONIC); }
/* CPU seconds of the whole process: on a shared host it counts only the time the
 * simulator ran, so the one-thread rates stay comparable while others load the machine. */
static double cpu_now(void) { return clock_s(CLOCK_PROCESS_CPUTIME_ID); }

static int bench_one(const ws_module *m, const ws_sass_module *sm, const ws_spec *s,
                     const char *variant, int threads, int timing, int races, int named)
{
    ws_error err;
    ws_error_clear(&err);
    const ws_variant *v = ws_spec_variant(s, variant, &err);
    if (!v && !named)
        return 0; /* the spec has no after or before: nothing to measure by default */
    if (!v)
        goto fail; /* a --variant the spec does not have */
    ws_buffers bufs;
    if (ws_buffers_generate(s, &bufs, &err))
        goto fail;
    ws_sim_options o;
    ws_sim_options_default(&o);
    o.threads = threads;
    o.timing = timing;
    o.detect_races = races;
    ws_result res;
    ws_result_init(&res);
    double dt = 1e30, cpu = 1e30;
    for (int rep = 0; rep < 3; rep++) { /* best of three: the host may be busy */
        ws_result_free(&res);
        double t0 = now(), c0 = cpu_now();
        int rc = sm ? ws_sim_run_sass(m, sm, s, v, &bufs, &o, &res, &err)
                    : ws_sim_run(m, s, v, &bufs, &o, &res, &err);
        double t = now() - t0, c = cpu_now() - c0;
        if (rc) {
            ws_buffers_free(&bufs);
            ws_result_free(&res);
            goto fail;
        }
        dt = t < dt ? t : dt;
        cpu = c < cpu ? c : cpu;
    }
    ws_buffers_free(&bufs);
    const ws_metric *ti = ws_result_metric(&res, "smsp__thread_inst_executed.sum");
    const ws_metric *wi = ws_result_metric(&res, "smsp__inst_executed.sum");
    double tinst = ti ? ti->value : 0, winst = wi ? wi->value : 0;
    int nthreads = threads > 0 ? threads : (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (timing)
        nthreads = 1; /* the timing model consumes one ordered event stream */
    const ws_metric *tns = ws_result_metric(&res, "sim__time_ns");
    char extra[64] = "";
    if (timing)
        snprintf(extra, sizeof extra, "  [timing: sim__time_ns %.0f]", tns ? tns->value : -1.0);
    printf("%-4s %-16s %-8s threads=%-3d %12.0f thread-inst %10.0f warp-inst %8.3f s  "
           "%7.1f M thread-inst/s  (%6.1f M/s per thread, %6.1f M/s per CPU-second)%s\n",
           sm ? "sass" : "ptx", s->name, variant, nthreads, tinst, winst, dt, tinst / dt / 1e6,
           tinst / dt / 1e6 / nthreads, tinst / cpu / 1e6, extra);
    ws_result_free(&res);
    return 0;
fail: {
        char buf[800];
        ws_error_format(&err, buf, sizeof buf);
        fprintf(stderr, "bench_sim: %s\n", buf);
        return 1;
    }
}

int main(int argc, char **argv)
{
    const char *path = "kernels/branch_unification.spec";
    ws_define defs[16];
    int ndefs = 0, timing = 0, races = 0;
    const char *model = "ptx";
    const char *variants[8] = {"after", "before"};
    int nvariants = 2, named = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-D") == 0 && i + 1 < argc && ndefs < 16) {
            ws_error e;
            if (ws_define_parse(argv[++i], &defs[ndefs], &e) == 0)
                ndefs++;
        } else if (strcmp(argv[i], "--timing") == 0) {
            timing = 1;
        } else if (strcmp(argv[i], "--races") == 0) {
            races = 1;
        } else if (strcmp(argv[i], "--model") == 0 && i + 1 < argc) {
            model = argv[++i];
        } else if (strcmp(argv[i], "--variant") == 0 && i + 1 < argc && named < 8) {
            variants[named++] = argv[++i];
            nvariants = named;
        } else {
            path = argv[i];
        }
    }
    ws_error err;
    ws_error_clear(&err);
    ws_spec *s = NULL;
    ws_module *m = NULL;
    char ptx[1024];
    if (ws_spec_load(path, defs, ndefs, &s, &err) || ws_ptx_build(s, NULL, ptx, sizeof ptx, &err) ||
        ws_ptx_load(ptx, &m, &err)) {
        char buf[800];
        ws_error_format(&err, buf, sizeof buf);
        fprintf(stderr, "bench_sim: %s\n", buf);
        ws_spec_free(s);
        return 1;
    }
    ws_sass_module *sm = NULL;
    char cubin[1024], sass[1024];
    if (strcmp(model, "ptx") && (ws_sass_build(s, NULL, NULL, cubin, sass, sizeof sass, &err) ||
                                 ws_sass_load(sass, cubin, &sm, &err))) {
        char buf[800];
        ws_error_format(&err, buf, sizeof buf);
        fprintf(stderr, "bench_sim: %s\n", buf);
        ws_module_free(m);
        ws_spec_free(s);
        return 1;
    }
    int rc = 0;
    for (int k = 0; k < nvariants; k++)
        for (int pass = 0; pass < 2; pass++) {
            const ws_sass_module *use = pass ? sm : NULL;
            if ((pass == 0 && !strcmp(model, "sass")) || (pass == 1 && !sm))
                continue;
            rc |= bench_one(m, use, s, variants[k], 1, timing, races, named);
            if (rc && named)
                break; /* one error line for a variant the spec lacks */
            rc |= bench_one(m, use, s, variants[k], 0, timing, races, named);
        }
    if (sm)
        ws_sass_module_free(sm);
    ws_module_free(m);
    ws_spec_free(s);
    return rc;
}
