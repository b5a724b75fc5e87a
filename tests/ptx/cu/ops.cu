// ops.cu — a wide sample of CUDA C operations, so the front-end tests see the instruction
// forms nvcc emits for ordinary kernels (math library, conversions, 64-bit, warp intrinsics).
#include <cstdint>

__global__ void float_math(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = in[i];
    float y = sqrtf(x) + expf(x) + logf(x + 1.0f) + sinf(x) + cosf(x) + powf(x, 1.5f);
    y += __fdividef(x, y + 1.0f) + x / (y + 2.0f) + rsqrtf(x + 3.0f) + fabsf(-x) + floorf(x);
    y += fminf(x, y) + fmaxf(x, y) + copysignf(x, -y) + (isfinite(y) ? 1.0f : 0.0f);
    y += __saturatef(x) + exp2f(x) + log2f(x + 2.0f) + tanhf(x) + truncf(x) + roundf(x);
    out[i] = y + (float)__float2int_rn(x) + (float)(unsigned)x;
}

__global__ void double_math(const double *in, double *out, long long *li, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double x = in[i];
    double y = sqrt(x) + x / (x + 1.0) + exp(x) + log(x + 1.0) + fma(x, x, 1.0) + fabs(x);
    y += fmin(x, y) + fmax(x, y) + 1.0 / (y + 3.0) + floor(x) + ceil(x);
    out[i] = y;
    long long a = li[i], b = li[i + n];
    li[i] = a * b + a / (b | 1) + a % (b | 1) + (a >> 3) + ((unsigned long long)a >> 5) +
            __popcll(a) + __clzll(b) + (long long)x + (long long)(float)x + min(a, b) + llabs(a);
}

__global__ void int_ops(const int *in, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int a = in[i], b = in[i + n];
    unsigned u = (unsigned)a;
    unsigned r = u / ((unsigned)b | 1u) + u % 7u + (unsigned)(a / (b | 1)) + (unsigned)(a % 5);
    r += __umulhi(u, 0x9E3779B9u) + (unsigned)__mulhi(a, b) + __brev(u) + __popc(u) + __clz(a);
    r += __ffs(a) + __byte_perm(u, (unsigned)b, 0x3210) + __funnelshift_l(u, (unsigned)b, 7);
    r += (unsigned)abs(a) + (unsigned)max(a, b) + min(u, 9u) + (unsigned)__sad(a, b, 0u);
    r ^= (u << (b & 31)) | (u >> 3);
    unsigned short s = (unsigned short)u;
    signed char c = (signed char)a;
    r += s + c + (unsigned)((int64_t)a * b >> 32);
    r += (unsigned)clock() + (unsigned)clock64();
    out[i] = r;
}

__global__ void warp_and_atomics(int *ip, unsigned *up, float *fp, double *dp,
                                 unsigned long long *ull)
{
    int t = threadIdx.x;
    __shared__ int s[256];
    __shared__ unsigned long long sl[32];
    s[t] = t;
    __syncthreads();
    int v = s[(t + 1) & 255];
    v += __shfl_sync(0xffffffff, v, 3) + __shfl_up_sync(0xffffffff, v, 1) +
         __shfl_xor_sync(0xffffffff, v, 16);
    v += __all_sync(0xffffffff, v > 0) + __any_sync(0xffffffff, v > 5) +
         __popc(__activemask()) + __reduce_max_sync(0xffffffff, (unsigned)v);
    unsigned lane;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    atomicAdd(ip, v);
    atomicSub(ip + 1, v);
    atomicMax(ip + 2, v);
    atomicMin(up, (unsigned)v);
    atomicInc(up + 1, 100u);
    atomicDec(up + 2, 100u);
    atomicExch(ip + 3, v);
    atomicAnd(ip + 4, v);
    atomicOr(ip + 5, v);
    atomicXor(ip + 6, v);
    atomicCAS(ull, 1ull, (unsigned long long)v);
    atomicAdd(fp, 1.5f);
    atomicAdd(dp, 2.5);
    atomicAdd(&s[lane], 1);
    atomicAdd(&sl[lane], 1ull);
    __threadfence();
    __threadfence_block();
    if (t < 32)
        __syncwarp(0xffffffff);
    __syncthreads();
    volatile int *vs = s;
    ip[t + 8] = vs[t ^ 1] + (int)__syncthreads_count(v > 2) + __syncthreads_or(v > 9);
}
