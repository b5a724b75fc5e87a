// adjacent_difference.cu — cub::DeviceAdjacentDifference: SubtractLeftCopy of ints and
// SubtractRight (in place) of floats with a custom operator; checked on the host.
#include <cub/device/device_adjacent_difference.cuh>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

struct AbsDiff {
    __host__ __device__ float operator()(float a, float b) const { return a > b ? a - b : b - a; }
};

int main()
{
    const int n = (1 << 18) + 3;
    std::vector<int> a(n);
    std::vector<float> f(n);
    uint32_t s = 29;
    for (int i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u;
        a[i] = (int)(s >> 4);
        f[i] = (float)(s >> 16);
    }
    int *d_a, *d_o;
    float *d_f;
    CK(cudaMalloc(&d_a, n * 4)); CK(cudaMalloc(&d_o, n * 4)); CK(cudaMalloc(&d_f, n * 4));
    CK(cudaMemcpy(d_a, a.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_f, f.data(), n * 4, cudaMemcpyHostToDevice));
    size_t bytes = 0, b;
    CK(cub::DeviceAdjacentDifference::SubtractLeftCopy(nullptr, b, d_a, d_o, n)); bytes = std::max(bytes, b);
    CK(cub::DeviceAdjacentDifference::SubtractRight(nullptr, b, d_f, n, AbsDiff())); bytes = std::max(bytes, b);
    void *tmp;
    CK(cudaMalloc(&tmp, bytes ? bytes : 1));
    b = bytes; CK(cub::DeviceAdjacentDifference::SubtractLeftCopy(tmp, b, d_a, d_o, n));
    b = bytes; CK(cub::DeviceAdjacentDifference::SubtractRight(tmp, b, d_f, n, AbsDiff()));
    std::vector<int> o(n);
    std::vector<float> fo(n);
    CK(cudaMemcpy(o.data(), d_o, n * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(fo.data(), d_f, n * 4, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++)
        if (o[i] != (i ? a[i] - a[i - 1] : a[0])) { printf("SubtractLeftCopy wrong at %d\n", i); bad++; break; }
    for (int i = 0; i < n; i++)
        if (fo[i] != (i + 1 < n ? AbsDiff()(f[i], f[i + 1]) : f[i])) {
            printf("SubtractRight wrong at %d\n", i); bad++; break;
        }
    printf("%s adjacent_difference\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
