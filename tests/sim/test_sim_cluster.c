/* test_sim_cluster.c — tests/sim/cu/cluster.cu on both models: thread-block cluster code in
 * a launch without clusters (every CTA a cluster of one, as on the GPU) runs, with the
 * values the GPU gives: the Programming Guide's distributed-shared-memory histogram against
 * the CPU, the cluster special registers, and an atomicAdd through a generic pointer into
 * shared memory (SASS ATOM.E ... PT: every lane done; the model had dropped the shared
 * ones). A kernel compiled for clusters of two, and a map to CTA rank 1, are refused with
 * one clear error on each model. */
#include "tests/sim/sim_test.h"

static const char *const spec =
    "workload cluster\nsource cluster.cu\n"
    "buffer bins i32 64 zero\nbuffer input i32 4096 uniform_int -5 70\n"
    "buffer o u32 72 zero\nbuffer gout i32 36 zero\nbuffer po i32 64 zero\n"
    "variant chist\n  kernel chist\n  grid 4\n  block 128\n  smem 256\n"
    "  args bins 64 64 input 4096\n"
    "variant csr\n  kernel csr\n  grid 3 2\n  block 32\n  args o\n"
    "variant gatomic\n  kernel gatomic\n  grid 1\n  block 64\n  args gout 3\n"
    "variant cpair\n  kernel cpair\n  grid 2\n  block 32\n  args po\n"
    "variant cfar\n  kernel cfar\n  grid 1\n  block 32\n  args po\n";

static void test_model(ws_module *ptx, ws_sass_module *sass)
{
    const char *m = sass ? "sass" : "ptx";
    st_run r;
    CHECK(st_exec_on(&r, ptx, sass, spec, "chist", NULL) == 0, "%s: chist runs: %s", m,
          r.err.msg);
    if (!r.rc) {
        const int32_t *in = st_buf(&r, "input")->data, *bins = st_buf(&r, "bins")->data;
        int32_t want[64] = {0};
        for (int i = 0; i < 4096; i++)
            want[in[i] < 0 ? 0 : in[i] > 63 ? 63 : in[i]]++;
        CHECK(!memcmp(bins, want, sizeof want), "%s: the cluster histogram equals the CPU's "
              "(bin 0: %d, want %d)", m, bins[0], want[0]);
    }
    st_free(&r);
    CHECK(st_exec_on(&r, ptx, sass, spec, "csr", NULL) == 0, "%s: csr runs: %s", m, r.err.msg);
    if (!r.rc) {
        const uint32_t *o = st_buf(&r, "o")->data;
        int bad = 0;
        for (int by = 0; by < 2; by++)
            for (int bx = 0; bx < 3; bx++) {
                const uint32_t *p = o + 12 * (bx + 3 * by);
                uint32_t want[12] = {0, 1, 1, 0, (uint32_t)bx, (uint32_t)by, 3, 2, 0, 1, 0, 5};
                for (int i = 0; i < 12; i++)
                    if (p[i] != want[i] && bad++ < 4)
                        CHECK(0, "%s: CTA (%d,%d) cluster value %d: %u, want %u", m, bx, by, i,
                              p[i], want[i]);
            }
        CHECK(bad == 0, "%s: the cluster registers of a launch without clusters", m);
    }
    st_free(&r);
    CHECK(st_exec_on(&r, ptx, sass, spec, "gatomic", NULL) == 0, "%s: gatomic runs: %s", m,
          r.err.msg);
    if (!r.rc) {
        const int32_t *g = st_buf(&r, "gout")->data;
        int bad = 0;
        for (int i = 0; i < 36; i++)
            bad += g[i] != (i < 32 ? 2 : 32);
        CHECK(bad == 0, "%s: atomicAdd through a generic pointer, shared and global: %d "
              "wrong (s[0] %d, want 2; out[32] %d, want 32)", m, bad, g[0], g[32]);
    }
    st_free(&r);
    CHECK(st_exec_on(&r, ptx, sass, spec, "cpair", NULL) == WS_ERR_UNSUPPORTED &&
          strstr(r.err.msg, "thread-block clusters of 2 CTAs") &&
          strstr(r.err.msg, "clusters are not modelled"), "%s: a kernel of 2-CTA clusters is "
          "refused: %s", m, r.err.msg);
    st_free(&r);
    CHECK(st_exec_on(&r, ptx, sass, spec, "cfar", NULL) == WS_ERR_SIM &&
          strstr(r.err.msg, "rank 1") && strstr(r.err.msg, "clusters of one CTA"),
          "%s: a map to CTA rank 1 faults: %s", m, r.err.msg);
    st_free(&r);
}

int main(void)
{
    ws_module *ptx = st_load("cluster");
    CHECK(ptx != NULL, "cluster.ptx loads");
    if (!ptx)
        return ws_test_finish("test_sim_cluster");
    test_model(ptx, NULL);
    ws_sass_module *sass = NULL;
    if (st_load_sass("cluster", "test_sim_cluster", &sass) == 0) {
        test_model(ptx, sass);
        ws_sass_module_free(sass);
    }
    ws_module_free(ptx);
    return ws_test_finish("test_sim_cluster");
}
