// half.cu — cuda_fp16.h / cuda_bf16.h intrinsics as nvcc emits them (inline asm with
// registers declared without '%', f16/bf16 scalars and pairs, conversions): each thread
// writes the raw bits of every result, checked against a CPU reference.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#define NH 20 // results per thread
extern "C" __global__ void half_ops(const float *a, const float *b, const float *c,
                                    unsigned short *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    __half x = __float2half(a[i]), y = __float2half(b[i]), z = __float2half(c[i]);
    __half2 p = __halves2half2(x, y), q = __halves2half2(z, x);
    __half2 s = __hadd2(p, q), m = __hmul2(p, q), f = __hfma2(p, q, s);
    __nv_bfloat16 bx = __float2bfloat16(a[i]), by = __float2bfloat16(b[i]);
    __nv_bfloat16 bz = __float2bfloat16(c[i]);
    __half r[NH] = {__hadd(x, y), __hsub(x, y), __hmul(x, y), __hfma(x, y, z), __hneg(x),
                    __habs(y), __hmin(x, y), __hmax(x, y), __low2half(s), __high2half(s),
                    __low2half(m), __high2half(f),
                    __float2half(__half2float(x) + (__hlt(x, y) ? 1.0f : 0.0f)),
                    __float2half(__low2float(f) - __high2float(m))};
    __nv_bfloat16 br[2] = {__hadd(bx, by), __hfma(bx, by, bz)};
    __nv_bfloat162 bp = __halves2bfloat162(bx, by), bq = __halves2bfloat162(by, bz);
    __nv_bfloat162 bm = __hmul2(bp, bq), bf = __hfma2(bp, bq, __hadd2(bp, bq));
    for (int k = 0; k < 14; k++)
        out[i * NH + k] = __half_as_ushort(r[k]);
    out[i * NH + 14] = __bfloat16_as_ushort(br[0]);
    out[i * NH + 15] = __bfloat16_as_ushort(br[1]);
    out[i * NH + 16] = __bfloat16_as_ushort(__low2bfloat16(bm));
    out[i * NH + 17] = __bfloat16_as_ushort(__high2bfloat16(bm));
    out[i * NH + 18] = __bfloat16_as_ushort(__low2bfloat16(bf));
    out[i * NH + 19] = __bfloat16_as_ushort(__high2bfloat16(bf));
}

// CUB's warp scan step (warp_scan_shfl.cuh): registers declared without '%' in inline asm.
extern "C" __global__ void asm_scan(const int *in, int *out)
{
    int v = in[threadIdx.x];
    for (int offset = 1; offset < 32; offset *= 2) {
        int r;
        asm volatile("{"
                     "  .reg .s32 r0;"
                     "  .reg .pred p;"
                     "  shfl.sync.up.b32 r0|p, %1, %2, %3, %4;"
                     "  @p add.s32 r0, r0, %1;"
                     "  mov.s32 %0, r0;"
                     "}"
                     : "=r"(r)
                     : "r"(v), "r"(offset), "r"(0), "r"(0xffffffff));
        v = r;
    }
    out[threadIdx.x] = v;
}

// hexp: cuda_fp16.hpp's asm declares `.reg.b32 f, C, nZ;` (type glued to .reg) and fixes
// special cases with set.eq.f16.f16 and fma.rn.f16.
extern "C" __global__ void half_exp(const float *a, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = __half2float(hexp(__float2half(a[i])));
}
