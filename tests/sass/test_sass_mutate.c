/* test_sass_mutate.c — the SASS parser over mutated real SASS, without a fuzzing engine:
 * each instruction line of the tests/fuzz/corpus_sass seeds, inside its own section, is
 * cut, has bytes deleted, duplicated, swapped or replaced by characters that matter to the
 * grammar; every variant must parse to a self-consistent module or fail with an error value
 * (under the ASan+UBSan build of scripts/test.sh: never crash or read out of bounds). */
#include "sim/sass_ir.h"
#include "tests/check.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#define SEEDS WS_SOURCE_DIR "/tests/fuzz/corpus_sass"
#define HEAD "\t.target\tsm_90\n\t.section\t.text.k,\"ax\",@progbits\nk:\n" \
             "\t//## File \"/src/k.cu\", line 3\n"
#define TAIL "        /*fff0*/                   EXIT ;\n.L_x_0:\n.L_x_1:\n.L_x_2:\n"

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static int parsed, failed;

static uint32_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)rng;
}

static void check_one(const char *text, size_t len)
{
    ws_sass_module *m = NULL;
    ws_error err;
    int rc = ws_sass_parse(text, len, "mut.sass", &m, &err);
    if (rc != WS_OK) {
        failed++;
        if (m != NULL || err.code == WS_OK || !err.msg[0] || strchr(err.msg, '\n'))
            CHECK(0, "error value: rc %d msg [%s] for [%.*s]", rc, err.msg, (int)len, text);
        return;
    }
    parsed++;
    for (int k = 0; k < m->nkernels; k++) {
        const ws_sass_kernel *kn = &m->kernels[k];
        for (int i = 0; i < kn->ninsts; i++) {
            const ws_sass_inst *in = &kn->insts[i];
            int ok = in->op < WS_SOP__COUNT && in->nopnd >= ws_sass_ops[in->op].nmin &&
                     in->nopnd <= ws_sass_ops[in->op].nmax && in->target >= -1 &&
                     in->target <= kn->ninsts && in->file < kn->nfiles &&
                     ws_sass_index_of(kn, in->offset) == i;
            for (int o = 0; o < in->nopnd; o++)
                ok &= in->o[o].sym < kn->nsyms && in->o[o].target <= kn->ninsts;
            if (!ok) {
                CHECK(0, "inconsistent instruction %d for [%.*s]", i, (int)len, text);
                break;
            }
        }
    }
    ws_sass_module_free(m);
}

static const char grammar[] = "[]()`,;|-+~!.@ \t\"*/:$0xRUPBZT";

/* Mutations of one line, each parsed inside HEAD ... TAIL. */
static void mutate_line(const char *line, size_t n)
{
    char buf[1024], text[1400];
    if (n == 0 || n > 600)
        return;
    for (int round = 0; round < 24; round++) {
        memcpy(buf, line, n);
        size_t m = n, at = next() % n;
        switch (round % 6) {
        case 0: m = at; break;                                   /* cut */
        case 1: memmove(buf + at, buf + at + 1, n - at - 1); m--; break; /* delete */
        case 2: memmove(buf + at + 1, buf + at, n - at); m++; break;     /* duplicate */
        case 3: { size_t b = next() % n; char t = buf[at]; buf[at] = buf[b]; buf[b] = t; break; }
        case 4: buf[at] = grammar[next() % (sizeof grammar - 1)]; break;
        case 5: buf[at] = (char)(next() & 0xff); break;          /* any byte, NUL included */
        }
        int len = snprintf(text, sizeof text, HEAD "%.*s\n" TAIL, (int)m, buf);
        check_one(text, (size_t)len);
    }
}

static void mutate_file(const char *path)
{
    char *text;
    size_t len;
    ws_error err;
    if (ws_read_file(path, &text, &len, &err) != WS_OK) {
        CHECK(0, "read %s: %s", path, err.msg);
        return;
    }
    check_one(text, len);   /* the seed itself parses */
    CHECK(parsed > 0, "%s parses", path);
    int lines = 0;
    for (char *p = text, *nl; p < text + len; p = nl + 1) {
        nl = memchr(p, '\n', (size_t)(text + len - p));
        if (!nl)
            nl = text + len;
        if (strstr(p, "/*") && strstr(p, "/*") < nl) {
            mutate_line(p, (size_t)(nl - p));
            lines++;
        }
    }
    /* whole-file damage: truncations at every 97th byte */
    for (size_t cut = 0; cut < len; cut += 97)
        check_one(text, cut);
    CHECK(lines > 10, "%s: %d instruction lines", path, lines);
    free(text);
}

int main(void)
{
    DIR *d = opendir(SEEDS);
    CHECK(d != NULL, "%s readable", SEEDS);
    int files = 0;
    struct dirent *de;
    while (d && (de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", SEEDS, de->d_name);
        mutate_file(path);
        files++;
    }
    if (d)
        closedir(d);
    CHECK(files >= 3 && parsed > 100 && failed > 100, "%d seeds: %d variants parsed, %d failed",
          files, parsed, failed);
    printf("test_sass_mutate: %d variants parsed, %d rejected\n", parsed, failed);
    return ws_test_finish("test_sass_mutate");
}
