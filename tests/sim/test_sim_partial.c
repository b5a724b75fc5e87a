/* test_sim_partial.c — per-kernel loading: a module whose kernels use what the simulator
 * does not support (wmma; a .func with tanh.approx.bf16x2) loads; its plain kernel simulates, and
 * launching the others gives one error naming the construct and its PTX file:line. Its
 * grid-sync kernel loads too, and traps with a hint when the launch is not cooperative. */
#include "tests/sim/sim_test.h"

static const char *SPEC =
    "workload mixed\nsource mixed.cu\n"
    "buffer in i32 64 iota\nbuffer out i32 64 zero\nbuffer h u16 256 zero\n"
    "buffer f f32 256 zero\n"
    "variant plain\n  kernel plain_scale\n  grid 2\n  block 32\n  args in out\n"
    "variant tensor\n  kernel tensor_tile\n  grid 1\n  block 32\n  args h h f\n"
    "variant tanh\n  kernel calls_tanh\n  grid 1\n  block 32\n  args f f\n"
    "variant gsync\n  kernel grid_sync\n  grid 2\n  block 32\n  args in out\n";

/* The text of PTX line `line` of the module's file holds `what`. */
static int ptx_line_has(const char *line_of, int line, const char *what)
{
    FILE *fp = fopen(line_of, "r");
    char buf[4096];
    int n = 0, ok = 0;
    while (fp && fgets(buf, sizeof buf, fp))
        if (++n == line) {
            ok = strstr(buf, what) != NULL;
            break;
        }
    if (fp)
        fclose(fp);
    return ok;
}

static void test_refused(ws_module *m, const char *variant, const char *kernel,
                         const char *what, const char *construct, const char *also)
{
    st_run r;
    int rc = st_exec(&r, m, SPEC, variant, NULL);
    char buf[1024];
    ws_error_format(&r.err, buf, sizeof buf);
    CHECK(rc == WS_ERR_UNSUPPORTED, "%s refused at launch: %d %s", kernel, rc, buf);
    CHECK(strstr(r.err.msg, what) && strstr(r.err.msg, construct) &&
              strcmp(r.err.kernel, kernel) == 0 && strstr(r.err.file, "mixed.ptx") &&
              (!also || strstr(r.err.msg, also)) && !strchr(buf, '\n'),
          "one line naming '%s': %s", construct, buf);
    CHECK(ptx_line_has(r.err.file, r.err.line, construct), "PTX line %d holds '%s'",
          r.err.line, construct);
    printf("  %s\n", buf);
    st_free(&r);
}

int main(void)
{
    ws_module *m = st_load("mixed");
    CHECK(m != NULL, "mixed.ptx loads although two of its kernels are unsupported");
    if (!m)
        return ws_test_finish("test_sim_partial");
    st_run r;
    int rc = st_exec(&r, m, SPEC, "plain", NULL);
    CHECK(rc == 0, "plain_scale simulates: %s", r.err.msg);
    if (rc == 0) {
        const int *out = (const int *)st_buf(&r, "out")->data;
        int bad = -1;
        for (int i = 0; i < 64 && bad < 0; i++)
            if (out[i] != 3 * i)
                bad = i;
        CHECK(bad < 0, "out[%d] = %d", bad, bad >= 0 ? out[bad] : 0);
    }
    st_free(&r);
    test_refused(m, "tensor", "tensor_tile", "unsupported instruction", "wmma.load.a", NULL);
    test_refused(m, "tanh", "calls_tanh", "unsupported instruction", "tanh.approx.bf16x2",
                 "in function '_Z9fast_tanhf'");
    rc = st_exec(&r, m, SPEC, "gsync", NULL);
    CHECK(rc == WS_ERR_SIM && strstr(r.err.msg, "add 'cooperative' to the variant"),
          "grid sync in a launch that is not cooperative: %d %s", rc, r.err.msg);
    st_free(&r);
    ws_error e;
    int ok = 0, refused = 0;
    for (int i = 0; i < ws_module_entry_count(m); i++) {
        int c = ws_module_entry_check(m, i, &e);
        ok += c == WS_OK;
        refused += c == WS_ERR_UNSUPPORTED;
    }
    CHECK(ok == 2 && refused == 2, "entries: %d runnable, %d refused", ok, refused);
    ws_module_free(m);
    return ws_test_finish("test_sim_partial");
}
