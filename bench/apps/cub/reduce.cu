// reduce.cu — cub::DeviceReduce: Sum of ints, ArgMax of floats, and Reduce with a custom
// operator (the largest absolute value); each checked against a loop on the host.
#include <cub/device/device_reduce.cuh>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

struct MaxAbs {
    __host__ __device__ int operator()(int a, int b) const
    {
        int x = a < 0 ? -a : a, y = b < 0 ? -b : b;
        return x > y ? x : y;
    }
};

int main()
{
    const int n = 1 << 18;
    std::vector<int> a(n);
    std::vector<float> f(n);
    uint32_t s = 7;
    for (int i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u;
        a[i] = (int)(s >> 16) % 2001 - 1000;
        f[i] = (float)((s >> 8) % 100000) * 0.25f;
    }
    f[12345] = 1e9f;
    int *d_a, *d_sum, *d_red;
    float *d_f, *d_max;
    int64_t *d_idx;
    CK(cudaMalloc(&d_a, n * 4)); CK(cudaMalloc(&d_f, n * 4));
    CK(cudaMalloc(&d_sum, 4)); CK(cudaMalloc(&d_red, 4));
    CK(cudaMalloc(&d_max, 4)); CK(cudaMalloc(&d_idx, 8));
    CK(cudaMemcpy(d_a, a.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_f, f.data(), n * 4, cudaMemcpyHostToDevice));

    size_t bytes = 0, b;
    CK(cub::DeviceReduce::Sum(nullptr, b, d_a, d_sum, n)); bytes = std::max(bytes, b);
    CK(cub::DeviceReduce::ArgMax(nullptr, b, d_f, d_max, d_idx, n)); bytes = std::max(bytes, b);
    CK(cub::DeviceReduce::Reduce(nullptr, b, d_a, d_red, n, MaxAbs(), 0)); bytes = std::max(bytes, b);
    void *tmp;
    CK(cudaMalloc(&tmp, bytes));
    b = bytes; CK(cub::DeviceReduce::Sum(tmp, b, d_a, d_sum, n));
    b = bytes; CK(cub::DeviceReduce::ArgMax(tmp, b, d_f, d_max, d_idx, n));
    b = bytes; CK(cub::DeviceReduce::Reduce(tmp, b, d_a, d_red, n, MaxAbs(), 0));

    int sum, red;
    float mx;
    int64_t idx;
    CK(cudaMemcpy(&sum, d_sum, 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&red, d_red, 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&mx, d_max, 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&idx, d_idx, 8, cudaMemcpyDeviceToHost));
    int rsum = 0, rred = 0;
    for (int i = 0; i < n; i++) { rsum += a[i]; rred = MaxAbs()(rred, a[i]); }
    int bad = 0;
    if (sum != rsum) { printf("Sum %d, expected %d\n", sum, rsum); bad++; }
    if (red != rred) { printf("Reduce(MaxAbs) %d, expected %d\n", red, rred); bad++; }
    if (idx != 12345 || mx != 1e9f) { printf("ArgMax %lld %g\n", (long long)idx, mx); bad++; }
    printf("%s reduce\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
