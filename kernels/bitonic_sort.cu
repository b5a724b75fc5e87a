// bitonic_sort.cu — bitonic sort of N = 2^LOG2N unsigned keys, ascending, after the CUDA
// samples' sortingNetworks: the host runs stage k = 2, 4, ..., N and in each stage step
// j = k/2, ..., 1, one launch per step; a step compares every pair (i, i^j) and orders
// it ascending where bit k of i is clear, descending where it is set. Variants:
//   naive   bitonic_step: one thread per key; only the lower key of a pair (i^j > i)
//           works, so half the threads idle and, for j < 32, every warp diverges
//   pairs   bitonic_pair: one thread per pair (the lower index made from the thread's
//           by inserting a zero bit at j), min/max instead of a conditional swap
//   shared  the pairs kernel for j >= 2^LOG2S; stages k <= 2^LOG2S and the steps
//           j < 2^LOG2S of every later stage run inside one launch in shared memory
//           (bitonic_shared_sort, bitonic_shared_merge: 2^LOG2S keys per block)

#ifndef LOG2N
#define LOG2N 12
#endif
#ifndef LOG2S
#define LOG2S 9 // keys per block of the shared kernels: 2^LOG2S, with 2^(LOG2S-1) threads
#endif

#define SKEYS (1u << LOG2S)

// The lower index of pair `t` of step j: t with a zero bit inserted at j's position.
__device__ inline unsigned pair_low(unsigned t, unsigned j) { return ((t & ~(j - 1)) << 1) | (t & (j - 1)); }

// Orders keys a (at index i) and b (at i + j) for stage k: ascending when bit k of i is 0.
__device__ inline void order(unsigned &a, unsigned &b, unsigned i, unsigned k)
{
    unsigned lo = min(a, b), hi = max(a, b);
    bool up = (i & k) == 0;
    a = up ? lo : hi;
    b = up ? hi : lo;
}

// ---------------------------------------------------------------- naive: a thread per key
__global__ void bitonic_step(unsigned *keys, unsigned k, unsigned j)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned partner = i ^ j;
    if (partner > i) {
        unsigned a = keys[i], b = keys[partner];
        if ((i & k) == 0) {
            if (a > b) {
                keys[i] = b;
                keys[partner] = a;
            }
        } else if (a < b) {
            keys[i] = b;
            keys[partner] = a;
        }
    }
}

// ---------------------------------------------------------------- pairs: a thread per pair
__global__ void bitonic_pair(unsigned *keys, unsigned k, unsigned j)
{
    unsigned i = pair_low(blockIdx.x * blockDim.x + threadIdx.x, j);
    unsigned a = keys[i], b = keys[i + j];
    order(a, b, i, k);
    keys[i] = a;
    keys[i + j] = b;
}

// ---------------------------------------------------------------- shared: many steps per launch
// Steps j = j0, j0/2, ..., 1 of stage k on the block's SKEYS keys in shared memory `s`.
__device__ void shared_steps(unsigned *s, unsigned base, unsigned k, unsigned j0)
{
    for (unsigned j = j0; j > 0; j >>= 1) {
        __syncthreads();
        unsigned i = pair_low(threadIdx.x, j);
        unsigned a = s[i], b = s[i + j];
        order(a, b, base + i, k);
        s[i] = a;
        s[i + j] = b;
    }
}

// Stages k = 2 .. SKEYS within each block's keys (whose directions alternate by block).
__global__ void bitonic_shared_sort(unsigned *keys)
{
    __shared__ unsigned s[SKEYS];
    unsigned base = blockIdx.x * SKEYS, t = threadIdx.x;
    s[t] = keys[base + t];
    s[t + SKEYS / 2] = keys[base + t + SKEYS / 2];
    for (unsigned k = 2; k <= SKEYS; k <<= 1)
        shared_steps(s, base, k, k >> 1);
    __syncthreads();
    keys[base + t] = s[t];
    keys[base + t + SKEYS / 2] = s[t + SKEYS / 2];
}

// Steps j = SKEYS/2 .. 1 of stage k (> SKEYS): the pairs left inside one block's keys.
__global__ void bitonic_shared_merge(unsigned *keys, unsigned k)
{
    __shared__ unsigned s[SKEYS];
    unsigned base = blockIdx.x * SKEYS, t = threadIdx.x;
    s[t] = keys[base + t];
    s[t + SKEYS / 2] = keys[base + t + SKEYS / 2];
    shared_steps(s, base, k, SKEYS / 2);
    __syncthreads();
    keys[base + t] = s[t];
    keys[base + t + SKEYS / 2] = s[t + SKEYS / 2];
}
