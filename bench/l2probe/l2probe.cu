// l2probe.cu — how long one SM waits on one L2 line, for every pair of SM and line: does a
// line's round trip depend on which SM asks (the L2's slices sit at different distances from
// each SM)? CTAs of one thread take turns (a ticket in `turn`: every CTA is resident at
// once, one per SM at this grid), so only one SM loads at a time. Each first brings the
// lines into the L2, then for each line times 16 dependent L2 loads (ld.global.cg: past the
// L1) of the same word: the 15 round trips between the clock reads are the line's latency.
// bench/l2probe/l2probe.spec; docs/results/cas-loops-h100.txt has what an H200 gave.
extern "C" __global__ void l2_spread(const int *ring, unsigned *lat, unsigned *where, int *turn,
                                     int nlines)
{
    if (threadIdx.x != 0)
        return;
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    while (atomicAdd(turn, 0) != (int)blockIdx.x)
        ;
    int j = 0; // every word of the ring is 0, which the compiler cannot know
    for (int i = 0; i < nlines; i++)
        j += __ldcg(&ring[i * 32 + j]);
    for (int i = 0; i < nlines; i++) {
        const int *p = &ring[i * 32];
        long long t0 = clock64();
        int x = j;
#pragma unroll
        for (int h = 0; h < 16; h++)
            x = __ldcg(p + x);
        long long t1 = clock64();
        j = x;
        lat[blockIdx.x * nlines + i] = (unsigned)(t1 - t0);
    }
    where[blockIdx.x] = sm | (unsigned)j; /* j is 0: it keeps the loads */
    __threadfence();
    atomicAdd(turn, 1);
}

// CAS requests on one word, LANES lanes of every warp retrying an increment REPS times: what
// one request costs the word's unit, by the request or by the lane. `tries` holds each
// thread's attempts; CUPTI's per-PC count of the ATOMG is the warp requests.
// reps increments of *w through a CAS loop; returns the attempts made.
__device__ __forceinline__ unsigned cas_increments(unsigned *w, int reps)
{
    unsigned n = 0;
    for (int r = 0; r < reps; r++) {
        unsigned old = *(volatile unsigned *)w, assumed;
        do {
            assumed = old;
            old = atomicCAS(w, assumed, assumed + 1);
            n++;
        } while (old != assumed);
    }
    return n;
}

extern "C" __global__ void cas_lanes(unsigned *word, unsigned *tries, int lanes, int reps)
{
    if ((int)(threadIdx.x & 31) >= lanes)
        return;
    tries[blockIdx.x * blockDim.x + threadIdx.x] = cas_increments(word, reps);
}

// CAS requests whose 32 lanes are on 32 different words, `stride` words apart, every warp on
// the same 32 (lane l on word l x stride): whether a request's words pass the L2 one after
// another or side by side, by how far apart they are (a line, a sector each, a line each,
// 1 KB each). `tries` holds each thread's attempts.
extern "C" __global__ void cas_stride(unsigned *word, unsigned *tries, int stride, int reps)
{
    tries[blockIdx.x * blockDim.x + threadIdx.x] =
        cas_increments(word + (threadIdx.x & 31) * stride, reps);
}
