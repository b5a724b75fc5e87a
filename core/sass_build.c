/* sass_build.c — the SASS a GPU runs for a workload: the cached PTX (ptx_build.c) through
 * `ptxas -arch=sm_XX -lineinfo` to a cubin, and `nvdisasm -gi -c` to text with line info,
 * both cached by content hash beside the PTX. Reading the text and the cubin is sim/'s
 * job (sass_parse.c, sass_load.c). */
#include "core/core_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef WS_PTXAS_PATH
#define WS_PTXAS_PATH ""
#endif
#ifndef WS_NVDISASM_LOCAL
#define WS_NVDISASM_LOCAL ""
#endif

#define WS_NVDISASM_FLAGS "-gi", "-c"

/* The first executable `name` in $PATH, then /usr/local/cuda/bin, into buf. */
static int ws_find_in_path(const char *name, char *buf, size_t n)
{
    const char *path = getenv("PATH");
    char dirs[8192];
    snprintf(dirs, sizeof dirs, "%s:/usr/local/cuda/bin", path ? path : "");
    for (char *save = NULL, *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        if (!d[0])
            continue;
        if (snprintf(buf, n, "%s/%s", d, name) < (int)n && access(buf, X_OK) == 0)
            return 1;
    }
    return 0;
}

/* A tool: $ENV as given, else the path the build found, else PATH, else the CUDA bin
 * directory. Returns 1 when found; buf holds what was tried either way. */
static int ws_find_tool(const char *env, const char *baked, const char *name, char *buf,
                        size_t n)
{
    const char *e = getenv(env);
    if (e && e[0]) {
        snprintf(buf, n, "%s", e);
        return access(buf, X_OK) == 0;
    }
    if (baked[0] && access(baked, X_OK) == 0) {
        snprintf(buf, n, "%s", baked);
        return 1;
    }
    if (ws_find_in_path(name, buf, n))
        return 1;
    snprintf(buf, n, "%s", name);
    return 0;
}

int ws_nvdisasm_find(char *path, size_t n)
{
    return ws_find_tool("WARPSCOPE_NVDISASM", WS_NVDISASM_LOCAL, "nvdisasm", path, n);
}

int ws_sass_arch_ok(const char *arch)
{
    if (!arch || strncmp(arch, "sm_", 3) != 0 || strlen(arch) != 5)
        return 0;
    if (arch[3] < '0' || arch[3] > '9' || arch[4] < '0' || arch[4] > '9')
        return 0;
    int v = (arch[3] - '0') * 10 + (arch[4] - '0');
    return v >= 70 && v <= 90;
}

/* The PTX with `.target sm_90` rewritten for `arch` (ptxas refuses a lower target). */
static int ws_retarget(const char *ptx, size_t len, const char *arch, const char *out,
                       ws_error *err)
{
    FILE *f = fopen(out, "w");
    if (!f)
        return ws_error_set(err, WS_ERR_IO, "cannot write %s: %s", out, strerror(errno));
    const char *t = strstr(ptx, "\n.target ");
    size_t head = t ? (size_t)(t - ptx) + 9 : len;
    fwrite(ptx, 1, head, f);
    if (t) {
        const char *eol = t + 9;
        while (eol < ptx + len && *eol != '\n' && *eol != ',' && *eol != ' ')
            eol++;
        fputs(arch, f);
        fwrite(eol, 1, (size_t)(ptx + len - eol), f);
    }
    if (fclose(f) != 0)
        return ws_error_set(err, WS_ERR_IO, "cannot write %s", out);
    return WS_OK;
}

/* Runs tool argv (stdout to out, stderr to a log); a failure names the tool and quotes its
 * first lines. */
static int ws_tool(const char *what, char *const argv[], const char *out, const char *source,
                   ws_error *err)
{
    char log[WS_PATH_MAX + 64];
    snprintf(log, sizeof log, "%s.log", out);
    int status = ws_spawn(argv, out, log);
    int rc = WS_OK;
    if (status == -1) {
        rc = ws_error_at(err, WS_ERR_BUILD, source, 0, "cannot run %s (%s): %s", what,
                         argv[0], strerror(errno));
    } else if (status != 0) {
        char first[400];
        ws_first_lines(log, first, sizeof first, 4);
        for (char *p = first; *p; p++)
            if (*p == '\n') *p = ' ';
        rc = ws_error_at(err, WS_ERR_BUILD, source, 0, "%s failed: %s", what,
                         first[0] ? first : "(no output)");
    }
    unlink(log);
    if (rc != WS_OK)
        unlink(out);
    return rc;
}

static int ws_build_cubin(const char *ptx_path, const char *ptx, size_t len, const char *arch,
                          const char *cubin, ws_error *err)
{
    char ptxas[WS_PATH_MAX];
    if (!ws_find_tool("WARPSCOPE_PTXAS", WS_PTXAS_PATH, "ptxas", ptxas, sizeof ptxas))
        return ws_error_at(err, WS_ERR_BUILD, ptx_path, 0, "ptxas not found (tried %s) and "
                           "no cached cubin at %s", ptxas, cubin);
    char tmp[WS_PATH_MAX + 64], src[WS_PATH_MAX + 64], archflag[32];
    snprintf(tmp, sizeof tmp, "%s.tmp.%d", cubin, (int)getpid());
    snprintf(src, sizeof src, "%s.%d.ptx", cubin, (int)getpid());
    snprintf(archflag, sizeof archflag, "-arch=%s", arch);
    int rc = ws_retarget(ptx, len, arch, src, err);
    char *argv[] = {ptxas, archflag, "-lineinfo", src, "-o", tmp, NULL};
    char out[WS_PATH_MAX + 80];
    snprintf(out, sizeof out, "%s.out", tmp);
    if (rc == WS_OK)
        rc = ws_tool("ptxas", argv, out, ptx_path, err);
    unlink(out);
    unlink(src);
    if (rc == WS_OK && rename(tmp, cubin) != 0)
        rc = ws_error_set(err, WS_ERR_IO, "cannot rename %s: %s", tmp, strerror(errno));
    if (rc != WS_OK)
        unlink(tmp);
    return rc;
}

static int ws_build_sass(const char *cubin, const char *sass, ws_error *err)
{
    char nvdisasm[WS_PATH_MAX];
    if (!ws_nvdisasm_find(nvdisasm, sizeof nvdisasm))
        return ws_error_at(err, WS_ERR_BUILD, cubin, 0, "nvdisasm not found (tried %s; "
                           "scripts/setup.sh installs it, or set WARPSCOPE_NVDISASM)",
                           nvdisasm);
    char tmp[WS_PATH_MAX + 64];
    snprintf(tmp, sizeof tmp, "%s.tmp.%d", sass, (int)getpid());
    char *argv[] = {nvdisasm, WS_NVDISASM_FLAGS, (char *)cubin, NULL};
    int rc = ws_tool("nvdisasm", argv, tmp, cubin, err);
    if (rc == WS_OK && rename(tmp, sass) != 0)
        rc = ws_error_set(err, WS_ERR_IO, "cannot rename %s: %s", tmp, strerror(errno));
    if (rc != WS_OK)
        unlink(tmp);
    return rc;
}

int ws_sass_build_ptx(const char *ptx_path, const char *cache_dir, const char *arch,
                      char *cubin_path, char *sass_path, size_t n, ws_error *err)
{
    if (!arch || !arch[0])
        arch = "sm_90";
    if (!ws_sass_arch_ok(arch))
        return ws_error_set(err, WS_ERR_USAGE, "unsupported architecture '%s' (sm_70..sm_90)",
                            arch);
    const char *cache = cache_dir && cache_dir[0] ? cache_dir : getenv("WARPSCOPE_PTX_CACHE");
    char dir[WS_PATH_MAX];
    if (!cache || !cache[0]) {   /* beside the PTX */
        const char *slash = strrchr(ptx_path, '/');
        snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - ptx_path) : 1,
                 slash ? ptx_path : ".");
        cache = dir;
    }
    int rc = ws_mkdir_p(cache, err);
    if (rc != WS_OK)
        return rc;
    char *ptx;
    size_t len;
    if (ws_read_file(ptx_path, &ptx, &len, err) != WS_OK)
        return ws_error_at(err, WS_ERR_BUILD, ptx_path, 0, "cannot read the PTX: %.400s",
                           err->msg);
    uint64_t h = ws_hash64(ptx, len, 0x77737361737331ULL); /* "wssass1" */
    const char *flags = "ptxas -lineinfo | nvdisasm -gi -c";
    h = ws_hash64(flags, strlen(flags), h);
    h = ws_hash64(arch, strlen(arch), h);
    const char *base = strrchr(ptx_path, '/');
    base = base ? base + 1 : ptx_path;
    int stem = (int)strlen(base) - (strlen(base) > 4 && !strcmp(base + strlen(base) - 4, ".ptx")
                                        ? 4 : 0);
    if (stem > 40)
        stem = 40;
    char cubin[WS_PATH_MAX + 128], sass[WS_PATH_MAX + 128];
    snprintf(cubin, sizeof cubin, "%s/%.*s-%s-%016llx.cubin", cache, stem, base, arch,
             (unsigned long long)h);
    snprintf(sass, sizeof sass, "%.*s.sass", (int)strlen(cubin) - 6, cubin);
    if (strlen(sass) >= n || strlen(cubin) >= n)
        rc = ws_error_set(err, WS_ERR_IO, "SASS cache path too long: %s", sass);
    if (rc == WS_OK && access(cubin, R_OK) != 0)
        rc = ws_build_cubin(ptx_path, ptx, len, arch, cubin, err);
    free(ptx);
    if (rc == WS_OK && sass_path && access(sass, R_OK) != 0)
        rc = ws_build_sass(cubin, sass, err);
    if (rc == WS_OK) {
        snprintf(cubin_path, n, "%s", cubin);
        if (sass_path)
            snprintf(sass_path, n, "%s", sass);
    }
    return rc;
}

int ws_sass_build(const ws_spec *s, const char *cache_dir, const char *arch, char *cubin_path,
                  char *sass_path, size_t n, ws_error *err)
{
    char ptx[WS_PATH_MAX + 128];
    if (arch && arch[0] && !ws_sass_arch_ok(arch))
        return ws_error_set(err, WS_ERR_USAGE, "unsupported architecture '%s' (sm_70..sm_90)",
                            arch);
    int rc = ws_ptx_build_arch(s, cache_dir, arch, ptx, sizeof ptx, err);
    if (rc != WS_OK)
        return rc;
    return ws_sass_build_ptx(ptx, cache_dir, arch, cubin_path, sass_path, n, err);
}
