/* activity.c — kernel durations from CUPTI's Activity API (CONCURRENT_KERNEL records:
 * end - start on the GPU's clock), without the events' launch overhead. CUPTI's buffer
 * callbacks take no user pointer, so the one collection in flight lives in a file-scope
 * struct; collections are not reentrant. Not counters (range.c, sass.c). */
#include <stdlib.h>
#include <string.h>
#include <cupti_activity.h>
#include "profiler/profiler_internal.h"

#define WS_ACTIVITY_BUFFER (1u << 20)
#define WS_ACTIVITY_MAX 256

static struct {
    int n;
    double ns[WS_ACTIVITY_MAX];
} collected;

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    *buffer = aligned_alloc(8, WS_ACTIVITY_BUFFER);
    *size = *buffer ? WS_ACTIVITY_BUFFER : 0;
    *max_records = 0;
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer,
                                      size_t size, size_t valid)
{
    CUpti_Activity *rec = NULL;
    while (cuptiActivityGetNextRecord(buffer, valid, &rec) == CUPTI_SUCCESS) {
        if (rec->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL && rec->kind != CUPTI_ACTIVITY_KIND_KERNEL)
            continue;
        const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)rec;
        if (collected.n < WS_ACTIVITY_MAX && k->end > k->start)
            collected.ns[collected.n++] = (double)(k->end - k->start);
    }
    free(buffer);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int ws_prof_activity_duration(const ws_prof_target *t, int launches, double *median_ns,
                              ws_error *err)
{
    CUptiResult r = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
    if (r != CUPTI_SUCCESS)
        return ws_cupti_error(err, "cuptiActivityRegisterCallbacks", (int)r);
    memset(&collected, 0, sizeof collected);
    r = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    if (r != CUPTI_SUCCESS)
        return ws_cupti_error(err, "cuptiActivityEnable", (int)r);
    for (int i = 0; i < launches && err->code == WS_OK; i++)
        if (t->restore(t->self, err) == WS_OK)
            t->launch(t->self, err);
    cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    r = cuptiActivityFlushAll(1);
    if (err->code != WS_OK)
        return err->code;
    if (r != CUPTI_SUCCESS)
        return ws_cupti_error(err, "cuptiActivityFlushAll", (int)r);
    if (collected.n == 0)
        return ws_error_set(err, WS_ERR_CUPTI, "CUPTI activity: no kernel record for %s",
                            t->entry);
    qsort(collected.ns, (size_t)collected.n, sizeof collected.ns[0], cmp_double);
    *median_ns = collected.ns[collected.n / 2];
    return WS_OK;
}
