/* test_kernels_ref.c — the CPU references of kernels/ref on small hand-made inputs, each
 * checked against an independent computation or property (64-bit arithmetic, long double
 * sums, closed forms), plus the references' error messages. Needs no spec parser. */
#include "core/core.h"
#include "kernels/ref/ref_util.h"
#include "tests/check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- a tiny hand-built spec */

typedef struct fixture {
    ws_spec spec;
    ws_variant variant;
    ws_const consts[8];
    ws_buffer_spec bspecs[16];
    ws_buffer bufs[16];
    ws_buffers buffers;
} fixture;

static void fx_init(fixture *f, const char *kernel, uint32_t grid, uint32_t block)
{
    memset(f, 0, sizeof *f);
    f->spec.consts = f->consts;
    f->spec.buffers = f->bspecs;
    f->spec.variants = &f->variant;
    f->spec.nvariants = 1;
    snprintf(f->variant.kernel, sizeof f->variant.kernel, "%s", kernel);
    f->variant.grid[0] = grid, f->variant.grid[1] = f->variant.grid[2] = 1;
    f->variant.block[0] = block, f->variant.block[1] = f->variant.block[2] = 1;
    f->buffers.b = f->bufs;
}

static void fx_const(fixture *f, const char *name, int64_t v)
{
    ws_const *c = &f->consts[f->spec.nconsts++];
    snprintf(c->name, sizeof c->name, "%s", name);
    c->ival = v;
}

/* A float constant, as the spec holds it: its text (e.g. "0.1"). */
static void fx_real(fixture *f, const char *name, const char *text)
{
    ws_const *c = &f->consts[f->spec.nconsts++];
    snprintf(c->name, sizeof c->name, "%s", name);
    snprintf(c->expr, sizeof c->expr, "%s", text);
}

static void fx_word(fixture *f, const char *name, const char *w)
{
    ws_const *c = &f->consts[f->spec.nconsts++];
    snprintf(c->name, sizeof c->name, "%s", name);
    snprintf(c->sval, sizeof c->sval, "%s", w);
    c->is_string = 1;
}

/* Adds a zeroed buffer; returns its data. */
static void *fx_buf(fixture *f, const char *name, ws_type t, uint64_t count)
{
    int i = f->spec.nbuffers++;
    snprintf(f->bspecs[i].name, sizeof f->bspecs[i].name, "%s", name);
    f->bspecs[i].type = t;
    f->bspecs[i].count = count;
    f->bufs[i].spec = &f->bspecs[i];
    f->bufs[i].bytes = count * ws_type_size(t);
    f->bufs[i].data = calloc(count ? count : 1, ws_type_size(t));
    f->buffers.n = f->spec.nbuffers;
    return f->bufs[i].data;
}

static void fx_free(fixture *f)
{
    for (int i = 0; i < f->spec.nbuffers; i++)
        free(f->bufs[i].data);
}

static int fx_run(fixture *f, const char *ref, ws_error *err)
{
    ws_reference_fn fn = ws_reference_find(ref);
    ws_error_clear(err);
    CHECK(fn != NULL, "reference %s is registered", ref);
    return fn ? fn(&f->spec, &f->variant, &f->buffers, err) : -1;
}

/* Simple deterministic numbers for inputs (an LCG, independent of the core's RNG). */
static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

/* The seed's update done independently in 64-bit: t = 0xffff & (t*t + t + add). */
static int64_t steps64(int64_t t, int loop, int64_t add)
{
    for (int i = 0; i < loop; i++)
        t = (t * t + t + add) & 0xffff;
    return t;
}

/* ---------------------------------------------------------------- seed 000 */

static void test_branch_unification(void)
{
    fixture f;
    ws_error err;
    fx_init(&f, "kernel", 4, 32);
    fx_const(&f, "LOOP", 7);
    int32_t *data = fx_buf(&f, "data", WS_T_I32, 128);
    int32_t *out = fx_buf(&f, "out", WS_T_I32, 128);
    uint32_t s = 1;
    for (int i = 0; i < 128; i++)
        data[i] = (int32_t)lcg(&s);
    CHECK(fx_run(&f, "branch_unification", &err) == WS_OK, "%s", err.msg);
    int bad = 0, na = 0;
    for (int i = 0; i < 128; i++) {
        int a = (data[i] & 4) != 0;
        na += a;
        bad += out[i] != steps64(i, 7, a ? 0 : 1);
    }
    CHECK(bad == 0, "%d items differ from functionA/B applied directly", bad);
    CHECK(na > 32 && na < 96, "about half the items take A (%d of 128)", na);
    fx_free(&f);

    /* a too-small output buffer is an error naming it */
    fx_init(&f, "kernel", 1, 1);
    fx_const(&f, "LOOP", 1);
    fx_buf(&f, "data", WS_T_I32, 10);
    fx_buf(&f, "out", WS_T_I32, 5);
    CHECK(fx_run(&f, "branch_unification", &err) == WS_ERR_SPEC, "short out fails");
    CHECK(strstr(err.msg, "buffer out has 5 elements, the launch needs 10") != NULL, "%s",
          err.msg);
    fx_free(&f);
}

static void test_dynamic_assignment(void)
{
    fixture f;
    ws_error err;
    fx_init(&f, "kernelEnhanced", 1, 4);
    fx_const(&f, "LOOP_NUM", 1);
    int32_t *in = fx_buf(&f, "input", WS_T_I32, 4);
    int32_t *out = fx_buf(&f, "out", WS_T_I32, 4);
    in[0] = 1, in[1] = 2, in[2] = 3, in[3] = 300;
    CHECK(fx_run(&f, "dynamic_assignment", &err) == WS_OK, "%s", err.msg);
    /* by hand: f(1) = 2; f(f(2)) = f(6) = 42; f(f(f(3))) = f(f(12)) = f(156) = 24492 */
    CHECK(out[0] == 2 && out[1] == 42 && out[2] == 24492, "%d %d %d", out[0], out[1], out[2]);
    CHECK(out[3] == steps64(300, 300, 0), "300 trips: %d", out[3]);
    fx_free(&f);

    /* TRIP_SCALE divides the trip count, rounding up */
    fx_init(&f, "kernel", 1, 2);
    fx_const(&f, "LOOP_NUM", 3);
    fx_const(&f, "TRIP_SCALE", 64);
    in = fx_buf(&f, "input", WS_T_I32, 2);
    out = fx_buf(&f, "out", WS_T_I32, 2);
    in[0] = 8192, in[1] = 65;
    CHECK(fx_run(&f, "dynamic_assignment", &err) == WS_OK, "%s", err.msg);
    CHECK(out[0] == steps64(8192, 3 * 128, 0), "8192/64 = 128 trips");
    CHECK(out[1] == steps64(65, 3 * 2, 0), "ceil(65/64) = 2 trips");
    in[1] = 0;
    CHECK(fx_run(&f, "dynamic_assignment", &err) == WS_ERR_SPEC, "a zero trip count fails");
    CHECK(strstr(err.msg, "input[1] = 0, trip counts must be >= 1") != NULL, "%s", err.msg);
    f.consts[1].ival = 0;
    CHECK(fx_run(&f, "dynamic_assignment", &err) == WS_ERR_SPEC, "TRIP_SCALE 0 fails");
    CHECK(strstr(err.msg, "TRIP_SCALE must be >= 1, not 0") != NULL, "%s", err.msg);
    fx_free(&f);

    /* a missing constant is named */
    fx_init(&f, "kernel", 1, 1);
    fx_buf(&f, "input", WS_T_I32, 1);
    fx_buf(&f, "out", WS_T_I32, 1);
    CHECK(fx_run(&f, "dynamic_assignment", &err) == WS_ERR_SPEC, "no LOOP_NUM fails");
    CHECK(strstr(err.msg, "needs the integer constant LOOP_NUM") != NULL, "%s", err.msg);
    fx_free(&f);
}

/* ---------------------------------------------------------------- seed 002 */

static void test_reductions(void)
{
    fixture f;
    ws_error err;
    /* the seed's own case: 1 block of 5 threads on 1..5 -> 15 (the racy kernel gets 5) */
    fx_init(&f, "reduction1_kernel", 1, 5);
    int32_t *x = fx_buf(&f, "x", WS_T_I32, 5);
    int32_t *o = fx_buf(&f, "o", WS_T_I32, 1);
    for (int i = 0; i < 5; i++)
        x[i] = i + 1;
    CHECK(fx_run(&f, "naive_reduction", &err) == WS_OK, "%s", err.msg);
    CHECK(o[0] == 15, "1+2+3+4+5 = %d", o[0]);
    fx_free(&f);

    /* shuffle: total of many, added to what o holds; against a long double sum */
    fx_init(&f, "reduction3_kernel", 8, 64);
    x = fx_buf(&f, "x", WS_T_I32, 512);
    o = fx_buf(&f, "o", WS_T_I32, 1);
    uint32_t s = 7;
    long double sum = 100;
    o[0] = 100;
    for (int i = 0; i < 512; i++) {
        x[i] = (int32_t)(lcg(&s) % 2001) - 1000;
        sum += x[i];
    }
    CHECK(fx_run(&f, "shuffle_reduction", &err) == WS_OK, "%s", err.msg);
    CHECK((long double)o[0] == sum, "total %d vs %Lf", o[0], sum);
    fx_free(&f);

    /* tree: one sum per block */
    fx_init(&f, "reduction2_kernel", 4, 16);
    x = fx_buf(&f, "x", WS_T_I32, 64);
    o = fx_buf(&f, "o", WS_T_I32, 4);
    for (int i = 0; i < 64; i++)
        x[i] = i;
    CHECK(fx_run(&f, "tree_reduction", &err) == WS_OK, "%s", err.msg);
    for (int b = 0; b < 4; b++) /* sum of 16b .. 16b+15 = 256b + 120 */
        CHECK(o[b] == 256 * b + 120, "block %d: %d", b, o[b]);
    fx_free(&f);

    /* a wrong buffer type is named */
    fx_init(&f, "reduction2_kernel", 1, 4);
    fx_buf(&f, "x", WS_T_F32, 4);
    fx_buf(&f, "o", WS_T_I32, 1);
    CHECK(fx_run(&f, "tree_reduction", &err) == WS_ERR_SPEC, "f32 x fails");
    CHECK(strstr(err.msg, "buffer x must be i32, not f32") != NULL, "%s", err.msg);
    fx_free(&f);

    /* a missing buffer is named */
    fx_init(&f, "reduction3_kernel", 1, 4);
    fx_buf(&f, "x", WS_T_I32, 4);
    CHECK(fx_run(&f, "shuffle_reduction", &err) == WS_ERR_SPEC, "no o fails");
    CHECK(strstr(err.msg, "needs a buffer named o") != NULL, "%s", err.msg);
    fx_free(&f);
}

/* ---------------------------------------------------------------- seeds 003, 004 */

static void run_per_thread(const char *ref, const char *kernel, int32_t *in, int32_t *out,
                           int n, int block, ws_error *err, int *rc)
{
    fixture f;
    fx_init(&f, kernel, (uint32_t)(n / block), (uint32_t)block);
    fx_const(&f, "LOOP", 5);
    int32_t *fin = fx_buf(&f, "in", WS_T_I32, (uint64_t)n);
    int32_t *fout = fx_buf(&f, "out", WS_T_I32, (uint64_t)n);
    memcpy(fin, in, sizeof *in * (size_t)n);
    *rc = fx_run(&f, ref, err);
    memcpy(out, fout, sizeof *out * (size_t)n);
    fx_free(&f);
}

static void test_divergence_and_predication(void)
{
    enum { n = 128, block = 64 };
    int32_t in[n], out[n];
    ws_error err;
    int rc, bad;
    uint32_t s = 3;
    for (int i = 0; i < n; i++)
        in[i] = (int32_t)(lcg(&s) % 201) - 100;

    run_per_thread("divergence_examples", "tid_eq_0", in, out, n, block, &err, &rc);
    CHECK(rc == WS_OK, "%s", err.msg);
    bad = 0;
    for (int i = 0; i < n; i++)
        bad += out[i] != steps64(in[i], 5, i % block == 0 ? 0 : 1);
    CHECK(bad == 0, "tid_eq_0: %d differ", bad);

    run_per_thread("divergence_examples", "warp_uniform", in, out, n, block, &err, &rc);
    bad = 0;
    for (int i = 0; i < n; i++)
        bad += out[i] != steps64(in[i], 5, (i % block) < 32 ? 0 : 1);
    CHECK(rc == WS_OK && bad == 0, "warp_uniform: %d differ", bad);

    run_per_thread("divergence_examples", "nested", in, out, n, block, &err, &rc);
    bad = 0;
    for (int i = 0; i < n; i++) {
        int64_t t = i;
        if (i % 2 == 0) {
            for (int k = 0; k < 5; k++)
                t = in[i] < 0 ? ((t * t) ^ t) & 0xffff : (t * t + 3 * t) & 0xffff;
        } else {
            t = steps64(i, 5, in[i] < 0 ? 0 : 1);
        }
        bad += out[i] != t;
    }
    CHECK(rc == WS_OK && bad == 0, "nested: %d differ", bad);

    run_per_thread("divergence_examples", "loop", in, out, n, block, &err, &rc);
    bad = 0;
    for (int i = 0; i < n; i++) {
        int64_t t = in[i];
        for (int k = 0; k <= (i % block) % 32; k++)
            t = (t * t + t + k) & 0xffff;
        bad += out[i] != t;
    }
    CHECK(rc == WS_OK && bad == 0, "loop: %d differ", bad);

    run_per_thread("predication", "short_if", in, out, n, block, &err, &rc);
    bad = 0;
    for (int i = 0; i < n; i++)
        bad += out[i] != (in[i] < 0 ? -3 * in[i] : in[i] + 7);
    CHECK(rc == WS_OK && bad == 0, "short_if: %d differ", bad);

    run_per_thread("predication", "long_if", in, out, n, block, &err, &rc);
    bad = 0;
    for (int i = 0; i < n; i++)
        bad += out[i] != steps64(in[i], 5, in[i] < 0 ? 0 : 1);
    CHECK(rc == WS_OK && bad == 0, "long_if: %d differ", bad);

    run_per_thread("predication", "no_such_kernel", in, out, n, block, &err, &rc);
    CHECK(rc == WS_ERR_SPEC, "an unknown kernel fails");
    CHECK(strstr(err.msg, "reference predication has no kernel named no_such_kernel") != NULL,
          "%s", err.msg);
}

/* ---------------------------------------------------------------- seed 001 */

static void test_histogram(void)
{
    enum { n = 10000 };
    const char *types[] = {"int", "double"};
    int64_t counts[2][10];
    for (int t = 0; t < 2; t++) {
        fixture f;
        ws_error err;
        fx_init(&f, "hist_atomic", 4, 32);
        fx_const(&f, "N", n);
        fx_const(&f, "BINS", 10);
        fx_word(&f, "BIN_T", types[t]);
        double *data = fx_buf(&f, "data", WS_T_F64, n);
        int32_t *hi = fx_buf(&f, "hist_i", WS_T_I32, 10);
        double *hd = fx_buf(&f, "hist_d", WS_T_F64, 10);
        uint32_t s = 11;
        for (int i = 0; i < n; i++)
            data[i] = (lcg(&s) % 1000000) / 1000000.0;
        data[0] = 0.9999999999999999; /* rounds up to 10 in x*10: must land in bin 9 */
        CHECK(fx_run(&f, "histogram", &err) == WS_OK, "%s", err.msg);
        int64_t total = 0, other = 0, range_ok = 1;
        for (int b = 0; b < 10; b++) {
            counts[t][b] = t ? (int64_t)hd[b] : hi[b];
            other += t ? hi[b] : (int64_t)hd[b];
            total += counts[t][b];
            int64_t in_range = 0; /* bin b holds the values in [b/10, (b+1)/10) */
            for (int i = 0; i < n; i++)
                in_range += data[i] * 10 >= b && (data[i] * 10 < b + 1 || (b == 9 && i == 0));
            range_ok &= in_range == counts[t][b];
        }
        CHECK(total == n, "%s bins: counts sum to %lld, not %d", types[t], (long long)total, n);
        CHECK(other == 0, "%s bins: the other bin array stays zero", types[t]);
        CHECK(range_ok, "%s bins: each bin counts the values in its range", types[t]);
        fx_free(&f);
    }
    CHECK(memcmp(counts[0], counts[1], sizeof counts[0]) == 0, "int and double bins agree");

    fixture f;
    ws_error err;
    fx_init(&f, "hist_atomic", 1, 32);
    fx_const(&f, "N", 4);
    fx_const(&f, "BINS", 1);
    fx_word(&f, "BIN_T", "float");
    fx_buf(&f, "data", WS_T_F64, 4);
    fx_buf(&f, "hist_i", WS_T_I32, 1);
    fx_buf(&f, "hist_d", WS_T_F64, 1);
    CHECK(fx_run(&f, "histogram", &err) == WS_ERR_SPEC, "BIN_T float fails");
    CHECK(strstr(err.msg, "BIN_T must be int or double, not 'float'") != NULL, "%s", err.msg);
    fx_free(&f);
}

/* Himeno with p = i^2 and initmt's coefficients: s0 = 6 i^2 + 2, so ss = 1/3 at every
 * interior point: gosa = points / 9, wrk2 = i^2 + 0.8/3. */
static void test_himeno(void)
{
    enum { I = 6, J = 5, K = 7, NP = I * J * K };
    static const char *names[] = {"p", "a0", "a1", "a2", "a3", "b0", "b1", "b2",
                                  "c0", "c1", "c2", "wrk1", "bnd", "wrk2"};
    const char *refs[] = {"himeno", "himeno_omp"};
    float gosa_of[2];
    for (int r = 0; r < 2; r++) {
        fixture f;
        ws_error err;
        float *a[14];
        fx_init(&f, "jacobi_atomic", 1, 1);
        fx_const(&f, "IMAX", I);
        fx_const(&f, "JMAX", J);
        fx_const(&f, "KMAX", K);
        for (int i = 0; i < 14; i++)
            a[i] = fx_buf(&f, names[i], WS_T_F32, NP);
        float *gosa = fx_buf(&f, "gosa", WS_T_F32, 1);
        for (int x = 0; x < NP; x++) {
            int i = x / (J * K);
            a[0][x] = (float)(i * i);
            a[1][x] = a[2][x] = a[3][x] = 1.0f;
            a[4][x] = 1.0f / 6.0f;
            a[8][x] = a[9][x] = a[10][x] = a[12][x] = 1.0f;
        }
        CHECK(fx_run(&f, refs[r], &err) == WS_OK, "%s", err.msg);
        int points = (I - 2) * (J - 2) * (K - 2), bad = 0;
        CHECK(fabs(gosa[0] - points / 9.0) < 1e-4 * points, "%s: gosa %g, want %g", refs[r],
              gosa[0], points / 9.0);
        for (int x = 0; x < NP; x++) {
            int i = x / (J * K), j = x / K % J, k = x % K;
            int interior = i > 0 && i < I - 1 && j > 0 && j < J - 1 && k > 0 && k < K - 1;
            double want = interior ? i * i + 0.8 / 3 : 0;
            bad += fabs(a[13][x] - want) > 1e-4 * (1 + want);
        }
        CHECK(bad == 0, "%s: %d wrk2 points differ from i^2 + 0.8/3", refs[r], bad);
        gosa_of[r] = gosa[0];
        fx_free(&f);
    }
    CHECK(fabsf(gosa_of[0] - gosa_of[1]) <= 1e-5f * gosa_of[0], "serial %g vs OpenMP %g",
          gosa_of[0], gosa_of[1]);
}

/* ---------------------------------------------------------------- the classic workloads */

/* BFS on a hand-made graph: 0 -> 1, 2; 1 -> 3; 2 -> 3, 4; 3 -> 0; 4 -> 4; 5 -> 0 (5 is
 * unreachable from 0). Levels 0 1 1 2 2 -1; the masks and the flag end clear. */
static void test_bfs(void)
{
    static const int32_t degs[6] = {2, 1, 2, 1, 1, 1};
    static const int32_t edges[6][2] = {{1, 2}, {3, 0}, {3, 4}, {0, 0}, {4, 0}, {0, 0}};
    static const int32_t levels[6] = {0, 1, 1, 2, 2, -1};
    fixture f;
    ws_error err;
    fx_init(&f, "bfs_expand", 1, 32);
    fx_const(&f, "N", 6);
    fx_const(&f, "MAXDEG", 2);
    fx_const(&f, "SRC", 0);
    int32_t *deg = fx_buf(&f, "deg", WS_T_I32, 6), *adj = fx_buf(&f, "adj", WS_T_I32, 12);
    uint8_t *frontier = fx_buf(&f, "frontier", WS_T_U8, 6);
    uint8_t *updated = fx_buf(&f, "updated", WS_T_U8, 6);
    uint8_t *visited = fx_buf(&f, "visited", WS_T_U8, 6);
    int32_t *cost = fx_buf(&f, "cost", WS_T_I32, 6), *over = fx_buf(&f, "over", WS_T_I32, 1);
    for (int v = 0; v < 6; v++) {
        deg[v] = degs[v];
        adj[2 * v] = edges[v][0], adj[2 * v + 1] = edges[v][1];
        frontier[v] = updated[v] = 1;
        cost[v] = 7;
    }
    over[0] = 1;
    CHECK(fx_run(&f, "bfs", &err) == WS_OK, "%s", err.msg);
    int bad = over[0] != 0;
    for (int v = 0; v < 6; v++)
        bad += cost[v] != levels[v] || visited[v] != (levels[v] >= 0) || frontier[v] || updated[v];
    CHECK(bad == 0, "bfs: levels 0 1 1 2 2 -1, masks and flag clear (%d wrong)", bad);
    adj[3] = 6; /* node 1 has one edge: the padding slot is not read */
    CHECK(fx_run(&f, "bfs", &err) == WS_OK, "padding is ignored: %s", err.msg);
    adj[4] = 6;
    CHECK(fx_run(&f, "bfs", &err) == WS_ERR_SPEC, "an edge to node 6 of 6 fails");
    CHECK(strstr(err.msg, "edge to node 6 outside 0..N-1") != NULL, "%s", err.msg);
    fx_free(&f);
}

/* Needleman-Wunsch of "AB" against "AB" (codes 0, 1), match +1, mismatch -1, gap 1:
 *     0 -1 -2 / -1 1 0 / -2 0 2 (by hand). */
static void test_needleman_wunsch(void)
{
    static const int32_t want[9] = {0, -1, -2, -1, 1, 0, -2, 0, 2};
    fixture f;
    ws_error err;
    fx_init(&f, "nw_phase1_16", 1, 16);
    fx_const(&f, "N", 2);
    fx_const(&f, "PENALTY", 1);
    uint8_t *a = fx_buf(&f, "seqa", WS_T_U8, 2), *b = fx_buf(&f, "seqb", WS_T_U8, 2);
    int32_t *sub = fx_buf(&f, "substitution", WS_T_I32, 24 * 24);
    int32_t *score = fx_buf(&f, "score", WS_T_I32, 9);
    for (int i = 0; i < 24 * 24; i++)
        sub[i] = i / 24 == i % 24 ? 1 : -1;
    a[1] = b[1] = 1;
    CHECK(fx_run(&f, "needleman_wunsch", &err) == WS_OK, "%s", err.msg);
    CHECK(memcmp(score, want, sizeof want) == 0, "nw: AB/AB = 0 -1 -2 / -1 1 0 / -2 0 2");
    a[0] = 24;
    CHECK(fx_run(&f, "needleman_wunsch", &err) == WS_ERR_SPEC, "residue 24 fails");
    CHECK(strstr(err.msg, "residue codes must be below 24") != NULL, "%s", err.msg);
    fx_free(&f);
}

/* HotSpot: a 1 x 1 chip follows T' = T + cap (P + (amb - T) rz) (no neighbours but itself);
 * a field at the ambient temperature without power stays there. */
static void test_hotspot(void)
{
    for (int c = 0; c < 2; c++) {
        fixture f;
        ws_error err;
        int rows = c ? 3 : 1, cols = c ? 4 : 1, cells = rows * cols;
        fx_init(&f, "hotspot_step", 1, 256);
        fx_const(&f, "ROWS", rows);
        fx_const(&f, "COLS", cols);
        fx_const(&f, "STEPS", 2);
        fx_real(&f, "CAP", "0.5");
        fx_real(&f, "RX", "0.25");
        fx_real(&f, "RY", "0.25");
        fx_real(&f, "RZ", "0.125");
        fx_const(&f, "AMB", 80); /* an integer constant is a number too */
        float *power = fx_buf(&f, "power", WS_T_F32, cells);
        float *temp = fx_buf(&f, "temp", WS_T_F32, 2 * cells);
        for (int i = 0; i < 2 * cells; i++)
            temp[i] = c ? 80.0f : 100.0f;
        power[0] = c ? 0.0f : 4.0f;
        CHECK(fx_run(&f, "hotspot", &err) == WS_OK, "%s", err.msg);
        if (c == 0) {
            double t1 = 100 + 0.5 * (4 + (80 - 100) * 0.125);
            double t2 = t1 + 0.5 * (4 + (80 - t1) * 0.125);
            CHECK(fabs(temp[0] - t2) < 1e-5 && fabs(temp[1] - t1) < 1e-5,
                  "hotspot 1x1: steps 2 and 1 are %g %g, want %g %g", temp[0], temp[1], t2, t1);
        } else {
            int bad = 0;
            for (int i = 0; i < 2 * cells; i++)
                bad += temp[i] != 80.0f;
            CHECK(bad == 0, "hotspot: the ambient field without power stays (%d cells moved)", bad);
        }
        fx_free(&f);
    }
    fixture f;
    ws_error err;
    fx_init(&f, "hotspot_step", 1, 256);
    fx_const(&f, "ROWS", 1);
    fx_const(&f, "COLS", 1);
    fx_const(&f, "STEPS", 3);
    fx_real(&f, "CAP", "0.5");
    fx_real(&f, "RX", "0.5");
    fx_real(&f, "RY", "0.5");
    fx_real(&f, "RZ", "0.5");
    fx_word(&f, "AMB", "hot");
    fx_buf(&f, "power", WS_T_F32, 1);
    fx_buf(&f, "temp", WS_T_F32, 2);
    CHECK(fx_run(&f, "hotspot", &err) == WS_ERR_SPEC, "a word AMB fails");
    CHECK(strstr(err.msg, "constant AMB must be a number") != NULL, "%s", err.msg);
    fx_free(&f);
}

/* Bitonic sort: the first 2^LOG2N keys come out ascending, the same multiset; the rest
 * stays as it was. */
static void test_bitonic_sort(void)
{
    enum { n = 1 << 10 };
    fixture f;
    ws_error err;
    fx_init(&f, "bitonic_step", 4, 256);
    fx_const(&f, "LOG2N", 10);
    uint32_t *keys = fx_buf(&f, "keys", WS_T_U32, n + 3);
    uint32_t s = 5, sum = 0, x = 0;
    for (int i = 0; i < n + 3; i++)
        keys[i] = lcg(&s) ^ (lcg(&s) << 16);
    keys[7] = keys[8] = 0xffffffffu; /* duplicates and the largest key */
    for (int i = 0; i < n; i++)
        sum += keys[i], x ^= keys[i] * 2654435761u;
    uint32_t tail[3] = {keys[n], keys[n + 1], keys[n + 2]};
    CHECK(fx_run(&f, "bitonic_sort", &err) == WS_OK, "%s", err.msg);
    int unordered = 0;
    uint32_t sum2 = 0, x2 = 0;
    for (int i = 0; i < n; i++) {
        unordered += i > 0 && keys[i - 1] > keys[i];
        sum2 += keys[i], x2 ^= keys[i] * 2654435761u;
    }
    CHECK(unordered == 0 && keys[n - 1] == 0xffffffffu && keys[n - 2] == 0xffffffffu,
          "bitonic: ascending (%d pairs out of order)", unordered);
    CHECK(sum2 == sum && x2 == x, "bitonic: the same keys");
    CHECK(memcmp(tail, keys + n, sizeof tail) == 0, "bitonic: keys past 2^LOG2N untouched");
    f.consts[0].ival = 11;
    CHECK(fx_run(&f, "bitonic_sort", &err) == WS_ERR_SPEC, "2^11 keys in a buffer of 1027 fails");
    fx_free(&f);
}

/* Byte histogram: every byte value once and byte 200 ten more times, into 64 bins (4 byte
 * values each) and 256, added to what the bins hold. */
static void test_byte_histogram(void)
{
    const int bins_of[] = {64, 256};
    for (int c = 0; c < 2; c++) {
        int bins = bins_of[c], bad = 0;
        fixture f;
        ws_error err;
        fx_init(&f, "hist_block", 1, 256);
        fx_const(&f, "N", 268);
        fx_const(&f, "BINS", bins);
        uint8_t *data = fx_buf(&f, "data", WS_T_U8, 268);
        uint32_t *hist = fx_buf(&f, "hist", WS_T_U32, bins);
        for (int i = 0; i < 268; i++)
            data[i] = (uint8_t)(i < 256 ? i : 200);
        hist[0] = 5;
        CHECK(fx_run(&f, "byte_histogram", &err) == WS_OK, "%s", err.msg);
        for (int b = 0; b < bins; b++) {
            uint32_t want = 256u / (uint32_t)bins + (b == 0 ? 5 : 0) +
                            (b == 200 * bins / 256 ? 12 : 0);
            bad += hist[b] != want;
        }
        CHECK(bad == 0, "byte histogram, %d bins: %d bins wrong", bins, bad);
        fx_free(&f);
    }
}

static void test_registry(void)
{
    const char *names[] = {"branch_unification", "dynamic_assignment", "naive_reduction",
                           "tree_reduction", "shuffle_reduction", "divergence_examples",
                           "predication", "histogram", "himeno", "himeno_omp", "bfs",
                           "needleman_wunsch", "hotspot", "bitonic_sort", "byte_histogram"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        CHECK(ws_reference_find(names[i]) != NULL, "%s is registered", names[i]);
    CHECK(ws_reference_find("no_such_reference") == NULL, "unknown names give NULL");
    CHECK(ws_reference_find(NULL) == NULL, "NULL gives NULL");
}

int main(void)
{
    test_branch_unification();
    test_dynamic_assignment();
    test_reductions();
    test_divergence_and_predication();
    test_histogram();
    test_himeno();
    test_bfs();
    test_needleman_wunsch();
    test_hotspot();
    test_bitonic_sort();
    test_byte_histogram();
    test_registry();
    return ws_test_finish("test_kernels_ref");
}
