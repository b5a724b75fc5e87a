/* test_sim_heap.c — tests/sim/cu/heap.cu on both models: per-thread blocks, a CTA's block
 * shared through shared memory, 64 MiB of malloc/free through the 8 MiB heap (free gives
 * memory back), a pointer for malloc(0) and NULL for more than the heap holds (as an H200
 * gives), and a second free of
 * one block stopping the run with the lane that made it. */
#include <string.h>
#include "tests/sim/sim_test.h"

static const char *const spec =
    "workload heap\nsource heap.cu\n"
    "buffer own i32 256 zero\nbuffer cta i32 4 zero\nbuffer reuse i32 513 zero\n"
    "buffer df i32 32 zero\n"
    "variant own\n  kernel heap_own\n  grid 2\n  block 128\n  args own\n"
    "variant cta\n  kernel heap_cta\n  grid 4\n  block 96\n  args cta\n"
    "variant reuse\n  kernel heap_reuse\n  grid 4\n  block 128\n  args reuse\n"
    "variant double_free\n  kernel heap_double_free\n  grid 1\n  block 32\n  args df\n";

static void run(ws_module *m, ws_sass_module *sass, const char *name)
{
    st_run r;
    int rc = st_exec_on(&r, m, sass, spec, "own", NULL);
    CHECK(rc == 0, "%s: heap_own runs: %s", name, r.err.msg);
    if (!rc) {
        const int *o = st_buf(&r, "own")->data;
        int bad = 0;
        for (int t = 0; t < 256; t++) {
            int n = t % 7 + 1;
            bad += o[t] != t * n * (n + 1) / 2;
        }
        CHECK(bad == 0, "%s: each thread's own block: %d wrong", name, bad);
    }
    st_free(&r);
    rc = st_exec_on(&r, m, sass, spec, "cta", NULL);
    CHECK(rc == 0, "%s: heap_cta runs: %s", name, r.err.msg);
    if (!rc) {
        const int *o = st_buf(&r, "cta")->data;
        int bad = 0;
        for (int b = 0; b < 4; b++) {
            int want = 0;
            for (int t = 0; t < 96; t++)
                want += t * t + b;
            bad += o[b] != want;
        }
        CHECK(bad == 0, "%s: a CTA's block through shared memory: %d wrong", name, bad);
    }
    st_free(&r);
    rc = st_exec_on(&r, m, sass, spec, "reuse", NULL);
    CHECK(rc == 0, "%s: heap_reuse runs: %s", name, r.err.msg);
    if (!rc) {
        const int *o = st_buf(&r, "reuse")->data;
        int bad = 0;
        for (int t = 0; t < 512; t++)
            bad += o[t] != 64;
        CHECK(bad == 0, "%s: 64 MiB through the 8 MiB heap: %d threads short", name, bad);
        CHECK(o[512] == 2, "%s: malloc(0) is not NULL, malloc(16 MiB) is, as on an H200 (%d)",
              name, o[512]);
        int warned = 0;
        for (int i = 0; i < r.res.nwarnings; i++)
            warned |= strstr(r.res.warnings[i], "model caveat: malloc and free ran 65538 times") != NULL;
        CHECK(!sass || warned, "sass: a caveat says the heap's time is not priced");
    }
    st_free(&r);
    rc = st_exec_on(&r, m, sass, spec, "double_free", NULL);
    CHECK(rc == WS_ERR_SIM && strstr(r.err.msg, "which malloc did not return or which was freed "
                                     "already") && r.err.has_thread && r.err.lane == 3,
          "%s: a second free stops the run at lane 3: rc %d, %s", name, rc, r.err.msg);
    st_free(&r);
}

int main(void)
{
    ws_module *m = st_load("heap");
    CHECK(m != NULL, "heap.ptx loads");
    if (!m)
        return ws_test_finish("test_sim_heap");
    run(m, NULL, "ptx");
    ws_sass_module *sass = NULL;
    if (st_load_sass("heap", "test_sim_heap", &sass) == 0) {
        run(m, sass, "sass");
        ws_sass_module_free(sass);
    }
    ws_module_free(m);
    return ws_test_finish("test_sim_heap");
}
