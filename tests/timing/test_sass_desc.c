/* test_sass_desc.c — what the timing model reads off a SASS instruction (sass_timing.c):
 * the registers and predicates it writes and the ones it reads, and its latency class, on
 * text shaped like `nvdisasm -c` output. The forms where the operand order alone misleads:
 * LOP3.LUT with a predicate result writes its register too; VOTE's last predicate is the
 * one it votes on (a source); IADD3's carry outs and ISETP's second predicate are results;
 * POPC/FLO/BREV and VOTE take their own latency classes (bench/calib op_popc, op_vote);
 * IMAD.HI and IMAD.WIDE the mulwide class (op_mulhi), plain IMAD and VIADD the mul class,
 * and every one of them the FMA pipe; IADD3 and LOP3 the ALU's (op_shf, op_viadd). The
 * PTX model's classes for the same multiplies (ws_lat_of) last. */
#include <string.h>
#include "sim/sim.h"
#include "sim/sass_ir.h"
#include "sim/timing.h"
#include "sim/timing_model.h"
#include "tests/check.h"

/* sass_timing.c's one register space: R0..R254, then P0..P6 from 256. */
#define P(n) (256 + (n))

#define HEAD "\t.target\tsm_90\n\t.elftype\t@\"ET_EXEC\"\n\n" \
             "\t.section\t.text.k,\"ax\",@progbits\n\t.align\t128\n" \
             "        .global         k\n        .type           k,@function\n" \
             "k:\n.text.k:\n"

static const char *const insts[] = {
    "LOP3.LUT P0, R3, R3, RZ, R10, 0xa0, !PT",
    "VOTE.ANY R3, PT, P0",
    "ISETP.NE.AND P1, PT, R3, R0, PT",
    "IADD3 R4, P0, P2, R2, R5, RZ",
    "POPC R7, R6",
    "IMAD.WIDE R4, R0, 0x4, R4",
    "IMAD.HI.U32 R5, R5, R2, RZ",
    "IMAD R6, R6, R2, RZ",
    "VIADD R7, R7, 0x2",
    "EXIT",
};

static int has(const int32_t *list, int n, int32_t r)
{
    for (int i = 0; i < n; i++)
        if (list[i] == r) return 1;
    return 0;
}

/* The PTX model's classes: a 32- or 64-bit multiply's high half or whole product is
 * mulwide (ptxas: IMAD.HI, IMAD.WIDE), the low half and a 16-bit wide product mul, a float
 * multiply fp32 or fp64. */
static void ptx_classes(void)
{
    static const char text[] =
        ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".visible .entry k(.param .u32 a)\n{\n"
        "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n\t.reg .b16 %rs<4>;\n\t.reg .f32 %f<4>;\n"
        "\tld.param.u32 %r1, [a];\n"
        "\tmul.hi.u32 %r2, %r1, %r1;\n"
        "\tmul.wide.u32 %rd1, %r1, %r2;\n"
        "\tmad.wide.s32 %rd2, %r1, %r2, %rd1;\n"
        "\tmul.lo.s32 %r3, %r1, %r2;\n"
        "\tmad.lo.s32 %r4, %r1, %r2, %r3;\n"
        "\tmul.wide.u16 %r5, %rs1, %rs2;\n"
        "\tmul.rn.f32 %f1, %f2, %f3;\n"
        "\tret;\n}\n";
    static const ws_lat want[] = { WS_LAT_mulwide, WS_LAT_mulwide, WS_LAT_mulwide, WS_LAT_mul,
                                   WS_LAT_mul, WS_LAT_mul, WS_LAT_fp32 };
    ws_module *m = NULL;
    ws_error err;
    ws_error_clear(&err);
    CHECK(ws_ptx_parse(text, sizeof text - 1, "t.ptx", &m, &err) == 0 && m, "parses: %s", err.msg);
    if (!m) return;
    const ws_function *f = &m->funcs[0];
    CHECK(f->ninsts >= 8, "%d instructions", f->ninsts);
    for (int i = 0; i < 7 && i + 1 < f->ninsts; i++)
        CHECK(ws_lat_of(&f->insts[i + 1]) == want[i], "PTX instruction %d: class %s, not %s", i + 1,
              ws_lat_name(ws_lat_of(&f->insts[i + 1])), ws_lat_name(want[i]));
    ws_module_free(m);
}

int main(void)
{
    char text[4096];
    size_t len = (size_t)snprintf(text, sizeof text, "%s", HEAD);
    for (size_t i = 0; i < sizeof insts / sizeof insts[0]; i++)
        len += (size_t)snprintf(text + len, sizeof text - len, "        /*%04zx*/  %s ;\n",
                                i * 16, insts[i]);
    ws_sass_module *m = NULL;
    ws_error err;
    ws_error_clear(&err);
    CHECK(ws_sass_parse(text, len, "t.sass", &m, &err) == WS_OK && m, "parses: %s", err.msg);
    if (!m) return ws_test_finish("timing/sass_desc");
    ws_static_desc d;
    CHECK(ws_timing_sass_desc(&m->kernels[0], NULL, &d) == WS_OK, "described");
    const ws_pcstatic *pc = d.fns[0].pc;

    CHECK(pc[0].ndst == 2 && has(pc[0].dst, 2, P(0)) && has(pc[0].dst, 2, 3),
          "LOP3.LUT P0, R3: writes P0 and R3 (%d results)", pc[0].ndst);
    CHECK(has(pc[0].src, pc[0].nsrc, 3) && has(pc[0].src, pc[0].nsrc, 10), "LOP3 reads R3, R10");

    CHECK(pc[1].ndst == 1 && pc[1].dst[0] == 3, "VOTE.ANY R3, PT, P0: writes R3 only (%d)",
          pc[1].ndst);
    CHECK(has(pc[1].src, pc[1].nsrc, P(0)), "VOTE reads the predicate it votes on");
    CHECK(pc[1].lat == WS_LAT_vote, "VOTE's latency class is vote");

    CHECK(pc[2].ndst == 1 && pc[2].dst[0] == P(1), "ISETP P1, PT: writes P1 (%d)", pc[2].ndst);
    CHECK(has(pc[2].src, pc[2].nsrc, 3) && has(pc[2].src, pc[2].nsrc, 0), "ISETP reads R3, R0");

    CHECK(pc[3].ndst == 3 && has(pc[3].dst, 3, 4) && has(pc[3].dst, 3, P(0)) &&
          has(pc[3].dst, 3, P(2)), "IADD3 R4, P0, P2: three results (%d)", pc[3].ndst);
    CHECK(!has(pc[3].src, pc[3].nsrc, P(0)), "IADD3's carry out is not read");

    CHECK(pc[4].lat == WS_LAT_bit && pc[4].ndst == 1 && pc[4].dst[0] == 7,
          "POPC: class bit, writes R7");
    CHECK(pc[5].lat == WS_LAT_mulwide && pc[6].lat == WS_LAT_mulwide,
          "IMAD.WIDE and IMAD.HI: class mulwide (%d, %d)", pc[5].lat, pc[6].lat);
    CHECK(pc[7].lat == WS_LAT_mul && pc[8].lat == WS_LAT_mul, "IMAD and VIADD: class mul (%d, %d)",
          pc[7].lat, pc[8].lat);
    for (int k = 5; k <= 8; k++)
        CHECK(ws_timing_pipe(pc[k].lat) == WS_LAT_fp32, "pc %d holds the FMA pipe", k);
    CHECK(ws_timing_pipe(pc[0].lat) == WS_LAT_alu && ws_timing_pipe(pc[3].lat) == WS_LAT_alu,
          "LOP3 and IADD3 hold the ALU's");
    /* text without its cubin has no control bits: the window schedule, no stall counts */
    CHECK(d.in_order == 0 && pc[0].stall == 0, "no cubin: not in order (%d), no stall (%d)",
          d.in_order, pc[0].stall);
    ws_static_desc_free(&d);
    ws_sass_module_free(m);
    ptx_classes();
    return ws_test_finish("timing/sass_desc");
}
