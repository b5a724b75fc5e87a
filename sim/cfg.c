/* cfg.c — control-flow facts the executor's reconvergence model needs: per function, basic
 * blocks and successors, the post-dominator tree (with a virtual exit node) and, for every
 * branch, its reconvergence PC = first PC of the immediate post-dominator of its block;
 * and, from the dominator tree, the headers of spin loops (loops left on a value another
 * thread may change: an atomic's, a volatile load's), which the timing model charges the
 * compiler's YIELD.
 * Pure analysis of the IR; it never looks at PTX text. */
#include <stdlib.h>
#include <string.h>
#include "sim/ir.h"

static int ends_block(const ws_inst *in)
{
    return ws_op_has(in->op, WS_OPF_TERM);
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
        if (ws_op_has(in->op, WS_OPF_BRANCH) && in->src[0].kind == WS_O_LABEL)
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
        if (ws_op_has(in->op, WS_OPF_BRANCH)) {
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

/* Cooper-Harvey-Kennedy dominators over a graph of n nodes given as two edge lists (CSR):
 * `walk` is followed from the root to number the nodes, `meet` names each node's
 * neighbours whose dominators intersect. Forward dominators walk successors and meet over
 * predecessors; post-dominators (root: a virtual exit) the other way round. */
typedef struct csr {
    int *start, *to; /* node x's edges: to[start[x] .. start[x+1]) */
} csr;

typedef struct dom_work {
    int n, root;
    csr walk, meet;
    int *order;      /* node -> reverse-postorder number (-1 unreached) */
    int *rpo;        /* rpo number -> node */
    int *idom;
} dom_work;

/* Edges of block b in the graph below: its successors, else one to the virtual exit, except
 * that a block ending in an unguarded trap has none: a path that traps never reconverges,
 * so it must not pull the post-dominator of a switch with a trapping default (nvcc's
 * __pipeline_memcpy_async with a variable zero fill) down to the function's exit. */
static int edge_count(const ws_function *f, int b)
{
    const ws_block *bl = &f->blocks[b];
    const ws_inst *last = &f->insts[bl->last];
    if (!bl->nsucc && last->op == WS_OP_TRAP && last->guard < 0)
        return 0;
    return bl->nsucc ? bl->nsucc : 1;
}

/* The block graph with a virtual exit node nb (the successor of blocks without one), as
 * successor and predecessor lists. */
static int build_edges(const ws_function *f, csr *succ, csr *pred)
{
    int nb = f->nblocks, n = nb + 1, nedges = 0;
    for (int b = 0; b < nb; b++)
        nedges += edge_count(f, b);
    succ->start = calloc((size_t)n + 1, sizeof(int));
    pred->start = calloc((size_t)n + 1, sizeof(int));
    succ->to = malloc((size_t)(nedges ? nedges : 1) * sizeof(int));
    pred->to = malloc((size_t)(nedges ? nedges : 1) * sizeof(int));
    int *fill = malloc((size_t)n * sizeof(int));
    if (!succ->start || !pred->start || !succ->to || !pred->to || !fill) {
        free(fill);
        return -1;
    }
    for (int b = 0; b < nb; b++) {
        const ws_block *bl = &f->blocks[b];
        int ns = edge_count(f, b);
        succ->start[b + 1] = ns;
        for (int i = 0; i < ns; i++)
            pred->start[(bl->nsucc ? bl->succ[i] : nb) + 1]++;
    }
    for (int i = 0; i < n; i++) {
        succ->start[i + 1] += succ->start[i];
        pred->start[i + 1] += pred->start[i];
    }
    memcpy(fill, pred->start, (size_t)n * sizeof(int));
    for (int b = 0; b < nb; b++) {
        const ws_block *bl = &f->blocks[b];
        int ns = edge_count(f, b);
        for (int i = 0; i < ns; i++) {
            int s = bl->nsucc ? bl->succ[i] : nb;
            succ->to[succ->start[b] + i] = s;
            pred->to[fill[s]++] = b;
        }
    }
    free(fill);
    return 0;
}

static void csr_free(csr *c)
{
    free(c->start);
    free(c->to);
}

/* Postorder DFS along `walk` from the root; returns the number of nodes reached. */
static int number_nodes(dom_work *w)
{
    int n = w->n, cnt = 0, sp = 0;
    int *stack = malloc((size_t)n * sizeof(int)), *edge = calloc((size_t)n, sizeof(int));
    int *post = malloc((size_t)n * sizeof(int));
    unsigned char *seen = calloc((size_t)n, 1);
    if (!stack || !edge || !post || !seen) {
        free(stack); free(edge); free(post); free(seen);
        return -1;
    }
    stack[sp++] = w->root;
    seen[w->root] = 1;
    while (sp) {
        int x = stack[sp - 1];
        int e = w->walk.start[x] + edge[x];
        if (e < w->walk.start[x + 1]) {
            edge[x]++;
            int y = w->walk.to[e];
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

static int intersect(const dom_work *w, int a, int b)
{
    while (a != b) {
        while (w->order[a] > w->order[b])
            a = w->idom[a];
        while (w->order[b] > w->order[a])
            b = w->idom[b];
    }
    return a;
}

static void solve(dom_work *w, int cnt)
{
    for (int i = 0; i < w->n; i++)
        w->idom[i] = -1;
    w->idom[w->root] = w->root;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = 1; i < cnt; i++) {
            int b = w->rpo[i], nd = -1;
            for (int e = w->meet.start[b]; e < w->meet.start[b + 1]; e++) {
                int s = w->meet.to[e];
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

/* idom[x] for every node of the graph (-1: unreached from the root). */
static int dominators(int n, int root, csr walk, csr meet, int *idom)
{
    dom_work w = { n, root, walk, meet, malloc((size_t)n * sizeof(int)),
                   malloc((size_t)n * sizeof(int)), idom };
    int cnt = w.order && w.rpo ? number_nodes(&w) : -1;
    if (cnt > 0)
        solve(&w, cnt);
    free(w.order);
    free(w.rpo);
    return cnt > 0 ? 0 : -1;
}

/* Does block h dominate block u (idom: the forward dominator tree, root 0)? */
static int dominates(const int *idom, int h, int u)
{
    for (;;) {
        if (u == h)
            return 1;
        if (u <= 0 || idom[u] < 0 || idom[u] == u)
            return 0;
        u = idom[u];
    }
}

/* A read that sees other threads' stores while the loop runs: an atomic, or a volatile or
 * strong (.relaxed/.acquire) load. A plain load may be assumed race-free, so a loop left on
 * one (a search) is no spin loop: ptxas puts no YIELD there. */
static int is_shared_read(const ws_inst *in)
{
    if (ws_op_has(in->op, WS_OPF_ATOMIC))
        return 1;
    return ws_op_class(in->op) == WS_CLS_LD && (in->flags & (WS_F_VOLATILE | WS_F_STRONG));
}

/* Registers whose value, within the loop `body` (a block set), depends on a shared read
 * (above) made in the loop: a fixpoint over the body, since values flow round it. */
static void memory_taint(const ws_function *f, const unsigned char *body, unsigned char *taint)
{
    memset(taint, 0, (size_t)(f->nregs > 0 ? f->nregs : 1));
    for (int changed = 1; changed;) {
        changed = 0;
        for (int b = 0; b < f->nblocks; b++) {
            if (!body[b])
                continue;
            for (int pc = f->blocks[b].first; pc <= f->blocks[b].last; pc++) {
                const ws_inst *in = &f->insts[pc];
                int dirty = is_shared_read(in) || (in->guard >= 0 && taint[in->guard]);
                int32_t r[4];
                for (int i = 0; i < in->nsrc && i < WS_MAX_SRC && !dirty; i++)
                    for (int k = 0, nr = ws_operand_regs(&in->src[i], r); k < nr; k++)
                        dirty |= r[k] < f->nregs && taint[r[k]];
                for (int i = 0; dirty && i < in->ndst && i < WS_MAX_DST; i++) {
                    if (in->dst[i].kind == WS_O_ADDR) continue; /* st [addr]: read, not written */
                    int nr = ws_operand_regs(&in->dst[i], r);
                    for (int k = 0; k < nr; k++)
                        if (r[k] >= 0 && r[k] < f->nregs && !taint[r[k]]) {
                            taint[r[k]] = 1;
                            changed = 1;
                        }
                }
            }
        }
    }
}

/* For the loop of back edge u -> h: mark its blocks in `body` (h, and every block that
 * reaches u without passing h), then flag h when a way out of the loop is decided by a
 * value another thread may change (an atomic's, a volatile load's): a spin loop, in which
 * the compiler places a YIELD. */
static void mark_spin_loop(ws_function *f, const csr *pred, int u, int h,
                           unsigned char *body, int *stack, unsigned char *taint)
{
    memset(body, 0, (size_t)f->nblocks);
    body[h] = 1;
    int sp = 0;
    if (!body[u]) {
        body[u] = 1;
        stack[sp++] = u;
    }
    while (sp) {
        int x = stack[--sp];
        for (int e = pred->start[x]; e < pred->start[x + 1]; e++) {
            int y = pred->to[e];
            if (y < f->nblocks && !body[y]) {
                body[y] = 1;
                stack[sp++] = y;
            }
        }
    }
    memory_taint(f, body, taint);
    for (int b = 0; b < f->nblocks; b++) {
        if (!body[b])
            continue;
        const ws_block *bl = &f->blocks[b];
        const ws_inst *last = &f->insts[bl->last];
        int leaves = bl->nsucc == 0 || ws_op_has(last->op, WS_OPF_LEAVE);
        for (int i = 0; i < bl->nsucc; i++)
            leaves |= !body[bl->succ[i]];
        if (leaves && last->guard >= 0 && taint[last->guard])
            f->blocks[h].spin = 1;
    }
}

/* Post-dominators (reconvergence) and dominators (loops) of one function's blocks. */
static int dominator_trees(ws_function *f)
{
    int nb = f->nblocks, rc = -1;
    csr succ = { 0 }, pred = { 0 };
    int *pidom = malloc((size_t)(nb + 1) * sizeof(int));
    int *idom = malloc((size_t)(nb + 1) * sizeof(int));
    int *stack = malloc((size_t)nb * sizeof(int));
    unsigned char *body = malloc((size_t)nb);
    unsigned char *taint = malloc((size_t)(f->nregs > 0 ? f->nregs : 1));
    if (pidom && idom && stack && body && taint && build_edges(f, &succ, &pred) == 0 &&
        dominators(nb + 1, nb, pred, succ, pidom) == 0 &&
        dominators(nb + 1, 0, succ, pred, idom) == 0) {
        for (int b = 0; b < nb; b++) {
            f->blocks[b].ipdom = (pidom[b] < 0 || pidom[b] == nb) ? -1 : pidom[b];
            f->blocks[b].spin = 0;
        }
        for (int u = 0; u < nb; u++)
            for (int i = 0; i < f->blocks[u].nsucc; i++) {
                int h = f->blocks[u].succ[i];
                if (idom[u] >= 0 && dominates(idom, h, u))
                    mark_spin_loop(f, &pred, u, h, body, stack, taint);
            }
        rc = 0;
    }
    free(pidom); free(idom); free(stack); free(body); free(taint);
    csr_free(&succ);
    csr_free(&pred);
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
    if (dominator_trees(f))
        return -1;
    for (int pc = 0; pc < f->ninsts; pc++) {
        ws_inst *in = &f->insts[pc];
        in->reconv_pc = -1;
        if (ws_op_has(in->op, WS_OPF_BRANCH)) {
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
