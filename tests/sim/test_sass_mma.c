/* test_sass_mma.c — the SASS model's HMMA on real ptxas output (tests/sim/cu/mma.cu): wmma
 * tiles with f16 inputs into f32 and f16 accumulators (HMMA.16816.F32 / .F16), bf16 inputs
 * (HMMA.16816.F32.BF16) and tf32 inputs (HMMA.1684.F32.TF32) compute C = A x B + C equal to
 * a product computed here; the inputs are small integers, exact in every format, so the
 * results are exact. A tile run by part of a warp is one clear error. Skipped without
 * nvdisasm. */
#include "sim/sass_arith.h"
#include "tests/sim/sim_test.h"

static ws_module *ptx;
static ws_sass_module *sass;

static const char spec[] =
    "workload mma\nsource mma.cu\n"
    "buffer a u32 256 zero\nbuffer b u32 256 zero\nbuffer c u32 256 zero\n"
    "variant f16_f32\n  kernel mma_f16_f32\n  grid 1\n  block 32\n  args a b c\n"
    "variant f16_f16\n  kernel mma_f16_f16\n  grid 1\n  block 32\n  args a b c\n"
    "variant bf16\n  kernel mma_bf16\n  grid 1\n  block 32\n  args a b c\n"
    "variant tf32\n  kernel mma_tf32\n  grid 1\n  block 32\n  args a b c\n"
    "variant part\n  kernel mma_f16_f32\n  grid 1\n  block 16\n  args a b c\n";

enum { F16, BF16, F32 };

static void put(void *buf, int i, int kind, int v)
{
    if (kind == F32) {
        float f = (float)v;
        memcpy((float *)buf + i, &f, sizeof f);
    } else {
        ((uint16_t *)buf)[i] = kind == F16 ? ws_sass_double_to_half(v) : ws_sass_double_to_bf16(v);
    }
}

static double get(const void *buf, int i, int kind)
{
    if (kind == F32) {
        float f;
        memcpy(&f, (const float *)buf + i, sizeof f);
        return f;
    }
    return ws_sass_half_to_float(((const uint16_t *)buf)[i]);
}

/* Runs `variant` on A (16 x k row-major), B (k x 16 column-major) and C (16 x 16 row-major),
 * all leading dimension 16, inputs of type `in`, C and D of type `acc`; checks D = AB + C. */
static void tile(const char *variant, int k, int in, int acc)
{
    st_run r;
    memset(&r, 0, sizeof r);
    ws_error_clear(&r.err);
    ws_result_init(&r.res);
    r.rc = ws_spec_parse(spec, WS_SIM_CU_DIR "/inline.spec", NULL, 0, &r.spec, &r.err);
    if (!r.rc)
        r.rc = ws_buffers_generate(r.spec, &r.bufs, &r.err);
    const ws_variant *v = r.rc ? NULL : ws_spec_variant(r.spec, variant, &r.err);
    int ea[256], eb[256], ec[256];
    if (!r.rc && v) {
        void *a = (void *)st_buf(&r, "a")->data, *b = (void *)st_buf(&r, "b")->data;
        void *c = (void *)st_buf(&r, "c")->data;
        for (int i = 0; i < 256; i++) {
            ea[i] = (i * 37 + i / 16 + 11) % 7 - 3; /* -3 .. 3, no row or column alike */
            eb[i] = (i * 13 + i / 16 * 3 + 5) % 5 - 2; /* -2 .. 2 */
            ec[i] = i % 11 - 5;
            put(a, i, in, ea[i]);
            put(b, i, in, eb[i]);
            put(c, i, acc, ec[i]);
        }
        ws_sim_options o;
        ws_sim_options_default(&o);
        o.threads = 1;
        r.rc = ws_sim_run_sass(ptx, sass, r.spec, v, &r.bufs, &o, &r.res, &r.err);
    }
    if (r.rc) {
        char buf[800];
        ws_error_format(&r.err, buf, sizeof buf);
        CHECK(0, "%s runs: %s", variant, buf);
    } else {
        const void *d = st_buf(&r, "c")->data;
        int bad = 0;
        for (int m = 0; m < 16; m++)
            for (int n = 0; n < 16; n++) {
                int want = ec[m * 16 + n];
                for (int x = 0; x < k; x++)
                    want += ea[m * 16 + x] * eb[n * 16 + x];
                double got = get(d, m * 16 + n, acc);
                if (got != want && bad++ < 3)
                    fprintf(stderr, "  %s D[%d][%d] = %g, want %d\n", variant, m, n, got, want);
            }
        CHECK(bad == 0, "%s: D = A x B + C at every element (%d wrong)", variant, bad);
        int hmma = 0;
        for (int i = 0; i < r.res.ninsts; i++)
            hmma += !strncmp(r.res.insts[i].text, "HMMA", 4) && r.res.insts[i].issued == 1;
        CHECK(hmma >= 2, "%s: the tile ran as HMMA instructions (%d)", variant, hmma);
    }
    st_free(&r);
}

static void test_part_warp(void)
{
    st_run r;
    memset(&r, 0, sizeof r);
    ws_error_clear(&r.err);
    ws_result_init(&r.res);
    r.rc = ws_spec_parse(spec, WS_SIM_CU_DIR "/inline.spec", NULL, 0, &r.spec, &r.err);
    if (!r.rc)
        r.rc = ws_buffers_generate(r.spec, &r.bufs, &r.err);
    const ws_variant *v = r.rc ? NULL : ws_spec_variant(r.spec, "part", &r.err);
    ws_sim_options o;
    ws_sim_options_default(&o);
    o.threads = 1;
    int rc = v ? ws_sim_run_sass(ptx, sass, r.spec, v, &r.bufs, &o, &r.res, &r.err) : -1;
    CHECK(rc != 0 && strstr(r.err.msg, "HMMA") && strstr(r.err.msg, "all 32 lanes"),
          "HMMA by 16 lanes: one error naming it (%s)", r.err.msg);
    st_free(&r);
}

int main(void)
{
    ptx = st_load("mma");
    CHECK(ptx != NULL, "mma.ptx loads");
    int rc = ptx ? st_load_sass("mma", "test_sass_mma", &sass) : -1;
    if (rc == 1) {
        printf("test_sass_mma: skipped: no nvdisasm\n");
        return 0;
    }
    if (rc == 0) {
        tile("f16_f32", 16, F16, F32);
        tile("f16_f16", 16, F16, F16);
        tile("bf16", 16, BF16, F32);
        tile("tf32", 8, F32, F32);
        test_part_warp();
    }
    if (sass)
        ws_sass_module_free(sass);
    if (ptx)
        ws_module_free(ptx);
    return ws_test_finish("test_sass_mma");
}
