// unseen23.cu — a twenty-third set of kernels written as a new user would, before its first
// GPU run: lock-free updates made of atomicCAS, in shapes the earlier sets did not have: a
// packed 64-bit (min, max) pair per key, slots claimed bit by bit in a bitmap, a float add
// spread over 4096 bins, and pops from one lock-free stack. bench/unseen/unseen23.spec
// launches them; docs/results/unseen-kernels-h200.txt has what an H200 and the model gave.
// Every checked output is deterministic: which thread claims which bit or pops which node
// follows the GPU's timing, but the bitmap's count, the nodes popped and the pairs do not;
// the float bins are checked with a tolerance.

__device__ __forceinline__ unsigned hash32(unsigned x)
{
    x ^= x >> 15;
    x *= 0x2c1b3c6du;
    x ^= x >> 12;
    x *= 0x297a2d39u;
    x ^= x >> 15;
    return x;
}

// Each value goes to one of nkeys keys; the key's word packs (min << 32 | max) of the values
// seen, both 31-bit, starting from (0x7fffffff << 32 | 0).
extern "C" __global__ void minmax_pair(const unsigned *val, unsigned long long *pair, int n,
                                       int nkeys)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    unsigned v = val[t] & 0x7fffffffu;
    unsigned long long *p = &pair[hash32((unsigned)t) % (unsigned)nkeys];
    unsigned long long old = *p;
    while (true) {
        unsigned lo = (unsigned)(old >> 32), hi = (unsigned)old;
        if (lo <= v && v <= hi)
            break;
        unsigned long long want = (unsigned long long)min(lo, v) << 32 | max(hi, v);
        unsigned long long got = atomicCAS(p, old, want);
        if (got == old)
            break;
        old = got;
    }
}

// Each thread claims one free bit of the bitmap, starting at the word its hash names and
// moving on to the next word while the one it looks at is full.
extern "C" __global__ void bit_claim(unsigned *bits, int nwords, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int w = hash32((unsigned)t) % (unsigned)nwords;
    for (int tries = 0; tries < nwords; tries++) {
        unsigned cur = bits[w];
        while (cur != 0xffffffffu) {
            unsigned bit = __ffs(~cur) - 1;
            unsigned got = atomicCAS(&bits[w], cur, cur | (1u << bit));
            if (got == cur)
                return;
            cur = got;
        }
        w = (w + 1) % nwords;
    }
}

// The bitmap's set bits, counted.
extern "C" __global__ void bit_count(const unsigned *bits, int *total, int nwords)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nwords)
        atomicAdd(total, __popc(bits[i]));
}

// A float add written as a CAS loop (as before atomicAdd had floats), each value into one
// of 4096 bins by its hash.
extern "C" __global__ void cas_fadd_bins(const float *val, float *bins, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    float v = val[t];
    unsigned *b = (unsigned *)&bins[hash32((unsigned)t * 7u + 1u) & 4095u];
    unsigned old = *b, assumed;
    do {
        assumed = old;
        old = atomicCAS(b, assumed, __float_as_uint(__uint_as_float(assumed) + v));
    } while (old != assumed);
}

// Pops from a lock-free stack of nodes 0 .. nodes-1 (head = the top, next[i] = the node
// below); each thread pops one and adds its number to `sum` (the nodes popped are the top
// n whatever the order, so the sum is fixed).
extern "C" __global__ void stack_pop(int *head, const int *next, int *sum, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int top, below;
    do {
        top = *(volatile int *)head;
        if (top < 0)
            return;
        below = next[top];
    } while (atomicCAS(head, top, below) != top);
    atomicAdd(sum, top);
}
