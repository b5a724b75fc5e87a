/* test_core_steps.c — launch sequences without a simulator or GPU: what ws_variant_launches
 * hands a host (order, kernels, shapes, arguments, loop variables), `while` reading an
 * element the host's "kernel" changed, `set`, and the errors found only while running. */
#include "core/core.h"
#include "tests/check.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[512], spec_path[600], cu_path[600];

#define MAXL 64
typedef struct rec {
    ws_buffers bufs;
    int n;
    char kernel[MAXL][128], vars[MAXL][256];
    uint32_t grid[MAXL], block[MAXL];
    int64_t arg2[MAXL];
    int fail_at;          /* launch index whose host call fails, -1 none */
} rec;

/* The host: records the launch; kernel "halve" halves element 0 of buffer 0. */
static int rec_launch(void *ctx, const ws_launch *l, ws_error *err)
{
    rec *r = ctx;
    if (l->index == r->fail_at)
        return ws_error_set(err, WS_ERR_GPU, "launch failed");
    if (r->n < MAXL) {
        snprintf(r->kernel[r->n], 128, "%s", l->v->kernel);
        snprintf(r->vars[r->n], 256, "%s", l->vars);
        r->grid[r->n] = l->v->grid[0];
        r->block[r->n] = l->v->block[0];
        r->arg2[r->n] = l->v->nargs > 2 ? l->v->args[2].ival : -1;
    }
    CHECK(l->index == r->n, "launch index %d, want %d", l->index, r->n);
    r->n++;
    if (!strcmp(l->v->kernel, "halve")) {
        int32_t *c = r->bufs.b[0].data;
        c[0] /= 2;
    }
    return WS_OK;
}

static int rec_read(void *ctx, int b, uint64_t i, void *e, ws_error *err)
{
    return ws_buffers_read_elem(&((rec *)ctx)->bufs, b, i, e, err);
}

static int rec_write(void *ctx, int b, uint64_t i, const void *e, ws_error *err)
{
    return ws_buffers_write_elem(&((rec *)ctx)->bufs, b, i, e, err);
}

static const char *head =
    "source w.cu\n"                                       /* 1 */
    "const N = 1024\n"                                    /* 2 */
    "const LOG2N = 3\n"                                   /* 3 */
    "buffer c i32 1 const 100\n"                          /* 4 */
    "buffer data f32 N uniform_real\n";                   /* 5 */

/* Parses head + body and runs variant 0; the host's record in *r. */
static int run(const char *body, rec *r, int fail_at, ws_error *err)
{
    char text[4096];
    snprintf(text, sizeof text, "%s%s", head, body);
    ws_spec *s = NULL;
    memset(r, 0, sizeof *r);
    r->fail_at = fail_at;
    ws_error_clear(err);
    int rc = ws_spec_parse(text, spec_path, NULL, 0, &s, err);
    if (rc != WS_OK)
        return rc;
    rc = ws_buffers_generate(s, &r->bufs, err);
    ws_launch_host h = {r, rec_launch, rec_read, rec_write};
    if (rc == WS_OK)
        rc = ws_variant_launches(s, &s->variants[0], &h, err);
    ws_buffers_free(&r->bufs);
    ws_spec_free(s);
    return rc;
}

static void test_bitonic(void)
{
    rec r;
    ws_error err;
    int rc = run("variant sort\n"
                 "  repeat LOG2N as K\n"
                 "    repeat K+1 as J\n"
                 "      launch step grid N/256 block 256 args data (2<<K) (1<<(K-J))\n"
                 "    end\n"
                 "  end\n"
                 "  launch tail grid 1,2 block 32 smem 4*N args data 0 N\n",
                 &r, -1, &err);
    CHECK(rc == WS_OK, "bitonic: %s", err.msg);
    CHECK(r.n == 1 + 2 + 3 + 1, "launches %d", r.n);
    CHECK(!strcmp(r.vars[0], "K=0 J=0") && !strcmp(r.vars[4], "K=2 J=1") &&
          !strcmp(r.vars[6], ""), "vars %s %s '%s'", r.vars[0], r.vars[4], r.vars[6]);
    CHECK(r.arg2[4] == (1 << (2 - 1)) && r.arg2[6] == 1024, "args %lld %lld",
          (long long)r.arg2[4], (long long)r.arg2[6]);
    CHECK(!strcmp(r.kernel[5], "step") && !strcmp(r.kernel[6], "tail") && r.grid[6] == 1,
          "kernels %s %s", r.kernel[5], r.kernel[6]);
}

static void test_while(void)
{
    rec r;
    ws_error err;
    int rc = run("variant v\n"
                 "  while c[0] != 0 max 10 as T\n"
                 "    launch halve grid 1 block 1+T args c\n"
                 "  end\n"
                 "  set c[0] = 3\n"
                 "  while c[0] == 3 max 10\n"
                 "    launch halve grid 1 block 32 args c\n"
                 "  end\n"
                 "  repeat 0 as Z\n"
                 "    launch never grid 1 block 32 args c\n"
                 "  end\n",
                 &r, -1, &err);
    CHECK(rc == WS_OK, "while: %s", err.msg);
    CHECK(r.n == 7 + 1, "100 halves to 0 in 7 launches, then 3 once: %d", r.n);
    CHECK(r.block[6] == 7 && !strcmp(r.vars[6], "T=6"), "block %u vars %s", r.block[6], r.vars[6]);

    rc = run("variant v\n  while c[0] != 0 max 4\n  launch halve grid 1 block 1 args c\n  end\n",
             &r, -1, &err);
    CHECK(rc == WS_ERR_SPEC && err.line == 7 && r.n == 4 &&
          !strcmp(err.msg, "while c[0] != 0: still going after max 4 trips"), "max: %d %s",
          err.line, err.msg);
    rc = run("variant v\n  repeat 3 as I\n  set c[I] = 0\n  launch halve grid 1 block 1 args c\n"
             "  end\n", &r, -1, &err);
    CHECK(rc == WS_ERR_SPEC && err.line == 8 && r.n == 1 &&
          strstr(err.msg, "set c[1]: the index is outside the buffer (1 elements)"),
          "index from a loop variable: %d %s", err.line, err.msg);
    rc = run("variant v\n  set c[0] = 5000000000\n  launch halve grid 1 block 1 args c\n", &r,
             -1, &err);
    CHECK(rc == WS_ERR_SPEC && err.line == 7 && strstr(err.msg, "does not fit in i32"),
          "value range: %s", err.msg);
    rc = run("variant v\n  set data[2] = 0.5\n  while data[2] == 0.5 max 2\n"
             "  launch k grid 1 block 1 args data\n  end\n", &r, -1, &err);
    CHECK(rc == WS_ERR_SPEC && r.n == 2 && strstr(err.msg, "still going after max 2"),
          "float element: %s", err.msg);
    rc = run("variant v\n  repeat 5\n  launch k grid 1 block 1 args c\n  end\n", &r, 2, &err);
    CHECK(rc == WS_ERR_GPU && r.n == 2 && !strcmp(err.msg, "launch failed"),
          "the host's error stops the sequence: %d %s", r.n, err.msg);
}

static void test_single(void)
{
    rec r;
    ws_error err;
    int rc = run("variant v\n  kernel k\n  grid 3\n  block 64\n  args c\n", &r, -1, &err);
    CHECK(rc == WS_OK && r.n == 1 && r.grid[0] == 3 && !strcmp(r.kernel[0], "k"),
          "a single-launch variant is one launch: %d", r.n);
}

int main(void)
{
    snprintf(dir, sizeof dir, "%s/tmp-core-steps-%d", WS_BINARY_DIR, (int)getpid());
    mkdir(dir, 0777);
    snprintf(spec_path, sizeof spec_path, "%s/w.spec", dir);
    snprintf(cu_path, sizeof cu_path, "%s/w.cu", dir);
    FILE *f = fopen(cu_path, "w");
    CHECK(f != NULL, "cannot write %s", cu_path);
    if (f) {
        fputs("__global__ void k(int *c) {}\n", f);
        fclose(f);
    }
    test_bitonic();
    test_while();
    test_single();
    unlink(cu_path);
    rmdir(dir);
    return ws_test_finish("core_steps");
}
