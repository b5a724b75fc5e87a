#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
extern "C" __global__ void intr(const int *in, int *out, float *fo, unsigned long long *lo, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int a = in[i], b = in[(i + 7) % n], c = in[(i + 13) % n];
    unsigned ua = (unsigned)a, ub = (unsigned)b;
    int k = 0;
    out[n * k++ + i] = __dp4a(a, b, c);
    out[n * k++ + i] = __dp2a_lo(a, b, c);
    out[n * k++ + i] = (int)__vabsdiffu4(ua, ub);
    out[n * k++ + i] = (int)__vadd4(ua, ub);
    out[n * k++ + i] = (int)__vcmpgtu4(ua, ub);
    out[n * k++ + i] = (int)__sad(a, b, (unsigned)c);
    out[n * k++ + i] = (int)__byte_perm(ua, ub, (unsigned)c & 0x7777);
    out[n * k++ + i] = (int)__funnelshift_l(ua, ub, (unsigned)c);
    out[n * k++ + i] = (int)__brevll((unsigned long long)ua << 7);
    out[n * k++ + i] = __clzll((long long)a << 3);
    out[n * k++ + i] = __ffsll((long long)b << 9);
    out[n * k++ + i] = __mulhi(a, b);
    out[n * k++ + i] = (int)__umul64hi((unsigned long long)ua * 977, ub);
    out[n * k++ + i] = __rhadd(a, b);
    out[n * k++ + i] = (int)__vmaxs2(ua, ub);
    out[n * k++ + i] = (int)__vsub2(ua, ub);
    float x = (float)a / 1000.0f, y = (float)b / 3000.0f;
    int f = 0;
    fo[n * f++ + i] = __saturatef(x);
    fo[n * f++ + i] = __frsqrt_rn(fabsf(x) + 1.0f);
    fo[n * f++ + i] = __fsqrt_rd(fabsf(y));
    fo[n * f++ + i] = __fmaf_rz(x, y, 1.0f);
    fo[n * f++ + i] = rintf(x) + truncf(y) + floorf(x) + ceilf(y);
    fo[n * f++ + i] = fmodf(x, y + 0.5f);
    fo[n * f++ + i] = remainderf(x, 3.0f);
    fo[n * f++ + i] = erff(y);
    fo[n * f++ + i] = __half2float(__float2half_rz(x));
    fo[n * f++ + i] = __bfloat162float(__float2bfloat16_rn(y));
    __nv_fp8_e4m3 e(x);
    fo[n * f++ + i] = (float)e;
    __nv_fp8_e5m2 e2(y);
    fo[n * f++ + i] = (float)e2;
    fo[n * f++ + i] = __half2float(__hmax_nan(__float2half(x), __float2half(y)));
    fo[n * f++ + i] = cbrtf(x) + hypotf(x, y) + atan2f(y, x + 0.1f);
    lo[i] = (unsigned long long)__popcll((unsigned long long)ua * ub) + __clz(a);
}
extern "C" __global__ void atoms(const int *in, __half2 *h2, __nv_bfloat162 *b2, long long *ll,
                                 unsigned short *us, float *ff, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int a = in[i];
    atomicAdd(&h2[a & 7], __floats2half2_rn(1.0f, 0.5f));
    atomicAdd(&b2[a & 7], __floats2bfloat162_rn(1.0f, 2.0f));
    atomicMin(&ll[a & 3], (long long)a - 100000);
    atomicMax(&ll[4 + (a & 3)], (long long)a * 3);
    unsigned short old = us[i & 15], assumed;
    do { assumed = old; old = atomicCAS(&us[i & 15], assumed, (unsigned short)(assumed + 1)); } while (old != assumed);
    atomicAdd(&ff[a & 3], 0.25f);
    int m = __reduce_min_sync(0xffffffff, a & 1023);
    unsigned all = __match_all_sync(0xffffffff, a & 1, &m);
    atomicAdd((int *)&ff[8], m + (int)all);
}
