// radix_sort.cu — cub::DeviceRadixSort: SortKeys on u32, SortPairs on u64 keys with float
// values, and SortKeysDescending; each result checked against std::sort on the host.
#include <cub/device/device_radix_sort.cuh>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

static uint64_t lcg(uint64_t &s) { s = s * 6364136223846793005ull + 1442695040888963407ull; return s >> 11; }

int main()
{
    const int n = 1 << 16;
    uint64_t seed = 42;
    std::vector<uint32_t> k32(n);
    std::vector<uint64_t> k64(n);
    std::vector<float> val(n);
    for (int i = 0; i < n; i++) {
        k32[i] = (uint32_t)lcg(seed);
        k64[i] = lcg(seed) ^ (lcg(seed) << 40);
        val[i] = (float)i;
    }
    uint32_t *d_k32, *d_k32o;
    uint64_t *d_k64, *d_k64o;
    float *d_v, *d_vo;
    CK(cudaMalloc(&d_k32, n * 4)); CK(cudaMalloc(&d_k32o, n * 4));
    CK(cudaMalloc(&d_k64, n * 8)); CK(cudaMalloc(&d_k64o, n * 8));
    CK(cudaMalloc(&d_v, n * 4)); CK(cudaMalloc(&d_vo, n * 4));
    CK(cudaMemcpy(d_k32, k32.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_k64, k64.data(), n * 8, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_v, val.data(), n * 4, cudaMemcpyHostToDevice));

    void *tmp = nullptr;
    size_t bytes = 0, b;
    CK(cub::DeviceRadixSort::SortKeys(nullptr, b, d_k32, d_k32o, n)); bytes = std::max(bytes, b);
    CK(cub::DeviceRadixSort::SortPairs(nullptr, b, d_k64, d_k64o, d_v, d_vo, n)); bytes = std::max(bytes, b);
    CK(cub::DeviceRadixSort::SortKeysDescending(nullptr, b, d_k32, d_k32o, n)); bytes = std::max(bytes, b);
    CK(cudaMalloc(&tmp, bytes));
    int bad = 0;

    std::vector<uint32_t> o32(n), ref32 = k32;
    std::sort(ref32.begin(), ref32.end());
    b = bytes;
    CK(cub::DeviceRadixSort::SortKeys(tmp, b, d_k32, d_k32o, n));
    CK(cudaMemcpy(o32.data(), d_k32o, n * 4, cudaMemcpyDeviceToHost));
    if (o32 != ref32) { printf("SortKeys u32 wrong\n"); bad++; }

    std::vector<uint64_t> o64(n);
    std::vector<float> ov(n);
    b = bytes;
    CK(cub::DeviceRadixSort::SortPairs(tmp, b, d_k64, d_k64o, d_v, d_vo, n));
    CK(cudaMemcpy(o64.data(), d_k64o, n * 8, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(ov.data(), d_vo, n * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        int src = (int)ov[i];
        if ((i && o64[i - 1] > o64[i]) || src < 0 || src >= n || k64[src] != o64[i]) {
            printf("SortPairs u64/float wrong at %d\n", i); bad++; break;
        }
    }

    std::reverse(ref32.begin(), ref32.end());
    b = bytes;
    CK(cub::DeviceRadixSort::SortKeysDescending(tmp, b, d_k32, d_k32o, n));
    CK(cudaMemcpy(o32.data(), d_k32o, n * 4, cudaMemcpyDeviceToHost));
    if (o32 != ref32) { printf("SortKeysDescending u32 wrong\n"); bad++; }

    printf("%s radix_sort\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
