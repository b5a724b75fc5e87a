// unseen14.cu — a fourteenth set of kernels written as a new user would, before its first GPU
// run: a gather over the set bits of a 64-bit mask, an insertion sort in a local array, one
// min-plus product row over 64 x 64 blocks with "infinite" entries skipped, a red-black
// relaxation sweep, UTF-8 validation and counting, warp-level radix ranking with
// __match_any_sync, and quadratic roots by the sign of the discriminant.
// bench/unseen/unseen14.spec launches them; docs/results/unseen-kernels-h200.txt has what an
// H200 and the model gave. Every checked output is deterministic.

// The sum of x[b] over the set bits b of each thread's mask, lowest bit first.
extern "C" __global__ void bits_gather(const unsigned long long *masks, const int *x, int *out,
                                       int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned long long m = masks[i];
    int acc = 0;
    while (m) {
        int b = __ffsll((long long)m) - 1;
        acc += x[b];
        m &= m - 1;
    }
    out[i] = acc;
}

// Twelve values per thread (a column of x) sorted by insertion in a local array; the output
// mixes the smallest, the median and the largest.
extern "C" __global__ void insertion_sort(const int *x, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v[12];
    for (int k = 0; k < 12; k++) {
        int a = x[(size_t)k * n + i];
        int j = k - 1;
        while (j >= 0 && v[j] > a) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = a;
    }
    out[i] = v[6] - v[0] + v[11];
}

// One entry of the min-plus square of each 64 x 64 block of d: min over k of d[r][k] +
// d[k][c], and d[r][c] itself; entries at or above INF (no edge) are skipped.
#define INF 1000000000
extern "C" __global__ void minplus_row(const int *d, int *o, int n)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= n)
        return;
    int base = idx & ~4095, e = idx & 4095, r = e >> 6, c = e & 63;
    const int *m = d + base;
    int best = m[e];
    for (int k = 0; k < 64; k++) {
        int a = m[r * 64 + k];
        if (a >= INF)
            continue;
        int b = m[k * 64 + c];
        if (b >= INF)
            continue;
        if (a + b < best)
            best = a + b;
    }
    o[idx] = best;
}

// One colour of a red-black Gauss-Seidel sweep for Laplace's equation on a W-wide grid:
// interior points of the colour take the mean of their four neighbours, the rest are copied.
extern "C" __global__ void redblack(const float *u, float *v, int w, int h, int colour)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= w * h)
        return;
    int x = i % w, y = i / w;
    float val = u[i];
    if (((x + y) & 1) == colour && x > 0 && x < w - 1 && y > 0 && y < h - 1)
        val = 0.25f * (u[i - 1] + u[i + 1] + u[i - w] + u[i + w]);
    v[i] = val;
}

// Code points and invalid bytes in 16-byte UTF-8 fields: a lead byte gives the length, each
// continuation byte is checked; a bad byte is counted and skipped.
extern "C" __global__ void utf8_count(const unsigned char *s, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const unsigned char *p = s + (size_t)i * 16;
    int k = 0, cps = 0, bad = 0;
    while (k < 16) {
        unsigned c = p[k];
        int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (len == 0 || k + len > 16) {
            bad++;
            k++;
            continue;
        }
        bool ok = true;
        for (int j = 1; j < len; j++)
            if ((p[k + j] & 0xC0) != 0x80) {
                ok = false;
                break;
            }
        if (ok) {
            cps++;
            k += len;
        } else {
            bad++;
            k++;
        }
    }
    out[i] = cps * 256 + bad;
}

// Radix-sort ranking of one 4-bit digit within each warp: lanes with the same digit find
// each other with __match_any_sync; the first of them adds the group's size to the digit's
// global count.
extern "C" __global__ void radix_rank(const unsigned *keys, int *rank, int *counts, int n,
                                      int shift)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    unsigned d = i < n ? (keys[i] >> shift) & 15u : 16u;
    unsigned peers = __match_any_sync(0xffffffffu, d);
    int r = __popc(peers & ((1u << lane) - 1u));
    if (i < n) {
        rank[i] = r;
        if (r == 0)
            atomicAdd(&counts[d], __popc(peers));
    }
}

// Real roots of a x^2 + b x + c by the discriminant's sign (two, one or none), the larger
// first; a == 0 falls back to the linear equation.
extern "C" __global__ void quad_roots(const float *a, const float *b, const float *c,
                                      float *r1, float *r2, int *kind, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float A = a[i], B = b[i], C = c[i], x1 = 0.0f, x2 = 0.0f;
    int k;
    if (A == 0.0f) {
        k = B != 0.0f ? 1 : 0;
        if (k)
            x1 = x2 = -C / B;
    } else {
        float disc = B * B - 4.0f * A * C;
        if (disc > 0.0f) {
            float s = sqrtf(disc);
            float q = -0.5f * (B + copysignf(s, B));
            x1 = q / A;
            x2 = C / q;
            if (x2 > x1) {
                float t = x1;
                x1 = x2;
                x2 = t;
            }
            k = 2;
        } else if (disc == 0.0f) {
            x1 = x2 = -B / (2.0f * A);
            k = 1;
        } else {
            k = 0;
        }
    }
    r1[i] = x1;
    r2[i] = x2;
    kind[i] = k;
}
