// sweep.cu — a sweep of the CUDA Math API and intrinsics a new user's kernels call, compiled
// for sm_90: float and double functions (full-precision and fast), integer division and bit
// tricks, SIMD-in-a-word video intrinsics, half and bf16 arithmetic, and (warpy) warp
// primitives, atomics of every type and space, printf, clock and cache-hinted loads.
// test_sass_kernels checks that every SASS line of it has a row that reads all its
// modifiers; tests/gpu/sweep.spec runs fmath, imath and halfy on the GPU and
// bench/sweep_compare.py puts each model's outputs beside the GPU's (warpy's results depend
// on the order of atomics and on clocks, so it is not compared).
#include <cuda_fp16.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>
namespace cg = cooperative_groups;
extern "C" __global__ void fmath(const float *a, const double *d, float *o, double *od, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x; if (t >= n) return;
    float x = a[t]; double y = d[t];
    o[t*16+0] = sinf(x) + cosf(x) + tanf(x);
    o[t*16+1] = expf(x) + exp2f(x) + exp10f(x) + logf(x) + log2f(x) + log10f(x) + log1pf(x);
    o[t*16+2] = powf(x, 1.7f) + sqrtf(x) + rsqrtf(x) + cbrtf(x) + hypotf(x, 2.f);
    o[t*16+3] = erff(x) + erfcf(x) + tgammaf(x) + lgammaf(x) + atan2f(x, 1.3f) + asinf(x*0.1f);
    o[t*16+4] = fmodf(x, 0.7f) + remainderf(x, 0.3f) + truncf(x) + roundf(x) + rintf(x) + floorf(x) + ceilf(x);
    o[t*16+5] = __fdividef(x, 3.f) + __sinf(x) + __expf(x) + __logf(x) + __powf(x, 2.f) + __saturatef(x);
    o[t*16+6] = fminf(x, 1.f) + fmaxf(x, -1.f) + fabsf(x) + copysignf(x, -1.f) + __frcp_rz(x) + __fsqrt_rd(x);
    o[t*16+7] = (float)(int)x + (float)(unsigned)x + (float)(long long)x + __float2int_rd(x) + __float2uint_ru(x) + __float2ll_rz(x);
    o[t*16+8] = x / (x + 1.0f);
    od[t*8+0] = sin(y) + exp(y) + log(y) + pow(y, 1.3) + sqrt(y) + rsqrt(y) + cbrt(y);
    od[t*8+1] = y / (y + 3.0) + fma(y, y, 1.0) + fmod(y, 0.3) + erf(y) + atan(y);
    od[t*8+2] = (double)(long long)y + (double)(unsigned long long)y + (double)x + __dsqrt_rn(y) + __drcp_rn(y) + __ddiv_ru(y, 3.0);
    o[t*16+9] = (float)y + __double2float_rz(y) + __double2int_rz(y) + __double2uint_rn(y) + __double2ll_rd(y);
    o[t*16+10] = __int_as_float(__double2hiint(y)) + isnan(x) + isinf(x) + signbit(x) + isfinite(y);
    int e; o[t*16+11] = frexpf(x, &e) + e + ldexpf(x, 3) + scalbnf(x, 2) + ilogbf(x) + nextafterf(x, 0.f);
    o[t*16+12] = normf(2, a + t) + rnormf(2, a + t) + norm3df(x, x, 1.f); sincospif(x, o + t*16+13, o+t*16+14);
    float th;
    asm("tanh.approx.f32 %0, %1;" : "=f"(th) : "f"(x - 2.0f)); /* MUFU.TANH (GELU kernels) */
    o[t*16+15] = th;
}
extern "C" __global__ void imath(const unsigned *a, const long long *b, unsigned *o, long long *ob, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x; if (t >= n) return;
    unsigned x = a[t]; long long y = b[t]; unsigned long long uy = (unsigned long long)y;
    o[t*16+0] = x / 7u + x % 13u + (int)x / -5 + (int)x % 9 + x / (t + 1) + x % (t + 3);
    ob[t*8+0] = y / 3 + y % 11 + y / (t + 1) + (long long)(uy / (t + 7)) + (long long)(uy % (unsigned)(t + 5));
    o[t*16+1] = __brev(x) + __ffs(x) + __clz(x) + __popc(x) + __popcll(uy) + __ffsll(y) + __clzll(y) + __brevll(uy);
    o[t*16+2] = __byte_perm(x, t, 0x5140) + __funnelshift_l(x, t, x & 31) + __funnelshift_rc(x, t, t) + __mulhi(x, t) + __umulhi(x, 77);
    ob[t*8+1] = __mul64hi(y, 12345678901ll) + __umul64hi(uy, 98765ull) + (y >> (x & 63)) + (uy >> (t & 63)) + (y << 3) + __sad(t, x, 3) + __usad(x, t, 1);
    o[t*16+3] = __hadd(x, t) + __rhadd(x, t) + __uhadd(x, t) + __urhadd(x, t) + __mul24(x, t) + __umul24(x, t) + abs((int)x) + min((int)x, t) + max(x, 5u);
    o[t*16+4] = __vadd2(x, t) + __vsub4(x, t) + __vcmpgeu4(x, t) + __vmaxu2(x, t) + __vabsss2(x) + __vavgu4(x, t) + __vseteq2(x, t) + __vnegss4(x) + __vhaddu2(x,t);
    o[t*16+5] = (unsigned)(short)x + (unsigned char)x + (unsigned)(signed char)(x >> 8) + (unsigned short)(x >> 3) + (unsigned)(long long)(short)(x>>1);
    ob[t*8+2] = (long long)llabs(y) + llmin(y, 7) + ullmax(uy, 3) + (y * y) + (long long)(uy * 3ull);
}
extern "C" __global__ void warpy(const unsigned *a, unsigned *o, float *f, double *d, unsigned long long *u, int *s, __half2 *h, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    __shared__ unsigned sh[256]; __shared__ double shd[32]; __shared__ float shf[32];
    unsigned x = a[t];
    sh[threadIdx.x] = x; __syncthreads();
    unsigned m = __ballot_sync(0xffffffff, x & 1);
    unsigned any = __any_sync(0xffffffff, x > 100), all = __all_sync(0xffffffff, x > 5);
    unsigned v = __shfl_xor_sync(0xffffffff, x, 1) + __shfl_up_sync(0xffffffff, x, 2) + __shfl_down_sync(0xfffffff0, x, 3) + __shfl_sync(0xffffffff, x, 5, 16);
    float fv = __shfl_xor_sync(0xffffffff, (float)x, 4); double dv = __shfl_down_sync(0xffffffff, (double)x, 1);
    unsigned mm = __match_any_sync(0xffffffff, x & 7); int pred; unsigned ma = __match_all_sync(0xffffffff, x & 1, &pred);
    unsigned r = __reduce_add_sync(0xffffffff, x) + __reduce_min_sync(0xffffffff, x) + __reduce_max_sync(0xffffffff, (int)x) + __reduce_and_sync(0xffffffff, x) + __reduce_or_sync(0xffffffff,x) + __reduce_xor_sync(0xffffffff,x);
    cg::thread_block b = cg::this_thread_block(); auto tile = cg::tiled_partition<16>(b);
    unsigned cr = cg::reduce(tile, x, cg::plus<unsigned>()); unsigned cs = tile.shfl_up(x, 1);
    __syncwarp(); unsigned act = __activemask(); __threadfence(); __threadfence_block(); __threadfence_system();
    o[t] = m + any + all + v + (unsigned)fv + (unsigned)dv + mm + ma + pred + r + cr + cs + act + sh[(threadIdx.x + 1) % 256];
    atomicAdd(f + (x & 7), 1.5f); atomicAdd(d + (x & 3), 2.5); atomicMin(u + (x&3), (unsigned long long)x); atomicMax(s + (x & 3), (int)x - 50);
    atomicAnd(o + 1000 + (x & 3), x); atomicOr(o + 1004, x); atomicXor(o + 1008, x); atomicInc(o + 1012, 100u); atomicDec(o + 1016, 50u);
    atomicExch(o + 1020, x); atomicCAS(o + 1024, x, t); atomicAdd(u + 8, 1ull); atomicSub(s + 8, 3); atomicMax(u + 9, (unsigned long long)x);
    atomicAdd(h + (x & 1), __floats2half2_rn(1.f, 2.f)); atomicAdd_block(o + 1030, 1u); atomicAdd_system(o + 1031, 2u);
    atomicAdd(&sh[x & 15], 1u); atomicMin(&sh[16 + (x & 3)], x); atomicCAS(&sh[20], x, 7u); atomicAdd(&shf[x & 7], 1.0f); atomicAdd(&shd[x & 3], 1.0); atomicExch(&sh[30], x);
    atomicMax((unsigned long long*)shd + 8, (unsigned long long)x); atomicAdd(&sh[40], x); atomicInc(&sh[41], 3u);
    __syncthreads(); o[2000 + threadIdx.x] = sh[threadIdx.x];
    if (t == 0) printf("t %d %f\n", t, (double)fv);
    volatile unsigned *vo = o; vo[3000] = vo[3001] + 1;
    unsigned long long c = clock64(); o[3002 + threadIdx.x] = (unsigned)c + clock();
    __nanosleep(10);
    unsigned ld = __ldg(a + 1) + __ldcg(a + 2) + __ldca(a + 3) + __ldcs(a+4) + __ldlu(a+5) + __ldcv(a+6);
    __stwb(o + 4000, ld); __stcg(o + 4001, ld); __stcs(o + 4002, ld); __stwt(o + 4003, ld);
}
extern "C" __global__ void halfy(const __half2 *a, const __half *b, __half2 *o, __half *ob, float *of, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x; if (t >= n) return;
    __half2 x = a[t]; __half y = b[t];
    o[t*8+0] = __hadd2(x, x) + __hmul2(x, x) + __hfma2(x, x, x) + __hsub2(x, x) + __h2div(x, __float2half2_rn(3.f));
    o[t*8+1] = h2sqrt(x) + h2exp(x) + h2log(x) + h2sin(x) + h2rcp(x) + __hmax2(x, x) + __hmin2_nan(x, x) + __habs2(x) + __hneg2(x);
    ob[t*4+0] = __hadd(y, y) * y / __float2half(1.5f) + hsqrt(y) + __hmax(y, y) + hexp(y) + __hfma_sat(y, y, y);
    of[t*4+0] = __half2float(y) + __low2float(x) + __high2float(x) + __hlt(y, y) + __hbgt2(x, x) + __hisnan(y) + (float)__half2int_rz(y) + (float)__half2uint_rn(y);
    ob[t*4+1] = __int2half_rn(t) + __uint2half_rd(t) + __short2half_rn((short)t) + __double2half((double)t) + __float2half_rz((float)t);
    __nv_bfloat162 bb = __floats2bfloat162_rn(1.f, (float)t); bb = __hmul2(bb, bb) + __hfma2(bb, bb, bb);
    of[t*4+1] = __low2float(bb) + __bfloat162float(__float2bfloat16_rn((float)t)) + __high2float(bb);
}
