/* sass_tex.c — texture and surface objects on the SASS model: TEX (float coordinates,
 * filtered as the spec's `texture` line says), TLD (integer coordinates: tex1Dfetch), SULD
 * and SUST, through the PTX model's sampler and surface addressing (exec_image.c), so both
 * models read and write the same texels the same way.
 *   TEX[.LL|.LZ] Rd2, Rd, Ra, Rb, URh, idx, GEOMETRY[, mask]
 *   TLD[.LZ]     Rd2, Rd, Ra, URh, idx, GEOMETRY[, mask]
 * Ra, Ra+1, Ra+2 hold x, y, z as far as the geometry goes (ptxas reads a 1D texture as 2D);
 * Rb the level of detail, which a one-level image ignores; URh the texture object (the
 * handle the launch passed); mask the channels wanted (0xf when absent), written in order to
 * Rd, Rd+1, then Rd2, Rd2+1. Images have one channel: (v, 0, 0, 1). */
#include <string.h>
#include "sim/sass_exec.h"

int ws_sass_x_tex(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    (void)fx;
    if (!exec)
        return 0;
    int fetch = in->op == WS_SOP_TLD, u = ws_sass_find_opnd(in, WS_SO_UR);
    int geom = u > 0 && u + 2 < in->nopnd ? (int)in->o[u + 2].imm : 0;
    uint32_t mask = u > 0 && u + 3 < in->nopnd ? (uint32_t)in->o[u + 3].imm : 0xfu;
    if (u != (fetch ? 3 : 4) || geom < 1 || geom > 3 || in->o[1].kind != WS_SO_R ||
        in->o[2].kind != WS_SO_R)
        return ws_sass_fault(w, in, __builtin_ctz(exec), 0, WS_ERR_UNSUPPORTED,
                             "unsupported %s form (1D, 2D and 3D reads of a texture object "
                             "are known; cube maps, arrays and gathers are not)",
                             fetch ? "TLD" : "TEX");
    const ws_run *run = &w->cta->run->base;
    int ra = in->o[2].reg, rd[4] = {in->o[1].reg, in->o[1].reg + 1, in->o[0].reg,
                                    in->o[0].reg + 1};
    uint32_t out[4][WS_WARP];
    WS_LANES(l, exec, {
        int h = in->o[u].reg;
        uint64_t handle = w->ur[h] | (h + 1 < WS_SASS_URZ ? (uint64_t)w->ur[h + 1] << 32 : 0);
        ws_img g;
        if (ws_image_get(run, handle, WS_IMAGE_TEXTURE, &g) != 0)
            return ws_sass_fault(w, in, l, 0, WS_ERR_SIM, "texture handle %llu is not a texture "
                                 "of the spec (a 'texture' line makes a buffer one)",
                                 (unsigned long long)handle);
        double c[3] = {0, 0, 0}, v;
        for (int d = 0; d < geom; d++) {
            uint32_t bits = ws_sass_rrow(w, ra == WS_SASS_RZ ? ra : ra + d)[l];
            float f;
            memcpy(&f, &bits, sizeof f);
            c[d] = fetch ? (double)(int32_t)bits : (double)f;
        }
        if (fetch && g.spec->linear_memory) /* tex1Dfetch: out of range reads 0 */
            v = c[0] >= 0 && c[0] < g.spec->dims[0]
                    ? ws_image_texel(&g, (int64_t[3]){(int64_t)c[0], 0, 0}) : 0;
        else if (fetch && geom == 1)
            v = 0; /* tex1Dfetch of a CUDA array reads zeros on the H100 (as the PTX model) */
        else
            v = ws_image_sample(&g, c, geom, fetch);
        for (int k = 0; k < 4; k++) {
            double x = k == 0 ? v : k == 3 ? 1 : 0;
            if (g.type == WS_T_F32) {
                float f = (float)x;
                memcpy(&out[k][l], &f, sizeof f);
            } else {
                out[k][l] = (uint32_t)(int64_t)x;
            }
        }
    });
    int slot = 0;
    for (int k = 0; k < 4; k++) {
        if (!(mask >> k & 1u))
            continue;
        int r = rd[slot++];
        if (r < 0 || r == WS_SASS_RZ || r == WS_SASS_RZ + 1 || r >= w->nregs ||
            (slot > 2 && in->o[0].reg == WS_SASS_RZ))
            continue;
        WS_LANES(l, exec, w->r[(size_t)r * WS_WARP + l] = out[k][l];);
    }
    return 0;
}

/* SULD.D.BA.{1D,2D}[.U8|.S8|.U16|.S16|.64|.128][.TRAP|.IGN] Rd, [Ra], URh, idx and
 * SUST.D.BA... [Ra], Rv, URh, idx: byte-addressed surface reads and writes, x = Ra (bytes),
 * y = Ra+1; .TRAP faults out of range, .IGN reads 0 and drops the write (cudaBoundaryModeZero),
 * neither clamps to the nearest texel. A 1D read of a 2D surface reads zeros, as the H100
 * does (the PTX model measured it). */
int ws_sass_x_surface(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    (void)fx;
    if (!exec)
        return 0;
    int is_write = in->op == WS_SOP_SUST, m = ws_sass_find_opnd(in, WS_SO_MEM);
    int u = ws_sass_find_opnd(in, WS_SO_UR), nd = ws_sass_has(in, WS_SMOD_DIM2) ? 2 : 1;
    int val = is_write ? m + 1 : 0;
    int sgn = 0, n = 4;
    switch (in->dtype) {
    case WS_SMOD_S8: sgn = 1; /* fallthrough */
    case WS_SMOD_U8: n = 1; break;
    case WS_SMOD_S16: sgn = 1; /* fallthrough */
    case WS_SMOD_U16: n = 2; break;
    case WS_SMOD_B64: n = 8; break;
    case WS_SMOD_B128: n = 16; break;
    default: break;
    }
    if (m < 0 || u < 0 || !ws_sass_has(in, WS_SMOD_BA) || ws_sass_has(in, WS_SMOD_DIM3) ||
        in->o[val].kind != WS_SO_R)
        return ws_sass_fault(w, in, __builtin_ctz(exec), 0, WS_ERR_UNSUPPORTED,
                             "unsupported %s form (byte-addressed 1D and 2D surfaces are known)",
                             is_write ? "SUST" : "SULD");
    int mode = ws_sass_has(in, WS_SMOD_TRAP) ? WS_SURF_TRAP
             : ws_sass_has(in, WS_SMOD_IGN) ? WS_SURF_ZERO : WS_SURF_CLAMP;
    const ws_run *run = &w->cta->run->base;
    int ra = in->o[m].reg, rv = in->o[val].reg, h = in->o[u].reg;
    uint64_t handle = w->ur[h] | (h + 1 < WS_SASS_URZ ? (uint64_t)w->ur[h + 1] << 32 : 0);
    WS_LANES(l, exec, {
        ws_img g;
        if (ws_image_get(run, handle, WS_IMAGE_SURFACE, &g) != 0)
            return ws_sass_fault(w, in, l, 0, WS_ERR_SIM, "surface handle %llu is not a surface "
                                 "of the spec (a 'surface' line makes a buffer one)",
                                 (unsigned long long)handle);
        int64_t x = (int32_t)ws_sass_rrow(w, ra)[l];
        int64_t y = nd > 1 ? (int32_t)ws_sass_rrow(w, ra == WS_SASS_RZ ? ra : ra + 1)[l] : 0;
        uint8_t *p = NULL;
        int rc = 0;
        if (nd == g.spec->ndims)
            rc = ws_surface_at(&g, x, y, n, mode, &p);
        else if (is_write || nd > g.spec->ndims)
            return ws_sass_fault(w, in, l, 0, WS_ERR_UNSUPPORTED, "%s.%dD on %dD surface '%s'",
                                 is_write ? "SUST" : "SULD", nd, g.spec->ndims, g.name);
        if (rc == WS_SURF_MISALIGNED)
            return ws_sass_fault(w, in, l, (uint64_t)x, WS_ERR_SIM, "misaligned surface %s of "
                                 "%d bytes at byte %lld of surface '%s'",
                                 is_write ? "store" : "load", n, (long long)x, g.name);
        if (rc == WS_SURF_OUTSIDE)
            return ws_sass_fault(w, in, l, (uint64_t)x, WS_ERR_SIM, "out-of-bounds surface %s "
                                 "of %d bytes at (x %lld bytes, y %lld) of surface '%s' (%u x "
                                 "%u texels of %d bytes)", is_write ? "store" : "load", n,
                                 (long long)x, (long long)y, g.name, g.spec->dims[0],
                                 g.spec->dims[1], g.esize);
        uint32_t words[4] = {0, 0, 0, 0};
        int nw = n > 4 ? n / 4 : 1;
        if (is_write) {
            for (int k = 0; k < nw; k++)
                words[k] = ws_sass_rrow(w, rv == WS_SASS_RZ ? rv : rv + k)[l];
            if (p)
                memcpy(p, words, (size_t)n);
        } else if (rv != WS_SASS_RZ) {
            if (p)
                memcpy(words, p, (size_t)n);
            if (sgn && n < 4)
                words[0] = (uint32_t)(n == 1 ? (int32_t)(int8_t)words[0]
                                             : (int32_t)(int16_t)words[0]);
            for (int k = 0; k < nw && rv + k < w->nregs; k++)
                w->r[(size_t)(rv + k) * WS_WARP + l] = words[k];
        }
    });
    return 0;
}
