/* test_sim_printf.c — the device printf: printf.cu's output, captured, equals the host's
 * printf of the same values with the same formats, lane by lane in lane order; past the
 * 1 MiB limit the rest is dropped with a warning; on the SASS model a caveat says the GPU's
 * kernel totals count vprintf's own instructions. */
#include "tests/sim/sim_test.h"

static const char *SPEC =
    "workload printf\nsource printf.cu\n"
    "buffer x i32 32 uniform_int -100000 100000\nbuffer f f32 32 uniform_real -10 10\n"
    "buffer s u8 3 iota 98 -49\n"
    "variant prints\n  kernel prints\n  grid 1\n  block 32\n  args x f s\n"
    "variant floods\n  kernel floods\n  grid 64\n  block 256\n  args 2\n";

/* Runs `variant` with printf going to a temporary file; returns its text (to free). */
static char *run_captured(ws_module *m, const char *variant, st_run *r)
{
    ws_sim_options o;
    ws_sim_options_default(&o);
    o.threads = 1;
    o.printf_to = tmpfile();
    if (!o.printf_to)
        return NULL;
    int rc = st_exec(r, m, SPEC, variant, &o);
    CHECK(rc == 0, "%s simulates: %s", variant, r->err.msg);
    long n = ftell(o.printf_to);
    char *text = calloc((size_t)(n > 0 ? n : 0) + 1, 1);
    rewind(o.printf_to);
    if (text && n > 0 && fread(text, 1, (size_t)n, o.printf_to) != (size_t)n)
        text[0] = 0;
    fclose(o.printf_to);
    return text;
}

static void test_prints(ws_module *m)
{
    st_run r;
    char *got = run_captured(m, "prints", &r);
    const int *x = (const int *)st_buf(&r, "x")->data;
    const float *f = (const float *)st_buf(&r, "f")->data;
    size_t cap = 1 << 16, len = 0;
    char *want = calloc(cap, 1);
    for (int t = 0; t < 32 && want; t++)
        len += (size_t)snprintf(want + len, cap - len,
                                "t%d x=%5d f=%.3f e=%e s=%s c=%c u=%u h=%#x ll=%lld w=%*d p%%\n",
                                t, x[t], f[t], (double)f[t] * 1e10, "b1", 'A' + t, (unsigned)-t,
                                t * 255, (long long)x[t] * 1099511627776LL, 4, t);
    for (int t = 1; t < 32 && want; t += 2)
        len += (size_t)snprintf(want + len, cap - len, "odd %d of %s\n", t, t > 2 ? "many" : "few");
    for (int t = 0; t < 32 && want; t++)
        len += (size_t)snprintf(want + len, cap - len, "plain\n");
    if (want) /* printf returns the number of arguments it read */
        len += (size_t)snprintf(want + len, cap - len, "returned 11\n");
    if (want)
        len += (size_t)snprintf(want + len, cap - len, "nil=(nil)|   (nil)|\n");
    for (int t = 0; t < 2 && want; t++)
        len += (size_t)snprintf(want + len, cap - len, "short %hd %hhd %hu %hhx %-6s|\n",
                                (short)x[t], (signed char)x[t], (unsigned short)x[t],
                                (unsigned char)x[t], "ab");
    int same = got && want && strcmp(got, want) == 0;
    CHECK(same, "printf output equals the host's");
    if (!same && got && want) {
        size_t i = 0;
        while (got[i] && got[i] == want[i])
            i++;
        printf("  first difference at byte %zu:\n  got  '%.80s'\n  want '%.80s'\n", i, got + i,
               want + i);
    }
    free(got);
    free(want);
    st_free(&r);
}

static void test_flood(ws_module *m)
{
    st_run r;
    char *got = run_captured(m, "floods", &r);
    size_t n = got ? strlen(got) : 0, line = strlen("block    0 thread    0 line    0 of a long run\n");
    CHECK(n == 1u << 20, "printed %zu bytes, the limit is 1 MiB (of %zu)", n, 64 * 256 * 2 * line);
    int warned = 0;
    for (int i = 0; i < r.res.nwarnings; i++)
        warned |= strstr(r.res.warnings[i], "printf: ") &&
                  strstr(r.res.warnings[i], "bytes past the first 1048576 dropped") != NULL;
    CHECK(warned, "a warning says printf output was dropped");
    CHECK(got && strncmp(got, "block    0 thread    0 line    0 of a long run\n", line) == 0,
          "first line: %.60s", got ? got : "");
    free(got);
    st_free(&r);
}

/* On the SASS model a run that printed says that the GPU's kernel totals also count
 * vprintf's own instructions (a model caveat with the number of warp-level calls); the
 * output is the same as the PTX model's. */
static void test_sass_caveat(ws_module *m)
{
    ws_sass_module *sass = NULL;
    if (st_load_sass("printf", "test_sim_printf", &sass) != 0)
        return;
    ws_sim_options o;
    ws_sim_options_default(&o);
    o.threads = 1;
    o.printf_to = tmpfile();
    CHECK(o.printf_to != NULL, "a temporary file for printf");
    if (!o.printf_to) {
        ws_sass_module_free(sass);
        return;
    }
    st_run r;
    int rc = st_exec_on(&r, m, sass, SPEC, "prints", &o);
    CHECK(rc == 0, "prints runs on the SASS model: %s", r.err.msg);
    if (rc == 0) {
        const char *w = NULL;
        for (int i = 0; i < r.res.nwarnings && !w; i++)
            if (strstr(r.res.warnings[i], "model caveat: printf ran "))
                w = r.res.warnings[i];
        CHECK(w && strstr(w, "vprintf"), "a caveat says the GPU's totals count vprintf: %s",
              w ? w : "none");
    }
    st_free(&r);
    fclose(o.printf_to);
    ws_sass_module_free(sass);
}

int main(void)
{
    ws_module *m = st_load("printf");
    CHECK(m != NULL, "printf.ptx loads");
    if (m) {
        test_prints(m);
        test_flood(m);
        test_sass_caveat(m);
        ws_module_free(m);
    }
    return ws_test_finish("test_sim_printf");
}
