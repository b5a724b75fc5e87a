// casloop.cu — compare-and-swap retry loops (the CUDA Programming Guide's atomicAdd through
// atomicCAS) in the shapes that decide how a warp's lanes regroup around the loop: which
// lanes the GPU issues together when a lane succeeds, goes round its outer loop and comes
// back while the others still retry. Every thread adds 1 ITEMS times to one of BINS
// counters (BINS = 1: every lane of the grid on one address).
//   plain   the loop as written: old = *addr, retry until the CAS returns the guess
//   vote    the same with __activemask() in the retry loop (a warp vote inside the loop)
//   carry   the guess comes from the thread's last success, not from a load
#ifndef ITEMS
#define ITEMS 10
#endif
#ifndef BINS
#define BINS 1
#endif

__device__ __forceinline__ int *bin_of(int *cnt, int i)
{
    return &cnt[(int)((threadIdx.x * 7u + (unsigned)i) % BINS)];
}

extern "C" __global__ void cas_plain(int *cnt, unsigned *sink)
{
    for (int i = 0; i < ITEMS; i++) {
        int *a = bin_of(cnt, i);
        int old = *a, guess;
        do {
            guess = old;
            old = atomicCAS(a, guess, guess + 1);
        } while (guess != old);
    }
}

extern "C" __global__ void cas_vote(int *cnt, unsigned *sink)
{
    unsigned acc = 0;
    for (int i = 0; i < ITEMS; i++) {
        int *a = bin_of(cnt, i);
        int old = *a, guess;
        do {
            guess = old;
            acc += __activemask();
            old = atomicCAS(a, guess, guess + 1);
        } while (guess != old);
    }
    sink[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

extern "C" __global__ void cas_carry(int *cnt, unsigned *sink)
{
    int old = 0, guess;
    for (int i = 0; i < ITEMS; i++) {
        int *a = bin_of(cnt, i);
        do {
            guess = old;
            old = atomicCAS(a, guess, guess + 1);
        } while (guess != old);
        old = guess + 1;
    }
}
