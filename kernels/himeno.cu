// himeno.cu — seed 001 (Tabaru, Nakahira), the Himeno benchmark on the GPU: one Jacobi
// sweep of himenoBMTxpa.c's jacobi() (19-point Poisson stencil, single precision) with its
// error sum `gosa`. One thread per grid point, THREADS along k (the seed: 128 along x, 1 along
// y and z). The two variants differ only in the reduction of gosa, the seed's patterns:
//   jacobi_atomicAddW  (1) warp-aggregated atomicAddW (the Fig. 5 shuffle version, float)
//   jacobi_atomic      (2) one plain atomicAdd per grid point, all on one address
// The CPU patterns (5) serial and (6) OpenMP are the C references in kernels/ref/himeno.c.
// Sizes are Himeno's (imax x jmax x kmax): XS 32x32x64 (default), S 64x64x128.

#ifndef IMAX
#define IMAX 32
#endif
#ifndef JMAX
#define JMAX 32
#endif
#ifndef KMAX
#define KMAX 64
#endif
#define OMEGA 0.8f

// Element (i, j, k) of an IMAX x JMAX x KMAX array, k fastest (Himeno's layout).
#define AT(m, i, j, k) (m)[((i) * JMAX + (j)) * KMAX + (k)]

// jacobi()'s loop body at interior point (i, j, k): writes wrk2 and returns ss (gosa += ss*ss).
__device__ float jacobi_point(int i, int j, int k, const float *p,
                              const float *a0, const float *a1, const float *a2, const float *a3,
                              const float *b0, const float *b1, const float *b2,
                              const float *c0, const float *c1, const float *c2,
                              const float *wrk1, const float *bnd, float *wrk2)
{
    float s0 = AT(a0, i, j, k) * AT(p, i + 1, j, k)
             + AT(a1, i, j, k) * AT(p, i, j + 1, k)
             + AT(a2, i, j, k) * AT(p, i, j, k + 1)
             + AT(b0, i, j, k) * (AT(p, i + 1, j + 1, k) - AT(p, i + 1, j - 1, k)
                                - AT(p, i - 1, j + 1, k) + AT(p, i - 1, j - 1, k))
             + AT(b1, i, j, k) * (AT(p, i, j + 1, k + 1) - AT(p, i, j - 1, k + 1)
                                - AT(p, i, j + 1, k - 1) + AT(p, i, j - 1, k - 1))
             + AT(b2, i, j, k) * (AT(p, i + 1, j, k + 1) - AT(p, i - 1, j, k + 1)
                                - AT(p, i + 1, j, k - 1) + AT(p, i - 1, j, k - 1))
             + AT(c0, i, j, k) * AT(p, i - 1, j, k)
             + AT(c1, i, j, k) * AT(p, i, j - 1, k)
             + AT(c2, i, j, k) * AT(p, i, j, k - 1)
             + AT(wrk1, i, j, k);
    float ss = (s0 * AT(a3, i, j, k) - AT(p, i, j, k)) * AT(bnd, i, j, k);
    AT(wrk2, i, j, k) = AT(p, i, j, k) + OMEGA * ss;
    return ss;
}

// Seed 001 Fig. 5's atomicAddW for a float: lanes with the same address are summed in the
// warp (shuffles) and the lowest of them does the one atomicAdd.
__device__ float atomicAddW(float *addr, float data)
{
    int addrH = (int)((unsigned long long)addr >> 32);
    int addrL = (int)(unsigned long long)addr;
    int laneID;
    asm("mov.s32 %0, %%laneid;" : "=r"(laneID));
    unsigned mask = __activemask();
    int writerID = laneID;
    float sum = 0.0f;

    unsigned active = __brev(mask);
    for (int aID = __popc(active); aID--;) {
        int rID = __clz(active);
        active ^= 1u << (warpSize - 1 - rID);
        int sameL = addrL == __shfl_sync(mask, addrL, rID);
        int sameH = addrH == __shfl_sync(mask, addrH, rID);
        float dataI = __shfl_sync(mask, data, rID);
        if (sameL && sameH) {
            if (laneID < rID)
                sum += dataI;
            if (rID < writerID)
                writerID = rID;
        }
    }
    float oldValue = 0.0f;
    if (writerID == laneID)
        oldValue = atomicAdd(addr, sum + data);
    oldValue = __shfl_sync(mask, oldValue, writerID);
    return oldValue + sum;
}

// The grid point of this thread; 0 when it is on the boundary or outside (no work).
__device__ int interior_point(int *i, int *j, int *k)
{
    *k = blockIdx.x * blockDim.x + threadIdx.x;
    *j = blockIdx.y;
    *i = blockIdx.z;
    return *i >= 1 && *i <= IMAX - 2 && *j >= 1 && *j <= JMAX - 2 && *k >= 1 && *k <= KMAX - 2;
}

// Pattern (1): gosa through atomicAddW.
__global__ void jacobi_atomicAddW(const float *p,
                                  const float *a0, const float *a1, const float *a2, const float *a3,
                                  const float *b0, const float *b1, const float *b2,
                                  const float *c0, const float *c1, const float *c2,
                                  const float *wrk1, const float *bnd, float *wrk2, float *gosa)
{
    int i, j, k;
    if (!interior_point(&i, &j, &k))
        return;
    float ss = jacobi_point(i, j, k, p, a0, a1, a2, a3, b0, b1, b2, c0, c1, c2, wrk1, bnd, wrk2);
    atomicAddW(gosa, ss * ss);
}

// Pattern (2): gosa through one plain atomicAdd per point.
__global__ void jacobi_atomic(const float *p,
                              const float *a0, const float *a1, const float *a2, const float *a3,
                              const float *b0, const float *b1, const float *b2,
                              const float *c0, const float *c1, const float *c2,
                              const float *wrk1, const float *bnd, float *wrk2, float *gosa)
{
    int i, j, k;
    if (!interior_point(&i, &j, &k))
        return;
    float ss = jacobi_point(i, j, k, p, a0, a1, a2, a3, b0, b1, b2, c0, c1, c2, wrk1, bnd, wrk2);
    atomicAdd(gosa, ss * ss);
}
