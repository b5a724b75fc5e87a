/* reconv.c — reconvergence policies. `ipdom`: the SIMT stack of GPGPU-Sim's classic
 * model. A divergent branch turns the top entry into the reconvergence entry (pc = the
 * branch's immediate post-dominator) and pushes the not-taken and taken paths; an entry
 * is popped when its pc reaches its reconvergence pc or when it has no lanes left. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include "sim/reconv.h"

/* One SIMT stack entry. */
typedef struct ipdom_entry {
    int32_t pc, rpc;
    uint32_t mask;
} ipdom_entry;

/* A warp's ipdom state: the stack, and the reconvergence pc of its top entry. */
typedef struct ipdom_state {
    int n, cap;
    int stop_pc;
    ipdom_entry *e;
} ipdom_state;

static ipdom_state *state(const ws_warp *w) { return w->policy_state; }

static int push(ipdom_state *st, int pc, int rpc, uint32_t mask)
{
    if (st->n == st->cap) {
        int cap = st->cap ? st->cap * 2 : 16;
        ipdom_entry *s = realloc(st->e, (size_t)cap * sizeof *s);
        if (!s)
            return WS_ERR_NOMEM;
        st->e = s;
        st->cap = cap;
    }
    st->e[st->n++] = (ipdom_entry){ pc, rpc, mask };
    return 0;
}

static void load_top(ws_warp *w, ipdom_state *st)
{
    if (st->n == 0) {
        w->active = 0;
        st->stop_pc = -1;
        return;
    }
    const ipdom_entry *t = &st->e[st->n - 1];
    w->pc = t->pc;
    w->active = t->mask;
    st->stop_pc = t->rpc;
}

/* Pops entries that are finished: empty, or sitting at their reconvergence point. */
static void settle(ws_warp *w, ipdom_state *st)
{
    while (st->n > 0) {
        ipdom_entry *t = &st->e[st->n - 1];
        if (t->mask != 0 && t->pc != t->rpc)
            break;
        st->n--;
    }
    load_top(w, st);
}

static int ipdom_reset(ws_warp *w, int pc, uint32_t mask)
{
    if (!w->policy_state && !(w->policy_state = calloc(1, sizeof(ipdom_state))))
        return WS_ERR_NOMEM;
    ipdom_state *st = state(w);
    st->n = 0;
    int rc = push(st, pc, -1, mask);
    load_top(w, st);
    return rc;
}

static void ipdom_release(ws_warp *w)
{
    ipdom_state *st = state(w);
    if (st)
        free(st->e);
    free(st);
    w->policy_state = NULL;
}

/* w->pc is the top entry's reconvergence pc: the entry is done, the one below resumes. */
static void reach(ws_warp *w, ipdom_state *st)
{
    st->e[st->n - 1].pc = w->pc;
    settle(w, st);
}

static int ipdom_branch(ws_warp *w, const ws_inst *in, uint32_t taken, uint32_t not_taken,
                        int target, int fallthrough)
{
    ipdom_state *st = state(w);
    assert(st->n > 0 && (taken | not_taken) != 0);
    if (!not_taken || !taken) {
        w->pc = not_taken ? fallthrough : target;
        if (w->pc == st->stop_pc)
            reach(w, st);
        return 0;
    }
    int rpc = in->reconv_pc;
    st->e[st->n - 1].pc = rpc;
    int rc = push(st, fallthrough, rpc, not_taken);
    if (!rc)
        rc = push(st, target, rpc, taken);
    if (rc)
        return rc;
    settle(w, st);
    return 0;
}

static void ipdom_advance(ws_warp *w)
{
    ipdom_state *st = state(w);
    if (w->pc == st->stop_pc)
        reach(w, st);
}

static int ipdom_leave(ws_warp *w, uint32_t lanes, int base)
{
    ipdom_state *st = state(w);
    if (st->n > 0)
        st->e[st->n - 1].pc = w->pc;
    for (int i = base; i < st->n; i++)
        st->e[i].mask &= ~lanes;
    while (st->n > base && st->e[st->n - 1].mask == 0)
        st->n--;
    if (st->n <= base) {
        load_top(w, st);
        return 1;
    }
    settle(w, st);
    return 0;
}

static int ipdom_call(ws_warp *w, int return_pc)
{
    ipdom_state *st = state(w);
    st->e[st->n - 1].pc = return_pc;
    int base = st->n;
    if (push(st, 0, -1, w->active))
        return -1;
    load_top(w, st);
    return base;
}

static int ipdom_level(const ws_warp *w)
{
    return state(w)->n;
}

static const ws_reconv_policy ipdom = {
    "ipdom", ipdom_reset, ipdom_release, ipdom_branch, ipdom_advance, ipdom_leave,
    ipdom_call, ipdom_level,
};

const ws_reconv_policy *ws_reconv_find(const char *name)
{
    if (!name || !*name || strcmp(name, "ipdom") == 0)
        return &ipdom;
    return NULL;
}
