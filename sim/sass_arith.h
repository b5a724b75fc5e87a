/* sass_arith.h — private to the SASS value handlers (sass_alu.c, sass_fp.c, sass_conv.c):
 * operand-shape helpers for forms whose operand count varies (optional carry and predicate
 * operands), the shared predicate combine of ISETP/FSETP/DSETP/HSETP2, and the bit-exact
 * conversions between f32/f64 and the 16-bit float formats the handlers share. */
#ifndef WS_SIM_SASS_ARITH_H
#define WS_SIM_SASS_ARITH_H

#include <math.h>
#include "sim/sass_exec.h"

/* Functions that run under a directed rounding mode set with fesetround: tell gcc not to
 * move or fold floating-point operations across the mode change. */
#define WS_SASS_FENV __attribute__((optimize("rounding-math")))

#define WS_SASS_CANON_NAN32 0x7fffffffu /* what sm_70+ writes for an f32 NaN result */

static inline int ws_sa_is_pred(const ws_sass_inst *in, int k)
{
    return k < in->nopnd && (in->o[k].kind == WS_SO_P || in->o[k].kind == WS_SO_UP);
}

static inline int ws_sa_is_imm(const ws_sass_inst *in, int k)
{
    return k < in->nopnd && (in->o[k].kind == WS_SO_IMM || in->o[k].kind == WS_SO_FIMM);
}

/* Predicate operand k as a lane mask, or `dflt` when the operand is absent. */
static inline uint32_t ws_sa_pred_or(const ws_sass_warp *w, const ws_sass_inst *in, int k,
                                     uint32_t dflt)
{
    return ws_sa_is_pred(in, k) ? ws_sass_psrc(w, in, k) : dflt;
}

/* Operand k's immediate as an integer (LUT, shift amounts, selectors). */
static inline int64_t ws_sa_imm(const ws_sass_inst *in, int k)
{
    if (k >= in->nopnd)
        return 0;
    return in->o[k].kind == WS_SO_FIMM ? (int64_t)in->o[k].fimm : in->o[k].imm;
}

static inline float ws_sa_ftz(float x)
{
    return fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x;
}

static inline uint32_t ws_sa_f32bits(float f)
{
    uint32_t u;
    if (isnan(f))
        return WS_SASS_CANON_NAN32;
    memcpy(&u, &f, 4);
    return u;
}

static inline float ws_sa_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* Truth table of a 3-input LUT (LOP3/PLOP3) over 32 bit positions at once. */
static inline uint32_t ws_sa_lut3(uint32_t lut, uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t r = 0;
    for (int i = 0; i < 8; i++)
        if ((lut >> i) & 1)
            r |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
    return r;
}

/* ISETP/FSETP/DSETP/HSETP2: combines the comparison lanes `r` with the predicate source at
 * operand k (.AND/.OR/.XOR, default .AND) into destination 0, and the complement of `r`
 * combined the same way into destination 1. */
void ws_sass_setp_write(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, uint32_t r,
                        int k);
/* Comparison `cmp` (a ws_sass_mod CMP id) of two doubles, IEEE ordered/unordered. */
int ws_sass_fcmp(int cmp, double x, double y);

/* sass_conv.c: 16-bit float formats, round to nearest even (NaN -> canonical 0x7fff). */
float ws_sass_half_to_float(uint16_t h);
uint16_t ws_sass_double_to_half(double x);
float ws_sass_bf16_to_float(uint16_t h);
uint16_t ws_sass_double_to_bf16(double x);

#endif
