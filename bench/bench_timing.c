/* bench_timing.c — simulator speed with the timing model on vs functional only, on one
 * host thread (the timing model forces one): prints both rates and their ratio (issue 5
 * asks for timing within 3x). Usage: bench_timing [SPEC [VARIANT]]. Not a test. */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "sim/sim.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static int once(ws_module *m, ws_spec *s, const ws_variant *v, const ws_buffers *in, int timing,
                double *sec, double *tinst, ws_error *err)
{
    ws_buffers b;
    if (ws_buffers_clone(in, &b, err)) return err->code;
    ws_sim_options o;
    ws_sim_options_default(&o);
    o.threads = 1;
    o.detect_races = 0;
    o.timing = timing;
    ws_result r;
    ws_result_init(&r);
    double t0 = now();
    int rc = ws_sim_run(m, s, v, &b, &o, &r, err);
    *sec = now() - t0;
    if (!rc && !ws_result_metric(&r, "smsp__thread_inst_executed.sum")) ws_result_derive_metrics(&r);
    const ws_metric *ti = ws_result_metric(&r, "smsp__thread_inst_executed.sum");
    *tinst = ti ? ti->value : 0;
    ws_result_free(&r);
    ws_buffers_free(&b);
    return rc;
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "kernels/branch_unification.spec";
    ws_error err;
    ws_error_clear(&err);
    ws_spec *s;
    ws_module *m;
    ws_buffers in;
    char ptx[WS_PATH_MAX], line[1024];
    if (ws_spec_load(path, NULL, 0, &s, &err) || ws_ptx_build(s, NULL, ptx, sizeof ptx, &err) ||
        ws_ptx_load(ptx, &m, &err) || ws_buffers_generate(s, &in, &err)) {
        ws_error_format(&err, line, sizeof line);
        fprintf(stderr, "bench_timing: %s\n", line);
        return 1;
    }
    const ws_variant *v = ws_spec_variant(s, argc > 2 ? argv[2] : NULL, &err);
    double f_sec, f_ti, t_sec, t_ti;
    if (!v || once(m, s, v, &in, 0, &f_sec, &f_ti, &err) || once(m, s, v, &in, 1, &t_sec, &t_ti, &err)) {
        ws_error_format(&err, line, sizeof line);
        fprintf(stderr, "bench_timing: %s\n", line);
        return 1;
    }
    printf("%s/%s, 1 host thread\n", s->name, v->name);
    printf("  functional only: %8.3f s  %8.1f M thread-inst/s\n", f_sec, f_ti / f_sec / 1e6);
    printf("  with timing:     %8.3f s  %8.1f M thread-inst/s\n", t_sec, t_ti / t_sec / 1e6);
    printf("  timing slowdown: %.2fx (goal: within 3x)\n", t_sec / f_sec);
    ws_buffers_free(&in);
    ws_module_free(m);
    ws_spec_free(s);
    return 0;
}
