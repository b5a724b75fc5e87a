/* test_sim_texture.c — texture and surface objects on real nvcc kernels (texture.cu): every
 * filter and address mode of `texture` lines, integer and normalized coordinates, surface
 * reads and writes with .trap/.clamp/.zero, each output against the same sampling done
 * here on the CPU; misuse is one located error; the SASS model reads and writes them as
 * the PTX model does. */
#include <math.h>
#include "tests/sim/sim_test.h"

static const char *SPEC =
    "workload texture\nsource texture.cu\nseed 5\n"
    "buffer ti   i32 64 iota 100 1\ntexture ti 64 resource linear\n"
    "buffer tib  i32 64 iota 100 1\ntexture tib 64 address border\n"
    "buffer xi   i32 32 iota -8 3\nbuffer oi i32 32 zero\n"
    "buffer tp   f32 16 uniform_real -10 10\ntexture tp 16\n"
    "buffer tlm  f32 16 uniform_real -10 10\ntexture tlm 16 resource linear\n"
    "buffer tw   f32 16 uniform_real -10 10\ntexture tw 16 address wrap normalized\n"
    "buffer tl   f32 16 uniform_real -10 10\ntexture tl 16 filter linear address border\n"
    "buffer tln  f32 16 uniform_real -10 10\n"
    "texture tln 16 filter linear address wrap normalized\n"
    "buffer x1   f32 32 uniform_real -4 20\nbuffer x1n f32 32 uniform_real -1.5 2.5\n"
    "buffer o1   f32 64 zero\n"
    "buffer t2l  f32 32 uniform_real -10 10\ntexture t2l 8 4 filter linear\n"
    "buffer t2b  f32 32 uniform_real -10 10\ntexture t2b 8 4 address border normalized\n"
    "buffer xy   f32 128 uniform_real -2 10\nbuffer xyn f32 128 uniform_real -0.5 1.5\n"
    "buffer o2   f32 64 zero\n"
    "buffer ti2  i32 32 uniform_int -50 50\ntexture ti2 8 4\n"
    "buffer t3l  f32 24 uniform_real -10 10\n"
    "texture t3l 4 3 2 filter linear address wrap normalized\n"
    "buffer t3p  f32 24 uniform_real -10 10\ntexture t3p 4 3 2\n"
    "buffer xyz  f32 96 uniform_real -1 5\nbuffer xyzn f32 96 uniform_real -1 2\n"
    "buffer o3   f32 32 zero\n"
    "buffer ss   i32 64 uniform_int 0 1000\nsurface ss 16 4\n"
    "buffer sd   i32 64 zero\nsurface sd 16 4\n"
    "buffer s1d  i32 48 zero\nsurface s1d 48\n"
    "buffer o    i32 64 zero\n"
    "variant plain\n  kernel plain\n  grid 1\n  block 64\n  args o\n"
    "variant fetch_linear\n  kernel fetch1\n  grid 1\n  block 32\n  args ti xi oi\n"
    "variant fetch_array\n  kernel fetch1\n  grid 1\n  block 32\n  args tib xi oi\n"
    "variant t1_point\n  kernel t1\n  grid 1\n  block 32\n  args tp x1 o1\n"
    "variant t1_wrap\n  kernel t1\n  grid 1\n  block 32\n  args tw x1n o1\n"
    "variant t1_linear\n  kernel t1\n  grid 1\n  block 32\n  args tl x1 o1\n"
    "variant t1_linear_wrap\n  kernel t1\n  grid 1\n  block 32\n  args tln x1n o1\n"
    "variant t2_linear\n  kernel t2\n  grid 2\n  block 32\n  args t2l xy o2\n"
    "variant t2_border\n  kernel t2\n  grid 2\n  block 32\n  args t2b xyn o2\n"
    "variant t2i\n  kernel t2i\n  grid 4\n  block 8\n  args ti2 oi 8\n"
    "variant t3_linear\n  kernel t3\n  grid 1\n  block 32\n  args t3l xyzn o3\n"
    "variant t3_point\n  kernel t3\n  grid 1\n  block 32\n  args t3p xyz o3\n"
    "variant s2\n  kernel s2\n  grid 4\n  block 16\n  args ss sd 16\n"
    "variant s1\n  kernel s1\n  grid 1\n  block 32\n  args s1d 16\n"
    "variant seq\n  launch fetch1 grid 1 block 32 args ti xi oi\n"
    "  launch s1 grid 1 block 32 args s1d 16\n"
    "variant seq_offset\n  launch s1 grid 1 block 32 args s1d+1 16\n"
    "variant s1_oob\n  kernel s1\n  grid 1\n  block 32\n  args s1d 20\n"
    "variant s1_on_2d\n  kernel s1\n  grid 1\n  block 32\n  args sd 16\n"
    "variant s2_on_1d\n  kernel s2\n  grid 1\n  block 16\n  args s1d sd 16\n"
    "variant linear_float\n  kernel t1\n  grid 1\n  block 32\n  args tlm x1 o1\n"
    "variant not_texture\n  kernel t1\n  grid 1\n  block 32\n  args ss x1 o1\n"
    "variant float_of_int\n  kernel t1\n  grid 1\n  block 32\n  args ti x1 o1\n";

/* ---------------------------------------------------------------- the CPU's sampling */

typedef struct img { const ws_image *im; const ws_buffer *b; } img;

static img image(const st_run *r, const char *name)
{
    img g = {NULL, st_buf(r, name)};
    for (int i = 0; i < r->spec->nimages; i++)
        if (!strcmp(r->spec->images[i].buffer_name, name))
            g.im = &r->spec->images[i];
    return g;
}

/* Texel (x, y, z) after the address mode; border reads 0; wrap only when normalized. */
static double at(img g, long x, long y, long z)
{
    long c[3] = {x, y, z}, idx = 0, stride = 1;
    for (int d = 0; d < 3; d++) {
        long n = (long)g.im->dims[d];
        if (c[d] < 0 || c[d] >= n) {
            if (g.im->address == WS_ADDRESS_BORDER)
                return 0;
            if (g.im->address == WS_ADDRESS_WRAP && g.im->normalized)
                c[d] = ((c[d] % n) + n) % n;
            else
                c[d] = c[d] < 0 ? 0 : n - 1;
        }
        idx += c[d] * stride;
        stride *= n;
    }
    if (g.b->spec->type == WS_T_F32)
        return ((const float *)g.b->data)[idx];
    return ((const int *)g.b->data)[idx];
}

static double fetch(img g, const float *coord, int nd)
{
    double u[3] = {0, 0, 0};
    for (int d = 0; d < nd; d++) {
        u[d] = coord[d];
        if (g.im->normalized)
            u[d] = (g.im->address == WS_ADDRESS_WRAP ? u[d] - floor(u[d]) : u[d]) *
                   g.im->dims[d];
    }
    if (g.im->filter == WS_FILTER_POINT)
        return at(g, (long)floor(u[0]), (long)floor(u[1]), (long)floor(u[2]));
    long b[3] = {0, 0, 0};
    double a[3] = {0, 0, 0}, sum = 0;
    for (int d = 0; d < nd; d++) {
        b[d] = (long)floor(u[d] - 0.5);
        a[d] = round((u[d] - 0.5 - (double)b[d]) * 256) / 256; /* 8-bit fixed-point weight */
    }
    for (int k = 0; k < 1 << nd; k++) {
        double wgt = 1;
        long c[3] = {b[0], b[1], b[2]};
        for (int d = 0; d < nd; d++) {
            c[d] += k >> d & 1;
            wgt *= k >> d & 1 ? a[d] : 1 - a[d];
        }
        sum += wgt * at(g, c[0], c[1], c[2]);
    }
    /* the H100 filters a 1D array as one row of a 2D one at y = 0: border halves it */
    return nd == 1 && g.im->address == WS_ADDRESS_BORDER ? sum / 2 : sum;
}

static int near(float got, double want)
{
    return fabs((double)got - want) <= 1e-5 * (1 + fabs(want));
}

/* ---------------------------------------------------------------- the kernels */

/* tex1Dfetch: a linear-memory texture reads texel x, 0 out of range; a CUDA array reads
 * zeros (as the H100 does). */
static void check_fetch(ws_module *m, const char *variant, const char *tex)
{
    st_run r;
    int rc = st_exec(&r, m, SPEC, variant, NULL);
    CHECK(rc == 0, "%s simulates", variant);
    if (!rc) {
        img g = image(&r, tex);
        const int *x = st_buf(&r, "xi")->data, *o = st_buf(&r, "oi")->data;
        int bad = 0, edge = 0;
        for (int i = 0; i < 32; i++) {
            int in = x[i] >= 0 && x[i] < 64;
            bad += o[i] != (g.im->linear_memory && in ? (int)at(g, x[i], 0, 0) : 0);
            edge += !in;
        }
        CHECK(bad == 0 && edge > 4, "%s: tex.1d.s32 with integer coordinates: %d wrong",
              variant, bad);
    }
    st_free(&r);
}

/* t1, t2, t3: out[i] (t1: out[2i], and out[2i+1] the unused .y, 0) against fetch(). */
static void check_float(ws_module *m, const char *variant, const char *tex, const char *coords,
                        const char *out, int nd, int n)
{
    st_run r;
    int rc = st_exec(&r, m, SPEC, variant, NULL);
    CHECK(rc == 0, "%s simulates", variant);
    if (!rc) {
        img g = image(&r, tex);
        const float *c = st_buf(&r, coords)->data, *o = st_buf(&r, out)->data;
        int bad = 0, step = nd == 1 ? 2 : 1, stride = nd == 3 ? 3 : nd;
        for (int i = 0; i < n; i++) {
            double want = fetch(g, c + i * stride, nd);
            if (!near(o[i * step], want) || (step == 2 && o[i * step + 1] != 0)) {
                if (bad++ < 3)
                    fprintf(stderr, "  %s[%d]: %.9g, want %.9g\n", variant, i, o[i * step], want);
            }
        }
        CHECK(bad == 0, "%s: %d of %d samples wrong", variant, bad, n);
    }
    st_free(&r);
}

static void check_t2i(ws_module *m)
{
    st_run r;
    int rc = st_exec(&r, m, SPEC, "t2i", NULL);
    CHECK(rc == 0, "t2i simulates");
    if (!rc) {
        img g = image(&r, "ti2");
        const int *o = st_buf(&r, "oi")->data;
        int bad = 0;
        for (int y = 0; y < 4; y++)
            for (int x = 0; x < 8; x++)
                bad += o[y * 8 + x] != (int)at(g, x, y, 0) * 1000 + (int)at(g, x - 2, y, 0);
        CHECK(bad == 0, "t2i: tex.2d.s32 and .u32 on an i32 texture: %d wrong", bad);
    }
    st_free(&r);
}

static void check_surfaces(ws_module *m)
{
    st_run r;
    int rc = st_exec(&r, m, SPEC, "s2", NULL);
    CHECK(rc == 0, "s2 simulates");
    if (!rc) {
        const int *s = st_buf(&r, "ss")->data, *d = st_buf(&r, "sd")->data;
        int bad = 0;
        for (int y = 0; y < 4; y++)
            for (int x = 0; x < 16; x++) {
                int v = s[y * 16 + (x < 4 ? 0 : x - 4)]; /* surf1Dread of it reads 0 */
                bad += d[y * 16 + x] != v * 10 + (s[y * 16 + x] & 0xff);
            }
        CHECK(bad == 0, "s2: suld .clamp/.zero/.trap (and .1d of a 2D surface: 0) and sust.b32 "
              "into 'sd': %d wrong", bad);
    }
    st_free(&r);
    rc = st_exec(&r, m, SPEC, "s1", NULL);
    CHECK(rc == 0, "s1 simulates");
    if (!rc) {
        const int *d = st_buf(&r, "s1d")->data;
        const short *h = st_buf(&r, "s1d")->data;
        int bad = 0;
        for (int x = 0; x < 32; x++)
            bad += h[x] != x * 3 || d[16 + x] != x;
        CHECK(bad == 0, "s1: sust.b16 and sust.b32 land in the buffer: %d wrong", bad);
    }
    st_free(&r);
    rc = st_exec(&r, m, SPEC, "s1_oob", NULL);
    char buf[800];
    ws_error_format(&r.err, buf, sizeof buf);
    CHECK(rc == WS_ERR_SIM && r.err.has_thread && r.err.lane == 28 &&
              strstr(buf, "out-of-bounds surface store of 4 bytes at (x 192 bytes, y 0) of "
                          "surface 's1d'") && strstr(buf, "kernel s1") &&
              strstr(buf, "texture.cu:"),
          "s1_oob: sust.trap past the end is one located error: %s", buf);
    st_free(&r);
    rc = st_exec(&r, m, SPEC, "s1_on_2d", NULL);
    ws_error_format(&r.err, buf, sizeof buf);
    CHECK(rc == WS_ERR_UNSUPPORTED && strstr(buf, "sust.1d on 2D surface 'sd'"),
          "a 1D store into a 2D surface is unsupported: %s", buf);
    st_free(&r);
    rc = st_exec(&r, m, SPEC, "s2_on_1d", NULL);
    ws_error_format(&r.err, buf, sizeof buf);
    CHECK(rc == WS_ERR_UNSUPPORTED && strstr(buf, "suld.2d on 1D surface 's1d'"),
          "a 2D read of a 1D surface is unsupported: %s", buf);
    st_free(&r);
}

static void check_misuse(ws_module *m)
{
    st_run r;
    char buf[800];
    int rc = st_exec(&r, m, SPEC, "seq", NULL);
    CHECK(rc == 0, "a launch sequence passes a texture and a surface");
    if (!rc) {
        const int *o = st_buf(&r, "oi")->data, *d = st_buf(&r, "s1d")->data;
        CHECK(o[0] == 0 && o[3] == 101 && o[20] == 152 && d[16 + 5] == 5,
              "sequence outputs: %d %d %d %d", o[0], o[3], o[20], d[21]);
    }
    st_free(&r);
    rc = st_exec(&r, m, SPEC, "seq_offset", NULL);
    ws_error_format(&r.err, buf, sizeof buf);
    CHECK(rc == WS_ERR_SPEC && strstr(buf, "argument 1 's1d+1' is an offset into a texture or "
                                           "surface"), "an offset into a surface: %s", buf);
    st_free(&r);
    rc = st_exec(&r, m, SPEC, "not_texture", NULL);
    ws_error_format(&r.err, buf, sizeof buf);
    CHECK(rc == WS_ERR_SIM && strstr(buf, "texture handle 24 is not a texture of the spec"),
          "a surface passed as a texture: %s", buf);
    st_free(&r);
    rc = st_exec(&r, m, SPEC, "float_of_int", NULL);
    ws_error_format(&r.err, buf, sizeof buf);
    CHECK(rc == WS_ERR_UNSUPPORTED && strstr(buf, "tex.f32 on texture 'ti' of i32"),
          "tex.f32 of an integer texture: %s", buf);
    st_free(&r);
    rc = st_exec(&r, m, SPEC, "linear_float", NULL);
    ws_error_format(&r.err, buf, sizeof buf);
    CHECK(rc == WS_ERR_UNSUPPORTED && strstr(buf, "tex.1d.f32 on linear-memory texture 'tlm'"),
          "tex.1d with float coordinates on linear memory: %s", buf);
    st_free(&r);
}

static void test_ptx(ws_module *m)
{
    st_run r;
    int rc = st_exec(&r, m, SPEC, "plain", NULL);
    CHECK(rc == 0, "the plain kernel of texture.cu simulates");
    st_free(&r);
    check_fetch(m, "fetch_linear", "ti");
    check_fetch(m, "fetch_array", "tib");
    check_float(m, "t1_point", "tp", "x1", "o1", 1, 32);
    check_float(m, "t1_wrap", "tw", "x1n", "o1", 1, 32);
    check_float(m, "t1_linear", "tl", "x1", "o1", 1, 32);
    check_float(m, "t1_linear_wrap", "tln", "x1n", "o1", 1, 32);
    check_float(m, "t2_linear", "t2l", "xy", "o2", 2, 64);
    check_float(m, "t2_border", "t2b", "xyn", "o2", 2, 64);
    check_float(m, "t3_linear", "t3l", "xyzn", "o3", 3, 32);
    check_float(m, "t3_point", "t3p", "xyz", "o3", 3, 32);
    check_t2i(m);
    check_surfaces(m);
    check_misuse(m);
}

/* One variant on the SASS model: its rc, the run in *r (caller frees), its error in buf. */
static int run_sass(ws_module *m, ws_sass_module *sass, const char *variant, st_run *r,
                    char *buf, size_t n)
{
    int rc = st_exec_on(r, m, sass, SPEC, variant, NULL);
    ws_error_format(&r->err, buf, n);
    return rc;
}

/* The SASS model reads textures (TEX, TLD) and surfaces (SULD, SUST) through the PTX
 * model's sampler and surface addressing: every variant's buffers come out byte for byte as
 * the PTX model's (checked above against values computed here, and on the H100 by
 * tests/gpu/ptx_texture.spec); a trapping store out of range is one located error. */
static void test_sass(ws_module *m)
{
    ws_sass_module *sass = NULL;
    int rc = st_load_sass("texture", "test_sim_texture", &sass);
    if (rc > 0)
        return;
    const char *const tex[] = {"plain", "fetch_linear", "fetch_array", "t1_point", "t1_wrap",
                               "t1_linear", "t1_linear_wrap", "t2_linear", "t2_border", "t2i",
                               "t3_linear", "t3_point", "s2", "s1"};
    char buf[800];
    for (size_t i = 0; i < sizeof tex / sizeof *tex && !rc; i++) {
        st_run p, q;
        int prc = st_exec(&p, m, SPEC, tex[i], NULL);
        int src = run_sass(m, sass, tex[i], &q, buf, sizeof buf);
        int same = prc == 0 && src == 0 && p.bufs.n == q.bufs.n;
        for (int b = 0; same && b < p.bufs.n; b++)
            same = p.bufs.b[b].bytes == q.bufs.b[b].bytes &&
                   memcmp(p.bufs.b[b].data, q.bufs.b[b].data, p.bufs.b[b].bytes) == 0;
        CHECK(same, "SASS %s: every buffer as the PTX model's (rc %d %d) %s", tex[i], prc, src,
              buf);
        st_free(&p);
        st_free(&q);
    }
    st_run r;
    int src = rc ? 0 : run_sass(m, sass, "s1_oob", &r, buf, sizeof buf);
    if (!rc) {
        CHECK(src == WS_ERR_SIM && strstr(buf, "out-of-bounds surface store of 4 bytes") &&
                  strstr(buf, "texture.cu:") && strstr(buf, "at SASS 0x") &&
                  strstr(buf, "SUST"),
              "SASS SUST out of range (.TRAP): one error naming it: %d %s", src, buf);
        st_free(&r);
    }
    if (sass)
        ws_sass_module_free(sass);
}

int main(void)
{
    ws_module *m = st_load("texture");
    CHECK(m != NULL, "texture.ptx loads");
    if (m) {
        test_ptx(m);
        test_sass(m);
        ws_module_free(m);
    }
    return ws_test_finish("test_sim_texture");
}
