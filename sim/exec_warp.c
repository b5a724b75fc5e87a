/* exec_warp.c — the heart of the SIMT executor: operand fetch, one warp-instruction
 * (guard, dispatch, statistics, events), and a CTA's warps scheduled round-robin with a
 * small quantum until they all exit, with CTA barriers and deadlock detection.
 * Instruction semantics live in exec_alu.c, exec_mem.c and exec_ctrl.c. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "sim/exec.h"
#include "sim/reconv.h"

/* ---------------------------------------------------------------- operands */

static uint32_t tid_of(const ws_warp *w, int lane, int dim)
{
    const ws_run *r = w->cta->run;
    uint32_t t = (uint32_t)(w->id * WS_WARP + lane);
    if (dim == 0)
        return t % r->block[0];
    if (dim == 1)
        return (t / r->block[0]) % r->block[1];
    return t / (r->block[0] * r->block[1]);
}

static void special_values(ws_warp *w, int sr, int64_t envreg, uint64_t *out)
{
    const ws_run *r = w->cta->run;
    const ws_cta *c = w->cta;
    uint64_t v = 0;
    int per_lane = 0;
    switch (sr) {
    case WS_SR_TID_X: case WS_SR_TID_Y: case WS_SR_TID_Z:
        for (int l = 0; l < WS_WARP; l++)
            out[l] = tid_of(w, l, sr - WS_SR_TID_X);
        return;
    case WS_SR_NTID_X: case WS_SR_NTID_Y: case WS_SR_NTID_Z: v = r->block[sr - WS_SR_NTID_X]; break;
    case WS_SR_CTAID_X: case WS_SR_CTAID_Y: case WS_SR_CTAID_Z: v = c->ctaid[sr - WS_SR_CTAID_X]; break;
    case WS_SR_NCTAID_X: case WS_SR_NCTAID_Y: case WS_SR_NCTAID_Z: v = r->grid[sr - WS_SR_NCTAID_X]; break;
    case WS_SR_LANEID: per_lane = 1; break;
    case WS_SR_WARPID: v = (uint64_t)w->id; break;
    case WS_SR_NWARPID: v = (uint64_t)r->max_warps; break;
    case WS_SR_SMID: v = ws_run_smid(r, c->id); break;
    case WS_SR_NSMID: v = (uint64_t)r->sms; break;
    case WS_SR_GRIDID: v = 1; break;
    case WS_SR_LANEMASK_EQ: case WS_SR_LANEMASK_LT: case WS_SR_LANEMASK_LE:
    case WS_SR_LANEMASK_GT: case WS_SR_LANEMASK_GE:
        for (int l = 0; l < WS_WARP; l++) {
            uint32_t eq = 1u << l, lt = eq - 1, m;
            switch (sr) {
            case WS_SR_LANEMASK_EQ: m = eq; break;
            case WS_SR_LANEMASK_LT: m = lt; break;
            case WS_SR_LANEMASK_LE: m = lt | eq; break;
            case WS_SR_LANEMASK_GT: m = ~(lt | eq); break;
            default: m = ~lt; break;
            }
            out[l] = m;
        }
        return;
    case WS_SR_CLOCK: v = (uint32_t)w->issued; break;
    case WS_SR_CLOCK64: v = w->issued; break;
    case WS_SR_GLOBALTIMER: v = w->issued; break; /* one simulated ns per issue */
    case WS_SR_DYNAMIC_SMEM_SIZE: v = r->v->smem_dynamic; break;
    case WS_SR_TOTAL_SMEM_SIZE: v = r->shared_bytes; break;
    /* clusters: the launch is a grid of 1x1x1 ones (a kernel that needs more is refused) */
    case WS_SR_CLUSTER_NCTARANK: case WS_SR_CLUSTER_NCTAID_X: case WS_SR_CLUSTER_NCTAID_Y:
    case WS_SR_CLUSTER_NCTAID_Z: v = 1; break;
    case WS_SR_CLUSTERID_X: case WS_SR_CLUSTERID_Y: case WS_SR_CLUSTERID_Z:
        v = c->ctaid[sr - WS_SR_CLUSTERID_X];
        break;
    case WS_SR_NCLUSTERID_X: case WS_SR_NCLUSTERID_Y: case WS_SR_NCLUSTERID_Z:
        v = r->grid[sr - WS_SR_NCLUSTERID_X];
        break;
    case WS_SR_ENVREG: /* 1:2 is the grid-sync workspace of a cooperative launch, else 0 */
        v = envreg == 1 ? r->grid_workspace >> 32 : envreg == 2 ? (uint32_t)r->grid_workspace : 0;
        if ((envreg == 1 || envreg == 2) && !r->grid_workspace)
            w->cta->read_grid_envreg = 1;
        break;
    default: break;
    }
    if (per_lane) {
        for (int l = 0; l < WS_WARP; l++)
            out[l] = (uint64_t)l;
        return;
    }
    for (int l = 0; l < WS_WARP; l++)
        out[l] = v;
}

/* The 32 lane values of source operand k: a register row, or `scratch` filled. */
const uint64_t *ws_x_src(ws_warp *w, const ws_inst *in, int k, uint64_t *scratch)
{
    /* an add ptxas fuses (WS_F_FMAD, contract.c) keeps its product's factors in src[2..3] */
    assert(k >= 0 && (k < in->nsrc || ((in->flags & WS_F_FMAD) && k < 4)));
    const ws_operand *o = &in->src[k];
    uint64_t v;
    switch (o->kind) {
    case WS_O_REG: {
        const uint64_t *r = ws_x_reg(w, o->reg);
        if (!o->neg)
            return r;
        for (int l = 0; l < WS_WARP; l++)
            scratch[l] = r[l] == 0;
        return scratch;
    }
    case WS_O_SPECIAL:
        special_values(w, o->special, o->imm, scratch);
        return scratch;
    case WS_O_SYMBOL:
        v = ws_x_symbol_address(w, o->sym, in->space) + (uint64_t)o->imm;
        break;
    default:
        v = (uint64_t)o->imm;
        break;
    }
    for (int l = 0; l < WS_WARP; l++)
        scratch[l] = v;
    return scratch;
}

int ws_x_fault(ws_warp *w, const ws_inst *in, int lane, uint64_t addr, ws_code code,
               const char *fmt, ...)
{
    ws_worker *wk = w->cta->wk;
    ws_error *e = &wk->err;
    const ws_run *r = w->cta->run;
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const char *src = "";
    char where[300] = "";
    if (in && in->file > 0 && in->file < r->m->nfiles && r->m->files[in->file]) {
        src = r->m->files[in->file];
        const char *base = strrchr(src, '/');
        snprintf(where, sizeof where, " (%s:%d)", base ? base + 1 : src, in->line);
    }
    if (w->nframes > 1) { /* the PC is in a called function: name it */
        size_t n = strlen(where);
        snprintf(where + n, sizeof where - n, " in function %.200s", ws_x_fn(w)->name);
    }
    ws_error_at(e, code, r->m->name, in ? in->ptx_line : 0, "%s%s", msg, where);
    snprintf(e->kernel, sizeof e->kernel, "%.*s", (int)sizeof e->kernel - 1,
             r->m->funcs[r->entry].name);
    e->has_thread = 1;
    memcpy(e->cta, w->cta->ctaid, sizeof e->cta);
    e->warp = w->id;
    e->lane = lane;
    e->pc = in ? (int)(in - ws_x_fn(w)->insts) : w->pc;
    e->address = addr;
    wk->failed = 1;
    return code;
}

/* ---------------------------------------------------------------- one instruction */

/* The one event of an issued warp-instruction, to statistics and every sink. */
static void emit_event(ws_warp *w, int fn, const ws_inst *in, int pc, uint32_t active,
                       uint32_t exec, const ws_effect *fx)
{
    ws_run *r = w->cta->run;
    ws_warp_event ev;
    ev.fn = &r->m->funcs[fn];
    ev.inst = in;
    ev.pc = pc;
    ev.cta = w->cta->id;
    ev.warp = (uint32_t)w->id;
    ev.active = active;
    ev.pred_on = exec;
    ev.addr = fx->has_addr ? fx->addr : NULL;
    ev.addr_space = fx->space;
    ev.access_bytes = fx->bytes;
    ev.taken = fx->taken;
    ev.groups = fx->groups;
    ev.cas_ok = fx->cas_ok;
    ev.printf_call = fx->printf_call;
    ev.printf_chars = fx->printf_chars;
    ws_stats_event(w->cta->wk, fn, &ev);
    for (int i = 0; i < r->nsinks; i++) {
        const ws_event_sink *s = &r->sinks[i];
        if (fx->barrier && s->barrier)
            s->barrier(s->ctx, ev.cta, ev.warp, pc);
        s->warp_inst(s->ctx, &ev);
    }
}

/* The handler the opcode's row names. */
static int dispatch(ws_warp *w, const ws_inst *in, int pc, uint32_t exec, ws_effect *fx)
{
    assert(in->op < WS_OP__COUNT); /* the parser checked the operand counts of the row */
    assert(in->ndst >= ws_op_info[in->op].dmin && in->ndst <= ws_op_info[in->op].dmax);
    assert(in->nsrc >= ws_op_info[in->op].smin && in->nsrc <= ws_op_info[in->op].smax);
    switch ((ws_handler)ws_op_info[in->op].handler) {
    case WS_H_CTRL: return ws_x_ctrl(w, in, pc, exec, fx);
    case WS_H_WARP: return ws_x_warpop(w, in, exec, fx);
    case WS_H_MEM: return ws_x_mem(w, in, exec, fx);
    case WS_H_CVTA: return ws_x_cvta(w, in, exec);
    case WS_H_ALU: return ws_x_alu(w, in, exec);
    case WS_H_ASYNC: return ws_x_async(w, in, exec, fx);
    case WS_H_IMAGE: return ws_x_image(w, in, exec);
    }
    return ws_x_alu(w, in, exec);
}

static int step(ws_warp *w)
{
    ws_run *r = w->cta->run;
    int fni = w->frames[w->nframes - 1].fn;
    const ws_function *fn = &r->m->funcs[fni];
    int pc = w->pc;
    if (pc < 0 || pc >= fn->ninsts)
        return ws_x_fault(w, NULL, 0, 0, WS_ERR_SIM,
                          "control reached PC %d outside function %s (%d instructions)", pc,
                          fn->name, fn->ninsts);
    const ws_inst *in = &fn->insts[pc];
    uint32_t active = w->active, exec = active;
    if (in->guard >= 0) {
        const uint64_t *g = ws_x_reg(w, in->guard);
        uint32_t m = 0, neg = in->guard_neg;
        WS_LANES(l, active, m |= (uint32_t)((g[l] != 0) ^ neg) << l;);
        exec = m & active;
    }
    if (++w->issued > r->opt->max_warp_insts && r->opt->max_warp_insts)
        return ws_x_fault(w, in, __builtin_ctz(active | 1u << 31), 0, WS_ERR_SIM,
                          "warp %d issued more than %llu instructions (the run's limit)",
                          w->id, (unsigned long long)r->opt->max_warp_insts);
    ws_effect fx;
    fx.has_addr = fx.space = fx.bytes = fx.taken = fx.advanced = fx.barrier = 0;
    fx.groups = 1;
    fx.cas_ok = 0;
    fx.printf_call = 0;
    fx.printf_chars = 0;
    int rc = dispatch(w, in, pc, exec, &fx);
    if (rc)
        return rc;
    emit_event(w, fni, in, pc, active, exec, &fx);
    if (!fx.advanced) {
        w->pc = pc + 1;
        r->policy->on_advance(w);
    }
    return 0;
}

/* ---------------------------------------------------------------- CTA */

static int warp_alloc(ws_run *r, ws_warp *w)
{
    w->reg_cap = r->reg_pool_words;
    w->reg_pool = calloc(w->reg_cap ? w->reg_cap : 1, sizeof(uint64_t));
    w->param_cap = r->param_lane_bytes * WS_WARP;
    w->param_pool = calloc(w->param_cap ? w->param_cap : 1, 1);
    w->local = calloc(r->local_bytes ? r->local_bytes * WS_WARP : 1, 1);
    return (w->reg_pool && w->param_pool && w->local) ? 0 : WS_ERR_NOMEM;
}

static int cta_init(ws_worker *wk, ws_cta *c)
{
    ws_run *r = wk->run;
    memset(c, 0, sizeof *c);
    c->run = r;
    c->wk = wk;
    c->nwarps = r->nwarps;
    c->warps = calloc((size_t)r->nwarps, sizeof *c->warps);
    c->shared_bytes = r->shared_bytes;
    c->shared = calloc(r->shared_bytes ? r->shared_bytes : 1, 1);
    if (!c->warps || !c->shared)
        return WS_ERR_NOMEM;
    if (r->opt->detect_races) {
        c->shadow_shared = calloc((r->shared_bytes / 4 + 1) * 2, sizeof(uint64_t));
        if (!c->shadow_shared)
            return WS_ERR_NOMEM;
    }
    for (int i = 0; i < r->nwarps; i++) {
        c->warps[i].cta = c;
        c->warps[i].id = i;
        if (warp_alloc(r, &c->warps[i]))
            return WS_ERR_NOMEM;
    }
    return 0;
}

int ws_x_cta_init(ws_worker *wk)
{
    return cta_init(wk, &wk->cta);
}

void ws_x_cta_free(ws_cta *c)
{
    for (int i = 0; c->warps && i < c->nwarps; i++) {
        free(c->warps[i].reg_pool);
        free(c->warps[i].param_pool);
        free(c->warps[i].local);
        c->run->policy->release(&c->warps[i]);
    }
    free(c->warps);
    free(c->shared);
    free(c->shadow_shared);
    memset(c, 0, sizeof *c);
}

static int warp_start(ws_warp *w)
{
    ws_run *r = w->cta->run;
    const ws_function *fn = &r->m->funcs[r->entry];
    uint32_t first = (uint32_t)w->id * WS_WARP;
    uint32_t n = r->threads_per_cta - first;
    w->valid = n >= WS_WARP ? WS_FULL_MASK : ((1u << n) - 1);
    w->exited = 0;
    w->state = WS_W_READY;
    w->issued = 0;
    w->sync_epoch = 0;
    memset(w->held, 0, sizeof w->held);
    w->fenced = 0;
    w->carry = 0;
    w->nframes = 1;
    ws_frame *f = &w->frames[0];
    f->fn = r->entry;
    f->regs = w->reg_pool;
    memset(f->regs, 0, (size_t)fn->nregs * WS_WARP * sizeof(uint64_t));
    f->param = w->param_pool;
    uint64_t stride = r->fi[r->entry].param_bytes;
    for (int l = 0; l < WS_WARP; l++)
        memcpy(f->param + (size_t)l * stride, r->params, r->param_bytes);
    f->local_base = 0;
    f->policy_level = 0;
    f->call_pc = -1;
    w->call_mask[0] = w->valid;
    return r->policy->reset(w, 0, w->valid) ? WS_ERR_NOMEM : 0;
}

static void reset_reduction(ws_cta *c, int id)
{
    c->red_popc[id] = 0;
    c->red_and[id] = 1;
    c->red_or[id] = 0;
}

static void release_barrier(ws_cta *c, int id)
{
    for (int i = 0; i < c->nwarps; i++) {
        ws_warp *w = &c->warps[i];
        if (w->state != WS_W_BARRIER || w->bar_id != id)
            continue;
        w->state = WS_W_READY;
        if (w->bar_red_dst >= 0) { /* bar.red: every arriving thread gets the result */
            const ws_inst *in = &ws_x_fn(w)->insts[w->bar_pc];
            uint64_t v = in->subop == WS_SUB_RED_POPC ? c->red_popc[id]
                       : in->subop == WS_SUB_RED_AND ? c->red_and[id] : c->red_or[id];
            uint64_t *d = ws_x_reg(w, w->bar_red_dst);
            WS_LANES(l, w->bar_red_lanes, d[l] = v;);
        }
    }
    if (id >= 0 && id < 16) {
        reset_reduction(c, id);
        c->bar_arrived[id] = 0;
    }
    ws_x_cta_sync_point(c);
}

void ws_x_cta_sync_point(ws_cta *c)
{
    c->bar_epoch++;
    if (c->nwarps) /* a leader's lock is the CTA's from here (race.c) */
        ws_race_lock_share(c->warps[0].held, sizeof c->warps[0], c->nwarps);
    if (c->shadow_shared)
        memset(c->shadow_shared, 0, (c->shared_bytes / 4 + 1) * 2 * sizeof(uint64_t));
}

/* Remembers (once per barrier PC) that a barrier completed without exited warps: the
 * hazard of seed 001 Fig. 4, where a warp that skips a barrier no longer holds it back. */
static void note_skip(ws_cta *c, const ws_warp *w, int exited)
{
    ws_worker *wk = c->wk;
    int fn = w->frames[w->nframes - 1].fn;
    for (int i = 0; i < wk->nskips; i++)
        if (wk->skips[i].pc == w->bar_pc && wk->skips[i].fn == fn)
            return;
    if (wk->nskips == (int)(sizeof wk->skips / sizeof wk->skips[0]))
        return;
    wk->skips[wk->nskips].fn = fn;
    wk->skips[wk->nskips].pc = w->bar_pc;
    wk->skips[wk->nskips].exited = exited;
    wk->skips[wk->nskips].cta = c->id;
    wk->nskips++;
}

/* Releases every barrier whose arrivals are complete; returns how many were released. */
static int check_barriers(ws_cta *c)
{
    int released = 0;
    for (int i = 0; i < c->nwarps; i++) {
        ws_warp *w = &c->warps[i];
        if (w->state != WS_W_BARRIER)
            continue;
        int waiting = 0, live = 0;
        for (int j = 0; j < c->nwarps; j++) {
            const ws_warp *o = &c->warps[j];
            if (o->state != WS_W_DONE)
                live++;
            if (o->state == WS_W_BARRIER && o->bar_id == w->bar_id)
                waiting++;
        }
        int needed = w->bar_count ? (int)((w->bar_count + WS_WARP - 1) / WS_WARP) : live;
        if (w->bar_id >= 0 && w->bar_id < 16)
            waiting += (int)c->bar_arrived[w->bar_id]; /* warps that arrived without waiting */
        if (waiting >= needed) {
            if (!w->bar_count && live < c->nwarps)
                note_skip(c, w, c->nwarps - live);
            release_barrier(c, w->bar_id);
            released++;
        }
    }
    for (int id = 0; id < 16; id++) /* a barrier that only arrivals completed */
        if (c->bar_arrived[id] && c->bar_arrive_count[id] &&
            c->bar_arrived[id] >= (c->bar_arrive_count[id] + WS_WARP - 1) / WS_WARP) {
            release_barrier(c, id);
            released++;
        }
    return released;
}

static int deadlock(ws_cta *c)
{
    ws_warp *w = NULL;
    int exited = 0, waiting = 0;
    for (int i = 0; i < c->nwarps; i++) {
        if (c->warps[i].state == WS_W_DONE)
            exited++;
        else {
            waiting++;
            if (!w)
                w = &c->warps[i];
        }
    }
    const ws_function *fn = ws_x_fn(w);
    const ws_inst *in = &fn->insts[w->bar_pc];
    uint32_t expect = w->bar_count ? w->bar_count : (uint32_t)waiting * WS_WARP;
    return ws_x_fault(w, in, __builtin_ctz(w->valid), 0, WS_ERR_SIM,
                      "deadlock: warp %d waits at barrier %d (PC %d) that can never complete: "
                      "%d warp(s) waiting, %d exited, %u threads expected",
                      w->id, w->bar_id, w->bar_pc, waiting, exited, expect);
}

/* Starts CTA `linear` in c: its ids, barriers, shared memory, warps, the sinks told. */
static int cta_begin(ws_cta *c, uint64_t linear)
{
    ws_run *r = c->run;
    c->id = (uint32_t)linear;
    c->ctaid[0] = (uint32_t)(linear % r->grid[0]);
    c->ctaid[1] = (uint32_t)((linear / r->grid[0]) % r->grid[1]);
    c->ctaid[2] = (uint32_t)(linear / ((uint64_t)r->grid[0] * r->grid[1]));
    c->bar_epoch = 0;
    c->read_grid_envreg = 0;
    memset(&c->mbar, 0, sizeof c->mbar);
    memset(c->bar_arrived, 0, sizeof c->bar_arrived);
    c->atomic_seen = 0;
    for (int id = 0; id < 16; id++)
        reset_reduction(c, id);
    memset(c->shared, 0, c->shared_bytes);
    if (c->shadow_shared)
        memset(c->shadow_shared, 0, (c->shared_bytes / 4 + 1) * 2 * sizeof(uint64_t));
    for (int i = 0; i < c->nwarps; i++)
        if (warp_start(&c->warps[i]))
            return ws_error_set(&c->wk->err, WS_ERR_NOMEM, "out of memory starting a warp");
    for (int i = 0; i < r->nsinks; i++)
        if (r->sinks[i].cta_begin)
            r->sinks[i].cta_begin(r->sinks[i].ctx, c->id, c->nwarps);
    return 0;
}

static void cta_end(ws_cta *c)
{
    ws_run *r = c->run;
    for (int i = 0; i < r->nsinks; i++)
        if (r->sinks[i].cta_end)
            r->sinks[i].cta_end(r->sinks[i].ctx, c->id);
}

enum { CTA_RUNNING, CTA_DONE, CTA_STALLED };

/* One round of the CTA's scheduler: each ready warp runs up to a quantum, then completed
 * barriers are released. *state: done, stalled (nothing ran, nothing released) or running. */
static int cta_round(ws_cta *c, int *state)
{
    int ran = 0, done = 0;
    uint64_t ran_mask = 0;
    for (int i = 0; i < c->nwarps; i++) {
        ws_warp *w = &c->warps[i];
        for (int q = 0; q < WS_SCHED_QUANTUM && w->state == WS_W_READY; q++) {
            if (step(w))
                return c->wk->err.code;
            ran = 1;
            ran_mask |= 1ull << i;
        }
        done += w->state == WS_W_DONE;
    }
    if (__builtin_expect(ws_mbar_round(&c->mbar, ran_mask), 0)) {
        const ws_mbar_watch *m = &c->mbar;
        return ws_x_fault(&c->warps[m->warp], m->in, __builtin_ctz(m->lanes), 0, WS_ERR_SIM,
                          WS_MBAR_DEADLOCK, m->lanes, m->warp, m->offset);
    }
    *state = done == c->nwarps ? CTA_DONE
           : check_barriers(c) == 0 && !ran ? CTA_STALLED : CTA_RUNNING;
    return 0;
}

/* Warp-instructions the CTA's warps have issued since it began. */
static uint64_t cta_issued(const ws_cta *c)
{
    uint64_t n = 0;
    for (int i = 0; i < c->nwarps; i++)
        n += c->warps[i].issued;
    return n;
}

int ws_x_run_cta(ws_worker *wk, uint64_t linear)
{
    ws_run *r = wk->run;
    ws_cta *c = &wk->cta;
    const int may_wait = r->meet && r->resident > 1;
    if (cta_begin(c, linear))
        return wk->err.code;
    for (int state = CTA_RUNNING; state != CTA_DONE;) {
        if (cta_round(c, &state))
            return wk->err.code;
        if (state == CTA_STALLED)
            return deadlock(c);
        if (ws_run_stopped(r, linear))
            return WS_ERR_SIM;
        if (__builtin_expect(may_wait, 0) && cta_issued(c) > WS_WAIT_BUDGET)
            return WS_CTA_WAITS;
    }
    cta_end(c);
    return 0;
}

/* The PTX model's slots for ws_wave_run: slot 0 is the worker's own CTA. */
typedef struct x_wave {
    ws_worker *wk;
    ws_cta **slot;
    void (*done)(ws_worker *wk);
} x_wave;

static int x_begin(void *ctx, int s, uint64_t linear)
{
    x_wave *x = ctx;
    return cta_begin(x->slot[s], linear) ? x->wk->err.code : 0;
}

static int x_round(void *ctx, int s)
{
    x_wave *x = ctx;
    int state = CTA_RUNNING;
    if (cta_round(x->slot[s], &state))
        return x->wk->err.code ? x->wk->err.code : WS_ERR_SIM;
    return state == CTA_STALLED ? deadlock(x->slot[s]) : state == CTA_DONE;
}

static void x_end(void *ctx, int s)
{
    cta_end(((x_wave *)ctx)->slot[s]);
}

static void x_done(void *ctx)
{
    x_wave *x = ctx;
    x->done(x->wk);
}

int ws_x_run_wave(ws_worker *wk, int slots, int adopt, void (*done)(ws_worker *wk))
{
    ws_cta *own = calloc((size_t)slots, sizeof *own);
    ws_cta **slot = calloc((size_t)slots, sizeof *slot);
    int rc = own && slot ? 0 : WS_ERR_NOMEM;
    for (int s = 0; s < slots && !rc; s++)
        if (s == 0)
            slot[s] = &wk->cta; /* where ws_x_run_cta left the CTA that waits, with adopt */
        else if (cta_init(wk, slot[s] = &own[s]))
            rc = WS_ERR_NOMEM;
    if (!rc) {
        static const ws_wave_ops ops = { x_begin, x_round, x_end, x_done };
        x_wave x = { wk, slot, done };
        rc = ws_wave_run(wk->run, slots, adopt, &ops, &x);
    }
    if (rc == WS_ERR_NOMEM && !wk->err.code)
        rc = ws_error_set(&wk->err, WS_ERR_NOMEM, "out of memory for %d resident CTAs", slots);
    for (int s = 1; own && s < slots; s++)
        if (own[s].run)
            ws_x_cta_free(&own[s]);
    free(own);
    free(slot);
    return rc;
}

/* ---------------------------------------------------------------- cooperative grid */

void ws_x_grid_arrivals(ws_run *r, int lanes)
{
    r->grid_arrivals += (uint64_t)lanes;
    if (r->grid_arrivals < r->nctas)
        return;
    r->grid_arrivals -= r->nctas;
    for (int i = 0; r->shadow_global && i < r->nallocs; i++)
        if (r->shadow_global[i])
            memset(r->shadow_global[i], 0, (r->allocs[i].size / 4 + 1) * 2 * sizeof(uint64_t));
    if (r->released_ctas)
        memset(r->released_ctas, 0, WS_RACE_CTAS / 8);
}

