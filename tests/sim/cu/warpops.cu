// warpops.cu — warp-synchronous intrinsics (shfl, vote, ballot, match, redux) and
// atomics (int, double via atomicCAS) for the simulator's golden tests.
extern "C" __global__ void warp_ops(const unsigned *in, unsigned *out)
{
    int t = threadIdx.x;
    unsigned x = in[blockIdx.x * blockDim.x + t];
    unsigned *o = out + (blockIdx.x * blockDim.x + t) * 10;
    o[0] = __shfl_sync(0xffffffffu, x, (t * 7) & 31);
    o[1] = __shfl_up_sync(0xffffffffu, x, 3);
    o[2] = __shfl_down_sync(0xffffffffu, x, 5);
    o[3] = __shfl_xor_sync(0xffffffffu, x, 6);
    o[4] = __ballot_sync(0xffffffffu, x & 1);
    o[5] = __any_sync(0xffffffffu, x == 77) + 2 * __all_sync(0xffffffffu, x < 1000);
    o[6] = __match_any_sync(0xffffffffu, x & 3);
    o[7] = __reduce_add_sync(0xffffffffu, x);
    o[8] = __reduce_max_sync(0xffffffffu, x);
    o[9] = __shfl_sync(0xffffffffu, x, (t + 3) & 7, 8);
}

// Lanes 0..19 of each warp only: warp operations under a partial mask.
extern "C" __global__ void partial_ops(const unsigned *in, unsigned *out)
{
    int t = threadIdx.x;
    unsigned x = in[t];
    if ((t & 31) < 20) {
        unsigned m = __activemask();
        out[t * 3 + 0] = m;
        out[t * 3 + 1] = __ballot_sync(m, x & 1);
        out[t * 3 + 2] = __reduce_add_sync(m, x);
    }
}

__device__ double atomic_add_double(double *addr, double v)
{
    unsigned long long *p = (unsigned long long *)addr;
    unsigned long long old = *p, assumed;
    do {
        assumed = old;
        old = atomicCAS(p, assumed, __double_as_longlong(v + __longlong_as_double(assumed)));
    } while (assumed != old);
    return __longlong_as_double(old);
}

extern "C" __global__ void atomics(const int *in, int *isum, double *dsum, int *hist, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(isum, in[i]);
        atomicMax(isum + 1, in[i]);
        atomic_add_double(dsum, in[i] * 0.5);
        atomicAdd(&hist[in[i] & 7], 1);
    }
}

// match.all with its predicate, vote.uni, and the logic/min reductions.
extern "C" __global__ void warp_ops2(const unsigned *in, unsigned *out)
{
    int t = threadIdx.x;
    unsigned x = in[t];
    unsigned *o = out + t * 8;
    int p1, p2;
    o[0] = __match_all_sync(0xffffffffu, x >> 5, &p1);
    o[1] = p1;
    o[2] = __match_all_sync(0xffffffffu, x >> 4, &p2);
    o[3] = p2;
    o[4] = __uni_sync(0xffffffffu, x & 1) + 2 * __uni_sync(0xffffffffu, x >> 5);
    o[5] = __reduce_or_sync(0xffffffffu, x) ^ __reduce_and_sync(0xffffffffu, x | 0xf0u);
    o[6] = __reduce_xor_sync(0xffffffffu, x * 2654435761u);
    o[7] = (unsigned)__reduce_min_sync(0xffffffffu, (int)x - 40);
}
