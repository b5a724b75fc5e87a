/* test_core_basics.c — ws_error formatting, types, utilities (JSON strings, hash, kernel
 * names) and the ws_result containers (add, replace, free). */
#include "core/core.h"
#include "tests/check.h"

#include <stdlib.h>
#include <string.h>

static void test_error_format(void)
{
    ws_error e;
    char buf[1024];
    ws_error_clear(&e);
    CHECK(ws_error_at(&e, WS_ERR_SIM, "k.ptx", 42, "out of bounds %d", 7) == WS_ERR_SIM, "rc");
    snprintf(e.kernel, sizeof e.kernel, "reduce");
    e.has_thread = 1;
    e.cta[0] = 1, e.cta[1] = 2, e.cta[2] = 3;
    e.warp = 4, e.lane = 5, e.pc = 6, e.address = 0xdeadbeef;
    ws_error_format(&e, buf, sizeof buf);
    CHECK(strcmp(buf, "k.ptx:42: kernel reduce, CTA (1,2,3), warp 4, lane 5, PC 6, "
                      "address 0xdeadbeef: out of bounds 7") == 0, "full: %s", buf);

    ws_error_clear(&e);
    ws_error_set(&e, WS_ERR_USAGE, "bad flag");
    ws_error_format(&e, buf, sizeof buf);
    CHECK(strcmp(buf, "bad flag") == 0, "bare: %s", buf);
    CHECK(e.code == WS_ERR_USAGE, "code");

    ws_error_clear(&e);
    ws_error_at(&e, WS_ERR_SPEC, "a.spec", 0, "no variant");
    ws_error_format(&e, buf, sizeof buf);
    CHECK(strcmp(buf, "a.spec: no variant") == 0, "file only: %s", buf);

    ws_error_clear(&e);
    ws_error_set(&e, WS_ERR_GPU, "launch failed");
    snprintf(e.kernel, sizeof e.kernel, "k");
    ws_error_format(&e, buf, sizeof buf);
    CHECK(strcmp(buf, "kernel k: launch failed") == 0, "kernel only: %s", buf);

    char small[8];
    ws_error_format(&e, small, sizeof small);
    CHECK(strlen(small) == 7, "truncated safely: %s", small);
    CHECK(strcmp(ws_code_name(WS_ERR_SPEC), "spec error") == 0, "code name");
    CHECK(strcmp(ws_code_name(WS_ERR_NOTFOUND), "not found") == 0, "code name");
}

static void test_types(void)
{
    ws_type t;
    CHECK(ws_type_parse("f64", &t) == 0 && t == WS_T_F64, "parse f64");
    CHECK(ws_type_parse("u16", &t) == 0 && t == WS_T_U16, "parse u16");
    CHECK(ws_type_parse("int", &t) != 0, "reject int");
    CHECK(ws_type_size(WS_T_I8) == 1 && ws_type_size(WS_T_U64) == 8 && ws_type_size(WS_T_F32) == 4,
          "sizes");
    CHECK(ws_type_is_float(WS_T_F32) && !ws_type_is_float(WS_T_I32), "float");
    CHECK(strcmp(ws_type_name(WS_T_I16), "i16") == 0, "name");
}

static void test_json_and_hash(void)
{
    char *out = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&out, &n);
    ws_json_string(f, "a\"b\\c\nd\x01");
    fclose(f);
    CHECK(strcmp(out, "\"a\\\"b\\\\c\\nd\\u0001\"") == 0, "json: %s", out);
    free(out);

    uint64_t h1 = ws_hash64("abc", 3, 0), h2 = ws_hash64("abc", 3, 0);
    CHECK(h1 == h2, "hash deterministic");
    CHECK(ws_hash64("abc", 3, 1) != h1, "seed matters");
    CHECK(ws_hash64("abd", 3, 0) != h1, "content matters");
    CHECK(ws_hash64("ab", 2, 0) != h1, "length matters");
    CHECK(strcmp(ws_version(), "0.1.0") == 0, "version %s", ws_version());
    CHECK(ws_git_revision()[0] != '\0', "git revision");
}

static void test_kernel_names(void)
{
    CHECK(ws_kernel_name_matches("kernel", "kernel"), "exact");
    CHECK(ws_kernel_name_matches("kernel", "_Z6kernelPKiPii"), "mangled");
    CHECK(!ws_kernel_name_matches("kernel", "_Z14kernelEnhancedPKiPii"), "prefix only");
    CHECK(ws_kernel_name_matches("kernelEnhanced", "_Z14kernelEnhancedPKiPii"), "long");
    CHECK(!ws_kernel_name_matches("kern", "_Z6kernelPi"), "shorter");
    CHECK(ws_kernel_name_matches("k", "_ZN2ns1kEPi"), "namespace last");
    CHECK(ws_kernel_name_matches("ns::k", "_ZN2ns1kEPi"), "namespace qualified");
    CHECK(!ws_kernel_name_matches("ns", "_ZN2ns1kEPi"), "namespace alone");
    CHECK(!ws_kernel_name_matches("kernel", "_Z99kernel"), "bad length");
    CHECK(!ws_kernel_name_matches("kernel", "kernel2"), "other");
}

static const char *pick_name(const void *ctx, int i)
{
    return ((const char *const *)ctx)[i];
}

/* Picking an entry: an exact (mangled) name first, else the only match; several matches are
 * listed, NULL names skipped; .cu/.cuh are sources, toolkit headers are not. */
static void test_kernel_pick(void)
{
    static const char *const names[] = {"_Z5scaleIfEvPT_", NULL, "_Z5scaleIdEvPT_", "other"};
    char hits[64];
    int n;
    CHECK(ws_kernel_name_pick("other", 4, pick_name, names, &n, hits, sizeof hits) == 3 && n == 1,
          "the only match");
    CHECK(ws_kernel_name_pick("_Z5scaleIdEvPT_", 4, pick_name, names, &n, hits, sizeof hits) == 2,
          "a mangled name picks its instance");
    CHECK(ws_kernel_name_pick("scale", 4, pick_name, names, &n, hits, sizeof hits) == -1 &&
              n == 2 && !strcmp(hits, "_Z5scaleIfEvPT_, _Z5scaleIdEvPT_"),
          "two instances: %d (%s)", n, hits);
    CHECK(ws_kernel_name_pick("absent", 4, pick_name, names, &n, hits, sizeof hits) == -1 && n == 0,
          "none");
    CHECK(ws_is_cuda_source("k.cu", 4) && ws_is_cuda_source("a/k.cuh", 7) &&
              !ws_is_cuda_source("sm_30_intrinsics.hpp", 20) && !ws_is_cuda_source("cu", 2),
          "CUDA sources and headers");
}

static void test_result(void)
{
    ws_result r;
    ws_result_init(&r);
    CHECK(ws_result_set_metric(&r, "a", 1.0) == WS_OK, "metric");
    ws_result_set_metric(&r, "b", 2.0);
    ws_result_set_metric(&r, "a", 3.0);
    CHECK(r.nmetrics == 2, "replace not add: %d", r.nmetrics);
    CHECK(ws_result_metric(&r, "a") && ws_result_metric(&r, "a")->value == 3.0, "replaced");
    CHECK(ws_result_metric(&r, "zz") == NULL, "absent");
    int f0 = ws_result_add_file(&r, "/x/a.cu", NULL);
    int f1 = ws_result_add_file(&r, "/x/b.cu", "text b");
    int f2 = ws_result_add_file(&r, "/x/a.cu", "text a");
    CHECK(f0 == 0 && f1 == 1 && f2 == 0 && r.nfiles == 2, "dedup %d %d %d", f0, f1, f2);
    CHECK(r.files[0].text && strcmp(r.files[0].text, "text a") == 0, "late text");
    for (int i = 0; i < 100; i++) {
        ws_inst_stat *s = ws_result_add_inst(&r);
        CHECK(s != NULL, "inst");
        if (i == 0)
            CHECK(s->file == -1 && s->block == -1 && s->issued == 0, "inst defaults");
        s->pc = i;
    }
    CHECK(r.ninsts == 100 && r.insts[99].pc == 99 && r.insts[0].pc == 0, "insts kept");
    ws_block_info *b = ws_result_add_block(&r);
    CHECK(b && b->ipdom == -1, "block default ipdom");
    CHECK(ws_result_add_atomic(&r) != NULL, "atomic");
    ws_timeline *t = ws_result_add_timeline(&r);
    t->slots = calloc(4, sizeof *t->slots);
    t->nslots = 4;
    ws_result_add_warning(&r, "race at %s:%d", "a.cu", 12);
    CHECK(r.nwarnings == 1 && strcmp(r.warnings[0], "race at a.cu:12") == 0, "warning");
    ws_result_free(&r);
    CHECK(r.nmetrics == 0 && r.metrics == NULL && r.ninsts == 0, "freed and reset");
    ws_result_free(&r); /* twice is harmless */
}

/* The files no row names go; the others keep their order, and rows their file. */
static void test_drop_unused_files(void)
{
    ws_result r;
    ws_result_init(&r);
    ws_result_add_file(&r, "/x/k.cu", "kernel");
    ws_result_add_file(&r, "/cuda/include/sm_60_atomic_functions.hpp", "header");
    ws_result_add_file(&r, "/x/k.cuh", NULL);
    ws_result_add_file(&r, "/cuda/include/device_atomic_functions.hpp", NULL);
    int files[] = { 0, 2, -1, 2, 0 };
    for (int i = 0; i < 5; i++)
        ws_result_add_inst(&r)->file = files[i];
    CHECK(ws_result_drop_unused_files(&r) == 2 && r.nfiles == 2, "two dropped, %d left",
          r.nfiles);
    CHECK(!strcmp(r.files[0].path, "/x/k.cu") && !strcmp(r.files[1].path, "/x/k.cuh") &&
              !strcmp(r.files[0].text, "kernel"),
          "the named files kept in order: %s %s", r.files[0].path, r.files[1].path);
    CHECK(r.insts[0].file == 0 && r.insts[1].file == 1 && r.insts[2].file == -1 &&
              r.insts[3].file == 1 && r.insts[4].file == 0,
          "rows renumbered: %d %d %d %d %d", r.insts[0].file, r.insts[1].file, r.insts[2].file,
          r.insts[3].file, r.insts[4].file);
    CHECK(ws_result_drop_unused_files(&r) == 0 && r.nfiles == 2, "nothing more to drop");
    ws_result_free(&r);
}

int main(void)
{
    test_error_format();
    test_types();
    test_json_and_hash();
    test_kernel_names();
    test_kernel_pick();
    test_result();
    test_drop_unused_files();
    return ws_test_finish("core_basics");
}
