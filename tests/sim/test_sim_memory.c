/* test_sim_memory.c — addressing and race tracking on patterns of real kernels: shared
 * addresses wrap at 2^32 (a base below zero plus an offset), lanes writing different bytes
 * of one word are not a race while two lanes writing one byte are, a load that reads a
 * CAS's guess is no race with the CASes while a plain read of an atomically updated word
 * is, critical sections of a spin lock do not race with each other while a write outside
 * the lock does, a flag one CTA sets and another polls with volatile or acquire loads is no
 * race while a plain read of it is, a warp's divergent writes and its converged reads after
 * a __syncwarp are no race while the other arm of a branch reading them without one is, and
 * an access before a buffer names that buffer and the direction. */
#include "sim/ir.h"
#include "tests/sim/sim_test.h"

static const char *SPEC =
    "workload memory\nsource memory.cu\n"
    "buffer in i32 64 iota\nbuffer out i32 512 zero\nbuffer flags u8 512 const 7\n"
    "buffer S i32 64 zero\nbuffer J i32 64 zero\nbuffer mx f32 1 zero\nbuffer c i32 1 zero\n"
    "buffer tf f32 64 const 3\nbuffer lk i32 1 zero\nbuffer lc i32 1 zero\n"
    "buffer lead i32 64 zero\nbuffer part i32 6 zero\n"
    "variant wrap\n  kernel shared_wrap\n  grid 1\n  block 64\n  args in out 4\n"
    "variant bytes\n  kernel byte_flags\n  grid 2\n  block 256\n  args flags out\n"
    "variant byterace\n  kernel byte_race\n  grid 1\n  block 64\n  args flags\n"
    "variant under\n  kernel underflow\n  grid 1\n  block 32\n  args S J out 256\n"
    "variant longname\n  kernel long_name\n  grid 1\n  block 64\n  args out\n"
    "variant guess\n  kernel cas_guess\n  grid 2\n  block 64\n  args mx in\n"
    "variant peek\n  kernel atomic_peek\n  grid 1\n  block 64\n  args c out\n"
    "variant lock\n  kernel spin_lock\n  grid 1\n  block 64\n  args lk lc\n"
    "variant leak\n  kernel lock_leak\n  grid 1\n  block 64\n  args lk lc\n"
    "variant wlead\n  kernel warp_leader_lock\n  grid 2\n  block 64\n  args lk lead\n"
    "variant clead\n  kernel cta_leader_lock\n  grid 2\n  block 64\n  args lk lead\n"
    "variant lastf\n  kernel last_block_sum\n  grid 6\n  block 64\n  args part lc 1\n"
    "variant lastn\n  kernel last_block_sum\n  grid 6\n  block 64\n  args part lc 0\n"
    "variant flagv\n  kernel flag_poll\n  grid 2\n  block 32\n  args c out 1\n"
    "variant flaga\n  kernel flag_poll\n  grid 2\n  block 32\n  args c out 2\n"
    "variant flagw\n  kernel flag_poll\n  grid 2\n  block 32\n  args c out 0\n"
    "variant wcompact\n  kernel warp_compact\n  grid 1\n  block 64\n  args in out\n"
    "variant wunsync\n  kernel warp_unsynced\n  grid 1\n  block 32\n  args in out 5\n"
    "variant tamb\n  kernel tscale\n  grid 1\n  block 64\n  args tf 2.0\n"
    "variant tfloat\n  kernel _Z6tscaleIfEvPT_S0_\n  grid 1\n  block 64\n  args tf 2.0\n";

static void test_shared_wrap(ws_module *m)
{
    st_run r;
    int rc = st_exec(&r, m, SPEC, "wrap", NULL);
    CHECK(rc == 0, "base below zero plus an offset is a valid shared address: %s", r.err.msg);
    if (rc == 0) {
        const int *out = (const int *)st_buf(&r, "out")->data;
        int bad = -1;
        for (int t = 0; t < 60 && bad < 0; t++)
            if (out[t] != 4 * t + 6) /* s[t] + s[t+1] + s[t+2] + s[t+3] with s[i] = i */
                bad = t;
        CHECK(bad < 0, "out[%d] = %d, want %d", bad, bad >= 0 ? out[bad] : 0, 4 * bad + 6);
        CHECK(st_metric(&r, "sim__races") == 0, "no race: %g", st_metric(&r, "sim__races"));
    }
    st_free(&r);
}

static void test_bytes(ws_module *m)
{
    st_run r;
    int rc = st_exec(&r, m, SPEC, "bytes", NULL);
    CHECK(rc == 0, "byte_flags runs: %s", r.err.msg);
    if (rc == 0) {
        CHECK(st_metric(&r, "sim__races") == 0 && r.res.nwarnings == 0,
              "different bytes of one word are no race: %g (%s)", st_metric(&r, "sim__races"),
              r.res.nwarnings ? r.res.warnings[0] : "");
        const int *out = (const int *)st_buf(&r, "out")->data;
        CHECK(out[0] == 255 && out[1] == 255 && out[257] == 255, "out %d %d %d", out[0], out[1],
              out[257]);
    }
    st_free(&r);
    rc = st_exec(&r, m, SPEC, "byterace", NULL);
    CHECK(rc == 0, "byte_race runs: %s", r.err.msg);
    if (rc == 0) {
        int line = st_cu_line("memory.cu", "@byterace");
        char want[64];
        snprintf(want, sizeof want, "memory.cu:%d", line);
        CHECK(st_metric(&r, "sim__races") == 1 && r.res.nwarnings >= 1 &&
                  strstr(r.res.warnings[0], "race: global[0x") &&
                  strstr(r.res.warnings[0], want), "two lanes writing one byte race: %g (%s)",
              st_metric(&r, "sim__races"), r.res.nwarnings ? r.res.warnings[0] : "");
    }
    st_free(&r);
}

static void test_underflow(ws_module *m)
{
    st_run r;
    int rc = st_exec(&r, m, SPEC, "under", NULL);
    CHECK(rc == WS_ERR_SIM, "J[-256] is out of bounds: %d", rc);
    CHECK(strstr(r.err.msg, "out-of-bounds global load of 4 bytes") &&
              strstr(r.err.msg, "1024 bytes before the start of 'J'") &&
              !strstr(r.err.msg, "'S'"), "names J and the direction: %s", r.err.msg);
    st_free(&r);
}

/* A __device__ variable with a mangled name past 127 characters keeps its whole name: the
 * SASS model finds it by the name its relocation gives (it was cut short, and the kernel
 * refused as calling an undefined function). */
static void test_long_name(ws_module *m)
{
    int longest = 0;
    for (int g = 0; g < m->nglobals; g++)
        if ((int)strlen(m->globals[g].name) > longest)
            longest = (int)strlen(m->globals[g].name);
    CHECK(longest > 150, "the long global's name is whole in the PTX module: %d characters",
          longest);
    ws_sass_module *sass = NULL;
    for (int k = 0; k < 2; k++) {
        if (k == 1 && st_load_sass("memory", "test_sim_memory", &sass) != 0)
            break;
        st_run r;
        int rc = st_exec_on(&r, m, sass, SPEC, "longname", NULL);
        CHECK(rc == 0, "%s model: a kernel on a long-named global runs: %s", k ? "SASS" : "PTX",
              r.err.msg);
        if (rc == 0) {
            const int *out = (const int *)st_buf(&r, "out")->data;
            int bad = 0;
            for (int t = 0; t < 64; t++)
                bad += out[t] != 64;
            CHECK(bad == 0, "%s model: every thread reads the count 64 (%d do not)",
                  k ? "SASS" : "PTX", bad);
        }
        st_free(&r);
    }
    ws_sass_module_free(sass);
}

/* How many race warnings of the run name the memory.cu line tagged `tag` (and `also`);
 * `others` (may be NULL) gets how many do not. */
static int races_at(const st_run *r, const char *tag, const char *also, int *others)
{
    char want[64];
    snprintf(want, sizeof want, "memory.cu:%d", st_cu_line("memory.cu", tag));
    int n = 0, rest = 0;
    for (int i = 0; i < r->res.nwarnings; i++) {
        if (!strstr(r->res.warnings[i], "race:"))
            continue;
        if (strstr(r->res.warnings[i], want) && (!also || strstr(r->res.warnings[i], also)))
            n++;
        else
            rest++;
    }
    if (others)
        *others = rest;
    return n;
}

/* Runs the spec's `variant` (kernel `kernel`) on the model; whether it ran. */
static int runs(st_run *r, ws_module *m, ws_sass_module *sass, const char *variant,
                const char *kernel, const char *model)
{
    int rc = st_exec_on(r, m, sass, SPEC, variant, NULL);
    CHECK(rc == 0, "%s model: %s runs: %s", model, kernel, r->err.msg);
    return rc == 0;
}

/* No race reported, said as `what` otherwise. */
static void no_races(const st_run *r, const char *model, const char *what)
{
    CHECK(st_metric(r, "sim__races") == 0, "%s model: %s: %g (%s)", model, what,
          st_metric(r, "sim__races"), r->res.nwarnings ? r->res.warnings[0] : "");
}

static int race_at(const st_run *r, const char *tag, const char *also)
{
    return races_at(r, tag, also, NULL) > 0;
}

/* A race reported and named at the line tagged `tag` (with `also`), said as `what` otherwise. */
static void races_named(const st_run *r, const char *model, const char *tag, const char *also,
                        const char *what)
{
    CHECK(st_metric(r, "sim__races") >= 1 && race_at(r, tag, also), "%s model: %s, at %s: "
          "%g (%s)", model, what, tag, st_metric(r, "sim__races"),
          r->res.nwarnings ? r->res.warnings[0] : "");
}

/* Runs `body` on the PTX model, then on the SASS model where nvdisasm is found. */
static void on_both_models(ws_module *m,
                           void (*body)(ws_module *, ws_sass_module *, const char *model))
{
    body(m, NULL, "PTX");
    ws_sass_module *sass = NULL;
    if (st_load_sass("memory", "test_sim_memory", &sass) == 0)
        body(m, sass, "SASS");
    ws_sass_module_free(sass);
}

/* On both models: the CAS retry loop's load (the guess) does not race with the CASes; a
 * plain read of a word other threads add to atomically does, named at its line. */
static void cas_guess_on(ws_module *m, ws_sass_module *sass, const char *model)
{
    st_run r;
    if (runs(&r, m, sass, "guess", "cas_guess", model)) {
        CHECK(*(const float *)st_buf(&r, "mx")->data == 63.0f, "%s model: the max is 63: %g",
              model, *(const float *)st_buf(&r, "mx")->data);
        const char *race = NULL;
        for (int i = 0; i < r.res.nwarnings && !race; i++)
            if (strstr(r.res.warnings[i], "race:"))
                race = r.res.warnings[i];
        CHECK(st_metric(&r, "sim__races") == 0 && !race,
              "%s model: the load of a CAS's guess is no race: %g (%s)", model,
              st_metric(&r, "sim__races"), race ? race : "");
    }
    st_free(&r);
    if (runs(&r, m, sass, "peek", "atomic_peek", model))
        races_named(&r, model, "@peek", "written atomically",
                    "a plain read of an atomically added word races");
    st_free(&r);
}

/* On both models: the critical sections of a spin lock (atomicCAS from 0, atomicExch back)
 * do not race with each other; a plain write of the same word outside the lock races with
 * them, named at its line. */
static void spin_lock_on(ws_module *m, ws_sass_module *sass, const char *model)
{
    st_run r;
    if (runs(&r, m, sass, "lock", "spin_lock", model)) {
        CHECK(*(const int *)st_buf(&r, "lc")->data == 64 && *(const int *)st_buf(&r, "lk")->data == 0,
              "%s model: 64 increments under the lock, the lock free: %d %d", model,
              *(const int *)st_buf(&r, "lc")->data, *(const int *)st_buf(&r, "lk")->data);
        no_races(&r, model, "critical sections do not race");
    }
    st_free(&r);
    if (runs(&r, m, sass, "leak", "lock_leak", model))
        races_named(&r, model, "@leak", NULL, "a write outside the lock races");
    st_free(&r);
}

/* On both models: a lock one leader takes for its warp (lane 0, __syncwarp) or its CTA
 * (thread 0, __syncthreads) covers the group's accesses until the leader gives it back; an
 * access after that races again (cta_leader_lock's last line, across the two CTAs). */
static void leader_lock_on(ws_module *m, ws_sass_module *sass, const char *model)
{
    st_run r;
    if (runs(&r, m, sass, "wlead", "warp_leader_lock", model)) {
        const int *c = (const int *)st_buf(&r, "lead")->data;
        CHECK(c[0] == 4 && c[31] == 4 && c[32] == 0, "%s model: 4 warps added 1 each: %d %d %d",
              model, c[0], c[31], c[32]);
        no_races(&r, model, "a warp's leader lock covers its lanes");
    }
    st_free(&r);
    if (runs(&r, m, sass, "clead", "cta_leader_lock", model)) {
        const int *c = (const int *)st_buf(&r, "lead")->data;
        CHECK(c[0] == 2 && c[63] == 4, "%s model: 2 CTAs added 1 and 2: %d %d", model, c[0], c[63]);
        int inside = 0;
        int after = races_at(&r, "@after", NULL, &inside);
        CHECK(st_metric(&r, "sim__races") >= 1 && after > 0 && inside == 0,
              "%s model: only the access after the release races: %g (%s)", model,
              st_metric(&r, "sim__races"), r.res.nwarnings ? r.res.warnings[0] : "");
    }
    st_free(&r);
}

/* On both models: a warp's divergent writes to shared memory, a __syncwarp (a NOP in the
 * SASS: the warp converged), and its converged reads do not race; the other arm of a branch
 * reading what the first writes, with no __syncwarp, does, named at the read. */
static void warp_order_on(ws_module *m, ws_sass_module *sass, const char *model)
{
    st_run r;
    if (runs(&r, m, sass, "wcompact", "warp_compact", model)) {
        const int *o = (const int *)st_buf(&r, "out")->data;
        /* in = 0..63, v = 7 t: the multiples of 3 are t = 0, 3, 6, ... */
        CHECK(o[0] == 0 && o[1] == 21 && o[10] == 210 && o[11] == -1 && o[32] == 7 * 33 &&
                  o[43] == -1,
              "%s model: the compacted values: %d %d %d %d %d %d", model, o[0], o[1], o[10],
              o[11], o[32], o[43]);
        no_races(&r, model, "a warp's writes before its __syncwarp do not race with its reads");
    }
    st_free(&r);
    if (runs(&r, m, sass, "wunsync", "warp_unsynced", model))
        races_named(&r, model, "@unsynced", NULL, "the other arm's read of the first's write races");
    st_free(&r);
}

/* On both models: a flag set with a volatile store and polled by another CTA with volatile
 * or acquire loads is no race (both accesses morally strong); read by a plain load it races,
 * named at that load. */
static void flag_poll_on(ws_module *m, ws_sass_module *sass, const char *model)
{
    static const char *const strong[] = { "flagv", "flaga" };
    st_run r;
    for (int i = 0; i < 2; i++) {
        if (runs(&r, m, sass, strong[i], "flag_poll", model)) {
            CHECK(((const int *)st_buf(&r, "out")->data)[1] == 5, "%s model %s: the poll read 5: %d",
                  model, strong[i], ((const int *)st_buf(&r, "out")->data)[1]);
            no_races(&r, model, i ? "an acquire poll of a volatile flag does not race"
                                  : "a volatile poll of a volatile flag does not race");
        }
        st_free(&r);
    }
    if (runs(&r, m, sass, "flagw", "flag_poll", model))
        races_named(&r, model, "@flagpeek", NULL, "a plain read of a volatile flag races");
    st_free(&r);
}

/* On both models: a write that a fence and a global atomic publish (the last-block
 * reduction) does not race with the read of the CTA whose atomic came after; without the
 * fence it does, named at the write. */
static void last_block_on(ws_module *m, ws_sass_module *sass, const char *model)
{
    st_run r;
    if (runs(&r, m, sass, "lastf", "last_block_sum", model)) {
        CHECK(*(const int *)st_buf(&r, "lc")->data == 21, "%s model: the last block sums 1..6: %d",
              model, *(const int *)st_buf(&r, "lc")->data);
        no_races(&r, model, "a write published by a fence and a ticket does not race");
    }
    st_free(&r);
    if (runs(&r, m, sass, "lastn", "last_block_sum", model))
        races_named(&r, model, "@partial", NULL, "without the fence the write races");
    st_free(&r);
}

/* A name that two template instances share is an error naming both mangled names; the
 * mangled name of one runs it. */
static void test_template_names(ws_module *m)
{
    st_run r;
    int rc = st_exec(&r, m, SPEC, "tamb", NULL);
    CHECK(rc == WS_ERR_SPEC && strstr(r.err.msg, "kernel 'tscale' (variant 'tamb') names 2 entries") &&
              strstr(r.err.msg, "_Z6tscaleIfEvPT_S0_") && strstr(r.err.msg, "_Z6tscaleIiEvPT_S0_") &&
              strstr(r.err.msg, "mangled name"),
          "an ambiguous template name is an error naming its instances: %d %s", rc, r.err.msg);
    st_free(&r);
    rc = st_exec(&r, m, SPEC, "tfloat", NULL);
    CHECK(rc == 0, "the float instance by its mangled name runs: %s", r.err.msg);
    if (rc == 0) {
        const float *tf = (const float *)st_buf(&r, "tf")->data;
        CHECK(tf[0] == 6.0f && tf[63] == 6.0f, "3 * 2 in float: %g %g", tf[0], tf[63]);
    }
    st_free(&r);
}

int main(void)
{
    ws_module *m = st_load("memory");
    CHECK(m != NULL, "memory.ptx loads");
    if (m) {
        test_shared_wrap(m);
        test_bytes(m);
        test_underflow(m);
        test_long_name(m);
        on_both_models(m, cas_guess_on);
        on_both_models(m, spin_lock_on);
        on_both_models(m, leader_lock_on);
        on_both_models(m, last_block_on);
        on_both_models(m, flag_poll_on);
        on_both_models(m, warp_order_on);
        test_template_names(m);
        ws_module_free(m);
    }
    return ws_test_finish("test_sim_memory");
}
