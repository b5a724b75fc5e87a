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
