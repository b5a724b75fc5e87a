/* test_fatbin.c — reading module images without a driver: the fatbinaries nvcc put in the
 * test application's executable (tests/gpu/inject_app.cu), their ZSTD-compressed PTX, a
 * PTX text image, a truncated fatbinary, and how an application's launches are named.
 * usage: test_fatbin PATH/TO/inject_app */
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "tests/check.h"

static void executable_fatbins(const char *path)
{
    char *data;
    size_t size;
    ws_error err;
    ws_error_clear(&err);
    CHECK(ws_read_file(path, &data, &size, &err) == WS_OK, "%s", err.msg);
    if (err.code)
        return;
    size_t off[16];
    int n = ws_cuda_find_fatbins(data, size, off, 16), found = 0;
    CHECK(n >= 1, "fatbinaries in %s: %d", path, n);
    for (int i = 0; i < n; i++) {
        const char *kind;
        size_t len = ws_cuda_image_size(data + off[i], &kind);
        CHECK(!strcmp(kind, "fatbin") && off[i] + len <= size, "fatbin %d: %s of %zu", i, kind, len);
        char **ptx;
        int nptx;
        CHECK(ws_cuda_image_ptx(data + off[i], len, &ptx, &nptx, &err) == WS_OK, "%s", err.msg);
        for (int k = 0; k < nptx; k++)
            found += strstr(ptx[k], ".entry _Z9transform6Params") != NULL &&
                     strstr(ptx[k], ".entry _Z9histogramPKiiPji") != NULL;
        ws_cuda_image_ptx_free(ptx, nptx);
        if (i == n - 1 && len > 64) { /* cut short: an error naming both sizes */
            ws_error_clear(&err);
            CHECK(ws_cuda_image_ptx(data + off[i], len - 8, &ptx, &nptx, &err) == WS_ERR_PTX &&
                  strstr(err.msg, "cut short"), "truncated: %s", err.msg);
        }
    }
    CHECK(found == 1, "one PTX with the app's kernels (found %d)", found);
    free(data);
}

static void ptx_image(void)
{
    const char *text = ".version 8.0\n.target sm_90\n.address_size 64\n";
    const char *kind;
    char **ptx;
    int n;
    ws_error err;
    ws_error_clear(&err);
    CHECK(ws_cuda_image_size(text, &kind) == strlen(text) + 1 && !strcmp(kind, "ptx"), "%s", kind);
    CHECK(ws_cuda_image_ptx(text, strlen(text) + 1, &ptx, &n, &err) == WS_OK && n == 1 &&
          !strcmp(ptx[0], text), "PTX image: %d", n);
    ws_cuda_image_ptx_free(ptx, n);
}

static void launch_names(void)
{
    char buf[96];
    ws_launch_name("_Z9transform6Params", 3, buf, sizeof buf);
    CHECK(!strcmp(buf, "transform#3"), "%s", buf);
    ws_launch_name("_ZN2ns4stepEPi", 0, buf, sizeof buf);
    CHECK(!strcmp(buf, "step#0"), "%s", buf);
    ws_launch_name("plain_c_kernel", 12, buf, sizeof buf);
    CHECK(!strcmp(buf, "plain_c_kernel#12"), "%s", buf);
    ws_launch_name("_Z99broken", 1, buf, sizeof buf);
    CHECK(!strcmp(buf, "_Z99broken#1"), "%s", buf);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_fatbin PATH/TO/inject_app\n");
        return 2;
    }
    executable_fatbins(argv[1]);
    ptx_image();
    launch_names();
    return ws_test_finish("test_fatbin");
}
