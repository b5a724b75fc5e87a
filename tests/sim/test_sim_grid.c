/* test_sim_grid.c — cooperative launches: grid.cu's this_grid().sync() completes when the
 * variant is `cooperative` (every CTA resident at once, %envreg1:2 the grid-sync workspace),
 * outputs equal the CPU's, and reads across the grid barrier are no race; without
 * `cooperative` the kernel traps with a hint, a grid too large to be co-resident is an
 * error; the same on the SASS model. A grid barrier made by hand from
 * atomics (grid_spin) completes on both models: CTAs whose atomics others read run
 * resident together, as on the GPU, not one after another; so do CTAs that take work from
 * one global queue (queue_take), each taking a share of it. */
#include "sim/exec.h"
#include "tests/sim/sim_test.h"

static const char *SPEC =
    "workload grid\nsource grid.cu\n"
    "buffer in i32 512 uniform_int -100000 100000\nbuffer a i32 512 zero\n"
    "buffer out i32 512 zero\n"
    "variant coop\n  kernel grid_shift\n  grid 8\n  block 64\n  cooperative\n  args in a out\n"
    "variant plain\n  kernel grid_shift\n  grid 8\n  block 64\n  args in a out\n"
    "variant huge\n  kernel grid_shift\n  grid 100000\n  block 1024\n  cooperative\n"
    "  args in a out\n"
    "buffer count i32 1 zero\nbuffer seen i32 1024 zero\n"
    "variant spin\n  kernel grid_spin\n  grid 16\n  block 64\n  args count seen\n"
    "buffer queue i32 1 zero\nbuffer taken i32 16 zero\n"
    "variant queue\n  kernel queue_take\n  grid 16\n  block 64\n  args queue taken 4096\n";

/* grid_spin on one model (sass NULL: PTX): every thread saw all 16 CTAs counted in; a
 * warp-instruction limit turns a spin that never ends into an error, not a hang. */
static void check_spin(ws_module *m, ws_sass_module *sass, const char *variant, int threads)
{
    const char *model = sass ? "SASS" : "PTX";
    ws_sim_options o;
    ws_sim_options_default(&o);
    o.threads = threads;
    o.max_warp_insts = 4 * WS_WAIT_BUDGET;
    st_run r;
    int rc = st_exec_on(&r, m, sass, SPEC, variant, &o);
    CHECK(rc == 0, "%s model, %d host threads: a hand-made grid barrier completes: %d %s", model,
          threads, rc, r.err.msg);
    if (rc == 0) {
        const int *seen = st_buf(&r, "seen")->data;
        int bad = 0;
        for (int i = 0; i < 1024; i++)
            bad += seen[i] != 16;
        CHECK(bad == 0, "%s model: every thread saw 16 CTAs counted in (%d did not)", model, bad);
        CHECK(*(const int *)st_buf(&r, "count")->data == 16, "%s model: the count is 16", model);
    }
    st_free(&r);
}

static void test_spin(ws_module *m)
{
    check_spin(m, NULL, "spin", 1);
    check_spin(m, NULL, "spin", 2);
    ws_sass_module *sass = NULL;
    if (st_load_sass("grid", "test_sim_grid", &sass) != 0)
        return;
    check_spin(m, sass, "spin", 1);
    check_spin(m, sass, "spin", 2);
    /* the SASS model keeps the run's warp-instruction limit too */
    ws_sim_options o;
    ws_sim_options_default(&o);
    o.threads = 1;
    o.max_warp_insts = 5;
    st_run r;
    int rc = st_exec_on(&r, m, sass, SPEC, "spin", &o);
    CHECK(rc == WS_ERR_SIM && strstr(r.err.msg, "issued more than 5 instructions (the run's "
                                                "limit) at SASS 0x") && r.err.has_thread,
          "SASS model: a warp past the limit stops the run: %d %s", rc, r.err.msg);
    st_free(&r);
    ws_sass_module_free(sass);
}

/* queue_take on one model (sass NULL: PTX): CTAs that take work from one global counter run
 * resident together from the start, so each of the 16 takes a share of the 4096 items (the
 * GPU's 132 SMs hold all 16 at once), not the first CTA all of them. */
static void check_queue(ws_module *m, ws_sass_module *sass, int threads)
{
    const char *model = sass ? "SASS" : "PTX";
    ws_sim_options o;
    ws_sim_options_default(&o);
    o.threads = threads;
    st_run r;
    int rc = st_exec_on(&r, m, sass, SPEC, "queue", &o);
    CHECK(rc == 0, "%s model, %d host threads: queue_take runs: %d %s", model, threads, rc,
          r.err.msg);
    if (rc == 0) {
        const int *taken = st_buf(&r, "taken")->data;
        int sum = 0, idle = 0, most = 0;
        for (int i = 0; i < 16; i++) {
            sum += taken[i];
            idle += taken[i] == 0;
            most = taken[i] > most ? taken[i] : most;
        }
        /* with two host threads each keeps its own CTAs resident, and which one runs first
           is the host's: only the total is certain */
        CHECK(sum == 4096 && (threads > 1 || (idle == 0 && most <= 4096 / 16 * 2)),
              "%s model, %d host threads: every CTA took a share of the queue: %d items, %d CTAs "
              "took none, the most %d", model, threads, sum, idle, most);
        double at_once = st_metric(&r, "sim__ctas_at_once"); /* 8 a host thread */
        CHECK(threads == 1 ? at_once == 16 : at_once >= 8 && at_once <= 16,
              "%s model, %d host threads: CTAs at once: %g", model, threads, at_once);
    }
    st_free(&r);
}

static void test_queue(ws_module *m)
{
    check_queue(m, NULL, 1);
    check_queue(m, NULL, 2);
    ws_sass_module *sass = NULL;
    if (st_load_sass("grid", "test_sim_grid", &sass) != 0)
        return;
    check_queue(m, sass, 1);
    check_queue(m, sass, 2);
    ws_sass_module_free(sass);
}

static void test_coop(ws_module *m)
{
    st_run r;
    int rc = st_exec(&r, m, SPEC, "coop", NULL);
    CHECK(rc == 0, "a cooperative launch with grid syncs simulates");
    if (rc == 0) {
        const int *in = st_buf(&r, "in")->data, *out = st_buf(&r, "out")->data;
        int n = 512, bad = 0;
        for (int i = 0; i < n; i++)
            bad += out[i] != in[(n - 1 - i + 64) % n] * 3 + 1;
        CHECK(bad == 0, "outputs after three grid syncs: %d wrong", bad);
        CHECK(st_metric(&r, "sim__races") == 0 && r.res.nwarnings == 0,
              "reads across the grid barrier are no race: %g (%s)", st_metric(&r, "sim__races"),
              r.res.nwarnings ? r.res.warnings[0] : "");
        st_sum s = st_line(&r, 0, "atom.add");
        CHECK(s.pred_on == 3 * 8, "one arrival per CTA and grid sync: %llu",
              (unsigned long long)s.pred_on);
        CHECK(st_metric(&r, "sim__ctas") == 8, "8 CTAs");
        CHECK(st_metric(&r, "sim__ctas_at_once") == 8, "8 CTAs at once: %g",
              st_metric(&r, "sim__ctas_at_once"));
    }
    st_free(&r);
}

static void test_errors(ws_module *m)
{
    st_run r;
    int rc = st_exec(&r, m, SPEC, "plain", NULL);
    CHECK(rc == WS_ERR_SIM && strstr(r.err.msg, "trap executed") &&
              strstr(r.err.msg, "add 'cooperative' to the variant"),
          "grid sync without a cooperative launch: %d %s", rc, r.err.msg);
    st_free(&r);
    rc = st_exec(&r, m, SPEC, "huge", NULL);
    CHECK(rc == WS_ERR_SPEC && strstr(r.err.msg, "cooperative launch of 100000 CTAs cannot be "
                                                 "co-resident"),
          "too large to be co-resident: %d %s", rc, r.err.msg);
    st_free(&r);
    ws_spec *s = NULL;
    ws_error err;
    ws_error_clear(&err);
    rc = ws_spec_parse("workload g\nsource grid.cu\nvariant v\n  kernel k\n  grid 1\n"
                       "  block 1\n  cooperative yes\n", "g.spec", NULL, 0, &s, &err);
    CHECK(rc == WS_ERR_SPEC && strstr(err.msg, "expected 'cooperative' alone on its line") &&
              err.line == 7, "cooperative with a word: %d %s", rc, err.msg);
    ws_spec_free(s);
    rc = ws_spec_parse("workload g\nsource grid.cu\ncooperative\n", "g.spec", NULL, 0, &s, &err);
    CHECK(rc == WS_ERR_SPEC && strstr(err.msg, "'cooperative' outside a variant"),
          "cooperative outside a variant: %d %s", rc, err.msg);
    ws_spec_free(s);
}

/* The SASS model runs a cooperative launch with every CTA resident at once and the grid-sync
 * workspace where the driver puts it (c[0x0][0x44], high word, and 0x48): the grid syncs
 * complete, the outputs equal the CPU's, no race across them; too large a grid is refused. */
static void test_sass(ws_module *m)
{
    ws_sass_module *sass = NULL;
    if (st_load_sass("grid", "test_sim_grid", &sass) != 0)
        return;
    st_run r;
    int rc = st_exec_on(&r, m, sass, SPEC, "coop", NULL);
    CHECK(rc == 0, "SASS model: a cooperative launch with grid syncs simulates: %d %s", rc,
          r.err.msg);
    if (rc == 0) {
        const int *in = st_buf(&r, "in")->data, *out = st_buf(&r, "out")->data;
        int n = 512, bad = 0;
        for (int i = 0; i < n; i++)
            bad += out[i] != in[(n - 1 - i + 64) % n] * 3 + 1;
        CHECK(bad == 0, "SASS model: outputs after three grid syncs: %d wrong", bad);
        const char *w;
        int others = st_warnings(&r, &w);
        CHECK(st_metric(&r, "sim__races") == 0 && others == 0,
              "SASS model: reads across the grid barrier are no race: %g (%s)",
              st_metric(&r, "sim__races"), w);
    }
    st_free(&r);
    rc = st_exec_on(&r, m, sass, SPEC, "plain", NULL);
    CHECK(rc == WS_ERR_SIM && strstr(r.err.msg, "trapped: it syncs the grid") &&
              strstr(r.err.msg, "add 'cooperative' to the variant"),
          "SASS model: grid sync without a cooperative launch traps: %d %s", rc, r.err.msg);
    st_free(&r);
    rc = st_exec_on(&r, m, sass, SPEC, "huge", NULL);
    CHECK(rc == WS_ERR_SPEC && strstr(r.err.msg, "cannot be co-resident"),
          "SASS model: too large to be co-resident: %d %s", rc, r.err.msg);
    st_free(&r);
    ws_sass_module_free(sass);
}

int main(void)
{
    ws_module *m = st_load("grid");
    CHECK(m != NULL, "grid.ptx loads");
    if (m) {
        test_coop(m);
        test_errors(m);
        test_sass(m);
        test_spin(m);
        test_queue(m);
        ws_module_free(m);
    }
    return ws_test_finish("test_sim_grid");
}
