// unseen17.cu — a seventeenth set of kernels written as a new user would, before its first
// GPU run, to reach the intrinsics the earlier sets did not: SIMD byte and half-word
// arithmetic (__vabsdiffu4, __dp4a, __byte_perm, ...), cooperative-groups tiles and
// coalesced groups, a mix of atomics (inc/dec with wrap, bitwise, 64-bit min/max, a 16-bit
// CAS loop), the float math library's special functions, 64-bit bit tricks, warp reductions
// over divergent masks, and vector loads and stores with cache hints and half2 arithmetic.
// bench/unseen/unseen17.spec launches them; docs/results/unseen-kernels-h200.txt has what an
// H200 and the model gave. Every checked output is deterministic.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_fp16.h>

namespace cg = cooperative_groups;

// Each thread folds 16 words of bytes through the SIMD-in-a-word intrinsics: a sum of
// absolute differences, a dot product of signed bytes, byte-wise max, average and compare,
// and a byte permutation chosen by the data.
extern "C" __global__ void simd_bytes(const unsigned *a, const unsigned *b, unsigned *out,
                                      int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    unsigned acc = 0, mx = 0, avg = 0, cmp = 0;
    int dot = 0;
    for (int k = 0; k < 16; k++) {
        unsigned x = a[(size_t)t * 16 + k], y = b[(size_t)t * 16 + k];
        acc = __sad(x & 0xffff, y & 0xffff, acc) + __vabsdiffu4(x, y);
        dot = __dp4a((int)x, (int)y, dot);
        dot = __dp2a_lo((int)x, (int)y, dot);
        mx = __vmaxu4(mx, __vadd4(x, y));
        avg ^= __vavgu4(x, y) + __vsub2(x, y);
        cmp += __vcmpgtu4(x, y) >> (k & 7);
        unsigned sel = (x >> 28) | ((y >> 24) & 0xf0);
        acc += __byte_perm(x, y, sel | 0x3200);
        acc = __funnelshift_l(acc, x, y & 31) ^ __funnelshift_r(acc, y, x & 31);
    }
    out[(size_t)t * 4 + 0] = acc;
    out[(size_t)t * 4 + 1] = (unsigned)dot;
    out[(size_t)t * 4 + 2] = mx ^ avg;
    out[(size_t)t * 4 + 3] = cmp;
}

// Tiles of 8 threads reduce their values with cooperative groups (cg::reduce, then a
// shfl_down loop to check it), vote with any/all/ballot, and the threads whose value is
// odd form a coalesced group that ranks itself and sums its members' values.
extern "C" __global__ void cg_tiles(const int *in, int *out, int n)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<8> tile = cg::tiled_partition<8>(block);
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int v = t < n ? in[t] : 0;
    int sum = cg::reduce(tile, v, cg::plus<int>());
    int mx = cg::reduce(tile, v, cg::greater<int>());
    int s = v;
    for (int d = tile.size() / 2; d > 0; d /= 2)
        s += tile.shfl_down(s, d);
    s = tile.shfl(s, 0);
    int flags = tile.any(v > 900) | tile.all(v > 100) << 1 | (int)tile.ballot(v & 1) << 2;
    int odd = 0, rank = -1;
    if (v & 1) {
        cg::coalesced_group g = cg::coalesced_threads();
        rank = (int)g.thread_rank();
        odd = cg::reduce(g, v, cg::plus<int>()) + (int)g.size();
    }
    if (t < n) {
        out[(size_t)t * 4 + 0] = sum - s;
        out[(size_t)t * 4 + 1] = mx + 1000 * (int)tile.meta_group_rank();
        out[(size_t)t * 4 + 2] = flags;
        out[(size_t)t * 4 + 3] = odd * 64 + rank;
    }
}

// Every item hits a word of a small table with one of seven atomics picked by the item:
// inc and dec that wrap at 1000, and, or, xor, 64-bit signed min and unsigned max, and an
// add to a 16-bit counter through a CAS loop on the 16-bit word. The tables' final values
// do not depend on the order the atomics land in.
extern "C" __global__ void atomic_mix(const unsigned *items, unsigned *w32, long long *smin,
                                      unsigned long long *umax, unsigned short *c16, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    unsigned x = items[t];
    unsigned slot = (x >> 8) & 15;
    switch (x % 7) {
    case 0:
        atomicInc(&w32[slot], 999u);
        break;
    case 1:
        atomicDec(&w32[16 + slot], 999u);
        break;
    case 2:
        atomicAnd(&w32[32 + slot], ~(1u << (x >> 27)));
        break;
    case 3:
        atomicOr(&w32[48 + slot], 1u << (x >> 27));
        break;
    case 4:
        atomicXor(&w32[64 + slot], x * 2654435761u);
        break;
    case 5:
        atomicMin(&smin[slot], (long long)x * (long long)(x & 0xff) - (1LL << 40));
        atomicMax(&umax[slot], (unsigned long long)x << 21);
        break;
    default: {
        unsigned short old = c16[slot], assumed;
        do {
            assumed = old;
            old = atomicCAS(&c16[slot], assumed, (unsigned short)(assumed + (x & 7) + 1));
        } while (old != assumed);
    }
    }
}

// The float library's special functions on one value a thread, each where it has a slow
// path for some inputs (large arguments, denormals, near-zero).
extern "C" __global__ void special_math(const float *in, float *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    float x = in[t], y = in[(t + 1) % n];
    int e;
    float m = frexpf(x, &e);
    float r[12];
    r[0] = erff(x) + erfcf(y);
    r[1] = expm1f(x * 0.01f) + log1pf(fabsf(y));
    r[2] = cbrtf(x) * hypotf(x, y);
    r[3] = atan2f(y, x) + asinhf(x);
    r[4] = fmodf(x, y == 0.0f ? 1.0f : y) + remainderf(y, 3.5f);
    r[5] = sinpif(x * 1e-3f) + cospif(y);
    r[6] = tanhf(x * 0.1f) * powf(fabsf(y) + 1.0f, 0.37f);
    r[7] = ldexpf(m, e - 3) + nextafterf(x, y) - x;
    r[8] = rsqrtf(fabsf(x) + 1e-30f) * copysignf(1.0f, y);
    r[9] = roundf(x * 0.37f) + rintf(y * 0.61f) + truncf(x * 0.003f);
    r[10] = lgammaf(fabsf(y) * 0.01f + 0.5f);
    r[11] = __fdividef(x, y) * 0.0f + fmaxf(x, y) - fminf(x, y);
    for (int k = 0; k < 12; k++)
        out[(size_t)k * n + t] = r[k];
}

// 64-bit bit tricks on two words a thread: leading zeros, population counts, the first
// set bit, bit reversal, the high halves of 64 x 64 products, rotations by data-dependent
// counts, and a parity walk that loops while bits remain.
extern "C" __global__ void bits64(const unsigned long long *in, unsigned long long *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    unsigned long long x = in[2 * (size_t)t], y = in[2 * (size_t)t + 1];
    unsigned long long h = __umul64hi(x, y) ^ (unsigned long long)__mul64hi((long long)x, (long long)y);
    int sh = (int)(y & 63);
    unsigned long long rot = (x << sh) | (x >> ((64 - sh) & 63));
    unsigned long long rev = __brevll(x);
    unsigned long long z = x & y, steps = 0;
    while (z) { // walks the set bits of x & y, lowest first
        int b = __ffsll((long long)z) - 1;
        steps += (unsigned long long)b * 0x9e3779b97f4a7c15ull;
        z &= z - 1;
    }
    out[4 * (size_t)t + 0] = h;
    out[4 * (size_t)t + 1] = rot ^ rev;
    out[4 * (size_t)t + 2] = (unsigned long long)__clzll((long long)x) << 32 | (unsigned)__popcll(y);
    out[4 * (size_t)t + 3] = steps + (y >> (x & 63)) + ((long long)x >> (y & 31));
}

// Warp reductions over the lanes that take a branch: min, max, and, or and xor of their
// values by __reduce_*_sync on that branch's mask, __match_all_sync on a value, and
// shuffles within sub-warps of 8 and 16 lanes.
extern "C" __global__ void warp_reduce_ops(const unsigned *in, unsigned *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = t < n ? in[t] : 0;
    unsigned r0 = 0, r1 = 0, r2 = 0;
    if (v % 3 != 0) {
        unsigned m = __activemask();
        r0 = __reduce_min_sync(m, v) ^ __reduce_max_sync(m, v);
        r1 = __reduce_and_sync(m, v | 0x80000000u) + __reduce_or_sync(m, v & 0xff00);
        r2 = __reduce_xor_sync(m, v) + __reduce_add_sync(m, v & 0xf);
    } else {
        int pred;
        unsigned m = __activemask();
        unsigned g = __match_all_sync(m, v & 1, &pred);
        r0 = (unsigned)pred * 7 + __popc(g);
    }
    unsigned s8 = v;
    for (int d = 1; d < 8; d *= 2)
        s8 += __shfl_xor_sync(0xffffffffu, s8, d, 8);
    unsigned u16 = __shfl_up_sync(0xffffffffu, v, 3, 16);
    if (t < n) {
        out[(size_t)t * 4 + 0] = r0;
        out[(size_t)t * 4 + 1] = r1;
        out[(size_t)t * 4 + 2] = r2;
        out[(size_t)t * 4 + 3] = s8 ^ (u16 << 1);
    }
}

// Vector loads and stores with cache hints: float4 through __ldg and __ldcs, int4 through
// __ldcg, a half2 blend (__hfma2, __hmax2, a compare), and stores by __stcs, __stwt and
// __stcg; threads past the last whole vector take the scalar tail.
extern "C" __global__ void vec_hints(const float4 *a, const int4 *b, const __half2 *h,
                                     float4 *fo, int4 *io, __half2 *ho, int nvec)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nvec)
        return;
    float4 p = __ldg(&a[t]), q = __ldcs(&a[(t + 7) % nvec]);
    int4 c = __ldcg(&b[t]);
    __half2 x = h[t], y = __ldg(&h[(t + 3) % nvec]);
    float4 r;
    r.x = p.x * q.y + (float)c.x;
    r.y = p.y - q.x * (float)(c.y & 15);
    r.z = fmaxf(p.z, q.w) + (c.z < 0 ? 1.0f : -1.0f);
    r.w = p.w * 0.5f + q.z;
    __stcs(&fo[t], r);
    int4 s = make_int4(c.x ^ c.y, c.z + c.w, c.x > c.w ? c.x : c.w, __float_as_int(p.x) & 0xff);
    __stwt(&io[t], s);
    __half2 m = __hmax2(__hfma2(x, y, __float2half2_rn(0.25f)), __hneg2(y));
    if (__hbgt2(x, y))
        m = __hadd2(m, x);
    __stcg(&ho[t], m);
}
