// intrin.cu — CUDA intrinsics whose PTX and SASS forms are each model's own rows: dp4a/dp2a
// (IDP.4A/2A), vabsdiff4 (VABSDIFF4.U8), min/max.relu and packed 16-bit integers (VIMNMX
// .RELU/.S16x2, VIADD.16x2, VIMNMX3), cvt.rn.f16x2.f32 (F2FP.PACK_AB), set.f16x2 (HSET2),
// bf16 with round-toward-zero (F2F.BF16.F32.RZ); and calls the SASS model runs but the PTX
// model refuses: recursion past ptxas's stack estimate and calls through a function pointer
// (CALL.REL.NOINC R). test_sim_intrin checks values against the CPU and the models against
// each other; tests/gpu/intrinsics.spec runs the same kernels on the GPU.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>

extern "C" __global__ void intrin_int(const unsigned *a, const unsigned *b, unsigned *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x = a[t], y = b[t];
    unsigned *o = out + t * 16;
    o[0] = __dp4a(x, y, 5u);
    o[1] = (unsigned)__dp4a((int)x, (int)y, -7);
    o[2] = (unsigned)__dp2a_lo((int)x, (int)y, 3);
    o[3] = __dp2a_hi(x, y, 9u);
    o[4] = __vabsdiffu4(x, y);
    o[5] = __vsadu4(x, y);
    o[6] = (unsigned)__vimax3_s32((int)x, (int)y, t - 16);
    o[7] = (unsigned)__viaddmax_s32((int)x, (int)y, t);
    o[8] = (unsigned)__vimin_s32_relu((int)x, (int)y);
    o[9] = __vimax_s16x2_relu(x, y);
    o[10] = __vimin3_u16x2(x, y, (unsigned)t * 0x10001u);
    o[11] = __vimax_s32_relu((int)x, (int)y);
    o[12] = __vibmin_s32((int)x, (int)y, (bool *)&o[13]) ;
    o[14] = __vimin3_s16x2_relu(x, y, 0x7fff8000u);
    o[15] = __vimax3_u32(x, y, 12345u);
}

extern "C" __global__ void intrin_half(const float *a, const float *b, unsigned *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float x = a[t], y = b[t];
    unsigned *o = out + t * 8;
    __half2 h = __floats2half2_rn(x, y), g = __float22half2_rn(make_float2(y, x));
    o[0] = *(unsigned *)&h;
    o[1] = *(unsigned *)&g;
    __half2 r = __hgt2(h, g);
    o[2] = *(unsigned *)&r;
    o[3] = __hle2_mask(h, g);
    __nv_bfloat162 bh = __floats2bfloat162_rn(x, y);
    o[4] = *(unsigned *)&bh;
    o[5] = __bfloat16_as_ushort(__float2bfloat16_rz(y));
    o[6] = __bfloat16_as_ushort(__float2bfloat16_rd(x)) | (unsigned)__half_as_ushort(__float2half_ru(y)) << 16;
    /* __float2half_rz: F2FP.F16.F32.PACK_AB.RZ (x * 1000: past 2048 the f16 step is 2) */
    o[7] = __hbeq2(h, g) | (unsigned)__half_as_ushort(__float2half_rz(x * 1000.0f)) << 16;
}

__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__device__ __noinline__ int op_mul(int x) { return x * 3 + 1; }
__device__ __noinline__ int op_xor(int x) { return x ^ 0x55; }
__device__ int (*intrin_ops[2])(int);

extern "C" __global__ void intrin_calls(const unsigned *a, unsigned *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0) {
        intrin_ops[0] = op_mul;
        intrin_ops[1] = op_xor;
    }
    __syncthreads();
    unsigned x = a[t];
    out[2 * t] = (unsigned)fib((int)(x % 12));
    out[2 * t + 1] = (unsigned)intrin_ops[x & 1]((int)x);
}

/* atomicAdd on float2/float4 (ATOMG.E.ADD.F32x2/x4, atom.global.add.v2/v4.f32): exact sums,
 * so the totals do not depend on the order; the old values each thread gets do, but per
 * address they are one of each prefix (a permutation the test checks). */
extern "C" __global__ void intrin_vatom(const unsigned *a, float *acc, float *old)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x = a[t] % 64;
    float2 r = atomicAdd((float2 *)acc + (t & 3), make_float2((float)x, 0.5f));
    float4 s = atomicAdd((float4 *)(acc + 8) + (t & 1),
                         make_float4(1.0f, (float)(x & 7), 0.25f, (float)t));
    old[2 * t] = r.y;
    old[2 * t + 1] = s.x;
}

/* Addresses in initializers: C++ virtual functions (vtables: `.u64 _ZTV2Sq[3] = {0, 0,
 * _ZNK2Sq4areaEi}`), a table of function pointers, pointers to other variables
 * (`generic(intrin_vals)+4`) and a string literal's address (`generic($str)`). The SASS
 * model runs the calls (CALL.REL.NOINC through a register); the PTX model refuses calls
 * through pointers but runs intrin_ptrs. */
struct IntrinShape { __device__ virtual int area(int x) const = 0; };
struct IntrinSq : IntrinShape { __device__ int area(int x) const override { return x * x; } };
struct IntrinTri : IntrinShape {
    __device__ int area(int x) const override { return x * (x + 1) / 2; }
};
__device__ __noinline__ int intrin_add100(int x) { return x + 100; }
__device__ __noinline__ int intrin_mul7(int x) { return x * 7; }
__device__ int (*intrin_table[2])(int) = {intrin_add100, intrin_mul7};

extern "C" __global__ void intrin_virtual(const unsigned *a, unsigned *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int x = (int)(a[t] % 1000);
    IntrinSq s;
    IntrinTri tr;
    const IntrinShape *p = x & 1 ? (const IntrinShape *)&s : (const IntrinShape *)&tr;
    out[2 * t] = (unsigned)p->area(x);
    out[2 * t + 1] = (unsigned)intrin_table[(x >> 1) & 1](x);
}

__device__ int intrin_vals[4] = {11, 22, 33, 44};
__device__ int intrin_more[2] = {55, 66};
__device__ int *intrin_ptrs_tab[3] = {intrin_vals + 1, intrin_more, intrin_vals + 3};
__device__ const char *intrin_msg = "warpscope";

extern "C" __global__ void intrin_ptrs(unsigned *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = (unsigned)(*intrin_ptrs_tab[t % 3] + intrin_msg[t % 9]);
}

/* mbarrier.init and mbarrier.arrive with a per-lane address and count: SYNCS takes them
 * from uniform registers, so ptxas wraps each in a waterfall loop (R2UR P0, UR4, R0 sets P0
 * in the lanes whose value differs from the lowest lane's; @P1 BRA.U.ANY sends the whole
 * warp round again while any lane is left). Each lane reports how many arrivals its own
 * barrier (count 1-3) needed to complete its phase, read through mbarrier.test_wait (a
 * plain load of the object reads 0 on the H100: only mbarrier.* may touch it). */
extern "C" __global__ void intrin_waterfall(const unsigned *a, unsigned *out)
{
    __shared__ unsigned long long bar[64];
    unsigned t = threadIdx.x, c = a[blockIdx.x * blockDim.x + t] % 3 + 1, done = 0;
    unsigned s = (unsigned)__cvta_generic_to_shared(&bar[t]);
    asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(s), "r"(c) : "memory");
    for (unsigned k = 1; k <= 3 && !done; k++) {
        unsigned long long token;
        unsigned ok;
        asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(token) : "r"(s) : "memory");
        asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                     : "=r"(ok) : "r"(s), "l"(token) : "memory");
        done = ok ? k : 0;
    }
    out[blockIdx.x * blockDim.x + t] = done;
}

/* atomicAdd on floats flushes subnormal inputs and results (PTX atom.add.f32; SASS
 * RED.E.ADD.F32.FTZ.RN): {1e-40} -> 0, 1.5e-38 - 1.4e-38 = 1e-39 -> 0, 2 + 1e-40 -> 2. */
extern "C" __global__ void intrin_ftz(float *acc)
{
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        atomicAdd(acc + 0, 1e-40f);
        atomicAdd(acc + 1, 1.5e-38f);
        atomicAdd(acc + 1, -1.4e-38f);
        atomicAdd(acc + 2, 2.0f);
        atomicAdd(acc + 2, 1e-40f);
    }
}

/* FP8 conversions (cuda_fp8.h; PTX cvt ... .e4m3x2/.e5m2x2, SASS F2FP ... .E4M3/.E5M2):
 * floats over 2^-24 .. 2^23 (subnormals and overflow of both formats), floats with four
 * significant bits (ties), specials in the first 16 threads; every fp8 byte pattern back to
 * halves. Eight words a thread. */
__device__ float fp8_in(unsigned u, int few)
{
    unsigned man = few ? u & 0x00780000u : u & 0x007fffffu;
    return __uint_as_float((u & 0x80000000u) | man | (((u >> 23) % 48 + 103) << 23));
}

extern "C" __global__ void intrin_fp8(const unsigned *a, const unsigned *b, unsigned *out)
{
    const float special[16] = {__int_as_float(0x7fc00000), __int_as_float(0xff800000), 448.f,
                               464.f, 480.f, -57344.f, 61440.f, -0.f, 0.0009765625f,
                               0.0029296875f, 7.62939453125e-06f, 1.1444091796875e-05f,
                               __int_as_float(0x7f800000), 65504.f, -1e-30f, 240.f};
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned u = a[t], v = b[t], *o = out + t * 8;
    float x = t < 16 ? special[t] : fp8_in(u, 0), y = fp8_in(v, 1);
    unsigned short r0, r1, r2, r3, r4, r5, r6, r7;
    __half2 h = __floats2half2_rn(x, y);
    unsigned hb = *(unsigned *)&h, q0, q1, q2;
    asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(r0) : "f"(x), "f"(y));
    asm("cvt.rn.satfinite.e5m2x2.f32 %0, %1, %2;" : "=h"(r1) : "f"(x), "f"(y));
    asm("cvt.rn.satfinite.relu.e4m3x2.f32 %0, %1, %2;" : "=h"(r2) : "f"(x), "f"(y));
    asm("cvt.rn.satfinite.relu.e5m2x2.f32 %0, %1, %2;" : "=h"(r3) : "f"(x), "f"(y));
    asm("cvt.rn.satfinite.e4m3x2.f16x2 %0, %1;" : "=h"(r4) : "r"(hb));
    asm("cvt.rn.satfinite.e5m2x2.f16x2 %0, %1;" : "=h"(r5) : "r"(hb));
    asm("cvt.rn.satfinite.relu.e4m3x2.f16x2 %0, %1;" : "=h"(r6) : "r"(hb));
    asm("cvt.rn.satfinite.relu.e5m2x2.f16x2 %0, %1;" : "=h"(r7) : "r"(hb));
    asm("cvt.rn.f16x2.e4m3x2 %0, %1;" : "=r"(q0) : "h"((unsigned short)u));
    asm("cvt.rn.f16x2.e5m2x2 %0, %1;" : "=r"(q1) : "h"((unsigned short)(u >> 16)));
    asm("cvt.rn.relu.f16x2.e4m3x2 %0, %1;" : "=r"(q2) : "h"((unsigned short)v));
    o[0] = r0 | (unsigned)r1 << 16;
    o[1] = r2 | (unsigned)r3 << 16;
    o[2] = r4 | (unsigned)r5 << 16;
    o[3] = r6 | (unsigned)r7 << 16;
    o[4] = q0;
    o[5] = q1;
    o[6] = q2;
    __nv_fp8x4_e4m3 p(make_float4(x, y, -y, x * 0.5f)); /* four bytes from merged pairs */
    o[7] = *(unsigned *)&p;
}

/* Forms HeCBench's programs brought (2026-11-25): the sm_90 SIMD add-then-min/max on 16-bit
 * pairs (VIADDMNMX.S16x2/.U16x2[.RELU]), hfloor/hceil on a half and a bf16 (FRND.F16/.BF16)
 * and an L2 prefetch (CCTL.E.PF2). Four words a thread. */
extern "C" __global__ void intrin_simd2(const unsigned *a, const unsigned *b, unsigned *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x = a[t], y = b[t], *o = out + 4 * t;
    asm volatile("prefetch.global.L2 [%0];" ::"l"(a + t));
    o[0] = __viaddmax_s16x2(x, y, 0x00400040u * (unsigned)(t & 7));
    o[1] = __viaddmin_u16x2(x, y, x ^ y);
    o[2] = __viaddmax_s16x2_relu(x, y, y >> 3);
    __half h = __ushort_as_half((unsigned short)(x & 0x7bff));
    __nv_bfloat16 g = __ushort_as_bfloat16((unsigned short)(y >> 16));
    o[3] = (unsigned)__half_as_ushort(hfloor(h)) | (unsigned)__bfloat16_as_ushort(hceil(g)) << 16;
}

/* Forms CUB's device-wide algorithms bring (CUB 3.0): a __grid_constant__ struct parameter
 * read through a reference held by an agent object (PTX mov %rd, param, then
 * ld.param [%rd+k]), the radix sorts' digit masks (bmsk.clamp/.wrap; BMSK, BMSK.W) and
 * programmatic dependent launch (griddepcontrol.wait/.launch_dependents; ACQBULK, PREEXIT).
 * 2 + n words a thread. */
struct cub_ctx {
    bool first;
    unsigned long long base, total;
};

struct cub_agent {
    const cub_ctx &ctx;
    unsigned *out;
    __device__ unsigned offset() const { return ctx.first ? 0u : (unsigned)ctx.base; }
    __device__ void run(int t, int n)
    {
        for (int i = 0; i < n; i++) {
            __syncthreads();
            out[i] = offset() + (unsigned)(t * n + i) + (unsigned)(ctx.total >> 32);
        }
    }
};

extern "C" __global__ void intrin_cub(const unsigned *a, const unsigned *b, unsigned *out,
                                      int n, const __grid_constant__ cub_ctx ctx)
{
    cudaGridDependencySynchronize();
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x = a[t], y = b[t], *o = out + (2 + n) * t, m0, m1;
    /* positions and widths 0..40: past 32 .clamp saturates, .wrap takes them modulo 32 */
    asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(m0) : "r"(x % 41), "r"(y % 41));
    asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(m1) : "r"((x >> 8) % 41), "r"((y >> 8) % 41));
    o[0] = m0;
    o[1] = m1;
    cub_agent{ctx, o + 2}.run(t, n);
    cudaTriggerProgrammaticLaunchCompletion();
}

/* Float min/max over signed zeros and NaN (fminf/fmaxf, fmin/fmax, __hmin/__hmax): sm_70+
 * orders -0 < +0 and lets a NaN lose (SASS FMNMX, DSETP.MIN/.MAX, HMNMX2). Thread t takes
 * the pair (v[t / 6], v[t % 6]) through memory, so that nothing folds; six words a thread. */
extern "C" __global__ void intrin_zminmax(const unsigned *a, unsigned *out)
{
    __shared__ float v[6];
    unsigned t = threadIdx.x;
    if (t < 6)
        v[t] = __uint_as_float((const unsigned[]){0u, 0x80000000u, 0x3f800000u, 0xbf800000u,
                                                  0x7fc00000u, 0x80000000u}[t] | (a[t] & 0u));
    __syncthreads();
    if (t >= 36)
        return;
    float x = v[t / 6], y = v[t % 6];
    out[t * 6 + 0] = __float_as_uint(fminf(x, y));
    out[t * 6 + 1] = __float_as_uint(fmaxf(x, y));
    out[t * 6 + 2] = (unsigned)(__double_as_longlong(fmin((double)x, (double)y)) >> 32);
    out[t * 6 + 3] = (unsigned)(__double_as_longlong(fmax((double)x, (double)y)) >> 32);
    out[t * 6 + 4] = __half_as_ushort(__hmin(__float2half(x), __float2half(y)));
    out[t * 6 + 5] = __half_as_ushort(__hmax(__float2half(x), __float2half(y)));
}

/* Three-way half min/max (ptxas fuses __hmin(a, __hmin(b, c)) into VHMNMX) and half pairs
 * built one rounded-toward-zero conversion at a time (F2FP.F16.F32.MERGE_C.RZ), over
 * overflowing, signed-zero and NaN inputs; four words a thread. */
extern "C" __global__ void intrin_h3(const float *fa, const float *fb, unsigned *out)
{
    unsigned t = threadIdx.x + blockIdx.x * blockDim.x;
    float x = fa[t] * (t % 4u == 0u ? 3e4f : 1.0f), y = fb[t];
    if (t % 8u == 5u)
        x = __uint_as_float(0x7fc00000u);
    if (t % 8u == 6u)
        y = -0.0f;
    __half a = __float2half(x), b = __float2half(y), c = __float2half(x * y);
    out[t * 4 + 0] = __half_as_ushort(__hmin(a, __hmin(__float2half(65504.0f), b))) |
                     (unsigned)__half_as_ushort(__hmax(a, __hmax(b, c))) << 16;
    out[t * 4 + 1] = __half_as_ushort(__hmin(a, __hmin(b, c)));
    __half2 p = __halves2half2(__float2half_rz(x * 1e4f), __float2half_rz(y));
    out[t * 4 + 2] = __half_as_ushort(__low2half(p)) | (unsigned)__half_as_ushort(__high2half(p)) << 16;
    __half2 q = __halves2half2(__float2half_rz(x * 1e4f + y), __float2half_rz(1e30f));
    out[t * 4 + 3] = __half_as_ushort(__low2half(q)) | (unsigned)__half_as_ushort(__high2half(q)) << 16;
}

/* NaN constants with payloads (a quiet one of all ones, a signaling one, an f64's high word)
 * chosen by a select and given a sign: ptxas writes them as FSEL immediates that nvdisasm
 * prints as -QNAN / +SNAN, without the payload the cubin holds. Four words a thread. */
extern "C" __global__ void intrin_nanimm(const unsigned *a, const float *fa, unsigned *out)
{
    unsigned t = threadIdx.x + blockIdx.x * blockDim.x;
    bool p = a[t] & 1u;
    float y = fa[t];
    out[t * 4 + 0] = __float_as_uint(copysignf(p ? 2.0f : __uint_as_float(0xffffffffu), y));
    out[t * 4 + 1] = __float_as_uint(copysignf(p ? -1.5f : __uint_as_float(0x7f800001u), y));
    long long d = __double_as_longlong(
        copysign(p ? 0.25 : __longlong_as_double(0xfff123456789abcdll), (double)y));
    out[t * 4 + 2] = (unsigned)(d >> 32);
    out[t * 4 + 3] = (unsigned)((unsigned long long)d >> 20);
}

/* How FP64 arithmetic and conversions pass NaNs on: two NaN operands (which one DADD, DMUL
 * and DFMA keep), a NaN that an operation makes (inf - inf), and NaNs converted between f32
 * and f64, f32 arithmetic on NaNs beside them. Each thread has its own payloads; nothing
 * folds (z is a zero the compiler cannot see). Sixteen words a thread. */
extern "C" __global__ void intrin_nan64(const unsigned *a, unsigned *out)
{
    unsigned t = threadIdx.x + blockIdx.x * blockDim.x;
    unsigned long long z = a[t] & 0u;
    double x = __longlong_as_double(0x7ff0000000000001ull + ((unsigned long long)t << 32) + z);
    double y = __longlong_as_double(0xfff8000000000123ull + ((unsigned long long)t << 8) + z);
    double one = 1.0 + (double)z, inf = __longlong_as_double(0x7ff0000000000000ull + z);
    double r[6];
    r[0] = __dadd_rn(x, y);
    r[1] = __dadd_rn(y, x);
    r[2] = __dmul_rn(-x, one);
    r[3] = __fma_rn(one, y, x);
    r[4] = __dsub_rn(inf, inf);
    r[5] = (double)__uint_as_float(0x7f800001u + t + (unsigned)z);
    for (int k = 0; k < 6; k++) {
        unsigned long long b = (unsigned long long)__double_as_longlong(r[k]);
        out[t * 16 + 2 * k] = (unsigned)b;
        out[t * 16 + 2 * k + 1] = (unsigned)(b >> 32);
    }
    out[t * 16 + 12] = __float_as_uint((float)x);
    out[t * 16 + 13] = __float_as_uint((float)y);
    out[t * 16 + 14] = __float_as_uint(__fadd_rn(__uint_as_float(0x7f800001u + t + (unsigned)z), 1.0f));
    out[t * 16 + 15] = __float_as_uint(__fmul_rn(__uint_as_float(0xffc00123u + t + (unsigned)z), 2.0f));
}

/* How NaNs pass through half and bf16 conversions and arithmetic: f16 and bf16 NaNs with
 * payloads (a signaling and a quiet one per thread) widened to f32, added, compared, and
 * f32 NaNs narrowed to f16/bf16 and f64 ones to f16. Eight words a thread. */
extern "C" __global__ void intrin_nan16(const unsigned *a, unsigned *out)
{
    unsigned t = threadIdx.x + blockIdx.x * blockDim.x, z = a[t] & 0u;
    __half s = __ushort_as_half((unsigned short)(0x7c01u + t + z));   /* signaling */
    __half q = __ushort_as_half((unsigned short)(0xfe00u + 3u * t + z)); /* quiet, negative */
    __nv_bfloat16 bq = __ushort_as_bfloat16((unsigned short)(0x7fc1u + t + z));
    float f = __uint_as_float(0x7fa00000u + (t << 8) + z);               /* signaling f32 */
    out[t * 8 + 0] = __float_as_uint(__half2float(s));
    out[t * 8 + 1] = __float_as_uint(__half2float(q));
    out[t * 8 + 2] = __half_as_ushort(__hadd(s, __float2half(1.0f))) |
                     (unsigned)__half_as_ushort(__hmax(q, s)) << 16;
    out[t * 8 + 3] = __half_as_ushort(__float2half(f)) |
                     (unsigned)__half_as_ushort(__float2half_rz(-f)) << 16;
    out[t * 8 + 4] = __bfloat16_as_ushort(__float2bfloat16(f)) |
                     (unsigned)__bfloat16_as_ushort(__float2bfloat16_rz(f)) << 16;
    out[t * 8 + 5] = __float_as_uint(__bfloat162float(bq));
    out[t * 8 + 6] = __half_as_ushort(__double2half(__longlong_as_double(0x7ff4000000000123ll + z + t)));
    out[t * 8 + 7] = __half_as_ushort(__hneg(s)) | (unsigned)__half_as_ushort(__habs(q)) << 16;
}

// Half-precision atomics (atomicAdd on __half2, __nv_bfloat162, __half, __nv_bfloat16, a
// 16-bit atomicCAS loop), packed 16-bit subtraction with a negated operand (__vsub2:
// VIADD.16x2 R, a, -b) and __hfma2_relu (HFMA2.RELU, fma.rn.relu.f16x2). Every sum is exact
// in its format, so the totals do not depend on the order the lanes add in.
extern "C" __global__ void intrin_h16(const unsigned *a, const unsigned *b, unsigned *acc,
                                      unsigned short *cas, unsigned *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd((__half2 *)&acc[0], __floats2half2_rn(1.0f, 0.5f));
    atomicAdd((__nv_bfloat162 *)&acc[1], __floats2bfloat162_rn(2.0f, -1.0f));
    atomicAdd((__half *)&acc[2], __float2half(0.25f));
    atomicAdd((__nv_bfloat16 *)&acc[2] + 1, __float2bfloat16(4.0f));
    unsigned short old = cas[t & 3], seen;
    do {
        seen = old;
        old = atomicCAS(&cas[t & 3], seen, (unsigned short)(seen + 3));
    } while (old != seen);
    out[3 * t] = __vsub2(a[t], b[t]);
    __half2 x = __halves2half2(__ushort_as_half((unsigned short)(a[t] & 0x3fff)),
                               __ushort_as_half((unsigned short)(b[t] & 0xbfff)));
    __half2 y = __floats2half2_rn(-1.5f, 0.75f), z = __floats2half2_rn(0.25f, -2.0f);
    __half2 r = __hfma2_relu(x, y, z);
    out[3 * t + 1] = *(unsigned *)&r;
    out[3 * t + 2] = __vsub2(b[t], 0x80017fffu);
}

// __sinf / __cosf of large arguments: ptxas scales by 1/(2 pi) rounding toward zero, then
// the SFU's sine of the product, so the phase is the GPU's, far from libm's sinf(x).
extern "C" __global__ void intrin_sfu(const float *a, float *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float x = a[t] * 250000.0f; /* up to 1e6 in magnitude */
    out[2 * t] = __sinf(x);
    out[2 * t + 1] = __cosf(x);
}

// __fns (fns.b32): the n-th set bit from a base bit, up or down, for offsets -3..5.
extern "C" __global__ void intrin_fns(const unsigned *a, const unsigned *b, unsigned *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned m = a[t] & b[t], base = b[t] & 31;
    for (int k = 0; k < 9; k++)
        out[9 * t + k] = __fns(m, base, k - 3);
}
