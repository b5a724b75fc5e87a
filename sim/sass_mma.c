/* sass_mma.c — the tensor-core tile multiply-add HMMA: D = A x B + C over the registers of
 * the whole warp. HMMA's register operands hold the fragments of PTX's mma.sync.aligned
 * m16n8k{4,8,16} (PTX ISA, "Matrix fragments for mma.m16n8k*"): with g = lane / 4 and
 * t = lane % 4,
 *   A (16 x K, row-major), f16/bf16 pairs: R+0 = A[g][2t..], R+1 = A[g+8][2t..],
 *       K = 16 also R+2 = A[g][2t+8..], R+3 = A[g+8][2t+8..];
 *       tf32, one a register: R+0 = A[g][t], R+1 = A[g+8][t], K = 8 also R+2 = A[g][t+4],
 *       R+3 = A[g+8][t+4];
 *   B (K x 8, column-major): R+0 = B[2t..][g], K = 16 also R+1 = B[2t+8..][g]; tf32:
 *       R+0 = B[t][g], K = 8 also R+1 = B[t+4][g];
 *   C, D (16 x 8): f32 R+0,R+1 = [g][2t], [g][2t+1], R+2,R+3 = [g+8][2t], [g+8][2t+1];
 *       f16 R+0 = [g][2t..] pair, R+1 = [g+8][2t..] pair.
 * ptxas's wmma::mma_sync on a 16x16x16 tile is two HMMA.16816 on these layouts (checked on
 * tests/sim/cu/mma.cu against a CPU product). The sums are the tensor core's own (tc_group):
 * not IEEE, and equal to an H200's bit for bit on 64 random tiles of each input type. */
#include <limits.h>
#include <math.h>
#include <string.h>
#include "sim/sass_arith.h"
#include "sim/sass_exec.h"

enum { IN_F16, IN_BF16, IN_TF32 };

static float in_value(uint32_t word, int half, int kind)
{
    if (kind == IN_TF32) { /* the 19 bits of tf32 in an f32 word: the low 13 are ignored */
        uint32_t b = word & 0xffffe000u;
        float f;
        memcpy(&f, &b, sizeof f);
        return f;
    }
    uint16_t h = (uint16_t)(half ? word >> 16 : word);
    return kind == IN_BF16 ? ws_sass_bf16_to_float(h) : ws_sass_half_to_float(h);
}

/* x's exponent with its significand in [1, 2) */
static int exp_of(double x)
{
    int e;
    frexp(x, &e);
    return e - 1;
}

/* c + a[0] b[0] + ... + a[n-1] b[n-1] as the tensor core adds them (fitted to an H200 on
 * 64 random 16x16 tiles of each input type, exponents spread over 2^-15..2^16: every
 * output equal; tests/gpu/mma_numerics.spec): each product is exact; every term is aligned
 * to the largest exponent among the products' (a's plus b's, not renormalized) and c's,
 * and truncated toward zero 25 bits below it; the truncated terms are summed exactly. A
 * NaN or infinite input gives the IEEE sum. */
static double tc_group(const float *a, const float *b, int bstride, int n, double c)
{
    int emax = INT_MIN, finite = isfinite(c);
    for (int i = 0; i < n; i++) {
        double x = a[i], y = b[i * bstride];
        finite &= isfinite(x) && isfinite(y);
        if (x != 0 && y != 0 && exp_of(x) + exp_of(y) > emax)
            emax = exp_of(x) + exp_of(y);
    }
    if (c != 0 && exp_of(c) > emax)
        emax = exp_of(c);
    double s = 0;
    if (finite && emax != INT_MIN) {
        double ulp = ldexp(1.0, emax - 25);
        s = trunc(c / ulp) * ulp;
        for (int i = 0; i < n; i++)
            s += trunc((double)a[i] * (double)b[i * bstride] / ulp) * ulp;
        if (s != 0)
            return s;
    }
    /* non-finite inputs, or a sum that cancelled to zero: IEEE's value (and zero's sign) */
    double exact = c;
    for (int i = 0; i < n; i++)
        exact += (double)a[i] * (double)b[i * bstride];
    return s == 0 && finite && emax != INT_MIN ? 0.0 * exact : exact;
}

/* s rounded toward zero to f32 (a sum past FLT_MAX gives FLT_MAX) */
static float to_f32_rz(double s)
{
    float f = (float)s;
    if (isfinite(s) && fabs((double)f) > fabs(s))
        f = nextafterf(f, 0.0f);
    return f;
}

/* A tensor-core tile runs on the whole warp: the fault for one run by fewer lanes. */
static int part_warp(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, const char *op)
{
    return ws_sass_fault(w, in, __builtin_ctz(exec), 0, WS_ERR_SIM, "%s with lanes 0x%08x: a "
                         "tensor-core tile needs all 32 lanes of the warp (mma.sync is "
                         ".aligned)", op, exec);
}

static uint32_t row(const ws_sass_warp *w, int reg, int i, int lane)
{
    return reg < 0 || reg == WS_SASS_RZ ? 0u : ws_sass_rrow(w, reg + i)[lane];
}

int ws_sass_x_hmma(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    (void)fx;
    if (!exec)
        return 0;
    if (exec != WS_FULL_MASK)
        return part_warp(w, in, exec, "HMMA");
    int k = ws_sass_has(in, WS_SMOD_M16816) ? 16 : ws_sass_has(in, WS_SMOD_M1688) ? 8
          : ws_sass_has(in, WS_SMOD_M1684) ? 4 : 0;
    int kind = in->stype == WS_SMOD_BF16 ? IN_BF16 : in->stype == WS_SMOD_TF32 ? IN_TF32
             : IN_F16;
    int f16acc = in->dtype == WS_SMOD_F16;
    int known = kind == IN_TF32 ? (k == 4 || k == 8) && !f16acc
              : (k == 8 || k == 16) && !(f16acc && kind == IN_BF16);
    if (!known || in->nopnd != 4)
        return ws_sass_fault(w, in, 0, 0, WS_ERR_UNSUPPORTED,
                             "unsupported HMMA shape or types (16816, 1688 with F32/F16 "
                             "accumulators over F16 or BF16, 1684/1688 over TF32 are known)");
    int rd = in->o[0].reg, ra = in->o[1].reg, rb = in->o[2].reg, rc = in->o[3].reg;
    float a[16][16], b[16][8], c[16][8];
    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    for (int l = 0; l < WS_WARP; l++) {
        int g = l >> 2, t = l & 3;
        if (kind == IN_TF32) {
            a[g][t] = in_value(row(w, ra, 0, l), 0, kind);
            a[g + 8][t] = in_value(row(w, ra, 1, l), 0, kind);
            b[t][g] = in_value(row(w, rb, 0, l), 0, kind);
            if (k == 8) {
                a[g][t + 4] = in_value(row(w, ra, 2, l), 0, kind);
                a[g + 8][t + 4] = in_value(row(w, ra, 3, l), 0, kind);
                b[t + 4][g] = in_value(row(w, rb, 1, l), 0, kind);
            }
        } else {
            for (int i = 0; i < 2; i++) {
                a[g][2 * t + i] = in_value(row(w, ra, 0, l), i, kind);
                a[g + 8][2 * t + i] = in_value(row(w, ra, 1, l), i, kind);
                b[2 * t + i][g] = in_value(row(w, rb, 0, l), i, kind);
                if (k == 16) {
                    a[g][2 * t + 8 + i] = in_value(row(w, ra, 2, l), i, kind);
                    a[g + 8][2 * t + 8 + i] = in_value(row(w, ra, 3, l), i, kind);
                    b[2 * t + 8 + i][g] = in_value(row(w, rb, 1, l), i, kind);
                }
            }
        }
        for (int i = 0; i < 2; i++) {
            if (f16acc) {
                c[g][2 * t + i] = in_value(row(w, rc, 0, l), i, IN_F16);
                c[g + 8][2 * t + i] = in_value(row(w, rc, 1, l), i, IN_F16);
            } else {
                uint32_t lo = row(w, rc, i, l), hi = row(w, rc, 2 + i, l);
                memcpy(&c[g][2 * t + i], &lo, sizeof lo);
                memcpy(&c[g + 8][2 * t + i], &hi, sizeof hi);
            }
        }
    }
    /* the whole K at once for f16 and bf16; tf32 in groups of 4, each group's sum rounded
     * toward zero to f32 before the next; the f32 result rounded toward zero, an f16 one to
     * nearest */
    double d[16][8];
    int grp = kind == IN_TF32 ? 4 : k;
    for (int m = 0; m < 16; m++)
        for (int n = 0; n < 8; n++) {
            double s = c[m][n];
            for (int x = 0; x < k; x += grp) {
                s = tc_group(&a[m][x], &b[x][n], 8, grp, s);
                if (!f16acc || x + grp < k)
                    s = to_f32_rz(s);
            }
            d[m][n] = s;
        }
    int ndst = f16acc ? 2 : 4;
    if (rd == WS_SASS_RZ || rd < 0)
        return 0;
    if (rd + ndst > w->nregs)
        return ws_sass_fault(w, in, 0, 0, WS_ERR_SIM, "HMMA writes R%d..R%d, past the kernel's "
                             "%d registers", rd, rd + ndst - 1, w->nregs);
    for (int l = 0; l < WS_WARP; l++) {
        int g = l >> 2, t = l & 3;
        uint32_t *r = w->r + (size_t)rd * WS_WARP + l;
        if (f16acc) {
            for (int h = 0; h < 2; h++)
                r[(size_t)h * WS_WARP] =
                    (uint32_t)ws_sass_double_to_half(d[g + 8 * h][2 * t]) |
                    (uint32_t)ws_sass_double_to_half(d[g + 8 * h][2 * t + 1]) << 16;
        } else {
            for (int i = 0; i < 4; i++) {
                float f = (float)d[g + 8 * (i >> 1)][2 * t + (i & 1)]; /* exact: already f32 */
                memcpy(&r[(size_t)i * WS_WARP], &f, sizeof f);
            }
        }
    }
    return 0;
}

/* IMMA.16816 / .16832 over 8-bit integers (mma.m16n8k{16,32}.s32.{u8,s8}.{u8,s8}): A holds
 * four bytes of a row per register (R+0 = A[g][4t..4t+3], R+1 = A[g+8][4t..], k = 32 also
 * R+2, R+3 at columns 16 + 4t..), B four of a column (R+0 = B[4t..4t+3][g], k = 32 also R+1
 * at rows 16 + 4t..), C and D are s32 in the f32 layout above. The first type is A's, the
 * second B's; the sums wrap as the s32 adds of the hardware do (.SAT is not modelled). */
int ws_sass_x_imma(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    (void)fx;
    if (!exec)
        return 0;
    if (exec != WS_FULL_MASK)
        return part_warp(w, in, exec, "IMMA");
    int k = ws_sass_has(in, WS_SMOD_M16816) ? 16 : ws_sass_has(in, WS_SMOD_M16832) ? 32 : 0;
    int as = in->dtype == WS_SMOD_S8, bs = in->stype == WS_SMOD_S8;
    int known = k && (in->dtype == WS_SMOD_U8 || as) && (in->stype == WS_SMOD_U8 || bs) &&
                !ws_sass_has(in, WS_SMOD_SAT) && in->nopnd == 4;
    if (!known)
        return ws_sass_fault(w, in, 0, 0, WS_ERR_UNSUPPORTED,
                             "unsupported IMMA shape or types (16816 and 16832 over U8/S8 into "
                             "S32 are known)");
    int rd = in->o[0].reg, ra = in->o[1].reg, rb = in->o[2].reg, rc = in->o[3].reg;
    int32_t a[16][32], b[32][8];
    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    for (int l = 0; l < WS_WARP; l++) {
        int g = l >> 2, t = l & 3;
        for (int h = 0; h < k / 16; h++)
            for (int i = 0; i < 4; i++) {
                uint32_t x0 = row(w, ra, 2 * h, l) >> 8 * i & 0xffu;
                uint32_t x1 = row(w, ra, 2 * h + 1, l) >> 8 * i & 0xffu;
                uint32_t y = row(w, rb, h, l) >> 8 * i & 0xffu;
                a[g][16 * h + 4 * t + i] = as ? (int8_t)x0 : (int32_t)x0;
                a[g + 8][16 * h + 4 * t + i] = as ? (int8_t)x1 : (int32_t)x1;
                b[16 * h + 4 * t + i][g] = bs ? (int8_t)y : (int32_t)y;
            }
    }
    if (rd == WS_SASS_RZ || rd < 0)
        return 0;
    if (rd + 4 > w->nregs)
        return ws_sass_fault(w, in, 0, 0, WS_ERR_SIM, "IMMA writes R%d..R%d, past the kernel's "
                             "%d registers", rd, rd + 3, w->nregs);
    uint32_t out[4][WS_WARP];
    for (int l = 0; l < WS_WARP; l++) {
        int g = l >> 2, t = l & 3;
        for (int i = 0; i < 4; i++) {
            int m = g + 8 * (i >> 1), n = 2 * t + (i & 1);
            uint32_t s = row(w, rc, i, l);
            for (int x = 0; x < k; x++)
                s += (uint32_t)(a[m][x] * b[x][n]);
            out[i][l] = s;
        }
    }
    for (int i = 0; i < 4; i++)
        memcpy(w->r + (size_t)(rd + i) * WS_WARP, out[i], sizeof out[i]);
    return 0;
}

/* DMMA.8x8x4 (mma.m8n8k4.f64): R+0:R+1 = A[g][t], R+0:R+1 of B = B[t][g], C and D pairs
 * R+0:1 = [g][2t], R+2:3 = [g][2t+1]. Each element is C plus the four products, fused in
 * k order. */
int ws_sass_x_dmma(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    (void)fx;
    if (!exec)
        return 0;
    if (exec != WS_FULL_MASK)
        return part_warp(w, in, exec, "DMMA");
    if (!ws_sass_has(in, WS_SMOD_M884) || in->nopnd != 4)
        return ws_sass_fault(w, in, 0, 0, WS_ERR_UNSUPPORTED,
                             "unsupported DMMA shape (DMMA.8x8x4 is known)");
    int rd = in->o[0].reg, ra = in->o[1].reg, rb = in->o[2].reg, rc = in->o[3].reg;
    double a[8][4], b[4][8], c[8][8];
    for (int l = 0; l < WS_WARP; l++) {
        int g = l >> 2, t = l & 3;
        uint64_t x = (uint64_t)row(w, ra, 0, l) | (uint64_t)row(w, ra, 1, l) << 32;
        uint64_t y = (uint64_t)row(w, rb, 0, l) | (uint64_t)row(w, rb, 1, l) << 32;
        memcpy(&a[g][t], &x, sizeof x);
        memcpy(&b[t][g], &y, sizeof y);
        for (int i = 0; i < 2; i++) {
            uint64_t z = (uint64_t)row(w, rc, 2 * i, l) | (uint64_t)row(w, rc, 2 * i + 1, l) << 32;
            memcpy(&c[g][2 * t + i], &z, sizeof z);
        }
    }
    if (rd == WS_SASS_RZ || rd < 0)
        return 0;
    if (rd + 4 > w->nregs)
        return ws_sass_fault(w, in, 0, 0, WS_ERR_SIM, "DMMA writes R%d..R%d, past the kernel's "
                             "%d registers", rd, rd + 3, w->nregs);
    for (int l = 0; l < WS_WARP; l++) {
        int g = l >> 2, t = l & 3;
        for (int i = 0; i < 2; i++) {
            double s = c[g][2 * t + i];
            for (int x = 0; x < 4; x++)
                s = fma(a[g][x], b[x][2 * t + i], s);
            uint64_t z;
            memcpy(&z, &s, sizeof z);
            w->r[(size_t)(rd + 2 * i) * WS_WARP + l] = (uint32_t)z;
            w->r[(size_t)(rd + 2 * i + 1) * WS_WARP + l] = (uint32_t)(z >> 32);
        }
    }
    return 0;
}

/* MOVM.16.MT88 Rd, Ra (movmatrix.sync.aligned.m8n8.trans.b16): the warp's 8x8 matrix of
 * 16-bit elements, lane l holding row l/4's elements 2(l%4) and 2(l%4)+1 (low half first),
 * transposed in the same layout: lane l receives column l/4's elements from rows 2(l%4) and
 * 2(l%4)+1. Like ldmatrix, it needs every lane of the warp. */
int ws_sass_x_movm(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    (void)fx;
    if (!exec)
        return 0;
    if (!ws_sass_has(in, WS_SMOD_W16) || !ws_sass_has(in, WS_SMOD_MT88))
        return ws_sass_fault(w, in, __builtin_ctz(exec), 0, WS_ERR_UNSUPPORTED,
                             "unsupported MOVM form (MOVM.16.MT88 is known)");
    if (exec != WS_FULL_MASK)
        return ws_sass_fault(w, in, __builtin_ctz(exec), 0, WS_ERR_SIM, "MOVM with lanes "
                             "0x%08x: movmatrix needs all 32 lanes of the warp", exec);
    uint32_t a[WS_WARP], d[WS_WARP];
    ws_sass_src(w, in, 1, exec, a);
    for (int l = 0; l < WS_WARP; l++) {
        int row = l >> 2, c0 = 2 * (l & 3);
        uint32_t lo = a[4 * c0 + (row >> 1)] >> 16 * (row & 1) & 0xffffu;       /* M[c0][row] */
        uint32_t hi = a[4 * (c0 + 1) + (row >> 1)] >> 16 * (row & 1) & 0xffffu; /* M[c0+1][row] */
        d[l] = lo | hi << 16;
    }
    ws_sass_dst(w, in, 0, exec, d);
    return 0;
}
