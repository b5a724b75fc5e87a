/* test_resources.c — ws_ptx_resources on real ptxas reports: nvcc builds PTX from
 * resources_kernels.cu, ptxas -v reports registers, shared memory and spills; the report
 * is cached beside the PTX and a cached report is used without ptxas; errors are clear. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/core.h"
#include "tests/check.h"

static int sh(const char *cmd)
{
    int rc = system(cmd);
    return rc;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) { fputs(text, f); fclose(f); }
}

int main(void)
{
    char dir[1024], ptx[1200], cmd[4096], report[1300];
    snprintf(dir, sizeof dir, "%s/tests/timing-resources", WS_BINARY_DIR);
    mkdir(dir, 0755);
    snprintf(ptx, sizeof ptx, "%s/rk.ptx", dir);
    snprintf(report, sizeof report, "%s.ptxas", ptx);
    unlink(report);
    snprintf(cmd, sizeof cmd, "'%s' -ptx -lineinfo -arch=sm_90 '%s/tests/timing/resources_kernels.cu' -o '%s'",
             WS_NVCC, WS_SOURCE_DIR, ptx);
    CHECK(sh(cmd) == 0, "nvcc failed: %s", cmd);

    ws_kernel_resources r;
    ws_error err;
    ws_error_clear(&err);
    CHECK(ws_ptx_resources(ptx, "staged", &r, &err) == 0, "staged: %s", err.msg);
    CHECK(r.shared_static == 1024, "staged: %d bytes smem, want 1024", r.shared_static);
    CHECK(r.regs > 0 && r.regs <= 32, "staged: %d registers", r.regs);
    CHECK(r.spill_bytes == 0, "staged: %d spill bytes", r.spill_bytes);
    CHECK(access(report, R_OK) == 0, "the report is cached at %s", report);

    ws_error_clear(&err);
    CHECK(ws_ptx_resources(ptx, "heavy", &r, &err) == 0, "heavy: %s", err.msg);
    CHECK(r.regs > 0 && r.regs <= 24, "heavy under __maxnreg__(24): %d registers", r.regs);
    CHECK(r.spill_bytes > 0 && r.local_bytes > 0, "heavy spills: %d spill, %d stack",
          r.spill_bytes, r.local_bytes);
    CHECK(r.shared_static == 0, "heavy: %d smem", r.shared_static);

    /* A cached report is read as is (the GPU host has no ptxas): doctor it and see. */
    write_file(report, "ptxas info    : Compiling entry function '_Z6stagedPii' for 'sm_90'\n"
                       "ptxas info    : Function properties for _Z6stagedPii\n"
                       "    16 bytes stack frame, 4 bytes spill stores, 8 bytes spill loads\n"
                       "ptxas info    : Used 77 registers, used 1 barriers, 2048 bytes smem\n");
    ws_error_clear(&err);
    CHECK(ws_ptx_resources(ptx, "staged", &r, &err) == 0, "cached: %s", err.msg);
    CHECK(r.regs == 77 && r.shared_static == 2048 && r.local_bytes == 16 && r.spill_bytes == 12,
          "cached report read: %d regs %d smem %d stack %d spill", r.regs, r.shared_static,
          r.local_bytes, r.spill_bytes);

    ws_error_clear(&err);
    CHECK(ws_ptx_resources(ptx, "nope", &r, &err) == WS_ERR_NOTFOUND, "missing kernel");
    CHECK(strstr(err.msg, "no kernel 'nope' in the ptxas report of") != NULL, "msg: %s", err.msg);

    char bad[1200];
    snprintf(bad, sizeof bad, "%s/bad.ptx", dir);
    write_file(bad, ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k( { bogus }\n");
    snprintf(report, sizeof report, "%s.ptxas", bad);
    unlink(report);
    ws_error_clear(&err);
    CHECK(ws_ptx_resources(bad, "k", &r, &err) == WS_ERR_BUILD, "bad PTX fails");
    CHECK(strstr(err.msg, "ptxas -v failed on this PTX") != NULL && strstr(err.file, "bad.ptx"),
          "msg: %s (%s)", err.msg, err.file);
    CHECK(access(report, F_OK) != 0, "no report cached for a failed ptxas");
    return ws_test_finish("timing/resources");
}
