// flow.cu — control-flow and source-line shapes for the PTX front-end tests.
// Lines marked with "// @name" are located by the test; do not rely on line numbers.

__device__ __forceinline__ int helper(int a)
{
    return a * 3 + 1; // @helper
}

__device__ __noinline__ int square_plus(int x)
{
    return x * x + 7; // @callee
}

__global__ void diamond(const int *in, int *out)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[tid];
    if (v & 4) { // @if
        for (int k = 0; k < v; k++) // @then
            out[tid] += k * v;
    } else {
        for (int k = 0; k < v + 3; k++) // @else
            out[tid + 4096] ^= k + v;
    }
    out[tid + 8192] = v; // @join
}

__global__ void loop(const int *in, int *out, int n)
{
    int acc = 0;
    for (int i = 0; i < n; i++) // @loop
        acc += in[i] * (int)threadIdx.x;
    out[threadIdx.x] = acc; // @after
}

__global__ void early_return(int *out)
{
    if (threadIdx.x == 0) // @early
        return;
    out[threadIdx.x] = 5; // @rest
}

__global__ void lines(const int *in, int *out)
{
    int v = helper(in[threadIdx.x]); // @call
    atomicAdd(out, v); // @atomic
    out[threadIdx.x + 1] = square_plus(v); // @callsite
}

__global__ void params(char c, double d, int i, int *p, short s, long long q)
{
    p[0] = c + (int)d + i + s + (int)q;
}

__global__ void shared_mem(int *out)
{
    __shared__ int a[64];
    __shared__ double b[16];
    extern __shared__ float dyn[];
    a[threadIdx.x % 64] = threadIdx.x;
    b[threadIdx.x % 16] = threadIdx.x;
    dyn[threadIdx.x] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = a[(threadIdx.x + 1) % 64] + (int)b[(threadIdx.x + 3) % 16] +
                       (int)dyn[(threadIdx.x + 1) % blockDim.x];
}

__global__ void warp_ops(const int *in, int *out, double *d)
{
    int v = in[threadIdx.x];
    v += __shfl_down_sync(0xffffffff, v, 4);
    unsigned b = __ballot_sync(0xffffffff, v > 3);
    int lane_mask = __match_any_sync(0xffffffff, v);
    int sum = __reduce_add_sync(0xffffffff, v);
    atomicAdd(d, (double)v);
    atomicCAS(out + 1, v, sum);
    __syncwarp();
    out[threadIdx.x] = v + b + lane_mask + sum + __popc(b) + __clz(v) + __brev(v);
}

struct Pair {
    int a;
    double b;
};

__device__ __forceinline__ void bump(int *p, int v)
{
    atomicAdd(p, v); // @bump
}

__global__ void nested_inline(int *out, Pair s)
{
    bump(out, s.a + (int)s.b); // @bumpcall
}

// Spin loops: a loop left on a value read from memory in it (SASS places a YIELD there).
__global__ void spin_cas(int *word, int v)
{
    int old = *word, assumed;
    do { // @cas
        assumed = old;
        old = atomicCAS(word, assumed, assumed + v);
    } while (old != assumed);
}

__global__ void spin_flag(const int *in, int *out, volatile int *flag)
{
    int i = threadIdx.x, s = 0;
    while (i < *flag) { // @flag
        s += in[i];
        i += blockDim.x;
    }
    out[threadIdx.x] = s;
}

// Loads in the body, but the loop is left on a counter: not a spin loop.
__global__ void counted_loads(const int *in, int *out, int n)
{
    int s = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x) // @counted
        if (in[i] > 3)
            s += in[i] * 2;
    out[threadIdx.x] = s;
}

// Left on a plain load (a search): plain loads may be assumed race-free, so no spin loop.
__global__ void search(const int *in, int *out, int n, int key)
{
    int i = threadIdx.x;
    while (i < n && in[i] != key) // @search
        i += blockDim.x;
    out[threadIdx.x] = i;
}
