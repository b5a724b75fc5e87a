/* test_sass_build.c — ws_sass_build_ptx with the real ptxas and nvdisasm: the cubin and
 * the .sass in the cache (with line info), a cache hit without rebuilding and without the
 * tools, one file per architecture, where nvdisasm is looked for, and each error: a bad
 * architecture, ptxas or nvdisasm missing, either failing, an unreadable PTX. */
#include "core/core.h"
#include "tests/check.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PTX WS_SASS_PTX_DIR "/sim_reduce.ptx"

static char work[600];

static void fresh_cache(char *dir, size_t n, const char *name)
{
    snprintf(dir, n, "%s/%s", work, name);
    char cmd[1400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0, "clean %s", dir);
}

static int build(const char *ptx, const char *cache, const char *arch, char *cubin, char *sass,
                 ws_error *err)
{
    ws_error_clear(err);
    return ws_sass_build_ptx(ptx, cache, arch, cubin, sass, 1024, err);
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

static void test_build_and_cache(void)
{
    char cache[800], cubin[1024], sass[1024], cubin2[1024], sass2[1024];
    fresh_cache(cache, sizeof cache, "cache-a");
    ws_error err;
    int rc = build(PTX, cache, NULL, cubin, sass, &err);
    CHECK(rc == WS_OK, "build: %s", err.msg);
    if (rc != WS_OK)
        return;
    CHECK(strncmp(cubin, cache, strlen(cache)) == 0 && strstr(cubin, "-sm_90-") &&
          strstr(sass, ".sass"), "paths %s %s", cubin, sass);
    CHECK(contains(sass, "//## File \"") && contains(sass, ".text.") &&
          contains(sass, "\t.target\tsm_90"), "the .sass has line info and code");
    struct stat st1, st2;
    CHECK(stat(sass, &st1) == 0, "stat");
    sleep(1);
    setenv("WARPSCOPE_PTXAS", "/nonexistent/ptxas", 1);
    setenv("WARPSCOPE_NVDISASM", "/nonexistent/nvdisasm", 1);
    rc = build(PTX, cache, "sm_90", cubin2, sass2, &err);
    CHECK(rc == WS_OK && !strcmp(cubin, cubin2) && !strcmp(sass, sass2),
          "cached, without the tools: %s", err.msg);
    CHECK(stat(sass, &st2) == 0 && st1.st_mtime == st2.st_mtime, "not rebuilt");
    unsetenv("WARPSCOPE_PTXAS");
    unsetenv("WARPSCOPE_NVDISASM");
    rc = build(PTX, cache, "sm_80", cubin2, sass2, &err);
    CHECK(rc == WS_OK && strstr(cubin2, "-sm_80-") && strcmp(sass, sass2) != 0 &&
          contains(sass2, "\t.target\tsm_80"), "sm_80 is another file: %s", err.msg);
}

static void test_errors(void)
{
    char cache[800], cubin[1024], sass[1024];
    ws_error err;
    fresh_cache(cache, sizeof cache, "cache-b");
    const char *bad[] = {"sm_60", "sm_91", "sm_9", "compute_90", "sm_x0"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int rc = build(PTX, cache, bad[i], cubin, sass, &err);
        char want[80];
        snprintf(want, sizeof want, "unsupported architecture '%s' (sm_70..sm_90)", bad[i]);
        CHECK(rc == WS_ERR_USAGE && strstr(err.msg, want), "%s: %s", bad[i], err.msg);
    }
    CHECK(ws_sass_arch_ok("sm_70") && ws_sass_arch_ok("sm_90") && !ws_sass_arch_ok(NULL) &&
          !ws_sass_arch_ok("sm_69"), "arch_ok");

    setenv("WARPSCOPE_NVDISASM", "/nonexistent/nvdisasm", 1);
    int rc = build(PTX, cache, NULL, cubin, sass, &err);
    CHECK(rc == WS_ERR_BUILD && strstr(err.msg, "nvdisasm not found (tried "
          "/nonexistent/nvdisasm; scripts/setup.sh installs it, or set WARPSCOPE_NVDISASM)"),
          "no nvdisasm: %s", err.msg);
    setenv("WARPSCOPE_NVDISASM", "/bin/false", 1);
    rc = build(PTX, cache, NULL, cubin, sass, &err);
    CHECK(rc == WS_ERR_BUILD && strstr(err.msg, "nvdisasm failed: (no output)"),
          "nvdisasm fails: %s", err.msg);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "ls '%s' | grep -q '\\.sass'", cache);
    CHECK(system(cmd) != 0, "no .sass left behind after a failure");
    unsetenv("WARPSCOPE_NVDISASM");

    fresh_cache(cache, sizeof cache, "cache-c");
    setenv("WARPSCOPE_PTXAS", "/nonexistent/ptxas", 1);
    rc = build(PTX, cache, NULL, cubin, sass, &err);
    CHECK(rc == WS_ERR_BUILD && strstr(err.msg, "ptxas not found (tried /nonexistent/ptxas) "
          "and no cached cubin at ") && !strcmp(err.file, PTX), "no ptxas: %s", err.msg);
    unsetenv("WARPSCOPE_PTXAS");

    char garbage[800];
    snprintf(garbage, sizeof garbage, "%s/garbage.ptx", work);
    FILE *f = fopen(garbage, "w");
    CHECK(f != NULL, "write %s", garbage);
    if (f) {
        fputs(".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k() { bogus; }\n",
              f);
        fclose(f);
    }
    rc = build(garbage, cache, NULL, cubin, sass, &err);
    CHECK(rc == WS_ERR_BUILD && strstr(err.msg, "ptxas failed: ") && strstr(err.msg, "error"),
          "ptxas fails: %s", err.msg);
    snprintf(cmd, sizeof cmd, "ls '%s' | grep -q 'garbage.*cubin'", cache);
    CHECK(system(cmd) != 0, "no cubin left behind after a failure");

    rc = build(WS_SASS_PTX_DIR "/missing.ptx", cache, NULL, cubin, sass, &err);
    CHECK(rc == WS_ERR_BUILD && strstr(err.msg, "cannot read the PTX"), "missing: %s", err.msg);
}

static void test_find_nvdisasm(void)
{
    char path[1024];
    setenv("WARPSCOPE_NVDISASM", "/bin/true", 1);
    CHECK(ws_nvdisasm_find(path, sizeof path) == 1 && !strcmp(path, "/bin/true"),
          "$WARPSCOPE_NVDISASM first: %s", path);
    setenv("WARPSCOPE_NVDISASM", "/nonexistent/nvdisasm", 1);
    CHECK(ws_nvdisasm_find(path, sizeof path) == 0 && !strcmp(path, "/nonexistent/nvdisasm"),
          "a missing $WARPSCOPE_NVDISASM is what was tried: %s", path);
    unsetenv("WARPSCOPE_NVDISASM");
    CHECK(ws_nvdisasm_find(path, sizeof path) == 1 && access(path, X_OK) == 0,
          "found (project-local, PATH or the CUDA directory): %s", path);
}

int main(void)
{
    snprintf(work, sizeof work, "%s/build-%d", WS_SASS_WORK_DIR, (int)getpid());
    char cmd[800];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", work);
    if (system(cmd) != 0)
        return 1;
    unsetenv("WARPSCOPE_PTX_CACHE");
    test_find_nvdisasm();
    test_build_and_cache();
    test_errors();
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", work);
    CHECK(system(cmd) == 0, "clean up");
    return ws_test_finish("test_sass_build");
}
