/* sass_ctrl.c — SASS control flow and synchronisation: branches (direct and indirect),
 * calls and returns through registers, EXIT, the convergence barriers (BSSY, BSYNC, BREAK,
 * BMOV, WARPSYNC), YIELD, CTA barriers (BAR.SYNC/ARV/RED, B2R), special-register reads.
 * Handlers say where lanes go through the effect record; sass_exec.c moves the groups. */
#include "sim/sass_exec.h"

static int label_target(const ws_sass_inst *in)
{
    if (in->target >= 0)
        return in->target;
    int k = ws_sass_find_opnd(in, WS_SO_LABEL);
    return k >= 0 ? in->o[k].target : -1;
}

/* The printf formatter's memory on the SASS model: generic addresses. */
typedef struct sass_io { ws_sass_warp *w; const ws_sass_inst *in; } sass_io;

static const uint8_t *sass_host(void *ctx, uint64_t addr, uint64_t n, int lane)
{
    sass_io *x = ctx;
    return ws_sass_host(x->w, x->in, addr, n, lane);
}

static int sass_nomem(void *ctx, int lane)
{
    sass_io *x = ctx;
    return ws_sass_fault(x->w, x->in, lane, 0, WS_ERR_NOMEM, "out of memory (printf)");
}

/* CALL.ABS.NOINC to vprintf (ptxas's printf): R4:R5 hold the format, R6:R7 the argument
 * buffer (generic addresses), R4 gets the result (the arguments read); the lanes go on
 * at the next instruction, the return point ptxas LEPCs into R20. */
static int sass_vprintf(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec,
                        ws_sass_fx *fx)
{
    uint64_t fmt[WS_WARP] = {0}, args[WS_WARP] = {0};
    int32_t n[WS_WARP] = {0};
    WS_LANES(l, exec, {
        fmt[l] = ws_sass_rrow(w, 4)[l] | (uint64_t)ws_sass_rrow(w, 5)[l] << 32;
        args[l] = ws_sass_rrow(w, 6)[l] | (uint64_t)ws_sass_rrow(w, 7)[l] << 32;
    });
    sass_io x = {w, in};
    ws_printf_io io = {sass_host, sass_nomem, &x};
    w->cta->wk->printf_calls++;
    uint16_t chars = 0;
    int rc = ws_printf_lanes(&w->cta->run->base, &io, exec, fmt, args, n, &chars);
    fx->printf_call = 1;
    fx->printf_chars = chars;
    if (!rc && w->nregs > 4)
        WS_LANES(l, exec, w->r[4 * WS_WARP + l] = (uint32_t)n[l];);
    return rc;
}

/* CALL.ABS.NOINC to malloc or free (the device heap, heap.c): R4:R5 holds the size or the
 * pointer, malloc's result goes to R4:R5; each lane in lane order. */
static int sass_heap(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, int is_malloc)
{
    ws_run *r = &w->cta->run->base;
    assert(w->nregs > 5); /* ptxas loaded the argument into R4:R5 before the call */
    uint32_t *lo = w->r + 4 * WS_WARP, *hi = w->r + 5 * WS_WARP;
    w->cta->wk->heap_calls += (uint64_t)__builtin_popcount(exec);
    WS_LANES(l, exec, {
        uint64_t v = lo[l] | (uint64_t)hi[l] << 32, p = 0;
        char msg[160];
        int rc = ws_heap_call(r, is_malloc, v, &p, msg, sizeof msg);
        if (rc)
            return ws_sass_fault(w, in, l, is_malloc ? 0 : v, rc, "%s", msg);
        if (is_malloc) {
            lo[l] = (uint32_t)p;
            hi[l] = (uint32_t)(p >> 32);
        }
    });
    return 0;
}

/* CALL.ABS.NOINC to __assertfail (a failed assert()): R4:R5 hold the message, R10:R11 the
 * function's name (R6:R7 the file, R8 the line: the fault names the source line itself). */
static int sass_assertfail(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec)
{
    int lane = __builtin_ctz(exec);
    uint64_t msg = ws_sass_rrow(w, 4)[lane] | (uint64_t)ws_sass_rrow(w, 5)[lane] << 32;
    uint64_t func = ws_sass_rrow(w, 10)[lane] | (uint64_t)ws_sass_rrow(w, 11)[lane] << 32;
    sass_io x = {w, in};
    ws_printf_io io = {sass_host, sass_nomem, &x};
    char text[512];
    if (ws_assert_message(&io, lane, msg, func, text, sizeof text))
        return WS_ERR_SIM;
    return ws_sass_fault(w, in, lane, 0, WS_ERR_SIM, "%s", text);
}

/* The lanes the further passes of an indirect transfer count, its lanes split into `n`
 * groups by target (`m`, lowest lane first). Measured on the H200 (tests/gpu/indirect.spec,
 * 21 splits of 2-4 targets, every one equal): the lowest lane's group and the rest are two
 * sides, the smaller side served first (the lowest lane's on a tie), the rest split again
 * the same way; each pass after the first counts the lanes not served before it. */
static uint32_t pass_threads(const uint32_t *m, int n)
{
    int size[WS_WARP], order[WS_WARP], head = 0, tail = n;
    uint32_t left = 0;
    for (int i = 0; i < n; i++)
        left += (uint32_t)(size[i] = __builtin_popcount(m[i]));
    int rest = (int)left;
    for (int i = 0; i < n; i++) { /* group i against groups i+1..n-1 */
        int others = rest - size[i];
        if (i == n - 1 || size[i] <= others)
            order[head++] = i;
        else
            order[--tail] = i; /* served after the others */
        rest = others;
    }
    assert(head == tail);
    uint32_t sum = 0;
    for (int j = 0; j < n - 1; j++) { /* pass j + 2 counts what passes 1..j + 1 left */
        left -= (uint32_t)size[order[j]];
        sum += left;
    }
    return sum;
}

/* An indirect branch, call or return (a byte offset per lane): the lanes whose target is
 * the lowest lane's are `taken`; the lanes of each other target get a group of their own
 * at it (`again`). CUPTI's per-PC counts show one warp-instruction per warp for a call
 * through a pointer whose lanes go to two functions (intrinsics.spec `calls`); the Range
 * Profiler's kernel totals count one pass per target (`passes`; pass_threads), and a
 * return to k > 1 call sites one pass more, with every lane. */
static int indirect(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec,
                    const uint64_t off[WS_WARP], ws_sass_fx *fx)
{
    if (!exec)
        return 0;
    int first = __builtin_ctz(exec);
    if (off[first] == WS_SASS_VPRINTF) { /* a call of the device printf: runs here */
        fx->taken = 0;
        return sass_vprintf(w, in, exec, fx);
    }
    if (off[first] == WS_SASS_ASSERTFAIL)
        return sass_assertfail(w, in, exec);
    if (off[first] == WS_SASS_MALLOC || off[first] == WS_SASS_FREE) {
        fx->taken = 0; /* the lanes go on at the next instruction */
        return sass_heap(w, in, exec, off[first] == WS_SASS_MALLOC);
    }
    uint32_t gm[WS_WARP];
    int n = 0;
    for (uint32_t rest = exec; rest;) { /* each target, lowest lane first */
        int k = __builtin_ctz(rest);
        int t = ws_sass_index_of(w->cta->run->k, (int64_t)off[k]);
        if (t < 0)
            return ws_sass_fault(w, in, k, off[k], WS_ERR_SIM, "indirect branch to 0x%llx, "
                                 "which is not an instruction", (unsigned long long)off[k]);
        uint32_t lanes = 0;
        WS_LANES(l, rest, lanes |= (uint32_t)(off[l] == off[k]) << l;);
        rest &= ~lanes;
        gm[n++] = lanes;
        if (k == first) { /* the running group goes on at the lowest lane's target */
            fx->taken = lanes;
            fx->next_pc = t;
        } else {
            fx->again |= lanes;
            ws_sass_group_add(w, t, lanes, WS_SG_READY);
        }
    }
    fx->groups = (uint8_t)n;
    fx->replay_threads = pass_threads(gm, n);
    if (in->op == WS_SOP_RET && n > 1) { /* RET to several call sites: one pass more */
        fx->more_passes = 1;
        fx->replay_threads += (uint32_t)__builtin_popcount(exec);
    }
    fx->passes = 1;
    return 0;
}

/* A *_sync over a register mask (BRA.DIV URx, WARPSYNC Rx) while lanes of the warp are in
 * other groups: counted for sass_run.c's caveat on __activemask() masks. */
static void ws_sass_count_diverged_sync(ws_sass_warp *w)
{
    const ws_sass_group *g = &w->groups[w->cur];
    if (g->mask != (w->valid & ~w->exited)) /* as step() tells a diverged YIELD */
        w->cta->wk->pcstat[g->pc].diverged_syncs++;
}

/* A __syncwarp of the whole warp: its accesses before are ordered before those after, and a
 * leader's lock covers its lanes (race detection). */
static void warp_synced(ws_sass_warp *w)
{
    w->sync_epoch++;
    ws_race_lock_share(w->held, 0, 1);
}

int ws_sass_x_bra(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    int p = ws_sass_find_opnd(in, WS_SO_P);
    if (p < 0)
        p = ws_sass_find_opnd(in, WS_SO_UP);
    if (p >= 0)
        exec &= ws_sass_psrc(w, in, p);
    /* BRA.U.ANY (ptxas's waterfall and elect loops): the whole group branches when any of
     * its lanes would; the H100 runs such a loop with every lane issued on every trip
     * (intrinsics.spec `waterfall`: 32 threads a warp-instruction, no divergent branch) */
    if (ws_sass_has(in, WS_SMOD_ANY) && exec)
        exec = w->groups[w->cur].mask;
    if (ws_sass_has(in, WS_SMOD_DIV)) {
        /* BRA.DIV UR4 (a *_sync over a mask in UR4; ~URZ for the full warp): taken when a
         * live lane the mask names is not in this group. ptxas puts the fast path (one
         * REDUX, SHFL or nothing) after it and the WARPSYNC'd slow path at the target;
         * the H100 takes the fast path for __activemask()'s mask in any divergent group. */
        uint32_t need = w->valid & ~w->exited, group = w->groups[w->cur].mask;
        ws_sass_count_diverged_sync(w);
        if (in->nopnd > 1 && in->o[0].kind == WS_SO_UR) {
            uint32_t v[WS_WARP];
            ws_sass_src(w, in, 0, group, v);
            need &= v[__builtin_ctz(group)];
        }
        /* The test is the group's, not a lane's: where the guard leaves out a lane the mask
         * names, the whole group branches. ptxas guards it with a mask's uniformity
         * (`R2UR P0, URZ, R10; @!P0 BRA.DIV UR4`: a tile's __shfl_sync whose mask differs
         * from tile to tile), and an H200 sends every lane of the warp to the slow path
         * then (unseen17 cg_tiles: no lane runs the instruction after it). */
        if (exec && (need & ~exec)) {
            exec = group;
        } else {
            exec = 0;
            /* ptxas lowers __syncwarp to this check: a converged warp skips the WARPSYNC
             * and is synchronized here */
            if (!(need & ~group))
                warp_synced(w);
        }
    }
    fx->taken = exec;
    fx->next_pc = label_target(in);
    if (fx->next_pc < 0 && exec)
        return ws_sass_fault(w, in, __builtin_ctz(exec), 0, WS_ERR_UNSUPPORTED,
                             "branch without a resolved target");
    return 0;
}

int ws_sass_x_brx(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    uint64_t off[WS_WARP];
    uint32_t base[WS_WARP];
    ws_sass_src(w, in, 0, exec, base);
    int64_t imm = in->nopnd > 1 && in->o[1].kind == WS_SO_IMM ? in->o[1].imm : 0;
    /* BRX R, -0x190: relative to the next instruction */
    WS_LANES(l, exec, off[l] = (uint64_t)((int64_t)in->offset + 16 + (int32_t)base[l] + imm););
    return indirect(w, in, exec, off, fx);
}

int ws_sass_x_call(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    /* CALL.REL.NOINC R8 `(k): a call through a pointer (the function's offset from bank 2's
     * table); the label after the register only names the kernel it is relative to. */
    int through_reg = in->nopnd > 0 && in->o[0].kind == WS_SO_R;
    if (!through_reg && label_target(in) >= 0) {
        fx->taken = exec;
        fx->next_pc = label_target(in);
        return 0;
    }
    uint64_t off[WS_WARP];
    ws_sass_src64(w, in, 0, exec, off); /* CALL.ABS.NOINC R8 / CALL.REL.NOINC R8 */
    return indirect(w, in, exec, off, fx);
}

int ws_sass_x_ret(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    uint64_t off[WS_WARP];
    int k = in->nopnd > 0 && in->o[0].kind == WS_SO_P; /* @!P0 RET.REL.NODEC P1, R4: the lanes */
    if (k)                                               /* whose guard and P1 both hold */
        exec &= ws_sass_psrc(w, in, 0);
    ws_sass_src64(w, in, k, exec, off); /* RET.REL.NODEC R20: the return offset */
    return indirect(w, in, exec, off, fx);
}

int ws_sass_x_exit(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    if (in->nopnd == 1) /* @!P0 EXIT P1: the lanes whose guard and P1 both hold (ptxas folds
                           `if (a && b) return;` so) */
        exec &= ws_sass_psrc(w, in, 0);
    if (exec)
        ws_sass_exit_lanes(w, exec);
    return 0;
}

/* Whether the kernel reads the grid-sync workspace the driver gives a cooperative launch
 * (c[0x0][0x44] and 0x48, PTX %envreg1:%envreg2). */
static int reads_grid_workspace(const ws_sass_kernel *k)
{
    for (int i = 0; i < k->ninsts; i++)
        for (int j = 0; j < k->insts[i].nopnd; j++) {
            const ws_sass_opnd *o = &k->insts[i].o[j];
            if (o->kind == WS_SO_CBANK && o->bank == 0 && (o->imm == 0x44 || o->imm == 0x48))
                return 1;
        }
    return 0;
}

int ws_sass_x_trap(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    if (!exec)
        return 0;
    const ws_run *b = &w->cta->run->base;
    if (!b->grid_workspace && reads_grid_workspace(w->cta->run->k))
        return ws_sass_fault(w, in, __builtin_ctz(exec), 0, WS_ERR_SIM,
                             "the kernel trapped: it syncs the grid, but the launch is not "
                             "cooperative (add 'cooperative' to the variant)");
    return ws_sass_fault(w, in, __builtin_ctz(exec), 0, WS_ERR_SIM,
                         "the kernel trapped (assert or __trap)");
}

int ws_sass_x_bssy(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    int b = in->o[0].reg;
    if (b >= 0 && b < WS_SASS_NBARRIERS && exec)
        w->b[b] = exec;
    return 0;
}

/* Parks the exec lanes of the running group in `state` (splitting off lanes whose guard
 * was false: they go on), then lets the policy release what is complete. */
void ws_sass_park(ws_sass_warp *w, uint32_t exec, int state, int bar, uint32_t need,
                  ws_sass_fx *fx)
{
    ws_sass_group *g = &w->groups[w->cur];
    int gi = w->cur;
    if (exec != g->mask) {
        g->mask &= ~exec;
        gi = ws_sass_group_add(w, g->pc, exec, state);
        fx->taken = 0;
        w->groups[gi].bar = (int8_t)bar;
        w->groups[gi].need = need;
        if (state == WS_SG_BSYNC)
            w->groups[gi].depth = w->bdepth[bar];
        return; /* the rest of the group goes on past the instruction */
    }
    g->state = (uint8_t)state;
    g->bar = (int8_t)bar;
    g->need = need;
    if (state == WS_SG_BSYNC)
        g->depth = w->bdepth[bar];
    fx->block = 1;
}

int ws_sass_x_bsync(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    int b = in->o[0].reg;
    if (!exec || b < 0 || b >= WS_SASS_NBARRIERS)
        return 0;
    exec &= w->b[b]; /* lanes the barrier no longer holds (they yielded) pass */
    if (!exec)
        return 0;
    ws_sass_park(w, exec, WS_SG_BSYNC, b, 0, fx);
    ws_sass_check_sync(w, b);
    return 0;
}

/* BREAK [Pp,] Bx: the lanes leave barrier Bx; with Pp (`@!P0 BREAK P4, B1`, before the
 * matching `@!P0 BRA P4, target`), only those where Pp holds too. */
int ws_sass_x_brk(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    int b = in->o[in->nopnd - 1].reg;
    if (in->nopnd == 2)
        exec &= ws_sass_psrc(w, in, 0);
    if (!exec || b < 0 || b >= WS_SASS_NBARRIERS)
        return 0;
    w->b[b] &= ~exec;
    ws_sass_check_sync(w, b);
    return 0;
}

int ws_sass_x_bmov(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    if (!exec)
        return 0;
    const ws_sass_opnd *d = &in->o[0], *s = &in->o[1];
    if (d->kind == WS_SO_BAR && d->reg >= 0 && d->reg < WS_SASS_NBARRIERS) {
        uint32_t v[WS_WARP];
        ws_sass_src(w, in, 1, exec, v); /* BMOV.32 B6, R16: a restore */
        w->b[d->reg] = v[__builtin_ctz(exec)];
        if (w->bdepth[d->reg])
            w->bdepth[d->reg]--;
        ws_sass_check_sync(w, d->reg); /* the caller's lanes that waited may be complete */
        return 0;
    }
    if (s->kind == WS_SO_BAR && s->reg >= 0 && s->reg < WS_SASS_NBARRIERS) {
        uint32_t v[WS_WARP];
        uint32_t m = w->b[s->reg];
        WS_LANES(l, exec, v[l] = m;);
        ws_sass_dst(w, in, 0, exec, v); /* BMOV.32.CLEAR R16, B6 */
        if (ws_sass_has(in, WS_SMOD_CLEAR)) { /* a save: lanes waiting on it wait on (join) */
            w->b[s->reg] = 0;
            w->bdepth[s->reg]++;
        }
        return 0;
    }
    return ws_sass_fault(w, in, __builtin_ctz(exec), 0, WS_ERR_UNSUPPORTED,
                         "unsupported BMOV form");
}

/* A NOP that ptxas left where the PTX has a __syncwarp (sass_fast.c): the warp was converged
 * there, so nothing waits, but its accesses before it are ordered before those after, as at
 * a WARPSYNC (race detection). */
int ws_sass_x_syncwarp_nop(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec,
                           ws_sass_fx *fx)
{
    (void)in;
    (void)fx;
    if (exec)
        warp_synced(w);
    return 0;
}

/* WARPSYNC.COLLECTIVE whose member masks name only lanes of the running group: it runs
 * per mask as WARPSYNC.EXCLUSIVE does. One whose masks name lanes elsewhere (a __syncwarp
 * reached by a diverged warp, `WARPSYNC.COLLECTIVE R0` with R0 = ~0) waits for them first
 * as a plain WARPSYNC. */
static int collective_here(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec)
{
    if (!ws_sass_has(in, WS_SMOD_COLLECTIVE) || in->nopnd < 1)
        return 0;
    uint32_t v[WS_WARP], named = 0;
    ws_sass_src(w, in, 0, exec, v);
    WS_LANES(l, exec, named |= v[l];);
    return !(named & w->valid & ~w->exited & ~w->groups[w->cur].mask);
}

int ws_sass_x_warpsync(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    if (!exec)
        return 0;
    warp_synced(w);
    uint32_t mask = WS_FULL_MASK;
    if ((ws_sass_has(in, WS_SMOD_EXCLUSIVE) || collective_here(w, in, exec)) &&
        in->nopnd > 0) {
        /* WARPSYNC.EXCLUSIVE R: the lanes run on in groups of equal masks, one group at a
         * time (a __reduce_*_sync over a non-uniform mask runs once per group).
         * WARPSYNC.COLLECTIVE R, `(end)` opens ptxas's slow path of a vote or shuffle over
         * such a mask (up to its ENDCOLLECTIVE) and runs the same way: an H200 issues
         * a tile's VOTE.ANY, ENDCOLLECTIVE and the BSYNC after them once per tile, each
         * with the tile's lanes alone (unseen17 cg_tiles) */
        uint32_t v[WS_WARP], left = exec;
        ws_sass_src(w, in, 0, exec, v);
        ws_sass_group *g = &w->groups[w->cur];
        int pc = g->pc;
        uint32_t first = v[__builtin_ctz(exec)], keep = 0, gm[WS_WARP];
        WS_LANES(l, exec, keep |= (uint32_t)(v[l] == first) << l;);
        left &= ~keep;
        g->mask &= ~left;
        int groups = 0;
        gm[groups++] = keep;
        while (left) { /* each further group, lowest lane first */
            uint32_t m = v[__builtin_ctz(left)], part = 0;
            WS_LANES(l, left, part |= (uint32_t)(v[l] == m) << l;);
            ws_sass_group_add(w, pc + 1, part, WS_SG_READY);
            left &= ~part;
            gm[groups++] = part;
        }
        /* the further passes' lanes as for an indirect branch (the H100's per-kernel thread
           counts at 32 and 1000 distinct groups; labeled partitions, docs/results/
           unseen-kernels-h200.txt) */
        fx->replay_threads = pass_threads(gm, groups);
        fx->groups = (uint8_t)groups; /* the timing model: warp.group_cycles per further one */
        fx->passes = 1;
        /* COLLECTIVE: the H200's Range Profiler counts its further passes (instructions
           and threads as EXCLUSIVE's) but no branch target for its groups */
        fx->quiet_passes = ws_sass_has(in, WS_SMOD_COLLECTIVE);
        return 0;
    }
    if (in->nopnd > 0) {
        uint32_t v[WS_WARP];
        ws_sass_src(w, in, 0, exec, v);
        mask = v[__builtin_ctz(exec)];
        ws_sass_count_diverged_sync(w);
    }
    uint32_t need = mask & w->valid & ~w->exited;
    if (!(need & ~w->groups[w->cur].mask))
        return 0; /* every lane it names is here: nothing to wait for */
    ws_sass_park(w, exec, WS_SG_WARPSYNC, -1, need, fx);
    ws_sass_check_sync(w, -1);
    return 0;
}

int ws_sass_x_yield(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    /* YIELD (not NANOSLEEP) takes its lanes out of each convergence barrier that holds live
     * lanes outside its group: no BSYNC waits for them until a BSSY takes them in again,
     * and a BSYNC they reach lets them pass. Groups waiting on a barrier whose other lanes
     * all yielded go on now. A barrier whose every live lane yields together is left as it
     * was: no lane waits on it, and the GPU joins those lanes at its BSYNC (cbar.spec's
     * yield_converged on the H200; on 739 random kernels against the H100's and the
     * H200's records, 15 more equal at every PC: docs/results/fuzz-gpu-h100.txt). */
    if (in->op == WS_SOP_YIELD && exec) {
        uint32_t live = w->valid & ~w->exited;
        for (int x = 0; x < WS_SASS_NBARRIERS; x++)
            if (w->b[x] & live & ~exec)
                w->b[x] &= ~exec;
        ws_sass_check_sync(w, -1);
    }
    fx->yield = 1;
    return 0;
}

int ws_sass_x_bar(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    if (!exec)
        return 0;
    ws_sass_cta *c = w->cta;
    uint32_t v[WS_WARP];
    ws_sass_src(w, in, 0, exec, v);
    int id = (int)(v[__builtin_ctz(exec)] & 15u);
    uint32_t count = 0;
    if (in->nopnd > 1 && in->o[1].kind != WS_SO_P && in->o[1].kind != WS_SO_UP) {
        ws_sass_src(w, in, 1, exec, v);
        count = v[__builtin_ctz(exec)];
    }
    if (ws_sass_has(in, WS_SMOD_RED)) {
        int p = in->nopnd - 1;
        uint32_t m = ws_sass_psrc(w, in, p) & exec;
        c->red_popc[id] += (uint32_t)__builtin_popcount(m);
        c->red_and[id] &= (uint32_t)(m == exec);
        c->red_or[id] |= (uint32_t)(m != 0);
        c->last_bar = ws_sass_has(in, WS_SMOD_POPC) ? 1 : ws_sass_has(in, WS_SMOD_AND) ? 2 : 3;
    } else {
        c->last_bar = 0;
    }
    c->bar_arrived[id] += (uint32_t)__builtin_popcount(exec);
    if (count)
        c->bar_count[id] = count;
    if (ws_sass_has(in, WS_SMOD_ARV))
        return 0; /* arrive only */
    ws_sass_park(w, exec, WS_SG_BAR, id, 0, fx);
    return 0;
}

int ws_sass_x_b2r(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    const ws_sass_cta *c = w->cta;
    uint32_t r = c->bar_result[c->last_released & 15];
    uint32_t v[WS_WARP];
    WS_LANES(l, exec, v[l] = r;);
    ws_sass_dst(w, in, 0, exec, v);
    if (in->nopnd > 1 && in->o[1].kind == WS_SO_P)
        ws_sass_pdst(w, in, 1, exec, r ? WS_FULL_MASK : 0);
    return 0;
}

int ws_sass_x_s2r(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    const ws_sass_opnd *s = &in->o[1];
    if (in->op == WS_SOP_CS2R && !ws_sass_has(in, WS_SMOD_B32)) { /* CS2R R2, SRZ; 64 bits */
        uint64_t v[WS_WARP];
        int hi = s->sreg == WS_SSR_GLOBALTIMERLO || s->sreg == WS_SSR_GLOBALTIMER
                     ? WS_SSR_GLOBALTIMERHI : WS_SSR_CLOCKHI;
        WS_LANES(l, exec, v[l] = s->kind != WS_SO_SREG || s->sreg == WS_SSR_ZERO ? 0
                              : ((uint64_t)ws_sass_sreg(w, hi, l) << 32 |
                                 ws_sass_sreg(w, s->sreg, l)););
        ws_sass_dst64(w, in, 0, exec, v);
        return 0;
    }
    uint32_t v[WS_WARP]; /* S2R; CS2R.32 R2, SR_CLOCKLO (clock()): one register */
    ws_sass_src(w, in, 1, exec ? exec : 1u, v);
    ws_sass_dst(w, in, 0, exec, v);
    return 0;
}

int ws_sass_x_lepc(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    int k = ws_sass_find_opnd(in, WS_SO_LABEL);
    uint64_t pc = k >= 0 ? (uint64_t)in->o[k].imm : (uint64_t)in->offset;
    uint64_t v[WS_WARP];
    WS_LANES(l, exec, v[l] = pc;);
    ws_sass_dst64(w, in, 0, exec, v);
    return 0;
}

/* UCGABAR_ARV / UCGABAR_WAIT: a thread-block cluster's barrier, reached only where the
 * launch has clusters, which the model does not run (sass_ops.def). */
int ws_sass_x_cgabar(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    (void)fx;
    if (!exec)
        return 0;
    return ws_sass_fault(w, in, __builtin_ctz(exec), 0, WS_ERR_UNSUPPORTED, "a thread-block "
                         "cluster barrier (cluster.sync()) where the launch is in clusters: "
                         "clusters are not modelled");
}
