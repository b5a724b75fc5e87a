/* ptx_print.c — names for the IR: opcode names and classes from ptx_ops.def, PTX type
 * helpers, and an instruction's PTX-like opcode text ("setp.ge.s32", "atom.global.add.u32")
 * for statistics and messages. Not a disassembler: operands are not printed. */
#include <stdio.h>
#include <string.h>
#include "sim/ir.h"

/* The opcode table: one entry per row of ptx_ops.def. */
#define F(flag) WS_OPF_##flag
const ws_opinfo ws_op_info[WS_OP__COUNT] = {
#define WS_OP(id, nm, cls, lat, h, mods, dmin, dmax, smin, smax, flags)                   \
    [WS_OP_##id] = { nm, WS_CLS_##cls, WS_LAT_##lat, WS_H_##h, WS_MODS_##mods, dmin, dmax, \
                     smin, smax, flags },
#include "sim/ptx_ops.def"
#undef WS_OP
};
#undef F

const char *ws_op_name(ws_opcode op)
{
    return (unsigned)op < WS_OP__COUNT ? ws_op_info[op].name : "?";
}

ws_opclass ws_op_class(ws_opcode op)
{
    return (unsigned)op < WS_OP__COUNT ? (ws_opclass)ws_op_info[op].cls : WS_CLS_ALU;
}

ws_opcode ws_op_lookup(const char *s, int len)
{
    for (int i = 0; i < WS_OP__COUNT; i++)
        if ((size_t)len == strlen(ws_op_info[i].name) && memcmp(s, ws_op_info[i].name, (size_t)len) == 0)
            return (ws_opcode)i;
    return WS_OP__COUNT;
}

int ws_ptype_bits(ws_ptype t)
{
    switch (t) {
    case WS_P_PRED: return 1;
    case WS_P_B8: case WS_P_U8: case WS_P_S8: return 8;
    case WS_P_B16: case WS_P_U16: case WS_P_S16: case WS_P_F16: case WS_P_BF16:
    case WS_P_E4M3X2: case WS_P_E5M2X2: return 16;
    case WS_P_B32: case WS_P_U32: case WS_P_S32: case WS_P_F32: case WS_P_F16X2:
    case WS_P_BF16X2: case WS_P_U16X2: case WS_P_S16X2: return 32;
    case WS_P_B64: case WS_P_U64: case WS_P_S64: case WS_P_F64: return 64;
    case WS_P_B128: return 128;
    default: return 0;
    }
}

int ws_ptype_is_signed(ws_ptype t)
{
    return t == WS_P_S8 || t == WS_P_S16 || t == WS_P_S32 || t == WS_P_S64;
}

int ws_ptype_is_float(ws_ptype t)
{
    return t == WS_P_F16 || t == WS_P_F16X2 || t == WS_P_BF16 || t == WS_P_BF16X2 ||
           t == WS_P_F32 || t == WS_P_F64 || t == WS_P_E4M3X2 || t == WS_P_E5M2X2;
}

const char *ws_ptype_name(ws_ptype t)
{
    static const char *const names[] = {"", "pred", "b8", "b16", "b32", "b64", "b128",
                                        "u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64",
                                        "f16", "f16x2", "bf16", "bf16x2", "f32", "f64",
                                        "u16x2", "s16x2", "e4m3x2", "e5m2x2"};
    return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "?";
}

static const char *space_name(int s)
{
    static const char *const n[] = {"", "global", "shared", "local", "const", "param",
                                    "shared::cluster"};
    return (unsigned)s < sizeof n / sizeof n[0] ? n[s] : "";
}

static const char *cmp_name(int c)
{
    static const char *const n[] = {"", "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi",
                                    "hs", "equ", "neu", "ltu", "leu", "gtu", "geu", "num",
                                    "nan"};
    return (unsigned)c < sizeof n / sizeof n[0] ? n[c] : "";
}

static const char *subop_name(int s)
{
    switch (s) {
    case WS_SUB_LO: return "lo";          case WS_SUB_HI: return "hi";
    case WS_SUB_WIDE: return "wide";      case WS_SUB_ADD: return "add";
    case WS_SUB_INC: return "inc";        case WS_SUB_DEC: return "dec";
    case WS_SUB_CAS: return "cas";        case WS_SUB_EXCH: return "exch";
    case WS_SUB_MIN: return "min";        case WS_SUB_MAX: return "max";
    case WS_SUB_AND: return "and";        case WS_SUB_OR: return "or";
    case WS_SUB_XOR: return "xor";        case WS_SUB_UP: return "up";
    case WS_SUB_DOWN: return "down";      case WS_SUB_BFLY: return "bfly";
    case WS_SUB_IDX: return "idx";        case WS_SUB_ALL: return "all";
    case WS_SUB_ANY: return "any";        case WS_SUB_UNI: return "uni";
    case WS_SUB_BALLOT: return "ballot";  case WS_SUB_MATCH_ANY: return "any";
    case WS_SUB_MATCH_ALL: return "all";  case WS_SUB_SYNC: return "sync";
    case WS_SUB_ARRIVE: return "arrive";  case WS_SUB_RED_POPC: return "red.popc";
    case WS_SUB_RED_AND: return "red.and"; case WS_SUB_RED_OR: return "red.or";
    case WS_SUB_SHF_L: return "l";        case WS_SUB_SHF_R: return "r";
    case WS_SUB_FINITE: return "finite";  case WS_SUB_INFINITE: return "infinite";
    case WS_SUB_NUMBER: return "number";  case WS_SUB_NOTANUMBER: return "notanumber";
    case WS_SUB_NORMAL: return "normal";  case WS_SUB_SUBNORMAL: return "subnormal";
    case WS_SUB_WARP_SYNC: return "warp.sync";
    case WS_SUB_NOINC: return "noinc";    case WS_SUB_PARITY: return "parity";
    case WS_SUB_EXPECT_TX: return "expect_tx";
    case WS_SUB_COMPLETE_TX: return "mbarrier::complete_tx::bytes";
    case WS_SUB_BULK_GROUP: return "bulk_group";
    default: return "";
    }
}

static void add(char *buf, size_t n, size_t *len, const char *part)
{
    if (!part[0] || *len >= n)
        return;
    int w = snprintf(buf + *len, n - *len, "%s%s", *len ? "." : "", part);
    if (w > 0)
        *len += (size_t)w;
    if (*len >= n)
        *len = n - 1;
}

static const char *round_name(int r)
{
    static const char *const n[] = {"", "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi"};
    return (unsigned)r < sizeof n / sizeof n[0] ? n[r] : "";
}

/* Modifiers in the order nvcc prints them. */
void ws_inst_opname(const ws_inst *in, char *buf, size_t n)
{
    size_t len = 0;
    if (!n)
        return;
    buf[0] = 0;
    add(buf, n, &len, ws_op_name((ws_opcode)in->op));
    int op = in->op;
    /* nvcc prints .sync first (shfl.sync.bfly), except after match's sub-operation */
    int warp = ws_op_has(op, WS_OPF_WARPSYNC);
    int sync_late = in->subop == WS_SUB_MATCH_ANY || in->subop == WS_SUB_MATCH_ALL;
    if (warp && !sync_late)
        add(buf, n, &len, "sync");
    if (in->flags & WS_F_VOLATILE) add(buf, n, &len, "volatile");
    if (in->flags & WS_F_TO) add(buf, n, &len, "to");
    add(buf, n, &len, space_name(in->space));
    add(buf, n, &len, subop_name(in->subop));
    if (warp && sync_late)
        add(buf, n, &len, "sync");
    if ((in->flags & WS_F_ALIGNED) && !ws_op_has(op, WS_OPF_ALIGNED)) /* bar: implied */
        add(buf, n, &len, "aligned");
    add(buf, n, &len, cmp_name(in->cmp));
    static const char *const bools[] = {"", "and", "or", "xor"};
    if (in->boolop < 4) add(buf, n, &len, bools[in->boolop]);
    add(buf, n, &len, round_name(in->rnd));
    if (in->flags & WS_F_APPROX) add(buf, n, &len, "approx");
    if (in->flags & WS_F_FULL) add(buf, n, &len, "full");
    if (in->flags & WS_F_FTZ) add(buf, n, &len, "ftz");
    if (in->flags & WS_F_SAT) add(buf, n, &len, "sat");
    if (in->flags & WS_F_SATFINITE) add(buf, n, &len, "satfinite");
    if ((in->flags & WS_F_RELU) && (op == WS_OP_CVT || op == WS_OP_FMA)) add(buf, n, &len, "relu");
    if (in->flags & WS_F_NAN) add(buf, n, &len, "NaN");
    if (in->flags & WS_F_CC) add(buf, n, &len, "cc");
    if (in->flags & WS_F_WRAP) add(buf, n, &len, "wrap");
    if (in->flags & WS_F_CLAMP) add(buf, n, &len, "clamp");
    if (in->flags & WS_F_NOINC) add(buf, n, &len, "shiftamt");
    if (in->flags & WS_F_UNI) add(buf, n, &len, "uni");
    if (in->vec == 2) add(buf, n, &len, "v2");
    if (in->vec == 4) add(buf, n, &len, "v4");
    add(buf, n, &len, ws_ptype_name((ws_ptype)in->type));
    add(buf, n, &len, ws_ptype_name((ws_ptype)in->type2));
}
