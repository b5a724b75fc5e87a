/* exec_mem.c — memory instructions of the SIMT executor: address resolution (param,
 * global/const through the allocation table, shared and local windows, generic
 * addressing), ld/st incl. vectors, atom/red with lanes serialized in lane order, cvta.
 * Every bad access is a located WS_ERR_SIM, never a host crash. */
#include <stdlib.h>
#include "sim/exec.h"

/* Address of a variable in its own state space (shared: window offset; local: offset in
 * the lane's local area; global/const: device address; param scratch: per-lane offset). */
uint64_t ws_x_symbol_address(const ws_warp *w, int32_t sym, int space_of_inst)
{
    const ws_run *r = w->cta->run;
    if (ws_sym_is_global(sym))
        return r->global_addr[ws_sym_global_index(sym)];
    if (sym < 0)
        return 0;
    const ws_frame *f = &w->frames[w->nframes - 1];
    const ws_var *v = &r->m->funcs[f->fn].locals[sym];
    switch (v->space) {
    case WS_SPACE_LOCAL: return f->local_base + v->offset;
    case WS_SPACE_PARAM: return r->fi[f->fn].param_block + v->offset;
    default: return v->offset;
    }
}

static int symbol_space(const ws_warp *w, int32_t sym)
{
    const ws_run *r = w->cta->run;
    if (ws_sym_is_global(sym))
        return r->m->globals[ws_sym_global_index(sym)].space;
    if (sym < 0)
        return WS_SPACE_GENERIC;
    return r->m->funcs[w->frames[w->nframes - 1].fn].locals[sym].space;
}

/* Effective addresses of the memory operand src[k] for the executing lanes, in `space`
 * (.shared addresses are 32-bit). */
void ws_x_addresses(ws_warp *w, const ws_inst *in, int k, int space, uint32_t exec,
                    uint64_t *addr)
{
    const ws_operand *o = &in->src[k];
    assert(ws_op_has(in->op, WS_OPF_MEM) && o->kind == WS_O_ADDR); /* ir.h: src[0] = ADDR */
    uint64_t off = (uint64_t)o->imm;
    if (o->sym != -1) {
        off += ws_x_symbol_address(w, o->sym, space);
        if (space == WS_SPACE_GENERIC) {
            int sp = symbol_space(w, o->sym);
            off += sp == WS_SPACE_SHARED ? WS_SHARED_WINDOW
                 : sp == WS_SPACE_LOCAL ? WS_LOCAL_WINDOW : 0;
        }
    }
    if (o->reg >= 0) {
        const uint64_t *b = ws_x_reg(w, o->reg);
        WS_LANES(l, exec, addr[l] = b[l] + off;);
    } else {
        WS_LANES(l, exec, addr[l] = off;);
    }
    /* .shared addresses are 32-bit: a base below zero plus an offset wraps at 2^32. */
    if (space == WS_SPACE_SHARED)
        WS_LANES(l, exec, addr[l] = (uint32_t)addr[l];);
}

static void effective_addresses(ws_warp *w, const ws_inst *in, uint32_t exec, uint64_t *addr)
{
    ws_x_addresses(w, in, 0, in->space, exec, addr);
}

static const char *space_name(int sp)
{
    static const char *const n[] = {"generic", "global", "shared", "local", "const", "param",
                                    "shared::cluster"};
    return sp >= 0 && sp < 7 ? n[sp] : "?";
}

static int find_alloc(ws_worker *wk, uint64_t a, uint64_t n)
{
    const ws_run *r = wk->run;
    const ws_alloc *c = &r->allocs[wk->last_alloc];
    if (r->nallocs && a >= c->base && a - c->base + n <= c->size)
        return wk->last_alloc;
    int lo = 0, hi = r->nallocs - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        const ws_alloc *m = &r->allocs[mid];
        if (a < m->base)
            hi = mid - 1;
        else if (a >= m->base + m->size)
            lo = mid + 1;
        else {
            if (a - m->base + n > m->size)
                return -1;
            wk->last_alloc = mid;
            return mid;
        }
    }
    return -1;
}

/* "4 bytes past the end of 'out' [0x..., +240)" or "1024 bytes before the start of 'J'
 * [...]" for a fault message: the nearest allocation on either side, with the direction. */
static void describe_near(const ws_run *r, uint64_t addr, uint64_t n, int is_write, char *buf,
                          size_t len)
{
    const ws_alloc *below = NULL, *above = NULL;
    for (int i = 0; i < r->nallocs; i++) {
        const ws_alloc *a = &r->allocs[i];
        if (a->base <= addr && (!below || a->base > below->base))
            below = a;
        if (a->base > addr && (!above || a->base < above->base))
            above = a;
    }
    if (below && addr < below->base + below->size && is_write && below->is_const) {
        snprintf(buf, len, "store to constant '%s'", below->name);
        return;
    }
    /* gaps between the access and each neighbour (0 when it straddles the boundary) */
    uint64_t gap_past = UINT64_MAX, gap_before = UINT64_MAX;
    if (below)
        gap_past = addr >= below->base + below->size ? addr - below->base - below->size : 0;
    if (above)
        gap_before = addr + n <= above->base ? above->base - addr - n : 0;
    if (gap_past <= gap_before && gap_past < WS_GLOBAL_GAP)
        snprintf(buf, len, "%llu bytes past the end of '%s' [0x%llx, +%llu)",
                 (unsigned long long)(addr + n - below->base - below->size), below->name,
                 (unsigned long long)below->base, (unsigned long long)below->size);
    else if (gap_before < gap_past && gap_before < WS_GLOBAL_GAP)
        snprintf(buf, len, "%llu bytes before the start of '%s' [0x%llx, +%llu)",
                 (unsigned long long)(above->base - addr), above->name,
                 (unsigned long long)above->base, (unsigned long long)above->size);
    else
        snprintf(buf, len, "outside every allocation");
}

/* Host pointer for `n` bytes at `addr` in space `sp` for `lane`; NULL with a fault set.
 * *shadow gets the race shadow pair of the first word (NULL when not tracked). */
static uint8_t *resolve(ws_warp *w, const ws_inst *in, int sp, uint64_t addr, uint64_t n,
                        int lane, int is_write, uint64_t **shadow)
{
    ws_run *r = w->cta->run;
    ws_cta *c = w->cta;
    *shadow = NULL;
    if (n > 1 && (addr & (n - 1)) && (n & (n - 1)) == 0) {
        ws_x_fault(w, in, lane, addr, WS_ERR_SIM, "misaligned %s %s of %d bytes at 0x%llx",
                   space_name(sp), is_write ? "store" : "load", (int)n,
                   (unsigned long long)addr);
        return NULL;
    }
    if (sp == WS_SPACE_GENERIC)
        sp = ws_generic_space(&addr);
    switch (sp) {
    case WS_SPACE_SHARED: case WS_SPACE_SHARED_CLUSTER:
        if (addr + n <= c->shared_bytes && addr + n >= addr) {
            if (c->shadow_shared)
                *shadow = c->shadow_shared + (addr / 4) * 2;
            return c->shared + addr;
        }
        break;
    case WS_SPACE_LOCAL:
        if (addr + n <= r->local_bytes && addr + n >= addr)
            return w->local + (size_t)lane * r->local_bytes + addr;
        break;
    case WS_SPACE_PARAM: {
        const ws_frame *f = &w->frames[w->nframes - 1];
        uint64_t stride = r->fi[f->fn].param_bytes;
        if (addr + n <= stride && addr + n >= addr)
            return f->param + (size_t)lane * stride + addr;
        break;
    }
    default: { /* global, const */
        int i = find_alloc(c->wk, addr, n);
        if (i >= 0) {
            const ws_alloc *a = &r->allocs[i];
            if (is_write && a->is_const)
                break;
            if (r->shadow_global && r->shadow_global[i])
                *shadow = r->shadow_global[i] + ((addr - a->base) / 4) * 2;
            return a->host + (addr - a->base);
        }
        break;
    }
    }
    char near[160] = "outside every allocation";
    if (sp == WS_SPACE_GLOBAL || sp == WS_SPACE_CONST)
        describe_near(r, addr, n, is_write, near, sizeof near);
    else if (sp == WS_SPACE_SHARED)
        snprintf(near, sizeof near, "shared memory is %llu bytes",
                 (unsigned long long)c->shared_bytes);
    else if (sp == WS_SPACE_LOCAL)
        snprintf(near, sizeof near, "local memory is %llu bytes per thread",
                 (unsigned long long)r->local_bytes);
    ws_x_fault(w, in, lane, addr, WS_ERR_SIM, "out-of-bounds %s %s of %d bytes at 0x%llx (%s)",
               space_name(sp), is_write ? "store" : "load", (int)n, (unsigned long long)addr,
               near);
    return NULL;
}

const uint8_t *ws_x_host(ws_warp *w, const ws_inst *in, int space, uint64_t addr, uint64_t n,
                         int lane)
{
    uint64_t *shadow;
    return resolve(w, in, space, addr, n, lane, 0, &shadow);
}

uint8_t *ws_x_host_rw(ws_warp *w, const ws_inst *in, int space, uint64_t addr, uint64_t n,
                      int lane)
{
    uint64_t *shadow;
    return resolve(w, in, space, addr, n, lane, 1, &shadow);
}

static int generic_space(uint64_t a)
{
    if (a >= WS_SHARED_WINDOW && a < WS_SHARED_WINDOW + WS_WINDOW_SIZE)
        return WS_SPACE_SHARED;
    if (a >= WS_LOCAL_WINDOW && a < WS_LOCAL_WINDOW + WS_WINDOW_SIZE)
        return WS_SPACE_LOCAL;
    return WS_SPACE_GLOBAL;
}

/* The access for the effect record: fx->addr is filled; its space and width. */
static void note_access(ws_effect *fx, const ws_inst *in, uint32_t exec, int bytes)
{
    fx->has_addr = 1;
    fx->bytes = (uint8_t)bytes;
    fx->space = in->space != WS_SPACE_GENERIC ? in->space
                : exec ? (uint8_t)generic_space(fx->addr[__builtin_ctz(exec)])
                       : WS_SPACE_GLOBAL;
}

static int tracked(int sp) { return sp == WS_SPACE_GLOBAL || sp == WS_SPACE_SHARED ||
                                    sp == WS_SPACE_GENERIC; }

static int elem_bytes(const ws_inst *in)
{
    int b = ws_ptype_bits((ws_ptype)in->type) / 8;
    return b > 0 ? b : 1;
}

static uint64_t load_elem(const uint8_t *p, int n, int is_signed)
{
    switch (n) {
    case 1: { uint8_t v = *p; return is_signed ? (uint64_t)(int64_t)(int8_t)v : v; }
    case 2: { uint16_t v; memcpy(&v, p, 2); return is_signed ? (uint64_t)(int64_t)(int16_t)v : v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return is_signed ? (uint64_t)(int64_t)(int32_t)v : v; }
    default: { uint64_t v; memcpy(&v, p, 8); return v; }
    }
}

static int do_ld(ws_warp *w, const ws_inst *in, uint32_t exec, ws_effect *fx)
{
    int esz = elem_bytes(in), vec = in->vec ? in->vec : 1, n = esz * vec;
    int sgn = ws_ptype_is_signed((ws_ptype)in->type);
    uint64_t *addr = fx->addr;
    effective_addresses(w, in, exec, addr);
    const ws_operand *d = &in->dst[0];
    uint64_t *rows[4] = {0};
    for (int e = 0; e < vec; e++) {
        int reg = d->kind == WS_O_VEC ? d->vregs[e] : (e == 0 ? d->reg : -1);
        rows[e] = reg >= 0 ? ws_x_reg(w, reg) : NULL;
    }
    int races = w->cta->run->opt->detect_races && tracked(in->space);
    WS_LANES(l, exec, {
        uint64_t *sh;
        const uint8_t *p = resolve(w, in, in->space, addr[l], (uint64_t)n, l, 0, &sh);
        if (!p)
            return WS_ERR_SIM;
        for (int e = 0; e < vec; e++)
            if (rows[e])
                rows[e][l] = load_elem(p + e * esz, esz, sgn);
        if (races && sh)
            ws_race_access(w, in, in->space, addr[l], n, l, 0, 0, sh);
    });
    note_access(fx, in, exec, n);
    return 0;
}

/* Lock tracking (race.c's ws_race_lock) for a lane's write to global memory. */
static void lock_note(ws_warp *w, const ws_inst *in, int lane, uint64_t addr, int swap,
                      uint64_t old, uint64_t nv)
{
    int sp = in->space;
    if (sp == WS_SPACE_GENERIC)
        sp = ws_generic_space(&addr);
    if (sp == WS_SPACE_GLOBAL && ws_race_lock(&w->held[lane], addr, swap, old, nv))
        ws_race_lock_end(w->cta->warps[0].held, sizeof *w, w->cta->nwarps, addr);
}

static int do_st(ws_warp *w, const ws_inst *in, uint32_t exec, ws_effect *fx)
{
    int esz = elem_bytes(in), vec = in->vec ? in->vec : 1, n = esz * vec;
    uint64_t *addr = fx->addr;
    effective_addresses(w, in, exec, addr);
    const ws_operand *v = &in->src[1];
    const uint64_t *rows[4] = {0};
    for (int e = 0; e < vec; e++) {
        if (v->kind == WS_O_VEC)
            rows[e] = v->vregs[e] >= 0 ? ws_x_reg(w, v->vregs[e]) : w->scratch[1];
        else
            rows[e] = ws_x_src(w, in, 1, w->scratch[1]);
    }
    if (v->kind == WS_O_VEC)
        memset(w->scratch[1], 0, sizeof w->scratch[1]);
    int races = w->cta->run->opt->detect_races && tracked(in->space);
    WS_LANES(l, exec, {
        uint64_t *sh;
        uint8_t *p = resolve(w, in, in->space, addr[l], (uint64_t)n, l, 1, &sh);
        if (!p)
            return WS_ERR_SIM;
        for (int e = 0; e < vec; e++)
            memcpy(p + e * esz, &rows[e][l], (size_t)esz); /* little-endian host */
        if (races && sh) {
            ws_race_access(w, in, in->space, addr[l], n, l, 1, 0, sh);
            lock_note(w, in, l, addr[l], 0, 0, 0); /* the holder's store to its lock */
        }
    });
    note_access(fx, in, exec, n);
    return 0;
}

static uint64_t atom_value(const ws_inst *in, uint64_t old, uint64_t b, uint64_t c, int bits)
{
    ws_ptype t = (ws_ptype)in->type;
    int sgn = ws_ptype_is_signed(t);
    uint64_t o = ws_trunc(old, bits), bb = ws_trunc(b, bits);
    switch (in->subop) {
    case WS_SUB_ADD:
        if (t == WS_P_F16 || t == WS_P_F16X2 || t == WS_P_BF16 || t == WS_P_BF16X2) {
            /* .noftz: each half added and rounded to nearest, subnormals kept */
            int bf = t == WS_P_BF16 || t == WS_P_BF16X2;
            uint64_t r = 0;
            for (int h = 0; h < bits / 16; h++) {
                uint16_t x = (uint16_t)(o >> 16 * h), y = (uint16_t)(bb >> 16 * h);
                double s = bf ? ws_bf16_to_double(x) + ws_bf16_to_double(y)
                              : ws_f16_to_double(x) + ws_f16_to_double(y);
                r |= (uint64_t)(bf ? ws_double_to_bf16(s) : ws_double_to_f16(s)) << 16 * h;
            }
            return r;
        }
        if (t == WS_P_F32)
            return ws_bits_f32(ws_atom_add_f32(ws_f32(o), ws_f32(bb)));
        if (t == WS_P_F64)
            return ws_bits_f64(ws_f64(o) + ws_f64(bb));
        return ws_trunc(o + bb, bits);
    case WS_SUB_INC: return o >= bb ? 0 : ws_trunc(o + 1, bits);
    case WS_SUB_DEC: return (o == 0 || o > bb) ? bb : o - 1;
    case WS_SUB_CAS: return o == bb ? ws_trunc(c, bits) : o;
    case WS_SUB_EXCH: return bb;
    case WS_SUB_MIN:
        if (t == WS_P_F32)
            return ws_f32(bb) < ws_f32(o) ? bb : o;
        if (t == WS_P_F64)
            return ws_f64(bb) < ws_f64(o) ? bb : o;
        if (sgn)
            return ws_sext(o, bits) < ws_sext(bb, bits) ? o : bb;
        return o < bb ? o : bb;
    case WS_SUB_MAX:
        if (t == WS_P_F32)
            return ws_f32(bb) > ws_f32(o) ? bb : o;
        if (t == WS_P_F64)
            return ws_f64(bb) > ws_f64(o) ? bb : o;
        if (sgn)
            return ws_sext(o, bits) > ws_sext(bb, bits) ? o : bb;
        return o > bb ? o : bb;
    case WS_SUB_AND: return o & bb;
    case WS_SUB_OR: return o | bb;
    default: return o ^ bb;
    }
}

/* One lane's read-modify-write, atomic against other host threads. Returns the old value. */
static uint64_t atom_apply(const ws_inst *in, uint8_t *p, uint64_t b, uint64_t c, int bits)
{
    if (bits == 64) {
        uint64_t old = __atomic_load_n((uint64_t *)p, __ATOMIC_RELAXED), nv;
        do
            nv = atom_value(in, old, b, c, 64);
        while (!__atomic_compare_exchange_n((uint64_t *)p, &old, nv, 1, __ATOMIC_RELAXED,
                                            __ATOMIC_RELAXED));
        return old;
    }
    if (bits == 16) { /* atom.cas.b16, atom.add.noftz.f16 */
        uint16_t old = __atomic_load_n((uint16_t *)p, __ATOMIC_RELAXED), nv;
        do
            nv = (uint16_t)atom_value(in, old, b, c, 16);
        while (!__atomic_compare_exchange_n((uint16_t *)p, &old, nv, 1, __ATOMIC_RELAXED,
                                            __ATOMIC_RELAXED));
        return old;
    }
    uint32_t old = __atomic_load_n((uint32_t *)p, __ATOMIC_RELAXED), nv;
    do
        nv = (uint32_t)atom_value(in, old, b, c, 32);
    while (!__atomic_compare_exchange_n((uint32_t *)p, &old, nv, 1, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED));
    return old;
}

/* atom/red.global.add.v2/.v4.f32 (atomicAdd on float2/float4): each element its own f32
 * add, the old values to the result vector; fx->addr holds the addresses. */
static int do_atom_vec(ws_warp *w, const ws_inst *in, uint32_t exec, ws_effect *fx)
{
    int vec = in->vec, has_dst = in->op == WS_OP_ATOM && in->ndst > 0;
    const ws_operand *v = &in->src[1], *d = has_dst ? &in->dst[0] : NULL;
    assert(v->kind == WS_O_VEC && v->nvec == vec && (!d || d->nvec == vec)); /* the parser's */
    int races = w->cta->run->opt->detect_races;
    WS_LANES(l, exec, {
        uint64_t *sh;
        uint8_t *p = resolve(w, in, in->space, fx->addr[l], (uint64_t)vec * 4, l, 1, &sh);
        if (!p)
            return WS_ERR_SIM;
        for (int e = 0; e < vec; e++) {
            uint64_t b = v->vregs[e] >= 0 ? ws_x_reg(w, v->vregs[e])[l] : 0;
            uint64_t old = atom_apply(in, p + 4 * e, b, 0, 32);
            if (d && d->vregs[e] >= 0)
                ws_x_reg(w, d->vregs[e])[l] = old;
        }
        if (races && sh)
            ws_race_access(w, in, in->space, fx->addr[l], vec * 4, l, 1, 1, sh);
    });
    note_access(fx, in, exec, vec * 4);
    return 0;
}

static int do_atom(ws_warp *w, const ws_inst *in, uint32_t exec, ws_effect *fx)
{
    ws_ptype t = (ws_ptype)in->type;
    int bits = ws_ptype_bits(t);
    assert(bits == 16 || bits == 32 || bits == 64); /* the parser's modifiers_ok */
    uint64_t *addr = fx->addr;
    effective_addresses(w, in, exec, addr);
    if (in->vec > 1)
        return do_atom_vec(w, in, exec, fx);
    const uint64_t *b = in->nsrc > 1 ? ws_x_src(w, in, 1, w->scratch[1]) : w->scratch[1];
    const uint64_t *c = in->nsrc > 2 ? ws_x_src(w, in, 2, w->scratch[2]) : w->scratch[1];
    uint64_t *old = w->scratch[3];
    int races = w->cta->run->opt->detect_races && tracked(in->space);
    WS_LANES(l, exec, {
        uint64_t *sh;
        uint8_t *p = resolve(w, in, in->space, addr[l], (uint64_t)bits / 8, l, 1, &sh);
        if (!p)
            return WS_ERR_SIM;
        old[l] = atom_apply(in, p, b[l], c[l], bits);
        if (races && sh) {
            ws_race_access(w, in, in->space, addr[l], bits / 8, l, 1, 1, sh);
            int cas = in->subop == WS_SUB_CAS, swap = cas || in->subop == WS_SUB_EXCH;
            uint64_t o = ws_trunc(old[l], bits), bv = ws_trunc(b[l], bits);
            lock_note(w, in, l, addr[l], swap, o, cas ? (o == bv ? ws_trunc(c[l], bits) : o) : bv);
        }
    });
    if (in->subop == WS_SUB_CAS)
        WS_LANES(l, exec, fx->cas_ok |= (uint32_t)(ws_trunc(old[l], bits) ==
                                                   ws_trunc(b[l], bits)) << l;);
    ws_run *r = w->cta->run;
    if (r->grid_workspace && exec) {
        uint64_t a = addr[__builtin_ctz(exec)];
        if (ws_generic_space(&a) == WS_SPACE_GLOBAL && a - r->grid_workspace < 16)
            ws_x_grid_arrivals(r, __builtin_popcount(exec));
    }
    if (in->op == WS_OP_ATOM && in->ndst > 0 && in->dst[0].reg >= 0) {
        uint64_t *d = ws_x_reg(w, in->dst[0].reg);
        WS_LANES(l, exec, d[l] = old[l];);
    }
    note_access(fx, in, exec, bits / 8);
    return 0;
}

/* cp.async.ca/.cg.shared.global [dst], [src], cp-size{, src-size}: the copy completes at
 * once (the PTX ISA lets it complete at any time before the wait that covers it); the
 * bytes from src-size to cp-size are zero (the zfill form). */
static int do_cp_async(ws_warp *w, const ws_inst *in, uint32_t exec, ws_effect *fx)
{
    uint64_t *src = fx->addr, *dst = w->scratch[0];
    ws_x_addresses(w, in, 0, WS_SPACE_SHARED, exec, dst);
    ws_x_addresses(w, in, 1, WS_SPACE_GLOBAL, exec, src);
    const uint64_t *size = ws_x_src(w, in, 2, w->scratch[2]);
    const uint64_t *fill = in->nsrc > 3 ? ws_x_src(w, in, 3, w->scratch[3]) : size;
    int races = w->cta->run->opt->detect_races;
    WS_LANES(l, exec, {
        uint64_t n = size[l], m = (uint32_t)fill[l], *sh;
        assert(n == 4 || n == 8 || n == 16); /* the parser checked the immediate */
        if (m > n)
            return ws_x_fault(w, in, l, 0, WS_ERR_SIM, "cp.async source size %llu is larger "
                              "than its copy size %llu", (unsigned long long)m,
                              (unsigned long long)n);
        if (src[l] & (n - 1))
            return ws_x_fault(w, in, l, src[l], WS_ERR_SIM, "misaligned global load of %d "
                              "bytes at 0x%llx", (int)n, (unsigned long long)src[l]);
        uint8_t *d = resolve(w, in, WS_SPACE_SHARED, dst[l], n, l, 1, &sh);
        if (!d)
            return WS_ERR_SIM;
        if (races && sh)
            ws_race_access(w, in, WS_SPACE_SHARED, dst[l], (int)n, l, 1, 0, sh);
        if (m) {
            const uint8_t *p = resolve(w, in, WS_SPACE_GLOBAL, src[l], m, l, 0, &sh);
            if (!p)
                return WS_ERR_SIM;
            if (races && sh)
                ws_race_access(w, in, WS_SPACE_GLOBAL, src[l], (int)m, l, 0, 0, sh);
            memmove(d, p, m);
        }
        memset(d + m, 0, n - m);
    });
    fx->has_addr = 1;
    fx->space = WS_SPACE_GLOBAL;
    fx->bytes = (uint8_t)(exec ? size[__builtin_ctz(exec)] : 4);
    return 0;
}

int ws_x_mem(ws_warp *w, const ws_inst *in, uint32_t exec, ws_effect *fx)
{
    switch (in->op) {
    case WS_OP_CP_ASYNC: return do_cp_async(w, in, exec, fx);
    case WS_OP_LD: case WS_OP_LDU: return do_ld(w, in, exec, fx);
    case WS_OP_ST: return do_st(w, in, exec, fx);
    case WS_OP_ATOM: case WS_OP_RED: return do_atom(w, in, exec, fx);
    default: return 0; /* prefetch */
    }
}

int ws_x_cvta(ws_warp *w, const ws_inst *in, uint32_t exec)
{
    const uint64_t *a = ws_x_src(w, in, 0, w->scratch[0]);
    if (in->op == WS_OP_MAPA) { /* mapa[.shared::cluster] d, a, rank: in a launch of 1x1x1
                                   clusters only rank 0, the CTA itself, is mapped */
        const uint64_t *rank = ws_x_src(w, in, 1, w->scratch[1]);
        uint64_t *d = ws_x_reg(w, in->dst[0].reg);
        WS_LANES(l, exec, {
            if ((uint32_t)rank[l] != 0)
                return ws_x_fault(w, in, l, a[l], WS_ERR_SIM, "mapa to CTA rank %u of the "
                                  "cluster: the launch has clusters of one CTA (thread-block "
                                  "clusters are not modelled)", (unsigned)(uint32_t)rank[l]);
            d[l] = a[l];
        });
        return 0;
    }
    uint64_t win = in->space == WS_SPACE_SHARED ? WS_SHARED_WINDOW
                 : in->space == WS_SPACE_LOCAL ? WS_LOCAL_WINDOW : 0;
    int bits = ws_ptype_bits((ws_ptype)in->type);
    if (bits <= 0)
        bits = 64;
    uint64_t *d = ws_x_reg(w, in->dst[0].reg);
    if (in->flags & WS_F_TO)
        WS_LANES(l, exec, d[l] = ws_trunc(a[l] - win, bits););
    else
        WS_LANES(l, exec, d[l] = ws_trunc(a[l] + win, bits););
    return 0;
}

/* ---------------------------------------------------------------- shared with the SASS model */

int ws_x_find_alloc(ws_worker *wk, uint64_t addr, uint64_t n)
{
    return find_alloc(wk, addr, n);
}

void ws_x_describe_address(const ws_run *r, uint64_t addr, uint64_t n, int is_write, char *buf,
                           size_t len)
{
    describe_near(r, addr, n, is_write, buf, len);
}
