/* test_sim_texture.c — texture and surface objects are not simulated yet: texture.cu loads,
 * its plain kernel runs, and launching a kernel that uses tex/suld/sust is one error naming
 * the instruction and its PTX line; the SASS model parses TEX/TLD/SULD/SUST and running
 * one is one error naming it, its SASS offset and source line. */
#include "tests/sim/sim_test.h"

static const char *SPEC =
    "workload texture\nsource texture.cu\n"
    "buffer t u64 1 zero\nbuffer f f32 64 zero\nbuffer o i32 64 zero\n"
    "variant plain\n  kernel plain\n  grid 1\n  block 64\n  args o\n"
    "variant t1\n  kernel t1\n  grid 1\n  block 32\n  args 0 f 32\n"
    "variant t2\n  kernel t2\n  grid 1\n  block 32\n  args 0 o 32\n"
    "variant t3\n  kernel t3\n  grid 1\n  block 32\n  args 0 f 32\n"
    "variant s2\n  kernel s2\n  grid 1\n  block 32\n  args 0 0 32\n";

static void test_ptx(ws_module *m)
{
    st_run r;
    int rc = st_exec(&r, m, SPEC, "plain", NULL);
    CHECK(rc == 0, "the plain kernel of texture.cu simulates");
    if (rc == 0) {
        const int *o = st_buf(&r, "o")->data;
        int bad = 0;
        for (int i = 0; i < 64; i++)
            bad += o[i] != 2 * i;
        CHECK(bad == 0, "plain outputs: %d wrong", bad);
    }
    st_free(&r);
    const char *const variants[] = {"t1", "t2", "t3", "s2"};
    const char *const insts[] = {"'tex.1d.v4.f32.s32'", "'tex.2d.v4.s32.f32'",
                                 "'tex.3d.v4.f32.f32'", "'suld.b.1d.b32.zero'"};
    for (int i = 0; i < 4; i++) {
        rc = st_exec(&r, m, SPEC, variants[i], NULL);
        CHECK(rc == WS_ERR_UNSUPPORTED && strstr(r.err.msg, "unsupported instruction") &&
                  strstr(r.err.msg, insts[i]) && r.err.line > 0,
              "%s: one error naming %s: %d %s", variants[i], insts[i], rc, r.err.msg);
        st_free(&r);
    }
}

static void test_sass(ws_module *m)
{
    char ptx_path[512], cubin[1024], sass_path[1024], probe[1024];
    if (!ws_nvdisasm_find(probe, sizeof probe)) {
        printf("test_sim_texture: SASS part skipped: no nvdisasm (%s)\n", probe);
        return;
    }
    snprintf(ptx_path, sizeof ptx_path, "%s/texture.ptx", WS_SIM_PTX_DIR);
    ws_error err;
    ws_error_clear(&err);
    ws_sass_module *sass = NULL;
    int rc = ws_sass_build_ptx(ptx_path, NULL, NULL, cubin, sass_path, sizeof cubin, &err);
    if (!rc)
        rc = ws_sass_load(sass_path, cubin, &sass, &err);
    CHECK(rc == 0, "texture.cu's SASS builds and loads: %s", err.msg);
    const char *const variants[] = {"plain", "t2", "s2"};
    const char *const ops[] = {NULL, "TEX", "SULD"};
    for (int i = 0; i < 3 && !rc; i++) {
        st_run r;
        memset(&r, 0, sizeof r);
        ws_result_init(&r.res);
        r.rc = ws_spec_parse(SPEC, WS_SIM_CU_DIR "/inline.spec", NULL, 0, &r.spec, &r.err);
        if (!r.rc)
            r.rc = ws_buffers_generate(r.spec, &r.bufs, &r.err);
        const ws_variant *v = r.rc ? NULL : ws_spec_variant(r.spec, variants[i], &r.err);
        ws_sim_options o;
        ws_sim_options_default(&o);
        o.threads = 1;
        int src = v ? ws_sim_run_sass(m, sass, r.spec, v, &r.bufs, &o, &r.res, &r.err) : -1;
        char buf[800];
        ws_error_format(&r.err, buf, sizeof buf);
        if (!ops[i])
            CHECK(src == 0, "the plain kernel runs in the SASS model: %s", buf);
        else
            CHECK(src == WS_ERR_UNSUPPORTED && strstr(buf, ops[i]) &&
                      strstr(buf, "texture.cu:") && strstr(buf, "--model ptx") &&
                      strstr(buf, "at SASS 0x"),
                  "SASS %s: one error naming it: %d %s", ops[i], src, buf);
        st_free(&r);
    }
    if (sass)
        ws_sass_module_free(sass);
}

int main(void)
{
    ws_module *m = st_load("texture");
    CHECK(m != NULL, "texture.ptx loads although four of its kernels are unsupported");
    if (m) {
        test_ptx(m);
        test_sass(m);
        ws_module_free(m);
    }
    return ws_test_finish("test_sim_texture");
}
