/* vw_fixture.h — hand-built ws_results for the viewer tests: a small if/else kernel with
 * four basic blocks, regions, an atomic, a recorded warp timeline, metrics derived from the
 * instruction counts. `shift` changes the counts so two results differ (before/after). */
#ifndef WS_TEST_VW_FIXTURE_H
#define WS_TEST_VW_FIXTURE_H

#include <stdlib.h>
#include <string.h>
#include "core/core.h"

static const char vw_fixture_source[] =
    "__global__ void kernel(const int *in, int *out, int *count)\n" /* 1 */
    "{\n"                                                             /* 2 */
    "    int tid = blockIdx.x * blockDim.x + threadIdx.x;\n"         /* 3 */
    "    int v = in[tid], acc = 0;\n"                                /* 4 */
    "    if (v & 4) {              // a < b && c > d\n"               /* 5 */
    "        acc = v * 3;\n"                                         /* 6 */
    "    } else {\n"                                                 /* 7 */
    "        acc = v + 7;\n"                                         /* 8 */
    "    }\n"                                                        /* 9 */
    "    out[tid] = acc;\n"                                          /* 10 */
    "    atomicAdd(count, 1);\n"                                     /* 11 */
    "}\n";                                                           /* 12 */

/* pc, line, block, text, issued, active, pred_on, divergent */
typedef struct vw_fx_inst { int pc, line, block; const char *text; int issued, active, pred_on, div; } vw_fx_inst;

static void vw_fixture_add_region(ws_result *r, const char *name, int a, int b)
{
    r->regions = realloc(r->regions, (size_t)(r->nregions + 1) * sizeof *r->regions);
    ws_region_stat *g = &r->regions[r->nregions++];
    r->cap_regions = r->nregions;
    memset(g, 0, sizeof *g);
    snprintf(g->name, sizeof g->name, "%s", name);
    g->first_line = a;
    g->last_line = b;
}

static void vw_fixture_block(ws_result *r, int id, int first, int last, int nsucc, int s0,
                             int s1, int ipdom)
{
    ws_block_info *b = ws_result_add_block(r);
    snprintf(b->function, sizeof b->function, "_Z6kernelPKiPiS1_");
    b->id = id;
    b->first_pc = first;
    b->last_pc = last;
    b->nsucc = nsucc;
    b->succ[0] = s0;
    b->succ[1] = s1;
    b->ipdom = ipdom;
}

/* shift 0: half the lanes take each side; shift k > 0: more work, fewer idle lanes. */
static void vw_fixture_build(ws_result *r, int shift, int with_text)
{
    ws_result_init(r);
    snprintf(r->source, sizeof r->source, "sim:ipdom");
    snprintf(r->workload, sizeof r->workload, "fixture_branch");
    snprintf(r->variant, sizeof r->variant, shift ? "after" : "before");
    snprintf(r->kernel, sizeof r->kernel, "kernel");
    r->grid[0] = 2; r->grid[1] = r->grid[2] = 1;
    r->block[0] = 128; r->block[1] = r->block[2] = 1;
    snprintf(r->params, sizeof r->params, "DPT=%d", 1 + shift);
    r->seed = 42;
    r->outputs_checked = 1;
    r->outputs_match = 1;
    int file = ws_result_add_file(r, "/src/fixture_branch.cu", with_text ? vw_fixture_source : NULL);
    int w = 8, half = 8 * 16 + 8 * shift; /* 8 warps issue everything */
    const vw_fx_inst insts[] = {
        {0, 3, 0, "mov.u32", w, 256, 256, 0},      {1, 3, 0, "mad.lo.s32", w, 256, 256, 0},
        {2, 4, 0, "ld.global.u32", w, 256, 256, 0}, {3, 5, 0, "and.b32", w, 256, 256, 0},
        {4, 5, 0, "@%p1 bra", w, 256, 200, 8 - shift},
        {5, 6, 1, "mul.lo.s32", w, half, half, 0},  {6, 6, 1, "bra.uni", w, half, half, 0},
        {7, 8, 2, "add.s32", w, 256 - half, 256 - half, 0},
        {8, 10, 3, "st.global.u32", w, 256, 256, 0}, {9, 11, 3, "atom.global.add.u32", w, 256, 256, 0},
        {10, 12, 3, "ret", w, 256, 256, 0},
    };
    for (size_t i = 0; i < sizeof insts / sizeof *insts; i++) {
        ws_inst_stat *s = ws_result_add_inst(r);
        snprintf(s->function, sizeof s->function, "_Z6kernelPKiPiS1_");
        s->pc = insts[i].pc;
        s->ptx_line = 40 + insts[i].pc;
        s->file = file;
        s->line = insts[i].line;
        s->block = insts[i].block;
        snprintf(s->text, sizeof s->text, "%s", insts[i].text);
        s->issued = (uint64_t)insts[i].issued;
        s->active_threads = (uint64_t)insts[i].active;
        s->pred_on_threads = (uint64_t)insts[i].pred_on;
        s->divergent_branches = (uint64_t)insts[i].div;
        s->branch_targets = strstr(insts[i].text, "bra") ? (uint64_t)w + insts[i].div : 0;
    }
    vw_fixture_block(r, 0, 0, 4, 2, 1, 2, 3);
    vw_fixture_block(r, 1, 5, 6, 1, 3, -1, 3);
    vw_fixture_block(r, 2, 7, 7, 1, 3, -1, 3);
    vw_fixture_block(r, 3, 8, 10, 0, -1, -1, -1);
    ws_atomic_stat *a = ws_result_add_atomic(r);
    snprintf(a->function, sizeof a->function, "_Z6kernelPKiPiS1_");
    a->pc = 9; a->line = 11;
    snprintf(a->text, sizeof a->text, "atom.global.add.u32");
    a->warp_execs = 8; a->lanes = 256; a->distinct_hist[1] = 8;
    vw_fixture_add_region(r, "prepare", 3, 4);
    vw_fixture_add_region(r, "branch", 5, 9);
    vw_fixture_add_region(r, "settlement", 10, 11);
    for (int g = 0; g < r->nregions; g++) { /* what ws_result_compute_regions does with a spec */
        ws_region_stat *x = &r->regions[g];
        for (int i = 0; i < r->ninsts; i++) {
            const ws_inst_stat *in = &r->insts[i];
            if (in->line < x->first_line || in->line > x->last_line) continue;
            x->issued += in->issued;
            x->active_threads += in->active_threads;
            x->pred_on_threads += in->pred_on_threads;
            x->branch_targets += in->branch_targets;
            x->divergent_branches += in->divergent_branches;
        }
        x->execution_rate = x->issued ? (double)x->active_threads / (32.0 * (double)x->issued) : 0;
    }
    ws_timeline *t = ws_result_add_timeline(r);
    snprintf(t->function, sizeof t->function, "_Z6kernelPKiPiS1_");
    t->cta = 1; t->warp = 2;
    const int pcs[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    t->nslots = 11;
    t->slots = calloc(11, sizeof *t->slots);
    for (int s = 0; s < 11; s++) {
        t->slots[s].pc = pcs[s];
        t->slots[s].active = s == 5 || s == 6 ? 0x0000ffffu : (s == 7 ? 0xffff0000u : 0xffffffffu);
        t->slots[s].pred_on = s == 4 ? 0x00ffffffu : t->slots[s].active;
    }
    ws_result_add_warning(r, "race: lost update at line %d (fixture)", 10);
    ws_result_derive_metrics(r);
}

/* Occurrences of `needle`; attribute `attr` of the tag that `anchor` opens or precedes. */
static inline int vw_count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle)) n++;
    return n;
}

/* The value of attribute `attr` in the first tag after `anchor`. */
static inline int vw_attr_after(const char *html, const char *anchor, const char *attr, char *out, size_t n)
{
    const char *p = strstr(html, anchor);
    if (!p) return -1;
    const char *end = strchr(p + strlen(anchor), '>');
    char key[64];
    snprintf(key, sizeof key, " %s=\"", attr);
    const char *a = strstr(p, key);
    if (!a || (end && a > end)) return -1;
    a += strlen(key);
    const char *q = strchr(a, '"');
    snprintf(out, n, "%.*s", (int)(q - a), a);
    return 0;
}

#endif
