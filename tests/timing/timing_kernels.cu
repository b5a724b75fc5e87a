// timing_kernels.cu — kernels with known timing shape for test_timing_model.c:
// `chain` is one long dependent multiply-add chain per thread; `indep` does the same
// number of multiply-adds as four independent chains.
#ifndef LEN
#define LEN 256
#endif
__global__ void chain(int *out)
{
    int x = threadIdx.x;
#pragma unroll 16
    for (int i = 0; i < LEN; i++)
        x = x * x + 7;
    out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

__global__ void indep(int *out)
{
    int a = threadIdx.x, b = a + 1, c = a + 2, d = a + 3;
#pragma unroll 4
    for (int i = 0; i < LEN / 4; i++) {
        a = a * a + 7; b = b * b + 7; c = c * c + 7; d = d * d + 7;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = a ^ b ^ c ^ d;
}
