/* inject_mem.c — the device memory an application's launches reach: the allocations it
 * made (tracked from cuMemAlloc/cuMemFree callbacks), the ones a launch's parameter block
 * points into, and snapshots of them read from and written back to the device. */
#include <stdlib.h>
#include <string.h>
#include "profiler/inject/inject.h"

int ws_inj_cu_fail(ws_error *err, CUresult r, const char *what)
{
    const char *name = NULL;
    if (cuGetErrorName(r, &name) != CUDA_SUCCESS || !name)
        name = ws_cu_result_name((int)r);
    return ws_error_set(err, WS_ERR_GPU, "%s failed: %s (%d)", what, name, (int)r);
}

void ws_inj_alloc_add(ws_inject *in, CUdeviceptr base, size_t size)
{
    if (in->nallocs == in->cap_allocs) {
        int cap = in->cap_allocs ? 2 * in->cap_allocs : 64;
        ws_inj_alloc *p = realloc(in->allocs, (size_t)cap * sizeof *p);
        if (!p)
            return; /* untracked: launches reaching it capture less */
        in->allocs = p;
        in->cap_allocs = cap;
    }
    in->allocs[in->nallocs++] = (ws_inj_alloc){base, size};
}

void ws_inj_alloc_remove(ws_inject *in, CUdeviceptr base)
{
    for (int i = 0; i < in->nallocs; i++)
        if (in->allocs[i].base == base) {
            in->allocs[i] = in->allocs[--in->nallocs];
            return;
        }
}

static int add_region(ws_capture_region **regions, int *n, const ws_inj_alloc *a, ws_error *err)
{
    for (int i = 0; i < *n; i++)
        if ((*regions)[i].address == a->base)
            return WS_OK;
    ws_capture_region *p = realloc(*regions, (size_t)(*n + 1) * sizeof *p);
    if (!p)
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory for a memory region");
    *regions = p;
    ws_capture_region *g = &p[(*n)++];
    memset(g, 0, sizeof *g);
    g->address = a->base;
    g->size = a->size;
    g->before = malloc(a->size ? a->size : 1);
    if (!g->before)
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory for a %zu-byte allocation", a->size);
    CUresult r = a->size ? cuMemcpyDtoH(g->before, a->base, a->size) : CUDA_SUCCESS;
    return r == CUDA_SUCCESS ? WS_OK : ws_inj_cu_fail(err, r, "reading device memory (cuMemcpyDtoH)");
}

/* The allocation holding `word`: a tracked one, else the driver's (cuMemGetAddressRange),
 * for memory allocated by calls the library does not see. 0 when `word` is no device
 * address. */
static int allocation_of(ws_inject *in, uint64_t word, ws_inj_alloc *out)
{
    for (int i = 0; i < in->nallocs; i++)
        if (word >= in->allocs[i].base && word - in->allocs[i].base < in->allocs[i].size) {
            *out = in->allocs[i];
            return 1;
        }
    CUdeviceptr base;
    size_t size;
    if (word < 4096 || cuMemGetAddressRange(&base, &size, (CUdeviceptr)word) != CUDA_SUCCESS)
        return 0;
    *out = (ws_inj_alloc){base, size};
    return 1;
}

static int add_reachable(ws_inject *in, const ws_inj_launch *l, ws_capture_region **regions,
                         int *n, ws_error *err)
{
    for (size_t off = 0; off + 8 <= l->param_bytes; off += 8) {
        uint64_t word;
        ws_inj_alloc a;
        memcpy(&word, l->params + off, 8);
        if (allocation_of(in, word, &a) && add_region(regions, n, &a, err) != WS_OK)
            return err->code;
    }
    return WS_OK;
}

int ws_inj_reachable(ws_inject *in, const ws_inj_launch *l, ws_capture_region **regions,
                     int *n, ws_error *err)
{
    *regions = NULL;
    *n = 0;
    return add_reachable(in, l, regions, n, err);
}

int ws_inj_snapshot_all(ws_inject *in, const ws_inj_launch *l, ws_capture_region **regions,
                        int *n, ws_error *err)
{
    *regions = NULL;
    *n = 0;
    for (int i = 0; i < in->nallocs; i++)
        if (add_region(regions, n, &in->allocs[i], err) != WS_OK)
            return err->code;
    return add_reachable(in, l, regions, n, err);
}

int ws_inj_regions_copy(ws_capture_region *regions, int n, int after, ws_error *err)
{
    for (int i = 0; i < n; i++) {
        ws_capture_region *g = &regions[i];
        if (!g->size)
            continue;
        CUresult r;
        if (!after) {
            r = cuMemcpyHtoD(g->address, g->before, g->size);
        } else {
            if (!g->after && !(g->after = malloc(g->size)))
                return ws_error_set(err, WS_ERR_NOMEM, "out of memory for memory after a launch");
            r = cuMemcpyDtoH(g->after, g->address, g->size);
        }
        if (r != CUDA_SUCCESS)
            return ws_inj_cu_fail(err, r, after ? "reading device memory after the launch"
                                                : "restoring device memory");
    }
    return WS_OK;
}

void ws_inj_regions_free(ws_capture_region *regions, int n)
{
    for (int i = 0; i < n; i++) {
        free(regions[i].before);
        free(regions[i].after);
    }
    free(regions);
}
