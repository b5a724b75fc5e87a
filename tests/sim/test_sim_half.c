/* test_sim_half.c — half precision and the CUDA headers' inline asm: every f16, f16x2,
 * bf16 and bf16x2 intrinsic result of half.cu bit for bit against a CPU reference (GCC's
 * _Float16; bf16 rounded on the bits), and CUB's scan step with registers without '%'. */
#include <fenv.h>
#include <math.h>
#include "sim/exec.h" /* ws_double_to_f16 */
#include "tests/sim/sim_test.h"

#define N 256
#define NH 20
static const char *SPEC =
    "workload half\nsource half.cu\n"
    "buffer a f32 256 uniform_real -4 4\nbuffer b f32 256 uniform_real -4 4\n"
    "buffer c f32 256 uniform_real -4 4\nbuffer out u16 5120 zero\n"
    "buffer in i32 64 uniform_int -1000 1000\nbuffer sums i32 64 zero\n"
    "buffer e f32 256 zero\n"
    "variant exp\n  kernel half_exp\n  grid 2\n  block 128\n  args a e\n"
    "variant ops\n  kernel half_ops\n  grid 2\n  block 128\n  args a b c out\n"
    "variant scan\n  kernel asm_scan\n  grid 1\n  block 64\n  args in sums\n";

#ifdef __FLT16_MAX__
typedef _Float16 h16;
static uint16_t hb(h16 v) { uint16_t u; memcpy(&u, &v, 2); return u; }
static float hf(h16 v) { return (float)v; }

/* bf16 of a double, round to nearest even on the double's bits (exact in float after). */
static uint16_t bf_of(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    u = (u + ((1ull << 44) - 1) + ((u >> 45) & 1)) >> 45 << 45;
    memcpy(&d, &u, 8);
    float f = (float)d;
    uint32_t v;
    memcpy(&v, &f, 4);
    return (uint16_t)(v >> 16);
}
static double bf_val(uint16_t b) { uint32_t v = (uint32_t)b << 16; float f; memcpy(&f, &v, 4); return f; }

static void reference(float fa, float fb, float fc, uint16_t *r)
{
    h16 x = (h16)fa, y = (h16)fb, z = (h16)fc;
    h16 s0 = (h16)(hf(x) + hf(z)), s1 = (h16)(hf(y) + hf(x));
    h16 m0 = (h16)(hf(x) * hf(z)), m1 = (h16)(hf(y) * hf(x));
    h16 f0 = (h16)fma(hf(x), hf(z), hf(s0)), f1 = (h16)fma(hf(y), hf(x), hf(s1));
    r[0] = hb((h16)(hf(x) + hf(y)));
    r[1] = hb((h16)(hf(x) - hf(y)));
    r[2] = hb((h16)(hf(x) * hf(y)));
    r[3] = hb((h16)fma(hf(x), hf(y), hf(z)));
    r[4] = hb(x) ^ 0x8000;
    r[5] = hb(y) & 0x7fff;
    r[6] = hb(hf(x) < hf(y) ? x : y);
    r[7] = hb(hf(x) > hf(y) ? x : y);
    r[8] = hb(s0);
    r[9] = hb(s1);
    r[10] = hb(m0);
    r[11] = hb(f1);
    r[12] = hb((h16)(hf(x) + (hf(x) < hf(y) ? 1.0f : 0.0f)));
    r[13] = hb((h16)(hf(f0) - hf(m1)));
    double bx = bf_val(bf_of(fa)), by = bf_val(bf_of(fb)), bz = bf_val(bf_of(fc));
    r[14] = bf_of(bx + by);
    r[15] = bf_of(bx * by + bz); /* exact in double for these magnitudes */
    r[16] = bf_of(bx * by); /* bf16x2: (bx, by) * (by, bz), then fma with their sum */
    r[17] = bf_of(by * bz);
    r[18] = bf_of(bx * by + bf_val(bf_of(bx + by)));
    r[19] = bf_of(by * bz + bf_val(bf_of(by + bz)));
}

static void test_ops(ws_module *m)
{
    st_run r;
    int rc = st_exec(&r, m, SPEC, "ops", NULL);
    CHECK(rc == 0, "half_ops simulates: %s", r.err.msg);
    if (rc == 0) {
        const float *a = (const float *)st_buf(&r, "a")->data;
        const float *b = (const float *)st_buf(&r, "b")->data;
        const float *c = (const float *)st_buf(&r, "c")->data;
        const uint16_t *out = (const uint16_t *)st_buf(&r, "out")->data;
        int bad = 0;
        for (int i = 0; i < N; i++) {
            uint16_t want[NH];
            reference(a[i], b[i], c[i], want);
            for (int k = 0; k < NH; k++)
                if (out[i * NH + k] != want[k] && bad++ < 8)
                    printf("  thread %d result %d: 0x%04x, want 0x%04x (a %g b %g c %g)\n", i,
                           k, out[i * NH + k], want[k], a[i], b[i], c[i]);
        }
        CHECK(bad == 0, "%d of %d half results differ from the reference", bad, N * NH);
    }
    st_free(&r);
}

/* hexp rounds exp of the half input to half, then nudges by one ulp the inputs where the
 * GPU's ex2.approx is known to round the wrong way (the simulator's ex2 is exact there):
 * within two half ulps (2^-9 relative). */
static void test_exp(ws_module *m)
{
    st_run r;
    int rc = st_exec(&r, m, SPEC, "exp", NULL);
    CHECK(rc == 0, "half_exp simulates: %s", r.err.msg);
    if (rc == 0) {
        const float *a = (const float *)st_buf(&r, "a")->data;
        const float *e = (const float *)st_buf(&r, "e")->data;
        int bad = -1;
        for (int i = 0; i < N && bad < 0; i++) {
            double want = exp((double)(float)(h16)a[i]);
            if (fabs(e[i] - want) > want * 0x1p-9)
                bad = i;
        }
        CHECK(bad < 0, "hexp(%g) = %g, want %g", bad >= 0 ? a[bad] : 0, bad >= 0 ? e[bad] : 0,
              bad >= 0 ? exp((double)(float)(h16)a[bad]) : 0);
    }
    st_free(&r);
}
#endif

static void test_scan(ws_module *m)
{
    st_run r;
    int rc = st_exec(&r, m, SPEC, "scan", NULL);
    CHECK(rc == 0, "asm_scan simulates: %s", r.err.msg);
    if (rc == 0) {
        const int *in = (const int *)st_buf(&r, "in")->data;
        const int *s = (const int *)st_buf(&r, "sums")->data;
        int bad = -1, want = 0;
        for (int i = 0; i < 64 && bad < 0; i++) {
            want = (i % 32 ? want : 0) + in[i]; /* inclusive scan within each warp */
            if (s[i] != want)
                bad = i;
        }
        CHECK(bad < 0, "scan[%d] = %d, want %d", bad, bad >= 0 ? s[bad] : 0, want);
    }
    st_free(&r);
}

/* A real past the largest finite half rounds to infinity, or to 65504 where the rounding
 * mode goes toward zero (IEEE 754 overflow): cvt.rz/.rm/.rp.f16.f32 and F2FP.F16.F32 .RZ
 * (__float2half_rz) on both models. */
static void test_overflow(void)
{
    static const struct { int mode; double x; uint16_t want; } c[] = {
        {FE_TONEAREST, 1e30, 0x7c00},  {FE_TONEAREST, 65519.0, 0x7bff},
        {FE_TONEAREST, 65520.0, 0x7c00}, {FE_TOWARDZERO, 1e30, 0x7bff},
        {FE_TOWARDZERO, -1e30, 0xfbff}, {FE_TOWARDZERO, INFINITY, 0x7c00},
        {FE_DOWNWARD, 1e30, 0x7bff},   {FE_DOWNWARD, -1e30, 0xfc00},
        {FE_UPWARD, 1e30, 0x7c00},     {FE_UPWARD, -1e30, 0xfbff},
        {FE_TOWARDZERO, 65535.0, 0x7bff},
    };
    for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
        fesetround(c[i].mode);
        uint16_t got = ws_double_to_f16(c[i].x);
        fesetround(FE_TONEAREST);
        CHECK(got == c[i].want, "f16 of %g in rounding mode %d: %04x, want %04x", c[i].x,
              c[i].mode, got, c[i].want);
    }
}

int main(void)
{
    test_overflow();
    ws_module *m = st_load("half");
    CHECK(m != NULL, "half.ptx loads");
    if (m) {
        ws_error e;
        for (int i = 0; i < ws_module_entry_count(m); i++)
            CHECK(ws_module_entry_check(m, i, &e) == WS_OK, "%s supported: %s",
                  ws_module_entry_name(m, i), e.msg);
#ifdef __FLT16_MAX__
        test_ops(m);
        test_exp(m);
#else
        printf("  skipped the f16 reference: this compiler has no _Float16\n");
#endif
        test_scan(m);
        ws_module_free(m);
    }
    return ws_test_finish("test_sim_half");
}
