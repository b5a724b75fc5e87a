// contract.cu — the multiply-add contraction ptxas makes (sim/contract.c): mul and add
// written as separate PTX instructions (inline asm, so that nvcc's own fusing is out of
// the way), in the shapes ptxas fuses and those it must not (.rn, a product used twice).
// test_sim_contract runs it on both models: the SASS model runs ptxas's code, so the PTX
// model's values must equal its, word for word.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

__device__ float fmul(float a, float b) { float r; asm("mul.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); return r; }
__device__ float fadd(float a, float b) { float r; asm("add.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); return r; }
__device__ float fsub(float a, float b) { float r; asm("sub.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); return r; }
__device__ float fmul_rn(float a, float b) { float r; asm("mul.rn.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); return r; }
__device__ float fadd_rn(float a, float b) { float r; asm("add.rn.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); return r; }
__device__ double ws_dmul(double a, double b) { double r; asm("mul.f64 %0, %1, %2;" : "=d"(r) : "d"(a), "d"(b)); return r; }
__device__ double ws_dadd(double a, double b) { double r; asm("add.f64 %0, %1, %2;" : "=d"(r) : "d"(a), "d"(b)); return r; }
__device__ unsigned hmul2(unsigned a, unsigned b) { unsigned r; asm("mul.f16x2 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r; }
__device__ unsigned hadd2(unsigned a, unsigned b) { unsigned r; asm("add.f16x2 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r; }
__device__ unsigned bmul2(unsigned a, unsigned b) { unsigned r; asm("mul.bf16x2 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r; }
__device__ unsigned bsub2(unsigned a, unsigned b) { unsigned r; asm("sub.bf16x2 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r; }

extern "C" __global__ void contract(const float *x, const unsigned *h, float *of, double *od, unsigned *oh)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float a = t ? x[3 * t] : __int_as_float(0xffc00001), b = x[3 * t + 1], c = x[3 * t + 2];
    /* thread 0: a NaN with a sign and a payload; every result is the canonical 0x7fffffff */
    float *o = of + 10 * t;
    o[0] = fadd(fmul(a, b), c);                 /* fused */
    o[1] = fsub(fmul(a, b), c);                 /* a*b - c */
    o[2] = fsub(c, fmul(a, b));                 /* c - a*b */
    o[3] = fadd_rn(fmul(a, b), c);              /* .rn add: not fused */
    o[4] = fadd(fmul_rn(a, b), c);              /* .rn mul: not fused */
    float p = fmul(a, c);                       /* a product used twice */
    o[5] = fadd(p, b);
    o[6] = p;
    float q = fmul(b, c);                       /* a product in one block, the add in another */
    if (a > 0.0f)
        o[7] = fadd(q, a);
    else
        o[7] = fadd(fmul(b, b), fmul(c, a));    /* both operands products */
    float r = fmul(b, c);                       /* a product whose every use is an add: */
    o[8] = fadd(r, a);                          /* fused into each */
    o[9] = fsub(r, b);
    double da = a, db = b, dc = c;
    od[t] = ws_dadd(ws_dmul(da * 1.1, db * 3.7), dc);
    unsigned u = h[2 * t], v = h[2 * t + 1];
    oh[2 * t] = hadd2(hmul2(u, v), u ^ v);
    oh[2 * t + 1] = bsub2(u, bmul2(v, u ^ 0x3c003c00u));
}
