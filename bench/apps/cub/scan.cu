// scan.cu — cub::DeviceScan: ExclusiveSum of u32 and InclusiveScan of floats with max;
// each checked against a running loop on the host.
#include <cub/device/device_scan.cuh>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

struct Max {
    __host__ __device__ float operator()(float a, float b) const { return a > b ? a : b; }
};

int main()
{
    const int n = (1 << 18) + 77;
    std::vector<uint32_t> a(n);
    std::vector<float> f(n);
    uint32_t s = 11;
    for (int i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u;
        a[i] = s >> 24;
        f[i] = (float)(s >> 12) * 0.5f;
    }
    uint32_t *d_a, *d_o;
    float *d_f, *d_fo;
    CK(cudaMalloc(&d_a, n * 4)); CK(cudaMalloc(&d_o, n * 4));
    CK(cudaMalloc(&d_f, n * 4)); CK(cudaMalloc(&d_fo, n * 4));
    CK(cudaMemcpy(d_a, a.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_f, f.data(), n * 4, cudaMemcpyHostToDevice));
    size_t bytes = 0, b;
    CK(cub::DeviceScan::ExclusiveSum(nullptr, b, d_a, d_o, n)); bytes = std::max(bytes, b);
    CK(cub::DeviceScan::InclusiveScan(nullptr, b, d_f, d_fo, Max(), n)); bytes = std::max(bytes, b);
    void *tmp;
    CK(cudaMalloc(&tmp, bytes));
    b = bytes; CK(cub::DeviceScan::ExclusiveSum(tmp, b, d_a, d_o, n));
    b = bytes; CK(cub::DeviceScan::InclusiveScan(tmp, b, d_f, d_fo, Max(), n));
    std::vector<uint32_t> o(n);
    std::vector<float> fo(n);
    CK(cudaMemcpy(o.data(), d_o, n * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(fo.data(), d_fo, n * 4, cudaMemcpyDeviceToHost));
    int bad = 0;
    uint32_t run = 0;
    float m = f[0];
    for (int i = 0; i < n; i++) {
        if (o[i] != run) { printf("ExclusiveSum wrong at %d\n", i); bad++; break; }
        run += a[i];
    }
    for (int i = 0; i < n; i++) {
        m = Max()(m, f[i]);
        if (fo[i] != m) { printf("InclusiveScan(max) wrong at %d\n", i); bad++; break; }
    }
    printf("%s scan\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
