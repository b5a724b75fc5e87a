/* gpu_texture_test.c — texture and surface objects on a real GPU (tests/gpu/ptx_texture.spec):
 * every variant run through the backend (CUDA arrays, CUtexObject/CUsurfObject) and through
 * the simulator on the same inputs, each checked buffer equal on both sides. With no GPU it
 * prints "skipped: no GPU" and exits 77 (ctest SKIP_RETURN_CODE). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "backend/backend.h"
#include "sim/sim.h"
#include "tests/check.h"

static void run_variant(ws_gpu *gpu, const ws_module *m, const char *ptx, const ws_spec *s,
                        const ws_variant *v, const ws_buffers *in)
{
    ws_error err;
    ws_error_clear(&err);
    ws_buffers gout, sout;
    ws_result gres, sres;
    ws_result_init(&gres);
    ws_result_init(&sres);
    CHECK(ws_buffers_clone(in, &gout, &err) == WS_OK && ws_buffers_clone(in, &sout, &err) == WS_OK,
          "clone");
    ws_gpu_kernel *k = NULL;
    int rc = ws_gpu_kernel_load(gpu, ptx, s, v, in, &k, &err);
    ws_gpu_run_options o;
    ws_gpu_run_options_default(&o);
    o.repeat = 2;
    if (rc == WS_OK)
        rc = ws_gpu_run(k, &o, &gout, &gres, &err);
    CHECK(rc == WS_OK, "%s on the GPU: %s", v->name, err.msg);
    ws_sim_options so;
    ws_sim_options_default(&so);
    int src = ws_sim_run(m, s, v, &sout, &so, &sres, &err);
    CHECK(src == WS_OK, "%s on the simulator: %s", v->name, err.msg);
    for (int i = 0; rc == WS_OK && src == WS_OK && i < in->n; i++) {
        if (!in->b[i].spec->is_output)
            continue;
        uint64_t at = 0;
        int eq = ws_buffer_equal(&gout.b[i], &sout.b[i], &at);
        CHECK(eq, "%s: '%s' differs between GPU and simulator at element %llu", v->name,
              in->b[i].spec->name, (unsigned long long)at);
    }
    printf("%s: %s\n", v->name, rc || src ? "failed" : "GPU and simulator outputs compared");
    ws_gpu_kernel_free(k);
    ws_result_free(&gres);
    ws_result_free(&sres);
    ws_buffers_free(&gout);
    ws_buffers_free(&sout);
}

int main(void)
{
    ws_error err;
    ws_error_clear(&err);
    char spec[WS_PATH_MAX], ptx[WS_PATH_MAX];
    const char *dir = getenv("WS_TEST_SOURCE_DIR");
    snprintf(spec, sizeof spec, "%s/tests/gpu/ptx_texture.spec", dir && *dir ? dir : WS_SOURCE_DIR);
    ws_spec *s = NULL;
    ws_module *m = NULL;
    int rc = ws_spec_load(spec, NULL, 0, &s, &err);
    if (rc == WS_OK)
        rc = ws_ptx_build(s, NULL, ptx, sizeof ptx, &err);
    if (rc == WS_OK)
        rc = ws_ptx_load(ptx, &m, &err);
    CHECK(rc == WS_OK, "texture workload: %s", err.msg);
    ws_gpu *gpu = NULL;
    if (ws_gpu_open(NULL, 0, &gpu, &err) != WS_OK) {
        printf("skipped: no GPU (%s)\n", err.msg);
        ws_module_free(m);
        ws_spec_free(s);
        return 77;
    }
    ws_buffers in;
    if (rc == WS_OK && (rc = ws_buffers_generate(s, &in, &err)) == WS_OK) {
        for (int i = 0; i < s->nvariants; i++)
            run_variant(gpu, m, ptx, s, &s->variants[i], &in);
        ws_buffers_free(&in);
    }
    ws_module_free(m);
    ws_spec_free(s);
    ws_gpu_close(gpu);
    return ws_test_finish("gpu_texture");
}
