// val_dyn.cu — validation dynamic work assignment (bench/validation, not a seed): each
// block owns APB items of varying trip counts (len[i] rounds of an integer hash); written
// differently from kernels/dynamic_assignment.cu: a static round robin (the base), a grab
// loop with its test at the bottom, a grab of CHUNK items at once, and per-warp counters
// over each warp's own slice. Every variant writes out[i] = the hash of item i.

#ifndef BLOCKS
#define BLOCKS 132
#endif
#ifndef THREADS
#define THREADS 128
#endif
#ifndef APB
#define APB 2048
#endif
#ifndef CHUNK
#define CHUNK 4
#endif

#define WARPS (THREADS / 32)

__device__ inline unsigned work(unsigned x, int trips)
{
    for (int t = 0; t < trips; t++)
        x = (x ^ (x >> 15)) * 0x2c1b3c6du + (unsigned)t;
    return x;
}

// Static round robin: thread t takes items t, t + THREADS, ... of its block.
__global__ void vd_static(const int *len, unsigned *out)
{
    const int *l = len + blockIdx.x * APB;
    unsigned *o = out + blockIdx.x * APB;
    for (int i = threadIdx.x; i < APB; i += blockDim.x)
        o[i] = work((unsigned)(blockIdx.x * APB + i), l[i]);
}

// Each thread starts on item threadIdx.x and grabs the next from a shared counter; the
// loop's test is at its bottom.
__global__ void vd_bottom(const int *len, unsigned *out)
{
    __shared__ int next;
    const int *l = len + blockIdx.x * APB;
    unsigned *o = out + blockIdx.x * APB;
    if (threadIdx.x == 0)
        next = blockDim.x;
    __syncthreads();
    int i = threadIdx.x;
    if (i < APB)
        do {
            o[i] = work((unsigned)(blockIdx.x * APB + i), l[i]);
            i = atomicAdd(&next, 1);
        } while (i < APB);
}

// Grab CHUNK items at a time from the shared counter.
__global__ void vd_chunk(const int *len, unsigned *out)
{
    __shared__ int next;
    const int *l = len + blockIdx.x * APB;
    unsigned *o = out + blockIdx.x * APB;
    if (threadIdx.x == 0)
        next = 0;
    __syncthreads();
    for (int first = atomicAdd(&next, CHUNK); first < APB; first = atomicAdd(&next, CHUNK)) {
        int last = min(first + CHUNK, APB);
        for (int i = first; i < last; i++)
            o[i] = work((unsigned)(blockIdx.x * APB + i), l[i]);
    }
}

// One counter per warp over the warp's own APB/WARPS items: no contention between warps,
// no balancing between them either.
__global__ void vd_warp(const int *len, unsigned *out)
{
    __shared__ int next[WARPS];
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    int per = APB / WARPS, lo = warp * per, hi = warp == WARPS - 1 ? APB : lo + per;
    const int *l = len + blockIdx.x * APB;
    unsigned *o = out + blockIdx.x * APB;
    if (lane == 0)
        next[warp] = lo;
    __syncwarp();
    int i;
    while ((i = atomicAdd(&next[warp], 1)) < hi)
        o[i] = work((unsigned)(blockIdx.x * APB + i), l[i]);
}
