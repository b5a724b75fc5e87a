// cluster.cu — thread-block cluster code launched without clusters (every CTA a cluster of
// one, as on the GPU), which both models run, and the cluster kernels they refuse.
// test_sim_cluster runs it on both models; tests/gpu/cluster.spec checks chist, csr and
// gatomic against the GPU.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// The CUDA Programming Guide's distributed-shared-memory histogram: each CTA of a cluster
// owns bins_per_block bins in shared memory; threads add to the owning CTA's bins through
// cluster.map_shared_rank (a generic atomic, ATOM.E), then each CTA adds its bins to the
// global histogram. With one CTA a cluster, bins_per_block must cover every bin.
extern "C" __global__ void chist(int *bins, const int nbins, const int bins_per_block,
                                 const int *__restrict__ input, size_t array_size)
{
    extern __shared__ int smem[];
    int tid = cg::this_grid().thread_rank();
    cg::cluster_group cluster = cg::this_cluster();
    for (int i = threadIdx.x; i < bins_per_block; i += blockDim.x)
        smem[i] = 0;
    cluster.sync();
    for (int i = tid; i < array_size; i += blockDim.x * gridDim.x) {
        int ldata = input[i];
        int binid = ldata < 0 ? 0 : ldata >= nbins ? nbins - 1 : ldata;
        int dst_block_rank = binid / bins_per_block;
        int dst_offset = binid % bins_per_block;
        int *dst_smem = cluster.map_shared_rank(smem, dst_block_rank);
        atomicAdd(dst_smem + dst_offset, 1);
    }
    cluster.sync();
    int *lbins = bins + cluster.block_rank() * bins_per_block;
    for (int i = threadIdx.x; i < bins_per_block; i += blockDim.x)
        atomicAdd(&lbins[i], smem[i]);
}

// The cluster's special registers, as cooperative groups and PTX read them: 12 words a CTA.
extern "C" __global__ void csr(unsigned *o)
{
    cg::cluster_group cl = cg::this_cluster();
    unsigned *p = o + 12 * (blockIdx.x + gridDim.x * blockIdx.y);
    unsigned v[12];
    v[0] = cl.block_rank();
    v[1] = cl.num_blocks();
    v[2] = cl.dim_blocks().x;
    v[3] = cl.block_index().x;
    asm("mov.u32 %0, %%clusterid.x;" : "=r"(v[4]));
    asm("mov.u32 %0, %%clusterid.y;" : "=r"(v[5]));
    asm("mov.u32 %0, %%nclusterid.x;" : "=r"(v[6]));
    asm("mov.u32 %0, %%nclusterid.y;" : "=r"(v[7]));
    asm("mov.u32 %0, %%cluster_ctaid.y;" : "=r"(v[8]));
    asm("mov.u32 %0, %%cluster_nctaid.z;" : "=r"(v[9]));
    asm("{ .reg .pred q; mov.pred q, %%is_explicit_cluster; selp.u32 %0, 1, 0, q; }"
        : "=r"(v[10]));
    v[11] = cl.thread_rank();
    if (threadIdx.x == 5)
        for (int i = 0; i < 12; i++)
            p[i] = v[i];
}

// An atomicAdd through a generic pointer into shared memory (a function ptxas keeps apart,
// so the pointer's space is unknown: ATOM.E, not ATOMS).
__device__ __noinline__ void bump(int *p, int v) { atomicAdd(p, v); }

extern "C" __global__ void gatomic(int *out, int k)
{
    __shared__ int s[32];
    if (threadIdx.x < 32)
        s[threadIdx.x] = 0;
    __syncthreads();
    bump(&s[(threadIdx.x * k) % 32], 1);
    bump(&out[32 + threadIdx.x % 4], 2);
    __syncthreads();
    if (threadIdx.x < 32)
        out[threadIdx.x] = s[threadIdx.x];
}

// Refused by both models: a kernel compiled for clusters of two CTAs, and a map to CTA
// rank 1 in a launch without clusters.
extern "C" __global__ void __cluster_dims__(2, 1, 1) cpair(int *out)
{
    __shared__ int s[32];
    cg::cluster_group cl = cg::this_cluster();
    s[threadIdx.x % 32] = threadIdx.x;
    cl.sync();
    out[blockIdx.x * blockDim.x + threadIdx.x] = *cl.map_shared_rank(&s[threadIdx.x % 32], 1 - cl.block_rank());
    cl.sync();
}

extern "C" __global__ void cfar(int *out)
{
    __shared__ int s[32];
    s[threadIdx.x % 32] = 1;
    __syncthreads();
    out[threadIdx.x] = *cg::this_cluster().map_shared_rank(&s[0], 1);
}
