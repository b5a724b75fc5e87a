/* exec_alu.c — arithmetic instruction semantics of the SIMT executor: integers of 8-64
 * bits with PTX wraparound and saturation, logic and bit manipulation, comparisons and
 * selects, IEEE f32/f64 with rounding modes, and cvt between every integer and float type.
 * Memory, control flow and warp-wide operations live in exec_mem.c and exec_ctrl.c. */
#include <fenv.h>
#include <math.h>
#include "sim/exec.h"

#define SRC(k) ws_x_src(w, in, (k), w->scratch[(k)])
/* Functions that run under a directed rounding mode set with fesetround: tell gcc not to
 * move or fold floating-point operations across the mode change. */
#define WS_FENV __attribute__((optimize("rounding-math")))

static int bits_of(ws_ptype t)
{
    int b = ws_ptype_bits(t);
    return b <= 0 ? 64 : b == 1 ? 1 : b;
}

static int fe_mode(int rnd)
{
    switch (rnd) {
    case WS_RND_RZ: case WS_RND_RZI: return FE_TOWARDZERO;
    case WS_RND_RM: case WS_RND_RMI: return FE_DOWNWARD;
    case WS_RND_RP: case WS_RND_RPI: return FE_UPWARD;
    default: return FE_TONEAREST;
    }
}

static float ftz32(float x)
{
    return fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x;
}

/* ---------------------------------------------------------------- integers */

static int64_t clamp_s(int64_t v, int bits)
{
    int64_t hi = bits >= 64 ? INT64_MAX : (int64_t)((1ull << (bits - 1)) - 1), lo = -hi - 1;
    return v > hi ? hi : v < lo ? lo : v;
}

static int int_add_sub(ws_warp *w, const ws_inst *in, uint32_t exec, int sub)
{
    const uint64_t *a = SRC(0), *b = SRC(1);
    uint64_t *d = ws_x_reg(w, in->dst[0].reg);
    int bits = bits_of((ws_ptype)in->type);
    int carry_in = ws_op_has(in->op, WS_OPF_CARRY_IN);
    if (in->flags & WS_F_SAT) {
        WS_LANES(l, exec, {
            int64_t x = ws_sext(a[l], 32), y = ws_sext(b[l], 32);
            d[l] = ws_trunc((uint64_t)clamp_s(sub ? x - y : x + y, 32), 32);
        });
        return 0;
    }
    if (!carry_in && !(in->flags & WS_F_CC)) {
        if (sub)
            WS_LANES(l, exec, d[l] = ws_trunc(a[l] - b[l], bits););
        else
            WS_LANES(l, exec, d[l] = ws_trunc(a[l] + b[l], bits););
        return 0;
    }
    /* One carry flag for both: sub.cc is a + ~b + 1 and subc a + ~b + CF, so the flag a
     * subtraction leaves is 1 where it did not borrow; ptxas builds them so (IADD3.X with
     * ~b), and nvcc's __int128 division mixes add.cc, sub.cc, mad.lo.cc and subc in one
     * chain on that meaning */
    uint32_t cin = carry_in ? w->carry : (sub ? WS_FULL_MASK : 0), cout = 0;
    WS_LANES(l, exec, {
        uint64_t x = ws_trunc(a[l], bits), y = ws_trunc(b[l], bits), c = (cin >> l) & 1;
        unsigned __int128 r;
        if (sub) {
            r = (unsigned __int128)x + ws_trunc(~y, bits) + c;
            cout |= (uint32_t)((r >> bits) & 1) << l;
        } else {
            r = (unsigned __int128)x + y + c;
            cout |= (uint32_t)((r >> bits) & 1) << l;
        }
        d[l] = ws_trunc((uint64_t)r, bits);
    });
    if (in->flags & WS_F_CC)
        w->carry = (w->carry & ~exec) | cout;
    return 0;
}

static uint64_t mul_hi(uint64_t x, uint64_t y, int bits, int sgn)
{
    if (sgn) {
        __int128 p = (__int128)ws_sext(x, bits) * ws_sext(y, bits);
        return ws_trunc((uint64_t)(p >> bits), bits);
    }
    unsigned __int128 p = (unsigned __int128)ws_trunc(x, bits) * ws_trunc(y, bits);
    return ws_trunc((uint64_t)(p >> bits), bits);
}

static int int_mul(ws_warp *w, const ws_inst *in, uint32_t exec, int mad)
{
    const uint64_t *a = SRC(0), *b = SRC(1), *c = mad ? SRC(2) : NULL;
    uint64_t *d = ws_x_reg(w, in->dst[0].reg);
    ws_ptype t = (ws_ptype)in->type;
    int bits = bits_of(t), sgn = ws_ptype_is_signed(t);
    switch (in->subop) {
    case WS_SUB_WIDE:
        if (sgn)
            WS_LANES(l, exec, {
                uint64_t p = (uint64_t)(ws_sext(a[l], bits) * ws_sext(b[l], bits));
                d[l] = ws_trunc(p + (c ? c[l] : 0), 2 * bits);
            });
        else
            WS_LANES(l, exec, {
                uint64_t p = ws_trunc(a[l], bits) * ws_trunc(b[l], bits);
                d[l] = ws_trunc(p + (c ? c[l] : 0), 2 * bits);
            });
        return 0;
    case WS_SUB_HI:
        WS_LANES(l, exec, d[l] = ws_trunc(mul_hi(a[l], b[l], bits, sgn) + (c ? c[l] : 0), bits););
        return 0;
    default:
        if (mad && (in->flags & WS_F_SAT)) {
            WS_LANES(l, exec, {
                __int128 p = (__int128)ws_sext(a[l], 32) * ws_sext(b[l], 32) + ws_sext(c[l], 32);
                d[l] = ws_trunc((uint64_t)clamp_s(p > INT64_MAX ? INT64_MAX
                                                  : p < INT64_MIN ? INT64_MIN : (int64_t)p, 32), 32);
            });
            return 0;
        }
        if (c)
            WS_LANES(l, exec, d[l] = ws_trunc(a[l] * b[l] + c[l], bits););
        else
            WS_LANES(l, exec, d[l] = ws_trunc(a[l] * b[l], bits););
        return 0;
    }
}

/* mad{c}.lo/hi{.cc}: the carry-chained multiply-add of multi-word arithmetic. */
static int int_mad_carry(ws_warp *w, const ws_inst *in, uint32_t exec)
{
    const uint64_t *a = SRC(0), *b = SRC(1), *c = SRC(2);
    uint64_t *d = ws_x_reg(w, in->dst[0].reg);
    ws_ptype t = (ws_ptype)in->type;
    int bits = bits_of(t), sgn = ws_ptype_is_signed(t);
    uint32_t cin = ws_op_has(in->op, WS_OPF_CARRY_IN) ? w->carry : 0, cout = 0;
    WS_LANES(l, exec, {
        uint64_t p = in->subop == WS_SUB_HI ? mul_hi(a[l], b[l], bits, sgn)
                                            : ws_trunc(a[l] * b[l], bits);
        unsigned __int128 r = (unsigned __int128)p + ws_trunc(c[l], bits) + ((cin >> l) & 1);
        cout |= (uint32_t)((r >> bits) & 1) << l;
        d[l] = ws_trunc((uint64_t)r, bits);
    });
    if (in->flags & WS_F_CC)
        w->carry = (w->carry & ~exec) | cout;
    return 0;
}

static int int_mul24(ws_warp *w, const ws_inst *in, uint32_t exec)
{
    const uint64_t *a = SRC(0), *b = SRC(1), *c = in->op == WS_OP_MAD24 ? SRC(2) : NULL;
    uint64_t *d = ws_x_reg(w, in->dst[0].reg);
    int sgn = ws_ptype_is_signed((ws_ptype)in->type);
    WS_LANES(l, exec, {
        int64_t x = sgn ? ws_sext(a[l], 24) : (int64_t)ws_trunc(a[l], 24);
        int64_t y = sgn ? ws_sext(b[l], 24) : (int64_t)ws_trunc(b[l], 24);
        uint64_t p = (uint64_t)(x * y);
        uint64_t r = in->subop == WS_SUB_HI ? p >> 16 : p;
        d[l] = ws_trunc(r + (c ? c[l] : 0), 32);
    });
    return 0;
}

static int int_div_rem(ws_warp *w, const ws_inst *in, uint32_t exec, int rem)
{
    const uint64_t *a = SRC(0), *b = SRC(1);
    uint64_t *d = ws_x_reg(w, in->dst[0].reg);
    ws_ptype t = (ws_ptype)in->type;
    int bits = bits_of(t), sgn = ws_ptype_is_signed(t);
    WS_LANES(l, exec, {
        uint64_t r;
        if (sgn) {
            int64_t x = ws_sext(a[l], bits), y = ws_sext(b[l], bits);
            if (y == 0)
                r = rem ? (uint64_t)x : ~0ull; /* unspecified in PTX: all ones like hardware */
            else if (y == -1)
                r = rem ? 0 : (uint64_t)0 - (uint64_t)x; /* INT_MIN / -1 wraps */
            else
                r = (uint64_t)(rem ? x % y : x / y);
        } else {
            uint64_t x = ws_trunc(a[l], bits), y = ws_trunc(b[l], bits);
            r = y == 0 ? (rem ? x : ~0ull) : rem ? x % y : x / y;
        }
        d[l] = ws_trunc(r, bits);
    });
    return 0;
}

static int int_minmax_abs_neg(ws_warp *w, const ws_inst *in, uint32_t exec)
{
    const uint64_t *a = SRC(0);
    uint64_t *d = ws_x_reg(w, in->dst[0].reg);
    ws_ptype t = (ws_ptype)in->type;
    int bits = bits_of(t), sgn = ws_ptype_is_signed(t);
    if (in->op == WS_OP_ABS) {
        WS_LANES(l, exec, { int64_t x = ws_sext(a[l], bits);
                            d[l] = ws_trunc(x < 0 ? 0 - (uint64_t)x : (uint64_t)x, bits); });
        return 0;
    }
    if (in->op == WS_OP_NEG) {
        WS_LANES(l, exec, d[l] = ws_trunc(0 - a[l], bits););
        return 0;
    }
    const uint64_t *b = SRC(1);
    int mx = in->op == WS_OP_MAX, relu = (in->flags & WS_F_RELU) != 0;
    if (sgn)
        WS_LANES(l, exec, {
            int64_t x = ws_sext(a[l], bits), y = ws_sext(b[l], bits);
            int64_t r = (x < y) != mx ? x : y;
            d[l] = ws_trunc((uint64_t)(relu && r < 0 ? 0 : r), bits);
        });
    else
        WS_LANES(l, exec, {
            uint64_t x = ws_trunc(a[l], bits), y = ws_trunc(b[l], bits);
            d[l] = (x < y) != mx ? x : y;
        });
    return 0;
}

/* add/sub[.sat]/min/max[.relu] on .u16x2/.s16x2: each 16-bit half on its own (sat: signed
 * halves clamp to [-32768, 32767]; relu: a negative half becomes 0). */
static int simd16(ws_warp *w, const ws_inst *in, uint32_t exec)
{
    const uint64_t *a = SRC(0), *b = SRC(1);
    uint64_t *d = ws_x_reg(w, in->dst[0].reg);
    int sgn = in->type == WS_P_S16X2, sat = (in->flags & WS_F_SAT) != 0;
    int relu = (in->flags & WS_F_RELU) != 0, op = in->op;
    WS_LANES(l, exec, {
        uint32_t r = 0;
        for (int k = 0; k < 2; k++) {
            int32_t x = sgn ? (int16_t)(a[l] >> 16 * k) : (int32_t)(uint16_t)(a[l] >> 16 * k);
            int32_t y = sgn ? (int16_t)(b[l] >> 16 * k) : (int32_t)(uint16_t)(b[l] >> 16 * k);
            int32_t v = op == WS_OP_ADD ? x + y : op == WS_OP_SUB ? x - y
                      : (x < y) != (op == WS_OP_MAX) ? x : y;
            if (sat)
                v = v < -32768 ? -32768 : v > 32767 ? 32767 : v;
            if (relu && v < 0)
                v = 0;
            r |= ((uint32_t)v & 0xffffu) << 16 * k;
        }
        d[l] = r;
    });
    return 0;
}

static int logic(ws_warp *w, const ws_inst *in, uint32_t exec)
{
    const uint64_t *a = SRC(0);
    uint64_t *d = ws_x_reg(w, in->dst[0].reg);
    ws_ptype t = (ws_ptype)in->type;
    int bits = bits_of(t);
    if (in->op == WS_OP_NOT) {
        if (t == WS_P_PRED)
            WS_LANES(l, exec, d[l] = a[l] == 0;);
        else
            WS_LANES(l, exec, d[l] = ws_trunc(~a[l], bits););
        return 0;
    }
    if (in->op == WS_OP_CNOT) {
        WS_LANES(l, exec, d[l] = ws_trunc(a[l], bits) == 0;);
        return 0;
    }
    const uint64_t *b = SRC(1);
    switch (in->op) {
    case WS_OP_AND: WS_LANES(l, exec, d[l] = a[l] & b[l];); break;
    case WS_OP_OR: WS_LANES(l, exec, d[l] = a[l] | b[l];); break;
    default: WS_LANES(l, exec, d[l] = a[l] ^ b[l];); break;
    }
    if (bits < 64 && t != WS_P_PRED)
        WS_LANES(l, exec, d[l] = ws_trunc(d[l], bits););
    return 0;
}

static int shift(ws_warp *w, const ws_inst *in, uint32_t exec)
{
    const uint64_t *a = SRC(0), *b = SRC(1);
    uint64_t *d = ws_x_reg(w, in->dst[0].reg);
    ws_ptype t = (ws_ptype)in->type;
    int bits = bits_of(t);
    if (in->op == WS_OP_SHL) {
        WS_LANES(l, exec, { uint32_t n = (uint32_t)b[l];
                            d[l] = n >= (uint32_t)bits ? 0 : ws_trunc(a[l] << n, bits); });
    } else if (ws_ptype_is_signed(t)) {
        WS_LANES(l, exec, { uint32_t n = (uint32_t)b[l];
                            int64_t x = ws_sext(a[l], bits);
                            d[l] = ws_trunc((uint64_t)(x >> (n >= (uint32_t)bits ? (uint32_t)bits - 1 : n)), bits); });
    } else {
        WS_LANES(l, exec, { uint32_t n = (uint32_t)b[l];
                            d[l] = n >= (uint32_t)bits ? 0 : ws_trunc(a[l], bits) >> n; });
    }
    return 0;
}

static int shf(ws_warp *w, const ws_inst *in, uint32_t exec)
{
    const uint64_t *a = SRC(0), *b = SRC(1), *c = SRC(2);
    uint64_t *d = ws_x_reg(w, in->dst[0].reg);
    int left = in->subop == WS_SUB_SHF_L, clamp = (in->flags & WS_F_CLAMP) != 0;
    WS_LANES(l, exec, {
        uint32_t n = (uint32_t)c[l];
        n = clamp ? (n > 32 ? 32 : n) : (n & 31);
        uint64_t v = ((uint64_t)(uint32_t)b[l] << 32) | (uint32_t)a[l];
        d[l] = left ? (uint32_t)((v << n) >> 32) : (uint32_t)(v >> n);
    });
    return 0;
}

/* bmsk.{clamp,wrap}.b32 d, pos, width */
static int bmsk(ws_warp *w, const ws_inst *in, uint32_t exec)
{
    const uint64_t *a = SRC(0), *b = SRC(1);
    uint64_t *d = ws_x_reg(w, in->dst[0].reg);
    int wrap = (in->flags & WS_F_WRAP) != 0;
    WS_LANES(l, exec, d[l] = ws_bit_mask((uint32_t)a[l], (uint32_t)b[l], wrap););
    return 0;
}

/* fns.b32 d, mask, base, offset (__fns): the |offset|-th set bit of mask counted from bit
 * base (inclusive) toward the MSB (offset > 0) or the LSB (offset < 0); offset 0 asks
 * whether bit base is set; 0xffffffff when there is none. */
static uint32_t fns1(uint32_t mask, uint32_t base, int32_t offset)
{
    if (base > 31)
        base &= 31; /* undefined by the ISA; the low bits, as the shifts below would take */
    if (offset == 0)
        return (mask >> base) & 1u ? base : 0xffffffffu;
    int step = offset > 0 ? 1 : -1;
    int64_t left = offset > 0 ? offset : -(int64_t)offset;
    for (int pos = (int)base; pos >= 0 && pos < 32; pos += step)
        if ((mask >> pos) & 1u && --left == 0)
            return (uint32_t)pos;
    return 0xffffffffu;
}

static int fns(ws_warp *w, const ws_inst *in, uint32_t exec)
{
    const uint64_t *m = SRC(0), *b = SRC(1), *o = SRC(2);
    uint64_t *d = ws_x_reg(w, in->dst[0].reg);
    WS_LANES(l, exec, d[l] = fns1((uint32_t)m[l], (uint32_t)b[l], (int32_t)o[l]););
    return 0;
}

static uint64_t bfe1(uint64_t a, uint32_t pos, uint32_t len, int bits, int sgn)
{
    pos &= 0xff;
    len &= 0xff;
    uint64_t x = ws_trunc(a, bits);
    int msb = bits - 1;
    int sbit;
    if (!sgn || len == 0)
        sbit = 0;
    else
        sbit = (int)((x >> (pos + len - 1 > (uint32_t)msb ? (uint32_t)msb : pos + len - 1)) & 1);
    uint64_t r = 0;
    for (int i = 0; i < bits; i++) {
        uint64_t bit = ((uint32_t)i < len && pos + (uint32_t)i <= (uint32_t)msb)
                           ? (x >> (pos + (uint32_t)i)) & 1 : (uint64_t)sbit;
        r |= bit << i;
    }
    return r;
}

static int bitops(ws_warp *w, const ws_inst *in, uint32_t exec)
{
    const uint64_t *a = SRC(0);
    uint64_t *d = ws_x_reg(w, in->dst[0].reg);
    ws_ptype t = (ws_ptype)in->type;
    int bits = bits_of(t), sgn = ws_ptype_is_signed(t);
    switch (in->op) {
    case WS_OP_POPC:
        WS_LANES(l, exec, d[l] = (uint64_t)__builtin_popcountll(ws_trunc(a[l], bits)););
        return 0;
    case WS_OP_CLZ:
        WS_LANES(l, exec, { uint64_t x = ws_trunc(a[l], bits);
                            d[l] = x ? (uint64_t)(__builtin_clzll(x) - (64 - bits)) : (uint64_t)bits; });
        return 0;
    case WS_OP_BREV:
        WS_LANES(l, exec, { uint64_t x = a[l], r = 0;
                            for (int i = 0; i < bits; i++) r |= ((x >> i) & 1) << (bits - 1 - i);
                            d[l] = r; });
        return 0;
    case WS_OP_BFIND:
        WS_LANES(l, exec, {
            uint64_t x = ws_trunc(a[l], bits);
            if (sgn && ws_sext(x, bits) < 0)
                x = ws_trunc(~x, bits);
            uint64_t r = 0xffffffffu;
            if (x) {
                int p = 63 - __builtin_clzll(x);
                r = (in->flags & WS_F_NOINC) ? (uint64_t)(bits - 1 - p) : (uint64_t)p;
            }
            d[l] = r;
        });
        return 0;
    case WS_OP_BFE: {
        const uint64_t *b = SRC(1), *c = SRC(2);
        WS_LANES(l, exec, d[l] = bfe1(a[l], (uint32_t)b[l], (uint32_t)c[l], bits, sgn););
        return 0;
    }
    case WS_OP_BFI: { /* bfi d, a(insert), b(base), pos, len */
        const uint64_t *b = SRC(1), *c = SRC(2), *e = SRC(3);
        WS_LANES(l, exec, {
            uint32_t pos = (uint32_t)c[l] & 0xff, len = (uint32_t)e[l] & 0xff;
            uint64_t r = ws_trunc(b[l], bits);
            for (uint32_t i = 0; i < len && pos + i < (uint32_t)bits; i++)
                r = (r & ~(1ull << (pos + i))) | (((a[l] >> i) & 1) << (pos + i));
            d[l] = r;
        });
        return 0;
    }
    default:
        return 0;
    }
}

static int prmt(ws_warp *w, const ws_inst *in, uint32_t exec)
{
    const uint64_t *a = SRC(0), *b = SRC(1), *c = SRC(2);
    uint64_t *d = ws_x_reg(w, in->dst[0].reg);
    WS_LANES(l, exec, {
        uint64_t bytes = ((uint64_t)(uint32_t)b[l] << 32) | (uint32_t)a[l];
        uint32_t sel = (uint32_t)c[l], r = 0;
        for (int i = 0; i < 4; i++) {
            uint32_t s = (sel >> (4 * i)) & 0xf;
            uint32_t byte = (uint32_t)(bytes >> (8 * (s & 7))) & 0xff;
            if (s & 8)
                byte = (byte & 0x80) ? 0xff : 0;
            r |= byte << (8 * i);
        }
        d[l] = r;
    });
    return 0;
}

static int lop3(ws_warp *w, const ws_inst *in, uint32_t exec)
{
    const uint64_t *a = SRC(0), *b = SRC(1), *c = SRC(2), *lut = SRC(3);
    uint64_t *d = ws_x_reg(w, in->dst[0].reg);
    WS_LANES(l, exec, {
        uint32_t x = (uint32_t)a[l], y = (uint32_t)b[l], z = (uint32_t)c[l], f = (uint32_t)lut[l];
        uint32_t r = 0;
        for (int i = 0; i < 8; i++)
            if ((f >> i) & 1)
                r |= ((i & 4) ? x : ~x) & ((i & 2) ? y : ~y) & ((i & 1) ? z : ~z);
        d[l] = r;
    });
    return 0;
}

static int sad(ws_warp *w, const ws_inst *in, uint32_t exec)
{
    const uint64_t *a = SRC(0), *b = SRC(1), *c = SRC(2);
    uint64_t *d = ws_x_reg(w, in->dst[0].reg);
    ws_ptype t = (ws_ptype)in->type;
    int bits = bits_of(t), sgn = ws_ptype_is_signed(t);
    WS_LANES(l, exec, {
        uint64_t diff;
        if (sgn) { int64_t x = ws_sext(a[l], bits), y = ws_sext(b[l], bits);
                   diff = (uint64_t)(x > y ? x - y : y - x); }
        else { uint64_t x = ws_trunc(a[l], bits), y = ws_trunc(b[l], bits);
               diff = x > y ? x - y : y - x; }
        d[l] = ws_trunc(diff + c[l], bits);
    });
    return 0;
}

/* dp4a.atype.btype d, a, b, c and dp2a.lo|hi.atype.btype (ws_dot_product, exec.h). */
static int dot_product(ws_warp *w, const ws_inst *in, uint32_t exec)
{
    const uint64_t *a = SRC(0), *b = SRC(1), *c = SRC(2);
    uint64_t *d = ws_x_reg(w, in->dst[0].reg);
    int sa = in->type == WS_P_S32, sb = in->type2 == WS_P_S32;
    int two = in->op == WS_OP_DP2A, hi = in->subop == WS_SUB_HI;
    WS_LANES(l, exec, d[l] = ws_dot_product((uint32_t)a[l], (uint32_t)b[l], (uint32_t)c[l], sa,
                                            sb, two, hi););
    return 0;
}

/* vabsdiff4.dtype.atype.atype[.sat] d, a, b, c: the four byte-wise |a - b| (signed bytes
 * for s32), each clamped to dtype's byte range with .sat, in d's bytes (c unused: the
 * default mask takes every byte); with .add, c plus the sum of the four. */
static int vabsdiff4(ws_warp *w, const ws_inst *in, uint32_t exec)
{
    const uint64_t *a = SRC(0), *b = SRC(1), *c = SRC(2);
    uint64_t *d = ws_x_reg(w, in->dst[0].reg);
    int sgn = in->type2 == WS_P_S32, add = in->subop == WS_SUB_ADD;
    int sat = (in->flags & WS_F_SAT) != 0, dsg = in->type == WS_P_S32;
    WS_LANES(l, exec, {
        uint32_t x = (uint32_t)a[l], y = (uint32_t)b[l], r = add ? (uint32_t)c[l] : 0;
        for (int k = 0; k < 4; k++) {
            int32_t ea = sgn ? (int8_t)(x >> 8 * k) : (int32_t)(uint8_t)(x >> 8 * k);
            int32_t eb = sgn ? (int8_t)(y >> 8 * k) : (int32_t)(uint8_t)(y >> 8 * k);
            int32_t v = ea > eb ? ea - eb : eb - ea;
            if (add)
                r += (uint32_t)v;
            else
                r |= (uint32_t)(sat && dsg && v > 127 ? 127 : v) << 8 * k & 0xffu << 8 * k;
        }
        d[l] = r;
    });
    return 0;
}

/* ---------------------------------------------------------------- comparisons */

static int cmp_int(int cmp, uint64_t x, uint64_t y, int bits, int sgn)
{
    if (sgn && (cmp == WS_CMP_LT || cmp == WS_CMP_LE || cmp == WS_CMP_GT || cmp == WS_CMP_GE)) {
        int64_t a = ws_sext(x, bits), b = ws_sext(y, bits);
        switch (cmp) {
        case WS_CMP_LT: return a < b;
        case WS_CMP_LE: return a <= b;
        case WS_CMP_GT: return a > b;
        default: return a >= b;
        }
    }
    x = ws_trunc(x, bits);
    y = ws_trunc(y, bits);
    switch (cmp) {
    case WS_CMP_EQ: return x == y;
    case WS_CMP_NE: return x != y;
    case WS_CMP_LT: case WS_CMP_LO: return x < y;
    case WS_CMP_LE: case WS_CMP_LS: return x <= y;
    case WS_CMP_GT: case WS_CMP_HI: return x > y;
    default: return x >= y;
    }
}

int ws_x_cmp_float(int cmp, double x, double y)
{
    int un = isnan(x) || isnan(y);
    switch (cmp) {
    case WS_CMP_EQ: return !un && x == y;
    case WS_CMP_NE: return !un && x != y;
    case WS_CMP_LT: return !un && x < y;
    case WS_CMP_LE: return !un && x <= y;
    case WS_CMP_GT: return !un && x > y;
    case WS_CMP_GE: return !un && x >= y;
    case WS_CMP_EQU: return un || x == y;
    case WS_CMP_NEU: return un || x != y;
    case WS_CMP_LTU: return un || x < y;
    case WS_CMP_LEU: return un || x <= y;
    case WS_CMP_GTU: return un || x > y;
    case WS_CMP_GEU: return un || x >= y;
    case WS_CMP_NUM: return !un;
    case WS_CMP_NAN: return un;
    default: return 0;
    }
}

/* Compares a and b of type t for every executing lane into out[] as 0/1. */
static void compare(ws_warp *w, const ws_inst *in, ws_ptype t, uint32_t exec, uint64_t *out)
{
    const uint64_t *a = SRC(0), *b = SRC(1);
    int cmp = in->cmp;
    if (t == WS_P_F32)
        WS_LANES(l, exec, { float x = ws_f32(a[l]), y = ws_f32(b[l]);
                            if (in->flags & WS_F_FTZ) { x = ftz32(x); y = ftz32(y); }
                            out[l] = (uint64_t)ws_x_cmp_float(cmp, x, y); });
    else if (t == WS_P_F64)
        WS_LANES(l, exec, out[l] = (uint64_t)ws_x_cmp_float(cmp, ws_f64(a[l]), ws_f64(b[l])););
    else if (t == WS_P_F16)
        WS_LANES(l, exec, out[l] = (uint64_t)ws_x_cmp_float(cmp, ws_f16_to_double((uint16_t)a[l]),
                                                            ws_f16_to_double((uint16_t)b[l])););
    else if (t == WS_P_BF16)
        WS_LANES(l, exec, out[l] = (uint64_t)ws_x_cmp_float(cmp, ws_bf16_to_double((uint16_t)a[l]),
                                                            ws_bf16_to_double((uint16_t)b[l])););
    else {
        int bits = bits_of(t), sgn = ws_ptype_is_signed(t);
        if (cmp == WS_CMP_LT && sgn && bits == 32)
            WS_LANES(l, exec, out[l] = (int32_t)a[l] < (int32_t)b[l];);
        else
            WS_LANES(l, exec, out[l] = (uint64_t)cmp_int(cmp, a[l], b[l], bits, sgn););
    }
}

static int setp(ws_warp *w, const ws_inst *in, uint32_t exec)
{
    uint64_t *r = w->scratch[WS_MAX_SRC];
    compare(w, in, (ws_ptype)in->type, exec, r);
    uint64_t *p = ws_x_reg(w, in->dst[0].reg);
    uint64_t *q = in->ndst > 1 && in->dst[1].reg >= 0 ? ws_x_reg(w, in->dst[1].reg) : NULL;
    if (in->boolop == WS_BOOL_NONE || in->nsrc < 3) {
        WS_LANES(l, exec, p[l] = r[l];);
        if (q)
            WS_LANES(l, exec, q[l] = !r[l];);
        return 0;
    }
    const uint64_t *c = SRC(2);
    int op = in->boolop;
    WS_LANES(l, exec, {
        uint64_t x = r[l], nx = !x, cc = c[l] != 0;
        uint64_t pv = op == WS_BOOL_AND ? (x & cc) : op == WS_BOOL_OR ? (x | cc) : (x ^ cc);
        uint64_t qv = op == WS_BOOL_AND ? (nx & cc) : op == WS_BOOL_OR ? (nx | cc) : (nx ^ cc);
        p[l] = pv;
        if (q)
            q[l] = qv;
    });
    return 0;
}

static double half_real(uint16_t h, int bf, int ftz)
{
    double x = bf ? ws_bf16_to_double(h) : ws_f16_to_double(h);
    return ftz && !bf && (h & 0x7c00) == 0 ? copysign(0.0, x) : x;
}

/* set.CMP[.BOOL].dtype.f16x2 d, a, b[, c]: each half compared on its own; a true half is
 * 1.0 in an f16x2/bf16x2 result, 0xffff in a u32/s32 one. */
static int set_pair(ws_warp *w, const ws_inst *in, uint32_t exec)
{
    const uint64_t *a = SRC(0), *b = SRC(1);
    const uint64_t *c = in->boolop != WS_BOOL_NONE && in->nsrc >= 3 ? SRC(2) : NULL;
    int bf = in->type2 == WS_P_BF16X2, ftz = (in->flags & WS_F_FTZ) != 0, op = in->boolop;
    uint64_t one = in->type == WS_P_F16X2 ? 0x3c00 : in->type == WS_P_BF16X2 ? 0x3f80 : 0xffff;
    uint64_t *d = ws_x_reg(w, in->dst[0].reg);
    WS_LANES(l, exec, {
        uint64_t r = 0;
        for (int k = 0; k < 2; k++) {
            int t = ws_x_cmp_float(in->cmp, half_real((uint16_t)(a[l] >> 16 * k), bf, ftz),
                                   half_real((uint16_t)(b[l] >> 16 * k), bf, ftz));
            if (c) {
                int cc = c[l] != 0;
                t = op == WS_BOOL_AND ? t & cc : op == WS_BOOL_OR ? t | cc : t ^ cc;
            }
            r |= (t ? one : 0) << 16 * k;
        }
        d[l] = r;
    });
    return 0;
}

static int set(ws_warp *w, const ws_inst *in, uint32_t exec)
{
    if (in->type2 == WS_P_F16X2 || in->type2 == WS_P_BF16X2)
        return set_pair(w, in, exec);
    uint64_t *r = w->scratch[WS_MAX_SRC];
    ws_ptype ct = in->type2 ? (ws_ptype)in->type2 : (ws_ptype)in->type;
    compare(w, in, ct, exec, r);
    if (in->boolop != WS_BOOL_NONE && in->nsrc >= 3) {
        const uint64_t *c = SRC(2);
        int op = in->boolop;
        WS_LANES(l, exec, { uint64_t cc = c[l] != 0;
                            r[l] = op == WS_BOOL_AND ? (r[l] & cc) : op == WS_BOOL_OR ? (r[l] | cc)
                                                                                      : (r[l] ^ cc); });
    }
    uint64_t *d = ws_x_reg(w, in->dst[0].reg);
    ws_ptype dt = (ws_ptype)in->type;
    uint64_t one = dt == WS_P_F32 ? ws_bits_f32(1.0f) : dt == WS_P_F16 ? 0x3c00
                 : dt == WS_P_BF16 ? 0x3f80 : ws_trunc(~0ull, bits_of(dt));
    WS_LANES(l, exec, d[l] = r[l] ? one : 0;);
    return 0;
}

static int select_op(ws_warp *w, const ws_inst *in, uint32_t exec)
{
    const uint64_t *a = SRC(0), *b = SRC(1), *c = SRC(2);
    uint64_t *d = ws_x_reg(w, in->dst[0].reg);
    if (in->op == WS_OP_SELP) {
        WS_LANES(l, exec, d[l] = c[l] ? a[l] : b[l];);
        return 0;
    }
    /* slct.dtype.s32/f32 d, a, b, c: c >= 0 ? a : b */
    if (in->type2 == WS_P_F32)
        WS_LANES(l, exec, d[l] = ws_f32(c[l]) >= 0.0f ? a[l] : b[l];);
    else
        WS_LANES(l, exec, d[l] = (int32_t)c[l] >= 0 ? a[l] : b[l];);
    return 0;
}

static int testp(ws_warp *w, const ws_inst *in, uint32_t exec)
{
    const uint64_t *a = SRC(0);
    uint64_t *d = ws_x_reg(w, in->dst[0].reg);
    int f64 = in->type == WS_P_F64;
    WS_LANES(l, exec, {
        double x = f64 ? ws_f64(a[l]) : ws_f32(a[l]);
        int c = f64 ? fpclassify(ws_f64(a[l])) : fpclassify(ws_f32(a[l]));
        int r;
        switch (in->subop) {
        case WS_SUB_FINITE: r = isfinite(x); break;
        case WS_SUB_INFINITE: r = isinf(x); break;
        case WS_SUB_NUMBER: r = !isnan(x); break;
        case WS_SUB_NOTANUMBER: r = isnan(x); break;
        case WS_SUB_NORMAL: r = c == FP_NORMAL; break;
        default: r = c == FP_SUBNORMAL; break;
        }
        d[l] = (uint64_t)r;
    });
    return 0;
}

/* ---------------------------------------------------------------- floating point */

static double fop1(int op, double x)
{
    switch (op) {
    case WS_OP_ABS: return fabs(x);
    case WS_OP_NEG: return -x;
    case WS_OP_SQRT: return sqrt(x);
    case WS_OP_RSQRT: return 1.0 / sqrt(x);
    case WS_OP_RCP: return 1.0 / x;
    case WS_OP_SIN: return sin(x);
    case WS_OP_COS: return cos(x);
    case WS_OP_LG2: return log2(x);
    case WS_OP_TANH: return tanh(x);
    default: return exp2(x); /* ex2 */
    }
}

/* sin.approx.f32 / cos.approx.f32 as ptxas lowers them: FMUL.RZ by 1/(2 pi), then the SFU's
 * MUFU.SIN / MUFU.COS of the product, whose period is 1 (sass_fp.c ws_sass_x_mufu). A large
 * argument's phase is then the GPU's, not libm's: __sinf(1e7) differs from sinf(1e7). */
static float sfu_sincos(int op, float x)
{
    double p = (double)x * (double)0.15915493667125701904f; /* exact: 48 significant bits */
    float t = (float)p;
    if (fabs((double)t) > fabs(p)) /* toward zero, as FMUL.RZ */
        t = nextafterf(t, 0.0f);
    if (isinf(t) || isnan(t))
        return NAN;
    double a = 6.283185307179586476925286766559 * fmod(t, 1.0);
    return (float)(op == WS_OP_SIN ? sin(a) : cos(a));
}

static float fop1f(int op, float x)
{
    switch (op) {
    case WS_OP_ABS: return fabsf(x);
    case WS_OP_NEG: return -x;
    case WS_OP_SQRT: return sqrtf(x);
    case WS_OP_RSQRT: return 1.0f / sqrtf(x);
    case WS_OP_RCP: return 1.0f / x;
    case WS_OP_SIN: case WS_OP_COS: return sfu_sincos(op, x);
    case WS_OP_LG2: return log2f(x);
    case WS_OP_TANH: return (float)tanh(x); /* as the SASS model's MUFU.TANH */
    default: return exp2f(x);
    }
}

/* An f32 result's bits: a NaN is the canonical 0x7fffffff sm_70+ writes (as the SASS
 * model's ws_sa_f32bits), except where the op only moves the sign bit. */
static inline uint64_t result32(int op, float r)
{
    return isnan(r) && op != WS_OP_ABS && op != WS_OP_NEG && op != WS_OP_COPYSIGN
               ? 0x7fffffffu : ws_bits_f32(r);
}

WS_FENV static int float_f32(ws_warp *w, const ws_inst *in, uint32_t exec)
{
    int op = in->op, ftz = (in->flags & WS_F_FTZ) != 0, sat = (in->flags & WS_F_SAT) != 0;
    const uint64_t *a = SRC(0);
    const uint64_t *b = in->nsrc > 1 ? SRC(1) : a, *c = in->nsrc > 2 ? SRC(2) : a;
    uint64_t *d = ws_x_reg(w, in->dst[0].reg);
    if (in->flags & WS_F_FMAD) { /* ptxas's FFMA: p * q + c, or c - p * q (contract.c) */
        int pb = (in->flags & WS_F_FMAD_B) != 0, sub = op == WS_OP_SUB;
        const uint64_t *c = pb ? a : b, *p = SRC(2), *q = SRC(3);
        WS_LANES(l, exec, {
            float x = ws_f32(p[l]), y = ws_f32(q[l]), z = ws_f32(c[l]);
            if (ftz) { x = ftz32(x); y = ftz32(y); z = ftz32(z); }
            float r = fmaf(sub && pb ? -x : x, y, sub && !pb ? -z : z);
            d[l] = result32(op, ftz ? ftz32(r) : r);
        });
        return 0;
    }
    if (op == WS_OP_ADD && !ftz && !sat) {
        WS_LANES(l, exec, d[l] = result32(op, ws_f32(a[l]) + ws_f32(b[l])););
        return 0;
    }
    if (op == WS_OP_MUL && !ftz && !sat) {
        WS_LANES(l, exec, d[l] = result32(op, ws_f32(a[l]) * ws_f32(b[l])););
        return 0;
    }
    WS_LANES(l, exec, {
        float x = ws_f32(a[l]), y = ws_f32(b[l]), z = ws_f32(c[l]), r;
        if (ftz) { x = ftz32(x); y = ftz32(y); z = ftz32(z); }
        switch (op) {
        case WS_OP_ADD: r = x + y; break;
        case WS_OP_SUB: r = x - y; break;
        case WS_OP_MUL: r = x * y; break;
        case WS_OP_FMA: case WS_OP_MAD: r = fmaf(x, y, z); break;
        case WS_OP_DIV: r = x / y; break;
        case WS_OP_MIN: r = (float)ws_fminmax(x, y, 1); break;
        case WS_OP_MAX: r = (float)ws_fminmax(x, y, 0); break;
        case WS_OP_COPYSIGN: r = copysignf(y, x); break;
        default: r = fop1f(op, x); break;
        }
        if (ftz) r = ftz32(r);
        if (sat) r = isnan(r) ? 0.0f : r < 0.0f ? 0.0f : r > 1.0f ? 1.0f : r;
        d[l] = (in->flags & WS_F_NAN) && (isnan(x) || isnan(y)) ? 0x7fffffffu /* min/max.NaN */
                                                                : result32(op, r);
    });
    return 0;
}

/* rcp.approx.ftz.f64 and rsqrt.approx.f64 as ptxas builds them on the SFU's seed of the
 * high word (ws_mufu64h; low word 0): rcp is the seed; rsqrt of a positive normal d takes
 * one Newton step, y + y e (1/2 + 3/8 e) with e = 1 - d y^2, and others (zero, subnormal,
 * negative, inf, NaN: ptxas's slow path) the correctly rounded 1/sqrt(d). */
static double approx_f64(int op, uint64_t bits)
{
    uint64_t s = (uint64_t)ws_mufu64h((uint32_t)(bits >> 32), op == WS_OP_RSQRT) << 32;
    double y = ws_f64(s), d = ws_f64(bits);
    if (op == WS_OP_RCP)
        return y;
    if ((uint32_t)((bits >> 32) + 0xfff00000u) >= 0x7fe00000u)
        return 1.0 / sqrt(d);
    double e = fma(d, -(y * y), 1.0);
    return fma(fma(e, 0.375, 0.5), y * e, y);
}

WS_FENV static int float_f64(ws_warp *w, const ws_inst *in, uint32_t exec)
{
    int op = in->op;
    const uint64_t *a = SRC(0);
    const uint64_t *b = in->nsrc > 1 ? SRC(1) : a, *c = in->nsrc > 2 ? SRC(2) : a;
    uint64_t *d = ws_x_reg(w, in->dst[0].reg);
    if (in->flags & WS_F_FMAD) { /* ptxas's DFMA (contract.c) */
        int pb = (in->flags & WS_F_FMAD_B) != 0, sub = op == WS_OP_SUB;
        const uint64_t *z = pb ? a : b, *p = SRC(2), *q = SRC(3);
        WS_LANES(l, exec, {
            double r = fma(sub && pb ? -ws_f64(p[l]) : ws_f64(p[l]), ws_f64(q[l]),
                           sub && !pb ? -ws_f64(z[l]) : ws_f64(z[l]));
            uint64_t ops[3] = {p[l], q[l], z[l]}, nan = isnan(r) ? ws_nan64_pass(ops, 3) : 0;
            d[l] = nan ? nan : ws_bits_f64(r);
        });
        return 0;
    }
    WS_LANES(l, exec, {
        double x = ws_f64(a[l]), y = ws_f64(b[l]), z = ws_f64(c[l]), r;
        switch (op) {
        case WS_OP_ADD: r = x + y; break;
        case WS_OP_SUB: r = x - y; break;
        case WS_OP_MUL: r = x * y; break;
        case WS_OP_FMA: case WS_OP_MAD: r = fma(x, y, z); break;
        case WS_OP_DIV: r = x / y; break;
        case WS_OP_MIN: r = ws_fminmax(x, y, 1); break;
        case WS_OP_MAX: r = ws_fminmax(x, y, 0); break;
        case WS_OP_COPYSIGN: r = copysign(y, x); break;
        case WS_OP_RCP: case WS_OP_RSQRT:
            r = in->flags & WS_F_APPROX ? approx_f64(op, a[l]) : fop1(op, x);
            break;
        default: r = fop1(op, x); break;
        }
        uint64_t nan = 0;
        if (isnan(r) && (op == WS_OP_ADD || op == WS_OP_SUB || op == WS_OP_MUL ||
                         op == WS_OP_FMA || op == WS_OP_MAD)) { /* as DADD/DMUL/DFMA */
            uint64_t ops[3] = {a[l], b[l], c[l]};
            nan = ws_nan64_pass(ops, op == WS_OP_FMA || op == WS_OP_MAD ? 3 : 2);
        }
        d[l] = nan ? nan : ws_bits_f64(r);
    });
    return 0;
}

WS_FENV static int float_op(ws_warp *w, const ws_inst *in, uint32_t exec)
{
    int mode = fe_mode(in->rnd), rc;
    if (mode != FE_TONEAREST)
        fesetround(mode);
    rc = in->type == WS_P_F64 ? float_f64(w, in, exec) : float_f32(w, in, exec);
    if (mode != FE_TONEAREST)
        fesetround(FE_TONEAREST);
    return rc;
}

/* ---------------------------------------------------------------- cvt and mov */

static double to_double(uint64_t v, ws_ptype t)
{
    switch (t) {
    case WS_P_F32: return ws_f32(v);
    case WS_P_F64: return ws_f64(v);
    case WS_P_F16: return ws_f16_to_double((uint16_t)v);
    case WS_P_BF16: return ws_bf16_to_double((uint16_t)v);
    default:
        if (ws_ptype_is_signed(t))
            return (double)ws_sext(v, bits_of(t));
        return (double)ws_trunc(v, bits_of(t));
    }
}

static double round_int(double x, int rnd)
{
    switch (rnd) {
    case WS_RND_RZI: return trunc(x);
    case WS_RND_RMI: return floor(x);
    case WS_RND_RPI: return ceil(x);
    case WS_RND_RNI: return nearbyint(x);
    default: return x;
    }
}

static uint64_t cvt_to_int(double x, ws_ptype dt, int rnd)
{
    int bits = bits_of(dt);
    if (isnan(x))
        return 0;
    x = round_int(x, rnd ? rnd : WS_RND_RZI);
    if (ws_ptype_is_signed(dt)) {
        double hi = ldexp(1.0, bits - 1);
        if (x >= hi)
            return ws_trunc((uint64_t)clamp_s(INT64_MAX, bits), bits);
        if (x < -hi)
            return ws_trunc((uint64_t)clamp_s(INT64_MIN, bits), bits);
        return ws_trunc((uint64_t)(int64_t)x, bits);
    }
    double hi = ldexp(1.0, bits);
    if (x <= 0)
        return 0;
    if (x >= hi)
        return ws_trunc(~0ull, bits);
    return (uint64_t)x;
}

static uint64_t cvt_int_int(uint64_t v, ws_ptype st, ws_ptype dt, int sat)
{
    int sb = bits_of(st), db = bits_of(dt);
    int ss = ws_ptype_is_signed(st), ds = ws_ptype_is_signed(dt);
    if (!sat)
        return ws_trunc(ss ? (uint64_t)ws_sext(v, sb) : ws_trunc(v, sb), db);
    if (ss) {
        int64_t x = ws_sext(v, sb);
        if (ds)
            return ws_trunc((uint64_t)clamp_s(x, db), db);
        if (x < 0)
            return 0;
        uint64_t m = ws_trunc(~0ull, db);
        return (uint64_t)x > m ? m : (uint64_t)x;
    }
    uint64_t x = ws_trunc(v, sb);
    uint64_t m = ds ? ws_trunc(~0ull, db - 1) : ws_trunc(~0ull, db);
    return x > m ? m : x;
}

static uint64_t cvt_one(uint64_t v, ws_ptype st, ws_ptype dt, int rnd, int flags)
{
    int sf = ws_ptype_is_float(st), df = ws_ptype_is_float(dt);
    if (!sf && !df)
        return cvt_int_int(v, st, dt, (flags & WS_F_SAT) != 0);
    if (!df)
        return cvt_to_int(to_double(v, st), dt, rnd);
    double x;
    if (!sf) {
        /* int -> float: round in the destination precision directly */
        int sb = bits_of(st);
        if (dt == WS_P_F64)
            return ws_bits_f64(ws_ptype_is_signed(st) ? (double)ws_sext(v, sb)
                                                      : (double)ws_trunc(v, sb));
        if (dt == WS_P_F16 || dt == WS_P_BF16) { /* 16-bit integers are exact in double */
            double h = ws_ptype_is_signed(st) ? (double)ws_sext(v, sb) : (double)ws_trunc(v, sb);
            return dt == WS_P_F16 ? ws_double_to_f16(h) : ws_double_to_bf16(h);
        }
        float f = ws_ptype_is_signed(st) ? (float)ws_sext(v, sb) : (float)ws_trunc(v, sb);
        return ws_bits_f32(f);
    }
    x = to_double(v, st);
    if (rnd >= WS_RND_RNI)
        x = round_int(x, rnd);
    if (flags & WS_F_SAT)
        x = isnan(x) ? 0.0 : x < 0 ? 0.0 : x > 1 ? 1.0 : x;
    if (dt == WS_P_F64)
        return ws_bits_f64(x);
    if (st == WS_P_F64 && rnd < WS_RND_RNI && isnan(x) && (dt == WS_P_F32 || dt == WS_P_F16))
        return ws_nan_narrow64(v, dt == WS_P_F16); /* as F2F.F32.F64 / F2F.F16.F64 */
    if (st == WS_P_BF16 && dt == WS_P_F32 && isnan(x)) /* a shift in SASS: the bits stay */
        return (v & 0xffffu) << 16;
    if ((dt == WS_P_F16 || dt == WS_P_BF16) && isnan(x)) /* canonical, as F2FP/F2F write it */
        return 0x7fff;
    if (dt == WS_P_F16 || dt == WS_P_BF16) /* one rounding, from the source's value */
        return dt == WS_P_F16 ? ws_double_to_f16(x) : ws_double_to_bf16(x);
    float f = (float)x;
    if (flags & WS_F_FTZ)
        f = ftz32(f);
    return result32(WS_OP_CVT, f);
}

WS_FENV static int cvt(ws_warp *w, const ws_inst *in, uint32_t exec)
{
    const uint64_t *a = SRC(0);
    uint64_t *d = ws_x_reg(w, in->dst[0].reg);
    ws_ptype dt = (ws_ptype)in->type, st = (ws_ptype)in->type2;
    int relu = (in->flags & WS_F_RELU) != 0, sat = (in->flags & WS_F_SATFINITE) != 0;
    if (dt == WS_P_E4M3X2 || dt == WS_P_E5M2X2) { /* cvt.rn.satfinite[.relu].e4m3x2.f32 d, a, b
                                                     (a high) or .f16x2 d, a (high half high) */
        int e5 = dt == WS_P_E5M2X2;
        if (st == WS_P_F32) {
            const uint64_t *b = SRC(1);
            WS_LANES(l, exec, d[l] = ws_fp8x2_from(ws_f32(a[l]), ws_f32(b[l]), e5, sat, relu););
        } else {
            assert(st == WS_P_F16X2);
            WS_LANES(l, exec, d[l] = ws_fp8x2_from_f16x2((uint32_t)a[l], e5, sat, relu););
        }
        return 0;
    }
    if (st == WS_P_E4M3X2 || st == WS_P_E5M2X2) { /* cvt.rn[.relu].f16x2.e4m3x2 d, a: exact */
        int e5 = st == WS_P_E5M2X2;
        assert(dt == WS_P_F16X2);
        WS_LANES(l, exec, d[l] = ws_fp8x2_to_f16x2((uint16_t)a[l], e5, relu););
        return 0;
    }
    if (dt == WS_P_F16X2 || dt == WS_P_BF16X2) { /* cvt.rn.f16x2.f32 d, a, b: a high, b low */
        assert(in->nsrc == 2 && st == WS_P_F32 && in->rnd == WS_RND_RN);
        const uint64_t *b = SRC(1);
        ws_ptype h = dt == WS_P_F16X2 ? WS_P_F16 : WS_P_BF16;
        WS_LANES(l, exec, d[l] = cvt_one(b[l], st, h, in->rnd, in->flags) |
                                 cvt_one(a[l], st, h, in->rnd, in->flags) << 16;);
        return 0;
    }
    if (st == WS_P_S32 && dt == WS_P_S64 && !(in->flags & WS_F_SAT)) {
        WS_LANES(l, exec, d[l] = (uint64_t)(int64_t)(int32_t)a[l];);
        return 0;
    }
    if (st == WS_P_U32 && dt == WS_P_U64) {
        WS_LANES(l, exec, d[l] = (uint32_t)a[l];);
        return 0;
    }
    int mode = fe_mode(in->rnd), setmode = mode != FE_TONEAREST && in->rnd < WS_RND_RNI;
    /* a register wider than a signed integer type gets the value sign-extended, as ld does
       (the PTX ISA's relaxed rules for destinations: cvt.sat.s16.s32 into a .b32) */
    int sext = ws_ptype_is_signed(dt) ? bits_of(dt) : 0;
    if (setmode)
        fesetround(mode);
    WS_LANES(l, exec, {
        uint64_t v = cvt_one(a[l], st, dt, in->rnd, in->flags);
        d[l] = sext ? (uint64_t)ws_sext(v, sext) : v;
    });
    if (setmode)
        fesetround(FE_TONEAREST);
    return 0;
}

static int mov(ws_warp *w, const ws_inst *in, uint32_t exec)
{
    const ws_operand *dst = &in->dst[0], *src = &in->src[0];
    int n = dst->kind == WS_O_VEC ? dst->nvec : src->kind == WS_O_VEC ? src->nvec : 0;
    if (dst->kind == WS_O_VEC) { /* unpack: mov.b64 {lo, hi}, %rd */
        const uint64_t *a = SRC(0);
        int eb = 64 / (n ? n : 1);
        if (in->type == WS_P_B32)
            eb = 32 / n;
        for (int e = 0; e < n; e++)
            if (dst->vregs[e] >= 0) {
                uint64_t *d = ws_x_reg(w, dst->vregs[e]);
                WS_LANES(l, exec, d[l] = ws_trunc(a[l] >> (e * eb), eb););
            }
        return 0;
    }
    uint64_t *d = ws_x_reg(w, dst->reg);
    if (src->kind == WS_O_VEC) { /* pack: mov.b64 %rd, {lo, hi} */
        int eb = (in->type == WS_P_B32 ? 32 : 64) / n;
        uint64_t *acc = w->scratch[WS_MAX_SRC];
        WS_LANES(l, exec, acc[l] = 0;);
        for (int e = 0; e < n; e++) {
            const uint64_t *r = ws_x_reg(w, src->vregs[e]);
            WS_LANES(l, exec, acc[l] |= ws_trunc(r[l], eb) << (e * eb););
        }
        WS_LANES(l, exec, d[l] = acc[l];);
        return 0;
    }
    const uint64_t *a = SRC(0);
    WS_LANES(l, exec, d[l] = a[l];);
    return 0;
}

/* ---------------------------------------------------------------- dispatch */

int ws_x_alu(ws_warp *w, const ws_inst *in, uint32_t exec)
{
    if (!exec)
        return 0;
    ws_ptype t = (ws_ptype)in->type;
    int fl = t == WS_P_F32 || t == WS_P_F64;
    int half = t == WS_P_F16 || t == WS_P_F16X2 || t == WS_P_BF16 || t == WS_P_BF16X2;
    int pair = t == WS_P_F16X2 || t == WS_P_BF16X2;
    if (half && in->op != WS_OP_MOV && in->op != WS_OP_CVT && in->op != WS_OP_SELP &&
        in->op != WS_OP_SET && (in->op != WS_OP_SETP || pair))
        return ws_x_half(w, in, exec); /* exec_half.c */
    if (t == WS_P_U16X2 || t == WS_P_S16X2)
        return simd16(w, in, exec);
    switch (in->op) {
    case WS_OP_MOV: return mov(w, in, exec);
    case WS_OP_CVT: return cvt(w, in, exec);
    case WS_OP_SETP: return setp(w, in, exec);
    case WS_OP_SET: return set(w, in, exec);
    case WS_OP_SELP: case WS_OP_SLCT: return select_op(w, in, exec);
    case WS_OP_TESTP: return testp(w, in, exec);
    case WS_OP_ADD: case WS_OP_SUB:
        return fl ? float_op(w, in, exec) : int_add_sub(w, in, exec, in->op == WS_OP_SUB);
    case WS_OP_ADDC: return int_add_sub(w, in, exec, 0);
    case WS_OP_SUBC: return int_add_sub(w, in, exec, 1);
    case WS_OP_MUL: return fl ? float_op(w, in, exec) : int_mul(w, in, exec, 0);
    case WS_OP_MAD: case WS_OP_MADC:
        if (fl)
            return float_op(w, in, exec);
        if (in->op == WS_OP_MADC || (in->flags & WS_F_CC))
            return int_mad_carry(w, in, exec);
        return int_mul(w, in, exec, 1);
    case WS_OP_MUL24: case WS_OP_MAD24: return int_mul24(w, in, exec);
    case WS_OP_DIV: case WS_OP_REM:
        return fl ? float_op(w, in, exec) : int_div_rem(w, in, exec, in->op == WS_OP_REM);
    case WS_OP_MIN: case WS_OP_MAX: case WS_OP_ABS: case WS_OP_NEG:
        return fl ? float_op(w, in, exec) : int_minmax_abs_neg(w, in, exec);
    case WS_OP_AND: case WS_OP_OR: case WS_OP_XOR: case WS_OP_NOT: case WS_OP_CNOT:
        return logic(w, in, exec);
    case WS_OP_SHL: case WS_OP_SHR: return shift(w, in, exec);
    case WS_OP_SHF: return shf(w, in, exec);
    case WS_OP_BMSK: return bmsk(w, in, exec);
    case WS_OP_FNS: return fns(w, in, exec);
    case WS_OP_POPC: case WS_OP_CLZ: case WS_OP_BREV: case WS_OP_BFIND: case WS_OP_BFE:
    case WS_OP_BFI:
        return bitops(w, in, exec);
    case WS_OP_PRMT: return prmt(w, in, exec);
    case WS_OP_LOP3: return lop3(w, in, exec);
    case WS_OP_SAD: return sad(w, in, exec);
    case WS_OP_DP4A: case WS_OP_DP2A: return dot_product(w, in, exec);
    case WS_OP_VABSDIFF4: return vabsdiff4(w, in, exec);
    case WS_OP_FMA: case WS_OP_SQRT: case WS_OP_RSQRT: case WS_OP_RCP: case WS_OP_SIN:
    case WS_OP_COS: case WS_OP_LG2: case WS_OP_EX2: case WS_OP_COPYSIGN: case WS_OP_TANH:
        if (!fl)
            break;
        return float_op(w, in, exec);
    default:
        break;
    }
    char name[96];
    ws_inst_opname(in, name, sizeof name);
    return ws_x_fault(w, in, __builtin_ctz(exec), 0, WS_ERR_UNSUPPORTED,
                      "unsupported instruction '%s' in the simulator", name);
}
