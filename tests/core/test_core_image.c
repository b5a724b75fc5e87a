/* test_core_image.c — `texture` and `surface` lines of workload specs: dimensions from
 * constant expressions, filter/address/normalized options, the image each buffer is, and
 * every error message with its spec line. */
#include "core/core.h"
#include "tests/check.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[512], spec_path[600], cu_path[600];

static const char *head =
    "source w.cu\n"                  /* 1 */
    "const W = 8\n"                  /* 2 */
    "buffer t f32 W*4 iota\n"        /* 3 */
    "buffer s i32 32 zero\n"         /* 4 */
    "buffer d f64 32 zero\n"         /* 5 */
    "buffer u u8 32 zero\n";         /* 6 */

static int parse(const char *middle, const char *args, ws_spec **s, ws_error *err)
{
    char text[4096];
    snprintf(text, sizeof text, "%s%s\nvariant v\n kernel k\n grid 1\n block 32\n args %s\n",
             head, middle, args);
    ws_error_clear(err);
    return ws_spec_parse(text, spec_path, NULL, 0, s, err);
}

static void test_forms(void)
{
    ws_spec *s;
    ws_error err;
    int rc = parse("texture t W 4 filter linear address wrap normalized\nsurface s 32\n"
                   "texture u 2 4 4 address border", "t s", &s, &err);
    CHECK(rc == WS_OK, "texture and surface lines parse: %s", err.msg);
    if (rc)
        return;
    const ws_image *t = ws_spec_image(s, 0), *su = ws_spec_image(s, 1), *u = ws_spec_image(s, 3);
    CHECK(s->nimages == 3 && t && su && u && !ws_spec_image(s, 2), "one image per line");
    if (t && su && u) {
        CHECK(t->kind == WS_IMAGE_TEXTURE && t->ndims == 2 && t->dims[0] == 8 &&
                  t->dims[1] == 4 && t->dims[2] == 1 && t->filter == WS_FILTER_LINEAR &&
                  t->address == WS_ADDRESS_WRAP && t->normalized && t->line == 7,
              "texture t: 8 x 4, linear, wrap, normalized");
        CHECK(su->kind == WS_IMAGE_SURFACE && su->ndims == 1 && su->dims[0] == 32 &&
                  su->dims[1] == 1, "surface s: 32 wide");
        CHECK(u->ndims == 3 && u->dims[2] == 4 && u->filter == WS_FILTER_POINT &&
                  u->address == WS_ADDRESS_BORDER && !u->normalized &&
                  !strcmp(ws_image_address_name(u->address), "border"),
              "texture u: 2 x 4 x 4, point, border");
    }
    ws_spec_free(s);
}

static void expect_error(const char *middle, const char *args, int line, const char *want)
{
    ws_spec *s = (ws_spec *)1;
    ws_error err;
    int rc = parse(middle, args, &s, &err);
    CHECK(rc == WS_ERR_SPEC && s == NULL, "[%s|%s] rc %d", middle, args, rc);
    CHECK(strstr(err.msg, want) != NULL, "[%s|%s] message '%s', want '%s'", middle, args,
          err.msg, want);
    CHECK(err.line == line && strcmp(err.file, spec_path) == 0, "[%s|%s] at line %d, want %d",
          middle, args, err.line, line);
}

static void test_errors(void)
{
    /* lines: head 1-6, middle 7 (and 8), variant 8 or 9 */
    expect_error("texture nobuf 4", "t", 7, "texture: unknown buffer 'nobuf'");
    expect_error("surface nobuf 4", "t", 7, "surface: unknown buffer 'nobuf'");
    expect_error("texture t", "t", 7, "expected 'texture BUFFER W [H [D]] [filter "
                 "point|linear] [address clamp|wrap|border] [normalized] [resource "
                 "array|linear]'");
    expect_error("texture t 2 2 2 4", "t", 7, "expected 'texture BUFFER W");
    expect_error("surface s 2 4 4", "t", 7, "expected 'surface BUFFER W [H]'");
    expect_error("texture t 8 3", "t", 7, "texture 't': 8 x 3 x 1 = 24 texels, but the buffer "
                 "holds 32 elements");
    expect_error("surface s 33", "t", 7, "surface 's': 33 x 1 x 1 = 33 texels, but the buffer "
                 "holds 32 elements");
    expect_error("texture t 0 4", "t", 7, "texture 't': dimension 1 is 0 (expected 1..65536)");
    expect_error("texture t W Q", "t", 7, "unknown constant 'Q'");
    expect_error("texture t 32 filter cubic", "t", 7, "texture 't': bad option 'filter cubic' "
                 "(expected 'filter point|linear', 'address clamp|wrap|border', "
                 "'normalized' or 'resource array|linear', each once)");
    expect_error("texture t 32 address mirror", "t", 7, "bad option 'address mirror'");
    expect_error("texture t 32 resource pitch", "t", 7, "bad option 'resource pitch'");
    expect_error("texture t 8 4 resource linear", "t", 7, "texture 't': 'resource linear' is one "
                 "dimension of linear memory read with tex1Dfetch");
    expect_error("texture t 32 resource linear address wrap", "t", 7, "'resource linear' is one "
                 "dimension");
    expect_error("texture t 32 normalized resource linear", "t", 7, "'resource linear' is one "
                 "dimension");
    expect_error("texture t 32 normalized normalized", "t", 7, "bad option 'normalized'");
    expect_error("texture t 32 filter point filter linear", "t", 7, "bad option 'filter linear'");
    expect_error("texture t 32 address", "t", 7, "bad option 'address'");
    expect_error("surface s 32 address clamp", "t", 7, "surface 's': unexpected 'address' (a "
                 "surface takes only its width and height)");
    expect_error("texture t 32\nsurface t 32", "t", 8, "buffer 't' is already a texture "
                 "(line 7)");
    expect_error("texture d 32", "t", 7, "texture 'd': element type f64 cannot be a texture");
    expect_error("buffer h f16 32 zero\ntexture h 32", "t", 8, "texture 'h': element type f16 "
                 "cannot be a texture (8-, 16- or 32-bit integers or f32)");
    expect_error("buffer h bf16 32 zero\nsurface h 32", "t", 8, "surface 'h': element type bf16 "
                 "cannot be a surface (8-, 16- or 32-bit integers or f32, 64-bit integers)");
    expect_error("texture s 32 filter linear", "t", 7, "texture 's': linear filtering needs an "
                 "f32 buffer, not i32");
    expect_error("texture t 32", "t+1", 12, "variant 'v': argument 1 't+1' is an offset into "
                 "texture 't' (a texture or surface is passed whole)");
}

int main(void)
{
    snprintf(dir, sizeof dir, "%s/tmp-core-image-%d", WS_BINARY_DIR, (int)getpid());
    mkdir(dir, 0777);
    snprintf(spec_path, sizeof spec_path, "%s/w.spec", dir);
    snprintf(cu_path, sizeof cu_path, "%s/w.cu", dir);
    FILE *f = fopen(cu_path, "w");
    CHECK(f != NULL, "cannot write %s", cu_path);
    if (f) {
        fputs("__global__ void k(float *out) {}\n", f);
        fclose(f);
    }
    test_forms();
    test_errors();
    unlink(cu_path);
    rmdir(dir);
    return ws_test_finish("core_image");
}
