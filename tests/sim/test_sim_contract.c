/* test_sim_contract.c — the multiply-add contraction ptxas makes (sim/contract.c), on
 * tests/sim/cu/contract.cu: mul and add/sub as separate PTX instructions in the shapes
 * ptxas fuses (a product whose every use is an add in the same block, into each; f32, f64,
 * f16x2, bf16x2; either operand of a sub) and those it keeps apart (.rn, a product also
 * stored, a product from another block). The SASS model runs ptxas's own code, so the PTX model's words must equal
 * its; the fused and unfused values are also checked against the CPU's fmaf / a*b+c, and
 * which adds are marked against the rule; NaN results are the canonical ones sm_70+ writes
 * (f32 0x7fffffff, halves 0x7fff). */
#include <math.h>
#include "sim/ir.h"
#include "tests/sim/sim_test.h"

static const char *const spec =
    "workload contract\nsource contract.cu\n"
    "buffer x f32 192 uniform_real -3 3\nbuffer h u32 128 random_bits\n"
    "buffer of f32 640 zero\nbuffer od f64 64 zero\nbuffer oh u32 128 zero\n"
    "variant v\n  kernel contract\n  grid 2\n  block 32\n  args x h of od oh\n";

/* Which of the kernel's adds/subs carry WS_F_FMAD, in PTX order. */
static void check_marks(const ws_module *m)
{
    const ws_function *f = &m->funcs[0];
    char got[64] = "";
    int n = 0;
    for (int i = 0; i < f->ninsts && n < 60; i++) {
        const ws_inst *in = &f->insts[i];
        int fl = in->type == WS_P_F32 || in->type == WS_P_F64 || in->type == WS_P_F16X2 ||
                 in->type == WS_P_BF16X2;
        if ((in->op == WS_OP_ADD || in->op == WS_OP_SUB) && fl)
            got[n++] = in->flags & WS_F_FMAD ? (in->flags & WS_F_FMAD_B ? 'B' : 'A') : '-';
    }
    /* o0 A, o1 A, o2 B, o3 (.rn add) -, o4 (.rn mul) -, o5 (product also stored) -, o7: the
     * other block's product -, both products A; o8, o9 (a product two adds use) A A; f64 A;
     * f16x2 A; bf16x2 sub B */
    CHECK(!strcmp(got, "AAB----AAAAAB"), "fused adds: %s (want AAB----AAAAAB)", got);
}

int main(void)
{
    ws_module *ptx = st_load("contract");
    CHECK(ptx != NULL, "contract.ptx loads");
    if (!ptx)
        return ws_test_finish("test_sim_contract");
    check_marks(ptx);
    st_run p;
    CHECK(st_exec_on(&p, ptx, NULL, spec, "v", NULL) == 0, "ptx: runs: %s", p.err.msg);
    if (!p.rc) {
        const float *x = st_buf(&p, "x")->data, *of = st_buf(&p, "of")->data;
        int bad = 0;
        for (int k = 0; k < 9; k++) { /* thread 0 multiplies or adds a NaN (not in o[9]) */
            uint32_t bits;
            memcpy(&bits, &of[k], 4);
            bad += bits != 0x7fffffffu;
        }
        CHECK(bad == 0, "ptx: NaN results are the canonical 0x7fffffff: %d not", bad);
        bad = 0;
        for (int t = 1; t < 64; t++) {
            float a = x[3 * t], b = x[3 * t + 1], c = x[3 * t + 2];
            volatile float ab = a * b, ac = a * c; /* rounded products */
            float want[10] = {fmaf(a, b, c), fmaf(a, b, -c), fmaf(-a, b, c), ab + c, ab + c,
                              ac + b, ac, 0, fmaf(b, c, a), fmaf(b, c, -b)};
            for (int k = 0; k < 10; k++)
                if (k != 7 && of[10 * t + k] != want[k] && bad++ < 4)
                    CHECK(0, "ptx: thread %d o[%d] %a, want %a", t, k, of[10 * t + k], want[k]);
        }
        CHECK(bad == 0, "ptx: fused and unfused values: %d wrong", bad);
    }
    ws_sass_module *sass = NULL;
    if (st_load_sass("contract", "test_sim_contract", &sass) == 0) {
        st_run s;
        CHECK(st_exec_on(&s, ptx, sass, spec, "v", NULL) == 0, "sass: runs: %s", s.err.msg);
        if (!s.rc && !p.rc) {
            static const char *const bufs[] = {"of", "od", "oh"};
            for (int i = 0; i < 3; i++) {
                const ws_buffer *bp = st_buf(&p, bufs[i]), *bs = st_buf(&s, bufs[i]);
                int diff = 0;
                const uint32_t *wp = bp->data, *wsa = bs->data;
                for (size_t k = 0; k < bp->bytes / 4; k++)
                    if (wp[k] != wsa[k] && diff++ < 3)
                        CHECK(0, "%s word %zu: ptx 0x%08x sass 0x%08x", bufs[i], k, wp[k],
                              wsa[k]);
                CHECK(diff == 0, "%s: %d words of the PTX model differ from the SASS model's "
                      "(ptxas's FFMA/DFMA/HFMA2)", bufs[i], diff);
            }
        }
        st_free(&s);
        ws_sass_module_free(sass);
    }
    st_free(&p);
    ws_module_free(ptx);
    return ws_test_finish("test_sim_contract");
}
