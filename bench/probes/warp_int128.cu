#include <cuda_fp16.h>
#include <cuda_bf16.h>
extern "C" __global__ void warp(const int *in, int *out, long long *lo, double *dd, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
    int a = in[i], b = in[(i + 11) % n];
    int k = 0, m = 0;
    out[n * k++ + i] = __shfl_sync(0xffffffff, a, b & 31, 8);
    out[n * k++ + i] = __shfl_up_sync(0xffffffff, a, 3, 16);
    out[n * k++ + i] = __shfl_down_sync(0xffffffff, a, 5, 4);
    out[n * k++ + i] = __shfl_xor_sync(0xffffffff, a, 6, 16);
    lo[n * m++ + i] = __shfl_xor_sync(0xffffffff, (long long)a * b, 9);
    dd[i] = __shfl_sync(0xffffffff, (double)a / 7.0, (lane * 7) & 31);
    unsigned r = 0;
    if (a & 1) {
        r = __ballot_sync(__activemask(), b & 2);
        r ^= __reduce_add_sync(__activemask(), (unsigned)b & 0xff);
        r ^= (unsigned)__reduce_min_sync(__activemask(), b) ^ (unsigned)__reduce_max_sync(__activemask(), a);
        r ^= __reduce_or_sync(__activemask(), (unsigned)a) + __reduce_xor_sync(__activemask(), (unsigned)b);
    } else {
        r = __match_any_sync(__activemask(), (long long)(b & 3) << 33);
        unsigned long long x = (unsigned long long)(a & 7);
        int pred;
        r += __match_all_sync(__activemask(), x, &pred) + pred;
    }
    out[n * k++ + i] = (int)r;
    out[n * k++ + i] = __any_sync(0xffffffff, a > 1000000) + 2 * __all_sync(0xffffffff, a > -2000000000);
    out[n * k++ + i] = __mul24(a, b) + __umul24((unsigned)a, (unsigned)b);
    out[n * k++ + i] = __hadd(a, b) ^ (int)__uhadd((unsigned)a, (unsigned)b) ^ (int)__urhadd((unsigned)a, (unsigned)b);
    out[n * k++ + i] = (int)__usad((unsigned)a, (unsigned)b, 7u) + abs(a % 1000);
    out[n * k++ + i] = (int)__fns((unsigned)a, (unsigned)(b & 31), (b >> 5) % 5 - 2);
    unsigned bf;
    asm("bfe.u32 %0, %1, %2, %3;" : "=r"(bf) : "r"((unsigned)a), "r"((unsigned)b & 31), "r"(((unsigned)b >> 5) & 31));
    out[n * k++ + i] = (int)bf;
    int bs;
    asm("bfe.s32 %0, %1, %2, %3;" : "=r"(bs) : "r"(a), "r"((unsigned)b & 31), "r"(((unsigned)b >> 8) & 15));
    out[n * k++ + i] = bs;
    unsigned bi;
    asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(bi) : "r"((unsigned)a), "r"((unsigned)b), "r"((unsigned)a & 31), "r"(((unsigned)a >> 5) & 31));
    out[n * k++ + i] = (int)bi;
    out[n * k++ + i] = (int)__byte_perm((unsigned)a, (unsigned)b, 0x5173) ^ (int)__byte_perm((unsigned)a, (unsigned)b, (unsigned)b);
    lo[n * m++ + i] = llabs((long long)a * 3) + llmin((long long)a << 20, (long long)b << 21) - (long long)umax((unsigned)a, (unsigned)b);
    lo[n * m++ + i] = (long long)__brevll(((unsigned long long)a << 32) | (unsigned)b) ^ __popcll((unsigned long long)a * b);
    __int128 p = (__int128)((long long)a * 1000003) * (long long)b;
    lo[n * m++ + i] = (long long)(p >> 40) ^ (long long)(p / 1000000007);
    lo[n * m++ + i] = (long long)((unsigned __int128)p % 998244353u);
    out[n * k++ + i] = (int)(((long long)a * b) / ((b & 0xfff) - 2048 | 1)) + (int)(((long long)a << 10) % ((b | 1)));
}
extern "C" __global__ void mem(const int *in, int *sout, unsigned *wrap, unsigned long long *ull,
                               float *fx, double *dx, int4 *v4, double2 *d2, char4 *c4, int n)
{
    __shared__ int s[64];
    __shared__ double sd[8];
    __shared__ unsigned long long sc[4];
    int i = blockIdx.x * blockDim.x + threadIdx.x, t = threadIdx.x;
    int a = in[i];
    if (t < 64) s[t] = 0;
    if (t < 8) sd[t] = 0.0;
    if (t < 4) sc[t] = 0;
    __syncthreads();
    atomicMin(&s[a & 63], a);
    atomicMax(&s[(a >> 6) & 63], a >> 3);
    atomicAdd(&sd[a & 7], 0.5);
    unsigned long long old = sc[a & 3], as;
    do { as = old; old = atomicCAS(&sc[a & 3], as, as + (unsigned)(a & 0xff)); } while (old != as);
    atomicInc(&wrap[a & 3], 17u);
    atomicDec(&wrap[4 + (a & 3)], 13u);
    atomicAnd(&ull[0], ~(1ull << (a & 63)));
    atomicOr(&ull[1], 1ull << ((a >> 6) & 63));
    atomicXor(&ull[2], (unsigned long long)a * 0x9e3779b97f4a7c15ull);
    atomicMax(&ull[3], (unsigned long long)(unsigned)a * 77);
    atomicExch(&fx[i % 7], (float)a);
    atomicAdd(&dx[a & 3], 0.25);
    __syncthreads();
    if (t < 64) atomicAdd(&sout[t], s[t]);
    if (t < 8) atomicAdd(&dx[4 + t], sd[t]);
    if (t < 4) atomicAdd(&ull[4 + t], sc[t]);
    int4 v = __ldg(&v4[i]);
    v.x += v.w; v.y ^= v.z;
    __stcs(&v4[n + i], v);
    double2 q = __ldcs(&d2[i]);
    q.x = q.x * 2 + q.y;
    __stwt(&d2[n + i], q);
    char4 c = c4[i];
    c.x = (char)(c.x + c.w); c.z = (char)(c.y ^ c.z);
    c4[n + i] = c;
}
