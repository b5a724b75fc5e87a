/* exec_half.c — half-precision semantics of the SIMT executor: f16 and bf16 scalars and
 * their packed pairs (f16x2, bf16x2: low half first). add/sub/mul/fma/neg/abs/min/max,
 * comparisons of pairs, and the rounding of a real to f16/bf16 that cvt uses too. Each
 * result is computed in double and rounded once to the destination format. */
#include <fenv.h>
#include <math.h>
#include "sim/exec.h"

#define SRC(k) ws_x_src(w, in, (k), w->scratch[(k)])

double ws_f16_to_double(uint16_t h)
{
    uint32_t exp = (h >> 10) & 31, man = h & 1023;
    double f;
    if (exp == 0)
        f = ldexp((double)man, -24);
    else if (exp == 31)
        f = man ? NAN : INFINITY;
    else
        f = ldexp((double)(man | 1024), (int)exp - 25);
    return h >> 15 ? -f : f;
}

double ws_bf16_to_double(uint16_t b) { return ws_f32((uint64_t)b << 16); }

/* Rounds x to `sig` significant bits, the smallest unit being 2^`minq` (subnormals), in
 * the current rounding mode. */
static double round_to(double x, int sig, int minq)
{
    int e;
    frexp(x, &e); /* |x| = m * 2^e, m in [0.5, 1) */
    int q = e - sig > minq ? e - sig : minq;
    return ldexp(nearbyint(ldexp(x, -q)), q);
}

uint16_t ws_double_to_f16(double x)
{
    if (isnan(x))
        return signbit(x) ? 0xfe00 : 0x7e00;
    uint16_t sign = signbit(x) ? 0x8000 : 0;
    double r = isinf(x) ? x : round_to(x, 11, -24);
    double a = fabs(r);
    if (a >= 65536.0) { /* past the largest finite half: infinity, or 65504 where the
                           rounding goes toward zero (IEEE 754 overflow) */
        int mode = fegetround();
        int to_max = !isinf(x) && (mode == FE_TOWARDZERO || (mode == FE_DOWNWARD && !sign) ||
                                   (mode == FE_UPWARD && sign));
        return (uint16_t)(sign | (to_max ? 0x7bff : 0x7c00));
    }
    if (a < ldexp(1.0, -14))
        return (uint16_t)(sign | (uint16_t)ldexp(a, 24));
    int e;
    double m = frexp(a, &e);
    uint32_t mant = (uint32_t)ldexp(m, 11); /* exact: r has at most 11 significant bits */
    return (uint16_t)(sign | (uint32_t)(e + 14) << 10 | (mant & 1023));
}

uint16_t ws_double_to_bf16(double x)
{
    if (isnan(x)) /* keep the sign and the top of the payload, quiet */
        return (uint16_t)(ws_bits_f32((float)x) >> 16 | 0x40);
    double r = isinf(x) ? x : round_to(x, 8, -133);
    return (uint16_t)(ws_bits_f32((float)r) >> 16); /* exact, or +-inf past the range */
}

/* FP8 (OCP E4M3 / E5M2, as cuda_fp8.h defines them): e4m3 has 4 significant bits, exponent
 * bias 7, no infinities and NaN 0x7f; e5m2 has 3, bias 15, IEEE infinities and NaNs. The
 * conversion from a wider float rounds once to nearest even. With `sat` (.satfinite, the
 * only form PTX offers) anything past the largest finite value, infinities included, is
 * that value; without it e4m3 overflows to NaN and e5m2 to infinity. A NaN is 0x7f in
 * both, as cuda_fp8.h's host conversion from float or half writes it; with `relu` a
 * negative result is +0. */
static uint8_t double_to_fp8(double x, int e5m2, int sat, int relu)
{
    int sig = e5m2 ? 3 : 4, minq = e5m2 ? -16 : -9, bias = e5m2 ? 15 : 7;
    double max = e5m2 ? 57344.0 : 448.0;
    uint8_t sign = signbit(x) ? 0x80 : 0;
    if (isnan(x))
        return 0x7f;
    if (relu && sign)
        return 0;
    double r = isinf(x) ? fabs(x) : round_to(fabs(x), sig, minq);
    if (r > max)
        return sat ? (uint8_t)(sign | (e5m2 ? 0x7b : 0x7e)) : sign | (e5m2 ? 0x7c : 0x7f);
    if (r < ldexp(1.0, 1 - bias)) /* subnormal or zero: a multiple of the smallest unit */
        return (uint8_t)(sign | (uint8_t)ldexp(r, -minq));
    int e;
    double m = frexp(r, &e); /* r = m * 2^e, m in [0.5, 1): exact in sig bits */
    uint32_t mant = (uint32_t)ldexp(m, sig) & ((1u << (sig - 1)) - 1);
    return (uint8_t)(sign | (uint32_t)(e - 1 + bias) << (sig - 1) | mant);
}

/* The f16 bits of an FP8 value: exact (every e4m3 and e5m2 value is an f16). A NaN gives
 * 0x7fff, as cuda_fp8.h's host conversion writes it; with `relu` a negative value is +0. */
static uint16_t fp8_to_f16(uint8_t v, int e5m2, int relu)
{
    int nan = e5m2 ? (v & 0x7f) > 0x7c : (v & 0x7f) == 0x7f;
    if (nan)
        return 0x7fff;
    if (relu && (v & 0x80))
        return 0;
    if (e5m2) /* the top byte of an f16 */
        return (uint16_t)(v << 8);
    uint32_t exp = (v >> 3) & 15, man = v & 7;
    double f = exp ? ldexp((double)(man | 8), (int)exp - 10) : ldexp((double)man, -9);
    return ws_double_to_f16(v & 0x80 ? -f : f);
}

uint16_t ws_fp8x2_from(double hi, double lo, int e5m2, int sat, int relu)
{
    return (uint16_t)(double_to_fp8(hi, e5m2, sat, relu) << 8 |
                      double_to_fp8(lo, e5m2, sat, relu));
}

uint16_t ws_fp8x2_from_f16x2(uint32_t h2, int e5m2, int sat, int relu)
{
    return ws_fp8x2_from(ws_f16_to_double((uint16_t)(h2 >> 16)),
                         ws_f16_to_double((uint16_t)h2), e5m2, sat, relu);
}

uint32_t ws_fp8x2_to_f16x2(uint16_t v, int e5m2, int relu)
{
    return (uint32_t)fp8_to_f16((uint8_t)(v >> 8), e5m2, relu) << 16 |
           fp8_to_f16((uint8_t)v, e5m2, relu);
}

/* ---------------------------------------------------------------- arithmetic */

static int is_bf(ws_ptype t) { return t == WS_P_BF16 || t == WS_P_BF16X2; }

static double to_real(uint16_t v, int bf)
{
    return bf ? ws_bf16_to_double(v) : ws_f16_to_double(v);
}

static uint16_t from_real(double x, int bf)
{
    return bf ? ws_double_to_bf16(x) : ws_double_to_f16(x);
}

/* One 16-bit element of op(a, b, c). */
static uint16_t half_op1(const ws_inst *in, uint16_t a, uint16_t b, uint16_t c, int bf)
{
    switch (in->op) { /* ptxas writes f16 neg/abs as HADD2 -a, -RZ / |a|, -RZ: a NaN comes
                         out canonical (measured on an H200, intrin.cu's nan16) */
    case WS_OP_NEG: return !bf && (a & 0x7fff) > 0x7c00 ? 0x7fff : (uint16_t)(a ^ 0x8000);
    case WS_OP_ABS: return !bf && (a & 0x7fff) > 0x7c00 ? 0x7fff : (uint16_t)(a & 0x7fff);
    default: break;
    }
    double x = to_real(a, bf), y = to_real(b, bf), z = to_real(c, bf), r;
    if (in->flags & WS_F_FTZ && !bf) {
        x = fabs(x) < ldexp(1.0, -14) ? copysign(0.0, x) : x;
        y = fabs(y) < ldexp(1.0, -14) ? copysign(0.0, y) : y;
        z = fabs(z) < ldexp(1.0, -14) ? copysign(0.0, z) : z;
    }
    switch (in->op) {
    case WS_OP_ADD: r = x + y; break;
    case WS_OP_SUB: r = x - y; break;
    case WS_OP_MUL: r = x * y; break;
    case WS_OP_MIN: r = ws_fminmax(x, y, 1); break;
    case WS_OP_MAX: r = ws_fminmax(x, y, 0); break;
    default: r = fma(x, y, z); break; /* fma, mad */
    }
    if ((in->flags & WS_F_NAN) && (isnan(x) || isnan(y)))
        return 0x7fff; /* min/max.NaN: the canonical NaN of both formats (as HMNMX2.NAN) */
    if (in->flags & WS_F_SAT)
        r = isnan(r) ? 0.0 : r < 0.0 ? 0.0 : r > 1.0 ? 1.0 : r;
    if ((in->flags & WS_F_RELU) && !isnan(r) && signbit(r)) /* fma.relu: a negative is +0 */
        r = 0.0;
    if (isnan(r)) /* the canonical NaN of both formats, as HADD2/HMUL2/HFMA2 write it */
        return 0x7fff;
    uint16_t h = from_real(r, bf);
    if (in->flags & WS_F_FTZ && !bf && (h & 0x7c00) == 0)
        h &= 0x8000;
    return h;
}

static int fe_mode(int rnd)
{
    switch (rnd) {
    case WS_RND_RZ: return FE_TOWARDZERO;
    case WS_RND_RM: return FE_DOWNWARD;
    case WS_RND_RP: return FE_UPWARD;
    default: return FE_TONEAREST;
    }
}

__attribute__((optimize("rounding-math")))
static int half_arith(ws_warp *w, const ws_inst *in, uint32_t exec)
{
    ws_ptype t = (ws_ptype)in->type;
    int bf = is_bf(t), pairs = t == WS_P_F16X2 || t == WS_P_BF16X2 ? 2 : 1;
    const uint64_t *a = SRC(0);
    const uint64_t *b = in->nsrc > 1 ? SRC(1) : a, *c = in->nsrc > 2 ? SRC(2) : a;
    uint64_t *d = ws_x_reg(w, in->dst[0].reg);
    if (in->flags & WS_F_FMAD) { /* ptxas's HFMA2 (contract.c): one rounding per half */
        int pb = (in->flags & WS_F_FMAD_B) != 0, sub = in->op == WS_OP_SUB;
        const uint64_t *z = pb ? a : b, *p = SRC(2), *q = SRC(3);
        ws_inst fused = *in;
        fused.op = WS_OP_FMA;
        uint16_t np = sub && pb ? 0x8000 : 0, nz = sub && !pb ? 0x8000 : 0;
        WS_LANES(l, exec, {
            uint64_t r = 0;
            for (int k = 0; k < pairs; k++)
                r |= (uint64_t)half_op1(&fused, (uint16_t)(p[l] >> 16 * k ^ np),
                                        (uint16_t)(q[l] >> 16 * k),
                                        (uint16_t)(z[l] >> 16 * k ^ nz), bf) << 16 * k;
            d[l] = r;
        });
        return 0;
    }
    int mode = fe_mode(in->rnd);
    if (mode != FE_TONEAREST)
        fesetround(mode);
    WS_LANES(l, exec, {
        uint64_t r = 0;
        for (int k = 0; k < pairs; k++)
            r |= (uint64_t)half_op1(in, (uint16_t)(a[l] >> 16 * k), (uint16_t)(b[l] >> 16 * k),
                                    (uint16_t)(c[l] >> 16 * k), bf) << 16 * k;
        d[l] = r;
    });
    if (mode != FE_TONEAREST)
        fesetround(FE_TONEAREST);
    return 0;
}

/* setp.CMP.f16x2 p|q, a, b: p the low halves' comparison, q the high halves'. */
static int half_setp_pair(ws_warp *w, const ws_inst *in, uint32_t exec)
{
    int bf = is_bf((ws_ptype)in->type);
    const uint64_t *a = SRC(0), *b = SRC(1);
    for (int k = 0; k < in->ndst && k < 2; k++) {
        if (in->dst[k].reg < 0)
            continue;
        uint64_t *p = ws_x_reg(w, in->dst[k].reg);
        WS_LANES(l, exec, {
            double x = to_real((uint16_t)(a[l] >> 16 * k), bf);
            double y = to_real((uint16_t)(b[l] >> 16 * k), bf);
            p[l] = (uint64_t)ws_x_cmp_float(in->cmp, x, y);
        });
    }
    return 0;
}

int ws_x_half(ws_warp *w, const ws_inst *in, uint32_t exec)
{
    if (in->op == WS_OP_SETP)
        return half_setp_pair(w, in, exec);
    return half_arith(w, in, exec);
}
