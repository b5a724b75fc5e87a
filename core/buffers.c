/* buffers.c — argument buffers of a workload: allocation, generation from the spec's
 * generators, cloning, comparison (with each other or with an expected file) and writing
 * them out raw. The values themselves come from gen.c. */
#include "core/core_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ws_buffers_generate(const ws_spec *s, ws_buffers *out, ws_error *err)
{
    out->n = 0;
    out->b = calloc((size_t)s->nbuffers + 1, sizeof *out->b);
    if (!out->b)
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory");
    for (int i = 0; i < s->nbuffers; i++) {
        const ws_buffer_spec *bs = &s->buffers[i];
        ws_buffer *b = &out->b[i];
        b->spec = bs;
        b->bytes = (size_t)bs->count * ws_type_size(bs->type);
        b->data = malloc(b->bytes ? b->bytes : 1);
        if (!b->data) {
            ws_buffers_free(out);
            return ws_error_set(err, WS_ERR_NOMEM, "out of memory for buffer '%s' (%zu bytes)",
                                bs->name, b->bytes);
        }
        out->n = i + 1;
        ws_error gerr;
        ws_error_clear(&gerr);
        int rc = ws_gen_fill(&bs->gen, bs->type, bs->seed, bs->count, b->data, s->path, &gerr);
        if (rc != WS_OK) {
            ws_buffers_free(out);
            return ws_error_at(err, rc, s->path, bs->line, "buffer '%s': %.440s", bs->name,
                               gerr.msg);
        }
    }
    return WS_OK;
}

double ws_buffers_bytes(const ws_buffers *b)
{
    double n = 0;
    for (int i = 0; b && i < b->n; i++)
        n += b->b[i].data ? (double)b->b[i].bytes : 0;
    return n;
}

int ws_buffers_clone(const ws_buffers *src, ws_buffers *out, ws_error *err)
{
    out->n = 0;
    out->b = calloc((size_t)src->n + 1, sizeof *out->b);
    if (!out->b)
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory");
    for (int i = 0; i < src->n; i++) {
        out->b[i] = src->b[i];
        out->b[i].data = malloc(src->b[i].bytes ? src->b[i].bytes : 1);
        if (!out->b[i].data) {
            ws_buffers_free(out);
            return ws_error_set(err, WS_ERR_NOMEM, "out of memory");
        }
        memcpy(out->b[i].data, src->b[i].data, src->b[i].bytes);
        out->n = i + 1;
    }
    return WS_OK;
}

void ws_buffers_free(ws_buffers *b)
{
    if (!b)
        return;
    for (int i = 0; i < b->n; i++)
        free(b->b[i].data);
    free(b->b);
    b->b = NULL;
    b->n = 0;
}

/* Floats: equal when both NaN, when bit-identical (covers infinities), or when
 * |x - y| <= tol * max(|x|, |y|). tol 0 means exact (but +0 == -0). */
static int ws_real_equal(double x, double y, double tol, double abs_tol)
{
    if (isnan(x) || isnan(y))
        return isnan(x) && isnan(y);
    if (x == y)
        return 1;
    if ((tol <= 0 && abs_tol <= 0) || isinf(x) || isinf(y))
        return 0;
    double scale = fmax(fabs(x), fabs(y));
    return fabs(x - y) <= tol * scale || fabs(x - y) <= abs_tol;
}

int ws_buffer_equal(const ws_buffer *a, const ws_buffer *b, uint64_t *first_diff)
{
    const ws_buffer_spec *bs = a->spec;
    size_t esize = ws_type_size(bs->type);
    size_t na = a->bytes / esize, nb = b->bytes / esize, n = na < nb ? na : nb;
    const unsigned char *pa = a->data, *pb = b->data;
    for (size_t i = 0; i < n; i++) {
        int eq;
        if (ws_type_is_float(bs->type)) {
            eq = ws_real_equal(ws_real_load(bs->type, pa + esize * i),
                               ws_real_load(bs->type, pb + esize * i), bs->tolerance,
                               bs->absolute);
        } else {
            eq = memcmp(pa + esize * i, pb + esize * i, esize) == 0;
        }
        if (!eq) {
            if (first_diff)
                *first_diff = i;
            return 0;
        }
    }
    if (na != nb) {
        if (first_diff)
            *first_diff = n;
        return 0;
    }
    return 1;
}

int ws_buffer_check_file(const ws_buffer *b, int *equal, uint64_t *first_diff, ws_error *err)
{
    const ws_buffer_spec *bs = b->spec;
    char *text;
    size_t len;
    int rc = ws_read_file(bs->expect_path, &text, &len, err);
    if (rc != WS_OK)
        return rc;
    if (len != b->bytes) {
        free(text);
        return ws_error_set(err, WS_ERR_SPEC, "check '%s': file %s holds %zu bytes, the buffer "
                            "%zu (%llu elements of %s)", bs->name, bs->expect_path, len,
                            b->bytes, (unsigned long long)bs->count, ws_type_name(bs->type));
    }
    ws_buffer want = {bs, text, len};
    *equal = ws_buffer_equal(b, &want, first_diff);
    free(text);
    return WS_OK;
}

int ws_buffer_write(const ws_buffer *b, const char *path, ws_error *err)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return ws_error_set(err, WS_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    size_t n = b->bytes ? fwrite(b->data, 1, b->bytes, f) : 0;
    int bad = n != b->bytes;
    if (fclose(f) != 0)
        bad = 1;
    if (bad)
        return ws_error_set(err, WS_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    return WS_OK;
}
