#include <cuda_fp16.h>
#include <cuda/std/complex>
extern "C" __global__ void misc(const int *in, int *out, int n)
{
    __shared__ int sh[64];
    __shared__ __half2 hs[8];
    int i = blockIdx.x * blockDim.x + threadIdx.x, t = threadIdx.x;
    int a = in[i], k = 0;
    if (t < 64) sh[t] = a;
    if (t < 8) hs[t] = __floats2half2_rn(0.f, 0.f);
    __syncthreads();
    out[n * k++ + i] = __isShared(&sh[t & 63]) + 2 * __isGlobal(in) + 4 * __isShared(in) + 8 * __isLocal(&a);
    unsigned sa = (unsigned)__cvta_generic_to_shared(&sh[t & 63]);
    out[n * k++ + i] = (int)(sa & 0xff);
    __half2 h = __floats2half2_rn((float)(a & 15), (float)(a & 7));
    __half2 g = __shfl_xor_sync(0xffffffff, h, 3);
    out[n * k++ + i] = (int)__half2float(__low2half(g)) * 100 + (int)__half2float(__high2half(g));
    atomicAdd(&hs[t & 7], __floats2half2_rn(1.0f, 0.5f));
    cuda::std::complex<float> z((float)(a & 255), (float)((a >> 8) & 255)), w(0.5f, -1.5f);
    cuda::std::complex<float> p = z * w + cuda::std::conj(z) / w;
    out[n * k++ + i] = (int)(p.real() * 16) ^ (int)(p.imag() * 16);
    int *m = (int *)malloc(16 * sizeof(int));
    if (m) {
        for (int j = 0; j < 16; j++) m[j] = a + j;
        out[n * k++ + i] = m[a & 15] + m[15];
        free(m);
    } else {
        out[n * k++ + i] = -1;
    }
    int len = (a & 7) + 1;
    int *v = (int *)alloca(len * sizeof(int));
    for (int j = 0; j < len; j++) v[j] = a * j;
    out[n * k++ + i] = v[len - 1] + v[0];
    __syncthreads();
    if (t < 8) out[n * k + blockIdx.x * 8 + t] = *(int *)&hs[t];
}
