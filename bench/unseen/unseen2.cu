// unseen2.cu — a second set of kernels written as a new user would, after the first set
// (unseen.cu) had been measured and its one rule fitted on separate probes. They lean on what
// real kernels carry that the seeds do not: the math library's slow paths (IEEE division,
// sinf's range reduction, 64-bit division, double division and square root), which ptxas
// reaches through calls that only some lanes take; shared-memory float atomics;
// cooperative-groups tiles; a state machine; named barriers between warps; printf; half2
// compares; and loops whose trip count is only known per lane.
// bench/unseen/unseen2.spec launches them; docs/results/unseen-kernels-h200.txt has the
// GPU's counts beside both models'.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_fp16.h>
#include <cstdio>
namespace cg = cooperative_groups;

// IEEE single division: the fast path is a reciprocal and two FMAs; denormal, huge, zero,
// infinite and NaN operands take a called slow path.
extern "C" __global__ void fdiv_ieee(const float *a, const float *b, float *q, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) q[i] = a[i] / b[i];
}

// sinf: a polynomial for ordinary arguments, Payne-Hanek reduction (a loop over a table,
// with a local array) for |x| above about 1e5.
extern "C" __global__ void sin_range(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = sinf(x[i]);
}

// 64-bit unsigned division and remainder: a 32-bit path when both fit, a called routine
// otherwise.
extern "C" __global__ void div64(const unsigned long long *a, const unsigned long long *b,
                                 unsigned long long *q, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned long long d = b[i] | 1;
    q[i] = a[i] / d + a[i] % (d + 2);
}

// Double division and square root, each with a called slow path for awkward operands.
extern "C" __global__ void ddiv_sqrt(const double *a, const double *b, double *r, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double x = a[i], y = b[i];
    r[i] = x / y + sqrt(fabs(x));
}

// A warp keeps going while any lane has work: every lane walks its own chain of lengths.
extern "C" __global__ void any_loop(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    int steps = 0, left = v & 63;
    while (__any_sync(0xffffffffu, left > 0)) {
        if (left > 0) {
            v = v * 1103515245 + 12345;
            left -= 1 + ((v >> 16) & 3);
            steps++;
        }
    }
    if (i < n) out[i] = steps;
}

// A block histogram of float weights in shared memory (eight bins, heavy contention), then
// one global add per bin. The weights are small integers, so every order sums the same.
extern "C" __global__ void smem_fadd(const int *in, float *bins, int n)
{
    __shared__ float h[8];
    if (threadIdx.x < 8) h[threadIdx.x] = 0.0f;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int x = in[i];
        atomicAdd(&h[x & 7], (float)(x & 15));
    }
    __syncthreads();
    if (threadIdx.x < 8) atomicAdd(&bins[threadIdx.x], h[threadIdx.x]);
}

// Tiles of eight: odd tiles reduce a sum, even tiles a max, and a tile stops early when
// any of its lanes saw a zero.
extern "C" __global__ void tile_reduce(const int *in, int *out, int n)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<8> tile = cg::tiled_partition<8>(block);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int x = i < n ? in[i] : 1;
    int r;
    if (tile.any((x & 31) == 0)) {
        r = -1;
    } else if (tile.meta_group_rank() & 1) {
        r = cg::reduce(tile, x & 1023, cg::plus<int>());
    } else {
        r = cg::reduce(tile, x, cg::greater<int>());
    }
    if (i < n) out[i] = r + (int)tile.thread_rank();
}

// A small lexer over digits drawn from the input: each lane is in its own state.
extern "C" __global__ void state_machine(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned s = (unsigned)in[i] * 2654435761u;
    int state = 0, tokens = 0, value = 0;
    for (int k = 0; k < 24; k++) {
        int c = (s >> (k % 29)) & 7;
        switch (state) {
        case 0: if (c < 4) { state = 1; value = c; } else if (c == 7) state = 2; break;
        case 1: if (c < 4) value = value * 4 + c; else { tokens += value & 3; state = 0; } break;
        case 2: if (c == 0) { state = 3; } break;
        case 3: tokens++; state = c & 1; break;
        }
    }
    out[i] = tokens * 16 + state;
}

// An unrolled loop whose trip count is the lane's own: ptxas leaves an unrolled body and a
// remainder loop.
extern "C" __global__ void unroll_tail(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int m = in[i] & 37, acc = 0;
#pragma unroll 4
    for (int k = 0; k < m; k++)
        acc += (k ^ i) & 15;
    out[i] = acc;
}

// Warp specialisation: warps 0-1 produce into shared memory, warps 2-3 consume, handing
// over through named barrier 1 (128 threads: both halves) round by round.
extern "C" __global__ void named_bar(const int *in, int *out, int n)
{
    __shared__ int buf[64];
    int t = threadIdx.x, base = blockIdx.x * blockDim.x;
    int acc = 0;
    for (int round = 0; round < 4; round++) {
        if (t < 64) {
            int j = base + ((t + round * 17) & 127);
            buf[t] = j < n ? in[j] & 0xffff : 0;
            asm volatile("bar.arrive 1, 128;" ::: "memory");
            asm volatile("bar.sync 2, 128;" ::: "memory");
        } else {
            asm volatile("bar.sync 1, 128;" ::: "memory");
            int v = buf[t - 64];
            if (v & 1) acc += v; else acc ^= v;
            asm volatile("bar.arrive 2, 128;" ::: "memory");
        }
    }
    if (t >= 64 && base + t < n) out[base + t] = acc;
    else if (base + t < n) out[base + t] = -t;
}

// A grid-stride loop over more items than threads, with a test inside.
extern "C" __global__ void grid_stride(const int *in, int *out, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x * 4) {
        int x = in[i];
        out[i] = (x % 5 == 0) ? x / 5 : x * 2;
    }
}

// printf from a few lanes.
extern "C" __global__ void printf_few(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = in[i];
    if (x % 211 == 0) printf("item %d: %d\n", i, x);
    out[i] = x >> 3;
}

// Pairs of halves: a branch on whether both halves are above a threshold.
extern "C" __global__ void half2_branch(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = in[i];
    __half2 h = __floats2half2_rn((float)(x & 255) / 16.0f, (float)((x >> 8) & 255) / 16.0f);
    __half2 t = __float2half2_rn(6.0f);
    int r;
    if (__hbgt2(h, t)) {
        h = __hmul2(h, h);
        r = (int)__low2float(h) + (int)__high2float(h);
    } else if (__hbgt2(t, h)) {
        r = -(int)__low2float(__hadd2(h, t));
    } else {
        r = 7;
    }
    out[i] = r;
}

// Threads past the end leave before a block barrier that the rest still take.
extern "C" __global__ void early_return_bar(const int *in, int *out, int n)
{
    __shared__ int part[128];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    part[threadIdx.x] = in[i] & 1023;
    __syncthreads();
    int s = 0;
    int live = n - blockIdx.x * blockDim.x;
    if (live > (int)blockDim.x) live = blockDim.x;
    for (int k = threadIdx.x; k < live; k += 32) s += part[k];
    out[i] = s;
}

// A warp-aggregated counter inside a branch that only some lanes take: the coalesced
// group's leader adds for all of them.
extern "C" __global__ void agg_divergent(const int *in, int *count, int *slots, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = in[i];
    if (x % 3 == 0) {
        cg::coalesced_group g = cg::coalesced_threads();
        int base = 0;
        if (g.thread_rank() == 0) base = atomicAdd(count, (int)g.size());
        base = g.shfl(base, 0);
        slots[i] = base >= 0 ? 1 : 0;
    } else {
        slots[i] = 0;
    }
}
