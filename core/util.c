/* util.c — small utilities every module shares: JSON string output, a stable 64-bit
 * hash, version strings, whole-file reads and kernel-name matching (C vs mangled).
 * Nothing here knows about specs, results or the simulator. */
#include "core/core.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#ifndef WS_VERSION_STRING
#define WS_VERSION_STRING "0.1.0"
#endif
#ifndef WS_GIT_REVISION
#define WS_GIT_REVISION "unknown"
#endif

void ws_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        case '\b': fputs("\\b", f); break;
        case '\f': fputs("\\f", f); break;
        default:
            if (*p < 0x20)
                fprintf(f, "\\u%04x", *p);
            else
                fputc(*p, f);
        }
    }
    fputc('"', f);
}

/* FNV-1a over the bytes, started from the seed, then the splitmix64 finalizer so that
 * nearby inputs give unrelated hashes. Byte-wise: the same on every machine. */
uint64_t ws_hash64(const void *data, size_t n, uint64_t seed)
{
    const unsigned char *p = data;
    uint64_t h = 0xcbf29ce484222325ULL ^ (seed * 0x9e3779b97f4a7c15ULL);
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebULL;
    h ^= h >> 31;
    return h;
}

const char *ws_version(void)
{
    return WS_VERSION_STRING;
}

const char *ws_git_revision(void)
{
    return WS_GIT_REVISION[0] ? WS_GIT_REVISION : "unknown";
}

int ws_read_file(const char *path, char **text, size_t *len, ws_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return ws_error_set(err, WS_ERR_IO, "cannot open %s: %s", path, strerror(errno));
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (n + 1 >= cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t k = fread(buf + n, 1, cap - n - 1, f);
        n += k;
        if (k == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (!buf)
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory reading %s", path);
    if (bad) {
        free(buf);
        return ws_error_set(err, WS_ERR_IO, "cannot read %s", path);
    }
    buf[n] = '\0';
    *text = buf;
    if (len)
        *len = n;
    return WS_OK;
}

/* Reads an Itanium <source-name> "<len><chars>" at *p; returns its length, 0 if none. */
static size_t ws_mangled_part(const char **p, const char **start)
{
    if (!isdigit((unsigned char)**p))
        return 0;
    char *end;
    unsigned long len = strtoul(*p, &end, 10);
    if (len == 0 || strnlen(end, len) < len)
        return 0;
    *start = end;
    *p = end + len;
    return len;
}

/* "_Z6kernelPii" names `kernel`; "_ZN2ns6kernelEPi" names `kernel` and `ns::kernel`. */
int ws_kernel_name_matches(const char *name, const char *ptx_name)
{
    if (!name || !ptx_name)
        return 0;
    if (strcmp(name, ptx_name) == 0)
        return 1;
    if (strncmp(ptx_name, "_Z", 2) != 0)
        return 0;
    const char *p = ptx_name + 2, *part;
    size_t len;
    if (*p != 'N') {
        len = ws_mangled_part(&p, &part);
        return len && strlen(name) == len && strncmp(name, part, len) == 0;
    }
    p++;
    char qualified[512] = "";
    size_t qlen = 0, last_len = 0;
    const char *last = NULL;
    while ((len = ws_mangled_part(&p, &part)) != 0) {
        if (qlen + len + 3 >= sizeof qualified)
            return 0;
        if (qlen) {
            memcpy(qualified + qlen, "::", 2);
            qlen += 2;
        }
        memcpy(qualified + qlen, part, len);
        qlen += len;
        qualified[qlen] = '\0';
        last = part;
        last_len = len;
    }
    if (*p != 'E' || !last)
        return 0;
    if (strcmp(name, qualified) == 0)
        return 1;
    return strlen(name) == last_len && strncmp(name, last, last_len) == 0;
}

int ws_kernel_name_pick(const char *name, int n, const char *(*name_at)(const void *ctx, int i),
                        const void *ctx, int *matches, char *hits, size_t nhits)
{
    int found = -1, nfound = 0;
    *matches = 1;
    if (nhits)
        hits[0] = '\0';
    for (int i = 0; i < n; i++) {
        const char *e = name_at(ctx, i);
        if (e && strcmp(name, e) == 0)
            return i;
    }
    for (int i = 0; i < n; i++) {
        const char *e = name_at(ctx, i);
        if (!e || !ws_kernel_name_matches(name, e))
            continue;
        found = i;
        size_t used = strlen(hits);
        if (used < nhits)
            snprintf(hits + used, nhits - used, "%s%.200s", nfound ? ", " : "", e);
        nfound++;
    }
    *matches = nfound;
    return nfound == 1 ? found : -1;
}

int ws_is_cuda_source(const char *path, size_t n)
{
    return (n > 3 && memcmp(path + n - 3, ".cu", 3) == 0) ||
           (n > 4 && memcmp(path + n - 4, ".cuh", 4) == 0);
}
