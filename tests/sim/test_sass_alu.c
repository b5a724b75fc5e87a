/* test_sass_alu.c — the SASS integer and logic handlers (sass_alu.c) one instruction at a
 * time, without the parser: each instruction is built as the parser builds the nvdisasm
 * line quoted beside it, run on a bare warp, and checked against the PTX ISA / CUDA
 * meaning of the sequence ptxas emits it in (64-bit add, compare, shift, address); and the
 * lanes BRA.U.ANY takes. */
#include <stdint.h>
#include "tests/sim/sass_unit.h"

/* Lanes get 64-bit values a, b that cover carries, borrows, signs and equal words. */
static void fill64(uint64_t *a, uint64_t *b, uint64_t seed)
{
    uint64_t s = seed;
    for (int l = 0; l < WS_WARP; l++) {
        a[l] = su_rand(&s);
        b[l] = su_rand(&s);
        switch (l % 8) {
        case 0: b[l] = a[l]; break;                                   /* equal */
        case 1: b[l] = (a[l] & 0xffffffff00000000ull) | (uint32_t)b[l]; break; /* same high */
        case 2: b[l] = (uint32_t)a[l] | (b[l] << 32); break;          /* same low */
        case 3: a[l] = 0xffffffffffffffffull; break;
        case 4: b[l] = 0; break;
        case 5: a[l] = 0x8000000000000000ull; break;
        default: break;
        }
    }
}

static void set_lanes64(int reg, const uint64_t *v)
{
    for (int l = 0; l < WS_WARP; l++) {
        su_r(reg)[l] = (uint32_t)v[l];
        su_r(reg + 1)[l] = (uint32_t)(v[l] >> 32);
    }
}

static void test_iadd3(void)
{
    su_reset();
    /* IADD3 R4, P0, P1, R2, R3, RZ: 0xffffffff + 1 carries once */
    su_set(2, 0xffffffffu);
    su_set(3, 1);
    RUN("IADD3", R(4), P(0), P(1), R(2), R(3), RZ);
    CHECK(su_r(4)[0] == 0 && su_w.p[0] == WS_FULL_MASK && su_w.p[1] == 0, "carry 1: %x %x %x",
          su_r(4)[0], su_w.p[0], su_w.p[1]);
    /* three all-ones words carry twice; IADD3.X adds both carries back */
    su_set(5, 0xffffffffu);
    su_set(3, 0xffffffffu);
    RUN("IADD3", R(4), P(0), P(1), R(2), R(3), R(5));
    CHECK(su_r(4)[7] == 0xfffffffdu && su_w.p[0] == WS_FULL_MASK && su_w.p[1] == WS_FULL_MASK,
          "carry 2: %x %x %x", su_r(4)[7], su_w.p[0], su_w.p[1]);
    su_set(6, 10);
    RUN("IADD3.X", R(7), R(6), RZ, RZ, P(0), P(1));
    CHECK(su_r(7)[3] == 12, "IADD3.X adds two carries: %u", su_r(7)[3]);
    /* UIADD3.64 UR4, UR4, 0xf00, URZ (an address in a uniform pair): the carry reaches UR5 */
    su_w.ur[4] = 0xfffff800u;
    su_w.ur[5] = 7;
    RUN("UIADD3.64", UR(4), UR(4), IMM(0xf00), URZ);
    CHECK(su_w.ur[4] == 0x700u && su_w.ur[5] == 8, "UIADD3.64: %x %x", su_w.ur[4], su_w.ur[5]);
    /* IADD3 R4, P0, R2, R6, RZ; IADD3.X R5, R3, R7, RZ, P0, !PT = R3:R2 + R7:R6 */
    uint64_t a[WS_WARP], b[WS_WARP];
    fill64(a, b, 1);
    set_lanes64(2, a);
    set_lanes64(6, b);
    RUN("IADD3", R(4), P(0), R(2), R(6), RZ);
    RUN("IADD3.X", R(5), R(3), R(7), RZ, P(0), NOT(PT));
    int bad = 0;
    for (int l = 0; l < WS_WARP; l++)
        bad += su_get64(4, l) != a[l] + b[l];
    CHECK(bad == 0, "64-bit add: %d lanes wrong", bad);
    /* IADD3 R4, P0, R2, -R6, RZ; IADD3.X R5, R3, ~R7, RZ, P0, !PT = R3:R2 - R7:R6 */
    RUN("IADD3", R(4), P(0), R(2), NEG(R(6)), RZ);
    RUN("IADD3.X", R(5), R(3), NOT(R(7)), RZ, P(0), NOT(PT));
    bad = 0;
    for (int l = 0; l < WS_WARP; l++)
        bad += su_get64(4, l) != a[l] - b[l];
    CHECK(bad == 0, "64-bit subtract: %d lanes wrong", bad);
    /* a 128-bit a - b - c as ptxas builds it: IADD3 R4, P0, P1, R2, -R6, -R8 for the low
     * words, then IADD3.X R5, P0, P1, R3, ~R7, ~R9, P1, P0 (two carries out and two in,
     * eight operands) for the next: R3:R2 - R7:R6 - R9:R8 */
    uint64_t c64[WS_WARP];
    for (int l = 0; l < WS_WARP; l++)
        c64[l] = 0x9e3779b97f4a7c15ull * (uint64_t)(l + 3);
    set_lanes64(8, c64);
    RUN("IADD3", R(4), P(0), P(1), R(2), NEG(R(6)), NEG(R(8)));
    RUN("IADD3.X", R(5), P(0), P(1), R(3), NOT(R(7)), NOT(R(9)), P(1), P(0));
    bad = 0;
    for (int l = 0; l < WS_WARP; l++)
        bad += su_get64(4, l) != a[l] - b[l] - c64[l];
    CHECK(bad == 0, "three-operand 64-bit subtract (IADD3.X of eight operands): %d lanes wrong",
          bad);
    /* IADD3 R12, R14, -0x1, RZ and a predicated-off lane keeps its value */
    su_set(14, 5);
    su_set(12, 99);
    ws_sass_inst in = su_inst("IADD3", 4, R(12), R(14), IMM(-1), RZ);
    su_exec(&in, 0xfffffffeu);
    CHECK(su_r(12)[1] == 4 && su_r(12)[0] == 99, "immediate add under a mask: %u %u",
          su_r(12)[1], su_r(12)[0]);
    /* UIADD3 UR8, UP0, UR8, 0x4, URZ; UIADD3.X UR9, URZ, UR9, URZ, UP0, !UPT */
    su_w.ur[8] = 0xfffffffeu;
    su_w.ur[9] = 7;
    RUN("UIADD3", UR(8), UP(0), UR(8), IMM(4), URZ);
    RUN("UIADD3.X", UR(9), URZ, UR(9), URZ, UP(0), NOT(UPT));
    CHECK(su_w.ur[8] == 2 && su_w.ur[9] == 8 && (su_w.up & 1), "uniform 64-bit add: %x %x",
          su_w.ur[9], su_w.ur[8]);
}

static void test_imad(void)
{
    su_reset();
    /* IMAD.WIDE R2, R0, R1, RZ with -2 * 4 sign-extends; .U32 zero-extends */
    su_set(0, 0xfffffffeu);
    su_set(1, 4);
    RUN("IMAD.WIDE", R(2), R(0), R(1), RZ);
    CHECK(su_get64(2, 0) == (uint64_t)-8, "IMAD.WIDE: %llx", (unsigned long long)su_get64(2, 0));
    RUN("IMAD.WIDE.U32", R(2), R(0), IMM(4), RZ);
    CHECK(su_get64(2, 0) == 0x3fffffff8ull, "IMAD.WIDE.U32: %llx",
          (unsigned long long)su_get64(2, 0));
    /* IMAD.WIDE R6, R3, 0x4, R6: an address + 4 * signed index */
    su_set64(6, 0x7000000000001000ull);
    su_set(3, (uint32_t)-3);
    RUN("IMAD.WIDE", R(6), R(3), IMM(4), R(6));
    CHECK(su_get64(6, 0) == 0x7000000000001000ull - 12, "IMAD.WIDE address");
    /* IMAD.MOV R13, RZ, RZ, -R10; IMAD.SHL.U32 R2, R2, 0x2, RZ; IMAD.IADD R12, R12, 0x1, -R13 */
    su_set(10, 5);
    RUN("IMAD.MOV", R(13), RZ, RZ, NEG(R(10)));
    CHECK(su_r(13)[0] == (uint32_t)-5, "IMAD.MOV -R: %d", (int)su_r(13)[0]);
    su_set(2, 0x40000003u);
    RUN("IMAD.SHL.U32", R(2), R(2), IMM(4), RZ); /* the immediate is the factor 1 << n */
    CHECK(su_r(2)[0] == 12, "IMAD.SHL: %x", su_r(2)[0]);
    su_set(12, 100);
    RUN("IMAD.IADD", R(12), R(12), IMM(1), NEG(R(13)));
    CHECK(su_r(12)[0] == 105, "IMAD.IADD: %u", su_r(12)[0]);
    /* IMAD.X R13, RZ, RZ, R11, P0 = R11 + P0 */
    su_set(11, 41);
    su_w.p[0] = 0x0000ffffu;
    RUN("IMAD.X", R(13), RZ, RZ, R(11), P(0));
    CHECK(su_r(13)[0] == 42 && su_r(13)[31] == 41, "IMAD.X carry in: %u %u", su_r(13)[0],
          su_r(13)[31]);
    /* IMAD.MOV.U32 R12, RZ, RZ, RZ; IMAD.HI.U32 R13, R13, R15, R12: c is the pair R13:R12,
     * so the result is mulhi(R13, R15) + R13 (ptxas's integer-division refinement) */
    su_set(13, 0x89abcdefu);
    su_set(15, 0xfedcba98u);
    RUN("IMAD.MOV.U32", R(12), RZ, RZ, RZ);
    RUN("IMAD.HI.U32", R(13), R(13), R(15), R(12));
    uint32_t want = (uint32_t)(((uint64_t)0x89abcdefu * 0xfedcba98u) >> 32) + 0x89abcdefu;
    CHECK(su_r(13)[0] == want, "IMAD.HI.U32 with pair: %x want %x", su_r(13)[0], want);
    /* IMAD.HI R0, R7, 0x55555556, RZ: signed mulhi (division by 3) */
    su_set(7, (uint32_t)-300);
    RUN("IMAD.HI", R(0), R(7), IMM(0x55555556), RZ);
    CHECK((int32_t)su_r(0)[0] == (int32_t)(((int64_t)-300 * 0x55555556) >> 32), "IMAD.HI: %d",
          (int)su_r(0)[0]);
    /* 64-bit multiply: IMAD R7, R2, R5, RZ; IMAD.WIDE.U32 R8, R2, R4, RZ;
     * IMAD R11, R3, R4, R7; IADD3 R9, R9, R11, RZ  ->  R9:R8 = R3:R2 * R5:R4 */
    uint64_t a[WS_WARP], b[WS_WARP];
    fill64(a, b, 2);
    set_lanes64(2, a);
    set_lanes64(4, b);
    RUN("IMAD", R(7), R(2), R(5), RZ);
    RUN("IMAD.WIDE.U32", R(8), R(2), R(4), RZ);
    RUN("IMAD", R(11), R(3), R(4), R(7));
    RUN("IADD3", R(9), R(9), R(11), RZ);
    int bad = 0;
    for (int l = 0; l < WS_WARP; l++)
        bad += su_get64(8, l) != a[l] * b[l];
    CHECK(bad == 0, "64-bit multiply: %d lanes wrong", bad);
    /* IMAD.WIDE.U32 R12, P0, R8, R11, R6: the carry out of the 64-bit sum */
    su_set(8, 0xffffffffu);
    su_set(11, 0xffffffffu);
    su_set64(6, 0xffffffffffffffffull);
    RUN("IMAD.WIDE.U32", R(12), P(1), R(8), R(11), R(6));
    CHECK(su_get64(12, 0) == 0xfffffffe00000000ull && su_w.p[1] == WS_FULL_MASK,
          "IMAD.WIDE carry out: %llx %x", (unsigned long long)su_get64(12, 0), su_w.p[1]);
    /* UIMAD.WIDE UR4, UR4, 0x4, UR6 */
    su_w.ur[4] = 10;
    su_w.ur[6] = 0x100;
    su_w.ur[7] = 1;
    RUN("UIMAD.WIDE", UR(4), UR(4), IMM(4), UR(6));
    CHECK(su_w.ur[4] == 0x128 && su_w.ur[5] == 1, "UIMAD.WIDE: %x %x", su_w.ur[5], su_w.ur[4]);
}

static void test_lop3(void)
{
    su_reset();
    uint64_t s = 3;
    for (int l = 0; l < WS_WARP; l++) {
        su_r(1)[l] = (uint32_t)su_rand(&s);
        su_r(2)[l] = (uint32_t)su_rand(&s);
        su_r(3)[l] = (uint32_t)su_rand(&s);
    }
    static const struct { uint32_t lut; int op; } cases[] = {
        {0xc0, 0}, {0xfc, 1}, {0x3c, 2}, {0x96, 3}, {0xe8, 4}, {0xf8, 5}, {0x33, 6}, {0x48, 7},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        RUN("LOP3.LUT", R(4), R(1), R(2), R(3), IMM(cases[i].lut), NOT(PT));
        int bad = 0;
        for (int l = 0; l < WS_WARP; l++) {
            uint32_t a = su_r(1)[l], b = su_r(2)[l], c = su_r(3)[l], w;
            switch (cases[i].op) {
            case 0: w = a & b; break;
            case 1: w = a | b; break;
            case 2: w = a ^ b; break;
            case 3: w = a ^ b ^ c; break;
            case 4: w = (a & b) | (a & c) | (b & c); break;
            case 5: w = a | (b & c); break;
            case 6: w = ~b; break;
            default: w = b & (a ^ c); break; /* the sign of a quotient */
            }
            bad += su_r(4)[l] != w;
        }
        CHECK(bad == 0, "LOP3 lut %#x: %d lanes wrong", cases[i].lut, bad);
    }
    /* LOP3.LUT P0, RZ, R4, 0x4, RZ, 0xc0, !PT: P0 = (R4 & 4) != 0 */
    for (int l = 0; l < WS_WARP; l++)
        su_r(4)[l] = (uint32_t)l;
    RUN("LOP3.LUT", P(0), RZ, R(4), IMM(4), RZ, IMM(0xc0), NOT(PT));
    CHECK(su_w.p[0] == 0xf0f0f0f0u, "LOP3 predicate: %08x", su_w.p[0]);
    /* .PAND: P1 = (R4 & 4) != 0 && P2 */
    su_w.p[2] = 0x0000ffffu;
    RUN("LOP3.LUT.PAND", P(1), RZ, R(4), IMM(4), RZ, IMM(0xc0), P(2));
    CHECK(su_w.p[1] == 0x0000f0f0u, "LOP3.PAND: %08x", su_w.p[1]);
    /* PLOP3.LUT P0, PT, P0, P1, PT, 0xa8, 0x0: (P0 | P1) & PT; lut 0x8 of PT,PT,PT: false */
    su_w.p[0] = 0x0000ff00u;
    su_w.p[1] = 0x00ff0000u;
    RUN("PLOP3.LUT", P(0), PT, P(0), P(1), PT, IMM(0xa8), IMM(0));
    CHECK(su_w.p[0] == 0x00ffff00u, "PLOP3 or: %08x", su_w.p[0]);
    RUN("PLOP3.LUT", P(3), P(4), PT, PT, PT, IMM(0x8), IMM(0x80));
    CHECK(su_w.p[3] == 0 && su_w.p[4] == WS_FULL_MASK, "PLOP3 constants: %x %x", su_w.p[3],
          su_w.p[4]);
}

static int cmp64(int cmp, uint64_t x, uint64_t y, int sgn)
{
    int lt = sgn ? (int64_t)x < (int64_t)y : x < y;
    switch (cmp) {
    case WS_SMOD_LT: return lt;
    case WS_SMOD_LE: return lt || x == y;
    case WS_SMOD_GT: return !lt && x != y;
    case WS_SMOD_GE: return !lt;
    case WS_SMOD_EQ: return x == y;
    default: return x != y;
    }
}

static void test_isetp(void)
{
    su_reset();
    for (int l = 0; l < WS_WARP; l++)
        su_r(1)[l] = (uint32_t)(l - 16);
    /* ISETP.GE.AND P0, PT, R1, RZ, PT (signed) and .U32 */
    RUN("ISETP.GE.AND", P(0), P(1), R(1), RZ, PT);
    CHECK(su_w.p[0] == 0xffff0000u && su_w.p[1] == 0x0000ffffu, "signed GE: %x %x", su_w.p[0],
          su_w.p[1]);
    RUN("ISETP.GT.U32.AND", P(0), PT, R(1), IMM(5), PT);
    CHECK(su_w.p[0] == (0x0000ffffu | 0xffc00000u), "unsigned GT: %08x", su_w.p[0]);
    /* ISETP.GT.U32.OR P0, PT, R13, 0xfd, P0 and ISETP.EQ.OR P0, PT, R25, RZ, !P0 */
    su_w.p[2] = 0x1u;
    RUN("ISETP.EQ.OR", P(3), P(4), R(1), RZ, P(2));
    CHECK(su_w.p[3] == 0x00010001u && su_w.p[4] == 0xfffeffffu, "EQ.OR: %08x %08x", su_w.p[3],
          su_w.p[4]);
    RUN("ISETP.NE.XOR", P(3), PT, R(1), RZ, P(2));
    CHECK(su_w.p[3] == 0xfffefffeu, "NE.XOR: %08x", su_w.p[3]);
    /* 64-bit compares: ISETP.cmp.U32.AND P0, PT, lo_a, lo_b, PT;
     *                  ISETP.cmp[.U32].AND.EX P0, PT, hi_a, hi_b, PT, P0 */
    static const char *const names[6][2] = {
        {"ISETP.LT.U32.AND", "ISETP.LT.AND.EX"}, {"ISETP.LE.U32.AND", "ISETP.LE.AND.EX"},
        {"ISETP.GT.U32.AND", "ISETP.GT.AND.EX"}, {"ISETP.GE.U32.AND", "ISETP.GE.AND.EX"},
        {"ISETP.EQ.U32.AND", "ISETP.EQ.AND.EX"}, {"ISETP.NE.U32.AND", "ISETP.NE.AND.EX"}};
    static const char *const unames[6] = {"ISETP.LT.U32.AND.EX", "ISETP.LE.U32.AND.EX",
                                          "ISETP.GT.U32.AND.EX", "ISETP.GE.U32.AND.EX",
                                          "ISETP.EQ.U32.AND.EX", "ISETP.NE.U32.AND.EX"};
    static const int cmps[6] = {WS_SMOD_LT, WS_SMOD_LE, WS_SMOD_GT, WS_SMOD_GE, WS_SMOD_EQ,
                                WS_SMOD_NE};
    uint64_t a[WS_WARP], b[WS_WARP];
    for (int seed = 0; seed < 4; seed++) {
        fill64(a, b, 10 + (uint64_t)seed);
        set_lanes64(2, a);
        set_lanes64(4, b);
        for (int c = 0; c < 6; c++)
            for (int sgn = 0; sgn < 2; sgn++) {
                RUN(names[c][0], P(0), PT, R(2), R(4), PT);
                ws_sass_inst ex = su_inst(sgn ? names[c][1] : unames[c], 6, P(0), PT, R(3), R(5),
                                          PT, P(0));
                su_exec(&ex, WS_FULL_MASK);
                uint32_t want = 0;
                for (int l = 0; l < WS_WARP; l++)
                    want |= (uint32_t)cmp64(cmps[c], a[l], b[l], sgn) << l;
                CHECK(su_w.p[0] == want, "%s: %08x want %08x", ex.name, su_w.p[0], want);
            }
    }
    /* UISETP.NE.AND UP0, UPT, UR4, URZ, UPT */
    su_w.ur[4] = 3;
    RUN("UISETP.NE.AND", UP(0), UPT, UR(4), URZ, UPT);
    CHECK((su_w.up & 1) == 1, "UISETP: %x", su_w.up);
}

static void test_shifts(void)
{
    su_reset();
    uint64_t a[WS_WARP], b[WS_WARP];
    fill64(a, b, 20);
    set_lanes64(2, a);
    for (int l = 0; l < WS_WARP; l++)
        su_r(6)[l] = (uint32_t)(2 * l + (l & 1)); /* amounts 0..63 */
    /* shl.b64: SHF.L.U64.HI R5, R2, R6, R3; SHF.L.U32 R4, R2, R6, RZ */
    RUN("SHF.L.U64.HI", R(5), R(2), R(6), R(3));
    RUN("SHF.L.U32", R(4), R(2), R(6), RZ);
    int bad = 0;
    for (int l = 0; l < WS_WARP; l++)
        bad += su_get64(4, l) != a[l] << su_r(6)[l];
    CHECK(bad == 0, "64-bit shl: %d lanes wrong", bad);
    /* shr.s64: SHF.R.S64 R4, R2, R6, R3; SHF.R.S32.HI R5, RZ, R6, R3 */
    RUN("SHF.R.S64", R(4), R(2), R(6), R(3));
    RUN("SHF.R.S32.HI", R(5), RZ, R(6), R(3));
    bad = 0;
    for (int l = 0; l < WS_WARP; l++)
        bad += su_get64(4, l) != (uint64_t)((int64_t)a[l] >> su_r(6)[l]);
    CHECK(bad == 0, "64-bit shr.s: %d lanes wrong", bad);
    /* shr.u64: SHF.R.U64 R4, R2, R6, R3; SHF.R.U32.HI R5, RZ, R6, R3 */
    RUN("SHF.R.U64", R(4), R(2), R(6), R(3));
    RUN("SHF.R.U32.HI", R(5), RZ, R(6), R(3));
    bad = 0;
    for (int l = 0; l < WS_WARP; l++)
        bad += su_get64(4, l) != a[l] >> su_r(6)[l];
    CHECK(bad == 0, "64-bit shr.u: %d lanes wrong", bad);
    /* __funnelshift_l(lo, hi, n) = SHF.L.W.U32.HI Rd, lo, n, hi (n mod 32);
     * __funnelshift_lc clamps: SHF.L.U32.HI */
    su_set(2, 0x89abcdefu);
    su_set(3, 0x01234567u);
    su_set(6, 36);
    RUN("SHF.L.W.U32.HI", R(8), R(2), R(6), R(3));
    RUN("SHF.L.U32.HI", R(9), R(2), R(6), R(3));
    RUN("SHF.R.W.U32", R(10), R(2), R(6), R(3));
    CHECK(su_r(8)[0] == 0x12345678u && su_r(9)[0] == 0x89abcdefu && su_r(10)[0] == 0x789abcdeu,
          "funnel shifts: %x %x %x", su_r(8)[0], su_r(9)[0], su_r(10)[0]);
    /* SHL/SHR (sm_70) clamp */
    su_set(6, 40);
    RUN("SHL", R(8), R(3), R(6));
    RUN("SHR", R(9), R(2), R(6));
    CHECK(su_r(8)[0] == 0 && su_r(9)[0] == 0xffffffffu, "SHL/SHR clamp: %x %x", su_r(8)[0],
          su_r(9)[0]);
    /* USHF.L.U32 UR4, UR4, 0x2, URZ */
    su_w.ur[4] = 3;
    RUN("USHF.L.U32", UR(4), UR(4), IMM(2), URZ);
    CHECK(su_w.ur[4] == 12, "USHF: %u", su_w.ur[4]);
}

static void test_lea(void)
{
    su_reset();
    uint64_t base = 0x00007000fffffff0ull;
    su_set64(20, base);
    for (int l = 0; l < WS_WARP; l++) {
        su_r(0)[l] = (uint32_t)(l * 0x1000001 - 5); /* 32-bit signed indices */
        su_r(1)[l] = l & 1 ? 0 : 0xffffffffu;       /* arbitrary high words for the .HI form */
    }
    /* LEA R2, P0, R0, R20, 0x2; LEA.HI.X R3, R0, R21, R1, 0x2, P0: base + (R1:R0 << 2) */
    RUN("LEA", R(2), P(0), R(0), R(20), IMM(2));
    RUN("LEA.HI.X", R(3), R(0), R(21), R(1), IMM(2), P(0));
    int bad = 0;
    for (int l = 0; l < WS_WARP; l++) {
        uint64_t i = (uint64_t)su_r(1)[l] << 32 | su_r(0)[l];
        bad += su_get64(2, l) != base + (i << 2);
    }
    CHECK(bad == 0, "LEA pair: %d lanes wrong", bad);
    /* LEA R4, P1, R0, R20, 0x3; LEA.HI.X.SX32 R5, R0, R21, 0x3, P1: base + (sext(R0) << 3) */
    RUN("LEA", R(4), P(1), R(0), R(20), IMM(3));
    RUN("LEA.HI.X.SX32", R(5), R(0), R(21), IMM(3), P(1));
    bad = 0;
    for (int l = 0; l < WS_WARP; l++)
        bad += su_get64(4, l) != base + ((uint64_t)(int64_t)(int32_t)su_r(0)[l] << 3);
    CHECK(bad == 0, "LEA.HI.X.SX32: %d lanes wrong", bad);
    /* LEA.HI R13, R13, R7, RZ, 0x1f = R7 + (R13 >> 1); LEA R13, R10, 0xc0800000, 0x17 */
    su_set(13, 0x80000003u);
    su_set(7, 1);
    RUN("LEA.HI", R(14), R(13), R(7), RZ, IMM(0x1f));
    su_set(10, 3);
    RUN("LEA", R(15), R(10), IMM(0xc0800000), IMM(0x17));
    CHECK(su_r(14)[0] == 0x40000002u && su_r(15)[0] == 0xc0800000u + (3u << 23),
          "LEA.HI/LEA imm: %x %x", su_r(14)[0], su_r(15)[0]);
}

static void test_bits(void)
{
    su_reset();
    /* PRMT R21, R5, 0x5140, R4 (__byte_perm(x, y, 0x5140)); PRMT R15, R4, 0x9910, RZ
     * sign-extends the low half; PRMT .F4E / .B4E / .RC8 per the PTX ISA */
    su_set(5, 0x33221100u);
    su_set(4, 0x77665544u);
    RUN("PRMT", R(21), R(5), IMM(0x5140), R(4));
    CHECK(su_r(21)[0] == 0x55114400u, "PRMT: %08x", su_r(21)[0]);
    su_set(6, 0x0000a123u);
    RUN("PRMT", R(15), R(6), IMM(0x9910), RZ);
    CHECK(su_r(15)[0] == 0xffffa123u, "PRMT sign: %08x", su_r(15)[0]);
    RUN("PRMT.F4E", R(16), R(5), IMM(1), R(4));
    RUN("PRMT.B4E", R(17), R(5), IMM(1), R(4));
    RUN("PRMT.RC8", R(18), R(5), IMM(2), R(4));
    CHECK(su_r(16)[0] == 0x44332211u && su_r(17)[0] == 0x66770011u
          && su_r(18)[0] == 0x22222222u, "PRMT modes: %08x %08x %08x", su_r(16)[0], su_r(17)[0],
          su_r(18)[0]);
    /* SEL R0, R17, R13, P1; IMNMX/VIMNMX: PT = min, !PT = max */
    su_w.p[1] = 0x0000ffffu;
    su_set(17, (uint32_t)-1);
    su_set(13, 7);
    RUN("SEL", R(0), R(17), R(13), P(1));
    RUN("VIMNMX", R(1), R(17), R(13), PT);
    RUN("VIMNMX.U32", R(2), R(17), R(13), PT);
    RUN("IMNMX", R(3), R(17), R(13), NOT(PT));
    CHECK(su_r(0)[0] == 0xffffffffu && su_r(0)[31] == 7 && (int)su_r(1)[0] == -1 &&
          su_r(2)[0] == 7 && su_r(3)[0] == 7, "SEL/min/max: %x %x %x %x %x", su_r(0)[0],
          su_r(0)[31], su_r(1)[0], su_r(2)[0], su_r(3)[0]);
    /* VIADDMNMX R12, R22, -R13, 0xb9600000, !PT = max(R22 - R13, 0xb9600000) signed */
    su_set(22, 5);
    RUN("VIADDMNMX", R(12), R(22), NEG(R(13)), IMM(0xb9600000), NOT(PT));
    CHECK((int)su_r(12)[0] == -2, "VIADDMNMX: %d", (int)su_r(12)[0]);
    /* VIADDMNMX.RELU R14, R22, 0x1, R15, PT = max(0, min(R22 + 1, R15)): -2 + 1 -> 0,
     * 5 + 1 -> min(6, 4) = 4 */
    su_set(15, 4);
    for (int l = 0; l < WS_WARP; l++)
        su_r(22)[l] = l & 1 ? 5u : (uint32_t)-2;
    RUN("VIADDMNMX.RELU", R(14), R(22), IMM(1), R(15), PT);
    CHECK(su_r(14)[0] == 0 && su_r(14)[1] == 4, "VIADDMNMX.RELU: %d %d", (int)su_r(14)[0],
          (int)su_r(14)[1]);
    /* VIADDMNMX.S16x2 / .U16x2 (__viaddmax_s16x2, __viaddmin_u16x2): each half adds (and
     * wraps) on its own, then min/max; .RELU per half. a = (1, -3), b = (0x7fff, 1):
     * sums (0x8000 wrapped, -2); c = (5, -4) */
    su_set(16, 0x0001fffdu);
    su_set(17, 0x7fff0001u);
    su_set(18, 0x0005fffcu);
    RUN("VIADDMNMX.S16x2", R(19), R(16), R(17), R(18), NOT(PT));        /* max */
    RUN("VIADDMNMX.S16x2.RELU", R(20), R(16), R(17), R(18), NOT(PT));
    RUN("VIADDMNMX.U16x2", R(21), R(16), R(17), R(18), PT);             /* min */
    CHECK(su_r(19)[0] == 0x0005fffeu && su_r(20)[0] == 0x00050000u &&
          su_r(21)[0] == 0x0005fffcu, "VIADDMNMX.S16x2/.RELU/.U16x2: %08x %08x %08x",
          su_r(19)[0], su_r(20)[0], su_r(21)[0]);
    /* VABSDIFF R2, R5, R4, 0x3 = __sad; VABSDIFF.U32; IABS; VIADD */
    su_set(5, (uint32_t)-4);
    su_set(4, 6);
    RUN("VABSDIFF", R(2), R(5), R(4), IMM(3));
    RUN("VABSDIFF.U32", R(3), R(5), R(4), IMM(5));
    RUN("IABS", R(6), R(5));
    RUN("VIADD", R(7), R(4), IMM(0xffffffff));
    CHECK(su_r(2)[0] == 13 && su_r(3)[0] == 0xfffffff6u + 5 && su_r(6)[0] == 4 &&
          su_r(7)[0] == 5, "VABSDIFF/IABS/VIADD: %u %x %u %u", su_r(2)[0], su_r(3)[0],
          su_r(6)[0], su_r(7)[0]);
    /* VIADD.16x2 R3, R5, -R2 (__vsub2): each half negated on its own, no borrow between
     * them: 0x000c219e - 0xfff16905 = (0x000c - 0xfff1, 0x219e - 0x6905) = 0x001bb899 (a
     * whole-word negation gives 0x001ab899); VIMNMX.S16x2 of -R2 the same way */
    su_set(5, 0x000c219eu);
    su_set(2, 0xfff16905u);
    RUN("VIADD.16x2", R(3), R(5), NEG(R(2)));
    RUN("VIMNMX.S16x2", R(8), R(5), NEG(R(2)), NOT(PT));
    CHECK(su_r(3)[0] == 0x001bb899u && su_r(8)[0] == 0x000f219eu,
          "VIADD.16x2 / VIMNMX.S16x2 with a negated operand: %08x %08x", su_r(3)[0], su_r(8)[0]);
    /* POPC, FLO.U32 (__clz as 31 - FLO), FLO.U32.SH, FLO.S32, BREV, BMSK, SGXT */
    for (int l = 0; l < WS_WARP; l++)
        su_r(8)[l] = l == 0 ? 0 : 1u << (l - 1) | 1u;
    RUN("POPC", R(9), R(8));
    RUN("FLO.U32", R(10), R(8));
    RUN("FLO.U32.SH", R(11), R(8));
    RUN("BREV", R(12), R(8));
    CHECK(su_r(9)[0] == 0 && su_r(9)[5] == 2 && su_r(9)[1] == 1 && su_r(10)[0] == 0xffffffffu &&
          su_r(10)[32 - 1] == 30 && su_r(11)[31] == 1 && su_r(11)[0] == 0xffffffffu &&
          su_r(12)[3] == 0xa0000000u, "POPC/FLO/BREV: %u %u %u %x %u %x", su_r(9)[5],
          su_r(10)[0], su_r(10)[31], su_r(11)[31], su_r(11)[0], su_r(12)[3]);
    su_set(8, 0xfffff000u);
    RUN("FLO.S32", R(13), R(8));
    CHECK(su_r(13)[0] == 11, "FLO.S32: %u", su_r(13)[0]);
    su_set(1, 4);
    su_set(2, 8);
    RUN("BMSK", R(14), R(1), R(2));
    su_set(3, 0x1f0);
    RUN("SGXT", R(15), R(3), IMM(9));
    RUN("SGXT.U32", R(16), R(3), IMM(4));
    CHECK(su_r(14)[0] == 0xff0u && su_r(15)[0] == 0xfffffff0u && su_r(16)[0] == 0,
          "BMSK/SGXT: %x %x %x", su_r(14)[0], su_r(15)[0], su_r(16)[0]);
}

static void test_moves(void)
{
    su_reset();
    /* CS2R R2, SRZ writes the pair R2, R3; CS2R.32 R2, SR_CLOCKLO (clock()) only R2 */
    static ws_sass_run run;
    static ws_sass_cta cta;
    run.base.block[0] = WS_WARP;
    run.base.block[1] = run.base.block[2] = 1;
    cta.run = &run;
    su_w.cta = &cta;
    ws_sass_opnd srz = su_o(WS_SO_SREG, -1);
    srz.sreg = WS_SSR_ZERO;
    su_set(2, 7);
    su_set(3, 9);
    RUN("CS2R.32", R(2), srz);
    CHECK(su_r(2)[5] == 0 && su_r(3)[5] == 9, "CS2R.32 writes one register: %u %u",
          su_r(2)[5], su_r(3)[5]);
    RUN("CS2R", R(2), srz);
    CHECK(su_r(2)[5] == 0 && su_r(3)[5] == 0, "CS2R writes two: %u %u", su_r(2)[5], su_r(3)[5]);
    su_w.cta = NULL;
    /* P2R R0, PR, RZ, 0x7f packs P0..P6; R2P PR, R1, 0x3 unpacks bits 0 and 1 */
    su_w.p[0] = 0x1u;
    su_w.p[3] = 0x3u;
    su_w.p[6] = 0x2u;
    RUN("P2R", R(0), P(0), RZ, IMM(0x7f));
    CHECK(su_r(0)[0] == 0x09u && su_r(0)[1] == 0x48u && su_r(0)[2] == 0, "P2R: %x %x",
          su_r(0)[0], su_r(0)[1]);
    /* UP2UR UR5, UPR, UR6, 0x6 packs UP1 and UP2 over UR6's other bits */
    su_w.up = 0x80 | 0x04 | 0x01;
    su_w.ur[6] = 0xf0u;
    RUN("UP2UR", UR(5), su_o(WS_SO_PR, 1), UR(6), IMM(0x6));
    CHECK(su_w.ur[5] == 0xf4u, "UP2UR: %x", su_w.ur[5]);
    su_w.up = 0x80;
    su_set(1, 0x2u);
    RUN("R2P", P(0), R(1), IMM(0x3));
    CHECK(su_w.p[0] == 0 && su_w.p[1] == WS_FULL_MASK && su_w.p[3] == 0x3u, "R2P: %x %x %x",
          su_w.p[0], su_w.p[1], su_w.p[3]);
    /* MOV R2, 0x12c0; MOV with a quad mask writes lanes 0 and 2 of each quad */
    RUN("MOV", R(2), IMM(0x12c0));
    RUN("MOV", R(3), R(2), IMM(0x5));
    CHECK(su_r(2)[9] == 0x12c0 && su_r(3)[4] == 0x12c0 && su_r(3)[5] == 0 &&
          su_r(3)[6] == 0x12c0, "MOV: %x %x %x", su_r(3)[4], su_r(3)[5], su_r(3)[6]);
    /* R2UR UR4, R18 takes the lowest executing lane; UMOV UR5, 0x400 */
    for (int l = 0; l < WS_WARP; l++)
        su_r(18)[l] = 100u + (uint32_t)l;
    ws_sass_inst in = su_inst("R2UR", 2, UR(4), R(18));
    su_exec(&in, 0xfff00000u);
    RUN("UMOV", UR(5), IMM(0x400));
    CHECK(su_w.ur[4] == 120 && su_w.ur[5] == 0x400, "R2UR/UMOV: %u %x", su_w.ur[4], su_w.ur[5]);
    /* R2UR P1, URZ, R3: P1 set in the lanes whose R3 is not the lowest lane's */
    su_set(3, 77);
    su_w.p[1] = WS_FULL_MASK;
    RUN("R2UR", P(1), URZ, R(3));
    CHECK(su_w.p[1] == 0, "R2UR uniform: %x", su_w.p[1]);
    su_r(3)[9] = 78;
    RUN("R2UR", P(1), UR(6), R(3));
    CHECK(su_w.p[1] == 1u << 9 && su_w.ur[6] == 77, "R2UR not uniform: %x %u", su_w.p[1],
          su_w.ur[6]);
    /* R2UR.OR P1, UR7, R4: or'd in (a 64-bit value in two registers, as the waterfall
       loops of ptxas take an mbarrier address) */
    su_set(4, 5);
    su_r(4)[3] = 6;
    RUN("R2UR.OR", P(1), UR(7), R(4));
    CHECK(su_w.p[1] == (1u << 9 | 1u << 3) && su_w.ur[7] == 5, "R2UR.OR: %x %u", su_w.p[1],
          su_w.ur[7]);
    RUN("NOP", RZ);
}

/* BRA.U.ANY: the whole group branches when any executing lane would (ptxas's waterfall
 * loops); a plain BRA takes only the executing lanes. */
static void test_bra_any(void)
{
    su_reset();
    su_w.groups[0] = (ws_sass_group){0, 0x0000ffffu, WS_SG_READY, -1, 0, 1, 0};
    su_w.ngroups = 1;
    su_w.cur = 0;
    ws_sass_inst in = su_inst("BRA.U.ANY", 0);
    in.target = 3;
    ws_sass_fx fx;
    CHECK(su_exec_fx(&in, 0x00000100u, &fx) == 0 && fx.taken == 0x0000ffffu && fx.next_pc == 3,
          "BRA.U.ANY: one lane takes the group: %x %d", fx.taken, fx.next_pc);
    CHECK(su_exec_fx(&in, 0, &fx) == 0 && fx.taken == 0, "BRA.U.ANY: no lane, no branch: %x",
          fx.taken);
    in = su_inst("BRA", 0);
    in.target = 3;
    CHECK(su_exec_fx(&in, 0x00000100u, &fx) == 0 && fx.taken == 0x00000100u,
          "BRA: only the executing lanes: %x", fx.taken);
    su_w.ngroups = 0;
}

int main(void)
{
    test_iadd3();
    test_imad();
    test_lop3();
    test_isetp();
    test_shifts();
    test_lea();
    test_bits();
    test_moves();
    test_bra_any();
    return ws_test_finish("test_sass_alu");
}
