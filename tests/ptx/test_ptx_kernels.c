/* test_ptx_kernels.c — every seed kernel's PTX (built from kernels/ by target kernels_ptx)
 * and the wide samples of tests/ptx/cu parse with zero errors, with instruction counts
 * matching an independent statement count and a consistent CFG; and parsing is fast
 * (a 5,000-line PTX in milliseconds). */
#include <dirent.h>
#include <time.h>
#include "tests/ptx/ptx_test.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void check_module(const ws_module *m, const char *text, const char *name)
{
    int total = 0;
    CHECK(ws_module_entry_count(m) >= 1, "%s has entries", name);
    for (int i = 0; i < m->nfuncs; i++) {
        const ws_function *f = &m->funcs[i];
        total += f->ninsts;
        CHECK(f->nblocks >= 1 && f->blocks[0].first == 0 &&
              f->blocks[f->nblocks - 1].last == f->ninsts - 1, "%s %s blocks", name, f->name);
        for (int pc = 0; pc < f->ninsts; pc++) {
            const ws_inst *in = &f->insts[pc];
            /* line 0 is nvcc's ".loc 1 0 0": compiler-made code without a source line */
            if (in->block < 0 || in->block >= f->nblocks || in->line < 0 ||
                in->file != f->main_file || in->reconv_pc < -1 || in->reconv_pc >= f->ninsts) {
                CHECK(0, "%s %s pc %d: block %d line %d file %d reconv %d", name, f->name, pc,
                      in->block, in->line, in->file, in->reconv_pc);
                break;
            }
        }
    }
    CHECK(total == pt_count_statements(text), "%s: %d instructions, %d statements", name, total,
          pt_count_statements(text));
}

static void test_seed_kernels(void)
{
    DIR *d = opendir(WS_SOURCE_DIR "/kernels");
    CHECK(d != NULL, "kernels/ readable");
    if (!d)
        return;
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t len = strlen(de->d_name);
        if (len < 4 || strcmp(de->d_name + len - 3, ".cu") != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/kernels/%.*s.ptx", WS_BINARY_DIR, (int)(len - 3),
                 de->d_name);
        char *text = pt_slurp(path);
        CHECK(text != NULL, "%s exists (build target kernels_ptx)", path);
        if (!text)
            continue;
        ws_module *m = NULL;
        ws_error e;
        int rc = ws_ptx_parse(text, strlen(text), path, &m, &e);
        char buf[1024];
        ws_error_format(&e, buf, sizeof buf);
        CHECK(rc == WS_OK, "%s", rc ? buf : "");
        if (m) {
            check_module(m, text, de->d_name);
            ws_module_free(m);
        }
        free(text);
        n++;
    }
    closedir(d);
    printf("parsed %d seed kernel PTX files\n", n);
}

/* The front end's own wide samples (tests/ptx/cu): ordinary CUDA C of many kinds. */
static void test_samples(void)
{
    static const char *const names[] = {"flow", "ops"};
    for (int i = 0; i < 2; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s.ptx", WS_PTX_TEST_DIR, names[i]);
        char *text = pt_slurp(path);
        CHECK(text != NULL, "%s built", path);
        if (!text)
            continue;
        ws_error e;
        ws_module *m = pt_parse(text, path, &e);
        CHECK(m != NULL, "%s: %s", path, m ? "" : e.msg);
        if (m) {
            check_module(m, text, names[i]);
            ws_module_free(m);
        }
        free(text);
    }
}

/* A 5,000+ line kernel: straight-line arithmetic, loads, stores and branches. */
static char *synthetic(int blocks, int *lines)
{
    size_t cap = (size_t)blocks * 512 + 4096, n = 0;
    char *s = malloc(cap);
    n += (size_t)snprintf(s + n, cap - n, ".version 9.0\n.target sm_90\n.address_size 64\n"
                          ".visible .entry big(\n\t.param .u64 big_param_0\n)\n{\n"
                          "\t.reg .pred %%p<4>;\n\t.reg .b32 %%r<64>;\n\t.reg .b64 %%rd<8>;\n"
                          "\t.loc 1 1 0\n\tld.param.u64 %%rd1, [big_param_0];\n"
                          "\tmov.u32 %%r1, %%tid.x;\n");
    *lines = 13;
    for (int b = 0; b < blocks; b++) {
        n += (size_t)snprintf(s + n, cap - n,
                              "$L__BB0_%d:\n\t.loc 1 %d 5\n\tadd.s32 %%r2, %%r1, %d;\n"
                              "\tmul.wide.u32 %%rd2, %%r2, 4;\n\tadd.s64 %%rd3, %%rd1, %%rd2;\n"
                              "\tld.global.u32 %%r3, [%%rd3+8];\n\tsetp.lt.s32 %%p1, %%r3, %d;\n"
                              "\t@%%p1 bra $L__BB0_%d;\n\tst.global.u32 [%%rd3], %%r3;\n", b,
                              b + 2, b, b, b + 1);
        *lines += 9;
    }
    n += (size_t)snprintf(s + n, cap - n, "$L__BB0_%d:\n\tret;\n}\n\t.file 1 \"big.cu\"\n",
                          blocks);
    *lines += 5;
    return s;
}

static void test_speed(void)
{
    int lines;
    char *text = synthetic(600, &lines);
    ws_module *m = NULL;
    ws_error e;
    double t0 = now_ms();
    int rc = ws_ptx_parse(text, strlen(text), "big.ptx", &m, &e);
    double ms = now_ms() - t0;
    CHECK(rc == WS_OK, "synthetic PTX parses: %s", rc ? e.msg : "");
    if (m) {
        const ws_function *f = &m->funcs[0];
        CHECK(f->ninsts == 600 * 7 + 3 && f->nblocks == 600 * 2 + 1, "synthetic shape %d %d",
              f->ninsts, f->nblocks);
        CHECK(f->insts[f->ninsts - 2].line == 601, "last loc");
        ws_module_free(m);
    }
    printf("parsed %d lines in %.2f ms\n", lines, ms);
    CHECK(lines >= 5000 && ms < 250.0, "%d lines took %.1f ms", lines, ms);
    free(text);
}

int main(void)
{
    test_seed_kernels();
    test_samples();
    test_speed();
    return ws_test_finish("ptx_kernels");
}
