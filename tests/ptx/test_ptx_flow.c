/* test_ptx_flow.c — the front end on real nvcc output of the .cu files in tests/ptx/cu: CFG facts (an
 * if/else diamond, a loop, an early return), source lines (an inlined __device__ function,
 * atomicAdd from the CUDA headers, a call), parameter and shared-memory layout, warp
 * operations, and the errors for printf (vprintf) and a truncated file. */
#include "tests/ptx/ptx_test.h"

static char *cu_text, *ptx_text;
static ws_module *mod;

static int line_of(const char *marker)
{
    int l = pt_marker_line(cu_text, marker);
    CHECK(l > 0, "marker @%s in flow.cu", marker);
    return l;
}

static const ws_inst *first_at_line(const ws_function *f, int line)
{
    for (int pc = 0; pc < f->ninsts; pc++)
        if (f->insts[pc].line == line && f->insts[pc].file == f->main_file)
            return &f->insts[pc];
    return NULL;
}

static const ws_inst *guarded_bra_at(const ws_function *f, int line)
{
    for (int pc = 0; pc < f->ninsts; pc++)
        if (f->insts[pc].op == WS_OP_BRA && f->insts[pc].guard >= 0 && f->insts[pc].line == line)
            return &f->insts[pc];
    return NULL;
}

static const ws_function *need(const char *name)
{
    const ws_function *f = pt_find(mod, name);
    CHECK(f != NULL, "function %s in flow.ptx", name);
    return f;
}

static void test_diamond(void)
{
    const ws_function *f = need("diamond");
    if (!f)
        return;
    const ws_inst *br = guarded_bra_at(f, line_of("if"));
    const ws_inst *join = first_at_line(f, line_of("join"));
    const ws_inst *then_i = first_at_line(f, line_of("then"));
    const ws_inst *else_i = first_at_line(f, line_of("else"));
    CHECK(br && join && then_i && else_i, "if, then, else and join instructions exist");
    if (!br || !join || !then_i || !else_i)
        return;
    const ws_block *b = &f->blocks[br->block];
    CHECK(b->nsucc == 2, "the if block has two successors");
    CHECK(b->ipdom == join->block, "ipdom of the if block is the join block (%d vs %d)",
          b->ipdom, join->block);
    CHECK(br->reconv_pc == f->blocks[join->block].first, "reconvergence at the join");
    CHECK(then_i->block != join->block && else_i->block != join->block &&
          then_i->block != else_i->block, "then and else are their own blocks");
}

static void test_loop(void)
{
    const ws_function *f = need("loop");
    if (!f)
        return;
    int loop = line_of("loop"), backs = 0;
    for (int pc = 0; pc < f->ninsts; pc++) {
        const ws_inst *in = &f->insts[pc];
        if (in->op != WS_OP_BRA || in->src[0].imm > pc)
            continue;
        backs++;
        CHECK(in->line == loop, "back edge at the loop line (%d)", in->line);
        CHECK(in->reconv_pc > pc, "a back edge reconverges after the loop (pc %d -> %d)", pc,
              in->reconv_pc);
        const ws_block *b = &f->blocks[in->block];
        int target = f->insts[in->src[0].imm].block;
        CHECK(b->nsucc == 2 && (b->succ[0] == target || b->succ[1] == target),
              "loop block: back edge and exit");
    }
    CHECK(backs >= 1, "the loop has a back edge");
    const ws_inst *after = first_at_line(f, line_of("after"));
    CHECK(after != NULL, "store after the loop");
    int b = 0, reached = 0;
    for (int guard = 0; b >= 0 && guard < f->nblocks + 1; guard++) {
        if (after && b == after->block)
            reached = 1;
        b = f->blocks[b].ipdom;
    }
    CHECK(reached, "the store after the loop post-dominates the entry");
}

static void test_early_return(void)
{
    const ws_function *f = need("early_return");
    if (!f)
        return;
    const ws_inst *br = guarded_bra_at(f, line_of("early"));
    CHECK(br != NULL, "guarded branch at the early return");
    if (!br)
        return;
    const ws_inst *target = &f->insts[br->src[0].imm];
    CHECK(target->op == WS_OP_RET, "the branch goes to ret");
    CHECK(br->reconv_pc == br->src[0].imm, "reconverges at the ret block (%d)", br->reconv_pc);
    const ws_inst *rest = first_at_line(f, line_of("rest"));
    CHECK(rest && rest->block != br->block && rest->block != target->block,
          "the rest is a block of its own");
}

/* The headers of loops in f that are left on a value read from memory in the loop. */
static int spin_headers(const ws_function *f, int *line)
{
    int n = 0;
    for (int b = 0; b < f->nblocks; b++)
        if (f->blocks[b].spin) {
            n++;
            *line = f->insts[f->blocks[b].first].line;
        }
    return n;
}

static void test_spin_loops(void)
{
    const char *spin[] = { "spin_cas", "spin_flag" }, *marks[] = { "cas", "flag" };
    for (int i = 0; i < 2; i++) {
        const ws_function *f = need(spin[i]);
        int line = 0;
        if (f)
            CHECK(spin_headers(f, &line) == 1 && line >= line_of(marks[i]) &&
                  line <= line_of(marks[i]) + 2,
                  "%s: one spin loop, headed in its loop (line %d)", spin[i], line);
    }
    const char *plain[] = { "counted_loads", "loop", "search" };
    for (int i = 0; i < 3; i++) {
        const ws_function *f = need(plain[i]);
        int line = 0;
        if (f)
            CHECK(spin_headers(f, &line) == 0,
                  "%s: left on a counter or a plain load, not a spin loop", plain[i]);
    }
}

static void test_lines(void)
{
    const ws_function *f = need("lines");
    if (!f)
        return;
    CHECK(f->main_file >= 0 && f->main_file < mod->nfiles && mod->files[f->main_file] &&
          strstr(mod->files[f->main_file], "flow.cu"), "main file is flow.cu");
    CHECK(first_at_line(f, line_of("helper")) != NULL,
          "inlined helper keeps its own line in the .cu");
    int atomic = line_of("atomic"), found = 0;
    for (int pc = 0; pc < f->ninsts; pc++) {
        const ws_inst *in = &f->insts[pc];
        CHECK(in->file == f->main_file, "every line is in flow.cu (pc %d file %d)", pc, in->file);
        if (in->op == WS_OP_ATOM) {
            found = 1;
            CHECK(in->line == atomic && in->subop == WS_SUB_ADD && in->space == WS_SPACE_GLOBAL,
                  "atomicAdd maps to its call site line %d, got %d", atomic, in->line);
        }
        if (in->op == WS_OP_CALL) {
            const ws_function *callee = &mod->funcs[in->src[0].imm];
            CHECK(in->line == line_of("callsite") && strstr(callee->name, "square_plus"),
                  "call to square_plus at its line");
            CHECK(first_at_line(callee, line_of("callee")) != NULL, "callee lines");
        }
    }
    CHECK(found, "atom instruction present");
}

/* atomicAdd (CUDA header) inside an inlined __device__ function of flow.cu: the line is
 * the device function's, the innermost location in flow.cu. A struct passed by value. */
static void test_nested_inline(void)
{
    const ws_function *f = need("nested_inline");
    if (!f)
        return;
    int atoms = 0;
    for (int pc = 0; pc < f->ninsts; pc++)
        if (f->insts[pc].op == WS_OP_ATOM) {
            atoms++;
            CHECK(f->insts[pc].line == line_of("bump") && f->insts[pc].file == f->main_file,
                  "atomicAdd in bump() maps to line %d, got %d", line_of("bump"),
                  f->insts[pc].line);
        }
    CHECK(atoms == 1, "one atom");
    CHECK(f->nparams == 2 && f->params[1].offset == 8 && f->params[1].size == 16 &&
          f->params[1].align == 8, "struct Pair by value: 16 bytes at 8");
    CHECK(f->ninsts > 2 && f->insts[2].op == WS_OP_LD && f->insts[2].src[0].imm == 16,
          "field b of the struct at param offset 8 + 8");
}

static void test_params_and_shared(void)
{
    const ws_function *f = need("params");
    if (f) {
        static const uint64_t off[] = {0, 8, 16, 24, 32, 40}, size[] = {1, 8, 4, 8, 2, 8};
        CHECK(f->nparams == 6, "six params");
        for (int i = 0; i < 6 && i < f->nparams; i++)
            CHECK(f->params[i].offset == off[i] && f->params[i].size == size[i],
                  "param %d at %llu size %llu", i, (unsigned long long)f->params[i].offset,
                  (unsigned long long)f->params[i].size);
    }
    f = need("shared_mem");
    if (!f)
        return;
    const ws_var *a = NULL, *b = NULL, *dyn = NULL;
    for (int i = 0; i < f->nlocals; i++) {
        if (f->locals[i].space == WS_SPACE_SHARED && f->locals[i].size == 256) a = &f->locals[i];
        if (f->locals[i].space == WS_SPACE_SHARED && f->locals[i].size == 128) b = &f->locals[i];
    }
    for (int i = 0; i < mod->nglobals; i++)
        if (strcmp(mod->globals[i].name, "dyn") == 0)
            dyn = &mod->globals[i];
    CHECK(a && b && dyn, "a[64], b[16] and extern dyn[] declared");
    if (!a || !b || !dyn)
        return;
    CHECK(a->offset % 4 == 0 && b->offset % 8 == 0, "aligned");
    CHECK(a->offset + a->size <= b->offset || b->offset + b->size <= a->offset, "disjoint");
    CHECK(dyn->is_extern && dyn->size == 0 && dyn->offset % 16 == 0 &&
          dyn->offset >= a->offset + a->size && dyn->offset >= b->offset + b->size,
          "dynamic shared after the static, aligned 16 (%llu)", (unsigned long long)dyn->offset);
    CHECK(f->shared_bytes >= 384 && f->shared_bytes <= dyn->offset,
          "static shared bytes %llu", (unsigned long long)f->shared_bytes);
}

static void test_warp_ops(void)
{
    const ws_function *f = need("warp_ops");
    if (!f)
        return;
    int shfl = 0, ballot = 0, match = 0, redux = 0, cas = 0, f64add = 0, warpsync = 0;
    for (int pc = 0; pc < f->ninsts; pc++) {
        const ws_inst *in = &f->insts[pc];
        shfl += in->op == WS_OP_SHFL && in->subop == WS_SUB_DOWN && in->ndst == 2;
        ballot += in->op == WS_OP_VOTE && in->subop == WS_SUB_BALLOT;
        match += in->op == WS_OP_MATCH && in->subop == WS_SUB_MATCH_ANY;
        redux += in->op == WS_OP_REDUX && in->subop == WS_SUB_ADD;
        cas += in->op == WS_OP_ATOM && in->subop == WS_SUB_CAS && in->nsrc == 3;
        f64add += in->op == WS_OP_ATOM && in->subop == WS_SUB_ADD && in->type == WS_P_F64;
        warpsync += in->op == WS_OP_BAR && in->subop == WS_SUB_WARP_SYNC;
    }
    CHECK(shfl == 1 && ballot == 1 && match == 1 && redux == 1 && cas == 1 && f64add == 1 &&
          warpsync == 1, "warp ops: shfl %d ballot %d match %d redux %d cas %d f64 %d sync %d",
          shfl, ballot, match, redux, cas, f64add, warpsync);
}

static void test_structure(void)
{
    int total = 0;
    for (int i = 0; i < mod->nfuncs; i++) {
        const ws_function *f = &mod->funcs[i];
        total += f->ninsts;
        for (int pc = 0; pc < f->ninsts; pc++) {
            const ws_inst *in = &f->insts[pc];
            CHECK(in->block >= 0 && in->block < f->nblocks && f->blocks[in->block].first <= pc &&
                  f->blocks[in->block].last >= pc, "%s pc %d block", f->name, pc);
            if (in->op == WS_OP_BRA)
                CHECK(in->reconv_pc >= -1 && in->reconv_pc < f->ninsts, "reconv in range");
            else
                CHECK(in->reconv_pc == -1, "reconv only on branches");
        }
    }
    CHECK(total == pt_count_statements(ptx_text), "instruction count %d = statements %d", total,
          pt_count_statements(ptx_text));
}

static void test_errors(void)
{
    char *p = pt_slurp(WS_PTX_TEST_DIR "/printf_call.ptx");
    CHECK(p != NULL, "printf_call.ptx built");
    if (p) {
        ws_error e;
        ws_module *m = pt_parse(p, "printf_call.ptx", &e);
        const ws_function *k = m ? pt_find(m, "says_hello") : NULL;
        const ws_inst *call = NULL;
        for (int pc = 0; k && pc < k->ninsts; pc++)
            if (k->insts[pc].op == WS_OP_CALL)
                call = &k->insts[pc];
        CHECK(m && ws_module_entry_check(m, 0, &e) == WS_OK && call &&
                  call->src[0].imm == WS_CALL_VPRINTF, "vprintf is the built-in printf: %s",
              e.msg);
        ws_module_free(m);
        /* Renamed, it is an external function without a body: refused at launch. */
        for (char *q = strstr(p, "vprintf"); q; q = strstr(q, "vprintf"))
            q[6] = 'g';
        m = pt_parse(p, "printf_call.ptx", &e);
        CHECK(m && ws_module_entry_check(m, 0, &e) == WS_ERR_UNSUPPORTED &&
                  strstr(e.msg, "external function 'vprintg'"), "vprintg refused at launch: %s",
              e.msg);
        const char *l = p;
        for (int i = 1; i < e.line && l; i++)
            l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL;
        CHECK(l && strncmp(l, "\tvprintg", 8) == 0, "error names the call's line %d", e.line);
        ws_module_free(m);
        free(p);
    }
    /* Cut inside a string, a directive's name in a function, and one at module scope. */
    const char *cuts[][2] = {
        { ".version 8.0\n.target sm_90\n.address_size 64\n.file 1 \"/src/fl", "inside a string" },
        { ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.l", "after '.l'" },
        { ".version 8.0\n.target sm_90\n.address_size 64\n.vis", "after '.vis'" },
    };
    for (int k = 0; k < 3; k++) {
        ws_module *m = NULL;
        ws_error e;
        int rc = ws_ptx_parse(cuts[k][0], strlen(cuts[k][0]), "cut.ptx", &m, &e);
        CHECK(rc == WS_ERR_PTX && !m && strstr(e.msg, cuts[k][1]) && strstr(e.msg, "truncated") &&
              e.line == 4 + (k == 1) * 2, "cut %s: %s (line %d)", cuts[k][1], e.msg, e.line);
        ws_module_free(m);
    }
    size_t len = strlen(ptx_text);
    for (int k = 1; k <= 7; k++) { /* cuts inside tokens, statements and functions */
        ws_module *m = NULL;
        ws_error e;
        int rc = ws_ptx_parse(ptx_text, len * (size_t)k / 8 + (size_t)k, "cut.ptx", &m, &e);
        if (rc == WS_OK) { /* the cut fell between two functions: still valid PTX */
            ws_module_free(m);
            continue;
        }
        CHECK(rc == WS_ERR_PTX && m == NULL && strstr(e.msg, "end of file") &&
              strstr(e.msg, "truncated") && e.line > 0, "cut at %d/8: %s", k, e.msg);
        ws_module_free(m);
    }
}

int main(void)
{
    cu_text = pt_slurp(WS_PTX_CU_DIR "/flow.cu");
    ptx_text = pt_slurp(WS_PTX_TEST_DIR "/flow.ptx");
    CHECK(cu_text && ptx_text, "flow.cu and flow.ptx readable");
    if (!cu_text || !ptx_text)
        return ws_test_finish("ptx_flow");
    ws_error e;
    int rc = ws_ptx_load(WS_PTX_TEST_DIR "/flow.ptx", &mod, &e);
    CHECK(rc == WS_OK, "flow.ptx parses: %s", rc ? e.msg : "");
    if (rc == WS_OK) {
        test_diamond();
        test_loop();
        test_spin_loops();
        test_early_return();
        test_lines();
        test_params_and_shared();
        test_nested_inline();
        test_warp_ops();
        test_structure();
        ws_module_free(mod);
    }
    test_errors();
    free(cu_text);
    free(ptx_text);
    return ws_test_finish("ptx_flow");
}
