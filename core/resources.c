/* resources.c — what the compiler gives a kernel: registers, static shared memory, stack
 * frame and spills, from `ptxas -v -arch=sm_90` on the PTX. The report is cached beside
 * the PTX (X.ptx.ptxas), so machines without ptxas (the GPU host) read the cached one.
 * Not a PTX parser: only the ptxas report is read. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/core_internal.h"

#ifndef WS_NVCC_PATH
#define WS_NVCC_PATH ""
#endif

/* ptxas beside nvcc (WS_NVCC_PATH's folder), else from PATH. */
static void ptxas_path(char *out, size_t n)
{
    const char *nvcc = WS_NVCC_PATH;
    const char *slash = strrchr(nvcc, '/');
    if (slash) {
        snprintf(out, n, "%.*s/ptxas", (int)(slash - nvcc), nvcc);
        if (access(out, X_OK) == 0) return;
    }
    snprintf(out, n, "ptxas");
}

static int run_ptxas(const char *ptx, const char *report, ws_error *err)
{
    char exe[1024], tmp[WS_PATH_MAX + 32];
    ptxas_path(exe, sizeof exe);
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", report, (long)getpid());
    char *argv[] = { exe, "-v", "-arch=sm_90", (char *)ptx, "-o", "/dev/null", NULL };
    int status = ws_spawn(argv, tmp, NULL);
    if (status != 0) {
        int why = errno;
        unlink(tmp);
        if (status == -1)
            return ws_error_set(err, WS_ERR_BUILD,
                                "cannot run ptxas (%s) for %s's register report, and no cached "
                                "report %s: %s", exe, ptx, report, strerror(why));
        return ws_error_at(err, WS_ERR_BUILD, ptx, 0, "ptxas -v failed on this PTX (exit %d)",
                           status < 0 ? -1 : status);
    }
    if (rename(tmp, report) != 0) {
        unlink(tmp);
        return ws_error_set(err, WS_ERR_IO, "cannot write %s: %s", report, strerror(errno));
    }
    return 0;
}

/* The cached report is fresh when it is not older than the PTX (or the PTX is gone). */
static int report_fresh(const char *ptx, const char *report)
{
    struct stat sp, sr;
    if (stat(report, &sr) != 0) return 0;
    if (stat(ptx, &sp) != 0) return 1;
    return sr.st_mtime >= sp.st_mtime;
}

static int number_before(const char *line, const char *what, int *out)
{
    const char *at = strstr(line, what);
    if (!at) return 0;
    const char *p = at;
    while (p > line && p[-1] == ' ') p--;
    while (p > line && p[-1] >= '0' && p[-1] <= '9') p--;
    if (p == at) return 0;
    *out = atoi(p);
    return 1;
}

/* Copies the quoted or trailing function name after `key` into name. */
static int name_after(const char *line, const char *key, char *name, size_t n)
{
    const char *at = strstr(line, key);
    if (!at) return 0;
    at += strlen(key);
    if (*at == '\'') at++;
    size_t len = strcspn(at, "'\n ");
    snprintf(name, n, "%.*s", (int)len, at);
    return 1;
}

/* Reads the entry `kernel` from a ptxas -v report. Returns 1 when found. */
static int ws_ptxas_report_parse(const char *text, const char *kernel, ws_kernel_resources *out)
{
    char entry[256] = "", props[256] = "";
    int found = 0;
    memset(out, 0, sizeof *out);
    for (const char *s = text; *s;) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) : strlen(s);
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line ? len : sizeof line - 1), s);
        s = nl ? nl + 1 : s + len;
        int v, v2;
        if (name_after(line, "Compiling entry function ", entry, sizeof entry)) continue;
        if (name_after(line, "Function properties for ", props, sizeof props)) continue;
        if (props[0] && number_before(line, "bytes stack frame", &v)) {
            if (ws_kernel_name_matches(kernel, props)) {
                out->local_bytes = v;
                if (number_before(line, "bytes spill stores", &v) &&
                    number_before(line, "bytes spill loads", &v2))
                    out->spill_bytes = v + v2;
            }
            props[0] = 0;
            continue;
        }
        if (entry[0] && number_before(line, "registers", &v) && ws_kernel_name_matches(kernel, entry)) {
            out->regs = v;
            if (number_before(line, "bytes smem", &v)) out->shared_static = v;
            found = 1;
        }
    }
    return found;
}

int ws_ptx_resources(const char *ptx_path, const char *kernel, ws_kernel_resources *out,
                     ws_error *err)
{
    char report[WS_PATH_MAX + 16];
    snprintf(report, sizeof report, "%s.ptxas", ptx_path);
    if (!report_fresh(ptx_path, report) && run_ptxas(ptx_path, report, err))
        return err->code;
    char *text;
    size_t len;
    if (ws_read_file(report, &text, &len, err)) return err->code;
    int found = ws_ptxas_report_parse(text, kernel, out);
    free(text);
    if (!found)
        return ws_error_at(err, WS_ERR_NOTFOUND, report, 0,
                           "no kernel '%s' in the ptxas report of %s", kernel, ptx_path);
    return 0;
}
