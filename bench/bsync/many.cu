// many.cu — bench/bsync/seq.cu with up to eight groups: one warp whose lanes leave a loop at
// successive trips in groups of given sizes (contiguous lanes; bounds c1..c7 as in seq.cu),
// in a rolled loop (many_rolled: a countdown, as pipes.cu's cnt_rolled) and an unrolled
// compare loop (many_match: seq.cu's seq_match). bench/bsync/many.spec,
// docs/results/unseen-kernels-h200.txt.
__device__ int many_trips(int lane, int c1, int c2, int c3, int c4, int c5, int c6, int c7)
{
    return 1 + (lane >= c1) + (lane >= c2) + (lane >= c3) + (lane >= c4) + (lane >= c5) +
           (lane >= c6) + (lane >= c7);
}

extern "C" __global__ void many_rolled(unsigned *out, int c1, int c2, int c3, int c4, int c5,
                                       int c6, int c7)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int n = many_trips(threadIdx.x & 31, c1, c2, c3, c4, c5, c6, c7);
    unsigned sum = 0;
#pragma unroll 1
    for (int count = 0; count < 12; count++) {
        unsigned v = (unsigned)count;
        int left = n;
#pragma unroll 1
        do {
            v = (v ^ (v >> 3)) * 0x9e3779b1u + (unsigned)left;
            left--;
        } while (left > 0);
        sum += v;
    }
    out[t] = sum;
}

extern "C" __global__ void many_match(unsigned char *scratch, unsigned *out, int c1, int c2,
                                      int c3, int c4, int c5, int c6, int c7)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int n = many_trips(threadIdx.x & 31, c1, c2, c3, c4, c5, c6, c7);
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
