// val_cas.cu — validation CAS loops (bench/validation, not a seed): N items, each adding
// (or taking the max of) a small integer value into one of ADDRS words picked by a random
// slot, by BLOCKS x THREADS threads in a grid-stride loop. Each type has its native atomic
// and an atomicCAS retry loop written three ways (do-while on the returned value, while
// with a reload at the top, a loop that skips the CAS when the max already holds), so the
// model's CAS retry cost is judged by type and contention (ADDRS) on code it was not fitted
// to. Values are small integers, so every sum is exact in f32 and f64 whatever the order.

#ifndef N
#define N 262144
#endif
#ifndef ADDRS
#define ADDRS 64
#endif
#ifndef BLOCKS
#define BLOCKS 264
#endif
#ifndef THREADS
#define THREADS 256
#endif

#define FOR_ITEMS(i) for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)

// ---------------------------------------------------------------- double add
__global__ void vc_f64_native(const int *slot, const int *val, double *out)
{
    FOR_ITEMS(i) atomicAdd(&out[slot[i]], (double)val[i]);
}

// do-while on the value atomicCAS returns (the Programming Guide's shape)
__global__ void vc_f64_cas(const int *slot, const int *val, double *out)
{
    FOR_ITEMS(i) {
        unsigned long long *w = (unsigned long long *)&out[slot[i]];
        double v = (double)val[i];
        unsigned long long seen = *w, expect;
        do {
            expect = seen;
            seen = atomicCAS(w, expect, __double_as_longlong(__longlong_as_double((long long)expect) + v));
        } while (seen != expect);
    }
}

// ---------------------------------------------------------------- float add (32-bit CAS)
__global__ void vc_f32_native(const int *slot, const int *val, float *out)
{
    FOR_ITEMS(i) atomicAdd(&out[slot[i]], (float)val[i]);
}

// while loop with a volatile reload at the top of every try
__global__ void vc_f32_cas(const int *slot, const int *val, float *out)
{
    FOR_ITEMS(i) {
        unsigned *w = (unsigned *)&out[slot[i]];
        float v = (float)val[i];
        while (1) {
            unsigned cur = *(volatile unsigned *)w;
            if (atomicCAS(w, cur, __float_as_uint(__uint_as_float(cur) + v)) == cur)
                break;
        }
    }
}

// ---------------------------------------------------------------- 64-bit integer add
__global__ void vc_u64_native(const int *slot, const int *val, unsigned long long *out)
{
    FOR_ITEMS(i) atomicAdd(&out[slot[i]], (unsigned long long)val[i]);
}

// do-while, the expected value carried over from the failed CAS
__global__ void vc_u64_cas(const int *slot, const int *val, unsigned long long *out)
{
    FOR_ITEMS(i) {
        unsigned long long *w = &out[slot[i]], v = (unsigned long long)val[i];
        unsigned long long old = *w, got;
        while ((got = atomicCAS(w, old, old + v)) != old)
            old = got;
    }
}

// ---------------------------------------------------------------- 64-bit integer max
__global__ void vc_max_native(const int *slot, const int *val, long long *out)
{
    FOR_ITEMS(i) atomicMax(&out[slot[i]], (long long)val[i] * (i + 1));
}

// CAS loop that gives up as soon as the word already holds a value at least as large
__global__ void vc_max_cas(const int *slot, const int *val, long long *out)
{
    FOR_ITEMS(i) {
        unsigned long long *w = (unsigned long long *)&out[slot[i]];
        long long v = (long long)val[i] * (i + 1);
        long long old = (long long)*w;
        while (old < v) {
            long long got = (long long)atomicCAS(w, (unsigned long long)old, (unsigned long long)v);
            if (got == old)
                break;
            old = got;
        }
    }
}
