// pipes.cu — bench/bsync/seq.cu's rolled loop with other bodies: does the BSYNC class follow
// the instructions the loop runs? cnt_rolled counts each lane's trips down with full-rate
// integer instructions only (no division, no MUFU); sfu_rolled adds a MUFU (a reciprocal
// square root) to every trip. The lanes leave in groups of given sizes (bounds c1..c4 as in
// seq.cu). bench/bsync/pipes.spec, docs/results/unseen-kernels-h200.txt.
__device__ int pipe_trips(int lane, int c1, int c2, int c3, int c4)
{
    return 1 + (lane >= c1) + (lane >= c2) + (lane >= c3) + (lane >= c4);
}

extern "C" __global__ void cnt_rolled(unsigned *out, int c1, int c2, int c3, int c4)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int n = pipe_trips(threadIdx.x & 31, c1, c2, c3, c4);
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

extern "C" __global__ void sfu_rolled(float *out, int c1, int c2, int c3, int c4)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int n = pipe_trips(threadIdx.x & 31, c1, c2, c3, c4);
    float sum = 0.0f;
#pragma unroll 1
    for (int count = 0; count < 12; count++) {
        float v = 1.0f + (float)count;
        int left = n;
#pragma unroll 1
        do {
            v = rsqrtf(v) * 3.0f + (float)left;
            left--;
        } while (left > 0);
        sum += v;
    }
    out[t] = sum;
}
