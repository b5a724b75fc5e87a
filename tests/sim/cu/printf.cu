// printf.cu — device printf (a call of vprintf with a local argument buffer): every
// conversion nvcc passes (int, unsigned, long long, double, char, string, pointer, '*'
// width), under divergence, without arguments, and a kernel that prints past the limit.
#include <cstdio>

extern "C" __global__ void prints(const int *x, const float *f, const char *s)
{
    int t = threadIdx.x;
    int n = printf("t%d x=%5d f=%.3f e=%e s=%s c=%c u=%u h=%#x ll=%lld w=%*d p%%\n", t, x[t],
                   f[t], (double)f[t] * 1e10, s, 'A' + t, (unsigned)-t, t * 255,
                   (long long)x[t] * 1099511627776LL, 4, t); // @full
    if (t & 1)
        printf("odd %d of %s\n", t, t > 2 ? "many" : "few"); // @odd
    printf("plain\n");
    if (t == 0)
        printf("returned %d\n", n);
    if (t == 0) /* CUDA's host formatter, as glibc, prints a null %p as (nil) */
        printf("nil=%p|%8p|\n", (void *)0, (void *)0);
    if (t < 2)
        printf("short %hd %hhd %hu %hhx %-6s|\n", x[t], x[t], x[t], x[t], "ab");
}

extern "C" __global__ void floods(int lines)
{
    for (int i = 0; i < lines; i++)
        printf("block %4d thread %4d line %4d of a long run\n", blockIdx.x, threadIdx.x, i);
}
