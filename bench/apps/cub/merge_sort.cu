// merge_sort.cu — cub::DeviceMergeSort: SortPairs of (float key, int value) with a custom
// comparator, and StableSortKeys of u64 by their low 32 bits; checked on the host.
#include <cub/device/device_merge_sort.cuh>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

struct Less {
    __host__ __device__ bool operator()(float a, float b) const { return a < b; }
};
struct LowLess {
    __host__ __device__ bool operator()(uint64_t a, uint64_t b) const { return (uint32_t)a < (uint32_t)b; }
};

int main()
{
    const int n = (1 << 16) + 123;
    std::vector<float> k(n);
    std::vector<int> v(n);
    std::vector<uint64_t> w(n);
    uint32_t s = 23;
    for (int i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u;
        k[i] = (float)(s >> 9) - 4194304.0f;
        v[i] = i;
        w[i] = ((uint64_t)i << 32) | (s >> 22);  // many equal low words: stability shows
    }
    float *d_k;
    int *d_v;
    uint64_t *d_w;
    CK(cudaMalloc(&d_k, n * 4)); CK(cudaMalloc(&d_v, n * 4)); CK(cudaMalloc(&d_w, n * 8));
    CK(cudaMemcpy(d_k, k.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_v, v.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_w, w.data(), n * 8, cudaMemcpyHostToDevice));
    size_t bytes = 0, b;
    CK(cub::DeviceMergeSort::SortPairs(nullptr, b, d_k, d_v, n, Less())); bytes = std::max(bytes, b);
    CK(cub::DeviceMergeSort::StableSortKeys(nullptr, b, d_w, n, LowLess())); bytes = std::max(bytes, b);
    void *tmp;
    CK(cudaMalloc(&tmp, bytes));
    b = bytes; CK(cub::DeviceMergeSort::SortPairs(tmp, b, d_k, d_v, n, Less()));
    b = bytes; CK(cub::DeviceMergeSort::StableSortKeys(tmp, b, d_w, n, LowLess()));
    std::vector<float> ko(n);
    std::vector<int> vo(n);
    std::vector<uint64_t> wo(n), rw = w;
    CK(cudaMemcpy(ko.data(), d_k, n * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(vo.data(), d_v, n * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(wo.data(), d_w, n * 8, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++)
        if ((i && ko[i - 1] > ko[i]) || vo[i] < 0 || vo[i] >= n || k[vo[i]] != ko[i]) {
            printf("SortPairs wrong at %d\n", i); bad++; break;
        }
    std::stable_sort(rw.begin(), rw.end(), LowLess());
    if (wo != rw) { printf("StableSortKeys wrong\n"); bad++; }
    printf("%s merge_sort\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
