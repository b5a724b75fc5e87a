// partition.cu — cub::DevicePartition::If: the items below a threshold first, in order, the
// rest after them in reverse order; checked against the host.
#include <cub/device/device_partition.cuh>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

struct Below {
    float t;
    __host__ __device__ bool operator()(float x) const { return x < t; }
};

int main()
{
    const int n = (1 << 17) + 5;
    std::vector<float> a(n);
    uint32_t s = 5;
    for (int i = 0; i < n; i++) { s = s * 1664525u + 1013904223u; a[i] = (float)(s >> 8) / 16777216.0f; }
    float *d_a, *d_out;
    int *d_n;
    CK(cudaMalloc(&d_a, n * 4)); CK(cudaMalloc(&d_out, n * 4)); CK(cudaMalloc(&d_n, 4));
    CK(cudaMemcpy(d_a, a.data(), n * 4, cudaMemcpyHostToDevice));
    Below pred{0.3f};
    size_t bytes;
    CK(cub::DevicePartition::If(nullptr, bytes, d_a, d_out, d_n, n, pred));
    void *tmp;
    CK(cudaMalloc(&tmp, bytes));
    CK(cub::DevicePartition::If(tmp, bytes, d_a, d_out, d_n, n, pred));
    int sel;
    std::vector<float> o(n), ref;
    CK(cudaMemcpy(&sel, d_n, 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(o.data(), d_out, n * 4, cudaMemcpyDeviceToHost));
    for (float x : a) if (pred(x)) ref.push_back(x);
    int nsel = (int)ref.size();
    for (int i = n - 1; i >= 0; i--) if (!pred(a[i])) ref.push_back(a[i]);
    int bad = sel != nsel || o != ref;
    if (bad) printf("Partition::If wrong (%d selected, expected %d)\n", sel, nsel);
    printf("%s partition\n", bad ? "FAIL" : "PASS");
    return bad;
}
