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

// A persistent kernel: each CTA takes 32 items at a time from one global queue until it is
// empty and counts what it took. On the GPU every CTA gets a share; run one after another,
// the first CTA would take them all.
extern "C" __global__ void queue_take(int *queue, int *taken, int n)
{
    __shared__ int base;
    for (;;) {
        if (threadIdx.x == 0)
            base = atomicAdd(queue, 32);
        __syncthreads();
        int b = base;
        __syncthreads();
        if (b >= n)
            break;
        if (threadIdx.x < 32 && b + (int)threadIdx.x < n)
            atomicAdd(&taken[blockIdx.x], 1);
    }
}
