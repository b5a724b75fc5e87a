// unsupported.cu — a kernel using an instruction the PTX model does not implement
// (a rounding to TensorFloat-32: wmma::__float_to_tf32 -> cvt.rna.tf32.f32; the SASS model
// runs it), for the error-propagation test.
#include <mma.h>
extern "C" __global__ void tf32_round(const float *a, float *out)
{
    out[threadIdx.x] = nvcuda::wmma::__float_to_tf32(a[threadIdx.x]);
}
