/* test_core_ptx.c — ws_ptx_build with the real nvcc: constants as -D (numbers and words),
 * the cache hit (same file, untouched), a rebuild when a define changes, the cache dir
 * from the argument and from $WARPSCOPE_PTX_CACHE, the cached PTX without nvcc, and a
 * compile error's message. */
#include "core/core.h"
#include "tests/check.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[512];

static void write_file(const char *name, const char *text)
{
    char path[700];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL, "write %s", path);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static ws_spec *load(const char *name, const ws_define *defs, int ndefs)
{
    char path[700];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    ws_spec *s = NULL;
    ws_error err;
    ws_error_clear(&err);
    int rc = ws_spec_load(path, defs, ndefs, &s, &err);
    CHECK(rc == WS_OK, "load %s: %s", name, err.msg);
    return s;
}

static int contains(const char *path, const char *needle)
{
    char *text;
    ws_error err;
    if (ws_read_file(path, &text, NULL, &err) != WS_OK)
        return 0;
    int found = strstr(text, needle) != NULL;
    free(text);
    return found;
}

static void test_build_and_cache(const char *cache)
{
    ws_spec *s = load("tiny.spec", NULL, 0);
    if (!s)
        return;
    char ptx[1024], ptx2[1024], ptx3[1024];
    ws_error err;
    ws_error_clear(&err);
    int rc = ws_ptx_build(s, cache, ptx, sizeof ptx, &err);
    CHECK(rc == WS_OK, "build: %s", err.msg);
    if (rc != WS_OK) {
        ws_spec_free(s);
        return;
    }
    CHECK(strncmp(ptx, cache, strlen(cache)) == 0 && strstr(ptx, "/tiny-") &&
          strlen(strstr(ptx, "/tiny-")) == strlen("/tiny-") + 16 + 4, "name %s", ptx);
    CHECK(contains(ptx, ".target sm_90") && contains(ptx, ".loc"), "sm_90 with line info");
    CHECK(contains(ptx, "_Z4tinyPi"), "mangled entry");
    CHECK(contains(ptx, "1234567"), "LOOP=1234567 reached the source");
    CHECK(contains(ptx, "7654321"), "-DMODE_fast=1 reached the source");
    struct stat st1, st2;
    stat(ptx, &st1);
    rc = ws_ptx_build(s, cache, ptx2, sizeof ptx2, &err);
    stat(ptx2, &st2);
    CHECK(rc == WS_OK && strcmp(ptx, ptx2) == 0 && st1.st_ino == st2.st_ino &&
          st1.st_mtim.tv_nsec == st2.st_mtim.tv_nsec && st1.st_mtime == st2.st_mtime,
          "cache hit keeps the file");
    ws_spec_free(s);

    ws_define d[2] = {{"LOOP", "99"}, {"MODE", "slow"}};
    s = load("tiny.spec", d, 2);
    if (!s)
        return;
    rc = ws_ptx_build(s, cache, ptx3, sizeof ptx3, &err);
    CHECK(rc == WS_OK && strcmp(ptx3, ptx) != 0, "a define changes the key: %s", err.msg);
    CHECK(contains(ptx3, "99") && !contains(ptx3, "1234567") && !contains(ptx3, "7654321"),
          "rebuilt with LOOP=99 and MODE_slow");
    ws_spec_free(s);
}

static void test_env_cache(void)
{
    char env_cache[700], ptx[1024];
    snprintf(env_cache, sizeof env_cache, "%s/env-cache/sub", dir);
    setenv("WARPSCOPE_PTX_CACHE", env_cache, 1);
    ws_spec *s = load("tiny.spec", NULL, 0);
    ws_error err;
    ws_error_clear(&err);
    if (s) {
        int rc = ws_ptx_build(s, NULL, ptx, sizeof ptx, &err);
        CHECK(rc == WS_OK && strncmp(ptx, env_cache, strlen(env_cache)) == 0,
              "env cache: %s %s", ptx, err.msg);
        ws_spec_free(s);
    }
}

/* A GPU host has no nvcc: the cached PTX is used as it is; an uncached one is an error. */
static void test_no_nvcc(const char *cache)
{
    char ptx[1024], want[1024];
    ws_error err;
    ws_error_clear(&err);
    ws_spec *s = load("tiny.spec", NULL, 0);
    if (!s)
        return;
    int rc = ws_ptx_build(s, cache, want, sizeof want, &err);
    setenv("WARPSCOPE_NVCC", "/nonexistent/nvcc", 1);
    rc = ws_ptx_build(s, cache, ptx, sizeof ptx, &err);
    CHECK(rc == WS_OK && strcmp(ptx, want) == 0, "cached PTX without nvcc: %s", err.msg);
    ws_spec_free(s);
    ws_define d = {"LOOP", "4242"};
    s = load("tiny.spec", &d, 1);
    if (s) {
        rc = ws_ptx_build(s, cache, ptx, sizeof ptx, &err);
        CHECK(rc == WS_ERR_BUILD && strstr(err.msg, "nvcc not found (tried /nonexistent/nvcc)") &&
              strstr(err.msg, "no cached PTX at"), "no nvcc, no cache: %s", err.msg);
        ws_spec_free(s);
    }
    unsetenv("WARPSCOPE_NVCC");
}

/* Builds a spec: returns ws_ptx_build's code (1 where the spec did not load), the error in
 * *err and the PTX path in ptx. */
static int build_spec(const char *spec, const char *cache, char *ptx, size_t n, ws_error *err)
{
    ws_spec *s = load(spec, NULL, 0);
    ws_error_clear(err);
    if (!s)
        return 1;
    int rc = ws_ptx_build(s, cache, ptx, n, err);
    ws_spec_free(s);
    return rc;
}

static void test_compile_error(const char *cache)
{
    char ptx[1024];
    ws_error err;
    int rc = build_spec("broken.spec", cache, ptx, sizeof ptx, &err);
    CHECK(rc == WS_ERR_BUILD && strstr(err.msg, "nvcc failed") && strstr(err.msg, "broken.cu") &&
          strstr(err.msg, "error"), "compile error: %s", err.msg);
    CHECK(strstr(err.file, "broken.cu") != NULL, "error names the .cu: %s", err.file);
    CHECK(access(ptx, F_OK) != 0, "no PTX left behind");
}

/* A spec constant named like a word in a header the .cu includes (CUDA's pipeline header
 * has `template<unsigned N>`): the error says which constant and where. */
static void test_macro_clash(const char *cache)
{
    char ptx[1024];
    ws_error err;
    int rc = build_spec("clash.spec", cache, ptx, sizeof ptx, &err);
    CHECK(rc == WS_ERR_BUILD && strstr(err.msg, "nvcc failed") &&
          strstr(err.msg, "the spec's constant N reaches nvcc as -DN=64 and replaces the word N "
                          "at ") && strstr(err.msg, "clash.h:2: rename the constant"),
          "a constant that clashes with a header's word: %s", err.msg);
}

/* The same clash where no source of the workload names the constant (a header of CUDA's
 * own, a .cu that only mentions N in a comment): it is passed as -DWS_N and the build runs;
 * N_ITEMS, which the .cu uses, keeps its -DN_ITEMS. */
static void test_macro_unnamed(const char *cache)
{
    char ptx[1024];
    ws_error err;
    int rc = build_spec("unnamed.spec", cache, ptx, sizeof ptx, &err);
    CHECK(rc == WS_OK && access(ptx, F_OK) == 0,
          "a constant no source names is renamed past a header's clash: %s", err.msg);
}

int main(void)
{
    snprintf(dir, sizeof dir, "%s/tmp-core-ptx-%d", WS_BINARY_DIR, (int)getpid());
    mkdir(dir, 0777);
    write_file("tiny.cu",
               "#ifndef LOOP\n#define LOOP 1\n#endif\n"
               "__global__ void tiny(int *out)\n{\n"
               "    out[threadIdx.x] = LOOP;\n"
               "#ifdef MODE_fast\n    out[threadIdx.x + 32] = 7654321;\n#endif\n}\n");
    write_file("tiny.spec", "workload tiny\nconst LOOP = 1234567\nconst MODE = fast\n"
                            "variant v\n kernel tiny\n grid 1\n block 32\n");
    write_file("broken.cu", "__global__ void broken(int *out) { out[0] = ; }\n");
    write_file("broken.spec", "variant v\n kernel broken\n grid 1\n block 32\n");
    write_file("clash.h", "// a header\ntemplate <unsigned N> __device__ unsigned twice() { return 2 * N; }\n");
    write_file("clash.cu", "#include \"clash.h\"\n__global__ void clash(unsigned *o) { o[0] = twice<3>(); }\n");
    write_file("clash.spec", "const N = 64\nvariant v\n kernel clash\n grid 1\n block 32\n args 0\n");
    write_file("unnamed.cu", "#include <cuda_pipeline.h>\n// N items, one a thread\n"
                             "__global__ void unnamed(unsigned *o) { o[threadIdx.x] = N_ITEMS; }\n");
    write_file("unnamed.spec", "const N = 64\nconst N_ITEMS = 3\nvariant v\n kernel unnamed\n"
                               " grid 1\n block 32\n args 0\n");
    char cache[700];
    snprintf(cache, sizeof cache, "%s/cache", dir);
    test_build_and_cache(cache);
    test_no_nvcc(cache);
    test_env_cache();
    test_compile_error(cache);
    test_macro_clash(cache);
    test_macro_unnamed(cache);
    char cmd[800];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (ws_test_failed == 0 && system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return ws_test_finish("core_ptx");
}
