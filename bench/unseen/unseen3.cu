// unseen3.cu — a third set of kernels written as a new user would, after the second set
// (unseen2.cu) had been measured and its rules fitted on separate probes. Textbook shapes
// this time: the Mandelbrot set, sparse matrix-vector products (a thread per row and a warp
// per row), a loop over set bits, a warp scan with shuffles, the last-block reduction of the
// CUDA samples, CUB's block reduce and scan, Monte Carlo with cuRAND, a device assert, a
// ray-sphere test with early outs, a sorting network in registers, 32-bit division by a
// runtime divisor, a 2-D grid with borders, dynamic shared memory, and a naive string search.
// bench/unseen/unseen3.spec launches them; docs/results/unseen-kernels-h200.txt has the GPU's
// counts beside both models'.
#include <cassert>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <curand_kernel.h>

// Escape time of the Mandelbrot iteration over a W x H window, at most ITER steps.
extern "C" __global__ void mandelbrot(int *out, int w, int h, int iter)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= w || y >= h)
        return;
    float cr = -2.0f + 2.6f * x / w, ci = -1.2f + 2.4f * y / h;
    float zr = 0.0f, zi = 0.0f;
    int k = 0;
    while (k < iter && zr * zr + zi * zi < 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        k++;
    }
    out[y * w + x] = k;
}

// y = A x with A in rows of their own length (a padded CSR: row r starts at rowptr[r] and
// holds len[r] entries): one thread a row.
extern "C" __global__ void spmv_scalar(const int *rowptr, const int *len, const int *col,
                                       const float *val, const float *x, float *y, int rows)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    float s = 0.0f;
    for (int j = rowptr[r]; j < rowptr[r] + (len[r] & 63); j++)
        s += val[j] * x[col[j]];
    y[r] = s;
}

// The same with a warp a row: strided partial sums, then a shuffle reduction.
extern "C" __global__ void spmv_vector(const int *rowptr, const int *len, const int *col,
                                       const float *val, const float *x, float *y, int rows)
{
    int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x & 31;
    if (r >= rows)
        return;
    float s = 0.0f;
    for (int j = rowptr[r] + lane; j < rowptr[r] + (len[r] & 63); j += 32)
        s += val[j] * x[col[j]];
    for (int o = 16; o > 0; o /= 2)
        s += __shfl_down_sync(0xffffffffu, s, o);
    if (lane == 0)
        y[r] = s;
}

// Visits the set bits of a word, lowest first.
extern "C" __global__ void bit_serial(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned m = (unsigned)in[i] * 2654435761u & 0x0f0f0f0fu;
    int acc = 0;
    while (m) {
        int b = __ffs(m) - 1;
        acc += b * b;
        m &= m - 1;
    }
    out[i] = acc;
}

// Inclusive scan of each warp's values with __shfl_up_sync, then a block scan of the warp
// totals by the first warp.
extern "C" __global__ void warp_scan(const int *in, int *out, int n)
{
    __shared__ int tot[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31, wid = threadIdx.x / 32;
    int v = i < n ? in[i] & 255 : 0;
    for (int o = 1; o < 32; o *= 2) {
        int t = __shfl_up_sync(0xffffffffu, v, o);
        if (lane >= o)
            v += t;
    }
    if (lane == 31)
        tot[wid] = v;
    __syncthreads();
    if (wid == 0) {
        int t = lane < blockDim.x / 32 ? tot[lane] : 0;
        for (int o = 1; o < 32; o *= 2) {
            int u = __shfl_up_sync(0xffffffffu, t, o);
            if (lane >= o)
                t += u;
        }
        tot[lane] = t;
    }
    __syncthreads();
    if (i < n)
        out[i] = v + (wid > 0 ? tot[wid - 1] : 0);
}

// The CUDA samples' threadFenceReduction: each block sums its part; the last block to
// finish (a global ticket) sums the partial sums.
__device__ unsigned int blocks_done = 0;

extern "C" __global__ void last_block(const int *in, int *partial, int *total, int n)
{
    __shared__ int s[128];
    __shared__ bool last;
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] & 1023 : 0;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k /= 2) {
        if (t < k)
            s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) {
        partial[blockIdx.x] = s[0];
        __threadfence();
        unsigned ticket = atomicInc(&blocks_done, gridDim.x);
        last = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (last) {
        int v = 0;
        for (int k = t; k < (int)gridDim.x; k += blockDim.x)
            v += ((volatile int *)partial)[k];
        s[t] = v;
        __syncthreads();
        for (int k = blockDim.x / 2; k > 0; k /= 2) {
            if (t < k)
                s[t] += s[t + k];
            __syncthreads();
        }
        if (t == 0) {
            *total = s[0];
            blocks_done = 0; /* for the next launch */
        }
    }
}

// CUB's block-wide reduction and exclusive scan.
extern "C" __global__ void cub_reduce_scan(const int *in, int *out, int *sums, int n)
{
    typedef cub::BlockReduce<int, 128> Reduce;
    typedef cub::BlockScan<int, 128> Scan;
    __shared__ typename Reduce::TempStorage rt;
    __shared__ typename Scan::TempStorage st;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] % 97 : 0;
    int s = Reduce(rt).Sum(v, (int)(n - blockIdx.x * blockDim.x));
    int x;
    Scan(st).ExclusiveSum(v & 7 ? v : 0, x);
    if (i < n)
        out[i] = x;
    if (threadIdx.x == 0)
        sums[blockIdx.x] = s;
}

// Monte Carlo estimate of pi: cuRAND's XORWOW state per thread (subsequence i), a number of
// samples that depends on the thread.
extern "C" __global__ void curand_pi(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    curandState st;
    curand_init(1234, i, 0, &st);
    int hits = 0, m = 8 + (in[i] & 15);
    for (int k = 0; k < m; k++) {
        float x = curand_uniform(&st), y = curand_uniform(&st);
        hits += x * x + y * y <= 1.0f;
    }
    out[i] = hits * 100 + m;
}

// An assert that holds: its failure path is never taken.
extern "C" __global__ void assert_guard(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = in[i];
    assert(v >= 0);
    out[i] = v % 11 == 0 ? v / 11 : v;
}

// Rays from a grid against four spheres: early outs for a miss, the nearest hit kept.
extern "C" __global__ void ray_spheres(const float *sph, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float dx = (i % 32) / 16.0f - 1.0f, dy = (i / 32 % 32) / 16.0f - 1.0f, dz = 1.0f;
    float inv = rsqrtf(dx * dx + dy * dy + dz * dz);
    dx *= inv; dy *= inv; dz *= inv;
    float best = 1e30f;
    int hit = -1;
    for (int s = 0; s < 4; s++) {
        float cx = sph[4 * s], cy = sph[4 * s + 1], cz = sph[4 * s + 2], r = sph[4 * s + 3];
        float b = dx * cx + dy * cy + dz * cz;
        if (b <= 0.0f)
            continue;
        float c = cx * cx + cy * cy + cz * cz - r * r, disc = b * b - c;
        if (disc < 0.0f)
            continue;
        float t = b - sqrtf(disc);
        if (t > 0.0f && t < best) {
            best = t;
            hit = s;
        }
    }
    out[i] = hit < 0 ? -1 : hit * 1000 + (int)(best * 10.0f);
}

// Sorts eight values in registers with a sorting network (no branches once unrolled).
extern "C" __global__ void sort8_regs(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (8 * i + 7 >= n)
        return;
    int v[8];
#pragma unroll
    for (int k = 0; k < 8; k++)
        v[k] = in[8 * i + k];
#pragma unroll
    for (int size = 2; size <= 8; size *= 2)
#pragma unroll
        for (int stride = size / 2; stride > 0; stride /= 2)
#pragma unroll
            for (int k = 0; k < 8; k++) {
                int j = k ^ stride;
                if (j > k) {
                    bool up = (k & size) == 0;
                    int a = v[k], b = v[j];
                    if ((a > b) == up) { v[k] = b; v[j] = a; }
                }
            }
#pragma unroll
    for (int k = 0; k < 8; k++)
        out[8 * i + k] = v[k];
}

// 32-bit division and remainder by a divisor read at run time.
extern "C" __global__ void div32(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int d = (in[(i * 7) % n] & 63) - 31;
    if (d == 0)
        d = 1;
    unsigned u = (unsigned)in[i] * 2654435761u;
    out[i] = in[i] / d + (int)(u % (unsigned)(d + 40));
}

// A 3 x 3 box filter on a W x H image over a 2-D grid: border pixels copy the input.
extern "C" __global__ void box2d(const int *img, int *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {
        out[y * w + x] = img[y * w + x];
        return;
    }
    int s = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            s += img[(y + dy) * w + x + dx] & 255;
    out[y * w + x] = s / 9;
}

// Dynamic shared memory: a block-wide max of a window, sized at launch.
extern "C" __global__ void dyn_smem(const int *in, int *out, int n)
{
    extern __shared__ int buf[];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    buf[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k && buf[t + k] > buf[t])
            buf[t] = buf[t + k];
        __syncthreads();
    }
    if (i < n)
        out[i] = buf[0] - (i < n ? in[i] : 0);
}

// Naive search of a short pattern in a text: each thread tests one position and stops at
// the first mismatch.
extern "C" __global__ void find_pattern(const int *text, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const int pat[6] = {1, 2, 1, 3, 1, 2};
    int k = 0;
    while (k < 6 && i + k < n && (text[i + k] & 3) == pat[k] % 4)
        k++;
    out[i] = k;
}
