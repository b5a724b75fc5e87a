/* ptx_build.c — compiles a workload's .cu to PTX with nvcc (-ptx -lineinfo -arch=sm_90, or
 * the SASS target's sm_XX, and every spec constant as -D), cached by content hash; usable
 * without nvcc when the cached PTX exists (GPU machines). Reading PTX is sim/'s job, ptxas
 * resources resources.c's. */
#include "core/core_internal.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef WS_NVCC_PATH
#define WS_NVCC_PATH ""
#endif
#ifndef WS_DEFAULT_PTX_CACHE
#define WS_DEFAULT_PTX_CACHE "ptx-cache"
#endif

#define WS_DEFINES_MAX 256

/* $WARPSCOPE_NVCC, else the nvcc CMake found, else nvcc on PATH. */
static const char *ws_nvcc(void)
{
    const char *env = getenv("WARPSCOPE_NVCC");
    if (env && env[0])
        return env;
    const char *p = WS_NVCC_PATH;
    return p[0] && access(p, X_OK) == 0 ? p : "nvcc";
}

int ws_mkdir_p(const char *dir, ws_error *err)
{
    char path[WS_PATH_MAX];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path)
        return ws_error_set(err, WS_ERR_IO, "cache path too long: %s", dir);
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST)
            return ws_error_set(err, WS_ERR_IO, "cannot create %s: %s", path, strerror(errno));
        *p = '/';
    }
    if (mkdir(path, 0777) != 0 && errno != EEXIST)
        return ws_error_set(err, WS_ERR_IO, "cannot create %s: %s", path, strerror(errno));
    return WS_OK;
}

/* "-DNAME=VALUE" (and "-DNAME_VALUE=1" for words; WS_NAME for a namespaced constant),
 * sorted so the key is order-free. */
static int ws_cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *ws_join(const char *a, const char *b, const char *c, const char *d)
{
    size_t n = strlen(a) + strlen(b) + strlen(c) + strlen(d) + 1;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s%s%s%s", a, b, c, d);
    return s;
}

/* Fills defs (zeroed by the caller; free every non-NULL entry); -1 on error. */
static int ws_defines(const ws_spec *s, char **defs, ws_error *err)
{
    int n = 0;
    for (int i = 0; i < s->nconsts; i++) {
        const ws_const *c = &s->consts[i];
        if (n + 2 > WS_DEFINES_MAX) {
            ws_error_set(err, WS_ERR_BUILD, "too many constants (at most %d)",
                         WS_DEFINES_MAX / 2);
            return -1;
        }
        char val[32], name[WS_NAME_MAX + 4];
        snprintf(val, sizeof val, "%lld", (long long)c->ival);
        ws_const_define_name(c, name, sizeof name);
        defs[n] = ws_join("-D", name, "=", c->is_string ? c->sval : c->is_float ? c->expr : val);
        if (defs[n] && c->is_string)
            defs[n + 1] = ws_join("-D", name, "_", c->sval);
        if (!defs[n] || (c->is_string && !defs[n + 1])) {
            ws_error_set(err, WS_ERR_NOMEM, "out of memory");
            return -1;
        }
        if (c->is_string) {
            char *word = ws_join(defs[n + 1], "=1", "", "");
            free(defs[n + 1]);
            if (!(defs[n + 1] = word))
                return -1;
        }
        n += c->is_string ? 2 : 1;
    }
    qsort(defs, (size_t)n, sizeof *defs, ws_cmp_str);
    return n;
}

/* Calls fn on each file the source `text` at `source` includes with #include "..." (one
 * level: what the cache key hashes and the constant scan reads), until fn returns non-zero;
 * returns that value or 0. */
static int ws_each_local_include(const char *source, const char *text,
                                 int (*fn)(void *ctx, const char *itext, size_t ilen), void *ctx)
{
    const char *slash = strrchr(source, '/');
    int dirlen = slash ? (int)(slash - source) : 0, rc = 0;
    for (const char *p = strstr(text, "#include \""); p && !rc; p = strstr(p + 1, "#include \"")) {
        const char *name = p + 10, *end = strchr(name, '"');
        if (!end || memchr(name, '\n', (size_t)(end - name)))
            continue;
        char inc[WS_PATH_MAX * 2], *itext;
        size_t ilen;
        snprintf(inc, sizeof inc, "%.*s%s%.*s", dirlen, source, slash ? "/" : "",
                 (int)(end - name), name);
        ws_error ignore;
        if (ws_read_file(inc, &itext, &ilen, &ignore) == WS_OK) {
            rc = fn(ctx, itext, ilen);
            free(itext);
        }
    }
    return rc;
}

static int ws_hash_include(void *ctx, const char *itext, size_t ilen)
{
    uint64_t *h = ctx;
    *h = ws_hash64(itext, ilen, *h);
    return 0;
}

/* Hashes the .cu and the files it includes with #include "..." (one level). */
static int ws_hash_source(const char *source, uint64_t *h, ws_error *err)
{
    char *text;
    size_t len;
    int rc = ws_read_file(source, &text, &len, err);
    if (rc != WS_OK)
        return ws_error_at(err, WS_ERR_BUILD, source, 0, "cannot read the source: %.400s",
                           err->msg);
    *h = ws_hash64(text, len, *h);
    ws_each_local_include(source, text, ws_hash_include, h);
    free(text);
    return WS_OK;
}

/* The macro name of a define "-DNAME=VALUE" (or "-DNAME"). */
static void ws_def_name(const char *def, char *buf, size_t n)
{
    const char *name = def + 2, *eq = strchr(name, '=');
    snprintf(buf, n, "%.*s", (int)(eq ? eq - name : (long)strlen(name)), name);
}

/* nvcc --version into buf ("" when nvcc cannot run). */
static void ws_nvcc_version(const char *cache, char *buf, size_t n)
{
    char tmp[WS_PATH_MAX + 64];
    snprintf(tmp, sizeof tmp, "%s/.nvcc-version.%d", cache, (int)getpid());
    char *argv[] = {(char *)ws_nvcc(), "--version", NULL};
    buf[0] = '\0';
    if (ws_spawn(argv, tmp, NULL) == 0) {
        char *text;
        ws_error ignore;
        if (ws_read_file(tmp, &text, NULL, &ignore) == WS_OK) {
            snprintf(buf, n, "%s", text);
            free(text);
        }
    }
    unlink(tmp);
}

/* The first lines of nvcc's output, for the error message. */
void ws_first_lines(const char *path, char *buf, size_t n, int lines)
{
    char *text;
    ws_error ignore;
    buf[0] = '\0';
    if (ws_read_file(path, &text, NULL, &ignore) != WS_OK)
        return;
    char *p = text;
    for (int i = 0; i < lines && p && *p; i++) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    if (p)
        *p = '\0';
    size_t len = strlen(text);
    while (len && text[len - 1] == '\n')
        text[--len] = '\0';
    snprintf(buf, n, "%s", text);
    free(text);
}

/* Where nvcc's first error lies in a header (`PATH(LINE): error`) and that line holds, as
 * a whole word, the name of a constant the spec passes as -DNAME=VALUE (`template<unsigned
 * N>` in CUDA's pipeline header under a spec constant N), a hint naming both and the index
 * of that define; "" and -1 otherwise. */
static int ws_macro_hint(const ws_spec *s, char **defs, int ndefs, const char *log,
                         char *hint, size_t n)
{
    hint[0] = '\0';
    char *text;
    ws_error ignore;
    int clash = -1;
    if (ws_read_file(log, &text, NULL, &ignore) != WS_OK)
        return -1;
    char *open = strstr(text, "): error");
    while (open && open > text && *open != '(')
        open--;
    char *start = open;
    while (start && start > text && start[-1] != '\n')
        start--;
    if (!open || *open != '(' || !strncmp(start, s->source, (size_t)(open - start))) {
        free(text);
        return -1;
    }
    char path[WS_PATH_MAX];
    snprintf(path, sizeof path, "%.*s", (int)(open - start), start);
    long line = strtol(open + 1, NULL, 10);
    free(text);
    char *hdr;
    if (line < 1 || ws_read_file(path, &hdr, NULL, &ignore) != WS_OK)
        return -1;
    char *l = hdr;
    for (long i = 1; i < line && l; i++)
        if ((l = strchr(l, '\n')))
            l++;
    char *end = l ? strchr(l, '\n') : NULL;
    if (end)
        *end = '\0';
    for (int i = 0; l && i < ndefs && !hint[0]; i++) {
        const char *name = defs[i] + 2, *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        for (const char *w = l; *w; w++) {
            if (strncmp(w, name, len) || (w > l && (isalnum((unsigned char)w[-1]) || w[-1] == '_')) ||
                isalnum((unsigned char)w[len]) || w[len] == '_')
                continue;
            snprintf(hint, n, " (the spec's constant %.*s reaches nvcc as -D%s and replaces "
                     "the word %.*s at %s:%ld: rename the constant)", (int)len, name, name,
                     (int)len, name, path, line);
            clash = i;
            break;
        }
    }
    free(hdr);
    return clash;
}

static int ws_include_mentions(void *ctx, const char *itext, size_t ilen)
{
    (void)ilen;
    return ws_source_mentions(itext, ctx);
}

/* Whether the .cu or a file it includes with #include "..." (one level, as the cache key
 * reads them) names `word`, comments and strings aside. */
static int ws_source_names(const char *source, const char *word)
{
    char *text;
    ws_error ignore;
    if (ws_read_file(source, &text, NULL, &ignore) != WS_OK)
        return 1;
    int named = ws_source_mentions(text, word) ||
                ws_each_local_include(source, text, ws_include_mentions, (void *)word);
    free(text);
    return named;
}

/* Compiles; on a failure whose first error is a constant's clash with a header's word
 * (ws_macro_hint), *clash is that define's index (else -1). */
static int ws_compile(const ws_spec *s, const char *arch, char **defs, int ndefs,
                      const char *ptx, int *clash, ws_error *err)
{
    *clash = -1;
    char tmp[WS_PATH_MAX + 64], log[WS_PATH_MAX + 64];
    snprintf(tmp, sizeof tmp, "%s.tmp.%d", ptx, (int)getpid());
    snprintf(log, sizeof log, "%s.log.%d", ptx, (int)getpid());
    char *argv[8 + WS_DEFINES_MAX];
    int a = 0;
    argv[a++] = (char *)ws_nvcc();
    char archflag[32];
    snprintf(archflag, sizeof archflag, "-arch=%s", arch);
    argv[a++] = "-ptx";
    argv[a++] = "-lineinfo";
    argv[a++] = archflag;
    for (int i = 0; i < ndefs; i++)
        argv[a++] = defs[i];
    argv[a++] = (char *)s->source;
    argv[a++] = "-o";
    argv[a++] = tmp;
    argv[a] = NULL;
    int status = ws_spawn(argv, log, NULL);
    int rc = WS_OK;
    if (status != 0) {
        char first[400], hint[WS_PATH_MAX + 200];
        ws_first_lines(log, first, sizeof first, 6);
        *clash = ws_macro_hint(s, defs, ndefs, log, hint, sizeof hint);
        rc = status == -1
                 ? ws_error_at(err, WS_ERR_BUILD, s->source, 0, "cannot run nvcc (%s): %s",
                               argv[0], strerror(errno))
                 : ws_error_at(err, WS_ERR_BUILD, s->source, 0, "nvcc failed (-arch=%s)%s: %s%s",
                               arch, hint, first, strstr(first, "Unsupported gpu architecture")
                               ? " (CUDA 13 dropped sm_70/sm_72: point WARPSCOPE_NVCC and "
                                 "WARPSCOPE_PTXAS at a CUDA 12 toolkit)" : "");
        unlink(tmp);
    } else if (rename(tmp, ptx) != 0) {
        rc = ws_error_set(err, WS_ERR_IO, "cannot rename %s to %s: %s", tmp, ptx,
                          strerror(errno));
        unlink(tmp);
    }
    unlink(log);
    return rc;
}

/* The cache key's nvcc part lives in a sidecar (.nvcc) so that a machine without nvcc
 * still finds the PTX by source + defines + flags alone. */
static int ws_cached_ok(const char *ptx, const char *version, int have_nvcc)
{
    if (access(ptx, R_OK) != 0)
        return 0;
    if (!have_nvcc)
        return 1;
    char side[WS_PATH_MAX + 16], *text;
    snprintf(side, sizeof side, "%.*s.nvcc", (int)(strlen(ptx) - 4), ptx);
    ws_error ignore;
    if (ws_read_file(side, &text, NULL, &ignore) != WS_OK)
        return 0;
    int same = strcmp(text, version) == 0;
    free(text);
    return same;
}

static int ws_write_sidecar(const char *ptx, const char *version)
{
    char side[WS_PATH_MAX + 16], tmp[WS_PATH_MAX + 64];
    snprintf(side, sizeof side, "%.*s.nvcc", (int)(strlen(ptx) - 4), ptx);
    snprintf(tmp, sizeof tmp, "%s.%d", side, (int)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f)
        return WS_ERR_IO;
    fputs(version, f);
    if (fclose(f) != 0 || rename(tmp, side) != 0) {
        unlink(tmp);
        return WS_ERR_IO;
    }
    return WS_OK;
}

static int ws_ptx_build_with(const ws_spec *s, const char *cache, const char *arch,
                             char **defs, int ndefs, char *ptx_path, size_t n, ws_error *err)
{
    uint64_t h = 0x77737074785f7631ULL; /* "wsptx_v1" */
    int rc = ws_hash_source(s->source, &h, err);
    if (rc != WS_OK)
        return rc;
    char flags[64];
    snprintf(flags, sizeof flags, "-ptx -lineinfo -arch=%s", arch);
    h = ws_hash64(flags, strlen(flags), h);
    for (int i = 0; i < ndefs; i++)
        h = ws_hash64(defs[i], strlen(defs[i]) + 1, h);
    char ptx[WS_PATH_MAX + 128];
    snprintf(ptx, sizeof ptx, "%s/%s-%016llx.ptx", cache, s->name, (unsigned long long)h);
    if (strlen(ptx) >= n)
        return ws_error_set(err, WS_ERR_IO, "PTX path too long: %s", ptx);
    snprintf(ptx_path, n, "%s", ptx);
    char version[2048];
    ws_nvcc_version(cache, version, sizeof version);
    int have_nvcc = version[0] != '\0';
    if (ws_cached_ok(ptx, version, have_nvcc))
        return WS_OK;
    if (!have_nvcc)
        return ws_error_at(err, WS_ERR_BUILD, s->source, 0, "nvcc not found (tried %s) and no "
                           "cached PTX at %s", ws_nvcc(), ptx);
    /* A constant that clashes with a header's word and that no source of the workload names
     * needs no bare -DNAME: it is passed as -DWS_NAME (as a namespaced one is) and the build
     * runs again. One that a source names is the user's to rename (the error says so). */
    int clash;
    for (int tries = 0;; tries++) {
        rc = ws_compile(s, arch, defs, ndefs, ptx, &clash, err);
        char name[WS_NAME_MAX + 8] = "";
        if (rc == WS_ERR_BUILD && clash >= 0)
            ws_def_name(defs[clash], name, sizeof name);
        if (rc != WS_ERR_BUILD || clash < 0 || tries >= 8 || !strncmp(name, "WS_", 3) ||
            ws_source_names(s->source, name))
            break;
        char word[2 * WS_NAME_MAX + 8] = ""; /* a word constant's NAME_VALUE companion */
        for (int c = 0; c < s->nconsts; c++)
            if (s->consts[c].is_string && !strcmp(s->consts[c].name, name))
                snprintf(word, sizeof word, "%s_%s", name, s->consts[c].sval);
        for (int i = 0; i < ndefs; i++) {
            char dn[2 * WS_NAME_MAX + 8];
            ws_def_name(defs[i], dn, sizeof dn);
            if (strcmp(dn, name) && strcmp(dn, word))
                continue;
            char *renamed = ws_join("-DWS_", defs[i] + 2, "", "");
            if (!renamed)
                return ws_error_set(err, WS_ERR_NOMEM, "out of memory");
            free(defs[i]);
            defs[i] = renamed;
        }
        ws_error_clear(err);
    }
    if (rc == WS_OK && ws_write_sidecar(ptx, version) != WS_OK)
        rc = ws_error_set(err, WS_ERR_IO, "cannot write the cache note beside %s", ptx);
    return rc;
}

int ws_ptx_build(const ws_spec *s, const char *cache_dir, char *ptx_path, size_t n,
                 ws_error *err)
{
    return ws_ptx_build_arch(s, cache_dir, "sm_90", ptx_path, n, err);
}

int ws_ptx_build_arch(const ws_spec *s, const char *cache_dir, const char *arch,
                      char *ptx_path, size_t n, ws_error *err)
{
    if (!arch || !arch[0])
        arch = "sm_90";
    assert(strlen(arch) < 16);
    const char *cache = cache_dir && cache_dir[0] ? cache_dir : getenv("WARPSCOPE_PTX_CACHE");
    if (!cache || !cache[0])
        cache = WS_DEFAULT_PTX_CACHE;
    int rc = ws_mkdir_p(cache, err);
    if (rc != WS_OK)
        return rc;
    char *defs[WS_DEFINES_MAX] = {0};
    ws_error local;
    ws_error_clear(&local);
    int ndefs = ws_defines(s, defs, err ? err : &local);
    if (ndefs < 0)
        rc = err ? err->code : local.code;
    else
        rc = ws_ptx_build_with(s, cache, arch, defs, ndefs, ptx_path, n, err ? err : &local);
    for (int i = 0; i < WS_DEFINES_MAX; i++)
        free(defs[i]);
    return rc;
}

int ws_ptx_cache_put(const char *stem, const char *ptx, char *path, size_t n, ws_error *err)
{
    const char *cache = getenv("WARPSCOPE_PTX_CACHE");
    if (!cache || !cache[0])
        cache = WS_DEFAULT_PTX_CACHE;
    int rc = ws_mkdir_p(cache, err);
    if (rc != WS_OK)
        return rc;
    uint64_t h = ws_hash64(ptx, strlen(ptx), 0x77737074785f7632ULL); /* "wsptx_v2" */
    if (snprintf(path, n, "%s/%.40s-%016llx.ptx", cache, stem, (unsigned long long)h) >= (int)n)
        return ws_error_set(err, WS_ERR_IO, "PTX path too long in %s", cache);
    if (access(path, R_OK) == 0)
        return WS_OK;
    char tmp[WS_PATH_MAX + 64];
    snprintf(tmp, sizeof tmp, "%s.%d", path, (int)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f)
        return ws_error_set(err, WS_ERR_IO, "cannot write %s: %s", tmp, strerror(errno));
    int ok = fputs(ptx, f) >= 0;
    if (fclose(f) != 0 || !ok || rename(tmp, path) != 0) {
        unlink(tmp);
        return ws_error_set(err, WS_ERR_IO, "cannot write %s", path);
    }
    return WS_OK;
}
