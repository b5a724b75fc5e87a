/* cfg.c — control-flow facts the executor's reconvergence model needs: per function, basic
 * blocks and successors, the post-dominator tree (with a virtual exit node) and, for every
 * branch, its reconvergence PC = first PC of the immediate post-dominator of its block.
 * Pure analysis of the IR; it never looks at PTX text. */
#include <stdlib.h>
#include <string.h>
#include "sim/ir.h"

static int ends_block(const ws_inst *in)
{
    return in->op == WS_OP_BRA || in->op == WS_OP_RET || in->op == WS_OP_EXIT ||
           in->op == WS_OP_TRAP;
}

/* Leaders: entry, branch targets, the instruction after a branch/ret/exit/trap. */
static int split_blocks(ws_function *f)
{
    int n = f->ninsts;
    unsigned char *leader = calloc((size_t)n + 1, 1);
    if (!leader)
        return -1;
    leader[0] = 1;
    for (int pc = 0; pc < n; pc++) {
        const ws_inst *in = &f->insts[pc];
        if (in->op == WS_OP_BRA && in->src[0].kind == WS_O_LABEL)
            leader[in->src[0].imm] = 1;
        if (ends_block(in))
            leader[pc + 1] = 1;
    }
    int nb = 0;
    for (int pc = 0; pc < n; pc++)
        nb += leader[pc];
    f->blocks = calloc((size_t)nb, sizeof *f->blocks);
    if (!f->blocks) {
        free(leader);
        return -1;
    }
    f->nblocks = nb;
    int b = -1;
    for (int pc = 0; pc < n; pc++) {
        if (leader[pc]) {
            b++;
            f->blocks[b].first = pc;
        }
        f->blocks[b].last = pc;
        f->insts[pc].block = b;
    }
    free(leader);
    return 0;
}

static void add_succ(ws_block *bl, int s)
{
    for (int i = 0; i < bl->nsucc; i++)
        if (bl->succ[i] == s)
            return;
    bl->succ[bl->nsucc++] = s;
}

/* Guarded bra: target + fallthrough; bra: target; ret/exit/trap: none (guarded: the
 * fallthrough, since the lanes that do not leave go on); others: fallthrough. */
static void link_blocks(ws_function *f)
{
    for (int b = 0; b < f->nblocks; b++) {
        ws_block *bl = &f->blocks[b];
        const ws_inst *in = &f->insts[bl->last];
        int next = bl->last + 1 < f->ninsts ? f->insts[bl->last + 1].block : -1;
        bl->nsucc = 0;
        if (in->op == WS_OP_BRA) {
            add_succ(bl, f->insts[in->src[0].imm].block);
            if (in->guard >= 0 && next >= 0)
                add_succ(bl, next);
        } else if (ends_block(in)) {
            if (in->guard >= 0 && next >= 0)
                add_succ(bl, next);
        } else if (next >= 0) {
            add_succ(bl, next);
        }
    }
}

/* Cooper-Harvey-Kennedy dominators on the reverse CFG rooted at the virtual exit (node nb). */
typedef struct pdom_work {
    int nb;
    int *pred_start, *preds;  /* original predecessors, CSR */
    int *order;               /* node -> reverse-postorder number (-1 unreached) */
    int *rpo;                 /* rpo number -> node */
    int *idom;
} pdom_work;

static int build_preds(const ws_function *f, pdom_work *w)
{
    int nb = w->nb;
    w->pred_start = calloc((size_t)nb + 2, sizeof(int));
    int nedges = 0;
    for (int b = 0; b < nb; b++)
        nedges += f->blocks[b].nsucc ? f->blocks[b].nsucc : 1;
    w->preds = malloc((size_t)(nedges ? nedges : 1) * sizeof(int));
    if (!w->pred_start || !w->preds)
        return -1;
    for (int b = 0; b < nb; b++) {
        const ws_block *bl = &f->blocks[b];
        if (!bl->nsucc)
            w->pred_start[nb + 1]++;
        for (int i = 0; i < bl->nsucc; i++)
            w->pred_start[bl->succ[i] + 1]++;
    }
    for (int i = 0; i <= nb; i++)
        w->pred_start[i + 1] += w->pred_start[i];
    int *fill = malloc((size_t)(nb + 1) * sizeof(int));
    if (!fill)
        return -1;
    memcpy(fill, w->pred_start, (size_t)(nb + 1) * sizeof(int));
    for (int b = 0; b < nb; b++) {
        const ws_block *bl = &f->blocks[b];
        if (!bl->nsucc)
            w->preds[fill[nb]++] = b;
        for (int i = 0; i < bl->nsucc; i++)
            w->preds[fill[bl->succ[i]]++] = b;
    }
    free(fill);
    return 0;
}

/* Postorder DFS of the reverse graph from exit (following original predecessors). */
static int number_nodes(pdom_work *w)
{
    int n = w->nb + 1, cnt = 0, sp = 0;
    int *stack = malloc((size_t)n * sizeof(int)), *edge = calloc((size_t)n, sizeof(int));
    int *post = malloc((size_t)n * sizeof(int));
    unsigned char *seen = calloc((size_t)n, 1);
    if (!stack || !edge || !post || !seen) {
        free(stack); free(edge); free(post); free(seen);
        return -1;
    }
    stack[sp++] = w->nb;
    seen[w->nb] = 1;
    while (sp) {
        int x = stack[sp - 1];
        int e = w->pred_start[x] + edge[x];
        if (e < w->pred_start[x + 1]) {
            edge[x]++;
            int y = w->preds[e];
            if (!seen[y]) {
                seen[y] = 1;
                stack[sp++] = y;
            }
        } else {
            post[cnt++] = x;
            sp--;
        }
    }
    for (int i = 0; i < n; i++)
        w->order[i] = -1;
    for (int i = 0; i < cnt; i++) {
        w->rpo[i] = post[cnt - 1 - i];
        w->order[w->rpo[i]] = i;
    }
    free(stack); free(edge); free(post); free(seen);
    return cnt;
}

static int intersect(const pdom_work *w, int a, int b)
{
    while (a != b) {
        while (w->order[a] > w->order[b])
            a = w->idom[a];
        while (w->order[b] > w->order[a])
            b = w->idom[b];
    }
    return a;
}

static void solve(const ws_function *f, pdom_work *w, int cnt)
{
    int nb = w->nb;
    for (int i = 0; i <= nb; i++)
        w->idom[i] = -1;
    w->idom[nb] = nb;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = 1; i < cnt; i++) {
            int b = w->rpo[i], nd = -1;
            const ws_block *bl = &f->blocks[b];
            int ns = bl->nsucc ? bl->nsucc : 1;
            for (int k = 0; k < ns; k++) {
                int s = bl->nsucc ? bl->succ[k] : nb;
                if (w->idom[s] < 0)
                    continue;
                nd = nd < 0 ? s : intersect(w, s, nd);
            }
            if (nd >= 0 && w->idom[b] != nd) {
                w->idom[b] = nd;
                changed = 1;
            }
        }
    }
}

static int postdominators(ws_function *f)
{
    pdom_work w;
    memset(&w, 0, sizeof w);
    w.nb = f->nblocks;
    int n = w.nb + 1, rc = -1;
    w.order = malloc((size_t)n * sizeof(int));
    w.rpo = malloc((size_t)n * sizeof(int));
    w.idom = malloc((size_t)n * sizeof(int));
    if (w.order && w.rpo && w.idom && build_preds(f, &w) == 0) {
        int cnt = number_nodes(&w);
        if (cnt > 0) {
            solve(f, &w, cnt);
            for (int b = 0; b < w.nb; b++)
                f->blocks[b].ipdom = (w.idom[b] < 0 || w.idom[b] == w.nb) ? -1 : w.idom[b];
            rc = 0;
        }
    }
    free(w.order); free(w.rpo); free(w.idom); free(w.pred_start); free(w.preds);
    return rc;
}

static int build_function(ws_function *f)
{
    free(f->blocks);
    f->blocks = NULL;
    f->nblocks = 0;
    if (f->ninsts == 0)
        return 0;
    if (split_blocks(f))
        return -1;
    link_blocks(f);
    if (postdominators(f))
        return -1;
    for (int pc = 0; pc < f->ninsts; pc++) {
        ws_inst *in = &f->insts[pc];
        in->reconv_pc = -1;
        if (in->op == WS_OP_BRA) {
            int ip = f->blocks[in->block].ipdom;
            in->reconv_pc = ip < 0 ? -1 : f->blocks[ip].first;
        }
    }
    return 0;
}

int ws_cfg_build(ws_module *m, ws_error *err)
{
    for (int i = 0; i < m->nfuncs; i++)
        if (build_function(&m->funcs[i]))
            return ws_error_set(err, WS_ERR_NOMEM, "out of memory building the CFG of %s",
                                m->funcs[i].name);
    return WS_OK;
}
