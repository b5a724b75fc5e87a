/* sequence.c — a launch sequence on the GPU: one module and one set of device buffers,
 * each launch of the variant retargeted, timed and (through a hook) profiled from the
 * state before it; `while` reads its flag back from device memory. The single-launch
 * run with its repeated timing is kernel.c's. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "backend/backend.h"

typedef struct ws_gpu_seq {
    ws_gpu_kernel *k;
    const ws_spec *s;
    ws_gpu_launch_hook hook;
    void *hook_ctx;
    ws_buffers *before;    /* hook: the device state before the launch (the outputs) */
    ws_result *sum;
} ws_gpu_seq;

static int seq_launch(void *ctx, const ws_launch *l, ws_error *err)
{
    ws_gpu_seq *q = ctx;
    ws_result one;
    double ns = 0;
    int spun = 0;
    ws_result_init(&one);
    int rc = ws_gpu_kernel_retarget(q->k, l->v, err);
    if (rc == WS_OK)
        ws_gpu_describe(q->k, q->s, l->v, &one);
    if (rc == WS_OK && q->hook) {
        rc = ws_gpu_kernel_read(q->k, q->before, err);
        if (rc == WS_OK)
            rc = q->hook(q->hook_ctx, q->k, l, &one, err);
        if (rc == WS_OK) /* profiling passes leave garbage: back to the state before */
            rc = ws_gpu_kernel_restore(q->k, err);
    }
    if (rc == WS_OK)
        rc = ws_gpu_kernel_time_once(q->k, &ns, &spun, err);
    if (rc == WS_OK) {
        int profiled = ws_result_metric(&one, WS_M(GPU_TIME_NS)) != NULL;
        ws_result_set_metric(&one, profiled ? WS_M(EVENT_MEDIAN_NS) : WS_M(GPU_TIME_NS), ns);
        ws_result_set_metric(&one, WS_M(EVENT_MIN_NS), ns);
        ws_result_set_metric(&one, WS_M(EVENT_REPEAT), 1);
        ws_result_set_metric(&one, WS_M(EVENT_BEHIND_SPIN), spun);
        if (ws_result_add_launch(q->sum, l, &one) != WS_OK)
            rc = ws_error_set(err, WS_ERR_NOMEM, "out of memory");
    }
    ws_result_free(&one);
    if (rc != WS_OK && rc != WS_ERR_NOMEM) {
        char msg[sizeof err->msg + 512];
        snprintf(msg, sizeof msg, "launch %d (%s%s%s): %s", l->index, l->v->kernel,
                 l->vars[0] ? ", " : "", l->vars, err->msg);
        msg[sizeof err->msg - 1] = '\0';
        memcpy(err->msg, msg, sizeof err->msg);
    }
    return rc;
}

static size_t elem_size(const ws_gpu_seq *q, int buffer)
{
    return ws_type_size(q->s->buffers[buffer].type);
}

static int seq_read(void *ctx, int buffer, uint64_t index, void *elem, ws_error *err)
{
    ws_gpu_seq *q = ctx;
    return ws_gpu_kernel_read_elem(q->k, buffer, index, elem, elem_size(q, buffer), err);
}

static int seq_write(void *ctx, int buffer, uint64_t index, const void *elem, ws_error *err)
{
    ws_gpu_seq *q = ctx;
    return ws_gpu_kernel_write_elem(q->k, buffer, index, elem, elem_size(q, buffer), err);
}

int ws_gpu_run_sequence(ws_gpu_kernel *k, const ws_spec *s, const ws_variant *v,
                        ws_gpu_launch_hook hook, void *hook_ctx, ws_buffers *out,
                        ws_result *res, ws_error *err)
{
    ws_gpu_seq q = {k, s, hook, hook_ctx, out, res};
    int rc = ws_gpu_kernel_restore(k, err);
    if (rc == WS_OK && hook)
        ws_gpu_kernel_use_inputs(k, out);
    ws_launch_host h = {&q, seq_launch, seq_read, seq_write};
    if (rc == WS_OK)
        rc = ws_variant_launches(s, v, &h, err);
    if (rc == WS_OK && ws_result_launches_finish(res) != WS_OK)
        rc = ws_error_set(err, WS_ERR_NOMEM, "out of memory");
    if (rc == WS_OK)
        rc = ws_gpu_kernel_read(k, out, err);
    return rc;
}
