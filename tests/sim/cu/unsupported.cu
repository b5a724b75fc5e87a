// unsupported.cu — a kernel using an instruction the simulator does not implement
// (a half-precision atomic: atomicAdd on __half -> atom.add.noftz.f16), for the
// error-propagation test.
#include <cuda_fp16.h>
extern "C" __global__ void half_atomic(const __half *a, __half *out)
{
    atomicAdd(out, a[threadIdx.x]);
}
