// recursion.cu — recursive device functions whose lanes reach different depths, for the
// SASS model's convergence barriers across calls: ptxas saves the caller's barrier
// registers at a callee's entry (BMOV.32.CLEAR), takes them for the callee's own
// BSSY/BSYNC, and restores them before the RET, while lanes that left early wait at the
// caller's BSYNC. tests/gpu/recursion.spec runs them on the GPU; test_cli_recursion holds
// the model to the per-PC counts CUPTI gave (tests/gpu/recursion-h200.txt).

// A linear recursion, depth 0..7 by lane: the result comes back through every frame.
__device__ __noinline__ int chain(const int *d, int n)
{
    if (n <= 0)
        return d[0] & 1;
    return chain(d, n - 1) * 3 + n;
}

extern "C" __global__ void rec_chain(const int *in, int *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = chain(in, in[t] & 7);
}

// A double recursion (fib(0..7) by lane): lanes leave at different depths of two calls.
__device__ __noinline__ int fib(int n)
{
    if (n < 2)
        return n;
    return fib(n - 1) + fib(n - 2);
}

extern "C" __global__ void rec_fib(const int *in, int *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = fib(in[t] & 7);
}

// A loop around a recursive call (what ptxas makes of a quicksort's second, tail call):
// the loop's BSSY/BSYNC and the callee's share a barrier register.
__device__ __noinline__ int split(const int *d, int lo, int hi)
{
    int s = 1;
    while (hi - lo > 1) {
        int mid = lo + 1 + (d[lo] & 0xff) % (hi - lo - 1);
        s += split(d, lo, mid);
        lo = mid;
    }
    return s;
}

extern "C" __global__ void rec_loop(const int *in, int *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = split(in + (t & 31), 0, (in[t] & 7) + 2);
}

// The same loop with the split point computed (no load before the call).
__device__ __noinline__ int split_alu(int seed, int lo, int hi)
{
    int s = 1;
    while (hi - lo > 1) {
        int h = (seed ^ (lo * 40503)) * 2654435761u >> 7;
        int mid = lo + 1 + (h & 0xff) % (hi - lo - 1);
        s += split_alu(seed, lo, mid);
        lo = mid;
    }
    return s;
}

extern "C" __global__ void rec_loop_alu(const int *in, int *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = split_alu(in[(t + 64) & 127], 0, (in[t] & 7) + 2);
}

// The same recursion with a depth that every lane of a warp shares: no lane waits for
// another across a call.
extern "C" __global__ void rec_uniform(const int *in, int *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = fib(in[t >> 5] & 7) + chain(in, in[t >> 5] & 7);
}

// Which lanes reach the BSYNC first: with `mode` 1, the lanes that recurse first chase eight
// dependent loads, so the others (n = 0) wait at the BSYNC when the callee saves and clears
// the barrier register; with mode 2 the lanes that stop chase the loads instead; with mode 3
// the lanes that recurse first run 64 dependent multiply-adds (no load to wait for).
__device__ __noinline__ int rclear(const int *d, int n, int mode, int p)
{
    if (n <= 0) {
        if (mode == 2)
            for (int k = 0; k < 8; k++)
                p = d[p & 127];
        return p + 1;
    }
    if (mode == 1)
        for (int k = 0; k < 8; k++)
            p = d[p & 127];
    if (mode == 3)
        for (int k = 0; k < 64; k++)
            p = p * (p | 1) + k;
    return rclear(d, n - 1, 0, p) + n;
}

extern "C" __global__ void rec_clear(const int *in, int *out, int mode)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    out[t] = rclear(in, lane < 16 ? 0 : 1 + (lane & 1), mode, in[t & 127]);
}
