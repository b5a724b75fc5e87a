// bsync.cu — one warp's lanes split and meet again at a convergence barrier, in shapes
// chosen to read how the GPU counts the meeting: CUPTI's per-PC counts against the Range
// Profiler's kernel totals (bench/bsync/bsync.spec, docs/results/unseen-kernels-h200.txt).
//   bits_loop   bench/unseen/unseen3.cu's bit_serial loop, and one without BREV/FLO
//   bits_one    one warp of it over in[off ..]
//   if_lanes    lanes named by `mask` run `work` rounds of a dependent loop; the others
//               skip it; all store after the if
//   loop_trips  lane l runs tab[l] rounds of a while loop, then stores
// (loops kept rolled, so that each has one body and one back edge)
extern "C" __global__ void if_lanes(const int *in, int *out, unsigned mask, int work)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
    int acc = in[i];
    if (mask >> lane & 1u)
#pragma unroll 1
        for (int k = 0; k < work; k++)
            acc = acc * 3 + k;
    out[i] = acc;
}

extern "C" __global__ void loop_trips(const int *tab, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
    int n = tab[lane], acc = i;
#pragma unroll 1
    while (n > 0) {
        acc = acc * 5 + n;
        n--;
    }
    out[i] = acc;
}

// bit_serial (bench/unseen/unseen3.cu) and the same loop without BREV/FLO: lanes leave after
// popc(m) rounds. `kind` 0 visits bits with __ffs, 1 only clears them.
extern "C" __global__ void bits_loop(const int *in, int *out, int kind)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned m = (unsigned)in[i] * 2654435761u & 0x0f0f0f0fu;
    int acc = 0;
    if (kind == 0) {
        while (m) {
            int b = __ffs(m) - 1;
            acc += b * b;
            m &= m - 1;
        }
    } else {
        while (m) {
            acc += (int)(m & 7u);
            m &= m - 1;
        }
    }
    out[i] = acc;
}

// One warp of bits_loop's kind 1 over in[off .. off + 31].
extern "C" __global__ void bits_one(const int *in, int *out, int off)
{
    unsigned m = (unsigned)in[off + threadIdx.x] * 2654435761u & 0x0f0f0f0fu;
    int acc = 0;
    while (m) {
        acc += (int)(m & 7u);
        m &= m - 1;
    }
    out[off + threadIdx.x] = acc;
}
