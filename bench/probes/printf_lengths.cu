#include <cstdio>
extern "C" __global__ void ll(const int *i) { int k = i[threadIdx.x]; printf("a|%lld|%llu|%lx|\n", (long long)k * 1000003, (unsigned long long)k * 77, (long)k * 3); }
extern "C" __global__ void sh(const int *i) { int k = i[threadIdx.x]; printf("b|%hd|%hhu|%ld|\n", (short)k, (unsigned char)k, (long)k); }
extern "C" __global__ void str(const int *i) { int k = i[threadIdx.x]; printf("c|%s|\n", k & 1 ? "odd" : "even"); }
extern "C" __global__ void ptr(const int *i) { printf("d|%p|%p|\n", (void *)0, (void *)i); }
extern "C" __global__ void prec(const int *i) { printf("e|%5.1s|%%|\n", "xyz"); }
extern "C" __global__ void inf(const float *f) { float x = f[threadIdx.x]; printf("f|%g|%g|%f|%+.0f|%#.0f|\n", x / 0.0f, -x / 0.0f, 0.0 / ((double)x - x), x, x); }
