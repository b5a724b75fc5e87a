#include <cuda_fp16.h>
#include <cuda_bf16.h>
extern "C" __global__ void conv(const int *in, const float *fi, const double *di, int *out,
                                float *fo, double *dout, long long *lo, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int a = in[i], b = in[(i + 5) % n] | 1;
    float x = fi[i], y = fi[(i + 3) % n];
    double p = di[i], q = di[(i + 9) % n];
    int k = 0, f = 0, d = 0, m = 0;
    out[n * k++ + i] = __float2int_ru(x) + __float2int_rd(y) * 3;
    out[n * k++ + i] = (int)__float2uint_rn(fabsf(x)) ^ __float2int_rz(y);
    out[n * k++ + i] = a / b + a % b;
    out[n * k++ + i] = (int)((unsigned)a / (unsigned)b + (unsigned)a % (unsigned)b);
    out[n * k++ + i] = __double2hiint(p) ^ __double2loint(q);
    out[n * k++ + i] = __float_as_int(x) >> 3;
    out[n * k++ + i] = __double2int_rn(p) + __double2uint_ru(fabs(q));
    out[n * k++ + i] = __funnelshift_r((unsigned)a, (unsigned)b, 40) + __funnelshift_lc((unsigned)a, (unsigned)b, 40);
    out[n * k++ + i] = __float2half_rn(x) == __float2half_rn(y);
    out[n * k++ + i] = __hisnan(__float2half(x / (y - y))) + 2 * __hisinf(__float2half(x * 1e30f));
    out[n * k++ + i] = __popc(a) + __ffs(b) + __clz(a ^ b);
    lo[n * m++ + i] = __float2ll_rz(x * 1e6f) + __float2ll_ru(y * 1e9f);
    lo[n * m++ + i] = (long long)a * b / (b | 3) + ((long long)a * 12345) % (long long)b;
    lo[n * m++ + i] = (long long)((unsigned long long)((long long)a * 77777) / (unsigned long long)(b & 0xffff | 1));
    lo[n * m++ + i] = __double2ll_rd(p * 1e12) ^ __double2ull_rz(fabs(q) * 1e10);
    lo[n * m++ + i] = __mul64hi((long long)a * 99999, (long long)b * 7777) + __umul64hi((unsigned long long)a * 3, (unsigned long long)b * 5);
    fo[n * f++ + i] = __ll2float_rd((long long)a * 1000003) + __uint2float_ru((unsigned)b);
    fo[n * f++ + i] = __int2float_rz(a * 77) + __double2float_rz(p) + __double2float_ru(q);
    fo[n * f++ + i] = __fdiv_rz(x, y) + __fmul_ru(x, y) + __frcp_rd(y) + __fadd_rd(x, y);
    fo[n * f++ + i] = __fsqrt_ru(fabsf(x)) + __fdividef(x, y);
    fo[n * f++ + i] = __expf(x * 0.001f) + __logf(fabsf(y) + 1.0f) + __powf(fabsf(x) * 0.001f + 1.0f, 1.5f);
    fo[n * f++ + i] = __sinf(x * 0.01f) + __cosf(y * 0.01f) + __tanf(x * 0.0001f);
    fo[n * f++ + i] = expf(x * 0.001f) + logf(fabsf(y) + 1.0f) + powf(fabsf(x) * 0.001f + 1.0f, 1.5f);
    fo[n * f++ + i] = sinf(x * 0.01f) + cosf(y * 0.01f) + tanf(x * 0.0001f) + asinf(fminf(fabsf(y) * 0.001f, 1.0f));
    fo[n * f++ + i] = exp2f(x * 0.01f) + log2f(fabsf(y) + 2.0f) + log10f(fabsf(x) + 3.0f) + expm1f(y * 0.001f);
    fo[n * f++ + i] = sqrtf(fabsf(x)) + rsqrtf(fabsf(y) + 1.0f) + cbrtf(x) + fmaf(x, y, 1.0f);
    fo[n * f++ + i] = ldexpf(x, a & 15) + scalbnf(y, b & 7) + (float)ilogbf(x + 1.0f) + logbf(fabsf(y) + 1.0f);
    fo[n * f++ + i] = __half2float(__hmul(__float2half(x * 0.01f), __float2half(y * 0.01f))) + __half2float(hsqrt(__float2half(fabsf(x) * 0.01f)));
    fo[n * f++ + i] = __half2float(hexp(__float2half(x * 0.001f))) + __half2float(hlog(__float2half(fabsf(y) + 1.0f)));
    fo[n * f++ + i] = __bfloat162float(__hmul(__float2bfloat16(x), __float2bfloat16(y))) + __bfloat162float(hrsqrt(__float2bfloat16(fabsf(y) + 1.0f)));
    __half2 h = __floats2half2_rn(x * 0.01f, y * 0.01f);
    __half2 g = __h2div(h, __floats2half2_rn(1.5f, -2.5f));
    fo[n * f++ + i] = __low2float(g) + __high2float(__habs2(__hneg2(g))) + __low2float(__hadd2_sat(h, h));
    fo[n * f++ + i] = __low2float(__hfma2_relu(h, g, h)) + __high2float(h2exp(h)) + __low2float(h2sin(h));
    dout[n * d++ + i] = __dadd_rz(p, q) + __dmul_ru(p, q) + __ddiv_ru(p, q) + __drcp_rn(q) + __dsqrt_rd(fabs(p));
    dout[n * d++ + i] = exp(p * 0.001) + log(fabs(q) + 1.0) + pow(fabs(p) * 0.001 + 1.0, 2.5) + sin(p) + cos(q);
    dout[n * d++ + i] = __hiloint2double(a, b) * 0.0 + __int2double_rn(a) + __ll2double_rd((long long)a * 1000000007LL) + rint(p) + trunc(q);
    dout[n * d++ + i] = fma(p, q, 1.0) + fmod(p, q + 0.5) + cbrt(p) + hypot(p, q) + atan2(q, p);
}
