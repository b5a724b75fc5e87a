/* gen.c — deterministic input generators: xoshiro256** seeded by splitmix64, unbiased
 * integer ranges, reals, iota, constants, mixtures and raw files. Same generator + seed
 * gives the same values on every machine. Parsing generators is spec_resolve.c's job. */
#include "core/core_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
               "buffers are little-endian in memory; a big-endian host needs byte swaps");

static uint64_t ws_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

void ws_rng_seed(ws_rng *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++) {
        uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        r->s[i] = z ^ (z >> 31);
    }
}

uint64_t ws_rng_next(ws_rng *r)
{
    uint64_t *s = r->s;
    const uint64_t result = ws_rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = ws_rotl(s[3], 45);
    return result;
}

double ws_rng_double(ws_rng *r)
{
    return (double)(ws_rng_next(r) >> 11) * 0x1.0p-53;
}

/* Rejection below the largest multiple of range: no modulo bias. */
uint64_t ws_rng_below(ws_rng *r, uint64_t range)
{
    if (range == 0)
        return ws_rng_next(r);
    uint64_t threshold = (0 - range) % range;
    for (;;) {
        uint64_t x = ws_rng_next(r);
        if (x >= threshold)
            return x % range;
    }
}

const char *ws_gen_kind_name(ws_gen_kind k)
{
    static const char *names[] = {"zero", "const", "iota", "uniform_int", "uniform_real",
                                  "random_bits", "mix", "file"};
    return (unsigned)k < sizeof names / sizeof *names ? names[k] : "?";
}

/* Two's complement bits of an integral double (negative values wrap as int64). */
static uint64_t ws_bits_of(double d)
{
    return d < 0 ? (uint64_t)(int64_t)d : (uint64_t)d;
}

/* One element: integer types get *iv (two's complement), float types *dv. */
typedef struct ws_value {
    uint64_t iv;
    double dv;
} ws_value;

static void ws_gen_value(ws_gen_kind kind, double a, double b, ws_type t, ws_rng *r,
                         uint64_t i, ws_value *out)
{
    int is_float = ws_type_is_float(t);
    switch (kind) {
    case WS_GEN_ZERO:
        out->iv = 0;
        out->dv = 0;
        break;
    case WS_GEN_CONST:
        out->iv = ws_bits_of(a);
        out->dv = a;
        break;
    case WS_GEN_IOTA:
        out->iv = ws_bits_of(a) + i * ws_bits_of(b);
        out->dv = a + (double)i * b;
        break;
    case WS_GEN_UNIFORM_INT: {
        uint64_t lo = ws_bits_of(a), range = ws_bits_of(b) - lo + 1;
        out->iv = lo + ws_rng_below(r, range);
        out->dv = is_float ? (a < 0 ? (double)(int64_t)out->iv : (double)out->iv) : 0;
        break;
    }
    case WS_GEN_UNIFORM_REAL: {
        double v = a + (b - a) * ws_rng_double(r);
        if (v >= b)
            v = nextafter(b, a);
        if (t == WS_T_F32) { /* keep [lo, hi) after rounding to float */
            float f = (float)v;
            if ((double)f >= b)
                f = nextafterf(f, -INFINITY);
            if ((double)f < a && (double)nextafterf(f, INFINITY) < b)
                f = nextafterf(f, INFINITY);
            v = f;
        } else if (t == WS_T_F16 || t == WS_T_BF16) { /* the same for the 16-bit floats */
            uint16_t h;
            ws_real_store(t, &h, v);
            if (ws_real_load(t, &h) >= b)
                ws_real_step_down(t, &h);
            v = ws_real_load(t, &h);
        }
        out->dv = v;
        break;
    }
    case WS_GEN_RANDOM_BITS:
        out->iv = ws_rng_next(r) >> (64 - 8 * ws_type_size(t));
        break;
    case WS_GEN_MIX:
    case WS_GEN_FILE:
        break; /* handled by the caller */
    }
}

static void ws_store(ws_type t, void *data, uint64_t i, const ws_value *v, ws_gen_kind kind)
{
    unsigned char *p = (unsigned char *)data + i * ws_type_size(t);
    if (ws_type_is_float(t) && kind != WS_GEN_RANDOM_BITS) {
        ws_real_store(t, p, v->dv);
    } else {
        memcpy(p, &v->iv, ws_type_size(t)); /* little-endian: the low bytes */
    }
}

static int ws_gen_file_fill(const ws_gen *g, ws_type type, uint64_t count, void *data,
                            const char *spec_path, ws_error *err)
{
    char *text;
    size_t len;
    int rc = ws_read_file(g->path, &text, &len, err);
    if (rc != WS_OK)
        return rc;
    size_t need = (size_t)count * ws_type_size(type);
    if (len < need) {
        free(text);
        return ws_error_set(err, WS_ERR_SPEC, "file %s holds %zu bytes, fewer than the %zu "
                            "needed (%llu elements of %s)", g->path, len, need,
                            (unsigned long long)count, ws_type_name(type));
    }
    memcpy(data, text, need);
    free(text);
    (void)spec_path;
    return WS_OK;
}

static int ws_mix_pick(const ws_gen *g, double u)
{
    double acc = 0;
    for (int k = 0; k < g->nmix; k++) {
        acc += g->mix_weight[k];
        if (u < acc)
            return k;
    }
    return g->nmix - 1;
}

int ws_gen_fill(const ws_gen *g, ws_type type, uint64_t seed, uint64_t count, void *data,
                const char *spec_path, ws_error *err)
{
    ws_rng r;
    ws_value v = {0, 0};
    ws_rng_seed(&r, seed);
    if (g->kind == WS_GEN_FILE)
        return ws_gen_file_fill(g, type, count, data, spec_path, err);
    if (g->kind == WS_GEN_ZERO) {
        memset(data, 0, (size_t)count * ws_type_size(type));
        return WS_OK;
    }
    for (uint64_t i = 0; i < count; i++) {
        if (g->kind == WS_GEN_MIX) {
            int k = ws_mix_pick(g, ws_rng_double(&r));
            ws_gen_value(g->mix_kind[k], g->mix_a[k], g->mix_b[k], type, &r, i, &v);
            ws_store(type, data, i, &v, g->mix_kind[k]);
        } else {
            ws_gen_value(g->kind, g->a, g->b, type, &r, i, &v);
            ws_store(type, data, i, &v, g->kind);
        }
    }
    return WS_OK;
}
