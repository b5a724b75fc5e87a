// mma_numerics.cu — how the tensor core adds: one wmma tile per warp (16x16x16 over f16 or
// bf16 into f32, f16 into f16, 16x16x8 over tf32 into f32) on inputs whose exponents spread
// over 2^-15..2^16, so that the alignment, truncation and rounding of the hardware's sums
// show in the last bits. tests/gpu/mma_numerics.spec runs the four in one sequence; the
// SASS model's HMMA (sim/sass_mma.c tc_group) equals an H200's outputs bit for bit.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>
using namespace nvcuda;
extern "C" __global__ void f16f32(const half *A, const half *B, const float *C, float *D)
{
    int t = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::load_matrix_sync(a, A + 256 * t, 16);
    wmma::load_matrix_sync(b, B + 256 * t, 16);
    wmma::load_matrix_sync(c, C + 256 * t, 16, wmma::mem_row_major);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(D + 256 * t, c, 16, wmma::mem_row_major);
}
extern "C" __global__ void bf16f32(const __nv_bfloat16 *A, const __nv_bfloat16 *B, const float *C, float *D)
{
    int t = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::load_matrix_sync(a, A + 256 * t, 16);
    wmma::load_matrix_sync(b, B + 256 * t, 16);
    wmma::load_matrix_sync(c, C + 256 * t, 16, wmma::mem_row_major);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(D + 256 * t, c, 16, wmma::mem_row_major);
}
extern "C" __global__ void f16f16(const half *A, const half *B, const half *C, half *D)
{
    int t = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, half> c;
    wmma::load_matrix_sync(a, A + 256 * t, 16);
    wmma::load_matrix_sync(b, B + 256 * t, 16);
    wmma::load_matrix_sync(c, C + 256 * t, 16, wmma::mem_row_major);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(D + 256 * t, c, 16, wmma::mem_row_major);
}
extern "C" __global__ void tf32f32(const float *A, const float *B, const float *C, float *D)
{
    int t = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> c;
    wmma::load_matrix_sync(a, A + 128 * t, 8);
    wmma::load_matrix_sync(b, B + 128 * t, 8);
    wmma::load_matrix_sync(c, C + 256 * t, 16, wmma::mem_row_major);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(D + 256 * t, c, 16, wmma::mem_row_major);
}
