/* test_sass_load.c — the cubin reader on tests/sass/cu/cubin_facts.cu built by ptxas:
 * parameter areas, __constant__ data in bank 3, the addresses of __device__ globals
 * relocated into bank 4, initialized and zeroed globals, static shared memory, the stack
 * frame and registers (checked against `ptxas -v`); and its errors: a missing file, a
 * file that is not a cubin, a kernel the cubin lacks, a damaged .nv.info, a NaN immediate
 * whose instruction lies outside the kernel's text. */
#include "sim/sass_ir.h"
#include "tests/check.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PTX WS_SASS_PTX_DIR "/sass_cubin_facts.ptx"
#define CACHE WS_SASS_WORK_DIR "/load-cache"

static char cubin[1024], sass[1024];

static ws_sass_module *load(const char *cubin_path, ws_error *err)
{
    char *text;
    size_t len;
    ws_sass_module *m = NULL;
    if (ws_read_file(sass, &text, &len, err) != WS_OK)
        return NULL;
    int rc = ws_sass_parse(text, len, sass, &m, err);
    free(text);
    CHECK(rc == WS_OK, "parse: %s", err->msg);
    if (rc == WS_OK && ws_sass_load_cubin(m, cubin_path, err) != WS_OK) {
        ws_sass_module_free(m);
        m = NULL;
    }
    return m;
}

/* "Used N registers" and "N bytes stack frame" of `kernel` from ptxas -v. */
static int ptxas_facts(const char *kernel, int *regs, int *frame)
{
    char cmd[1400], line[512];
    snprintf(cmd, sizeof cmd, "'%s' -v -arch=sm_90 -lineinfo '%s' -o /dev/null 2>&1",
             WS_PTXAS_BIN, PTX);
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    int in = 0;
    *regs = *frame = -1;
    while (fgets(line, sizeof line, p)) {
        char want[200];
        snprintf(want, sizeof want, "Function properties for %s\n", kernel);
        const char *fp = strstr(line, "Function properties for ");
        if (fp) in = strcmp(fp, want) == 0;
        const char *s = strstr(line, "bytes stack frame");
        if (in && s && *frame < 0) *frame = atoi(line + strspn(line, " \t"));
        const char *u = strstr(line, "Used ");
        if (in && u) { *regs = atoi(u + 5); in = 0; }
    }
    return pclose(p) == 0 && *regs > 0 ? 0 : -1;
}

static const ws_sass_global *global(const ws_sass_module *m, const char *name)
{
    for (int i = 0; i < m->nglobals; i++)
        if (!strcmp(m->globals[i].name, name))
            return &m->globals[i];
    return NULL;
}

static const ws_sass_cbank *bank(const ws_sass_kernel *k, int b)
{
    for (int i = 0; i < k->ncbanks; i++)
        if (k->cbanks[i].bank == b)
            return &k->cbanks[i];
    return NULL;
}

static void test_facts(void)
{
    ws_error err;
    ws_sass_module *m = load(cubin, &err);
    CHECK(m != NULL, "load: %s", err.msg);
    if (!m)
        return;
    ws_sass_kernel *k = ws_sass_kernel_find(m, "facts"), *k2 = ws_sass_kernel_find(m, "second");
    CHECK(k && k2 && k->cubin_loaded && k2->cubin_loaded, "both kernels");
    if (!k || !k2)
        goto out;
    CHECK(k->param_base == 0x210 && k->param_size == 24, "facts params %#x+%u",
          k->param_base, k->param_size);
    CHECK(k2->param_base == 0x210 && k2->param_size == 24, "second params (8, 1 at 8, 8 at 16) "
          "%#x+%u", k2->param_base, k2->param_size);
    CHECK(k->shared_static == 1024 + 64 * 4 + 32 * 4 && k2->shared_static == 0,
          "shared: the 1 KB reserved window + 384 bytes: %u", k->shared_static);
    int regs, frame;
    CHECK(ptxas_facts("facts", &regs, &frame) == 0, "ptxas -v");
    CHECK(k->regs == regs && (int)k->frame_bytes == frame && frame >= 160,
          "regs %d (ptxas %d), frame %u (ptxas %d)", k->regs, regs, k->frame_bytes, frame);
    CHECK(ptxas_facts("second", &regs, &frame) == 0 && k2->regs == regs && k2->frame_bytes == 0,
          "second: regs %d (ptxas %d)", k2->regs, regs);
    const ws_sass_cbank *b0 = bank(k, 0), *b3 = bank(k, 3), *b4 = bank(k, 4);
    CHECK(b0 && b0->size >= 0x210 + 24, "bank 0 holds the parameters");
    float coef[4];
    int table[8];
    CHECK(b3 && b3->size == 48, "bank 3: coef[4] and table[8]");
    if (b3 && b3->size == 48) {
        memcpy(coef, b3->data, sizeof coef);
        memcpy(table, b3->data + 16, sizeof table);
        CHECK(coef[0] == 1.5f && coef[3] == 4.5f && table[0] == 10 && table[7] == 17,
              "bank 3 contents");
    }
    CHECK(b4 && b4->size >= 16 && k->nrelocs == 2, "bank 4 with 2 relocations: %d", k->nrelocs);
    int seen = 0;
    for (int r = 0; r < k->nrelocs; r++) {
        const ws_sass_creloc *cr = &k->relocs[r];
        CHECK(cr->bank == 4 && cr->bits == 64 && cr->addend == 0 && cr->offset % 8 == 0,
              "reloc %s", cr->sym);
        seen |= (!strcmp(cr->sym, "gcount") ? 1 : 0) | (!strcmp(cr->sym, "ginit") ? 2 : 0);
    }
    CHECK(seen == 3, "relocations name gcount and ginit");
    const ws_sass_global *gc = global(m, "gcount"), *gi = global(m, "ginit");
    const ws_sass_global *co = global(m, "coef"), *ta = global(m, "table");
    CHECK(gc && gc->bank == -1 && gc->size == 4 && !gc->data, "gcount: zeroed global");
    CHECK(gi && gi->bank == -1 && gi->size == 16 && gi->data && gi->data[0] == 5 &&
          gi->data[12] == 8, "ginit: initialized global");
    CHECK(co && co->bank == 3 && co->offset == 0 && co->size == 16, "coef in bank 3");
    CHECK(ta && ta->bank == 3 && ta->offset == 16 && ta->size == 32 && ta->data &&
          ta->data[0] == 10, "table in bank 3 at 16");
    /* the SASS reads a global's address from the relocated bank-4 slot */
    int reads_b4 = 0;
    for (int i = 0; i < k->ninsts; i++)
        for (int o = 0; o < k->insts[i].nopnd; o++)
            reads_b4 |= k->insts[i].o[o].kind == WS_SO_CBANK && k->insts[i].o[o].bank == 4;
    CHECK(reads_b4, "facts reads c[0x4][..]");
    CHECK(ws_sass_load_cubin(m, cubin, &err) == WS_OK && k->nrelocs == 2 && m->nglobals == 4,
          "loading again replaces: %d relocs, %d globals", k->nrelocs, m->nglobals);
out:
    ws_sass_module_free(m);
}

/* A copy of the cubin with the first byte of .nv.info.facts replaced. */
static int damaged_copy(const char *out)
{
    char cmd[2200];
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", cubin, out);
    if (system(cmd) != 0 || elf_version(EV_CURRENT) == EV_NONE)
        return -1;
    int fd = open(out, O_RDWR);
    Elf *e = fd >= 0 ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
    size_t shstrndx;
    long off = -1;
    if (e && elf_getshdrstrndx(e, &shstrndx) == 0)
        for (Elf_Scn *s = elf_nextscn(e, NULL); s; s = elf_nextscn(e, s)) {
            GElf_Shdr sh;
            const char *n = gelf_getshdr(s, &sh) ? elf_strptr(e, shstrndx, sh.sh_name) : NULL;
            if (n && !strcmp(n, ".nv.info.facts"))
                off = (long)sh.sh_offset;
        }
    if (e)
        elf_end(e);
    int rc = -1;
    if (off >= 0 && pwrite(fd, "\x09", 1, off) == 1)
        rc = 0;
    if (fd >= 0)
        close(fd);
    return rc;
}

static void test_errors(void)
{
    ws_error err;
    ws_sass_module *m = load(WS_SASS_WORK_DIR "/no-such.cubin", &err);
    CHECK(!m && err.code == WS_ERR_IO && strstr(err.msg, "cannot open the cubin"), "%s",
          err.msg);
    m = load(sass, &err);
    CHECK(!m && err.code == WS_ERR_PTX && strstr(err.msg, "not a cubin"), "text: %s", err.msg);
    char other[1024], other_sass[1024];
    ws_error_clear(&err);
    int rc = ws_sass_build_ptx(WS_SASS_PTX_DIR "/sim_reduce.ptx", CACHE, NULL, other,
                               other_sass, sizeof other, &err);
    CHECK(rc == WS_OK, "build reduce: %s", err.msg);
    m = load(other, &err);
    CHECK(!m && strstr(err.msg, "kernel ") && strstr(err.msg, " is not in the cubin"),
          "other cubin: %s", err.msg);
    char bad[1100];
    snprintf(bad, sizeof bad, "%s/damaged.cubin", CACHE);
    CHECK(damaged_copy(bad) == 0, "damage a copy");
    m = load(bad, &err);
    CHECK(!m && err.code == WS_ERR_PTX && strstr(err.msg, "malformed cubin: bad entry in "
          ".nv.info.facts"), "damaged: %s", err.msg);
    unlink(bad);
    /* a NaN immediate takes its bits from the instruction in the cubin: one that names a
     * place past the kernel's text is a malformed pair, named */
    char *text;
    size_t len;
    ws_error_clear(&err);
    CHECK(ws_read_file(sass, &text, &len, &err) == WS_OK, "read %s", sass);
    rc = text ? ws_sass_parse(text, len, sass, &m, &err) : -1;
    free(text);
    CHECK(rc == WS_OK && m && m->nkernels > 0 && m->kernels[0].ninsts > 0, "parse: %s", err.msg);
    if (rc == WS_OK) {
        ws_sass_inst *in = &m->kernels[0].insts[m->kernels[0].ninsts - 1];
        in->o[0].kind = WS_SO_FIMM;
        in->o[0].fimm = NAN;
        in->nopnd = in->nopnd ? in->nopnd : 1;
        in->offset += 1u << 20;
        CHECK(ws_sass_load_cubin(m, cubin, &err) == WS_ERR_PTX &&
              strstr(err.msg, "malformed cubin: instruction outside its section .text."),
              "NaN immediate past the text: %s", err.msg);
        ws_sass_module_free(m);
    }
}

int main(void)
{
    ws_error err;
    ws_error_clear(&err);
    if (ws_sass_build_ptx(PTX, CACHE, NULL, cubin, sass, sizeof cubin, &err) != WS_OK) {
        fprintf(stderr, "build %s: %s\n", PTX, err.msg);
        return 1;
    }
    test_facts();
    test_errors();
    return ws_test_finish("test_sass_load");
}
