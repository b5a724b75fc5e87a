// cubin_facts.cu — one kernel with everything the cubin reader (sim/sass_load.c) reads:
// __constant__ data (bank 3), the address of a __device__ global taken at run time (a
// relocated constant), initialized and zeroed globals, static shared memory, a stack
// frame (a locally indexed array) and a known parameter area.

__constant__ float coef[4] = {1.5f, 2.5f, 3.5f, 4.5f};
__constant__ int table[8] = {10, 11, 12, 13, 14, 15, 16, 17};
__device__ int gcount;
__device__ int ginit[4] = {5, 6, 7, 8};

extern "C" __global__ void facts(int *out, const int *idx, int n, float scale)
{
    __shared__ int tile[64];
    __shared__ float tile2[32];
    int local[40];
    int t = threadIdx.x;
    for (int i = 0; i < 40; i++)
        local[i] = idx[(t + i) % n] * i;
    tile[t % 64] = local[idx[t] % 40];
    tile2[t % 32] = coef[t & 3] * scale;
    __syncthreads();
    int *g = (t & 1) ? &gcount : &ginit[t & 3];
    out[t] = tile[(t + 1) % 64] + (int)tile2[(t + 3) % 32] + table[t & 7] + *g + local[n % 40];
    atomicAdd(&gcount, 1);
}

// A second kernel in the same module: its own parameter area, no shared memory.
extern "C" __global__ void second(long long *out, char c, double d)
{
    out[threadIdx.x] = (long long)(c * d) + ginit[threadIdx.x & 3];
}
