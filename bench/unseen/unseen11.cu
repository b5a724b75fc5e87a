// unseen11.cu — an eleventh set of kernels written as a new user would, after the simulator
// learned to run CTAs that take work from a global counter resident together
// (bench/unseen/unseen10's persistent kernel): other ways CTAs share work and results through
// global counters. bench/unseen/unseen11.spec launches them; docs/results/unseen-kernels-h200.txt
// has what an H200 and the model gave. Every checked output is independent of the order the
// atomics land in.

__device__ __forceinline__ unsigned work(unsigned v, int rounds)
{
    for (int r = 0; r < rounds; r++)
        v = v * 1664525u + 1013904223u ^ (v >> 13);
    return v;
}

// Persistent warps: each warp's lane 0 takes 32 items from one global queue, the warp works
// on them, until the queue is empty. An item's cost is skewed: one in 64 costs 40 times more.
extern "C" __global__ void warp_queue(const int *in, unsigned *out, int *queue, int n)
{
    int lane = threadIdx.x & 31;
    for (;;) {
        int base = 0;
        if (lane == 0)
            base = atomicAdd(queue, 32);
        base = __shfl_sync(0xffffffffu, base, 0);
        if (base >= n)
            break;
        int i = base + lane;
        if (i < n) {
            int v = in[i];
            out[i] = work((unsigned)v, (v & 63) == 0 ? 400 : 10);
        }
    }
}

// Stream compaction with one atomic per warp: the warp's leader reserves room for the
// warp's selected items and each selected lane writes its item there. The selected items'
// count and a per-item flag are the checked outputs (where each lands depends on the order).
extern "C" __global__ void compact_warp(const int *in, int *out, int *count, int *flags, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    bool keep = i < n && (in[i] % 3) == 0;
    unsigned mask = __ballot_sync(0xffffffffu, keep);
    int base = 0;
    if (lane == 0 && mask)
        base = atomicAdd(count, __popc(mask));
    base = __shfl_sync(0xffffffffu, base, 0);
    if (keep) {
        out[base + __popc(mask & ((1u << lane) - 1))] = in[i];
        flags[i] = 1;
    }
}

// CTAs take chunk numbers from a ticket counter (atomicInc that wraps at the chunk count)
// and sum their chunk; chunk k costs k % 8 + 1 passes, so chunks differ eightfold.
extern "C" __global__ void ticket_chunks(const int *in, unsigned *sums, unsigned *ticket,
                                         int chunks, int chunk)
{
    __shared__ unsigned t;
    __shared__ unsigned part[32];
    if (threadIdx.x == 0)
        t = atomicInc(ticket, (unsigned)chunks - 1);
    __syncthreads();
    unsigned k = t, acc = 0;
    int passes = (int)(k % 8) + 1;
    for (int p = 0; p < passes; p++)
        for (int j = threadIdx.x; j < chunk; j += blockDim.x)
            acc += work((unsigned)in[k * chunk + j], 4) >> p;
    for (int d = 16; d > 0; d >>= 1)
        acc += __shfl_down_sync(0xffffffffu, acc, d);
    if ((threadIdx.x & 31) == 0)
        part[threadIdx.x >> 5] = acc;
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned s = 0;
        for (int w = 0; w < (int)(blockDim.x >> 5); w++)
            s += part[w];
        sums[k] = s;
    }
}

// A running maximum with atomicMax whose result is used: a thread whose value raised the
// maximum counts itself (how many do depends on the order; only the maximum is checked).
extern "C" __global__ void max_improve(const int *in, int *best, int *raised, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = (int)(work((unsigned)in[i], 6) >> 1);
    int old = atomicMax(best, v);
    if (old < v)
        atomicAdd(raised, 1);
}

// One level of a breadth-first search: threads of the frontier claim unvisited neighbours
// with atomicExch and append them to the next frontier with atomicAdd. The checked outputs
// are the visited flags and the next frontier's size.
extern "C" __global__ void bfs_level(const int *edges, const int *frontier, int nfront,
                                     int *visited, int *next, int *nnext, int degree)
{
    int f = blockIdx.x * blockDim.x + threadIdx.x;
    if (f >= nfront)
        return;
    int u = frontier[f];
    for (int e = 0; e < degree; e++) {
        int v = edges[u * degree + e];
        if (visited[v] == 0 && atomicExch(&visited[v], 1) == 0)
            next[atomicAdd(nnext, 1)] = v;
    }
}

// A persistent kernel whose CTAs take a variable amount of work at a time: the CTA asks for
// more the earlier it is in the queue (guided self-scheduling: a share of what is left).
extern "C" __global__ void guided_queue(const int *in, unsigned *out, int *queue, int n)
{
    __shared__ int base, take;
    for (;;) {
        if (threadIdx.x == 0) {
            int left = n - *(volatile int *)queue;
            int want = left / (4 * (int)gridDim.x);
            want = want < (int)blockDim.x ? (int)blockDim.x : want;
            base = atomicAdd(queue, want);
            take = want;
        }
        __syncthreads();
        int b = base, t = take;
        __syncthreads();
        if (b >= n)
            break;
        for (int j = threadIdx.x; j < t && b + j < n; j += blockDim.x)
            out[b + j] = work((unsigned)in[b + j], 12);
    }
}
