/* exec_image.c — texture and surface objects: tex.1d/2d/3d (point and linear filtering,
 * clamp/wrap/border addressing, normalized coordinates), suld.b and sust.b (1d/2d with
 * .trap/.clamp/.zero). A handle is 1 + the index of a spec buffer that a `texture` or
 * `surface` line made an image (sim_run.c passes it); its texels are the buffer's bytes. */
#include "sim/exec.h"

#include <math.h>

int ws_image_get(const ws_run *r, uint64_t handle, int want, ws_img *out)
{
    const ws_image *im = handle >= 1 && handle <= (uint64_t)r->nbuffers && r->spec
                             ? ws_spec_image(r->spec, (int)(handle - 1)) : NULL;
    if (!im || (int)im->kind != want)
        return -1;
    out->spec = im;
    out->name = r->spec->buffers[im->buffer].name;
    out->texels = r->allocs[im->buffer].host;
    out->type = r->spec->buffers[im->buffer].type;
    out->esize = (int)ws_type_size(out->type);
    return 0;
}

static int image_of(ws_warp *w, const ws_inst *in, int lane, uint64_t handle, int want,
                    ws_img *out)
{
    if (ws_image_get(w->cta->run, handle, want, out) != 0)
        return ws_x_fault(w, in, lane, 0, WS_ERR_SIM, "%s handle %llu is not a %s of the spec "
                          "(a 'texture' or 'surface' line makes a buffer one)",
                          want == WS_IMAGE_TEXTURE ? "texture" : "surface",
                          (unsigned long long)handle,
                          want == WS_IMAGE_TEXTURE ? "texture" : "surface");
    return 0;
}

/* ---------------------------------------------------------------- textures */

/* A texel index after the address mode; -1 for border (reads 0). Wrap is the hardware's
 * only for normalized coordinates; unnormalized ones clamp. */
static int64_t address(const ws_image *im, int64_t i, uint32_t n)
{
    if (i >= 0 && i < (int64_t)n)
        return i;
    if (im->address == WS_ADDRESS_BORDER)
        return -1;
    if (im->address == WS_ADDRESS_WRAP && im->normalized)
        return ((i % n) + n) % n;
    return i < 0 ? 0 : (int64_t)n - 1;
}

/* The texel at (x, y, z) after addressing, as a double (integer or f32 element). */
double ws_image_texel(const ws_img *g, const int64_t c[3])
{
    int64_t at = 0, stride = 1;
    for (int d = 0; d < 3; d++) {
        int64_t i = address(g->spec, c[d], g->spec->dims[d]);
        if (i < 0)
            return 0;
        at += i * stride;
        stride *= g->spec->dims[d];
    }
    const uint8_t *p = g->texels + at * g->esize;
    switch (g->type) {
    case WS_T_I8: return *(const int8_t *)p;
    case WS_T_U8: return *p;
    case WS_T_I16: { int16_t v; memcpy(&v, p, 2); return v; }
    case WS_T_U16: { uint16_t v; memcpy(&v, p, 2); return v; }
    case WS_T_I32: { int32_t v; memcpy(&v, p, 4); return v; }
    case WS_T_U32: { uint32_t v; memcpy(&v, p, 4); return v; }
    case WS_T_F32: { float v; memcpy(&v, p, 4); return v; }
    default: break;
    }
    assert(0 && "spec_image.c admits only 8-, 16-, 32-bit textures");
    return 0;
}

static double read_coord(const ws_inst *in, uint64_t bits)
{
    if (in->type2 == WS_P_S32)
        return (double)(int32_t)(uint32_t)bits;
    float f;
    uint32_t b = (uint32_t)bits;
    memcpy(&f, &b, 4);
    return f;
}

/* Point sampling: the texel holding the coordinate. Linear (f32 textures, float
 * coordinates): the hardware's trilinear blend with 8-bit fixed-point weights
 * (frac rounded to a multiple of 1/256), on x, y and z as far as the geometry goes. */
double ws_image_sample(const ws_img *g, const double coord[3], int nd, int int_coords)
{
    const ws_image *im = g->spec;
    double u[3];
    for (int d = 0; d < 3; d++) {
        /* far outside the image every mode gives the same texel as 2^40 texels out */
        u[d] = d < nd ? fmax(fmin(coord[d], 0x1p40), -0x1p40) : 0;
        if (d < nd && !int_coords && im->normalized) {
            if (im->address == WS_ADDRESS_WRAP)
                u[d] -= floor(u[d]);
            u[d] *= im->dims[d];
        }
    }
    if (int_coords || im->filter == WS_FILTER_POINT) {
        int64_t c[3];
        for (int d = 0; d < 3; d++)
            c[d] = isfinite(u[d]) ? (int64_t)floor(u[d]) : 0;
        return ws_image_texel(g, c);
    }
    int64_t base[3];
    double frac[3];
    for (int d = 0; d < 3; d++) {
        double b = d < nd ? u[d] - 0.5 : 0;
        base[d] = isfinite(b) ? (int64_t)floor(b) : 0;
        frac[d] = d < nd && isfinite(b) ? round((b - floor(b)) * 256.0) / 256.0 : 0;
    }
    double sum = 0;
    for (int k = 0; k < (1 << nd); k++) {
        int64_t c[3];
        double wgt = 1;
        for (int d = 0; d < 3; d++) {
            int hi = d < nd && (k >> d & 1);
            c[d] = base[d] + hi;
            wgt *= d < nd ? (hi ? frac[d] : 1 - frac[d]) : 1;
        }
        if (wgt != 0)
            sum += wgt * ws_image_texel(g, c);
    }
    /* The H100 samples a 1D array texture as a 2D one of one row at y = 0: with linear
     * filtering the row above (border: zeros) gets half the weight (measured). */
    if (nd == 1 && im->address == WS_ADDRESS_BORDER)
        sum *= 0.5;
    return sum;
}

/* A one-channel texture reads (v, 0, 0, 1). */
static uint64_t result_bits(const ws_inst *in, double v, int component)
{
    v = component == 0 ? v : component == 3 ? 1 : 0;
    if (in->type == WS_P_F32) {
        float f = (float)v;
        uint32_t b;
        memcpy(&b, &f, 4);
        return b;
    }
    return (uint32_t)(int64_t)v;
}

static int do_tex(ws_warp *w, const ws_inst *in, uint32_t exec)
{
    static const int coord_count[] = {1, 2, 4}; /* .3d takes {x, y, z, unused} */
    int nd = in->subop - WS_SUB_DIM1 + 1;
    if (in->src[1].nvec != coord_count[nd - 1])
        return ws_x_fault(w, in, __builtin_ctz(exec | 1u << 31), 0, WS_ERR_PTX,
                          "'tex.%dd' takes %d coordinates, not %d", nd, coord_count[nd - 1],
                          in->src[1].nvec);
    const uint64_t *handle = ws_x_reg(w, in->src[0].reg);
    const uint64_t *coords[4];
    for (int i = 0; i < in->src[1].nvec; i++)
        coords[i] = ws_x_reg(w, in->src[1].vregs[i]);
    uint64_t out[4][WS_WARP];
    int rc = 0;
    WS_LANES(l, exec, {
        ws_img g = {0};
        if (!rc && (rc = image_of(w, in, l, handle[l], WS_IMAGE_TEXTURE, &g)) == 0) {
            int int_tex = g.type != WS_T_F32;
            if (int_tex == (in->type == WS_P_F32)) {
                rc = ws_x_fault(w, in, l, 0, WS_ERR_UNSUPPORTED, "tex.%s on texture '%s' of %s "
                                "(reading as normalized float or integer bits is not "
                                "simulated)", ws_ptype_name((ws_ptype)in->type), g.name,
                                ws_type_name(g.type));
            } else if (g.spec->linear_memory && (nd != 1 || in->type2 != WS_P_S32)) {
                rc = ws_x_fault(w, in, l, 0, WS_ERR_UNSUPPORTED, "tex.%dd.%s on linear-memory "
                                "texture '%s' (linear memory is read with tex1Dfetch: tex.1d "
                                "with s32 coordinates)", nd,
                                ws_ptype_name((ws_ptype)in->type2), g.name);
            } else {
                double c[3], v;
                for (int d = 0; d < 3; d++)
                    c[d] = d < nd ? read_coord(in, coords[d][l]) : 0;
                if (g.spec->linear_memory) /* tex1Dfetch: out of range reads 0 */
                    v = c[0] >= 0 && c[0] < g.spec->dims[0] ? ws_image_texel(&g, (int64_t[3]){(int64_t)c[0]})
                                                           : 0;
                else if (nd == 1 && in->type2 == WS_P_S32)
                    v = 0; /* tex1Dfetch of a CUDA array reads zeros on the H100 (measured) */
                else
                    v = ws_image_sample(&g, c, nd, in->type2 == WS_P_S32);
                for (int k = 0; k < 4; k++)
                    out[k][l] = result_bits(in, v, k);
            }
        }
    });
    if (rc)
        return rc;
    for (int k = 0; k < 4; k++)
        if (in->dst[0].vregs[k] >= 0) {
            uint64_t *d = ws_x_reg(w, in->dst[0].vregs[k]);
            WS_LANES(l, exec, d[l] = out[k][l];);
        }
    return 0;
}

/* ---------------------------------------------------------------- surfaces */

int ws_surface_at(const ws_img *g, int64_t x, int64_t y, int n, int mode, uint8_t **p)
{
    const ws_image *im = g->spec;
    int64_t row = (int64_t)im->dims[0] * g->esize, rows = im->dims[1];
    *p = NULL;
    if (x % n)
        return WS_SURF_MISALIGNED;
    int inside = x >= 0 && x + n <= row && y >= 0 && y < rows;
    if (!inside && mode == WS_SURF_ZERO)
        return 0;
    if (!inside && mode == WS_SURF_CLAMP && n <= row) {
        x = x < 0 ? 0 : x + n > row ? (row - n) / n * n : x;
        y = y < 0 ? 0 : y >= rows ? rows - 1 : y;
        inside = 1;
    }
    if (!inside)
        return WS_SURF_OUTSIDE;
    *p = g->texels + y * row + x;
    return 0;
}

/* ws_surface_at for a PTX suld/sust, its failures as located faults. */
static int surface_at(ws_warp *w, const ws_inst *in, int lane, const ws_img *g, int64_t x,
                      int64_t y, int n, int is_write, uint8_t **p)
{
    int mode = (in->flags & WS_F_ZERO) ? WS_SURF_ZERO
             : (in->flags & WS_F_CLAMP) ? WS_SURF_CLAMP : WS_SURF_TRAP;
    int rc = ws_surface_at(g, x, y, n, mode, p);
    if (rc == WS_SURF_MISALIGNED)
        return ws_x_fault(w, in, lane, (uint64_t)x, WS_ERR_SIM, "misaligned surface %s of %d "
                          "bytes at byte %lld of surface '%s'", is_write ? "store" : "load",
                          n, (long long)x, g->name);
    if (rc == WS_SURF_OUTSIDE) {
        const ws_image *im = g->spec;
        int64_t row = (int64_t)im->dims[0] * g->esize;
        ws_run *r = w->cta->run;
        return ws_x_fault(w, in, lane, r->allocs[im->buffer].base + (uint64_t)(y * row + x),
                          WS_ERR_SIM, "out-of-bounds surface %s of %d bytes at (x %lld bytes, "
                          "y %lld) of surface '%s' (%u x %u texels of %d bytes)",
                          is_write ? "store" : "load", n, (long long)x, (long long)y, g->name,
                          im->dims[0], im->dims[1], g->esize);
    }
    return 0;
}

static int do_surface(ws_warp *w, const ws_inst *in, uint32_t exec)
{
    int is_write = in->op == WS_OP_SUST, nd = in->subop - WS_SUB_DIM1 + 1;
    int bytes = ws_ptype_bits((ws_ptype)in->type) / 8, n = bytes * in->vec;
    const ws_operand *val = is_write ? &in->src[2] : &in->dst[0];
    if (in->src[1].nvec != nd || val->kind != WS_O_VEC || val->nvec != in->vec)
        return ws_x_fault(w, in, __builtin_ctz(exec | 1u << 31), 0, WS_ERR_PTX,
                          "'%s.%dd' takes %d coordinates and %d values", is_write ? "sust" : "suld",
                          nd, nd, in->vec);
    const uint64_t *handle = ws_x_reg(w, in->src[0].reg);
    const uint64_t *cx = ws_x_reg(w, in->src[1].vregs[0]);
    const uint64_t *cy = nd > 1 ? ws_x_reg(w, in->src[1].vregs[1]) : NULL;
    int rc = 0;
    WS_LANES(l, exec, {
        ws_img g;
        if (!rc && (rc = image_of(w, in, l, handle[l], WS_IMAGE_SURFACE, &g)) == 0) {
            int64_t x = (int32_t)(uint32_t)cx[l], y = cy ? (int32_t)(uint32_t)cy[l] : 0;
            uint8_t *p = NULL;
            if (nd == g.spec->ndims)
                rc = surface_at(w, in, l, &g, x, y, n, is_write, &p);
            else if (is_write || nd > g.spec->ndims) /* the GPU's behaviour is not measured */
                rc = ws_x_fault(w, in, l, 0, WS_ERR_UNSUPPORTED, "%s.%dd on %dD surface '%s'",
                                is_write ? "sust" : "suld", nd, g.spec->ndims, g.name);
            /* else suld.1d of a 2D surface: the H100 reads zeros (measured) */
            for (int k = 0; !rc && k < in->vec; k++) {
                if (val->vregs[k] < 0)
                    continue;
                uint64_t *reg = ws_x_reg(w, val->vregs[k]);
                if (is_write && p)
                    memcpy(p + k * bytes, &reg[l], (size_t)bytes); /* little-endian low bytes */
                else if (!is_write) {
                    uint64_t v = 0;
                    if (p)
                        memcpy(&v, p + k * bytes, (size_t)bytes);
                    reg[l] = v;
                }
            }
        }
    });
    return rc;
}

int ws_x_image(ws_warp *w, const ws_inst *in, uint32_t exec)
{
    assert(in->src[0].kind == WS_O_ADDR && in->src[1].kind == WS_O_VEC); /* the parser's */
    if (in->op == WS_OP_TEX)
        return do_tex(w, in, exec);
    return do_surface(w, in, exec);
}
