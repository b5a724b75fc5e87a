/* test_ptx_insts.c — every instruction form nvcc 13 emits for this project's kernels, one
 * statement each: it parses into the expected opcode/modifier fields and prints back as
 * the expected PTX opcode text. Also CFG corner cases: several exits, an unreachable
 * block, an infinite loop, a guarded ret. */
#include "tests/ptx/ptx_test.h"

typedef struct inst_case {
    const char *stmt;   /* one PTX statement */
    const char *name;   /* what ws_inst_opname prints */
    int op, type, type2, space, subop, ndst, nsrc;
} inst_case;

#define T(t) WS_P_##t
static const inst_case cases[] = {
    {"ld.global.nc.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];", "ld.global.v4.u32", WS_OP_LD, T(U32), 0, WS_SPACE_GLOBAL, 0, 1, 1},
    {"ld.global.nc.f64 %fd1, [%rd1+8];", "ld.global.f64", WS_OP_LD, T(F64), 0, WS_SPACE_GLOBAL, 0, 1, 1},
    {"ld.volatile.shared.u32 %r1, [%r2];", "ld.volatile.shared.u32", WS_OP_LD, T(U32), 0, WS_SPACE_SHARED, 0, 1, 1},
    {"ld.local.u32 %r1, [%rd2];", "ld.local.u32", WS_OP_LD, T(U32), 0, WS_SPACE_LOCAL, 0, 1, 1},
    {"ld.const.f32 %f1, [cvals+4];", "ld.const.f32", WS_OP_LD, T(F32), 0, WS_SPACE_CONST, 0, 1, 1},
    {"ld.u32 %r1, [%rd1];", "ld.u32", WS_OP_LD, T(U32), 0, WS_SPACE_GENERIC, 0, 1, 1},
    {"st.shared.v2.f32 [%r2+8], {%f1, %f2};", "st.shared.v2.f32", WS_OP_ST, T(F32), 0, WS_SPACE_SHARED, 0, 0, 2},
    {"st.global.u8 [%rd1], %rs1;", "st.global.u8", WS_OP_ST, T(U8), 0, WS_SPACE_GLOBAL, 0, 0, 2},
    {"atom.global.add.u32 %r1, [%rd1], %r2;", "atom.global.add.u32", WS_OP_ATOM, T(U32), 0, WS_SPACE_GLOBAL, WS_SUB_ADD, 1, 2},
    {"atom.shared.cas.b32 %r1, [%r2], %r3, %r4;", "atom.shared.cas.b32", WS_OP_ATOM, T(B32), 0, WS_SPACE_SHARED, WS_SUB_CAS, 1, 3},
    {"atom.global.cas.b64 %rd1, [%rd2], %rd3, %rd4;", "atom.global.cas.b64", WS_OP_ATOM, T(B64), 0, WS_SPACE_GLOBAL, WS_SUB_CAS, 1, 3},
    {"atom.global.add.f64 %fd1, [%rd1], %fd2;", "atom.global.add.f64", WS_OP_ATOM, T(F64), 0, WS_SPACE_GLOBAL, WS_SUB_ADD, 1, 2},
    {"atom.relaxed.gpu.global.max.s32 %r1, [%rd1], %r2;", "atom.global.max.s32", WS_OP_ATOM, T(S32), 0, WS_SPACE_GLOBAL, WS_SUB_MAX, 1, 2},
    {"atom.global.exch.b32 %r1, [%rd1], %r2;", "atom.global.exch.b32", WS_OP_ATOM, T(B32), 0, WS_SPACE_GLOBAL, WS_SUB_EXCH, 1, 2},
    {"atom.global.inc.u32 %r1, [%rd1], %r2;", "atom.global.inc.u32", WS_OP_ATOM, T(U32), 0, WS_SPACE_GLOBAL, WS_SUB_INC, 1, 2},
    {"red.global.add.f64 [%rd1], %fd1;", "red.global.add.f64", WS_OP_RED, T(F64), 0, WS_SPACE_GLOBAL, WS_SUB_ADD, 0, 2},
    {"red.shared.or.b32 [%r1], %r2;", "red.shared.or.b32", WS_OP_RED, T(B32), 0, WS_SPACE_SHARED, WS_SUB_OR, 0, 2},
    {"shfl.sync.down.b32 %r1|%p1, %r2, %r3, %r4, %r5;", "shfl.sync.down.b32", WS_OP_SHFL, T(B32), 0, 0, WS_SUB_DOWN, 2, 4},
    {"shfl.sync.idx.b32 %r1, %r2, 0, 31, -1;", "shfl.sync.idx.b32", WS_OP_SHFL, T(B32), 0, 0, WS_SUB_IDX, 1, 4},
    {"shfl.sync.bfly.b32 %r1|%p1, %r2, 16, 31, -1;", "shfl.sync.bfly.b32", WS_OP_SHFL, T(B32), 0, 0, WS_SUB_BFLY, 2, 4},
    {"vote.sync.ballot.b32 %r1, %p1, -1;", "vote.sync.ballot.b32", WS_OP_VOTE, T(B32), 0, 0, WS_SUB_BALLOT, 1, 2},
    {"vote.sync.any.pred %p2, %p1, -1;", "vote.sync.any.pred", WS_OP_VOTE, T(PRED), 0, 0, WS_SUB_ANY, 1, 2},
    {"match.any.sync.b32 %r1, %r2, -1;", "match.any.sync.b32", WS_OP_MATCH, T(B32), 0, 0, WS_SUB_MATCH_ANY, 1, 2},
    {"redux.sync.add.s32 %r1, %r2, -1;", "redux.sync.add.s32", WS_OP_REDUX, T(S32), 0, 0, WS_SUB_ADD, 1, 2},
    {"activemask.b32 %r1;", "activemask.b32", WS_OP_ACTIVEMASK, T(B32), 0, 0, 0, 1, 0},
    {"setp.ge.s32 %p1, %r1, %r2;", "setp.ge.s32", WS_OP_SETP, T(S32), 0, 0, 0, 1, 2},
    {"setp.ne.s32 %p1|%p2, %r1, 0;", "setp.ne.s32", WS_OP_SETP, T(S32), 0, 0, 0, 2, 2},
    {"setp.gt.and.s32 %p2, %r1, 5, %p1;", "setp.gt.and.s32", WS_OP_SETP, T(S32), 0, 0, 0, 1, 3},
    {"setp.ltu.ftz.f32 %p1, %f1, 0f00000000;", "setp.ltu.ftz.f32", WS_OP_SETP, T(F32), 0, 0, 0, 1, 2},
    {"selp.b32 %r1, %r2, %r3, !%p1;", "selp.b32", WS_OP_SELP, T(B32), 0, 0, 0, 1, 3},
    {"cvt.rn.f32.s32 %f1, %r1;", "cvt.rn.f32.s32", WS_OP_CVT, T(F32), T(S32), 0, 0, 1, 1},
    {"cvt.rzi.s32.f32 %r1, %f1;", "cvt.rzi.s32.f32", WS_OP_CVT, T(S32), T(F32), 0, 0, 1, 1},
    {"cvt.u64.u32 %rd1, %r1;", "cvt.u64.u32", WS_OP_CVT, T(U64), T(U32), 0, 0, 1, 1},
    {"cvta.to.global.u64 %rd1, %rd2;", "cvta.to.global.u64", WS_OP_CVTA, T(U64), 0, WS_SPACE_GLOBAL, 0, 1, 1},
    {"cvta.shared.u64 %rd1, %rd2;", "cvta.shared.u64", WS_OP_CVTA, T(U64), 0, WS_SPACE_SHARED, 0, 1, 1},
    {"mov.u64 %rd1, _ZZ6kernelE4smem;", "mov.u64", WS_OP_MOV, T(U64), 0, 0, 0, 1, 1},
    {"mov.b64 %rd1, {%r1, %r2};", "mov.b64", WS_OP_MOV, T(B64), 0, 0, 0, 1, 1},
    {"mov.b64 {%r1, %r2}, %rd1;", "mov.b64", WS_OP_MOV, T(B64), 0, 0, 0, 1, 1},
    {"mov.u32 %r1, %lanemask_lt;", "mov.u32", WS_OP_MOV, T(U32), 0, 0, 0, 1, 1},
    {"mul.wide.s32 %rd1, %r1, 4;", "mul.wide.s32", WS_OP_MUL, T(S32), 0, 0, WS_SUB_WIDE, 1, 2},
    {"mul.hi.u32 %r1, %r2, %r3;", "mul.hi.u32", WS_OP_MUL, T(U32), 0, 0, WS_SUB_HI, 1, 2},
    {"mad.lo.s32 %r1, %r2, %r3, %r4;", "mad.lo.s32", WS_OP_MAD, T(S32), 0, 0, WS_SUB_LO, 1, 3},
    {"add.s64 %rd1, %rd2, -8;", "add.s64", WS_OP_ADD, T(S64), 0, 0, 0, 1, 2},
    {"sub.f32 %f1, %f2, %f3;", "sub.f32", WS_OP_SUB, T(F32), 0, 0, 0, 1, 2},
    {"div.s32 %r1, %r2, %r3;", "div.s32", WS_OP_DIV, T(S32), 0, 0, 0, 1, 2},
    {"div.rn.f64 %fd1, %fd2, %fd3;", "div.rn.f64", WS_OP_DIV, T(F64), 0, 0, 0, 1, 2},
    {"div.full.f32 %f1, %f2, %f3;", "div.full.f32", WS_OP_DIV, T(F32), 0, 0, 0, 1, 2},
    {"rem.u32 %r1, %r2, %r3;", "rem.u32", WS_OP_REM, T(U32), 0, 0, 0, 1, 2},
    {"sqrt.rn.f32 %f1, %f2;", "sqrt.rn.f32", WS_OP_SQRT, T(F32), 0, 0, 0, 1, 1},
    {"ex2.approx.ftz.f32 %f1, %f2;", "ex2.approx.ftz.f32", WS_OP_EX2, T(F32), 0, 0, 0, 1, 1},
    {"rcp.rn.f64 %fd1, %fd2;", "rcp.rn.f64", WS_OP_RCP, T(F64), 0, 0, 0, 1, 1},
    {"fma.rn.f32 %f1, %f2, %f3, %f4;", "fma.rn.f32", WS_OP_FMA, T(F32), 0, 0, 0, 1, 3},
    {"testp.finite.f32 %p1, %f1;", "testp.finite.f32", WS_OP_TESTP, T(F32), 0, 0, WS_SUB_FINITE, 1, 1},
    {"copysign.f32 %f1, %f2, %f3;", "copysign.f32", WS_OP_COPYSIGN, T(F32), 0, 0, 0, 1, 2},
    {"min.s32 %r1, %r2, %r3;", "min.s32", WS_OP_MIN, T(S32), 0, 0, 0, 1, 2},
    {"max.f64 %fd1, %fd2, 0d3FF0000000000000;", "max.f64", WS_OP_MAX, T(F64), 0, 0, 0, 1, 2},
    {"abs.s32 %r1, %r2;", "abs.s32", WS_OP_ABS, T(S32), 0, 0, 0, 1, 1},
    {"neg.f32 %f1, %f2;", "neg.f32", WS_OP_NEG, T(F32), 0, 0, 0, 1, 1},
    {"and.pred %p1, %p2, %p3;", "and.pred", WS_OP_AND, T(PRED), 0, 0, 0, 1, 2},
    {"not.b32 %r1, %r2;", "not.b32", WS_OP_NOT, T(B32), 0, 0, 0, 1, 1},
    {"xor.b32 %r1, %r2, 0xff;", "xor.b32", WS_OP_XOR, T(B32), 0, 0, 0, 1, 2},
    {"shl.b64 %rd1, %rd2, 2;", "shl.b64", WS_OP_SHL, T(B64), 0, 0, 0, 1, 2},
    {"shr.s32 %r1, %r2, 31;", "shr.s32", WS_OP_SHR, T(S32), 0, 0, 0, 1, 2},
    {"bfe.u32 %r1, %r2, 8, 4;", "bfe.u32", WS_OP_BFE, T(U32), 0, 0, 0, 1, 3},
    {"bfi.b32 %r1, %r2, %r3, 8, 4;", "bfi.b32", WS_OP_BFI, T(B32), 0, 0, 0, 1, 4},
    {"prmt.b32 %r1, %r2, %r3, 0x3210;", "prmt.b32", WS_OP_PRMT, T(B32), 0, 0, 0, 1, 3},
    {"lop3.b32 %r1, %r2, %r3, %r4, 0x96;", "lop3.b32", WS_OP_LOP3, T(B32), 0, 0, 0, 1, 4},
    {"shf.l.wrap.b32 %r1, %r2, %r3, %r4;", "shf.l.wrap.b32", WS_OP_SHF, T(B32), 0, 0, WS_SUB_SHF_L, 1, 3},
    {"brev.b32 %r1, %r2;", "brev.b32", WS_OP_BREV, T(B32), 0, 0, 0, 1, 1},
    {"popc.b32 %r1, %r2;", "popc.b32", WS_OP_POPC, T(B32), 0, 0, 0, 1, 1},
    {"clz.b32 %r1, %r2;", "clz.b32", WS_OP_CLZ, T(B32), 0, 0, 0, 1, 1},
    {"bfind.shiftamt.u32 %r1, %r2;", "bfind.shiftamt.u32", WS_OP_BFIND, T(U32), 0, 0, 0, 1, 1},
    {"bar.sync 0;", "bar.sync", WS_OP_BAR, 0, 0, 0, WS_SUB_SYNC, 0, 1},
    {"barrier.sync 0;", "barrier.sync", WS_OP_BARRIER, 0, 0, 0, WS_SUB_SYNC, 0, 1},
    {"barrier.sync.aligned 0, %r1;", "barrier.sync.aligned", WS_OP_BARRIER, 0, 0, 0, WS_SUB_SYNC, 0, 2},
    {"bar.warp.sync -1;", "bar.warp.sync", WS_OP_BAR, 0, 0, 0, WS_SUB_WARP_SYNC, 0, 1},
    {"bar.red.popc.u32 %r1, 0, %p1;", "bar.red.popc.u32", WS_OP_BAR, T(U32), 0, 0, WS_SUB_RED_POPC, 1, 2},
    {"membar.gl;", "membar", WS_OP_MEMBAR, 0, 0, 0, 0, 0, 0},
    {"fence.acq_rel.gpu;", "fence", WS_OP_FENCE, 0, 0, 0, 0, 0, 0},
    {"nanosleep.u32 100;", "nanosleep.u32", WS_OP_NANOSLEEP, T(U32), 0, 0, 0, 0, 1},
    {"trap;", "trap", WS_OP_TRAP, 0, 0, 0, 0, 0, 0},
    /* `_`: a result nobody reads (cuda::ptx writes it), a hidden register of the function */
    {"mbarrier.arrive.shared.b64 _, [%r1];", "mbarrier.arrive.shared.b64", WS_OP_MBAR_ARRIVE, T(B64), 0, WS_SPACE_SHARED, 0, 1, 1},
    /* forms of CUB's kernels: bit masks of radix digits, programmatic dependent launch */
    {"bmsk.clamp.b32 %r1, %r2, %r3;", "bmsk.clamp.b32", WS_OP_BMSK, T(B32), 0, 0, 0, 1, 2},
    {"bmsk.wrap.b32 %r1, 1, 2;", "bmsk.wrap.b32", WS_OP_BMSK, T(B32), 0, 0, 0, 1, 2},
    {"griddepcontrol.wait;", "griddepcontrol.wait", WS_OP_GRIDDEP_WAIT, 0, 0, 0, 0, 0, 0},
    {"griddepcontrol.launch_dependents;", "griddepcontrol.launch_dependents", WS_OP_GRIDDEP_LAUNCH, 0, 0, 0, 0, 0, 0},
};
#undef T
#define NCASES ((int)(sizeof cases / sizeof cases[0]))

static const char *head =
    ".version 9.0\n.target sm_90\n.address_size 64\n"
    ".const .align 4 .b8 cvals[16];\n"
    ".visible .entry _Z6kernelv()\n{\n"
    "\t.reg .pred %p<8>;\n\t.reg .b16 %rs<4>;\n\t.reg .b32 %r<40>;\n\t.reg .f32 %f<8>;\n"
    "\t.reg .f64 %fd<8>;\n\t.reg .b64 %rd<16>;\n"
    "\t.shared .align 4 .b8 _ZZ6kernelE4smem[64];\n\t.loc 1 3 0\n";

static void test_cases(void)
{
    size_t cap = 16384, n = 0;
    char *text = malloc(cap);
    n += (size_t)snprintf(text + n, cap - n, "%s", head);
    for (int i = 0; i < NCASES; i++)
        n += (size_t)snprintf(text + n, cap - n, "\t%s\n", cases[i].stmt);
    n += (size_t)snprintf(text + n, cap - n, "\tret;\n}\n\t.file 1 \"k.cu\"\n");
    ws_error e;
    ws_module *m = pt_parse(text, "insts.ptx", &e);
    CHECK(m != NULL, "all instruction forms parse: %s", m ? "" : e.msg);
    if (m) {
        const ws_function *f = &m->funcs[0];
        CHECK(f->ninsts == NCASES + 1, "instruction count %d", f->ninsts);
        for (int i = 0; i < NCASES && i < f->ninsts; i++) {
            const inst_case *c = &cases[i];
            const ws_inst *in = &f->insts[i];
            char name[96];
            ws_inst_opname(in, name, sizeof name);
            CHECK(strcmp(name, c->name) == 0, "'%s' prints as '%s'", c->stmt, name);
            CHECK(in->op == c->op && in->type == c->type && in->type2 == c->type2 &&
                  in->space == c->space && in->subop == c->subop && in->ndst == c->ndst &&
                  in->nsrc == c->nsrc, "'%s': op %d type %d/%d space %d subop %d ndst %d nsrc %d",
                  c->stmt, in->op, in->type, in->type2, in->space, in->subop, in->ndst, in->nsrc);
        }
        const ws_inst *in = f->insts;
        CHECK(in[1].src[0].imm == 8 && in[4].src[0].imm == 4 && ws_sym_is_global(in[4].src[0].sym),
              "address displacements");
        CHECK(in[35].src[0].kind == WS_O_SYMBOL && in[35].src[0].sym >= 0, "shared symbol");
        CHECK(in[36].src[0].kind == WS_O_VEC && in[37].dst[0].kind == WS_O_VEC, "mov pack/unpack");
        CHECK(in[38].src[0].kind == WS_O_SPECIAL && in[38].src[0].special == WS_SR_LANEMASK_LT,
              "%%lanemask_lt");
        CHECK(in[55].src[1].imm == 0x3FF0000000000000ll, "0d literal");
        CHECK(in[28].rnd == WS_RND_NONE && in[28].cmp == WS_CMP_LTU && (in[28].flags & WS_F_FTZ),
              "setp.ltu.ftz");
        CHECK(in[30].rnd == WS_RND_RN && in[31].rnd == WS_RND_RZI, "cvt rounding");
        CHECK((in[46].flags & WS_F_FULL) && (in[49].flags & WS_F_APPROX) &&
              (in[49].flags & WS_F_FTZ) && (in[67].flags & WS_F_WRAP) &&
              (in[71].flags & WS_F_NOINC) && (in[2].flags & WS_F_VOLATILE), "flags");
        CHECK((in[NCASES - 4].flags & WS_F_CLAMP) && !(in[NCASES - 4].flags & WS_F_WRAP) &&
              (in[NCASES - 3].flags & WS_F_WRAP) && !(in[NCASES - 3].flags & WS_F_CLAMP),
              "bmsk modes");
        ws_module_free(m);
    }
    free(text);
}

/* Each special register as the source of a mov. */
static void test_specials(void)
{
    static const struct { const char *name; int sr; } sr[] = {
        {"%tid.x", WS_SR_TID_X}, {"%tid.z", WS_SR_TID_Z}, {"%ntid.y", WS_SR_NTID_Y},
        {"%ctaid.z", WS_SR_CTAID_Z}, {"%nctaid.x", WS_SR_NCTAID_X}, {"%laneid", WS_SR_LANEID},
        {"%warpid", WS_SR_WARPID}, {"%lanemask_lt", WS_SR_LANEMASK_LT},
        {"%lanemask_ge", WS_SR_LANEMASK_GE}, {"%clock", WS_SR_CLOCK},
        {"%clock64", WS_SR_CLOCK64}, {"%globaltimer", WS_SR_GLOBALTIMER},
        {"%dynamic_smem_size", WS_SR_DYNAMIC_SMEM_SIZE}, {"%smid", WS_SR_SMID},
    };
    for (size_t i = 0; i < sizeof sr / sizeof sr[0]; i++) {
        char text[1024];
        snprintf(text, sizeof text, "%s\tmov.u64 %%rd1, %s;\n\tret;\n}\n", head, sr[i].name);
        ws_error e;
        ws_module *m = pt_parse(text, "sr.ptx", &e);
        CHECK(m && m->funcs[0].insts[0].src[0].kind == WS_O_SPECIAL &&
              m->funcs[0].insts[0].src[0].special == sr[i].sr, "%s", sr[i].name);
        ws_module_free(m);
    }
}

/* Several exits, an unreachable block, an infinite loop, a guarded ret. */
static void test_cfg_corners(void)
{
    const char *text =
        ".version 9.0\n.target sm_90\n.address_size 64\n"
        ".visible .entry k()\n{\n\t.reg .pred %p<4>;\n\t.reg .b32 %r<4>;\n"
        "\tsetp.eq.s32 %p1, %r1, 0;\n"  /* 0  B0 */
        "\t@%p1 bra A;\n"               /* 1     */
        "\t@%p2 bra B;\n"               /* 2  B1 */
        "\tret;\n"                      /* 3  B2: exit */
        "\tadd.s32 %r1, %r1, 1;\n"      /* 4  B3: unreachable, falls into A */
        "A:\n\texit;\n"                 /* 5  B4: exit */
        "B:\n\tadd.s32 %r2, %r2, 1;\n"  /* 6  B5: infinite loop */
        "\tbra.uni B;\n"                /* 7     */
        "}\n"
        ".visible .entry g()\n{\n\t.reg .pred %p<4>;\n\t.reg .b32 %r<4>;\n"
        "\tsetp.eq.s32 %p1, %r1, 0;\n"  /* 0  B0 */
        "\t@%p1 ret;\n"                 /* 1     guarded ret: falls through */
        "\t@%p2 bra C;\n"               /* 2  B1 */
        "\tadd.s32 %r1, %r1, 1;\n"      /* 3  B2 */
        "C:\n\tret;\n"                  /* 4  B3 */
        "}\n"
        ".visible .entry h()\n{\n\t.reg .pred %p<4>;\n\t.reg .b32 %r<4>;\n"
        "\t@%p1 bra END;\n"              /* 0: no ret at the end */
        "\tadd.s32 %r1, %r1, 1;\n"       /* 1 */
        "END:\n}\n";                     /* 2: implicit ret at the closing brace */
    ws_error e;
    ws_module *m = pt_parse(text, "cfg.ptx", &e);
    CHECK(m != NULL, "cfg corners parse: %s", m ? "" : e.msg);
    if (!m)
        return;
    const ws_function *f = &m->funcs[0];
    CHECK(f->nblocks == 6, "k: %d blocks", f->nblocks);
    if (f->nblocks == 6) {
        const ws_block *b = f->blocks;
        CHECK(b[0].nsucc == 2 && b[2].nsucc == 0 && b[3].nsucc == 1 && b[3].succ[0] == 4 &&
              b[4].nsucc == 0 && b[5].nsucc == 1 && b[5].succ[0] == 5, "k successors");
        CHECK(b[0].ipdom == -1 && f->insts[1].reconv_pc == -1, "two exits: no reconvergence");
        CHECK(b[1].ipdom == 2 && f->insts[2].reconv_pc == 3,
              "the infinite loop does not reach exit; the other side does");
        CHECK(b[3].ipdom == 4 && b[5].ipdom == -1 && f->insts[7].reconv_pc == -1,
              "unreachable block and loop");
    }
    const ws_function *g = &m->funcs[1];
    CHECK(g->nblocks == 4, "g: %d blocks", g->nblocks);
    if (g->nblocks == 4) {
        CHECK(g->blocks[0].last == 1 && g->blocks[0].nsucc == 1 && g->blocks[0].succ[0] == 1,
              "guarded ret falls through");
        CHECK(g->blocks[1].ipdom == 3 && g->insts[2].reconv_pc == 4, "branch reconverges at C");
    }
    int brace_line = 0;
    for (const char *p = text; p < strrchr(text, '}'); p++)
        brace_line += *p == '\n';
    const ws_function *h = &m->funcs[2];
    CHECK(h->ninsts == 3 && h->insts[2].op == WS_OP_RET && h->insts[2].ptx_line == brace_line + 1 &&
          h->insts[0].src[0].imm == 2 && h->insts[0].reconv_pc == 2,
          "implicit ret closes a body without one");
    ws_module_free(m);
}

int main(void)
{
    test_cases();
    test_specials();
    test_cfg_corners();
    return ws_test_finish("ptx_insts");
}
