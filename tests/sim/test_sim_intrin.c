/* test_sim_intrin.c — tests/sim/cu/intrin.cu on both models: dp4a/dp2a, vabsdiff4, the
 * DPX min/max family (.relu, 16-bit pairs, three operands), packed-half conversions and
 * comparisons and directed bf16/f16 rounding, each model's values against the CPU's (the
 * integer kernel) or against the other model's (the half kernel: PTX cvt/set rows against
 * SASS F2FP/HSET2/F2F); then the calls the SASS model runs and the PTX model refuses
 * (recursion deeper than ptxas's stack estimate, a call through a function pointer); and
 * atomicAdd on float2/float4 on both models (totals and each thread's old values); and
 * addresses in initializers: virtual calls and a function-pointer table on the SASS model
 * (the PTX model refuses the calls), pointers to variables and a string on both; FP8
 * conversions on both models against cuda_fp8.h's host conversions; the forms CUB's
 * kernels bring (bmsk, griddepcontrol, a __grid_constant__ parameter read by address) on
 * both models against the CPU; and NaNs (immediates, FP64 arithmetic, half and f32/f64
 * conversions) on both models against the bits an H200 wrote. */
#include <cuda_fp8.h> /* the oracle for FP8: NVIDIA's host implementation of the conversions */
#include <math.h>
#include "sim/exec.h" /* ws_double_to_f16 */
#include "tests/sim/sim_test.h"

static ws_module *ptx;
static ws_sass_module *sass;

static const char *const spec =
    "workload intrin\nsource intrin.cu\n"
    "buffer a u32 64 random_bits\nbuffer b u32 64 random_bits\nbuffer oi u32 1024 zero\n"
    "buffer fa f32 64 uniform_real -4 4\nbuffer fb f32 64 uniform_real -4 4\n"
    "buffer oh u32 512 zero\nbuffer n u32 64 uniform_int 0 1000\nbuffer oc u32 128 zero\n"
    "variant int\n  kernel intrin_int\n  grid 2\n  block 32\n  args a b oi\n"
    "variant half\n  kernel intrin_half\n  grid 2\n  block 32\n  args fa fb oh\n"
    "variant calls\n  kernel intrin_calls\n  grid 2\n  block 32\n  args n oc\n"
    "buffer acc f32 16 zero\nbuffer old f32 128 zero\n"
    "variant vatom\n  kernel intrin_vatom\n  grid 2\n  block 32\n  args a acc old\n"
    "buffer ov u32 128 zero\nbuffer op u32 64 zero\n"
    "variant virtual\n  kernel intrin_virtual\n  grid 2\n  block 32\n  args a ov\n"
    "variant ptrs\n  kernel intrin_ptrs\n  grid 2\n  block 32\n  args op\n"
    "buffer ow u32 64 zero\n"
    "variant waterfall\n  kernel intrin_waterfall\n  grid 2\n  block 32\n  args a ow\n"
    "buffer of f32 4 zero\n"
    "variant ftz\n  kernel intrin_ftz\n  grid 1\n  block 32\n  args of\n"
    "buffer o8 u32 512 zero\n"
    "variant fp8\n  kernel intrin_fp8\n  grid 2\n  block 32\n  args a b o8\n"
    "buffer os u32 256 zero\n"
    "variant simd2\n  kernel intrin_simd2\n  grid 2\n  block 32\n  args a b os\n"
    "buffer ob u32 256 zero\n"
    "variant cub\n  kernel intrin_cub\n  grid 2\n  block 32\n"
    "  args a b ob 2 struct:u8=0,u64=1000,u64=30064771072\n"
    "variant cub_first\n  kernel intrin_cub\n  grid 2\n  block 32\n"
    "  args a b ob 2 struct:u8=1,u64=1000,u64=30064771072\n"
    "buffer oz u32 216 zero\n"
    "variant zminmax\n  kernel intrin_zminmax\n  grid 1\n  block 64\n  args a oz\n"
    "buffer o3 u32 256 zero\n"
    "variant h3\n  kernel intrin_h3\n  grid 2\n  block 32\n  args fa fb o3\n"
    "variant nanimm\n  kernel intrin_nanimm\n  grid 2\n  block 32\n  args a fa o3\n"
    "buffer o16 u32 1024 zero\n"
    "variant nan64\n  kernel intrin_nan64\n  grid 2\n  block 32\n  args a o16\n"
    "buffer on u32 512 zero\n"
    "variant nan16\n  kernel intrin_nan16\n  grid 2\n  block 32\n  args a on\n"
    "buffer hacc u32 3 zero\nbuffer hcas u16 4 zero\nbuffer oh16 u32 192 zero\n"
    "variant h16\n  kernel intrin_h16\n  grid 2\n  block 32\n  args a b hacc hcas oh16\n"
    "buffer osfu f32 128 zero\n"
    "variant sfu\n  kernel intrin_sfu\n  grid 2\n  block 32\n  args fa osfu\n"
    "buffer ofns u32 576 zero\n"
    "variant fns\n  kernel intrin_fns\n  grid 2\n  block 32\n  args a b ofns\n";

static int32_t sb(uint32_t v, int k) { return (int8_t)(v >> 8 * k); }
static uint32_t ub(uint32_t v, int k) { return (v >> 8 * k) & 0xffu; }
static int32_t sh(uint32_t v, int k) { return (int16_t)(v >> 16 * k); }
static uint32_t uh(uint32_t v, int k) { return (v >> 16 * k) & 0xffffu; }
static int32_t smax(int32_t a, int32_t b) { return a > b ? a : b; }
static int32_t smin(int32_t a, int32_t b) { return a < b ? a : b; }
static uint32_t umin(uint32_t a, uint32_t b) { return a < b ? a : b; }
static uint32_t umax(uint32_t a, uint32_t b) { return a > b ? a : b; }
static int32_t relu(int32_t v) { return v < 0 ? 0 : v; }

/* The 16 results of intrin_int for thread t, as the CUDA Math API documents them. */
static void expect_int(uint32_t x, uint32_t y, int t, uint32_t e[16])
{
    uint32_t u = 5, d2h = 9, ad = 0, sad = 0;
    int32_t s = -7, d2l = 3;
    for (int k = 0; k < 4; k++) {
        u += ub(x, k) * ub(y, k);
        s += sb(x, k) * sb(y, k);
        uint32_t v = ub(x, k) > ub(y, k) ? ub(x, k) - ub(y, k) : ub(y, k) - ub(x, k);
        ad |= v << 8 * k;
        sad += v;
    }
    d2l += sh(x, 0) * sb(y, 0) + sh(x, 1) * sb(y, 1);
    d2h += uh(x, 0) * ub(y, 2) + uh(x, 1) * ub(y, 3);
    int32_t a = (int32_t)x, b = (int32_t)y;
    e[0] = u;
    e[1] = (uint32_t)s;
    e[2] = (uint32_t)d2l;
    e[3] = d2h;
    e[4] = ad;
    e[5] = sad;
    e[6] = (uint32_t)smax(smax(a, b), t - 16);
    e[7] = (uint32_t)smax((int32_t)(x + y), t);
    e[8] = (uint32_t)relu(smin(a, b));
    e[9] = (uint32_t)relu(smax(sh(x, 0), sh(y, 0))) | (uint32_t)relu(smax(sh(x, 1), sh(y, 1))) << 16;
    uint32_t c = (uint32_t)t * 0x10001u;
    e[10] = umin(umin(uh(x, 0), uh(y, 0)), uh(c, 0)) | umin(umin(uh(x, 1), uh(y, 1)), uh(c, 1)) << 16;
    e[11] = (uint32_t)relu(smax(a, b));
    e[12] = (uint32_t)smin(a, b);
    e[13] = a <= b;
    uint32_t z = 0x7fff8000u;
    e[14] = ((uint32_t)relu(smin(smin(sh(x, 0), sh(y, 0)), sh(z, 0))) & 0xffffu) |
            (uint32_t)relu(smin(smin(sh(x, 1), sh(y, 1)), sh(z, 1))) << 16;
    e[15] = umax(umax(x, y), 12345u);
}

static void test_int(int on_sass)
{
    st_run r;
    const char *m = on_sass ? "sass" : "ptx";
    CHECK(st_exec_on(&r, ptx, on_sass ? sass : NULL, spec, "int", NULL) == 0, "%s: int runs", m);
    const ws_buffer *a = st_buf(&r, "a"), *b = st_buf(&r, "b"), *o = st_buf(&r, "oi");
    int bad = 0;
    for (int t = 0; t < 64 && !r.rc; t++) {
        uint32_t x = ((const uint32_t *)a->data)[t], y = ((const uint32_t *)b->data)[t], e[16];
        expect_int(x, y, t, e);
        for (int k = 0; k < 16; k++) {
            uint32_t got = ((const uint32_t *)o->data)[16 * t + k];
            if (k == 13)
                got &= 0xffu; /* a bool stored through a pointer: one byte */
            if (got != e[k] && bad++ < 4)
                CHECK(0, "%s: thread %d result %d: 0x%08x, want 0x%08x (x 0x%08x y 0x%08x)", m,
                      t, k, got, e[k], x, y);
        }
    }
    CHECK(!r.rc && bad == 0, "%s: %d integer results differ from the CPU's", m, bad);
    st_free(&r);
}

/* The PTX model's cvt/set rows against the SASS model's F2FP/HSET2/F2F, word for word, and
 * the round-toward-zero bf16 against the CPU (the top half of the f32). */
/* Runs `variant` on both models; 1 when both ran, each differing word of buffer `buf` (n
 * words) reported, the first four by index. */
static int both_models(const char *variant, const char *buf, int n, st_run *p, st_run *s)
{
    CHECK(st_exec_on(p, ptx, NULL, spec, variant, NULL) == 0, "ptx: %s runs", variant);
    CHECK(st_exec_on(s, ptx, sass, spec, variant, NULL) == 0, "sass: %s runs", variant);
    if (p->rc || s->rc)
        return 0;
    const uint32_t *pv = st_buf(p, buf)->data, *sv = st_buf(s, buf)->data;
    int diff = 0;
    for (int i = 0; i < n; i++)
        if (pv[i] != sv[i] && diff++ < 4)
            CHECK(0, "%s: word %d ptx 0x%08x sass 0x%08x", variant, i, pv[i], sv[i]);
    CHECK(diff == 0, "%s: %d words differ between the models", variant, diff);
    return 1;
}

static void test_half(void)
{
    st_run p, s;
    if (both_models("half", "oh", 512, &p, &s)) {
        const uint32_t *pv = st_buf(&p, "oh")->data;
        const float *fb = st_buf(&p, "fb")->data;
        int rz = 0;
        for (int t = 0; t < 64; t++) {
            uint32_t bits;
            memcpy(&bits, &fb[t], 4);
            rz += pv[8 * t + 5] == bits >> 16;
        }
        CHECK(rz == 64, "__float2bfloat16_rz truncates: %d of 64", rz);
        CHECK(pv[0] != 0 && pv[2] != 0 && pv[3] != 0, "half: results were written");
    }
    st_free(&p);
    st_free(&s);
}

/* Three-way half min/max (SASS VHMNMX) and f16 pairs rounded toward zero, overflow
 * included: the models agree, and 1e30 rounded toward zero is 65504 on both. */
static void test_h3(void)
{
    st_run p, s;
    if (both_models("h3", "o3", 256, &p, &s)) {
        const uint32_t *pv = st_buf(&p, "o3")->data;
        CHECK(pv[3] >> 16 == 0x7bffu, "h3: 1e30 to half toward zero is 65504: %08x", pv[3]);
    }
    st_free(&p);
    st_free(&s);
}

/* The words a thread of a NaN kernel must write (`on_sass`: for the SASS model). */
typedef void (*nan_words_fn)(const st_run *r, int on_sass, uint64_t t, uint32_t *e);

/* Runs `variant` on one model and compares the `n` words each of its 64 threads writes to
 * `buf` with `want`'s. */
static void check_nan_words(int on_sass, const char *variant, const char *buf, int n,
                            nan_words_fn want, const char *what)
{
    st_run r;
    const char *m = on_sass ? "sass" : "ptx";
    CHECK(st_exec_on(&r, ptx, on_sass ? sass : NULL, spec, variant, NULL) == 0,
          "%s: %s runs: %s", m, variant, r.err.msg);
    const uint32_t *o = r.rc ? NULL : st_buf(&r, buf)->data;
    int bad = 0, first = -1;
    for (uint64_t t = 0; o && t < 64; t++) {
        uint32_t e[16];
        want(&r, on_sass, t, e);
        for (int k = 0; k < n; k++)
            if (o[t * n + k] != e[k] && !bad++)
                first = (int)t * n + k;
    }
    CHECK(o && !bad, "%s: %s: %d words wrong, first word %d %08x", m, what, bad, first,
          o && first >= 0 ? o[first] : 0);
    st_free(&r);
}

/* nanimm: NaN immediates keep their payload (read from the cubin; nvdisasm prints -QNAN,
 * +SNAN), against the CPU; ptxas writes the f64 copysign as DADD -RZ, +-|x| and a select,
 * and on the GPU a NaN passes DADD quiet, with its own sign (measured on an H200): the
 * SASS model does so, the PTX model keeps copysign.f64's bits. */
static void nanimm_words(const st_run *r, int on_sass, uint64_t t, uint32_t *e)
{
    int p = ((const uint32_t *)st_buf(r, "a")->data)[t] & 1;
    uint32_t sign = ((const float *)st_buf(r, "fa")->data)[t] < 0 ? 0x80000000u : 0u;
    uint64_t d = (p ? 0x3fd0000000000000ull : 0x7ff123456789abcdull) | (uint64_t)sign << 32;
    if (on_sass && !p)
        d = 0xfff923456789abcdull;
    e[0] = (p ? 0x40000000u : 0x7fffffffu) | sign; /* copysign's: fa holds no zeros */
    e[1] = (p ? 0x3fc00000u : 0x7f800001u) | sign;
    e[2] = (uint32_t)(d >> 32);
    e[3] = (uint32_t)(d >> 20);
}

/* nan64: NaNs through FP64 arithmetic and f32/f64 conversions, each word as an H200 wrote
 * it (tests/gpu/intrinsics.spec). ptxas computes y + x as x + y's DADD and folds (-x) * 1
 * into DMUL x, -1, so there the PTX model, running the PTX as written, gives the other NaN
 * (words 2-3) and the negated one (word 5). */
static void nan64_words(const st_run *r, int on_sass, uint64_t t, uint32_t *e)
{
    (void)r;
    const uint64_t q = 0x0008000000000000ull;
    uint64_t x = 0x7ff0000000000001ull + (t << 32), y = 0xfff8000000000123ull + (t << 8);
    uint64_t r64[6] = {y, on_sass ? y : x | q, on_sass ? x | q : x | q | 1ull << 63, x | q,
                       0xfff8000000000000ull, 0x7ff8000000000000ull | (t + 1) << 29};
    for (int k = 0; k < 6; k++) {
        e[2 * k] = (uint32_t)r64[k];
        e[2 * k + 1] = (uint32_t)(r64[k] >> 32);
    }
    e[12] = 0x7fc00000u | (uint32_t)t << 3; /* (float)x: quiet, the payload's top bits */
    e[13] = 0xffc00000u;                    /* (float)y, its sign kept */
    e[14] = e[15] = 0x7fffffffu;            /* f32 arithmetic: the canonical NaN */
}

/* nan16: half and bf16 NaNs, each word as an H200 wrote it (the same on both models):
 * widening an f16 NaN, f16 arithmetic, neg/abs (HADD2) and narrowing f32 to f16/bf16 give
 * the canonical 0x7fff / 0x7fffffff; a bf16 widens by a shift, bits kept (thread 63's is
 * -0.0); an f64 NaN narrows to f16 keeping its payload's top bits. */
static void nan16_words(const st_run *r, int on_sass, uint64_t t, uint32_t *e)
{
    (void)r;
    (void)on_sass;
    e[0] = e[1] = 0x7fffffffu;
    e[2] = e[3] = e[4] = e[7] = 0x7fff7fffu;
    e[5] = (0x7fc1u + (uint32_t)t) << 16;
    e[6] = 0x7f00u;
}

static unsigned fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static void test_calls(void)
{
    st_run r;
    CHECK(st_exec_on(&r, ptx, sass, spec, "calls", NULL) == 0, "sass: calls run");
    int bad = 0;
    for (int t = 0; t < 64 && !r.rc; t++) {
        uint32_t x = ((const uint32_t *)st_buf(&r, "n")->data)[t];
        const uint32_t *o = (const uint32_t *)st_buf(&r, "oc")->data + 2 * t;
        uint32_t want = x & 1 ? x ^ 0x55u : x * 3 + 1;
        if ((o[0] != fib(x % 12) || o[1] != want) && bad++ < 3)
            fprintf(stderr, "thread %d, n %u: fib %u, call %u; want %u, %u\n", t, x, o[0], o[1],
                    fib(x % 12), want);
    }
    CHECK(!r.rc && bad == 0, "sass: fib through the stack and calls through a pointer: %d bad",
          bad);
    st_free(&r);
    /* the PTX model refuses the pointer call, naming it */
    CHECK(st_exec_on(&r, ptx, NULL, spec, "calls", NULL) == WS_ERR_UNSUPPORTED &&
          strstr(r.err.msg, "function pointer"), "ptx: calls refused: %s", r.err.msg);
    st_free(&r);
}

/* Totals against the CPU; per address, the old values are each prefix once: 16 threads add
 * 0.5 to a float2's y (olds 0, 0.5, .. 7.5), 32 add 1 to a float4's x (olds 0 .. 31). */
static void test_vatom(int on_sass)
{
    st_run r;
    const char *m = on_sass ? "sass" : "ptx";
    CHECK(st_exec_on(&r, ptx, on_sass ? sass : NULL, spec, "vatom", NULL) == 0,
          "%s: vector atomics run: %s", m, r.err.msg);
    if (r.rc) {
        st_free(&r);
        return;
    }
    const uint32_t *a = st_buf(&r, "a")->data;
    const float *acc = st_buf(&r, "acc")->data, *old = st_buf(&r, "old")->data;
    float want[16] = {0};
    for (int t = 0; t < 64; t++) {
        unsigned x = a[t] % 64;
        want[2 * (t & 3)] += (float)x;
        want[2 * (t & 3) + 1] += 0.5f;
        float *f4 = want + 8 + 4 * (t & 1);
        f4[0] += 1.0f, f4[1] += (float)(x & 7), f4[2] += 0.25f, f4[3] += (float)t;
    }
    int bad = 0;
    for (int i = 0; i < 16; i++)
        if (acc[i] != want[i] && bad++ < 3)
            CHECK(0, "%s: acc[%d] %g, want %g", m, i, acc[i], want[i]);
    uint64_t seen2[4] = {0}, seen4[2] = {0};
    for (int t = 0; t < 64; t++) {
        int k2 = (int)(old[2 * t] * 2), k4 = (int)old[2 * t + 1];
        if (k2 >= 0 && k2 < 16) seen2[t & 3] |= 1ull << k2;
        if (k4 >= 0 && k4 < 32) seen4[t & 1] |= 1ull << k4;
    }
    for (int i = 0; i < 4; i++)
        bad += seen2[i] != 0xffffu;
    for (int i = 0; i < 2; i++)
        bad += seen4[i] != 0xffffffffu;
    CHECK(bad == 0, "%s: float2/float4 atomicAdd: %d totals or old-value sets wrong", m, bad);
    st_free(&r);
}

/* Virtual functions and a function table (SASS model; the PTX model refuses, naming the
 * line), pointers to variables and a string literal in initializers (both models). */
static void test_tables(int on_sass)
{
    st_run r;
    const char *m = on_sass ? "sass" : "ptx";
    int rc = st_exec_on(&r, ptx, on_sass ? sass : NULL, spec, "virtual", NULL);
    if (on_sass) {
        CHECK(rc == 0, "sass: virtual calls run: %s", r.err.msg);
        int bad = 0;
        for (int t = 0; t < 64 && !rc; t++) {
            int x = (int)(((const uint32_t *)st_buf(&r, "a")->data)[t] % 1000);
            const uint32_t *o = (const uint32_t *)st_buf(&r, "ov")->data + 2 * t;
            uint32_t area = (uint32_t)(x & 1 ? x * x : x * (x + 1) / 2);
            uint32_t call = (uint32_t)((x >> 1) & 1 ? x * 7 : x + 100);
            bad += o[0] != area || o[1] != call;
        }
        CHECK(!rc && bad == 0, "sass: vtable and function-table calls: %d threads wrong", bad);
    } else {
        CHECK(rc == WS_ERR_UNSUPPORTED && strstr(r.err.msg, "call through a function pointer") &&
                  r.err.line > 0,
              "ptx: a call through a pointer is refused with its line: %s", r.err.msg);
    }
    st_free(&r);
    rc = st_exec_on(&r, ptx, on_sass ? sass : NULL, spec, "ptrs", NULL);
    CHECK(rc == 0, "%s: pointers in initializers: %s", m, r.err.msg);
    static const int vals[3] = {22, 55, 44};
    int bad = 0;
    for (int t = 0; t < 64 && !rc; t++)
        bad += ((const uint32_t *)st_buf(&r, "op")->data)[t] !=
               (uint32_t)(vals[t % 3] + "warpscope"[t % 9]);
    CHECK(!rc && bad == 0, "%s: generic(var)+k and a string's address: %d threads wrong", m,
          bad);
    st_free(&r);
}

/* ptxas's waterfall loops around SYNCS (R2UR P per lane, BRA.U.ANY): every lane's own
 * mbarrier completes its phase after as many arrivals as its count (SASS model). */
static void test_waterfall(void)
{
    st_run r;
    CHECK(st_exec_on(&r, ptx, sass, spec, "waterfall", NULL) == 0, "sass: waterfall runs: %s",
          r.err.msg);
    int bad = 0;
    for (int t = 0; t < 64 && !r.rc; t++)
        bad += ((const uint32_t *)st_buf(&r, "ow")->data)[t] !=
               ((const uint32_t *)st_buf(&r, "a")->data)[t] % 3 + 1;
    CHECK(!r.rc && bad == 0, "sass: per-lane mbarrier init/arrive through waterfall loops: %d "
          "lanes wrong", bad);
    st_free(&r);
}

/* atomicAdd on floats flushes subnormal inputs and results on both models. */
static void test_ftz(int on_sass)
{
    st_run r;
    const char *m = on_sass ? "sass" : "ptx";
    CHECK(st_exec_on(&r, ptx, on_sass ? sass : NULL, spec, "ftz", NULL) == 0, "%s: ftz runs: %s",
          m, r.err.msg);
    const uint32_t *o = r.rc ? NULL : st_buf(&r, "of")->data;
    CHECK(o && o[0] == 0 && o[1] == 0 && o[2] == 0x40000000u, "%s: atomicAdd flushes "
          "subnormals: %08x %08x %08x", m, o ? o[0] : 0, o ? o[1] : 0, o ? o[2] : 0);
    st_free(&r);
}

/* Float min/max over signed zeros and NaN on both models against the CPU, ordering -0 < +0
 * (the values in intrin_zminmax's table). */
static void test_zminmax(int on_sass)
{
    static const uint32_t v[6] = {0u, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x7fc00000u,
                                  0x80000000u};
    st_run r;
    const char *m = on_sass ? "sass" : "ptx";
    CHECK(st_exec_on(&r, ptx, on_sass ? sass : NULL, spec, "zminmax", NULL) == 0,
          "%s: zminmax runs: %s", m, r.err.msg);
    const uint32_t *o = r.rc ? NULL : st_buf(&r, "oz")->data;
    int bad = 0, first = -1;
    for (int t = 0; o && t < 36; t++) {
        float x, y;
        memcpy(&x, &v[t / 6], 4);
        memcpy(&y, &v[t % 6], 4);
        uint32_t e[6];
        for (int k = 0; k < 2; k++) {
            float f = (float)ws_fminmax(x, y, k == 0);
            double d = ws_fminmax(x, y, k == 0);
            uint64_t db;
            memcpy(&e[k], &f, 4);
            if (isnan(x) && isnan(y))
                e[k] = 0x7fffffffu; /* the canonical NaN sm_70+ writes */
            memcpy(&db, &d, 8);
            e[2 + k] = (uint32_t)(db >> 32);
            e[4 + k] = isnan(f) ? 0x7fffu : ws_double_to_f16(f);
        }
        for (int k = 0; k < 6; k++)
            if (o[t * 6 + k] != e[k] && !bad++)
                first = t * 6 + k;
    }
    CHECK(o && !bad, "%s: min/max order -0 < +0 and a NaN loses: %d words wrong, first word %d "
          "%08x", m, bad, first, o && first >= 0 ? o[first] : 0);
    st_free(&r);
}

/* intrin_fp8's inputs, as the kernel makes them. */
static float fp8_in(uint32_t u, int few)
{
    uint32_t bits = (u & 0x80000000u) | (few ? u & 0x00780000u : u & 0x007fffffu) |
                    ((u >> 23) % 48 + 103) << 23;
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

/* One float to FP8 with .satfinite, as cuda_fp8.h converts it; .relu makes a negative +0
 * and a NaN the canonical 0x7f (PTX ISA, cvt). */
static unsigned to8(float x, int e5, int relu)
{
    if (relu && isnan(x))
        return 0x7f;
    if (relu && signbit(x))
        return 0;
    return __nv_cvt_float_to_fp8(x, __NV_SATFINITE, e5 ? __NV_E5M2 : __NV_E4M3);
}

static unsigned h8(uint16_t h, int e5, int relu)
{
    __half_raw r;
    r.x = h;
    if (relu && (h & 0x7fff) > 0x7c00)
        return 0x7f;
    if (relu && (h & 0x8000))
        return 0;
    return __nv_cvt_halfraw_to_fp8(r, __NV_SATFINITE, e5 ? __NV_E5M2 : __NV_E4M3);
}

static uint32_t from8(unsigned v, int e5, int relu)
{
    uint32_t h = __nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)v, e5 ? __NV_E5M2 : __NV_E4M3).x;
    return relu && (h & 0x8000) && (h & 0x7fff) <= 0x7c00 ? 0 : h;
}

/* Each thread's eight words against the header's conversions. */
static void test_fp8(int on_sass)
{
    static const uint32_t special[16] = {0x7fc00000, 0xff800000, 0x43e00000, 0x43e80000,
                                         0x43f00000, 0xc7600000, 0x47700000, 0x80000000,
                                         0x3a800000, 0x3b400000, 0x37000000, 0x37400000,
                                         0x7f800000, 0x477fe000, 0x8da24260, 0x43700000};
    st_run r;
    const char *m = on_sass ? "sass" : "ptx";
    CHECK(st_exec_on(&r, ptx, on_sass ? sass : NULL, spec, "fp8", NULL) == 0,
          "%s: fp8 conversions run: %s", m, r.err.msg);
    if (r.rc) {
        st_free(&r);
        return;
    }
    const uint32_t *a = st_buf(&r, "a")->data, *b = st_buf(&r, "b")->data;
    const uint32_t *o8 = st_buf(&r, "o8")->data;
    int bad = 0;
    for (int t = 0; t < 64; t++) {
        uint32_t u = a[t], v = b[t];
        float x = fp8_in(u, 0), y = fp8_in(v, 1);
        if (t < 16)
            memcpy(&x, &special[t], 4);
        uint16_t hx = ws_double_to_f16(x), hy = ws_double_to_f16(y);
        uint32_t e[8];
        for (int k = 0; k < 2; k++) /* k: relu */
            e[k] = to8(x, 0, k) << 8 | to8(y, 0, k) | (to8(x, 1, k) << 8 | to8(y, 1, k)) << 16,
            e[2 + k] = h8(hy, 0, k) << 8 | h8(hx, 0, k) | (h8(hy, 1, k) << 8 | h8(hx, 1, k)) << 16;
        e[4] = from8((u >> 8) & 0xff, 0, 0) << 16 | from8(u & 0xff, 0, 0);
        e[5] = from8(u >> 24, 1, 0) << 16 | from8((u >> 16) & 0xff, 1, 0);
        e[6] = from8((v >> 8) & 0xff, 0, 1) << 16 | from8(v & 0xff, 0, 1);
        e[7] = to8(x, 0, 0) | to8(y, 0, 0) << 8 | to8(-y, 0, 0) << 16 | to8(x * 0.5f, 0, 0) << 24;
        for (int k = 0; k < 8; k++)
            if (o8[8 * t + k] != e[k] && bad++ < 4)
                CHECK(0, "%s: fp8 thread %d word %d: 0x%08x, want 0x%08x (x %a, y %a)", m, t, k,
                      o8[8 * t + k], e[k], x, y);
    }
    CHECK(bad == 0, "%s: %d FP8 words differ from cuda_fp8.h's", m, bad);
    st_free(&r);
}

/* bmsk as the PTX ISA's pseudocode defines it, written out on its own as the oracle */
static uint32_t bmsk_ref(uint32_t a, uint32_t b, int clamp)
{
    uint32_t a1 = a & 31, b1 = b & 31, sum = a1 + b1;
    uint32_t mask0 = ~0u << a1, mask1 = sum >= 32 ? 0 : ~0u << sum;
    int overflow = sum >= 32;
    if (clamp && a >= 32) {
        overflow = 1;
        mask0 = 0;
    }
    if (clamp && b >= 32)
        overflow = 1;
    if (overflow)
        mask1 = 0;
    else if (b1 == 0)
        mask1 = ~0u;
    return mask0 & ~mask1;
}

/* intrin_cub (forms of CUB's kernels): the bit masks against the PTX ISA's, the words the
 * agent writes from the __grid_constant__ struct (first = 0: its base counts; 1: not), and
 * that the rows ran (bmsk.clamp/.wrap or BMSK/BMSK.W; griddepcontrol or ACQBULK/PREEXIT). */
static void test_cub(int on_sass)
{
    const char *m = on_sass ? "sass" : "ptx";
    for (int first = 0; first < 2; first++) {
        st_run r;
        CHECK(st_exec_on(&r, ptx, on_sass ? sass : NULL, spec, first ? "cub_first" : "cub",
                         NULL) == 0, "%s: cub forms run: %s", m, r.err.msg);
        if (r.rc) {
            st_free(&r);
            continue;
        }
        const uint32_t *a = st_buf(&r, "a")->data, *b = st_buf(&r, "b")->data;
        const uint32_t *o = st_buf(&r, "ob")->data;
        int bad = 0;
        for (int t = 0; t < 64; t++) {
            uint32_t e[4] = {bmsk_ref(a[t] % 41, b[t] % 41, 1),
                             bmsk_ref((a[t] >> 8) % 41, (b[t] >> 8) % 41, 0),
                             (first ? 0 : 1000) + (uint32_t)t * 2 + 7,
                             (first ? 0 : 1000) + (uint32_t)t * 2 + 8};
            for (int k = 0; k < 4; k++)
                if (o[4 * t + k] != e[k] && bad++ < 4)
                    CHECK(0, "%s: cub thread %d word %d: 0x%08x, want 0x%08x", m, t, k,
                          o[4 * t + k], e[k]);
        }
        CHECK(bad == 0, "%s: %d words of intrin_cub (first %d) differ from the CPU's", m, bad,
              first);
        const char *const rows[2][4] = {{"bmsk.clamp", "bmsk.wrap", "griddepcontrol.wait",
                                         "griddepcontrol.launch_dependents"},
                                        {"BMSK", "BMSK.W", "ACQBULK", "PREEXIT"}};
        for (int k = 0; k < 4; k++) {
            uint64_t n = st_line(&r, 0, rows[on_sass][k]).issued;
            if (on_sass && k == 0) /* the prefix BMSK also finds BMSK.W */
                n -= st_line(&r, 0, rows[1][1]).issued;
            CHECK(n > 0, "%s: %s ran", m, rows[on_sass][k]);
        }
        st_free(&r);
    }
}

/* One 16-bit-pair add (each half wrapping) then min or max, .relu clamping at 0. */
static uint32_t addmnmx16(uint32_t x, uint32_t y, uint32_t z, int sgn, int mx, int relu)
{
    uint32_t r = 0;
    for (int k = 0; k < 32; k += 16) {
        uint32_t s = ((x >> k) + (y >> k)) & 0xffffu;
        int32_t a = sgn ? (int16_t)s : (int32_t)s;
        int32_t c = sgn ? (int16_t)(z >> k) : (int32_t)(uint16_t)(z >> k);
        int32_t v = (a > c) == mx ? a : c;
        r |= ((uint32_t)(relu && v < 0 ? 0 : v) & 0xffffu) << k;
    }
    return r;
}

/* intrin_simd2: the 16-bit-pair add-min/max against the CPU on both models; hfloor/hceil
 * (FRND.F16/.BF16 on the SASS model, cvt.rmi/.rpi on the PTX model) equal between them. */
static uint32_t hround[64];
static int have_hround;

static void test_simd2(int on_sass)
{
    st_run r;
    const char *m = on_sass ? "sass" : "ptx";
    CHECK(st_exec_on(&r, ptx, on_sass ? sass : NULL, spec, "simd2", NULL) == 0,
          "%s: simd2 runs: %s", m, r.err.msg);
    if (!r.rc) {
        const uint32_t *a = st_buf(&r, "a")->data, *b = st_buf(&r, "b")->data;
        const uint32_t *os = st_buf(&r, "os")->data;
        int bad = 0, hdiff = 0;
        for (int t = 0; t < 64; t++) {
            uint32_t x = a[t], y = b[t];
            uint32_t want[3] = {addmnmx16(x, y, 0x00400040u * (uint32_t)(t & 7), 1, 1, 0),
                                addmnmx16(x, y, x ^ y, 0, 0, 0),
                                addmnmx16(x, y, y >> 3, 1, 1, 1)};
            for (int k = 0; k < 3; k++)
                if (os[4 * t + k] != want[k] && bad++ < 3)
                    CHECK(0, "%s: simd2 thread %d word %d: %08x, want %08x", m, t, k,
                          os[4 * t + k], want[k]);
            if (!on_sass)
                hround[t] = os[4 * t + 3];
            else if (have_hround && os[4 * t + 3] != hround[t] && hdiff++ < 3)
                CHECK(0, "%s: hfloor/hceil thread %d: %08x, the PTX model %08x", m, t,
                      os[4 * t + 3], hround[t]);
        }
        have_hround |= !on_sass;
        CHECK(bad == 0 && hdiff == 0, "%s: VIADDMNMX.S16x2/.U16x2/.RELU: %d wrong; "
              "FRND.F16/.BF16 against cvt.rmi/.rpi: %d differ", m, bad, hdiff);
        CHECK(on_sass || os[3] != 0 || os[7] != 0, "ptx: hfloor/hceil results written");
    }
    st_free(&r);
}

static uint32_t vsub2(uint32_t x, uint32_t y)
{
    return ((x - y) & 0xffffu) | (((x >> 16) - (y >> 16)) & 0xffffu) << 16;
}

/* a * b + c per half, rounded once, a negative result +0 (NaN stays NaN) */
static uint16_t fma_relu16(uint16_t a, uint16_t b, uint16_t c)
{
    double r = fma(ws_f16_to_double(a), ws_f16_to_double(b), ws_f16_to_double(c));
    if (isnan(r))
        return 0x7fff;
    return ws_double_to_f16(signbit(r) ? 0.0 : r);
}

/* intrin_h16: the totals of 64 threads' half atomics, the 16-bit CAS loop's counts, and
 * __vsub2 / __hfma2_relu against the CPU. */
static void test_h16(int on_sass)
{
    st_run r;
    const char *m = on_sass ? "sass" : "ptx";
    CHECK(st_exec_on(&r, ptx, on_sass ? sass : NULL, spec, "h16", NULL) == 0,
          "%s: h16 runs: %s", m, r.err.msg);
    if (!r.rc) {
        const uint32_t *acc = st_buf(&r, "hacc")->data, *a = st_buf(&r, "a")->data;
        const uint32_t *b = st_buf(&r, "b")->data, *o = st_buf(&r, "oh16")->data;
        const uint16_t *cas = st_buf(&r, "hcas")->data;
        /* 64 x (1.0, 0.5) in f16: (64, 32); 64 x (2, -1) in bf16: (128, -64); 64 x 0.25 in
         * f16: 16; 64 x 4 in bf16: 256 */
        CHECK(acc[0] == 0x50005400u && acc[1] == 0xc2804300u && acc[2] == 0x43804c00u,
              "%s: half atomics' totals %08x %08x %08x (want 50005400 c2804300 43804c00)", m,
              acc[0], acc[1], acc[2]);
        CHECK(cas[0] == 48 && cas[1] == 48 && cas[2] == 48 && cas[3] == 48,
              "%s: 16-bit atomicCAS loops: %u %u %u %u (want 48 each)", m, cas[0], cas[1],
              cas[2], cas[3]);
        int bad = 0;
        for (int t = 0; t < 64; t++) {
            uint16_t xl = (uint16_t)(a[t] & 0x3fff), xh = (uint16_t)(b[t] & 0xbfff);
            uint32_t relu = (uint32_t)fma_relu16(xh, 0x3a00 /* 0.75 */, 0xc000 /* -2 */) << 16 |
                            fma_relu16(xl, 0xbe00 /* -1.5 */, 0x3400 /* 0.25 */);
            uint32_t want[3] = {vsub2(a[t], b[t]), relu, vsub2(b[t], 0x80017fffu)};
            for (int k = 0; k < 3; k++)
                if (o[3 * t + k] != want[k] && bad++ < 3)
                    CHECK(0, "%s: h16 thread %d word %d: %08x, want %08x", m, t, k, o[3 * t + k],
                          want[k]);
        }
        CHECK(bad == 0, "%s: __vsub2 and __hfma2_relu: %d wrong", m, bad);
    }
    st_free(&r);
}

/* intrin_sfu: __sinf / __cosf of arguments up to 1e6 on the PTX model (sin/cos.approx.f32)
 * and on the SASS model (FMUL.RZ by 1/(2 pi), MUFU.SIN/COS) within 2^-20 of each other: the
 * PTX model scales as ptxas does, or the phase of a large argument is libm's. */
static float sfu_ptx[128];
static void test_sfu(int on_sass)
{
    st_run r;
    const char *m = on_sass ? "sass" : "ptx";
    CHECK(st_exec_on(&r, ptx, on_sass ? sass : NULL, spec, "sfu", NULL) == 0,
          "%s: sfu runs: %s", m, r.err.msg);
    if (!r.rc) {
        const float *o = st_buf(&r, "osfu")->data, *fa = st_buf(&r, "fa")->data;
        int bad = 0, far = 0;
        for (int i = 0; i < 128; i++) {
            if (!on_sass) {
                sfu_ptx[i] = o[i];
                double x = (double)(fa[i / 2] * 250000.0f);
                far += fabs(o[i] - (i & 1 ? cos(x) : sin(x))) > 1e-3;
            } else if (!(fabsf(o[i] - sfu_ptx[i]) <= 0x1p-20f) && bad++ < 3) {
                CHECK(0, "sfu %d: SASS %.9g, PTX %.9g", i, o[i], sfu_ptx[i]);
            }
        }
        if (!on_sass) /* libm's value is not what the GPU computes for most of them */
            CHECK(far > 32, "ptx: __sinf/__cosf of large arguments follow the SFU's phase, not "
                  "libm's (%d of 128 far from it)", far);
        CHECK(bad == 0, "%s: __sinf/__cosf: %d differ from the PTX model's", m, bad);
    }
    st_free(&r);
}

/* fns.b32 as the PTX ISA states it */
static uint32_t fns_ref(uint32_t mask, uint32_t base, int offset)
{
    if (offset == 0)
        return (mask >> base) & 1u ? base : 0xffffffffu;
    int count = (offset > 0 ? offset : -offset) - 1, inc = offset > 0 ? 1 : -1;
    for (int pos = (int)base; pos >= 0 && pos < 32; pos += inc)
        if ((mask >> pos) & 1u) {
            if (count == 0)
                return (uint32_t)pos;
            count--;
        }
    return 0xffffffffu;
}

/* intrin_fns: __fns on both models against the ISA's definition (the PTX model runs
 * fns.b32, the SASS model what ptxas builds of it). */
static void test_fns(int on_sass)
{
    st_run r;
    const char *m = on_sass ? "sass" : "ptx";
    CHECK(st_exec_on(&r, ptx, on_sass ? sass : NULL, spec, "fns", NULL) == 0,
          "%s: fns runs: %s", m, r.err.msg);
    if (!r.rc) {
        const uint32_t *a = st_buf(&r, "a")->data, *b = st_buf(&r, "b")->data;
        const uint32_t *o = st_buf(&r, "ofns")->data;
        int bad = 0, none = 0;
        for (int t = 0; t < 64; t++)
            for (int k = 0; k < 9; k++) {
                uint32_t want = fns_ref(a[t] & b[t], b[t] & 31, k - 3);
                none += want == 0xffffffffu;
                if (o[9 * t + k] != want && bad++ < 3)
                    CHECK(0, "%s: __fns thread %d offset %d: %u, want %u", m, t, k - 3,
                          o[9 * t + k], want);
            }
        CHECK(bad == 0 && none > 0 && none < 576, "%s: __fns: %d wrong (%d not found)", m,
              bad, none);
    }
    st_free(&r);
}

int main(void)
{
    char ptx_path[512], cubin[1024], sass_path[1024], probe[1024];
    snprintf(ptx_path, sizeof ptx_path, "%s/intrin.ptx", WS_SIM_PTX_DIR);
    ptx = st_load("intrin");
    CHECK(ptx != NULL, "intrin.ptx loads");
    if (!ptx)
        return ws_test_finish("test_sim_intrin");
    test_int(0);
    test_vatom(0);
    test_tables(0);
    test_ftz(0);
    test_fp8(0);
    test_simd2(0);
    test_cub(0);
    test_zminmax(0);
    test_h16(0);
    test_sfu(0);
    test_fns(0);
    check_nan_words(0, "nanimm", "o3", 4, nanimm_words, "NaN constants keep their bits");
    check_nan_words(0, "nan64", "o16", 16, nan64_words, "FP64 NaNs as on the GPU");
    check_nan_words(0, "nan16", "on", 8, nan16_words, "half NaNs as on the GPU");
    if (!ws_nvdisasm_find(probe, sizeof probe)) {
        printf("test_sim_intrin: SASS part skipped: no nvdisasm (%s)\n", probe);
    } else {
        ws_error err;
        ws_error_clear(&err);
        int rc = ws_sass_build_ptx(ptx_path, NULL, NULL, cubin, sass_path, sizeof cubin, &err);
        if (!rc)
            rc = ws_sass_load(sass_path, cubin, &sass, &err);
        CHECK(rc == 0, "intrin's SASS builds and loads: %s", err.msg);
        if (!rc) {
            test_int(1);
            test_half();
            test_h3();
            test_calls();
            test_vatom(1);
            test_tables(1);
            test_waterfall();
            test_ftz(1);
            test_fp8(1);
            test_simd2(1);
            test_cub(1);
            test_zminmax(1);
            test_h16(1);
            test_sfu(1);
            test_fns(1);
            check_nan_words(1, "nanimm", "o3", 4, nanimm_words, "NaN constants keep their bits");
            check_nan_words(1, "nan64", "o16", 16, nan64_words, "FP64 NaNs as on the GPU");
            check_nan_words(1, "nan16", "on", 8, nan16_words, "half NaNs as on the GPU");
        }
    }
    if (sass)
        ws_sass_module_free(sass);
    ws_module_free(ptx);
    return ws_test_finish("test_sim_intrin");
}
