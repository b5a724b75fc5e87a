// activemask.cu — a *_sync whose mask is __activemask(), in a diverged warp (`diverged`: the
// odd lanes shuffle while the even ones are in the other arm; `loop`: in a loop of per-lane
// trips) and in a converged one (`converged`). The SASS model names the first in a `model caveat` (sass_run.c): on the
// GPU the lanes such a mask names follow its regrouping (docs/results/fuzz-gpu-h200.txt).

extern "C" __global__ void amask_diverged(const int *in, int *out)
{
    int t = threadIdx.x;
    int v = in[t];
    if (v & 1) {
        unsigned m = __activemask();
        v += __shfl_xor_sync(m, v, 2);
    } else {
        v = v * 3 + 1;
    }
    out[t] = v;
}

// After CAS retry loops (ptxas puts a YIELD in each; a lane that wins goes on to its next
// item while the others retry): the lanes that are done shuffle over __activemask() while
// others still retry.
extern "C" __global__ void amask_loop(const int *in, int *out)
{
    int t = threadIdx.x;
    int v = in[t];
    int *word = out + 64;
    for (int i = 0; i <= (v & 3); i++) {
        int old = *word, assumed;
        do {
            assumed = old;
            old = atomicCAS(word, assumed, assumed + 1);
        } while (assumed != old);
    }
    unsigned m = __activemask();
    out[t] = v + (__shfl_xor_sync(m, v, 1) & 0xff);
}

extern "C" __global__ void amask_converged(const int *in, int *out)
{
    int t = threadIdx.x;
    int v = in[t];
    unsigned m = __activemask();
    out[t] = v + __shfl_xor_sync(m, v, 1);
}
