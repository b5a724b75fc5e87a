/* test_sim_errors.c — seed 002's reductions and every simulated fault: the naive racy sum
 * loses updates and is reported as a race; the shared-memory tree reduction is exact and
 * race-free; an out-of-bounds store, a barrier deadlock and an unsupported instruction
 * are errors that name kernel, CTA, warp, lane, PC and address; so is a warp past the
 * run's instruction limit. Producer and consumer warps hand over through named barriers
 * (bar.arrive) on both models. */
#include "sim/ir.h"
#include "tests/sim/sim_test.h"

static int pc_of(const ws_module *m, const char *fn, int op)
{
    for (int f = 0; f < m->nfuncs; f++)
        if (strcmp(m->funcs[f].name, fn) == 0)
            for (int pc = 0; pc < m->funcs[f].ninsts; pc++)
                if (m->funcs[f].insts[pc].op == op)
                    return pc;
    return -1;
}

static const char *SPEC =
    "workload reduce\nsource reduce.cu\n"
    "buffer x i32 512 const 1\nbuffer y i32 512 uniform_int -1000 1000\n"
    "buffer o i32 4 zero\nbuffer small i32 60 zero\nbuffer o2 i32 128 zero\n"
    "variant naive\n  kernel naive_sum\n  grid 2\n  block 128\n  args x o\n"
    "variant tree\n  kernel tree_sum\n  grid 4\n  block 128\n  args y o\n"
    "variant oob\n  kernel oob_store\n  grid 1\n  block 64\n  args small 56\n"
    "variant deadlock\n  kernel deadlock\n  grid 1\n  block 128\n  args o\n"
    "variant early\n  kernel early_exit\n  grid 1\n  block 128\n  args y\n"
    "variant xsync\n  kernel warp_exchange\n  grid 1\n  block 64\n  args y 1\n"
    "variant xrace\n  kernel warp_exchange\n  grid 1\n  block 64\n  args y 0\n"
    "variant count\n  kernel sync_count\n  grid 2\n  block 128\n  args y\n"
    "variant handoff\n  kernel handoff\n  grid 1\n  block 128\n  args y o2\n"
    "variant badarrive\n  kernel arrive_id\n  grid 1\n  block 64\n  args y 16\n";

static void test_naive(ws_module *m)
{
    st_run r;
    if (st_exec(&r, m, SPEC, "naive", NULL) == 0) {
        int got = ((const int *)st_buf(&r, "o")->data)[0];
        /* 256 threads add 1 each; every warp's lanes read the same old value, so at most
         * one update per warp (8 warps) survives: lost updates, as on hardware */
        CHECK(got >= 1 && got <= 8, "naive sum lost updates: got %d of 256", got);
        CHECK(st_metric(&r, "sim__races") >= 1, "sim__races = %g", st_metric(&r, "sim__races"));
        int found = 0;
        for (int i = 0; i < r.res.nwarnings; i++)
            if (strstr(r.res.warnings[i], "race: global[0x") &&
                strstr(r.res.warnings[i], "without synchronization") &&
                strstr(r.res.warnings[i], "reduce.cu:6"))
                found = 1;
        CHECK(found, "race warning naming global memory and reduce.cu:6 (%d warnings%s%s)",
              r.res.nwarnings, r.res.nwarnings ? ": " : "",
              r.res.nwarnings ? r.res.warnings[0] : "");
        if (r.res.nwarnings)
            printf("  %s\n", r.res.warnings[0]);
    } else {
        CHECK(0, "naive ran");
    }
    st_free(&r);
}

static void test_tree(ws_module *m)
{
    st_run r;
    if (st_exec(&r, m, SPEC, "tree", NULL) == 0) {
        const int *y = st_buf(&r, "y")->data, *o = st_buf(&r, "o")->data;
        int ok = 1;
        for (int b = 0; b < 4; b++) {
            int s = 0;
            for (int i = 0; i < 128; i++)
                s += y[b * 128 + i];
            ok &= o[b] == s;
        }
        CHECK(ok, "tree reduction sums");
        CHECK(r.res.nwarnings == 0, "no race reported across barriers (%s)",
              r.res.nwarnings ? r.res.warnings[0] : "");
        CHECK(st_metric(&r, "sim__races") == 0, "sim__races 0");
        CHECK(st_line(&r, st_cu_line("reduce.cu", "tid % (2 * k)"), NULL).divergent > 0,
              "tid %% (2*s) diverges");
    } else {
        CHECK(0, "tree ran");
    }
    st_free(&r);
}

static void test_oob(ws_module *m)
{
    st_run r;
    int rc = st_exec(&r, m, SPEC, "oob", NULL);
    CHECK(rc == WS_ERR_SIM, "out-of-bounds store is WS_ERR_SIM: %d", rc);
    CHECK(r.err.has_thread, "error has the thread");
    CHECK(strcmp(r.err.kernel, "oob_store") == 0, "kernel '%s'", r.err.kernel);
    CHECK(r.err.cta[0] == 0 && r.err.warp == 0 && r.err.lane == 4,
          "CTA %u warp %d lane %d (want 0, 0, 4: out[4 + 56] is the first out of bounds)",
          r.err.cta[0], r.err.warp, r.err.lane);
    CHECK(r.err.pc == pc_of(m, "oob_store", WS_OP_ST), "pc %d", r.err.pc);
    CHECK(r.err.address != 0 && r.err.line > 0 && strstr(r.err.file, "reduce.ptx"),
          "address 0x%llx, PTX %s:%d", (unsigned long long)r.err.address, r.err.file, r.err.line);
    CHECK(strstr(r.err.msg, "out-of-bounds global store of 4 bytes") &&
              strstr(r.err.msg, "4 bytes past the end of 'small'") &&
              strstr(r.err.msg, "reduce.cu:"), "message: %s", r.err.msg);
    char buf[1024];
    ws_error_format(&r.err, buf, sizeof buf);
    printf("  %s\n", buf);
    st_free(&r);
}

static void test_deadlock(ws_module *m)
{
    st_run r;
    int rc = st_exec(&r, m, SPEC, "deadlock", NULL);
    CHECK(rc == WS_ERR_SIM, "deadlock is WS_ERR_SIM: %d", rc);
    CHECK(strstr(r.err.msg, "deadlock: warp 0 waits at barrier 1") != NULL, "message: %s",
          r.err.msg);
    CHECK(strstr(r.err.msg, "2 warp(s) waiting, 2 exited, 128 threads expected") != NULL,
          "message: %s", r.err.msg);
    CHECK(r.err.has_thread && strcmp(r.err.kernel, "deadlock") == 0 && r.err.warp == 0 &&
              r.err.pc == pc_of(m, "deadlock", WS_OP_BAR),
          "kernel %s warp %d pc %d", r.err.kernel, r.err.warp, r.err.pc);
    st_free(&r);
}

static void test_early_exit(ws_module *m)
{
    st_run r;
    if (st_exec(&r, m, SPEC, "early", NULL) == 0) {
        const int *y = st_buf(&r, "y")->data;
        int ok = 1;
        for (int t = 0; t < 64; t++)
            ok &= y[t] == 1;
        CHECK(ok, "warps that reach the barrier go on");
        CHECK(st_metric(&r, "sim__barrier_skips") == 1, "sim__barrier_skips %g",
              st_metric(&r, "sim__barrier_skips"));
        CHECK(r.res.nwarnings == 1 && strstr(r.res.warnings[0], "completed in CTA 0 while 2 "
                                              "warp(s) had exited without reaching it"),
              "warning: %s", r.res.nwarnings ? r.res.warnings[0] : "none");
    } else {
        CHECK(0, "early_exit ran");
    }
    st_free(&r);
}

static void test_syncwarp(ws_module *m)
{
    st_run r;
    for (int sync = 1; sync >= 0; sync--) {
        if (st_exec(&r, m, SPEC, sync ? "xsync" : "xrace", NULL) == 0) {
            const int *y = st_buf(&r, "y")->data;
            int ok = 1;
            for (int t = 0; t < 64; t++)
                ok &= y[t] == (t ^ 1) * 3;
            CHECK(ok, "warp exchange values (sync %d)", sync);
            double races = st_metric(&r, "sim__races");
            CHECK(sync ? races == 0 : races >= 1, "sync %d: sim__races %g", sync, races);
            if (!sync)
                CHECK(r.res.nwarnings >= 1 && strstr(r.res.warnings[0], "race: shared[0x"),
                      "shared race warning: %s", r.res.nwarnings ? r.res.warnings[0] : "none");
        } else {
            CHECK(0, "warp_exchange ran");
        }
        st_free(&r);
    }
}

static void test_bar_red(ws_module *m)
{
    st_run r;
    if (st_exec(&r, m, SPEC, "count", NULL) == 0) {
        const int *y = st_buf(&r, "y")->data;
        int thirds = 0;
        for (int t = 0; t < 128; t++)
            thirds += t % 3 == 0;
        int want = thirds * 10000 + 100 + 0, ok = 1; /* t < 100 is not true for all */
        for (int t = 0; t < 128; t++) /* both CTAs write y[threadIdx.x] */
            if (y[t] != want && ok) {
                fprintf(stderr, "  sync_count: y[%d] = %d\n", t, y[t]);
                ok = 0;
            }
        CHECK(ok, "__syncthreads_count/_or/_and: y[0] = %d want %d", y[0], want);
    } else {
        CHECK(0, "sync_count ran");
    }
    st_free(&r);
}

/* Named barriers between producer and consumer warps (bar.arrive counts towards the
 * barrier without waiting), on both models: every round hands over, no race. */
static void test_handoff(ws_module *m, ws_sass_module *sass)
{
    for (int k = 0; k < (sass ? 2 : 1); k++) {
        st_run r;
        if (st_exec_on(&r, m, k ? sass : NULL, SPEC, "handoff", NULL) == 0) {
            const int *y = st_buf(&r, "y")->data, *o2 = st_buf(&r, "o2")->data;
            int bad = 0;
            for (int t = 0; t < 128; t++) {
                int want = 0;
                for (int round = 0; round < 3 && t >= 64; round++)
                    want += y[(t - 64 + round * 17) & 127];
                bad += o2[t] != want;
            }
            CHECK(bad == 0, "%s: handoff through named barriers: %d wrong", k ? "sass" : "ptx",
                  bad);
            CHECK(st_metric(&r, "sim__races") == 0, "%s: no race across the handoff: %g",
                  k ? "sass" : "ptx", st_metric(&r, "sim__races"));
        } else {
            CHECK(0, "%s: handoff ran", k ? "sass" : "ptx");
        }
        st_free(&r);
    }
}

/* bar.arrive at barrier 16 (an id computed at run time) is an error naming the kernel, the
 * warp and the instruction on the PTX model, not a write past the barrier table. */
static void test_bad_arrive(ws_module *m)
{
    st_run r;
    int rc = st_exec(&r, m, SPEC, "badarrive", NULL);
    CHECK(rc == WS_ERR_PTX && strstr(r.err.msg, "bar.arrive needs a barrier id 0..15 and a "
                                     "count (got 16)") && r.err.has_thread &&
              strcmp(r.err.kernel, "arrive_id") == 0 && r.err.pc == pc_of(m, "arrive_id", WS_OP_BAR),
          "bad bar.arrive: rc %d, %s", rc, r.err.msg);
    st_free(&r);
}

/* A warp past the run's instruction limit (what the fuzz targets bound runaway loops with)
 * stops the run with an error naming the warp and the limit. */
static void test_inst_limit(ws_module *m)
{
    ws_sim_options o;
    ws_sim_options_default(&o);
    o.threads = 1;
    o.max_warp_insts = 5;
    st_run r;
    int rc = st_exec(&r, m, SPEC, "tree", &o);
    CHECK(rc == WS_ERR_SIM && strstr(r.err.msg, "warp 0 issued more than 5 instructions "
                                     "(the run's limit)") && r.err.has_thread,
          "limit: rc %d, %s", rc, r.err.msg);
    st_free(&r);
    o.max_warp_insts = 100000;
    CHECK(st_exec(&r, m, SPEC, "tree", &o) == 0, "tree runs under a limit it stays within");
    st_free(&r);
}

static void test_unsupported(void)
{
    ws_module *m = NULL;
    ws_error e;
    ws_error_clear(&e);
    int lrc = ws_ptx_load(WS_SIM_PTX_DIR "/unsupported.ptx", &m, &e);
    if (lrc) { /* the front end refuses it already: the same contract, one step earlier */
        CHECK(lrc == WS_ERR_UNSUPPORTED && strstr(e.msg, "cvt.rna.tf32.f32") && e.line > 0,
              "refused at load: %d %s line %d", lrc, e.msg, e.line);
        return;
    }
    st_run r;
    const char *spec = "workload u\nsource unsupported.cu\nbuffer a f32 65 zero\n"
                       "buffer o f32 64 zero\n"
                       "variant v\n  kernel tf32_round\n  grid 1\n  block 64\n  args a o\n";
    int rc = st_exec(&r, m, spec, "v", NULL);
    CHECK(rc == WS_ERR_UNSUPPORTED, "unsupported instruction: rc %d", rc);
    CHECK(strstr(r.err.msg, "unsupported instruction 'cvt.rna.tf32.f32'") &&
              strcmp(r.err.kernel, "tf32_round") == 0 && r.err.line > 0,
          "message: %s", r.err.msg);
    st_free(&r);
    ws_module_free(m);
}

static void test_bad_kernel(ws_module *m)
{
    st_run r;
    const char *spec = "workload u\nsource reduce.cu\nbuffer o i32 64 zero\n"
                       "variant v\n  kernel no_such_kernel\n  grid 1\n  block 64\n  args o\n";
    int rc = st_exec(&r, m, spec, "v", NULL);
    CHECK(rc == WS_ERR_NOTFOUND && strstr(r.err.msg, "kernel 'no_such_kernel'") &&
              strstr(r.err.msg, "naive_sum"), "missing kernel: %d %s", rc, r.err.msg);
    st_free(&r);
    const char *spec2 = "workload u\nsource reduce.cu\nbuffer o i32 64 zero\n"
                        "variant v\n  kernel deadlock\n  grid 1\n  block 64\n  args o 5\n";
    rc = st_exec(&r, m, spec2, "v", NULL);
    CHECK(rc == WS_ERR_SPEC && strstr(r.err.msg, "takes 1 parameters but the spec gives 2"),
          "argument count: %d %s", rc, r.err.msg);
    st_free(&r);
}

int main(void)
{
    ws_module *m = st_load("reduce");
    CHECK(m != NULL, "reduce.ptx loads");
    if (m) {
        test_naive(m);
        test_tree(m);
        test_oob(m);
        test_deadlock(m);
        test_early_exit(m);
        test_syncwarp(m);
        test_bar_red(m);
        ws_sass_module *sass = NULL;
        int srv = st_load_sass("reduce", "test_sim_errors", &sass);
        test_handoff(m, srv == 0 ? sass : NULL);
        test_bad_arrive(m);
        ws_sass_module_free(sass);
        test_bad_kernel(m);
        test_inst_limit(m);
        ws_module_free(m);
    }
    test_unsupported();
    return ws_test_finish("test_sim_errors");
}
