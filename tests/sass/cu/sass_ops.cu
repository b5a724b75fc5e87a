// sass_ops.cu — kernels that make ptxas emit the SASS opcodes kernels/ and the other
// fixtures do not (generic atomics and stores, jump tables, half precision, bit-field
// extracts, nanosleep, traps, uniform-datapath arithmetic), so every row of
// sim/sass_ops.def that nvcc 13 emits at sm_90 is parsed by tests/sass.
#include <cuda_fp16.h>

__device__ int counter;

// Pointers read from memory are generic: ATOM.E and ST.E.
extern "C" __global__ void generic_ptrs(int **ptrs, int n)
{
    int *p = ptrs[threadIdx.x % n];
    atomicAdd(p, 1);
    p[1] = 7;
}

// A dense switch becomes a jump table (BRX).
extern "C" __global__ void jump_table(const int *in, int *out)
{
    int i = threadIdx.x;
    int v = in[i], r;
    switch (v & 15) {
    case 0: r = v * 3; break;
    case 1: r = v ^ 0x55; break;
    case 2: r = v + 17; break;
    case 3: r = v << 3; break;
    case 4: r = v / 7; break;
    case 5: r = v % 11; break;
    case 6: r = ~v; break;
    case 7: r = v - 99; break;
    case 8: r = v * v; break;
    case 9: r = v >> 2; break;
    case 10: r = v | 0x100; break;
    case 11: r = v & 0xff0; break;
    default: r = 0; break;
    }
    out[i] = r;
}

// Packed halves: F2FP, HMUL2, HSETP2.
extern "C" __global__ void halves(const float *in, float *out)
{
    int i = threadIdx.x;
    __half2 a = __floats2half2_rn(in[2 * i], in[2 * i + 1]);
    __half2 b = __hmul2(a, a);
    __half2 c = __hblt2(b, a) ? a : b;
    out[i] = __low2float(c) + __high2float(c) + (__hbgt2(a, b) ? 1.0f : 0.0f);
}

// Bit-field extract/insert, sign extension, saturating conversions.
extern "C" __global__ void bits(const int *in, int *out, unsigned s)
{
    int i = threadIdx.x, v = in[i];
    int x;
    asm("bfe.s32 %0, %1, %2, %3;" : "=r"(x) : "r"(v), "r"(s & 7), "r"(5));
    unsigned m;
    asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(m) : "r"(s & 31), "r"(v & 31));
    int y;
    asm("cvt.sat.s16.s32 %0, %1;" : "=r"(y) : "r"(v));
    int z = (signed char)(v >> (s & 15));
    out[i] = x + (int)m + y + z;
}

// Uniform arithmetic on values every thread shares.
extern "C" __global__ void uniform_math(int *out, int a, int b, unsigned c)
{
    int lo = min(a, b), hi = max(a, b);
    int sel = a > b ? a : c;
    unsigned r = __brev(c) ^ (c & 0xf0f0) ^ (unsigned)(signed char)a;
    unsigned mk;
    asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(mk) : "r"(c & 31), "r"(a & 31));
    out[threadIdx.x] = lo * hi + sel + (int)r + (int)mk + (a == (int)c && b > 3);
}

// Fences, sleeps, traps and the 64-bit clock (CS2R).
extern "C" __global__ void fences(int *out, long long *clk, int flag)
{
    out[threadIdx.x] = 1;
    clk[threadIdx.x] = clock64();
    __threadfence();
    asm volatile("fence.proxy.async;");
    __nanosleep(100);
    if (flag == 12345)
        __trap();
    atomicAdd(&counter, 1);
}

// Many live predicates across a call-free loop: P2R/R2P spills.
extern "C" __global__ void many_preds(const int *in, int *out, int n)
{
    int i = threadIdx.x;
    bool p0 = in[i] > 0, p1 = in[i + 1] > 1, p2 = in[i + 2] > 2, p3 = in[i + 3] > 3;
    bool p4 = in[i + 4] > 4, p5 = in[i + 5] > 5, p6 = in[i + 6] > 6, p7 = in[i + 7] > 7;
    int acc = 0;
    for (int k = 0; k < n; k++) {
        acc += (p0 ? k : 1) + (p1 ? k * 2 : 3) + (p2 ? k ^ 5 : 7) + (p3 ? k * 9 : 11);
        acc += (p4 ? acc >> 1 : 13) + (p5 ? acc << 1 : 17) + (p6 ? k - 3 : 19) + (p7 ? 23 : k);
        p0 ^= (acc & 1); p3 ^= (acc & 2) != 0; p6 ^= (acc & 4) != 0;
    }
    out[i] = acc;
}

// An indirect branch through a table of targets (BRX).
extern "C" __global__ void indirect_branch(const int *in, int *out)
{
    int i = threadIdx.x, r;
    unsigned k = (unsigned)in[i] & 3;
    asm volatile("{\n\t"
                 ".reg .u32 %%t;\n\t"
                 "ws_ts: .branchtargets ws_l0, ws_l1, ws_l2, ws_l3;\n\t"
                 "brx.idx %1, ws_ts;\n\t"
                 "ws_l0: mov.u32 %0, 10; bra.uni ws_done;\n\t"
                 "ws_l1: mov.u32 %0, 20; bra.uni ws_done;\n\t"
                 "ws_l2: mov.u32 %0, 30; bra.uni ws_done;\n\t"
                 "ws_l3: mov.u32 %0, 40;\n\t"
                 "ws_done:\n\t"
                 "}" : "=r"(r) : "r"(k));
    out[i] = r;
}

// Half-precision multiply and compare kept apart from adds (HMUL2, HSETP2).
extern "C" __global__ void half_ops(const __half2 *in, __half2 *out, int *flags)
{
    int i = threadIdx.x;
    __half2 a = in[i], b = in[i + 32];
    out[i] = __hmul2_sat(a, b);
    flags[i] = __hbge2(a, b) && __hbne2(b, a);
}
