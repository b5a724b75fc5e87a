/* sass_fast.c — the SASS executor's decoded instructions: once per worker, each instruction
 * gets its table handler, flags and guard in one compact record, and the plain forms that
 * dominate real kernels (LOP3.LUT, IMAD, IADD3, VIADD, MOV on registers, immediates, uniform
 * registers and unindexed constants, no predicate outputs or carries) get a specialized
 * handler that reads whole register rows and never branches per lane on an operand's kind.
 * Not here: any semantics the table's handlers (sass_alu.c, ...) do not already define. */
#include <stdlib.h>
#include <string.h>
#include "sim/sass_arith.h"

/* ---------------------------------------------------------------- operand views */

/* Source k of a plain form; 0 when its shape is not one the fast handlers take. neg/abs are
 * applied by the caller's rules (int_neg: two's complement `-`; `|.|` only on constants). */
static int fast_src(const ws_sass_run *r, const ws_sass_inst *in, int k, int allow_abs,
                    ws_sass_fsrc *s)
{
    const ws_sass_opnd *o = &in->o[k];
    memset(s, 0, sizeof *s);
    uint32_t v;
    switch (o->kind) {
    case WS_SO_R:
        if (o->not_ || o->abs)
            return 0;
        if (o->reg < 0 || o->reg >= r->nregs) { /* RZ or a row never written: zeros */
            s->kind = WS_FS_CONST;
            s->val = 0;
        } else {
            s->kind = WS_FS_ROW;
            s->reg = o->reg;
        }
        s->neg = o->neg ? WS_FULL_MASK : 0;
        return 1;
    case WS_SO_UR:
        if (o->not_ || o->abs)
            return 0;
        if (o->reg < 0 || o->reg >= WS_SASS_URZ) {
            s->kind = WS_FS_CONST;
            s->val = 0;
        } else {
            s->kind = WS_FS_UR;
            s->reg = o->reg;
        }
        s->neg = o->neg ? WS_FULL_MASK : 0;
        return 1;
    case WS_SO_IMM:
        v = (uint32_t)o->imm;
        break;
    case WS_SO_CBANK: {
        if ((o->reg >= 0 && o->reg != WS_SASS_RZ) || o->ureg >= 0 || o->bank < 0)
            return 0; /* indexed: read per lane by the table's handler */
        const uint8_t *p = ws_sass_cbank_ptr(r, o->bank, (uint64_t)o->imm, 4);
        v = 0;
        if (p)
            memcpy(&v, p, 4);
        break;
    }
    default:
        return 0;
    }
    /* a constant: fold `~`, `|.|` and `-` in the order the handlers apply them */
    if (o->not_)
        v = ~v;
    if (o->abs) {
        if (!allow_abs)
            return 0;
        v = (int32_t)v < 0 ? 0u - v : v;
    }
    if (o->neg)
        v = 0u - v;
    s->kind = WS_FS_CONST;
    s->val = v;
    return 1;
}

/* The 32 lanes of a source as a row: a register row in place, else broadcast into buf. */
static inline const uint32_t *row_of(const ws_sass_warp *w, const ws_sass_fsrc *s,
                                     uint32_t buf[WS_WARP])
{
    if (s->kind == WS_FS_ROW)
        return w->r + (size_t)s->reg * WS_WARP;
    uint32_t v = s->kind == WS_FS_UR ? w->ur[s->reg] : s->val;
    for (int l = 0; l < WS_WARP; l++)
        buf[l] = v;
    return buf;
}

/* Writes exec lanes of t to the destination row (dst < 0: RZ, discarded). */
static inline void put_row(ws_sass_warp *w, int dst, uint32_t exec, const uint32_t t[WS_WARP])
{
    if (dst < 0 || !exec)
        return;
    uint32_t *row = w->r + (size_t)dst * WS_WARP;
    if (exec == WS_FULL_MASK) {
        memcpy(row, t, WS_WARP * sizeof *t);
        return;
    }
    for (int l = 0; l < WS_WARP; l++) /* a blend over all lanes vectorizes */
        row[l] = ((exec >> l) & 1u) ? t[l] : row[l];
}

/* ---------------------------------------------------------------- plain forms */

/* Every lane is computed (inactive ones too: these forms cannot fault) into a local row,
 * which the compiler knows aliases nothing, then blended into the destination. */
#define FAST_BODY(nsrc, expr)                                                        \
    do {                                                                             \
        uint32_t ba_[WS_WARP], bb_[WS_WARP], bc_[WS_WARP], t[WS_WARP];               \
        const uint32_t *a = row_of(w, &d->s[0], ba_);                                \
        const uint32_t *b = nsrc > 1 ? row_of(w, &d->s[1], bb_) : a;                 \
        const uint32_t *c = nsrc > 2 ? row_of(w, &d->s[2], bc_) : a;                 \
        const uint32_t na = d->s[0].neg, nb = d->s[1].neg, nc = d->s[2].neg;         \
        (void)b; (void)c; (void)na; (void)nb; (void)nc;                              \
        for (int l = 0; l < WS_WARP; l++)                                            \
            t[l] = (expr);                                                           \
        put_row(w, d->dst, exec, t);                                                 \
    } while (0)

#define NEG(x, m) (((x) ^ (m)) - (m)) /* m = ~0: two's complement negation; 0: x */

static void f_imad(ws_sass_warp *w, const ws_sass_dinst *d, uint32_t exec)
{
    FAST_BODY(3, NEG(a[l], na) * NEG(b[l], nb) + NEG(c[l], nc));
}

static void f_iadd3(ws_sass_warp *w, const ws_sass_dinst *d, uint32_t exec)
{
    FAST_BODY(3, NEG(a[l], na) + NEG(b[l], nb) + NEG(c[l], nc));
}

static void f_viadd(ws_sass_warp *w, const ws_sass_dinst *d, uint32_t exec)
{
    FAST_BODY(2, NEG(a[l], na) + NEG(b[l], nb));
}

static void f_mov(ws_sass_warp *w, const ws_sass_dinst *d, uint32_t exec)
{
    FAST_BODY(1, NEG(a[l], na));
}

/* LOP3.LUT: the usual two-input tables directly, any other by Shannon expansion on a, b
 * and c with the table's bits as lane masks (k[i] = bit i ? ~0 : 0). */
static void f_lop3(ws_sass_warp *w, const ws_sass_dinst *d, uint32_t exec)
{
    switch (d->lut) {
    case 0xc0: FAST_BODY(3, a[l] & b[l]); return;
    case 0xfc: FAST_BODY(3, a[l] | b[l]); return;
    case 0x3c: FAST_BODY(3, a[l] ^ b[l]); return;
    case 0x96: FAST_BODY(3, a[l] ^ b[l] ^ c[l]); return;
    case 0xfe: FAST_BODY(3, a[l] | b[l] | c[l]); return;
    case 0x30: FAST_BODY(3, a[l] & ~b[l]); return;
    default: break;
    }
    uint32_t k[8];
    for (int i = 0; i < 8; i++)
        k[i] = ((d->lut >> i) & 1u) ? WS_FULL_MASK : 0;
    FAST_BODY(3, ((a[l] & ((b[l] & ((c[l] & k[7]) | (~c[l] & k[6]))) |
                           (~b[l] & ((c[l] & k[5]) | (~c[l] & k[4]))))) |
                  (~a[l] & ((b[l] & ((c[l] & k[3]) | (~c[l] & k[2]))) |
                            (~b[l] & ((c[l] & k[1]) | (~c[l] & k[0])))))));
}

/* ---------------------------------------------------------------- decoding */

static int count_preds(const ws_sass_inst *in)
{
    int n = 0;
    for (int k = 0; k < in->nopnd; k++)
        n += ws_sa_is_pred(in, k);
    return n;
}

/* The destination register of a plain form: -1 for RZ or a row never allocated, which
 * ws_sass_dst discards too. 0 when the operand is not a register. */
static int fast_dst(const ws_sass_run *r, const ws_sass_inst *in, int16_t *dst)
{
    const ws_sass_opnd *o = &in->o[0];
    if (o->kind != WS_SO_R)
        return 0;
    *dst = (int16_t)(o->reg < 0 || o->reg >= r->nregs ? -1 : o->reg);
    return 1;
}

/* A specialized handler for instruction `in` when it has a plain form, else NULL. Each
 * condition below is the one under which the table's handler takes the same path. */
static ws_sass_fast plain_form(const ws_sass_run *r, const ws_sass_inst *in, ws_sass_dinst *d)
{
    if (!fast_dst(r, in, &d->dst))
        return NULL;
    int np = count_preds(in);
    switch (in->op) {
    case WS_SOP_LOP3: /* LOP3.LUT Rd, a, b, c, lut, Pq: Pq only matters with a Pd */
        if (in->nopnd < 5 || in->o[4].kind != WS_SO_IMM)
            return NULL;
        d->lut = (uint8_t)(in->o[4].imm & 0xff);
        if (!fast_src(r, in, 1, 1, &d->s[0]) || !fast_src(r, in, 2, 1, &d->s[1]) ||
            !fast_src(r, in, 3, 1, &d->s[2]))
            return NULL;
        /* LOP3 ignores `-` and `|.|`: undo what fast_src folded or refuse */
        for (int k = 0; k < 3; k++)
            if (in->o[1 + k].neg || in->o[1 + k].abs)
                return NULL;
        return f_lop3;
    case WS_SOP_IMAD: case WS_SOP_IMUL: { /* 32-bit a * b + c, no carries */
        if (ws_sass_has(in, WS_SMOD_WIDE) || ws_sass_has(in, WS_SMOD_HI) ||
            ws_sass_has(in, WS_SMOD_X) || in->nopnd < 3 || ws_sa_is_pred(in, 1))
            return NULL;
        int has_c = 3 < in->nopnd && !ws_sa_is_pred(in, 3);
        if (!fast_src(r, in, 1, 1, &d->s[0]) || !fast_src(r, in, 2, 1, &d->s[1]))
            return NULL;
        if (has_c && !fast_src(r, in, 3, 1, &d->s[2]))
            return NULL;
        if (!has_c)
            d->s[2] = (ws_sass_fsrc){ .kind = WS_FS_CONST };
        return f_imad;
    }
    case WS_SOP_IADD3: /* no carry out, no carry in; `|.|` is not IADD3's; .64 in its handler */
        if (np || in->nopnd != 4 || ws_sass_has(in, WS_SMOD_B64))
            return NULL;
        for (int k = 1; k < 4; k++)
            if (in->o[k].abs)
                return NULL;
        if (!fast_src(r, in, 1, 0, &d->s[0]) || !fast_src(r, in, 2, 0, &d->s[1]) ||
            !fast_src(r, in, 3, 0, &d->s[2]))
            return NULL;
        return f_iadd3;
    case WS_SOP_VIADD: /* the 32-bit add; VIADD.16x2 runs in its handler */
        if (in->nopnd != 3 || ws_sass_has(in, WS_SMOD_X16X2) || !fast_src(r, in, 1, 1, &d->s[0]) ||
            !fast_src(r, in, 2, 1, &d->s[1]))
            return NULL;
        return f_viadd;
    case WS_SOP_MOV:
        if (in->nopnd != 2 || !fast_src(r, in, 1, 1, &d->s[0]))
            return NULL;
        return f_mov;
    default:
        return NULL;
    }
}

/* Whether the PTX has a __syncwarp (bar.warp.sync) at the source line of SASS instruction
 * `in`: ptxas lowers the __syncwarp of a warp it knows converged to a NOP there. */
static int ptx_syncwarp_at(const ws_sass_run *r, const ws_sass_inst *in)
{
    const ws_module *m = r->base.m;
    const ws_sass_kernel *k = r->k;
    if (!m || in->line <= 0)
        return 0;
    const char *path = in->file >= 0 && in->file < k->nfiles ? k->files[in->file] : NULL;
    for (int f = 0; f < m->nfuncs; f++)
        for (int i = 0; i < m->funcs[f].ninsts; i++) {
            const ws_inst *p = &m->funcs[f].insts[i];
            if (p->op != WS_OP_BAR || p->subop != WS_SUB_WARP_SYNC || p->line != in->line)
                continue;
            const char *ppath = p->file >= 0 && p->file < m->nfiles ? m->files[p->file] : NULL;
            if (!path || !ppath || !strcmp(path, ppath))
                return 1;
        }
    return 0;
}

int ws_sass_decode(const ws_sass_run *r, ws_sass_dinst **out)
{
    static const ws_sass_handler handlers[WS_SOP__COUNT] = {
#define WS_SOP(id, name, handler, cls, lat, flags, nmin, nmax, mods) ws_sass_x_##handler,
#include "sim/sass_ops.def"
#undef WS_SOP
    };
    const ws_sass_kernel *k = r->k;
    ws_sass_dinst *dec = calloc((size_t)k->ninsts + 1, sizeof *dec);
    if (!dec)
        return WS_ERR_NOMEM;
    for (int i = 0; i < k->ninsts; i++) {
        const ws_sass_inst *in = &k->insts[i];
        ws_sass_dinst *d = &dec[i];
        d->in = in;
        d->fn = handlers[in->op];
        if (in->op == WS_SOP_NOP && ptx_syncwarp_at(r, in))
            d->fn = ws_sass_x_syncwarp_nop;
        d->flags = ws_sass_ops[in->op].flags;
        d->guard = in->guard;
        d->guard_neg = in->guard_neg;
        d->guard_uniform = in->guard_uniform;
        d->fast = plain_form(r, in, d);
    }
    *out = dec;
    return 0;
}
