// unsupported.cu — a kernel using an instruction the simulator does not implement
// (half-precision arithmetic: __hadd -> add.f16), for the error-propagation test.
#include <cuda_fp16.h>
extern "C" __global__ void half_add(const __half *a, __half *out)
{
    out[threadIdx.x] = __hadd(a[threadIdx.x], a[threadIdx.x + 1]);
}
