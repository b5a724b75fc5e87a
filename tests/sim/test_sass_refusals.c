/* test_sass_refusals.c — each refusal of the SASS handlers added for tensor cores, ldmatrix,
 * cp.async, QSPC, VABSDIFF4, textures and surfaces, F2FP with FP8, on a bare warp: a form the model does
 * not know, a tile or ldmatrix run by part of a warp, a handle that names no image. Each is
 * one error with the right code, naming the instruction. */
#include "tests/sim/sass_unit.h"

static ws_sass_run su_run;
static ws_sass_cta su_cta;
static ws_sass_worker su_wk;
static ws_sass_kernel su_k;

static ws_sass_opnd MEM(int reg)
{
    ws_sass_opnd o = su_o(WS_SO_MEM, reg);
    o.ureg = -1;
    return o;
}

/* Runs `in` on `exec` and checks that it fails with `code` and a message holding `want`. */
static void refused(ws_sass_inst in, uint32_t exec, int code, const char *want)
{
    ws_error_clear(&su_wk.base.err);
    int rc = su_exec(&in, exec);
    const char *msg = su_wk.base.err.msg;
    CHECK(rc == code && strstr(msg, want) && strstr(msg, in.name),
          "%s: code %d (want %d), message [%s] (want [%s])", in.name, rc, code, msg, want);
}

#define INST(name, ...) su_inst(name, SU_NARGS(__VA_ARGS__), __VA_ARGS__)

int main(void)
{
    su_reset();
    snprintf(su_k.name, sizeof su_k.name, "k");
    su_run.k = &su_k;
    su_run.nregs = SU_NREGS;
    su_cta.run = &su_run;
    su_cta.wk = &su_wk;
    su_w.cta = &su_cta;
    const uint32_t half = 0x0000ffffu;

    /* tensor-core tiles: part of a warp, unknown shapes and types */
    refused(INST("HMMA.16816.F32", R(8), R(4), R(12), RZ), half, WS_ERR_SIM, "all 32 lanes");
    /* a cluster barrier is reached only where the launch is in clusters, which the model
     * refuses first; reached anyway, it says so */
    refused(su_inst("UCGABAR_ARV", 0), WS_FULL_MASK, WS_ERR_UNSUPPORTED, "clusters are not modelled");
    refused(su_inst("UCGABAR_WAIT", 0), WS_FULL_MASK, WS_ERR_UNSUPPORTED, "cluster barrier");
    /* movmatrix needs the whole warp, and MOVM has one form */
    refused(INST("MOVM.16.MT88", R(8), R(4)), half, WS_ERR_SIM, "all 32 lanes");
    refused(INST("MOVM.16", R(8), R(4)), WS_FULL_MASK, WS_ERR_UNSUPPORTED,
            "unsupported MOVM form");
    /* F2FP with FP8: the three forms ptxas writes, nothing else */
    refused(INST("F2FP.SATFINITE.E4M3.F32.PACK_AB", R(8), R(4), R(12)), WS_FULL_MASK,
            WS_ERR_UNSUPPORTED, "unsupported F2FP form with FP8");
    refused(INST("F2FP.F16.E5M2.UNPACK_B", R(8), R(4), R(12)), WS_FULL_MASK,
            WS_ERR_UNSUPPORTED, "unsupported F2FP form with FP8");
    refused(INST("F2FP.RELU.F16.F32.PACK_AB", R(8), R(4), R(12)), WS_FULL_MASK,
            WS_ERR_UNSUPPORTED, "unsupported F2FP form");
    refused(INST("IMMA.16816.S8.S8", R(8), R(4), R(12), RZ), half, WS_ERR_SIM, "all 32 lanes");
    refused(INST("DMMA.8x8x4", R(8), R(4), R(12), RZ), half, WS_ERR_SIM, "all 32 lanes");
    refused(INST("HMMA.16816.F16.BF16", R(8), R(4), R(12), RZ), WS_FULL_MASK,
            WS_ERR_UNSUPPORTED, "unsupported HMMA shape or types");
    refused(INST("HMMA.1684.F32", R(8), R(4), R(12), RZ), WS_FULL_MASK, WS_ERR_UNSUPPORTED,
            "unsupported HMMA shape or types");
    refused(INST("IMMA.16816.S8.S8.SAT", R(8), R(4), R(12), RZ), WS_FULL_MASK,
            WS_ERR_UNSUPPORTED, "unsupported IMMA shape or types");
    refused(INST("DMMA", R(8), R(4), R(12), RZ), WS_FULL_MASK, WS_ERR_UNSUPPORTED,
            "unsupported DMMA shape");

    /* ldmatrix, cp.async, QSPC, VABSDIFF4: forms outside the known ones */
    refused(INST("LDSM.16.M88.4", R(8), MEM(4)), half, WS_ERR_SIM, "needs all 32 lanes");
    refused(INST("LDSM.M88.4", R(8), MEM(4)), WS_FULL_MASK, WS_ERR_UNSUPPORTED,
            "unsupported LDSM form");
    refused(INST("LDGSTS.E.128", R(8), MEM(4)), WS_FULL_MASK, WS_ERR_UNSUPPORTED,
            "unsupported LDGSTS form");
    refused(INST("QSPC.E.S", P(0), R(3), MEM(4)), WS_FULL_MASK, WS_ERR_UNSUPPORTED,
            "unsupported QSPC form");
    refused(INST("VABSDIFF4.U8", R(8), R(4), R(5), R(6)), WS_FULL_MASK, WS_ERR_UNSUPPORTED,
            "unsupported VABSDIFF4 form"); /* per-byte form with a c other than RZ */
    refused(INST("VABSDIFF4.S8", R(8), R(4), R(5), RZ), WS_FULL_MASK, WS_ERR_UNSUPPORTED,
            "unsupported VABSDIFF4 form");
    refused(INST("IDP.4A.U16.U8", R(8), R(4), R(5), R(6)), WS_FULL_MASK, WS_ERR_UNSUPPORTED,
            "unsupported IDP form");
    /* a call through a register to an offset no instruction starts at; IADD3.64 with a
       carry predicate */
    su_set(8, 0x123);
    su_set(9, 0);
    refused(INST("CALL.REL.NOINC", R(8)), WS_FULL_MASK, WS_ERR_SIM,
            "indirect branch to 0x123, which is not an instruction");
    refused(INST("UIADD3.64", UR(4), UP(0), UR(4), IMM(1), URZ), 1u, WS_ERR_UNSUPPORTED,
            "unsupported IADD3.64 form");
    /* vector atomics: only the global add (atomicAdd on float2/float4) */
    refused(INST("ATOMG.E.MIN.F32x2.FTZ.RN.STRONG.GPU", P(7), R(8), MEM(4), R(10)),
            WS_FULL_MASK, WS_ERR_UNSUPPORTED, "vector atomic other than a global add");
    refused(INST("ATOMS.ADD.F32x4", R(8), MEM(4), R(10)), WS_FULL_MASK, WS_ERR_UNSUPPORTED,
            "vector atomic other than a global add");
    /* the UNKNOWN row: a line the parser kept without a row to run it by */
    ws_sass_inst unk = INST("IDP.4A.U8.U8.Q", R(8), R(4), R(5), R(6));
    unk.op = WS_SOP_UNKNOWN;
    unk.mods[WS_SMOD_UNKNOWN >> 6] |= 1ull << (WS_SMOD_UNKNOWN & 63);
    refused(unk, WS_FULL_MASK, WS_ERR_UNSUPPORTED, "modifier .Q not in the table");
    unk = INST("IADD3", R(8));
    snprintf(unk.name, sizeof unk.name, "FROB.X");
    unk.op = WS_SOP_UNKNOWN;
    refused(unk, 1u, WS_ERR_UNSUPPORTED, "opcode not in the table");
    unk = INST("IADD3", R(8), R(4));
    unk.op = WS_SOP_UNKNOWN;
    refused(unk, 1u, WS_ERR_UNSUPPORTED, "2 operands (the table has 4..8)");
    unk = INST("IADD3.SAT", R(8), R(4), R(5), RZ);
    unk.op = WS_SOP_UNKNOWN;
    refused(unk, 1u, WS_ERR_UNSUPPORTED, "modifier .SAT is not one the IADD3 row reads "
            "(sim/sass_ops.def)");

    /* textures and surfaces: cube maps and arrays, pitch (not byte) addressing, and a
     * handle that names no image of the spec */
    refused(INST("TEX.LL", RZ, R(8), R(4), R(6), UR(4), IMM(0), IMM(4), IMM(1)), WS_FULL_MASK,
            WS_ERR_UNSUPPORTED, "unsupported TEX form");
    refused(INST("SULD.D.2D", R(8), MEM(4), UR(4), IMM(0)), WS_FULL_MASK, WS_ERR_UNSUPPORTED,
            "unsupported SULD form");
    su_w.ur[4] = 7;
    su_w.ur[5] = 0;
    refused(INST("TEX.LL", RZ, R(8), R(4), R(6), UR(4), IMM(0), IMM(2), IMM(1)), WS_FULL_MASK,
            WS_ERR_SIM, "texture handle 7 is not a texture of the spec");
    refused(INST("SUST.D.BA.1D", MEM(4), R(8), UR(4), IMM(0)), WS_FULL_MASK, WS_ERR_SIM,
            "surface handle 7 is not a surface of the spec");
    return ws_test_finish("test_sass_refusals");
}
