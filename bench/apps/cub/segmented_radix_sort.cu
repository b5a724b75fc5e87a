// segmented_radix_sort.cu — cub::DeviceSegmentedRadixSort: SortPairs (u32 keys, int values)
// and SortKeysDescending within segments of uneven length; checked against std::sort per
// segment on the host.
#include <cub/device/device_segmented_radix_sort.cuh>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

int main()
{
    const int n = 1 << 16;
    std::vector<uint32_t> k(n);
    std::vector<int> v(n), off;
    uint32_t s = 19;
    for (int i = 0; i < n; i++) { s = s * 1664525u + 1013904223u; k[i] = s ^ (s >> 15); v[i] = i; }
    off.push_back(0);
    while (off.back() < n) {  // short segments and a few long ones (both of CUB's paths)
        s = s * 1664525u + 1013904223u;
        int len = (s >> 28) == 0 ? 5000 + (int)((s >> 4) % 4000) : (int)((s >> 8) % 300);
        off.push_back(std::min(n, off.back() + len));
    }
    int nseg = (int)off.size() - 1;
    uint32_t *d_k, *d_ko;
    int *d_v, *d_vo, *d_off;
    CK(cudaMalloc(&d_k, n * 4)); CK(cudaMalloc(&d_ko, n * 4));
    CK(cudaMalloc(&d_v, n * 4)); CK(cudaMalloc(&d_vo, n * 4)); CK(cudaMalloc(&d_off, off.size() * 4));
    CK(cudaMemcpy(d_k, k.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_v, v.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_off, off.data(), off.size() * 4, cudaMemcpyHostToDevice));
    size_t bytes = 0, b;
    CK(cub::DeviceSegmentedRadixSort::SortPairs(nullptr, b, d_k, d_ko, d_v, d_vo, n, nseg, d_off, d_off + 1));
    bytes = std::max(bytes, b);
    CK(cub::DeviceSegmentedRadixSort::SortKeysDescending(nullptr, b, d_k, d_ko, n, nseg, d_off, d_off + 1));
    bytes = std::max(bytes, b);
    void *tmp;
    CK(cudaMalloc(&tmp, bytes));
    std::vector<uint32_t> ko(n), ref = k;
    std::vector<int> vo(n);
    int bad = 0;

    b = bytes; CK(cub::DeviceSegmentedRadixSort::SortPairs(tmp, b, d_k, d_ko, d_v, d_vo, n, nseg, d_off, d_off + 1));
    CK(cudaMemcpy(ko.data(), d_ko, n * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(vo.data(), d_vo, n * 4, cudaMemcpyDeviceToHost));
    for (int g = 0; g < nseg; g++) std::stable_sort(ref.begin() + off[g], ref.begin() + off[g + 1]);
    for (int i = 0; i < n; i++)
        if (ko[i] != ref[i] || vo[i] < 0 || vo[i] >= n || k[vo[i]] != ko[i]) {
            printf("SortPairs wrong at %d\n", i); bad++; break;
        }

    b = bytes; CK(cub::DeviceSegmentedRadixSort::SortKeysDescending(tmp, b, d_k, d_ko, n, nseg, d_off, d_off + 1));
    CK(cudaMemcpy(ko.data(), d_ko, n * 4, cudaMemcpyDeviceToHost));
    for (int g = 0; g < nseg; g++) std::sort(ref.begin() + off[g], ref.begin() + off[g + 1], std::greater<uint32_t>());
    if (ko != ref) { printf("SortKeysDescending wrong\n"); bad++; }
    printf("%s segmented_radix_sort (%d segments)\n", bad ? "FAIL" : "PASS", nseg);
    return bad != 0;
}
