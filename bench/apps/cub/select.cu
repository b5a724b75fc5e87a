// select.cu — cub::DeviceSelect: If (a predicate), Unique (of a run-heavy sequence) and
// Flagged (a flag array); each checked against a filtering loop on the host.
#include <cub/device/device_select.cuh>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

struct IsOdd {
    __host__ __device__ bool operator()(int x) const { return (x & 1) != 0; }
};

static int check(const char *what, const std::vector<int> &ref, const int *d_out, const int *d_n)
{
    int n;
    cudaMemcpy(&n, d_n, 4, cudaMemcpyDeviceToHost);
    std::vector<int> o(n);
    cudaMemcpy(o.data(), d_out, n * 4, cudaMemcpyDeviceToHost);
    if (o != ref) { printf("%s wrong (%d items, expected %zu)\n", what, n, ref.size()); return 1; }
    return 0;
}

int main()
{
    const int n = 1 << 17;
    std::vector<int> a(n), runs(n);
    std::vector<char> flags(n);
    uint32_t s = 3;
    for (int i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u;
        a[i] = (int)(s >> 8);
        runs[i] = (int)(i / (1 + (s >> 29)));  // runs of 1..8 equal items
        flags[i] = (s >> 5) % 3 == 0;
    }
    int *d_a, *d_runs, *d_out, *d_n;
    char *d_flags;
    CK(cudaMalloc(&d_a, n * 4)); CK(cudaMalloc(&d_runs, n * 4)); CK(cudaMalloc(&d_out, n * 4));
    CK(cudaMalloc(&d_n, 4)); CK(cudaMalloc(&d_flags, n));
    CK(cudaMemcpy(d_a, a.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_runs, runs.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_flags, flags.data(), n, cudaMemcpyHostToDevice));
    size_t bytes = 0, b;
    CK(cub::DeviceSelect::If(nullptr, b, d_a, d_out, d_n, n, IsOdd())); bytes = std::max(bytes, b);
    CK(cub::DeviceSelect::Unique(nullptr, b, d_runs, d_out, d_n, n)); bytes = std::max(bytes, b);
    CK(cub::DeviceSelect::Flagged(nullptr, b, d_a, d_flags, d_out, d_n, n)); bytes = std::max(bytes, b);
    void *tmp;
    CK(cudaMalloc(&tmp, bytes));
    int bad = 0;
    std::vector<int> ref;

    b = bytes; CK(cub::DeviceSelect::If(tmp, b, d_a, d_out, d_n, n, IsOdd()));
    for (int x : a) if (IsOdd()(x)) ref.push_back(x);
    bad += check("Select::If", ref, d_out, d_n);

    b = bytes; CK(cub::DeviceSelect::Unique(tmp, b, d_runs, d_out, d_n, n));
    ref.clear();
    for (int i = 0; i < n; i++) if (i == 0 || runs[i] != runs[i - 1]) ref.push_back(runs[i]);
    bad += check("Select::Unique", ref, d_out, d_n);

    b = bytes; CK(cub::DeviceSelect::Flagged(tmp, b, d_a, d_flags, d_out, d_n, n));
    ref.clear();
    for (int i = 0; i < n; i++) if (flags[i]) ref.push_back(a[i]);
    bad += check("Select::Flagged", ref, d_out, d_n);

    printf("%s select\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
