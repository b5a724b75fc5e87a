// unseen5.cu — a fifth set of kernels written as a new user would, after the timing model
// began to issue SASS by ptxas's stall counts (so none of them shaped that change): sparse
// matrix-vector products with a thread and with a warp a row, a warp-shuffle scan, a
// shared-memory transpose of a ragged matrix, digit counts by ballot, k-means assignment,
// searches of an implicit binary tree, word counts over bytes, a Julia set, ELU on both
// signs, __reduce_add_sync, 16-lane tile reductions, a 1-D stencil with halo loads, ballot
// compaction, double dot products and bisection to a tolerance.
// bench/unseen/unseen5.spec launches them; docs/results/unseen-kernels-h200.txt has the
// GPU's counts beside both models'.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// y[r] = sum of row r's entries; row r holds len[r] entries from r * cap on.
extern "C" __global__ void spmv_thread(const int *len, const int *col, const float *val,
                                       const float *x, float *y, int rows, int cap)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    float s = 0.f;
    for (int k = r * cap; k < r * cap + len[r]; k++)
        s += val[k] * x[col[k]];
    y[r] = s;
}

// The same product with a warp a row: lanes stride the row, a shuffle tree sums.
extern "C" __global__ void spmv_warp(const int *len, const int *col, const float *val,
                                     const float *x, float *y, int rows, int cap)
{
    int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x & 31;
    if (r >= rows)
        return;
    float s = 0.f;
    for (int k = lane; k < len[r]; k += 32)
        s += val[r * cap + k] * x[col[r * cap + k]];
    for (int o = 16; o > 0; o >>= 1)
        s += __shfl_down_sync(0xffffffffu, s, o);
    if (lane == 0)
        y[r] = s;
}

// Inclusive scan of each CTA's slice: shuffles within warps, warp sums through shared memory.
extern "C" __global__ void scan_shfl(const int *in, int *out, int n)
{
    __shared__ int warp_sum[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31, w = threadIdx.x / 32;
    int v = i < n ? in[i] : 0;
    for (int o = 1; o < 32; o <<= 1) {
        int u = __shfl_up_sync(0xffffffffu, v, o);
        if (lane >= o)
            v += u;
    }
    if (lane == 31)
        warp_sum[w] = v;
    __syncthreads();
    if (w == 0) {
        int s = lane < blockDim.x / 32 ? warp_sum[lane] : 0;
        for (int o = 1; o < 32; o <<= 1) {
            int u = __shfl_up_sync(0xffffffffu, s, o);
            if (lane >= o)
                s += u;
        }
        warp_sum[lane] = s;
    }
    __syncthreads();
    if (w > 0)
        v += warp_sum[w - 1];
    if (i < n)
        out[i] = v;
}

// out = in transposed, in is h x w; 32x32 tiles through shared memory padded against bank
// conflicts; 32x8 threads a tile.
extern "C" __global__ void transpose_tile(const float *in, float *out, int w, int h)
{
    __shared__ float t[32][33];
    int tiles_x = (w + 31) / 32;
    int bx = blockIdx.x % tiles_x, by = blockIdx.x / tiles_x;
    int x = bx * 32 + threadIdx.x % 32, ty = threadIdx.x / 32;
    for (int j = ty; j < 32; j += 8) {
        int y = by * 32 + j;
        if (x < w && y < h)
            t[j][threadIdx.x % 32] = in[y * w + x];
    }
    __syncthreads();
    x = by * 32 + threadIdx.x % 32;
    for (int j = ty; j < 32; j += 8) {
        int y = bx * 32 + j;
        if (x < h && y < w)
            out[y * h + x] = t[threadIdx.x % 32][j];
    }
}

// Counts of each 4-bit digit (bits 4..7) per CTA: a ballot per digit, lane 0 adds its popc.
extern "C" __global__ void digit_count(const unsigned *keys, int *counts, int n)
{
    __shared__ int c[16];
    if (threadIdx.x < 16)
        c[threadIdx.x] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int d = i < n ? (keys[i] >> 4) & 15 : -1;
    for (int k = 0; k < 16; k++) {
        unsigned b = __ballot_sync(0xffffffffu, d == k);
        if ((threadIdx.x & 31) == 0 && b)
            atomicAdd(&c[k], __popc(b));
    }
    __syncthreads();
    if (threadIdx.x < 16)
        counts[blockIdx.x * 16 + threadIdx.x] = c[threadIdx.x];
}

// The nearest of k centroids for each 2-D point (ties to the lower index).
extern "C" __global__ void kmeans_assign(const float *px, const float *py, const float *cx,
                                         const float *cy, int *label, int n, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = px[i], y = py[i], best = 3.4e38f;
    int arg = 0;
    for (int c = 0; c < k; c++) {
        float dx = x - cx[c], dy = y - cy[c], d = dx * dx + dy * dy;
        if (d < best) {
            best = d;
            arg = c;
        }
    }
    label[i] = arg;
}

// Descends an implicit binary tree of keys (node i's children 2i+1, 2i+2; smaller keys to
// the left) for each query; writes the depth where it met the key, or -depth if it fell out.
extern "C" __global__ void tree_search(const int *tree, int nodes, const int *q, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int key = q[i], node = 0, depth = 0;
    while (node < nodes) {
        int v = tree[node];
        depth++;
        if (v == key) {
            out[i] = depth;
            return;
        }
        node = 2 * node + (key < v ? 1 : 2);
    }
    out[i] = -depth;
}

// Words (runs of bytes that are not spaces) starting in each thread's 32 bytes.
extern "C" __global__ void word_count(const unsigned char *text, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i * 32 >= n)
        return;
    int words = 0;
    int prev_space = i == 0 || text[i * 32 - 1] == ' ';
    for (int k = i * 32; k < i * 32 + 32 && k < n; k++) {
        int space = text[k] == ' ';
        if (!space && prev_space)
            words++;
        prev_space = space;
    }
    out[i] = words;
}

// Escape iterations of z -> z^2 + c over a grid, c = -0.8 + 0.156i, at most 200.
extern "C" __global__ void julia(int *out, int w, int h)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= w * h)
        return;
    float x = -1.6f + 3.2f * (i % w) / w, y = -1.0f + 2.0f * (i / w) / h;
    int it = 0;
    while (it < 200 && x * x + y * y < 4.f) {
        float t = x * x - y * y - 0.8f;
        y = 2.f * x * y + 0.156f;
        x = t;
        it++;
    }
    out[i] = it;
}

// ELU: x for x > 0, alpha (e^x - 1) otherwise.
extern "C" __global__ void elu(const float *in, float *out, int n, float alpha)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = in[i];
        out[i] = x > 0.f ? x : alpha * (__expf(x) - 1.f);
    }
}

// Sum of all keys modulo 2^32: __reduce_add_sync a warp, one atomicAdd a warp.
extern "C" __global__ void redux_sum(const unsigned *keys, unsigned *sum, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = i < n ? keys[i] & 0xffff : 0;
    unsigned s = __reduce_add_sync(0xffffffffu, v);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(sum, s);
}

// Maximum of each 16-thread tile (cooperative groups), written by the tile's first thread.
extern "C" __global__ void tile16_max(const int *in, int *out, int n)
{
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : -2147483647;
    for (int o = 8; o > 0; o >>= 1)
        v = max(v, tile.shfl_down(v, o));
    if (tile.thread_rank() == 0)
        out[i / 16] = v;
}

// 1-D stencil of radius 3 through shared memory; the first and last three threads load the
// halo; outside the array counts as 0.
extern "C" __global__ void stencil_halo(const float *in, float *out, int n)
{
    extern __shared__ float s[];
    int i = blockIdx.x * blockDim.x + threadIdx.x, t = threadIdx.x + 3;
    s[t] = i < n ? in[i] : 0.f;
    if (threadIdx.x < 3) {
        int l = i - 3;
        s[threadIdx.x] = l >= 0 && l < n ? in[l] : 0.f;
    }
    if (threadIdx.x >= blockDim.x - 3) {
        int r = i + 3;
        s[t + 3] = r < n ? in[r] : 0.f;
    }
    __syncthreads();
    if (i < n)
        out[i] = 0.1f * s[t - 3] + 0.15f * s[t - 2] + 0.2f * s[t - 1] + 0.1f * s[t] +
                 0.2f * s[t + 1] + 0.15f * s[t + 2] + 0.1f * s[t + 3];
}

// Keeps the values above a threshold, packed at the front of each warp's 32 slots (the rest
// -1): a ballot, and each kept lane's rank among the kept lanes below it.
extern "C" __global__ void compact_ballot(const int *in, int *out, int n, int threshold)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
    int v = i < n ? in[i] : 0;
    bool keep = i < n && v > threshold;
    unsigned b = __ballot_sync(0xffffffffu, keep);
    int base = i - lane;
    if (keep)
        out[base + __popc(b & ((1u << lane) - 1))] = v;
    if (lane >= __popc(b))
        out[base + lane] = -1;
}

// Dot product of each thread's row of 64 doubles with a shared vector.
extern "C" __global__ void dot_double(const double *a, const double *x, double *y, int rows)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    double s = 0.0;
    for (int k = 0; k < 64; k++)
        s = fma(a[r * 64 + k], x[k], s);
    y[r] = s;
}

// The cube root of c in [0, 1000] by bisection until the bracket is below tol (c's own
// tolerance: more steps for some threads), with the step count.
extern "C" __global__ void bisect_cbrt(const float *c, const float *tol, float *root, int *steps,
                                       int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float lo = 0.f, hi = 10.f, v = c[i];
    int k = 0;
    while (hi - lo > tol[i] && k < 64) {
        float mid = 0.5f * (lo + hi);
        if (mid * mid * mid < v)
            lo = mid;
        else
            hi = mid;
        k++;
    }
    root[i] = 0.5f * (lo + hi);
    steps[i] = k;
}
