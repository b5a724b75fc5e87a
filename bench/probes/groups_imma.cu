#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda/atomic>
#include <cuda_fp16.h>
#include <mma.h>
namespace cg = cooperative_groups;
using namespace nvcuda;
__device__ int pick(int op, int a, int b)
{
    switch (op & 7) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    case 3: return a ^ b;
    case 4: return a | b;
    case 5: return min(a, b);
    case 6: return max(a, b);
    default: return a >> (b & 7);
    }
}
struct S { int k; float v; union { int i; float f; } u; };
extern "C" __global__ void cgk(const int *in, int *out, unsigned *cnt, int n)
{
    cg::thread_block blk = cg::this_thread_block();
    int i = blk.group_index().x * blk.size() + blk.thread_rank();
    int a = in[i], b = in[(i + 17) % n];
    int k = 0;
    auto w = cg::tiled_partition<32>(blk);
    auto lab = cg::labeled_partition(w, a & 3);
    out[n * k++ + i] = cg::reduce(lab, b & 0xffff, cg::plus<int>()) + (int)lab.size() * 1000 + (int)lab.thread_rank();
    auto bp = cg::binary_partition(w, b & 1);
    out[n * k++ + i] = cg::reduce(bp, a, cg::greater<int>()) ^ (int)bp.meta_group_rank();
    auto t4 = cg::tiled_partition<4>(blk);
    cg::thread_group tg = cg::tiled_partition(blk, 8);
    out[n * k++ + i] = t4.shfl(a, (b & 3)) + (int)t4.meta_group_rank() + (int)tg.thread_rank() * 100000;
    out[n * k++ + i] = cg::inclusive_scan(w, a & 0xff) ^ cg::exclusive_scan(w, b & 0xff, cg::bit_xor<int>());
    if (a & 1) {
        auto act = cg::coalesced_threads();
        out[n * k++ + i] = act.shfl_down(b, 1) + (int)act.thread_rank() * 7 + act.any(b > 0) + 2 * act.all(a != 0) + (int)act.ballot(b & 4);
    } else {
        out[n * k++ + i] = -1;
    }
    out[n * k++ + i] = pick(a, b, a >> 3);
    int loc[16];
    for (int t = 0; t < 16; t++) loc[t] = a * t + b;
    out[n * k++ + i] = loc[(b >> 4) & 15] + loc[a & 15];
    S s; s.k = a; s.v = (float)b; s.u.f = 1.5f * (float)(a & 0xff);
    out[n * k++ + i] = s.k + (int)s.v + s.u.i;
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> ar(cnt[a & 3]);
    ar.fetch_add(1u, cuda::memory_order_relaxed);
    cuda::atomic_ref<unsigned, cuda::thread_scope_block> br(cnt[4 + (b & 3)]);
    br.fetch_max((unsigned)a, cuda::memory_order_acq_rel);
    __syncthreads();
    out[n * k++ + i] = __syncthreads_count(a & 1) + 1000 * __syncthreads_or(b == 12345) + 2000 * __syncthreads_and(a != 0);
}
extern "C" __global__ void imma(const signed char *A, const signed char *B, int *C, const unsigned char *Au)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> c;
    wmma::fill_fragment(c, 7);
    wmma::load_matrix_sync(a, A, 16);
    wmma::load_matrix_sync(b, B, 16);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(C, c, 16, wmma::mem_row_major);
    wmma::fragment<wmma::matrix_a, 16, 16, 16, unsigned char, wmma::row_major> au;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, unsigned char, wmma::col_major> bu;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> cu;
    wmma::fill_fragment(cu, -3);
    wmma::load_matrix_sync(au, Au, 16);
    wmma::load_matrix_sync(bu, Au + 256, 16);
    wmma::mma_sync(cu, au, bu, cu);
    wmma::store_matrix_sync(C + 256, cu, 16, wmma::mem_row_major);
}
