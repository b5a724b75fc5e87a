// val_reduce.cu — validation reductions (bench/validation, not a seed): the sum (mod 2^32)
// of N unsigned values by BLOCKS x THREADS threads, each thread first summing its items of
// a grid-stride loop, then combined in ways kernels/*_reduction.cu does not write: a shared
// tree with sequential addressing (the base), an xor butterfly of shuffles, the
// __reduce_add_sync intrinsic with one atomic per warp, and one atomic per thread.

#ifndef N
#define N 4194304
#endif
#ifndef BLOCKS
#define BLOCKS 264
#endif
#ifndef THREADS
#define THREADS 256
#endif

#define FULL 0xffffffffu

__device__ inline unsigned partial(const unsigned *x)
{
    unsigned s = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        s += x[i];
    return s;
}

// Shared-memory tree, halving the active threads each step, one atomicAdd per block.
__global__ void vr_tree(const unsigned *x, unsigned *out)
{
    __shared__ unsigned s[THREADS];
    s[threadIdx.x] = partial(x);
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half >>= 1) {
        if (threadIdx.x < half)
            s[threadIdx.x] += s[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(out, s[0]);
}

// Xor butterfly in each warp (every lane ends with the sum), warp sums through shared
// memory, the first warp's butterfly over them, one atomicAdd per block.
__global__ void vr_xor(const unsigned *x, unsigned *out)
{
    __shared__ unsigned w[32];
    unsigned v = partial(x);
    for (int m = 16; m > 0; m >>= 1)
        v += __shfl_xor_sync(FULL, v, m);
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    if (lane == 0)
        w[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < (int)(blockDim.x >> 5) ? w[lane] : 0;
        for (int m = 16; m > 0; m >>= 1)
            v += __shfl_xor_sync(FULL, v, m);
        if (lane == 0)
            atomicAdd(out, v);
    }
}

// __reduce_add_sync per warp, one atomicAdd per warp.
__global__ void vr_redux(const unsigned *x, unsigned *out)
{
    unsigned v = __reduce_add_sync(FULL, partial(x));
    if ((threadIdx.x & 31) == 0)
        atomicAdd(out, v);
}

// No combining: one atomicAdd per thread on the one word.
__global__ void vr_atomic(const unsigned *x, unsigned *out)
{
    atomicAdd(out, partial(x));
}
