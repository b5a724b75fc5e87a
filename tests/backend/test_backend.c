/* test_backend.c — the host-side backend and profiler, no GPU needed: .entry/.param
 * scanning of real nvcc PTX and of hand-written PTX, launch parameter packing from a spec,
 * the metric tables, CUDA/CUPTI error names and hints, and the no-driver error lines. */
#include <stdlib.h>
#include <string.h>
#include <cupti_result.h>
#include "backend/backend.h"
#include "backend/cuda_api.h"
#include "profiler/profiler.h"
#include "tests/check.h"

static const char *hand_ptx =
    "// a comment .entry not_me(\n"
    ".version 8.8\n.target sm_90\n.address_size 64\n"
    ".visible .entry _Z5mixedPfdcS_(\n"
    "\t.param .u64 .ptr .global .align 4 _Z5mixedPfdcS__param_0, // pointer\n"
    "\t.param .f64 _Z5mixedPfdcS__param_1,\n"
    "\t.param .u8 _Z5mixedPfdcS__param_2,\n"
    "\t.param .align 8 .b8 _Z5mixedPfdcS__param_3[16]\n"
    ")\n{\n\tret;\n}\n"
    ".visible .entry noargs()\n{\n\tret;\n}\n";

static void test_scan_hand(void)
{
    ws_error err;
    ws_error_clear(&err);
    ws_ptx_entry *e = NULL;
    int n = 0;
    CHECK(ws_ptx_scan_entries(hand_ptx, &e, &n, &err) == WS_OK, "scan: %s", err.msg);
    CHECK(n == 2, "two entries, got %d", n);
    if (n != 2)
        return;
    CHECK(!strcmp(e[0].name, "_Z5mixedPfdcS_"), "name %s", e[0].name);
    CHECK(e[0].nparams == 4, "params %d", e[0].nparams);
    CHECK(!strcmp(e[0].params[0].type, ".u64") && e[0].params[0].size == 8, "ptr param");
    CHECK(!strcmp(e[0].params[1].type, ".f64") && e[0].params[1].size == 8, "f64 param");
    CHECK(e[0].params[2].size == 1, "u8 size %d", e[0].params[2].size);
    CHECK(e[0].params[3].size == 16 && e[0].params[3].align == 8, "b8[16] size %d align %d",
          e[0].params[3].size, e[0].params[3].align);
    CHECK(!strcmp(e[1].name, "noargs") && e[1].nparams == 0, "noargs");
    free(e);

    ws_ptx_entry one;
    CHECK(ws_ptx_find_entry(hand_ptx, "mixed", &one, &err) == WS_OK, "find mixed: %s", err.msg);
    CHECK(ws_ptx_find_entry(hand_ptx, "absent", &one, &err) == WS_ERR_NOTFOUND, "absent");
    CHECK(strstr(err.msg, "kernel 'absent' is not an entry of the PTX (entries: _Z5mixedPfdcS_, noargs)") != NULL,
          "absent message: %s", err.msg);
    /* overloads (or template instances) of one name: ambiguous unless named mangled */
    static const char *two =
        ".version 8.8\n.target sm_90\n.address_size 64\n"
        ".visible .entry _Z4pairPf(\n\t.param .u64 _Z4pairPf_param_0\n)\n{\n\tret;\n}\n"
        ".visible .entry _Z4pairPi(\n\t.param .u64 _Z4pairPi_param_0\n)\n{\n\tret;\n}\n";
    ws_error_clear(&err);
    CHECK(ws_ptx_find_entry(two, "pair", &one, &err) == WS_ERR_SPEC &&
              strstr(err.msg, "kernel 'pair' names 2 entries of the PTX") &&
              strstr(err.msg, "_Z4pairPf, _Z4pairPi"), "ambiguous: %s", err.msg);
    ws_error_clear(&err);
    CHECK(ws_ptx_find_entry(two, "_Z4pairPi", &one, &err) == WS_OK &&
              !strcmp(one.name, "_Z4pairPi"), "the mangled name picks one: %s", err.msg);
    ws_error_clear(&err);
    CHECK(ws_ptx_scan_entries(".entry broken(\n.param .u64 x\n", &e, &n, &err) == WS_ERR_PTX,
          "unterminated list");
    CHECK(strstr(err.msg, "entry broken: unterminated parameter list") != NULL, "msg: %s", err.msg);
}

/* Module-scope `.global` variables: not the pointer state space of a parameter, a load
 * inside a body, a comment or a `.const`; an initializer's braces do not confuse it. */
static void test_global_names(void)
{
    static const char *ptx =
        ".version 8.8\n.target sm_90\n.address_size 64\n"
        "// .global .align 4 .u32 commented;\n"
        ".global .align 4 .u32 counter = 10;\n"
        ".visible .global .align 4 .b8 table[400] = {1, 2, 3};\n"
        ".const .align 4 .u32 k = 3;\n"
        ".visible .entry e(\n\t.param .u64 .ptr .global .align 4 e_param_0\n)\n"
        "{\n\t.reg .b32 %r<2>;\n\tld.global.u32 %r1, [counter];\n\tret;\n}\n"
        ".global .f64 last;\n";
    char names[8][WS_NAME_MAX];
    int n = ws_ptx_global_names(ptx, names, 8);
    CHECK(n == 3 && !strcmp(names[0], "counter") && !strcmp(names[1], "table") &&
              !strcmp(names[2], "last"),
          "three __device__ variables: %d (%s %s %s)", n, n > 0 ? names[0] : "",
          n > 1 ? names[1] : "", n > 2 ? names[2] : "");
    CHECK(ws_ptx_global_names(ptx, names, 1) == 1 && !strcmp(names[0], "counter"), "at most max");
}

/* The probe workload compiled by the real nvcc: parameters read back and packed. */
static void test_pack_probe(void)
{
    ws_error err;
    ws_error_clear(&err);
    ws_spec *s = NULL;
    char ptx[WS_PATH_MAX];
    int rc = ws_spec_load(WS_SOURCE_DIR "/tests/gpu/probe.spec", NULL, 0, &s, &err);
    if (rc == WS_OK)
        rc = ws_ptx_build(s, NULL, ptx, sizeof ptx, &err);
    CHECK(rc == WS_OK, "probe spec/PTX: %s", err.msg);
    if (rc != WS_OK) {
        ws_spec_free(s);
        return;
    }
    char *text;
    size_t len;
    ws_ptx_entry e;
    CHECK(ws_read_file(ptx, &text, &len, &err) == WS_OK, "read ptx");
    CHECK(ws_ptx_find_entry(text, "probe", &e, &err) == WS_OK, "find probe: %s", err.msg);
    free(text);
    CHECK(e.nparams == 4, "probe has 4 params, got %d", e.nparams);
    CHECK(!strcmp(e.params[3].type, ".u32"), "n is .u32: %s", e.params[3].type);
    const ws_variant *v = ws_spec_variant(s, "main", &err);
    uint64_t addr[3] = {0x7f0000001000ull, 0x7f0000002000ull, 0x7f0000003000ull};
    ws_param_pack pk;
    CHECK(ws_params_pack(&e, s, v, addr, &pk, &err) == WS_OK, "pack: %s", err.msg);
    uint64_t p0, p2;
    uint32_t n;
    memcpy(&p0, pk.ptrs[0], 8);
    memcpy(&p2, pk.ptrs[2], 8);
    memcpy(&n, pk.ptrs[3], 4);
    CHECK(p0 == addr[0] && p2 == addr[2], "buffer args are device addresses");
    CHECK(n == 4096, "scalar N packed as 4096, got %u", n);
    CHECK(pk.n == 4 && pk.offset[3] == 24 && pk.size[3] == 4, "layout: offset %zu size %zu",
          pk.offset[3], pk.size[3]);

    ws_variant short_v = *v;
    short_v.nargs = 3;
    CHECK(ws_params_pack(&e, s, &short_v, addr, &pk, &err) == WS_ERR_SPEC, "arity");
    CHECK(strstr(err.msg, "takes 4 parameters, the spec gives 3") != NULL, "arity msg: %s", err.msg);
    ws_variant swapped = *v;
    swapped.args[3] = v->args[0]; /* a buffer where the kernel wants an int */
    CHECK(ws_params_pack(&e, s, &swapped, addr, &pk, &err) == WS_ERR_SPEC, "buffer to int");
    CHECK(strstr(err.msg, "argument 4 is buffer 'data' but kernel parameter 3 is .u32, not a pointer") != NULL,
          "type msg: %s", err.msg);
    ws_spec_free(s);
}

/* tests/cli/args: BUF+EXPR, a struct by value and a real constant packed for the real
 * nvcc PTX of args.cu (its Params is `.param .align 8 .b8 [16]`); a struct of the wrong
 * size is an error at the args line naming both. */
static void test_pack_args(void)
{
    ws_error err;
    ws_error_clear(&err);
    ws_spec *s = NULL;
    char ptx[WS_PATH_MAX], *text = NULL;
    int rc = ws_spec_load(WS_SOURCE_DIR "/tests/cli/args/args.spec", NULL, 0, &s, &err);
    if (rc == WS_OK)
        rc = ws_ptx_build(s, NULL, ptx, sizeof ptx, &err);
    if (rc == WS_OK)
        rc = ws_read_file(ptx, &text, NULL, &err);
    CHECK(rc == WS_OK, "args spec/PTX: %s", err.msg);
    ws_ptx_entry e;
    if (rc == WS_OK)
        rc = ws_ptx_find_entry(text, "shifted", &e, &err);
    free(text);
    CHECK(rc == WS_OK && e.nparams == 5 && e.params[2].size == 16 && e.params[2].align == 8,
          "shifted's Params is .align 8 .b8 [16]: %s", err.msg);
    if (rc != WS_OK) {
        ws_spec_free(s);
        return;
    }
    ws_variant v = s->variants[0];
    uint64_t addr[4] = {0x7f0000001000ull, 0x7f0000002000ull, 0x7f0000003000ull,
                        0x7f0000004000ull};
    ws_param_pack pk;
    CHECK(ws_params_pack(&e, s, &v, addr, &pk, &err) == WS_OK, "pack: %s", err.msg);
    uint64_t p1;
    int32_t n;
    float scale, alpha;
    int64_t bias;
    memcpy(&p1, pk.ptrs[1], 8);
    memcpy(&n, pk.ptrs[2], 4);
    memcpy(&scale, (char *)pk.ptrs[2] + 4, 4);
    memcpy(&bias, (char *)pk.ptrs[2] + 8, 8);
    memcpy(&alpha, pk.ptrs[3], 4);
    CHECK(p1 == addr[1] + 32 * 4, "in+HALF is 128 bytes in: %#llx", (unsigned long long)p1);
    CHECK(n == 32 && scale == 2.0f && bias == 3 && pk.size[2] == 16 && pk.offset[2] == 16,
          "struct packed: n %d scale %g bias %lld at %zu size %zu", n, scale, (long long)bias,
          pk.offset[2], pk.size[2]);
    CHECK(alpha == 0.5f, "ALPHA as .f32: %g", alpha);
    v.args[2].struct_size = 8;
    CHECK(ws_params_pack(&e, s, &v, addr, &pk, &err) == WS_ERR_SPEC && err.line == 21 &&
          strstr(err.msg, "argument 3 'struct:i32=HALF,f32=2.0,i64=3' is a struct of 8 bytes "
                          "(align 8) but kernel _Z7shiftedPfPKf6Paramsfi parameter 2 "
                          "(_Z7shiftedPfPKf6Paramsfi_param_2) is a struct of 16 bytes"),
          "struct size mismatch: %d %s", err.line, err.msg);
    v.args[2] = v.args[3];
    CHECK(ws_params_pack(&e, s, &v, addr, &pk, &err) == WS_ERR_SPEC &&
          strstr(err.msg, "argument 3 'ALPHA' is a scalar but kernel"), "scalar for a struct: %s",
          err.msg);
    ws_spec_free(s);
}

static void test_pack_floats(void)
{
    ws_error err;
    ws_error_clear(&err);
    ws_ptx_entry *e;
    int n;
    CHECK(ws_ptx_scan_entries(hand_ptx, &e, &n, &err) == WS_OK, "scan");
    ws_spec s;
    ws_variant v;
    memset(&s, 0, sizeof s);
    memset(&v, 0, sizeof v);
    snprintf(v.name, sizeof v.name, "f");
    e[0].nparams = 3; /* the f64 and u8 scalars after one pointer */
    v.nargs = 3;
    v.args[0].kind = WS_ARG_SCALAR; /* a scalar for a pointer param is allowed: raw value */
    v.args[0].ival = 0;
    v.args[1].kind = WS_ARG_SCALAR;
    v.args[1].fval = 2.5;
    v.args[2].kind = WS_ARG_SCALAR;
    v.args[2].ival = 300; /* truncated to the u8's 8 bits, as C would */
    ws_param_pack pk;
    CHECK(ws_params_pack(&e[0], &s, &v, NULL, &pk, &err) == WS_OK, "pack floats: %s", err.msg);
    double d;
    memcpy(&d, pk.ptrs[1], 8);
    CHECK(d == 2.5, "f64 %g", d);
    CHECK(*(unsigned char *)pk.ptrs[2] == (300 & 0xff), "u8 %u", *(unsigned char *)pk.ptrs[2]);
    free(e);
}

static void test_metric_tables(void)
{
    int n, m;
    const char *const *names = ws_prof_metric_names(&n);
    CHECK(n == 13, "13 range metrics, got %d", n);
    const char *want[] = {"smsp__thread_inst_executed_per_inst_executed.ratio",
                          "smsp__sass_average_branch_targets_threads_uniform.pct",
                          "smsp__sass_branch_targets_threads_divergent.sum",
                          "lts__t_requests_op_red.sum", "gpu__time_duration.sum"};
    for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) {
        int found = 0;
        for (int i = 0; i < n; i++)
            found += !strcmp(names[i], want[w]);
        CHECK(found == 1, "%s listed once", want[w]);
    }
    for (int i = 0; i < n; i++) {
        const char *dot = strrchr(names[i], '.');
        CHECK(strstr(names[i], "__") && dot && (!strcmp(dot, ".sum") || !strcmp(dot, ".ratio") ||
                                                !strcmp(dot, ".pct")),
              "Nsight Compute shaped name: %s", names[i]);
        for (int j = 0; j < i; j++)
            CHECK(strcmp(names[i], names[j]), "duplicate %s", names[i]);
    }
    const ws_sass_metric *sm = ws_prof_sass_metrics(&m);
    CHECK(m >= 2 && sm[0].required && sm[0].field == WS_SASS_ISSUED &&
          !strcmp(sm[0].name, "smsp__sass_inst_executed"), "SASS table");
}

/* A JIT log in an error message: one line. */
static void test_log_one_line(void)
{
    char log[] = "ptxas application ptx input, line 12; error : Unknown symbol 'bogus'\n"
                 "ptxas fatal : Ptx assembly aborted\r\n  \n";
    ws_cu_log_one_line(log);
    CHECK(!strcmp(log, "ptxas application ptx input, line 12; error : Unknown symbol 'bogus';"
                       "ptxas fatal : Ptx assembly aborted"), "one line: '%s'", log);
    char empty[] = "\n";
    ws_cu_log_one_line(empty);
    CHECK(empty[0] == '\0', "a blank log becomes empty");
}

/* A count CUPTI evaluates below zero is left out with a warning; ratios and counts >= 0
 * are stored as they come. */
static void test_store_value(void)
{
    ws_result r;
    ws_result_init(&r);
    CHECK(ws_prof_store_value(&r, "lts__t_requests_op_red.sum", -2531483) == 0, "negative count");
    CHECK(!ws_result_metric(&r, "lts__t_requests_op_red.sum"), "negative count left out");
    CHECK(r.nwarnings == 1 && strstr(r.warnings[0], "lts__t_requests_op_red.sum = -2531483"),
          "warning names it: %s", r.nwarnings ? r.warnings[0] : "(none)");
    CHECK(ws_prof_store_value(&r, "lts__t_requests_op_atom.sum", 394559289) == 0 &&
          ws_result_metric(&r, "lts__t_requests_op_atom.sum")->value == 394559289, "count kept");
    CHECK(ws_prof_store_value(&r, "smsp__sass_inst_executed_op_global_red.sum", 0) == 0 &&
          ws_result_metric(&r, "smsp__sass_inst_executed_op_global_red.sum"), "zero kept");
    CHECK(ws_prof_store_value(&r, "x__delta.ratio", -0.5) == 0 &&
          ws_result_metric(&r, "x__delta.ratio")->value == -0.5 && r.nwarnings == 1,
          "a ratio below zero is kept");
    ws_result_free(&r);
}

static void test_metric_list(void)
{
    const char *list[WS_PROF_MAX_METRICS];
    char buf[256];
    ws_error err;
    ws_error_clear(&err);
    int n, nd;
    ws_prof_metric_names(&nd);
    CHECK(ws_prof_metric_list(NULL, list, buf, sizeof buf, &err) == nd, "default set");
    n = ws_prof_metric_list("smsp__inst_executed.sum, lts__t_requests_op_atom.sum", list, buf,
                            sizeof buf, &err);
    CHECK(n == 2 && !strcmp(list[0], "smsp__inst_executed.sum") &&
          !strcmp(list[1], "lts__t_requests_op_atom.sum"), "two names, comma and space");
    CHECK(ws_prof_metric_list(" , ", list, buf, sizeof buf, &err) == -1 &&
          err.code == WS_ERR_USAGE && !strcmp(err.msg, "--metrics: no metric named"),
          "empty: %s", err.msg);
    char many[200] = "";
    for (int i = 0; i < WS_PROF_MAX_METRICS + 1; i++)
        strcat(many, "a,");
    CHECK(ws_prof_metric_list(many, list, buf, sizeof buf, &err) == -1 &&
          !strcmp(err.msg, "--metrics: at most 32 metrics"), "too many: %s", err.msg);
    CHECK(ws_prof_metric_list(many, list, buf, 8, &err) == -1 &&
          !strcmp(err.msg, "--metrics: list longer than 7 characters"), "too long: %s", err.msg);
}

static void test_error_names(void)
{
    CHECK(!strcmp(ws_cu_result_name(100), "CUDA_ERROR_NO_DEVICE"), "cu 100");
    CHECK(!strcmp(ws_cu_result_name(34), "CUDA_ERROR_STUB_LIBRARY"), "cu 34");
    CHECK(!strcmp(ws_cupti_result_name(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES),
                  "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES"), "cupti name");
    CHECK(!strcmp(ws_cupti_result_name(CUPTI_ERROR_NOT_SUPPORTED), "CUPTI_ERROR_NOT_SUPPORTED"),
          "cupti not supported");
    ws_error err;
    ws_error_clear(&err);
    CHECK(ws_cupti_error(&err, "cuptiRangeProfilerEnable", CUPTI_ERROR_INSUFFICIENT_PRIVILEGES) == WS_ERR_CUPTI,
          "code");
    CHECK(!strcmp(err.msg, "CUPTI cuptiRangeProfilerEnable failed: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (35): "
                           "profiling needs NVreg_RestrictProfilingToAdminUsers=0 or root"),
          "privileges message: %s", err.msg);
    ws_cupti_error(&err, "cuptiProfilerHostConfigAddMetrics", CUPTI_ERROR_INVALID_METRIC_NAME);
    CHECK(strstr(err.msg, "CUPTI_ERROR_INVALID_METRIC_NAME (17): a requested metric is not available on this GPU") != NULL,
          "metric message: %s", err.msg);
    ws_cupti_error(&err, "cuptiSassMetricsEnable", CUPTI_ERROR_NOT_SUPPORTED);
    CHECK(strstr(err.msg, "does not support CUPTI profiling") != NULL, "unsupported: %s", err.msg);
}

static void test_no_driver(void)
{
    ws_error err;
    ws_error_clear(&err);
    ws_gpu *g = NULL;
    CHECK(ws_gpu_open("/nonexistent/libcuda.so.1", 0, &g, &err) == WS_ERR_GPU && !g, "no lib");
    CHECK(!strncmp(err.msg, "no CUDA driver: cannot load /nonexistent/libcuda.so.1 (", 55),
          "no-driver message: %s", err.msg);
    ws_error_clear(&err);
    CHECK(ws_gpu_open(WS_CUDA_STUB, 0, &g, &err) == WS_ERR_GPU && !g, "stub");
    CHECK(!strcmp(err.msg, "no CUDA GPU: cuInit returned CUDA_ERROR_STUB_LIBRARY (34)"),
          "stub message: %s", err.msg);
}

int main(void)
{
    test_scan_hand();
    test_global_names();
    test_pack_probe();
    test_pack_args();
    test_pack_floats();
    test_metric_tables();
    test_store_value();
    test_log_one_line();
    test_metric_list();
    test_error_names();
    test_no_driver();
    return ws_test_finish("backend");
}
