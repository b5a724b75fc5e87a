/* ptx_parse_inst.c — one PTX instruction statement -> ws_inst: guard, opcode (looked up in
 * ptx_ops.def), dotted modifiers classified per opcode, operands (registers, immediates,
 * special registers, addresses, vectors, symbols, labels, call sequences), arity checks.
 * Anything not understood is an error naming the line and instruction, never a skip. */
#include <stdlib.h>
#include <string.h>
#include "sim/ptx_parse.h"

static int eq(const char *s, int len, const char *w)
{
    return (size_t)len == strlen(w) && memcmp(s, w, (size_t)len) == 0;
}

static int index_of(const char *s, int len, const char *const *tab, int n)
{
    for (int i = 0; i < n; i++)
        if (eq(s, len, tab[i]))
            return i;
    return -1;
}

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ---------------------------------------------------------------- modifiers */

static const char *const cmp_names[] = {"", "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls",
                                        "hi", "hs", "equ", "neu", "ltu", "leu", "gtu", "geu",
                                        "num", "nan"};
static const char *const rnd_names[] = {"", "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi"};
static const char *const atom_names[] = {"add", "inc", "dec", "cas", "exch", "min", "max",
                                         "and", "or", "xor"};
static const ws_subop atom_subs[] = {WS_SUB_ADD, WS_SUB_INC, WS_SUB_DEC, WS_SUB_CAS,
                                     WS_SUB_EXCH, WS_SUB_MIN, WS_SUB_MAX, WS_SUB_AND,
                                     WS_SUB_OR, WS_SUB_XOR};
static const char *const space_names[] = {"", "global", "shared", "local", "const", "param",
                                          "shared::cluster"};
/* Memory-model, scope and cache qualifiers: no effect on a functional simulation. */
static const char *const ignored_mem[] = {"relaxed", "acquire", "release", "acq_rel", "sc",
                                          "weak", "gpu", "sys", "cta", "cluster", "nc", "ca",
                                          "cg", "cs", "lu", "cv", "wb", "wt", "noftz",
                                          "L1", "L2" /* prefetch.global.L2: a hint */};

static int is_ignored_mem(const char *s, int len)
{
    if (len > 4 && (memcmp(s, "L1::", 4) == 0 || memcmp(s, "L2::", 4) == 0))
        return 1;
    return index_of(s, len, ignored_mem, COUNT(ignored_mem)) >= 0;
}

static int set_space(ws_inst *in, const char *s, int len)
{
    if (eq(s, len, "shared::cta")) {
        in->space = WS_SPACE_SHARED;
        return 1;
    }
    int i = index_of(s, len, space_names, COUNT(space_names));
    if (i <= 0)
        return 0;
    in->space = (uint8_t)i;
    return 1;
}

static int set_atom_sub(ws_inst *in, const char *s, int len)
{
    int i = index_of(s, len, atom_names, COUNT(atom_names));
    if (i < 0)
        return 0;
    in->subop = (uint8_t)atom_subs[i];
    return 1;
}

/* Float rounding and flags shared by the arithmetic instructions. */
static int apply_fp_mod(ws_inst *in, const char *s, int len)
{
    if (!ws_op_has(in->op, WS_OPF_FP))
        return 0;
    int r = index_of(s, len, rnd_names, COUNT(rnd_names));
    if (r > 0) {
        in->rnd = (uint8_t)r;
        return 1;
    }
    if (eq(s, len, "ftz")) in->flags |= WS_F_FTZ;
    else if (eq(s, len, "sat")) in->flags |= WS_F_SAT;
    else if (eq(s, len, "approx")) in->flags |= WS_F_APPROX;
    else if (eq(s, len, "full")) in->flags |= WS_F_FULL;
    else if (eq(s, len, "NaN") && (in->op == WS_OP_MIN || in->op == WS_OP_MAX))
        in->flags |= WS_F_NAN;
    else if (eq(s, len, "relu") && (in->op == WS_OP_MIN || in->op == WS_OP_MAX ||
                                     in->op == WS_OP_CVT || in->op == WS_OP_FMA))
        in->flags |= WS_F_RELU;
    else if (eq(s, len, "satfinite") && in->op == WS_OP_CVT)
        in->flags |= WS_F_SATFINITE;
    else return 0;
    return 1;
}

static int apply_bar_mod(ws_inst *in, const char *s, int len)
{
    if (eq(s, len, "warp")) in->subop = WS_SUB_WARP_SYNC;
    else if (eq(s, len, "sync")) { if (!in->subop) in->subop = WS_SUB_SYNC; }
    else if (eq(s, len, "arrive")) in->subop = WS_SUB_ARRIVE;
    else if (eq(s, len, "red")) in->subop = WS_SUB_RED_POPC; /* refined by the next word */
    else if (eq(s, len, "popc") && in->subop == WS_SUB_RED_POPC) in->subop = WS_SUB_RED_POPC;
    else if (eq(s, len, "and") && in->subop == WS_SUB_RED_POPC) in->subop = WS_SUB_RED_AND;
    else if (eq(s, len, "or") && in->subop == WS_SUB_RED_POPC) in->subop = WS_SUB_RED_OR;
    else if (eq(s, len, "aligned")) in->flags |= WS_F_ALIGNED;
    else if (eq(s, len, "cta")) { /* default scope */ }
    else if (eq(s, len, "cluster") && in->op == WS_OP_BARRIER) in->flags |= WS_F_CLUSTER;
    /* barrier.cluster.wait: in a launch of 1x1x1 clusters, the CTA's barrier (as ptxas's
       BAR.SYNC 0 where the launch has no clusters); .arrive does not wait */
    else if (eq(s, len, "wait") && (in->flags & WS_F_CLUSTER)) in->subop = WS_SUB_SYNC;
    else if ((eq(s, len, "relaxed") || eq(s, len, "acquire") || eq(s, len, "release")) &&
             (in->flags & WS_F_CLUSTER)) { /* memory order: the model's memory is in order */ }
    else return 0;
    return 1;
}

static int apply_warp_mod(ws_inst *in, const char *s, int len)
{
    static const char *const shfl[] = {"up", "down", "bfly", "idx"};
    static const ws_subop shfl_s[] = {WS_SUB_UP, WS_SUB_DOWN, WS_SUB_BFLY, WS_SUB_IDX};
    static const char *const vote[] = {"all", "any", "uni", "ballot"};
    static const ws_subop vote_s[] = {WS_SUB_ALL, WS_SUB_ANY, WS_SUB_UNI, WS_SUB_BALLOT};
    int i;
    if (eq(s, len, "sync"))
        return 1;
    switch ((ws_mods)ws_op_info[in->op].mods) {
    case WS_MODS_SHFL:
        if ((i = index_of(s, len, shfl, 4)) < 0) return 0;
        in->subop = (uint8_t)shfl_s[i];
        return 1;
    case WS_MODS_VOTE:
        if ((i = index_of(s, len, vote, 4)) < 0) return 0;
        in->subop = (uint8_t)vote_s[i];
        return 1;
    case WS_MODS_MATCH:
        if (eq(s, len, "any")) in->subop = WS_SUB_MATCH_ANY;
        else if (eq(s, len, "all")) in->subop = WS_SUB_MATCH_ALL;
        else return 0;
        return 1;
    default: /* redux */
        return set_atom_sub(in, s, len) && in->subop != WS_SUB_INC && in->subop != WS_SUB_DEC &&
               in->subop != WS_SUB_CAS && in->subop != WS_SUB_EXCH;
    }
}

/* cp.async.bulk's two state spaces, destination first: into shared memory from global
 * (.shared::cluster.global, completing on an mbarrier) or out of it (.global.shared::cta,
 * a bulk group). in->space keeps the destination's. */
static int bulk_space(ws_inst *in, const char *s, int len)
{
    int first = in->space == WS_SPACE_GENERIC;
    if (first && eq(s, len, "shared::cluster"))
        in->space = WS_SPACE_SHARED_CLUSTER;
    else if (first && eq(s, len, "global"))
        in->space = WS_SPACE_GLOBAL;
    else if (!first && in->space == WS_SPACE_SHARED_CLUSTER)
        return eq(s, len, "global");
    else if (!first && in->space == WS_SPACE_GLOBAL)
        return eq(s, len, "shared::cta");
    else
        return 0;
    return 1;
}

/* cp.async, cp.async.bulk and mbarrier: state spaces, cache and memory-order qualifiers (no
 * functional effect), .noinc, .parity, .expect_tx, .mbarrier::complete_tx::bytes,
 * .bulk_group and wait_group's .read. */
static int apply_async_mod(ws_inst *in, const char *s, int len)
{
    if (in->op == WS_OP_CP_ASYNC_BULK) {
        if (eq(s, len, "mbarrier::complete_tx::bytes")) in->subop = WS_SUB_COMPLETE_TX;
        else if (eq(s, len, "bulk_group")) in->subop = WS_SUB_BULK_GROUP;
        else return bulk_space(in, s, len) || is_ignored_mem(s, len);
        return 1;
    }
    if (eq(s, len, "read") && in->op == WS_OP_CP_ASYNC_BULK_WAIT) return 1;
    if (eq(s, len, "noinc") && in->op == WS_OP_CP_ASYNC_MBAR) in->subop = WS_SUB_NOINC;
    else if (eq(s, len, "parity") && (in->op == WS_OP_MBAR_TEST_WAIT ||
                                      in->op == WS_OP_MBAR_TRY_WAIT)) in->subop = WS_SUB_PARITY;
    else if (eq(s, len, "expect_tx") && in->op == WS_OP_MBAR_ARRIVE) in->subop = WS_SUB_EXPECT_TX;
    else return set_space(in, s, len) || is_ignored_mem(s, len);
    return 1;
}

/* tex/suld/sust: geometry (.1d/.2d/.3d), .v2/.v4, surface .b and .trap/.clamp/.zero.
 * Arrays, cubes, mipmap levels and formatted (.p) surface access are not simulated. */
static int apply_image_mod(ws_inst *in, const char *s, int len)
{
    int surface = in->op != WS_OP_TEX;
    if (len == 2 && s[1] == 'd' && s[0] >= '1' && s[0] <= '3' && !in->subop)
        in->subop = (uint8_t)(WS_SUB_DIM1 + (s[0] - '1'));
    else if ((eq(s, len, "v2") || eq(s, len, "v4")) && in->vec == 1)
        in->vec = (uint8_t)(s[1] - '0');
    else if (surface && eq(s, len, "b")) { /* unformatted: the only surface access */ }
    else if (surface && eq(s, len, "trap")) in->flags &= (uint16_t)~(WS_F_CLAMP | WS_F_ZERO);
    else if (surface && eq(s, len, "clamp")) in->flags |= WS_F_CLAMP;
    else if (surface && eq(s, len, "zero")) in->flags |= WS_F_ZERO;
    else return is_ignored_mem(s, len);
    return 1;
}

static int apply_op_mod(ws_inst *in, const char *s, int len)
{
    static const char *const testp[] = {"finite", "infinite", "number", "notanumber", "normal",
                                        "subnormal"};
    int i;
    if (eq(s, len, "cc") && ws_op_has(in->op, WS_OPF_CC)) {
        in->flags |= WS_F_CC;
        return 1;
    }
    switch ((ws_mods)ws_op_info[in->op].mods) {
    case WS_MODS_CMP:
        if ((i = index_of(s, len, cmp_names, COUNT(cmp_names))) > 0) { in->cmp = (uint8_t)i; return 1; }
        if (eq(s, len, "and")) { in->boolop = WS_BOOL_AND; return 1; }
        if (eq(s, len, "or")) { in->boolop = WS_BOOL_OR; return 1; }
        if (eq(s, len, "xor")) { in->boolop = WS_BOOL_XOR; return 1; }
        return 0;
    case WS_MODS_MUL:
        if (eq(s, len, "lo")) in->subop = WS_SUB_LO;
        else if (eq(s, len, "hi")) in->subop = WS_SUB_HI;
        else if (eq(s, len, "wide") && !ws_op_has(in->op, WS_OPF_CARRY_IN)) in->subop = WS_SUB_WIDE;
        else return 0;
        return 1;
    case WS_MODS_ATOM:
        if ((eq(s, len, "v2") || eq(s, len, "v4")) && in->vec == 1) {
            in->vec = (uint8_t)(s[1] - '0'); /* atom.global.add.v2.f32: float2/float4 */
            return 1;
        }
        return set_space(in, s, len) || set_atom_sub(in, s, len) || is_ignored_mem(s, len);
    case WS_MODS_MEM:
        if (eq(s, len, "v2") || eq(s, len, "v4")) { in->vec = (uint8_t)(s[1] - '0'); return 1; }
        if (eq(s, len, "volatile")) { in->flags |= WS_F_VOLATILE; return 1; }
        if (eq(s, len, "relaxed") || eq(s, len, "acquire") || eq(s, len, "release"))
            in->flags |= WS_F_STRONG; /* no functional effect: spin loops (cfg.c), races (race.c) */
        return set_space(in, s, len) || is_ignored_mem(s, len);
    case WS_MODS_CVTA:
        if (eq(s, len, "to")) { in->flags |= WS_F_TO; return 1; }
        return set_space(in, s, len);
    case WS_MODS_SHFL: case WS_MODS_VOTE: case WS_MODS_MATCH: case WS_MODS_REDUX:
        return apply_warp_mod(in, s, len);
    case WS_MODS_BAR:
        return apply_bar_mod(in, s, len);
    case WS_MODS_UNI:
        if (!eq(s, len, "uni")) return 0;
        in->flags |= WS_F_UNI;
        return 1;
    case WS_MODS_SHF: /* shf.{l,r}.{wrap,clamp}; bmsk.{wrap,clamp} (modifiers_ok) */
        if (eq(s, len, "l")) in->subop = WS_SUB_SHF_L;
        else if (eq(s, len, "r")) in->subop = WS_SUB_SHF_R;
        else if (eq(s, len, "wrap")) in->flags |= WS_F_WRAP;
        else if (eq(s, len, "clamp")) in->flags |= WS_F_CLAMP;
        else return 0;
        return 1;
    case WS_MODS_TESTP:
        if ((i = index_of(s, len, testp, COUNT(testp))) < 0) return 0;
        in->subop = (uint8_t)(WS_SUB_FINITE + i);
        return 1;
    case WS_MODS_MEMBAR:
        return eq(s, len, "gl") || eq(s, len, "cta") || eq(s, len, "sys");
    case WS_MODS_FENCE:
        return eq(s, len, "acq_rel") || eq(s, len, "sc") || eq(s, len, "cta") ||
               eq(s, len, "gpu") || eq(s, len, "sys") || eq(s, len, "cluster") ||
               /* fence.proxy.async[.global|.shared::cta|.shared::cluster] and
                  fence.proxy.alias: orders the generic proxy against bulk copies, which
                  complete at issue here */
               eq(s, len, "proxy") || eq(s, len, "async") || eq(s, len, "alias") ||
               eq(s, len, "global") || eq(s, len, "shared::cta") ||
               eq(s, len, "shared::cluster");
    case WS_MODS_BFIND:
        if (!eq(s, len, "shiftamt")) return 0;
        in->flags |= WS_F_NOINC;
        return 1;
    case WS_MODS_ASYNC:
        return apply_async_mod(in, s, len);
    case WS_MODS_IMAGE:
        return apply_image_mod(in, s, len);
    case WS_MODS_VIDEO: /* vabsdiff4: .add sums the four differences into c; .sat clamps */
        if (eq(s, len, "add")) in->subop = WS_SUB_ADD;
        else if (eq(s, len, "sat")) in->flags |= WS_F_SAT;
        else return 0;
        return 1;
    case WS_MODS_NONE:
        return 0;
    }
    return 0;
}

static int apply_mod(ws_inst *in, const char *s, int len)
{
    ws_ptype ty = ws_ptype_from(s, len);
    if (ty != WS_P_NONE) {
        if (!in->type)
            in->type = (uint8_t)ty;
        else if (!in->type2)
            in->type2 = (uint8_t)ty;
        else /* vabsdiff4.dtype.atype.btype: b's type must be a's (a mixed pair is refused) */
            return in->op == WS_OP_VABSDIFF4 && ty == in->type2;
        return 1;
    }
    return apply_op_mod(in, s, len) || apply_fp_mod(in, s, len);
}

static int is_fp8(int t) { return t == WS_P_E4M3X2 || t == WS_P_E5M2X2; }

static int is_half(int t)
{
    return t == WS_P_F16 || t == WS_P_F16X2 || t == WS_P_BF16 || t == WS_P_BF16X2;
}

/* Combinations the simulator does not implement or that are incomplete. */
static int modifiers_ok(const ws_inst *in)
{
    int op = in->op;
    if (in->type2 && !ws_op_has(op, WS_OPF_TYPE2))
        return 0;
    if ((op == WS_OP_ATOM || op == WS_OP_RED) && in->vec > 1) /* the vector forms modelled */
        return in->type == WS_P_F32 && in->subop == WS_SUB_ADD && in->space == WS_SPACE_GLOBAL;
    if ((op == WS_OP_ATOM || op == WS_OP_RED) && is_half(in->type)) /* atom.add.noftz.f16x2 */
        return in->subop == WS_SUB_ADD;
    if ((op == WS_OP_ATOM || op == WS_OP_RED) && ws_ptype_bits((ws_ptype)in->type) == 16)
        return in->subop == WS_SUB_CAS; /* atom.cas.b16 (16-bit atomicCAS) */
    if (in->type == WS_P_B128 && !ws_op_has(op, WS_OPF_B128))
        return 0;
    if (op == WS_OP_CVT && (is_fp8(in->type) || is_fp8(in->type2))) /* the sm_89/90 forms */
        return in->rnd == WS_RND_RN && !(in->flags & ~(WS_F_RELU | WS_F_SATFINITE)) &&
               (is_fp8(in->type) ? (in->flags & WS_F_SATFINITE) &&
                                   (in->type2 == WS_P_F32 || in->type2 == WS_P_F16X2)
                                 : in->type == WS_P_F16X2 && !(in->flags & WS_F_SATFINITE));
    if ((in->flags & WS_F_SATFINITE) || (op == WS_OP_CVT && (in->flags & WS_F_RELU)))
        return 0;
    if (is_half(in->type) || is_half(in->type2)) {
        int pair = in->type == WS_P_F16X2 || in->type == WS_P_BF16X2 ||
                   in->type2 == WS_P_F16X2 || in->type2 == WS_P_BF16X2;
        if (!ws_op_has(op, pair ? WS_OPF_HALF2 : WS_OPF_HALF)) /* cvt.rn.f16x2.f32: no */
            return 0;
    }
    if (ws_op_has(op, WS_OPF_NEED_TYPE) && !in->type) return 0;
    if (ws_op_has(op, WS_OPF_NEED_TYPE2) && !in->type2) return 0;
    if (ws_op_has(op, WS_OPF_NEED_SUBOP) && in->subop == WS_SUB_NONE) return 0;
    if (ws_op_has(op, WS_OPF_NEED_CMP) && in->cmp == WS_CMP_NONE) return 0;
    if ((in->flags & WS_F_CC) && in->subop == WS_SUB_WIDE) return 0; /* mad.wide.cc */
    int x16 = in->type == WS_P_U16X2 || in->type == WS_P_S16X2;
    if (x16 || in->type2 == WS_P_U16X2 || in->type2 == WS_P_S16X2) /* add.sat only signed */
        return x16 && !in->type2 && (op == WS_OP_MIN || op == WS_OP_MAX ||
               ((op == WS_OP_ADD || op == WS_OP_SUB) && !(in->flags & ~WS_F_SAT) &&
                (!(in->flags & WS_F_SAT) || in->type == WS_P_S16X2)));
    if ((in->flags & WS_F_RELU) && in->type != WS_P_S32 &&
        !(op == WS_OP_FMA && is_half(in->type))) /* fma.rn.relu.f16x2 (__hfma2_relu) */
        return 0;
    int i32 = in->type == WS_P_S32 || in->type == WS_P_U32;
    int i32b = in->type2 == WS_P_S32 || in->type2 == WS_P_U32;
    if (op == WS_OP_DP4A || op == WS_OP_VABSDIFF4)
        return i32 && i32b;
    if (op == WS_OP_DP2A)
        return i32 && i32b && (in->subop == WS_SUB_LO || in->subop == WS_SUB_HI);
    if (op == WS_OP_CVT && (in->type == WS_P_F16X2 || in->type == WS_P_BF16X2))
        return in->type2 == WS_P_F32 && in->rnd == WS_RND_RN && !(in->flags & WS_F_SAT);
    if (op == WS_OP_CVT && (in->type2 == WS_P_F16X2 || in->type2 == WS_P_BF16X2))
        return 0;
    if (op == WS_OP_SET && (in->type2 == WS_P_F16X2 || in->type2 == WS_P_BF16X2))
        return in->type == in->type2 || in->type == WS_P_U32 || in->type == WS_P_S32;
    if (op == WS_OP_SET && (in->type == WS_P_F16X2 || in->type == WS_P_BF16X2))
        return 0;
    if (op == WS_OP_TEX)
        return in->vec == 4 && (in->type == WS_P_F32 || in->type == WS_P_S32 ||
                                in->type == WS_P_U32) &&
               (in->type2 == WS_P_S32 || in->type2 == WS_P_F32);
    if (op == WS_OP_BMSK) /* exactly one mode, no direction */
        return in->subop == WS_SUB_NONE && in->type == WS_P_B32 &&
               !(in->flags & WS_F_WRAP) != !(in->flags & WS_F_CLAMP);
    if (op == WS_OP_SULD || op == WS_OP_SUST)
        return in->subop != WS_SUB_DIM3 && in->type >= WS_P_B8 && in->type <= WS_P_B64 &&
               !((in->flags & WS_F_CLAMP) && (in->flags & WS_F_ZERO));
    return 1;
}

/* Whether the instruction has a result operand: the row's dmax, except that a barrier has
 * one only with .red (bar.red.popc.u32 %r, 0, %p). */
static int has_dst(const ws_inst *in)
{
    if (ws_op_has(in->op, WS_OPF_BARRIER))
        return in->subop == WS_SUB_RED_POPC || in->subop == WS_SUB_RED_AND ||
               in->subop == WS_SUB_RED_OR;
    return ws_op_info[in->op].dmax > 0;
}

/* ---------------------------------------------------------------- operands */

static const struct { const char *name; ws_special sr; } specials[] = {
    {"%tid.x", WS_SR_TID_X}, {"%tid.y", WS_SR_TID_Y}, {"%tid.z", WS_SR_TID_Z},
    {"%ntid.x", WS_SR_NTID_X}, {"%ntid.y", WS_SR_NTID_Y}, {"%ntid.z", WS_SR_NTID_Z},
    {"%ctaid.x", WS_SR_CTAID_X}, {"%ctaid.y", WS_SR_CTAID_Y}, {"%ctaid.z", WS_SR_CTAID_Z},
    {"%nctaid.x", WS_SR_NCTAID_X}, {"%nctaid.y", WS_SR_NCTAID_Y},
    {"%nctaid.z", WS_SR_NCTAID_Z}, {"%laneid", WS_SR_LANEID}, {"%warpid", WS_SR_WARPID},
    {"%nwarpid", WS_SR_NWARPID}, {"%smid", WS_SR_SMID}, {"%nsmid", WS_SR_NSMID},
    {"%gridid", WS_SR_GRIDID}, {"%lanemask_eq", WS_SR_LANEMASK_EQ},
    {"%lanemask_lt", WS_SR_LANEMASK_LT}, {"%lanemask_le", WS_SR_LANEMASK_LE},
    {"%lanemask_gt", WS_SR_LANEMASK_GT}, {"%lanemask_ge", WS_SR_LANEMASK_GE},
    {"%clock", WS_SR_CLOCK}, {"%clock64", WS_SR_CLOCK64}, {"%globaltimer", WS_SR_GLOBALTIMER},
    {"%dynamic_smem_size", WS_SR_DYNAMIC_SMEM_SIZE},
    {"%total_smem_size", WS_SR_TOTAL_SMEM_SIZE},
    {"%cluster_ctarank", WS_SR_CLUSTER_CTARANK}, {"%cluster_nctarank", WS_SR_CLUSTER_NCTARANK},
    {"%cluster_ctaid.x", WS_SR_CLUSTER_CTAID_X}, {"%cluster_ctaid.y", WS_SR_CLUSTER_CTAID_Y},
    {"%cluster_ctaid.z", WS_SR_CLUSTER_CTAID_Z}, {"%cluster_nctaid.x", WS_SR_CLUSTER_NCTAID_X},
    {"%cluster_nctaid.y", WS_SR_CLUSTER_NCTAID_Y},
    {"%cluster_nctaid.z", WS_SR_CLUSTER_NCTAID_Z}, {"%clusterid.x", WS_SR_CLUSTERID_X},
    {"%clusterid.y", WS_SR_CLUSTERID_Y}, {"%clusterid.z", WS_SR_CLUSTERID_Z},
    {"%nclusterid.x", WS_SR_NCLUSTERID_X}, {"%nclusterid.y", WS_SR_NCLUSTERID_Y},
    {"%nclusterid.z", WS_SR_NCLUSTERID_Z}, {"%is_explicit_cluster", WS_SR_IS_EXPLICIT_CLUSTER},
};

static int lookup_special(const char *s, int len)
{
    for (int i = 0; i < COUNT(specials); i++)
        if (eq(s, len, specials[i].name))
            return specials[i].sr;
    return WS_SR_NONE;
}

/* A register: %-prefixed, or a name declared with .reg in scope (inline asm in the CUDA
 * headers declares `.reg .pred p;`, `.reg .u32 start;`). */
static int is_reg(ws_pctx *c, const ws_tok *t)
{
    return t->kind == WS_TK_WORD &&
           (t->s[0] == '%' || ws_strmap_get(&c->regs, t->s, t->len) >= 0);
}

/* %envreg0..%envreg31 (cooperative groups' grid sync reads 1 and 2): their index, else -1. */
static int envreg_index(const ws_tok *t)
{
    int64_t v;
    if (t->len < 8 || t->len > 9 || memcmp(t->s, "%envreg", 7) != 0 ||
        ws_parse_int_literal(t->s + 7, t->len - 7, &v) || v < 0 || v > 31)
        return -1;
    return (int)v;
}

/* PTX special registers the executor does not model (cooperative groups' scratch
 * %reserved_smem_offset_*, counters). */
static int unmodelled_special(const ws_tok *t)
{
    static const char *const prefixes[] = {
        "%reserved_smem_offset", "%pm", "%clock_hi", "%globaltimer_", "%aggr_smem_size",
        "%current_graph_exec"};
    for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++) {
        size_t n = strlen(prefixes[i]);
        if ((size_t)t->len >= n && memcmp(t->s, prefixes[i], n) == 0)
            return 1;
    }
    return 0;
}

static int reg_index(ws_pctx *c, const ws_tok *t, int32_t *reg)
{
    int r = ws_strmap_get(&c->regs, t->s, t->len);
    if (r < 0 && unmodelled_special(t))
        return ws_pc_fail(c, WS_ERR_UNSUPPORTED, t->line, "unsupported special register "
                          "'%.*s'", t->len, t->s);
    if (r < 0)
        return ws_pc_fail(c, WS_ERR_PTX, t->line, "undeclared register '%.*s'", t->len, t->s);
    *reg = r;
    return WS_OK;
}

/* Integer or float-bits literal; `neg` when a '-' preceded it. */
static int parse_imm(ws_pctx *c, const ws_inst *in, const ws_tok *t, int neg, int64_t *v)
{
    char buf[72];
    if (t->len > 2 && t->s[0] == '0' && strchr("fFdD", t->s[1])) {
        int is32 = t->s[1] == 'f' || t->s[1] == 'F';
        snprintf(buf, sizeof buf, "0x%.*s", t->len - 2, t->s + 2);
        if (t->len != (is32 ? 10 : 18) || ws_parse_int_literal(buf, (int)strlen(buf), v))
            return ws_pc_syntax(c, t, "a float literal (0fXXXXXXXX or 0dXXXXXXXXXXXXXXXX)");
        if (neg)
            *v ^= is32 ? (int64_t)0x80000000ll : (int64_t)INT64_MIN;
        return WS_OK;
    }
    if (memchr(t->s, '.', (size_t)t->len)) {
        snprintf(buf, sizeof buf, "%.*s", t->len, t->s);
        char *end;
        double d = strtod(buf, &end) * (neg ? -1.0 : 1.0);
        if (*end)
            return ws_pc_syntax(c, t, "a number");
        if (in->type == WS_P_F32) {
            float f = (float)d;
            uint32_t u;
            memcpy(&u, &f, 4);
            *v = u;
        } else if (in->type == WS_P_F64) {
            memcpy(v, &d, 8);
        } else {
            return ws_pc_fail(c, WS_ERR_PTX, t->line, "float literal '%.*s' in a non-float "
                              "instruction", t->len, t->s);
        }
        return WS_OK;
    }
    if (ws_parse_int_literal(t->s, t->len, v))
        return ws_pc_syntax(c, t, "a number");
    if (neg) /* in unsigned arithmetic: -9223372036854775808 is INT64_MIN itself */
        *v = (int64_t)(0 - (uint64_t)*v);
    return WS_OK;
}

/* A name that is not a register: function-scope variable, parameter or module variable. */
typedef enum { NAME_NONE, NAME_LOCAL, NAME_PARAM, NAME_GLOBAL } name_kind;

static name_kind lookup_name(ws_pctx *c, const ws_tok *t, int *idx, uint64_t *param_off)
{
    if ((*idx = ws_strmap_get(&c->locals, t->s, t->len)) >= 0)
        return NAME_LOCAL;
    if ((*idx = ws_strmap_get(&c->params, t->s, t->len)) >= 0) {
        const ws_function *f = c->fn;
        *param_off = *idx < f->nparams ? f->params[*idx].offset
                                        : f->rets[*idx - f->nparams].offset;
        return NAME_PARAM;
    }
    if ((*idx = ws_strmap_get(&c->globals, t->s, t->len)) >= 0)
        return NAME_GLOBAL;
    return NAME_NONE;
}

/* [%rd5], [%rd5+4], [%rd5+-8], [sym], [sym+16], [param], [123] */
static int parse_address(ws_pctx *c, ws_operand *o)
{
    o->kind = WS_O_ADDR;
    o->reg = o->sym = -1;
    const ws_tok *t = ws_pc_next(c);
    if (t->kind == WS_TK_NUM) {
        if (ws_parse_int_literal(t->s, t->len, &o->imm))
            return ws_pc_syntax(c, t, "an address");
    } else if (is_reg(c, t)) {
        if (reg_index(c, t, &o->reg))
            return c->err->code;
    } else if (t->kind == WS_TK_WORD) {
        int idx;
        uint64_t off = 0;
        switch (lookup_name(c, t, &idx, &off)) {
        case NAME_LOCAL: o->sym = idx; break;
        case NAME_GLOBAL: o->sym = ws_sym_encode_global(idx); break;
        case NAME_PARAM: o->imm = (int64_t)off; break;
        default:
            return ws_pc_fail(c, WS_ERR_PTX, t->line, "unknown symbol '%.*s'", t->len, t->s);
        }
    } else {
        return ws_pc_syntax(c, t, "a register or symbol in '[...]'");
    }
    if (ws_pc_is(ws_pc_peek(c), "+") || ws_pc_is(ws_pc_peek(c), "-")) {
        int minus = ws_pc_is(ws_pc_next(c), "-");
        int64_t off;
        if (ws_pc_num(c, &off))
            return c->err->code;
        o->imm += minus ? -off : off;
    }
    return ws_pc_expect(c, "]");
}

/* {%r1, %r2, _, %r4}; an image instruction's value or coordinates may be one register
 * ({%r4}) and is one per line of the geometry (`single`). */
static int parse_vector(ws_pctx *c, ws_operand *o, int single)
{
    o->kind = WS_O_VEC;
    o->reg = o->sym = -1;
    for (int i = 0;; i++) {
        const ws_tok *t = ws_pc_next(c);
        if (i == 4)
            return ws_pc_fail(c, WS_ERR_UNSUPPORTED, t->line, "vector of more than 4 elements");
        if (ws_pc_is(t, "_"))
            o->vregs[i] = -1;
        else if (is_reg(c, t)) {
            if (reg_index(c, t, &o->vregs[i]))
                return c->err->code;
        } else {
            return ws_pc_fail(c, t->kind == WS_TK_EOF ? WS_ERR_PTX : WS_ERR_UNSUPPORTED,
                              t->line, "unsupported vector element '%.*s'", t->len, t->s);
        }
        o->nvec = (uint8_t)(i + 1);
        const ws_tok *sep = ws_pc_next(c);
        if (ws_pc_is(sep, "}"))
            break;
        if (!ws_pc_is(sep, ","))
            return ws_pc_syntax(c, sep, "',' or '}'");
    }
    if (o->nvec != 2 && o->nvec != 4 && !(single && o->nvec == 1))
        return ws_pc_fail(c, WS_ERR_UNSUPPORTED, ws_pc_peek(c)->line,
                          "vector of %d elements", o->nvec);
    return WS_OK;
}

/* An image instruction's [%rd, {x, y}]: the handle's address operand, then its
 * coordinates as the next operand (a vector of registers). */
static int parse_image_address(ws_pctx *c, ws_operand *o)
{
    o->kind = WS_O_ADDR;
    o->reg = o->sym = -1;
    const ws_tok *t = ws_pc_next(c);
    if (!is_reg(c, t))
        return ws_pc_syntax(c, t, "a texture or surface handle register in '[...]'");
    if (reg_index(c, t, &o->reg) || ws_pc_expect(c, ",") || ws_pc_expect(c, "{"))
        return c->err->code;
    ws_operand *coords = o + 1;
    memset(coords, 0, sizeof *coords);
    if (parse_vector(c, coords, 1))
        return c->err->code;
    for (int i = 0; i < coords->nvec; i++)
        if (coords->vregs[i] < 0)
            return ws_pc_syntax(c, ws_pc_peek(c), "a coordinate register, not '_'");
    return ws_pc_expect(c, "]");
}

static int add_label_fixup(ws_pctx *c, int slot, int tok)
{
    if (c->nlfix == c->cap_lfix) {
        int nc = c->cap_lfix ? c->cap_lfix * 2 : 64;
        ws_fixup *p = realloc(c->lfix, (size_t)nc * sizeof *p);
        if (!p)
            return ws_error_set(c->err, WS_ERR_NOMEM, "out of memory");
        c->lfix = p;
        c->cap_lfix = nc;
    }
    c->lfix[c->nlfix++] = (ws_fixup){c->fn_index, c->fn->ninsts, slot, tok};
    return WS_OK;
}

static int parse_word_operand(ws_pctx *c, ws_inst *in, const ws_tok *t, ws_operand *o, int slot)
{
    if (t->s[0] == '%') {
        int sr = lookup_special(t->s, t->len), env = envreg_index(t);
        if (sr != WS_SR_NONE || env >= 0) {
            o->kind = WS_O_SPECIAL;
            o->special = (uint8_t)(env >= 0 ? WS_SR_ENVREG : sr);
            o->imm = env;
            return WS_OK;
        }
        o->kind = WS_O_REG;
        return reg_index(c, t, &o->reg);
    }
    if (is_reg(c, t) && in->op != WS_OP_BRA) {
        o->kind = WS_O_REG;
        return reg_index(c, t, &o->reg);
    }
    if (eq(t->s, t->len, "WARP_SZ")) { /* PTX's predefined warp-size constant */
        o->kind = WS_O_IMM;
        o->imm = 32;
        return WS_OK;
    }
    if (ws_op_has(in->op, WS_OPF_BRANCH)) {
        o->kind = WS_O_LABEL;
        return add_label_fixup(c, slot, (int)(t - c->t));
    }
    int idx;
    uint64_t off;
    switch (lookup_name(c, t, &idx, &off)) {
    case NAME_LOCAL: o->kind = WS_O_SYMBOL; o->sym = idx; return WS_OK;
    case NAME_GLOBAL: o->kind = WS_O_SYMBOL; o->sym = ws_sym_encode_global(idx); return WS_OK;
    case NAME_PARAM:
        /* mov %rd, kernel_param: the parameter's address in the .param space (a
           __grid_constant__ parameter read through a reference, as CUB's kernels do), which
           is its offset in the kernel's parameter block, where ld.param [%rd+k] reads it.
           A device function's parameter address would be .local: refused. */
        if (in->op == WS_OP_MOV && c->fn->is_entry && idx < c->fn->nparams) {
            o->kind = WS_O_IMM;
            o->imm = (int64_t)off;
            return WS_OK;
        }
        return ws_pc_fail(c, WS_ERR_UNSUPPORTED, t->line,
                          "unsupported use of the address of parameter '%.*s'", t->len, t->s);
    default:
        break;
    }
    if (ws_strmap_get(&c->funcs, t->s, t->len) >= 0 || ws_strmap_get(&c->externs, t->s, t->len) >= 0)
        return ws_pc_fail(c, WS_ERR_UNSUPPORTED, t->line,
                          "unsupported function pointer '%.*s'", t->len, t->s);
    return ws_pc_fail(c, WS_ERR_PTX, t->line, "unknown symbol '%.*s'", t->len, t->s);
}

/* One operand; `slot` is its position in dst/src order, for label fixups. */
static int parse_operand(ws_pctx *c, ws_inst *in, ws_operand *o, int slot)
{
    memset(o, 0, sizeof *o);
    o->reg = o->sym = -1;
    const ws_tok *t = ws_pc_next(c);
    int image = ws_op_info[in->op].mods == WS_MODS_IMAGE;
    if (ws_pc_is(t, "["))
        return image ? parse_image_address(c, o) : parse_address(c, o);
    if (ws_pc_is(t, "{"))
        return parse_vector(c, o, image);
    if (ws_pc_is(t, "!")) {
        t = ws_pc_next(c);
        if (!is_reg(c, t))
            return ws_pc_syntax(c, t, "a predicate register after '!'");
        o->kind = WS_O_REG;
        o->neg = 1;
        return reg_index(c, t, &o->reg);
    }
    int neg = 0;
    if (ws_pc_is(t, "-")) {
        neg = 1;
        t = ws_pc_next(c);
    }
    if (t->kind == WS_TK_NUM) {
        o->kind = WS_O_IMM;
        return parse_imm(c, in, t, neg, &o->imm);
    }
    if (neg)
        return ws_pc_syntax(c, t, "a number after '-'");
    if (t->kind == WS_TK_WORD && !ws_pc_is(t, "_"))
        return parse_word_operand(c, in, t, o, slot);
    if (ws_pc_is(t, "_") && slot == 0) { /* the sink: a result nobody reads */
        o->kind = WS_O_REG;
        return ws_pc_sink(c, &o->reg);
    }
    return ws_pc_syntax(c, t, "an operand");
}

/* ---------------------------------------------------------------- roles and arity */

static int check_arity(ws_pctx *c, const ws_inst *in, const char *opname, int line)
{
    const ws_opinfo *oi = &ws_op_info[in->op];
    int dmin = oi->dmin, dmax = oi->dmax, smin = oi->smin, smax = oi->smax;
    if (ws_op_has(in->op, WS_OPF_BARRIER)) { /* the row's range, narrowed by sub-operation */
        dmin = dmax = has_dst(in);
        smax = dmin ? smax : smax - 1;
        if (in->flags & WS_F_CLUSTER) /* barrier.cluster.arrive / .wait: no operands (the */
            smin = smax = 0;          /* row's smin 0); every other barrier names its id */
        else if (smin < 1)
            smin = 1;
    }
    if (in->op == WS_OP_CVT) /* cvt.rn.f16x2.f32 d, a, b packs two (and .e4m3x2.f32); every
                                other cvt one */
        smin = smax = in->type2 == WS_P_F32 && (in->type == WS_P_F16X2 || in->type == WS_P_BF16X2 ||
                                                is_fp8(in->type)) ? 2 : 1;
    if (in->ndst < dmin || in->ndst > dmax || in->nsrc < smin || in->nsrc > smax)
        return ws_pc_fail(c, WS_ERR_PTX, line, "wrong number of operands for '%s'", opname);
    for (int i = 0; i < in->ndst; i++)
        if (in->dst[i].kind != WS_O_REG && in->dst[i].kind != WS_O_VEC)
            return ws_pc_fail(c, WS_ERR_PTX, line, "'%s': destination must be a register",
                              opname);
    int need_addr = ws_op_has(in->op, WS_OPF_MEM);
    if (need_addr && in->src[0].kind != WS_O_ADDR)
        return ws_pc_fail(c, WS_ERR_PTX, line, "'%s': expected a memory operand [...]", opname);
    if (ws_op_has(in->op, WS_OPF_BRANCH) && in->src[0].kind != WS_O_LABEL)
        return ws_pc_fail(c, WS_ERR_UNSUPPORTED, line, "'%s': only direct branches to labels "
                          "are supported", opname);
    for (int i = 0; i < in->nsrc; i++)
        if (in->src[i].kind == WS_O_ADDR && !need_addr)
            return ws_pc_fail(c, WS_ERR_PTX, line, "'%s': unexpected memory operand", opname);
    if (in->op == WS_OP_ATOM || in->op == WS_OP_RED) { /* .v2/.v4: vectors of that size */
        int v = in->vec > 1 ? in->vec : 0;
        for (int i = 0; i < in->nsrc + in->ndst; i++) {
            const ws_operand *o = i < in->ndst ? &in->dst[i] : &in->src[i - in->ndst];
            int want = i == 0 || i == in->ndst + 1 ? v : 0; /* the result and the value */
            if ((o->kind == WS_O_VEC ? o->nvec : 0) != want || (want && i > in->ndst + 1))
                return ws_pc_fail(c, WS_ERR_PTX, line, "'%s': %s", opname, v ?
                                  "a vector atomic takes a {vector} result and value of its "
                                  "size" : "vector operand without .v2/.v4");
        }
    }
    if (in->op == WS_OP_CP_ASYNC) {
        const ws_operand *size = &in->src[2];
        if (in->src[1].kind != WS_O_ADDR || size->kind != WS_O_IMM ||
            (size->imm != 4 && size->imm != 8 && size->imm != 16))
            return ws_pc_fail(c, WS_ERR_PTX, line, "'%s': expected [shared], [global], then "
                              "the copy size 4, 8 or 16", opname);
    }
    if (in->op == WS_OP_CP_ASYNC_BULK) { /* the forms bulk_space allows, and their operands */
        int to_shared = in->space == WS_SPACE_SHARED_CLUSTER;
        if (!(to_shared ? in->subop == WS_SUB_COMPLETE_TX && in->nsrc == 4 &&
                          in->src[3].kind == WS_O_ADDR
                        : in->space == WS_SPACE_GLOBAL && in->subop == WS_SUB_BULK_GROUP &&
                          in->nsrc == 3) ||
            in->src[1].kind != WS_O_ADDR || in->src[2].kind == WS_O_ADDR)
            return ws_pc_fail(c, WS_ERR_UNSUPPORTED, line, "'%s': the forms known are "
                              ".shared::cluster.global.mbarrier::complete_tx::bytes [dst], "
                              "[src], size, [mbar] and .global.shared::cta.bulk_group [dst], "
                              "[src], size", opname);
    }
    return WS_OK;
}

/* ---------------------------------------------------------------- call sequences */

/* A PARAM-space local named by token t. */
static int param_local(ws_pctx *c, const ws_tok *t, int *idx)
{
    if (t->kind != WS_TK_WORD)
        return ws_pc_syntax(c, t, "a .param name");
    *idx = ws_strmap_get(&c->locals, t->s, t->len);
    if (*idx < 0 || c->fn->locals[*idx].space != WS_SPACE_PARAM)
        return ws_pc_fail(c, WS_ERR_PTX, t->line, "'%.*s' is not a .param variable of this "
                          "call sequence", t->len, t->s);
    return WS_OK;
}

/* call{.uni} [(ret),] fname [, (a0, a1, ...)];  Encoded as: dst[0] = SYMBOL of the return
 * .param local (ndst 0 when none); src[0] = FUNC (imm = function index, fixed up at the
 * end of the module); src[1] = SYMBOL of the first argument .param local; src[2] = IMM
 * number of arguments, which are consecutive locals. */
static int parse_call(ws_pctx *c, ws_inst *in)
{
    int idx = -1;
    if (ws_pc_is(ws_pc_peek(c), "(")) {
        c->pos++;
        if (param_local(c, ws_pc_next(c), &idx))
            return c->err->code;
        if (!ws_pc_is(ws_pc_peek(c), ")"))
            return ws_pc_fail(c, WS_ERR_UNSUPPORTED, ws_pc_peek(c)->line,
                              "unsupported call with several return values");
        c->pos++;
        in->ndst = 1;
        in->dst[0] = (ws_operand){.kind = WS_O_SYMBOL, .reg = -1, .sym = idx};
        if (ws_pc_expect(c, ","))
            return c->err->code;
    }
    const ws_tok *f = ws_pc_next(c);
    if (f->kind != WS_TK_WORD)
        return ws_pc_syntax(c, f, "a function name");
    if (f->s[0] == '%')
        return ws_pc_fail(c, WS_ERR_UNSUPPORTED, f->line, "unsupported indirect call");
    in->nsrc = 3;
    in->src[0] = (ws_operand){.kind = WS_O_FUNC, .reg = -1, .sym = -1, .imm = -1};
    in->src[1] = (ws_operand){.kind = WS_O_NONE, .reg = -1, .sym = -1};
    in->src[2] = (ws_operand){.kind = WS_O_IMM, .reg = -1, .sym = -1, .imm = 0};
    if (ws_pc_is(ws_pc_peek(c), ",")) {
        c->pos++;
        if (ws_pc_expect(c, "("))
            return c->err->code;
        for (int n = 0; !ws_pc_is(ws_pc_peek(c), ")"); n++) {
            const ws_tok *a = ws_pc_next(c);
            if (n > 0) {
                if (!ws_pc_is(a, ","))
                    return ws_pc_syntax(c, a, "',' or ')'");
                a = ws_pc_next(c);
            }
            if (param_local(c, a, &idx))
                return c->err->code;
            if (n == 0)
                in->src[1] = (ws_operand){.kind = WS_O_SYMBOL, .reg = -1, .sym = idx};
            else if (idx != in->src[1].sym + n)
                return ws_pc_fail(c, WS_ERR_UNSUPPORTED, a->line,
                                  "call arguments not declared in order");
            in->src[2].imm = n + 1;
        }
        c->pos++;
        if (ws_pc_is(ws_pc_peek(c), ","))
            return ws_pc_fail(c, WS_ERR_UNSUPPORTED, f->line, "unsupported call prototype");
    }
    if (c->ncalls == c->cap_calls) {
        int nc = c->cap_calls ? c->cap_calls * 2 : 16;
        ws_fixup *p = realloc(c->calls, (size_t)nc * sizeof *p);
        if (!p)
            return ws_error_set(c->err, WS_ERR_NOMEM, "out of memory");
        c->calls = p;
        c->cap_calls = nc;
    }
    c->calls[c->ncalls++] = (ws_fixup){c->fn_index, c->fn->ninsts, 0, (int)(f - c->t)};
    return ws_pc_expect(c, ";");
}

/* ---------------------------------------------------------------- the statement */

static int parse_operands(ws_pctx *c, ws_inst *in)
{
    ws_operand ops[8];
    int n = 0, pair = 0;
    if (!ws_pc_is(ws_pc_peek(c), ";")) {
        for (;;) {
            if (n == 8)
                return ws_pc_fail(c, WS_ERR_PTX, ws_pc_peek(c)->line, "too many operands");
            if (n == 7 && ws_op_info[in->op].mods == WS_MODS_IMAGE)
                return ws_pc_fail(c, WS_ERR_PTX, ws_pc_peek(c)->line, "too many operands");
            if (parse_operand(c, in, &ops[n], n))
                return c->err->code;
            n++;
            if (ops[n - 1].kind == WS_O_ADDR && ws_op_info[in->op].mods == WS_MODS_IMAGE)
                n++; /* its coordinates */
            if (n == 1 && ws_pc_is(ws_pc_peek(c), "|")) {
                c->pos++;
                if (parse_operand(c, in, &ops[n], n))
                    return c->err->code;
                n++;
                pair = 1;
            }
            if (!ws_pc_is(ws_pc_peek(c), ","))
                break;
            c->pos++;
        }
    }
    if (ws_pc_expect(c, ";"))
        return c->err->code;
    int nd = has_dst(in) ? (pair ? 2 : (n > 0)) : 0;
    if (nd == 1 && ws_op_info[in->op].dmin == 0 && ops[0].kind == WS_O_ADDR)
        nd = 0; /* an optional result (mbarrier.arrive [addr]): an address is no result */
    if (pair && !has_dst(in))
        return ws_pc_fail(c, WS_ERR_PTX, c->t[c->pos - 1].line, "unexpected '|'");
    if (n - nd > WS_MAX_SRC)
        return ws_pc_fail(c, WS_ERR_PTX, c->t[c->pos - 1].line, "too many operands");
    in->ndst = (uint8_t)nd;
    in->nsrc = (uint8_t)(n - nd);
    for (int i = 0; i < nd; i++)
        in->dst[i] = ops[i];
    for (int i = nd; i < n; i++)
        in->src[i - nd] = ops[i];
    /* label fixups recorded operand positions; make them src slots */
    for (int i = c->nlfix - 1; i >= 0 && c->lfix[i].pc == c->fn->ninsts &&
                               c->lfix[i].fn == c->fn_index; i--)
        c->lfix[i].slot -= nd;
    return WS_OK;
}

static ws_inst *new_inst(ws_pctx *c)
{
    ws_function *f = c->fn;
    if (f->ninsts == c->cap_insts) {
        int nc = c->cap_insts ? c->cap_insts * 2 : 64;
        ws_inst *p = realloc(f->insts, (size_t)nc * sizeof *p);
        if (!p)
            return NULL;
        f->insts = p;
        c->cap_insts = nc;
    }
    ws_inst *in = &f->insts[f->ninsts];
    memset(in, 0, sizeof *in);
    in->guard = -1;
    in->block = -1;
    in->reconv_pc = -1;
    in->vec = 1;
    in->file = c->loc_file;
    in->line = c->loc_line;
    return in;
}

static int parse_guard(ws_pctx *c, ws_inst *in)
{
    if (!ws_pc_is(ws_pc_peek(c), "@"))
        return WS_OK;
    c->pos++;
    if (ws_pc_is(ws_pc_peek(c), "!")) {
        c->pos++;
        in->guard_neg = 1;
    }
    const ws_tok *t = ws_pc_next(c);
    if (!is_reg(c, t))
        return ws_pc_syntax(c, t, "a predicate register after '@'");
    return reg_index(c, t, &in->guard);
}

/* Opcode word: name, then dotted modifiers. The name is the longest row name that ends at
 * a dot or at the end ("cp.async.wait_group", "mbarrier.try_wait", "ld"). */
static int parse_opcode(ws_pctx *c, ws_inst *in, const ws_tok *t)
{
    const char *dot = NULL, *end = t->s + t->len;
    ws_opcode op = WS_OP__COUNT;
    for (const char *q = t->s;;) {
        const char *d = memchr(q, '.', (size_t)(end - q));
        ws_opcode o = ws_op_lookup(t->s, (int)((d ? d : end) - t->s));
        if (o != WS_OP__COUNT) {
            op = o;
            dot = d;
        }
        if (!d)
            break;
        q = d + 1;
    }
    if (op == WS_OP__COUNT)
        return ws_pc_fail(c, WS_ERR_UNSUPPORTED, t->line, "unsupported instruction '%.*s'",
                          t->len, t->s);
    in->op = (uint16_t)op;
    const char *p = dot;
    while (p && p < end) {
        const char *s = p + 1, *q = memchr(s, '.', (size_t)(end - s));
        int len = (int)((q ? q : end) - s);
        if (len == 0 || !apply_mod(in, s, len))
            return ws_pc_fail(c, WS_ERR_UNSUPPORTED, t->line, "unsupported instruction '%.*s'",
                              t->len, t->s);
        p = q;
    }
    if (!modifiers_ok(in))
        return ws_pc_fail(c, WS_ERR_UNSUPPORTED, t->line, "unsupported instruction '%.*s'",
                          t->len, t->s);
    if (ws_op_has(in->op, WS_OPF_ALIGNED) && in->subop == WS_SUB_SYNC)
        in->flags |= WS_F_ALIGNED; /* bar.sync is barrier.sync.aligned */
    return WS_OK;
}

/* A statement cut off by the end of the text is a truncated file, not a bad instruction. */
static int check_terminated(ws_pctx *c)
{
    for (int i = c->pos; i < c->nt; i++) {
        if (c->t[i].kind == WS_TK_EOF)
            return ws_pc_fail(c, WS_ERR_PTX, c->t[i].line, "unexpected end of file inside an "
                              "instruction (truncated PTX?)");
        if (ws_pc_is(&c->t[i], ";"))
            return WS_OK;
    }
    return WS_OK;
}

int ws_parse_instruction(ws_pctx *c)
{
    if (check_terminated(c))
        return c->err->code;
    ws_inst *in = new_inst(c);
    if (!in)
        return ws_error_set(c->err, WS_ERR_NOMEM, "out of memory");
    if (parse_guard(c, in))
        return c->err->code;
    const ws_tok *t = ws_pc_next(c);
    if (t->kind != WS_TK_WORD || t->s[0] == '%' || t->s[0] == '.')
        return ws_pc_syntax(c, t, "an instruction");
    in->ptx_line = t->line;
    if (parse_opcode(c, in, t))
        return c->err->code;
    if (ws_op_has(in->op, WS_OPF_CALL)) {
        if (parse_call(c, in))
            return c->err->code;
    } else {
        char name[96];
        snprintf(name, sizeof name, "%.*s", t->len, t->s);
        if (parse_operands(c, in) || check_arity(c, in, name, t->line))
            return c->err->code;
    }
    c->fn->ninsts++;
    return WS_OK;
}

/* PTX lets a function end without ret; the IR always ends in a terminator, so that the
 * executor never runs past the last instruction. */
int ws_finish_body(ws_pctx *c, int line)
{
    ws_function *f = c->fn;
    if (f->ninsts > 0) {
        const ws_inst *last = &f->insts[f->ninsts - 1];
        if (last->guard < 0 && ws_op_has(last->op, WS_OPF_TERM))
            return WS_OK;
    }
    ws_inst *in = new_inst(c);
    if (!in)
        return ws_error_set(c->err, WS_ERR_NOMEM, "out of memory");
    in->op = WS_OP_RET;
    in->ptx_line = line;
    f->ninsts++;
    return WS_OK;
}

int ws_resolve_labels(ws_pctx *c)
{
    ws_function *f = c->fn;
    for (int i = 0; i < c->nlfix; i++) {
        const ws_fixup *fx = &c->lfix[i];
        const ws_tok *t = &c->t[fx->tok];
        int pc = ws_strmap_get(&c->labels, t->s, t->len);
        if (pc < 0)
            return ws_pc_fail(c, WS_ERR_PTX, t->line, "undefined label '%.*s'", t->len, t->s);
        if (pc >= f->ninsts)
            return ws_pc_fail(c, WS_ERR_PTX, t->line, "label '%.*s' is at the end of function "
                              "'%s' (no instruction to branch to)", t->len, t->s, f->name);
        f->insts[fx->pc].src[fx->slot].imm = pc;
    }
    c->nlfix = 0;
    return WS_OK;
}
