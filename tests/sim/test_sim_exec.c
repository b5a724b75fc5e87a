/* test_sim_exec.c — golden tests of SIMT execution on real nvcc PTX: divergent vs
 * warp-uniform branches (seed 004), nested divergence, predication counted apart from
 * inactive lanes (seed 003), loops with per-lane trip counts, and multithreaded runs
 * giving the same counts and outputs as one thread. */
#include "tests/sim/sim_test.h"

static const char *SPEC_BRANCH =
    "workload branches\nsource divergence.cu\n"
    "buffer out i32 128 zero\n"
    "variant tid0\n  kernel diverge_tid0\n  grid 2\n  block 64\n  args out 3\n"
    "variant warp\n  kernel uniform_warp\n  grid 2\n  block 64\n  args out 3\n"
    "variant nested\n  kernel nested\n  grid 1\n  block 32\n  args out 4\n";

static void test_divergent_vs_uniform(ws_module *m)
{
    st_run r;
    int line_if = st_cu_line("divergence.cu", "if (t == 0)");
    if (st_exec(&r, m, SPEC_BRANCH, "tid0", NULL) == 0) {
        st_sum s = st_line(&r, 0, NULL);
        CHECK(s.divergent == 2, "threadIdx.x == 0: %llu divergent branches, want 2 (one per CTA)",
              (unsigned long long)s.divergent);
        st_sum at = st_line(&r, line_if, "bra");
        CHECK(at.divergent == 2, "divergence at the if line %d: %llu", line_if,
              (unsigned long long)at.divergent);
        /* two divergent executions, one divergent target each (CUPTI's count) */
        CHECK(st_metric(&r, "smsp__sass_branch_targets_threads_divergent.sum") == 2,
              "metric divergent = %g", st_metric(&r, "smsp__sass_branch_targets_threads_divergent.sum"));
        const int *out = st_buf(&r, "out")->data;
        int ok = 1;
        for (int i = 0; i < 128; i++)
            ok &= out[i] == (i % 64 == 0 ? 3 : 0);
        CHECK(ok, "diverge_tid0 outputs");
        CHECK(strcmp(r.res.source, "sim:ipdom") == 0, "source %s", r.res.source);
        CHECK(strcmp(r.res.kernel, "diverge_tid0") == 0, "kernel %s", r.res.kernel);
        CHECK(r.res.grid[0] == 2 && r.res.block[0] == 64, "launch shape");
        CHECK(r.res.nfiles >= 1 && strstr(r.res.files[0].path, "divergence.cu") &&
              r.res.files[0].text && strstr(r.res.files[0].text, "diverge_tid0"),
              "the .cu source is in the result");
        CHECK(r.res.nblocks > 2, "basic blocks: %d", r.res.nblocks);
        CHECK(r.res.nwarnings == 0, "no race warnings: %d (%s)", r.res.nwarnings,
              r.res.nwarnings ? r.res.warnings[0] : "");
    } else {
        CHECK(0, "diverge_tid0 ran");
    }
    st_free(&r);

    if (st_exec(&r, m, SPEC_BRANCH, "warp", NULL) == 0) {
        st_sum s = st_line(&r, 0, NULL);
        CHECK(s.divergent == 0, "threadIdx.x / 32 == 0: %llu divergent branches, want 0",
              (unsigned long long)s.divergent);
        CHECK(s.targets > 0, "branches were executed");
        const int *out = st_buf(&r, "out")->data;
        int ok = 1;
        for (int i = 0; i < 128; i++)
            ok &= out[i] == (i % 64 < 32 ? 3 : 0);
        CHECK(ok, "uniform_warp outputs");
        CHECK(st_metric(&r, "smsp__sass_average_branch_targets_threads_uniform.pct") == 100,
              "uniform pct %g", st_metric(&r, "smsp__sass_average_branch_targets_threads_uniform.pct"));
    } else {
        CHECK(0, "uniform_warp ran");
    }
    st_free(&r);
}

static void test_nested(ws_module *m)
{
    st_run r;
    int l1 = st_cu_line("divergence.cu", "if (t < 16)");
    int l2 = st_cu_line("divergence.cu", "if (t < 8)");
    if (st_exec(&r, m, SPEC_BRANCH, "nested", NULL) == 0) {
        st_sum s = st_line(&r, 0, NULL);
        CHECK(s.divergent == 2, "nested: %llu divergent branches, want 2",
              (unsigned long long)s.divergent);
        CHECK(st_line(&r, l1, "bra").divergent == 1, "outer if diverges once");
        CHECK(st_line(&r, l2, "bra").divergent == 1, "inner if diverges once");
        const int *out = st_buf(&r, "out")->data;
        int ok = 1;
        for (int t = 0; t < 32; t++)
            ok &= out[t] == (t < 8 ? 6 : t < 16 ? 12 : 18);
        CHECK(ok, "nested outputs");
    } else {
        CHECK(0, "nested ran");
    }
    st_free(&r);
}

static void test_predication(ws_module *m)
{
    st_run r;
    const char *spec =
        "workload pred\nsource divergence.cu\n"
        "buffer in i32 64 iota\nbuffer out i32 64 zero\n"
        "variant v\n  kernel predicated\n  grid 1\n  block 64\n  args in out\n";
    if (st_exec(&r, m, spec, "v", NULL) == 0) {
        int guarded = 0;
        for (int i = 0; i < r.res.ninsts; i++) {
            const ws_inst_stat *in = &r.res.insts[i];
            if (in->pred_on_threads == in->active_threads)
                continue;
            guarded++;
            CHECK(in->issued == 2 && in->active_threads == 64 && in->pred_on_threads == 32,
                  "guarded %s: issued %llu active %llu pred_on %llu", in->text,
                  (unsigned long long)in->issued, (unsigned long long)in->active_threads,
                  (unsigned long long)in->pred_on_threads);
        }
        CHECK(guarded == 2, "two predicated instructions (@p add, @!p sub): %d", guarded);
        CHECK(st_metric(&r, "smsp__thread_inst_executed_pred_on.sum") ==
                  st_metric(&r, "smsp__thread_inst_executed.sum") - 64,
              "pred_on total = executed - 64 predicated-off lanes");
        const int *out = st_buf(&r, "out")->data;
        int ok = 1;
        for (int t = 0; t < 64; t++)
            ok &= out[t] == ((t & 1) ? t + 7 : t - 5);
        CHECK(ok, "predicated outputs");
    } else {
        CHECK(0, "predicated ran");
    }
    st_free(&r);
}

static int32_t loop_ref(int n)
{
    uint32_t acc = 0;
    for (int i = 0; i < n; i++)
        acc = acc * 31u + (uint32_t)i;
    return (int32_t)acc;
}

static void test_loop(ws_module *m, int threads, ws_result *keep)
{
    st_run r;
    const char *spec =
        "workload loop\nsource divergence.cu\n"
        "buffer trips i32 256 uniform_int 0 20\nbuffer out i32 256 zero\n"
        "variant v\n  kernel loop_trips\n  grid 4\n  block 64\n  args trips out\n";
    ws_sim_options o;
    ws_sim_options_default(&o);
    o.threads = threads;
    if (st_exec(&r, m, spec, "v", &o) == 0) {
        const int *trips = st_buf(&r, "trips")->data, *out = st_buf(&r, "out")->data;
        uint64_t want_issued = 0, want_active = 0;
        int ok = 1;
        for (int w = 0; w < 8; w++) {
            int mx = 0;
            for (int l = 0; l < 32; l++) {
                int t = trips[w * 32 + l];
                mx = t > mx ? t : mx;
                want_active += (uint64_t)t;
            }
            want_issued += (uint64_t)mx;
        }
        for (int i = 0; i < 256; i++)
            ok &= out[i] == loop_ref(trips[i]);
        CHECK(ok, "loop outputs (threads=%d)", threads);
        st_sum s = st_line(&r, 0, "mul.lo"); /* the kernel's only mul.lo: the loop body */
        CHECK(s.n == 1 && s.issued == want_issued && s.active == want_active,
              "loop body: %llu insts issued %llu (want %llu) active %llu (want %llu)",
              (unsigned long long)s.n, (unsigned long long)s.issued,
              (unsigned long long)want_issued, (unsigned long long)s.active,
              (unsigned long long)want_active);
        if (keep->ninsts == 0) {
            *keep = r.res;
            ws_result_init(&r.res);
        } else {
            int same = keep->ninsts == r.res.ninsts;
            for (int i = 0; same && i < keep->ninsts; i++)
                same = keep->insts[i].issued == r.res.insts[i].issued &&
                       keep->insts[i].active_threads == r.res.insts[i].active_threads;
            CHECK(same, "threads=%d gives the same counts as threads=1", threads);
        }
    } else {
        CHECK(0, "loop_trips ran");
    }
    st_free(&r);
}

static void test_calls(void)
{
    ws_module *m = st_load("calls");
    CHECK(m != NULL, "calls.ptx loads");
    if (!m)
        return;
    const char *spec = "workload calls\nsource calls.cu\n"
                       "buffer in i32 64 uniform_int 0 100\nbuffer out i32 64 zero\n"
                       "variant v\n  kernel generic_calls\n  grid 1\n  block 64\n  args in out\n";
    st_run r;
    if (st_exec(&r, m, spec, "v", NULL) == 0) {
        const int *in = st_buf(&r, "in")->data, *out = st_buf(&r, "out")->data;
        int bad = -1, want = 0;
        for (int t = 0; t < 64 && bad < 0; t++) {
            int a = 0, b = 0, c = 0;
            for (int i = 0; i < (t & 7); i++)
                a += in[i] * 2;
            for (int i = 0; i < (t & 3); i++)
                b += in[i];
            for (int i = 0; i < (in[t] & 7) + 1; i++)
                c += in[(t + i) & 63] + i;
            want = a * 1000 + b * 10 + c;
            if (out[t] != want)
                bad = t;
        }
        CHECK(bad < 0, "call/ret through generic shared/global/local pointers: thread %d got %d "
              "want %d", bad, bad >= 0 ? out[bad] : 0, want);
        int callee = 0;
        for (int i = 0; i < r.res.ninsts; i++)
            callee += strstr(r.res.insts[i].function, "accumulate") && r.res.insts[i].issued > 0;
        CHECK(callee > 0, "the callee's instructions are counted (%d)", callee);
    } else {
        CHECK(0, "generic_calls ran");
    }
    st_free(&r);
    const char *rec = "workload rec\nsource calls.cu\n"
                      "buffer in i32 64 uniform_int 0 100\nbuffer out i32 64 zero\n"
                      "variant v\n  kernel recursive\n  grid 1\n  block 64\n  args in out\n";
    int rc = st_exec(&r, m, rec, "v", NULL);
    CHECK(rc == WS_ERR_SIM && strstr(r.err.msg, "recursion is not supported (call to _Z3fibi)") &&
              r.err.has_thread && strcmp(r.err.kernel, "recursive") == 0,
          "recursion: %d %s", rc, r.err.msg);
    st_free(&r);
    ws_module_free(m);
}

static int progress_calls;
static uint64_t progress_last, progress_total;
static void on_progress(void *ctx, uint64_t done, uint64_t total)
{
    (void)ctx;
    progress_calls++;
    progress_last = done;
    progress_total = total;
}

/* Timelines of the first warps and the progress callback. */
static void test_timeline_progress(ws_module *m)
{
    ws_sim_options o;
    ws_sim_options_default(&o);
    o.threads = 1;
    o.timeline_warps = 3;
    o.timeline_slots = 5;
    o.progress = on_progress;
    st_run r;
    if (st_exec(&r, m, SPEC_BRANCH, "tid0", &o) == 0) {
        CHECK(r.res.ntimelines == 3, "timelines: %d", r.res.ntimelines);
        if (r.res.ntimelines == 3) {
            const ws_timeline *t0 = &r.res.timelines[0], *t2 = &r.res.timelines[2];
            CHECK(t0->cta == 0 && t0->warp == 0 && t2->cta == 1 && t2->warp == 0,
                  "timeline warps (%u,%d) (%u,%d)", t0->cta, t0->warp, t2->cta, t2->warp);
            CHECK(t0->nslots == 5 && t0->truncated == 1, "slots kept %d truncated %d",
                  t0->nslots, t0->truncated);
            CHECK(t0->slots[0].pc == 0 && t0->slots[0].active == 0xffffffffu &&
                      t0->slots[1].pc == 1, "first slots are PCs 0, 1 with all lanes");
        }
        CHECK(progress_calls >= 1 && progress_last == 2 && progress_total == 2,
              "progress: %d calls, last %llu of %llu", progress_calls,
              (unsigned long long)progress_last, (unsigned long long)progress_total);
    } else {
        CHECK(0, "timeline run");
    }
    st_free(&r);
    o.timeline_slots = 1000;
    if (st_exec(&r, m, SPEC_BRANCH, "tid0", &o) == 0 && r.res.ntimelines > 0) {
        const ws_timeline *t = &r.res.timelines[0];
        int lane0_only = 0;
        for (int i = 0; i < t->nslots; i++)
            lane0_only += t->slots[i].active == 1u;
        CHECK(!t->truncated && lane0_only > 0, "warp 0 runs the if body with lane 0 only (%d slots)",
              lane0_only);
    }
    st_free(&r);
}

int main(void)
{
    ws_module *m = st_load("divergence");
    CHECK(m != NULL, "divergence.ptx loads");
    if (m) {
        test_divergent_vs_uniform(m);
        test_nested(m);
        test_predication(m);
        test_timeline_progress(m);
        ws_result keep;
        ws_result_init(&keep);
        test_loop(m, 1, &keep);
        test_loop(m, 3, &keep);
        ws_result_free(&keep);
        ws_module_free(m);
    }
    test_calls();
    return ws_test_finish("test_sim_exec");
}
