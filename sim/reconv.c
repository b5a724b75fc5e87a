/* reconv.c — reconvergence policies. `ipdom`: the SIMT stack of GPGPU-Sim's classic
 * model. A divergent branch turns the top entry into the reconvergence entry (pc = the
 * branch's immediate post-dominator) and pushes the not-taken and taken paths; an entry
 * is popped when its pc reaches its reconvergence pc or when it has no lanes left. */
#include <stdlib.h>
#include <string.h>
#include "sim/reconv.h"

static int push(ws_warp *w, int pc, int rpc, uint32_t mask)
{
    if (w->nstack == w->cap_stack) {
        int cap = w->cap_stack ? w->cap_stack * 2 : 16;
        ws_simt_entry *s = realloc(w->stack, (size_t)cap * sizeof *s);
        if (!s)
            return WS_ERR_NOMEM;
        w->stack = s;
        w->cap_stack = cap;
    }
    w->stack[w->nstack++] = (ws_simt_entry){ pc, rpc, mask };
    return 0;
}

static void load_top(ws_warp *w)
{
    if (w->nstack == 0) {
        w->active = 0;
        w->stop_pc = -1;
        return;
    }
    const ws_simt_entry *t = &w->stack[w->nstack - 1];
    w->pc = t->pc;
    w->active = t->mask;
    w->stop_pc = t->rpc;
}

/* Pops entries that are finished: empty, or sitting at their reconvergence point. */
static void settle(ws_warp *w)
{
    while (w->nstack > 0) {
        ws_simt_entry *t = &w->stack[w->nstack - 1];
        if (t->mask != 0 && t->pc != t->rpc)
            break;
        w->nstack--;
    }
    load_top(w);
}

static int ipdom_reset(ws_warp *w, int pc, uint32_t mask)
{
    w->nstack = 0;
    int rc = push(w, pc, -1, mask);
    load_top(w);
    return rc;
}

static int ipdom_branch(ws_warp *w, const ws_inst *in, uint32_t taken, uint32_t not_taken,
                        int target, int fallthrough)
{
    if (!not_taken || !taken) {
        w->pc = not_taken ? fallthrough : target;
        if (w->pc == w->stop_pc) {
            w->stack[w->nstack - 1].pc = w->pc;
            settle(w);
        }
        return 0;
    }
    int rpc = in->reconv_pc;
    w->stack[w->nstack - 1].pc = rpc;
    int rc = push(w, fallthrough, rpc, not_taken);
    if (!rc)
        rc = push(w, target, rpc, taken);
    if (rc)
        return rc;
    settle(w);
    return 0;
}

static void ipdom_reach(ws_warp *w)
{
    w->stack[w->nstack - 1].pc = w->pc;
    settle(w);
}

static int ipdom_leave(ws_warp *w, uint32_t lanes, int base)
{
    if (w->nstack > 0)
        w->stack[w->nstack - 1].pc = w->pc;
    for (int i = base; i < w->nstack; i++)
        w->stack[i].mask &= ~lanes;
    while (w->nstack > base && w->stack[w->nstack - 1].mask == 0)
        w->nstack--;
    if (w->nstack <= base) {
        load_top(w);
        return 1;
    }
    settle(w);
    return 0;
}

static int ipdom_call(ws_warp *w, int return_pc)
{
    w->stack[w->nstack - 1].pc = return_pc;
    int base = w->nstack;
    if (push(w, 0, -1, w->active))
        return -1;
    load_top(w);
    return base;
}

static const ws_reconv_policy ipdom = {
    "ipdom", ipdom_reset, ipdom_branch, ipdom_reach, ipdom_leave, ipdom_call,
};

const ws_reconv_policy *ws_reconv_find(const char *name)
{
    if (!name || !*name || strcmp(name, "ipdom") == 0)
        return &ipdom;
    return NULL;
}
