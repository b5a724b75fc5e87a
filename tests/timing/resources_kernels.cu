// resources_kernels.cu — kernels with known resource use for test_resources.c:
// `staged` holds 1 KB of static shared memory; `heavy` keeps 24 live floats under
// __maxnreg__(24) (the sm_90 floor), so ptxas must spill.
__global__ void staged(int *a, int n)
{
    __shared__ int s[256];
    s[threadIdx.x] = a[threadIdx.x];
    __syncthreads();
    if ((int)threadIdx.x < n)
        a[threadIdx.x] = s[255 - threadIdx.x] * 3;
}

__global__ void __maxnreg__(24) heavy(const float *in, float *out, int n)
{
    float acc[24];
#pragma unroll
    for (int i = 0; i < 24; i++)
        acc[i] = in[threadIdx.x + i * n];
    float s = 0;
#pragma unroll
    for (int k = 0; k < 24; k++) {
#pragma unroll
        for (int i = 0; i < 24; i++)
            s += acc[i] * acc[(i + k) % 24];
    }
    out[threadIdx.x] = s;
}
