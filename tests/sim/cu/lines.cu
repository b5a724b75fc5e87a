// lines.cu — source lines of inlined code: a __device__ function of this file keeps its own
// lines, and toolkit intrinsics (atomicAdd, __shfl_xor_sync, a cooperative group's reduce),
// which nvdisasm and CUPTI place in the toolkit's headers, count on the kernel line that
// calls them. tests/sim/test_sass_lines.c holds the SASS model to it on the CPU, and
// tests/gpu/lines.spec holds CUPTI's per-line counts to the model's on the GPU.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__device__ __forceinline__ int bits(int x, int k)
{
    int s = x & 1;                 // @bits_first
    for (int j = 1; j < k; j++)    // @bits_loop
        s += (x >> j) & 1;         // @bits_body
    return s;
}

extern "C" __global__ void lines(const int *in, int *out, int *total)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = bits(in[i], (in[i] & 7) + 1);             // @call
    v += __shfl_xor_sync(0xffffffffu, v, 1);          // @shfl
    if (v & 1) {
        cg::coalesced_group odd = cg::coalesced_threads();
        int sum = cg::reduce(odd, v, cg::plus<int>()); // @reduce
        if (odd.thread_rank() == 0)
            atomicAdd(total, sum);                    // @atomic
    }
    out[i] = v;
}
