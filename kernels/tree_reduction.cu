// tree_reduction.cu — seed 002 (iPX blog), the shared-memory tree reduction, one partial
// sum per block. `reduction2_kernel` is the seed's `if ((tid % (2*s)) == 0)` version: at
// step s only every 2s-th thread works, so lanes of every warp diverge (the classic
// divergent pattern). `reduction_sequential` uses sequential addressing, `if (tid < s)`:
// whole warps drop out together and divergence is left only in the last warp's steps.
// THREADS must be a power of two (the shared array and the loop assume it).

#ifndef THREADS
#define THREADS 256
#endif

// Seed 002 `reduction2_kernel` (interleaved addressing, divergent).
__global__ void reduction2_kernel(const int *g_x, int *g_o)
{
    __shared__ int s_x[THREADS];
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    int tid = threadIdx.x;
    s_x[tid] = g_x[i];
    __syncthreads();

    for (int s = 1; s < blockDim.x; s *= 2) {
        if ((tid % (2 * s)) == 0)
            s_x[tid] += s_x[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        g_o[blockIdx.x] = s_x[0];
}

// Sequential addressing: thread tid adds the element s above it; active threads stay contiguous.
__global__ void reduction_sequential(const int *g_x, int *g_o)
{
    __shared__ int s_x[THREADS];
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    int tid = threadIdx.x;
    s_x[tid] = g_x[i];
    __syncthreads();

    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            s_x[tid] += s_x[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        g_o[blockIdx.x] = s_x[0];
}
