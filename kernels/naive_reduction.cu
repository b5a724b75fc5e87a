// naive_reduction.cu — seed 002 (iPX blog, "CUDA Parallel Reduction"), the first attempt:
// every thread does `g_o[0] += g_x[i]` with no synchronization. The load, add and store of
// one warp's lanes interleave, so updates are lost (the seed: 1+2+3+4+5 expected 15, got 5).
// This is a race on purpose: the simulator must reproduce the wrong sum and report the
// unsynchronized read-modify-write. `reduction_atomic` is the correct version.

// Seed 002 `reduction1_kernel`: lost updates.
__global__ void reduction1_kernel(const int *g_x, int *g_o)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    g_o[0] += g_x[i];
}

// The fix: one atomic read-modify-write per thread (correct, but every lane hits one address).
__global__ void reduction_atomic(const int *g_x, int *g_o)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    atomicAdd(&g_o[0], g_x[i]);
}
