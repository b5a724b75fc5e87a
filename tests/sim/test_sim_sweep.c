/* test_sim_sweep.c — tests/sim/cu/sweep.cu (the Math API sweep) on both models: the
 * integer kernel's results (division by constants and by variables, 64-bit multiply-high,
 * bit tricks, SIMD video intrinsics) and the double functions (sin, exp, log, pow, sqrt,
 * rsqrt, cbrt, division, conversions) must be equal between the models, word for word.
 * The PTX model builds rsqrt.approx.f64 and rcp.approx.ftz.f64 on the SFU's seed as ptxas
 * does, so rsqrt(double) agrees with the SASS model (and the GPU: tests/gpu/sweep.spec).
 * tanh.approx.f32 (fmath's slot 15) is the same on both. The rest of the float and half
 * kernels is not compared here: their other approximate instructions (MUFU) and ptxas's
 * contraction of mul and add into fma differ between the models by design. */
#include "tests/sim/sim_test.h"

static const char *const spec =
    "workload sweep\nsource sweep.cu\nseed 7\n"
    "buffer a u32 256 random_bits\nbuffer b u64 256 random_bits\n"
    "buffer o u32 4096 zero\nbuffer ob u64 2048 zero\n"
    "buffer fa f32 264 uniform_real 0.1 4\nbuffer fd f64 256 uniform_real 0.1 4\n"
    "buffer fo f32 4096 zero\nbuffer fod f64 2048 zero\n"
    "variant imath\n  kernel imath\n  grid 2\n  block 128\n  args a b o ob 256\n"
    "variant fmath\n  kernel fmath\n  grid 2\n  block 128\n  args fa fd fo fod 256\n";

/* Words of buffer `name` that differ between the two runs. */
static int differ(const st_run *p, const st_run *s, const char *name)
{
    const ws_buffer *a = st_buf(p, name), *b = st_buf(s, name);
    int n = 0;
    for (size_t i = 0; i + 4 <= a->bytes; i += 4)
        n += memcmp((const char *)a->data + i, (const char *)b->data + i, 4) != 0;
    return n;
}

int main(void)
{
    ws_module *ptx = st_load("sweep");
    ws_sass_module *sass = NULL;
    CHECK(ptx != NULL, "sweep.ptx loads");
    if (ptx && st_load_sass("sweep", "test_sim_sweep", &sass) == 0) {
        st_run p, s; /* tanh.approx.f32 */
        memset(&p, 0, sizeof p);
        memset(&s, 0, sizeof s);
        if (!st_exec_on(&p, ptx, NULL, spec, "fmath", NULL) &&
            !st_exec_on(&s, ptx, sass, spec, "fmath", NULL)) {
            const float *a = st_buf(&p, "fo")->data, *b = st_buf(&s, "fo")->data;
            int n = 0;
            for (int t = 0; t < 256; t++)
                n += memcmp(&a[16 * t + 15], &b[16 * t + 15], 4) != 0 || a[16 * t + 15] == 0.0f;
            CHECK(n == 0, "tanh.approx.f32: %d threads differ between the models", n);
        } else {
            CHECK(0, "fmath runs on both models: %s / %s", p.err.msg, s.err.msg);
        }
        st_free(&p);
        st_free(&s);
        static const char *const checks[][2] = {{"imath", "o"}, {"imath", "ob"},
                                                {"fmath", "fod"}};
        for (size_t i = 0; i < sizeof checks / sizeof *checks; i++) {
            st_run p, s;
            CHECK(st_exec_on(&p, ptx, NULL, spec, checks[i][0], NULL) == 0, "ptx %s: %s",
                  checks[i][0], p.err.msg);
            CHECK(st_exec_on(&s, ptx, sass, spec, checks[i][0], NULL) == 0, "sass %s: %s",
                  checks[i][0], s.err.msg);
            if (!p.rc && !s.rc) {
                int n = differ(&p, &s, checks[i][1]);
                CHECK(n == 0, "%s.%s: %d words differ between the models", checks[i][0],
                      checks[i][1], n);
                CHECK(st_buf(&p, checks[i][1])->bytes > 0, "%s written", checks[i][1]);
            }
            st_free(&p);
            st_free(&s);
        }
    }
    if (sass)
        ws_sass_module_free(sass);
    if (ptx)
        ws_module_free(ptx);
    return ws_test_finish("test_sim_sweep");
}
