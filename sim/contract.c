/* contract.c — the multiply-add contraction ptxas makes (its --fmad=true default): a float
 * `mul` without a rounding modifier whose every use is an `add` or `sub` without one, in the
 * same basic block, runs with each of them as one fused multiply-add (FFMA, DFMA, HFMA2),
 * rounding once; a product that is also stored, compared or multiplied again stays rounded.
 * The PTX model marks each such add (WS_F_FMAD; the product's operands in src[2] and src[3])
 * so that its value is the fused one, as on the GPU; the mul still runs and is counted, as
 * the PTX has it. An explicit rounding (`mul.rn`, `add.rn`: __fmul_rn, __fadd_rn) forbids
 * the contraction, as the PTX ISA says. Where both operands of an add are such products the
 * first is fused. tests/sim/cu/contract.cu holds the shapes, and test_sim_contract checks
 * them against ptxas's own code. */
#include "sim/ir.h"

#include <stdlib.h>

static int contractible_type(int t)
{
    return t == WS_P_F32 || t == WS_P_F64 || t == WS_P_F16 || t == WS_P_F16X2 ||
           t == WS_P_BF16 || t == WS_P_BF16X2;
}

/* Whether `in` writes register r. */
static int writes(const ws_inst *in, int r)
{
    for (int i = 0; i < in->ndst; i++) {
        const ws_operand *d = &in->dst[i];
        if (d->kind == WS_O_REG && d->reg == r)
            return 1;
        if (d->kind == WS_O_VEC)
            for (int k = 0; k < d->nvec; k++)
                if (d->vregs[k] == r)
                    return 1;
    }
    return 0;
}

static void count_uses(const ws_function *f, int *uses)
{
    for (int i = 0; i < f->ninsts; i++) {
        const ws_inst *in = &f->insts[i];
        for (int s = 0; s < in->nsrc; s++) {
            const ws_operand *o = &in->src[s];
            if ((o->kind == WS_O_REG || o->kind == WS_O_ADDR) && o->reg >= 0)
                uses[o->reg]++;
            if (o->kind == WS_O_VEC)
                for (int k = 0; k < o->nvec; k++)
                    if (o->vregs[k] >= 0)
                        uses[o->vregs[k]]++;
        }
        if (in->guard >= 0)
            uses[in->guard]++;
    }
}

static int candidate_add(const ws_inst *in)
{
    return (in->op == WS_OP_ADD || in->op == WS_OP_SUB) && contractible_type(in->type) &&
           in->rnd == WS_RND_NONE && in->nsrc == 2 && !(in->flags & ~WS_F_FTZ);
}

/* The pc of the mul in [first, pc) that defines the add's source `k` and could fuse into
 * it, or -1. */
static int product_of(const ws_function *f, int pc, int k, int first)
{
    const ws_inst *add = &f->insts[pc];
    const ws_operand *o = &add->src[k];
    if (o->kind != WS_O_REG || o->reg < 0)
        return -1;
    for (int j = pc - 1; j >= first; j--) {
        const ws_inst *m = &f->insts[j];
        if (!writes(m, o->reg))
            continue;
        if (m->op != WS_OP_MUL || m->type != add->type || m->rnd != WS_RND_NONE ||
            m->guard >= 0 || m->nsrc != 2 || m->flags != add->flags)
            return -1;
        for (int s = 0; s < 2; s++) /* the factors still hold their values at the add */
            if (m->src[s].kind == WS_O_REG)
                for (int q = j + 1; q < pc; q++)
                    if (writes(&f->insts[q], m->src[s].reg))
                        return -1;
        return j;
    }
    return -1;
}

/* Two passes: count each product register's uses that could fuse (`fusable`); then fuse
 * where that is every use of it. */
static int contract_function(ws_function *f)
{
    if (!f->nregs || !f->nblocks)
        return 0;
    int *uses = calloc((size_t)f->nregs, sizeof *uses);
    int *fusable = calloc((size_t)f->nregs, sizeof *fusable);
    if (!uses || !fusable) {
        free(uses);
        free(fusable);
        return -1;
    }
    count_uses(f, uses);
    for (int pass = 0; pass < 2; pass++)
        for (int b = 0; b < f->nblocks; b++) {
            int first = f->blocks[b].first;
            for (int pc = first; pc <= f->blocks[b].last; pc++) {
                ws_inst *in = &f->insts[pc];
                if (!candidate_add(in))
                    continue;
                for (int k = 0; k < 2; k++) {
                    int j = product_of(f, pc, k, first), r = in->src[k].reg;
                    if (j < 0)
                        continue;
                    if (pass == 0) {
                        fusable[r]++;
                        continue;
                    }
                    if (fusable[r] != uses[r])
                        continue;
                    in->flags |= WS_F_FMAD | (k ? WS_F_FMAD_B : 0);
                    in->src[2] = f->insts[j].src[0];
                    in->src[3] = f->insts[j].src[1];
                    break;
                }
            }
        }
    free(uses);
    free(fusable);
    return 0;
}

int ws_contract_fmad(ws_module *m, ws_error *err)
{
    for (int i = 0; i < m->nfuncs; i++)
        if (contract_function(&m->funcs[i]))
            return ws_error_set(err, WS_ERR_NOMEM, "out of memory contracting %s",
                                m->funcs[i].name);
    return WS_OK;
}
