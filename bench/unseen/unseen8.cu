// unseen8.cu — an eighth set of kernels written as a new user would, after the timing model
// learned what a spin lock costs (docs/results/locks-h200.txt), to see how it does on locks it
// was not fitted to: a hash table whose 64 buckets each have a lock, a lock that only each
// warp's first lane takes (after a warp reduction), locks released without a fence, and
// locks given back by a plain store instead of atomicExch. bench/unseen/unseen8.spec launches
// them; docs/results/unseen-kernels-h200.txt has what an H200 and the model gave.

// Each thread files its key in one of 64 buckets, each bucket behind its own lock (the 64
// locks side by side): the bucket's count and the key, then a fence and the release.
extern "C" __global__ void bucket_insert(const int *in, int *locks, int *counts, int *slots, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int key = in[t];
    int b = (int)(((unsigned)key * 2654435761u) >> 26);
    bool done = false;
    while (!done) {
        if (atomicCAS(&locks[b], 0, 1) == 0) {
            volatile int *c = counts;
            int k = c[b];
            ((volatile int *)slots)[b * 64 + (k & 63)] = key;
            c[b] = k + 1;
            __threadfence();
            atomicExch(&locks[b], 0);
            done = true;
        }
    }
}

// A warp sums its values with shuffles; its first lane alone takes the lock and adds the sum.
extern "C" __global__ void leader_lock(const int *in, int *lock, int *total, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int v = t < n ? in[t] & 1023 : 0;
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    if ((threadIdx.x & 31) == 0) {
        while (atomicCAS(lock, 0, 1) != 0)
            ;
        volatile int *s = total;
        *s = *s + v;
        __threadfence();
        atomicExch(lock, 0);
    }
}

// 16 locks 128 bytes apart, each with its counter beside it; the holder adds 1 and gives the
// lock back with no fence before the atomicExch.
extern "C" __global__ void lock_nofence(const int *in, int *locks, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int *l = locks + ((in[t] >> 3) & 15) * 32;
    bool done = false;
    while (!done) {
        if (atomicCAS(l, 0, 1) == 0) {
            volatile int *c = l + 1;
            *c = *c + 1;
            atomicExch(l, 0);
            done = true;
        }
    }
}

// 4 locks in one word each of one sector, given back by a plain volatile store after a fence
// (no atomicExch); the counters in another buffer.
extern "C" __global__ void store_release(const int *in, int *locks, int *counters, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int b = in[t] & 3;
    bool done = false;
    while (!done) {
        if (atomicCAS(&locks[b], 0, 1) == 0) {
            volatile int *c = counters;
            c[b] = c[b] + 1;
            __threadfence();
            ((volatile int *)locks)[b] = 0;
            done = true;
        }
    }
}
