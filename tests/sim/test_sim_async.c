/* test_sim_async.c — cp.async (4, 8, 16 bytes, zero fill, groups), mbarrier objects
 * (init, arrive, arrive_drop, arrive.expect_tx, expect_tx, test_wait/try_wait on tokens and
 * parities, pending_count, inval, cp.async.mbarrier.arrive with and without .noinc) and
 * bulk copies (cp.async.bulk both ways, transaction counts, bulk groups) on async.cu:
 * outputs against the CPU, phases reused, no race reported, and the misuse errors. */
#include "tests/sim/sim_test.h"
#include "tests/sim/cu/async_spec.h"

static const char *SPEC =
    WS_ASYNC_SPEC
    "variant uninit\n  kernel uninit\n  grid 1\n  block 32\n  args out\n"
    "variant overarrive\n  kernel overarrive\n  grid 1\n  block 32\n  args out\n";

static const int *buf(const st_run *r, const char *name)
{
    return (const int *)st_buf(r, name)->data;
}

/* out of the copies kernel: 4-, 8- and 16-byte copies, the last zero-filling (u % 4) * 4 */
static int copies_wrong(const st_run *r)
{
    const int *in = buf(r, "in"), *out = buf(r, "out");
    int bad = 0;
    for (int t = 0; t < 128; t++) {
        int u = 127 - t, fill = (u % 4) * 4; /* bytes of zeros at the end of u's 16 */
        int want[7] = {in[u], in[2 * u], in[2 * u + 1]};
        for (int k = 0; k < 4; k++)
            want[3 + k] = k * 4 < 16 - fill ? in[4 * u + k] : 0;
        for (int k = 0; k < 7; k++)
            bad += out[t * 7 + k] != want[k];
    }
    return bad;
}

static void test_copies(ws_module *m)
{
    st_run r;
    int rc = st_exec(&r, m, SPEC, "copies", NULL);
    CHECK(rc == 0, "copies simulates");
    if (rc == 0) {
        int bad = copies_wrong(&r);
        CHECK(bad == 0, "cp.async copies and zero fills: %d wrong", bad);
        CHECK(st_metric(&r, "sim__races") == 0, "no race after wait_group and the barrier");
        int line = st_cu_line("async.cu", "(t % 4) * 4);");
        st_sum s = st_line(&r, line, "cp.async.global");
        CHECK(s.pred_on == 128, "the 16-byte cp.async ran for 128 threads: %llu",
              (unsigned long long)s.pred_on);
        s = st_line(&r, 0, "cp.async.wait_group");
        CHECK(s.issued >= 4, "wait_group issued by every warp: %llu",
              (unsigned long long)s.issued);
    }
    st_free(&r);
}

static void test_phases(ws_module *m)
{
    st_run r;
    int rc = st_exec(&r, m, SPEC, "phases", NULL);
    CHECK(rc == 0, "phases simulates");
    if (rc == 0) {
        const int *in = buf(&r, "in"), *out = buf(&r, "out");
        int bad = 0;
        for (int k = 0; k < 5; k++)
            for (int t = 0; t < 128; t++)
                bad += out[k * 128 + t] != in[127 - t] * (k + 1);
        CHECK(bad == 0, "cuda::barrier over 5 phases: %d wrong", bad);
        CHECK(st_metric(&r, "sim__races") == 0, "no race across the barrier's phases: %g",
              st_metric(&r, "sim__races"));
        st_sum s = st_line(&r, 0, "mbarrier.try_wait");
        CHECK(s.pred_on >= 5 * 128, "try_wait ran at least once per thread and phase: %llu",
              (unsigned long long)s.pred_on);
    }
    st_free(&r);
}

static void test_primitives(ws_module *m)
{
    st_run r;
    int rc = st_exec(&r, m, SPEC, "primitives", NULL);
    CHECK(rc == 0, "primitives simulates");
    if (rc == 0) {
        const int *in = buf(&r, "in"), *out = buf(&r, "out"), *info = buf(&r, "info");
        int bad = 0;
        for (int t = 0; t < 64; t++)
            bad += out[t] != in[63 - t] + 1;
        CHECK(bad == 0, "test_wait loop: %d wrong", bad);
        /* init 3: arrive (3 pending before it), not complete; arrive_drop (2 pending before);
         * arrive completes phase 0 (expected 2 from now); two arrivals complete phase 1 */
        CHECK(info[0] == 3 && info[1] == 0 && info[2] == 2 && info[3] == 1 && info[4] == 1,
              "pending counts and phases: %d %d %d %d %d", info[0], info[1], info[2], info[3],
              info[4]);
        CHECK(st_metric(&r, "sim__races") == 0, "no race: %g", st_metric(&r, "sim__races"));
    }
    st_free(&r);
}

static void test_parity(ws_module *m)
{
    st_run r;
    int rc = st_exec(&r, m, SPEC, "parity", NULL);
    CHECK(rc == 0, "parity simulates");
    if (rc == 0) {
        const int *in = buf(&r, "in"), *out = buf(&r, "out"), *info = buf(&r, "info");
        int bad = 0;
        for (int k = 0; k < 7; k++)
            for (int t = 0; t < 64; t++)
                bad += out[k * 64 + t] != in[k * 64 + 63 - t];
        CHECK(bad == 0, "noinc arrivals and parity waits over 7 phases: %d wrong", bad);
        CHECK(info[0] == 1 && info[1] == 0, "test_wait.parity: last phase %d, current %d",
              info[0], info[1]);
        st_sum s = st_line(&r, 0, "cp.async.mbarrier.arrive.noinc");
        CHECK(s.pred_on == 7 * 64, "noinc arrivals: %llu", (unsigned long long)s.pred_on);
    }
    st_free(&r);
}

static void test_bulk(ws_module *m)
{
    st_run r;
    int rc = st_exec(&r, m, SPEC, "bulk", NULL);
    char b[800];
    ws_error_format(&r.err, b, sizeof b);
    CHECK(rc == 0, "bulk simulates: %s", b);
    if (rc == 0) {
        const int *in = buf(&r, "in"), *out = buf(&r, "out"), *info = buf(&r, "info");
        int bad = 0;
        for (int i = 0; i < 1024; i++)
            bad += out[i] != in[i] + 1;
        CHECK(bad == 0, "bulk copies in and out over 4 phases: %d wrong", bad);
        CHECK(info[0] == 4, "bulk: %d rounds", info[0]);
        CHECK(st_metric(&r, "sim__races") == 0, "bulk: no race: %g", st_metric(&r, "sim__races"));
    }
    st_free(&r);
}

static void test_errors(ws_module *m)
{
    st_run r;
    int rc = st_exec(&r, m, SPEC, "uninit", NULL);
    CHECK(rc == WS_ERR_SIM && strstr(r.err.msg, "used before mbarrier.init") &&
              strstr(r.err.msg, "async.cu:"), "uninitialised mbarrier: %d %s", rc, r.err.msg);
    st_free(&r);
    static const char *const want[] = {
        "misaligned global load of 16 bytes", "cp.async source size 8 is larger than its copy size 4",
        "is not in shared memory", "mbarrier.init with count 0 (must be 1..1048575)",
        "mbarrier transaction count 1048576 after expect_tx of 1048576 bytes is out of range",
        "mbarrier arrival of 0 exceeds its pending count 1",
        "out-of-bounds global load of 16 bytes",
        "cp.async.bulk of 8 bytes from 0x700000000000 to 0x0: the size and both addresses "
        "must be non-zero multiples of 16",
        "used before mbarrier.init"};
    for (int kind = 0; kind < 9; kind++) {
        char spec[512];
        snprintf(spec, sizeof spec, "workload async\nsource async.cu\nbuffer in i32 1024 iota\n"
                 "buffer out i32 64 zero\nvariant misuse\n  kernel misuse\n  grid 1\n"
                 "  block 32\n  args in out %d\n", kind);
        rc = st_exec(&r, m, spec, "misuse", NULL);
        CHECK(rc == WS_ERR_SIM && strstr(r.err.msg, want[kind]) &&
                  strstr(r.err.msg, "async.cu:"),
              "misuse %d: %d %s", kind, rc, r.err.msg);
        st_free(&r);
    }
    rc = st_exec(&r, m, SPEC, "overarrive", NULL);
    CHECK(rc == WS_ERR_SIM && strstr(r.err.msg, "mbarrier arrival of 5 exceeds its pending "
                                                "count 2"),
          "too many arrivals: %d %s", rc, r.err.msg);
    st_free(&r);
}

/* The SASS model runs cp.async (LDGSTS, LDGDEPBAR, DEPBAR) and the mbarrier objects
 * (SYNCS, ARRIVES) to the PTX model's outputs (checked against the CPU above), pending
 * counts and phase flags included, without races; its misuse is the same located error,
 * naming the SASS instruction. */
static void test_sass(ws_module *m)
{
    ws_sass_module *sass = NULL;
    if (st_load_sass("async", "test_sim_async", &sass) > 0)
        return;
    const char *const variants[] = {"copies", "phases", "primitives", "parity", "bulk"};
    for (int i = 0; i < 5 && sass; i++) {
        st_run p, r;
        int prc = st_exec(&p, m, SPEC, variants[i], NULL);
        int src = st_exec_on(&r, m, sass, SPEC, variants[i], NULL);
        char b[800];
        ws_error_format(&r.err, b, sizeof b);
        CHECK(prc == 0 && src == 0, "SASS %s simulates: %s", variants[i], b);
        if (prc == 0 && src == 0) {
            const ws_buffer *po = st_buf(&p, "out"), *so = st_buf(&r, "out");
            const ws_buffer *pi = st_buf(&p, "info"), *si = st_buf(&r, "info");
            CHECK(!memcmp(po->data, so->data, po->bytes) && !memcmp(pi->data, si->data, pi->bytes),
                  "SASS %s: the PTX model's out and info (info %d %d %d %d %d vs %d %d %d %d %d)",
                  variants[i], ((const int *)si->data)[0], ((const int *)si->data)[1],
                  ((const int *)si->data)[2], ((const int *)si->data)[3],
                  ((const int *)si->data)[4], ((const int *)pi->data)[0],
                  ((const int *)pi->data)[1], ((const int *)pi->data)[2],
                  ((const int *)pi->data)[3], ((const int *)pi->data)[4]);
            CHECK(st_metric(&r, "sim__races") == 0, "SASS %s: no race: %g", variants[i],
                  st_metric(&r, "sim__races"));
        }
        st_free(&p);
        st_free(&r);
    }
    struct { const char *variant; int kind, rc; const char *msg, *op; } bad[] = {
        {"uninit", -1, WS_ERR_SIM, "mbarrier at shared 0x400 used before its init", "SYNCS.ARRIVE"},
        {"overarrive", -1, WS_ERR_SIM, "mbarrier arrival of 5 exceeds its pending count 2",
         "SYNCS.ARRIVE.TRANS64.ART0"},
        {"misuse", 3, WS_ERR_SIM, "mbarrier init with count 0 (must be 1..1048575)", "SYNCS.EXCH"},
        {"misuse", 5, WS_ERR_SIM, "mbarrier arrival of 0 (must be 1..1048575)",
         "SYNCS.ARRIVE.TRANS64.ART0"},
        {"misuse", 4, WS_ERR_SIM, "mbarrier transaction count 1048576 after expect_tx of "
         "1048576 is out of range", "SYNCS.ARRIVE.TRANS64"},
        {"misuse", 6, WS_ERR_SIM, "out-of-bounds global load of 16 bytes", "UBLKCP.S.G"},
        {"misuse", 7, WS_ERR_SIM, "bulk copy of 0 bytes (the size must be a non-zero multiple "
         "of 16)", "UBLKCP.S.G"},
        {"misuse", 8, WS_ERR_SIM, "bulk copy completing on an mbarrier at shared 0x", "UBLKCP.S.G"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0] && sass; i++) {
        char spec[512];
        snprintf(spec, sizeof spec, "workload async\nsource async.cu\nbuffer in i32 1024 iota\n"
                 "buffer out i32 64 zero\nvariant misuse\n  kernel misuse\n  grid 1\n"
                 "  block 32\n  args in out %d\n", bad[i].kind);
        st_run r;
        int rc = st_exec_on(&r, m, sass, bad[i].kind < 0 ? SPEC : spec, bad[i].variant, NULL);
        char b[800];
        ws_error_format(&r.err, b, sizeof b);
        CHECK(rc == bad[i].rc && strstr(b, bad[i].msg) && strstr(b, bad[i].op) &&
                  strstr(b, "async.cu:") && strstr(b, "at SASS 0x"),
              "SASS %s %d: one located error: %d %s", bad[i].variant, bad[i].kind, rc, b);
        st_free(&r);
    }
    if (sass)
        ws_sass_module_free(sass);
}

int main(void)
{
    ws_module *m = st_load("async");
    CHECK(m != NULL, "async.ptx loads");
    if (m) {
        test_copies(m);
        test_phases(m);
        test_primitives(m);
        test_parity(m);
        test_bulk(m);
        test_errors(m);
        test_sass(m);
        ws_module_free(m);
    }
    return ws_test_finish("test_sim_async");
}
