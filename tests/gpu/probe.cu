// probe.cu — a tiny kernel for the GPU tests: a loop with a data-dependent trip count
// (divergence), a select, and an atomic whose result accumulates across launches (so a
// replay that forgot to restore inputs shows up as a wrong count).
#ifndef N
#define N 4096
#endif

__global__ void probe(const int *data, int *out, int *count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = data[i];
    int acc = 0;
    for (int k = 0; k < (v & 7); k++)
        acc = acc * 3 + k;
    out[i] = (v & 4) ? acc + v : acc - v;
    atomicAdd(count, 1);
}
