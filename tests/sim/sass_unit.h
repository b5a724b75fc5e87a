/* sass_unit.h — helpers for the SASS handler unit tests: a bare warp (registers, predicates,
 * uniform registers; no CTA), instructions built the way the SASS parser builds them from
 * an nvdisasm line (opcode and modifiers looked up in the tables, operands as ws_sass_opnd),
 * and a call of the opcode's handler from sass_ops.def. */
#ifndef WS_TEST_SASS_UNIT_H
#define WS_TEST_SASS_UNIT_H

#include <stdarg.h>
#include <string.h>
#include "sim/sass_exec.h"
#include "tests/check.h"

#define SU_NREGS 64

static uint32_t su_regs[SU_NREGS * WS_WARP];
static ws_sass_warp su_w;

static const ws_sass_handler su_handlers[WS_SOP__COUNT] = {
#define WS_SOP(id, name, handler, cls, lat, flags, nmin, nmax, mods) [WS_SOP_##id] = ws_sass_x_##handler,
#include "sim/sass_ops.def"
#undef WS_SOP
};

static inline void su_reset(void)
{
    memset(&su_w, 0, sizeof su_w);
    memset(su_regs, 0, sizeof su_regs);
    su_w.r = su_regs;
    su_w.nregs = SU_NREGS;
    su_w.valid = WS_FULL_MASK;
    su_w.p[WS_SASS_PT] = WS_FULL_MASK;
    su_w.up = 0x80;
}

static inline uint32_t *su_r(int reg) { return su_regs + (size_t)reg * WS_WARP; }

/* Register reg = v in every lane. */
static inline void su_set(int reg, uint32_t v)
{
    for (int l = 0; l < WS_WARP; l++)
        su_r(reg)[l] = v;
}

static inline void su_setf(int reg, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    su_set(reg, u);
}

static inline void su_set64(int reg, uint64_t v)
{
    su_set(reg, (uint32_t)v);
    su_set(reg + 1, (uint32_t)(v >> 32));
}

static inline void su_setd(int reg, double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    su_set64(reg, u);
}

static inline uint64_t su_get64(int reg, int lane)
{
    return (uint64_t)su_r(reg)[lane] | (uint64_t)su_r(reg + 1)[lane] << 32;
}

static inline float su_getf(int reg, int lane)
{
    float f;
    memcpy(&f, &su_r(reg)[lane], 4);
    return f;
}

static inline double su_getd(int reg, int lane)
{
    uint64_t u = su_get64(reg, lane);
    double d;
    memcpy(&d, &u, 8);
    return d;
}

static inline float su_f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t su_u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline uint64_t su_ud(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

/* ---- operands, as ws_sass_parse_opnd makes them */
static inline ws_sass_opnd su_o(int kind, int reg)
{
    ws_sass_opnd o;
    memset(&o, 0, sizeof o);
    o.kind = (uint8_t)kind;
    o.reg = (int16_t)reg;
    o.ureg = -1;
    o.target = o.sym = -1;
    return o;
}
static inline ws_sass_opnd R(int r) { return su_o(WS_SO_R, r); }
static inline ws_sass_opnd NEG(ws_sass_opnd o) { o.neg = 1; return o; }
static inline ws_sass_opnd NOT(ws_sass_opnd o) { o.not_ = 1; return o; }
static inline ws_sass_opnd ABS(ws_sass_opnd o) { o.abs = 1; return o; }
static inline ws_sass_opnd SEL(ws_sass_opnd o, int sel) { o.sel = (uint8_t)sel; return o; }
static inline ws_sass_opnd P(int p) { return su_o(WS_SO_P, p); }
static inline ws_sass_opnd UR(int r) { return su_o(WS_SO_UR, r); }
static inline ws_sass_opnd UP(int p) { return su_o(WS_SO_UP, p); }
static inline ws_sass_opnd IMM(int64_t v) { ws_sass_opnd o = su_o(WS_SO_IMM, -1); o.imm = v; return o; }
static inline ws_sass_opnd FIMM(double d) { ws_sass_opnd o = su_o(WS_SO_FIMM, -1); o.fimm = d; return o; }
#define RZ R(WS_SASS_RZ)
#define URZ UR(WS_SASS_URZ)
#define PT P(WS_SASS_PT)
#define UPT UP(WS_SASS_PT)
#define H0_H0 3
#define H1_H1 4

/* The instruction "NAME.MOD.MOD o0, o1, ..." as the parser fills it. */
static inline ws_sass_inst su_inst(const char *name, int n, ...)
{
    ws_sass_inst in;
    memset(&in, 0, sizeof in);
    snprintf(in.name, sizeof in.name, "%s", name);
    in.cmp = in.boolop = in.rnd = in.dtype = in.stype = 0xff;
    in.guard = -1;
    const char *dot = strchr(name, '.');
    int op = ws_sass_op_find(name, dot ? (size_t)(dot - name) : strlen(name));
    CHECK(op >= 0, "opcode of %s", name);
    in.op = (uint16_t)(op < 0 ? 0 : op);
    while (dot) {
        const char *m = dot + 1, *next = strchr(m, '.');
        int mod = ws_sass_mod_find(m, next ? (size_t)(next - m) : strlen(m));
        /* a modifier the table does not know (PACK_AB) is kept in the name only */
        if (mod >= 0) {
            in.mods[mod >> 6] |= 1ull << (mod & 63);
            uint8_t *f = NULL;
            switch (ws_sass_mod_kind(mod)) {
            case WS_SMODK_CMP: f = &in.cmp; break;
            case WS_SMODK_BOOL: f = &in.boolop; break;
            case WS_SMODK_RND: f = &in.rnd; break;
            case WS_SMODK_TYPE: f = in.dtype == 0xff ? &in.dtype : &in.stype; break;
            default: break;
            }
            if (f && *f == 0xff)
                *f = (uint8_t)mod;
        }
        dot = next;
    }
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n && i < WS_SASS_MAXOPND; i++)
        in.o[i] = va_arg(ap, ws_sass_opnd);
    va_end(ap);
    in.nopnd = (uint8_t)n;
    return in;
}

/* Runs `in` on the lanes of `exec`; returns the handler's code and its effect in *fx. */
static inline int su_exec_fx(const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    memset(fx, 0, sizeof *fx);
    fx->next_pc = -1;
    return su_handlers[in->op](&su_w, in, exec, fx);
}

/* Runs `in` on the lanes of `exec`; returns the handler's code. */
static inline int su_exec(const ws_sass_inst *in, uint32_t exec)
{
    ws_sass_fx fx;
    return su_exec_fx(in, exec, &fx);
}

/* Count the operands of a literal list. */
#define SU_NARGS(...) (int)(sizeof((ws_sass_opnd[]){__VA_ARGS__}) / sizeof(ws_sass_opnd))
/* RUN("IADD3", R(4), P(0), R(2), R(3), RZ): one instruction on all 32 lanes. */
#define RUN(name, ...)                                                              \
    do {                                                                            \
        ws_sass_inst su_in_ = su_inst(name, SU_NARGS(__VA_ARGS__), __VA_ARGS__);     \
        CHECK(su_exec(&su_in_, WS_FULL_MASK) == 0, "%s ran", name);                  \
    } while (0)

/* A deterministic per-lane test value (splitmix64). */
static inline uint64_t su_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

#endif
