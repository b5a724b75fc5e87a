// history.cu — does a warp's earlier divergence change how often the GPU issues a later
// loop's BSYNC? bench/bsync/trips.cu's rolled loop (alu_trips) misses the GPU's count only
// for the trip patterns whose trips_of() is compiled with a divergent branch (9, 10, 23).
// Here the trip counts are computed without a branch, and a setup step before the loop
// splits the warp on purpose by a lane mask `smask`:
//   hist_loop: the lanes in smask make 1 + extra trips of a register loop, the others one;
//   hist_skip: the lanes in smask branch forward past a register loop that the others run;
//   hist_mskip: hist_skip's setup before trips.cu's match_trips loop (an unrolled compare
//   loop the lanes leave by forward branches) instead of the rolled one.
// In both, the lanes in smask meet the others last at the setup's BSYNC (as pattern 9's
// lanes 0-19 do in trips.cu). bench/bsync/history.spec, docs/results/unseen-kernels-h200.txt.
__device__ int flat_trips(int lane, int pat)
{
    switch (pat) { // pat is the same for the whole warp: no lane diverges here
    case 0: return 1 + lane % 5;
    case 3: return 1 + (lane >= 16);
    case 6: return 1 + lane / 8;
    case 22: return 1 + (lane >= 16) + (lane >= 30) + (lane >= 31);
    default: return 1 + (lane >= 20) + (lane >= 26) + (lane >= 30) + (lane >= 31); // 9
    }
}

__device__ unsigned trips_loop(int n)
{
    unsigned sum = 0;
    int pos = 0;
    for (int count = 0; count < 12 && pos < 64; count++) {
        unsigned v = 0, b;
        int shift = 0;
        do {
            b = (unsigned)((pos % n == n - 1 ? 0x00 : 0x80) | (pos & 0x7f));
            pos++;
            v |= (b & 0x7fu) << shift;
            shift += 7;
        } while ((b & 0x80u) && pos < 64 && shift < 35);
        sum += v * (unsigned)(count + 1);
    }
    return sum;
}

extern "C" __global__ void hist_loop(unsigned *out, int pat, unsigned smask, int extra)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
    int n = flat_trips(lane, pat);
    unsigned acc = (unsigned)lane;
    int m = 1 + (int)((smask >> lane) & 1u) * extra;
#pragma unroll 1
    for (int i = 0; i < m; i++)
        acc = acc * 2654435761u + (unsigned)i;
    out[t] = trips_loop(n) ^ acc;
}

extern "C" __global__ void hist_skip(unsigned *out, int pat, unsigned smask, int extra)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
    int n = flat_trips(lane, pat);
    unsigned acc = (unsigned)lane;
    if (!((smask >> lane) & 1u))
#pragma unroll 1
        for (int i = 0; i < extra; i++)
            acc = acc * 2654435761u + (unsigned)i;
    out[t] = trips_loop(n) ^ acc;
}

extern "C" __global__ void hist_mskip(unsigned char *scratch, unsigned *out, int pat,
                                      unsigned smask, int extra)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
    int n = flat_trips(lane, pat);
    unsigned acc = (unsigned)lane;
    if (!((smask >> lane) & 1u))
#pragma unroll 1
        for (int i = 0; i < extra; i++)
            acc = acc * 2654435761u + (unsigned)i;
    unsigned char *p = scratch + (size_t)t * 64;
    for (int k = 0; k < 32; k++) {
        p[k] = (unsigned char)(k & 0x7f);
        p[32 + k] = (unsigned char)(k < n - 1 ? k & 0x7f : (k & 0x7f) ^ 1);
    }
    unsigned best = acc;
    for (int c = 0; c < 12; c++) {
        int len = 0;
        while (len < 16 && p[len] == p[32 + len])
            len++;
        best += (unsigned)(len * (c + 1));
        out[t] = best; /* may alias p: the next compare loop reads p again */
    }
}
