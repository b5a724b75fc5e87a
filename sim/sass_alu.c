/* sass_alu.c — SASS integer, logic and predicate semantics (sm_70..sm_90, as nvdisasm prints
 * them): IADD3/IMAD with carry predicates, LOP3/PLOP3 truth tables, ISETP with .EX chains,
 * funnel shifts, LEA, PRMT, bit counting, moves. The uniform rows (UIADD3, ULOP3, ...) share
 * these handlers: the operand helpers broadcast UR sources and write UR/UP destinations.
 * Floating point is in sass_fp.c, conversions in sass_conv.c. */
#include "sim/sass_arith.h"

#define SRC(k, v) ws_sass_src(w, in, (k), exec, (v))

/* x as a 33-bit addend: `-x` is ~x + 1, as the adder does it, so `a + -b` carries out
 * exactly when a >= b (no borrow), which is what the following .X instruction expects. */
static inline uint64_t addend(uint32_t x, int neg)
{
    return neg ? (uint64_t)(uint32_t)~x + 1 : x;
}

/* Writes carry-out predicates k..k+n-1 from per-lane carry counts (0..3): with two
 * destinations the first is set for a carry of at least 1 and the second for 2, so that
 * an IADD3.X that adds both gets the whole carry back. */
static void write_carries(ws_sass_warp *w, const ws_sass_inst *in, int k, int n, uint32_t exec,
                          const uint8_t carry[WS_WARP])
{
    uint32_t c1 = 0, c2 = 0;
    WS_LANES(l, exec, {
        c1 |= (uint32_t)(carry[l] >= 1) << l;
        c2 |= (uint32_t)(carry[l] >= 2) << l;
    });
    if (n >= 1)
        ws_sass_pdst(w, in, k, exec, c1);
    if (n >= 2)
        ws_sass_pdst(w, in, k + 1, exec, c2);
}

/* Counts the predicate operands from k on. */
static int npreds(const ws_sass_inst *in, int k)
{
    int n = 0;
    while (ws_sa_is_pred(in, k + n))
        n++;
    return n;
}

/* IADD3 Rd, [Pc0, [Pc1,]] a, b, c [, Pcin0, Pcin1]   (.X reads the carry-in predicates; a
 * 128-bit three-operand subtraction has both pairs: IADD3.X R2, P0, P1, R0, -0x1, ~R3, P1, P0) */
int ws_sass_x_iadd3(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    int nout = npreds(in, 1), s = 1 + nout;
    if (ws_sass_has(in, WS_SMOD_B64)) { /* UIADD3.64 UR4, UR4, 0xf00, URZ: on register pairs */
        if (nout || in->nopnd != 4)
            return ws_sass_fault(w, in, exec ? __builtin_ctz(exec) : 0, 0, WS_ERR_UNSUPPORTED,
                                 "unsupported IADD3.64 form (three pair sources, no carries)");
        uint64_t x[WS_WARP], y[WS_WARP], z[WS_WARP];
        ws_sass_src64(w, in, 1, exec, x);
        ws_sass_src64(w, in, 2, exec, y);
        ws_sass_src64(w, in, 3, exec, z);
        WS_LANES(l, exec, x[l] = (in->o[1].neg ? -x[l] : x[l]) + (in->o[2].neg ? -y[l] : y[l]) +
                                 (in->o[3].neg ? -z[l] : z[l]););
        ws_sass_dst64(w, in, 0, exec, x);
        (void)fx;
        return 0;
    }
    uint32_t a[WS_WARP], b[WS_WARP], c[WS_WARP], d[WS_WARP];
    uint8_t carry[WS_WARP];
    SRC(s, a);
    SRC(s + 1, b);
    SRC(s + 2, c);
    int na = in->o[s].neg, nb = in->o[s + 1].neg, nc = in->o[s + 2].neg;
    uint32_t ci0 = ws_sa_pred_or(w, in, s + 3, 0), ci1 = ws_sa_pred_or(w, in, s + 4, 0);
    WS_LANES(l, exec, {
        uint64_t sum = addend(a[l], na) + addend(b[l], nb) + addend(c[l], nc) +
                       ((ci0 >> l) & 1) + ((ci1 >> l) & 1);
        d[l] = (uint32_t)sum;
        carry[l] = (uint8_t)(sum >> 32);
    });
    ws_sass_dst(w, in, 0, exec, d);
    write_carries(w, in, 1, nout, exec, carry);
    (void)fx;
    return 0;
}

/* IMAD[.WIDE|.HI][.U32][.X] Rd, [Pc,] a, b, [c,] [Pcin]. IMAD.MOV/.SHL/.IADD are the same
 * multiply-add with RZ or 1 operands. .WIDE: the 64-bit product plus the 64-bit pair c;
 * .HI: the high word of that sum (ptxas zeroes c's low register first to add c's high
 * register to the high product). IMUL has no c. */
int ws_sass_x_imad(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    int nout = npreds(in, 1), s = 1 + nout;
    int has_c = s + 2 < in->nopnd && !ws_sa_is_pred(in, s + 2);
    int wide = ws_sass_has(in, WS_SMOD_WIDE), hi = ws_sass_has(in, WS_SMOD_HI);
    int sgn = !ws_sass_has(in, WS_SMOD_U32);
    uint32_t a[WS_WARP], b[WS_WARP];
    uint64_t c[WS_WARP], r[WS_WARP];
    uint8_t carry[WS_WARP];
    SRC(s, a);
    SRC(s + 1, b);
    ws_sass_int_mods(in, s, exec, a);
    ws_sass_int_mods(in, s + 1, exec, b);
    if (!wide && !hi && nout == 0 && !ws_sass_has(in, WS_SMOD_X)) {
        /* the common 32-bit a * b + c with no carries: one loop over all lanes */
        uint32_t c32[WS_WARP], d[WS_WARP];
        if (has_c) {
            SRC(s + 2, c32);
            ws_sass_int_mods(in, s + 2, exec, c32);
        } else {
            memset(c32, 0, sizeof c32);
        }
        for (int l = 0; l < WS_WARP; l++)
            d[l] = a[l] * b[l] + c32[l];
        ws_sass_dst(w, in, 0, exec, d);
        (void)fx;
        return 0;
    }
    uint32_t cin = ws_sa_pred_or(w, in, s + 2 + has_c, 0);
    if (!has_c) {
        WS_LANES(l, exec, c[l] = 0;);
    } else if (wide || hi) {
        ws_sass_src64(w, in, s + 2, exec, c);
        if (in->o[s + 2].neg)
            WS_LANES(l, exec, c[l] = 0 - c[l];);
    } else {
        uint32_t c32[WS_WARP];
        SRC(s + 2, c32);
        ws_sass_int_mods(in, s + 2, exec, c32);
        WS_LANES(l, exec, c[l] = c32[l];);
    }
    if (wide || hi) {
        WS_LANES(l, exec, {
            uint64_t p = sgn ? (uint64_t)((int64_t)(int32_t)a[l] * (int32_t)b[l])
                             : (uint64_t)a[l] * b[l];
            unsigned __int128 t = (unsigned __int128)p + c[l] + ((cin >> l) & 1);
            r[l] = (uint64_t)t;
            carry[l] = (uint8_t)(t >> 64);
            if (hi) /* bits 32..63 of the 64-bit sum; its carry is bit 64 as for .WIDE */
                r[l] >>= 32;
        });
    } else {
        WS_LANES(l, exec, {
            uint64_t t = (uint64_t)(uint32_t)(a[l] * b[l]) + (uint32_t)c[l] + ((cin >> l) & 1);
            r[l] = (uint32_t)t;
            carry[l] = (uint8_t)(t >> 32);
        });
    }
    if (wide) {
        ws_sass_dst64(w, in, 0, exec, r);
    } else {
        uint32_t d[WS_WARP];
        WS_LANES(l, exec, d[l] = (uint32_t)r[l];);
        ws_sass_dst(w, in, 0, exec, d);
    }
    write_carries(w, in, 1, nout, exec, carry);
    (void)fx;
    return 0;
}

/* VIADD Rd, a, b */
int ws_sass_x_viadd(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    uint32_t a[WS_WARP], b[WS_WARP];
    SRC(1, a);
    SRC(2, b);
    if (ws_sass_has(in, WS_SMOD_X16X2)) { /* VIADD.16x2: each half negates and wraps alone */
        ws_sass_int_mods16x2(in, 1, exec, a);
        ws_sass_int_mods16x2(in, 2, exec, b);
        WS_LANES(l, exec, a[l] = (((a[l] & 0xffffu) + (b[l] & 0xffffu)) & 0xffffu) |
                                 ((a[l] >> 16) + (b[l] >> 16)) << 16;);
    } else {
        ws_sass_int_mods(in, 1, exec, a);
        ws_sass_int_mods(in, 2, exec, b);
        WS_LANES(l, exec, a[l] += b[l];);
    }
    ws_sass_dst(w, in, 0, exec, a);
    (void)fx;
    return 0;
}

/* min (pick true) or max of x and y, signed unless .U32 */
static inline uint32_t minmax(uint32_t x, uint32_t y, int pick_min, int sgn)
{
    int lt = sgn ? (int32_t)x < (int32_t)y : x < y;
    return lt == pick_min ? x : y;
}

/* One 32-bit or two 16-bit (.S16x2/.U16x2) min/max of x and y, .RELU clamping a negative
 * result to 0. */
static inline uint32_t minmax_form(const ws_sass_inst *in, uint32_t x, uint32_t y, int pick_min)
{
    int relu = ws_sass_has(in, WS_SMOD_RELU);
    if (in->dtype == WS_SMOD_S16X2 || in->dtype == WS_SMOD_U16X2) {
        int sgn = in->dtype == WS_SMOD_S16X2;
        uint32_t r = 0;
        for (int k = 0; k < 32; k += 16) {
            int32_t a = sgn ? (int16_t)(x >> k) : (int32_t)(uint16_t)(x >> k);
            int32_t b = sgn ? (int16_t)(y >> k) : (int32_t)(uint16_t)(y >> k);
            int32_t v = (a < b) == pick_min ? a : b;
            r |= ((uint32_t)(relu && v < 0 ? 0 : v) & 0xffffu) << k;
        }
        return r;
    }
    int sgn = !ws_sass_has(in, WS_SMOD_U32);
    uint32_t v = minmax(x, y, pick_min, sgn);
    return relu && sgn && (int32_t)v < 0 ? 0 : v;
}

/* IMNMX/VIMNMX/UIMNMX Rd, a, b, P: P ? min : max; VIMNMX3 Rd, a, b, c, P over three */
int ws_sass_x_imnmx(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    uint32_t a[WS_WARP], b[WS_WARP], c[WS_WARP];
    int three = in->op == WS_SOP_VIMNMX3;
    void (*mods)(const ws_sass_inst *, int, uint32_t, uint32_t *) =
        in->dtype == WS_SMOD_S16X2 || in->dtype == WS_SMOD_U16X2 ? ws_sass_int_mods16x2
                                                                 : ws_sass_int_mods;
    SRC(1, a);
    SRC(2, b);
    mods(in, 1, exec, a);
    mods(in, 2, exec, b);
    if (three) {
        SRC(3, c);
        mods(in, 3, exec, c);
    }
    uint32_t pmin = ws_sa_pred_or(w, in, three ? 4 : 3, WS_FULL_MASK);
    WS_LANES(l, exec, {
        int pm = (pmin >> l) & 1;
        a[l] = minmax_form(in, a[l], b[l], pm);
        if (three)
            a[l] = minmax_form(in, a[l], c[l], pm);
    });
    ws_sass_dst(w, in, 0, exec, a);
    (void)fx;
    return 0;
}

/* IDP.4A.Ta.Tb Rd, a, b, c (dp4a) and IDP.2A.LO|HI.Ta.Tb (dp2a): ws_dot_product (exec.h).
 * Ta/Tb: U8/S8 (4A) or U16/S16 and U8/S8 (2A). */
int ws_sass_x_idp(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    int two = ws_sass_has(in, WS_SMOD_DP2);
    int ok = two ? (in->dtype == WS_SMOD_U16 || in->dtype == WS_SMOD_S16)
                 : ws_sass_has(in, WS_SMOD_DP4) && (in->dtype == WS_SMOD_U8 ||
                                                    in->dtype == WS_SMOD_S8);
    if (!ok || (in->stype != WS_SMOD_U8 && in->stype != WS_SMOD_S8))
        return ws_sass_fault(w, in, exec ? __builtin_ctz(exec) : 0, 0, WS_ERR_UNSUPPORTED,
                             "unsupported IDP form (IDP.4A and IDP.2A over U8/S8 are known)");
    uint32_t a[WS_WARP], b[WS_WARP], c[WS_WARP];
    SRC(1, a);
    SRC(2, b);
    SRC(3, c);
    int sa = in->dtype == WS_SMOD_S8 || in->dtype == WS_SMOD_S16, sb = in->stype == WS_SMOD_S8;
    int hi = ws_sass_has(in, WS_SMOD_HI);
    WS_LANES(l, exec, c[l] = ws_dot_product(a[l], b[l], c[l], sa, sb, two, hi););
    ws_sass_dst(w, in, 0, exec, c);
    (void)fx;
    return 0;
}

/* VIADDMNMX Rd, a, b, c, P: P ? min(a + b, c) : max(a + b, c) */
int ws_sass_x_viaddmnmx(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    uint32_t a[WS_WARP], b[WS_WARP], c[WS_WARP];
    SRC(1, a);
    SRC(2, b);
    SRC(3, c);
    int x2 = in->dtype == WS_SMOD_S16X2 || in->dtype == WS_SMOD_U16X2;
    void (*mods)(const ws_sass_inst *, int, uint32_t, uint32_t *) =
        x2 ? ws_sass_int_mods16x2 : ws_sass_int_mods;
    mods(in, 1, exec, a);
    mods(in, 2, exec, b);
    mods(in, 3, exec, c);
    uint32_t pmin = ws_sa_pred_or(w, in, 4, WS_FULL_MASK);
    WS_LANES(l, exec, {
        uint32_t sum = x2 ? ((a[l] + b[l]) & 0xffffu) | ((a[l] >> 16) + (b[l] >> 16)) << 16
                          : a[l] + b[l]; /* .S16x2/.U16x2: each half wraps on its own */
        a[l] = minmax_form(in, sum, c[l], (pmin >> l) & 1); /* .RELU: max(0, ...) */
    });
    ws_sass_dst(w, in, 0, exec, a);
    (void)fx;
    return 0;
}

/* VABSDIFF[.U32] Rd, a, b [, c]: |a - b| + c (__sad / __usad) */
int ws_sass_x_vabsdiff(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    uint32_t a[WS_WARP], b[WS_WARP], c[WS_WARP] = {0};
    SRC(1, a);
    SRC(2, b);
    if (in->nopnd > 3)
        SRC(3, c);
    int sgn = !ws_sass_has(in, WS_SMOD_U32);
    WS_LANES(l, exec, {
        int gt = sgn ? (int32_t)a[l] > (int32_t)b[l] : a[l] > b[l];
        a[l] = (gt ? a[l] - b[l] : b[l] - a[l]) + c[l];
    });
    ws_sass_dst(w, in, 0, exec, a);
    (void)fx;
    return 0;
}

/* IABS Rd, a (INT_MIN stays INT_MIN) */
int ws_sass_x_iabs(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    uint32_t a[WS_WARP];
    SRC(1, a);
    WS_LANES(l, exec, a[l] = (int32_t)a[l] < 0 ? 0u - a[l] : a[l];);
    ws_sass_dst(w, in, 0, exec, a);
    (void)fx;
    return 0;
}

/* LOP3.LUT [Pd,] Rd, a, b, c, lut, Pq: Rd = lut(a, b, c) bitwise; Pd = (Rd != 0) OR Pq, or
 * AND Pq with .PAND (PTX lop3.BoolOp). */
int ws_sass_x_lop3(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    int pd = ws_sa_is_pred(in, 0), s = pd ? 2 : 1;
    uint32_t a[WS_WARP], b[WS_WARP], c[WS_WARP];
    SRC(s, a);
    SRC(s + 1, b);
    SRC(s + 2, c);
    uint32_t lut = (uint32_t)ws_sa_imm(in, s + 3) & 0xff, nz = 0, r[WS_WARP];
    if (in->o[s].kind != WS_SO_CBANK && in->o[s + 1].kind != WS_SO_CBANK &&
        in->o[s + 2].kind != WS_SO_CBANK) { /* minterm by minterm over all lanes: vectorizes */
        memset(r, 0, sizeof r);
        for (int i = 0; i < 8; i++) {
            if (!((lut >> i) & 1))
                continue;
            uint32_t na = (i & 4) ? 0 : ~0u, nb = (i & 2) ? 0 : ~0u, nc = (i & 1) ? 0 : ~0u;
            for (int l = 0; l < WS_WARP; l++)
                r[l] |= (a[l] ^ na) & (b[l] ^ nb) & (c[l] ^ nc);
        }
        for (int l = 0; l < WS_WARP; l++) {
            a[l] = r[l];
            nz |= (uint32_t)(r[l] != 0) << l;
        }
        nz &= exec;
    } else {
        WS_LANES(l, exec, {
            a[l] = ws_sa_lut3(lut, a[l], b[l], c[l]);
            nz |= (uint32_t)(a[l] != 0) << l;
        });
    }
    ws_sass_dst(w, in, s - 1, exec, a);
    if (pd) {
        uint32_t q = ws_sa_pred_or(w, in, s + 4, 0);
        ws_sass_pdst(w, in, 0, exec, ws_sass_has(in, WS_SMOD_PAND) ? nz & q : nz | q);
    }
    (void)fx;
    return 0;
}

/* PLOP3.LUT Pd0, Pd1, a, b, c, lut0, lut1: each destination its own truth table of the
 * three predicates (nvdisasm prints both tables; a lone table drives Pd0 only). */
int ws_sass_x_plop3(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    uint32_t a = ws_sass_psrc(w, in, 2), b = ws_sass_psrc(w, in, 3), c = ws_sass_psrc(w, in, 4);
    ws_sass_pdst(w, in, 0, exec, ws_sa_lut3((uint32_t)ws_sa_imm(in, 5) & 0xff, a, b, c));
    if (in->nopnd > 6)
        ws_sass_pdst(w, in, 1, exec, ws_sa_lut3((uint32_t)ws_sa_imm(in, 6) & 0xff, a, b, c));
    (void)fx;
    return 0;
}

void ws_sass_setp_write(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, uint32_t r, int k)
{
    uint32_t q = ws_sa_pred_or(w, in, k, WS_FULL_MASK), p0, p1;
    switch (in->boolop) {
    case WS_SMOD_OR: p0 = r | q; p1 = ~r | q; break;
    case WS_SMOD_XOR: p0 = r ^ q; p1 = ~r ^ q; break;
    default: p0 = r & q; p1 = ~r & q; break;
    }
    ws_sass_pdst(w, in, 0, exec, p0);
    if (ws_sa_is_pred(in, 1))
        ws_sass_pdst(w, in, 1, exec, p1);
}

static int icmp(int cmp, uint32_t x, uint32_t y, int sgn)
{
    int lt = sgn ? (int32_t)x < (int32_t)y : x < y, eq = x == y;
    switch (cmp) {
    case WS_SMOD_LT: return lt;
    case WS_SMOD_LE: return lt || eq;
    case WS_SMOD_GT: return !lt && !eq;
    case WS_SMOD_GE: return !lt;
    case WS_SMOD_EQ: return eq;
    case WS_SMOD_NE: return !eq;
    case WS_SMOD_T: return 1;
    default: return 0;
    }
}

/* The strict part of a comparison for the high word of an .EX chain. */
static int strict_cmp(int cmp)
{
    switch (cmp) {
    case WS_SMOD_LE: return WS_SMOD_LT;
    case WS_SMOD_GE: return WS_SMOD_GT;
    case WS_SMOD_EQ: return WS_SMOD_F;
    default: return cmp;
    }
}

/* ISETP.cmp[.U32].bool[.EX] Pd0, Pd1, a, b, Pq [, Pex]. Without .EX: Pd0 = (a cmp b) bool Pq,
 * Pd1 = !(a cmp b) bool Pq. With .EX (the high words of a 64-bit compare whose low words
 * were compared, unsigned, into Pex): a cmp b = strict(a, b) || (a == b && Pex), e.g.
 * ISETP.GE.U32.AND P0, PT, R2, R4, PT; ISETP.GE.AND.EX P0, PT, R3, R5, PT, P0 = R3:R2 >= R5:R4. */
int ws_sass_x_isetp(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    uint32_t a[WS_WARP], b[WS_WARP], r = 0;
    SRC(2, a);
    SRC(3, b);
    ws_sass_int_mods(in, 2, exec, a);
    ws_sass_int_mods(in, 3, exec, b);
    int sgn = !ws_sass_has(in, WS_SMOD_U32), cmp = in->cmp;
    if (ws_sass_has(in, WS_SMOD_EX)) {
        uint32_t ex = ws_sa_pred_or(w, in, 5, 0);
        int sc = strict_cmp(cmp);
        WS_LANES(l, exec, {
            int v = cmp == WS_SMOD_T ||
                    (cmp != WS_SMOD_F && (icmp(sc, a[l], b[l], sgn) ||
                                          (a[l] == b[l] && ((ex >> l) & 1))));
            r |= (uint32_t)v << l;
        });
    } else {
        WS_LANES(l, exec, r |= (uint32_t)icmp(cmp, a[l], b[l], sgn) << l;);
    }
    ws_sass_setp_write(w, in, exec, r, 4);
    (void)fx;
    return 0;
}

/* SHF.L|R[.W].U32|S32|U64|S64[.HI] Rd, lo, n, hi: shifts the 64-bit funnel hi:lo and keeps
 * the low word (or the high one with .HI). The shift amount wraps (.W) or clamps at the
 * type's width: 32 for 32-bit types, 64 for 64-bit ones, where ptxas splits a 64-bit shift
 * into SHF.L.U64.HI + SHF.L.U32 and relies on amounts of 32..63 reaching across words. */
int ws_sass_x_shf(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    uint32_t lo[WS_WARP], n[WS_WARP], hi[WS_WARP];
    SRC(1, lo);
    SRC(2, n);
    SRC(3, hi);
    int t = in->dtype, w64 = t == WS_SMOD_U64 || t == WS_SMOD_S64;
    int sgn = t == WS_SMOD_S32 || t == WS_SMOD_S64, left = ws_sass_has(in, WS_SMOD_L);
    int wrap = ws_sass_has(in, WS_SMOD_W), takehi = ws_sass_has(in, WS_SMOD_HI);
    uint32_t width = w64 ? 64 : 32;
    WS_LANES(l, exec, {
        uint32_t s = wrap ? n[l] & (width - 1) : (n[l] > width ? width : n[l]);
        uint64_t v = (uint64_t)hi[l] << 32 | lo[l], r;
        if (left)
            r = s >= 64 ? 0 : v << s;
        else if (sgn)
            r = (uint64_t)((int64_t)v >> (s >= 64 ? 63 : s));
        else
            r = s >= 64 ? 0 : v >> s;
        lo[l] = takehi ? (uint32_t)(r >> 32) : (uint32_t)r;
    });
    ws_sass_dst(w, in, 0, exec, lo);
    (void)fx;
    return 0;
}

/* SHL Rd, a, n / SHR[.U32] Rd, a, n (sm_70's single-word shifts; amounts clamp at 32) */
static int shift1(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, int left)
{
    uint32_t a[WS_WARP], n[WS_WARP];
    SRC(1, a);
    SRC(2, n);
    int wrap = ws_sass_has(in, WS_SMOD_W), sgn = !left && !ws_sass_has(in, WS_SMOD_U32);
    WS_LANES(l, exec, {
        uint32_t s = wrap ? n[l] & 31 : n[l];
        if (left)
            a[l] = s >= 32 ? 0 : a[l] << s;
        else if (sgn)
            a[l] = (uint32_t)((int32_t)a[l] >> (s >= 32 ? 31 : s));
        else
            a[l] = s >= 32 ? 0 : a[l] >> s;
    });
    ws_sass_dst(w, in, 0, exec, a);
    return 0;
}

int ws_sass_x_shl(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    (void)fx;
    return shift1(w, in, exec, 1);
}

int ws_sass_x_shr(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    (void)fx;
    return shift1(w, in, exec, 0);
}

/* LEA Rd, [Pc,] a, b, sh [, Pcin]:             Rd = (a << sh) + b (+ Pcin), Pc its carry
 * LEA.HI[.X] Rd, [Pc,] a, b, c, sh [, Pcin]:   Rd = b + hi32(c:a << sh) (+ Pcin)
 * LEA.HI[.X].SX32 Rd, a, b, sh [, Pcin]:       as .HI with c = the sign of a
 * The pair LEA Rlo, P0, i, base_lo, s; LEA.HI.X Rhi, i, base_hi, i_hi, s, P0 is base + i<<s. */
int ws_sass_x_lea(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    int nout = npreds(in, 1), s = 1 + nout, hi = ws_sass_has(in, WS_SMOD_HI);
    int sx = ws_sass_has(in, WS_SMOD_SX32), hasc = hi && !sx;
    int ksh = s + 2 + hasc;
    uint32_t a[WS_WARP], b[WS_WARP], c[WS_WARP], d[WS_WARP];
    uint8_t carry[WS_WARP];
    SRC(s, a);
    SRC(s + 1, b);
    ws_sass_int_mods(in, s, exec, a);
    if (hasc)
        SRC(s + 2, c);
    else
        WS_LANES(l, exec, c[l] = sx ? (uint32_t)((int32_t)a[l] >> 31) : 0;);
    uint32_t sh = (uint32_t)ws_sa_imm(in, ksh) & 31;
    uint32_t cin = ws_sa_pred_or(w, in, ksh + 1, 0);
    int nb = in->o[s + 1].neg;
    WS_LANES(l, exec, {
        uint32_t x = hi ? (uint32_t)((((uint64_t)c[l] << 32) | a[l]) << sh >> 32) : a[l] << sh;
        uint64_t t = (uint64_t)x + addend(b[l], nb) + ((cin >> l) & 1);
        d[l] = (uint32_t)t;
        carry[l] = (uint8_t)(t >> 32);
    });
    ws_sass_dst(w, in, 0, exec, d);
    write_carries(w, in, 1, nout, exec, carry);
    (void)fx;
    return 0;
}

/* PRMT Rd, a, sel, b: picks bytes of the 64-bit b:a (PTX prmt; modes .F4E .B4E .RC8 .ECL
 * .ECR .RC16 as in the PTX ISA). */
static uint32_t prmt1(uint32_t a, uint32_t b, uint32_t sel, int mode)
{
    uint64_t bytes = (uint64_t)b << 32 | a;
    uint32_t idx[4], s = sel & 3;
    switch (mode) {
    case WS_SMOD_F4E: for (int i = 0; i < 4; i++) idx[i] = (s + (uint32_t)i) & 7; break;
    case WS_SMOD_B4E: for (int i = 0; i < 4; i++) idx[i] = (s + 8 - (uint32_t)i) & 7; break;
    case WS_SMOD_RC8: for (int i = 0; i < 4; i++) idx[i] = s; break;
    case WS_SMOD_ECL: for (int i = 0; i < 4; i++) idx[i] = (uint32_t)i > s ? (uint32_t)i : s; break;
    case WS_SMOD_ECR: for (int i = 0; i < 4; i++) idx[i] = (uint32_t)i < s ? (uint32_t)i : s; break;
    case WS_SMOD_RC16: {
        uint32_t h = (sel & 1) * 2;
        idx[0] = h; idx[1] = h + 1; idx[2] = h; idx[3] = h + 1;
        break;
    }
    default: {
        uint32_t r = 0;
        for (int i = 0; i < 4; i++) {
            uint32_t n = (sel >> (4 * i)) & 0xf;
            uint32_t byte = (uint32_t)(bytes >> (8 * (n & 7))) & 0xff;
            if (n & 8) /* replicate the byte's sign */
                byte = (byte & 0x80) ? 0xff : 0;
            r |= byte << (8 * i);
        }
        return r;
    }
    }
    uint32_t r = 0;
    for (int i = 0; i < 4; i++)
        r |= (uint32_t)((bytes >> (8 * idx[i])) & 0xff) << (8 * i);
    return r;
}

int ws_sass_x_prmt(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    static const int modes[] = {WS_SMOD_F4E, WS_SMOD_B4E, WS_SMOD_RC8, WS_SMOD_ECL,
                                WS_SMOD_ECR, WS_SMOD_RC16};
    int mode = -1;
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
        if (ws_sass_has(in, modes[i]))
            mode = modes[i];
    uint32_t a[WS_WARP], sel[WS_WARP], b[WS_WARP];
    SRC(1, a);
    SRC(2, sel);
    SRC(3, b);
    WS_LANES(l, exec, a[l] = prmt1(a[l], b[l], sel[l], mode););
    ws_sass_dst(w, in, 0, exec, a);
    (void)fx;
    return 0;
}

/* SEL Rd, a, b, P: P ? a : b */
int ws_sass_x_sel(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    uint32_t a[WS_WARP], b[WS_WARP], p = ws_sass_psrc(w, in, 3);
    SRC(1, a);
    SRC(2, b);
    ws_sass_int_mods(in, 1, exec, a);
    ws_sass_int_mods(in, 2, exec, b);
    WS_LANES(l, exec, a[l] = ((p >> l) & 1) ? a[l] : b[l];);
    ws_sass_dst(w, in, 0, exec, a);
    (void)fx;
    return 0;
}

int ws_sass_x_popc(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    uint32_t a[WS_WARP];
    SRC(1, a);
    WS_LANES(l, exec, a[l] = (uint32_t)__builtin_popcount(a[l]););
    ws_sass_dst(w, in, 0, exec, a);
    (void)fx;
    return 0;
}

/* FLO[.U32|.S32][.SH] Rd, [Pd,] a: the position of the highest set bit (for .S32 of a
 * negative value, the highest clear one), or 0xffffffff when there is none; .SH gives the
 * shift that would bring it to bit 31 (__clz). Pd, when written, is set for a zero input. */
int ws_sass_x_flo(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    int pd = ws_sa_is_pred(in, 1), s = pd ? 2 : 1;
    int sgn = ws_sass_has(in, WS_SMOD_S32), sh = ws_sass_has(in, WS_SMOD_SH);
    uint32_t a[WS_WARP], zero = 0;
    SRC(s, a);
    WS_LANES(l, exec, {
        uint32_t x = sgn && (int32_t)a[l] < 0 ? ~a[l] : a[l];
        if (!x) {
            zero |= 1u << l;
            a[l] = 0xffffffffu;
        } else {
            uint32_t pos = 31u - (uint32_t)__builtin_clz(x);
            a[l] = sh ? 31u - pos : pos;
        }
    });
    ws_sass_dst(w, in, 0, exec, a);
    if (pd)
        ws_sass_pdst(w, in, 1, exec, zero);
    (void)fx;
    return 0;
}

int ws_sass_x_brev(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    uint32_t a[WS_WARP];
    SRC(1, a);
    WS_LANES(l, exec, {
        uint32_t x = a[l];
        x = (x >> 1 & 0x55555555u) | (x & 0x55555555u) << 1;
        x = (x >> 2 & 0x33333333u) | (x & 0x33333333u) << 2;
        x = (x >> 4 & 0x0f0f0f0fu) | (x & 0x0f0f0f0fu) << 4;
        x = (x >> 8 & 0x00ff00ffu) | (x & 0x00ff00ffu) << 8;
        a[l] = x >> 16 | x << 16;
    });
    ws_sass_dst(w, in, 0, exec, a);
    (void)fx;
    return 0;
}

/* BMSK[.W] Rd, pos, width: width ones from bit pos (PTX bmsk; clamp or .W wrap at 32) */
int ws_sass_x_bmsk(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    uint32_t a[WS_WARP], b[WS_WARP];
    SRC(1, a);
    SRC(2, b);
    int wrap = ws_sass_has(in, WS_SMOD_W);
    WS_LANES(l, exec, a[l] = ws_bit_mask(a[l], b[l], wrap););
    ws_sass_dst(w, in, 0, exec, a);
    (void)fx;
    return 0;
}

/* SGXT[.U32][.W] Rd, a, bits: sign- (or zero-, .U32) extends the low `bits` bits of a
 * (PTX szext: clamp or .W wrap at 32; 0 bits gives 0). */
int ws_sass_x_sgxt(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    uint32_t a[WS_WARP], b[WS_WARP];
    SRC(1, a);
    SRC(2, b);
    int wrap = ws_sass_has(in, WS_SMOD_W), sgn = !ws_sass_has(in, WS_SMOD_U32);
    WS_LANES(l, exec, {
        uint32_t n = wrap ? b[l] & 31 : (b[l] > 32 ? 32 : b[l]);
        if (n == 0)
            a[l] = 0;
        else if (n < 32)
            a[l] = sgn ? (uint32_t)((int32_t)(a[l] << (32 - n)) >> (32 - n))
                       : a[l] & ((1u << n) - 1);
    });
    ws_sass_dst(w, in, 0, exec, a);
    (void)fx;
    return 0;
}

/* The predicate file P0..P6 of each lane packed into bits 0..6 (PT is bit 7 = 1). */
static uint32_t packed_preds(const ws_sass_warp *w, int l)
{
    uint32_t r = 0;
    for (int i = 0; i < 8; i++)
        r |= ((w->p[i] >> l) & 1) << i;
    return r;
}

/* P2R Rd, PR, Rb, mask: Rd = (Rb & ~mask) | (P0..P6 packed & mask); UP2UR URd, UPR, URb,
 * mask: the same with the uniform predicates UP0..UP6 (ptxas saves one across a region). */
int ws_sass_x_p2r(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    uint32_t b[WS_WARP] = {0}, m[WS_WARP];
    int km = in->nopnd - 1, uni = in->o[1].kind == WS_SO_PR && in->o[1].reg == 1;
    if (in->nopnd > 3)
        SRC(2, b);
    SRC(km, m);
    WS_LANES(l, exec, {
        uint32_t preds = uni ? w->up : packed_preds(w, l);
        b[l] = (b[l] & ~m[l]) | (preds & m[l] & 0x7f);
    });
    ws_sass_dst(w, in, 0, exec, b);
    (void)fx;
    return 0;
}

/* R2P PR, Ra, mask: Pi = bit i of Ra for each bit i (0..6) of mask */
int ws_sass_x_r2p(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    uint32_t a[WS_WARP], m[WS_WARP];
    SRC(1, a);
    SRC(2, m);
    for (int i = 0; i < WS_SASS_PT; i++) {
        uint32_t set = 0, touch = 0;
        WS_LANES(l, exec, {
            touch |= ((m[l] >> i) & 1) << l;
            set |= ((a[l] >> i) & 1) << l;
        });
        w->p[i] = (w->p[i] & ~touch) | (set & touch);
    }
    (void)fx;
    return 0;
}

/* MOV Rd, a [, quad mask]: the optional mask says which lanes of each group of four write
 * (bit i for lane%4 == i; 0xf, the default, is a plain move). */
int ws_sass_x_mov(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    uint32_t a[WS_WARP];
    SRC(1, a);
    ws_sass_int_mods(in, 1, exec, a);
    if (in->nopnd > 2) {
        uint32_t q = (uint32_t)ws_sa_imm(in, 2) & 0xf, lanes = 0;
        for (int l = 0; l < WS_WARP; l++)
            lanes |= ((q >> (l & 3)) & 1u) << l;
        exec &= lanes;
    }
    ws_sass_dst(w, in, 0, exec, a);
    (void)fx;
    return 0;
}

/* R2UR URd, Ra: the value of the lowest executing lane (ws_sass_dst's rule for UR).
 * R2UR Pd, URd, Ra: also Pd, per lane, set where Ra differs from that value; R2UR.OR ors it
 * into Pd. ptxas builds "waterfall" loops on it for a value that must be uniform (a texture
 * handle, an mbarrier address: `@P1 R2UR P0, UR4, R10; @P1 R2UR.OR P0, UR5, R11; @P1 PLOP3
 * P1 = P0; ... @P1 BRA.U.ANY loop`: each trip serves the lanes that match the lowest
 * lane, and the rest go round again), and at sm_80..89 before a REDUX whose mask must be
 * the same in every lane (`R2UR P1, URZ, R6; @!P1 BRA.CONV`). */
int ws_sass_x_r2ur(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    uint32_t a[WS_WARP];
    int pd = ws_sa_is_pred(in, 0);
    SRC(in->nopnd - 1, a);
    ws_sass_dst(w, in, pd, exec, a);
    if (pd && exec) { /* the lanes whose value is not the one UR took (the lowest lane's) */
        uint32_t first = a[__builtin_ctz(exec)], differ = 0;
        WS_LANES(l, exec, differ |= (uint32_t)(a[l] != first) << l;);
        if (ws_sass_has(in, WS_SMOD_OR)) /* R2UR.OR: or'd into what P holds */
            differ |= w->p[in->o[0].reg] & exec;
        ws_sass_pdst(w, in, 0, exec, differ);
    }
    (void)fx;
    return 0;
}

/* VABSDIFF4.U8.ACC Rd, Ra, Rb, Rc (__vsadu4 and friends): the four byte-wise |a - b| of
 * unsigned bytes summed into c. */
int ws_sass_x_vabsdiff4(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec,
                        ws_sass_fx *fx)
{
    (void)fx;
    int acc = ws_sass_has(in, WS_SMOD_ACC);
    /* without .ACC each byte is its own difference; known only with c = RZ (what ptxas
       emits for __vabsdiffu4), where no rule for c is needed */
    if (in->dtype != WS_SMOD_U8 || (!acc && (in->o[3].kind != WS_SO_R ||
                                             in->o[3].reg != WS_SASS_RZ)))
        return ws_sass_fault(w, in, exec ? __builtin_ctz(exec) : 0, 0, WS_ERR_UNSUPPORTED,
                             "unsupported VABSDIFF4 form (VABSDIFF4.U8.ACC and VABSDIFF4.U8 "
                             "with c = RZ are known)");
    uint32_t a[WS_WARP], b[WS_WARP], c[WS_WARP], d[WS_WARP];
    ws_sass_src(w, in, 1, exec, a);
    ws_sass_src(w, in, 2, exec, b);
    ws_sass_src(w, in, 3, exec, c);
    WS_LANES(l, exec, {
        uint32_t s = c[l];
        for (int i = 0; i < 32; i += 8) {
            int x = (int)((a[l] >> i) & 0xffu), y = (int)((b[l] >> i) & 0xffu);
            uint32_t v = (uint32_t)(x > y ? x - y : y - x);
            s += acc ? v : v << i;
        }
        d[l] = s;
    });
    ws_sass_dst(w, in, 0, exec, d);
    return 0;
}

int ws_sass_x_nop(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    (void)w; (void)in; (void)exec; (void)fx;
    return 0;
}

/* MEMBAR, FENCE: the model's memory is in order; race detection notes the lanes that made
 * a fence (a global atomic after one publishes the CTA's writes, race.c) */
int ws_sass_x_membar(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    (void)in; (void)fx;
    w->fenced |= exec;
    return 0;
}
