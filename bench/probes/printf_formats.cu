#include <cstdio>
extern "C" __global__ void fmts(const float *f, const double *d, const int *i, int n)
{
    int t = threadIdx.x;
    if (t >= n) return;
    float x = f[t]; double y = d[t]; int k = i[t];
    printf("t%02d |%d|%5d|%-5d|%+d|%05d|%x|%X|%#x|%o|%u|%c|\n", t, k, k % 1000, k % 100, k, k % 10000, k, k, k, k & 0777, (unsigned)k, 'A' + (t % 26));
    printf("t%02d |%f|%.2f|%10.3f|%-10.1f|%e|%.3E|%g|%G|%.10g|%a|\n", t, x, x, y, x, y, y, x, y, y, y);
    printf("t%02d |%lld|%llu|%lx|%hd|%hhu|%ld|%s|%p|%%|%5.1s|\n", t, (long long)k * 1000003, (unsigned long long)k * 77, (long)k * 3, (short)k, (unsigned char)k, (long)k, t & 1 ? "odd" : "even", (void *)0, "xyz");
    printf("t%02d |%8.3e|%-12g|%+.0f|%#.0f|%.0e|%g|%g|%f|\n", t, x * 1e-30, y * 1e20, x, x, y, x / 0.0f, -x / 0.0f, 0.0 / (y - y));
}
