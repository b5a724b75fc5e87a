/* test_sass_fast.c — the SASS executor's decoded plain forms (sass_fast.c) against the
 * table's handlers: each instruction runs once through its sass_ops.def handler and once
 * through the specialized handler ws_sass_decode gave it, from the same registers, under
 * full, partial and empty lane masks; every register must come out the same. Forms the
 * decoder must leave to the table (carries, predicate outputs, `~` on a register) too. */
#include <stdint.h>
#include <stdlib.h>
#include "tests/sim/sass_unit.h"

static ws_sass_run su_run;
static ws_sass_cta su_cta;
static uint8_t su_bank0[0x100];

static uint32_t snap_before[SU_NREGS * WS_WARP], snap_table[SU_NREGS * WS_WARP];

static void fill(uint64_t seed)
{
    su_reset();
    su_w.cta = &su_cta;
    uint64_t s = seed;
    for (int i = 0; i < SU_NREGS * WS_WARP; i++)
        su_regs[i] = (uint32_t)su_rand(&s);
    for (int i = 0; i < WS_SASS_URZ; i++)
        su_w.ur[i] = (uint32_t)su_rand(&s);
    su_w.p[0] = 0x0f0f3c3cu;
}

static ws_sass_opnd CB(int64_t off)
{
    ws_sass_opnd o = su_o(WS_SO_CBANK, -1);
    o.bank = 0;
    o.imm = off;
    return o;
}

/* Decodes `in` as a one-instruction kernel; returns its plain-form handler or NULL. */
static ws_sass_fast decode(const ws_sass_inst *in, ws_sass_dinst *out)
{
    ws_sass_kernel k;
    memset(&k, 0, sizeof k);
    k.ninsts = 1;
    k.insts = (ws_sass_inst *)in;
    su_run.k = &k;
    ws_sass_dinst *dec = NULL;
    CHECK(ws_sass_decode(&su_run, &dec) == 0, "decode %s", in->name);
    if (!dec)
        return NULL;
    *out = dec[0];
    free(dec);
    su_run.k = NULL;
    return out->fast;
}

/* Runs `in` both ways under each mask and compares; `plain`: the decoder must specialize. */
static void same(int plain, const ws_sass_inst *in)
{
    static const uint32_t masks[] = { WS_FULL_MASK, 0x5a5a1234u, 0x80000001u, 0 };
    ws_sass_dinst d;
    ws_sass_fast f = decode(in, &d);
    CHECK((f != NULL) == plain, "%s: %s", in->name, plain ? "not decoded as a plain form"
                                                          : "decoded as a plain form");
    if (!f)
        return;
    for (size_t m = 0; m < sizeof masks / sizeof masks[0]; m++) {
        fill(0x1234 + m);
        memcpy(snap_before, su_regs, sizeof su_regs);
        CHECK(su_exec(in, masks[m]) == 0, "%s ran", in->name);
        memcpy(snap_table, su_regs, sizeof su_regs);
        memcpy(su_regs, snap_before, sizeof su_regs);
        f(&su_w, &d, masks[m]);
        int bad = 0, first = -1;
        for (int i = 0; i < SU_NREGS * WS_WARP; i++)
            if (su_regs[i] != snap_table[i] && bad++ == 0)
                first = i;
        CHECK(bad == 0, "%s mask %08x: %d values differ, first R%d lane %d: %08x, table %08x",
              in->name, masks[m], bad, first / WS_WARP, first % WS_WARP,
              bad ? su_regs[first] : 0, bad ? snap_table[first] : 0);
    }
}

#define SAME(plain, name, ...)                                                      \
    do {                                                                            \
        ws_sass_inst in_ = su_inst(name, SU_NARGS(__VA_ARGS__), __VA_ARGS__);        \
        same(plain, &in_);                                                          \
    } while (0)

static void test_lop3(void)
{
    for (int lut = 0; lut < 256; lut++)
        SAME(1, "LOP3.LUT", R(4), R(1), R(2), R(3), IMM(lut), NOT(PT));
    SAME(1, "LOP3.LUT", R(8), R(7), IMM(0xffff), RZ, IMM(0xc0), NOT(PT));
    SAME(1, "LOP3.LUT", R(7), R(7), UR(5), NOT(IMM(0xf0)), IMM(0x96), NOT(PT));
    SAME(1, "LOP3.LUT", R(4), CB(0x10), R(2), URZ, IMM(0xe2), NOT(PT));
    SAME(1, "LOP3.LUT", RZ, R(1), R(2), R(3), IMM(0xfe), NOT(PT));
    SAME(1, "LOP3.LUT", R(4), R(70), R(2), R(3), IMM(0xfe), NOT(PT)); /* never allocated */
    SAME(0, "LOP3.LUT", P(0), R(4), R(1), R(2), R(3), IMM(0xc0), NOT(PT));
    SAME(0, "LOP3.LUT", R(4), NOT(R(1)), R(2), R(3), IMM(0xc0), NOT(PT));
}

static void test_imad(void)
{
    SAME(1, "IMAD", R(4), R(1), R(2), R(3));
    SAME(1, "IMAD", R(7), R(8), R(8), R(7));
    SAME(1, "IMAD", R(4), R(4), R(4), R(4));
    SAME(1, "IMAD", R(4), NEG(R(1)), UR(5), NEG(R(3)));
    SAME(1, "IMAD.MOV.U32", R(4), RZ, RZ, R(3));
    SAME(1, "IMAD.MOV", R(4), RZ, RZ, NEG(R(3)));
    SAME(1, "IMAD.SHL.U32", R(4), R(1), IMM(8), RZ);
    SAME(1, "IMAD.IADD", R(4), R(1), IMM(1), NEG(UR(6)));
    SAME(1, "IMAD", R(4), R(1), CB(0x20), ABS(IMM(-5)));
    SAME(1, "IMUL", R(4), R(1), R(2));
    SAME(0, "IMAD.WIDE", R(4), R(1), R(2), R(6));
    SAME(0, "IMAD.HI.U32", R(4), R(1), R(2), R(6));
    SAME(0, "IMAD.X", R(4), R(1), R(2), R(6), P(0));
    SAME(0, "IMAD", R(4), ABS(R(1)), R(2), R(6));
}

static void test_adds_moves(void)
{
    SAME(1, "IADD3", R(4), R(1), NEG(R(2)), IMM(7));
    SAME(1, "IADD3", R(4), R(1), R(2), RZ);
    SAME(1, "IADD3", R(2), NEG(R(2)), NEG(UR(3)), NOT(IMM(5)));
    SAME(0, "IADD3", R(4), P(0), R(1), R(2), RZ);
    SAME(0, "IADD3.X", R(4), R(1), R(2), RZ, P(0), NOT(PT));
    SAME(1, "VIADD", R(3), R(0), IMM(0x10));
    SAME(1, "VIADD", R(3), R(3), NEG(UR(5)));
    SAME(1, "MOV", R(4), UR(5));
    SAME(1, "MOV", R(4), IMM(0x12345678));
    SAME(1, "MOV", R(4), CB(0x28));
    SAME(1, "MOV", R(4), CB(0x1000)); /* outside the bank: reads 0 */
    SAME(1, "MOV", R(70), R(1));
    SAME(0, "MOV", R(4), R(1), IMM(0xf));
    SAME(0, "UMOV", UR(4), UR(5));
}

int main(void)
{
    su_run.nregs = SU_NREGS;
    for (size_t i = 0; i < sizeof su_bank0; i++)
        su_bank0[i] = (uint8_t)(i * 37 + 11);
    su_run.banks[0].data = su_bank0;
    su_run.banks[0].size = sizeof su_bank0;
    su_cta.run = &su_run;
    test_lop3();
    test_imad();
    test_adds_moves();
    return ws_test_finish("test_sass_fast");
}
