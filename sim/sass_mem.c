/* sass_mem.c — SASS memory instructions: constant banks (LDC, ULDC), loads and stores to
 * global, shared, local and generic addresses (8 to 128 bits), atomics and reductions
 * with lanes serialised in lane order. Address layout: shared addresses are the 32-bit
 * values the kernel computes (static shared memory starts at 0x400 on sm_90, at 0 before; the CTA's
 * rank in its cluster above bit 24); generic addresses put shared memory at
 * WS_SHARED_WINDOW and local memory at WS_LOCAL_WINDOW (exec.h), as c[0x0][0x20] and
 * SR_SWINHI tell the kernel. Every bad access is a located WS_ERR_SIM. */
#include <math.h>
#include <stdio.h>
#include "sim/sass_arith.h"
#include "sim/sass_exec.h"

const uint8_t *ws_sass_cbank_ptr(const ws_sass_run *r, int bank, uint64_t off, uint64_t n)
{
    if (bank < 0 || bank >= WS_SASS_NBANKS)
        return NULL;
    const ws_sass_bank *b = &r->banks[bank];
    if (!b->data || off + n > b->size || off + n < off)
        return NULL;
    return b->data + off;
}

/* Bytes per lane from the type modifier (.U8, .S16, .64, .128; 4 otherwise). */
static int access_bytes(const ws_sass_inst *in, int *is_signed)
{
    *is_signed = 0;
    switch (in->dtype) {
    case WS_SMOD_U8: return 1;
    case WS_SMOD_S8: *is_signed = 1; return 1;
    case WS_SMOD_U16: return 2;
    case WS_SMOD_S16: *is_signed = 1; return 2;
    case WS_SMOD_B64: case WS_SMOD_U64: case WS_SMOD_S64: case WS_SMOD_F64: return 8;
    case WS_SMOD_B128: return 16;
    default: return 4;
    }
}

static int space_of(const ws_sass_inst *in)
{
    return ws_sass_op_has(in->op, WS_SOPF_SHARED) ? WS_SPACE_SHARED
         : ws_sass_op_has(in->op, WS_SOPF_LOCAL) ? WS_SPACE_LOCAL
         : ws_sass_op_has(in->op, WS_SOPF_GLOBAL) ? WS_SPACE_GLOBAL : WS_SPACE_GENERIC;
}

static void addresses(ws_sass_warp *w, const ws_sass_inst *in, int k, uint32_t exec,
                      uint64_t *addr)
{
    const ws_sass_opnd *o = &in->o[k];
    uint64_t off = (uint64_t)o->imm;
    int wide = o->wide || ws_sass_has(in, WS_SMOD_E); /* a 64-bit address */
    if (o->ureg >= 0 && o->ureg < WS_SASS_URZ) {
        off += w->ur[o->ureg];
        /* [UR4] with .E, and sm_75's [R2.64+UR4] (a 64-bit base beside the register, where
           sm_80+ write desc[UR][R2.64]): a 64-bit address's UR is a 64-bit pair. */
        if (wide && o->ureg + 1 < WS_SASS_URZ)
            off += (uint64_t)w->ur[o->ureg + 1] << 32;
    }
    if (o->reg >= 0 && o->reg != WS_SASS_RZ) {
        const uint32_t *lo = ws_sass_rrow(w, o->reg);
        const uint32_t *hi = ws_sass_rrow(w, o->reg + 1);
        uint64_t scale = o->scale ? o->scale : 1; /* [R7.X4+UR4]: a scaled index */
        if (wide && !o->u32) /* .E: a 64-bit pair */
            WS_LANES(l, exec, addr[l] = ((uint64_t)lo[l] | (uint64_t)hi[l] << 32) * scale + off;);
        else /* a 32-bit index (R.U32 in a 64-bit address: zero-extended) */
            WS_LANES(l, exec, addr[l] = (uint64_t)lo[l] * scale + off;);
    } else {
        WS_LANES(l, exec, addr[l] = off;);
    }
}

void ws_sass_mem_lanes(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, uint64_t *addr)
{
    int k = ws_sass_find_opnd(in, WS_SO_MEM);
    if (k >= 0)
        addresses(w, in, k, exec, addr);
    else
        WS_LANES(l, exec, addr[l] = 0;);
}

static const char *space_name(int sp)
{
    static const char *const n[] = {"generic", "global", "shared", "local", "const", "param"};
    return sp >= 0 && sp < 6 ? n[sp] : "?";
}

void ws_sass_describe_pc(const void *ctx, int fn, int pc, char *buf, size_t n)
{
    const ws_sass_kernel *k = ((const ws_sass_run *)ctx)->k;
    (void)fn;
    if (pc < 0 || pc >= k->ninsts) {
        snprintf(buf, n, "instruction %d", pc);
        return;
    }
    const ws_sass_inst *in = &k->insts[pc];
    const char *file = in->file >= 0 && in->file < k->nfiles ? k->files[in->file] : NULL;
    const char *base = file ? strrchr(file, '/') : NULL;
    if (file)
        snprintf(buf, n, "SASS 0x%04x (%s:%d)", in->offset, base ? base + 1 : file, in->line);
    else
        snprintf(buf, n, "SASS 0x%04x", in->offset);
}

/* A plain load (LDG, LD) and a compare-and-swap (ATOMG.CAS, ATOM.CAS) with the same address
 * operand: the load reads the CAS's guess (race.c's ws_race_cas_guess). */
int ws_sass_cas_guess(const void *ctx, int fn_load, int load, int fn_cas, int cas)
{
    const ws_sass_kernel *k = ((const ws_sass_run *)ctx)->k;
    (void)fn_load;
    (void)fn_cas;
    if (load < 0 || load >= k->ninsts || cas < 0 || cas >= k->ninsts)
        return 0;
    const ws_sass_inst *ld = &k->insts[load], *at = &k->insts[cas];
    if (!ws_sass_op_has(ld->op, WS_SOPF_LOAD) || ws_sass_op_has(ld->op, WS_SOPF_ATOMIC) ||
        !ws_sass_op_has(at->op, WS_SOPF_ATOMIC) || !ws_sass_has(at, WS_SMOD_CAS))
        return 0;
    int i = ws_sass_find_opnd(ld, WS_SO_MEM), j = ws_sass_find_opnd(at, WS_SO_MEM);
    if (i < 0 || j < 0)
        return 0;
    const ws_sass_opnd *a = &ld->o[i], *b = &at->o[j];
    /* LDG.E R4, desc[UR4][R2.64] beside ATOMG.E.CAS PT, R5, [R2], R4, R5: the same 64-bit
       address in R2:R3 (.E), written with and without .64 */
    return a->reg == b->reg && a->ureg == b->ureg && a->imm == b->imm &&
           a->scale == b->scale && a->u32 == b->u32;
}

/* Lock tracking (race.c's ws_race_lock) for a lane's write to global memory; the leader's
 * release ends the critical section for every lane that shared its lock. */
static void lock_note(ws_sass_warp *w, int lane, uint64_t addr, int swap, uint64_t old,
                      uint64_t nv)
{
    if (ws_race_lock(&w->held[lane], addr, swap, old, nv))
        ws_race_lock_end(w->cta->warps[0].held, sizeof *w, w->cta->nwarps, addr);
}

/* Race detection (race.c, shared with the PTX model) of one lane's access to shared memory
 * at offset `off`, or to global allocation `a` (off: from its base). */
static void race(ws_sass_warp *w, const ws_sass_inst *in, int sp, int a, uint64_t off,
                 uint64_t n, int lane, int access, uint64_t addr)
{
    ws_sass_cta *c = w->cta;
    ws_sass_run *r = c->run;
    uint64_t *shadow = sp == WS_SPACE_SHARED ? c->shadow_shared
                     : r->base.shadow_global ? r->base.shadow_global[a] : NULL;
    if (!shadow)
        return;
    if (access == 1 && sp == WS_SPACE_GLOBAL)
        lock_note(w, lane, addr, 0, 0, 0); /* the holder's store to its lock */
    ws_race_who who = { c->id, w->id, lane, 0, (int)(in - r->k->insts), c->bar_epoch,
                        w->sync_epoch, w->held[lane] != 0, (int)(w->fenced >> lane & 1),
                        c->atomic_seen,
                        ws_sass_has(in, WS_SMOD_STRONG) && !ws_sass_has(in, WS_SMOD_CTA) };
    if (access == 2 && sp == WS_SPACE_GLOBAL)
        ws_race_global_atomic(&c->atomic_seen, &w->fenced, lane);
    ws_race_check(&c->wk->base, &who, sp, addr, (int)n, access != 0, access == 2,
                  shadow + (off / 4) * 2);
}

/* Host pointer for `n` bytes at `addr` in `sp` for `lane`; NULL with the fault set.
 * access: 0 load, 1 store, 2 atomic (read-modify-write). */
static uint8_t *resolve(ws_sass_warp *w, const ws_sass_inst *in, int sp, uint64_t addr,
                        uint64_t n, int lane, int access, int *space_out)
{
    ws_sass_cta *c = w->cta;
    ws_sass_run *r = c->run;
    int is_write = access != 0;
    if (n > 1 && (addr & (n - 1))) {
        ws_sass_fault(w, in, lane, addr, WS_ERR_SIM, "misaligned %s %s of %d bytes at 0x%llx",
                      space_name(sp), is_write ? "store" : "load", (int)n,
                      (unsigned long long)addr);
        return NULL;
    }
    if (sp == WS_SPACE_GENERIC)
        sp = ws_generic_space(&addr);
    *space_out = sp;
    if (sp == WS_SPACE_SHARED) {
        if ((addr >> 24 & 0xff) != 0) { /* the CTA's rank in its cluster: always 0 here */
            ws_sass_fault(w, in, lane, addr, WS_ERR_SIM, "shared %s at 0x%llx names CTA rank "
                          "%u of the cluster (distributed shared memory): the launch has "
                          "clusters of one CTA (thread-block clusters are not modelled)",
                          is_write ? "store" : "load", (unsigned long long)addr,
                          (unsigned)(addr >> 24 & 0xff));
            return NULL;
        }
        uint64_t s = (addr & 0xffffffu) - r->shared_base;
        if ((addr & 0xffffffu) >= r->shared_base && s + n <= c->shared_bytes) {
            if (c->shadow_shared)
                race(w, in, sp, -1, s, n, lane, access, s);
            return c->shared + s;
        }
        ws_sass_fault(w, in, lane, addr, WS_ERR_SIM,
                      "out-of-bounds shared %s of %d bytes at offset %lld (the CTA has %llu "
                      "bytes of shared memory)", is_write ? "store" : "load", (int)n,
                      (long long)s, (unsigned long long)c->shared_bytes);
        return NULL;
    }
    if (sp == WS_SPACE_LOCAL) {
        if (addr + n <= r->frame_bytes)
            return w->local + (size_t)lane * r->frame_bytes + addr;
        ws_sass_fault(w, in, lane, addr, WS_ERR_SIM,
                      "out-of-bounds local %s of %d bytes at 0x%llx (stack frame %u bytes)",
                      is_write ? "store" : "load", (int)n, (unsigned long long)addr,
                      r->frame_bytes);
        return NULL;
    }
    int a = ws_x_find_alloc(&c->wk->base, addr, n);
    if (a >= 0 && !(is_write && r->base.allocs[a].is_const)) {
        if (r->base.shadow_global)
            race(w, in, WS_SPACE_GLOBAL, a, addr - r->base.allocs[a].base, n, lane, access,
                 addr);
        return r->base.allocs[a].host + (addr - r->base.allocs[a].base);
    }
    char near[200];
    ws_x_describe_address(&r->base, addr, n, is_write, near, sizeof near);
    ws_sass_fault(w, in, lane, addr, WS_ERR_SIM, "out-of-bounds global %s of %d bytes at "
                  "0x%llx: %s", is_write ? "store" : "load", (int)n,
                  (unsigned long long)addr, near);
    return NULL;
}

/* Register k's 32-bit words for lane l: one, two (pair) or four (quad) words. */
static void reg_words(ws_sass_warp *w, const ws_sass_opnd *o, int lane, uint32_t *v, int nw)
{
    for (int i = 0; i < nw; i++)
        v[i] = o->kind == WS_SO_R && o->reg != WS_SASS_RZ ? ws_sass_rrow(w, o->reg + i)[lane]
             : o->kind == WS_SO_UR && o->reg + i < WS_SASS_URZ ? w->ur[o->reg + i] : 0;
}

static void set_words(ws_sass_warp *w, const ws_sass_opnd *o, int lane, const uint32_t *v,
                      int nw)
{
    if (o->kind != WS_SO_R || o->reg == WS_SASS_RZ)
        return;
    for (int i = 0; i < nw; i++)
        if (o->reg + i < w->nregs)
            w->r[(size_t)(o->reg + i) * WS_WARP + lane] = v[i];
}

int ws_sass_x_ldc(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    int sgn, n = access_bytes(in, &sgn);
    const ws_sass_opnd *o = &in->o[1];
    if (in->op == WS_SOP_ULDC && exec)
        exec = 1u << __builtin_ctz(exec);
    /* a register-indexed LDC tells the timing model its lanes' words (the constant cache
       serves one a pass); the others read one word for the warp */
    int indexed = in->op == WS_SOP_LDC && o->reg >= 0 && o->reg != WS_SASS_RZ;
    if (indexed) {
        fx->has_addr = 1;
        fx->space = WS_SPACE_CONST;
        fx->bytes = (uint8_t)n;
    }
    uint32_t words[4];
    WS_LANES(l, exec, {
        uint64_t off = (uint64_t)o->imm;
        if (o->reg >= 0 && o->reg != WS_SASS_RZ)
            off += ws_sass_rrow(w, o->reg)[l];
        if (o->ureg >= 0 && o->ureg < WS_SASS_URZ)
            off += w->ur[o->ureg];
        if (indexed)
            fx->addr[l] = ((uint64_t)o->bank << 32) | (off & 0xffffffffu);
        const uint8_t *p = ws_sass_cbank_ptr(w->cta->run, o->bank, off, (uint64_t)n);
        if (!p)
            return ws_sass_fault(w, in, l, off, WS_ERR_SIM, "constant bank c[0x%x] read of %d "
                                 "bytes at 0x%llx is outside the bank", o->bank, n,
                                 (unsigned long long)off);
        memset(words, 0, sizeof words);
        memcpy(words, p, (size_t)n);
        if (sgn && n < 4)
            words[0] = (uint32_t)(n == 1 ? (int32_t)(int8_t)words[0] : (int32_t)(int16_t)words[0]);
        if (in->o[0].kind == WS_SO_UR) {
            for (int i = 0; i < (n + 3) / 4; i++)
                if (in->o[0].reg + i < WS_SASS_URZ)
                    w->ur[in->o[0].reg + i] = words[i];
        } else {
            set_words(w, &in->o[0], l, words, (n + 3) / 4);
        }
    });
    return 0;
}

int ws_sass_x_ld(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    int sgn, n = access_bytes(in, &sgn);
    int k = ws_sass_find_opnd(in, WS_SO_MEM), sp = space_of(in), real = sp;
    if (k < 0)
        return ws_sass_fault(w, in, 0, 0, WS_ERR_UNSUPPORTED, "load without an address");
    addresses(w, in, k, exec, fx->addr);
    fx->has_addr = 1;
    fx->bytes = (uint8_t)n;
    uint32_t words[4];
    WS_LANES(l, exec, {
        const uint8_t *p = resolve(w, in, sp, fx->addr[l], (uint64_t)n, l, 0, &real);
        if (!p)
            return WS_ERR_SIM;
        memset(words, 0, sizeof words);
        memcpy(words, p, (size_t)n);
        if (sgn && n < 4)
            words[0] = (uint32_t)(n == 1 ? (int32_t)(int8_t)words[0] : (int32_t)(int16_t)words[0]);
        set_words(w, &in->o[0], l, words, (n + 3) / 4);
    });
    fx->space = (uint8_t)real;
    return 0;
}

int ws_sass_x_st(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    int sgn, n = access_bytes(in, &sgn);
    int k = ws_sass_find_opnd(in, WS_SO_MEM), sp = space_of(in), real = sp;
    if (k < 0 || k + 1 >= in->nopnd)
        return ws_sass_fault(w, in, 0, 0, WS_ERR_UNSUPPORTED, "store without address or value");
    addresses(w, in, k, exec, fx->addr);
    fx->has_addr = 1;
    fx->bytes = (uint8_t)n;
    uint32_t words[4];
    WS_LANES(l, exec, {
        uint8_t *p = resolve(w, in, sp, fx->addr[l], (uint64_t)n, l, 1, &real);
        if (!p)
            return WS_ERR_SIM;
        reg_words(w, &in->o[k + 1], l, words, (n + 3) / 4);
        memcpy(p, words, (size_t)n);
    });
    fx->space = (uint8_t)real;
    return 0;
}

/* LDSM.16.M88.{1,2,4} (ldmatrix.sync.aligned.m8n8.x{1,2,4}.shared.b16): lanes 8i..8i+7 name
 * the rows (16 bytes each) of 8x8 matrix i; lane l receives in register i the elements
 * 2(l%4) and 2(l%4)+1 of row l/4 of matrix i. .MT88 (.trans): those of column l/4, from
 * rows 2(l%4) and 2(l%4)+1. */
int ws_sass_x_ldsm(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    if (!exec)
        return 0;
    if (exec != WS_FULL_MASK)
        return ws_sass_fault(w, in, __builtin_ctz(exec), 0, WS_ERR_SIM, "LDSM with lanes "
                             "0x%08x: ldmatrix needs all 32 lanes of the warp", exec);
    int nm = ws_sass_has(in, WS_SMOD_X4) ? 4 : ws_sass_has(in, WS_SMOD_X2) ? 2 : 1;
    int trans = ws_sass_has(in, WS_SMOD_MT88), k = ws_sass_find_opnd(in, WS_SO_MEM);
    int real = WS_SPACE_SHARED;
    int rd = in->o[0].reg;
    if (k < 0 || in->o[0].kind != WS_SO_R || !ws_sass_has(in, WS_SMOD_W16))
        return ws_sass_fault(w, in, 0, 0, WS_ERR_UNSUPPORTED, "unsupported LDSM form (LDSM.16."
                             "M88 / .MT88 with .1, .2 or .4 are known)");
    addresses(w, in, k, exec, fx->addr);
    fx->has_addr = 1;
    fx->bytes = 16;
    uint16_t m[4][8][8];
    for (int i = 0; i < nm; i++)
        for (int r = 0; r < 8; r++) {
            int lane = 8 * i + r;
            const uint8_t *p = resolve(w, in, WS_SPACE_SHARED, fx->addr[lane], 16, lane, 0,
                                       &real);
            if (!p)
                return WS_ERR_SIM;
            memcpy(m[i][r], p, 16);
        }
    fx->space = WS_SPACE_SHARED;
    if (rd == WS_SASS_RZ)
        return 0;
    if (rd + nm > w->nregs)
        return ws_sass_fault(w, in, 0, 0, WS_ERR_SIM, "LDSM writes past the kernel's registers");
    for (int l = 0; l < WS_WARP; l++) {
        int g = l >> 2, t = l & 3;
        for (int i = 0; i < nm; i++) {
            uint16_t lo = trans ? m[i][2 * t][g] : m[i][g][2 * t];
            uint16_t hi = trans ? m[i][2 * t + 1][g] : m[i][g][2 * t + 1];
            w->r[(size_t)(rd + i) * WS_WARP + l] = (uint32_t)lo | (uint32_t)hi << 16;
        }
    }
    return 0;
}

/* LDGSTS[.E][.BYPASS][.64|.128][.ZFILL] [Rs+UR+imm], desc[UR][Rg.64+imm](, Rn) (cp.async):
 * copies 4, 8 or 16 bytes from global to shared memory at once; with a source size (Rn, or
 * in .ZFILL's address) only that many bytes are read and the rest is zero. The copy being
 * complete when it issues, LDGDEPBAR and DEPBAR (its waits) have nothing left to wait for.
 * The timing model sees a global load. */
int ws_sass_x_ldgsts(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    int sgn, n = access_bytes(in, &sgn), real = WS_SPACE_GLOBAL;
    const ws_sass_opnd *d = &in->o[0];
    if (in->nopnd < 2 || d->kind != WS_SO_MEM || in->o[1].kind != WS_SO_MEM)
        return ws_sass_fault(w, in, exec ? __builtin_ctz(exec) : 0, 0, WS_ERR_UNSUPPORTED,
                             "unsupported LDGSTS form (LDGSTS [shared], [global] is known)");
    addresses(w, in, 1, exec, fx->addr);
    fx->has_addr = 1;
    fx->bytes = (uint8_t)n;
    uint32_t size[WS_WARP];
    int zfill = ws_sass_has(in, WS_SMOD_ZFILL) && in->nopnd == 2;
    if (in->nopnd > 2)
        ws_sass_src(w, in, 2, exec, size);
    WS_LANES(l, exec, {
        uint64_t sa = (uint64_t)d->imm + ws_sass_rrow(w, d->reg)[l] +   /* RZ reads 0 */
                      (d->ureg >= 0 && d->ureg < WS_SASS_URZ ? w->ur[d->ureg] : 0u);
        int sp = WS_SPACE_SHARED;
        uint8_t *dst = resolve(w, in, WS_SPACE_SHARED, sa & 0xffffffffu, (uint64_t)n, l, 1, &sp);
        if (!dst)
            return WS_ERR_SIM;
        uint32_t take = in->nopnd > 2 ? (size[l] < (uint32_t)n ? size[l] : (uint32_t)n)
                                      : (uint32_t)n;
        uint64_t from = fx->addr[l];
        if (zfill) { /* the source size rides in the address: n - (address mod n) bytes
                        from the aligned address below it (ptxas writes src + n - size) */
            take = (uint32_t)n - (uint32_t)(from & (uint64_t)(n - 1));
            from &= ~(uint64_t)(n - 1);
            fx->addr[l] = from;
        }
        uint8_t buf[16];
        memset(buf, 0, sizeof buf);
        if (take) {
            const uint8_t *src = resolve(w, in, WS_SPACE_GLOBAL, from, (uint64_t)n, l, 0, &real);
            if (!src)
                return WS_ERR_SIM;
            memcpy(buf, src, take);
        }
        memcpy(dst, buf, (size_t)n);
    });
    fx->space = (uint8_t)real;
    return 0;
}

const uint8_t *ws_sass_host(ws_sass_warp *w, const ws_sass_inst *in, uint64_t addr, uint64_t n,
                            int lane)
{
    int real = WS_SPACE_GENERIC;
    return resolve(w, in, WS_SPACE_GENERIC, addr, n, lane, 0, &real);
}

/* QSPC.E.{S,G,L} Pd, RZ, [addr]: the lanes whose generic address lies in that space (ptxas
 * tests a generic atomic's fallback path with it). */
int ws_sass_x_qspc(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    (void)fx;
    int k = ws_sass_find_opnd(in, WS_SO_MEM);
    int want = ws_sass_has(in, WS_SMOD_S) ? WS_SPACE_SHARED
             : ws_sass_has(in, WS_SMOD_L) ? WS_SPACE_LOCAL : WS_SPACE_GLOBAL;
    if (k != 2 || in->o[0].kind != WS_SO_P ||
        (in->o[1].kind == WS_SO_R && in->o[1].reg != WS_SASS_RZ))
        return ws_sass_fault(w, in, exec ? __builtin_ctz(exec) : 0, 0, WS_ERR_UNSUPPORTED,
                             "unsupported QSPC form (QSPC.E.S/.G/.L Pd, RZ, [addr] is known)");
    uint64_t addr[WS_WARP];
    uint32_t r = 0;
    addresses(w, in, k, exec, addr);
    WS_LANES(l, exec, {
        uint64_t a = addr[l];
        r |= (uint32_t)(ws_generic_space(&a) == want) << l;
    });
    ws_sass_pdst(w, in, 0, exec, r);
    return 0;
}

/* ---------------------------------------------------------------- atomics */

/* Two packed halves (or bf16) added lane-wise, each rounded to nearest. */
static uint32_t add_half2(uint32_t x, uint32_t y, int bf)
{
    uint32_t r = 0;
    for (int h = 0; h < 2; h++) {
        uint16_t a = (uint16_t)(x >> 16 * h), b = (uint16_t)(y >> 16 * h);
        double s = bf ? (double)ws_sass_bf16_to_float(a) + ws_sass_bf16_to_float(b)
                      : (double)ws_sass_half_to_float(a) + ws_sass_half_to_float(b);
        r |= (uint32_t)(bf ? ws_sass_double_to_bf16(s) : ws_sass_double_to_half(s)) << 16 * h;
    }
    return r;
}

static uint64_t atom_apply(const ws_sass_inst *in, int n, uint64_t old, uint64_t b, int is_f)
{
    int sgn = in->stype == WS_SMOD_S32 || in->dtype == WS_SMOD_S32 ||
              in->dtype == WS_SMOD_S64 || in->stype == WS_SMOD_S64;
    if (ws_sass_has(in, WS_SMOD_ADD) || ws_sass_has(in, WS_SMOD_POPC)) {
        if (in->dtype == WS_SMOD_F16X2 || in->dtype == WS_SMOD_BF16X2)
            return add_half2((uint32_t)old, (uint32_t)b, in->dtype == WS_SMOD_BF16X2);
        if (is_f == 32) { /* .FTZ.RN: subnormals flushed (ws_atom_add_f32) */
            float x, y; uint32_t u = (uint32_t)old, v = (uint32_t)b;
            memcpy(&x, &u, 4); memcpy(&y, &v, 4);
            x = ws_sass_has(in, WS_SMOD_FTZ) ? ws_atom_add_f32(x, y) : x + y;
            memcpy(&u, &x, 4);
            return u;
        }
        if (is_f == 64) {
            double x, y; memcpy(&x, &old, 8); memcpy(&y, &b, 8);
            x += y; memcpy(&old, &x, 8);
            return old;
        }
        return old + b;
    }
    if (ws_sass_has(in, WS_SMOD_INC))
        return ((uint32_t)old >= (uint32_t)b) ? 0 : old + 1;
    if (ws_sass_has(in, WS_SMOD_DEC))
        return ((uint32_t)old == 0 || (uint32_t)old > (uint32_t)b) ? b : old - 1;
    if (ws_sass_has(in, WS_SMOD_MIN) || ws_sass_has(in, WS_SMOD_MAX)) {
        int mx = ws_sass_has(in, WS_SMOD_MAX);
        int lt = n == 8 ? (sgn ? (int64_t)b < (int64_t)old : b < old)
                        : (sgn ? (int32_t)b < (int32_t)old : (uint32_t)b < (uint32_t)old);
        return (mx ? !lt && b != old : lt) ? b : old;
    }
    if (ws_sass_has(in, WS_SMOD_AND)) return old & b;
    if (ws_sass_has(in, WS_SMOD_OR)) return old | b;
    if (ws_sass_has(in, WS_SMOD_XOR)) return old ^ b;
    if (ws_sass_has(in, WS_SMOD_EXCH)) return b;
    return old + b; /* RED/ATOM without an op: add */
}

int ws_sass_x_atom(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    int k = ws_sass_find_opnd(in, WS_SO_MEM), sp = space_of(in), real = sp;
    if (k < 0)
        return ws_sass_fault(w, in, 0, 0, WS_ERR_UNSUPPORTED, "atomic without an address");
    int is64 = in->dtype == WS_SMOD_B64 || in->dtype == WS_SMOD_U64 ||
               in->dtype == WS_SMOD_S64 || in->dtype == WS_SMOD_F64 ||
               in->stype == WS_SMOD_B64 || in->stype == WS_SMOD_F64 || in->stype == WS_SMOD_S64;
    int n = is64 ? 8 : 4;
    /* ATOMG.E.ADD.F32x2/x4 (atomicAdd on float2/float4): 2 or 4 f32 adds, element by
     * element, from and to consecutive registers; ptxas emits it only for add */
    int nel = in->dtype == WS_SMOD_F32X2 ? 2 : in->dtype == WS_SMOD_F32X4 ? 4 : 1;
    if (nel > 1 && (!ws_sass_has(in, WS_SMOD_ADD) || sp == WS_SPACE_SHARED ||
                    sp == WS_SPACE_LOCAL))
        return ws_sass_fault(w, in, 0, 0, WS_ERR_UNSUPPORTED, "vector atomic other than a "
                             "global add");
    int is_f = in->dtype == WS_SMOD_F32 || in->stype == WS_SMOD_F32 || nel > 1 ? 32
             : in->dtype == WS_SMOD_F64 || in->stype == WS_SMOD_F64 ? 64 : 0;
    int cas = ws_sass_has(in, WS_SMOD_CAS) || ws_sass_has(in, WS_SMOD_CAST);
    int popc_inc = ws_sass_has(in, WS_SMOD_POPC) && ws_sass_has(in, WS_SMOD_INC);
    const ws_sass_opnd *dst = k > 0 ? &in->o[k - 1] : NULL;
    /* ATOM.E.ADD.F16x2 P0, Rd, [generic]: P0 = the lanes whose address is global, done here;
     * ptxas runs the others through QSPC and a shared CAS loop or a local update. With PT
     * there (ATOM.E.ADD.STRONG.GPU PT, RZ, [generic], R: an atomicAdd through a pointer
     * cluster.map_shared_rank made) no other path follows: every lane is done, shared or
     * global. */
    int global_only = sp == WS_SPACE_GENERIC && k == 2 && in->o[0].kind == WS_SO_P &&
                      in->o[0].reg != WS_SASS_PT;
    uint32_t done = 0;
    addresses(w, in, k, exec, fx->addr);
    fx->has_addr = 1;
    fx->bytes = (uint8_t)(n * nel);
    if (w->split_far && cas) { /* the timed order runs the lanes of the far partition later,
                                  when near ones went first */
        w->far = ws_sass_far_lanes(w, exec, fx->addr);
        if (w->far == exec)
            w->far = 0;
        w->far_in = in;
        if (w->far)
            w->far_word = fx->addr[__builtin_ctz(w->far)];
    }
    uint32_t later = w->split_far && cas ? w->far : 0;
    uint32_t bw[4] = {0}, cw[2] = {0, 0}, rw[4] = {0};
    WS_LANES(l, exec & ~later, {
        if (global_only) {
            uint64_t a = fx->addr[l];
            if (ws_generic_space(&a) != WS_SPACE_GLOBAL)
                continue;
        }
        done |= 1u << l;
        uint8_t *base = resolve(w, in, sp, fx->addr[l], (uint64_t)(n * nel), l, 2, &real);
        if (!base)
            return WS_ERR_SIM;
        if (k + 1 < in->nopnd) { reg_words(w, &in->o[k + 1], l, bw, n / 4 * nel); }
        if (k + 2 < in->nopnd) { reg_words(w, &in->o[k + 2], l, cw, n / 4); }
        for (int e = 0; e < nel; e++) {
            uint8_t *p = base + 4 * e;
            uint64_t nv, result, old;
            uint64_t b = bw[e] | (n == 8 ? (uint64_t)bw[1] << 32 : 0);
            uint64_t c = cw[0] | (n == 8 ? (uint64_t)cw[1] << 32 : 0);
            if (k + 1 < in->nopnd && in->o[k + 1].kind == WS_SO_IMM)
                b = (uint64_t)in->o[k + 1].imm;
            /* other host threads run other CTAs on the same global memory: read-modify-write
             * with a compare-and-swap loop */
            do {
                old = n == 8 ? __atomic_load_n((uint64_t *)p, __ATOMIC_RELAXED)
                             : __atomic_load_n((uint32_t *)p, __ATOMIC_RELAXED);
                result = old;
                if (cas) { /* compare b, swap in c */
                    nv = old == b ? c : old;
                    if (ws_sass_has(in, WS_SMOD_CAST))
                        result = (uint64_t)(old == b); /* ATOMS.CAST.SPIN: 1 when it swapped */
                } else if (popc_inc) {
                    nv = old + 1;
                } else {
                    nv = atom_apply(in, n, old, b, is_f);
                }
            } while (n == 8 ? !__atomic_compare_exchange_n((uint64_t *)p, &old, nv, 0,
                                                           __ATOMIC_RELAXED, __ATOMIC_RELAXED)
                            : !__atomic_compare_exchange_n((uint32_t *)p, (uint32_t *)&old,
                                                           (uint32_t)nv, 0, __ATOMIC_RELAXED,
                                                           __ATOMIC_RELAXED));
            if (cas && old == b)
                fx->cas_ok |= 1u << l;
            if (e == 0 && real == WS_SPACE_GLOBAL && w->cta->run->base.shadow_global)
                lock_note(w, l, fx->addr[l], cas || ws_sass_has(in, WS_SMOD_EXCH), old,
                          nv); /* a lock taken or given back (race.c) */
            rw[e] = (uint32_t)result;
            if (n == 8)
                rw[1] = (uint32_t)(result >> 32);
        }
        if (dst && !ws_sass_op_has(in->op, WS_SOPF_NODST))
            set_words(w, dst, l, rw, n / 4 * nel);
    });
    if (global_only)
        ws_sass_pdst(w, in, 0, exec, done);
    fx->space = (uint8_t)real;
    ws_run *rb = &w->cta->run->base;
    if (rb->grid_workspace && exec) { /* a cooperative grid sync's arrival (race epochs) */
        uint64_t a = fx->addr[__builtin_ctz(exec)];
        if (ws_generic_space(&a) == WS_SPACE_GLOBAL && a - rb->grid_workspace < 16)
            ws_x_grid_arrivals(rb, __builtin_popcount(exec));
    }
    return 0;
}

/* ---------------------------------------------------------------- mbarrier objects */

/* SYNCS and ARRIVES (mbarrier.*, cuda::barrier, __mbarrier_*, cp.async.mbarrier.arrive) on
 * the 64-bit object in shared memory, in the layout ptxas's own code reads and writes:
 * init (SYNCS.EXCH.64) stores 2^20 - count in bits 1-20 and in bits 43-62; a token's
 * pending count is 2^20 minus its bits 43-62; a parity wait compares bit 63 with
 * parity << 31 of the high word. So bits 43-62 count the phase's arrivals up from
 * 2^20 - expected, bits 1-20 keep 2^20 - expected for the next phase (arrive_drop raises
 * them), bit 63 is the phase parity. Bits 21-41 are this model's count of pending
 * transactions (signed): LDGSTS's SYNCS.ARRIVE...A0T1 adds one and its
 * ARRIVES.LDGSTSBAR.64.TRANSCNT takes it back, both at issue since copies complete there;
 * an expect_tx (SYNCS.ARRIVE.TRANS64 with bytes, .A0TR without an arrival) adds bytes, and
 * a bulk copy into shared memory (UBLKCP.S.G) or a complete_tx (.A0TX) takes them back.
 * A phase completes when its arrivals reach 2^20 with no transaction pending; a completed
 * count reads 0 until then. Lanes act in lane order. */
#define MB_FIELD 0xfffffu
#define MB_TOP 0x100000u

typedef struct mb_state {
    uint32_t reset;   /* 2^20 - expected arrivals */
    uint32_t count;   /* 2^20 - pending arrivals; 0 once all arrived */
    int32_t tx;       /* pending transactions */
    int phase;
} mb_state;

static mb_state mb_unpack(uint64_t s)
{
    mb_state m;
    m.reset = (uint32_t)(s >> 1) & MB_FIELD;
    m.count = (uint32_t)(s >> 43) & MB_FIELD;
    uint32_t t = (uint32_t)(s >> 21) & 0x1fffffu;
    m.tx = (int32_t)(t ^ 0x100000u) - 0x100000; /* 21-bit two's complement */
    m.phase = (int)(s >> 63);
    return m;
}

static uint64_t mb_pack(const mb_state *m)
{
    return (uint64_t)(m->reset & MB_FIELD) << 1 | (uint64_t)((uint32_t)m->tx & 0x1fffffu) << 21 |
           (uint64_t)(m->count & MB_FIELD) << 43 | (uint64_t)m->phase << 63;
}

static uint32_t mb_pending(const mb_state *m)
{
    return m->count ? MB_TOP - m->count : 0;
}

/* Completes the phase when every arrival is in and no transaction is pending: the next
 * phase expects `reset` again, and the waiters are ordered after the arrivals. */
static int mb_complete_if_due(ws_sass_warp *w, mb_state *m)
{
    if (mb_pending(m) || m->tx)
        return 0;
    m->count = m->reset;
    m->phase ^= 1;
    ws_sass_cta_sync_point(w->cta); /* the waiters are ordered after every arrival */
    return 1;
}

/* expect_tx (delta > 0) or complete_tx (delta < 0) of |delta| bytes or transactions. */
static int mb_tx(ws_sass_warp *w, const ws_sass_inst *in, int lane, mb_state *m, int64_t delta)
{
    char why[160];
    if (!ws_mbar_tx_apply(&m->tx, delta, m->phase, "", why, sizeof why))
        return ws_sass_fault(w, in, lane, 0, WS_ERR_SIM, "%s", why);
    return 0;
}

static int mb_arrive(ws_sass_warp *w, const ws_sass_inst *in, int lane, mb_state *m,
                     uint32_t n, int drop)
{
    uint32_t pending = mb_pending(m);
    if (n > pending)
        return ws_sass_fault(w, in, lane, 0, WS_ERR_SIM, "mbarrier arrival of %u exceeds its "
                             "pending count %u (phase %d)", n, pending, m->phase);
    m->count = pending == n ? 0 : m->count + n;
    if (drop)
        m->reset += n; /* arrive_drop: the next phases expect n fewer */
    return 0;
}

/* One lane's SYNCS / ARRIVES on its object at host pointer p (8 bytes): *old is the word
 * before it, *p the word after; *pred the PHASECHK result. */
static int mb_lane(ws_sass_warp *w, const ws_sass_inst *in, int lane, uint64_t addr,
                   uint8_t *p, uint64_t src, uint64_t *old, int *pred, int *completed)
{
    uint64_t s;
    memcpy(&s, p, 8);
    *old = s;
    int syncs = in->op == WS_SOP_SYNCS;
    if (syncs && ws_sass_has(in, WS_SMOD_EXCH)) { /* init: the word ptxas computed */
        if (!mb_unpack(src).reset) /* 2^20 - count in bits 1-20 */
            return ws_sass_fault(w, in, lane, addr, WS_ERR_SIM, "mbarrier init with count 0 "
                                 "(must be 1..%u)", MB_FIELD);
        memcpy(p, &src, 8);
        return 0;
    }
    if (syncs && ws_sass_has(in, WS_SMOD_CCTL)) { /* SYNCS.CCTL.IV: inval */
        memset(p, 0, 8);
        return 0;
    }
    mb_state m = mb_unpack(s);
    if (!m.reset)
        return ws_sass_fault(w, in, lane, addr, WS_ERR_SIM, "mbarrier at shared 0x%llx used "
                             "before its init (or after its inval)", (unsigned long long)addr);
    if (syncs && ws_sass_has(in, WS_SMOD_PHASECHK)) { /* has the token's phase completed */
        *pred = m.phase != (int)((src >> 31) & 1u);
        return 0;
    }
    int rc = 0;
    if (!syncs) { /* ARRIVES.LDGSTSBAR.64: this thread's LDGSTS have completed */
        if (ws_sass_has(in, WS_SMOD_TRANSCNT))
            rc = mb_tx(w, in, lane, &m, -1);
        else
            rc = mb_arrive(w, in, lane, &m, 1, 0); /* .ARVCNT: cp.async.mbarrier.arrive.noinc */
    } else if (ws_sass_has(in, WS_SMOD_A0T1)) { /* an LDGSTS transaction to come */
        rc = mb_tx(w, in, lane, &m, 1);
    } else if (ws_sass_has(in, WS_SMOD_A0TR)) { /* expect_tx: bytes, no arrival */
        rc = mb_tx(w, in, lane, &m, (int64_t)(uint32_t)src);
    } else if (ws_sass_has(in, WS_SMOD_A0TX)) { /* complete_tx: bytes, no arrival */
        rc = mb_tx(w, in, lane, &m, -(int64_t)(uint32_t)src);
    } else {
        uint32_t n = 1;
        if (ws_sass_has(in, WS_SMOD_ART0)) { /* arrive(count) */
            n = (uint32_t)src;
            if (!n)
                return ws_sass_fault(w, in, lane, 0, WS_ERR_SIM, "mbarrier arrival of 0 "
                                     "(must be 1..%u)", MB_FIELD);
        } else if (!ws_sass_has(in, WS_SMOD_A1T0)) { /* arrive.expect_tx: bytes, then 1 */
            rc = mb_tx(w, in, lane, &m, (int64_t)(uint32_t)src);
        }
        if (!rc)
            rc = mb_arrive(w, in, lane, &m, n, ws_sass_has(in, WS_SMOD_OPTOUT));
    }
    if (rc)
        return rc;
    *completed = mb_complete_if_due(w, &m);
    s = mb_pack(&m);
    memcpy(p, &s, 8);
    return 0;
}

/* SYNCS.EXCH.64 Rd, [a], Rs (init) | SYNCS.ARRIVE.TRANS64[.RED][.OPTOUT][.A1T0|.A0T1|.ART0]
 * Rd, [a], Rb (arrive: Rd the token; Rb the count of .ART0, or expect_tx bytes) |
 * SYNCS.PHASECHK.TRANS64[.TRYWAIT] Pd, [a], Rtok (Rtok: the token's high word, or
 * parity << 31) | SYNCS.CCTL.IV [a] (inval) | ARRIVES.LDGSTSBAR.64.ARVCNT/.TRANSCNT [a]. */
int ws_sass_x_mbarrier(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    int k = ws_sass_find_opnd(in, WS_SO_MEM), real = WS_SPACE_SHARED;
    int syncs = in->op == WS_SOP_SYNCS;
    int known = !syncs ? ws_sass_has(in, WS_SMOD_LDGSTSBAR)
              : ws_sass_has(in, WS_SMOD_EXCH) || ws_sass_has(in, WS_SMOD_ARRIVE) ||
                ws_sass_has(in, WS_SMOD_PHASECHK) || ws_sass_has(in, WS_SMOD_CCTL);
    if (k < 0 || !known ||
        (syncs && !ws_sass_has(in, WS_SMOD_CCTL) && k + 1 >= in->nopnd))
        return ws_sass_fault(w, in, exec ? __builtin_ctz(exec) : 0, 0, WS_ERR_UNSUPPORTED,
                             "unsupported %s form (SYNCS.EXCH.64, SYNCS.ARRIVE.TRANS64, "
                             "SYNCS.PHASECHK.TRANS64, SYNCS.CCTL.IV and "
                             "ARRIVES.LDGSTSBAR.64 are known)", syncs ? "SYNCS" : "ARRIVES");
    addresses(w, in, k, exec, fx->addr);
    fx->has_addr = 1;
    fx->bytes = 8;
    int check = syncs && ws_sass_has(in, WS_SMOD_PHASECHK);
    uint32_t pm = 0, wait_off = 0, wait_parity = 0;
    int have_wait = 0, one_wait = 1; /* incomplete lanes wait on one object and parity */
    WS_LANES(l, exec, {
        uint8_t *p = resolve(w, in, WS_SPACE_SHARED, fx->addr[l], 8, l, 2, &real);
        if (!p)
            return WS_ERR_SIM;
        uint32_t sw[2] = {0, 0};
        if (k + 1 < in->nopnd)
            reg_words(w, &in->o[k + 1], l, sw, ws_sass_has(in, WS_SMOD_EXCH) ? 2 : 1);
        uint64_t old = 0;
        int pred = 0, completed = 0;
        if (mb_lane(w, in, l, fx->addr[l], p, sw[0] | (uint64_t)sw[1] << 32, &old, &pred,
                    &completed))
            return WS_ERR_SIM;
        uint32_t off = (uint32_t)(p - w->cta->shared);
        if (completed)
            ws_sass_mbar_wake(w->cta, off, (int)(old >> 63) ^ 1);
        if (check && pred) {
            pm |= 1u << l;
        } else if (check && !have_wait) {
            wait_off = off;
            wait_parity = (sw[0] >> 31) & 1u;
            have_wait = 1;
        } else if (check && (off != wait_off || ((sw[0] >> 31) & 1u) != wait_parity)) {
            one_wait = 0;
        }
        if (k > 0 && in->o[0].kind == WS_SO_R) { /* the token: the word before the arrival */
            uint32_t ow[2] = { (uint32_t)old, (uint32_t)(old >> 32) };
            set_words(w, &in->o[0], l, ow, 2);
        }
    });
    fx->space = (uint8_t)real;
    if (!check) {
        w->cta->mbar.changed = 1;
        return 0;
    }
    ws_sass_pdst(w, in, 0, exec, pm);
    uint32_t waiting = exec & ~pm;
    if (!waiting)
        return 0;
    if (ws_sass_has(in, WS_SMOD_TRYWAIT) && one_wait) /* try_wait suspends the threads until
        the phase completes (or its time limit: sass_exec.c, mbar_timeout) */
        ws_sass_park(w, waiting, WS_SG_MBAR, (int)wait_parity, wait_off, fx);
    else { /* test_wait: nothing changes until other warps arrive */
        w->turn_over = 1;
        ws_mbar_failed(&w->cta->mbar, in, w->id, waiting, have_wait ? wait_off : 0);
    }
    return 0;
}

/* Uniform register r's value (URZ and past the file read 0). */
static uint32_t ureg(const ws_sass_warp *w, int r)
{
    return r >= 0 && r < WS_SASS_URZ ? w->ur[r] : 0u;
}

/* UBLKCP.S.G [URd], [URs], URn: cp.async.bulk of (URn & 0xffff) * 16 bytes from global
 * URs:URs+1 to shared URd, then complete_tx of those bytes on the mbarrier at shared
 * UR(d+1) (ptxas keeps the two in a pair and the size in 16-byte units; bulk.cu in
 * tests/sim/cu shows both). UBLKCP.G.S [URd], [URs], URn: shared URs to global URd:URd+1
 * (a bulk group, waited for by DEPBAR). Uniform: one copy per issue, complete at issue,
 * 16 bytes at a time, each piece resolved on its own (sizes need not be powers of two, a
 * copy may run on into an abutting allocation, race detection sees each piece). */
int ws_sass_x_ublkcp(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    if (!exec)
        return 0;
    int lane = __builtin_ctz(exec);
    int to_shared = !strcmp(in->name, "UBLKCP.S.G"), from_shared = !strcmp(in->name, "UBLKCP.G.S");
    const ws_sass_opnd *d = &in->o[0], *s = &in->o[1], *sz = &in->o[2];
    if ((!to_shared && !from_shared) || d->kind != WS_SO_MEM || s->kind != WS_SO_MEM ||
        sz->kind != WS_SO_UR || (d->reg >= 0 && d->reg != WS_SASS_RZ) ||
        (s->reg >= 0 && s->reg != WS_SASS_RZ))
        return ws_sass_fault(w, in, lane, 0, WS_ERR_UNSUPPORTED, "unsupported UBLKCP form "
                             "(UBLKCP.S.G and UBLKCP.G.S [UR], [UR], UR are known)");
    uint64_t n = (uint64_t)(ureg(w, sz->reg) & 0xffffu) * 16;
    uint64_t da = (uint64_t)d->imm + ureg(w, d->ureg), sa = (uint64_t)s->imm + ureg(w, s->ureg);
    if (to_shared)
        sa += (uint64_t)ureg(w, s->ureg + 1) << 32;
    else
        da += (uint64_t)ureg(w, d->ureg + 1) << 32;
    int dsp = to_shared ? WS_SPACE_SHARED : WS_SPACE_GLOBAL, real = dsp;
    int ssp = to_shared ? WS_SPACE_GLOBAL : WS_SPACE_SHARED;
    if (!n) /* ptxas shifted the byte count right by 4: a size under 16 reads 0 */
        return ws_sass_fault(w, in, lane, sa, WS_ERR_SIM, "bulk copy of 0 bytes (the size "
                             "must be a non-zero multiple of 16)");
    for (uint64_t o = 0; o < n; o += 16) { /* global and shared never overlap */
        uint8_t *to = resolve(w, in, dsp, da + o, 16, lane, 1, &real);
        const uint8_t *from = to ? resolve(w, in, ssp, sa + o, 16, lane, 0, &real) : NULL;
        if (!from)
            return WS_ERR_SIM;
        memcpy(to, from, 16);
    }
    fx->space = (uint8_t)(to_shared ? WS_SPACE_GLOBAL : WS_SPACE_SHARED);
    if (!to_shared)
        return 0;
    uint64_t ba = ureg(w, d->ureg + 1);
    uint8_t *p = resolve(w, in, WS_SPACE_SHARED, ba & 0xffffffffu, 8, lane, 2, &real);
    if (!p)
        return WS_ERR_SIM;
    uint64_t st;
    memcpy(&st, p, 8);
    mb_state m = mb_unpack(st);
    if (!m.reset)
        return ws_sass_fault(w, in, lane, ba, WS_ERR_SIM, "bulk copy completing on an mbarrier "
                             "at shared 0x%llx before its init (or after its inval)",
                             (unsigned long long)ba);
    if (mb_tx(w, in, lane, &m, -(int64_t)n))
        return WS_ERR_SIM;
    w->cta->mbar.changed = 1;
    int completed = mb_complete_if_due(w, &m);
    uint64_t s2 = mb_pack(&m);
    memcpy(p, &s2, 8);
    if (completed)
        ws_sass_mbar_wake(w->cta, (uint32_t)(p - w->cta->shared), (int)(st >> 63) ^ 1);
    return 0;
}
