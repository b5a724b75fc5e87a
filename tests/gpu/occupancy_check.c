/* occupancy_check.c — the occupancy model (sim/occupancy.c) against the driver's
 * cuOccupancyMaxActiveBlocksPerMultiprocessor on a real GPU: a seed kernel with static shared
 * memory and tests/gpu/occupancy.cu's register-heavy kernel, JIT-loaded at several register
 * caps, swept over block sizes and dynamic shared memory; plus the device's per-SM limits
 * against the model's table. With no GPU: "skipped: no GPU (...)", exit 77. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "backend/backend.h"
#include "sim/sim.h"
#include "tests/check.h"

/* 24 takes the seed kernel below 32 registers, where warps alone bind. */
static const int caps[] = {0, 24, 32, 64, 128, 255};
static const int block_sizes[] = {32, 64, 96, 128, 192, 256, 512, 768, 1024};
/* Ascending: the opt-in attribute raised for 48 KB stays set for later queries. */
static const int dyn_sizes[] = {0, 1024, 8192, 49152};
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

typedef struct source {
    const char *spec;    /* relative to the checkout */
    const char *kernel;  /* C name */
    char ptx_path[WS_PATH_MAX];
    char *ptx;           /* the PTX text */
} source;

static source sources[] = {
    {"kernels/histogram.spec", "hist_warp_smem", "", NULL}, /* seed 001, 1.5 KB static smem */
    {"tests/gpu/occupancy.spec", "pressure", "", NULL},     /* 80-94 registers uncapped */
};

/* Points where one limit alone binds (strictly below every other) and model = driver. */
typedef struct tally {
    int points, agree, cannot_launch;
    int strict[WS_OCC_NLIMITS];
} tally;

/* run.sh sets WS_TEST_SOURCE_DIR where the checkout moved (GPU machine). */
static void source_path(const char *rel, char *buf, size_t n)
{
    const char *dir = getenv("WS_TEST_SOURCE_DIR");
    snprintf(buf, n, "%s/%s", dir && *dir ? dir : WS_SOURCE_DIR, rel);
}

static int build_ptx(source *s, ws_error *err)
{
    char path[WS_PATH_MAX];
    ws_spec *spec = NULL;
    size_t len;
    source_path(s->spec, path, sizeof path);
    int rc = ws_spec_load(path, NULL, 0, &spec, err);
    if (rc == WS_OK)
        rc = ws_ptx_build(spec, NULL, s->ptx_path, sizeof s->ptx_path, err);
    if (rc == WS_OK)
        rc = ws_read_file(s->ptx_path, &s->ptx, &len, err);
    ws_spec_free(spec);
    return rc;
}

/* Errors found before any driver call: testable with no GPU. */
static void test_input_errors(const source *s)
{
    ws_error err;
    ws_error_clear(&err);
    ws_gpu_function *f = NULL;
    int rc = ws_gpu_function_load(NULL, s->ptx, s->kernel, 300, &f, &err);
    CHECK(rc == WS_ERR_USAGE && !strcmp(err.msg, "register cap must be 0 (none) or 1..255, not 300"),
          "cap 300: %s", err.msg);
    ws_error_clear(&err);
    rc = ws_gpu_function_load(NULL, s->ptx, "no_such_kernel", 0, &f, &err);
    CHECK(rc == WS_ERR_NOTFOUND && strstr(err.msg, "kernel 'no_such_kernel' is not an entry"),
          "unknown kernel: %s", err.msg);
    CHECK(f == NULL, "no function on failure");
}

/* The device's per-SM limits against the model's table for its compute capability. */
static void test_sm_limits(ws_gpu *g, const char *cc)
{
    ws_error err;
    ws_error_clear(&err);
    ws_gpu_sm_limits d;
    ws_occupancy m;
    int rc = ws_gpu_sm_limits_read(g, &d, &err);
    CHECK(rc == WS_OK, "device limits: %s", err.msg);
    if (rc != WS_OK || ws_occupancy_calc(cc, 32, 0, 0, &m, &err) != WS_OK)
        return;
    printf("per SM            device   model (cc %s)\n", cc);
    printf("  threads         %6d  %6d\n", d.max_threads_sm, m.max_threads_sm);
    printf("  blocks          %6d  %6d\n", d.max_blocks_sm, m.max_blocks_sm);
    printf("  registers       %6d  %6d\n", d.regs_sm, m.regs_sm);
    printf("  shared memory   %6d  %6d\n", d.smem_sm, m.smem_sm);
    printf("  reserved/block  %6d  %6d\n", d.smem_reserved_block, m.smem_alloc_block);
    printf("  per block: %d registers, %d B shared (%d B opt-in)\n", d.regs_block, d.smem_block,
           d.smem_block_optin);
    CHECK(d.max_threads_sm == m.max_threads_sm, "threads/SM: device %d, model %d",
          d.max_threads_sm, m.max_threads_sm);
    CHECK(d.max_blocks_sm == m.max_blocks_sm, "blocks/SM: device %d, model %d", d.max_blocks_sm,
          m.max_blocks_sm);
    CHECK(d.regs_sm == m.regs_sm, "registers/SM: device %d, model %d", d.regs_sm, m.regs_sm);
    CHECK(d.smem_sm == m.smem_sm, "shared memory/SM: device %d, model %d", d.smem_sm, m.smem_sm);
    /* With no shared memory the model allocates just the reservation (granule-rounded). */
    CHECK(m.smem_alloc_block == (d.smem_reserved_block + 127) / 128 * 128,
          "reserved shared memory per block: device %d, model %d", d.smem_reserved_block,
          m.smem_alloc_block);
}

/* Is limit `l` strictly below every other limit that applies? */
static int strictly_binds(const ws_occupancy *o, ws_occ_limit l)
{
    for (int i = 0; i < WS_OCC_NLIMITS; i++)
        if (i != (int)l && o->limit[i] <= o->limit[l])
            return 0;
    return 1;
}

/* The driver may refuse (rather than answer 0 for) a block larger than the function can
 * ever launch; that counts as 0 blocks only where the model says 0 too. */
static int driver_blocks(ws_gpu_function *f, int threads, int dyn, ws_gpu_occupancy_result *r,
                         int *refused, char *why, size_t n)
{
    ws_error err;
    ws_error_clear(&err);
    *refused = 0;
    int rc = ws_gpu_function_occupancy(f, threads, dyn, r, &err);
    snprintf(why, n, "%s", err.msg);
    if (rc == WS_ERR_GPU && r->max_threads_block > 0 && threads > r->max_threads_block) {
        *refused = 1;
        r->blocks_per_sm = 0;
        return WS_OK;
    }
    return rc;
}

static void compare_point(ws_gpu_function *f, const source *s, const char *cc, int cap,
                          int threads, int dyn, tally *t)
{
    ws_error err;
    ws_error_clear(&err);
    ws_gpu_occupancy_result r;
    ws_occupancy m;
    char driver_err[sizeof err.msg];
    int refused;
    int drc = driver_blocks(f, threads, dyn, &r, &refused, driver_err, sizeof driver_err);
    int mrc = drc == WS_OK ? ws_occupancy_calc(cc, threads, r.num_regs, r.static_smem + dyn, &m, &err)
                           : WS_ERR_GPU;
    t->points++;
    if (drc != WS_OK || mrc != WS_OK) {
        CHECK(0, "%s cap %d, %d threads, %d B dynamic: %s", s->kernel, cap, threads, dyn,
              drc != WS_OK ? driver_err : err.msg);
        printf("%-15s %3d %4d %5d+%-5d %4d  %s\n", s->kernel, cap, r.num_regs, r.static_smem, dyn,
               threads, drc != WS_OK ? "driver error" : "model error");
        return;
    }
    int ok = r.blocks_per_sm == m.active_blocks && (!refused || m.active_blocks == 0);
    const char *binding = m.active_blocks ? ws_occupancy_limit_name(m.binding) : "cannot launch";
    printf("%-15s %3d %4d %5d+%-5d %4d  %6d %5d  %2d/%2d/%3d/%2d  %-13s %s%s\n", s->kernel, cap,
           r.num_regs, r.static_smem, dyn, threads, r.blocks_per_sm, m.active_blocks,
           m.limit[WS_OCC_LIMIT_WARPS], m.limit[WS_OCC_LIMIT_REGS], m.limit[WS_OCC_LIMIT_SMEM],
           m.limit[WS_OCC_LIMIT_BLOCKS], binding, ok ? "ok" : "DIFFER",
           refused ? " (driver refused the block size)" : "");
    if (refused)
        printf("  driver: %s\n", driver_err);
    CHECK(ok, "%s cap %d (%d regs), %d threads, %d+%d B smem: driver %d blocks/SM%s, model %d (%s)",
          s->kernel, cap, r.num_regs, threads, r.static_smem, dyn, r.blocks_per_sm,
          refused ? " (refused)" : "", m.active_blocks, binding);
    if (!ok)
        return;
    t->agree++;
    t->cannot_launch += m.active_blocks == 0;
    for (int l = 0; l < WS_OCC_NLIMITS && m.active_blocks; l++)
        t->strict[l] += strictly_binds(&m, (ws_occ_limit)l);
}

static void sweep_function(ws_gpu *g, const source *s, const char *cc, int cap, tally *t)
{
    ws_error err;
    ws_error_clear(&err);
    ws_gpu_function *f;
    int rc = ws_gpu_function_load(g, s->ptx, s->kernel, cap, &f, &err);
    CHECK(rc == WS_OK, "load %s cap %d: %s", s->kernel, cap, err.msg);
    if (rc != WS_OK)
        return;
    ws_gpu_occupancy_result r;
    if (ws_gpu_function_occupancy(f, 32, 0, &r, &err) == WS_OK) {
        printf("# %s cap %d: %d registers, %d B static smem, %d B local, <= %d threads/block\n",
               s->kernel, cap, r.num_regs, r.static_smem, r.local_bytes, r.max_threads_block);
        CHECK(cap == 0 || r.num_regs <= cap, "%s: cap %d but %d registers", s->kernel, cap,
              r.num_regs);
    }
    for (int d = 0; d < COUNT(dyn_sizes); d++)
        for (int b = 0; b < COUNT(block_sizes); b++)
            compare_point(f, s, cc, cap, block_sizes[b], dyn_sizes[d], t);
    ws_gpu_function_free(f);
}

/* What the compiler's ptxas says, beside what the driver's JIT gave (information only). */
static void print_ptxas(const source *s)
{
    ws_error err;
    ws_error_clear(&err);
    ws_kernel_resources k;
    if (ws_ptx_resources(s->ptx_path, s->kernel, &k, &err) == WS_OK)
        printf("# %s: ptxas -v says %d registers, %d B static smem\n", s->kernel, k.regs,
               k.shared_static);
    else
        printf("# %s: no ptxas report (%s)\n", s->kernel, err.msg);
}

/* Errors a user of the backend can see, on the GPU. */
static void test_gpu_errors(ws_gpu *g, const source *s)
{
    ws_error err;
    ws_error_clear(&err);
    ws_gpu_function *f = NULL;
    char *bad = strdup(s->ptx);
    char *at = bad ? strstr(bad, "ld.param") : NULL;
    if (at)
        memcpy(at, "xx.bogus", 8);
    int rc = bad ? ws_gpu_function_load(g, bad, s->kernel, 0, &f, &err) : WS_ERR_NOMEM;
    printf("JIT error: %s\n", err.msg);
    CHECK(rc == WS_ERR_GPU && strstr(err.msg, "cuModuleLoadDataEx failed: CUDA_ERROR_") &&
              strstr(err.msg, "bogus") && !strchr(err.msg, '\n'),
          "JIT error on one line naming the call and the bad instruction: %s", err.msg);
    free(bad);
    ws_error_clear(&err);
    rc = ws_gpu_function_load(g, s->ptx, s->kernel, 0, &f, &err);
    CHECK(rc == WS_OK, "load: %s", err.msg);
    if (rc != WS_OK)
        return;
    ws_gpu_occupancy_result r, one;
    rc = ws_gpu_function_occupancy(f, 0, 0, &r, &err);
    CHECK(rc == WS_ERR_USAGE && !strcmp(err.msg, "threads per block must be at least 1, not 0"),
          "0 threads: %s", err.msg);
    ws_error_clear(&err);
    rc = ws_gpu_function_occupancy(f, 128, -1, &r, &err);
    CHECK(rc == WS_ERR_USAGE &&
              !strcmp(err.msg, "dynamic shared memory must be 0 or more bytes, not -1"),
          "negative smem: %s", err.msg);
    ws_error_clear(&err);
    rc = ws_gpu_function_occupancy(f, 128, 300 * 1024, &r, &err);
    printf("too much shared memory: %s\n", err.msg);
    CHECK(rc == WS_ERR_GPU &&
              strstr(err.msg, "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES = 307200") &&
              strstr(err.msg, "failed: CUDA_ERROR_"),
          "300 KB dynamic smem: %s", err.msg);
    ws_error_clear(&err);
    rc = ws_gpu_function_occupancy(f, 256, 8192, &r, &err);
    int rc1 = ws_gpu_occupancy(g, s->ptx, s->kernel, 0, 256, 8192, &one, &err);
    CHECK(rc == WS_OK && rc1 == WS_OK && r.blocks_per_sm == one.blocks_per_sm &&
              r.num_regs == one.num_regs && one.blocks_per_sm > 0,
          "one-call form agrees: %d vs %d (%s)", r.blocks_per_sm, one.blocks_per_sm, err.msg);
    ws_gpu_function_free(f);
}

static void run_sweep(ws_gpu *g, const char *cc)
{
    tally t;
    memset(&t, 0, sizeof t);
    printf("%-15s %3s %4s %11s %4s  %6s %5s  %-12s %-13s\n", "kernel", "cap", "regs",
           "smem st+dyn", "thr", "driver", "model", "w/r/s/b lim", "binding");
    for (int i = 0; i < COUNT(sources); i++) {
        print_ptxas(&sources[i]);
        for (int c = 0; c < COUNT(caps); c++)
            sweep_function(g, &sources[i], cc, caps[c], &t);
    }
    printf("%d points, %d agree; agreeing points bound strictly by: warps %d, registers %d, "
           "shared memory %d, blocks %d; %d cannot launch\n", t.points, t.agree,
           t.strict[WS_OCC_LIMIT_WARPS], t.strict[WS_OCC_LIMIT_REGS], t.strict[WS_OCC_LIMIT_SMEM],
           t.strict[WS_OCC_LIMIT_BLOCKS], t.cannot_launch);
    int expect = COUNT(sources) * COUNT(caps) * COUNT(dyn_sizes) * COUNT(block_sizes);
    CHECK(t.points == expect, "swept %d points, want %d", t.points, expect);
    CHECK(t.strict[WS_OCC_LIMIT_REGS] > 0, "no agreeing point where registers alone bind");
    CHECK(t.strict[WS_OCC_LIMIT_SMEM] > 0, "no agreeing point where shared memory alone binds");
    CHECK(t.strict[WS_OCC_LIMIT_WARPS] > 0, "no agreeing point where warps alone bind");
    CHECK(t.strict[WS_OCC_LIMIT_BLOCKS] > 0, "no agreeing point where the block limit alone binds");
    CHECK(t.cannot_launch > 0, "no agreeing point where a block cannot fit at all");
}

int main(void)
{
    ws_error err;
    ws_error_clear(&err);
    /* The PTX first: a machine without a GPU still fills the PTX cache for one with. */
    int built = 1;
    for (int i = 0; i < COUNT(sources); i++) {
        int rc = build_ptx(&sources[i], &err);
        CHECK(rc == WS_OK, "PTX of %s: %s", sources[i].spec, err.msg);
        built &= rc == WS_OK;
        if (rc == WS_OK)
            test_input_errors(&sources[i]);
    }
    ws_gpu *g = NULL;
    if (ws_gpu_open(NULL, 0, &g, &err) != WS_OK) {
        printf("skipped: no GPU (%s)\n", err.msg);
        for (int i = 0; i < COUNT(sources); i++)
            free(sources[i].ptx);
        return 77;
    }
    const ws_gpu_info *info = ws_gpu_get_info(g);
    char cc[16];
    snprintf(cc, sizeof cc, "%d.%d", info->cc_major, info->cc_minor);
    printf("device %s, cc %s, %d SMs\n", info->name, cc, info->sm_count);
    ws_occupancy probe;
    if (ws_occupancy_calc(cc, 32, 0, 0, &probe, &err) != WS_OK) {
        CHECK(0, "device %s has compute capability %s, which the occupancy model's table "
                 "lacks: %s", info->name, cc, err.msg);
    } else if (built) {
        test_sm_limits(g, cc);
        run_sweep(g, cc);
        test_gpu_errors(g, &sources[1]);
    }
    for (int i = 0; i < COUNT(sources); i++)
        free(sources[i].ptx);
    ws_gpu_close(g);
    return ws_test_finish("gpu_occupancy");
}
