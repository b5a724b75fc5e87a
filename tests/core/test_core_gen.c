/* test_core_gen.c — generators and buffers: xoshiro256** / splitmix64 against an
 * independent reference written here (and hand-computed values), determinism, ranges,
 * mixture proportions, file replay, and ws_buffer_equal. */
#include "core/core.h"
#include "tests/check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[512], spec_path[600];

/* ---- the reference algorithms, transcribed from Blackman & Vigna's xoshiro256starstar.c
 * and splitmix64.c, independently of core/gen.c. */
static uint64_t ref_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
static uint64_t ref_splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static uint64_t ref_next(uint64_t s[4])
{
    uint64_t result = ref_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t;
    s[3] = ref_rotl(s[3], 45);
    return result;
}
static void ref_seed(uint64_t s[4], uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        s[i] = ref_splitmix(&seed);
}
/* Unbiased [0, range): reject below 2^64 mod range (as arc4random_uniform). */
static uint64_t ref_below(uint64_t s[4], uint64_t range)
{
    uint64_t min = (0 - range) % range, x;
    do
        x = ref_next(s);
    while (x < min);
    return x % range;
}

static void test_rng_known_answers(void)
{
    uint64_t x = 0;
    CHECK(ref_splitmix(&x) == 0xe220a8397b1dcdafULL, "splitmix64(0) published first output");
    ws_rng r = {{1, 2, 3, 4}};
    /* By hand: rotl(2*5, 7)*9 = 11520; the update leaves s[1] = 2^2^2 = 0 -> 0. */
    CHECK(ws_rng_next(&r) == 11520, "xoshiro256** first from {1,2,3,4}");
    CHECK(ws_rng_next(&r) == 0, "second from {1,2,3,4}");
    uint64_t s[4];
    ref_seed(s, 42);
    ws_rng_seed(&r, 42);
    int same = 1;
    for (int i = 0; i < 1000; i++)
        same &= ws_rng_next(&r) == ref_next(s);
    CHECK(same, "1000 outputs equal the reference for seed 42");
    ws_rng_seed(&r, 5);
    double lo = 1, hi = 0;
    for (int i = 0; i < 10000; i++) {
        double d = ws_rng_double(&r);
        lo = fmin(lo, d);
        hi = fmax(hi, d);
    }
    CHECK(lo >= 0 && hi < 1 && lo < 0.01 && hi > 0.99, "double in [0,1): %g %g", lo, hi);
}

static void write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL, "write %s", path);
    if (f) {
        fwrite(data, 1, n, f);
        fclose(f);
    }
}

static ws_spec *load(const char *body)
{
    char text[4096];
    snprintf(text, sizeof text, "source w.cu\nseed 3\n%s\nvariant v\n kernel k\n grid 1\n block 32\n", body);
    ws_spec *s = NULL;
    ws_error err;
    ws_error_clear(&err);
    int rc = ws_spec_parse(text, spec_path, NULL, 0, &s, &err);
    CHECK(rc == WS_OK, "spec: %d %s", err.line, err.msg);
    return s;
}

static int generate(ws_spec *s, ws_buffers *b)
{
    ws_error err;
    ws_error_clear(&err);
    int rc = ws_buffers_generate(s, b, &err);
    CHECK(rc == WS_OK, "generate: %s", err.msg);
    return rc;
}

/* The bytes of `uniform_int 0 9 seed 5`, recomputed here from the reference. */
static void test_known_buffer(void)
{
    ws_spec *s = load("buffer a i32 16 uniform_int 0 9 seed 5\nbuffer b i64 4 uniform_int -3 3");
    ws_buffers b;
    if (!s || generate(s, &b) != WS_OK)
        return;
    uint64_t st[4];
    ref_seed(st, 5);
    int ok = 1;
    for (int i = 0; i < 16; i++)
        ok &= ((int32_t *)b.b[0].data)[i] == (int32_t)ref_below(st, 10);
    CHECK(ok, "uniform_int 0 9 equals the reference draws");
    ref_seed(st, ws_hash64("b", 1, 3));
    ok = 1;
    for (int i = 0; i < 4; i++)
        ok &= ((int64_t *)b.b[1].data)[i] == -3 + (int64_t)ref_below(st, 7);
    CHECK(ok, "negative range, derived seed");
    ws_buffers_free(&b);
    ws_spec_free(s);
}

static void test_determinism(void)
{
    ws_spec *s1 = load("buffer a u32 1000 random_bits\nbuffer c f64 100 uniform_real");
    ws_spec *s2 = load("buffer z i8 7 zero\nbuffer a u32 1000 random_bits\nbuffer c f64 100 uniform_real");
    ws_buffers b1, b2, b3;
    if (!s1 || !s2 || generate(s1, &b1) || generate(s2, &b2))
        return;
    CHECK(memcmp(b1.b[0].data, b2.b[1].data, 4000) == 0, "adding a buffer keeps the others");
    CHECK(memcmp(b1.b[1].data, b2.b[2].data, 800) == 0, "same reals");
    generate(s1, &b3);
    CHECK(memcmp(b1.b[0].data, b3.b[0].data, 4000) == 0, "same spec, same bytes");
    ws_buffers clone;
    ws_error err;
    CHECK(ws_buffers_clone(&b1, &clone, &err) == WS_OK && clone.n == 2 &&
          clone.b[0].data != b1.b[0].data && memcmp(clone.b[0].data, b1.b[0].data, 4000) == 0,
          "clone");
    uint64_t diff = 99;
    CHECK(ws_buffer_equal(&b1.b[0], &clone.b[0], &diff), "clone equal");
    ((uint32_t *)clone.b[0].data)[17] ^= 1;
    CHECK(!ws_buffer_equal(&b1.b[0], &clone.b[0], &diff) && diff == 17, "diff at %llu",
          (unsigned long long)diff);
    ws_spec *s3 = load("buffer a u32 1000 random_bits seed 4");
    ws_buffers b4;
    if (s3 && generate(s3, &b4) == WS_OK) {
        CHECK(memcmp(b1.b[0].data, b4.b[0].data, 4000) != 0, "another seed, other bytes");
        ws_buffers_free(&b4);
    }
    ws_spec_free(s3);
    ws_buffers_free(&clone);
    ws_buffers_free(&b1);
    ws_buffers_free(&b2);
    ws_buffers_free(&b3);
    ws_spec_free(s1);
    ws_spec_free(s2);
}

static void test_ranges(void)
{
    enum { N = 20000 };
    ws_spec *s = load("buffer a i32 20000 uniform_int 0 3\n"
                      "buffer m i32 20000 mix 0.9 uniform_int 1 2048 | 0.1 uniform_int 2049 8192\n"
                      "buffer r f32 20000 uniform_real -1 1\n"
                      "buffer d f64 20000 uniform_real 2 3\n"
                      "buffer i i16 20000 iota 5 -2\n"
                      "buffer c f64 3 const 0.25\n"
                      "buffer u u8 20000 random_bits\n"
                      "buffer big u64 1000 uniform_int 0 18446744073709549568\n"
                      "buffer fi f32 100 uniform_int -5 5");
    ws_buffers b;
    if (!s || generate(s, &b) != WS_OK)
        return;
    int count[4] = {0}, bad = 0;
    for (int i = 0; i < N; i++) {
        int v = ((int32_t *)b.b[0].data)[i];
        if (v < 0 || v > 3)
            bad++;
        else
            count[v]++;
    }
    /* Each value 5000 expected; sd = sqrt(N p (1-p)) ~ 61; allow 5 sd. */
    CHECK(!bad, "uniform_int within [0,3]");
    for (int k = 0; k < 4; k++)
        CHECK(fabs(count[k] - 5000.0) < 310, "value %d drawn %d times", k, count[k]);
    int low = 0;
    bad = 0;
    for (int i = 0; i < N; i++) {
        int v = ((int32_t *)b.b[1].data)[i];
        bad += v < 1 || v > 8192;
        low += v <= 2048;
    }
    /* 90% low: expected 18000, sd ~ 42. */
    CHECK(!bad && fabs(low - 18000.0) < 250, "mix proportions: %d of %d low", low, N);
    float fmin_ = 9, fmax_ = -9;
    for (int i = 0; i < N; i++) {
        float v = ((float *)b.b[2].data)[i];
        fmin_ = fminf(fmin_, v);
        fmax_ = fmaxf(fmax_, v);
    }
    CHECK(fmin_ >= -1 && fmax_ < 1 && fmin_ < -0.99f && fmax_ > 0.99f, "f32 in [-1,1)");
    double dsum = 0;
    bad = 0;
    for (int i = 0; i < N; i++) {
        double v = ((double *)b.b[3].data)[i];
        bad += !(v >= 2 && v < 3);
        dsum += v;
    }
    CHECK(!bad && fabs(dsum / N - 2.5) < 0.01, "f64 in [2,3), mean %g", dsum / N);
    int16_t *io = b.b[4].data;
    CHECK(io[0] == 5 && io[1] == 3 && io[3] == -1 && io[19999] == (int16_t)(5 - 2 * 19999),
          "iota with negative step and wrap");
    CHECK(((double *)b.b[5].data)[2] == 0.25, "const");
    int seen[256] = {0}, distinct = 0;
    for (int i = 0; i < N; i++)
        seen[((uint8_t *)b.b[6].data)[i]]++;
    for (int k = 0; k < 256; k++)
        distinct += seen[k] > 0;
    CHECK(distinct == 256, "random_bits u8 covers all values (%d)", distinct);
    int high = 0;
    for (int i = 0; i < 1000; i++)
        high += ((uint64_t *)b.b[7].data)[i] >> 63;
    CHECK(high > 400 && high < 600, "u64 range above 2^63: %d", high);
    bad = 0;
    for (int i = 0; i < 100; i++) {
        float v = ((float *)b.b[8].data)[i];
        bad += v != floorf(v) || v < -5 || v > 5;
    }
    CHECK(!bad, "uniform_int into f32 gives integers");
    ws_buffers_free(&b);
    ws_spec_free(s);
}

static void test_file(void)
{
    char path[700];
    int32_t vals[5] = {7, -1, 65536, 3, 9};
    snprintf(path, sizeof path, "%s/in.bin", dir);
    write_file(path, vals, sizeof vals);
    ws_spec *s = load("buffer a i32 4 file in.bin");
    ws_buffers b;
    if (s && generate(s, &b) == WS_OK) {
        CHECK(memcmp(b.b[0].data, vals, 16) == 0, "file replay");
        ws_buffers_free(&b);
    }
    ws_spec_free(s);
    s = load("\nbuffer a i32 6 file in.bin");
    ws_error err;
    ws_error_clear(&err);
    if (s) {
        int rc = ws_buffers_generate(s, &b, &err);
        CHECK(rc == WS_ERR_SPEC && err.line == 4 && strstr(err.msg, "buffer 'a'") &&
              strstr(err.msg, "holds 20 bytes, fewer than the 24 needed"),
              "short file: %d %s", err.line, err.msg);
    }
    ws_spec_free(s);
    s = load("buffer a i32 6 file missing.bin");
    if (s) {
        int rc = ws_buffers_generate(s, &b, &err);
        CHECK(rc == WS_ERR_IO && strstr(err.msg, "missing.bin"), "missing file: %s", err.msg);
    }
    ws_spec_free(s);
    unlink(path);
}

static void test_equal(void)
{
    ws_buffer_spec fs = {.type = WS_T_F32, .tolerance = 1e-3};
    float x[4] = {1.0f, NAN, 100.0f, INFINITY}, y[4] = {1.0005f, NAN, 100.05f, INFINITY};
    ws_buffer a = {&fs, x, sizeof x}, b = {&fs, y, sizeof y};
    uint64_t diff = 0;
    CHECK(ws_buffer_equal(&a, &b, &diff), "within tolerance, NaN==NaN, inf==inf");
    y[2] = 100.2f;
    CHECK(!ws_buffer_equal(&a, &b, &diff) && diff == 2, "beyond tolerance at 2");
    y[2] = 100.05f;
    y[1] = 0;
    CHECK(!ws_buffer_equal(&a, &b, &diff) && diff == 1, "NaN vs number");
    fs.tolerance = 0;
    y[1] = NAN;
    CHECK(!ws_buffer_equal(&a, &b, &diff) && diff == 0, "exact when tolerance 0");
    float u[3] = {0.01f, 5.0f, -3.0f}, v[3] = {0.05f, 5.09f, -3.2f};
    ws_buffer e = {&fs, u, sizeof u}, f = {&fs, v, sizeof v};
    fs.tolerance = 1e-3;
    fs.absolute = 0.1;
    CHECK(!ws_buffer_equal(&e, &f, &diff) && diff == 2,
          "absolute 0.1: within it near 0 and at 5, beyond it at 2");
    fs.tolerance = 0.1;
    CHECK(ws_buffer_equal(&e, &f, &diff), "either bound suffices");
    ws_buffer_spec is = {.type = WS_T_I16};
    int16_t p[3] = {1, 2, 3}, q[3] = {1, 2, 4};
    ws_buffer c = {&is, p, sizeof p}, d = {&is, q, sizeof q};
    CHECK(!ws_buffer_equal(&c, &d, &diff) && diff == 2, "ints exact");
    d.bytes = 4;
    CHECK(!ws_buffer_equal(&c, &d, &diff) && diff == 2, "shorter differs at its end");
    c.bytes = 4;
    CHECK(ws_buffer_equal(&c, &d, &diff), "same prefix");
}

/* f16 and bf16 elements: conversions (round to nearest even, overflow to infinity,
 * subnormals, NaN), generation within [lo, hi) after rounding, and comparison as values. */
static void test_half_types(void)
{
    static const struct { ws_type t; double v; uint16_t bits; } conv[] = {
        {WS_T_F16, 1.0, 0x3c00},      {WS_T_F16, -2.5, 0xc100},     {WS_T_F16, 65504, 0x7bff},
        {WS_T_F16, 65519.9, 0x7bff},  {WS_T_F16, 65520, 0x7c00},    {WS_T_F16, 0x1p-24, 0x0001},
        {WS_T_F16, 0x1p-26, 0x0000},  {WS_T_F16, 1.0009765625 + 0x1p-11, 0x3c02}, /* tie: even */
        {WS_T_BF16, 1.0, 0x3f80},     {WS_T_BF16, 3.140625, 0x4049}, {WS_T_BF16, -1e39, 0xff80},
        {WS_T_BF16, 1.00390625, 0x3f80}, /* tie between 0x3f80 and 0x3f81: even */
    };
    for (size_t i = 0; i < sizeof conv / sizeof conv[0]; i++) {
        uint16_t h = 0xdead;
        ws_real_store(conv[i].t, &h, conv[i].v);
        CHECK(h == conv[i].bits, "%s of %.17g: 0x%04x (want 0x%04x)", ws_type_name(conv[i].t),
              conv[i].v, h, conv[i].bits);
    }
    uint16_t h = 0x7fff;
    CHECK(isnan(ws_real_load(WS_T_F16, &h)) && isnan(ws_real_load(WS_T_BF16, &h)), "NaN loads");
    ws_real_store(WS_T_F16, &h, NAN);
    CHECK(h == 0x7fff, "NaN stores as 0x7fff (0x%04x)", h);
    h = 0x0001;
    CHECK(ws_real_load(WS_T_F16, &h) == 0x1p-24, "the least f16 subnormal loads");
    h = 0x3c00;
    ws_real_step_down(WS_T_F16, &h);
    CHECK(h == 0x3bff, "step below 1.0: 0x%04x", h);
    ws_spec *s = load("buffer h f16 20000 uniform_real -1 1\n"
                      "buffer b bf16 20000 uniform_real 0 100\n"
                      "buffer c f16 4 const 0.1\n");
    ws_buffers bufs;
    if (!s || generate(s, &bufs) != WS_OK)
        return;
    double lo = 9, hi = -9, blo = 1e9, bhi = -1;
    for (int i = 0; i < 20000; i++) {
        double v = ws_real_load(WS_T_F16, (uint16_t *)bufs.b[0].data + i);
        double w = ws_real_load(WS_T_BF16, (uint16_t *)bufs.b[1].data + i);
        lo = fmin(lo, v);
        hi = fmax(hi, v);
        blo = fmin(blo, w);
        bhi = fmax(bhi, w);
    }
    CHECK(lo >= -1 && hi < 1 && lo < -0.99 && hi > 0.99, "f16 in [-1,1): %g..%g", lo, hi);
    CHECK(blo >= 0 && bhi < 100 && bhi > 99, "bf16 in [0,100): %g..%g", blo, bhi);
    CHECK(((uint16_t *)bufs.b[2].data)[3] == 0x2e66, "const 0.1 as f16 (0x%04x)",
          ((uint16_t *)bufs.b[2].data)[3]);
    ws_buffers_free(&bufs);
    ws_spec_free(s);
    ws_buffer_spec fs = {.type = WS_T_F16, .tolerance = 5e-4};
    uint16_t x[2] = {0x3c00, 0x7fff}, y[2] = {0x3c01, 0x7fff}; /* 1 and 1 + 2^-10 */
    ws_buffer a = {&fs, x, sizeof x}, c = {&fs, y, sizeof y};
    uint64_t diff = 0;
    CHECK(!ws_buffer_equal(&a, &c, &diff) && diff == 0, "f16: 1 ulp apart (2^-10) is beyond 5e-4");
    fs.tolerance = 1e-2;
    CHECK(ws_buffer_equal(&a, &c, &diff), "f16: within 1e-2, NaN == NaN");
}

int main(void)
{
    snprintf(dir, sizeof dir, "%s/tmp-core-gen-%d", WS_BINARY_DIR, (int)getpid());
    mkdir(dir, 0777);
    snprintf(spec_path, sizeof spec_path, "%s/w.spec", dir);
    char cu[700];
    snprintf(cu, sizeof cu, "%s/w.cu", dir);
    write_file(cu, "__global__ void k() {}\n", 23);
    test_rng_known_answers();
    test_known_buffer();
    test_determinism();
    test_ranges();
    test_file();
    test_equal();
    test_half_types();
    unlink(cu);
    rmdir(dir);
    return ws_test_finish("core_gen");
}
