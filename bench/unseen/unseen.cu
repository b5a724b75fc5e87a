// unseen.cu — kernels written as a new user would, to check the models against the GPU on
// code they were not tuned to (bench/unseen/unseen.spec, docs/results/unseen-kernels-h200.txt).
// Two are racy as written, and their outputs differ from the GPU's: warp_lock guards plain
// loads and stores with a lock (the GPU may serve them from a stale L1 line), and compact's
// output slots follow the order in which its warps' atomics land.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__device__ int op_add(int a, int b) { return a + b; }
__device__ int op_mul(int a, int b) { return a * b; }
__device__ int op_xor(int a, int b) { return a ^ b; }
__device__ int op_max(int a, int b) { return a > b ? a : b; }

typedef int (*binop)(int, int);
__device__ binop table_ops[4] = { op_add, op_mul, op_xor, op_max };

extern "C" __global__ void dispatch_switch(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = in[i], y = 0;
    switch (x & 7) {
    case 0: y = x * 3; break;
    case 1: y = x - 11; for (int k = 0; k < (x & 15); k++) y += k; break;
    case 2: y = x ^ 0x5555; break;
    case 3: y = (x << 2) | 1; break;
    case 4: y = x / 7; break;
    case 5: y = x % 13; break;
    case 6: y = ~x; break;
    default: y = x * x; break;
    }
    out[i] = y;
}

extern "C" __global__ void dispatch_fnptr(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = in[i];
    binop f = table_ops[x & 3];
    int acc = x;
    for (int k = 0; k < (x & 7); k++)
        acc = f(acc, k + 1);
    out[i] = acc;
}

__device__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

extern "C" __global__ void recurse(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = fib(in[i] & 15);
}

extern "C" __global__ void early_exit_search(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int key = in[i] & 255;
    for (int j = 0; j < n; j++) {
        if ((in[j] & 255) == key && j != i) { out[i] = j; return; }
        if (j > 4 * (key + 1)) break;
    }
    out[i] = -1;
}

extern "C" __global__ void sync_count(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    int rounds = 0;
    while (__syncthreads_or(v > 1)) {
        v = (v & 1) ? 3 * v + 1 : v / 2;
        if (v > 100000) v = 1;
        rounds++;
        if (rounds > 200) break;
    }
    int c = __syncthreads_count(v == 1);
    if (i < n) out[i] = rounds * 1000 + c;
}

extern "C" __global__ void atomics64(const int *in, double *dsum, unsigned long long *umax,
                                     unsigned *ctr, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = in[i];
    if (x & 1) atomicAdd(dsum + (x & 3), (double)(x & 1023) * 0.5);
    atomicMax(umax + (x & 1), (unsigned long long)x * 2654435761ull);
    atomicInc(ctr + (x & 7), 100u);
}

extern "C" __global__ void labeled(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = in[i];
    cg::coalesced_group g = cg::coalesced_threads();
    cg::coalesced_group part = cg::labeled_partition(g, x & 3);
    int s = cg::reduce(part, x & 255, cg::plus<int>());
    out[i] = s * 100 + (int)part.size();
}

extern "C" __global__ void warp_lock(const int *in, int *counter, int *lock, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = in[i] & 3;
    bool done = false;
    while (!done) {
        if (atomicCAS(lock + x, 0, 1) == 0) {
            counter[x] += 1;
            __threadfence();
            atomicExch(lock + x, 0);
            done = true;
        }
    }
}

extern "C" __global__ void bsearch_k(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int key = in[i] % 4096;
    int lo = 0, hi = (in[i] & 1023) + 1;
    while (lo < hi) {
        int mid = (lo + hi) >> 1;
        if (mid * 4 < key) lo = mid + 1; else hi = mid;
    }
    out[i] = lo;
}

extern "C" __global__ void compact(const int *in, int *out, int *count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int keep = i < n && (in[i] % 3) == 0;
    unsigned b = __ballot_sync(0xffffffffu, keep);
    int lane = threadIdx.x & 31;
    int base = 0;
    if (lane == 0 && b) base = atomicAdd(count, __popc(b));
    base = __shfl_sync(0xffffffffu, base, 0);
    if (keep) out[base + __popc(b & ((1u << lane) - 1))] = in[i];
}

extern "C" __global__ void stencil2d(const int *in, int *out, int w, int h)
{
    int x = blockIdx.x * 16 + (threadIdx.x & 15), y = blockIdx.y * 8 + (threadIdx.x >> 4);
    if (x >= w || y >= h) return;
    int c = in[y * w + x], s = 4 * c;
    if (x > 0) s -= in[y * w + x - 1]; else s -= c;
    if (x < w - 1) s -= in[y * w + x + 1]; else s -= c;
    if (y > 0) s -= in[(y - 1) * w + x]; else { s -= c; s ^= 7; }
    if (y < h - 1) s -= in[(y + 1) * w + x]; else { s -= c; s += 3; }
    out[y * w + x] = s;
}

extern "C" __global__ void local_sort(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int a[12];
    int m = 4 + (in[i] & 7);
    for (int k = 0; k < m; k++) a[k] = in[(i * 7 + k * 13) % n] & 0xffff;
    for (int k = 1; k < m; k++) {
        int v = a[k], j = k - 1;
        while (j >= 0 && a[j] > v) { a[j + 1] = a[j]; j--; }
        a[j + 1] = v;
    }
    int s = 0;
    for (int k = 0; k < m; k++) s = s * 31 + a[k];
    out[i] = s;
}

extern "C" __global__ void nested_continue(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = in[i], acc = 0;
    for (int a = 0; a < (x & 7) + 2; a++) {
        if ((x >> a) & 1) continue;
        for (int b = 0; b < ((x >> 3) & 7); b++) {
            if (((a + b) & 3) == 0) continue;
            acc += a * b + (x >> (b & 15));
            if (acc > 5000) break;
        }
    }
    out[i] = acc;
}

extern "C" __global__ void partial_shfl(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = in[i];
    int lane = threadIdx.x & 31;
    if (lane < 16) {
        int v = x & 255;
        for (int o = 8; o > 0; o >>= 1) v += __shfl_down_sync(0x0000ffffu, v, o, 16);
        out[i] = v;
    } else {
        unsigned m = __match_any_sync(0xffff0000u, x & 3);
        out[i] = __popc(m) + __reduce_max_sync(0xffff0000u, (unsigned)(x & 4095));
    }
}
