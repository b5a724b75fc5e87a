/* exec_ctrl.c — control flow and warp-wide operations: bra (through the reconvergence
 * policy), call/ret with .param passing, exit, trap, CTA barriers (the warp parks; the CTA
 * loop in exec_warp.c releases it), fences, and shfl/vote/match/redux/activemask with
 * CUDA's semantics under partial masks. */
#include <stdlib.h>
#include "sim/exec.h"
#include "sim/reconv.h"

static int find_operand(const ws_inst *in, int kind)
{
    for (int k = 0; k < in->nsrc; k++)
        if (in->src[k].kind == kind)
            return k;
    return -1;
}

/* ---------------------------------------------------------------- branches */

static int do_branch(ws_warp *w, const ws_inst *in, int pc, uint32_t exec, ws_effect *fx)
{
    int k = find_operand(in, WS_O_LABEL);
    if (k < 0)
        return ws_x_fault(w, in, 0, 0, WS_ERR_UNSUPPORTED, "indirect branch is not supported");
    int target = (int)in->src[k].imm;
    uint32_t taken = exec, not_taken = w->active & ~exec;
    fx->taken = taken ? (not_taken ? 1 : 2) : 0;
    if (w->cta->run->policy->on_branch(w, in, taken, not_taken, target, pc + 1))
        return ws_x_fault(w, in, 0, 0, WS_ERR_NOMEM, "out of memory (reconvergence stack)");
    return 0;
}

/* ---------------------------------------------------------------- exit / call / ret */

static void pop_finished_frames(ws_warp *w)
{
    const ws_reconv_policy *p = w->cta->run->policy;
    int level = p->level(w);
    while (w->nframes > 1 && w->frames[w->nframes - 1].policy_level >= level)
        w->nframes--;
    if (level == 0)
        w->state = WS_W_DONE;
    else
        p->on_advance(w);
}

static void do_exit(ws_warp *w, int pc, uint32_t exec)
{
    w->pc = pc + 1;
    w->exited |= exec;
    w->cta->run->policy->on_leave(w, exec, 0);
    pop_finished_frames(w);
}

/* Copies the callee's return values into the caller's call-scratch .param variables. */
static void copy_returns(ws_warp *w, const ws_frame *callee, const ws_frame *caller,
                         uint32_t lanes)
{
    const ws_run *r = w->cta->run;
    const ws_function *cf = &r->m->funcs[callee->fn];
    const ws_function *pf = &r->m->funcs[caller->fn];
    const ws_inst *call = &pf->insts[callee->call_pc];
    uint64_t cstride = r->fi[callee->fn].param_bytes, pstride = r->fi[caller->fn].param_bytes;
    uint64_t scratch0 = r->fi[caller->fn].param_block;
    for (int i = 0; i < call->ndst && i < cf->nrets; i++) {
        const ws_operand *o = &call->dst[i];
        assert(o->kind == WS_O_SYMBOL); /* ir.h: call's dst[0] = SYMBOL of the return local */
        if (o->sym < 0)
            continue;
        const ws_var *dv = &pf->locals[o->sym], *sv = &cf->rets[i];
        uint64_t n = sv->size < dv->size ? sv->size : dv->size;
        WS_LANES(l, lanes, memcpy(caller->param + (size_t)l * pstride + scratch0 + dv->offset,
                                  callee->param + (size_t)l * cstride + sv->offset, n););
    }
}

static void do_ret(ws_warp *w, int pc, uint32_t exec)
{
    if (w->nframes == 1) {
        do_exit(w, pc, exec);
        return;
    }
    ws_frame *f = &w->frames[w->nframes - 1];
    w->pc = pc + 1;
    if (!w->cta->run->policy->on_leave(w, exec, f->policy_level))
        return;
    copy_returns(w, f, &w->frames[w->nframes - 2], w->call_mask[w->nframes - 1]);
    w->nframes--;
    pop_finished_frames(w);
}

static int do_call(ws_warp *w, const ws_inst *in, int pc, uint32_t exec)
{
    ws_run *r = w->cta->run;
    int k = find_operand(in, WS_O_FUNC);
    if (k < 0)
        return ws_x_fault(w, in, 0, 0, WS_ERR_UNSUPPORTED, "indirect call is not supported");
    if (exec != w->active)
        return ws_x_fault(w, in, 0, 0, WS_ERR_UNSUPPORTED, "predicated call is not supported");
    if (w->nframes == WS_MAX_CALL_DEPTH)
        return ws_x_fault(w, in, 0, 0, WS_ERR_SIM, "call depth exceeds %d", WS_MAX_CALL_DEPTH);
    /* ir.h: src[1] = SYMBOL of the first argument local (NONE without), src[2] = IMM count */
    assert(in->nsrc == 3 && in->src[2].kind == WS_O_IMM);
    assert(in->src[1].kind == WS_O_SYMBOL || in->src[1].kind == WS_O_NONE);
    int callee = (int)in->src[k].imm;
    const ws_function *cf = &r->m->funcs[callee];
    ws_frame *caller = &w->frames[w->nframes - 1];
    const ws_function *pf = &r->m->funcs[caller->fn];
    ws_frame *f = &w->frames[w->nframes];
    size_t nregs = (size_t)pf->nregs * WS_WARP;
    f->fn = callee;
    f->regs = caller->regs + nregs;
    f->param = caller->param + r->fi[caller->fn].param_bytes * WS_WARP;
    f->local_base = caller->local_base + r->fi[caller->fn].local_bytes;
    f->call_pc = pc;
    if ((size_t)(f->regs - w->reg_pool) + (size_t)cf->nregs * WS_WARP > w->reg_cap ||
        (size_t)(f->param - w->param_pool) + r->fi[callee].param_bytes * WS_WARP > w->param_cap ||
        f->local_base + r->fi[callee].local_bytes > r->local_bytes)
        return ws_x_fault(w, in, 0, 0, WS_ERR_SIM, "recursion is not supported (call to %s)",
                          cf->name);
    memset(f->regs, 0, (size_t)cf->nregs * WS_WARP * sizeof(uint64_t));
    /* arguments: src[1] names the first of src[2].imm consecutive .param scratch locals */
    uint64_t cstride = r->fi[callee].param_bytes, pstride = r->fi[caller->fn].param_bytes;
    uint64_t scratch0 = r->fi[caller->fn].param_block;
    for (int a = 0; in->src[1].sym >= 0 && a < (int)in->src[2].imm && a < cf->nparams; a++) {
        const ws_var *sv = &pf->locals[in->src[1].sym + a], *dv = &cf->params[a];
        uint64_t n = sv->size < dv->size ? sv->size : dv->size;
        WS_LANES(l, exec, memcpy(f->param + (size_t)l * cstride + dv->offset,
                                 caller->param + (size_t)l * pstride + scratch0 + sv->offset,
                                 n););
    }
    int base = r->policy->on_call(w, pc + 1);
    if (base < 0)
        return ws_x_fault(w, in, 0, 0, WS_ERR_NOMEM, "out of memory (reconvergence stack)");
    f->policy_level = base;
    w->call_mask[w->nframes] = exec;
    w->nframes++;
    return 0;
}

/* ---------------------------------------------------------------- barriers */

static int do_barrier(ws_warp *w, const ws_inst *in, int pc, uint32_t exec, ws_effect *fx)
{
    if (in->subop == WS_SUB_WARP_SYNC) {
        w->sync_epoch++; /* __syncwarp: orders this warp's accesses (race detection) */
        ws_race_lock_share(w->held, 0, 1);
        return 0;        /* the lanes a warp runs together are already in step */
    }
    int red = in->subop == WS_SUB_RED_POPC || in->subop == WS_SUB_RED_AND ||
              in->subop == WS_SUB_RED_OR;
    if (!exec)
        return 0;
    uint64_t *s = w->scratch[0];
    int id = 0, nargs = in->nsrc - red; /* bar.red's last operand is the predicate */
    uint32_t count = 0;
    if (nargs > 0)
        id = (int)ws_x_src(w, in, 0, s)[__builtin_ctz(exec)];
    if (nargs > 1)
        count = (uint32_t)ws_x_src(w, in, 1, s)[__builtin_ctz(exec)];
    if (in->subop == WS_SUB_ARRIVE) { /* counts towards the barrier, never waits */
        if (in->flags & WS_F_CLUSTER)
            return 0; /* barrier.cluster.arrive: a 1x1x1 cluster's wait is the CTA's */
        if (id < 0 || id > 15 || nargs < 2)
            return ws_x_fault(w, in, __builtin_ctz(exec), 0, WS_ERR_PTX,
                              "bar.arrive needs a barrier id 0..15 and a count (got %d)", id);
        w->cta->bar_arrived[id]++;
        w->cta->bar_arrive_count[id] = count;
        return 0;
    }
    w->bar_red_dst = -1;
    if (red) {
        if (id < 0 || id > 15 || in->ndst < 1)
            return ws_x_fault(w, in, __builtin_ctz(exec), 0, WS_ERR_PTX,
                              "bar.red needs a result and a barrier id 0..15 (got %d)", id);
        const uint64_t *p = ws_x_src(w, in, in->nsrc - 1, w->scratch[1]);
        uint32_t ones = 0;
        WS_LANES(l, exec, ones |= (uint32_t)(p[l] != 0) << l;);
        ws_cta *c = w->cta;
        c->red_popc[id] += (uint32_t)__builtin_popcount(ones);
        c->red_and[id] &= ones == exec;
        c->red_or[id] |= ones != 0;
        w->bar_red_dst = in->dst[0].reg;
        w->bar_red_lanes = exec;
    }
    w->state = WS_W_BARRIER;
    w->bar_id = id;
    w->bar_pc = pc;
    w->bar_count = count;
    fx->barrier = 1;
    return 0;
}

int ws_x_ctrl(ws_warp *w, const ws_inst *in, int pc, uint32_t exec, ws_effect *fx)
{
    switch (in->op) {
    case WS_OP_BRA:
        fx->advanced = 1;
        return do_branch(w, in, pc, exec, fx);
    case WS_OP_EXIT:
        if (exec) {
            fx->advanced = 1;
            do_exit(w, pc, exec);
        }
        return 0;
    case WS_OP_RET:
        if (exec) {
            fx->advanced = 1;
            do_ret(w, pc, exec);
        }
        return 0;
    case WS_OP_CALL:
        if (in->nsrc > 0 && in->src[0].kind == WS_O_FUNC && in->src[0].imm == WS_CALL_VPRINTF)
            return exec ? ws_x_vprintf(w, in, exec, fx) : 0; /* no frame: the next pc follows */
        if (in->nsrc > 0 && in->src[0].kind == WS_O_FUNC &&
            (in->src[0].imm == WS_CALL_MALLOC || in->src[0].imm == WS_CALL_FREE))
            return exec ? ws_x_heap_call(w, in, exec) : 0; /* the device heap (heap.c) */
        if (in->nsrc > 0 && in->src[0].kind == WS_O_FUNC && in->src[0].imm == WS_CALL_ASSERTFAIL)
            return ws_x_assertfail(w, in, exec); /* a failed assert(): the run stops */
        fx->advanced = 1;
        return do_call(w, in, pc, exec);
    case WS_OP_TRAP:
        if (!exec)
            return 0;
        return ws_x_fault(w, in, __builtin_ctz(exec), 0, WS_ERR_SIM, "trap executed%s",
                          w->cta->read_grid_envreg ? " (the kernel read a grid sync's workspace "
                          "but the launch is not cooperative: add 'cooperative' to the "
                          "variant)" : "");
    case WS_OP_BAR: case WS_OP_BARRIER:
        return do_barrier(w, in, pc, exec, fx);
    case WS_OP_MEMBAR: case WS_OP_FENCE:
        w->fenced |= exec; /* orders this lane's writes (race detection, race.c) */
        return 0;
    default: /* nanosleep, brkpt, griddepcontrol: no functional effect */
        return 0;
    }
}

/* ---------------------------------------------------------------- warp-wide operations */

static int do_shfl(ws_warp *w, const ws_inst *in, uint32_t exec)
{
    if (in->nsrc < 3)
        return ws_x_fault(w, in, 0, 0, WS_ERR_PTX, "shfl needs a, b and c operands");
    const uint64_t *a = ws_x_src(w, in, 0, w->scratch[0]);
    const uint64_t *b = ws_x_src(w, in, 1, w->scratch[1]);
    const uint64_t *c = ws_x_src(w, in, 2, w->scratch[2]);
    uint64_t *out = w->scratch[3];
    uint32_t valid = 0;
    WS_LANES(l, exec, {
        uint32_t lane = (uint32_t)b[l] & 31, cval = (uint32_t)c[l] & 31;
        uint32_t segmask = ((uint32_t)c[l] >> 8) & 31;
        uint32_t maxl = ((uint32_t)l & segmask) | (cval & ~segmask);
        uint32_t minl = (uint32_t)l & segmask;
        int32_t j;
        int ok;
        switch (in->subop) {
        case WS_SUB_UP: j = l - (int32_t)lane; ok = j >= (int32_t)maxl; break;
        case WS_SUB_DOWN: j = l + (int32_t)lane; ok = j <= (int32_t)maxl; break;
        case WS_SUB_BFLY: j = l ^ (int32_t)lane; ok = j <= (int32_t)maxl; break;
        default: j = (int32_t)(minl | (lane & ~segmask)); ok = j <= (int32_t)maxl; break;
        }
        if (!ok)
            j = l;
        out[l] = (uint32_t)a[j];
        valid |= (uint32_t)ok << l;
    });
    uint64_t *d = ws_x_reg(w, in->dst[0].reg);
    WS_LANES(l, exec, d[l] = out[l];);
    if (in->ndst > 1 && in->dst[1].kind == WS_O_REG && in->dst[1].reg >= 0) {
        uint64_t *p = ws_x_reg(w, in->dst[1].reg);
        WS_LANES(l, exec, p[l] = (valid >> l) & 1;);
    }
    return 0;
}

/* vote.sync: as redux.sync, each lane votes with the lanes its own member mask names, so
 * 8-lane tiles (cooperative groups' thread_block_tile<8>, a mask that differs from tile to
 * tile) each see their own votes, as on an H200 (unseen17 cg_tiles); vote without .sync
 * takes every executing lane. */
static int do_vote(ws_warp *w, const ws_inst *in, uint32_t exec)
{
    const uint64_t *a = ws_x_src(w, in, 0, w->scratch[0]);
    const uint64_t *mask = in->nsrc > 1 ? ws_x_src(w, in, 1, w->scratch[1]) : NULL;
    uint32_t all = 0, group[WS_WARP]; /* read before d is written: d may be the mask */
    WS_LANES(l, exec, {
        all |= (uint32_t)(a[l] != 0) << l;
        group[l] = ((mask ? (uint32_t)mask[l] : exec) & exec) | 1u << l;
    });
    uint64_t *d = ws_x_reg(w, in->dst[0].reg);
    WS_LANES(l, exec, {
        uint32_t ballot = all & group[l];
        uint64_t v;
        switch (in->subop) {
        case WS_SUB_ALL: v = ballot == group[l]; break;
        case WS_SUB_ANY: v = ballot != 0; break;
        case WS_SUB_UNI: v = ballot == 0 || ballot == group[l]; break;
        default: v = ballot; break;
        }
        d[l] = v;
    });
    return 0;
}

static int do_match(ws_warp *w, const ws_inst *in, uint32_t exec)
{
    const uint64_t *a = ws_x_src(w, in, 0, w->scratch[0]);
    int bits = ws_ptype_bits((ws_ptype)in->type);
    uint64_t *d = ws_x_reg(w, in->dst[0].reg);
    uint64_t *out = w->scratch[1];
    int all = 1;
    WS_LANES(l, exec, {
        uint32_t m = 0;
        uint64_t x = ws_trunc(a[l], bits);
        WS_LANES(j, exec, m |= (uint32_t)(ws_trunc(a[j], bits) == x) << j;);
        out[l] = m;
        if (m != exec)
            all = 0;
    });
    if (in->subop == WS_SUB_MATCH_ALL) {
        WS_LANES(l, exec, d[l] = all ? exec : 0;);
        if (in->ndst > 1 && in->dst[1].kind == WS_O_REG && in->dst[1].reg >= 0) {
            uint64_t *p = ws_x_reg(w, in->dst[1].reg);
            WS_LANES(l, exec, p[l] = (uint64_t)all;);
        }
        return 0;
    }
    WS_LANES(l, exec, d[l] = out[l];);
    return 0;
}

/* Reduces src over the lanes of `group` (already restricted to executing lanes). */
static uint32_t redux_group(const ws_inst *in, const uint64_t *a, uint32_t group, int is_signed)
{
    uint32_t acc = (uint32_t)a[__builtin_ctz(group)];
    WS_LANES(l, group & (group - 1), {
        uint32_t x = (uint32_t)a[l];
        switch (in->subop) {
        case WS_SUB_ADD: acc += x; break;
        case WS_SUB_MIN:
            acc = is_signed ? ((int32_t)x < (int32_t)acc ? x : acc) : (x < acc ? x : acc);
            break;
        case WS_SUB_MAX:
            acc = is_signed ? ((int32_t)x > (int32_t)acc ? x : acc) : (x > acc ? x : acc);
            break;
        case WS_SUB_AND: acc &= x; break;
        case WS_SUB_OR: acc |= x; break;
        default: acc ^= x; break;
        }
    });
    return acc;
}

/* redux.sync: each lane reduces over the lanes named by its own member mask, so lanes
 * split into groups (e.g. by __match_any_sync) reduce within their group, as on hardware. */
static int do_redux(ws_warp *w, const ws_inst *in, uint32_t exec)
{
    if (!exec)
        return 0;
    const uint64_t *a = ws_x_src(w, in, 0, w->scratch[0]);
    const uint64_t *mask = in->nsrc > 1 ? ws_x_src(w, in, 1, w->scratch[1]) : NULL;
    int is_signed = ws_ptype_is_signed((ws_ptype)in->type);
    uint32_t last_group = 0, acc = 0, result[WS_WARP];
    WS_LANES(l, exec, { /* all read before d is written: d may be a source */
        uint32_t group = (mask ? (uint32_t)mask[l] : exec) & exec;
        group |= 1u << l; /* a lane always takes part in its own reduction */
        if (group != last_group) {
            acc = redux_group(in, a, group, is_signed);
            last_group = group;
        }
        result[l] = acc;
    });
    uint64_t *d = ws_x_reg(w, in->dst[0].reg);
    WS_LANES(l, exec, d[l] = result[l];);
    return 0;
}

/* Distinct member masks the executing lanes name (the .sync ops' last operand): the
 * hardware runs the op once per distinct mask. */
static void count_groups(ws_warp *w, const ws_inst *in, uint32_t exec, ws_effect *fx)
{
    int mi = in->op == WS_OP_SHFL ? 3 : 1;
    if (!exec || in->nsrc <= mi || in->src[mi].kind != WS_O_REG)
        return;
    const uint64_t *m = ws_x_src(w, in, mi, w->scratch[WS_MAX_SRC + 1]);
    uint32_t seen[WS_WARP];
    int n = 0;
    WS_LANES(l, exec, {
        uint32_t g = (uint32_t)m[l] & exec;
        int k = 0;
        while (k < n && seen[k] != g) k++;
        if (k == n) seen[n++] = g;
    });
    fx->groups = (uint8_t)n;
}

int ws_x_warpop(ws_warp *w, const ws_inst *in, uint32_t exec, ws_effect *fx)
{
    if (ws_op_has(in->op, WS_OPF_WARPSYNC))
        count_groups(w, in, exec, fx);
    switch (in->op) {
    case WS_OP_SHFL: return do_shfl(w, in, exec);
    case WS_OP_VOTE: return do_vote(w, in, exec);
    case WS_OP_MATCH: return do_match(w, in, exec);
    case WS_OP_REDUX: return do_redux(w, in, exec);
    default: { /* activemask */
        uint64_t *d = ws_x_reg(w, in->dst[0].reg);
        WS_LANES(l, exec, d[l] = exec;);
        return 0;
    }
    }
}
