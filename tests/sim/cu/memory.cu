// memory.cu — addressing and race-shadow cases found on real kernels: a shared-memory base
// below zero plus an offset (32-bit wrap), lanes writing different bytes of one word (not
// a race), two lanes writing one byte (a race), and an access before a buffer's start.
extern "C" __global__ void shared_wrap(const int *in, int *out, int k)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    if (t + 4 >= blockDim.x)
        return;
    int acc = 0;
#pragma unroll
    for (int j = 4; j < 8; j++)
        acc += s[t - k + j]; // @wrap: [base+16] with base = &s - 4*k
    out[t] = acc;
}

extern "C" __global__ void byte_flags(unsigned char *flags, int *out)
{
    __shared__ unsigned char s[256];
    int t = threadIdx.x;
    s[t] = (unsigned char)t;           // one byte per lane: four lanes share a word
    flags[blockIdx.x * 256 + t] = (unsigned char)(t & 1); // the same in global (a BFS mask)
    __syncthreads();
    out[blockIdx.x * 256 + t] = s[255 - t] + flags[blockIdx.x * 256 + t];
}

extern "C" __global__ void byte_race(unsigned char *flags)
{
    flags[threadIdx.x / 2] = (unsigned char)threadIdx.x; // @byterace: two lanes per byte
}

extern "C" __global__ void underflow(const int *S, const int *J, int *out, int back)
{
    out[threadIdx.x] = S[threadIdx.x] + J[(int)threadIdx.x - back]; // @under
}
