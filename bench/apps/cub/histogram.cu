// histogram.cu — cub::DeviceHistogram: HistogramEven of u8 samples into 256 bins and
// HistogramRange of floats into uneven bins; checked against counting on the host.
#include <cub/device/device_histogram.cuh>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

int main()
{
    const int n = 1 << 18, nlevels_r = 9;
    std::vector<uint8_t> u(n);
    std::vector<float> f(n);
    uint32_t s = 9;
    for (int i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u;
        u[i] = (uint8_t)((s >> 24) ^ (s >> 13));
        f[i] = (float)(s >> 8) / 16777216.0f * 12.0f - 1.0f;  // [-1, 11)
    }
    float levels[nlevels_r] = {0.0f, 0.5f, 1.0f, 2.0f, 3.5f, 5.0f, 7.0f, 9.0f, 10.0f};
    uint8_t *d_u;
    float *d_f, *d_levels;
    int *d_he, *d_hr;
    CK(cudaMalloc(&d_u, n)); CK(cudaMalloc(&d_f, n * 4)); CK(cudaMalloc(&d_levels, sizeof levels));
    CK(cudaMalloc(&d_he, 256 * 4)); CK(cudaMalloc(&d_hr, (nlevels_r - 1) * 4));
    CK(cudaMemcpy(d_u, u.data(), n, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_f, f.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_levels, levels, sizeof levels, cudaMemcpyHostToDevice));
    size_t bytes = 0, b;
    CK(cub::DeviceHistogram::HistogramEven(nullptr, b, d_u, d_he, 257, 0, 256, n)); bytes = std::max(bytes, b);
    CK(cub::DeviceHistogram::HistogramRange(nullptr, b, d_f, d_hr, nlevels_r, d_levels, n)); bytes = std::max(bytes, b);
    void *tmp;
    CK(cudaMalloc(&tmp, bytes));
    b = bytes; CK(cub::DeviceHistogram::HistogramEven(tmp, b, d_u, d_he, 257, 0, 256, n));
    b = bytes; CK(cub::DeviceHistogram::HistogramRange(tmp, b, d_f, d_hr, nlevels_r, d_levels, n));
    std::vector<int> he(256), hr(nlevels_r - 1), rhe(256, 0), rhr(nlevels_r - 1, 0);
    CK(cudaMemcpy(he.data(), d_he, 256 * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hr.data(), d_hr, (nlevels_r - 1) * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        rhe[u[i]]++;
        for (int j = 0; j < nlevels_r - 1; j++)
            if (f[i] >= levels[j] && f[i] < levels[j + 1]) { rhr[j]++; break; }
    }
    int bad = 0;
    if (he != rhe) { printf("HistogramEven wrong\n"); bad++; }
    if (hr != rhr) { printf("HistogramRange wrong\n"); bad++; }
    printf("%s histogram\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
