/* sass_ir.h — the simulator's representation of SASS, the code an sm_70..sm_90 GPU runs
 * (private to sim/). ptxas compiles the workload's PTX to a cubin, nvdisasm prints it, the
 * SASS parser (sass_parse.c) builds this IR and the cubin reader (sass_load.c) adds the
 * constant banks and launch facts; the SASS executor (sass_exec*.c) runs it under the
 * convergence-barrier policy. Opcodes and modifiers are declared once, in sass_ops.def
 * and sass_mods.def. */
#ifndef WS_SIM_SASS_IR_H
#define WS_SIM_SASS_IR_H

#include <stdint.h>
#include "sim/sim.h"

typedef enum ws_sass_opcode {
#define WS_SOP(id, name, handler, cls, lat, flags, nmin, nmax, mods) WS_SOP_##id,
#include "sim/sass_ops.def"
#undef WS_SOP
    WS_SOP__COUNT
} ws_sass_opcode;

typedef enum ws_sass_mod {
#define WS_SMOD(id, text, kind) WS_SMOD_##id,
#include "sim/sass_mods.def"
#undef WS_SMOD
    WS_SMOD__COUNT
} ws_sass_mod;

typedef enum ws_sass_modkind {
    WS_SMODK_CMP, WS_SMODK_BOOL, WS_SMODK_RND, WS_SMODK_TYPE, WS_SMODK_FLAG, WS_SMODK_HINT
} ws_sass_modkind;

/* Opcode flags (the `flags` column of sass_ops.def). */
enum {
    WS_SOPF_MEM = 1u << 0,         /* reads or writes memory through an address operand */
    WS_SOPF_LOAD = 1u << 1,
    WS_SOPF_STORE = 1u << 2,
    WS_SOPF_ATOMIC = 1u << 3,      /* read-modify-write (ATOM*, RED*) */
    WS_SOPF_CONTROL = 1u << 4,     /* may change the PC: branches, calls, exit, yield */
    WS_SOPF_CONVERGENCE = 1u << 5, /* BSSY/BSYNC/BREAK/BMOV/WARPSYNC: convergence barriers */
    WS_SOPF_BARRIER = 1u << 6,     /* CTA barrier (BAR) */
    WS_SOPF_UNIFORM = 1u << 7,     /* writes the uniform datapath (one value per warp) */
    WS_SOPF_WARPWIDE = 1u << 8,    /* lanes exchange values (SHFL, VOTE, MATCH, REDUX) */
    WS_SOPF_NODST = 1u << 9,       /* no register result */
    WS_SOPF_SERIAL = 1u << 10,     /* waits for earlier memory operations (fences, BAR) */
    WS_SOPF_FP = 1u << 11,         /* floating-point semantics (negation flips the sign) */
    WS_SOPF_SHARED = 1u << 12,     /* its address is in shared memory (LDS, STS, ATOMS) */
    WS_SOPF_LOCAL = 1u << 13,      /* in the thread's local memory (LDL, STL) */
    WS_SOPF_GLOBAL = 1u << 14,     /* in global memory (LDG, STG, ATOMG, REDG); none of the
                                    * three: a generic address (LD, ST, ATOM, RED) */
    WS_SOPF_BRANCH = 1u << 15,     /* counted as a branch (CUPTI's branch targets): BRA, BRX,
                                    * JMP, CALL, RET */
    WS_SOPF_PDST_FIRST = 1u << 16  /* its predicate result comes before its register result
                                    * (SHFL PT, R3, R5, R0, 0x1f): both are destinations */
};

/* Words of ws_sass_inst.mods: room for every modifier and the unknown-modifier bit. */
#define WS_SASS_MODWORDS 4

/* Everything the table says about one opcode. */
typedef struct ws_sass_opinfo {
    const char *name;
    uint8_t cls;        /* ws_opclass (ir.h): the pipe, shared with the PTX table */
    const char *latency;/* latency class name in the timing preset ("alu", "ld", ...) */
    uint32_t flags;     /* WS_SOPF_* */
    uint8_t nmin, nmax; /* operand count range, destinations included */
    const char *mods;   /* the modifiers its handler reads, as printed ("WIDE U32 X") */
} ws_sass_opinfo;

extern const ws_sass_opinfo ws_sass_ops[WS_SOP__COUNT];
static inline int ws_sass_op_has(int op, uint32_t flag) { return (ws_sass_ops[op].flags & flag) != 0; }
/* Opcode by name ("IMAD"); -1 when unknown. */
int ws_sass_op_find(const char *name, size_t len);
/* Modifier by text ("WIDE"); -1 when unknown. */
int ws_sass_mod_find(const char *text, size_t len);
const char *ws_sass_mod_text(int mod);
ws_sass_modkind ws_sass_mod_kind(int mod);
/* The first modifier in `mods` (ws_sass_inst.mods) that row `op` does not read and that is
 * not a hint (kind HINT: scope, ordering, caching), WS_SMOD_UNKNOWN for one sass_mods.def
 * lacks, or -1: the parser makes such a line the
 * UNKNOWN row, so that no handler runs a form it ignores part of. */
int ws_sass_row_stray_mod(int op, const uint64_t mods[WS_SASS_MODWORDS]);
/* NULL, or what is wrong with the rows' modifier lists (a name sass_mods.def lacks, a hint
 * listed as read): checked by test_sass_parse. */
const char *ws_sass_table_error(void);

/* Register numbering: RZ is R255, URZ is UR63, PT is P7, UPT is UP7. */
#define WS_SASS_RZ 255
#define WS_SASS_URZ 63
#define WS_SASS_PT 7
#define WS_SASS_NREGS 256
#define WS_SASS_NUREGS 64
#define WS_SASS_NBARRIERS 16

typedef enum ws_sass_okind {
    WS_SO_NONE = 0,
    WS_SO_R,        /* R<reg> (RZ = 255) */
    WS_SO_UR,       /* UR<reg> (URZ = 63) */
    WS_SO_P,        /* P<reg> (PT = 7) */
    WS_SO_UP,       /* UP<reg> (UPT = 7) */
    WS_SO_IMM,      /* integer immediate (nvdisasm prints them in hex): imm, sign folded in */
    WS_SO_FIMM,     /* decimal immediate (0.5, 1, +INF, QNAN; float opcodes): fimm,
                       sign folded in */
    WS_SO_CBANK,    /* c[bank][imm], c[bank][R<reg>+imm] (reg -1: no index or RZ),
                       cx[UR<ureg>][...] (bank -1); may carry neg/abs (-c[0x0][0x168]) */
    WS_SO_MEM,      /* [R<reg>(.64|.X4)? + UR<ureg>? + imm]; desc[UR..] prefix dropped;
                       RZ/URZ are reg/ureg -1 */
    WS_SO_LABEL,    /* `(.L_x_1) / `($name): target byte offset in imm, index in target */
    WS_SO_BAR,      /* B<reg> convergence barrier register */
    WS_SO_SREG,     /* SR_TID.X etc.: sreg */
    WS_SO_RELOC,    /* 32@lo(sym) / 32@hi(sym): sym, hi; imm = addend (byte offset) */
    WS_SO_SB,       /* SB<reg>: a scoreboard (DEPBAR.LE SB0, 0x0) */
    WS_SO_PR        /* PR: all predicate registers as bits (P2R R8, PR, RZ, 0x10); reg 1: UPR,
                       the uniform ones (UP2UR UR4, UPR, URZ, 0x2) */
} ws_sass_okind;

typedef enum ws_sass_sregid {
    WS_SR_SASS_NONE = 0,
    WS_SSR_TID_X, WS_SSR_TID_Y, WS_SSR_TID_Z,
    WS_SSR_CTAID_X, WS_SSR_CTAID_Y, WS_SSR_CTAID_Z,
    WS_SSR_LANEID, WS_SSR_WARPID, WS_SSR_NWARPID, WS_SSR_SMID, WS_SSR_NSMID, WS_SSR_VIRTCFG, WS_SSR_GRIDID,
    WS_SSR_LANEMASK_EQ, WS_SSR_LANEMASK_LT, WS_SSR_LANEMASK_LE, WS_SSR_LANEMASK_GT,
    WS_SSR_LANEMASK_GE,
    WS_SSR_CLOCKLO, WS_SSR_CLOCKHI, WS_SSR_CLOCK64, WS_SSR_GLOBALTIMERLO,
    WS_SSR_GLOBALTIMERHI, WS_SSR_GLOBALTIMER,
    WS_SSR_CGACTAID, WS_SSR_SWINHI, WS_SSR_SWINLO, WS_SSR_VIRTUALSMID,
    WS_SSR_EQMASK, WS_SSR_LTMASK, WS_SSR_LEMASK, WS_SSR_GTMASK, WS_SSR_GEMASK,
    WS_SSR_TID,        /* packed SR_TID */
    WS_SSR_CTAID,      /* packed */
    WS_SSR_ZERO        /* SRZ: reads 0 (CS2R R4, SRZ) */
} ws_sass_sregid;

typedef struct ws_sass_opnd {
    uint8_t kind;     /* ws_sass_okind */
    uint8_t neg;      /* -R / -0.5 */
    uint8_t abs;      /* |R| */
    uint8_t not_;     /* !P, ~R */
    uint8_t wide;     /* R.64 in an address, c[..][..] read as 64 bits is the opcode's */
    uint8_t sel;      /* half/byte selector: 0 none, 1 .H0, 2 .H1, 3 .H0_H0, 4 .H1_H1,
                         5..8 .B0..B3; IMMA's fragment order: 9 .ROW, 10 .COL */
    uint8_t hi;       /* RELOC: 1 = 32@hi */
    uint8_t sreg;     /* SREG: ws_sass_sregid */
    uint8_t scale;    /* MEM: the index register's scale (.X4 -> 4, .X8, .X16); 0 = none */
    uint8_t u32;      /* MEM: R.U32, a zero-extended 32-bit index (sm_75..sm_89) */
    uint8_t raw;      /* FIMM: imm holds the encoding's 32 immediate bits (an f32, an f64's
                         high word), read from the cubin where the text drops them: NaN */
    int16_t reg;      /* R/UR/P/UP/BAR number; MEM/CBANK: index register R (-1 none) */
    int16_t ureg;     /* MEM/CBANK: uniform index register UR (-1 none) */
    int16_t bank;     /* CBANK: constant bank */
    int32_t target;   /* LABEL: instruction index (-1 until resolved) */
    int64_t imm;      /* IMM value / MEM, CBANK offset / LABEL byte offset / RELOC addend */
    double fimm;      /* FIMM */
    int32_t sym;      /* RELOC / LABEL to a function: index into ws_sass_kernel.syms; -1 */
} ws_sass_opnd;

#define WS_SASS_MAXOPND 8

typedef struct ws_sass_inst {
    uint32_t offset;  /* byte address in the kernel's text section */
    uint16_t op;      /* ws_sass_opcode */
    uint8_t cmp;      /* first CMP modifier (ws_sass_mod) or 0xff */
    uint8_t boolop;   /* first BOOL modifier or 0xff */
    uint8_t rnd;      /* first RND modifier or 0xff */
    uint8_t dtype;    /* first TYPE modifier or 0xff */
    uint8_t stype;    /* second TYPE modifier or 0xff */
    int8_t guard;     /* guard predicate P0..P6 / UP0..UP6; -1 = none (@PT or no guard);
                         7 with guard_neg = @!PT (never runs) */
    uint8_t guard_neg;
    uint8_t guard_uniform; /* @UP */
    uint8_t nopnd;
    uint64_t mods[WS_SASS_MODWORDS]; /* bit m set when modifier m (ws_sass_mod) was written */
    ws_sass_opnd o[WS_SASS_MAXOPND];
    int32_t target;   /* the first label operand's instruction index (BRA, BRA.DIV, BSSY,
                         CALL, JMP, WARPSYNC.COLLECTIVE, LEPC; not RET); -1; ninsts when
                         the label ends the text */
    int32_t file;     /* index into ws_sass_kernel.files; -1 */
    int32_t line;     /* source line; 0 when unknown */
    int32_t text_line;/* line in the SASS text (for error messages) */
    /* The control bits ptxas writes above each 128-bit instruction word (sm_70..sm_90:
     * bits 105..121), read from the cubin where the text does not print them. */
    uint8_t ctl;      /* 1 when read (the cubin was loaded) */
    uint8_t stall;    /* cycles the warp waits before issuing its next instruction (0..15) */
    uint8_t wbar;     /* scoreboard barrier its result releases (0..5; 7 = none) */
    uint8_t rbar;     /* scoreboard barrier its source registers' read releases (7 = none) */
    uint8_t wait;     /* barriers (a mask of 0..5) it waits for before it issues */
    char name[64];    /* opcode with its modifiers as printed ("IMAD.WIDE.U32") */
} ws_sass_inst;

/* Index of the first operand of kind `kind` (WS_SO_*), or -1. */
static inline int ws_sass_find_opnd(const ws_sass_inst *in, int kind)
{
    for (int k = 0; k < in->nopnd; k++)
        if (in->o[k].kind == kind)
            return k;
    return -1;
}

static inline int ws_sass_has(const ws_sass_inst *in, int mod)
{
    return (int)((in->mods[mod >> 6] >> (mod & 63)) & 1u);
}

/* The bit of ws_sass_inst.mods the parser sets for a modifier sass_mods.def does not name. */
#define WS_SMOD_UNKNOWN (64 * WS_SASS_MODWORDS - 1)

/* Whether the instruction has a modifier the table does not know: the parser makes such a
 * line the UNKNOWN row, so no handler reads a form it was not written for. */
static inline int ws_sass_odd_mod(const ws_sass_inst *in)
{
    return ws_sass_has(in, WS_SMOD_UNKNOWN);
}

/* Room for a symbol name: C++ templates (CUB, Thrust, CUTLASS) mangle into names of
 * several hundred characters. */
#define WS_SASS_SYM_MAX 1024

/* A symbol the code refers to (a function label, a global variable in a relocation). */
typedef struct ws_sass_sym {
    char name[WS_SASS_SYM_MAX];
    int64_t offset;   /* function symbols: byte offset in the kernel text; else -1 */
} ws_sass_sym;

/* A relocation in a constant bank: the bank's bytes at `offset` receive the address of
 * `sym` (+ addend) as 64 bits (or its low/high 32 bits). */
typedef struct ws_sass_creloc {
    int bank;
    uint32_t offset;
    char sym[WS_SASS_SYM_MAX];
    int64_t addend;
    int bits;         /* 64, or 32 with hi = 0/1 */
    int hi;
} ws_sass_creloc;

typedef struct ws_sass_cbank {
    int bank;
    uint32_t size;
    uint8_t *data;    /* initial contents (zeros where the driver fills them) */
} ws_sass_cbank;

/* A module-scope variable of the cubin: a __device__ global (bank -1; .nv.global, zeroed,
 * or .nv.global.init) or a __constant__ (bank 3 on sm_90, at `offset` in that bank). */
typedef struct ws_sass_global {
    char name[WS_SASS_SYM_MAX];
    int bank;         /* -1: global memory; else its constant bank */
    uint32_t offset;  /* in its section: the bank offset of a __constant__ */
    uint32_t size;
    uint8_t *data;    /* initial contents; NULL = zeros */
} ws_sass_global;

/* An indirect branch's possible targets, from nvdisasm's BRANCH_TARGETS annotation
 * (`BRX R4 -0xc0 (*"BRANCH_TARGETS .L_x_32,.L_x_33"*)`): instruction indices. */
typedef struct ws_sass_brx {
    int inst;                    /* the BRX/JMX instruction */
    int ntargets;
    int32_t *targets;
} ws_sass_brx;

/* One kernel (entry) with every device function it calls, as one text section. */
typedef struct ws_sass_kernel {
    char name[WS_SASS_SYM_MAX]; /* mangled entry name, as in the PTX */
    int ninsts;       ws_sass_inst *insts;   /* by increasing offset */
    int nsyms;        ws_sass_sym *syms;
    int nfiles;       char **files;          /* source paths from the line info */
    int ncbanks;      ws_sass_cbank *cbanks; /* every bank it can read: 0 (its size; the
                                                driver fills it), 2 (its own compiler
                                                constants), 3, 4 (the module's) */
    int nrelocs;      ws_sass_creloc *relocs;    /* addresses the loader puts in banks */
    int nbrx;         ws_sass_brx *brx;          /* indirect branches' target lists */
    uint32_t param_base;         /* bank-0 offset of the kernel parameters (0x210 on sm_90) */
    uint32_t param_size;
    uint32_t shared_static;      /* bytes of the CTA's shared window the SASS addresses
                                    (.nv.shared.<kernel>; on sm_90 it includes the 1 KB
                                    reserved at its start: user data begins at 0x400) */
    uint32_t frame_bytes;        /* per-thread local memory: the largest of the frame and
                                    the stack sizes ptxas records (calls included) */
    int regs;                    /* registers per thread */
    int64_t cluster_ctas;        /* __cluster_dims__' CTAs per cluster; -1: launched in
                                    clusters of a size set at launch; 0: none */
    int cubin_loaded;            /* 1 once ws_sass_load_cubin filled the fields above */
} ws_sass_kernel;

typedef struct ws_sass_module {
    char arch[16];               /* "sm_90" */
    int nkernels;     ws_sass_kernel *kernels;
    int nglobals;     ws_sass_global *globals;   /* from the cubin */
    char *text;                  /* the nvdisasm text, kept for messages */
} ws_sass_module;

/* sass_parse.c: nvdisasm -gi -c (or -g -c) output -> kernels with instructions, labels
 * resolved, line info on the innermost .cu/.cuh location of an inlined chain.
 * Unknown opcode -> WS_ERR_UNSUPPORTED naming it, its offset and its line in `name`. */
int ws_sass_parse(const char *text, size_t len, const char *name, ws_sass_module **out,
                  ws_error *err);
void ws_sass_module_free(ws_sass_module *m);
ws_sass_kernel *ws_sass_kernel_find(ws_sass_module *m, const char *mangled);
/* Index of the instruction at byte `offset`; -1 when none starts there. */
int ws_sass_index_of(const ws_sass_kernel *k, int64_t offset);

/* sass_load.c: reads the cubin (ELF) for constant banks, relocations, the parameter
 * area, shared memory, the stack frame and registers of each kernel in `m`. */
int ws_sass_load_cubin(ws_sass_module *m, const char *cubin_path, ws_error *err);

#endif
