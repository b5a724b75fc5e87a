// seq.cu — one warp whose lanes leave a loop at successive trips in groups of given sizes
// (contiguous lanes: the first g1 lanes after 1 trip, the next g2 after 2, ...; the bounds
// c1..c4 are g1, g1+g2, ...), with no branch before the loop: how often does the GPU issue
// the BSYNC where they meet? seq_rolled is trips.cu's alu_trips (a rolled loop the lanes
// leave by falling through its back edge), seq_match its match_trips (an unrolled compare
// loop they leave by forward branches). bench/bsync/seq.spec,
// docs/results/unseen-kernels-h200.txt.
__device__ int seq_trips(int lane, int c1, int c2, int c3, int c4)
{
    return 1 + (lane >= c1) + (lane >= c2) + (lane >= c3) + (lane >= c4);
}

extern "C" __global__ void seq_rolled(unsigned *out, int c1, int c2, int c3, int c4)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int n = seq_trips(threadIdx.x & 31, c1, c2, c3, c4);
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
    out[t] = sum;
}

extern "C" __global__ void seq_match(unsigned char *scratch, unsigned *out, int c1, int c2,
                                     int c3, int c4)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int n = seq_trips(threadIdx.x & 31, c1, c2, c3, c4);
    unsigned char *p = scratch + (size_t)t * 64;
    for (int k = 0; k < 32; k++) {
        p[k] = (unsigned char)(k & 0x7f);
        p[32 + k] = (unsigned char)(k < n - 1 ? k & 0x7f : (k & 0x7f) ^ 1);
    }
    unsigned best = 0;
    for (int c = 0; c < 12; c++) {
        int len = 0;
        while (len < 16 && p[len] == p[32 + len])
            len++;
        best += (unsigned)(len * (c + 1));
        out[t] = best; /* may alias p: the next compare loop reads p again */
    }
}
