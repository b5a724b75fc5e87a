// thrust_algos.cu — Thrust on device vectors: sort_by_key, reduce_by_key, unique, copy_if
// and transform_reduce; each checked against the same computation on the host.
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/transform_reduce.h>
#include <thrust/unique.h>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

struct Square {
    __host__ __device__ long long operator()(int x) const { return (long long)x * x; }
};
struct Positive {
    __host__ __device__ bool operator()(int x) const { return x > 0; }
};

int main()
{
    const int n = 1 << 17;
    std::vector<int> k(n), v(n);
    uint32_t s = 31;
    for (int i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u;
        k[i] = (int)((s >> 16) % 1000);
        v[i] = (int)(s >> 24) - 128;
    }
    int bad = 0;

    // sort_by_key, then reduce_by_key over the sorted keys
    thrust::device_vector<int> dk(k.begin(), k.end()), dv(v.begin(), v.end());
    thrust::sort_by_key(dk.begin(), dk.end(), dv.begin());
    std::vector<int> sk(n), sv(n);
    thrust::copy(dk.begin(), dk.end(), sk.begin());
    thrust::copy(dv.begin(), dv.end(), sv.begin());
    std::vector<int> rk = k;
    std::sort(rk.begin(), rk.end());
    if (sk != rk) { printf("sort_by_key keys wrong\n"); bad++; }
    std::vector<long long> rsum(1000, 0), got(1000, 0);
    for (int i = 0; i < n; i++) rsum[k[i]] += v[i];
    thrust::device_vector<int> ok(n), ov(n);
    auto ends = thrust::reduce_by_key(dk.begin(), dk.end(), dv.begin(), ok.begin(), ov.begin());
    int nkeys = (int)(ends.first - ok.begin());
    std::vector<int> hk(nkeys), hv(nkeys);
    thrust::copy(ok.begin(), ok.begin() + nkeys, hk.begin());
    thrust::copy(ov.begin(), ov.begin() + nkeys, hv.begin());
    for (int i = 0; i < nkeys; i++) got[hk[i]] = hv[i];
    if (got != rsum) { printf("reduce_by_key wrong (%d keys)\n", nkeys); bad++; }

    // unique over the sorted keys
    auto uend = thrust::unique(dk.begin(), dk.end());
    int nu = (int)(uend - dk.begin());
    rk.erase(std::unique(rk.begin(), rk.end()), rk.end());
    std::vector<int> hu(nu);
    thrust::copy(dk.begin(), dk.begin() + nu, hu.begin());
    if (hu != rk) { printf("unique wrong (%d items, expected %zu)\n", nu, rk.size()); bad++; }

    // copy_if and transform_reduce over the values
    thrust::device_vector<int> dv2(v.begin(), v.end()), pos(n);
    auto pend = thrust::copy_if(dv2.begin(), dv2.end(), pos.begin(), Positive());
    int np = (int)(pend - pos.begin());
    std::vector<int> hp(np), rp;
    thrust::copy(pos.begin(), pos.begin() + np, hp.begin());
    for (int x : v) if (x > 0) rp.push_back(x);
    if (hp != rp) { printf("copy_if wrong\n"); bad++; }
    long long sq = thrust::transform_reduce(dv2.begin(), dv2.end(), Square(), 0ll, thrust::plus<long long>());
    long long rsq = 0;
    for (int x : v) rsq += (long long)x * x;
    if (sq != rsq) { printf("transform_reduce %lld, expected %lld\n", sq, rsq); bad++; }

    printf("%s thrust_algos\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
