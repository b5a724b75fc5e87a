// timing_kernels.cu — kernels with known timing shape for test_timing_model.c:
// `chain` is one long dependent multiply-add chain per thread; `indep` does the same
// number of multiply-adds as four independent chains.
#ifndef LEN
#define LEN 256
#endif
__global__ void chain(int *out)
{
    int x = threadIdx.x;
#pragma unroll 16
    for (int i = 0; i < LEN; i++)
        x = x * x + 7;
    out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

__global__ void indep(int *out)
{
    int a = threadIdx.x, b = a + 1, c = a + 2, d = a + 3;
#pragma unroll 4
    for (int i = 0; i < LEN / 4; i++) {
        a = a * a + 7; b = b * b + 7; c = c * c + 7; d = d * d + 7;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = a ^ b ^ c ^ d;
}

// `smem_sum`: shared loads, each feeding an add (ld, add, ld, add, ...): a warp can issue
// the next load while an add waits (sched.window > 1 overlaps them; 1 does not).
__global__ void smem_sum(int *out)
{
    __shared__ int sh[32];
    sh[threadIdx.x & 31] = threadIdx.x;
    __syncwarp();
    volatile int *v = sh; // one 32-bit load per element, in order
    int s = 0;
#pragma unroll
    for (int i = 0; i < 32; i++)
        s += v[i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// `loads`: a loop that is not unrolled, a load and an add per trip: nothing overlaps
// across the back edge, whatever the window.
__global__ void loads(int *out)
{
    int s = 0;
#pragma unroll 1
    for (int i = 0; i < LEN; i++)
        s += out[(i * 32 + threadIdx.x) % (gridDim.x * blockDim.x)];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// `skip`: a short branch body that no lane runs (a shared load and an add): the compiler
// predicates it, so it still issues (sched.ifconvert_max).
__global__ void skip(int *out)
{
    __shared__ int sh[LEN];
    for (int i = threadIdx.x; i < LEN; i += blockDim.x) sh[i] = i;
    __syncwarp();
    int s = 0, x = threadIdx.x;
#pragma unroll 1
    for (int i = 0; i < LEN; i++) {
        x = x * 5 + 1;
        if (x == -7) // never true for these x
            s += sh[i];
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = s + x;
}

// `same_int` / `same_float`: every lane adds to one address, int vs float.
__global__ void same_int(int *out)
{
    for (int i = 0; i < 16; i++) atomicAdd(out, 1);
}

__global__ void same_float(float *outf)
{
    for (int i = 0; i < 16; i++) atomicAdd(outf, 1.0f);
}

// `diverge`: a loop whose branch body is long (a load, arithmetic): the compiler does not
// predicate it, so each trip ends at its reconvergence point (BSSY/BSYNC in SASS).
__global__ void diverge(int *out)
{
    int s = 0, x = threadIdx.x;
#pragma unroll 1
    for (int i = 0; i < LEN; i++) {
        x = x * 5 + 1;
        if (x & 2) {
            s += out[(i + x) & 31];
            s ^= s >> 3;
            s = s * 7 + i;
            s -= x;
        }
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = s + x;
}

// `spin`: lanes take work from a shared counter until LEN items are gone: a loop left on an
// atomic's result, where the compiler places a YIELD.
__global__ void spin(int *out)
{
    __shared__ int next;
    if (threadIdx.x == 0) next = 0;
    __syncthreads();
    int s = 0, i;
    while ((i = atomicAdd(&next, 1)) < LEN) s += i;
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// `smem_conflict` / `smem_spread`: three independent shared loads a trip, summed, with the
// lanes 32 words apart (one bank: 32 wavefronts each) or side by side (one wavefront each).
// A warp's shared accesses are served in order, a wavefront a cycle: with the conflicts a
// trip waits for all 96 of its wavefronts.
__device__ void three_loads(int *out, int stride)
{
    __shared__ int sh[32 * 32];
    for (int i = threadIdx.x; i < 32 * 32; i += blockDim.x)
        sh[i] = i;
    __syncthreads();
    volatile int *v = sh;
    int lane = threadIdx.x & 31, s = 0;
#pragma unroll 1
    for (int i = 0; i < LEN; i++) {
        int at = lane * stride + (i & 7);
        s += v[at] + v[at + 8] + v[at + 16];
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__global__ void smem_conflict(int *out) { three_loads(out, 32); }
__global__ void smem_spread(int *out) { three_loads(out, 1); }

// `const_same` / `const_lanes`: a chain of constant-memory loads with a register index, every
// lane on one word or each lane on its own (32 distinct words a load: the constant cache
// serves them one after another).
__constant__ int ctab[64];

__global__ void const_same(int *out)
{
    int s = out[blockIdx.x * blockDim.x + threadIdx.x];
#pragma unroll 1
    for (int i = 0; i < LEN; i++)
        s += ctab[s & 63];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__global__ void const_lanes(int *out)
{
    int s = out[blockIdx.x * blockDim.x + threadIdx.x], lane = threadIdx.x & 31;
#pragma unroll 1
    for (int i = 0; i < LEN; i++)
        s += ctab[(s + lane) & 63];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// `l1_alias` / `l1_sectors`: the L1 the timing model keeps a CTA (timing_memcost.c,
// l1_touch). x is zero, so s stays 0 and every index below is the lane's or the trip's, but
// the compiler cannot hoist the loads. l1_alias: LEN trips over a word of each lane in two
// lines 64 KB apart, x[t] and x[t + 16384]; both stay in L1, so only the first trip's 8
// sectors come from the L2. l1_sectors: the warp walks one line word by word, all lanes on
// one word: each of its 4 sectors comes from the L2 once.
__global__ void l1_alias(const int *x, int *out)
{
    int s = 0, t = threadIdx.x & 31;
#pragma unroll 1
    for (int i = 0; i < LEN; i++)
        s += x[(t + s) & 31] + x[16384 + ((t + s) & 31)];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__global__ void l1_sectors(const int *x, int *out)
{
    int s = 0;
#pragma unroll 1
    for (int i = 0; i < 32; i++)
        s += x[(i + s) & 31];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
