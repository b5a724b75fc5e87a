// mixed.cu — one module, kernels the simulator supports beside ones it does not (a tensor
// core tile through wmma; a call to a function using tanh.approx.bf16x2; a cooperative-groups grid
// sync): the plain kernel must still simulate, the others fail at launch naming the
// construct and its PTX line.
#include <cooperative_groups.h>
#include <mma.h>
using namespace nvcuda;
namespace cg = cooperative_groups;

extern "C" __global__ void tensor_tile(const half *a, const half *b, float *c)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}

extern "C" __global__ void plain_scale(const int *in, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * 3;
}

__device__ __noinline__ float fast_tanh(float x)
{
    unsigned y, b = __float_as_uint(x) >> 16 | (__float_as_uint(x) & 0xffff0000u);
    asm("tanh.approx.bf16x2 %0, %1;" : "=r"(y) : "r"(b)); /* the PTX model has no bf16 tanh */
    return __uint_as_float(y & 0xffff0000u);
}

extern "C" __global__ void calls_tanh(const float *in, float *out)
{
    out[threadIdx.x] = fast_tanh(in[threadIdx.x]);
}

extern "C" __global__ void grid_sync(const int *in, int *out)
{
    cg::grid_group g = cg::this_grid();
    out[g.thread_rank()] = in[g.thread_rank()];
    g.sync();
    out[g.thread_rank()] += out[(g.thread_rank() + 1) % g.size()];
}
