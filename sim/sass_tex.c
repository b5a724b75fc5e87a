/* sass_tex.c — texture reads on the SASS model: TEX (float coordinates, filtered as the
 * spec's `texture` line says) and TLD (integer coordinates: tex1Dfetch), through the PTX
 * model's sampler (exec_image.c), so both models read the same texels the same way.
 *   TEX[.LL|.LZ] Rd2, Rd, Ra, Rb, URh, idx, GEOMETRY[, mask]
 *   TLD[.LZ]     Rd2, Rd, Ra, URh, idx, GEOMETRY[, mask]
 * Ra, Ra+1, Ra+2 hold x, y, z as far as the geometry goes (ptxas reads a 1D texture as 2D);
 * Rb the level of detail, which a one-level image ignores; URh the texture object (the
 * handle the launch passed); mask the channels wanted (0xf when absent), written in order to
 * Rd, Rd+1, then Rd2, Rd2+1. Images have one channel: (v, 0, 0, 1). */
#include <string.h>
#include "sim/sass_exec.h"

static int opnd_of_kind(const ws_sass_inst *in, int kind)
{
    for (int k = 0; k < in->nopnd; k++)
        if (in->o[k].kind == kind)
            return k;
    return -1;
}

int ws_sass_x_tex(ws_sass_warp *w, const ws_sass_inst *in, uint32_t exec, ws_sass_fx *fx)
{
    (void)fx;
    if (!exec)
        return 0;
    int fetch = in->op == WS_SOP_TLD, u = opnd_of_kind(in, WS_SO_UR);
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
