// shuffle_reduction.cu — seed 002 (iPX blog), the register version: a warp reduces with
// __shfl_down_sync (offsets 16, 8, 4, 2, 1), lane 0 of each warp puts its sum in shared
// memory, warp 0 reduces those, and thread 0 adds the block's sum to g_o[0] with one
// atomicAdd per block (the seed wrote one partial per block; one total is easier to check).
// The seed used the pre-Volta __shfl_down; today it is __shfl_down_sync with a full mask.

__device__ int warpReduction(int val)
{
    for (int offset = warpSize >> 1; offset > 0; offset >>= 1)
        val += __shfl_down_sync(0xffffffffu, val, offset);
    return val;
}

// Block sum, valid in thread 0. Needs blockDim.x a multiple of 32, at most 1024.
__device__ int blockReduction(int val)
{
    __shared__ int s[32];
    int laneId = threadIdx.x & (32 - 1);
    int wid = threadIdx.x / 32;

    val = warpReduction(val);
    if (laneId == 0)
        s[wid] = val;
    __syncthreads();

    val = (threadIdx.x < blockDim.x / 32) ? s[laneId] : 0;
    if (wid == 0)
        val = warpReduction(val);
    return val;
}

// Seed 002 `reduction3_kernel`, ending in one atomicAdd per block.
__global__ void reduction3_kernel(const int *g_x, int *g_o)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    int sum = blockReduction(g_x[i]);
    if (threadIdx.x == 0)
        atomicAdd(&g_o[0], sum);
}
