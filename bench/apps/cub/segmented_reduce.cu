// segmented_reduce.cu — cub::DeviceSegmentedReduce: Sum and Max over segments of uneven
// length (some empty); checked against per-segment loops on the host.
#include <cub/device/device_segmented_reduce.cuh>
#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

int main()
{
    const int n = 1 << 17;
    std::vector<int> a(n), off;
    uint32_t s = 17;
    for (int i = 0; i < n; i++) { s = s * 1664525u + 1013904223u; a[i] = (int)(s >> 20) - 2048; }
    off.push_back(0);
    while (off.back() < n) {
        s = s * 1664525u + 1013904223u;
        int len = (s >> 24) % 5 == 0 ? 0 : (int)((s >> 8) % 3000);  // some empty segments
        off.push_back(std::min(n, off.back() + len));
    }
    int nseg = (int)off.size() - 1;
    int *d_a, *d_off, *d_sum, *d_max;
    CK(cudaMalloc(&d_a, n * 4)); CK(cudaMalloc(&d_off, off.size() * 4));
    CK(cudaMalloc(&d_sum, nseg * 4)); CK(cudaMalloc(&d_max, nseg * 4));
    CK(cudaMemcpy(d_a, a.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_off, off.data(), off.size() * 4, cudaMemcpyHostToDevice));
    size_t bytes = 0, b;
    CK(cub::DeviceSegmentedReduce::Sum(nullptr, b, d_a, d_sum, nseg, d_off, d_off + 1)); bytes = std::max(bytes, b);
    CK(cub::DeviceSegmentedReduce::Max(nullptr, b, d_a, d_max, nseg, d_off, d_off + 1)); bytes = std::max(bytes, b);
    void *tmp;
    CK(cudaMalloc(&tmp, bytes));
    b = bytes; CK(cub::DeviceSegmentedReduce::Sum(tmp, b, d_a, d_sum, nseg, d_off, d_off + 1));
    b = bytes; CK(cub::DeviceSegmentedReduce::Max(tmp, b, d_a, d_max, nseg, d_off, d_off + 1));
    std::vector<int> sum(nseg), mx(nseg);
    CK(cudaMemcpy(sum.data(), d_sum, nseg * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(mx.data(), d_max, nseg * 4, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int g = 0; g < nseg && !bad; g++) {
        int rs = 0, rm = INT_MIN;  // an empty segment's max is the identity, INT_MIN
        for (int i = off[g]; i < off[g + 1]; i++) { rs += a[i]; rm = std::max(rm, a[i]); }
        if (sum[g] != rs || mx[g] != rm) { printf("segment %d: sum %d/%d max %d/%d\n", g, sum[g], rs, mx[g], rm); bad++; }
    }
    printf("%s segmented_reduce (%d segments)\n", bad ? "FAIL" : "PASS", nseg);
    return bad != 0;
}
