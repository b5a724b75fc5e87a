// unseen18.cu — an eighteenth set of kernels written as a new user would, before its first
// GPU run, with the library code real kernels lean on: CUB's block radix sort and its
// logical-warp reduction, cooperative groups' tile scans, binary and labeled partitions and
// asynchronous copies to shared memory, a template kernel, and bfloat16 pairs.
// bench/unseen/unseen18.spec launches them; docs/results/unseen-kernels-h200.txt has what an
// H200 and the model gave. Every checked output is deterministic.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cub/block/block_radix_sort.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cuda_bf16.h>

namespace cg = cooperative_groups;

// Each CTA sorts its 512 keys (4 a thread) with CUB's block radix sort, in a blocked
// arrangement, and writes them back sorted.
extern "C" __global__ void cub_radix_sort(const unsigned *in, unsigned *out)
{
    typedef cub::BlockRadixSort<unsigned, 128, 4> Sort;
    __shared__ typename Sort::TempStorage temp;
    unsigned keys[4];
    size_t base = (size_t)blockIdx.x * 512 + threadIdx.x * 4;
    for (int k = 0; k < 4; k++)
        keys[k] = in[base + k];
    Sort(temp).Sort(keys);
    for (int k = 0; k < 4; k++)
        out[base + k] = keys[k];
}

// CUB's warp reduction over logical warps of 16 lanes: each half-warp's sum and largest
// value, over a number of valid lanes that differs from half-warp to half-warp.
extern "C" __global__ void cub_warp16(const int *in, int *out, int n)
{
    typedef cub::WarpReduce<int, 16> Reduce;
    __shared__ typename Reduce::TempStorage temp[8];
    int t = blockIdx.x * blockDim.x + threadIdx.x, h = threadIdx.x / 16;
    int v = t < n ? in[t] : 0;
    int valid = 4 + (blockIdx.x * 8 + h) % 13;
    int sum = Reduce(temp[h]).Sum(v, valid);
    __syncwarp();
    int mx = Reduce(temp[h]).Reduce(v, [](int a, int b) { return a > b ? a : b; });
    if (threadIdx.x % 16 == 0 && t < n) {
        out[2 * (t / 16)] = sum;
        out[2 * (t / 16) + 1] = mx;
    }
}

// Inclusive and exclusive scans in 16-lane tiles of cooperative groups, and a scan of the
// odd values only within each tile's coalesced odd lanes.
extern "C" __global__ void cg_scan16(const int *in, int *out, int n)
{
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int v = t < n ? in[t] : 0;
    int inc = cg::inclusive_scan(tile, v);
    int exc = cg::exclusive_scan(tile, v, cg::bit_xor<int>());
    int odd = -1;
    if (v & 1) {
        cg::coalesced_group g = cg::coalesced_threads();
        odd = cg::inclusive_scan(g, v);
    }
    if (t < n) {
        out[3 * (size_t)t] = inc;
        out[3 * (size_t)t + 1] = exc;
        out[3 * (size_t)t + 2] = odd;
    }
}

// A warp splits in two by a predicate (binary_partition) and into groups by a label
// (labeled_partition); each part reduces its values and ranks its lanes.
extern "C" __global__ void cg_partition(const int *in, int *out, int n)
{
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int v = t < n ? in[t] : 0;
    cg::coalesced_group half = cg::binary_partition(warp, v > 500);
    int hs = cg::reduce(half, v, cg::plus<int>());
    cg::coalesced_group lab = cg::labeled_partition(warp, v % 5);
    int lm = cg::reduce(lab, v, cg::greater<int>());
    if (t < n) {
        out[4 * (size_t)t] = hs;
        out[4 * (size_t)t + 1] = (int)half.thread_rank() * 100 + (int)half.size();
        out[4 * (size_t)t + 2] = lm;
        out[4 * (size_t)t + 3] = (int)lab.thread_rank() * 100 + (int)lab.size();
    }
}

// Each CTA copies its 256 inputs and a halo of 2 on each side to shared memory with
// cg::memcpy_async, waits, and writes a 5-point weighted sum.
extern "C" __global__ void async_stencil(const float *in, float *out, int n)
{
    __shared__ float s[260];
    cg::thread_block block = cg::this_thread_block();
    int base = blockIdx.x * 256;
    int lo = base - 2 < 0 ? 0 : base - 2, hi = base + 258 > n ? n : base + 258;
    cg::memcpy_async(block, s + (lo - (base - 2)), in + lo, sizeof(float) * (hi - lo));
    cg::wait(block);
    for (int i = threadIdx.x; i < 256; i += blockDim.x) {
        int g = base + i;
        if (g >= n)
            break;
        float c = s[i + 2], l1 = g >= 1 ? s[i + 1] : 0.0f, l2 = g >= 2 ? s[i] : 0.0f;
        float r1 = g + 1 < n ? s[i + 3] : 0.0f, r2 = g + 2 < n ? s[i + 4] : 0.0f;
        out[g] = 0.4f * c + 0.2f * (l1 + r1) + 0.1f * (l2 + r2);
    }
}

// A kernel template (one instance, so the spec names it plainly): each thread raises its
// value to the K-th power modulo a prime by repeated multiplication in a loop of K trips.
template <int K> __global__ void tpow(const unsigned *in, unsigned *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    unsigned long long x = in[t] % 1000003u, r = 1;
#pragma unroll 1
    for (int k = 0; k < K + (int)(in[t] & 7); k++)
        r = r * x % 1000003u;
    out[t] = (unsigned)r;
}
template __global__ void tpow<11>(const unsigned *, unsigned *, int);

// Pairs of bfloat16: a fused multiply-add, a ReLU by max with zero, a clamp, and the pair's
// product, written as bfloat16 pairs and as floats.
extern "C" __global__ void bf16_relu(const __nv_bfloat162 *a, const __nv_bfloat162 *b,
                                     __nv_bfloat162 *o, float2 *f, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    __nv_bfloat162 x = a[t], y = b[t];
    __nv_bfloat162 z = __hfma2(x, y, __float2bfloat162_rn(0.5f));
    z = __hmax2(z, __float2bfloat162_rn(0.0f));
    z = __hmin2(z, __float2bfloat162_rn(6.0f));
    o[t] = z;
    float2 p = __bfloat1622float2(__hmul2(x, z));
    f[t] = make_float2(p.x + p.y, p.x - p.y);
}
