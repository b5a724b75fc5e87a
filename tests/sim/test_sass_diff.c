/* test_sass_diff.c — the SASS model against the PTX model on the seed workloads at small
 * sizes and the .cu fixtures of tests/sim/cu (async.cu's mbarriers included), every
 * variant: both start from the same generated inputs, and afterwards every
 * integer buffer is equal byte for byte and every float buffer within the spec's tolerance
 * (ptxas may fuse a PTX mul and add into one FFMA, so floats can differ in the last bits;
 * the GPU computes what the SASS says: himeno's 212 differing floats become 0 when ptxas
 * runs with --fmad=false). Skipped where nvdisasm is missing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/sim.h"
#include "tests/check.h"
#include "tests/sim/cu/async_spec.h"

#define CACHE WS_SASS_DIFF_WORK_DIR

static const char *arch = "sm_90";

/* Each workload with the -D overrides that keep it small (as tests/cli/test_cli_sass.sh). */
static const char *const seeds[][6] = {
    {"branch_unification", "LOOP=10", "BLOCKS=4", "DPT=4", NULL},
    {"dynamic_assignment", "BLOCKS=4", "APB=256", "LOOP_NUM=2", "TRIP_SCALE=64", NULL},
    {"tree_reduction", NULL},
    {"shuffle_reduction", NULL},
    {"naive_reduction", NULL},
    {"predication", NULL},
    {"divergence_examples", NULL},
    {"himeno", "IMAX=8", "JMAX=8", "KMAX=32", "THREADS=32", NULL},
    {"histogram", "N=20000", "TOTAL_THREADS=2048", "BINS=10", NULL},
};

/* The .cu fixtures of tests/sim/cu with the specs their tests use (error cases left out). */
static const char *const fixtures[] = {
    "workload arith\nsource arith.cu\n"
    "buffer a i32 128 random_bits\nbuffer b i32 128 uniform_int -3 3\n"
    "buffer c i32 128 random_bits\nbuffer o i32 4096 zero\n"
    "buffer x u64 68 random_bits\nbuffer o2 u64 128 zero\n"
    "variant v\n  kernel arith\n  grid 1\n  block 128\n  args a b c o\n"
    "variant wide\n  kernel arith128\n  grid 1\n  block 64\n  args x o2\n",
    "workload branches\nsource divergence.cu\n"
    "buffer out i32 128 zero\nbuffer in i32 64 iota\nbuffer o64 i32 64 zero\n"
    "buffer trips i32 256 uniform_int 0 20\nbuffer o256 i32 256 zero\n"
    "variant tid0\n  kernel diverge_tid0\n  grid 2\n  block 64\n  args out 3\n"
    "variant warp\n  kernel uniform_warp\n  grid 2\n  block 64\n  args out 3\n"
    "variant nested\n  kernel nested\n  grid 1\n  block 32\n  args out 4\n"
    "variant pred\n  kernel predicated\n  grid 1\n  block 64\n  args in o64\n"
    "variant loop\n  kernel loop_trips\n  grid 4\n  block 64\n  args trips o256\n",
    "workload calls\nsource calls.cu\n"
    "buffer in i32 64 uniform_int 0 100\nbuffer out i32 64 zero\n"
    "variant v\n  kernel generic_calls\n  grid 1\n  block 64\n  args in out\n",
    "workload warpops\nsource warpops.cu\n"
    "buffer in u32 128 uniform_int 0 999\nbuffer out u32 1280 zero\n"
    "buffer in64 u32 64 uniform_int 0 99\nbuffer out192 u32 192 zero\n"
    "buffer iota u32 64 iota\nbuffer out512 u32 512 zero\n"
    "buffer ain i32 1024 uniform_int 0 1000\nbuffer isum i32 2 zero\n"
    "buffer dsum f64 1 zero\nbuffer hist i32 8 zero\n"
    "variant v\n  kernel warp_ops\n  grid 2\n  block 64\n  args in out\n"
    "variant partial\n  kernel partial_ops\n  grid 1\n  block 64\n  args in64 out192\n"
    "variant v2\n  kernel warp_ops2\n  grid 1\n  block 64\n  args iota out512\n"
    "variant atomics\n  kernel atomics\n  grid 8\n  block 128\n  args ain isum dsum hist 1000\n",
    "workload reduce\nsource reduce.cu\n"
    "buffer x i32 512 const 1\nbuffer y i32 512 uniform_int -1000 1000\n"
    "buffer o i32 4 zero\n"
    "variant naive\n  kernel naive_sum\n  grid 2\n  block 128\n  args x o\n"
    "variant tree\n  kernel tree_sum\n  grid 4\n  block 128\n  args y o\n",
    /* async.cu: cp.async and mbarrier objects (LDGSTS, SYNCS, ARRIVES): cuda::barrier
       phases, the __mbarrier primitives (tokens, pending counts, arrive_drop, inval) and
       parity waits (tests/gpu/ptx_async.spec runs the same on the GPU) */
    WS_ASYNC_SPEC,
    /* mma.cu's packed-half min/max: __hmax2/__hmin2, their _nan forms (max.NaN), bf16 */
    "workload minmax\nsource mma.cu\nbuffer hm u32 64 random_bits\nbuffer hmo u32 192 zero\n"
    "variant half_minmax\n  kernel half_minmax\n  grid 1\n  block 32\n  args hm hmo\n",
    /* tests/ptx/cu/ops.cu: the math library, conversions, 64-bit integers */
    "workload ops\nsource ../../ptx/cu/ops.cu\n"
    "buffer fin f32 256 uniform_real 0 4\nbuffer fout f32 256 zero\n"
    "buffer din f64 256 uniform_real 0 4\nbuffer dout f64 256 zero\n"
    "buffer li i64 512 random_bits\n"
    "variant float_math\n  kernel float_math\n  grid 2\n  block 128\n  args fin fout 250\n"
    "variant double_math\n  kernel double_math\n  grid 2\n  block 128\n"
    "  args din dout li 256\n",
    /* tests/sass/cu/sass_ops.cu: jump tables, halves, bit fields, uniform math, P2R spills */
    "workload sass_ops\nsource ../../sass/cu/sass_ops.cu\n"
    "buffer in i32 96 uniform_int -1000 1000\nbuffer out i32 64 zero\n"
    "buffer fin f32 128 uniform_real -4 4\nbuffer fout f32 64 zero\n"
    "buffer pin i32 96 uniform_int -2 10\n"
    "buffer hin u32 96 random_bits\nbuffer hout u32 64 zero\nbuffer flags i32 64 zero\n"
    "variant jump_table\n  kernel jump_table\n  grid 1\n  block 64\n  args in out\n"
    "variant halves\n  kernel halves\n  grid 1\n  block 64\n  args fin fout\n"
    "variant bits\n  kernel bits\n  grid 1\n  block 64\n  args in out 13\n"
    "variant uniform_math\n  kernel uniform_math\n  grid 1\n  block 64\n"
    "  args out -7 3 4660\n"
    "variant many_preds\n  kernel many_preds\n  grid 1\n  block 64\n  args pin out 20\n"
    "variant indirect_branch\n  kernel indirect_branch\n  grid 1\n  block 64\n"
    "  args in out\n"
    "variant half_ops\n  kernel half_ops\n  grid 1\n  block 32\n  args hin hout flags\n",
};

static void report(const char *what, const ws_error *err)
{
    char buf[800];
    ws_error_format(err, buf, sizeof buf);
    CHECK(0, "%s: %s", what, buf);
}

/* Elements whose bits differ between two buffers of the same spec. */
static uint64_t bit_diffs(const ws_buffer *a, const ws_buffer *b, uint64_t *first)
{
    size_t es = a->spec->count ? a->bytes / a->spec->count : 1;
    uint64_t n = 0;
    *first = 0;
    for (uint64_t i = 0; es && i < a->spec->count; i++)
        if (memcmp((const char *)a->data + i * es, (const char *)b->data + i * es, es)) {
            if (!n)
                *first = i;
            n++;
        }
    return n;
}

static void compare_variant(const ws_spec *s, const ws_module *m, const ws_sass_module *sm,
                            const ws_buffers *inputs, const ws_variant *v)
{
    ws_buffers bp = {0}, bs = {0};
    ws_result rp, rs;
    ws_error err;
    ws_sim_options opt;
    ws_sim_options_default(&opt);
    opt.threads = 1;
    ws_result_init(&rp);
    ws_result_init(&rs);
    ws_error_clear(&err);
    if (ws_buffers_clone(inputs, &bp, &err) || ws_buffers_clone(inputs, &bs, &err)) {
        report("clone", &err);
        goto done;
    }
    int ptx_rc = ws_sim_run(m, s, v, &bp, &opt, &rp, &err);
    if (ptx_rc && ptx_rc != WS_ERR_UNSUPPORTED) {
        report("ptx model", &err);
        goto done;
    }
    if (ptx_rc) /* a kernel the PTX model does not run: the SASS model must still run it */
        printf("note: %s/%s: the PTX model does not run it: %s\n", s->name, v->name, err.msg);
    ws_error_clear(&err);
    if (ws_sim_run_sass(m, sm, s, v, &bs, &opt, &rs, &err)) {
        report("sass model", &err);
        goto done;
    }
    if (ptx_rc)
        goto done;
    for (int i = 0; i < bp.n; i++) {
        const ws_buffer *a = &bp.b[i], *b = &bs.b[i];
        uint64_t first = 0, n = bit_diffs(a, b, &first);
        if (!ws_type_is_float(a->spec->type)) {
            CHECK(n == 0, "%s %s/%s buffer %s: %llu of %llu elements differ, first at %llu",
                  arch, s->name, v->name, a->spec->name, (unsigned long long)n,
                  (unsigned long long)a->spec->count, (unsigned long long)first);
        } else {
            uint64_t at = 0;
            CHECK(ws_buffer_equal(a, b, &at), "%s/%s float buffer %s beyond tolerance at %llu",
                  s->name, v->name, a->spec->name, (unsigned long long)at);
            if (n)
                printf("note: %s %s/%s %s: %llu of %llu floats differ in their bits\n", arch,
                       s->name, v->name, a->spec->name, (unsigned long long)n,
                       (unsigned long long)a->spec->count);
        }
    }
done:
    ws_result_free(&rp);
    ws_result_free(&rs);
    ws_buffers_free(&bp);
    ws_buffers_free(&bs);
}

/* Builds the PTX and the SASS of spec s and compares every variant; frees s. */
static void compare_spec(ws_spec *s, const char *what)
{
    char ptx[512], cubin[512], sass[512];
    ws_error err;
    ws_module *m = NULL;
    ws_sass_module *sm = NULL;
    ws_buffers inputs = {0};
    ws_error_clear(&err);
    if (!ws_ptx_build(s, CACHE, ptx, sizeof ptx, &err) && ws_ptx_load(ptx, &m, &err) &&
        err.code == WS_ERR_UNSUPPORTED) { /* nothing to compare against (yet) */
        printf("note: %s: the PTX model does not run it: %s\n", what, err.msg);
    } else if (err.code || ws_sass_build(s, CACHE, arch, cubin, sass, sizeof sass, &err) ||
        ws_sass_load(sass, cubin, &sm, &err) || ws_buffers_generate(s, &inputs, &err)) {
        report(what, &err);
    } else {
        for (int i = 0; i < s->nvariants; i++)
            compare_variant(s, m, sm, &inputs, &s->variants[i]);
    }
    ws_buffers_free(&inputs);
    if (sm)
        ws_sass_module_free(sm);
    if (m)
        ws_module_free(m);
    ws_spec_free(s);
}

static void compare_seed(const char *const *seed)
{
    char path[512], defbuf[5][64];
    ws_define defs[5];
    int ndefs = 0;
    ws_error err;
    ws_error_clear(&err);
    for (const char *const *d = seed + 1; *d && ndefs < 5; d++, ndefs++) {
        snprintf(defbuf[ndefs], sizeof defbuf[ndefs], "%s", *d);
        ws_define_parse(defbuf[ndefs], &defs[ndefs], &err);
    }
    snprintf(path, sizeof path, "%s/%s.spec", WS_KERNELS_DIR, seed[0]);
    ws_spec *s = NULL;
    if (ws_spec_load(path, defs, ndefs, &s, &err))
        report(seed[0], &err);
    else
        compare_spec(s, seed[0]);
}

int main(void)
{
    char nv[512];
    if (!ws_nvdisasm_find(nv, sizeof nv)) {
        printf("test_sass_diff: skipped: no nvdisasm (tried %s)\n", nv);
        return 0;
    }
    /* The SASS of other architectures differs (sm_80: IADD3/IMNMX for VIADD/VIMNMX,
     * BRA.CONV, R2UR with a predicate, scaled shared addresses [R7.X4], shared memory from
     * 0 rather than 0x400); the seeds run at sm_80 too. The PTX is built for sm_90, so sm_75
     * cannot take its redux. */
    static const char *const archs[] = {"sm_90", "sm_80"};
    for (size_t a = 0; a < sizeof archs / sizeof archs[0]; a++) {
        arch = archs[a];
        for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++)
            compare_seed(seeds[i]);
        /* the fixtures at sm_90 only: sass_ops.cu needs it, and a generic pointer into local
         * memory (calls.cu) is not yet modelled for sm_80's SASS */
        for (size_t i = 0; a == 0 && i < sizeof fixtures / sizeof fixtures[0]; i++) {
            ws_spec *s = NULL;
            ws_error err;
            ws_error_clear(&err);
            if (ws_spec_parse(fixtures[i], WS_SIM_CU_DIR "/inline.spec", NULL, 0, &s, &err))
                report("fixture spec", &err);
            else
                compare_spec(s, s->name);
        }
    }
    return ws_test_finish("test_sass_diff");
}
