/* sass_fp.c — SASS floating-point semantics: FADD/FMUL/FFMA with .FTZ/.SAT and directed
 * rounding, FSETP/FSET/FSEL/FMNMX, FCHK, FRND, MUFU, the FP64 pipe (DADD/DMUL/DFMA/DSETP)
 * and packed halves (HADD2/HMUL2/HFMA2/HSETP2). f32 NaN results are the canonical
 * 0x7fffffff the GPU writes; MUFU's approximations are modelled by correctly rounded libm
 * results (see ws_sass_x_mufu for where they can differ from the hardware's). */
#include <fenv.h>
#include "sim/sass_arith.h"

#define SRCF(k, v) ws_sass_srcf(w, in, (k), exec, (v))
#define SRCD(k, v) ws_sass_srcd(w, in, (k), exec, (v))
#define WS_TWO_PI 6.283185307179586476925286766559

static int fe_mode(int rnd)
{
    switch (rnd) {
    case WS_SMOD_RZ: case WS_SMOD_TRUNC: return FE_TOWARDZERO;
    case WS_SMOD_RM: case WS_SMOD_FLOOR: return FE_DOWNWARD;
    case WS_SMOD_RP: case WS_SMOD_CEIL: return FE_UPWARD;
    default: return FE_TONEAREST;
    }
}

int ws_sass_fcmp(int cmp, double x, double y)
{
    int un = isnan(x) || isnan(y);
    switch (cmp) {
    case WS_SMOD_EQ: return !un && x == y;
    case WS_SMOD_NE: return !un && x != y;
    case WS_SMOD_LT: return !un && x < y;
    case WS_SMOD_LE: return !un && x <= y;
    case WS_SMOD_GT: return !un && x > y;
    case WS_SMOD_GE: return !un && x >= y;
    case WS_SMOD_EQU: return un || x == y;
    case WS_SMOD_NEU: return un || x != y;
    case WS_SMOD_LTU: return un || x < y;
    case WS_SMOD_LEU: return un || x <= y;
    case WS_SMOD_GTU: return un || x > y;
    case WS_SMOD_GEU: return un || x >= y;
    case WS_SMOD_NUM: return !un;
    case WS_SMOD_NAN: return un;
    case WS_SMOD_T: return 1;
    default: return 0;
    }
}

/* ---------------------------------------------------------------- FP32 */

enum { F_ADD, F_MUL, F_FMA };

static inline float sat01(float r)
{
    return isnan(r) || r <= 0.0f ? 0.0f : r > 1.0f ? 1.0f : r;
}

/* FADD/FMUL/FFMA[.FTZ][.SAT][.RN|.RZ|.RM|.RP] Rd, a, b[, c] */
WS_SASS_FENV static int f32_arith(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, int op)
{
    float a[WS_WARP], b[WS_WARP], c[WS_WARP];
    uint32_t d[WS_WARP];
    SRCF(1, a);
    SRCF(2, b);
    if (op == F_FMA)
        SRCF(3, c);
    int ftz = ws_sass_has(in, WS_SMOD_FTZ), sat = ws_sass_has(in, WS_SMOD_SAT);
    int mode = fe_mode(in->rnd);
    /* FMUL.D2/.D4/.D8/.M2/.M4/.M8: the exact product scaled before its one rounding */
    double scale = ws_sass_has(in, WS_SMOD_D2) ? 0.5 : ws_sass_has(in, WS_SMOD_D4) ? 0.25
                 : ws_sass_has(in, WS_SMOD_D8) ? 0.125
                 : ws_sass_has(in, WS_SMOD_M2) ? 2.0 : ws_sass_has(in, WS_SMOD_M4) ? 4.0
                 : ws_sass_has(in, WS_SMOD_M8) ? 8.0 : 1.0;
    if (mode != FE_TONEAREST)
        fesetround(mode);
    WS_LANES(l, exec, {
        float x = a[l], y = b[l], z = op == F_FMA ? c[l] : 0.0f, r;
        if (ftz) {
            x = ws_sa_ftz(x);
            y = ws_sa_ftz(y);
            z = ws_sa_ftz(z);
        }
        if (op == F_ADD)
            r = x + y;
        else if (op == F_MUL)
            r = scale == 1.0 ? x * y : (float)((double)x * y * scale);
        else
            r = fmaf(x, y, z);
        if (ftz)
            r = ws_sa_ftz(r);
        if (sat)
            r = sat01(r);
        d[l] = ws_sa_f32bits(r);
    });
    if (mode != FE_TONEAREST)
        fesetround(FE_TONEAREST);
    ws_sass_dst(w, in, 0, exec, d);
    return 0;
}

int ws_sass_x_fadd(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    (void)fx;
    return f32_arith(w, in, exec, F_ADD);
}

int ws_sass_x_fmul(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    (void)fx;
    return f32_arith(w, in, exec, F_MUL);
}

int ws_sass_x_ffma(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    (void)fx;
    return f32_arith(w, in, exec, F_FMA);
}

/* Lanes where a cmp b for the f32 sources at operands k, k+1 (.FTZ flushes them first). */
static uint32_t f32_compare(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, int k)
{
    float a[WS_WARP], b[WS_WARP];
    uint32_t r = 0;
    int ftz = ws_sass_has(in, WS_SMOD_FTZ);
    SRCF(k, a);
    SRCF(k + 1, b);
    WS_LANES(l, exec, {
        float x = ftz ? ws_sa_ftz(a[l]) : a[l], y = ftz ? ws_sa_ftz(b[l]) : b[l];
        r |= (uint32_t)ws_sass_fcmp(in->cmp, x, y) << l;
    });
    return r;
}

/* FSETP.cmp[.FTZ].bool Pd0, Pd1, a, b, Pq (as ISETP) */
int ws_sass_x_fsetp(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    ws_sass_setp_write(w, in, exec, f32_compare(w, in, exec, 2), 4);
    (void)fx;
    return 0;
}

/* FSET[.BF].cmp.bool Rd, a, b, Pq: all ones (1.0f with .BF) where (a cmp b) bool Pq */
int ws_sass_x_fset(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    uint32_t r = f32_compare(w, in, exec, 1), d[WS_WARP];
    uint32_t q = ws_sa_pred_or(w, in, 3, WS_FULL_MASK);
    uint32_t one = ws_sass_has(in, WS_SMOD_BF) ? 0x3f800000u : 0xffffffffu;
    r = in->boolop == WS_SMOD_OR ? r | q : in->boolop == WS_SMOD_XOR ? r ^ q : r & q;
    WS_LANES(l, exec, d[l] = ((r >> l) & 1) ? one : 0;);
    ws_sass_dst(w, in, 0, exec, d);
    (void)fx;
    return 0;
}

/* FSEL Rd, a, b, P: P ? a : b (bits; a `-` or `|.|` on a source applies) */
int ws_sass_x_fsel(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    float a[WS_WARP], b[WS_WARP];
    uint32_t d[WS_WARP], p = ws_sass_psrc(w, in, 3);
    SRCF(1, a);
    SRCF(2, b);
    WS_LANES(l, exec, {
        float r = ((p >> l) & 1) ? a[l] : b[l];
        memcpy(&d[l], &r, 4);
    });
    ws_sass_dst(w, in, 0, exec, d);
    (void)fx;
    return 0;
}

static float fminmax(float x, float y, int pick_min)
{
    return (float)ws_fminmax(x, y, pick_min);
}

/* FMNMX[.FTZ][.NAN] Rd, a, b, P: P ? min : max (both NaN: the canonical NaN; with .NAN,
 * fminf/fmaxf's NaN-propagating variants, any NaN gives it) */
int ws_sass_x_fmnmx(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    float a[WS_WARP], b[WS_WARP];
    uint32_t d[WS_WARP], p = ws_sa_pred_or(w, in, 3, WS_FULL_MASK);
    int ftz = ws_sass_has(in, WS_SMOD_FTZ), nanprop = in->cmp == WS_SMOD_NAN;
    SRCF(1, a);
    SRCF(2, b);
    WS_LANES(l, exec, {
        float x = ftz ? ws_sa_ftz(a[l]) : a[l], y = ftz ? ws_sa_ftz(b[l]) : b[l];
        d[l] = nanprop && (isnan(x) || isnan(y)) ? WS_SASS_CANON_NAN32
                                                 : ws_sa_f32bits(fminmax(x, y, (p >> l) & 1));
    });
    ws_sass_dst(w, in, 0, exec, d);
    (void)fx;
    return 0;
}

/* Biased exponent field of an f32. */
static inline int fexp(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    return (int)((u >> 23) & 0xff);
}

/* FCHK Pd, a, b: set where ptxas's fast a/b path (reciprocal and FFMA refinement) may not
 * give the correctly rounded quotient, so the lane calls the slow routine. The rule is on the
 * exponent fields alone, measured on an H200 over every pair of them
 * (bench/fchk/fchk.spec, bench/records/fchk-h200.txt): a zero, denormal, infinite or NaN
 * dividend, or one below 2^-102; a divisor whose field is 0, 1, or 252 and above; and a
 * quotient exponent of 2^127 and above or 2^-125 and below. */
int ws_sass_x_fchk(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    float a[WS_WARP], b[WS_WARP];
    uint32_t r = 0;
    SRCF(1, a);
    SRCF(2, b);
    WS_LANES(l, exec, {
        int ea = fexp(a[l]), eb = fexp(b[l]);
        int unsafe = ea <= 24 || ea == 0xff || eb <= 1 || eb >= 252 || ea - eb >= 127 ||
                     ea - eb <= -125;
        r |= (uint32_t)unsafe << l;
    });
    ws_sass_pdst(w, in, 0, exec, r);
    (void)fx;
    return 0;
}

static double round_int(double x, int rnd)
{
    switch (rnd) {
    case WS_SMOD_TRUNC: case WS_SMOD_RZ: return trunc(x);
    case WS_SMOD_FLOOR: case WS_SMOD_RM: return floor(x);
    case WS_SMOD_CEIL: case WS_SMOD_RP: return ceil(x);
    default: return nearbyint(x); /* the default mode: nearest, ties to even */
    }
}

static float half_in(uint16_t h, int bf);
static uint16_t half_out(double x, int bf);

/* FRND[.F64][.TRUNC|.FLOOR|.CEIL][.FTZ] Rd, a: round to an integral value (default: even);
 * FRND.F16|.BF16 Rd, Ra[.H1] (hfloor, hceil, htrunc, hrint): one half in, the result in the
 * low half */
int ws_sass_x_frnd(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    if (in->dtype == WS_SMOD_F16 || in->dtype == WS_SMOD_BF16) {
        uint32_t v[WS_WARP];
        int hi = in->o[1].sel == 2 || in->o[1].sel == 4, bf = in->dtype == WS_SMOD_BF16;
        ws_sass_src(w, in, 1, exec, v);
        WS_LANES(l, exec, v[l] = half_out(round_int(half_in((uint16_t)(v[l] >> (hi ? 16 : 0)),
                                                            bf), in->rnd), bf););
        ws_sass_dst(w, in, 0, exec, v);
    } else if (in->dtype == WS_SMOD_F64) {
        double a[WS_WARP];
        uint64_t d[WS_WARP];
        SRCD(1, a);
        WS_LANES(l, exec, { double r = round_int(a[l], in->rnd); memcpy(&d[l], &r, 8); });
        ws_sass_dst64(w, in, 0, exec, d);
    } else {
        float a[WS_WARP];
        uint32_t d[WS_WARP];
        int ftz = ws_sass_has(in, WS_SMOD_FTZ);
        SRCF(1, a);
        WS_LANES(l, exec, {
            float x = ftz ? ws_sa_ftz(a[l]) : a[l];
            d[l] = ws_sa_f32bits((float)round_int(x, in->rnd));
        });
        ws_sass_dst(w, in, 0, exec, d);
    }
    (void)fx;
    return 0;
}

/* MUFU.op Rd, a. The SFU's approximations are not IEEE: RCP/RSQ/SQRT are within ~1 ulp,
 * EX2/LG2 within ~2 ulp and SIN/COS (of a pre-scaled argument: SIN(x) = sin(2 pi x), the
 * FMUL.RZ by 1/(2 pi) comes before) within ~2^-21 absolute. Here each is libm's correctly
 * rounded (or nearly) value, so results can differ from the GPU's in the last bits; inputs
 * and outputs flush denormals as the SFU does. RCP64H/RSQ64H read the high word of a double
 * and write the high word of its reciprocal (square root); the DFMA iterations that follow
 * make the final double exact either way. MUFU.op.F16/.BF16 Rd, Ra[.H1] (tanh.approx.bf16x2
 * is two of them) takes one half and writes the result, rounded to nearest, to Rd's low
 * half. */
int ws_sass_x_mufu(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    uint32_t d[WS_WARP];
    (void)fx;
    if (ws_sass_has(in, WS_SMOD_RCP64H) || ws_sass_has(in, WS_SMOD_RSQ64H)) {
        int rsq = ws_sass_has(in, WS_SMOD_RSQ64H);
        uint32_t a[WS_WARP];
        const ws_sass_opnd *o = &in->o[1];
        if (o->kind == WS_SO_FIMM) { /* MUFU.RCP64H R19, 3: the high word of the double 3.0 */
            uint32_t u = (uint32_t)(ws_sass_fimm64(o) >> 32);
            WS_LANES(l, exec, a[l] = u;);
        } else {
            ws_sass_src(w, in, 1, exec, a);
        }
        WS_LANES(l, exec, {
            uint32_t x = o->abs ? a[l] & 0x7fffffffu : a[l];
            d[l] = ws_mufu64h(o->neg ? x ^ 0x80000000u : x, rsq);
        });
        ws_sass_dst(w, in, 0, exec, d);
        return 0;
    }
    static const int ops[] = {WS_SMOD_RCP, WS_SMOD_RSQ, WS_SMOD_EX2, WS_SMOD_LG2, WS_SMOD_SIN,
                              WS_SMOD_COS, WS_SMOD_SQRT, WS_SMOD_TANH};
    int op = -1;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (ws_sass_has(in, ops[i]))
            op = ops[i];
    if (op < 0)
        return ws_sass_fault(w, in, __builtin_ctz(exec), 0, WS_ERR_UNSUPPORTED,
                             "unsupported MUFU function in '%s'", in->name);
    int half = in->dtype == WS_SMOD_F16 || in->dtype == WS_SMOD_BF16;
    float a[WS_WARP];
    if (half) { /* MUFU.TANH.BF16 R2, R0.H1: one half in, the result in the low half */
        uint32_t v[WS_WARP];
        const ws_sass_opnd *o = &in->o[1];
        int hi = o->sel == 2 || o->sel == 4, bf = in->dtype == WS_SMOD_BF16;
        ws_sass_src(w, in, 1, exec, v);
        WS_LANES(l, exec, a[l] = half_in((uint16_t)(v[l] >> (hi ? 16 : 0)), bf););
    } else {
        SRCF(1, a);
    }
    WS_LANES(l, exec, {
        double x = half ? a[l] : ws_sa_ftz(a[l]), r;
        switch (op) {
        case WS_SMOD_RCP: r = 1.0 / x; break;
        case WS_SMOD_RSQ: r = 1.0 / sqrt(x); break;
        case WS_SMOD_EX2: r = exp2(x); break;
        case WS_SMOD_LG2: r = log2(x); break;
        case WS_SMOD_SIN: r = isinf(x) ? NAN : sin(WS_TWO_PI * fmod(x, 1.0)); break;
        case WS_SMOD_COS: r = isinf(x) ? NAN : cos(WS_TWO_PI * fmod(x, 1.0)); break;
        case WS_SMOD_SQRT: r = sqrt(x); break;
        default: r = tanh(x); break;
        }
        d[l] = half ? half_out(r, in->dtype == WS_SMOD_BF16) : ws_sa_f32bits(ws_sa_ftz((float)r));
    });
    ws_sass_dst(w, in, 0, exec, d);
    return 0;
}

/* ---------------------------------------------------------------- FP64 */

/* DADD/DMUL/DFMA[.RN|.RZ|.RM|.RP] Rd, a, b[, c] on register pairs */
WS_SASS_FENV static int f64_arith(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, int op)
{
    double a[WS_WARP], b[WS_WARP], c[WS_WARP];
    uint64_t d[WS_WARP];
    uint32_t nans = 0;
    SRCD(1, a);
    SRCD(2, b);
    if (op == F_FMA)
        SRCD(3, c);
    int mode = fe_mode(in->rnd);
    if (mode != FE_TONEAREST)
        fesetround(mode);
    WS_LANES(l, exec, {
        double r = op == F_ADD ? a[l] + b[l] : op == F_MUL ? a[l] * b[l] : fma(a[l], b[l], c[l]);
        memcpy(&d[l], &r, 8);
        if (isnan(r))
            nans |= 1u << l;
    });
    if (mode != FE_TONEAREST)
        fesetround(FE_TONEAREST);
    if (nans) { /* a NaN operand passes on as the GPU passes it: the operands' own bits */
        uint64_t raw[3][WS_WARP];
        int n = op == F_FMA ? 3 : 2;
        for (int k = 0; k < n; k++)
            ws_sass_src64(w, in, 1 + k, nans, raw[k]);
        WS_LANES(l, nans, {
            uint64_t ops[3] = {raw[0][l], raw[1][l], n == 3 ? raw[2][l] : 0};
            uint64_t nan = ws_nan64_pass(ops, n);
            if (nan)
                d[l] = nan;
        });
    }
    ws_sass_dst64(w, in, 0, exec, d);
    return 0;
}

int ws_sass_x_dadd(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    (void)fx;
    return f64_arith(w, in, exec, F_ADD);
}

int ws_sass_x_dmul(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    (void)fx;
    return f64_arith(w, in, exec, F_MUL);
}

int ws_sass_x_dfma(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    (void)fx;
    return f64_arith(w, in, exec, F_FMA);
}

/* DSETP.cmp.bool Pd0, Pd1, a, b, Pq (as ISETP). DSETP.MIN/.MAX (fmin/fmax of doubles):
 * Pd0 = a is the minimum (maximum) number of the two (a NaN loses, -0 < +0),
 * Pd1 = both are NaN; each combined with Pq. */
int ws_sass_x_dsetp(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    double a[WS_WARP], b[WS_WARP];
    uint32_t r = 0, nan2 = 0;
    SRCD(2, a);
    SRCD(3, b);
    int mn = ws_sass_has(in, WS_SMOD_MIN), mx = ws_sass_has(in, WS_SMOD_MAX);
    (void)fx;
    if (mn || mx) {
        WS_LANES(l, exec, {
            double x = a[l], y = b[l];
            int pick = !isnan(x) && (isnan(y) || (x == y ? (signbit(x) != 0) == mn
                                                            : (x < y) == mn));
            r |= (uint32_t)pick << l;
            nan2 |= (uint32_t)(isnan(x) && isnan(y)) << l;
        });
        uint32_t q = ws_sa_pred_or(w, in, 4, WS_FULL_MASK);
        ws_sass_pdst(w, in, 0, exec, r & q);
        if (ws_sa_is_pred(in, 1))
            ws_sass_pdst(w, in, 1, exec, nan2 & q);
        return 0;
    }
    WS_LANES(l, exec, r |= (uint32_t)ws_sass_fcmp(in->cmp, a[l], b[l]) << l;);
    ws_sass_setp_write(w, in, exec, r, 4);
    return 0;
}

/* ---------------------------------------------------------------- packed halves */

static float half_in(uint16_t h, int bf)
{
    return bf ? ws_sass_bf16_to_float(h) : ws_sass_half_to_float(h);
}

static uint16_t half_out(double x, int bf)
{
    return bf ? ws_sass_double_to_bf16(x) : ws_sass_double_to_half(x);
}

static double imm_value(const ws_sass_opnd *o)
{
    double v = o->kind == WS_SO_FIMM ? o->fimm : (double)o->imm;
    return o->neg ? -v : v;
}

/* Source operand k of a packed-half instruction as the values of its low (H0) and high
 * (H1) halves. A register may carry a selector (.H0_H0 / .H1_H1 broadcast one half) and
 * `-` / `|.|` per half. Immediates come as a pair, high half first ("HFMA2.MMA R0, -RZ, RZ,
 * 1.875, 0" writes 0x3f800000); returns how many operands the source took (1 or 2). */
static int half2_src(ws_sass_warp *w, const ws_sass_inst *in, int k, uint32_t exec, int bf,
                     float lo[WS_WARP], float hi[WS_WARP])
{
    const ws_sass_opnd *o = &in->o[k];
    if (ws_sa_is_imm(in, k)) {
        int pair = ws_sa_is_imm(in, k + 1);
        float vh = half_in(half_out(imm_value(o), bf), bf);
        float vl = pair ? half_in(half_out(imm_value(&in->o[k + 1]), bf), bf) : vh;
        WS_LANES(l, exec, { lo[l] = vl; hi[l] = vh; });
        return pair ? 2 : 1;
    }
    uint32_t v[WS_WARP];
    ws_sass_src(w, in, k, exec, v);
    WS_LANES(l, exec, {
        uint16_t h0 = (uint16_t)v[l], h1 = (uint16_t)(v[l] >> 16);
        if (o->sel == 1 || o->sel == 3)
            h1 = h0;
        else if (o->sel == 2 || o->sel == 4)
            h0 = h1;
        if (o->abs) {
            h0 &= 0x7fff;
            h1 &= 0x7fff;
        }
        if (o->neg) {
            h0 ^= 0x8000;
            h1 ^= 0x8000;
        }
        lo[l] = half_in(h0, bf);
        hi[l] = half_in(h1, bf);
    });
    return 1;
}

enum { H_ADD, H_MUL, H_FMA };

/* HADD2/HMUL2/HFMA2[.MMA][.F32][.SAT|.RELU] Rd, a, b[, c]: per half, computed in double and
 * rounded once to half (exact for add and mul; an fma whose terms span more than 53 bits
 * can round twice). .F32 writes the f32 result of the low halves (HADD2.F32 Rd, -RZ,
 * Ra.H0_H0 is the half -> float conversion); .MMA only picks the tensor pipe; .RELU
 * (__hfma2_relu) makes a negative result +0 and leaves NaN a NaN. */
static int half2_arith(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, int op)
{
    float alo[WS_WARP], ahi[WS_WARP], blo[WS_WARP], bhi[WS_WARP], clo[WS_WARP], chi[WS_WARP];
    uint32_t d[WS_WARP];
    int bf = in->dtype == WS_SMOD_BF16 || in->dtype == WS_SMOD_BF16_V2, f32 = ws_sass_has(in, WS_SMOD_F32);
    int sat = ws_sass_has(in, WS_SMOD_SAT), relu = ws_sass_has(in, WS_SMOD_RELU), k = 1;
    k += half2_src(w, in, k, exec, bf, alo, ahi);
    k += half2_src(w, in, k, exec, bf, blo, bhi);
    if (op == H_FMA)
        half2_src(w, in, k, exec, bf, clo, chi);
    WS_LANES(l, exec, {
        double rl, rh;
        if (op == H_ADD) {
            rl = (double)alo[l] + blo[l];
            rh = (double)ahi[l] + bhi[l];
        } else if (op == H_MUL) {
            rl = (double)alo[l] * blo[l];
            rh = (double)ahi[l] * bhi[l];
        } else {
            rl = fma(alo[l], blo[l], clo[l]);
            rh = fma(ahi[l], bhi[l], chi[l]);
        }
        if (sat) {
            rl = isnan(rl) || rl <= 0 ? 0.0 : rl > 1 ? 1.0 : rl;
            rh = isnan(rh) || rh <= 0 ? 0.0 : rh > 1 ? 1.0 : rh;
        }
        if (relu) {
            rl = !isnan(rl) && signbit(rl) ? 0.0 : rl;
            rh = !isnan(rh) && signbit(rh) ? 0.0 : rh;
        }
        if (f32)
            d[l] = ws_sa_f32bits((float)rl);
        else
            d[l] = (uint32_t)half_out(rh, bf) << 16 | half_out(rl, bf);
    });
    ws_sass_dst(w, in, 0, exec, d);
    return 0;
}

int ws_sass_x_hadd2(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    (void)fx;
    return half2_arith(w, in, exec, H_ADD);
}

int ws_sass_x_hmul2(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    (void)fx;
    return half2_arith(w, in, exec, H_MUL);
}

int ws_sass_x_hfma2(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    (void)fx;
    return half2_arith(w, in, exec, H_FMA);
}

/* HSETP2.cmp.bool Pd0, Pd1, a, b, Pq: Pd0 from the low halves, Pd1 from the high halves,
 * each combined with Pq. */
int ws_sass_x_hsetp2(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    float alo[WS_WARP], ahi[WS_WARP], blo[WS_WARP], bhi[WS_WARP];
    int bf = in->dtype == WS_SMOD_BF16 || in->dtype == WS_SMOD_BF16_V2, k = 2;
    k += half2_src(w, in, k, exec, bf, alo, ahi);
    k += half2_src(w, in, k, exec, bf, blo, bhi);
    uint32_t rl = 0, rh = 0, q = ws_sa_pred_or(w, in, k, WS_FULL_MASK);
    WS_LANES(l, exec, {
        rl |= (uint32_t)ws_sass_fcmp(in->cmp, alo[l], blo[l]) << l;
        rh |= (uint32_t)ws_sass_fcmp(in->cmp, ahi[l], bhi[l]) << l;
    });
    switch (in->boolop) {
    case WS_SMOD_OR: rl |= q; rh |= q; break;
    case WS_SMOD_XOR: rl ^= q; rh ^= q; break;
    default: rl &= q; rh &= q; break;
    }
    ws_sass_pdst(w, in, 0, exec, rl);
    if (ws_sa_is_pred(in, 1))
        ws_sass_pdst(w, in, 1, exec, rh);
    (void)fx;
    return 0;
}

/* HSET2[.BF].cmp.bool Rd, a, b, Pq: per half, all ones (1.0 as a half with .BF) where
 * (a cmp b) bool Pq, else 0. */
int ws_sass_x_hset2(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    float alo[WS_WARP], ahi[WS_WARP], blo[WS_WARP], bhi[WS_WARP];
    uint32_t d[WS_WARP];
    int bf = in->dtype == WS_SMOD_BF16 || in->dtype == WS_SMOD_BF16_V2, k = 1;
    k += half2_src(w, in, k, exec, bf, alo, ahi);
    k += half2_src(w, in, k, exec, bf, blo, bhi);
    uint32_t q = ws_sa_pred_or(w, in, k, WS_FULL_MASK);
    uint32_t one = ws_sass_has(in, WS_SMOD_BF) ? (bf ? 0x3f80u : 0x3c00u) : 0xffffu;
    WS_LANES(l, exec, {
        int ql = (q >> l) & 1, rl = ws_sass_fcmp(in->cmp, alo[l], blo[l]);
        int rh = ws_sass_fcmp(in->cmp, ahi[l], bhi[l]);
        switch (in->boolop) {
        case WS_SMOD_OR: rl |= ql; rh |= ql; break;
        case WS_SMOD_XOR: rl ^= ql; rh ^= ql; break;
        default: rl &= ql; rh &= ql; break;
        }
        d[l] = (rh ? one << 16 : 0) | (rl ? one : 0);
    });
    ws_sass_dst(w, in, 0, exec, d);
    (void)fx;
    return 0;
}

/* HMNMX2[.BF16_V2][.NAN] Rd, a, b, P: per half P ? min : max, as FMNMX (__hmin2, __hmax2,
 * and their _nan forms); an immediate b is a pair of halves. */
/* VHMNMX[.NAN][.BF16_V2] Rd, a, b, c, P: per half, P ? min(a, b, c) : max(a, b, c), as
 * two HMNMX2 steps (ptxas fuses __hmin(a, __hmin(b, c)) into it). */
int ws_sass_x_vhmnmx(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    float x[3][2][WS_WARP];
    uint32_t d[WS_WARP];
    int bf = in->dtype == WS_SMOD_BF16 || in->dtype == WS_SMOD_BF16_V2, k = 1;
    int nanprop = in->cmp == WS_SMOD_NAN;
    for (int s = 0; s < 3; s++)
        k += half2_src(w, in, k, exec, bf, x[s][0], x[s][1]);
    uint32_t p = ws_sa_pred_or(w, in, k, WS_FULL_MASK);
    WS_LANES(l, exec, {
        int mn = (p >> l) & 1;
        uint16_t r[2];
        for (int h = 0; h < 2; h++) {
            float a = x[0][h][l], b = x[1][h][l], c = x[2][h][l];
            r[h] = nanprop && (isnan(a) || isnan(b) || isnan(c))
                       ? 0x7fffu /* the canonical NaN of both half formats */
                       : half_out(fminmax(fminmax(a, b, mn), c, mn), bf);
        }
        d[l] = (uint32_t)r[1] << 16 | r[0];
    });
    ws_sass_dst(w, in, 0, exec, d);
    (void)fx;
    return 0;
}

int ws_sass_x_hmnmx2(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    float alo[WS_WARP], ahi[WS_WARP], blo[WS_WARP], bhi[WS_WARP];
    uint32_t d[WS_WARP];
    int bf = in->dtype == WS_SMOD_BF16 || in->dtype == WS_SMOD_BF16_V2, k = 1;
    int nanprop = in->cmp == WS_SMOD_NAN;
    const uint16_t qnan = 0x7fffu; /* the canonical NaN of both half formats */
    k += half2_src(w, in, k, exec, bf, alo, ahi);
    k += half2_src(w, in, k, exec, bf, blo, bhi);
    uint32_t p = ws_sa_pred_or(w, in, k, WS_FULL_MASK);
    WS_LANES(l, exec, {
        int mn = (p >> l) & 1;
        uint16_t rl = nanprop && (isnan(alo[l]) || isnan(blo[l])) ? qnan
                    : half_out(fminmax(alo[l], blo[l], mn), bf);
        uint16_t rh = nanprop && (isnan(ahi[l]) || isnan(bhi[l])) ? qnan
                    : half_out(fminmax(ahi[l], bhi[l], mn), bf);
        d[l] = (uint32_t)rh << 16 | rl;
    });
    ws_sass_dst(w, in, 0, exec, d);
    (void)fx;
    return 0;
}
