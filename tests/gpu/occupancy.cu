// occupancy.cu — the occupancy GPU test's own kernel (tests/gpu/occupancy_check.c): LIVE
// values kept live at once so ptxas needs far more than 32 registers (the seed kernels use
// at most 32, where the register file never limits CTAs on sm_90), and static shared
// memory, so static + dynamic shared memory is exercised too. Not a seed workload.
#ifndef N
#define N 4096
#endif
#ifndef LIVE
#define LIVE 72
#endif

__global__ void pressure(const float *in, float *out, int n)
{
    __shared__ float stage[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v[LIVE];
#pragma unroll
    for (int k = 0; k < LIVE; k++)
        v[k] = in[(size_t)k * n + i];
#pragma unroll
    for (int r = 0; r < 4; r++) {
#pragma unroll
        for (int k = 0; k < LIVE; k++)
            v[k] = v[k] * v[(k + r + 1) % LIVE] + 1.0f;
    }
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < LIVE; k++)
        s += v[k] * (float)(k + 1);
    stage[threadIdx.x & 255] = s;
    __syncthreads();
    out[i] = stage[(threadIdx.x + 1) & 255];
}
