/* types.c — the element types of argument buffers: names, sizes, parsing.
 * Nothing about values or generators lives here. */
#include "core/core.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static const struct {
    const char *name;
    size_t size;
    int is_float;
} ws_types[WS_T__COUNT] = {
    [WS_T_I8] = {"i8", 1, 0},   [WS_T_U8] = {"u8", 1, 0},   [WS_T_I16] = {"i16", 2, 0},
    [WS_T_U16] = {"u16", 2, 0}, [WS_T_I32] = {"i32", 4, 0}, [WS_T_U32] = {"u32", 4, 0},
    [WS_T_I64] = {"i64", 8, 0}, [WS_T_U64] = {"u64", 8, 0}, [WS_T_F32] = {"f32", 4, 1},
    [WS_T_F64] = {"f64", 8, 1}, [WS_T_F16] = {"f16", 2, 1}, [WS_T_BF16] = {"bf16", 2, 1},
};

size_t ws_type_size(ws_type t)
{
    return (unsigned)t < WS_T__COUNT ? ws_types[t].size : 0;
}

const char *ws_type_name(ws_type t)
{
    return (unsigned)t < WS_T__COUNT ? ws_types[t].name : "?";
}

int ws_type_parse(const char *s, ws_type *t)
{
    for (int i = 0; i < WS_T__COUNT; i++) {
        if (strcmp(s, ws_types[i].name) == 0) {
            *t = (ws_type)i;
            return 0;
        }
    }
    return -1;
}

int ws_type_is_float(ws_type t)
{
    return (unsigned)t < WS_T__COUNT ? ws_types[t].is_float : 0;
}

/* ---------------------------------------------------------------- 16-bit floats */

/* x >= 0 rounded to an integer, ties to even, whatever the host's rounding mode (the PTX
 * model changes it for directed roundings). */
static double rne(double x)
{
    double f = floor(x), r = x - f;
    if (r > 0.5 || (r == 0.5 && fmod(f, 2.0) != 0.0))
        f += 1.0;
    return f;
}

/* x rounded to nearest even as a binary float of `mbits` significant bits, exponent bias
 * `bias` and `ebits` exponent bits: its 16-bit pattern. */
static uint16_t narrow16(double x, int mbits, int bias, int ebits)
{
    uint16_t sign = signbit(x) ? 0x8000 : 0;
    int fbits = mbits - 1, emax = (1 << ebits) - 1;
    if (isnan(x))
        return 0x7fff;
    double a = fabs(x);
    if (isinf(x))
        return (uint16_t)(sign | emax << fbits);
    double minnorm = ldexp(1.0, 1 - bias);
    if (a < minnorm) /* subnormal: units of 2^(1 - bias - fbits), ties to even */
        return (uint16_t)(sign | (uint16_t)rne(ldexp(a, bias - 1 + fbits)));
    int e;
    double m = frexp(a, &e); /* a = m 2^e, m in [0.5, 1) */
    double mant = rne(ldexp(m, mbits));
    if (mant == ldexp(1.0, mbits)) {
        mant = ldexp(1.0, fbits);
        e++;
    }
    int field = e - 1 + bias;
    if (field >= emax)
        return (uint16_t)(sign | emax << fbits);
    return (uint16_t)(sign | field << fbits | (uint16_t)(mant - ldexp(1.0, fbits)));
}

static double widen16(uint16_t h, int mbits, int bias, int ebits)
{
    int fbits = mbits - 1, emax = (1 << ebits) - 1;
    int field = (h >> fbits) & emax;
    uint32_t frac = h & ((1u << fbits) - 1);
    double v = field == 0 ? ldexp((double)frac, 1 - bias - fbits)
             : field == emax ? (frac ? NAN : INFINITY)
                             : ldexp((double)(frac | 1u << fbits), field - bias - fbits);
    return h & 0x8000 ? -v : v;
}

uint16_t ws_f16_bits(double x)
{
    return narrow16(x, 11, 15, 5);
}

uint16_t ws_bf16_bits(double x)
{
    return narrow16(x, 8, 127, 8);
}

double ws_real_load(ws_type t, const void *p)
{
    uint16_t h;
    float f;
    double d;
    switch (t) {
    case WS_T_F32: memcpy(&f, p, 4); return f;
    case WS_T_F64: memcpy(&d, p, 8); return d;
    case WS_T_F16: memcpy(&h, p, 2); return widen16(h, 11, 15, 5);
    case WS_T_BF16: memcpy(&h, p, 2); return widen16(h, 8, 127, 8);
    default: return 0;
    }
}

void ws_real_store(ws_type t, void *p, double v)
{
    uint16_t h;
    float f;
    switch (t) {
    case WS_T_F32: f = (float)v; memcpy(p, &f, 4); break;
    case WS_T_F64: memcpy(p, &v, 8); break;
    case WS_T_F16: h = ws_f16_bits(v); memcpy(p, &h, 2); break;
    case WS_T_BF16: h = ws_bf16_bits(v); memcpy(p, &h, 2); break;
    default: break;
    }
}

void ws_real_step_down(ws_type t, void *p)
{
    if (t == WS_T_F16 || t == WS_T_BF16) {
        uint16_t h;
        memcpy(&h, p, 2);
        h = h == 0 ? 0x8001 : h & 0x8000 ? (uint16_t)(h + 1) : (uint16_t)(h - 1);
        memcpy(p, &h, 2);
    } else if (t == WS_T_F32) {
        float f;
        memcpy(&f, p, 4);
        f = nextafterf(f, -INFINITY);
        memcpy(p, &f, 4);
    } else if (t == WS_T_F64) {
        double d;
        memcpy(&d, p, 8);
        d = nextafter(d, -INFINITY);
        memcpy(p, &d, 8);
    }
}
