/* sass_warp.c — SASS instructions where lanes exchange values: SHFL (IDX/UP/DOWN/BFLY with
 * the packed clamp and segment mask of PTX shfl.sync), VOTE/VOTEU (ANY/ALL/EQ and the
 * ballot), MATCH (ANY/ALL), REDUX (SUM/MIN/MAX/AND/OR/XOR into a uniform register). */
#include "sim/sass_exec.h"

int ws_sass_x_shfl(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    /* SHFL.DOWN PT, R5, R2, 0x4, 0x1f: predicate out, value out, value, lane/offset, clamp */
    int k = in->o[0].kind == WS_SO_P ? 1 : 0;
    uint32_t a[WS_WARP], b[WS_WARP], c[WS_WARP], d[WS_WARP];
    uint32_t all = w->valid & ~w->exited;
    ws_sass_src(w, in, k + 1, all, a);
    ws_sass_src(w, in, k + 2, exec, b);
    ws_sass_src(w, in, k + 3, exec, c);
    uint32_t pmask = 0;
    int up = ws_sass_has(in, WS_SMOD_UP), down = ws_sass_has(in, WS_SMOD_DOWN);
    int bfly = ws_sass_has(in, WS_SMOD_BFLY);
    WS_LANES(l, exec, {
        uint32_t seg = (c[l] >> 8) & 31u, clamp = c[l] & 31u;
        uint32_t maxl = ((uint32_t)l & seg) | (clamp & ~seg), minl = (uint32_t)l & seg;
        int32_t j;
        int ok;
        if (up) { j = l - (int32_t)(b[l] & 31u); ok = j >= (int32_t)maxl; }
        else if (down) { j = l + (int32_t)(b[l] & 31u); ok = j <= (int32_t)maxl; }
        else if (bfly) { j = l ^ (int32_t)(b[l] & 31u); ok = j <= (int32_t)maxl; }
        else { j = (int32_t)(minl | (b[l] & 31u & ~seg)); ok = j <= (int32_t)maxl; }
        if (!ok)
            j = l;
        d[l] = a[j];
        pmask |= (uint32_t)ok << l;
    });
    ws_sass_dst(w, in, k, exec, d);
    if (k)
        ws_sass_pdst(w, in, 0, exec, pmask);
    return 0;
}

int ws_sass_x_vote(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    /* VOTE.ANY R7, PT, P0 (ballot + any) / VOTE.ALL P0, P1 / VOTEU.ANY UR5, UPT, PT */
    int np = in->nopnd;
    uint32_t src = ws_sass_psrc(w, in, np - 1) & exec;
    uint32_t r = ws_sass_has(in, WS_SMOD_ALL) ? (src == exec ? WS_FULL_MASK : 0)
               : ws_sass_has(in, WS_SMOD_EQ) ? ((src == exec || src == 0) ? WS_FULL_MASK : 0)
               : (src ? WS_FULL_MASK : 0);
    if (np == 3) {
        uint32_t v[WS_WARP];
        WS_LANES(l, exec, v[l] = src;);
        ws_sass_dst(w, in, 0, exec, v);
        ws_sass_pdst(w, in, 1, exec, r);
    } else {
        ws_sass_pdst(w, in, 0, exec, r);
    }
    return 0;
}

/* ELECT Pd, URd, Ps (elect.sync): of the lanes running it with Ps true, the lowest is the
 * leader; Pd is true in it alone, URd holds its lane number. */
int ws_sass_x_elect(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    (void)fx;
    uint32_t members = exec & ws_sass_psrc(w, in, 2);
    uint32_t leader = members ? members & (~members + 1) : 0;
    ws_sass_pdst(w, in, 0, exec, leader);
    uint32_t v[WS_WARP];
    uint32_t id = members ? (uint32_t)__builtin_ctz(members) : 0;
    WS_LANES(l, exec, v[l] = id;);
    ws_sass_dst(w, in, 1, exec, v);
    return 0;
}

int ws_sass_x_match(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    /* MATCH.ANY R0, R10 / MATCH.ALL P1, R7, R0 (.U64 compares register pairs) */
    int all = ws_sass_has(in, WS_SMOD_ALL);
    int k = in->o[0].kind == WS_SO_P ? 1 : 0;
    uint64_t a[WS_WARP];
    if (in->dtype == WS_SMOD_U64 || in->dtype == WS_SMOD_B64)
        ws_sass_src64(w, in, k + 1, exec, a);
    else {
        uint32_t t[WS_WARP];
        ws_sass_src(w, in, k + 1, exec, t);
        WS_LANES(l, exec, a[l] = t[l];);
    }
    uint32_t d[WS_WARP], groups = 0, seen = 0;
    int same_all = 1;
    WS_LANES(l, exec, {
        uint32_t m = 0;
        WS_LANES(j, exec, m |= (uint32_t)(a[j] == a[l]) << j;);
        d[l] = m;
        if (m != exec) same_all = 0;
        if (!(seen & (1u << l))) { groups++; seen |= m; }
    });
    if (all)
        WS_LANES(l, exec, d[l] = same_all ? exec : 0;);
    ws_sass_dst(w, in, k, exec, d);
    if (k)
        ws_sass_pdst(w, in, 0, exec, same_all ? WS_FULL_MASK : 0);
    fx->groups = (uint8_t)(groups ? groups : 1);
    return 0;
}

int ws_sass_x_redux(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    /* REDUX.SUM.S32 UR8, R10: one value for the warp, the lowest exec lane writes it */
    uint32_t v[WS_WARP];
    ws_sass_src(w, in, 1, exec, v);
    int sgn = in->dtype == WS_SMOD_S32;
    uint32_t acc = 0;
    int first = 1;
    WS_LANES(l, exec, {
        uint32_t x = v[l];
        if (first) { acc = x; first = 0; continue; }
        if (ws_sass_has(in, WS_SMOD_SUM)) acc += x;
        else if (ws_sass_has(in, WS_SMOD_MIN))
            acc = sgn ? ((int32_t)x < (int32_t)acc ? x : acc) : (x < acc ? x : acc);
        else if (ws_sass_has(in, WS_SMOD_MAX))
            acc = sgn ? ((int32_t)x > (int32_t)acc ? x : acc) : (x > acc ? x : acc);
        else if (ws_sass_has(in, WS_SMOD_OR)) acc |= x;
        else if (ws_sass_has(in, WS_SMOD_XOR)) acc ^= x;
        else acc &= x; /* REDUX without an operation is .AND */
    });
    WS_LANES(l, exec, v[l] = acc;);
    ws_sass_dst(w, in, 0, exec, v);
    return 0;
}
