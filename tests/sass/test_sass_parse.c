/* test_sass_parse.c — the SASS parser on text shaped like `nvdisasm -gi -c` output: every
 * operand form, guards, modifiers into fields, labels and symbols, line info (inlined
 * chains), each error message; and every sass_ops.def row's operand-count range. Real
 * nvdisasm output for every kernel is test_sass_kernels.c's. */
#include "sim/sass_ir.h"
#include "tests/check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HEAD "\t.target\tsm_90\n\t.elftype\t@\"ET_EXEC\"\n\n" \
             "\t.section\t.text.k,\"ax\",@progbits\n\t.align\t128\n" \
             "        .global         k\n        .type           k,@function\n" \
             "k:\n.text.k:\n\t//## File \"/src/dir/k.cu\", line 7\n"

static ws_sass_module *parse(const char *text, ws_error *err)
{
    ws_sass_module *m = NULL;
    ws_error_clear(err);
    int rc = ws_sass_parse(text, strlen(text), "t.sass", &m, err);
    CHECK((rc == WS_OK) == (m != NULL), "rc %d and module agree", rc);
    return m;
}

/* One instruction "/\*0000*\/ LINE ;" inside HEAD; returns instruction 0. */
static ws_sass_inst one(const char *line, ws_sass_module **keep)
{
    char text[2048];
    snprintf(text, sizeof text, HEAD "        /*0000*/                   %s ;\n"
             "        /*0010*/                   EXIT ;\n.L_x_9:\n", line);
    ws_error err;
    ws_sass_module *m = parse(text, &err);
    ws_sass_inst in;
    memset(&in, 0, sizeof in);
    in.op = 0xffff;
    CHECK(m != NULL, "'%s' parses: %s", line, err.msg);
    if (m)
        in = m->kernels[0].insts[0];
    if (keep)
        *keep = m;
    else
        ws_sass_module_free(m);
    return in;
}

static void test_registers(void)
{
    ws_sass_inst in = one("IADD3 R12, RZ, -R3, ~R4.reuse", NULL);
    CHECK(in.op == WS_SOP_IADD3 && in.nopnd == 4, "IADD3 %d", in.nopnd);
    CHECK(in.o[0].kind == WS_SO_R && in.o[0].reg == 12, "R12");
    CHECK(in.o[1].kind == WS_SO_R && in.o[1].reg == WS_SASS_RZ, "RZ");
    CHECK(in.o[2].reg == 3 && in.o[2].neg && !in.o[2].abs, "-R3");
    CHECK(in.o[3].reg == 4 && in.o[3].not_, "~R4.reuse");
    in = one("FADD R0, -|R3|, |R5|.reuse", NULL);
    CHECK(in.o[1].neg && in.o[1].abs && in.o[1].reg == 3, "-|R3|");
    CHECK(!in.o[2].neg && in.o[2].abs && in.o[2].reg == 5, "|R5|.reuse");
    in = one("HADD2 R0, R2.H0_H0, -R7.H1_H1", NULL);
    CHECK(in.o[1].sel == 3 && in.o[2].sel == 4 && in.o[2].neg, "H0_H0 / -H1_H1");
    in = one("HADD2.F32 R6, -RZ, R0.H1", NULL);
    CHECK(in.o[2].sel == 2 && in.o[1].neg && in.o[1].reg == WS_SASS_RZ, ".H1");
    in = one("PRMT R1, R2.B1, 0x3210, R3", NULL);
    CHECK(in.o[1].sel == 6 && in.o[2].kind == WS_SO_IMM && in.o[2].imm == 0x3210, ".B1");
    in = one("UIADD3 UR4, UP0, URZ, UR5, URZ", NULL);
    CHECK(in.o[0].kind == WS_SO_UR && in.o[0].reg == 4, "UR4");
    CHECK(in.o[1].kind == WS_SO_UP && in.o[1].reg == 0, "UP0");
    CHECK(in.o[2].kind == WS_SO_UR && in.o[2].reg == WS_SASS_URZ, "URZ");
    in = one("ISETP.NE.AND P0, PT, R1, RZ, !P3", NULL);
    CHECK(in.o[0].kind == WS_SO_P && in.o[0].reg == 0, "P0");
    CHECK(in.o[1].kind == WS_SO_P && in.o[1].reg == WS_SASS_PT, "PT");
    CHECK(in.o[4].kind == WS_SO_P && in.o[4].reg == 3 && in.o[4].not_, "!P3");
    in = one("UIADD3.X UR5, URZ, UR6, URZ, UP0, !UPT", NULL);
    CHECK(in.o[5].kind == WS_SO_UP && in.o[5].reg == WS_SASS_PT && in.o[5].not_, "!UPT");
    in = one("BMOV.32.CLEAR R16, B6", NULL);
    CHECK(in.o[1].kind == WS_SO_BAR && in.o[1].reg == 6, "B6");
    in = one("BSYNC B15", NULL);
    CHECK(in.o[0].kind == WS_SO_BAR && in.o[0].reg == 15, "B15");
    in = one("P2R R8, PR, RZ, 0x10", NULL);
    CHECK(in.o[1].kind == WS_SO_PR, "PR");
    in = one("DEPBAR.LE SB0, 0x0", NULL);
    CHECK(in.o[0].kind == WS_SO_SB && in.o[0].reg == 0, "SB0");
}

static void test_immediates(void)
{
    ws_sass_inst in = one("IMAD.MOV.U32 R6, RZ, RZ, -0x1", NULL);
    CHECK(in.o[3].kind == WS_SO_IMM && in.o[3].imm == -1, "-0x1: %lld", (long long)in.o[3].imm);
    in = one("MOV R6, 0xffffffff", NULL);
    CHECK(in.o[1].imm == 0xffffffffLL, "0xffffffff");
    in = one("FFMA R0, R1, 1.4426950216293334961, -0.5", NULL);
    CHECK(in.o[2].kind == WS_SO_FIMM && fabs(in.o[2].fimm - 1.4426950216293334961) < 1e-15,
          "float");
    CHECK(in.o[3].kind == WS_SO_FIMM && in.o[3].fimm == -0.5, "-0.5");
    in = one("FSETP.GTU.AND P0, PT, |R2|, +INF , PT", NULL);
    CHECK(in.o[3].kind == WS_SO_FIMM && isinf(in.o[3].fimm) && in.o[3].fimm > 0, "+INF");
    in = one("FSEL R0, R1, -INF , P0", NULL);
    CHECK(isinf(in.o[2].fimm) && in.o[2].fimm < 0, "-INF");
    in = one("MUFU.RSQ R0, -QNAN ", NULL);
    CHECK(in.o[1].kind == WS_SO_FIMM && isnan(in.o[1].fimm), "-QNAN");
    in = one("FMUL R0, R1, 1e-05", NULL);
    CHECK(in.o[2].fimm == 1e-05, "1e-05");
    in = one("FSEL R0, RZ, -23, P0", NULL);
    CHECK(in.o[2].kind == WS_SO_FIMM && in.o[2].fimm == -23, "decimal is a float: -23");
    in = one("HFMA2.MMA R15, -RZ, RZ, 1.0078125, -8.98838043212890625e-05", NULL);
    CHECK(in.nopnd == 5 && in.o[3].fimm == 1.0078125 && in.o[4].fimm < 0, "HFMA2 halves");
    in = one("HFMA2.MMA R0, -RZ, RZ, 0, 0", NULL);
    CHECK(in.o[3].kind == WS_SO_FIMM && in.o[3].fimm == 0 && in.o[4].fimm == 0, "0, 0");
}

static void test_banks_and_memory(void)
{
    ws_sass_inst in = one("LDC.64 R8, c[0x0][0x210]", NULL);
    CHECK(in.o[1].kind == WS_SO_CBANK && in.o[1].bank == 0 && in.o[1].imm == 0x210 &&
          in.o[1].reg == -1, "c[0x0][0x210]");
    in = one("LDC R4, c[0x4][R0]", NULL);
    CHECK(in.o[1].bank == 4 && in.o[1].reg == 0 && in.o[1].imm == 0, "c[0x4][R0]");
    in = one("LDC R4, c[0x3][R2+0x10]", NULL);
    CHECK(in.o[1].bank == 3 && in.o[1].reg == 2 && in.o[1].imm == 0x10, "c[0x3][R2+0x10]");
    in = one("LDC R4, c[0x0][RZ]", NULL);
    CHECK(in.o[1].reg == -1 && in.o[1].imm == 0, "c[0x0][RZ]");
    in = one("LDC R4, cx[UR4][R0+0x8]", NULL);
    CHECK(in.o[1].bank == -1 && in.o[1].ureg == 4 && in.o[1].reg == 0 && in.o[1].imm == 8,
          "cx[UR4][R0+0x8]");
    in = one("IADD3 R1, R2, -c[0x0][0x168], RZ", NULL);
    CHECK(in.o[2].kind == WS_SO_CBANK && in.o[2].neg && in.o[2].imm == 0x168, "-c[..]");
    in = one("LDG.E R4, desc[UR4][R4.64+0x8]", NULL);
    CHECK(in.o[1].kind == WS_SO_MEM && in.o[1].reg == 4 && in.o[1].wide && in.o[1].imm == 8 &&
          in.o[1].ureg == -1, "desc[UR4][R4.64+0x8]");
    in = one("LDG.E R4, [R4.64]", NULL);
    CHECK(in.o[1].wide && in.o[1].imm == 0, "[R4.64]");
    in = one("STL [R1+0x10], R2", NULL);
    CHECK(in.o[0].kind == WS_SO_MEM && in.o[0].reg == 1 && !in.o[0].wide && in.o[0].imm == 16,
          "[R1+0x10]");
    in = one("LDL R0, [R1+-0x4]", NULL);
    CHECK(in.o[1].imm == -4, "[R1+-0x4]");
    in = one("LDS R3, [R2+UR4+0x4]", NULL);
    CHECK(in.o[1].reg == 2 && in.o[1].ureg == 4 && in.o[1].imm == 4, "[R2+UR4+0x4]");
    in = one("LDS R3, [UR4]", NULL);
    CHECK(in.o[1].reg == -1 && in.o[1].ureg == 4, "[UR4]");
    in = one("ATOMS.POPC.INC.32 RZ, [R14+URZ]", NULL);
    CHECK(in.o[1].reg == 14 && in.o[1].ureg == -1, "[R14+URZ]");
    in = one("LDS R3, [R7.X4+UR4]", NULL);
    CHECK(in.o[1].scale == 4 && in.o[1].ureg == 4, "[R7.X4+UR4]");
    in = one("LDG.E.SYS R5, [R18.U32+UR4]", NULL);
    CHECK(in.o[1].u32 && in.o[1].reg == 18, "[R18.U32+UR4]");
}

static void test_special_forms(void)
{
    ws_sass_inst in = one("S2R R0, SR_TID.X", NULL);
    CHECK(in.o[1].kind == WS_SO_SREG && in.o[1].sreg == WS_SSR_TID_X, "SR_TID.X");
    struct { const char *text; int sreg; } sr[] = {
        {"SR_CgaCtaId", WS_SSR_CGACTAID}, {"SR_SWINHI", WS_SSR_SWINHI},
        {"SR_LANEID", WS_SSR_LANEID}, {"SR_LTMASK", WS_SSR_LTMASK},
        {"SR_CTAID.Z", WS_SSR_CTAID_Z}, {"SR_CLOCKLO", WS_SSR_CLOCKLO}, {"SRZ", WS_SSR_ZERO},
    };
    for (size_t i = 0; i < sizeof sr / sizeof *sr; i++) {
        char line[64];
        snprintf(line, sizeof line, "S2UR UR4, %s", sr[i].text);
        in = one(line, NULL);
        CHECK(in.o[1].kind == WS_SO_SREG && in.o[1].sreg == sr[i].sreg, "%s", sr[i].text);
    }
    in = one("MOV R4, 32@lo(global_var)", NULL);
    CHECK(in.o[1].kind == WS_SO_RELOC && !in.o[1].hi && in.o[1].imm == 0, "32@lo");
    in = one("MOV R5, 32@hi(global_var+0x10)", NULL);
    CHECK(in.o[1].kind == WS_SO_RELOC && in.o[1].hi && in.o[1].imm == 0x10, "32@hi +0x10");
}

/* Forms real kernels bring (cuda-samples at sm_90): texture geometries beyond 1D..3D, a
 * note on spill code, EXIT with a second predicate, IMMA's .ROW/.COL fragment orders, and a
 * kernel whose mangled C++ template name runs to hundreds of characters (CUB, Thrust). */
static void test_real_kernel_forms(void)
{
    ws_sass_inst in = one("TEX.LL RZ, R10, R8, R27, UR4, 0x0, CUBE, 0x1", NULL);
    CHECK(in.op == WS_SOP_TEX && in.o[6].kind == WS_SO_IMM && in.o[6].imm == 4, "TEX ... CUBE");
    in = one("TLD.LZ RZ, R6, R4, UR4, 0x0, ARRAY_2D, 0x3", NULL);
    CHECK(in.op == WS_SOP_TLD && in.o[5].imm == 6, "TLD ... ARRAY_2D");
    in = one("STL [R1], R32                                          (*\"SpillRefill\"*)", NULL);
    CHECK(in.op == WS_SOP_STL && in.nopnd == 2, "a SpillRefill note is skipped");
    in = one("@!P0 EXIT P1", NULL);
    CHECK(in.op == WS_SOP_EXIT && in.nopnd == 1 && in.o[0].kind == WS_SO_P && in.o[0].reg == 1,
          "EXIT P1");
    in = one("IMMA.16816.S8.S8 R16, R12.reuse.ROW, R0.COL, R16", NULL);
    CHECK(in.op == WS_SOP_IMMA && in.o[1].sel == 9 && in.o[2].sel == 10 &&
          in.dtype == WS_SMOD_S8 && in.stype == WS_SMOD_S8, "IMMA .ROW/.COL");
    in = one("DMMA.8x8x4 R8, R2, R4, R8", NULL);
    CHECK(in.op == WS_SOP_DMMA && ws_sass_has(&in, WS_SMOD_M884), "DMMA.8x8x4");
    /* from ggml's CUDA kernels (llama.cpp): movmatrix, FP32 x*y/8, a clamp at 0 after an
     * add and min, a uniform predicate saved to a uniform register, FP8 conversions */
    in = one("MOVM.16.MT88 R56, R73", NULL);
    CHECK(in.op == WS_SOP_MOVM && ws_sass_has(&in, WS_SMOD_MT88) && in.nopnd == 2, "MOVM");
    in = one("FMUL.D8 R229, R153, R160.reuse", NULL);
    CHECK(in.op == WS_SOP_FMUL && ws_sass_has(&in, WS_SMOD_D8), "FMUL.D8");
    in = one("VIADDMNMX.RELU R17, R19, 0x1, R11, PT", NULL);
    CHECK(in.op == WS_SOP_VIADDMNMX && ws_sass_has(&in, WS_SMOD_RELU), "VIADDMNMX.RELU");
    in = one("UP2UR UR43, UPR, URZ, 0x2", NULL);
    CHECK(in.op == WS_SOP_UP2UR && in.o[1].kind == WS_SO_PR && in.o[1].reg == 1, "UP2UR UPR");
    in = one("CCTL.E.PF2 [R2]", NULL); /* prefetch.global.L2 (HeCBench, CUB's transform) */
    CHECK(in.op == WS_SOP_CCTL && ws_sass_has(&in, WS_SMOD_PF2) && in.nopnd == 1, "CCTL.PF2");
    in = one("VIADDMNMX.S16x2.RELU R13, R3, R0, R12, !PT", NULL);
    CHECK(in.op == WS_SOP_VIADDMNMX && in.dtype == WS_SMOD_S16X2, "VIADDMNMX.S16x2");
    in = one("FRND.BF16.FLOOR R5, R5", NULL);
    CHECK(in.op == WS_SOP_FRND && in.dtype == WS_SMOD_BF16, "FRND.BF16");
    in = one("@!P0 BREAK P4, B1", NULL); /* only where P4 holds too */
    CHECK(in.op == WS_SOP_BREAK && in.nopnd == 2 && in.o[0].kind == WS_SO_P &&
          in.o[1].kind == WS_SO_BAR && in.o[1].reg == 1, "BREAK P4, B1");
    in = one("@!P0 RET.REL.NODEC P1, R4 `(k)", NULL); /* returns where P1 holds too */
    CHECK(in.op == WS_SOP_RET && in.nopnd == 3 && in.o[0].kind == WS_SO_P, "RET P1, R4");
    in = one("P2R R0, PR, RZ, 0x7f", NULL);
    CHECK(in.op == WS_SOP_P2R && in.o[1].kind == WS_SO_PR && in.o[1].reg == 0, "P2R PR");
    in = one("F2FP.SATFINITE.RELU.E5M2.F32.PACK_AB_MERGE_C R13, R6, R9, RZ", NULL);
    CHECK(in.op == WS_SOP_F2FP && in.dtype == WS_SMOD_E5M2 && in.stype == WS_SMOD_F32 &&
          ws_sass_has(&in, WS_SMOD_PACK_AB_MERGE_C) && !strcmp(in.name,
          "F2FP.SATFINITE.RELU.E5M2.F32.PACK_AB_MERGE_C"), "F2FP to FP8, name whole: %s",
          in.name);
    char name[700], text[8192];
    memset(name, 'x', sizeof name - 1);
    memcpy(name, "_ZN3cub", 7);
    name[sizeof name - 1] = '\0';
    snprintf(text, sizeof text, "\t.target\tsm_90\n\n\t.section\t.text.%s,\"ax\",@progbits\n"
             "%s:\n.text.%s:\n        /*0000*/                   EXIT ;\n", name, name, name);
    ws_error err;
    ws_sass_module *m = parse(text, &err);
    CHECK(m && m->nkernels == 1 && strcmp(m->kernels[0].name, name) == 0,
          "a %zu-character kernel name parses: %s", strlen(name), m ? "" : err.msg);
    ws_sass_module_free(m);
    /* operands that name it: a device function's RET (CUB's histogram sweep kernel) and a
       relocation against it */
    snprintf(text, sizeof text, "\t.target\tsm_90\n\n\t.section\t.text.%s,\"ax\",@progbits\n"
             "%s:\n.text.%s:\n.L_x_1:\n"
             "        /*0000*/                   MOV R0, 32@lo((%s + .L_x_1@srel)) ;\n"
             "        /*0010*/                   RET.REL.NODEC R6 `(%s) ;\n",
             name, name, name, name, name);
    m = parse(text, &err);
    CHECK(m && m->kernels[0].ninsts == 2 && m->kernels[0].insts[0].o[1].kind == WS_SO_RELOC &&
          m->kernels[0].insts[1].op == WS_SOP_RET && m->kernels[0].insts[1].o[1].target == 0,
          "RET and 32@lo naming a %zu-character function parse: %s", strlen(name),
          m ? "" : err.msg);
    ws_sass_module_free(m);
}

static void test_guards_mods(void)
{
    ws_sass_inst in = one("@!P0 BRA `(.L_x_9)", NULL);
    CHECK(in.guard == 0 && in.guard_neg && !in.guard_uniform, "@!P0");
    CHECK(in.target == 2 && in.o[0].kind == WS_SO_LABEL && in.o[0].target == 2 &&
          in.o[0].imm == 0x20, "label at the end: %d", in.target);
    in = one("@P3 EXIT", NULL);
    CHECK(in.guard == 3 && !in.guard_neg, "@P3");
    in = one("@UP1 BRA `(.L_x_9)", NULL);
    CHECK(in.guard == 1 && in.guard_uniform, "@UP1");
    in = one("@!PT BRA `(.L_x_9)", NULL);
    CHECK(in.guard == WS_SASS_PT && in.guard_neg, "@!PT never runs");
    in = one("@PT BRA `(.L_x_9)", NULL);
    CHECK(in.guard == -1, "@PT always runs");
    in = one("ISETP.GE.U32.AND.EX P0, PT, R1, R2, PT, P1", NULL);
    CHECK(in.cmp == WS_SMOD_GE && in.boolop == WS_SMOD_AND && in.dtype == WS_SMOD_U32 &&
          ws_sass_has(&in, WS_SMOD_EX) && !ws_sass_has(&in, WS_SMOD_X), "ISETP mods");
    CHECK(strcmp(in.name, "ISETP.GE.U32.AND.EX") == 0, "name %s", in.name);
    in = one("F2F.F32.F64.RZ R9, R8", NULL);
    CHECK(in.dtype == WS_SMOD_F32 && in.stype == WS_SMOD_F64 && in.rnd == WS_SMOD_RZ,
          "F2F types");
    in = one("IMAD.WIDE.U32 R2, R3, 0x4, R4", NULL);
    CHECK(ws_sass_has(&in, WS_SMOD_WIDE) && in.dtype == WS_SMOD_U32 && in.cmp == 0xff &&
          in.rnd == 0xff && in.stype == 0xff, "IMAD.WIDE.U32");
    in = one("LDS.128 R4, [R2]", NULL);
    CHECK(in.dtype == WS_SMOD_B128, "LDS.128");
    in = one("SHF.R.U32.HI R1, RZ, 0x1f, R2", NULL);
    CHECK(ws_sass_has(&in, WS_SMOD_R) && ws_sass_has(&in, WS_SMOD_HI), "SHF.R.U32.HI");
    in = one("NOP", NULL);
    CHECK(in.op == WS_SOP_NOP && in.nopnd == 0, "NOP");
    /* a modifier the table does not name makes the line the UNKNOWN row */
    in = one("SYNCS.ARRIVE.TRANS64.RED.A0TX RZ, [R3+URZ], R2", NULL);
    CHECK(ws_sass_has(&in, WS_SMOD_A0TX) && ws_sass_has(&in, WS_SMOD_RED) && !ws_sass_odd_mod(&in),
          "SYNCS.ARRIVE.TRANS64.RED.A0TX: every modifier known");
    in = one("SYNCS.ARRIVE.TRANS64.RED.A2TX RZ, [R3+URZ], R2", NULL);
    CHECK(ws_sass_odd_mod(&in) && in.op == WS_SOP_UNKNOWN,
          "an unknown modifier is marked and the line is the UNKNOWN row");
}

/* Labels, function symbols, calls, line info, several kernels, BRX targets. */
static void test_module(void)
{
    const char *text =
        HEAD
        "        /*0000*/                   BSSY B0, `(.L_x_0) ;\n"
        "\t//## File \"/usr/local/cuda/include/sm_30_intrinsics.hpp\", line 140 inlined at "
        "\"/src/dir/k.cu\", line 12\n"
        "        /*0010*/                   CALL.REL.NOINC `($k$_Z3fibi) ;\n"
        ".L_x_0:\n"
        "\t//## File \"/src/dir/k.cu\", line 30 inlined at \"/src/dir/k.cu\", line 13\n"
        "        /*0020*/                   BSYNC B0 ;\n"
        "        /*0030*/                   BRX R4 -0xc0   (*\"BRANCH_TARGETS .L_x_0,.L_x_1\"*);\n"
        "        /*0040*/                   EXIT;\n"
        "        .type           $k$_Z3fibi,@function\n"
        "$k$_Z3fibi:\n"
        ".L_x_1:\n"
        "\t//## File \"/usr/local/cuda/include/crt/x.hpp\", line 5\n"
        "        /*0050*/                   MOV R0, 32@lo((k + .L_x_1@srel)) ;\n"
        "        /*0060*/                   RET.REL.NODEC R20 `(k) ;   /* 0x000fea0003c3ffff */\n"
        ".L_x_2:\n\n\n"
        "//--------------------- .text.other --------------------------\n"
        "\t.section\t.text.other,\"ax\",@progbits\n"
        "other:\n"
        "        /*0000*/                   EXIT ;\n"
        ".L_x_3:\n";
    ws_error err;
    ws_sass_module *m = parse(text, &err);
    CHECK(m != NULL, "module: %s", err.msg);
    if (!m)
        return;
    CHECK(strcmp(m->arch, "sm_90") == 0 && m->nkernels == 2, "arch %s, %d kernels", m->arch,
          m->nkernels);
    ws_sass_kernel *k = ws_sass_kernel_find(m, "k");
    CHECK(k && k->ninsts == 7 && ws_sass_kernel_find(m, "other") == &m->kernels[1] &&
          !ws_sass_kernel_find(m, "nope"), "kernels");
    if (!k || k->ninsts != 7)
        goto out;
    CHECK(k->insts[0].target == 2 && k->insts[0].o[1].imm == 0x20, "BSSY -> .L_x_0");
    CHECK(k->insts[1].target == 5 && k->insts[1].o[0].sym >= 0 &&
          strcmp(k->syms[k->insts[1].o[0].sym].name, "$k$_Z3fibi") == 0 &&
          k->syms[k->insts[1].o[0].sym].offset == 0x50, "CALL -> $k$_Z3fibi");
    CHECK(k->insts[6].target == -1 && k->insts[6].o[1].target == 0 &&
          k->insts[6].o[0].reg == 20, "RET names its function, no target");
    ws_sass_opnd *r = &k->insts[5].o[1];
    CHECK(r->kind == WS_SO_RELOC && r->imm == 0x50 && r->target == 5 && r->sym >= 0 &&
          strcmp(k->syms[r->sym].name, "k") == 0 && k->syms[r->sym].offset == 0,
          "32@lo((k + .L_x_1@srel)): imm %lld", (long long)r->imm);
    CHECK(k->nbrx == 1 && k->brx[0].inst == 3 && k->brx[0].ntargets == 2 &&
          k->brx[0].targets[0] == 2 && k->brx[0].targets[1] == 5, "BRX targets");
    CHECK(k->insts[3].nopnd == 2 && k->insts[3].o[1].imm == -0xc0, "BRX R4 -0xc0");
    CHECK(k->nfiles == 2 && strcmp(k->files[0], "/src/dir/k.cu") == 0, "files %d", k->nfiles);
    CHECK(k->insts[0].line == 7 && k->insts[1].line == 12 && k->insts[2].line == 30,
          "inlined lines map to .cu: %d %d %d", k->insts[0].line, k->insts[1].line,
          k->insts[2].line);
    CHECK(k->insts[5].line == 5 && k->insts[5].file == 1, "a header line without a .cu "
          "caller stays: file %d line %d", k->insts[5].file, k->insts[5].line);
    CHECK(k->insts[4].text_line == 18, "text line %d", k->insts[4].text_line);
    CHECK(ws_sass_index_of(k, 0x30) == 3 && ws_sass_index_of(k, 0x38) == -1 &&
          ws_sass_index_of(k, 0x70) == -1, "index_of");
out:
    ws_sass_module_free(m);
}

static void expect_error(const char *body, int code, const char *msg)
{
    char text[4096];
    snprintf(text, sizeof text, HEAD "%s", body);
    ws_error err;
    ws_sass_module *m = parse(text, &err);
    CHECK(m == NULL && (int)err.code == code && strstr(err.msg, msg) != NULL,
          "'%s': want [%s], got %d [%s]", body, msg, err.code, err.msg);
    CHECK(m != NULL || strcmp(err.file, "t.sass") == 0, "error names the file");
    ws_sass_module_free(m);
}

static void test_errors(void)
{
    /* an opcode, operand count or modifier the tables lack: the module loads, the line is
       the UNKNOWN row (a kernel that runs it fails, naming it: test_sass_refusals) */
    static const char *const kept[][2] = {
        {"FOO.BAR R1, R2", "FOO.BAR"}, {"IADD3 R1, R2", "IADD3"},
        {"VIMNMX.S32x4 R1, R2, R3, PT", "VIMNMX.S32x4"}, {"IDP.4A.U8.U8 R1, R2, R3, R4", NULL},
        /* a modifier the table knows but the row does not list (its handler would run the
           plain form); hints are accepted on every row */
        {"IADD3.SAT R1, R2, R3, RZ", "IADD3.SAT"}, {"FADD.S16x2 R1, R2, R3", "FADD.S16x2"},
        {"CS2R.32 R2, SR_CLOCKLO", NULL}, {"LDG.E.LTC128B.128.STRONG.GPU R4, [R2.64]", NULL},
        {"STG.E.EF.NA.64 [R2.64], R4", NULL}};
    CHECK(ws_sass_table_error() == NULL, "every row lists modifiers of sass_mods.def, no hint: "
          "%s", ws_sass_table_error());
    for (size_t i = 0; i < sizeof kept / sizeof *kept; i++) {
        char text[512];
        snprintf(text, sizeof text, HEAD "        /*0000*/                   %s ;\n"
                 "        /*0010*/                   EXIT ;\n", kept[i][0]);
        ws_error err;
        ws_sass_module *m = parse(text, &err);
        const ws_sass_inst *in = m ? &m->kernels[0].insts[0] : NULL;
        int unknown = kept[i][1] != NULL;
        CHECK(m && m->kernels[0].ninsts == 2 && (in->op == WS_SOP_UNKNOWN) == unknown &&
              (!unknown || strcmp(in->name, kept[i][1]) == 0),
              "'%s' loads, %s", kept[i][0], unknown ? "as the UNKNOWN row" : "with its row");
        ws_sass_module_free(m);
    }
    expect_error("        /*0000*/                   MOV R1, R2 ;\n"
                 "        /*0010*/                   IADD3 R1, R2, R3, R4, R5, R6, R7, R8, R9 ;\n",
                 WS_ERR_PTX, "malformed SASS at line 12: bad operand list");
    expect_error("        /*0000*/                   MOV R1, R2\n", WS_ERR_PTX,
                 "malformed SASS at line 11: missing ';'");
    expect_error("        /*0000*/                   MOV R1, R2 ; junk\n", WS_ERR_PTX,
                 "text after ';'");
    expect_error("        /*00x0*/                   MOV R1, R2 ;\n", WS_ERR_PTX,
                 "bad instruction offset");
    expect_error("        /*0010*/                   EXIT ;\n"
                 "        /*0010*/                   EXIT ;\n", WS_ERR_PTX,
                 "instruction offsets do not increase");
    expect_error("        /*0000*/                   BRA `(.L_x_77) ;\n", WS_ERR_PTX,
                 "malformed SASS at line 11: unknown label: .L_x_77");
    expect_error("        /*0000*/               @Q0 EXIT ;\n", WS_ERR_PTX, "bad guard predicate");
    expect_error("        /*0000*/                   MOV R1, Q7 ;\n", WS_ERR_PTX,
                 "bad operand 'Q7'");
    expect_error("        /*0000*/                   MOV R1, R256 ;\n", WS_ERR_PTX,
                 "bad operand 'R256'");
    expect_error("        /*0000*/                   MOV R1, , R2 ;\n", WS_ERR_PTX,
                 "bad operand list");
    expect_error("        /*0000*/                   LDG.E R1, desc[UR4][R2.64 ;\n", WS_ERR_PTX,
                 "bad operand list");
    expect_error("        /*0000*/                   LDG.E R1, [R2.Q+0x4] ;\n", WS_ERR_PTX,
                 "bad address term 'R2.Q'");
    expect_error("        /*0000*/                   S2R R1, SR_BOGUS ;\n", WS_ERR_PTX,
                 "unknown special register SR_BOGUS");
    expect_error("        /*0000*/                   LDC R1, c[0xq][0x0] ;\n", WS_ERR_PTX,
                 "bad constant bank number");
    expect_error("        /*0000*/                   MOV R1, 32@lo() ;\n", WS_ERR_PTX,
                 "bad relocation");
    expect_error("        /*0000*/                   FADD R1, |R2, R3 ;\n", WS_ERR_PTX,
                 "unbalanced |");
    expect_error("        /*0000*/                   BRX R4 (*\"JUNK\"*);\n", WS_ERR_PTX,
                 "bad annotation");
    expect_error("\t//## File \"/src/k.cu\" line 3\n", WS_ERR_PTX, "bad line info");
    expect_error("what is this\n", WS_ERR_PTX, "malformed SASS at line 11: unrecognized line");
    expect_error("        /*0000*/                   ;\n", WS_ERR_PTX, "missing opcode");

    ws_error err;
    ws_sass_module *m = parse("\t.target sm_90\n", &err);
    CHECK(!m && err.code == WS_ERR_PTX && strstr(err.msg, "no .text section"), "empty: %s",
          err.msg);
    m = parse("        /*0000*/                   EXIT ;\n", &err);
    CHECK(!m && strstr(err.msg, "instruction outside a code section"), "%s", err.msg);
    m = parse(".L_x_0:\n", &err);
    CHECK(!m && strstr(err.msg, "label outside a code section"), "%s", err.msg);
    char nul[] = HEAD "        /*0000*/     EXIT ;\n";
    nul[sizeof HEAD + 4] = '\0';
    m = NULL;
    ws_error_clear(&err);
    CHECK(ws_sass_parse(nul, sizeof nul - 1, "t.sass", &m, &err) != WS_OK && !m &&
          strstr(err.msg, "NUL byte"), "NUL: %s", err.msg);
}

/* Each row: its minimum operand count parses (as registers), one fewer and one more
 * than its range do not. */
static void test_every_row(void)
{
    for (int op = 0; op < WS_SOP__COUNT; op++) {
        const ws_sass_opinfo *oi = &ws_sass_ops[op];
        if (op == WS_SOP_UNKNOWN) { /* no name to find or print */
            CHECK(ws_sass_op_find("", 0) == -1, "the empty name finds nothing");
            continue;
        }
        CHECK(ws_sass_op_find(oi->name, strlen(oi->name)) == op, "find %s", oi->name);
        for (int n = oi->nmin - 1; n <= oi->nmax + 1; n++) {
            if (n < 0 || n > WS_SASS_MAXOPND)
                continue;
            char line[256], text[1024];
            int len = snprintf(line, sizeof line, "%s", oi->name);
            for (int i = 0; i < n; i++)
                len += snprintf(line + len, sizeof line - (size_t)len, "%sR%d", i ? ", " : " ",
                                i + 1);
            snprintf(text, sizeof text, HEAD "        /*0000*/   %s ;\n", line);
            ws_error err;
            ws_sass_module *m = parse(text, &err);
            int want = n >= oi->nmin && n <= oi->nmax;
            int got = m ? m->kernels[0].insts[0].op : -1;
            CHECK(got == (want ? op : WS_SOP_UNKNOWN), "%s with %d operands: %s", oi->name, n,
                  m ? (got == WS_SOP_UNKNOWN ? "the UNKNOWN row" : "its row") : err.msg);
            ws_sass_module_free(m);
        }
    }
    CHECK(ws_sass_op_find("IMADX", 5) == -1 && ws_sass_op_find("IMAD", 4) == WS_SOP_IMAD,
          "op_find");
    CHECK(ws_sass_mod_find("WIDE", 4) == WS_SMOD_WIDE && ws_sass_mod_find("WID", 3) == -1,
          "mod_find");
    CHECK(strcmp(ws_sass_mod_text(WS_SMOD_B64), "64") == 0 &&
          ws_sass_mod_kind(WS_SMOD_GEU) == WS_SMODK_CMP &&
          ws_sass_mod_kind(WS_SMOD_XOR) == WS_SMODK_BOOL &&
          ws_sass_mod_kind(WS_SMOD_RM) == WS_SMODK_RND &&
          ws_sass_mod_kind(WS_SMOD_S64) == WS_SMODK_TYPE &&
          ws_sass_mod_kind(WS_SMOD_FTZ) == WS_SMODK_FLAG, "mod kinds");
    CHECK(ws_sass_op_has(WS_SOP_LDG, WS_SOPF_LOAD) && !ws_sass_op_has(WS_SOP_IADD3, WS_SOPF_MEM),
          "flags");
}

int main(void)
{
    test_registers();
    test_immediates();
    test_banks_and_memory();
    test_special_forms();
    test_real_kernel_forms();
    test_guards_mods();
    test_module();
    test_errors();
    test_every_row();
    return ws_test_finish("test_sass_parse");
}
