/* race.c — detection of unsynchronized conflicting accesses. Each 4-byte word of shared
 * memory (per CTA, cleared at every barrier) and of global memory has a shadow pair: the
 * last writer and the last reader, packed into one 64-bit word each with the bytes of the
 * word they touched (relaxed atomics, so host threads may share them). Accesses to
 * different bytes of one word do not conflict; the pair keeps only the latest access, so
 * a race may be missed, never invented. Two accesses made while holding a lock (a word an
 * atomic compare-and-swap or exchange took from 0, until the holder writes it again; a
 * leader's lock is its warp's from a __syncwarp, its CTA's from a __syncthreads) do not
 * conflict. Nor does another CTA's access with a write that its CTA published: a CTA that
 * makes a global atomic after a memory fence (`__threadfence(); atomicInc(&ticket, ..)`)
 * publishes its global writes, and a CTA that has made a global atomic itself reads them
 * in order (the CUDA samples' last-block reduction). Nor do two morally strong accesses (the
 * PTX memory model: atomics, and volatile, relaxed, acquire or release loads and stores at
 * GPU or system scope), which is how a flag that one CTA publishes and another polls is
 * meant to be read (a decoupled look-back's status words). Conflicts are de-duplicated by
 * PC pair. */
#include <stdio.h>
#include <stdlib.h>
#include "sim/exec.h"

#define RACE_PAIRS_MAX 1024
#define RACE_WARNINGS_MAX 20
#define CTA_BITS 18 /* CTA ids alias above 2^18 CTAs: such pairs are missed, not invented */
_Static_assert(WS_RACE_CTAS == 1u << CTA_BITS, "exec.h's WS_RACE_CTAS is 2^CTA_BITS");

/* valid:63 atomic:62 epoch:55-61 lane:50-54 warp:45-49 strong:44 cta:26-43 publishable:25 locked:24
 * bytes:20-23 fn:16-19 pc:0-15; epoch = CTA barrier count (4 bits) << 3 | the warp's
 * __syncwarp count (3 bits); bytes = which bytes of the word the access touched (bit i:
 * byte i); locked = the lane held a lock (ws_race_lock); publishable = an atomic, or a
 * write its lane made before any fence since the lane's last release (so the lane's next
 * fence and global atomic publish it). */
static uint64_t pack(uint32_t cta, int warp, int lane, int fn, int pc, uint32_t epoch,
                     int atomic, int strong, int locked, int publishable)
{
    return 1ull << 63 | (uint64_t)(atomic & 1) << 62 | (uint64_t)(epoch & 127) << 55 |
           (uint64_t)(lane & 31) << 50 | (uint64_t)(warp & 31) << 45 | (uint64_t)(strong & 1) << 44 |
           (uint64_t)(cta & ((1u << CTA_BITS) - 1)) << 26 |
           (uint64_t)(publishable & 1) << 25 | (uint64_t)(locked & 1) << 24 |
           (uint64_t)(fn > 15 ? 15 : fn) << 16 | (uint64_t)(pc & 0xffff);
}

static int s_pc(uint64_t s) { return (int)(s & 0xffff); }
static int s_fn(uint64_t s) { return (int)((s >> 16) & 15); }
static unsigned s_bytes(uint64_t s) { return (unsigned)((s >> 20) & 15); }
static uint32_t s_cta(uint64_t s) { return (uint32_t)((s >> 26) & ((1u << CTA_BITS) - 1)); }
static int s_publishable(uint64_t s) { return (int)((s >> 25) & 1); }
static int s_locked(uint64_t s) { return (int)((s >> 24) & 1); }
static int s_warp(uint64_t s) { return (int)((s >> 45) & 31); }
static int s_lane(uint64_t s) { return (int)((s >> 50) & 31); }
static uint32_t s_epoch(uint64_t s) { return (uint32_t)((s >> 55) & 127); }
static int s_atomic(uint64_t s) { return (int)((s >> 62) & 1); }
static int s_strong(uint64_t s) { return (int)((s >> 62) & 1) | (int)((s >> 44) & 1); }

/* Whether two accesses are one thread's (its CTA, warp and lane; not the access's kind). */
static int same_thread(uint64_t a, uint64_t b)
{
    return s_cta(a) == s_cta(b) && s_warp(a) == s_warp(b) && s_lane(a) == s_lane(b);
}

/* Whether CTA `cta` (mod 2^CTA_BITS: an alias can only hide a race) published its writes. */
static int released(const uint8_t *bits, uint32_t cta)
{
    return bits && (__atomic_load_n(&bits[cta / 8], __ATOMIC_RELAXED) >> (cta % 8) & 1);
}

/* `acquired`: cur's CTA has made a global atomic; `bits`: the run's published CTAs. */
static int conflicts(uint64_t prev, uint64_t cur, int space, int acquired, const uint8_t *bits)
{
    if (!(prev >> 63) || same_thread(prev, cur) ||
        !(s_bytes(prev) & s_bytes(cur)))
        return 0;
    if (s_strong(prev) && s_strong(cur))
        return 0; /* atomics, volatile and relaxed accesses: morally strong, no data race */
    if (s_locked(prev) && s_locked(cur))
        return 0; /* both in critical sections (of one lock, or the race is missed) */
    if (s_cta(prev) != s_cta(cur))
        return !(space == WS_SPACE_GLOBAL && acquired && s_publishable(prev) &&
                 released(bits, s_cta(prev)));
    if (space != WS_SPACE_SHARED && (s_epoch(prev) >> 3) != (s_epoch(cur) >> 3))
        return 0; /* same CTA, separated by a barrier (shared shadows are cleared instead) */
    if (s_warp(prev) == s_warp(cur) && (s_epoch(prev) & 7) != (s_epoch(cur) & 7))
        return 0; /* same warp, separated by __syncwarp */
    return 1;
}

static void record(ws_worker *wk, uint64_t cur, uint64_t prev, int kind, int space,
                   uint64_t addr)
{
    for (int i = 0; i < wk->nraces; i++) {
        const ws_race_rec *r = &wk->races[i];
        if (r->pc1 == s_pc(cur) && r->pc2 == s_pc(prev) && r->fn1 == s_fn(cur) &&
            r->fn2 == s_fn(prev) && r->kind == kind)
            return;
    }
    if (wk->nraces >= RACE_PAIRS_MAX)
        return;
    if (wk->nraces == wk->cap_races) {
        int cap = wk->cap_races ? wk->cap_races * 2 : 16;
        ws_race_rec *p = realloc(wk->races, (size_t)cap * sizeof *p);
        if (!p)
            return;
        wk->races = p;
        wk->cap_races = cap;
    }
    wk->races[wk->nraces++] = (ws_race_rec){
        s_fn(cur), s_pc(cur), s_fn(prev), s_pc(prev), kind, space, addr,
        s_cta(cur), s_cta(prev), s_warp(cur), s_lane(cur), s_warp(prev), s_lane(prev),
        s_atomic(cur), s_atomic(prev)};
}

void ws_race_access(ws_warp *w, const ws_inst *in, int space, uint64_t addr, int bytes,
                    int lane, int is_write, int is_atomic, uint64_t *shadow)
{
    const ws_frame *f = &w->frames[w->nframes - 1];
    int sp = space;
    if (sp == WS_SPACE_GENERIC)
        sp = addr >= WS_SHARED_WINDOW && addr < WS_SHARED_WINDOW + WS_WINDOW_SIZE
                 ? WS_SPACE_SHARED : WS_SPACE_GLOBAL;
    ws_race_who who = { w->cta->id, w->id, lane, f->fn,
                        (int)(in - w->cta->run->m->funcs[f->fn].insts), w->cta->bar_epoch,
                        w->sync_epoch, w->held[lane] != 0, (int)(w->fenced >> lane & 1),
                        w->cta->atomic_seen, (in->flags & (WS_F_VOLATILE | WS_F_STRONG)) != 0 };
    if (is_atomic && sp == WS_SPACE_GLOBAL)
        ws_race_global_atomic(&w->cta->atomic_seen, &w->fenced, lane);
    ws_race_check(w->cta->wk, &who, sp, addr, bytes, is_write, is_atomic, shadow);
}

void ws_race_check(ws_worker *wk, const ws_race_who *who, int sp, uint64_t addr, int bytes,
                   int is_write, int is_atomic, uint64_t *shadow)
{
    uint32_t epoch = (who->bar_epoch & 15) << 3 | (who->sync_epoch & 7);
    uint64_t cur = pack(who->cta, who->warp, who->lane, who->fn, who->pc, epoch, is_atomic,
                        who->strong, who->locked, is_atomic || !who->fenced);
    uint8_t *bits = wk->run ? wk->run->released_ctas : NULL;
    if (is_atomic && sp == WS_SPACE_GLOBAL && who->fenced && bits) {
        uint32_t id = who->cta & ((1u << CTA_BITS) - 1);
        __atomic_fetch_or(&bits[id / 8], (uint8_t)(1u << (id % 8)), __ATOMIC_RELAXED);
    }
    /* accesses are naturally aligned: a sub-word one stays inside its word */
    unsigned first = (unsigned)(addr & 3);
    int words = (int)((first + (unsigned)bytes + 3) / 4);
    for (int i = 0; i < words; i++, shadow += 2) {
        unsigned mask = bytes >= 4 ? 15u : ((1u << bytes) - 1) << first;
        uint64_t me = cur | (uint64_t)mask << 20;
        uint64_t lw = __atomic_load_n(&shadow[0], __ATOMIC_RELAXED);
        uint64_t *slot = &shadow[is_write ? 0 : 1];
        uint64_t wa = i ? (addr & ~3ull) + 4u * (unsigned)i : addr;
        if (conflicts(lw, me, sp, who->acquired, bits))
            record(wk, me, lw, is_write ? 0 : 1, sp, wa);
        if (is_write) {
            uint64_t lr = __atomic_load_n(&shadow[1], __ATOMIC_RELAXED);
            if (conflicts(lr, me, sp, who->acquired, bits))
                record(wk, me, lr, 2, sp, wa);
        }
        __atomic_store_n(slot, me, __ATOMIC_RELAXED);
    }
}

void ws_race_global_atomic(int *atomic_seen, uint32_t *fenced, int lane)
{
    *atomic_seen = 1;              /* the CTA's later accesses read what others published */
    *fenced &= ~(1u << lane);      /* released: the lane's later writes wait for its next fence */
}

/* A lane holds at most one lock (the innermost is all a critical section needs). A CAS
 * retry loop over a word that starts at 0 looks like a lock to this rule: its lane then
 * counts as holding one until it writes the word again, and a race between two such lanes
 * is missed (never invented). */
int ws_race_lock(uint64_t *held, uint64_t addr, int swap, uint64_t old, uint64_t nv)
{
    if (*held == addr && addr) {
        *held = 0; /* the holder writes its lock word: released */
        return 1;
    }
    if (swap && old == 0 && nv != 0 && !*held)
        *held = addr;
    return 0;
}

/* Warp k's lanes of the `held` arrays `stride` bytes apart. */
static uint64_t *warp_held(uint64_t *held, size_t stride, int k)
{
    return (uint64_t *)((char *)held + (size_t)k * stride);
}

void ws_race_lock_share(uint64_t *held, size_t stride, int nwarps)
{
    uint64_t lock = 0;
    for (int k = 0; k < nwarps && !lock; k++)
        for (int l = 0; l < WS_WARP && !lock; l++)
            lock = warp_held(held, stride, k)[l];
    for (int k = 0; k < nwarps && lock; k++)
        for (int l = 0; l < WS_WARP; l++)
            if (!warp_held(held, stride, k)[l])
                warp_held(held, stride, k)[l] = lock;
}

void ws_race_lock_end(uint64_t *held, size_t stride, int nwarps, uint64_t addr)
{
    for (int k = 0; k < nwarps; k++)
        for (int l = 0; l < WS_WARP; l++)
            if (warp_held(held, stride, k)[l] == addr)
                warp_held(held, stride, k)[l] = 0;
}

static void describe_pc(const void *ctx, int fn, int pc, char *buf, size_t n)
{
    const ws_run *run = ctx;
    const ws_function *f = &run->m->funcs[fn < run->m->nfuncs ? fn : run->entry];
    if (pc >= f->ninsts) {
        snprintf(buf, n, "PC %d", pc);
        return;
    }
    const ws_inst *in = &f->insts[pc];
    const char *file = in->file > 0 && in->file < run->m->nfiles ? run->m->files[in->file] : NULL;
    if (file) {
        const char *base = strrchr(file, '/');
        snprintf(buf, n, "PC %d (%s:%d)", pc, base ? base + 1 : file, in->line);
    } else {
        snprintf(buf, n, "PC %d (PTX line %d)", pc, in->ptx_line);
    }
}

/* PTX: an ld (global or generic) and an atom.cas with the same address operand. */
static int cas_guess_pc(const void *ctx, int fn_load, int load, int fn_cas, int cas)
{
    const ws_run *run = ctx;
    if (fn_load != fn_cas || fn_load < 0 || fn_load >= run->m->nfuncs)
        return 0;
    const ws_function *f = &run->m->funcs[fn_load];
    if (load < 0 || load >= f->ninsts || cas < 0 || cas >= f->ninsts)
        return 0;
    const ws_inst *ld = &f->insts[load], *at = &f->insts[cas];
    if ((ld->op != WS_OP_LD && ld->op != WS_OP_LDU) || at->op != WS_OP_ATOM ||
        at->subop != WS_SUB_CAS || ld->nsrc < 1 || at->nsrc < 1)
        return 0;
    const ws_operand *a = &ld->src[0], *b = &at->src[0];
    return a->kind == WS_O_ADDR && b->kind == WS_O_ADDR && a->reg == b->reg &&
           a->sym == b->sym && a->imm == b->imm;
}

int ws_race_merge(ws_run *run, ws_worker *wks, int nwk, ws_result *res)
{
    return ws_race_report(wks, sizeof *wks, nwk, describe_pc, cas_guess_pc, run, res);
}

/* A load/CAS pair whose load reads the CAS's guess. */
static int benign(const ws_race_rec *r, ws_race_cas_guess guess, const void *ctx)
{
    if (!guess || r->kind == 0 || r->space == WS_SPACE_SHARED)
        return 0;
    if (r->kind == 1) /* the read came second: pc1 read, pc2 the write */
        return r->atomic2 && guess(ctx, r->fn1, r->pc1, r->fn2, r->pc2);
    return r->atomic1 && guess(ctx, r->fn2, r->pc2, r->fn1, r->pc1);
}

/* Merges the workers' records (already de-duplicated per worker) into warnings and the
 * sim__races metric (distinct PC pairs). */
int ws_race_report(const ws_worker *first, size_t stride, int nwk, ws_race_describe describe,
                   ws_race_cas_guess guess, const void *ctx, ws_result *res)
{
    int distinct = 0;
    ws_race_rec *seen = NULL;
    int nseen = 0;
    for (int k = 0; k < nwk; k++) {
        const ws_worker *wk = (const ws_worker *)((const char *)first + (size_t)k * stride);
        for (int i = 0; i < wk->nraces; i++) {
            const ws_race_rec *r = &wk->races[i];
            if (benign(r, guess, ctx))
                continue;
            int dup = 0;
            for (int j = 0; j < nseen && !dup; j++)
                dup = seen[j].pc1 == r->pc1 && seen[j].pc2 == r->pc2 && seen[j].fn1 == r->fn1 &&
                      seen[j].fn2 == r->fn2 && seen[j].kind == r->kind;
            if (dup)
                continue;
            ws_race_rec *p = realloc(seen, (size_t)(nseen + 1) * sizeof *p);
            if (!p)
                break;
            seen = p;
            seen[nseen++] = *r;
            distinct++;
            if (distinct > RACE_WARNINGS_MAX)
                continue;
            char a[160], b[160];
            describe(ctx, r->fn1, r->pc1, a, sizeof a);
            describe(ctx, r->fn2, r->pc2, b, sizeof b);
            const char *v1 = r->kind == 1 ? "read" : r->atomic1 ? "written atomically" : "written";
            const char *v2 = r->kind == 2 ? "read" : r->atomic2 ? "written atomically" : "written";
            if (ws_result_add_warning(res,
                    "race: %s[0x%llx] %s at %s by CTA %u warp %d lane %d and %s at %s by "
                    "CTA %u warp %d lane %d without synchronization",
                    r->space == WS_SPACE_SHARED ? "shared" : "global",
                    (unsigned long long)r->address, v1, a, r->cta1, r->warp1, r->lane1, v2, b,
                    r->cta2, r->warp2, r->lane2) != 0) {
                free(seen);
                return WS_ERR_NOMEM;
            }
        }
    }
    free(seen);
    return ws_result_set_metric(res, WS_M(SIM_RACES), distinct);
}
