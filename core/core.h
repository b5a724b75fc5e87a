/* core.h — warpscope's shared vocabulary: errors, workload specs, argument buffers,
 * PTX builds and run results. Plain data plus parsers and generators: nothing here
 * touches the simulator, a GPU or SQLite. This is the contract every module speaks. */
#ifndef WS_CORE_H
#define WS_CORE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- errors */

typedef enum ws_code {
    WS_OK = 0,
    WS_ERR_USAGE,       /* bad command line */
    WS_ERR_IO,          /* a file could not be read or written */
    WS_ERR_NOMEM,
    WS_ERR_SPEC,        /* malformed or inconsistent workload spec */
    WS_ERR_BUILD,       /* nvcc failed */
    WS_ERR_PTX,         /* malformed PTX */
    WS_ERR_UNSUPPORTED, /* well-formed PTX the simulator does not implement */
    WS_ERR_SIM,         /* simulated fault: out-of-bounds access, misaligned, deadlock */
    WS_ERR_CHECK,       /* outputs differ from the reference / the other side */
    WS_ERR_GPU,         /* no GPU, no driver, launch error */
    WS_ERR_CUPTI,       /* the profiler was refused or failed */
    WS_ERR_DB,          /* SQLite error */
    WS_ERR_NOTFOUND     /* a run, workload, variant or kernel that does not exist */
} ws_code;

/* One error, filled where it happens and returned up to the CLI, which alone prints.
 * `file`/`line` name the PTX or spec line; the `where` fields a simulated thread. */
typedef struct ws_error {
    ws_code code;
    char msg[512];
    char file[256];   /* "" when not about a file */
    int line;         /* 0 when unknown */
    char kernel[128]; /* "" when not about a kernel */
    int has_thread;   /* cta/warp/lane/pc below are valid */
    uint32_t cta[3];
    int warp, lane, pc;
    uint64_t address; /* faulting address, when has_thread */
} ws_error;

void ws_error_clear(ws_error *e);
/* Sets code and message (printf-style); returns code so callers can `return ws_error_set(...)`. */
int ws_error_set(ws_error *e, ws_code code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int ws_error_at(ws_error *e, ws_code code, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* One line: "FILE:LINE: kernel K, CTA (x,y,z), warp W, lane L, PC P: message". */
void ws_error_format(const ws_error *e, char *buf, size_t n);
const char *ws_code_name(ws_code c);

/* ---------------------------------------------------------------- types */

typedef enum ws_type {
    WS_T_I8, WS_T_U8, WS_T_I16, WS_T_U16, WS_T_I32, WS_T_U32, WS_T_I64, WS_T_U64,
    WS_T_F32, WS_T_F64, WS_T_F16, WS_T_BF16, WS_T__COUNT
} ws_type;
size_t ws_type_size(ws_type t);
const char *ws_type_name(ws_type t);          /* "i32", "f64", ... */
int ws_type_parse(const char *s, ws_type *t); /* 0 on success */
int ws_type_is_float(ws_type t);
/* A float type's element at p as a double, and v stored into one (f16 and bf16 rounded to
 * nearest even, past the largest finite to infinity, NaN as 0x7fff; f32 rounded by the host). */
double ws_real_load(ws_type t, const void *p);
/* x rounded to nearest even as binary16 / bfloat16 bits, whatever the host's rounding mode
 * (infinities kept, NaN as 0x7fff). */
uint16_t ws_f16_bits(double x);
uint16_t ws_bf16_bits(double x);
void ws_real_store(ws_type t, void *p, double v);
/* The element of float type t next below the stored one at p (toward -infinity), stored. */
void ws_real_step_down(ws_type t, void *p);

/* ---------------------------------------------------------------- workload specs */

#define WS_NAME_MAX 64
#define WS_EXPR_MAX 256
#define WS_PATH_MAX 512

/* A named constant; visible to launch expressions and to the .cu as -DNAME=VALUE (or
 * -DWS_NAME=VALUE only, when `namespaced`: NAME is declared as an identifier in the .cu
 * and never used as a macro there, so a bare -DNAME would break the compile). */
typedef struct ws_const {
    char name[WS_NAME_MAX];
    char expr[WS_EXPR_MAX]; /* as written (or as given by -D) */
    int is_string;          /* value is a word, e.g. DIST = skewed */
    int is_float;           /* value is a real literal, e.g. ALPHA = 0.5 (fval; not in integer
                               expressions) */
    int namespaced;         /* passed to nvcc as -DWS_NAME only */
    double fval;            /* resolved real value (is_float) */
    int64_t ival;           /* resolved integer value */
    char sval[WS_NAME_MAX]; /* resolved word value */
    int line;               /* spec line, 0 when from -D only */
    int overridden;         /* set by -D */
} ws_const;

typedef enum ws_gen_kind {
    WS_GEN_ZERO, WS_GEN_CONST, WS_GEN_IOTA, WS_GEN_UNIFORM_INT, WS_GEN_UNIFORM_REAL,
    WS_GEN_RANDOM_BITS, WS_GEN_MIX, WS_GEN_FILE
} ws_gen_kind;

#define WS_MIX_MAX 8
/* An input generator. Same spec + seed -> same bytes on every machine. */
typedef struct ws_gen {
    ws_gen_kind kind;
    double a, b;                    /* const value / iota start,step / uniform lo,hi (inclusive for ints) */
    char path[WS_PATH_MAX];         /* WS_GEN_FILE: raw little-endian, resolved relative to the spec */
    int nmix;                       /* WS_GEN_MIX: parts with their weights (sum to 1) */
    double mix_weight[WS_MIX_MAX];
    ws_gen_kind mix_kind[WS_MIX_MAX];
    double mix_a[WS_MIX_MAX], mix_b[WS_MIX_MAX];
} ws_gen;

typedef struct ws_buffer_spec {
    char name[WS_NAME_MAX];
    ws_type type;
    char count_expr[WS_EXPR_MAX];
    uint64_t count;  /* elements */
    ws_gen gen;
    uint64_t seed;   /* per-buffer seed, derived from the spec seed unless given */
    int is_output;   /* named by a `check` line */
    double tolerance;/* for float outputs: max relative difference; 0 = exact */
    double absolute; /* and max absolute difference (either suffices); 0 = none */
    char expect_path[WS_PATH_MAX]; /* `check NAME file PATH`: the expected raw contents */
    int line;
} ws_buffer_spec;

/* A kernel argument: a buffer's device pointer (BUF, or BUF+EXPR advanced by EXPR
 * elements), a scalar (number, constant, integer expression), or a struct passed by
 * value (struct:TYPE=V,...: its bytes laid out with C alignment). */
typedef enum ws_arg_kind { WS_ARG_BUFFER, WS_ARG_SCALAR, WS_ARG_STRUCT } ws_arg_kind;
#define WS_STRUCT_MAX 256    /* bytes of a struct argument */
typedef struct ws_arg {
    ws_arg_kind kind;
    int buffer;              /* WS_ARG_BUFFER: index into spec->buffers */
    uint64_t offset;         /* WS_ARG_BUFFER: bytes past the buffer's start (BUF+EXPR) */
    char expr[WS_EXPR_MAX];  /* as written */
    int64_t ival;            /* WS_ARG_SCALAR: value as integer */
    double fval;             /* WS_ARG_SCALAR: value as float (for .f32/.f64 params) */
    uint32_t struct_size;    /* WS_ARG_STRUCT: bytes (a multiple of struct_align) */
    uint32_t struct_align;   /* WS_ARG_STRUCT: the largest field's alignment */
    uint8_t bytes[WS_STRUCT_MAX]; /* WS_ARG_STRUCT: the struct as the kernel reads it */
    int line;                /* spec line of the args */
} ws_arg;

#define WS_ARGS_MAX 32
typedef struct ws_step ws_step;
typedef struct ws_variant {
    char name[WS_NAME_MAX];   /* "before", "after", ... */
    char kernel[128];         /* C name of the __global__ function, e.g. "kernelEnhanced" */
    char grid_expr[3][WS_EXPR_MAX], block_expr[3][WS_EXPR_MAX], smem_expr[WS_EXPR_MAX];
    uint32_t grid[3], block[3];
    uint32_t smem_dynamic;    /* bytes of dynamic shared memory */
    int nargs;
    ws_arg args[WS_ARGS_MAX];
    char description[256];
    int cooperative;          /* `cooperative`: launched so that a grid sync completes */
    int racy;                 /* `racy`: a race the workload shows; outputs that differ are
                                 reported, not an error, and never the base of a comparison */
    int line;
    /* A sequence of launches (`launch`, `repeat`, `while`, `end`, `set` lines); 0 for the
     * single-launch form above. In a sequence, kernel/grid/block/smem are the first
     * launch's (for listings); every launch's own are in its step. */
    int nsteps, cap_steps;
    ws_step *steps;
} ws_variant;

/* One line of a launch sequence. Expressions are resolved when the sequence runs, with
 * the enclosing loops' variables bound (ws_variant_launches). */
typedef enum ws_step_kind {
    WS_STEP_LAUNCH, WS_STEP_REPEAT, WS_STEP_WHILE, WS_STEP_END, WS_STEP_SET
} ws_step_kind;
#define WS_LOOP_DEPTH 8
struct ws_step {
    ws_step_kind kind;
    int line;
    ws_variant *launch;          /* LAUNCH: kernel, grid/block/smem/args as written */
    char count_expr[WS_EXPR_MAX];/* REPEAT: trips; WHILE: the most trips (`max`) */
    char var[WS_NAME_MAX];       /* REPEAT/WHILE: loop variable (`as VAR`), "" none */
    int buffer;                  /* WHILE/SET: index into spec->buffers */
    char buffer_name[WS_NAME_MAX];
    char index_expr[WS_EXPR_MAX];/* WHILE/SET: the element */
    char value_expr[WS_EXPR_MAX];/* WHILE: compared with; SET: written */
    int repeat_if_equal;         /* WHILE: 1 for `==`, 0 for `!=` */
    int match;                   /* REPEAT/WHILE: its END's index; END: its loop's */
};

typedef enum ws_region_kind { WS_REGION_LINES, WS_REGION_FUNCTION } ws_region_kind;
typedef struct ws_region {
    char name[WS_NAME_MAX];
    ws_region_kind kind;
    char function[128];       /* WS_REGION_FUNCTION: a __device__ function in the .cu */
    int first_line, last_line;/* .cu lines, inclusive; resolved for functions too */
    int line;
} ws_region;

/* `symbol NAME BUF`: before a launch, the .cu's __constant__ or __device__ variable NAME
 * is filled with buffer BUF's bytes (the sizes must match). */
typedef struct ws_symbol {
    char name[128];
    char buffer_name[WS_NAME_MAX];
    int buffer;               /* index into spec->buffers */
    int line;
} ws_symbol;

/* `texture BUF W [H [D]] [filter point|linear] [address clamp|wrap|border] [normalized]`
 * and `surface BUF W [H]`: the buffer is a W x H x D image of one channel of its element
 * type, and an argument naming it passes a texture or surface object (on the GPU the
 * CUtexObject/CUsurfObject of a CUDA array holding its bytes; in the simulator the
 * buffer's index, which the simulator's texture table maps back to this image). */
typedef enum ws_image_kind { WS_IMAGE_TEXTURE = 1, WS_IMAGE_SURFACE } ws_image_kind;
typedef enum ws_image_filter { WS_FILTER_POINT, WS_FILTER_LINEAR } ws_image_filter;
typedef enum ws_image_address {
    WS_ADDRESS_CLAMP, WS_ADDRESS_WRAP, WS_ADDRESS_BORDER
} ws_image_address;
typedef struct ws_image {
    ws_image_kind kind;
    char buffer_name[WS_NAME_MAX];
    int buffer;               /* index into spec->buffers */
    int ndims;                /* 1..3 */
    char dim_expr[3][WS_EXPR_MAX];
    uint32_t dims[3];         /* width, height, depth; 1 past ndims */
    ws_image_filter filter;
    ws_image_address address;
    int normalized;           /* coordinates in [0,1) rather than texels */
    int linear_memory;        /* `resource linear`: 1D over the buffer's memory (tex1Dfetch) */
    int line;
} ws_image;

typedef struct ws_spec {
    char path[WS_PATH_MAX];       /* the spec file */
    char name[WS_NAME_MAX];       /* workload name */
    char description[512];
    char source[WS_PATH_MAX];     /* absolute path of the .cu */
    char reference[WS_NAME_MAX];  /* built-in CPU reference, "" when none */
    int independent;              /* `variants independent`: outputs not compared between
                                     variants (they compute different things) */
    uint64_t seed;
    int nconsts, nbuffers, nvariants, nregions, nsymbols, nimages;
    ws_const *consts;
    ws_buffer_spec *buffers;
    ws_variant *variants;
    ws_region *regions;
    ws_symbol *symbols;
    ws_image *images;
} ws_spec;

/* The kernel parameter an argument lands in, as the PTX declares it. */
typedef struct ws_param_shape {
    const char *kernel, *name;
    uint64_t size;            /* bytes */
    uint32_t align;           /* bytes */
    int aggregate;            /* `.param .align A .b8 name[SIZE]`: a struct (or array) */
} ws_param_shape;
/* Checks argument number `argno` (from 1) against its parameter: a struct must have the
 * parameter's size and an alignment the parameter's divides by; a buffer or a scalar
 * cannot fill an aggregate. WS_ERR_SPEC at the argument's spec line naming both. */
int ws_arg_check_param(const ws_spec *s, const char *variant, int argno, const ws_arg *a,
                       const ws_param_shape *p, ws_error *err);
/* A symbol's variable in the compiled module is `size` bytes (found == 0: there is none
 * of that name; `known`, when not NULL, lists the module's variables): WS_ERR_SPEC at the symbol's line
 * naming the variable and the buffer when they differ, WS_OK when they match. */
int ws_symbol_check(const ws_spec *s, const ws_symbol *sym, int found, uint64_t size,
                    const char *known, ws_error *err);
/* The macro name the constant has in the .cu: NAME, or WS_NAME when namespaced. */
const char *ws_const_define_name(const ws_const *c, char *buf, size_t n);

/* One launch of a variant as it runs: `v` is a single-launch variant (the variant's own
 * for the single-launch form; for a sequence, the launch line resolved with the loop
 * variables of that moment, named like its variant, `line` the launch line's). */
typedef struct ws_launch {
    int index;                   /* 0, 1, ... in the order they run */
    const ws_variant *v;
    int nvars;                   /* enclosing loops with `as VAR`, outermost first */
    char var_name[WS_LOOP_DEPTH][WS_NAME_MAX];
    int64_t var_value[WS_LOOP_DEPTH];
    char vars[256];              /* "K=2 J=0"; "" outside loops */
} ws_launch;

/* What runs a sequence: a launch, and reading / writing one element of a buffer (raw
 * little-endian bytes, ws_type_size of the buffer's type) for `while` and `set`. */
typedef struct ws_launch_host {
    void *ctx;
    int (*launch)(void *ctx, const ws_launch *l, ws_error *err);
    int (*read)(void *ctx, int buffer, uint64_t index, void *elem, ws_error *err);
    int (*write)(void *ctx, int buffer, uint64_t index, const void *elem, ws_error *err);
} ws_launch_host;

/* 1 when v is a sequence of launches. */
int ws_variant_is_sequence(const ws_variant *v);
/* Runs the variant's launches through `h` in order (the single-launch form: one launch
 * of v itself). `while` reads its element back after each trip; reaching its `max`, an
 * index outside its buffer or an expression error is WS_ERR_SPEC at the spec line; an
 * error of `h` is returned as it is. */
int ws_variant_launches(const ws_spec *s, const ws_variant *v, const ws_launch_host *h,
                        ws_error *err);
/* A buffers-in-host-memory host for ws_variant_launches: read/write act on `bufs`. */
int ws_buffers_read_elem(void *bufs, int buffer, uint64_t index, void *elem, ws_error *err);
int ws_buffers_write_elem(void *bufs, int buffer, uint64_t index, const void *elem,
                          ws_error *err);

/* A -D NAME=VALUE from the command line. */
typedef struct ws_define { const char *name, *value; } ws_define;

/* Parses, applies defines, evaluates every expression, resolves regions against the .cu. */
int ws_spec_load(const char *path, const ws_define *defs, int ndefs, ws_spec **out, ws_error *err);
int ws_spec_parse(const char *text, const char *path, const ws_define *defs, int ndefs,
                  ws_spec **out, ws_error *err);
void ws_spec_free(ws_spec *s);
/* NULL name -> the first variant. Returns NULL (and sets err) when absent. */
const ws_variant *ws_spec_variant(const ws_spec *s, const char *name, ws_error *err);
const ws_const *ws_spec_const(const ws_spec *s, const char *name);
/* The texture or surface that buffer `buffer` is, or NULL for a plain buffer. */
const ws_image *ws_spec_image(const ws_spec *s, int buffer);
/* "clamp", "linear", ... for messages and docs. */
const char *ws_image_address_name(ws_image_address a);
/* "LOOP=100 DPT=16 ..." for run records. */
void ws_spec_params_string(const ws_spec *s, char *buf, size_t n);
/* Parses "NAME=VALUE" into a define (pointers into `arg`, which is modified). */
int ws_define_parse(char *arg, ws_define *d, ws_error *err);

/* ---------------------------------------------------------------- buffers */

typedef struct ws_buffer {
    const ws_buffer_spec *spec;
    void *data;
    size_t bytes;
} ws_buffer;

typedef struct ws_buffers {
    int n;
    ws_buffer *b;
} ws_buffers;

/* Allocates and fills every buffer of the spec from its generator (deterministic). */
int ws_buffers_generate(const ws_spec *s, ws_buffers *out, ws_error *err);
int ws_buffers_clone(const ws_buffers *src, ws_buffers *out, ws_error *err);
/* The bytes of every allocated buffer, summed (a launch's global footprint). */
double ws_buffers_bytes(const ws_buffers *b);
void ws_buffers_free(ws_buffers *b);
/* `check NAME file PATH`: compares `b` with the raw little-endian file b->spec->expect_path
 * (same comparison as ws_buffer_equal); *equal and *first_diff say how. A file of another
 * size, or one that cannot be read, is an error naming it. */
int ws_buffer_check_file(const ws_buffer *b, int *equal, uint64_t *first_diff, ws_error *err);
/* Writes the buffer's bytes (raw, little-endian) to `path`. */
int ws_buffer_write(const ws_buffer *b, const char *path, ws_error *err);
/* Compares two buffers of the same spec: exact for integers, spec tolerance for floats.
 * Returns 1 when equal; otherwise 0 and the first differing element index. */
int ws_buffer_equal(const ws_buffer *a, const ws_buffer *b, uint64_t *first_diff);

/* Deterministic generator state shared by every module that needs random numbers. */
typedef struct ws_rng { uint64_t s[4]; } ws_rng;
void ws_rng_seed(ws_rng *r, uint64_t seed);
uint64_t ws_rng_next(ws_rng *r);
double ws_rng_double(ws_rng *r); /* [0,1) */

/* ---------------------------------------------------------------- PTX builds */

/* Returns the path of the PTX for the spec's .cu compiled with every constant as -D,
 * building it with `nvcc -ptx -lineinfo -arch=sm_90` into `cache_dir` when its content
 * hash (source + defines + flags + nvcc version) is not there yet. cache_dir NULL -> the
 * default ($WARPSCOPE_PTX_CACHE, else the build tree's ptx-cache). */
int ws_ptx_build(const ws_spec *s, const char *cache_dir, char *ptx_path, size_t n,
                 ws_error *err);
/* PTX text (a captured module's) as a file of the PTX cache, named STEM-HASH.ptx, for the
 * SASS build (ws_sass_build_ptx). */
int ws_ptx_cache_put(const char *stem, const char *ptx, char *path, size_t n, ws_error *err);
/* The same for `-arch=ARCH` (NULL or "": sm_90): __CUDA_ARCH__ and the PTX features the
 * source may use follow the SASS target (REDUX is sm_80+, say). */
int ws_ptx_build_arch(const ws_spec *s, const char *cache_dir, const char *arch,
                      char *ptx_path, size_t n, ws_error *err);
/* What the compiler gives a kernel: from `ptxas -v` on the PTX (cached beside it). */
typedef struct ws_kernel_resources {
    int regs;            /* registers per thread */
    int shared_static;   /* bytes of static shared memory per CTA */
    int local_bytes;     /* stack frame / local memory per thread */
    int spill_bytes;     /* spill stores + loads */
} ws_kernel_resources;
int ws_ptx_resources(const char *ptx_path, const char *kernel, ws_kernel_resources *out,
                     ws_error *err);

/* The SASS an sm_XX GPU runs for the spec's kernels: the PTX of ws_ptx_build_arch through
 * `ptxas -arch=ARCH -lineinfo` (a cubin) and `nvdisasm -gi -c` (text with line info), both
 * cached by content hash in cache_dir (NULL: $WARPSCOPE_PTX_CACHE, else the build tree's
 * ptx-cache). arch NULL or "" -> "sm_90"; sm_70..sm_90 are accepted (ptxas says which it
 * can build). Usable without ptxas/nvdisasm when the cached files exist. sass_path NULL:
 * the cubin only (no nvdisasm needed). */
int ws_sass_build(const ws_spec *s, const char *cache_dir, const char *arch, char *cubin_path,
                  char *sass_path, size_t n, ws_error *err);
/* The same from a PTX file (cache_dir NULL: $WARPSCOPE_PTX_CACHE, else beside the PTX). */
int ws_sass_build_ptx(const char *ptx_path, const char *cache_dir, const char *arch,
                      char *cubin_path, char *sass_path, size_t n, ws_error *err);
/* nvdisasm: $WARPSCOPE_NVDISASM, else the project-local copy scripts/setup.sh installs
 * (.tools/), else PATH, else /usr/local/cuda/bin. 1 when found; path holds what was tried. */
int ws_nvdisasm_find(char *path, size_t n);
/* 1 when arch is "sm_70".."sm_90". */
int ws_sass_arch_ok(const char *arch);

/* `mkdir -p DIR` (ptx_build.c); an error names the directory that could not be made. */
int ws_mkdir_p(const char *dir, ws_error *err);
/* Reads a whole file; caller frees. */
int ws_read_file(const char *path, char **text, size_t *len, ws_error *err);

/* Does the PTX entry name (possibly mangled, e.g. "_Z6kernelPKiPii") name C kernel `name`? */
int ws_kernel_name_matches(const char *name, const char *ptx_name);
/* The entry that C kernel `name` picks among n names (name_at(ctx, i); NULL skips i): the one
 * equal to it (a mangled name), else the only one it matches; else -1, with *matches the
 * number it matches (0, or several: template instances, overloads, listed in hits). */
int ws_kernel_name_pick(const char *name, int n, const char *(*name_at)(const void *ctx, int i),
                        const void *ctx, int *matches, char *hits, size_t nhits);
/* Whether the n bytes at path name a CUDA source file (.cu, .cuh): not a toolkit header. */
int ws_is_cuda_source(const char *path, size_t n);

/* ---------------------------------------------------------------- results */

/* A run result: what one execution of one variant produced, on the simulator or a GPU.
 * The store writes it, the viewer draws it, compare joins two of them. */

typedef struct ws_metric {
    char name[96];   /* a name from core/metrics.def, or a CUPTI name asked for by --metrics */
    double value;
} ws_metric;

/* The metric table (core/metrics.def): every metric name warpscope stores or asks CUPTI for,
 * with its unit, meaning and the side that computes it. Code names a metric as WS_M(ID);
 * `warpscope metrics` prints the table and docs/metrics.md is generated from it. */
typedef enum ws_metric_id {
#define WS_METRIC(id, name, unit, sides, ask, meaning) WS_METRIC_##id,
#include "core/metrics.def"
#undef WS_METRIC
    WS_METRIC__COUNT
} ws_metric_id;
enum { WS_MS_SIM = 1, WS_MS_TIMING = 2, WS_MS_GPU = 4, WS_MS_PROFILER = 8 }; /* sides, or-ed */
/* What the profiler asks CUPTI for by default: nothing, a Range Profiler metric per launch,
 * a SASS metric per instruction. */
typedef enum ws_metric_ask { WS_ASK_NO, WS_ASK_RANGE, WS_ASK_SASS } ws_metric_ask;
typedef struct ws_metric_def {
    const char *name, *unit, *meaning;
    unsigned sides;
    ws_metric_ask ask;
} ws_metric_def;
extern const ws_metric_def ws_metric_table[WS_METRIC__COUNT];
#define WS_M(id) (ws_metric_table[WS_METRIC_##id].name)
/* The row of `name`, NULL when the table has none. */
const ws_metric_def *ws_metric_lookup(const char *name);

typedef struct ws_source_file {
    char path[WS_PATH_MAX];
    char *text;      /* NULL when not available */
} ws_source_file;

/* Counts for one instruction: a PTX instruction (simulator) or SASS instruction (GPU). */
typedef struct ws_inst_stat {
    char function[128];
    int pc;              /* PTX: instruction index in function; SASS: byte offset */
    int ptx_line;        /* line in the .ptx file; 0 for SASS */
    int file;            /* index into result->files, -1 when unknown */
    int line;            /* source line, 0 when unknown */
    int block;           /* basic block id in result->blocks (same function), -1 */
    char text[96];       /* "setp.ge.s32", or the SASS opcode */
    uint64_t issued;             /* warp-level executions */
    uint64_t active_threads;     /* sum of active lanes over executions */
    uint64_t pred_on_threads;    /* of those, lanes whose guard predicate was true */
    uint64_t branch_targets;     /* for branches: targets taken (1 or 2 per execution) */
    uint64_t divergent_branches; /* for branches: executions that split the warp */
    /* Warp-instructions the hardware issues for this one without a PC of their own (CUPTI's
     * per-PC SASS metrics leave them out, its per-kernel counters count them): a
     * WARPSYNC.EXCLUSIVE's pass per further group. Kernel metrics only; not stored per PC. */
    uint64_t replays, replay_threads;
} ws_inst_stat;

typedef struct ws_block_info {
    char function[128];
    int id;
    int first_pc, last_pc;
    int nsucc;
    int succ[2];
    int ipdom;           /* block id of the immediate post-dominator, -1 = exit */
} ws_block_info;

/* Per atomic instruction: how contended it was. */
typedef struct ws_atomic_stat {
    char function[128];
    int pc;
    int line;
    char text[96];
    uint64_t warp_execs;
    uint64_t lanes;
    uint64_t distinct_hist[33];  /* [k] = warp-executions touching k distinct addresses */
} ws_atomic_stat;

/* One issue slot of a recorded warp. */
typedef struct ws_timeline_slot {
    int32_t pc;
    uint32_t active;   /* active lanes */
    uint32_t pred_on;  /* lanes whose guard was true (subset of active) */
} ws_timeline_slot;

typedef struct ws_timeline {
    char function[128];
    uint32_t cta;      /* linear CTA id */
    int warp;          /* warp in CTA */
    int nslots;
    int truncated;     /* 1 when more slots happened than were kept */
    ws_timeline_slot *slots;
} ws_timeline;

typedef struct ws_region_stat {
    char name[WS_NAME_MAX];
    int first_line, last_line;
    uint64_t issued, active_threads, pred_on_threads, branch_targets, divergent_branches;
    double execution_rate;   /* active_threads / (32 * issued) */
} ws_region_stat;

/* One launch of a sequence: where it came from and its own metrics (the result's metrics
 * are these summed: counts and times added, ratios recomputed or averaged). */
typedef struct ws_launch_stat {
    int index;
    char kernel[128];
    uint32_t grid[3], block[3];
    uint32_t smem_dynamic;
    char vars[256];          /* "K=2 J=0" */
    int line;                /* the launch line of the spec */
    int nmetrics;
    ws_metric *metrics;
} ws_launch_stat;

typedef struct ws_result {
    /* what ran */
    char source[128];        /* "sim:ipdom" or "gpu:NVIDIA H100 80GB HBM3" */
    char workload[WS_NAME_MAX], variant[WS_NAME_MAX], kernel[128];
    uint32_t grid[3], block[3];
    uint32_t smem_dynamic;
    char params[512];        /* "LOOP=100 DPT=16" */
    uint64_t seed;
    char device_json[1024];  /* GPU: name, cc, SMs, clocks, driver, CUDA; sim: model and preset */
    int outputs_checked;     /* 1 when outputs were compared */
    int outputs_match;       /* 1 equal, 0 differ */
    char check_message[256];
    /* what it found */
    int nmetrics, cap_metrics;          ws_metric *metrics;
    int nfiles, cap_files;              ws_source_file *files;
    int ninsts, cap_insts;              ws_inst_stat *insts;
    int nblocks, cap_blocks;            ws_block_info *blocks;
    int natomics, cap_atomics;          ws_atomic_stat *atomics;
    int ntimelines, cap_timelines;      ws_timeline *timelines;
    int nregions, cap_regions;          ws_region_stat *regions;
    int nwarnings, cap_warnings;        char **warnings;  /* e.g. races found */
    int nlaunches, cap_launches;        ws_launch_stat *launches; /* sequences only */
} ws_result;

void ws_result_init(ws_result *r);
void ws_result_free(ws_result *r);
int ws_result_set_metric(ws_result *r, const char *name, double value); /* add or replace */
const ws_metric *ws_result_metric(const ws_result *r, const char *name);
/* The value of metric `name`, NAN when the run has none. */
double ws_result_value(const ws_result *r, const char *name);
/* Active lanes per issued warp-instruction / 32: sim__execution_rate, else the Nsight ratio
 * / 32; NAN when the run has neither. */
double ws_result_execution_rate(const ws_result *r);
int ws_result_add_file(ws_result *r, const char *path, const char *text); /* returns index; dedups */
/* Drops the files no instruction row names, renumbering the rows' indexes; returns how many. */
int ws_result_drop_unused_files(ws_result *r);
ws_inst_stat *ws_result_add_inst(ws_result *r);
ws_block_info *ws_result_add_block(ws_result *r);
ws_atomic_stat *ws_result_add_atomic(ws_result *r);
ws_timeline *ws_result_add_timeline(ws_result *r);
int ws_result_add_warning(ws_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Aggregates instruction counts over the spec's regions (by source line of the spec's
 * .cu) into r->regions, replacing what was there. */
int ws_result_compute_regions(ws_result *r, const ws_spec *s);
/* Adds the result `one` of launch `l` of a sequence to `sum`: a row in sum->launches with
 * one's metrics, and one's counts per instruction, atomics, blocks, warnings and the first
 * timelines of each kernel merged into sum's (the first launch also gives the run's
 * description). ws_result_launches_finish then sets sum's metrics from the rows. */
int ws_result_add_launch(ws_result *sum, const ws_launch *l, const ws_result *one);
int ws_result_launches_finish(ws_result *sum);
/* Derives the kernel-level metrics from the per-instruction counts: smsp__inst_executed.sum,
 * smsp__thread_inst_executed.sum, ..._per_inst_executed.ratio, ..._pred_on.sum,
 * smsp__sass_branch_targets.sum, ..._threads_divergent.sum, ..._threads_uniform.pct,
 * sim__execution_rate. */
int ws_result_derive_metrics(ws_result *r);

/* ---------------------------------------------------------------- small utilities */

/* Writes `s` as a JSON string literal (with quotes). */
void ws_json_string(FILE *f, const char *s);
uint64_t ws_hash64(const void *data, size_t n, uint64_t seed);
const char *ws_version(void);      /* "0.1.0" */
const char *ws_git_revision(void); /* from the build, "unknown" when not a git checkout */

#ifdef __cplusplus
}
#endif
#endif
