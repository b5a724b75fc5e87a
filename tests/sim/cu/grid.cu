// grid.cu — cooperative groups' grid sync (this_grid().sync()): every thread reads what
// threads of another CTA wrote before the sync (test_sim_grid).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void grid_shift(const int *in, int *a, int *out)
{
    cg::grid_group g = cg::this_grid();
    unsigned i = g.thread_rank(), n = g.size();
    a[i] = in[i] * 3;
    g.sync();
    int v = a[(i + blockDim.x) % n]; // written by the next CTA
    g.sync();
    a[i] = v + 1;
    g.sync();
    out[i] = a[n - 1 - i];
}

// A grid barrier made by hand, as code from before cooperative groups has it: each CTA
// counts itself in with an atomic and spins until every CTA has. It completes on the GPU
// when the grid fits at once (no cooperative launch needed); a simulator that runs CTAs one
// after another spins forever in the first one.
extern "C" __global__ void grid_spin(int *count, int *out)
{
    __shared__ int seen;
    if (threadIdx.x == 0) {
        atomicAdd(count, 1);
        int n;
        do {
            n = atomicAdd(count, 0);
        } while (n < (int)gridDim.x);
        seen = n;
    }
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = seen;
}
