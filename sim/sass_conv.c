/* sass_conv.c — SASS conversions: I2F/I2FP, F2I, F2F, F2FP (pack two f32 as halves), I2I,
 * with their rounding modes and the CUDA rules for NaN and out-of-range values (F2I
 * saturates; NaN converts to 0), and the f16/bf16 <-> float conversions every packed-half
 * handler uses (round to nearest even whatever the host's rounding mode: core/types.c). */
#include <fenv.h>
#include "sim/sass_arith.h"

#define SRC(k, v) ws_sass_src(w, in, (k), exec, (v))

/* ---------------------------------------------------------------- 16-bit floats */

/* Decoding is exact: the PTX model's (exec_half.c) serves both models. */
float ws_sass_half_to_float(uint16_t h)
{
    return (float)ws_f16_to_double(h);
}

float ws_sass_bf16_to_float(uint16_t h)
{
    return (float)ws_bf16_to_double(h);
}

/* Encoding to nearest even, as the conversions of the spec's buffers do (core/types.c). */
uint16_t ws_sass_double_to_half(double x)
{
    return ws_f16_bits(x);
}

uint16_t ws_sass_double_to_bf16(double x)
{
    return ws_bf16_bits(x);
}

/* A 32-bit integer source's selector: .B0..B3 pick a byte, .H0/.H1 a half (I2F.U8 R0,
 * R1.B2), moved to the low bits. */
static void select_part(const ws_sass_opnd *o, uint32_t exec, uint32_t v[WS_WARP])
{
    int shift = o->sel >= 5 && o->sel <= 8 ? 8 * (o->sel - 5) : o->sel == 2 ? 16 : 0;
    if (shift)
        WS_LANES(l, exec, v[l] >>= shift;);
}

/* ---------------------------------------------------------------- types */

static int is_float_type(int t)
{
    return t == WS_SMOD_F16 || t == WS_SMOD_BF16 || t == WS_SMOD_F32 || t == WS_SMOD_F64;
}

static int is_int_type(int t)
{
    return t >= WS_SMOD_U8 && t <= WS_SMOD_S64;
}

static int int_bits(int t)
{
    switch (t) {
    case WS_SMOD_U8: case WS_SMOD_S8: return 8;
    case WS_SMOD_U16: case WS_SMOD_S16: return 16;
    case WS_SMOD_U64: case WS_SMOD_S64: return 64;
    default: return 32;
    }
}

static int int_signed(int t)
{
    return t == WS_SMOD_S8 || t == WS_SMOD_S16 || t == WS_SMOD_S32 || t == WS_SMOD_S64;
}

/* The float and integer types of a conversion whatever order nvdisasm wrote them in
 * (I2F.F64.S64, I2F.U32, F2I.S64.F64, F2I.F64, ...): F32 and S32 unless written. */
static void conv_types(const ws_sass_inst *in, int *ft, int *it)
{
    *ft = WS_SMOD_F32;
    *it = WS_SMOD_S32;
    if (in->stype != 0xff && is_int_type(in->stype))
        *it = in->stype;
    if (in->dtype != 0xff && is_int_type(in->dtype))
        *it = in->dtype;
    if (in->stype != 0xff && is_float_type(in->stype))
        *ft = in->stype;
    if (in->dtype != 0xff && is_float_type(in->dtype))
        *ft = in->dtype;
}

static int fe_mode(int rnd)
{
    switch (rnd) {
    case WS_SMOD_RZ: return FE_TOWARDZERO;
    case WS_SMOD_RM: return FE_DOWNWARD;
    case WS_SMOD_RP: return FE_UPWARD;
    default: return FE_TONEAREST;
    }
}

/* Writes per-lane results of float type ft (f64 as pairs, f16/bf16 in the low half). */
/* f16 or bf16 bits of v (in the low half of d), rounded in `mode`: F2F.BF16.F32.RZ
 * (__float2bfloat16_rz), I2F.F16.RM, F2FP.F16.F32.PACK_AB.RZ (__float2half_rz) round as the
 * PTX model does, once from the exact value; a NaN as the nearest-even path writes it. */
WS_SASS_FENV static void to_halves(const double v[WS_WARP], uint32_t exec, int bf, int mode,
                                   uint32_t d[WS_WARP])
{
    if (mode != FE_TONEAREST) {
        fesetround(mode);
        WS_LANES(l, exec, d[l] = isnan(v[l]) ? 0x7fff : !bf ? ws_double_to_f16(v[l])
                                                      : ws_double_to_bf16(v[l]););
        fesetround(FE_TONEAREST);
    } else {
        WS_LANES(l, exec, d[l] = !bf ? ws_sass_double_to_half(v[l])
                                     : ws_sass_double_to_bf16(v[l]););
    }
}

/* f32 and f16 results are written with the canonical NaN, except where `nan_payload` says
 * that the source is an f64 whose NaNs F2F.F32.F64 / F2F.F16.F64 narrow keeping their sign
 * and payload (ws_nan_narrow64). */
WS_SASS_FENV static void write_float(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, int ft,
                        const double v[WS_WARP], int ftz, int nan_payload)
{
    if (ft == WS_SMOD_F64) {
        uint64_t d[WS_WARP];
        WS_LANES(l, exec, memcpy(&d[l], &v[l], 8););
        ws_sass_dst64(w, in, 0, exec, d);
        return;
    }
    uint32_t d[WS_WARP];
    if (ft == WS_SMOD_F16 || ft == WS_SMOD_BF16)
        to_halves(v, exec, ft == WS_SMOD_BF16, fe_mode(in->rnd), d);
    else
        WS_LANES(l, exec, {
            float f = (float)v[l];
            d[l] = ws_sa_f32bits(ftz ? ws_sa_ftz(f) : f);
        });
    if (nan_payload && ft != WS_SMOD_BF16)
        WS_LANES(l, exec, {
            uint64_t u;
            memcpy(&u, &v[l], 8);
            if (isnan(v[l]))
                d[l] = ws_nan_narrow64(u, ft == WS_SMOD_F16);
        });
    ws_sass_dst(w, in, 0, exec, d);
}

/* I2F/I2FP[.F64|.F16][.S64|.U32|...][.RN|.RZ|.RM|.RP] Rd, a. The rounding applies where the
 * integer has more bits than the float's significand (I2F.U32.RP is the first step of
 * ptxas's integer division). */
WS_SASS_FENV int ws_sass_x_i2f(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec,
                               ws_sass_fx *fx)
{
    int ft, it;
    conv_types(in, &ft, &it);
    int bits = int_bits(it), sgn = int_signed(it), mode = fe_mode(in->rnd);
    uint64_t a[WS_WARP];
    double v[WS_WARP];
    if (bits == 64) {
        ws_sass_src64(w, in, 1, exec, a);
    } else {
        uint32_t a32[WS_WARP];
        SRC(1, a32);
        select_part(&in->o[1], exec, a32);
        ws_sass_int_mods(in, 1, exec, a32);
        WS_LANES(l, exec, a[l] = a32[l];);
    }
    if (mode != FE_TONEAREST)
        fesetround(mode);
    WS_LANES(l, exec, {
        uint64_t x = a[l];
        if (bits < 64)
            x &= (1ull << bits) - 1;
        int64_t s = bits < 64 && sgn && (x >> (bits - 1)) ? (int64_t)(x | ~((1ull << bits) - 1))
                                                           : (int64_t)x;
        if (ft == WS_SMOD_F32) { /* round once, in f32 */
            float f = sgn ? (float)s : (float)x;
            v[l] = f;
        } else {
            v[l] = sgn ? (double)s : (double)x;
        }
    });
    if (mode != FE_TONEAREST)
        fesetround(FE_TONEAREST);
    write_float(w, in, exec, ft, v, 0, 0);
    (void)fx;
    return 0;
}

static double round_int(double x, int rnd)
{
    switch (rnd) {
    case WS_SMOD_TRUNC: case WS_SMOD_RZ: return trunc(x);
    case WS_SMOD_FLOOR: case WS_SMOD_RM: return floor(x);
    case WS_SMOD_CEIL: case WS_SMOD_RP: return ceil(x);
    default: return nearbyint(x);
    }
}

/* Reads source k of float type ft as doubles (f32 flushed with .FTZ). */
static void read_float(ws_sass_warp *w, const ws_sass_inst *in, int k, uint32_t exec, int ft,
                       double v[WS_WARP])
{
    int ftz = ws_sass_has(in, WS_SMOD_FTZ);
    if (ft == WS_SMOD_F64) {
        ws_sass_srcd(w, in, k, exec, v);
    } else if (ft == WS_SMOD_F16 || ft == WS_SMOD_BF16) {
        uint32_t a[WS_WARP];
        SRC(k, a);
        const ws_sass_opnd *o = &in->o[k];
        WS_LANES(l, exec, {
            uint16_t h = (uint16_t)(o->sel == 2 || o->sel == 4 ? a[l] >> 16 : a[l]);
            double x = ft == WS_SMOD_F16 ? ws_sass_half_to_float(h) : ws_sass_bf16_to_float(h);
            x = o->abs ? fabs(x) : x;
            v[l] = o->neg ? -x : x;
        });
    } else {
        float a[WS_WARP];
        ws_sass_srcf(w, in, k, exec, a);
        WS_LANES(l, exec, v[l] = ftz ? ws_sa_ftz(a[l]) : a[l];);
    }
}

/* F2I[.S64|.U32|...][.F64][.TRUNC|.FLOOR|.CEIL][.FTZ][.NTZ] Rd, a: round (default: to
 * nearest even), then saturate to the integer's range; NaN gives 0 (CUDA's __float2int_*
 * and cvt.rni/rzi/rmi/rpi). */
int ws_sass_x_f2i(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    int ft, it;
    conv_types(in, &ft, &it);
    int bits = int_bits(it), sgn = int_signed(it);
    double v[WS_WARP];
    uint64_t r[WS_WARP];
    read_float(w, in, 1, exec, ft, v);
    double lo = sgn ? -ldexp(1.0, bits - 1) : 0.0, hi = ldexp(1.0, sgn ? bits - 1 : bits);
    WS_LANES(l, exec, {
        double x = round_int(v[l], in->rnd);
        if (isnan(x))
            r[l] = 0;
        else if (x < lo)
            r[l] = (uint64_t)(int64_t)lo;
        else if (x >= hi)
            r[l] = bits == 64 ? (sgn ? (uint64_t)INT64_MAX : ~0ull)
                              : (1ull << (sgn ? bits - 1 : bits)) - 1;
        else
            r[l] = sgn ? (uint64_t)(int64_t)x : (uint64_t)x;
    });
    if (bits == 64) {
        ws_sass_dst64(w, in, 0, exec, r);
    } else {
        uint32_t d[WS_WARP];
        WS_LANES(l, exec, d[l] = (uint32_t)r[l];);
        ws_sass_dst(w, in, 0, exec, d);
    }
    (void)fx;
    return 0;
}

/* F2F.dst.src[.RN|.RZ|.RM|.RP][.FTZ][.SAT] Rd, a: between f16/f32/f64 (F2F.F32.F64 rounds
 * in the mode given); .TRUNC/.FLOOR/.CEIL round to an integral value in the same format.
 * f16 results round to nearest even only. */
WS_SASS_FENV int ws_sass_x_f2f(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec,
                               ws_sass_fx *fx)
{
    int dt = in->dtype != 0xff ? in->dtype : WS_SMOD_F32;
    int st = in->stype != 0xff ? in->stype : dt;
    int ftz = ws_sass_has(in, WS_SMOD_FTZ), sat = ws_sass_has(in, WS_SMOD_SAT);
    int intround = in->rnd == WS_SMOD_TRUNC || in->rnd == WS_SMOD_FLOOR ||
                   in->rnd == WS_SMOD_CEIL;
    int mode = intround ? FE_TONEAREST : fe_mode(in->rnd);
    double v[WS_WARP];
    read_float(w, in, 1, exec, st, v);
    WS_LANES(l, exec, {
        double x = intround ? round_int(v[l], in->rnd) : v[l];
        if (sat)
            x = isnan(x) || x <= 0 ? 0.0 : x > 1 ? 1.0 : x;
        v[l] = x;
    });
    if (dt == WS_SMOD_F32 && mode != FE_TONEAREST) { /* round the f64 once, in f32 */
        fesetround(mode);
        WS_LANES(l, exec, v[l] = (float)v[l];);
        fesetround(FE_TONEAREST);
    }
    write_float(w, in, exec, dt, v, ftz, st == WS_SMOD_F64 && !intround && !sat);
    (void)fx;
    return 0;
}

/* F2FP to and from FP8 (cuda_fp8.h's conversions; ws_fp8x2_*, exec_half.c):
 *   F2FP.SATFINITE[.RELU].E4M3|E5M2.F32.PACK_AB_MERGE_C Rd, a, b, c
 *       Rd = c << 16 | fp8(a) << 8 | fp8(b) (c's low half: ptxas builds an fp8x4 so)
 *   F2FP.SATFINITE[.RELU].E4M3|E5M2.F16.UNPACK_B_MERGE_C Rd, b, c: b an f16x2, high half
 *       to the high byte
 *   F2FP[.RELU].F16.E4M3|E5M2.UNPACK_B Rd, b: b's two low bytes to an f16x2, exactly. */
static int f2fp8(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec)
{
    int to = in->dtype == WS_SMOD_E4M3 || in->dtype == WS_SMOD_E5M2;
    int fp8 = to ? in->dtype : in->stype, e5 = fp8 == WS_SMOD_E5M2;
    int relu = ws_sass_has(in, WS_SMOD_RELU), sat = ws_sass_has(in, WS_SMOD_SATFINITE);
    int pack = ws_sass_has(in, WS_SMOD_PACK_AB_MERGE_C);
    int unpack = ws_sass_has(in, WS_SMOD_UNPACK_B);
    int merge = ws_sass_has(in, WS_SMOD_UNPACK_B_MERGE_C);
    int ok = to ? (pack && in->stype == WS_SMOD_F32 && in->nopnd == 4) ||
                  (merge && in->stype == WS_SMOD_F16 && in->nopnd == 3)
                : unpack && in->dtype == WS_SMOD_F16 && in->nopnd == 2;
    if (!ok)
        return ws_sass_fault(w, in, exec ? __builtin_ctz(exec) : 0, 0, WS_ERR_UNSUPPORTED,
                             "unsupported F2FP form with FP8 (known: .E4M3/.E5M2 from .F32 "
                             "PACK_AB_MERGE_C or .F16 UNPACK_B_MERGE_C, to .F16 UNPACK_B)");
    uint32_t b[WS_WARP], c[WS_WARP] = {0}, d[WS_WARP];
    ws_sass_src(w, in, in->nopnd - (to ? 2 : 1), exec, b);
    if (!to) {
        WS_LANES(l, exec, d[l] = ws_fp8x2_to_f16x2((uint16_t)b[l], e5, relu););
        ws_sass_dst(w, in, 0, exec, d);
        return 0;
    }
    ws_sass_src(w, in, in->nopnd - 1, exec, c);
    if (pack) {
        float a[WS_WARP], fb[WS_WARP];
        ws_sass_srcf(w, in, 1, exec, a);
        ws_sass_srcf(w, in, 2, exec, fb);
        WS_LANES(l, exec, d[l] = (c[l] & 0xffffu) << 16 |
                                 ws_fp8x2_from(a[l], fb[l], e5, sat, relu););
    } else {
        WS_LANES(l, exec, d[l] = (c[l] & 0xffffu) << 16 |
                                 ws_fp8x2_from_f16x2(b[l], e5, sat, relu););
    }
    ws_sass_dst(w, in, 0, exec, d);
    return 0;
}

/* F2FP.F16|BF16.F32.PACK_AB[.RZ|.RM|.RP] Rd, a, b: Rd = cvt(a) << 16 | cvt(b), nearest even
 * unless a rounding is written; the FP8 forms above. */
int ws_sass_x_f2fp(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    (void)fx;
    if (in->dtype == WS_SMOD_E4M3 || in->dtype == WS_SMOD_E5M2 || in->stype == WS_SMOD_E4M3 ||
        in->stype == WS_SMOD_E5M2)
        return f2fp8(w, in, exec);
    int merge = ws_sass_has(in, WS_SMOD_MERGE_C);
    if (!(merge || ws_sass_has(in, WS_SMOD_PACK_AB)) || in->nopnd != 3 ||
        ws_sass_has(in, WS_SMOD_RELU))
        return ws_sass_fault(w, in, exec ? __builtin_ctz(exec) : 0, 0, WS_ERR_UNSUPPORTED,
                             "unsupported F2FP form (known: .F16/.BF16.F32.PACK_AB Rd, a, b and "
                             ".MERGE_C Rd, a, c)");
    float a[WS_WARP], b[WS_WARP];
    double va[WS_WARP] = {0}, vb[WS_WARP] = {0};
    uint32_t d[WS_WARP], ha[WS_WARP], hb[WS_WARP];
    int bf = in->dtype == WS_SMOD_BF16;
    ws_sass_srcf(w, in, 1, exec, a);
    WS_LANES(l, exec, va[l] = a[l];);
    to_halves(va, exec, bf, fe_mode(in->rnd), ha);
    if (merge) { /* one conversion into the low half, c's low half above it (ptxas builds a
                    half2 of two such, as the FP8 forms' MERGE_C) */
        uint32_t c[WS_WARP];
        ws_sass_src(w, in, 2, exec, c);
        WS_LANES(l, exec, d[l] = c[l] << 16 | (ha[l] & 0xffffu););
        ws_sass_dst(w, in, 0, exec, d);
        return 0;
    }
    ws_sass_srcf(w, in, 2, exec, b);
    WS_LANES(l, exec, vb[l] = b[l];);
    to_halves(vb, exec, bf, fe_mode(in->rnd), hb);
    WS_LANES(l, exec, d[l] = ha[l] << 16 | (hb[l] & 0xffffu););
    ws_sass_dst(w, in, 0, exec, d);
    return 0;
}

/* I2I.dst[.src][.SAT] Rd, a: integer narrowing (source S32 unless written); .SAT clamps
 * to the destination's range, otherwise the low bits are kept and extended. */
int ws_sass_x_i2i(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    int dt = in->dtype != 0xff ? in->dtype : WS_SMOD_S32;
    int st = in->stype != 0xff ? in->stype : WS_SMOD_S32;
    int db = int_bits(dt), ds = int_signed(dt), sb = int_bits(st), ss = int_signed(st);
    int sat = ws_sass_has(in, WS_SMOD_SAT);
    uint32_t a[WS_WARP];
    SRC(1, a);
    select_part(&in->o[1], exec, a);
    if (db > 32)
        db = 32;
    if (sb > 32)
        sb = 32;
    WS_LANES(l, exec, {
        uint32_t m = sb == 32 ? ~0u : (1u << sb) - 1, x = a[l] & m;
        int64_t v = ss && sb < 32 && (x >> (sb - 1)) ? (int64_t)x - ((int64_t)1 << sb)
                    : ss ? (int64_t)(int32_t)x : (int64_t)x;
        int64_t lo = ds ? -((int64_t)1 << (db - 1)) : 0;
        int64_t hi = ds ? ((int64_t)1 << (db - 1)) - 1 : ((int64_t)1 << db) - 1;
        if (sat)
            v = v < lo ? lo : v > hi ? hi : v;
        uint32_t r = (uint32_t)v;
        if (db < 32) {
            r &= (1u << db) - 1;
            if (ds && (r >> (db - 1)))
                r |= ~((1u << db) - 1);
        }
        a[l] = r;
    });
    ws_sass_dst(w, in, 0, exec, a);
    (void)fx;
    return 0;
}
