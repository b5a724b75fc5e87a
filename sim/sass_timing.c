/* sass_timing.c — the SASS front end's half of the timing model: the static description
 * of a SASS kernel's instructions (registers read and written, latency class from the
 * opcode row, barriers, memory kinds, branch targets) that timing.c prices. What the PTX
 * front end has to infer is written out here: the branches are the real ones (no
 * if-conversion is assumed), the warp waits at the BSYNCs ptxas placed (described as the
 * reconvergence point of the BSSY that arms them) and spin loops at their YIELDs. Where
 * the cubin gave the control bits, the warp issues in program order with each
 * instruction's stall count, as the hardware does; without them, as the PTX model does. */
#include <stdlib.h>
#include <string.h>
#include "sim/sass_exec.h"
#include "sim/timing_model.h"

/* One register space for the scoreboard: R0..R254, then P0..P6, UR0..UR62, UP0..UP6. */
enum { WS_ST_P = 256, WS_ST_UR = 264, WS_ST_UP = 328, WS_ST_NREGS = 336 };

static void add(int32_t *list, uint8_t *n, int max, int32_t r)
{
    if (r >= 0 && *n < max)
        list[(*n)++] = r;
}

/* The scoreboard numbers an operand names (an address's registers too); `width` extra
 * consecutive registers for pairs and quads. */
static void opnd_regs(const ws_sass_opnd *o, int width, int32_t *list, uint8_t *n, int max)
{
    switch (o->kind) {
    case WS_SO_R:
        if (o->reg != WS_SASS_RZ)
            for (int i = 0; i < width; i++)
                add(list, n, max, o->reg + i);
        break;
    case WS_SO_UR:
        if (o->reg != WS_SASS_URZ)
            for (int i = 0; i < width && o->reg + i < WS_SASS_URZ; i++)
                add(list, n, max, WS_ST_UR + o->reg + i);
        break;
    case WS_SO_P:
        if (o->reg >= 0 && o->reg < WS_SASS_PT)
            add(list, n, max, WS_ST_P + o->reg);
        break;
    case WS_SO_UP:
        if (o->reg >= 0 && o->reg < WS_SASS_PT)
            add(list, n, max, WS_ST_UP + o->reg);
        break;
    case WS_SO_MEM: case WS_SO_CBANK:
        if (o->reg >= 0 && o->reg != WS_SASS_RZ)
            add(list, n, max, o->reg);
        if (o->kind == WS_SO_MEM && o->wide && o->reg >= 0 && o->reg != WS_SASS_RZ)
            add(list, n, max, o->reg + 1);
        if (o->ureg >= 0 && o->ureg < WS_SASS_URZ)
            add(list, n, max, WS_ST_UR + o->ureg);
        break;
    default:
        break;
    }
}

static int lat_of(const char *name)
{
    for (int l = 0; l < WS_LAT__COUNT; l++)
        if (!strcmp(ws_lat_name((ws_lat)l), name))
            return l;
    return WS_LAT_alu;
}

/* Registers a result occupies: 2 for .WIDE and 64-bit types, 4 for 128-bit ones. */
static int dst_width(const ws_sass_inst *in)
{
    if (in->dtype == WS_SMOD_B128)
        return 4;
    if (ws_sass_has(in, WS_SMOD_WIDE) || in->dtype == WS_SMOD_B64 || in->dtype == WS_SMOD_U64 ||
        in->dtype == WS_SMOD_S64 || in->dtype == WS_SMOD_F64 || ws_sass_ops[in->op].cls == WS_CLS_FP64)
        return 2;
    return 1;
}

static void describe(const ws_sass_inst *in, ws_pcstatic *s)
{
    const ws_sass_opinfo *oi = &ws_sass_ops[in->op];
    memset(s, 0, sizeof *s);
    s->lat = (uint8_t)lat_of(oi->latency);
    if (s->lat == WS_LAT_mul && (ws_sass_has(in, WS_SMOD_HI) || ws_sass_has(in, WS_SMOD_WIDE)))
        s->lat = WS_LAT_mulwide; /* IMAD.HI, IMAD.WIDE: twice IMAD's cycles on its pipe */
    s->target = -1;
    s->reconv_pc = -1;
    if (in->guard >= 0 && in->guard < WS_SASS_PT)
        add(s->src, &s->nsrc, WS_PC_MAXSRC, (in->guard_uniform ? WS_ST_UP : WS_ST_P) + in->guard);
    /* destinations first (nvdisasm's order): the result, then the predicates right after
     * it (carry outs, a compare's second predicate); the rest are sources */
    int k = 0, mem = -1;
    for (int j = 0; j < in->nopnd && mem < 0; j++)
        if (in->o[j].kind == WS_SO_MEM) mem = j;
    if ((oi->flags & WS_SOPF_ATOMIC) && !(oi->flags & WS_SOPF_NODST) && mem > 0) {
        /* ATOMG/ATOM name a predicate result first (PT, Rd, [addr]): the result register
         * is the operand before the address, as the executor writes it */
        for (int j = 0; j < mem - 1; j++)
            opnd_regs(&in->o[j], 1, s->dst, &s->ndst, WS_PC_MAXDST);
        opnd_regs(&in->o[mem - 1], dst_width(in), s->dst, &s->ndst, WS_PC_MAXDST);
        k = mem;
    } else if ((oi->flags & WS_SOPF_PDST_FIRST) && in->nopnd > 1) {
        opnd_regs(&in->o[0], 1, s->dst, &s->ndst, WS_PC_MAXDST);
        opnd_regs(&in->o[1], dst_width(in), s->dst, &s->ndst, WS_PC_MAXDST);
        k = 2;
    } else if (!(oi->flags & WS_SOPF_NODST) && in->nopnd > 0 && in->o[0].kind != WS_SO_MEM) {
        opnd_regs(&in->o[0], dst_width(in), s->dst, &s->ndst, WS_PC_MAXDST);
        k = 1;
        if ((in->op == WS_SOP_LOP3 || in->op == WS_SOP_PLOP3) && in->o[0].kind == WS_SO_P &&
            in->nopnd > 1 && in->o[1].kind == WS_SO_R)
            /* LOP3.LUT P0, R3, ...: the predicate and the register both results */
            opnd_regs(&in->o[k++], 1, s->dst, &s->ndst, WS_PC_MAXDST);
        /* VOTE Rd, Pd, Ps: one predicate result, then the voted predicate (a source) */
        int last = in->op == WS_SOP_VOTE || in->op == WS_SOP_VOTEU ? 2 : 3;
        for (; k < in->nopnd && (in->o[k].kind == WS_SO_P || in->o[k].kind == WS_SO_UP) &&
               !in->o[k].not_ && k < last; k++)
            opnd_regs(&in->o[k], 1, s->dst, &s->ndst, WS_PC_MAXDST);
    }
    for (; k < in->nopnd; k++)
        opnd_regs(&in->o[k], ws_sass_ops[in->op].cls == WS_CLS_FP64 ? 2 : 1, s->src, &s->nsrc,
                  WS_PC_MAXSRC);
    s->is_bar = in->op == WS_SOP_BAR && !ws_sass_has(in, WS_SMOD_ARV);
    s->serial = (oi->flags & WS_SOPF_SERIAL) || in->op == WS_SOP_CALL;
    s->is_load = oi->cls == WS_CLS_LD;
    s->shared = (oi->flags & WS_SOPF_SHARED) != 0;
    s->mem_kind = (oi->flags & WS_SOPF_ATOMIC) ? WS_MEM_ATOMIC
                : (oi->flags & WS_SOPF_STORE) ? WS_MEM_STORE : WS_MEM_LOAD;
    s->atom_cas = (oi->flags & WS_SOPF_ATOMIC) &&
                  (ws_sass_has(in, WS_SMOD_CAS) || ws_sass_has(in, WS_SMOD_CAST));
    s->atom_exch = (oi->flags & WS_SOPF_ATOMIC) && ws_sass_has(in, WS_SMOD_EXCH);
    s->fence = in->op == WS_SOP_MEMBAR || in->op == WS_SOP_FENCE;
    s->atom_fp = (oi->flags & WS_SOPF_ATOMIC) &&
                 (in->dtype == WS_SMOD_F32 || in->dtype == WS_SMOD_F64 ||
                  in->stype == WS_SMOD_F32 || in->stype == WS_SMOD_F64);
    s->atom_merge = (oi->flags & WS_SOPF_ATOMIC) && ws_sass_has(in, WS_SMOD_POPC) &&
                    ws_sass_has(in, WS_SMOD_INC);
    s->unpredicable = oi->cls == WS_CLS_CTRL || oi->cls == WS_CLS_SYNC || oi->cls == WS_CLS_ATOM;
    s->yield = in->op == WS_SOP_YIELD;
    s->call = in->op == WS_SOP_CALL || in->op == WS_SOP_RET;
    s->stall = in->ctl ? in->stall : 0;
    if ((oi->flags & WS_SOPF_CONTROL) && in->target >= 0)
        s->target = in->target; /* unguarded for the model: no if-conversion inferred */
}

int ws_timing_sass_desc(const ws_sass_kernel *k, const ws_function *key, ws_static_desc *out)
{
    memset(out, 0, sizeof *out);
    out->fns = calloc(1, sizeof *out->fns);
    if (!out->fns)
        return WS_ERR_NOMEM;
    out->nfns = 1;
    out->entry = 0;
    ws_fnstatic *fs = &out->fns[0];
    fs->fn = key;
    fs->ninsts = k->ninsts;
    fs->nregs = WS_ST_NREGS;
    fs->pc = calloc((size_t)(k->ninsts ? k->ninsts : 1), sizeof *fs->pc);
    if (!fs->pc)
        return WS_ERR_NOMEM;
    out->in_order = k->ninsts > 0;
    for (int i = 0; i < k->ninsts; i++) {
        describe(&k->insts[i], &fs->pc[i]);
        out->in_order &= k->insts[i].ctl;
    }
    /* BSSY Bn, L arms the barrier whose BSYNC stands just before L: described as a guarded
     * branch to L whose reconvergence point is that BSYNC, the model makes warps wait there
     * (its body always holds a branch, so it is never taken for a predicated one) */
    for (int i = 0; i < k->ninsts; i++) {
        const ws_sass_inst *in = &k->insts[i];
        if (in->op != WS_SOP_BSSY || in->target <= 0 || in->target > k->ninsts)
            continue;
        int sync = in->target - 1;
        if (k->insts[sync].op != WS_SOP_BSYNC)
            continue;
        fs->pc[i].target = in->target;
        fs->pc[i].guarded = 1;
        fs->pc[i].reconv_pc = sync;
    }
    return 0;
}
