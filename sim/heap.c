/* heap.c — the device heap that kernels' malloc and free serve, on both models: one global
 * allocation of WS_HEAP_BYTES (CUDA's default cudaLimitMallocHeapSize), laid out with the
 * run's buffers when the module calls either (ws_module.uses_heap), split into blocks of 16
 * bytes' multiples, first fit, neighbours merged on free. malloc returns 0 when no block is
 * large enough, as CUDA's does, and for malloc(0) a block of its own (on an H200 malloc(0)
 * is not NULL: tests/gpu/heap.spec); freeing an address malloc did not return is a located
 * error.
 * A block malloc hands out starts with no accesses in the race detector's shadow, so memory
 * one thread freed is not a race with the next thread it goes to. */
#include <stdlib.h>
#include <string.h>
#include "sim/exec.h"

typedef struct ws_heap_block {
    uint64_t off, size;
    int used;
} ws_heap_block;

static int insert(ws_run *r, int at, ws_heap_block b)
{
    if (r->heap_nblocks == r->heap_cap) {
        int cap = r->heap_cap ? 2 * r->heap_cap : 64;
        ws_heap_block *p = realloc(r->heap_blocks, (size_t)cap * sizeof *p);
        if (!p)
            return WS_ERR_NOMEM;
        r->heap_blocks = p;
        r->heap_cap = cap;
    }
    memmove(&r->heap_blocks[at + 1], &r->heap_blocks[at],
            (size_t)(r->heap_nblocks - at) * sizeof *r->heap_blocks);
    r->heap_blocks[at] = b;
    r->heap_nblocks++;
    return WS_OK;
}

static void drop(ws_run *r, int at)
{
    memmove(&r->heap_blocks[at], &r->heap_blocks[at + 1],
            (size_t)(r->heap_nblocks - at - 1) * sizeof *r->heap_blocks);
    r->heap_nblocks--;
}

int ws_heap_malloc(ws_run *r, uint64_t size, uint64_t *addr)
{
    *addr = 0;
    if (!r->heap || size > WS_HEAP_BYTES)
        return WS_OK;
    const ws_alloc *a = &r->allocs[r->heap - 1];
    uint64_t need = size ? (size + 15) & ~(uint64_t)15 : 16;
    int rc = WS_OK;
    pthread_mutex_lock(&r->lock);
    if (!r->heap_nblocks)
        rc = insert(r, 0, (ws_heap_block){0, a->size, 0});
    for (int i = 0; rc == WS_OK && i < r->heap_nblocks; i++) {
        ws_heap_block *b = &r->heap_blocks[i];
        if (b->used || b->size < need)
            continue;
        if (b->size > need) {
            ws_heap_block rest = {b->off + need, b->size - need, 0};
            b->size = need;
            if ((rc = insert(r, i + 1, rest)) != WS_OK)
                break;
            b = &r->heap_blocks[i];
        }
        b->used = 1;
        *addr = a->base + b->off;
        uint64_t *sh = r->shadow_global ? r->shadow_global[r->heap - 1] : NULL;
        if (sh) /* 2 shadow words per 4 bytes */
            memset(sh + b->off / 4 * 2, 0, (size_t)(b->size / 4) * 2 * sizeof *sh);
        break;
    }
    pthread_mutex_unlock(&r->lock);
    return rc;
}

int ws_heap_free(ws_run *r, uint64_t addr, int *bad)
{
    *bad = 0;
    if (!addr) /* free(NULL) does nothing */
        return WS_OK;
    if (!r->heap) {
        *bad = 1;
        return WS_OK;
    }
    uint64_t base = r->allocs[r->heap - 1].base;
    pthread_mutex_lock(&r->lock);
    int at = -1;
    for (int i = 0; i < r->heap_nblocks && at < 0; i++)
        if (r->heap_blocks[i].used && base + r->heap_blocks[i].off == addr)
            at = i;
    if (at < 0) {
        *bad = 1;
    } else {
        ws_heap_block *b = r->heap_blocks;
        b[at].used = 0;
        if (at + 1 < r->heap_nblocks && !b[at + 1].used) { /* merge with the next */
            b[at].size += b[at + 1].size;
            drop(r, at + 1);
        }
        if (at > 0 && !b[at - 1].used) { /* and the one before */
            b[at - 1].size += b[at].size;
            drop(r, at);
        }
    }
    pthread_mutex_unlock(&r->lock);
    return WS_OK;
}

int ws_heap_call(ws_run *r, int is_malloc, uint64_t arg, uint64_t *result, char *msg, size_t n)
{
    *result = 0;
    if (is_malloc) {
        int rc = ws_heap_malloc(r, arg, result);
        if (rc)
            snprintf(msg, n, "out of memory (device heap)");
        return rc;
    }
    int bad;
    ws_heap_free(r, arg, &bad);
    if (!bad)
        return 0;
    snprintf(msg, n, "free of 0x%llx, which malloc did not return or which was freed already",
             (unsigned long long)arg);
    return WS_ERR_SIM;
}

/* call.uni (retval), malloc, (size) / call.uni free, (pointer): each lane in lane order, its
 * argument and result in the frame's .param scratch (as exec_printf.c reads vprintf's). */
int ws_x_heap_call(ws_warp *w, const ws_inst *in, uint32_t exec)
{
    ws_run *r = w->cta->run;
    const ws_frame *fr = &w->frames[w->nframes - 1];
    const ws_function *fn = ws_x_fn(w);
    uint64_t stride = r->fi[fr->fn].param_bytes, scratch0 = r->fi[fr->fn].param_block;
    int is_malloc = in->src[0].imm == WS_CALL_MALLOC;
    assert(in->src[1].sym >= 0 && in->src[2].imm == 1); /* the parser maps only these calls */
    const ws_var *pa = &fn->locals[in->src[1].sym];
    const ws_var *ret = in->ndst > 0 && in->dst[0].sym >= 0 ? &fn->locals[in->dst[0].sym] : NULL;
    WS_LANES(l, exec, {
        uint8_t *slot = fr->param + (size_t)l * stride + scratch0;
        uint64_t v = 0, p = 0;
        char msg[160];
        memcpy(&v, slot + pa->offset, pa->size < 8 ? pa->size : 8);
        int rc = ws_heap_call(r, is_malloc, v, &p, msg, sizeof msg);
        if (rc)
            return ws_x_fault(w, in, l, is_malloc ? 0 : v, rc, "%s", msg);
        if (is_malloc && ret)
            memcpy(slot + ret->offset, &p, ret->size < 8 ? ret->size : 8);
    });
    return 0;
}
