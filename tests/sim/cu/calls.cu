// calls.cu — a non-inlined __device__ function (call/ret with .param passing) reading
// through generic pointers into shared, global and local memory (cvta to and from the
// windows), and a per-thread array indexed dynamically (local memory).
__device__ __noinline__ int accumulate(const int *p, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

extern "C" __global__ void generic_calls(const int *in, int *out)
{
    __shared__ int sh[64];
    int t = threadIdx.x;
    sh[t] = in[t] * 2;
    __syncthreads();
    int local[8];
    for (int k = 0; k < 8; k++)
        local[k] = in[(t + k) & 63] + k;
    int a = accumulate(sh, t & 7);
    int b = accumulate(in, t & 3);
    int c = accumulate(local, (in[t] & 7) + 1);
    out[t] = a * 1000 + b * 10 + c;
}

// Recursion: nvcc keeps it a real call; the simulator refuses it with a located error.
__device__ int fib(int n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

extern "C" __global__ void recursive(const int *in, int *out)
{
    out[threadIdx.x] = fib(in[threadIdx.x] & 7);
}
