/* test_sim_arith.c — instruction semantics against a CPU computation written here from
 * the PTX ISA: integer division by zero (all ones), shifts past the width, mul.hi/wide,
 * bit operations, prmt, funnel shifts, sad, float<->int conversions with every rounding
 * mode and saturation, directed-rounding f32 arithmetic, f64 and 64-bit integers. */
#include <limits.h>
#include <math.h>
#include "tests/sim/sim_test.h"

#define NOUT 32

/* Directed rounding without the floating-point environment: `exact` holds the exact
 * result (f32 sums and products are exact in double); round it to float toward zero or
 * toward +infinity by correcting the round-to-nearest conversion. */
static float round_toward(double exact, int up)
{
    float r = (float)exact;
    if (up && (double)r < exact)
        r = nextafterf(r, INFINITY);
    if (!up && fabs((double)r) > fabs(exact))
        r = nextafterf(r, 0.0f);
    return r;
}

static int f2i(double x)
{
    return x >= 2147483648.0 ? INT_MAX : x < -2147483648.0 ? INT_MIN : (int)x;
}

static int bits_of_float(float f)
{
    int i;
    memcpy(&i, &f, 4);
    return i;
}

static void expect(int t, int a, int b, int c, int *e)
{
    unsigned ua = (unsigned)a, uc = (unsigned)c;
    float f = (float)a / 4096.0f, g = fmaf((float)c, 1.0f / 65536.0f, 0.5f);
    double d = (double)a * 1.25;
    long long la = (long long)a * c;
    unsigned long long ub = (unsigned long long)uc << 20 | (unsigned)b;
    e[0] = b == 0 ? -1 : (a == INT_MIN && b == -1) ? INT_MIN : a / b;
    e[1] = b == 0 ? a : b == -1 ? 0 : a % b;
    e[2] = (b & 63) >= 32 ? 0 : (int)(ua >> (b & 63));
    e[3] = (int)(((long long)a * c) >> 32);
    e[4] = (int)(((long long)a * c) >> 7);
    unsigned rev = 0;
    for (int i = 0; i < 32; i++)
        rev |= ((ua >> i) & 1u) << (31 - i);
    e[5] = (int)rev;
    e[6] = __builtin_popcount(ua);
    e[7] = a ? __builtin_clz(ua) : 32;
    e[8] = a ? __builtin_ctz(ua) + 1 : 0;
    unsigned long long bytes = (unsigned long long)uc << 32 | ua, sel = 0x3210u ^ (unsigned)(t & 0x7777);
    unsigned perm = 0;
    for (int i = 0; i < 4; i++)
        perm |= (unsigned)((bytes >> (8 * ((sel >> (4 * i)) & 7))) & 0xff) << (8 * i);
    e[9] = (int)perm;
    unsigned n = (unsigned)t & 31;
    e[10] = (int)(unsigned)((bytes << n) >> 32);
    e[11] = (int)(unsigned)(bytes >> n);
    long long diff = (long long)a - c;
    e[12] = (int)((unsigned)(diff < 0 ? -diff : diff) + 7u);
    e[13] = a < c ? a : c;
    e[14] = (int)(ua > uc ? ua : uc);
    e[15] = f2i(nearbyintf(f));
    e[16] = f2i(truncf(f));
    e[17] = f2i(floorf(f));
    e[18] = f2i(ceilf(f));
    e[19] = bits_of_float(round_toward((double)f + (double)g, 0));
    e[20] = bits_of_float(round_toward((double)f * (double)g, 1));
    e[21] = bits_of_float(f / g);
    e[22] = bits_of_float(sqrtf(fabsf(f)));
    e[23] = bits_of_float(fmaf(f, g, 1.0f));
    e[24] = f < 0 ? 0 : (int)(unsigned)nearbyintf(f);
    e[25] = f2i(nearbyint(d));
    e[26] = (int)(short)a;
    float qf = round_toward(d / 3.0, 0), az = round_toward((double)a, 0);
    e[27] = bits_of_float(qf);
    e[28] = (int)(la / (b ? b : 3));
    e[29] = (int)(unsigned)(((unsigned __int128)ub * (unsigned long long)la) >> 64);
    e[30] = bits_of_float((float)a) ^ bits_of_float(az);
    e[31] = (int)((ua >> (t & 15)) & 31u);
}

/* Units in the last place between two doubles of the same sign. */
static long long ulps(double x, double y)
{
    long long a, b;
    memcpy(&a, &x, 8);
    memcpy(&b, &y, 8);
    return a > b ? a - b : b - a;
}

/* Double cos of large arguments: nvcc's carry chain (mad.lo.cc, madc.hi, madc.hi.cc). A
 * wrong carry would leave the reduced argument, and so the cosine, far off. */
static void check_carry_chain(void)
{
    ws_module *m = st_load("carry");
    CHECK(m != NULL, "carry.ptx loads (mad.lo.cc and madc parse)");
    if (!m)
        return;
    const char *spec = "workload carry\nsource carry.cu\nbuffer o f64 64 zero\n"
                       "variant v\n  kernel dcos\n  grid 1\n  block 64\n  args o\n";
    st_run r;
    if (st_exec(&r, m, spec, "v", NULL) == 0) {
        const double *o = st_buf(&r, "o")->data;
        int bad = 0;
        for (int t = 0; t < 64; t++) {
            double want = cos((1.0 + t * 0.015625) * ldexp(1.0, 20 + 15 * t));
            if (ulps(o[t], want) > 2 && bad++ == 0)
                fprintf(stderr, "  thread %d: got %.17g want %.17g\n", t, o[t], want);
        }
        CHECK(bad == 0, "double cos of large arguments: %d of 64 threads off by more than 2 ulp",
              bad);
        st_sum cc = st_line(&r, 0, "mad.lo.cc"), mc = st_line(&r, 0, "madc.hi");
        CHECK(cc.pred_on > 0 && mc.pred_on > 0, "the carry chain ran (mad.lo.cc: %llu threads, "
              "madc.hi: %llu)", (unsigned long long)cc.pred_on, (unsigned long long)mc.pred_on);
    } else {
        CHECK(0, "dcos ran");
    }
    st_free(&r);
    ws_module_free(m);
}

int main(void)
{
    ws_module *m = st_load("arith");
    CHECK(m != NULL, "arith.ptx loads");
    if (!m)
        return ws_test_finish("test_sim_arith");
    const char *spec = "workload arith\nsource arith.cu\n"
                       "buffer a i32 128 random_bits\nbuffer b i32 128 uniform_int -3 3\n"
                       "buffer c i32 128 random_bits\nbuffer o i32 4096 zero\n"
                       "variant v\n  kernel arith\n  grid 1\n  block 128\n  args a b c o\n";
    st_run r;
    if (st_exec(&r, m, spec, "v", NULL) == 0) {
        const int *a = st_buf(&r, "a")->data, *b = st_buf(&r, "b")->data;
        const int *c = st_buf(&r, "c")->data, *o = st_buf(&r, "o")->data;
        int bad[NOUT] = {0}, first[NOUT];
        for (int k = 0; k < NOUT; k++)
            first[k] = -1;
        for (int t = 0; t < 128; t++) {
            int e[NOUT];
            expect(t, a[t], b[t], c[t], e);
            for (int k = 0; k < NOUT; k++)
                if (o[t * NOUT + k] != e[k]) {
                    if (first[k] < 0)
                        fprintf(stderr, "  o[%d] thread %d (a=%d b=%d c=%d): got %d (0x%x) want %d (0x%x)\n",
                                k, t, a[t], b[t], c[t], o[t * NOUT + k], o[t * NOUT + k], e[k], e[k]);
                    bad[k]++;
                    first[k] = t;
                }
        }
        for (int k = 0; k < NOUT; k++)
            CHECK(bad[k] == 0, "output %d: %d of 128 threads differ", k, bad[k]);
        int zero_div = 0;
        for (int t = 0; t < 128; t++)
            zero_div += b[t] == 0;
        CHECK(zero_div > 0, "the input divides by zero somewhere (%d threads)", zero_div);
    } else {
        CHECK(0, "arith ran");
    }
    st_free(&r);
    const char *spec128 = "workload arith128\nsource arith.cu\n"
                          "buffer x u64 68 random_bits\nbuffer o u64 128 zero\n"
                          "variant v\n  kernel arith128\n  grid 1\n  block 64\n  args x o\n";
    if (st_exec(&r, m, spec128, "v", NULL) == 0) {
        const unsigned long long *x = st_buf(&r, "x")->data, *o = st_buf(&r, "o")->data;
        int bad = 0;
        for (int t = 0; t < 64; t++) {
            unsigned __int128 p = (unsigned __int128)x[t] * x[t + 1];
            unsigned __int128 q = p * x[t + 2] + ((unsigned __int128)x[t + 3] << 64) + x[t + 4];
            bad += o[2 * t] != (unsigned long long)q || o[2 * t + 1] != (unsigned long long)(q >> 64);
        }
        CHECK(bad == 0, "128-bit carry chains: %d of 64 threads differ", bad);
    } else {
        CHECK(0, "arith128 ran");
    }
    st_free(&r);
    const char *specdiv = "workload div128\nsource arith.cu\n"
                          "buffer x u64 68 random_bits\nbuffer o u64 256 zero\n"
                          "variant v\n  kernel div128\n  grid 1\n  block 64\n  args x o\n";
    if (st_exec(&r, m, specdiv, "v", NULL) == 0) {
        const unsigned long long *x = st_buf(&r, "x")->data, *o = st_buf(&r, "o")->data;
        int bad = 0;
        for (int t = 0; t < 64; t++) {
            /* the kernel's wrapping 128-bit arithmetic, done unsigned (no signed overflow) */
            __int128 q = (__int128)(((unsigned __int128)x[t] * x[t + 1]) ^
                                    ((unsigned __int128)x[t + 2] << 64));
            __int128 d = (__int128)((unsigned __int128)q - ((unsigned __int128)x[t + 3] << 37) -
                                    x[t + 4]);
            unsigned long long want[4] = {
                (unsigned long long)(q / 1000000007),
                (unsigned long long)((unsigned __int128)q % 998244353u),
                (unsigned long long)((unsigned __int128)q / 0x1234567890abull >> 5),
                (unsigned long long)(d >> 61)};
            for (int k = 0; k < 4; k++)
                if (o[4 * t + k] != want[k] && bad++ < 3)
                    fprintf(stderr, "  div128 thread %d word %d: got %llx want %llx\n", t, k,
                            o[4 * t + k], want[k]);
        }
        CHECK(bad == 0, "128-bit division, remainder and borrows (sub.cc then addc/subc "
              "mixed): %d of 256 words differ", bad);
    } else {
        CHECK(0, "div128 ran: %s", r.err.msg);
    }
    st_free(&r);
    ws_module_free(m);
    check_carry_chain();
    return ws_test_finish("test_sim_arith");
}
