// run_length.cu — cub::DeviceRunLengthEncode: Encode (unique items and their run lengths)
// and NonTrivialRuns (offset and length of each run longer than one); checked on the host.
#include <cub/device/device_run_length_encode.cuh>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

int main()
{
    const int n = 1 << 17;
    std::vector<int> a(n);
    uint32_t s = 13;
    int v = 0;
    for (int i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u;
        if ((s >> 28) < 6) v++;  // a new run with probability 6/16
        a[i] = v;
    }
    int *d_a, *d_u, *d_cnt, *d_off, *d_len, *d_nruns;
    CK(cudaMalloc(&d_a, n * 4)); CK(cudaMalloc(&d_u, n * 4)); CK(cudaMalloc(&d_cnt, n * 4));
    CK(cudaMalloc(&d_off, n * 4)); CK(cudaMalloc(&d_len, n * 4)); CK(cudaMalloc(&d_nruns, 4));
    CK(cudaMemcpy(d_a, a.data(), n * 4, cudaMemcpyHostToDevice));
    size_t bytes = 0, b;
    CK(cub::DeviceRunLengthEncode::Encode(nullptr, b, d_a, d_u, d_cnt, d_nruns, n)); bytes = std::max(bytes, b);
    CK(cub::DeviceRunLengthEncode::NonTrivialRuns(nullptr, b, d_a, d_off, d_len, d_nruns, n)); bytes = std::max(bytes, b);
    void *tmp;
    CK(cudaMalloc(&tmp, bytes));
    std::vector<int> ru, rc, ro, rl;
    for (int i = 0; i < n;) {
        int j = i;
        while (j < n && a[j] == a[i]) j++;
        ru.push_back(a[i]); rc.push_back(j - i);
        if (j - i > 1) { ro.push_back(i); rl.push_back(j - i); }
        i = j;
    }
    int bad = 0, nr;
    b = bytes; CK(cub::DeviceRunLengthEncode::Encode(tmp, b, d_a, d_u, d_cnt, d_nruns, n));
    CK(cudaMemcpy(&nr, d_nruns, 4, cudaMemcpyDeviceToHost));
    std::vector<int> u(nr), c(nr);
    CK(cudaMemcpy(u.data(), d_u, nr * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(c.data(), d_cnt, nr * 4, cudaMemcpyDeviceToHost));
    if (u != ru || c != rc) { printf("Encode wrong (%d runs, expected %zu)\n", nr, ru.size()); bad++; }
    b = bytes; CK(cub::DeviceRunLengthEncode::NonTrivialRuns(tmp, b, d_a, d_off, d_len, d_nruns, n));
    CK(cudaMemcpy(&nr, d_nruns, 4, cudaMemcpyDeviceToHost));
    std::vector<int> o(nr), l(nr);
    CK(cudaMemcpy(o.data(), d_off, nr * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(l.data(), d_len, nr * 4, cudaMemcpyDeviceToHost));
    if (o != ro || l != rl) { printf("NonTrivialRuns wrong (%d runs, expected %zu)\n", nr, ro.size()); bad++; }
    printf("%s run_length\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
