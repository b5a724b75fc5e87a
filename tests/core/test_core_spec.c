/* test_core_spec.c — the workload spec parser: every directive on a complete spec, -D
 * overrides, word constants and $NAME generators, regions against a real .cu, and each
 * user-visible error message with its line. */
#include "core/core.h"
#include "tests/check.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[512], spec_path[600], cu_path[600];

static const char *cu_text =
    "// test kernel\n"                            /* 1 */
    "__device__ int functionA(int x)\n"           /* 2 */
    "{\n"                                         /* 3 */
    "    if (x > 0) { /* } */\n"                  /* 4 */
    "        return x * 2; // }\n"                /* 5 */
    "    }\n"                                     /* 6 */
    "    return x == '}' ? 1 : -x;\n"             /* 7 */
    "}\n"                                         /* 8 */
    "\n"                                          /* 9 */
    "__global__ void kernel(const int *in, int *out, int n)\n" /* 10 */
    "{\n"                                         /* 11 */
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n" /* 12 */
    "    if (i < n) out[i] = functionA(in[i]);\n" /* 13 */
    "}\n";                                        /* 14 */

static const char *good =
    "# a complete spec\n"                         /* 1 */
    "workload    w\n"                             /* 2 */
    "description a test workload   # comment\n"   /* 3 */
    "source      w.cu\n"                          /* 4 */
    "seed        7\n"                             /* 5 */
    "reference   wref\n"                          /* 6 */
    "const N = B * T\n"                           /* 7: defined before B and T */
    "const B = 4\n"                               /* 8 */
    "const T = 32\n"                              /* 9 */
    "const DIST = uniform\n"                      /* 10 */
    "gen uniform uniform_int 0 9\n"               /* 11 */
    "gen skewed  mix 0.5 const 1 | 0.5 const 2\n" /* 12 */
    "buffer in  i32 N   $DIST\n"                  /* 13 */
    "buffer out i32 N   zero\n"                   /* 14 */
    "buffer f   f32 N*2 uniform_real 0 1 seed 99\n" /* 15 */
    "check out file expected/out.bin\n"           /* 16 */
    "check f file /data/f.bin tolerance 1e-6 absolute 0.5\n"   /* 17 */
    "\n"                                          /* 18 */
    "variant before\n"                            /* 19 */
    "  description one item per thread\n"         /* 20 */
    "  kernel kernel\n"                           /* 21 */
    "  grid   B\n"                                /* 22 */
    "  block  T\n"                                /* 23 */
    "  args   in out N\n"                         /* 24 */
    "variant after\n"                             /* 25 */
    "  kernel kernel\n"                           /* 26 */
    "  grid   (B+1)/2 2\n"                        /* 27 */
    "  block  T 2 1\n"                            /* 28 */
    "  smem   T*4\n"                              /* 29 */
    "  args   in out 3 0.5\n"                     /* 30 */
    "region body lines 12-13\n"                   /* 31 */
    "region fa   function functionA\n";           /* 32 */

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL, "cannot write %s", path);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static int parse(const char *text, const ws_define *defs, int ndefs, ws_spec **s, ws_error *err)
{
    ws_error_clear(err);
    return ws_spec_parse(text, spec_path, defs, ndefs, s, err);
}

static void test_good(void)
{
    ws_spec *s;
    ws_error err;
    int rc = parse(good, NULL, 0, &s, &err);
    CHECK(rc == WS_OK, "good spec: %s:%d: %s", err.file, err.line, err.msg);
    if (rc != WS_OK)
        return;
    CHECK(strcmp(s->name, "w") == 0, "name");
    CHECK(strcmp(s->description, "a test workload") == 0, "description '%s'", s->description);
    char *real_cu = realpath(cu_path, NULL);
    CHECK(real_cu && strcmp(s->source, real_cu) == 0, "source %s", s->source);
    free(real_cu);
    CHECK(strcmp(s->reference, "wref") == 0 && s->seed == 7, "reference, seed");
    CHECK(s->nconsts == 4, "consts %d", s->nconsts);
    const ws_const *n = ws_spec_const(s, "N"), *d = ws_spec_const(s, "DIST");
    CHECK(n && n->ival == 128 && !n->is_string && n->line == 7, "N = B*T in any order");
    CHECK(d && d->is_string && strcmp(d->sval, "uniform") == 0, "word constant");
    CHECK(ws_spec_const(s, "nope") == NULL, "absent const");
    CHECK(s->nbuffers == 3, "buffers");
    ws_buffer_spec *in = &s->buffers[0], *out = &s->buffers[1], *f = &s->buffers[2];
    CHECK(in->type == WS_T_I32 && in->count == 128 && in->gen.kind == WS_GEN_UNIFORM_INT &&
          in->gen.a == 0 && in->gen.b == 9, "$DIST -> gen uniform");
    CHECK(in->seed == ws_hash64("in", 2, 7), "derived seed");
    CHECK(!in->is_output && out->is_output && f->is_output, "checks");
    char want_out[700];
    snprintf(want_out, sizeof want_out, "%s/expected/out.bin", dir);
    CHECK(strcmp(out->expect_path, want_out) == 0 && strcmp(f->expect_path, "/data/f.bin") == 0 &&
              in->expect_path[0] == 0, "check file paths: '%s' '%s'", out->expect_path,
          f->expect_path);
    CHECK(f->seed == 99 && f->count == 256 && f->tolerance == 1e-6 && f->absolute == 0.5 &&
              f->type == WS_T_F32,
          "explicit seed, tolerance");
    CHECK(out->gen.kind == WS_GEN_ZERO && out->line == 14, "zero, line");
    CHECK(s->nvariants == 2, "variants");
    const ws_variant *b = ws_spec_variant(s, NULL, &err);
    CHECK(b == &s->variants[0] && strcmp(b->name, "before") == 0, "first variant");
    CHECK(strcmp(b->description, "one item per thread") == 0, "variant description");
    CHECK(b->grid[0] == 4 && b->grid[1] == 1 && b->block[0] == 32 && b->smem_dynamic == 0,
          "before shape");
    CHECK(b->nargs == 3 && b->args[0].kind == WS_ARG_BUFFER && b->args[0].buffer == 0 &&
          b->args[1].buffer == 1 && b->args[2].kind == WS_ARG_SCALAR && b->args[2].ival == 128,
          "before args");
    const ws_variant *a = ws_spec_variant(s, "after", &err);
    CHECK(a && a->grid[0] == 2 && a->grid[1] == 2 && a->grid[2] == 1 && a->block[1] == 2 &&
          a->smem_dynamic == 128, "after shape");
    CHECK(a && a->nargs == 4 && a->args[2].ival == 3 && a->args[3].fval == 0.5, "scalar args");
    CHECK(ws_spec_variant(s, "middle", &err) == NULL && err.code == WS_ERR_NOTFOUND &&
          strstr(err.msg, "variants: before, after"), "unknown variant: %s", err.msg);
    CHECK(s->nregions == 2, "regions");
    CHECK(s->regions[0].first_line == 12 && s->regions[0].last_line == 13, "lines region");
    CHECK(s->regions[1].kind == WS_REGION_FUNCTION && s->regions[1].first_line == 2 &&
          s->regions[1].last_line == 8, "function region %d-%d", s->regions[1].first_line,
          s->regions[1].last_line);
    char params[256];
    ws_spec_params_string(s, params, sizeof params);
    CHECK(strcmp(params, "N=128 B=4 T=32 DIST=uniform") == 0, "params '%s'", params);
    ws_spec_free(s);
}

static void test_defines(void)
{
    ws_spec *s;
    ws_error err;
    char a1[] = "B=8", a2[] = "DIST=skewed", a3[] = "novalue", a4[] = "1X=3";
    ws_define d[2];
    CHECK(ws_define_parse(a1, &d[0], &err) == WS_OK && strcmp(d[0].name, "B") == 0 &&
          strcmp(d[0].value, "8") == 0, "define parse");
    ws_define_parse(a2, &d[1], &err);
    ws_define bad;
    CHECK(ws_define_parse(a3, &bad, &err) == WS_ERR_USAGE && strstr(err.msg, "NAME=VALUE"),
          "define without =: %s", err.msg);
    CHECK(ws_define_parse(a4, &bad, &err) == WS_ERR_USAGE && strstr(err.msg, "identifier"),
          "define bad name: %s", err.msg);
    int rc = parse(good, d, 2, &s, &err);
    CHECK(rc == WS_OK, "defines: %s", err.msg);
    if (rc == WS_OK) {
        CHECK(ws_spec_const(s, "N")->ival == 256 && ws_spec_const(s, "B")->overridden,
              "B=8 changes N");
        CHECK(s->buffers[0].gen.kind == WS_GEN_MIX && s->buffers[0].gen.nmix == 2,
              "DIST=skewed picks gen skewed");
        CHECK(s->variants[0].grid[0] == 8 && s->buffers[1].count == 256, "grid and count");
        ws_spec_free(s);
    }
    ws_define unknown = {"Q", "1"};
    rc = parse(good, &unknown, 1, &s, &err);
    CHECK(rc == WS_ERR_SPEC && s == NULL &&
          strcmp(err.msg, "unknown constant 'Q' (known: N, B, T, DIST)") == 0 &&
          strcmp(err.file, spec_path) == 0, "unknown define: %s", err.msg);
    ws_define zero = {"B", "0"};
    rc = parse(good, &zero, 1, &s, &err);
    CHECK(rc == WS_ERR_SPEC && strstr(err.msg, "count 0 is not positive") && err.line == 13,
          "B=0: %d %s", err.line, err.msg);
}

/* A spec with the given middle part, then a minimal variant; the part starts at line 2. */
static void expect_error(const char *middle, const char *tail, int line, const char *want)
{
    char text[4096];
    snprintf(text, sizeof text, "source w.cu\n%s\n%s", middle,
             tail ? tail : "variant v\n kernel kernel\n grid 1\n block 32\n");
    ws_spec *s = (ws_spec *)1;
    ws_error err;
    int rc = parse(text, NULL, 0, &s, &err);
    CHECK(rc == WS_ERR_SPEC && s == NULL, "[%s] rc %d", middle, rc);
    CHECK(strstr(err.msg, want) != NULL, "[%s] message '%s', want '%s'", middle, err.msg, want);
    CHECK(err.line == line && strcmp(err.file, spec_path) == 0, "[%s] at %s:%d, want line %d",
          middle, err.file, err.line, line);
}

static void test_errors(void)
{
    expect_error("frob 1", NULL, 2, "unknown directive 'frob'");
    expect_error("variants alike", NULL, 2, "expected 'variants independent'");
    expect_error("buffer a x32 4 zero", NULL, 2, "unknown type 'x32'");
    expect_error("buffer a i32 4", NULL, 2, "expected 'buffer NAME TYPE COUNT GENERATOR...'");
    expect_error("const A = 1/0", NULL, 2, "division by zero");
    expect_error("const A = (1", NULL, 2, "missing ')'");
    expect_error("const A = B\nconst B = A", NULL, 2, "cycle: A -> B -> A");
    expect_error("const A = C + 1", NULL, 2, "unknown constant 'C'");
    expect_error("const D = uniform\nconst E = D + 1", NULL, 3, "constant 'D' is the word 'uniform'");
    expect_error("const A 1", NULL, 2, "expected 'const NAME = EXPRESSION'");
    expect_error("const A =", NULL, 2, "constant 'A' has no value");
    expect_error("const 9A = 1", NULL, 2, "constant name '9A' is not an identifier");
    expect_error("const A = 1\nconst A = 2", NULL, 3, "duplicate constant 'A' (first defined at line 2)");
    expect_error("buffer a i32 4 zero\nbuffer a i32 4 zero", NULL, 3, "duplicate buffer 'a'");
    expect_error("gen g zero\ngen g zero", NULL, 3, "duplicate gen 'g'");
    expect_error("gen g", NULL, 2, "gen 'g' has no generator");
    expect_error("region r lines 1-2\nregion r lines 1-2", NULL, 3, "duplicate region 'r'");
    expect_error("const A = 1\nbuffer A i32 4 zero", NULL, 3, "buffer 'A' has the name of a constant");
    expect_error("buffer a i32 0 zero", NULL, 2, "count 0 is not positive");
    expect_error("buffer a i32 1<<40 zero", NULL, 2, "too large");
    expect_error("buffer a i32 4 gauss", NULL, 2, "unknown generator 'gauss'");
    expect_error("buffer a i32 4 uniform_real", NULL, 2, "uniform_real needs a float buffer");
    expect_error("buffer a f32 4 uniform_real 1 1", NULL, 2, "LO 1 is above HI 1");
    expect_error("buffer a i32 4 uniform_int 5 1", NULL, 2, "LO 5 is above HI 1");
    expect_error("buffer a i32 4 uniform_int 5", NULL, 2, "uniform_int takes LO HI");
    expect_error("buffer a u8 4 uniform_int 0 300", NULL, 2, "out of the range of u8");
    expect_error("buffer a i32 4 const 1.5", NULL, 2, "values must be integers");
    expect_error("buffer a i32 4 zero 1", NULL, 2, "zero takes 0 arguments");
    expect_error("buffer a i32 4 iota 1 2 3", NULL, 2, "iota takes at most 2 arguments");
    expect_error("buffer a i32 4 mix 0.5 zero | 0.4 zero", NULL, 2, "weights sum to 0.9, not 1");
    expect_error("buffer a i32 4 mix 0.5 zero |", NULL, 2, "mix ends with '|'");
    expect_error("buffer a i32 4 mix 1.5 zero", NULL, 2, "weight '1.5' is not in (0, 1]");
    expect_error("buffer a i32 4 mix 1 file x", NULL, 2, "'file' cannot be part of a mix");
    expect_error("buffer a i32 4 mix 1", NULL, 2, "expected 'WEIGHT GENERATOR...'");
    expect_error("buffer a i32 4 file", NULL, 2, "expected 'file PATH'");
    expect_error("buffer a i32 4 zero seed -1", NULL, 2, "seed '-1' is not a non-negative integer");
    expect_error("buffer a i32 4 $NOPE", NULL, 2, "no constant named 'NOPE'");
    expect_error("const D = 3\nbuffer a i32 4 $D", NULL, 3, "constant 'D' is a number, not a gen name");
    expect_error("const D = odd\nbuffer a i32 4 $D", NULL, 3, "no 'gen odd' is defined");
    expect_error("const D = g\ngen g $D\nbuffer a i32 4 $D", NULL, 4, "a gen cannot name another");
    expect_error("check nothing", NULL, 2, "check of unknown buffer 'nothing'");
    expect_error("buffer a i32 4 zero\ncheck a tolerance 0.1", NULL, 3, "tolerance applies to f32/f64");
    expect_error("buffer a f32 4 zero\ncheck a tolerance x", NULL, 3, "tolerance 'x' is not");
    expect_error("buffer a f32 4 zero\ncheck a absolute -1", NULL, 3, "absolute '-1' is not");
    expect_error("buffer a i32 4 zero\ncheck a absolute 1", NULL, 3, "absolute applies to f32/f64");
    expect_error("buffer a f32 4 zero\ncheck a absolute 1 tolerance 1", NULL, 3,
                 "expected 'check BUFFER [file PATH] [tolerance X] [absolute Y]'");
    expect_error("buffer a f32 4 zero\ncheck a\ncheck a", NULL, 4, "duplicate check of 'a'");
    expect_error("check", NULL, 2, "expected 'check BUFFER [file PATH] [tolerance X] [absolute Y]'");
    expect_error("buffer a f32 4 zero\ncheck a file", NULL, 3, "expected 'check BUFFER [file");
    expect_error("buffer a f32 4 zero\ncheck a tolerance 0.1 file x.bin", NULL, 3,
                 "expected 'check BUFFER [file PATH] [tolerance X] [absolute Y]'");
    expect_error("buffer a i32 4 zero\ncheck a file x.bin tolerance 0.1", NULL, 3,
                 "tolerance applies to f32/f64");
    expect_error("seed -4", NULL, 2, "seed '-4' is not a non-negative integer");
    expect_error("workload a b", NULL, 2, "expected 'workload VALUE' (one word)");
    expect_error("workload a\nworkload b", NULL, 3, "workload given twice");
    expect_error("kernel k", NULL, 2, "'kernel' outside a variant");
    expect_error("region r lines 5-3", NULL, 2, "bad line range '5-3'");
    expect_error("region r lines x", NULL, 2, "bad line range 'x'");
    expect_error("region r lines 1-500", NULL, 2, "lines 1-500 outside");
    expect_error("region r function nothere", NULL, 2, "function 'nothere' not found");
    expect_error("region r words 1", NULL, 2, "expected 'region NAME lines A-B'");
    expect_error("", "variant v\n grid 1\n block 32\n", 3, "variant 'v' has no kernel");
    expect_error("", "variant v\n kernel k\n block 32\n", 3, "variant 'v' has no grid");
    expect_error("", "variant v\n kernel k\n grid 1\n", 3, "variant 'v' has no block");
    expect_error("", "variant v\n kernel k\n grid 0\n block 32\n", 3, "grid x = 0 is out of range");
    expect_error("", "variant v\n kernel k\n grid 1\n block 2048\n", 3, "more than 1024 threads");
    expect_error("", "variant v\n kernel k\n grid 1 1 70000\n block 32\n", 3, "at most 65535");
    expect_error("", "variant v\n kernel k\n grid 1 2 3 4\n block 32\n", 5, "one to three");
    expect_error("", "variant v\n kernel k\n grid 1\n grid 2\n", 6, "sets grid twice");
    expect_error("", "variant v\n kernel k\n kernel j\n", 5, "sets kernel twice");
    expect_error("", "variant v\n kernel k\n grid 1\n block 32\n smem -1\n", 3, "smem -1 is out of range");
    expect_error("", "variant v\n kernel k\n grid 1\n block 32\n args nobuf\n", 7,
                 "args: unknown buffer or constant 'nobuf'");
    expect_error("", "variant v\n kernel k\n grid 1\n block 32\nvariant v\n", 7, "duplicate variant 'v'");
    expect_error("", "variant\n", 3, "expected 'variant NAME'");
    expect_error("", "# no variant\n", 0, "no variant");

    /* A missing source names the source line. */
    ws_spec *s;
    ws_error err;
    int rc = parse("\nsource nothere.cu\nvariant v\n kernel k\n grid 1\n block 32\n", NULL, 0, &s,
                   &err);
    CHECK(rc == WS_ERR_SPEC && err.line == 2 && strstr(err.msg, "nothere.cu"),
          "missing source: %d %s", err.line, err.msg);
}

/* Defaults: workload from the file name, source NAME.cu, seed 1. */
static void test_defaults(void)
{
    ws_spec *s;
    ws_error err;
    int rc = parse("variant v\n kernel k\n grid 1\n block 32\n", NULL, 0, &s, &err);
    CHECK(rc == WS_OK, "defaults: %s", err.msg);
    if (rc == WS_OK) {
        CHECK(strcmp(s->name, "w") == 0 && s->seed == 1 && strstr(s->source, "/w.cu") &&
              !s->independent, "defaults %s %s", s->name, s->source);
        ws_spec_free(s);
    }
    rc = parse("variants independent\nvariant v\n kernel k\n grid 1\n block 32\n", NULL, 0, &s,
               &err);
    CHECK(rc == WS_OK && s->independent, "variants independent: %s", err.msg);
    if (rc == WS_OK)
        ws_spec_free(s);
    rc = ws_spec_load(spec_path, NULL, 0, &s, &err);
    CHECK(rc == WS_OK, "load: %s", err.msg);
    ws_spec_free(s);
    rc = ws_spec_load("/nonexistent/x.spec", NULL, 0, &s, &err);
    CHECK(rc == WS_ERR_IO && strstr(err.msg, "/nonexistent/x.spec"), "load missing: %s", err.msg);
}

int main(void)
{
    snprintf(dir, sizeof dir, "%s/tmp-core-spec-%d", WS_BINARY_DIR, (int)getpid());
    mkdir(dir, 0777);
    snprintf(spec_path, sizeof spec_path, "%s/w.spec", dir);
    snprintf(cu_path, sizeof cu_path, "%s/w.cu", dir);
    write_file(cu_path, cu_text);
    write_file(spec_path, good);
    test_good();
    test_defines();
    test_errors();
    test_defaults();
    unlink(cu_path);
    unlink(spec_path);
    rmdir(dir);
    return ws_test_finish("core_spec");
}
