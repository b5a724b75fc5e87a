/* timing_ptx.c — the PTX front end's half of the timing model: the static description of
 * a module's instructions (registers read and written, latency class, barriers, branch
 * targets and reconvergence points, spin-loop heads) that timing.c prices and consumes.
 * A SASS front end supplies the same description from its own instructions. */
#include <stdlib.h>
#include <string.h>
#include "sim/timing_model.h"

static void add_reg(int32_t *list, uint8_t *n, int max, int32_t r)
{
    if (r >= 0 && *n < max) list[(*n)++] = r;
}

static void operand_regs(const ws_operand *o, int32_t *list, uint8_t *n, int max)
{
    int32_t r[4];
    for (int k = 0, nr = ws_operand_regs(o, r); k < nr; k++) add_reg(list, n, max, r[k]);
}

static void describe(const ws_inst *in, ws_pcstatic *s)
{
    memset(s, 0, sizeof *s);
    s->lat = (uint8_t)ws_lat_of(in);
    if (in->guard >= 0) add_reg(s->src, &s->nsrc, WS_PC_MAXSRC, in->guard);
    for (int i = 0; i < in->nsrc && i < WS_MAX_SRC; i++)
        operand_regs(&in->src[i], s->src, &s->nsrc, WS_PC_MAXSRC);
    for (int i = 0; i < in->ndst && i < WS_MAX_DST; i++) {
        if (in->dst[i].kind == WS_O_ADDR) /* st [addr]: the address is read */
            add_reg(s->src, &s->nsrc, WS_PC_MAXSRC, in->dst[i].reg);
        else
            operand_regs(&in->dst[i], s->dst, &s->ndst, WS_PC_MAXDST);
    }
    ws_opclass cls = ws_op_class(in->op);
    s->is_bar = ws_op_has(in->op, WS_OPF_BARRIER) && in->subop != WS_SUB_ARRIVE &&
                in->subop != WS_SUB_WARP_SYNC;
    /* Nothing is scheduled across barriers (warp ones too: they order shared memory),
     * fences or calls. */
    s->serial = ws_op_has(in->op, WS_OPF_SERIAL);
    s->is_load = cls == WS_CLS_LD;
    s->shared = in->space == WS_SPACE_SHARED;
    s->mem_kind = ws_op_has(in->op, WS_OPF_ATOMIC) ? WS_MEM_ATOMIC
                : cls == WS_CLS_ST ? WS_MEM_STORE : WS_MEM_LOAD;
    s->guarded = in->guard >= 0;
    s->unpredicable = cls == WS_CLS_CTRL || cls == WS_CLS_SYNC || cls == WS_CLS_ATOM;
    s->target = ws_op_has(in->op, WS_OPF_BRANCH) && in->src[0].kind == WS_O_LABEL
                    ? (int32_t)in->src[0].imm : -1;
    s->reconv_pc = in->reconv_pc;
    s->atom_cas = ws_op_has(in->op, WS_OPF_ATOMIC) && in->subop == WS_SUB_CAS;
    s->atom_exch = ws_op_has(in->op, WS_OPF_ATOMIC) && in->subop == WS_SUB_EXCH;
    s->fence = in->op == WS_OP_MEMBAR || in->op == WS_OP_FENCE;
    s->atom_fp = ws_op_has(in->op, WS_OPF_ATOMIC) && in->type >= WS_P_F16 && in->type <= WS_P_F64;
}

int ws_timing_ptx_desc(const ws_module *m, int entry, ws_static_desc *out)
{
    memset(out, 0, sizeof *out);
    out->fns = calloc((size_t)(m->nfuncs ? m->nfuncs : 1), sizeof *out->fns);
    if (!out->fns) return WS_ERR_NOMEM;
    out->nfns = m->nfuncs;
    out->entry = entry;
    for (int f = 0; f < m->nfuncs; f++) {
        const ws_function *fn = &m->funcs[f];
        ws_fnstatic *fs = &out->fns[f];
        fs->fn = fn;
        fs->ninsts = fn->ninsts;
        fs->nregs = fn->nregs;
        fs->pc = calloc((size_t)(fn->ninsts ? fn->ninsts : 1), sizeof *fs->pc);
        if (!fs->pc) return WS_ERR_NOMEM;
        for (int i = 0; i < fn->ninsts; i++) describe(&fn->insts[i], &fs->pc[i]);
        for (int b = 0; b < fn->nblocks; b++)
            if (fn->blocks[b].spin) fs->pc[fn->blocks[b].first].yield = 1;
    }
    return 0;
}

void ws_static_desc_free(ws_static_desc *d)
{
    for (int i = 0; d->fns && i < d->nfns; i++) free(d->fns[i].pc);
    free(d->fns);
    memset(d, 0, sizeof *d);
}
