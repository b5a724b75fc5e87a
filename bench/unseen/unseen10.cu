// unseen10.cu — a tenth set of kernels written as a new user would, on patterns the earlier
// sets do not have: a persistent kernel that reads the SM it runs on, a single-pass scan whose
// CTAs wait for their predecessors' sums (decoupled look-back), a spin lock that backs off
// with __nanosleep, atomicInc/atomicDec as wrapping counters, and a work queue in shared
// memory that grows while it is drained. bench/unseen/unseen10.spec launches them;
// docs/results/unseen-kernels-h200.txt has what an H200 and the model gave.

__device__ __forceinline__ unsigned sm_id()
{
    unsigned s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    return s;
}

__device__ __forceinline__ unsigned sm_count()
{
    unsigned s;
    asm volatile("mov.u32 %0, %%nsmid;" : "=r"(s));
    return s;
}

__device__ __forceinline__ unsigned warp_slots()
{
    unsigned s;
    asm volatile("mov.u32 %0, %%nwarpid;" : "=r"(s));
    return s;
}

// A persistent kernel: each CTA takes items from one global queue until it is empty, and
// counts what it did on a counter for its SM. An item's work is a data-dependent loop.
// info[0..1] = %nsmid and %nwarpid as the GPU reports them.
extern "C" __global__ void persistent_smid(const int *in, int *out, int *queue, int *per_sm,
                                           int *info, int n)
{
    __shared__ int item;
    unsigned sm = sm_id(), nsm = sm_count();
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        info[0] = (int)nsm;
        info[1] = (int)warp_slots();
    }
    int done = 0;
    for (;;) {
        if (threadIdx.x == 0)
            item = atomicAdd(queue, blockDim.x);
        __syncthreads();
        int base = item;
        __syncthreads();
        if (base >= n)
            break;
        int i = base + threadIdx.x;
        if (i < n) {
            unsigned v = (unsigned)in[i], steps = 0;
            while (v > 1 && steps < 64) {
                v = (v & 1) ? 3 * v + 1 : v >> 1;
                steps++;
            }
            out[i] = (int)steps;
            done++;
        }
    }
    if (sm < nsm)
        atomicAdd(&per_sm[sm], done);
}

// Single-pass inclusive scan with decoupled look-back: a CTA takes the next tile number,
// sums its tile, publishes the sum, then walks back over earlier tiles' published values
// (waiting where one is not there yet) until it meets an inclusive prefix. status[t] holds
// (value << 2) | flag: 0 nothing yet, 1 the tile's own sum, 2 its inclusive prefix.
extern "C" __global__ void lookback_scan(const int *in, int *out, int *tiles,
                                         unsigned long long *status, int n)
{
    __shared__ int tile, warp_sums[32], prefix;
    if (threadIdx.x == 0)
        tile = atomicAdd(tiles, 1);
    __syncthreads();
    int t = tile, lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int i = t * blockDim.x + threadIdx.x;
    int x = i < n ? in[i] : 0;
    for (int d = 1; d < 32; d <<= 1) { // inclusive scan within the warp
        int y = __shfl_up_sync(0xffffffffu, x, d);
        if (lane >= d)
            x += y;
    }
    if (lane == 31)
        warp_sums[warp] = x;
    __syncthreads();
    if (warp == 0) {
        int nw = blockDim.x >> 5;
        int s = lane < nw ? warp_sums[lane] : 0;
        for (int d = 1; d < 32; d <<= 1) {
            int y = __shfl_up_sync(0xffffffffu, s, d);
            if (lane >= d)
                s += y;
        }
        if (lane < nw)
            warp_sums[lane] = s;
    }
    __syncthreads();
    if (warp > 0)
        x += warp_sums[warp - 1];
    int total = warp_sums[(blockDim.x >> 5) - 1];
    if (threadIdx.x == 0) {
        volatile unsigned long long *st = status;
        if (t == 0) {
            st[0] = ((unsigned long long)(unsigned)total << 2) | 2;
            prefix = 0;
        } else {
            st[t] = ((unsigned long long)(unsigned)total << 2) | 1;
            int run = 0;
            for (int p = t - 1; p >= 0; p--) {
                unsigned long long s;
                while (((s = st[p]) & 3) == 0)
                    ;
                run += (int)(unsigned)(s >> 2);
                if ((s & 3) == 2)
                    break;
            }
            __threadfence();
            st[t] = ((unsigned long long)(unsigned)(run + total) << 2) | 2;
            prefix = run;
        }
    }
    __syncthreads();
    if (i < n)
        out[i] = x + prefix;
}

// 16 spin locks; a thread that fails to take its lock sleeps before it tries again, twice as
// long each time up to 256 ns (the CUDA Programming Guide's __nanosleep back-off).
extern "C" __global__ void backoff_lock(const int *in, int *locks, int *totals, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int b = in[t] & 15;
    unsigned ns = 8;
    bool done = false;
    while (!done) {
        if (atomicCAS(&locks[b * 8], 0, 1) == 0) {
            volatile int *s = totals;
            s[b] = s[b] + (in[t] >> 4 & 255);
            __threadfence();
            atomicExch(&locks[b * 8], 0);
            done = true;
        } else {
            __nanosleep(ns);
            if (ns < 256)
                ns *= 2;
        }
    }
}

// Wrapping counters: odd items step a ring index with atomicInc (modulo 1000), even ones
// another with atomicDec (modulo 777), and count the value they saw; how many see each value
// does not depend on the order the atomics land in.
extern "C" __global__ void inc_ring(const int *in, unsigned *rings, int *seen, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    if (in[t] & 1) {
        unsigned a = atomicInc(&rings[0], 999u);
        atomicAdd(&seen[a], 1);
    } else {
        unsigned d = atomicDec(&rings[1], 776u);
        atomicAdd(&seen[1000 + d], 1);
    }
}

// A work queue in shared memory that grows while it is drained: item k of a CTA's implicit
// tree has children 2k+1 and 2k+2 below `limit` where a hash of k says so; the CTA's threads
// take items in rounds (an atomicAdd on the queue's head) and push the children (an
// atomicAdd on its tail), until a round finds nothing to take. out[CTA] = the items visited.
extern "C" __global__ void smem_queue(const int *in, int *out, int limit)
{
    __shared__ int q[2048];
    __shared__ int head, tail, visited;
    if (threadIdx.x == 0) {
        q[0] = 0;
        head = 0;
        tail = 1;
        visited = 0;
    }
    __syncthreads();
    unsigned salt = (unsigned)in[blockIdx.x];
    for (;;) {
        int avail = tail - head;
        __syncthreads();
        if (avail <= 0)
            break;
        int take = avail < (int)blockDim.x ? avail : (int)blockDim.x;
        if ((int)threadIdx.x < take) {
            int k = q[(head + threadIdx.x) & 2047];
            atomicAdd(&visited, 1);
            unsigned h = ((unsigned)k * 2654435761u) ^ salt;
            for (int c = 1; c <= 2; c++) {
                int ch = 2 * k + c;
                if (ch < limit && ((h >> (c * 3)) & 3) != 0) {
                    int at = atomicAdd(&tail, 1);
                    q[at & 2047] = ch;
                }
            }
        }
        __syncthreads();
        if (threadIdx.x == 0)
            head += take;
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = visited;
}
