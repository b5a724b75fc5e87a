// placement.cu — where the block scheduler puts a launch's CTAs and when each one runs: every
// CTA records the SM it ran on (%smid) and its first and last nanosecond (%globaltimer), around
// a fixed amount of work: `chase` (bench/calib local_chase's pointer chase through a 32-word
// ring in local memory, LDL after LDL) or `spin` (a clock64() wait of SPIN cycles, no memory).
// bench/placement.sh runs it on the GPU and tallies CTAs per SM.
#include "../calib/ring_chase.cuh" /* bench/calib local_chase's chase */

__device__ __forceinline__ unsigned smid()
{
    unsigned s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    return s;
}

__device__ __forceinline__ unsigned long long nsmid_nwarpid()
{
    unsigned s, w;
    asm volatile("mov.u32 %0, %%nsmid;" : "=r"(s));
    asm volatile("mov.u32 %0, %%nwarpid;" : "=r"(w));
    return (unsigned long long)(s & 0xffff) << 32 | (unsigned long long)(w & 0xffff) << 48;
}

__device__ __forceinline__ unsigned long long now()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// where[3 x CTA]: SM (with %nsmid in bits 32-47 and %nwarpid in 48-63), start ns, end ns
// (the end after every thread of the CTA is done).
__device__ __forceinline__ void record(unsigned long long *where, unsigned long long t0)
{
    __syncthreads();
    if (threadIdx.x == 0) {
        where[3 * blockIdx.x] = smid() | nsmid_nwarpid();
        where[3 * blockIdx.x + 1] = t0;
        where[3 * blockIdx.x + 2] = now();
    }
}

extern "C" __global__ void chase(unsigned long long *where, int *out, int zero)
{
    unsigned long long t0 = now();
    int j = ring_chase(zero);
    out[blockIdx.x * blockDim.x + threadIdx.x] = j;
    record(where, t0);
}

extern "C" __global__ void spin(unsigned long long *where, int *out, int zero)
{
    unsigned long long t0 = now();
    long long c0 = clock64();
    while (clock64() - c0 < SPIN)
        ;
    out[blockIdx.x * blockDim.x + threadIdx.x] = zero;
    record(where, t0);
}
