// unseen13.cu — a thirteenth set of kernels written as a new user would, before its first GPU
// run: trial-division primality, edit distance with a DP row in local memory, a top-8 min-heap
// per thread, one step of Conway's Life, a segmented warp scan, a 2-D search that leaves two
// loops at once, and parsing of fixed-width decimal fields.
// bench/unseen/unseen13.spec launches them; docs/results/unseen-kernels-h200.txt has what an
// H200 and the model gave. Every checked output is deterministic.
#include <climits>

// Smallest divisor of each input (1 for a prime, 0 below 2), by trial division: the loop
// leaves either at a divisor or when d*d passes v.
extern "C" __global__ void prime_test(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned v = (unsigned)in[i];
    int r;
    if (v < 2) {
        r = 0;
    } else if (v % 2 == 0) {
        r = v == 2 ? 1 : 2;
    } else {
        r = 1;
        for (unsigned d = 3; d * d <= v; d += 2)
            if (v % d == 0) {
                r = (int)d;
                break;
            }
    }
    out[i] = r;
}

// Levenshtein distance between two short strings per thread (lengths 4..12 over a
// four-letter alphabet), one DP row in a local array.
extern "C" __global__ void edit_distance(const unsigned char *a, const unsigned char *b,
                                         const int *la, const int *lb, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const unsigned char *s = a + (size_t)i * 16, *t = b + (size_t)i * 16;
    int m = la[i], k = lb[i];
    int row[17];
    for (int j = 0; j <= k; j++)
        row[j] = j;
    for (int p = 1; p <= m; p++) {
        int diag = row[0];
        row[0] = p;
        unsigned char c = s[p - 1];
        for (int j = 1; j <= k; j++) {
            int up = row[j];
            int best = min(min(up, row[j - 1]) + 1, diag + (c != t[j - 1]));
            diag = up;
            row[j] = best;
        }
    }
    out[i] = row[k];
}

// The sum of the 8 largest of LEN values per thread (a column of x), kept in a min-heap in
// a local array: a value above the root replaces it and sifts down.
extern "C" __global__ void heap_topk(const int *x, int *out, int n, int len)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int h[8];
    for (int k = 0; k < 8; k++)
        h[k] = INT_MIN;
    for (int k = 0; k < len; k++) {
        int v = x[(size_t)k * n + i];
        if (v <= h[0])
            continue;
        int p = 0;
        for (;;) {
            int c = 2 * p + 1;
            if (c >= 8)
                break;
            if (c + 1 < 8 && h[c + 1] < h[c])
                c++;
            if (h[c] >= v)
                break;
            h[p] = h[c];
            p = c;
        }
        h[p] = v;
    }
    long long s = 0;
    for (int k = 0; k < 8; k++)
        s += h[k];
    out[i] = (int)s;
}

// One step of Conway's Life on a W x H board with dead borders: each thread counts the live
// neighbours inside the board and applies the rule.
extern "C" __global__ void life_step(const int *cur, int *next, int w, int h)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= w * h)
        return;
    int x = i % w, y = i / w;
    int cnt = 0;
    for (int dy = -1; dy <= 1; dy++) {
        int yy = y + dy;
        if (yy < 0 || yy >= h)
            continue;
        for (int dx = -1; dx <= 1; dx++) {
            int xx = x + dx;
            if ((dx | dy) == 0 || xx < 0 || xx >= w)
                continue;
            cnt += cur[yy * w + xx];
        }
    }
    int r;
    if (cur[i])
        r = cnt == 2 || cnt == 3;
    else
        r = cnt == 3;
    next[i] = r;
}

// Inclusive scan within segments of a warp (a segment starts where head is set, and at lane
// 0); a segment's last lane counts the segment in `big` when its sum passes LIMIT.
extern "C" __global__ void seg_scan(const int *v, const int *head, int *out, int *big, int n,
                                    int limit)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int x = i < n ? v[i] : 0;
    int f = i < n ? head[i] : 1;
    unsigned heads = __ballot_sync(0xffffffffu, f || lane == 0);
    int start = 31 - __clz(heads & (0xffffffffu >> (31 - lane)));
    for (int d = 1; d < 32; d <<= 1) {
        int y = __shfl_up_sync(0xffffffffu, x, d);
        if (lane - d >= start)
            x += y;
    }
    bool last = lane == 31 || ((heads >> (lane + 1)) & 1u);
    if (i < n) {
        out[i] = x;
        if (last && x > limit)
            atomicAdd(big, 1);
    }
}

// The first cell of an 8 x 8 window (rows W apart, starting at the thread's item) that
// holds the thread's target, as row * 8 + column, or -1: a goto leaves both loops.
extern "C" __global__ void find2d(const int *m, const int *targets, int *out, int n, int w)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int t = targets[i];
    int found = -1;
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 8; c++)
            if (m[(i + r * w + c) % n] == t) {
                found = r * 8 + c;
                goto done;
            }
done:
    out[i] = found;
}

// Fixed-width fields of 12 characters parsed as atoi does: leading spaces, an optional sign,
// then digits up to the first other character (wrapping as unsigned arithmetic does).
extern "C" __global__ void atoi_parse(const unsigned char *s, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const unsigned char *p = s + (size_t)i * 12, *e = p + 12;
    while (p < e && *p == ' ')
        p++;
    bool neg = false;
    if (p < e && (*p == '-' || *p == '+')) {
        neg = *p == '-';
        p++;
    }
    unsigned v = 0;
    while (p < e && *p >= '0' && *p <= '9') {
        v = v * 10u + (unsigned)(*p - '0');
        p++;
    }
    out[i] = (int)(neg ? 0u - v : v);
}
