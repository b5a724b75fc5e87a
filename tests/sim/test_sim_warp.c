/* test_sim_warp.c — warp-synchronous operations (shfl up/down/bfly/idx with segments,
 * ballot/any/all, match.any, redux) against a CPU computation, the same under a partial
 * mask, and atomics (int add/max, histogram, double add through an atomicCAS loop) giving
 * exact results, with their contention statistics. */
#include "tests/sim/sim_test.h"

static void expect_warp(const unsigned *x, unsigned *o, int warp)
{
    const unsigned *xw = x + warp * 32;
    unsigned ballot = 0, any = 0, all = 1, sum = 0, mx = 0;
    for (int l = 0; l < 32; l++) {
        ballot |= (xw[l] & 1u) << l;
        any |= xw[l] == 77;
        all &= xw[l] < 1000;
        sum += xw[l];
        mx = xw[l] > mx ? xw[l] : mx;
    }
    for (int l = 0; l < 32; l++) {
        unsigned *e = o + (warp * 32 + l) * 10;
        e[0] = xw[(l * 7) & 31];
        e[1] = l >= 3 ? xw[l - 3] : xw[l];
        e[2] = l + 5 <= 31 ? xw[l + 5] : xw[l];
        e[3] = xw[l ^ 6];
        e[4] = ballot;
        e[5] = any + 2 * all;
        unsigned match = 0;
        for (int j = 0; j < 32; j++)
            match |= (unsigned)((xw[j] & 3) == (xw[l] & 3)) << j;
        e[6] = match;
        e[7] = sum;
        e[8] = mx;
        e[9] = xw[(l & 24) | ((l + 3) & 7)];
    }
}

static void test_warp_ops(ws_module *m)
{
    const char *spec =
        "workload warpops\nsource warpops.cu\n"
        "buffer in u32 128 uniform_int 0 999\nbuffer out u32 1280 zero\n"
        "variant v\n  kernel warp_ops\n  grid 2\n  block 64\n  args in out\n";
    st_run r;
    if (st_exec(&r, m, spec, "v", NULL) == 0) {
        const unsigned *x = st_buf(&r, "in")->data, *o = st_buf(&r, "out")->data;
        unsigned *e = calloc(1280, sizeof *e);
        for (int w = 0; w < 4; w++)
            expect_warp(x, e, w);
        static const char *what[10] = {"shfl.idx", "shfl.up", "shfl.down", "shfl.bfly",
                                       "ballot", "any/all", "match.any", "redux.add",
                                       "redux.max", "shfl.idx width 8"};
        for (int k = 0; k < 10; k++) {
            int bad = -1;
            for (int t = 0; t < 128 && bad < 0; t++)
                if (o[t * 10 + k] != e[t * 10 + k])
                    bad = t;
            CHECK(bad < 0, "%s: thread %d got %u want %u", what[k], bad,
                  bad >= 0 ? o[bad * 10 + k] : 0, bad >= 0 ? e[bad * 10 + k] : 0);
        }
        free(e);
    } else {
        CHECK(0, "warp_ops ran");
    }
    st_free(&r);
}

static void test_partial_mask(ws_module *m)
{
    const char *spec =
        "workload partial\nsource warpops.cu\n"
        "buffer in u32 64 uniform_int 0 99\nbuffer out u32 192 zero\n"
        "variant v\n  kernel partial_ops\n  grid 1\n  block 64\n  args in out\n";
    st_run r;
    if (st_exec(&r, m, spec, "v", NULL) == 0) {
        const unsigned *x = st_buf(&r, "in")->data, *o = st_buf(&r, "out")->data;
        int ok = 1;
        for (int w = 0; w < 2; w++) {
            unsigned ballot = 0, sum = 0;
            for (int l = 0; l < 20; l++) {
                ballot |= (x[w * 32 + l] & 1u) << l;
                sum += x[w * 32 + l];
            }
            for (int l = 0; l < 32; l++) {
                const unsigned *g = o + (w * 32 + l) * 3;
                if (l < 20)
                    ok &= g[0] == 0xfffffu && g[1] == ballot && g[2] == sum;
                else
                    ok &= g[0] == 0 && g[1] == 0 && g[2] == 0;
            }
        }
        CHECK(ok, "activemask/ballot/redux under a 20-lane mask");
    } else {
        CHECK(0, "partial_ops ran");
    }
    st_free(&r);
}

static void test_warp_ops2(ws_module *m)
{
    const char *spec =
        "workload warpops2\nsource warpops.cu\n"
        "buffer in u32 64 iota\nbuffer out u32 512 zero\n"
        "variant v\n  kernel warp_ops2\n  grid 1\n  block 64\n  args in out\n";
    st_run r;
    if (st_exec(&r, m, spec, "v", NULL) == 0) {
        const unsigned *o = st_buf(&r, "out")->data;
        int bad = -1;
        for (int t = 0; t < 64 && bad < 0; t++) {
            unsigned w = (unsigned)t / 32, orv = 0, andv = ~0u, xorv = 0;
            int mn = 1 << 30;
            for (unsigned l = 0; l < 32; l++) {
                unsigned x = w * 32 + l;
                orv |= x;
                andv &= x | 0xf0u;
                xorv ^= x * 2654435761u;
                mn = (int)x - 40 < mn ? (int)x - 40 : mn;
            }
            unsigned e[8] = {0xffffffffu, 1, 0, 0, 2, orv ^ andv, xorv, (unsigned)mn};
            for (int k = 0; k < 8; k++)
                if (o[t * 8 + k] != e[k]) {
                    bad = t;
                    fprintf(stderr, "  warp_ops2 o[%d] thread %d: got %u want %u\n", k, t,
                            o[t * 8 + k], e[k]);
                }
        }
        CHECK(bad < 0, "match.all, vote.uni, redux or/and/xor/min");
    } else {
        CHECK(0, "warp_ops2 ran");
    }
    st_free(&r);
}

static void test_atomics(ws_module *m, int threads)
{
    const char *spec =
        "workload atomics\nsource warpops.cu\n"
        "buffer in i32 1024 uniform_int 0 1000\nbuffer isum i32 2 zero\n"
        "buffer dsum f64 1 zero\nbuffer hist i32 8 zero\n"
        "variant v\n  kernel atomics\n  grid 8\n  block 128\n  args in isum dsum hist 1000\n";
    ws_sim_options o;
    ws_sim_options_default(&o);
    o.threads = threads;
    st_run r;
    if (st_exec(&r, m, spec, "v", &o) == 0) {
        const int *x = st_buf(&r, "in")->data, *is = st_buf(&r, "isum")->data;
        const int *h = st_buf(&r, "hist")->data;
        const double *ds = st_buf(&r, "dsum")->data;
        long sum = 0;
        int mx = 0, hist[8] = {0};
        double dsum = 0;
        for (int i = 0; i < 1000; i++) {
            sum += x[i];
            mx = x[i] > mx ? x[i] : mx;
            dsum += x[i] * 0.5;
            hist[x[i] & 7]++;
        }
        CHECK(is[0] == sum, "atomicAdd sum %d want %ld (threads %d)", is[0], sum, threads);
        CHECK(is[1] == mx, "atomicMax %d want %d", is[1], mx);
        CHECK(ds[0] == dsum, "double add via atomicCAS %.17g want %.17g", ds[0], dsum);
        int ok = 1;
        for (int b = 0; b < 8; b++)
            ok &= h[b] == hist[b];
        CHECK(ok, "histogram");
        CHECK(r.res.natomics >= 4, "atomic instructions: %d", r.res.natomics);
        uint64_t one_addr = 0, execs = 0;
        for (int i = 0; i < r.res.natomics; i++) {
            const ws_atomic_stat *a = &r.res.atomics[i];
            uint64_t hs = 0;
            for (int k = 0; k <= 32; k++)
                hs += a->distinct_hist[k];
            CHECK(hs == a->warp_execs, "%s: histogram sums to warp executions", a->text);
            if (strstr(a->text, "add") && a->line == st_cu_line("warpops.cu", "atomicAdd(isum")) {
                one_addr += a->distinct_hist[1];
                execs += a->warp_execs;
            }
        }
        /* 1000 threads = 31 full warps + one of 8 lanes; all lanes hit isum[0] */
        CHECK(execs == 32 && one_addr == 32, "atomicAdd(isum) warp executions %llu, one address %llu",
              (unsigned long long)execs, (unsigned long long)one_addr);
    } else {
        CHECK(0, "atomics ran");
    }
    st_free(&r);
}

int main(void)
{
    ws_module *m = st_load("warpops");
    CHECK(m != NULL, "warpops.ptx loads");
    if (m) {
        test_warp_ops(m);
        test_partial_mask(m);
        test_warp_ops2(m);
        test_atomics(m, 1);
        test_atomics(m, 4);
        ws_module_free(m);
    }
    return ws_test_finish("test_sim_warp");
}
