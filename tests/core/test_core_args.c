/* test_core_args.c — kernel arguments and constants of workload specs: BUF+EXPR offsets,
 * struct:TYPE=V,... layouts, real constants, symbol lines, counts from constant
 * expressions, which constants reach nvcc as -DWS_NAME (scanning a real .cu), the shared
 * launch-time checks, and each error message with its spec line. */
#include "core/core.h"
#include "tests/check.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[512], spec_path[600], cu_path[600];

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL, "cannot write %s", path);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static int parse(const char *text, ws_spec **s, ws_error *err)
{
    ws_error_clear(err);
    return ws_spec_parse(text, spec_path, NULL, 0, s, err);
}

static const char *head =
    "source w.cu\n"                             /* 1 */
    "const N = 64\n"                            /* 2 */
    "const ALPHA = 0.5\n"                       /* 3 */
    "const NEG = -2.5e-1\n"                     /* 4 */
    "buffer a f32 N iota\n"                     /* 5 */
    "buffer b i16 max(N/4,3)*2+(1<<2) zero\n"   /* 6: 36 elements */
    "buffer c f32 4 const ALPHA\n"              /* 7 */
    "symbol coef c\n";                          /* 8 */

static void test_forms(void)
{
    char text[2048];
    snprintf(text, sizeof text, "%s%s", head,
             "variant v\n"                                                /* 9 */
             " kernel k\n grid 1\n block 32\n"                           /* 10-12 */
             " args a a+N/2 b+N-28 struct:i8=1,i32=N,i16=-3,f64=ALPHA,u8=255 ALPHA NEG 0.25 N+1 "
             "struct:f32=2,i32=min(N,7)\n");                              /* 13 */
    ws_spec *s;
    ws_error err;
    int rc = parse(text, &s, &err);
    CHECK(rc == WS_OK, "parse: %s:%d %s", err.file, err.line, err.msg);
    if (rc != WS_OK)
        return;
    CHECK(s->buffers[1].count == 36, "count from a constant expression: %llu",
          (unsigned long long)s->buffers[1].count);
    CHECK(s->buffers[2].gen.a == 0.5, "a real constant as a generator value: %g",
          s->buffers[2].gen.a);
    const ws_const *al = ws_spec_const(s, "ALPHA");
    CHECK(al && al->is_float && al->fval == 0.5 && !al->is_string, "ALPHA is real");
    CHECK(ws_spec_const(s, "NEG")->fval == -0.25, "NEG");
    const ws_arg *g = s->variants[0].args;
    CHECK(s->variants[0].nargs == 9, "9 args, got %d", s->variants[0].nargs);
    CHECK(g[0].kind == WS_ARG_BUFFER && g[0].buffer == 0 && g[0].offset == 0, "a");
    CHECK(g[1].kind == WS_ARG_BUFFER && g[1].buffer == 0 && g[1].offset == 32 * 4,
          "a+N/2: %llu bytes", (unsigned long long)g[1].offset);
    CHECK(g[2].kind == WS_ARG_BUFFER && g[2].buffer == 1 && g[2].offset == 36 * 2,
          "b+N-28 (the end): %llu bytes", (unsigned long long)g[2].offset);
    /* i8 @0, i32 @4, i16 @8, f64 @16, u8 @24; size 32, align 8 */
    CHECK(g[3].kind == WS_ARG_STRUCT && g[3].struct_size == 32 && g[3].struct_align == 8,
          "struct size %u align %u", g[3].struct_size, g[3].struct_align);
    int32_t i32;
    int16_t i16;
    double f64;
    memcpy(&i32, g[3].bytes + 4, 4);
    memcpy(&i16, g[3].bytes + 8, 2);
    memcpy(&f64, g[3].bytes + 16, 8);
    CHECK(g[3].bytes[0] == 1 && i32 == 64 && i16 == -3 && f64 == 0.5 && g[3].bytes[24] == 255 &&
          g[3].bytes[1] == 0 && g[3].bytes[25] == 0, "struct fields where C puts them");
    CHECK(g[4].kind == WS_ARG_SCALAR && g[4].fval == 0.5, "ALPHA arg %g", g[4].fval);
    CHECK(g[5].fval == -0.25 && g[6].fval == 0.25, "NEG, 0.25");
    CHECK(g[7].kind == WS_ARG_SCALAR && g[7].ival == 65 && g[7].fval == 65, "N+1");
    float f32;
    memcpy(&f32, g[8].bytes, 4);
    memcpy(&i32, g[8].bytes + 4, 4);
    CHECK(g[8].struct_size == 8 && g[8].struct_align == 4 && f32 == 2.0f && i32 == 7,
          "struct:f32=2,i32=min(N,7)");
    CHECK(g[1].line == 13 && g[8].line == 13, "args carry their line");
    CHECK(s->nsymbols == 1 && !strcmp(s->symbols[0].name, "coef") && s->symbols[0].buffer == 2 &&
          s->symbols[0].line == 8, "symbol coef c");
    char params[256];
    ws_spec_params_string(s, params, sizeof params);
    CHECK(strstr(params, "ALPHA=0.5") && strstr(params, "NEG=-2.5e-1"), "params: %s", params);

    /* The shared launch-time checks. */
    ws_param_shape agg = {"k", "k_param_3", 32, 8, 1};
    CHECK(ws_arg_check_param(s, "v", 4, &g[3], &agg, &err) == WS_OK, "struct fits");
    agg.size = 24;
    CHECK(ws_arg_check_param(s, "v", 4, &g[3], &agg, &err) == WS_ERR_SPEC && err.line == 13 &&
          strstr(err.msg, "variant 'v': argument 4 'struct:i8=1,i32=N,i16=-3,f64=ALPHA,u8=255' "
                          "is a struct of 32 bytes (align 8) but kernel k parameter 3 "
                          "(k_param_3) is a struct of 24 bytes (.align 8 .b8 [24])"),
          "size mismatch: %s", err.msg);
    agg.size = 32;
    agg.align = 4;
    CHECK(ws_arg_check_param(s, "v", 4, &g[3], &agg, &err) == WS_ERR_SPEC, "align mismatch");
    agg.align = 16;
    CHECK(ws_arg_check_param(s, "v", 4, &g[3], &agg, &err) == WS_OK, "a wider alignment is fine");
    CHECK(ws_arg_check_param(s, "v", 1, &g[0], &agg, &err) == WS_ERR_SPEC &&
          strstr(err.msg, "argument 1 'a' is a buffer pointer but kernel k parameter 0 "
                          "(k_param_3) is a struct of 32 bytes (.align 16 .b8 [32]): pass "
                          "struct:TYPE=VALUE,..."), "buffer for a struct: %s", err.msg);
    ws_param_shape scalar = {"k", "k_param_4", 4, 4, 0};
    CHECK(ws_arg_check_param(s, "v", 5, &g[4], &scalar, &err) == WS_OK, "scalar fits");
    CHECK(ws_arg_check_param(s, "v", 9, &g[8], &scalar, &err) == WS_ERR_SPEC &&
          strstr(err.msg, "is a struct of 8 bytes (align 4) but kernel k parameter 8 (k_param_4) "
                          "is 4 bytes"), "struct for a scalar: %s", err.msg);
    CHECK(ws_symbol_check(s, &s->symbols[0], 1, 16, "coef", &err) == WS_OK, "symbol fits");
    CHECK(ws_symbol_check(s, &s->symbols[0], 1, 64, "coef", &err) == WS_ERR_SPEC &&
          err.line == 8 && strstr(err.msg, "symbol 'coef' is 64 bytes in w.cu but buffer 'c' is "
                                           "16 bytes (4 f32)"), "symbol size: %s", err.msg);
    CHECK(ws_symbol_check(s, &s->symbols[0], 0, 0, "x, y", &err) == WS_ERR_SPEC &&
          strstr(err.msg, "symbol 'coef': w.cu has no __constant__ or __device__ variable 'coef' "
                          "(variables: x, y)"), "symbol missing: %s", err.msg);
    ws_spec_free(s);
}

/* A spec of `head`, `middle` and a variant with `args`; the error is at `line`. */
static void expect_error(const char *middle, const char *args, int line, const char *want)
{
    char text[4096];
    snprintf(text, sizeof text, "%s%s\nvariant v\n kernel k\n grid 1\n block 32\n args %s\n",
             head, middle, args);
    ws_spec *s = (ws_spec *)1;
    ws_error err;
    int rc = parse(text, &s, &err);
    CHECK(rc == WS_ERR_SPEC && s == NULL, "[%s|%s] rc %d", middle, args, rc);
    CHECK(strstr(err.msg, want) != NULL, "[%s|%s] message '%s', want '%s'", middle, args,
          err.msg, want);
    CHECK(err.line == line && strcmp(err.file, spec_path) == 0, "[%s|%s] at line %d, want %d",
          middle, args, err.line, line);
}

static void test_errors(void)
{
    /* lines: head 1-8, middle 9, variant 10, args 14 */
    expect_error("", "a+N+1", 14, "variant 'v': argument 'a+N+1': offset 65 is past the end of "
                 "buffer 'a' (64 elements)");
    expect_error("", "a+-1", 14, "offset -1 is before the start of buffer 'a'");
    expect_error("", "a+ALPHA", 14, "constant 'ALPHA' is the real number 0.5, not an integer");
    expect_error("", "a+Q", 14, "unknown constant 'Q'");
    expect_error("", "struct:", 14, "argument 'struct:': expected struct:TYPE=VALUE,...");
    expect_error("", "struct:i32", 14, "field 1 'i32' is not TYPE=VALUE");
    expect_error("", "struct:i32=1,x32=2", 14, "field 2 has unknown type 'x32'");
    expect_error("", "struct:u8=256", 14, "field 1 value 256 is out of the range of u8");
    expect_error("", "struct:i8=-129", 14, "field 1 value -129 is out of the range of i8");
    expect_error("", "struct:u32=-1", 14, "out of the range of u32");
    expect_error("", "struct:i32=ALPHA", 14, "constant 'ALPHA' is the real number 0.5");
    expect_error("", "struct:f64=1,f64=2,f64=3,f64=4,f64=5,f64=6,f64=7,f64=8,f64=9,f64=10,"
                 "f64=11,f64=12,f64=13,f64=14,f64=15,f64=16,f64=17,f64=18,f64=19,f64=20,f64=21,"
                 "f64=22,f64=23,f64=24,f64=25,f64=26,f64=27,f64=28,f64=29,f64=30,f64=31,f64=32,"
                 "f64=33", 14, "a struct argument is at most 256 bytes");
    expect_error("", "ALPHA*2", 14, "constant 'ALPHA' is the real number 0.5, not an integer");
    expect_error("buffer d i32 ALPHA*4 zero", "a", 9, "constant 'ALPHA' is the real number 0.5");
    expect_error("const M = ALPHA + 1", "a", 9, "constant 'ALPHA' is the real number 0.5");
    expect_error("symbol coef a", "a", 9, "duplicate symbol 'coef' (first defined at line 8)");
    expect_error("symbol other nobuf", "a", 9, "symbol 'other': unknown buffer 'nobuf'");
    expect_error("symbol other", "a", 9, "expected 'symbol NAME BUFFER'");
    expect_error("symbol 9x a", "a", 9, "symbol name '9x' is not an identifier");
}

/* -D overrides a real constant with a real, or an integer. */
static void test_define(void)
{
    char text[2048];
    snprintf(text, sizeof text, "%svariant v\n kernel k\n grid 1\n block 32\n args ALPHA\n", head);
    ws_define d = {"ALPHA", "1e-3"};
    ws_spec *s;
    ws_error err;
    ws_error_clear(&err);
    int rc = ws_spec_parse(text, spec_path, &d, 1, &s, &err);
    CHECK(rc == WS_OK && s->variants[0].args[0].fval == 1e-3, "-D ALPHA=1e-3: %s", err.msg);
    if (rc == WS_OK)
        ws_spec_free(s);
    d.value = "3";
    rc = ws_spec_parse(text, spec_path, &d, 1, &s, &err);
    CHECK(rc == WS_OK && !ws_spec_const(s, "ALPHA")->is_float &&
          s->variants[0].args[0].ival == 3, "-D ALPHA=3 is an integer: %s", err.msg);
    if (rc == WS_OK)
        ws_spec_free(s);
}

/* Which constants the .cu declares as names without using them as macros. */
static void test_namespacing(void)
{
    write_file(cu_path,
               "#ifndef GUARDED\n#define GUARDED 4\n#endif\n"
               "#if defined(TESTED) && COND > 2\n#endif\n"
               "struct P { int FIELD; };\n"
               "__device__ int table[USED];   // USED only from -D: stays bare\n"
               "/* int INCOMMENT; */ const char *s = \"int INSTRING\";\n"
               "__global__ void k(float *out, int PARAM, int GUARDED2, P p)\n"
               "{\n"
               "    out[0] = p.FIELD + PARAM + sizeof(PLAIN) + USED + (float)PLAIN * NOTPTR;\n"
               "    const float4 *PTR = 0; unsigned long long **PTR2 = 0; uint32_t &REF = x;\n"
               "    return;\n"
               "}\n"
               "int GUARDED2;\n#ifdef GUARDED2\n#endif\n");
    const char *names[] = {"GUARDED", "TESTED", "COND", "FIELD", "USED", "INCOMMENT", "INSTRING",
                           "PARAM", "GUARDED2", "PLAIN", "NOTPTR", "PTR", "PTR2", "REF"};
    int want[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1};
    char text[2048] = "source w.cu\n";
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "const %s = %zu\n", names[i],
                 i + 1);
    strcat(text, "variant v\n kernel k\n grid 1\n block 32\n");
    ws_spec *s;
    ws_error err;
    int rc = parse(text, &s, &err);
    CHECK(rc == WS_OK, "parse: %s", err.msg);
    if (rc != WS_OK)
        return;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        const ws_const *c = ws_spec_const(s, names[i]);
        char buf[80];
        CHECK(c->namespaced == want[i], "%s: namespaced %d, want %d", names[i], c->namespaced,
              want[i]);
        CHECK(!strcmp(ws_const_define_name(c, buf, sizeof buf), want[i] ? buf : names[i]) &&
                  (!want[i] || (!strncmp(buf, "WS_", 3) && !strcmp(buf + 3, names[i]))),
              "%s reaches nvcc as %s", names[i], buf);
    }
    ws_spec_free(s);
    write_file(cu_path, "__global__ void k(float *out) {}\n");
}

int main(void)
{
    snprintf(dir, sizeof dir, "%s/tmp-core-args-%d", WS_BINARY_DIR, (int)getpid());
    mkdir(dir, 0777);
    snprintf(spec_path, sizeof spec_path, "%s/w.spec", dir);
    snprintf(cu_path, sizeof cu_path, "%s/w.cu", dir);
    write_file(cu_path, "__global__ void k(float *out) {}\n");
    test_forms();
    test_errors();
    test_define();
    test_namespacing();
    unlink(cu_path);
    rmdir(dir);
    return ws_test_finish("core_args");
}
