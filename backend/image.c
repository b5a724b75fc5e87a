/* image.c — the spec's `texture` and `surface` buffers on the GPU: a CUDA array of one
 * channel in the buffer's element format (surface load/store allowed for surfaces), the
 * buffer's bytes copied in before each launch and, for surfaces, back out after it, and
 * the CUtexObject/CUsurfObject the kernel receives in place of the buffer's pointer. A
 * `resource linear` texture reads the buffer's own device memory (no array, no copies). */
#include <string.h>
#include "backend/backend.h"
#include "backend/cuda_api.h"

/* One channel in the buffer's format; 8-byte elements (surfaces only) are two u32. */
static void array_format(ws_type t, CUarray_format *f, unsigned *channels)
{
    *channels = 1;
    switch (t) {
    case WS_T_I8: *f = CU_AD_FORMAT_SIGNED_INT8; break;
    case WS_T_U8: *f = CU_AD_FORMAT_UNSIGNED_INT8; break;
    case WS_T_I16: *f = CU_AD_FORMAT_SIGNED_INT16; break;
    case WS_T_U16: *f = CU_AD_FORMAT_UNSIGNED_INT16; break;
    case WS_T_I32: *f = CU_AD_FORMAT_SIGNED_INT32; break;
    case WS_T_U32: *f = CU_AD_FORMAT_UNSIGNED_INT32; break;
    case WS_T_F32: *f = CU_AD_FORMAT_FLOAT; break;
    default: *f = CU_AD_FORMAT_UNSIGNED_INT32; *channels = 2; break; /* 64-bit */
    }
}

static CUaddress_mode address_mode(ws_image_address a)
{
    return a == WS_ADDRESS_WRAP ? CU_TR_ADDRESS_MODE_WRAP
         : a == WS_ADDRESS_BORDER ? CU_TR_ADDRESS_MODE_BORDER : CU_TR_ADDRESS_MODE_CLAMP;
}

static int fail(const ws_cu_api *api, CUresult r, ws_error *err, const char *kernel,
                const char *what, const char *buffer)
{
    char msg[160];
    snprintf(msg, sizeof msg, "%s of '%s'", what, buffer);
    return ws_cu_fail(api, r, err, kernel, msg);
}

/* The array of a texture or surface (none for linear memory) and the resource naming it. */
static int image_resource(const ws_cu_api *api, const ws_buffer_spec *b, const ws_image *im,
                          CUdeviceptr memory, const char *kernel, ws_cu_image *out,
                          CUDA_RESOURCE_DESC *rd, ws_error *err)
{
    memset(rd, 0, sizeof *rd);
    if (im->linear_memory) {
        rd->resType = CU_RESOURCE_TYPE_LINEAR;
        rd->res.linear.devPtr = memory;
        array_format(b->type, &rd->res.linear.format, &rd->res.linear.numChannels);
        rd->res.linear.sizeInBytes = (size_t)im->dims[0] * ws_type_size(b->type);
        return WS_OK;
    }
    CUDA_ARRAY3D_DESCRIPTOR ad;
    memset(&ad, 0, sizeof ad);
    array_format(b->type, &ad.Format, &ad.NumChannels);
    ad.Width = im->dims[0];
    ad.Height = im->ndims > 1 ? im->dims[1] : 0;
    ad.Depth = im->ndims > 2 ? im->dims[2] : 0;
    ad.Flags = im->kind == WS_IMAGE_SURFACE ? CUDA_ARRAY3D_SURFACE_LDST : 0;
    CUresult r = api->cuArray3DCreate(&out->array, &ad);
    if (r != CUDA_SUCCESS)
        return fail(api, r, err, kernel, "cuArray3DCreate", b->name);
    rd->resType = CU_RESOURCE_TYPE_ARRAY;
    rd->res.array.hArray = out->array;
    return WS_OK;
}

int ws_cu_image_create(const ws_cu_api *api, const ws_spec *s, const ws_image *im,
                       CUdeviceptr memory, const char *kernel, ws_cu_image *out, ws_error *err)
{
    const ws_buffer_spec *b = &s->buffers[im->buffer];
    memset(out, 0, sizeof *out);
    CUDA_RESOURCE_DESC rd;
    if (image_resource(api, b, im, memory, kernel, out, &rd, err) != WS_OK)
        return err->code;
    CUresult r;
    if (im->kind == WS_IMAGE_SURFACE) {
        CUsurfObject so = 0;
        r = api->cuSurfObjectCreate(&so, &rd);
        out->handle = so;
        return r == CUDA_SUCCESS ? WS_OK
                                 : fail(api, r, err, kernel, "cuSurfObjectCreate", b->name);
    }
    CUDA_TEXTURE_DESC td;
    memset(&td, 0, sizeof td);
    for (int d = 0; d < 3; d++)
        td.addressMode[d] = address_mode(im->address);
    td.filterMode = im->filter == WS_FILTER_LINEAR ? CU_TR_FILTER_MODE_LINEAR
                                                   : CU_TR_FILTER_MODE_POINT;
    td.flags = (im->normalized ? CU_TRSF_NORMALIZED_COORDINATES : 0) |
               (b->type != WS_T_F32 ? CU_TRSF_READ_AS_INTEGER : 0);
    CUtexObject to = 0;
    r = api->cuTexObjectCreate(&to, &rd, &td, NULL);
    out->handle = to;
    return r == CUDA_SUCCESS ? WS_OK : fail(api, r, err, kernel, "cuTexObjectCreate", b->name);
}

int ws_cu_image_copy(const ws_cu_api *api, const ws_image *im, const ws_cu_image *g,
                     const ws_buffer *b, int to_host, const char *kernel, ws_error *err)
{
    if (!g->array) /* linear memory: the buffer itself */
        return WS_OK;
    CUDA_MEMCPY3D c;
    memset(&c, 0, sizeof c);
    size_t row = b->bytes / ((size_t)im->dims[1] * im->dims[2]);
    c.WidthInBytes = row;
    c.Height = im->dims[1];
    c.Depth = im->dims[2];
    if (to_host) {
        c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
        c.srcArray = g->array;
        c.dstMemoryType = CU_MEMORYTYPE_HOST;
        c.dstHost = b->data;
        c.dstPitch = row;
        c.dstHeight = im->dims[1];
    } else {
        c.srcMemoryType = CU_MEMORYTYPE_HOST;
        c.srcHost = b->data;
        c.srcPitch = row;
        c.srcHeight = im->dims[1];
        c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
        c.dstArray = g->array;
    }
    CUresult r = api->cuMemcpy3D(&c);
    return r == CUDA_SUCCESS ? WS_OK
                             : fail(api, r, err, kernel, to_host ? "copying out the array"
                                                                 : "copying in the array",
                                    b->spec->name);
}

void ws_cu_image_destroy(const ws_cu_api *api, const ws_image *im, ws_cu_image *g)
{
    if (g->handle) {
        if (im->kind == WS_IMAGE_SURFACE)
            api->cuSurfObjectDestroy((CUsurfObject)g->handle);
        else
            api->cuTexObjectDestroy((CUtexObject)g->handle);
    }
    if (g->array)
        api->cuArrayDestroy(g->array);
    memset(g, 0, sizeof *g);
}
