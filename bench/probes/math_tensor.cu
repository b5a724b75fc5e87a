#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>
using namespace nvcuda;
extern "C" __global__ void dmath(const double *di, const float *fi, const int *ii, double *od, float *of, int *oi, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double p = di[i], q = di[(i + 5) % n];
    float x = fi[i], y = fi[(i + 3) % n];
    int a = ii[i];
    int k = 0, f = 0, m = 0;
    od[n * k++ + i] = sqrt(fabs(p)) + rsqrt(fabs(q) + 1.0) + rcbrt(p + 0.5);
    od[n * k++ + i] = sin(p) + cos(q) + tan(p * 0.001) + sinpi(q * 0.01) + cospi(p * 0.01);
    od[n * k++ + i] = asin(fmin(fabs(p) * 1e-3, 1.0)) + acos(fmin(fabs(q) * 1e-3, 1.0)) + atan(p);
    od[n * k++ + i] = sinh(p * 0.001) + cosh(q * 0.001) + tanh(p * 0.01) + asinh(q) + acosh(fabs(p) + 1.0) + atanh(fmin(fabs(q) * 1e-3, 0.99));
    od[n * k++ + i] = exp2(p * 0.01) + exp10(q * 0.001) + expm1(p * 0.001) + log2(fabs(q) + 1) + log10(fabs(p) + 2) + log1p(fabs(q));
    od[n * k++ + i] = erf(p * 0.01) + erfc(q * 0.01) + erfinv(fmin(fabs(p) * 1e-3, 0.99)) + erfcinv(fmin(fabs(q) * 1e-3 + 0.01, 1.9));
    od[n * k++ + i] = lgamma(fabs(p) + 0.5) + tgamma(fmod(fabs(q), 20.0) + 0.5) + j0(p) + y1(fabs(q) + 0.1);
    od[n * k++ + i] = remainder(p, q + 0.25) + remquo(p, 3.5, &m) + m + nextafter(p, q) + fdim(p, q) + copysign(p, q);
    od[n * k++ + i] = ldexp(p, a & 31) + scalbln(q, (a >> 5) & 15) + frexp(p, &m) + m + modf(q, &p) + p + logb(fabs(q) + 1) + ilogb(fabs(p) + 1);
    od[n * k++ + i] = norm3d(p, q, 1.5) + rhypot(p, q + 1) + normcdf(p * 0.01) + normcdfinv(fmin(fabs(q) * 1e-3 + 0.01, 0.99)) + cyl_bessel_i0(p * 0.01);
    od[n * k++ + i] = round(p) + lround(q * 0.001) + nearbyint(p) + llrint(q * 0.01) + floor(p) + ceil(q);
    od[n * k++ + i] = __dsub_rn(p, q) + __dmul_rz(p, q) + __fma_rd(p, q, 1.0) + __dadd_ru(p, 0.1);
    of[n * f++ + i] = erfinvf(fminf(fabsf(x) * 1e-3f, 0.99f)) + erfcf(y * 0.01f) + lgammaf(fabsf(x) + 0.5f) + tgammaf(fmodf(fabsf(y), 20.f) + 0.5f);
    of[n * f++ + i] = sinhf(x * 0.001f) + coshf(y * 0.001f) + tanhf(x * 0.01f) + asinhf(y) + acoshf(fabsf(x) + 1.0f) + atanhf(fminf(fabsf(y) * 1e-3f, 0.99f));
    of[n * f++ + i] = sinpif(x * 0.01f) + cospif(y * 0.01f) + atanf(x) + acosf(fminf(fabsf(y) * 1e-3f, 1.0f)) + exp10f(x * 0.001f) + log1pf(fabsf(y));
    of[n * f++ + i] = roundf(x) + nearbyintf(y) + (float)lroundf(x * 0.01f) + fdimf(x, y) + nextafterf(x, y) + remquof(x, 3.5f, &m) + m;
    of[n * f++ + i] = normcdff(x * 0.01f) + norm3df(x, y, 1.5f) + rhypotf(x, y + 1.f) + j1f(x * 0.01f) + y0f(fabsf(y) + 0.1f) + erfcxf(x * 0.001f);
    of[n * f++ + i] = __half2float(__float2half_rd(x)) + __half2float(__float2half_ru(y)) + (float)__half2int_rz(__float2half(x * 0.01f)) + (float)__half2ushort_rn(__float2half(fabsf(y)));
    of[n * f++ + i] = __half2float(__int2half_rn(a)) + __half2float(__uint2half_rd((unsigned)a)) + __half2float(__short2half_ru((short)a)) + __bfloat162float(__int2bfloat16_rn(a));
    of[n * f++ + i] = (float)__bfloat162int_rz(__float2bfloat16(x)) + __bfloat162float(__double2bfloat16(p)) + __half2float(__double2half(q)) + __half2float(hrcp(__float2half(y * 0.01f + 3.f)));
    __half h = __float2half(x * 0.01f), g = __float2half(y * 0.01f);
    of[n * f++ + i] = __half2float(__hdiv(h, __hadd(g, __float2half(3.0f)))) + __half2float(__hmax(h, g)) + __half2float(__hmin_nan(h, g)) + __half2float(__hfma_sat(h, g, h));
    of[n * f++ + i] = __half2float(hceil(h)) + __half2float(hfloor(g)) + __half2float(htrunc(h)) + __half2float(hrint(g)) + __half2float(hsin(h)) + __half2float(hcos(g)) + __half2float(hlog2(__habs(h) + __float2half(1.0f)));
    oi[n * 0 + i] = __hlt(h, g) + 2 * __hgeu(h, g) + 4 * __hisnan(__hdiv(h, __float2half(0.0f))) + 8 * __hbeq2(__halves2half2(h, g), __halves2half2(g, h));
    oi[n * 1 + i] = __float2int_rn(x * 1e6f) ^ (int)__float2uint_rz(fabsf(y) * 1e6f) ^ (int)__double2ll_rn(p * 1e9) ^ (int)__double2uint_rd(fabs(q) * 1e6);
    oi[n * 2 + i] = isfinite(p) + 2 * isinf(q) + 4 * isnan(p * q) + 8 * signbit(q);
}
extern "C" __global__ void tc(const half *A, const half *B, const float *Af, const float *Bf, float *C, float *Ct, double *Cd, const double *Ad)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::fill_fragment(c, 0.5f);
    wmma::load_matrix_sync(a, A, 16);
    wmma::load_matrix_sync(b, B, 16);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(C, c, 16, wmma::mem_row_major);
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> at;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> bt;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> ct;
    wmma::fill_fragment(ct, 0.0f);
    wmma::load_matrix_sync(at, Af, 8);
    wmma::load_matrix_sync(bt, Bf, 16);
    for (int t = 0; t < at.num_elements; t++) at.x[t] = wmma::__float_to_tf32(at.x[t]);
    for (int t = 0; t < bt.num_elements; t++) bt.x[t] = wmma::__float_to_tf32(bt.x[t]);
    wmma::mma_sync(ct, at, bt, ct);
    wmma::store_matrix_sync(Ct, ct, 16, wmma::mem_row_major);
    wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> ad;
    wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> bd;
    wmma::fragment<wmma::accumulator, 8, 8, 4, double> cd;
    wmma::fill_fragment(cd, 1.0);
    wmma::load_matrix_sync(ad, Ad, 4);
    wmma::load_matrix_sync(bd, Ad + 32, 4);
    wmma::mma_sync(cd, ad, bd, cd);
    wmma::store_matrix_sync(Cd, cd, 8, wmma::mem_row_major);
}
