/* test_sass_mma.c — the SASS model's tensor-core and half-precision paths on real ptxas
 * output (tests/sim/cu/mma.cu): wmma tiles with f16 inputs into f32 and f16 accumulators
 * (HMMA.16816.F32 / .F16), bf16 inputs (HMMA.16816.F32.BF16) and tf32 inputs
 * (HMMA.1684.F32.TF32) compute C = A x B + C equal to a product computed here; the inputs
 * are small integers, exact in every format, so the results are exact. ldmatrix (LDSM,
 * LDSM.MT88) feeding mma.sync gives the same product from column- and row-major B. A tile
 * run by part of a warp is one clear error. A __half2 atomicAdd through a generic pointer
 * (ATOM.E.ADD.F16x2 with its served-lanes predicate, QSPC, a shared CAS loop) adds every
 * lane's value once, globally and in shared memory. Skipped without nvdisasm. */
#include "sim/sass_arith.h"
#include "tests/sim/sim_test.h"

static ws_module *ptx;
static ws_sass_module *sass;

static const char spec[] =
    "workload mma\nsource mma.cu\n"
    "buffer a u32 256 zero\nbuffer b u32 256 zero\nbuffer c u32 256 zero\n"
    "buffer bt u32 128 zero\nbuffer h u32 1 zero\nbuffer out f32 2 zero\n"
    "variant f16_f32\n  kernel mma_f16_f32\n  grid 1\n  block 32\n  args a b c\n"
    "variant f16_f16\n  kernel mma_f16_f16\n  grid 1\n  block 32\n  args a b c\n"
    "variant bf16\n  kernel mma_bf16\n  grid 1\n  block 32\n  args a b c\n"
    "variant tf32\n  kernel mma_tf32\n  grid 1\n  block 32\n  args a b c\n"
    "variant part\n  kernel mma_f16_f32\n  grid 1\n  block 16\n  args a b c\n"
    "variant ldsm\n  kernel ldsm_mma\n  grid 1\n  block 32\n  args a b bt c\n"
    "variant half2\n  kernel half2_atomic\n  grid 1\n  block 64\n  args h out\n"
    "variant u8\n  kernel mma_u8\n  grid 1\n  block 32\n  args a b c\n"
    "variant s8\n  kernel mma_s8\n  grid 1\n  block 32\n  args a b c\n"
    "variant f64\n  kernel mma_f64\n  grid 1\n  block 32\n  args a b c\n"
    "variant misc\n  kernel misc_forms\n  grid 1\n  block 32\n  args a c\n"
    "variant cp\n  kernel cp_async\n  grid 1\n  block 32\n  args a c\n"
    "variant movm\n  kernel movm\n  grid 1\n  block 32\n  args a c\n";

enum { F16, BF16, F32 };

static void put(void *buf, int i, int kind, int v)
{
    if (kind == F32) {
        float f = (float)v;
        memcpy((float *)buf + i, &f, sizeof f);
    } else {
        ((uint16_t *)buf)[i] = kind == F16 ? ws_sass_double_to_half(v) : ws_sass_double_to_bf16(v);
    }
}

static double get(const void *buf, int i, int kind)
{
    if (kind == F32) {
        float f;
        memcpy(&f, (const float *)buf + i, sizeof f);
        return f;
    }
    return ws_sass_half_to_float(((const uint16_t *)buf)[i]);
}

/* One run of `variant` after fill(r) set its inputs; 0 when it ran. */
static int run_filled(st_run *r, const char *variant, void (*fill)(st_run *))
{
    int rc = st_exec_fill(r, ptx, sass, spec, variant, NULL, fill);
    CHECK(rc == 0, "%s runs: %s", variant, r->err.msg);
    return rc;
}

static int ea[256], eb[256], ec[256], tile_in, tile_acc;

static void fill_tile(st_run *r)
{
    void *a = (void *)st_buf(r, "a")->data, *b = (void *)st_buf(r, "b")->data;
    void *c = (void *)st_buf(r, "c")->data;
    for (int i = 0; i < 256; i++) {
        ea[i] = (i * 37 + i / 16 + 11) % 7 - 3; /* -3 .. 3, no row or column alike */
        eb[i] = (i * 13 + i / 16 * 3 + 5) % 5 - 2; /* -2 .. 2 */
        ec[i] = i % 11 - 5;
        put(a, i, tile_in, ea[i]);
        put(b, i, tile_in, eb[i]);
        put(c, i, tile_acc, ec[i]);
    }
}

/* Runs `variant` on A (16 x k row-major), B (k x 16 column-major) and C (16 x 16 row-major),
 * all leading dimension 16, inputs of type `in`, C and D of type `acc`; checks D = AB + C. */
static void tile(const char *variant, int k, int in, int acc)
{
    st_run r;
    tile_in = in;
    tile_acc = acc;
    if (run_filled(&r, variant, fill_tile) == 0) {
        const void *d = st_buf(&r, "c")->data;
        int bad = 0;
        for (int m = 0; m < 16; m++)
            for (int n = 0; n < 16; n++) {
                int want = ec[m * 16 + n];
                for (int x = 0; x < k; x++)
                    want += ea[m * 16 + x] * eb[n * 16 + x];
                double got = get(d, m * 16 + n, acc);
                if (got != want && bad++ < 3)
                    fprintf(stderr, "  %s D[%d][%d] = %g, want %d\n", variant, m, n, got, want);
            }
        CHECK(bad == 0, "%s: D = A x B + C at every element (%d wrong)", variant, bad);
        int hmma = 0;
        for (int i = 0; i < r.res.ninsts; i++)
            hmma += !strncmp(r.res.insts[i].text, "HMMA", 4) && r.res.insts[i].issued == 1;
        CHECK(hmma >= 2, "%s: the tile ran as HMMA instructions (%d)", variant, hmma);
    }
    st_free(&r);
}

static int ma(int m, int k) { return (m * 5 + k * 3) % 7 - 3; }   /* A[m][k] */
static int mb(int k, int n) { return (k * 3 + n * 7 + 1) % 5 - 2; } /* B[k][n] */

static void fill_ldsm(st_run *r)
{
    uint16_t *a = (uint16_t *)st_buf(r, "a")->data, *b = (uint16_t *)st_buf(r, "b")->data;
    uint16_t *bt = (uint16_t *)st_buf(r, "bt")->data;
    for (int m = 0; m < 16; m++)
        for (int k = 0; k < 16; k++)
            a[m * 16 + k] = ws_sass_double_to_half(ma(m, k));
    for (int k = 0; k < 16; k++)
        for (int n = 0; n < 8; n++) {
            b[n * 16 + k] = ws_sass_double_to_half(mb(k, n));  /* column-major */
            bt[k * 8 + n] = ws_sass_double_to_half(mb(k, n));  /* row-major */
        }
}

static void test_ldsm(void)
{
    st_run r;
    if (run_filled(&r, "ldsm", fill_ldsm) == 0) {
        const float *c = st_buf(&r, "c")->data;
        int bad = 0;
        for (int half = 0; half < 2; half++)
            for (int l = 0; l < 32; l++)
                for (int i = 0; i < 4; i++) {
                    int m = (l >> 2) + 8 * (i >> 1), n = 2 * (l & 3) + (i & 1), want = 0;
                    for (int k = 0; k < 16; k++)
                        want += ma(m, k) * mb(k, n);
                    float got = c[128 * half + 4 * l + i];
                    if (got != (float)want && bad++ < 3)
                        fprintf(stderr, "  ldsm %s D[%d][%d] = %g, want %d\n",
                                half ? "trans" : "plain", m, n, got, want);
                }
        CHECK(bad == 0, "ldmatrix (.x4, .x2, .x2.trans) + mma.sync: D = A x B (%d wrong)", bad);
        int ldsm = 0;
        for (int i = 0; i < r.res.ninsts; i++)
            ldsm += !strncmp(r.res.insts[i].text, "LDSM", 4) && r.res.insts[i].issued == 1;
        CHECK(ldsm == 3, "three LDSM ran (%d)", ldsm);
    }
    st_free(&r);
}

static void fill_none(st_run *r) { (void)r; }

/* Element (r, c) of the 8x8 test matrix: distinct 16-bit values. */
static uint32_t mel(int r, int c) { return 0x1000u * (uint32_t)r + 0x11u * (uint32_t)c + 7u; }

static void fill_movm(st_run *r)
{
    uint32_t *a = st_buf(r, "a")->data;
    for (int l = 0; l < 32; l++) /* lane l: row l/4, columns 2(l%4) and 2(l%4)+1 */
        a[l] = mel(l >> 2, 2 * (l & 3)) | mel(l >> 2, 2 * (l & 3) + 1) << 16;
}

/* movmatrix.trans: lane l gets column l/4's elements from rows 2(l%4) and 2(l%4)+1; twice,
 * the matrix back. */
static void test_movm(void)
{
    st_run r;
    if (run_filled(&r, "movm", fill_movm) == 0) {
        const uint32_t *a = st_buf(&r, "a")->data, *c = st_buf(&r, "c")->data;
        int bad = 0;
        for (int l = 0; l < 32; l++) {
            uint32_t want = mel(2 * (l & 3), l >> 2) | mel(2 * (l & 3) + 1, l >> 2) << 16;
            if ((c[l] != want || c[32 + l] != a[l]) && bad++ < 3)
                fprintf(stderr, "  movm lane %d: 0x%08x, want 0x%08x; twice 0x%08x\n", l, c[l],
                        want, c[32 + l]);
        }
        CHECK(bad == 0, "MOVM.16.MT88 transposes the warp's 8x8 matrix (%d lanes wrong)", bad);
    }
    st_free(&r);
}

static void test_half2_atomic(void)
{
    st_run r;
    if (run_filled(&r, "half2", fill_none) == 0) {
        const uint32_t *h = st_buf(&r, "h")->data;
        const float *out = st_buf(&r, "out")->data;
        /* 64 lanes add (1, 2) to g, then the 32 odd lanes again; the 32 even ones to s */
        CHECK(ws_sass_half_to_float((uint16_t)h[0]) == 96.0f &&
              ws_sass_half_to_float((uint16_t)(h[0] >> 16)) == 192.0f,
              "global __half2 sum (96, 192): (%g, %g)", ws_sass_half_to_float((uint16_t)h[0]),
              ws_sass_half_to_float((uint16_t)(h[0] >> 16)));
        CHECK(out[0] == 32.0f && out[1] == 64.0f, "shared __half2 sum (32, 64): (%g, %g)",
              out[0], out[1]);
    }
    st_free(&r);
}

static int bval(int i, int sgn) { return sgn ? (i * 37 + i / 16 + 11) % 7 - 3 : (i * 13 + 5) % 4; }

/* 8-bit tiles: A, B bytes from bval (unsigned or signed), C small ints. */
static void fill_8bit(st_run *r, int sgn)
{
    uint8_t *a = (uint8_t *)st_buf(r, "a")->data, *b = (uint8_t *)st_buf(r, "b")->data;
    int32_t *c = (int32_t *)st_buf(r, "c")->data;
    for (int i = 0; i < 256; i++) {
        a[i] = (uint8_t)bval(i, sgn);
        b[i] = (uint8_t)bval(i * 3 + 1, sgn);
        c[i] = i % 11 - 5;
    }
}

static void fill_u8(st_run *r) { fill_8bit(r, 0); }
static void fill_s8(st_run *r) { fill_8bit(r, 1); }

/* D = A x B + C over 16x16x16 8-bit tiles (A row-major, B column-major, ld 16). */
static void test_imma(const char *variant, void (*fill)(st_run *), int sgn)
{
    st_run r;
    if (run_filled(&r, variant, fill) == 0) {
        const int32_t *d = st_buf(&r, "c")->data;
        int bad = 0;
        for (int m = 0; m < 16; m++)
            for (int n = 0; n < 16; n++) {
                int want = (m * 16 + n) % 11 - 5;
                for (int k = 0; k < 16; k++)
                    want += bval(m * 16 + k, sgn) * bval((n * 16 + k) * 3 + 1, sgn);
                if (d[m * 16 + n] != want && bad++ < 3)
                    fprintf(stderr, "  %s D[%d][%d] = %d, want %d\n", variant, m, n,
                            d[m * 16 + n], want);
            }
        CHECK(bad == 0, "%s: IMMA D = A x B + C at every element (%d wrong)", variant, bad);
    }
    st_free(&r);
}

static void fill_f64(st_run *r)
{
    double *a = (double *)st_buf(r, "a")->data, *b = (double *)st_buf(r, "b")->data;
    double *c = (double *)st_buf(r, "c")->data;
    for (int i = 0; i < 32; i++) {
        a[i] = 0.5 * ((i * 5 + 2) % 9 - 4);   /* A 8x4 row-major */
        b[i] = 0.25 * ((i * 7 + 1) % 9 - 4);  /* B 4x8 column-major */
    }
    for (int i = 0; i < 64; i++)
        c[i] = i % 5 - 2;                      /* C 8x8 row-major */
}

static void test_dmma(void)
{
    st_run r;
    if (run_filled(&r, "f64", fill_f64) == 0) {
        const double *d = st_buf(&r, "c")->data;
        int bad = 0;
        for (int m = 0; m < 8; m++)
            for (int n = 0; n < 8; n++) {
                double want = (m * 8 + n) % 5 - 2;
                for (int k = 0; k < 4; k++)
                    want += 0.5 * ((((m * 4 + k) * 5 + 2) % 9) - 4) *
                            0.25 * ((((n * 4 + k) * 7 + 1) % 9) - 4);
                if (d[m * 8 + n] != want && bad++ < 3)
                    fprintf(stderr, "  f64 D[%d][%d] = %g, want %g\n", m, n, d[m * 8 + n], want);
            }
        CHECK(bad == 0, "f64: DMMA.8x8x4 D = A x B + C at every element (%d wrong)", bad);
    }
    st_free(&r);
}

static void fill_misc(st_run *r)
{
    int32_t *in = (int32_t *)st_buf(r, "a")->data;
    for (int t = 0; t < 32; t++) {
        in[t] = (int32_t)(0x01020304u * (uint32_t)(t + 1)) ^ (t % 5 == 0 ? 0 : 1); /* y = in & 3 */
        in[t + 32] = t % 3 == 0 ? 900 : t % 3 == 1 ? 100 + t  /* x > 500 or not */
                   : (int32_t)(0x10203040u + (uint32_t)t * 77u);
    }
}

static void test_misc(void)
{
    st_run r;
    if (run_filled(&r, "misc", fill_misc) == 0) {
        const int32_t *in = st_buf(&r, "a")->data, *out = st_buf(&r, "c")->data;
        int leader = -1, bad = 0;
        for (int t = 0; t < 32 && leader < 0; t++)
            if (!((in[t] & 3) == 0 && in[t + 32] > 500))
                leader = t;
        for (int t = 0; t < 32; t++) {
            int want = -1;
            if (!((in[t] & 3) == 0 && in[t + 32] > 500)) {
                unsigned a = (unsigned)in[t], b = (unsigned)in[t + 32], sad = 0;
                for (int i = 0; i < 32; i += 8) {
                    int x = (int)(a >> i & 0xffu), y = (int)(b >> i & 0xffu);
                    sad += (unsigned)(x > y ? x - y : y - x);
                }
                want = (int)sad + (t == leader) * 1000 + leader * 10000;
            }
            if (out[t] != want && bad++ < 3)
                fprintf(stderr, "  misc lane %d: %d, want %d\n", t, out[t], want);
        }
        CHECK(bad == 0 && leader > 0, "EXIT P1, VABSDIFF4.U8.ACC, ELECT: every lane as the CPU "
              "(%d wrong; leader %d)", bad, leader);
    }
    st_free(&r);
}

static void fill_cp(st_run *r)
{
    uint32_t *a = (uint32_t *)st_buf(r, "a")->data;
    for (int i = 0; i < 256; i++)
        a[i] = 0x9e3779b9u * (uint32_t)(i + 1);
}

static void test_cp_async(void)
{
    st_run r;
    if (run_filled(&r, "cp", fill_cp) == 0) {
        const uint32_t *a = st_buf(&r, "a")->data, *out = st_buf(&r, "c")->data;
        uint32_t sh[64][4];
        for (int t = 0; t < 32; t++)
            for (int j = 0; j < 4; j++) {
                sh[t][j] = a[4 * t + j];
                sh[32 + t][j] = (t & 1) && j >= 2 ? 0u : a[4 * (32 + t) + j];
            }
        int bad = 0;
        for (int t = 0; t < 32; t++)
            for (int j = 0; j < 4; j++) {
                bad += out[4 * t + j] != sh[63 - t][j];
                bad += out[4 * (32 + t) + j] != sh[31 - t][j];
            }
        CHECK(bad == 0, "cp.async: 16-byte copies and zero-filled halves land in shared memory "
              "(%d words wrong)", bad);
    }
    st_free(&r);
}

static void test_part_warp(void)
{
    st_run r;
    int rc = st_exec_on(&r, ptx, sass, spec, "part", NULL);
    CHECK(rc != 0 && strstr(r.err.msg, "HMMA") && strstr(r.err.msg, "all 32 lanes"),
          "HMMA by 16 lanes: one error naming it (%s)", r.err.msg);
    st_free(&r);
}

int main(void)
{
    ptx = st_load("mma");
    CHECK(ptx != NULL, "mma.ptx loads");
    int rc = ptx ? st_load_sass("mma", "test_sass_mma", &sass) : -1;
    if (rc == 1) {
        printf("test_sass_mma: skipped: no nvdisasm\n");
        return 0;
    }
    if (rc == 0) {
        tile("f16_f32", 16, F16, F32);
        tile("f16_f16", 16, F16, F16);
        tile("bf16", 16, BF16, F32);
        tile("tf32", 8, F32, F32);
        test_part_warp();
        test_ldsm();
        test_half2_atomic();
        test_imma("u8", fill_u8, 0);
        test_imma("s8", fill_s8, 1);
        test_dmma();
        test_misc();
        test_cp_async();
        test_movm();
    }
    if (sass)
        ws_sass_module_free(sass);
    if (ptx)
        ws_module_free(ptx);
    return ws_test_finish("test_sass_mma");
}
