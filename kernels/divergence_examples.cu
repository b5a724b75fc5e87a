// divergence_examples.cu — seed 004 (Aoki, "GPU computing No.7: threads and warps"):
// divergence happens only inside a warp. `if (threadIdx.x == 0)` splits warp 0 (lane 0
// against 31 lanes); `if (threadIdx.x / 32 == 0)` is uniform per warp (no divergent
// branch, warps just take different paths); nested branches diverge at each level; and a
// loop is a branch too (per-lane trip counts keep lanes idle until the longest finishes).
// The four paths are deliberately different computations so that nvcc keeps them as
// separate code (identical arms would be merged and nothing would diverge).

#ifndef LOOP
#define LOOP 16 // iterations of each path's work
#endif

__device__ int do_something(int x) // path A
{
#pragma unroll
    for (int i = 0; i < LOOP; i++)
        x = 0xffff & (x * x + x);
    return x;
}

__device__ int do_otherthing(int x) // path B
{
#pragma unroll
    for (int i = 0; i < LOOP; i++)
        x = 0xffff & (x * x + x + 1);
    return x;
}

__device__ int do_something0(int x) // path C
{
#pragma unroll
    for (int i = 0; i < LOOP; i++)
        x = 0xffff & ((x * x) ^ x);
    return x;
}

__device__ int do_something1(int x) // path D
{
#pragma unroll
    for (int i = 0; i < LOOP; i++)
        x = 0xffff & (x * x + 3 * x);
    return x;
}

// Diverges: in warp 0, lane 0 runs A while lanes 1-31 wait, then B with lane 0 waiting.
__global__ void tid_eq_0(const int *in, int *out)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int x = in[idx];
    if (threadIdx.x == 0)
        x = do_something(x);
    else
        x = do_otherthing(x);
    out[idx] = x;
}

// Does not diverge: all 32 lanes of a warp agree on threadIdx.x / 32.
__global__ void warp_uniform(const int *in, int *out)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int x = in[idx];
    if (threadIdx.x / 32 == 0)
        x = do_something(x);
    else
        x = do_otherthing(x);
    out[idx] = x;
}

// Diverges at each level: the outer branch on the lane, the inner ones on the data (j < 0).
__global__ void nested(const int *in, int *out)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int j = in[idx];
    int x = idx;
    if (threadIdx.x % 2 == 0) {
        if (j < 0)
            x = do_something0(x);
        else
            x = do_something1(x);
    } else {
        if (j < 0)
            x = do_something(x);
        else
            x = do_otherthing(x);
    }
    out[idx] = x;
}

// A loop is a branch: lane L runs L+1 trips, so the warp runs 32 trips and the body's
// execution rate is (1+2+...+32) / (32*32) = 51.6%.
__global__ void loop(const int *in, int *out)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int x = in[idx];
    int trips = (threadIdx.x & 31) + 1;
#pragma unroll 1 // keep it a loop (unrolling is how one would remove these branches)
    for (int t = 0; t < trips; t++)
        x = 0xffff & (x * x + x + t);
    out[idx] = x;
}
