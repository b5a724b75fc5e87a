/* sass_opnd.c — operand access for the SASS handlers: registers (lane-major), uniform
 * registers and predicates, immediates, constant banks, relocated symbol addresses and
 * special registers, read as 32 or 64 bits per lane and written back under a lane mask.
 * Not here: what an instruction computes (sass_alu.c, sass_fp.c, ...). */
#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include "sim/sass_exec.h"

static const uint32_t zero_row[WS_WARP];

const uint32_t *ws_sass_rrow(const ws_sass_warp *w, int reg)
{
    if (reg < 0 || reg >= w->nregs)
        return zero_row;
    return w->r + (size_t)reg * WS_WARP;
}

static uint32_t *wrow(ws_sass_warp *w, int reg)
{
    if (reg < 0 || reg >= w->nregs) /* RZ, or a register the kernel never reads */
        return NULL;
    return w->r + (size_t)reg * WS_WARP;
}

static uint32_t ureg(const ws_sass_warp *w, int r)
{
    return r >= 0 && r < WS_SASS_URZ ? w->ur[r] : 0;
}

static uint32_t float_bits(double d)
{
    float f = (float)d;
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static uint64_t double_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

uint32_t ws_sass_fimm32(const ws_sass_inst *in, const ws_sass_opnd *o)
{
    assert(o->kind == WS_SO_FIMM);
    if (o->raw)
        return (uint32_t)o->imm;
    return ws_sass_ops[in->op].cls == WS_CLS_FP64 ? (uint32_t)(double_bits(o->fimm) >> 32)
                                                 : float_bits(o->fimm);
}

uint64_t ws_sass_fimm64(const ws_sass_opnd *o)
{
    assert(o->kind == WS_SO_FIMM);
    return o->raw ? (uint64_t)(uint32_t)o->imm << 32 : double_bits(o->fimm);
}

static uint64_t reloc_value(const ws_sass_warp *w, const ws_sass_opnd *o)
{
    const ws_sass_run *r = w->cta->run;
    uint64_t a = 0;
    if (o->sym >= 0 && o->sym < r->k->nsyms)
        a = r->k->syms[o->sym].offset >= 0 ? (uint64_t)r->k->syms[o->sym].offset
                                           : r->sym_addr[o->sym];
    return a + (uint64_t)o->imm;
}

static uint64_t cbank_value(const ws_sass_warp *w, const ws_sass_opnd *o, int lane, int bytes)
{
    uint64_t off = (uint64_t)o->imm;
    if (o->reg >= 0 && o->reg != WS_SASS_RZ)
        off += ws_sass_rrow(w, o->reg)[lane];
    if (o->ureg >= 0)
        off += ureg(w, o->ureg);
    const uint8_t *p = ws_sass_cbank_ptr(w->cta->run, o->bank, off, (uint64_t)bytes);
    uint64_t v = 0;
    if (p)
        memcpy(&v, p, (size_t)bytes);
    return v;
}

void ws_sass_src(ws_sass_warp *w, const ws_sass_inst *in, int k, uint32_t exec,
                 uint32_t v[WS_WARP])
{
    const ws_sass_opnd *o = &in->o[k];
    switch (o->kind) {
    /* registers and immediates fill all 32 lanes: a whole row copies faster than a
     * sparse mask is walked, and lanes outside exec are never written back */
    case WS_SO_R:
        memcpy(v, ws_sass_rrow(w, o->reg), WS_WARP * sizeof *v);
        break;
    case WS_SO_UR: {
        uint32_t u = ureg(w, o->reg);
        for (int l = 0; l < WS_WARP; l++)
            v[l] = u;
        break;
    }
    case WS_SO_IMM: {
        uint32_t u = (uint32_t)o->imm;
        for (int l = 0; l < WS_WARP; l++)
            v[l] = u;
        break;
    }
    case WS_SO_FIMM: {
        uint32_t u = ws_sass_fimm32(in, o);
        WS_LANES(l, exec, v[l] = u;);
        break;
    }
    case WS_SO_CBANK:
        WS_LANES(l, exec, v[l] = (uint32_t)cbank_value(w, o, l, 4););
        break;
    case WS_SO_RELOC: {
        uint64_t a = reloc_value(w, o);
        uint32_t u = o->hi ? (uint32_t)(a >> 32) : (uint32_t)a;
        WS_LANES(l, exec, v[l] = u;);
        break;
    }
    case WS_SO_SREG:
        WS_LANES(l, exec, v[l] = ws_sass_sreg(w, o->sreg, l););
        break;
    case WS_SO_P: case WS_SO_UP: {
        uint32_t m = ws_sass_psrc(w, in, k);
        WS_LANES(l, exec, v[l] = (m >> l) & 1u;);
        return;
    }
    default:
        WS_LANES(l, exec, v[l] = 0;);
        return;
    }
    if (o->not_)
        for (int l = 0; l < WS_WARP; l++)
            v[l] = ~v[l];
}

void ws_sass_src64(ws_sass_warp *w, const ws_sass_inst *in, int k, uint32_t exec,
                   uint64_t v[WS_WARP])
{
    const ws_sass_opnd *o = &in->o[k];
    switch (o->kind) {
    case WS_SO_R: {
        const uint32_t *lo = ws_sass_rrow(w, o->reg);
        const uint32_t *hi = ws_sass_rrow(w, o->reg == WS_SASS_RZ ? o->reg : o->reg + 1);
        WS_LANES(l, exec, v[l] = (uint64_t)lo[l] | (uint64_t)hi[l] << 32;);
        break;
    }
    case WS_SO_UR: {
        uint64_t u = (uint64_t)ureg(w, o->reg) |
                     (uint64_t)ureg(w, o->reg == WS_SASS_URZ ? o->reg : o->reg + 1) << 32;
        WS_LANES(l, exec, v[l] = u;);
        break;
    }
    case WS_SO_IMM: {
        uint64_t u = (uint64_t)o->imm;
        WS_LANES(l, exec, v[l] = u;);
        break;
    }
    case WS_SO_FIMM: {
        uint64_t u = ws_sass_fimm64(o);
        WS_LANES(l, exec, v[l] = u;);
        break;
    }
    case WS_SO_CBANK:
        WS_LANES(l, exec, v[l] = cbank_value(w, o, l, 8););
        break;
    case WS_SO_RELOC: {
        uint64_t a = reloc_value(w, o);
        WS_LANES(l, exec, v[l] = a;);
        break;
    }
    default: {
        uint32_t t[WS_WARP];
        ws_sass_src(w, in, k, exec, t);
        WS_LANES(l, exec, v[l] = t[l];);
        return;
    }
    }
    if (o->not_)
        WS_LANES(l, exec, v[l] = ~v[l];);
}

void ws_sass_srcf(ws_sass_warp *w, const ws_sass_inst *in, int k, uint32_t exec,
                  float v[WS_WARP])
{
    const ws_sass_opnd *o = &in->o[k];
    if (o->kind == WS_SO_FIMM) {
        float f = (float)o->fimm;
        if (o->raw) { /* a NaN: its bits as the instruction holds them */
            uint32_t u = ws_sass_fimm32(in, o);
            memcpy(&f, &u, 4);
        }
        WS_LANES(l, exec, v[l] = f;);
    } else {
        uint32_t t[WS_WARP];
        ws_sass_src(w, in, k, exec, t);
        WS_LANES(l, exec, memcpy(&v[l], &t[l], 4););
    }
    if (o->abs)
        WS_LANES(l, exec, v[l] = fabsf(v[l]););
    if (o->neg)
        WS_LANES(l, exec, v[l] = -v[l];);
}

void ws_sass_srcd(ws_sass_warp *w, const ws_sass_inst *in, int k, uint32_t exec,
                  double v[WS_WARP])
{
    const ws_sass_opnd *o = &in->o[k];
    if (o->kind == WS_SO_FIMM) {
        uint64_t u = ws_sass_fimm64(o);
        double d;
        memcpy(&d, &u, 8);
        WS_LANES(l, exec, v[l] = d;);
    } else {
        uint64_t t[WS_WARP];
        ws_sass_src64(w, in, k, exec, t);
        WS_LANES(l, exec, memcpy(&v[l], &t[l], 8););
    }
    if (o->abs)
        WS_LANES(l, exec, v[l] = fabs(v[l]););
    if (o->neg)
        WS_LANES(l, exec, v[l] = -v[l];);
}

void ws_sass_int_mods(const ws_sass_inst *in, int k, uint32_t exec, uint32_t v[WS_WARP])
{
    const ws_sass_opnd *o = &in->o[k];
    if (o->abs)
        WS_LANES(l, exec, v[l] = (uint32_t)((int32_t)v[l] < 0 ? -v[l] : v[l]););
    if (o->neg)
        WS_LANES(l, exec, v[l] = (uint32_t)-v[l];);
}

static uint32_t half_mods(uint32_t h, int abs, int neg)
{
    if (abs && (h & 0x8000u))
        h = -h;
    return (neg ? -h : h) & 0xffffu;
}

void ws_sass_int_mods16x2(const ws_sass_inst *in, int k, uint32_t exec, uint32_t v[WS_WARP])
{
    const ws_sass_opnd *o = &in->o[k];
    if (o->abs || o->neg)
        WS_LANES(l, exec, v[l] = half_mods(v[l] & 0xffffu, o->abs, o->neg) |
                                 half_mods(v[l] >> 16, o->abs, o->neg) << 16;);
}

uint32_t ws_sass_psrc(const ws_sass_warp *w, const ws_sass_inst *in, int k)
{
    const ws_sass_opnd *o = &in->o[k];
    uint32_t m;
    if (o->kind == WS_SO_P)
        m = o->reg >= 0 && o->reg < WS_SASS_PT ? w->p[o->reg] : WS_FULL_MASK;
    else if (o->kind == WS_SO_UP)
        m = (o->reg >= WS_SASS_PT || ((w->up >> o->reg) & 1u)) ? WS_FULL_MASK : 0;
    else
        m = 0;
    return o->not_ ? ~m : m;
}

void ws_sass_dst(ws_sass_warp *w, const ws_sass_inst *in, int k, uint32_t exec,
                 const uint32_t v[WS_WARP])
{
    const ws_sass_opnd *o = &in->o[k];
    if (!exec)
        return;
    if (o->kind == WS_SO_UR) {
        if (o->reg >= 0 && o->reg < WS_SASS_URZ)
            w->ur[o->reg] = v[__builtin_ctz(exec)];
        return;
    }
    uint32_t *row = o->kind == WS_SO_R ? wrow(w, o->reg) : NULL;
    if (!row)
        return;
    if (exec == WS_FULL_MASK) {
        memcpy(row, v, WS_WARP * sizeof *v);
        return;
    }
    for (int l = 0; l < WS_WARP; l++) /* a blend over all lanes vectorizes */
        row[l] = ((exec >> l) & 1u) ? v[l] : row[l];
}

void ws_sass_dst64(ws_sass_warp *w, const ws_sass_inst *in, int k, uint32_t exec,
                   const uint64_t v[WS_WARP])
{
    const ws_sass_opnd *o = &in->o[k];
    if (!exec)
        return;
    if (o->kind == WS_SO_UR) {
        uint64_t u = v[__builtin_ctz(exec)];
        if (o->reg >= 0 && o->reg < WS_SASS_URZ)
            w->ur[o->reg] = (uint32_t)u;
        if (o->reg + 1 < WS_SASS_URZ)
            w->ur[o->reg + 1] = (uint32_t)(u >> 32);
        return;
    }
    if (o->kind != WS_SO_R || o->reg == WS_SASS_RZ)
        return;
    uint32_t *lo = wrow(w, o->reg), *hi = wrow(w, o->reg + 1);
    if (lo)
        WS_LANES(l, exec, lo[l] = (uint32_t)v[l];);
    if (hi)
        WS_LANES(l, exec, hi[l] = (uint32_t)(v[l] >> 32););
}

void ws_sass_pdst(ws_sass_warp *w, const ws_sass_inst *in, int k, uint32_t exec, uint32_t m)
{
    const ws_sass_opnd *o = &in->o[k];
    if (!exec || o->reg < 0 || o->reg >= WS_SASS_PT)
        return;
    if (o->kind == WS_SO_P) {
        w->p[o->reg] = (w->p[o->reg] & ~exec) | (m & exec);
    } else if (o->kind == WS_SO_UP) {
        uint8_t bit = (uint8_t)(1u << o->reg);
        w->up = (uint8_t)(((m >> __builtin_ctz(exec)) & 1u) ? (w->up | bit) : (w->up & ~bit));
    }
}

uint32_t ws_sass_sreg(const ws_sass_warp *w, int sreg, int lane)
{
    const ws_sass_cta *c = w->cta;
    const ws_run *r = &c->run->base;
    uint32_t t = (uint32_t)w->id * WS_WARP + (uint32_t)lane;
    uint32_t tid[3] = { t % r->block[0], (t / r->block[0]) % r->block[1],
                        t / (r->block[0] * r->block[1]) };
    switch (sreg) {
    case WS_SSR_TID_X: return tid[0];
    case WS_SSR_TID_Y: return tid[1];
    case WS_SSR_TID_Z: return tid[2];
    case WS_SSR_TID: return tid[0] | tid[1] << 16 | tid[2] << 26;
    case WS_SSR_CTAID_X: return c->ctaid[0];
    case WS_SSR_CTAID_Y: return c->ctaid[1];
    case WS_SSR_CTAID_Z: return c->ctaid[2];
    case WS_SSR_LANEID: return (uint32_t)lane;
    case WS_SSR_WARPID: return (uint32_t)w->id;
    case WS_SSR_NWARPID: return (uint32_t)r->max_warps;
    case WS_SSR_VIRTCFG: return (uint32_t)r->max_warps << 8; /* ptxas reads %nwarpid from
                                                                bits 8-15 (sm_90) */
    case WS_SSR_SMID: case WS_SSR_VIRTUALSMID: return ws_run_smid(r, c->id);
    case WS_SSR_NSMID: return (uint32_t)r->sms;
    case WS_SSR_GRIDID: return 1;
    case WS_SSR_LANEMASK_EQ: case WS_SSR_EQMASK: return 1u << lane;
    case WS_SSR_LANEMASK_LT: case WS_SSR_LTMASK: return (1u << lane) - 1;
    case WS_SSR_LANEMASK_LE: case WS_SSR_LEMASK: return (uint32_t)((2ull << lane) - 1);
    case WS_SSR_LANEMASK_GT: case WS_SSR_GTMASK: return ~(uint32_t)((2ull << lane) - 1);
    case WS_SSR_LANEMASK_GE: case WS_SSR_GEMASK: return ~((1u << lane) - 1);
    case WS_SSR_CLOCKLO: case WS_SSR_CLOCK64: return (uint32_t)w->issued;
    case WS_SSR_CLOCKHI: return (uint32_t)(w->issued >> 32);
    case WS_SSR_GLOBALTIMERLO: case WS_SSR_GLOBALTIMER: return (uint32_t)(w->issued * 4);
    case WS_SSR_GLOBALTIMERHI: return (uint32_t)((w->issued * 4) >> 32);
    case WS_SSR_CGACTAID: return 0;
    case WS_SSR_SWINHI: return (uint32_t)(WS_SHARED_WINDOW >> 32);
    case WS_SSR_SWINLO: return (uint32_t)WS_SHARED_WINDOW;
    default: return 0;
    }
}

int ws_sass_fault(ws_sass_warp *w, const ws_sass_inst *in, int lane, uint64_t addr,
                  ws_code code, const char *fmt, ...)
{
    ws_sass_worker *wk = w->cta->wk;
    ws_error *e = &wk->base.err;
    const ws_sass_run *r = w->cta->run;
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char where[300] = "";
    if (in && in->file >= 0 && in->file < r->k->nfiles && r->k->files[in->file]) {
        const char *src = r->k->files[in->file];
        const char *base = strrchr(src, '/');
        snprintf(where, sizeof where, " (%s:%d)", base ? base + 1 : src, in->line);
    }
    ws_error_at(e, code, "", 0, "%s at SASS 0x%04x %s%s", msg, in ? in->offset : 0,
                in ? in->name : "", where);
    snprintf(e->kernel, sizeof e->kernel, "%.*s", (int)sizeof e->kernel - 1, r->k->name);
    e->has_thread = 1;
    memcpy(e->cta, w->cta->ctaid, sizeof e->cta);
    e->warp = w->id;
    e->lane = lane;
    e->pc = in ? (int)in->offset : 0;
    e->address = addr;
    wk->base.failed = 1;
    return code;
}
