/* test_sass_ctl.c — the control bits read from the cubin (sass_load.c): ptxas's stall count,
 * scoreboard barriers and wait mask of every instruction, on real ptxas output
 * (tests/sim/cu/arith.cu, memory.cu, cbar.cu), and what the timing model's description
 * takes of them (sass_timing.c). The invariants checked are the hardware's: fixed-latency
 * arithmetic never sets a scoreboard barrier (its stall count covers its latency), a
 * barrier an instruction waits for is one some instruction sets, and S2R (variable
 * latency) sets one for the instruction that reads its result. Decoded from the wrong bits,
 * these fail. Skipped without nvdisasm. */
#include "sim/sass_ir.h"
#include "sim/timing.h"
#include "tests/sim/sim_test.h"

/* Opcodes of fixed latency: ptxas times their results by stall counts alone. */
static int fixed_latency(int op)
{
    static const int ops[] = { WS_SOP_IADD3, WS_SOP_IMAD, WS_SOP_LOP3, WS_SOP_ISETP,
                               WS_SOP_FFMA, WS_SOP_FADD, WS_SOP_FMUL, WS_SOP_SHF,
                               WS_SOP_LEA, WS_SOP_SEL, WS_SOP_MOV, WS_SOP_FSETP };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (op == ops[i])
            return 1;
    return 0;
}

/* Counts over every kernel of a module; the checks are per instruction. */
typedef struct ctl_counts { int insts, fixed, waits, s2r, stalls_over_1; } ctl_counts;

static void check_kernel(const ws_sass_kernel *k, ctl_counts *n)
{
    unsigned set = 0, waited = 0;
    for (int i = 0; i < k->ninsts; i++) {
        const ws_sass_inst *in = &k->insts[i];
        n->insts++;
        CHECK(in->ctl, "%s %04x %s: control bits read", k->name, in->offset, in->name);
        CHECK(in->stall <= 15 && (in->wbar <= 5 || in->wbar == 7) && (in->rbar <= 5 || in->rbar == 7),
              "%s %04x %s: stall %d, barriers %d/%d in range", k->name, in->offset, in->name,
              in->stall, in->wbar, in->rbar);
        if (in->wbar != 7) set |= 1u << in->wbar;
        if (in->rbar != 7) set |= 1u << in->rbar;
        waited |= in->wait;
        n->waits += in->wait != 0;
        n->stalls_over_1 += in->stall > 1;
        if (fixed_latency(in->op)) {
            n->fixed++;
            CHECK(in->wbar == 7 && in->rbar == 7, "%s %04x %s: fixed latency, yet barriers %d/%d",
                  k->name, in->offset, in->name, in->wbar, in->rbar);
        }
        if (in->op == WS_SOP_S2R && in->nopnd > 0 && in->o[0].kind == WS_SO_R &&
            in->o[0].reg != WS_SASS_RZ) {
            n->s2r++;
            CHECK(in->wbar != 7, "%s %04x %s: S2R sets a barrier for its result", k->name,
                  in->offset, in->name);
        }
    }
    CHECK((waited & ~set) == 0, "%s: waits for barriers %#x that no instruction sets (%#x)",
          k->name, waited, set);
}

static void check_module(const char *stem)
{
    ws_sass_module *m = NULL;
    int rc = st_load_sass(stem, "test_sass_ctl", &m);
    if (rc)
        return;
    ctl_counts n = { 0 };
    for (int i = 0; i < m->nkernels; i++)
        check_kernel(&m->kernels[i], &n);
    printf("%s: %d kernels, %d instructions: %d fixed-latency, %d waiting on a barrier, "
           "%d S2R, %d with a stall over 1 cycle\n", stem, m->nkernels, n.insts, n.fixed,
           n.waits, n.s2r, n.stalls_over_1);
    CHECK(n.fixed > 0 && n.waits > 0 && n.s2r > 0 && n.stalls_over_1 > 0,
          "%s: the checks saw every kind of instruction", stem);
    /* The timing model's description carries them: in order, each PC's stall count. */
    ws_static_desc d;
    CHECK(ws_timing_sass_desc(&m->kernels[0], NULL, &d) == WS_OK, "%s: described", stem);
    CHECK(d.in_order == 1, "%s: a kernel with its control bits issues in order", stem);
    int same = 1;
    for (int i = 0; i < m->kernels[0].ninsts; i++)
        same &= d.fns[0].pc[i].stall == m->kernels[0].insts[i].stall;
    CHECK(same, "%s: the description's stall counts are the cubin's", stem);
    ws_static_desc_free(&d);
    ws_sass_module_free(m);
}

int main(void)
{
    check_module("arith");
    check_module("memory");
    check_module("cbar");
    return ws_test_finish("test_sass_ctl");
}
