/* exec_async.c — asynchronous copies and mbarrier objects: cp.async groups (commit/wait;
 * the copies themselves complete at issue, exec_mem.c), cp.async.mbarrier.arrive, bulk
 * copies (cp.async.bulk between global and shared memory, complete at issue, and their
 * bulk groups), and mbarrier.init/arrive (.expect_tx)/arrive_drop/expect_tx/complete_tx/
 * test_wait/try_wait (.parity)/inval/pending_count with the phase semantics of the PTX ISA,
 * transaction counts included. Lanes act in lane order. */
#include <assert.h>
#include "sim/exec.h"

/* The simulator's layout of the opaque 64-bit mbarrier object in shared memory:
 * pending arrivals 0-19, expected arrivals 20-39, the transaction count 40-60 (bytes
 * expected and not yet delivered, a 21-bit signed number: a copy may complete before its
 * expect_tx), valid 62 (set by init, cleared by inval), phase parity 63. A phase completes
 * when no arrival and no transaction byte is pending. A state token (the result of an
 * arrive) is the object as the arrival found it: its phase parity in bit 63, the pending
 * count before it in 0-19. */
#define MB_COUNT_MAX 0xfffffu
#define MB_VALID (1ull << 62)

typedef struct mbar {
    uint32_t pending, expected;
    int32_t tx;
    int phase;
} mbar;

static mbar mb_unpack(uint64_t s)
{
    mbar m;
    m.pending = (uint32_t)(s & MB_COUNT_MAX);
    m.expected = (uint32_t)((s >> 20) & MB_COUNT_MAX);
    uint32_t t = (uint32_t)(s >> 40) & 0x1fffffu;
    m.tx = (int32_t)(t ^ 0x100000u) - 0x100000; /* 21-bit two's complement */
    m.phase = (int)(s >> 63);
    return m;
}

static uint64_t mb_pack(const mbar *m)
{
    return (uint64_t)m->pending | (uint64_t)m->expected << 20 |
           (uint64_t)((uint32_t)m->tx & 0x1fffffu) << 40 | MB_VALID | (uint64_t)m->phase << 63;
}

/* The lane's mbarrier object at `addr` in state space `sp` (in->space for mbarrier.*): 8
 * aligned bytes of shared memory; NULL with a fault set. */
static uint8_t *mb_object(ws_warp *w, const ws_inst *in, int sp, uint64_t addr, int lane,
                          int init)
{
    uint64_t a = addr;
    /* a generic address, or (cp.async.mbarrier.arrive from cuda::ptx) a 32-bit shared one */
    if (sp == WS_SPACE_GENERIC && a >> 32)
        sp = ws_generic_space(&a) == WS_SPACE_SHARED ? WS_SPACE_SHARED : WS_SPACE_GLOBAL;
    else if (sp == WS_SPACE_GENERIC)
        sp = WS_SPACE_SHARED;
    if (sp != WS_SPACE_SHARED && sp != WS_SPACE_SHARED_CLUSTER) {
        ws_x_fault(w, in, lane, addr, WS_ERR_SIM, "mbarrier object at 0x%llx is not in shared "
                   "memory", (unsigned long long)addr);
        return NULL;
    }
    uint8_t *p = ws_x_host_rw(w, in, WS_SPACE_SHARED, a, 8, lane);
    if (p && !init) {
        uint64_t s;
        memcpy(&s, p, 8);
        if (!(s & MB_VALID)) {
            ws_x_fault(w, in, lane, addr, WS_ERR_SIM, "mbarrier at shared 0x%llx used before "
                       "mbarrier.init (or after mbarrier.inval)", (unsigned long long)a);
            return NULL;
        }
    }
    return p;
}

/* Completes the current phase when no arrival and no transaction byte is pending. */
static void mb_complete_if_due(ws_warp *w, mbar *m)
{
    if (m->pending || m->tx)
        return;
    m->phase ^= 1;
    m->pending = m->expected;
    ws_x_cta_sync_point(w->cta); /* the waiters are ordered after every arrival */
}

/* arrive / arrive_drop / arrive.expect_tx / cp.async.mbarrier.arrive.noinc of `count`. */
static int mb_arrive(ws_warp *w, const ws_inst *in, int lane, mbar *m, uint32_t count,
                     uint64_t *token)
{
    if (count == 0 || count > m->pending)
        return ws_x_fault(w, in, lane, 0, WS_ERR_SIM, "mbarrier arrival of %u exceeds its "
                          "pending count %u (phase %d)", count, m->pending, m->phase);
    *token = (uint64_t)m->phase << 63 | m->pending;
    m->pending -= count;
    if (in->op == WS_OP_MBAR_ARRIVE_DROP)
        m->expected -= count;
    mb_complete_if_due(w, m);
    return 0;
}

/* expect_tx (delta > 0) or complete_tx (delta < 0) of |delta| bytes. */
static int mb_tx(ws_warp *w, const ws_inst *in, int lane, mbar *m, int64_t delta)
{
    char why[160];
    if (!ws_mbar_tx_apply(&m->tx, delta, m->phase, " bytes", why, sizeof why))
        return ws_x_fault(w, in, lane, 0, WS_ERR_SIM, "%s", why);
    return 0;
}

/* One lane's operation on its mbarrier object; *result is its destination value. */
static int mb_lane(ws_warp *w, const ws_inst *in, int lane, uint8_t *p, uint64_t b,
                   uint64_t *result)
{
    uint64_t s;
    memcpy(&s, p, 8);
    mbar m = mb_unpack(s);
    int rc = 0;
    switch (in->op) {
    case WS_OP_MBAR_INIT:
        if (b < 1 || b > MB_COUNT_MAX)
            return ws_x_fault(w, in, lane, 0, WS_ERR_SIM, "mbarrier.init with count %llu "
                              "(must be 1..%u)", (unsigned long long)b, MB_COUNT_MAX);
        m = (mbar){(uint32_t)b, (uint32_t)b, 0, 0};
        break;
    case WS_OP_MBAR_INVAL:
        memset(p, 0, 8);
        return 0;
    case WS_OP_MBAR_TEST_WAIT: case WS_OP_MBAR_TRY_WAIT: {
        int parity = in->subop == WS_SUB_PARITY ? (int)(b & 1) : (int)(b >> 63);
        *result = m.phase != parity; /* the phase of that parity has completed */
        return 0;
    }
    case WS_OP_CP_ASYNC_MBAR:
        /* Without .noinc the pending count goes up at issue and down when the thread's
         * copies complete: here both at once, nothing to do. */
        if (in->subop != WS_SUB_NOINC)
            return 0;
        rc = mb_arrive(w, in, lane, &m, 1, result);
        break;
    case WS_OP_MBAR_EXPECT_TX:
        rc = mb_tx(w, in, lane, &m, (int64_t)(uint32_t)b);
        break;
    case WS_OP_MBAR_COMPLETE_TX:
        if (!(rc = mb_tx(w, in, lane, &m, -(int64_t)(uint32_t)b)))
            mb_complete_if_due(w, &m);
        break;
    default: /* arrive, arrive_drop */
        if (in->subop == WS_SUB_EXPECT_TX) { /* the expect-tx comes before the arrival */
            if ((rc = mb_tx(w, in, lane, &m, (int64_t)(uint32_t)b)))
                break;
            b = 1;
        }
        rc = mb_arrive(w, in, lane, &m, (uint32_t)b, result);
        break;
    }
    s = mb_pack(&m);
    memcpy(p, &s, 8);
    return rc;
}

static int mbarrier(ws_warp *w, const ws_inst *in, uint32_t exec, ws_effect *fx)
{
    uint64_t *addr = fx->addr, *res = w->scratch[3];
    ws_x_addresses(w, in, 0, in->space, exec, addr);
    static const uint64_t one[WS_WARP] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                          1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    const uint64_t *b = in->nsrc > 1 ? ws_x_src(w, in, 1, w->scratch[1]) : one;
    int init = in->op == WS_OP_MBAR_INIT || in->op == WS_OP_MBAR_INVAL;
    int wait = in->op == WS_OP_MBAR_TEST_WAIT || in->op == WS_OP_MBAR_TRY_WAIT;
    uint32_t failed = 0, off = 0;
    WS_LANES(l, exec, {
        uint8_t *p = mb_object(w, in, in->space, addr[l], l, init);
        res[l] = 0;
        if (!p || mb_lane(w, in, l, p, b[l], &res[l]))
            return WS_ERR_SIM;
        if (wait && !res[l]) {
            failed |= 1u << l;
            off = (uint32_t)(p - w->cta->shared);
        }
    });
    if (!wait)
        w->cta->mbar.changed = 1;
    else if (failed)
        ws_mbar_failed(&w->cta->mbar, in, w->id, failed, off);
    if (in->ndst && in->dst[0].kind == WS_O_REG) {
        uint64_t *d = ws_x_reg(w, in->dst[0].reg);
        WS_LANES(l, exec, d[l] = res[l];);
    }
    fx->has_addr = 1;
    fx->space = WS_SPACE_SHARED;
    fx->bytes = 8;
    return 0;
}

/* cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [dst], [src], size,
 * [mbar] and cp.async.bulk.global.shared::cta.bulk_group [dst], [src], size (the forms the
 * parser lets through): each lane's copy completes at issue, and a copy into shared memory
 * then completes `size` transaction bytes on its mbarrier. The copy goes 16 bytes at a time,
 * each piece resolved on its own: a size need not be a power of two (which resolve takes
 * as the alignment), and a copy may run on into an allocation that abuts (a capture's). */
static int bulk_copy(ws_warp *w, const ws_inst *in, uint32_t exec, ws_effect *fx)
{
    int to_shared = in->space == WS_SPACE_SHARED_CLUSTER;
    int dsp = to_shared ? WS_SPACE_SHARED : WS_SPACE_GLOBAL;
    int ssp = to_shared ? WS_SPACE_GLOBAL : WS_SPACE_SHARED;
    uint64_t *dst = w->scratch[0], *src = fx->addr, *bar = w->scratch[2];
    assert(to_shared ? in->nsrc == 4 : in->space == WS_SPACE_GLOBAL && in->nsrc == 3);
    ws_x_addresses(w, in, 0, dsp, exec, dst);
    ws_x_addresses(w, in, 1, ssp, exec, src);
    const uint64_t *size = ws_x_src(w, in, 2, w->scratch[1]);
    if (to_shared)
        ws_x_addresses(w, in, 3, WS_SPACE_SHARED, exec, bar);
    WS_LANES(l, exec, {
        uint64_t n = (uint32_t)size[l];
        if (!n || (n | dst[l] | src[l]) & 15)
            return ws_x_fault(w, in, l, src[l], WS_ERR_SIM, "cp.async.bulk of %llu bytes from "
                              "0x%llx to 0x%llx: the size and both addresses must be non-zero "
                              "multiples of 16", (unsigned long long)n,
                              (unsigned long long)src[l], (unsigned long long)dst[l]);
        for (uint64_t o = 0; o < n; o += 16) { /* global and shared never overlap */
            uint8_t *d = ws_x_host_rw(w, in, dsp, dst[l] + o, 16, l);
            const uint8_t *s = d ? ws_x_host(w, in, ssp, src[l] + o, 16, l) : NULL;
            if (!s)
                return WS_ERR_SIM;
            memcpy(d, s, 16);
        }
        if (to_shared) {
            uint8_t *p = mb_object(w, in, WS_SPACE_SHARED, bar[l], l, 0);
            if (!p)
                return WS_ERR_SIM;
            uint64_t st;
            memcpy(&st, p, 8);
            mbar m = mb_unpack(st);
            if (mb_tx(w, in, l, &m, -(int64_t)n))
                return WS_ERR_SIM;
            mb_complete_if_due(w, &m);
            st = mb_pack(&m);
            memcpy(p, &st, 8);
            w->cta->mbar.changed = 1;
        }
    });
    fx->has_addr = 1;
    fx->space = (uint8_t)ssp;
    fx->bytes = 16;
    return 0;
}

int ws_x_async(ws_warp *w, const ws_inst *in, uint32_t exec, ws_effect *fx)
{
    switch (in->op) {
    case WS_OP_CP_ASYNC_COMMIT: case WS_OP_CP_ASYNC_WAIT: case WS_OP_CP_ASYNC_WAIT_ALL:
    case WS_OP_CP_ASYNC_BULK_COMMIT: case WS_OP_CP_ASYNC_BULK_WAIT:
        return 0; /* every copy completed at issue */
    case WS_OP_CP_ASYNC_BULK:
        return bulk_copy(w, in, exec, fx);
    case WS_OP_MBAR_PENDING: {
        const uint64_t *s = ws_x_src(w, in, 0, w->scratch[0]);
        uint64_t *d = ws_x_reg(w, in->dst[0].reg);
        WS_LANES(l, exec, d[l] = s[l] & MB_COUNT_MAX;);
        return 0;
    }
    default:
        return mbarrier(w, in, exec, fx);
    }
}
