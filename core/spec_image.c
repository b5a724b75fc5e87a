/* spec_image.c — `texture` and `surface` lines of a workload spec: a buffer read through a
 * texture object (dimensions, filter, address mode, normalized coordinates) or read and
 * written through a surface object. Only the spec side: the simulator and the GPU backend
 * build the objects from the resolved ws_image. */
#include "core/core_internal.h"

#include <string.h>

#define WS_SPEC_FAIL(p, line, ...) ws_error_at((p)->err, WS_ERR_SPEC, (p)->path, line, __VA_ARGS__)

const char *ws_image_address_name(ws_image_address a)
{
    return a == WS_ADDRESS_WRAP ? "wrap" : a == WS_ADDRESS_BORDER ? "border" : "clamp";
}

const ws_image *ws_spec_image(const ws_spec *s, int buffer)
{
    for (int i = 0; i < s->nimages; i++)
        if (s->images[i].buffer == buffer)
            return &s->images[i];
    return NULL;
}

static int is_option(const char *w)
{
    return !strcmp(w, "filter") || !strcmp(w, "address") || !strcmp(w, "normalized") ||
           !strcmp(w, "resource");
}

/* filter point|linear, address clamp|wrap|border, normalized, resource array|linear: each
 * at most once. A linear-memory texture (what tex1Dfetch reads) is 1D, point-sampled,
 * unnormalized and has no address mode: out of range reads 0. */
static int image_options(ws_parse *p, int line, ws_image *im, char **tok, int ntok, int i)
{
    int seen_filter = 0, seen_address = 0, seen_resource = 0;
    const char *what = tok[0];
    for (; i < ntok; i++) {
        const char *w = tok[i], *val = i + 1 < ntok ? tok[i + 1] : "";
        if (im->kind == WS_IMAGE_SURFACE)
            return WS_SPEC_FAIL(p, line, "surface '%s': unexpected '%s' (a surface takes "
                                "only its width and height)", im->buffer_name, w);
        if (!strcmp(w, "normalized") && !im->normalized) {
            im->normalized = 1;
        } else if (!strcmp(w, "filter") && !seen_filter &&
                   (!strcmp(val, "point") || !strcmp(val, "linear"))) {
            im->filter = val[0] == 'l' ? WS_FILTER_LINEAR : WS_FILTER_POINT;
            seen_filter = 1;
            i++;
        } else if (!strcmp(w, "address") && !seen_address &&
                   (!strcmp(val, "clamp") || !strcmp(val, "wrap") || !strcmp(val, "border"))) {
            im->address = val[0] == 'c' ? WS_ADDRESS_CLAMP
                        : val[0] == 'w' ? WS_ADDRESS_WRAP : WS_ADDRESS_BORDER;
            seen_address = 1;
            i++;
        } else if (!strcmp(w, "resource") && !seen_resource &&
                   (!strcmp(val, "array") || !strcmp(val, "linear"))) {
            im->linear_memory = val[0] == 'l';
            seen_resource = 1;
            i++;
        } else {
            return WS_SPEC_FAIL(p, line, "%s '%s': bad option '%s%s%s' (expected 'filter "
                                "point|linear', 'address clamp|wrap|border', 'normalized' or "
                                "'resource array|linear', each once)", what, im->buffer_name, w,
                                val[0] ? " " : "", val);
        }
    }
    if (im->linear_memory && (im->ndims != 1 || im->filter == WS_FILTER_LINEAR || seen_address ||
                              im->normalized))
        return WS_SPEC_FAIL(p, line, "texture '%s': 'resource linear' is one dimension of "
                            "linear memory read with tex1Dfetch: no height, linear filter, "
                            "address mode or normalized coordinates", im->buffer_name);
    return WS_OK;
}

int ws_spec_dir_image(ws_parse *p, int line, char **tok, int ntok)
{
    ws_spec *s = p->s;
    int surface = tok[0][0] == 's', maxd = surface ? 2 : 3, nd = 0;
    while (2 + nd < ntok && !is_option(tok[2 + nd]))
        nd++;
    if (ntok < 3 || nd < 1 || nd > maxd)
        return WS_SPEC_FAIL(p, line, surface ? "expected 'surface BUFFER W [H]'"
                            : "expected 'texture BUFFER W [H [D]] [filter point|linear] "
                              "[address clamp|wrap|border] [normalized] [resource array|linear]'");
    for (int i = 0; i < s->nimages; i++)
        if (strcmp(s->images[i].buffer_name, tok[1]) == 0)
            return WS_SPEC_FAIL(p, line, "buffer '%s' is already a %s (line %d)", tok[1],
                                s->images[i].kind == WS_IMAGE_SURFACE ? "surface" : "texture",
                                s->images[i].line);
    ws_image *im = ws_core_grow((void **)&s->images, &s->nimages, &p->cap_images, sizeof *im);
    if (!im)
        return ws_error_set(p->err, WS_ERR_NOMEM, "out of memory");
    im->kind = surface ? WS_IMAGE_SURFACE : WS_IMAGE_TEXTURE;
    im->line = line;
    im->buffer = -1;
    im->ndims = nd;
    if (strlen(tok[1]) >= sizeof im->buffer_name)
        return WS_SPEC_FAIL(p, line, "buffer name '%s' too long", tok[1]);
    strcpy(im->buffer_name, tok[1]);
    for (int d = 0; d < nd; d++) {
        if (strlen(tok[2 + d]) >= WS_EXPR_MAX)
            return WS_SPEC_FAIL(p, line, "%s dimension too long", tok[0]);
        strcpy(im->dim_expr[d], tok[2 + d]);
    }
    return image_options(p, line, im, tok, ntok, 2 + nd);
}

/* The element types an image can hold: one channel of 8, 16 or 32 bits (textures read
 * them as f32/s32/u32), 64 bits too for surfaces (suld.b64); no half-precision formats. */
static int image_type_ok(const ws_image *im, ws_type t)
{
    if (t == WS_T_F16 || t == WS_T_BF16)
        return 0;
    if (im->kind == WS_IMAGE_SURFACE)
        return 1;
    return t != WS_T_I64 && t != WS_T_U64 && t != WS_T_F64;
}

static int resolve_image(ws_parse *p, ws_image *im)
{
    ws_spec *s = p->s;
    const char *what = im->kind == WS_IMAGE_SURFACE ? "surface" : "texture";
    im->buffer = -1;
    for (int i = 0; i < s->nbuffers; i++)
        if (strcmp(s->buffers[i].name, im->buffer_name) == 0)
            im->buffer = i;
    if (im->buffer < 0)
        return WS_SPEC_FAIL(p, im->line, "%s: unknown buffer '%s'", what, im->buffer_name);
    const ws_buffer_spec *b = &s->buffers[im->buffer];
    uint64_t total = 1;
    for (int d = 0; d < 3; d++) {
        int64_t v = 1;
        if (d < im->ndims) {
            int rc = ws_spec_int_expr(p, im->line, im->dim_expr[d], &v);
            if (rc != WS_OK)
                return rc;
            if (v < 1 || v > 65536)
                return WS_SPEC_FAIL(p, im->line, "%s '%s': dimension %d is %lld (expected "
                                    "1..65536)", what, b->name, d + 1, (long long)v);
        }
        im->dims[d] = (uint32_t)v;
        total *= (uint64_t)v;
    }
    if (total != b->count)
        return WS_SPEC_FAIL(p, im->line, "%s '%s': %u x %u x %u = %llu texels, but the buffer "
                            "holds %llu elements", what, b->name, im->dims[0], im->dims[1],
                            im->dims[2], (unsigned long long)total,
                            (unsigned long long)b->count);
    if (!image_type_ok(im, b->type))
        return WS_SPEC_FAIL(p, im->line, "%s '%s': element type %s cannot be a %s "
                            "(8-, 16- or 32-bit integers or f32%s)", what, b->name,
                            ws_type_name(b->type), what,
                            im->kind == WS_IMAGE_SURFACE ? ", 64-bit integers" : "");
    if (im->filter == WS_FILTER_LINEAR && b->type != WS_T_F32)
        return WS_SPEC_FAIL(p, im->line, "texture '%s': linear filtering needs an f32 buffer, "
                            "not %s", b->name, ws_type_name(b->type));
    return WS_OK;
}

/* A texture or surface is passed whole: an argument BUF+EXPR of one is an error. */
static int check_args(ws_parse *p, const ws_image *im)
{
    const ws_spec *s = p->s;
    for (int v = 0; v < s->nvariants; v++)
        for (int a = 0; a < s->variants[v].nargs; a++) {
            const ws_arg *arg = &s->variants[v].args[a];
            if (arg->kind == WS_ARG_BUFFER && arg->buffer == im->buffer && arg->offset)
                return WS_SPEC_FAIL(p, arg->line, "variant '%s': argument %d '%s' is an offset "
                                    "into %s '%s' (a texture or surface is passed whole)",
                                    s->variants[v].name, a + 1, arg->expr,
                                    im->kind == WS_IMAGE_SURFACE ? "surface" : "texture",
                                    im->buffer_name);
        }
    return WS_OK;
}

int ws_spec_resolve_images(ws_parse *p)
{
    for (int i = 0; i < p->s->nimages; i++) {
        int rc = resolve_image(p, &p->s->images[i]);
        if (rc == WS_OK)
            rc = check_args(p, &p->s->images[i]);
        if (rc != WS_OK)
            return rc;
    }
    return WS_OK;
}
