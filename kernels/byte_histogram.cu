// byte_histogram.cu — a histogram of N bytes into BINS bins (64 or 256; bin = byte * BINS
// / 256), after the CUDA samples' histogram64/256: each block counts into shared memory
// and adds its counts to the global bins once. Threads read four bytes at a time (one
// 32-bit word) in a grid-stride loop. Variants (one kernel each):
//   hist_block  one shared histogram per block: all the block's warps contend on its
//               bins through shared atomics (few bins or skewed bytes = many collisions)
//   hist_warp   one sub-histogram per warp: only the 32 lanes of a warp share counters;
//               the warps' sub-histograms are summed once per block before the global add

#ifndef N
#define N 65536 // bytes, a multiple of 4
#endif
#ifndef BINS
#define BINS 64 // 64 or 256 (at most 256)
#endif
#ifndef THREADS
#define THREADS 256 // threads per block, a multiple of 32
#endif

#define WARPS (THREADS / 32)

__device__ inline unsigned bin_of(unsigned byte) { return byte * BINS >> 8; }

// Adds the four bytes of word `w` to the counters `h`.
__device__ inline void count_word(unsigned *h, unsigned w)
{
    atomicAdd(&h[bin_of(w & 0xffu)], 1u);
    atomicAdd(&h[bin_of((w >> 8) & 0xffu)], 1u);
    atomicAdd(&h[bin_of((w >> 16) & 0xffu)], 1u);
    atomicAdd(&h[bin_of(w >> 24)], 1u);
}

// ---------------------------------------------------------------- per-block shared histogram
__global__ void hist_block(const unsigned char *data, unsigned *hist)
{
    __shared__ unsigned h[BINS];
    const unsigned *words = (const unsigned *)data;
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        h[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N / 4; i += gridDim.x * blockDim.x)
        count_word(h, words[i]);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        atomicAdd(&hist[b], h[b]);
}

// ---------------------------------------------------------------- warp-private sub-histograms
__global__ void hist_warp(const unsigned char *data, unsigned *hist)
{
    __shared__ unsigned h[WARPS][BINS];
    const unsigned *words = (const unsigned *)data;
    unsigned *mine = h[threadIdx.x / 32];
    for (int b = threadIdx.x; b < WARPS * BINS; b += blockDim.x)
        h[b / BINS][b % BINS] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N / 4; i += gridDim.x * blockDim.x)
        count_word(mine, words[i]);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) {
        unsigned sum = 0;
        for (int w = 0; w < WARPS; w++)
            sum += h[w][b];
        atomicAdd(&hist[b], sum);
    }
}
