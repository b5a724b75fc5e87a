/* test_ptx_front.c — the PTX front end on hand-written PTX whose every fact is known:
 * declarations, operand forms, modifiers, .loc with inlined_at, layout, CFG of a small
 * branch, the printer, and each error message a user can see. */
#include "tests/ptx/ptx_test.h"

/* One statement per element; element i is PTX line i + 1. */
static const char *const snippet[] = {
    ".version 9.0",                                                    /* 1 */
    ".target sm_90",                                                   /* 2 */
    ".address_size 64",                                                /* 3 */
    ".global .align 4 .u32 gtab[4] = {1, 2, 3, 0xff};",                /* 4 */
    ".const .align 8 .f64 cpi = 0d400921FB54442D18;",                  /* 5 */
    ".visible .entry _Z1kPii(",                                        /* 6 */
    "\t.param .u64 _Z1kPii_param_0,",                                  /* 7 */
    "\t.param .u32 _Z1kPii_param_1",                                   /* 8 */
    ")",                                                               /* 9 */
    ".maxntid 128, 1, 1",                                              /* 10 */
    "{",                                                               /* 11 */
    "\t.reg .pred \t%p<4>;",                                           /* 12 */
    "\t.reg .b32 \t%r<20>;",                                           /* 13 */
    "\t.reg .f32 \t%f<3>;",                                            /* 14 */
    "\t.reg .b64 \t%rd<8>;",                                           /* 15 */
    "\t.shared .align 16 .b8 tile[64];",                               /* 16 */
    "\t.local .align 4 .b8 depot[12];",                                /* 17 */
    "\t.loc\t1 5 0",                                                   /* 18 */
    "\tld.param.u64 \t%rd1, [_Z1kPii_param_0];",                       /* 19: pc 0 */
    "\tld.param.u32 \t%r1, [_Z1kPii_param_1];",                        /* 20: pc 1 */
    "\tmov.u32 \t%r2, %tid.x;",                                        /* 21: pc 2 */
    "\tsetp.gt.and.s32 \t%p2, %r1, 5, %p1;",                           /* 22: pc 3 */
    "\t@!%p2 bra \t$L__BB0_2;",                                        /* 23: pc 4 */
    "\tld.global.nc.v4.u32 \t{%r3, %r4, _, %r6}, [%rd1+16];",          /* 24: pc 5 */
    "\t.loc\t2 107 3, function_name $L__info_string0, inlined_at 1 8 3", /* 25 */
    "\tatom.global.add.u32 \t%r7, [%rd1+-8], -3;",                     /* 26: pc 6 */
    "\t.loc\t1 9 2",                                                   /* 27 */
    "\tshfl.sync.down.b32 \t%r8|%p3, %r7, 1, 31, -1;",                 /* 28: pc 7 */
    "\tmov.f32 \t%f1, 0f3F800000;",                                    /* 29: pc 8 */
    "\tmov.u32 \t%r9, gtab;",                                          /* 30: pc 9 */
    "\tld.shared.u32 \t%r10, [tile+16];",                              /* 31: pc 10 */
    "\tselp.b32 \t%r11, %r10, 0xff, !%p3;",                            /* 32: pc 11 */
    "$L__BB0_2:",                                                      /* 33 */
    "\tmov.u64 \t%rd2, depot;",                                        /* 34: pc 12 */
    "\tbar.sync \t0;",                                                 /* 35: pc 13 */
    "\tret;",                                                          /* 36: pc 14 */
    "}",                                                               /* 37 */
    "\t.file\t1 \"/tmp/x/k.cu\"",                                      /* 38 */
    "\t.file\t2 \"/usr/local/cuda/include/device_atomic_functions.hpp\"", /* 39 */
    "\t.section\t.debug_str",                                          /* 40 */
    "\t{",                                                             /* 41 */
    "$L__info_string0:",                                               /* 42 */
    ".b8 95,90,78,0",                                                  /* 43 */
    "\t}",                                                             /* 44 */
};
#define NLINES ((int)(sizeof snippet / sizeof snippet[0]))

/* The snippet with line `replace` (1-based) swapped for `with`, or cut after `cut` lines. */
static char *build(int replace, const char *with, int cut)
{
    size_t cap = 8192, n = 0;
    char *s = malloc(cap);
    s[0] = 0;
    for (int i = 0; i < NLINES && (!cut || i < cut); i++) {
        const char *l = (i + 1 == replace) ? with : snippet[i];
        n += (size_t)snprintf(s + n, cap - n, "%s\n", l);
    }
    return s;
}

static int reg_of(const ws_function *f, const char *name)
{
    for (int i = 0; i < f->nregs; i++)
        if (strcmp(f->regs[i].name, name) == 0)
            return i;
    return -100;
}

static int local_of(const ws_function *f, const char *name)
{
    for (int i = 0; i < f->nlocals; i++)
        if (strcmp(f->locals[i].name, name) == 0)
            return i;
    return -100;
}

static void test_declarations(const ws_module *m, const ws_function *f)
{
    CHECK(m->version_major == 9 && m->version_minor == 0, "version %d.%d", m->version_major,
          m->version_minor);
    CHECK(strcmp(m->target, "sm_90") == 0, "target %s", m->target);
    CHECK(m->address_size == 64, "address size %d", m->address_size);
    CHECK(m->nfiles == 3 && m->files[1] && strcmp(m->files[1], "/tmp/x/k.cu") == 0,
          ".file 1 resolved after the function");
    CHECK(ws_module_entry_count(m) == 1, "entries %d", ws_module_entry_count(m));
    CHECK(strcmp(ws_module_entry_name(m, 0), "_Z1kPii") == 0, "entry name");
    CHECK(ws_module_entry_name(m, 1) == NULL, "no second entry");
    CHECK(m->nglobals == 2, "globals %d", m->nglobals);
    const ws_var *g = &m->globals[0];
    CHECK(g->space == WS_SPACE_GLOBAL && g->size == 16 && g->align == 4, "gtab decl");
    CHECK(g->init && g->init[0] == 1 && g->init[4] == 2 && g->init[8] == 3 && g->init[12] == 0xff
          && g->init[13] == 0, "gtab initializer bytes");
    const ws_var *cv = &m->globals[1];
    uint64_t bits = 0;
    if (cv->init)
        memcpy(&bits, cv->init, 8);
    CHECK(cv->space == WS_SPACE_CONST && cv->size == 8 && bits == 0x400921FB54442D18ull,
          "const f64 initializer");
    CHECK(f->is_entry && f->nparams == 2, "params %d", f->nparams);
    CHECK(f->params[0].offset == 0 && f->params[0].size == 8 && f->params[1].offset == 8 &&
          f->params[1].size == 4, "param offsets");
    CHECK(f->nregs == 4 + 20 + 3 + 8, "register ranges expand: %d", f->nregs);
    CHECK(f->regs[reg_of(f, "%r19")].type == WS_P_B32 && reg_of(f, "%r20") < 0, "%%r<20> is r0..r19");
    int tile = local_of(f, "tile"), depot = local_of(f, "depot");
    CHECK(tile >= 0 && f->locals[tile].space == WS_SPACE_SHARED && f->locals[tile].offset == 0 &&
          f->locals[tile].size == 64, "function .shared");
    CHECK(f->shared_bytes == 64, "shared bytes %llu", (unsigned long long)f->shared_bytes);
    CHECK(depot >= 0 && f->locals[depot].space == WS_SPACE_LOCAL && f->local_bytes == 12,
          "local frame %llu", (unsigned long long)f->local_bytes);
    CHECK(f->main_file == 1, "main file %d", f->main_file);
}

static void test_operands(const ws_function *f)
{
    CHECK(f->ninsts == 15, "instruction count %d", f->ninsts);
    if (f->ninsts != 15)
        return;
    const ws_inst *in = f->insts;
    CHECK(in[0].op == WS_OP_LD && in[0].space == WS_SPACE_PARAM && in[0].src[0].kind == WS_O_ADDR
          && in[0].src[0].reg == -1 && in[0].src[0].sym == -1 && in[0].src[0].imm == 0,
          "ld.param of param 0");
    CHECK(in[1].src[0].imm == 8 && in[1].type == WS_P_U32, "ld.param of param 1 at offset 8");
    CHECK(in[2].src[0].kind == WS_O_SPECIAL && in[2].src[0].special == WS_SR_TID_X, "%%tid.x");
    CHECK(in[3].op == WS_OP_SETP && in[3].cmp == WS_CMP_GT && in[3].boolop == WS_BOOL_AND &&
          in[3].type == WS_P_S32 && in[3].nsrc == 3 && in[3].src[1].kind == WS_O_IMM &&
          in[3].src[1].imm == 5 && in[3].src[2].reg == reg_of(f, "%p1"), "setp.gt.and.s32");
    CHECK(in[4].guard == reg_of(f, "%p2") && in[4].guard_neg == 1, "@!%%p2 guard");
    CHECK(in[4].src[0].kind == WS_O_LABEL && in[4].src[0].imm == 12, "label resolves to pc 12");
    CHECK(in[5].space == WS_SPACE_GLOBAL && in[5].vec == 4 && in[5].type == WS_P_U32 &&
          in[5].dst[0].kind == WS_O_VEC && in[5].dst[0].nvec == 4 && in[5].dst[0].vregs[2] == -1
          && in[5].dst[0].vregs[3] == reg_of(f, "%r6"), "ld.global.nc.v4.u32 vector with sink");
    CHECK(in[5].src[0].reg == reg_of(f, "%rd1") && in[5].src[0].imm == 16, "[%%rd1+16]");
    CHECK(in[6].op == WS_OP_ATOM && in[6].subop == WS_SUB_ADD && in[6].src[0].imm == -8 &&
          in[6].src[1].kind == WS_O_IMM && in[6].src[1].imm == -3, "atom with [%%rd1+-8], -3");
    CHECK(in[6].file == 1 && in[6].line == 8, "inlined .loc maps to call site 1:8, got %d:%d",
          in[6].file, in[6].line);
    CHECK(in[5].line == 5 && in[7].line == 9, "plain .loc lines");
    CHECK(in[7].ndst == 2 && in[7].dst[1].reg == reg_of(f, "%p3") && in[7].nsrc == 4 &&
          in[7].src[3].imm == -1 && in[7].subop == WS_SUB_DOWN, "shfl %%r|%%p");
    CHECK(in[8].src[0].kind == WS_O_IMM && in[8].src[0].imm == 0x3F800000, "0f literal bits");
    CHECK(in[9].src[0].kind == WS_O_SYMBOL && ws_sym_is_global(in[9].src[0].sym) &&
          ws_sym_global_index(in[9].src[0].sym) == 0, "module symbol operand");
    CHECK(in[10].src[0].kind == WS_O_ADDR && in[10].src[0].sym == local_of(f, "tile") &&
          in[10].src[0].imm == 16, "[tile+16]");
    CHECK(in[11].src[1].imm == 0xff && in[11].src[2].neg == 1, "selp with hex and !%%p");
    CHECK(in[12].src[0].kind == WS_O_SYMBOL && in[12].src[0].sym == local_of(f, "depot"),
          "local symbol operand");
    CHECK(in[13].op == WS_OP_BAR && in[13].subop == WS_SUB_SYNC && in[13].src[0].imm == 0,
          "bar.sync 0");
    CHECK(in[0].ptx_line == 19 && in[14].ptx_line == 36, "ptx lines %d %d", in[0].ptx_line,
          in[14].ptx_line);
    char name[96];
    ws_inst_opname(&in[3], name, sizeof name);
    CHECK(strcmp(name, "setp.gt.and.s32") == 0, "opname %s", name);
    ws_inst_opname(&in[6], name, sizeof name);
    CHECK(strcmp(name, "atom.global.add.u32") == 0, "opname %s", name);
    ws_inst_opname(&in[7], name, sizeof name);
    CHECK(strcmp(name, "shfl.sync.down.b32") == 0, "opname %s", name);
    CHECK(strcmp(ws_op_name(WS_OP_LD), "ld") == 0 && ws_op_class(WS_OP_ATOM) == WS_CLS_ATOM,
          "op table");
    CHECK(ws_ptype_bits(WS_P_S16) == 16 && ws_ptype_is_signed(WS_P_S64) &&
          !ws_ptype_is_signed(WS_P_U32) && ws_ptype_is_float(WS_P_F64) &&
          strcmp(ws_ptype_name(WS_P_BF16X2), "bf16x2") == 0, "ptype helpers");
}

static void test_cfg(const ws_function *f)
{
    CHECK(f->nblocks == 3, "blocks %d", f->nblocks);
    if (f->nblocks != 3)
        return;
    CHECK(f->blocks[0].first == 0 && f->blocks[0].last == 4 && f->blocks[1].first == 5 &&
          f->blocks[2].first == 12 && f->blocks[2].last == 14, "block ranges");
    CHECK(f->blocks[0].nsucc == 2 && f->blocks[1].nsucc == 1 && f->blocks[2].nsucc == 0,
          "successors");
    CHECK(f->blocks[0].ipdom == 2 && f->blocks[1].ipdom == 2 && f->blocks[2].ipdom == -1,
          "ipdoms");
    CHECK(f->insts[4].reconv_pc == 12 && f->insts[8].block == 1, "reconvergence pc");
}

static void expect_error(int line_no, const char *with, int cut, ws_code code, int want_line,
                         const char *want)
{
    char *text = build(line_no, with, cut);
    ws_error e;
    ws_module *m = pt_parse(text, "snip.ptx", &e);
    if (code == WS_ERR_UNSUPPORTED) { /* the module loads; launching the kernel fails */
        CHECK(m != NULL, "module with an unsupported kernel loads: %s", e.msg);
        if (m) {
            CHECK(ws_module_entry_check(m, 0, &e) == WS_ERR_UNSUPPORTED &&
                      pt_find(m, ws_module_entry_name(m, 0))->ninsts == 0,
                  "entry refused for '%s'", with);
            ws_module_free(m);
            m = NULL;
        }
    }
    CHECK(m == NULL, "expected an error for '%s'", with ? with : "(cut)");
    if (m) {
        ws_module_free(m);
        free(text);
        return;
    }
    char buf[1024], head[64];
    ws_error_format(&e, buf, sizeof buf);
    snprintf(head, sizeof head, "snip.ptx:%d: ", want_line);
    CHECK(e.code == code, "code %s for %s", ws_code_name(e.code), buf);
    CHECK(e.line == want_line && strcmp(e.file, "snip.ptx") == 0, "line %d for %s", e.line, buf);
    CHECK(strstr(buf, head) && strstr(buf, want), "message '%s' lacks '%s'", buf, want);
    free(text);
}

static void test_errors(void)
{
    expect_error(29, "\tfoo.bar.u32 \t%r1, %r2;", 0, WS_ERR_UNSUPPORTED, 29,
                 "unsupported instruction 'foo.bar.u32'");
    expect_error(29, "\ttanh.approx.bf16x2 \t%r1, %r2;", 0, WS_ERR_UNSUPPORTED, 29,
                 "unsupported instruction 'tanh.approx.bf16x2'");
    expect_error(29, "\tadd.bogus.s32 \t%r1, %r2, %r3;", 0, WS_ERR_UNSUPPORTED, 29,
                 "unsupported instruction 'add.bogus.s32'");
    expect_error(29, "\tex2.approx.f16 \t%r1, %r2;", 0, WS_ERR_UNSUPPORTED, 29,
                 "unsupported instruction 'ex2.approx.f16'");
    expect_error(29, "\tadd.s32 \t%r1 %r2;", 0, WS_ERR_PTX, 29, "expected ';', found '%r2'");
    expect_error(29, "\tadd.s32 \t%r1, %r2;", 0, WS_ERR_PTX, 29, "wrong number of operands");
    expect_error(29, "\tmov.u32 \t%r1, %q7;", 0, WS_ERR_PTX, 29, "undeclared register '%q7'");
    expect_error(29, "\tmov.u32 \t%r1, nosuch;", 0, WS_ERR_PTX, 29, "unknown symbol 'nosuch'");
    expect_error(29, "\tbra.uni \t$L__nowhere;", 0, WS_ERR_PTX, 29,
                 "undefined label '$L__nowhere'");
    expect_error(29, "\tst.global.u32 \t%rd1, %r1;", 0, WS_ERR_PTX, 29,
                 "expected a memory operand");
    expect_error(29, "\tmov.u32 \t%r1, #5;", 0, WS_ERR_PTX, 29, "unexpected character '#'");
    expect_error(29, "\tcp.async.ca.shared.global \t[%r1], [%rd1], 2;", 0, WS_ERR_PTX, 29,
                 "expected [shared], [global], then the copy size 4, 8 or 16");
    expect_error(29, "\tcp.async.ca.shared.global \t[%r1], [%rd1], %r2;", 0, WS_ERR_PTX, 29,
                 "expected [shared], [global], then the copy size 4, 8 or 16");
    /* a bulk copy into shared memory completes on an mbarrier; a bulk group is for copies out */
    expect_error(29, "\tcp.async.bulk.shared::cluster.global.bulk_group \t[%r1], [%rd1], 16;", 0,
                 WS_ERR_UNSUPPORTED, 29, "the forms known are .shared::cluster.global."
                 "mbarrier::complete_tx::bytes [dst], [src], size, [mbar] and "
                 ".global.shared::cta.bulk_group [dst], [src], size");
    expect_error(29, "\tcp.async.bulk.global.global.bulk_group \t[%rd2], [%rd1], 16;", 0,
                 WS_ERR_UNSUPPORTED, 29, "unsupported instruction 'cp.async.bulk.global.global");
    /* forms of the rows added for intrinsics that the models do not run */
    expect_error(29, "\tdp2a.wide.u32.u32 \t%r1, %r2, %r2, %r2;", 0, WS_ERR_UNSUPPORTED, 29,
                 "unsupported instruction 'dp2a.wide.u32.u32'");
    expect_error(29, "\tdp4a.u64.u32 \t%r1, %r2, %r2, %r2;", 0, WS_ERR_UNSUPPORTED, 29,
                 "unsupported instruction 'dp4a.u64.u32'");
    expect_error(29, "\tvabsdiff4.u32.u32.s32 \t%r1, %r2, %r2, %r2;", 0, WS_ERR_UNSUPPORTED,
                 29, "unsupported instruction 'vabsdiff4.u32.u32.s32'");
    expect_error(29, "\tcvt.rz.f16x2.f32 \t%r1, %f1, %f1;", 0, WS_ERR_UNSUPPORTED, 29,
                 "unsupported instruction 'cvt.rz.f16x2.f32'");
    expect_error(29, "\tcvt.rn.f16x2.f32 \t%r1, %f1;", 0, WS_ERR_PTX, 29,
                 "wrong number of operands");
    /* FP8: .satfinite is required to FP8 (PTX ISA, sm_89/90), .rn only, f32 pairs or f16x2 */
    expect_error(29, "\tcvt.rn.e4m3x2.f32 \t%r1, %f1, %f1;", 0, WS_ERR_UNSUPPORTED, 29,
                 "unsupported instruction 'cvt.rn.e4m3x2.f32'");
    expect_error(29, "\tcvt.rz.satfinite.e5m2x2.f32 \t%r1, %f1, %f1;", 0, WS_ERR_UNSUPPORTED,
                 29, "unsupported instruction 'cvt.rz.satfinite.e5m2x2.f32'");
    expect_error(29, "\tcvt.rn.satfinite.e4m3x2.f32 \t%r1, %f1;", 0, WS_ERR_PTX, 29,
                 "wrong number of operands");
    expect_error(29, "\tcvt.rn.satfinite.f16x2.e4m3x2 \t%r1, %r2;", 0, WS_ERR_UNSUPPORTED, 29,
                 "unsupported instruction 'cvt.rn.satfinite.f16x2.e4m3x2'");
    expect_error(29, "\tcvt.rn.relu.f32.f16 \t%f1, %r2;", 0, WS_ERR_UNSUPPORTED, 29,
                 "unsupported instruction 'cvt.rn.relu.f32.f16'");
    expect_error(29, "\tmin.relu.u32 \t%r1, %r2, %r2;", 0, WS_ERR_UNSUPPORTED, 29,
                 "unsupported instruction 'min.relu.u32'");
    expect_error(29, "\tadd.sat.u16x2 \t%r1, %r2, %r2;", 0, WS_ERR_UNSUPPORTED, 29,
                 "unsupported instruction 'add.sat.u16x2'");
    expect_error(29, "\tmul.lo.s16x2 \t%r1, %r2, %r2;", 0, WS_ERR_UNSUPPORTED, 29,
                 "unsupported instruction 'mul.lo.s16x2'");
    /* vector atomics: only the global f32 add (float2/float4), with vectors of its size */
    expect_error(29, "\tatom.global.min.v2.f32 \t{%f1, %f1}, [%rd1], {%f1, %f1};", 0,
                 WS_ERR_UNSUPPORTED, 29, "unsupported instruction 'atom.global.min.v2.f32'");
    expect_error(29, "\tatom.shared.add.v2.f32 \t{%f1, %f1}, [%rd1], {%f1, %f1};", 0,
                 WS_ERR_UNSUPPORTED, 29, "unsupported instruction 'atom.shared.add.v2.f32'");
    expect_error(29, "\tatom.global.add.v4.f32 \t{%f1, %f1}, [%rd1], {%f1, %f1};", 0,
                 WS_ERR_PTX, 29, "a vector atomic takes a {vector} result and value of its "
                 "size");
    expect_error(29, "\tatom.global.add.f32 \t%f1, [%rd1], {%f1, %f1};", 0, WS_ERR_PTX, 29,
                 "vector operand without .v2/.v4");
    /* bmsk takes exactly one of .clamp and .wrap, and no shf direction */
    expect_error(29, "\tbmsk.b32 \t%r1, %r2, %r3;", 0, WS_ERR_UNSUPPORTED, 29,
                 "unsupported instruction 'bmsk.b32'");
    expect_error(29, "\tbmsk.wrap.clamp.b32 \t%r1, %r2, %r3;", 0, WS_ERR_UNSUPPORTED, 29,
                 "unsupported instruction 'bmsk.wrap.clamp.b32'");
    expect_error(29, "\tbmsk.l.wrap.b32 \t%r1, %r2, %r3;", 0, WS_ERR_UNSUPPORTED, 29,
                 "unsupported instruction 'bmsk.l.wrap.b32'");
    /* a kernel parameter's address is taken by mov only (test_param_address) */
    expect_error(29, "\tadd.s64 \t%rd3, _Z1kPii_param_1, 4;", 0, WS_ERR_UNSUPPORTED, 29,
                 "unsupported use of the address of parameter '_Z1kPii_param_1'");
    expect_error(38, "\t.file\t1 \"/tmp/x/k.cu", 0, WS_ERR_PTX, 38, "unterminated string");
    expect_error(0, NULL, 30, WS_ERR_PTX, 30, "end of file");
    expect_error(0, NULL, 42, WS_ERR_PTX, 40, "end of file in .section");
    expect_error(33, "$L__BB0_1:", 0, WS_ERR_PTX, 23, "undefined label '$L__BB0_2'");
    ws_error e;
    CHECK(pt_parse("", "empty.ptx", &e) == NULL && e.code == WS_ERR_PTX &&
          strstr(e.msg, "no .version"), "empty text: %s", e.msg);
    /* names: C++ mangled ones run to hundreds of characters and are kept whole; past 1023
     * characters the parser says so instead of cutting them */
    /* a global's name and a kernel's: kept whole up to 1023 characters, an error beyond */
    static const struct { const char *decl, *what; } names[] = {
        {".global .align 4 .b8 %s[4];\n.visible .entry k()\n{\n\tret;\n}\n", "variable"},
        {".visible .entry %s()\n{\n\tret;\n}\n", "function"},
    };
    for (int len = 300; len <= 1100; len += 800)
        for (int i = 0; i < 2; i++) {
            char *name = malloc((size_t)len + 1), *ptx = malloc((size_t)len + 256);
            char body[128];
            memset(name, 'g', (size_t)len);
            name[len] = 0;
            snprintf(body, sizeof body, ".version 8.0\n.target sm_90\n.address_size 64\n%s",
                     names[i].decl);
            snprintf(ptx, (size_t)len + 256, body, name);
            ws_module *lm = pt_parse(ptx, "names.ptx", &e);
            const char *kept = !lm ? NULL : i == 0 ? (lm->nglobals == 1 ? lm->globals[0].name : "")
                                                   : ws_module_entry_name(lm, 0);
            char want[64];
            snprintf(want, sizeof want, "%s name longer than 1023 characters", names[i].what);
            if (len < 1024)
                CHECK(kept && strcmp(kept, name) == 0, "a %d-character %s name is kept whole: %s",
                      len, names[i].what, lm ? "" : e.msg);
            else
                CHECK(!lm && e.code == WS_ERR_PTX && e.line == 4 && strstr(e.msg, want),
                      "a %d-character %s name is an error: %s", len, names[i].what, e.msg);
            ws_module_free(lm);
            free(name);
            free(ptx);
        }
    CHECK(ws_ptx_load("/nonexistent/x.ptx", &(ws_module *){NULL}, &e) != WS_OK &&
          e.code == WS_ERR_IO, "missing file gives an I/O error");
}

/* A .func with a call sequence, and a call to an .extern function without a body. */
static void test_calls(void)
{
    const char *text =
        ".version 9.0\n.target sm_90\n.address_size 64\n"
        ".extern .func (.param .b32 func_retval0) vprintf\n(\n\t.param .b64 vprintf_param_0,\n"
        "\t.param .b64 vprintf_param_1\n)\n;\n"
        ".func (.param .b32 func_retval0) sq(\n\t.param .b32 sq_param_0,\n"
        "\t.param .b64 sq_param_1\n)\n{\n\t.reg .b32 %r<3>;\n"
        "\tld.param.u32 %r1, [sq_param_0];\n\tmul.lo.s32 %r2, %r1, %r1;\n"
        "\tst.param.b32 [func_retval0+0], %r2;\n\tret;\n}\n"
        ".visible .entry k(\n\t.param .u64 k_param_0\n)\n{\n\t.reg .b32 %r<4>;\n"
        "\tmov.u32 %r1, 3;\n"
        "\t{ // callseq 0, 0\n\t.reg .b32 temp_param_reg;\n\t.param .b32 param0;\n"
        "\tst.param.b32 [param0+0], %r1;\n\t.param .b64 param1;\n"
        "\tst.param.b64 [param1+0], 0;\n\t.param .b32 retval0;\n"
        "\tcall.uni (retval0), \n\tsq, \n\t(\n\tparam0, \n\tparam1\n\t);\n"
        "\tld.param.b32 %r2, [retval0+0];\n\t} // callseq 0\n"
        "\t{ // callseq 1, 0\n\t.reg .b32 temp_param_reg;\n\t.param .b32 param0;\n"
        "\tst.param.b32 [param0+0], %r2;\n\t.param .b32 retval0;\n"
        "\tcall.uni (retval0), sq, (param0);\n\tld.param.b32 %r3, [retval0+0];\n\t}\n"
        "\tret;\n}\n";
    ws_error e;
    ws_module *m = pt_parse(text, "call.ptx", &e);
    CHECK(m != NULL, "call sequence parses: %s", m ? "" : e.msg);
    if (m) {
        const ws_function *sq = pt_find(m, "sq"), *k = pt_find(m, "k");
        CHECK(m->nfuncs == 2 && sq && k && !sq->is_entry, "two functions, extern not defined");
        CHECK(sq && sq->nrets == 1 && sq->rets[0].offset == 16 && sq->params[1].offset == 8,
              "ret follows params in the param block");
        CHECK(sq && sq->insts[2].src[0].imm == 16, "st.param to func_retval0 at 16");
        const ws_inst *call = k ? &k->insts[3] : NULL;
        CHECK(call && call->op == WS_OP_CALL && call->src[0].kind == WS_O_FUNC &&
              call->src[0].imm == sq - m->funcs && call->src[2].imm == 2 &&
              call->ndst == 1 && call->flags & WS_F_UNI, "call encoding");
        if (call) {
            const ws_var *a0 = &k->locals[call->src[1].sym], *a1 = &k->locals[call->src[1].sym + 1];
            const ws_var *r = &k->locals[call->dst[0].sym];
            CHECK(strcmp(a0->name, "param0") == 0 && strcmp(a1->name, "param1") == 0 &&
                  strcmp(r->name, "retval0") == 0 && a1->offset == 8, "call args are locals");
            const ws_inst *ld = &k->insts[4], *call2 = &k->insts[6];
            CHECK(ld->src[0].sym == call->dst[0].sym, "ld.param reads this scope's retval0");
            CHECK(call2->src[1].sym != call->src[1].sym && call2->src[2].imm == 1,
                  "second scope has its own param0");
        }
        ws_module_free(m);
    }
    const char *from = "sq, (param0)", *to = "vprintf, (param0)";
    const char *at = strstr(text, from);
    char *bad = malloc(strlen(text) + strlen(to) + 1);
    sprintf(bad, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    int line = 1;
    for (const char *p = text; p < at; p++)
        line += *p == '\n';
    m = pt_parse(bad, "call.ptx", &e);
    CHECK(m != NULL, "a call to an external function fails only its kernel: %s", e.msg);
    if (m)
        ws_module_entry_check(m, 0, &e);
    CHECK(m && e.code == WS_ERR_UNSUPPORTED && e.line == line && strstr(e.msg, "vprintf"),
          "extern call unsupported at line %d: %d %s", line, e.line, e.msg);
    ws_module_free(m);
    free(bad);
}

/* mov %rd, param of a kernel (a __grid_constant__ parameter read through a reference, as
 * in CUB's kernels): the parameter's offset in the .param space, which ld.param [%rd+k]
 * reads; the address of a device function's parameter (.local in the PTX ISA) is refused
 * when its kernel is launched. */
static void test_param_address(void)
{
    char *text = build(34, "\tmov.b64 \t%rd2, _Z1kPii_param_1;", 0);
    ws_error e;
    ws_module *m = pt_parse(text, "snip.ptx", &e);
    const ws_function *f = m ? pt_find(m, "_Z1kPii") : NULL;
    CHECK(f && f->ninsts == 15 && f->insts[12].op == WS_OP_MOV &&
          f->insts[12].src[0].kind == WS_O_IMM && f->insts[12].src[0].imm == 8 &&
          ws_module_entry_check(m, 0, &e) == WS_OK,
          "mov of a kernel parameter is its .param offset: %s", m ? e.msg : "no module");
    ws_module_free(m);
    free(text);
    const char *fn =
        ".version 9.0\n.target sm_90\n.address_size 64\n"
        ".func (.param .b64 func_retval0) addr(\n\t.param .b32 addr_param_0\n)\n{\n"
        "\t.reg .b64 %rd<2>;\n\tmov.b64 %rd1, addr_param_0;\n"
        "\tst.param.b64 [func_retval0+0], %rd1;\n\tret;\n}\n"
        ".visible .entry k()\n{\n\t.reg .b64 %rd<2>;\n\t{\n\t.param .b32 param0;\n"
        "\tst.param.b32 [param0+0], 1;\n\t.param .b64 retval0;\n"
        "\tcall.uni (retval0), addr, (param0);\n\tld.param.b64 %rd1, [retval0+0];\n\t}\n"
        "\tret;\n}\n";
    m = pt_parse(fn, "fn.ptx", &e);
    CHECK(m != NULL, "a device function taking its parameter's address loads: %s", e.msg);
    if (m)
        ws_module_entry_check(m, 0, &e);
    CHECK(m && e.code == WS_ERR_UNSUPPORTED && e.line == 9 &&
          strstr(e.msg, "unsupported use of the address of parameter 'addr_param_0'"),
          "refused at its line: %d %s", e.line, e.msg);
    ws_module_free(m);
}

/* .loc chains: header -> header -> .cu walks out through each inlined_at. */
static void test_loc_chain(void)
{
    const char *text =
        ".version 9.0\n.target sm_90\n.address_size 64\n"
        ".visible .entry k()\n{\n\t.reg .b32 %r<4>;\n"
        "\t.loc 1 40 0\n"
        "\tmov.u32 %r1, 1;\n"                                         /* 0: 40 */
        "\t.loc 2 10 3, function_name $L__a, inlined_at 1 50 5\n"
        "\tmov.u32 %r1, 2;\n"                                         /* 1: 50 */
        "\t.loc 1 60 5\n"
        "\tmov.u32 %r1, 3;\n"                                         /* 2: 60 */
        "\t.loc 3 20 3, function_name $L__b+4, inlined_at 2 10 3\n"
        "\tmov.u32 %r1, 4;\n"                                         /* 3: 50 via 2:10:3 */
        "\t.loc 3 30 1, function_name $L__c, inlined_at 2 99 3\n"
        "\tmov.u32 %r1, 5;\n"                                         /* 4: unknown: stays */
        "\t.loc 1 0 0\n"
        "\tret;\n}\n";                                                /* 5: 0 */
    ws_error e;
    ws_module *m = pt_parse(text, "loc.ptx", &e);
    CHECK(m != NULL, "loc chain parses: %s", m ? "" : e.msg);
    if (!m)
        return;
    const ws_inst *in = m->funcs[0].insts;
    CHECK(in[0].line == 40 && in[1].line == 50 && in[2].line == 60 && in[3].line == 50 &&
          in[4].line == 50 && in[5].line == 0, "lines %d %d %d %d %d %d", in[0].line,
          in[1].line, in[2].line, in[3].line, in[4].line, in[5].line);
    CHECK(in[3].file == 1 && in[5].file == 1, "main file");
    ws_module_free(m);
}

/* Addresses in module initializers: variables (generic(a)+4, a string's generic($str)),
 * functions (vtables, pointer tables) as ws_addrinit records; other words refused. */
static void test_address_initializers(void)
{
    const char *head = ".version 9.0\n.target sm_90\n.address_size 64\n"
                       ".func (.param .b32 func_retval0) f(.param .b32 f_param_0);\n"
                       ".global .align 4 .b8 a[16];\n.global .align 1 .b8 $str[3] = {104, 105};\n";
    char text[1024];
    snprintf(text, sizeof text, "%s.global .align 8 .u64 p[4] = {generic(a)+4, generic($str), "
             "0, f};\n.global .align 8 .u64 q = a-8;\n", head);
    ws_error e;
    ws_module *m = pt_parse(text, "init.ptx", &e);
    CHECK(m != NULL, "address initializers parse: %s", m ? "" : e.msg);
    if (m) {
        const ws_addrinit *r = m->addrinits;
        CHECK(m->naddrinits == 4, "four addresses: %d", m->naddrinits);
        CHECK(m->naddrinits == 4 && r[0].global == 2 && r[0].offset == 0 && r[0].target == 0 &&
              r[0].addend == 4 && r[1].target == 1 && r[1].offset == 8 && r[1].addend == 0 &&
              r[2].target == -1 && r[2].offset == 24 && r[2].fn && !strcmp(r[2].fn, "f") &&
              r[3].global == 3 && r[3].target == 0 && r[3].addend == -8,
              "records: globals, offsets, targets and addends");
        ws_module_free(m);
    }
    static const struct { const char *decl, *msg; int code; } bad[] = {
        {".global .align 8 .u64 p = nosuch;", "unknown symbol 'nosuch' in an initializer",
         WS_ERR_PTX},
        {".global .align 4 .u32 p = a;", "unsupported initializer 'a' (only numbers)",
         WS_ERR_UNSUPPORTED},
        {".global .align 8 .u64 p = generic(a;", "expected ')'", WS_ERR_PTX}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(text, sizeof text, "%s%s\n", head, bad[i].decl);
        m = pt_parse(text, "init.ptx", &e);
        CHECK(m == NULL && (int)e.code == bad[i].code && strstr(e.msg, bad[i].msg) && e.line == 7,
              "'%s': want [%s], got %d [%s] line %d", bad[i].decl, bad[i].msg, e.code,
              m ? "(parsed)" : e.msg, e.line);
        ws_module_free(m);
    }
}

int main(void)
{
    char *text = build(0, NULL, 0);
    ws_error e;
    ws_module *m = pt_parse(text, "snip.ptx", &e);
    CHECK(m != NULL, "snippet parses: %s", m ? "" : e.msg);
    if (m) {
        const ws_function *f = pt_find(m, "k");
        CHECK(f != NULL, "kernel found");
        if (f) {
            test_declarations(m, f);
            test_operands(f);
            test_cfg(f);
        }
        CHECK(pt_count_statements(text) == 15, "statement counter agrees on the snippet");
        ws_module_free(m);
    }
    free(text);
    test_errors();
    test_calls();
    test_param_address();
    test_loc_chain();
    test_address_initializers();
    return ws_test_finish("ptx_front");
}
