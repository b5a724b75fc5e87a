/* ir.h — the simulator's intermediate representation of a PTX module (private to sim/).
 * The parser (ptx_parse.c) builds it, the CFG analysis (cfg.c) annotates it, the executor
 * (exec*.c) runs it. Instructions are flat arrays per function; branch targets are
 * resolved to instruction indices (PCs); registers to dense per-function indices. */
#ifndef WS_SIM_IR_H
#define WS_SIM_IR_H

#include <stdint.h>
#include "sim/sim.h"

typedef enum ws_opcode {
#define WS_OP(id, name, cls, lat, h, mods, dmin, dmax, smin, smax, flags) WS_OP_##id,
#include "sim/ptx_ops.def"
#undef WS_OP
    WS_OP__COUNT
} ws_opcode;

typedef enum ws_opclass {
    WS_CLS_ALU, WS_CLS_MUL, WS_CLS_FP32, WS_CLS_FP64, WS_CLS_SFU, WS_CLS_LD, WS_CLS_ST,
    WS_CLS_ATOM, WS_CLS_CTRL, WS_CLS_SYNC, WS_CLS_WARP, WS_CLS_MOV
} ws_opclass;

/* Latency classes: the names in the .def rows, plus fp64 (chosen by the .f64 type) and
 * mulwide (an integer multiply's .hi or .wide form: IMAD.HI, IMAD.WIDE). Each
 * names the latency and issue cost of a timing preset (sim/presets/NAME.gpu). */
#define WS_LAT_LIST(X) X(alu) X(mul) X(mulwide) X(fp32) X(fp64) X(sfu) X(div) X(ld) X(st) \
                       X(atom) X(branch) X(bar) X(fence) X(shfl) X(bit) X(vote)
typedef enum ws_lat {
#define WS_LAT_ENUM(n) WS_LAT_##n,
    WS_LAT_LIST(WS_LAT_ENUM)
#undef WS_LAT_ENUM
    WS_LAT__COUNT
} ws_lat;

/* The executor family that runs an opcode (its handler). */
typedef enum ws_handler {
    WS_H_ALU, WS_H_MEM, WS_H_CVTA, WS_H_CTRL, WS_H_WARP, WS_H_ASYNC, WS_H_IMAGE
} ws_handler;

/* The dotted-modifier grammar the parser applies to an opcode. */
typedef enum ws_mods {
    WS_MODS_NONE, WS_MODS_CMP, WS_MODS_MUL, WS_MODS_ATOM, WS_MODS_MEM, WS_MODS_CVTA,
    WS_MODS_SHFL, WS_MODS_VOTE, WS_MODS_MATCH, WS_MODS_REDUX, WS_MODS_BAR, WS_MODS_UNI, WS_MODS_SHF, WS_MODS_TESTP, WS_MODS_MEMBAR,
    WS_MODS_FENCE, WS_MODS_BFIND, WS_MODS_ASYNC, WS_MODS_IMAGE, WS_MODS_VIDEO
} ws_mods;

/* Opcode flags; ptx_ops.def's header says what each means. */
enum {
    WS_OPF_MEM = 1u << 0, WS_OPF_ATOMIC = 1u << 1, WS_OPF_BRANCH = 1u << 2,
    WS_OPF_TERM = 1u << 3, WS_OPF_LEAVE = 1u << 4, WS_OPF_CALL = 1u << 5,
    WS_OPF_BARRIER = 1u << 6, WS_OPF_SERIAL = 1u << 7, WS_OPF_ALIGNED = 1u << 8,
    WS_OPF_FP = 1u << 9, WS_OPF_CC = 1u << 10, WS_OPF_CARRY_IN = 1u << 11,
    WS_OPF_TYPE2 = 1u << 12, WS_OPF_HALF = 1u << 13, WS_OPF_NEED_TYPE = 1u << 14,
    WS_OPF_NEED_TYPE2 = 1u << 15, WS_OPF_NEED_SUBOP = 1u << 16, WS_OPF_NEED_CMP = 1u << 17,
    WS_OPF_WARPSYNC = 1u << 18, WS_OPF_HALF2 = 1u << 19, WS_OPF_B128 = 1u << 20
};

/* One row of ptx_ops.def. */
typedef struct ws_opinfo {
    const char *name;
    uint8_t cls;        /* ws_opclass */
    uint8_t lat;        /* ws_lat */
    uint8_t handler;    /* ws_handler */
    uint8_t mods;       /* ws_mods */
    uint8_t dmin, dmax, smin, smax;
    uint32_t flags;     /* WS_OPF_* */
} ws_opinfo;

extern const ws_opinfo ws_op_info[WS_OP__COUNT];

static inline int ws_op_has(int op, uint32_t flag)
{
    return (unsigned)op < WS_OP__COUNT && (ws_op_info[op].flags & flag) != 0;
}

/* PTX scalar types. Order matters only within groups; use the helpers below. */
typedef enum ws_ptype {
    WS_P_NONE = 0,
    WS_P_PRED,
    WS_P_B8, WS_P_B16, WS_P_B32, WS_P_B64, WS_P_B128,
    WS_P_U8, WS_P_U16, WS_P_U32, WS_P_U64,
    WS_P_S8, WS_P_S16, WS_P_S32, WS_P_S64,
    WS_P_F16, WS_P_F16X2, WS_P_BF16, WS_P_BF16X2, WS_P_F32, WS_P_F64,
    WS_P_U16X2, WS_P_S16X2,    /* packed 16-bit integer pairs (add/sub/min/max, sm_90) */
    WS_P_E4M3X2, WS_P_E5M2X2   /* packed FP8 pairs (cvt only; 16 bits) */
} ws_ptype;

int ws_ptype_bits(ws_ptype t);     /* 1 for pred */
int ws_ptype_is_signed(ws_ptype t);
int ws_ptype_is_float(ws_ptype t);
const char *ws_ptype_name(ws_ptype t); /* "s32" */

typedef enum ws_space {
    WS_SPACE_GENERIC = 0, WS_SPACE_GLOBAL, WS_SPACE_SHARED, WS_SPACE_LOCAL,
    WS_SPACE_CONST, WS_SPACE_PARAM, WS_SPACE_SHARED_CLUSTER
} ws_space;

typedef enum ws_cmp {
    WS_CMP_NONE = 0, WS_CMP_EQ, WS_CMP_NE, WS_CMP_LT, WS_CMP_LE, WS_CMP_GT, WS_CMP_GE,
    WS_CMP_LO, WS_CMP_LS, WS_CMP_HI, WS_CMP_HS,
    WS_CMP_EQU, WS_CMP_NEU, WS_CMP_LTU, WS_CMP_LEU, WS_CMP_GTU, WS_CMP_GEU,
    WS_CMP_NUM, WS_CMP_NAN
} ws_cmp;

typedef enum ws_boolop { WS_BOOL_NONE = 0, WS_BOOL_AND, WS_BOOL_OR, WS_BOOL_XOR } ws_boolop;

/* Sub-operation, meaning depends on the opcode. */
typedef enum ws_subop {
    WS_SUB_NONE = 0,
    /* mul/mad */
    WS_SUB_LO, WS_SUB_HI, WS_SUB_WIDE,
    /* atom/red/redux */
    WS_SUB_ADD, WS_SUB_INC, WS_SUB_DEC, WS_SUB_CAS, WS_SUB_EXCH, WS_SUB_MIN, WS_SUB_MAX,
    WS_SUB_AND, WS_SUB_OR, WS_SUB_XOR,
    /* shfl */
    WS_SUB_UP, WS_SUB_DOWN, WS_SUB_BFLY, WS_SUB_IDX,
    /* vote */
    WS_SUB_ALL, WS_SUB_ANY, WS_SUB_UNI, WS_SUB_BALLOT,
    /* match */
    WS_SUB_MATCH_ANY, WS_SUB_MATCH_ALL,
    /* bar / barrier */
    WS_SUB_SYNC, WS_SUB_ARRIVE, WS_SUB_RED_POPC, WS_SUB_RED_AND, WS_SUB_RED_OR,
    /* shf */
    WS_SUB_SHF_L, WS_SUB_SHF_R,
    /* testp */
    WS_SUB_FINITE, WS_SUB_INFINITE, WS_SUB_NUMBER, WS_SUB_NOTANUMBER, WS_SUB_NORMAL,
    WS_SUB_SUBNORMAL,
    /* bar.warp.sync MASK (__syncwarp) */
    WS_SUB_WARP_SYNC,
    /* cp.async.mbarrier.arrive.noinc; mbarrier.test_wait/try_wait.parity;
     * mbarrier.arrive.expect_tx */
    WS_SUB_NOINC, WS_SUB_PARITY, WS_SUB_EXPECT_TX, WS_SUB_COMPLETE_TX, WS_SUB_BULK_GROUP,
    /* tex/suld/sust geometry: .1d, .2d, .3d */
    WS_SUB_DIM1, WS_SUB_DIM2, WS_SUB_DIM3
} ws_subop;

typedef enum ws_round {
    WS_RND_NONE = 0, WS_RND_RN, WS_RND_RZ, WS_RND_RM, WS_RND_RP,  /* float rounding */
    WS_RND_RNI, WS_RND_RZI, WS_RND_RMI, WS_RND_RPI                /* round to integer */
} ws_round;

/* Instruction flags. */
enum {
    WS_F_FTZ = 1u << 0, WS_F_SAT = 1u << 1, WS_F_UNI = 1u << 2, WS_F_APPROX = 1u << 3,
    WS_F_FULL = 1u << 4, WS_F_TO = 1u << 5,   /* cvta.to */
    WS_F_CC = 1u << 6,                        /* add.cc etc: writes the carry flag */
    WS_F_VOLATILE = 1u << 7, WS_F_WRAP = 1u << 8, WS_F_CLAMP = 1u << 9, /* shf */
    WS_F_ALIGNED = 1u << 10,                  /* bar.sync is always aligned; barrier.sync.aligned */
    WS_F_NOINC = 1u << 11,                    /* bfind.shiftamt */
    WS_F_STRONG = 1u << 12,                   /* ld.relaxed / ld.acquire: sees other threads' stores */
    WS_F_ZERO = 1u << 13,                     /* suld/sust.zero (.clamp is WS_F_CLAMP) */
    WS_F_NAN = 1u << 14,                      /* min/max.NaN: a NaN operand gives the canonical NaN */
    WS_F_RELU = 1u << 15,                     /* min/max.relu, cvt.relu: a negative result is 0 */
    WS_F_SATFINITE = 1u << 16,                /* cvt.satfinite: past the largest finite: it */
    /* add/sub that ptxas contracts with the mul that makes its operand (contract.c): the
     * value is the fused src[2] * src[3] +- the other operand; _B: the product is src[1] */
    WS_F_FMAD = 1u << 17, WS_F_FMAD_B = 1u << 18,
    WS_F_CLUSTER = 1u << 19                   /* barrier.cluster.arrive / .wait */
};

typedef enum ws_special {
    WS_SR_NONE = 0,
    WS_SR_TID_X, WS_SR_TID_Y, WS_SR_TID_Z,
    WS_SR_NTID_X, WS_SR_NTID_Y, WS_SR_NTID_Z,
    WS_SR_CTAID_X, WS_SR_CTAID_Y, WS_SR_CTAID_Z,
    WS_SR_NCTAID_X, WS_SR_NCTAID_Y, WS_SR_NCTAID_Z,
    WS_SR_LANEID, WS_SR_WARPID, WS_SR_NWARPID, WS_SR_SMID, WS_SR_NSMID, WS_SR_GRIDID,
    WS_SR_LANEMASK_EQ, WS_SR_LANEMASK_LT, WS_SR_LANEMASK_LE, WS_SR_LANEMASK_GT,
    WS_SR_LANEMASK_GE,
    WS_SR_CLOCK, WS_SR_CLOCK64, WS_SR_GLOBALTIMER,
    WS_SR_DYNAMIC_SMEM_SIZE, WS_SR_TOTAL_SMEM_SIZE,
    /* thread-block clusters: a launch without them is a grid of 1x1x1 clusters */
    WS_SR_CLUSTER_CTARANK, WS_SR_CLUSTER_NCTARANK,
    WS_SR_CLUSTER_CTAID_X, WS_SR_CLUSTER_CTAID_Y, WS_SR_CLUSTER_CTAID_Z,
    WS_SR_CLUSTER_NCTAID_X, WS_SR_CLUSTER_NCTAID_Y, WS_SR_CLUSTER_NCTAID_Z,
    WS_SR_CLUSTERID_X, WS_SR_CLUSTERID_Y, WS_SR_CLUSTERID_Z,
    WS_SR_NCLUSTERID_X, WS_SR_NCLUSTERID_Y, WS_SR_NCLUSTERID_Z, WS_SR_IS_EXPLICIT_CLUSTER,
    WS_SR_ENVREG            /* %envreg0..31: the operand's imm is the index */
} ws_special;

typedef enum ws_opnd_kind {
    WS_O_NONE = 0,
    WS_O_REG,      /* reg */
    WS_O_IMM,      /* imm: integer value, or float bits (f32 in low 32 bits, f64 as 64) */
    WS_O_SPECIAL,  /* special */
    WS_O_ADDR,     /* [reg + imm] or [sym + imm] or [imm]: memory operand */
    WS_O_SYMBOL,   /* sym: address of a variable (mov.u64 %rd, shared_var;) */
    WS_O_VEC,      /* {vregs[0..nvec-1]}; -1 entries are '_' sinks */
    WS_O_LABEL,    /* imm = target pc after resolution */
    WS_O_FUNC      /* imm = function index (call target) */
} ws_opnd_kind;

typedef struct ws_operand {
    uint8_t kind;   /* ws_opnd_kind */
    uint8_t neg;    /* predicate source written !%p */
    uint8_t nvec;   /* WS_O_VEC: 2 or 4 */
    uint8_t special;/* WS_O_SPECIAL: ws_special */
    int32_t reg;    /* WS_O_REG / WS_O_ADDR base register; -1 = none */
    int32_t sym;    /* WS_O_ADDR / WS_O_SYMBOL: index into function locals (>= 0) or
                       module globals (encoded as -2 - index); -1 = none */
    int64_t imm;    /* immediate value / address offset / label pc / function index */
    int32_t vregs[4];
} ws_operand;

#define WS_MAX_DST 2
#define WS_MAX_SRC 4

/* Operand conventions the parser (ptx_parse*.c) guarantees:
 * - Operands keep PTX order. Instructions without a result (st, red, bra, bar.sync
 *   without .red, membar, fence, ret, exit, trap, nanosleep, prefetch) have ndst 0 and
 *   every operand in src: st/red: src[0] = ADDR, src[1] = value (REG/IMM/VEC).
 *   atom: dst[0], src[0] = ADDR, src[1] = b, src[2] = c (cas). setp/shfl/match with
 *   `%a|%b` have ndst 2. bar.red.popc/and/or has dst[0]. Arity is checked per opcode.
 * - Kernel and .func parameters: ADDR with reg -1, sym -1, imm = byte offset in the
 *   function's param block (ws_function.params[i].offset + displacement). A .func's return
 *   values (rets) are laid out in the same block after its params.
 * - Call-sequence scratch (`.param .b32 param0;` inside `{ }`): function locals of space
 *   PARAM, offsets in a per-function scratch area (its size = max offset+size over them).
 * - call: dst[0] = SYMBOL of the return .param local (ndst 0 without one); src[0] = FUNC
 *   (imm = function index); src[1] = SYMBOL of the first argument local (kind NONE when
 *   there are none); src[2] = IMM argument count; the arguments are consecutive locals.
 * - `WARP_SZ` is the immediate 32. `.loc F 0 0` (compiler-made code) gives line 0. */

typedef struct ws_inst {
    uint16_t op;       /* ws_opcode */
    uint8_t type;      /* ws_ptype: the instruction's (first) type suffix */
    uint8_t type2;     /* ws_ptype: cvt source type, setp/set compare-by type for set, etc. */
    uint8_t space;     /* ws_space for ld/st/atom/red/cvta/prefetch */
    uint8_t cmp;       /* ws_cmp for setp/set */
    uint8_t boolop;    /* ws_boolop for setp/set combine, vote? no */
    uint8_t subop;     /* ws_subop */
    uint8_t rnd;       /* ws_round */
    uint8_t vec;       /* 1, 2 or 4: ld/st .v2/.v4 */
    uint8_t ndst, nsrc;
    uint32_t flags;    /* WS_F_* */
    int32_t guard;     /* guard predicate register, -1 when unguarded */
    uint8_t guard_neg; /* @!%p */
    ws_operand dst[WS_MAX_DST]; /* setp %p|%q: two; shfl %r|%p: two */
    ws_operand src[WS_MAX_SRC];
    int32_t ptx_line;  /* line in the .ptx text */
    int32_t file;      /* .file index of the source location (-1 none) */
    int32_t line;      /* source line in `file`; innermost location in the kernel's own
                          .cu file when inlined (see ptx_parse.c) */
    int32_t block;     /* basic block id (cfg.c) */
    int32_t reconv_pc; /* for branches: reconvergence PC (ipdom), -1 = function exit */
} ws_inst;

typedef struct ws_reg {
    char name[32];     /* "%r12" */
    uint8_t type;      /* ws_ptype */
} ws_reg;

/* Longest name of a variable or function (C++ mangled names run to hundreds of characters:
 * CUB's kernels, libcu++'s internal globals); the parser refuses longer ones. */
#define WS_SYM_MAX 1024

/* A variable: module .global/.const/.shared, function .shared/.local, or a parameter. */
typedef struct ws_var {
    char name[WS_SYM_MAX];
    uint8_t space;     /* ws_space */
    uint8_t type;      /* element ws_ptype */
    uint32_t align;
    uint64_t size;     /* bytes; 0 for `extern .shared` (dynamic shared memory) */
    uint64_t offset;   /* param: offset in the param block; shared: offset in the CTA's
                          shared window (assigned by the parser/loader) */
    uint8_t *init;     /* initializer bytes (size) or NULL */
    int is_extern;
} ws_var;

typedef struct ws_block {
    int first, last;   /* pc range, inclusive */
    int nsucc;
    int succ[2];
    int ipdom;         /* block id; -1 = virtual exit */
    int spin;          /* 1: header of a loop left on a value read from memory in the loop
                          (a spin loop: SASS places a YIELD in it) */
} ws_block;

typedef struct ws_function {
    char name[WS_SYM_MAX];
    int is_entry;
    int nparams;       ws_var *params;   /* .param in declaration order (kernel or .func) */
    int nrets;         ws_var *rets;     /* .func return params */
    int nregs;         ws_reg *regs;
    int nlocals;       ws_var *locals;   /* function-scope .shared/.local/.param(call scratch) */
    int ninsts;        ws_inst *insts;
    int nblocks;       ws_block *blocks; /* filled by ws_cfg_build */
    uint64_t local_bytes;  /* per-thread .local frame */
    uint64_t shared_bytes; /* static shared memory this entry uses (module + function) */
    int main_file;     /* .file index of the kernel's own source */
    ws_error *unsupported; /* set when the body uses something the simulator does not
                              support (its instructions may be missing): a launch of a
                              kernel that reaches this function reports it */
} ws_function;

/* An 8-byte element of a module variable's initializer that holds an address: of another
 * variable (`.u64 p[2] = {generic(a)+4, b};`, a string literal's `generic($str)`) or of a
 * function (`.u64 tab[2] = {f, g};`, C++ vtables). ws_run_setup writes variable addresses;
 * a function's address is each model's own (the SASS model: the function's offset in the
 * kernel's text, as its calls through registers read it; the PTX model, which refuses
 * such calls: WS_FNADDR_TAG + 16 * the record's index, nonzero and never a real address). */
typedef struct ws_addrinit {
    int global;        /* the variable holding the element: index into ws_module.globals */
    uint64_t offset;   /* the element's byte offset in it */
    int target;        /* the variable addressed (index into globals); -1: a function */
    int64_t addend;
    char *fn;          /* the function's name when target is -1 */
} ws_addrinit;

#define WS_FNADDR_TAG 0xf000000000000000ull

struct ws_module {
    char name[512];
    int version_major, version_minor;
    char target[32];
    int address_size;
    int nfiles;        char **files;    /* .file index -> path (index 0 unused if absent) */
    int nglobals;      ws_var *globals; /* module-scope .global/.const/.shared */
    int nfuncs;        ws_function *funcs;
    int naddrinits;    ws_addrinit *addrinits; /* addresses in initializers */
    int uses_heap;     /* a function calls the device malloc or free (heap.c) */
    char *text;        /* the PTX text, kept for error messages and the store */
};

/* module.c: WS_OK when function `fn` and every function it calls are supported, else the
 * first unsupported construct's error (PTX file:line), naming the kernel `fn`. */
int ws_function_check(const ws_module *m, int fn, ws_error *err);
/* The first function, depth-first over the call graph from fn (fn itself first), for
 * which hit() holds: its index, -1 when none does, -2 when out of memory. */
int ws_function_reaches(const ws_module *m, int fn, int (*hit)(const ws_function *f, void *ctx),
                        void *ctx);

/* cfg.c: basic blocks, immediate post-dominators, reconvergence PCs for every branch. */
int ws_cfg_build(ws_module *m, ws_error *err);
/* Marks the add/sub that ptxas fuses with a mul (contract.c); after ws_cfg_build. */
int ws_contract_fmad(ws_module *m, ws_error *err);

/* printer: one instruction as PTX-like text ("setp.ge.s32"), for stats and messages. */
void ws_inst_opname(const ws_inst *in, char *buf, size_t n);
const char *ws_op_name(ws_opcode op);
ws_opclass ws_op_class(ws_opcode op);
ws_opcode ws_op_lookup(const char *s, int len); /* WS_OP__COUNT when unknown */

/* The registers an operand names (a register, a vector's, an address's base): up to 4 into
 * r; returns how many. */
static inline int ws_operand_regs(const ws_operand *o, int32_t r[4])
{
    int n = 0;
    if ((o->kind == WS_O_REG || o->kind == WS_O_ADDR) && o->reg >= 0) r[n++] = o->reg;
    if (o->kind == WS_O_VEC)
        for (int k = 0; k < o->nvec && k < 4; k++)
            if (o->vregs[k] >= 0) r[n++] = o->vregs[k];
    return n;
}

/* A call's src[0].imm naming no function of the module: the built-in device printf, and
 * the device assert's failure (__assertfail). */
#define WS_CALL_VPRINTF (-2)
#define WS_CALL_ASSERTFAIL (-3)
#define WS_CALL_MALLOC (-4) /* the device heap's malloc and free (heap.c) */
#define WS_CALL_FREE (-5)

/* Helpers for the global-vs-local encoding of ws_operand.sym. */
static inline int ws_sym_is_global(int32_t sym) { return sym <= -2; }
static inline int32_t ws_sym_global_index(int32_t sym) { return -2 - sym; }
static inline int32_t ws_sym_encode_global(int32_t idx) { return -2 - idx; }

#endif
