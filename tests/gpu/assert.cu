// assert.cu — a kernel with assert() for tests/gpu/test_launch.sh: where it holds the
// kernel runs on the GPU and on both models alike; where it fails, the GPU reports the
// driver's assert error and the simulator names the assertion.
#include <cassert>

extern "C" __global__ void checked(int *x)
{
    assert(x[threadIdx.x] >= 0);
    x[threadIdx.x] += 1;
}
