/* test_sass_lines.c — source lines of inlined code on the SASS model (tests/sim/cu/lines.cu):
 * nvdisasm writes an instruction's inlining chain one frame a line, and the model places it
 * at the innermost frame in a .cu file. So a __forceinline__ function of the file keeps its
 * own lines (before, its code counted on the line that calls it), toolkit intrinsics
 * (__shfl_xor_sync, a cooperative group's reduce, atomicAdd) count on the kernel line that
 * calls them, no row lands in a toolkit header, and ws_sass_source_line (what `profile`
 * uses to place CUPTI's rows of header code) names the same lines. The PTX model's lines
 * are checked beside them. Skipped without nvdisasm. */
#include "tests/sim/sim_test.h"

static const char *SPEC =
    "workload lines\nsource lines.cu\n"
    "buffer in i32 512 uniform_int 0 1000\nbuffer out i32 512 zero\nbuffer total i32 1 zero\n"
    "variant v\n  kernel lines\n  grid 4\n  block 128\n  args in out total\n";

/* Issued warp-instructions on `line`; with `prefix`, of the rows whose text starts so. */
static uint64_t issued_on(const ws_result *r, int line, const char *prefix)
{
    uint64_t n = 0;
    for (int i = 0; i < r->ninsts; i++)
        if (r->insts[i].line == line &&
            (!prefix || !strncmp(r->insts[i].text, prefix, strlen(prefix))))
            n += r->insts[i].issued;
    return n;
}

static void check_model(ws_module *m, ws_sass_module *sass)
{
    const char *model = sass ? "SASS" : "PTX";
    st_run r;
    int rc = st_exec_on(&r, m, sass, SPEC, "v", NULL);
    CHECK(rc == 0, "%s model: lines runs: %s", model, r.err.msg);
    if (rc) {
        st_free(&r);
        return;
    }
    int first = st_cu_line("lines.cu", "@bits_first"), body = st_cu_line("lines.cu", "@bits_body");
    CHECK(issued_on(&r.res, first, NULL) > 0 && issued_on(&r.res, body, NULL) > 0,
          "%s model: the inlined function's own lines %d and %d count (%llu, %llu)", model,
          first, body, (unsigned long long)issued_on(&r.res, first, NULL),
          (unsigned long long)issued_on(&r.res, body, NULL));
    if (sass) {
        int shfl = st_cu_line("lines.cu", "@shfl"), reduce = st_cu_line("lines.cu", "@reduce");
        int atomic = st_cu_line("lines.cu", "@atomic");
        CHECK(issued_on(&r.res, shfl, "SHFL") > 0, "SHFL on the __shfl_xor_sync line %d", shfl);
        CHECK(issued_on(&r.res, reduce, "REDUX") > 0, "REDUX on the cg::reduce line %d", reduce);
        CHECK(issued_on(&r.res, atomic, "RED") > 0, "RED on the atomicAdd line %d", atomic);
        int outside = 0;
        for (int i = 0; i < r.res.ninsts; i++) {
            const ws_inst_stat *in = &r.res.insts[i];
            if (in->issued && (in->file < 0 || in->file >= r.res.nfiles ||
                               !strstr(r.res.files[in->file].path, "lines.cu")))
                outside++;
            const char *path;
            int line;
            if (in->issued &&
                (ws_sass_source_line(sass, in->function, in->pc, &path, &line) != 0 ||
                 line != in->line || !strstr(path, "lines.cu")))
                outside++;
        }
        CHECK(outside == 0, "every executed SASS row is on a line of lines.cu, as "
              "ws_sass_source_line says (%d are not)", outside);
        const char *path;
        int line;
        CHECK(ws_sass_source_line(sass, "lines", 1 << 30, &path, &line) == -1 &&
                  ws_sass_source_line(sass, "absent", 0, &path, &line) == -1,
              "no location past the kernel's end or for a kernel that is not there");
    }
    st_free(&r);
}

int main(void)
{
    ws_module *m = st_load("lines");
    CHECK(m != NULL, "lines.ptx loads");
    if (m) {
        check_model(m, NULL);
        ws_sass_module *sass = NULL;
        if (st_load_sass("lines", "test_sass_lines", &sass) == 0)
            check_model(m, sass);
        ws_sass_module_free(sass);
        ws_module_free(m);
    }
    return ws_test_finish("test_sass_lines");
}
