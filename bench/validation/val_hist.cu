// val_hist.cu — validation histogram (bench/validation, not a seed): N integer keys in
// [0, BINS) counted into BINS int bins by BLOCKS x THREADS threads in a grid-stride loop,
// warp-aggregated in ways kernels/histogram.cu does not write: a ballot/leader loop (one
// trip per distinct bin of the warp), a per-warp shared sub-histogram, and a warp sort of
// the keys followed by one atomicAdd per run of equal keys. The timing model is judged on
// these; no preset key is fitted to them.

#ifndef N
#define N 1048576
#endif
#ifndef BINS
#define BINS 64
#endif
#ifndef BLOCKS
#define BLOCKS 528
#endif
#ifndef THREADS
#define THREADS 256
#endif

#define WARPS (THREADS / 32)
#define FULL 0xffffffffu

__device__ inline void plain_atomic(const int *keys, int *hist)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        atomicAdd(&hist[keys[i]], 1);
}

// Plain atomicAdd per key: the base.
__global__ void vh_atomic(const int *keys, int *hist) { plain_atomic(keys, hist); }

// Ballot/leader loop: the lowest lane still waiting broadcasts its key, the lanes with
// that key vote, the leader adds their count and they leave; one trip per distinct key.
__global__ void vh_leader(const int *keys, int *hist)
{
    int lane = threadIdx.x & 31;
    for (int base = blockIdx.x * blockDim.x; base < N; base += gridDim.x * blockDim.x) {
        int i = base + threadIdx.x;
        int key = i < N ? keys[i] : -1;
        unsigned waiting = __ballot_sync(FULL, key >= 0);
        while (waiting) {
            int leader = __ffs(waiting) - 1;
            int lkey = __shfl_sync(FULL, key, leader);
            unsigned same = __ballot_sync(FULL, key == lkey);
            if (lane == leader)
                atomicAdd(&hist[lkey], __popc(same));
            waiting &= ~same;
        }
    }
}

// Per-warp sub-histogram in shared memory (shared atomics), merged into the global bins
// at the end: one global atomicAdd per non-zero bin per warp. Where the warps' copies do
// not fit in 48 KB (THREADS/32 * BINS > 12288) it adds to the global bins directly.
#if WARPS * BINS <= 12288
__global__ void vh_warp_sub(const int *keys, int *hist)
{
    __shared__ int sub[WARPS * BINS];
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    for (int b = threadIdx.x; b < WARPS * BINS; b += blockDim.x)
        sub[b] = 0;
    __syncthreads();
    int *mine = &sub[warp * BINS];
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        atomicAdd(&mine[keys[i]], 1);
    __syncwarp();
    for (int b = lane; b < BINS; b += 32)
        if (mine[b])
            atomicAdd(&hist[b], mine[b]);
}
#else
__global__ void vh_warp_sub(const int *keys, int *hist)
{
    plain_atomic(keys, hist);
}
#endif

// Sort-then-aggregate: a bitonic sort of the warp's 32 keys by shuffles, then the first
// lane of each run of equal keys adds the run's length (the distance to the next run's
// first lane, found in the ballot of run heads).
__global__ void vh_sort(const int *keys, int *hist)
{
    int lane = threadIdx.x & 31;
    for (int base = blockIdx.x * blockDim.x; base < N; base += gridDim.x * blockDim.x) {
        int i = base + threadIdx.x;
        int key = i < N ? keys[i] : 0x7fffffff;   // absent keys sort last
        for (int k = 2; k <= 32; k <<= 1)
            for (int j = k >> 1; j > 0; j >>= 1) {
                int other = __shfl_xor_sync(FULL, key, j);
                int up = ((lane & k) == 0) == ((lane & j) == 0);
                key = up ? min(key, other) : max(key, other);
            }
        int prev = __shfl_up_sync(FULL, key, 1);
        int head = key != 0x7fffffff && (lane == 0 || prev != key);
        unsigned heads = __ballot_sync(FULL, key != 0x7fffffff && (lane == 0 || prev != key));
        unsigned present = __ballot_sync(FULL, key != 0x7fffffff);
        if (head) {
            unsigned later = heads & ~((2u << lane) - 1);  // run heads after this lane
            int end = later ? __ffs(later) - 1 : 32 - __clz(present);
            atomicAdd(&hist[key], end - lane);
        }
    }
}
