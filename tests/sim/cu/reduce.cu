// reduce.cu — seed 002 reductions: the naive racy `g_o[0] += g_x[i]`, a shared-memory
// tree reduction with barriers, plus error cases (out-of-bounds store, barrier deadlock).
extern "C" __global__ void naive_sum(const int *g_x, int *g_o)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    g_o[0] += g_x[i];
}

extern "C" __global__ void tree_sum(const int *g_x, int *g_o)
{
    __shared__ int s[256];
    unsigned tid = threadIdx.x;
    s[tid] = g_x[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned k = 1; k < blockDim.x; k *= 2) {
        if (tid % (2 * k) == 0)
            s[tid] += s[tid + k];
        __syncthreads();
    }
    if (tid == 0)
        g_o[blockIdx.x] = s[0];
}

extern "C" __global__ void oob_store(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i + n] = i;
}

// Warps 2 and 3 exit; warps 0 and 1 wait at barrier 1 for 128 threads that never come.
extern "C" __global__ void deadlock(int *out)
{
    if (threadIdx.x >= 64)
        return;
    asm volatile("bar.sync 1, 128;");
    out[threadIdx.x] = 1;
}

// Warps 2 and 3 exit before the barrier that warps 0 and 1 wait at: it completes (exited
// warps no longer count) and the simulator warns about the skipped barrier.
extern "C" __global__ void early_exit(int *out)
{
    if (threadIdx.x >= 64)
        return;
    __syncthreads();
    out[threadIdx.x] = 1;
}

// Lanes exchange values through shared memory inside one warp: ordered by __syncwarp when
// `sync` is set, a race without it.
extern "C" __global__ void warp_exchange(int *out, int sync)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t * 3;
    if (sync)
        __syncwarp();
    out[t] = s[t ^ 1];
}

// Warp specialisation through named barriers: warps 0-1 fill a buffer and `bar.arrive` at
// barrier 1, warps 2-3 `bar.sync` there and read it, then the roles swap over barrier 2.
// The arrivals count towards the barrier without waiting, so every round completes.
extern "C" __global__ void handoff(const int *in, int *out)
{
    __shared__ int buf[64];
    int t = threadIdx.x, acc = 0;
    for (int round = 0; round < 3; round++) {
        if (t < 64) {
            buf[t] = in[(t + round * 17) & 127];
            asm volatile("bar.arrive 1, 128;" ::: "memory");
            asm volatile("bar.sync 2, 128;" ::: "memory");
        } else {
            asm volatile("bar.sync 1, 128;" ::: "memory");
            acc += buf[t - 64];
            asm volatile("bar.arrive 2, 128;" ::: "memory");
        }
    }
    out[t] = acc;
}

// bar.arrive at a barrier id the kernel computes: 16 and above is no barrier.
extern "C" __global__ void arrive_id(int *out, int id)
{
    asm volatile("bar.arrive %0, 64;" ::"r"(id) : "memory");
    out[threadIdx.x] = id;
}

// Barrier reductions (bar.red.popc/.or/.and): __syncthreads_count/_or/_and.
extern "C" __global__ void sync_count(int *out)
{
    int t = threadIdx.x;
    out[t] = __syncthreads_count(t % 3 == 0) * 10000 + __syncthreads_or(t == 77) * 100 +
             __syncthreads_and(t < 100);
}
