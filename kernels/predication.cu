// predication.cu — seed 003 (SIMT conditional execution): a short if/else is compiled
// without a branch, as `selp` / `@p`-guarded instructions, so every lane issues both arms
// and nothing diverges (predicated-off lanes still cost the issue slot); a long body stays a
// real branch and diverges. Check the PTX: `short_if` has no `bra`, `long_if` has one.

#ifndef LOOP
#define LOOP 16 // length of the long body
#endif

// Short if/else: one operation per arm, nvcc selects (selp) instead of branching.
__global__ void short_if(const int *in, int *out)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int x = in[idx];
    int y;
    if (x < 0)
        y = -x * 3;
    else
        y = x + 7;
    out[idx] = y;
}

// Long if/else: too long to predicate, so it is a divergent branch.
__global__ void long_if(const int *in, int *out)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int x = in[idx];
    if (x < 0) {
#pragma unroll
        for (int i = 0; i < LOOP; i++)
            x = 0xffff & (x * x + x);
    } else {
#pragma unroll
        for (int i = 0; i < LOOP; i++)
            x = 0xffff & (x * x + x + 1);
    }
    out[idx] = x;
}
