// unseen16.cu — a sixteenth set of kernels written as a new user would, before its first GPU
// run, after the timing model's bounds were made to overlap only in part (bound.overlap):
// an ELLPACK sparse matrix-vector product, a reverse-Polish evaluator with its stack in
// local memory, k-means assignment with centroids in shared memory and counts by atomics,
// Knuth-Morris-Pratt search with its failure table in shared memory, a bubble sort that
// stops when a pass swaps nothing, a fixed-point Mandelbrot with 64-bit products, and a
// warp-wide stream compaction by ballot.
// bench/unseen/unseen16.spec launches them; docs/results/unseen-kernels-h200.txt has what an
// H200 and the model gave. Every checked output is deterministic.

// y = A x for A in ELLPACK: row r's k-th entry at k * n + r, padded with column -1.
extern "C" __global__ void ell_spmv(const int *col, const float *val, const float *x, float *y,
                                    int n, int width)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= n)
        return;
    float sum = 0.0f;
    for (int k = 0; k < width; k++) {
        int c = col[k * n + r];
        if (c < 0)
            break;
        sum += val[k * n + r] * x[c];
    }
    y[r] = sum;
}

// Each thread evaluates a program of 24 tokens in reverse-Polish notation: 0-9 push the
// digit, 10 adds, 11 subtracts, 12 multiplies, 13 keeps the larger, 14 duplicates the top.
// An operator without enough operands, or a push onto a full stack, is skipped.
extern "C" __global__ void rpn_eval(const unsigned char *prog, int *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    const unsigned char *p = prog + (size_t)t * 24;
    int st[16], sp = 0;
    for (int k = 0; k < 24; k++) {
        int op = p[k];
        if (op < 10) {
            if (sp < 16)
                st[sp++] = op;
        } else if (op == 14) {
            if (sp > 0 && sp < 16) {
                st[sp] = st[sp - 1];
                sp++;
            }
        } else if (sp >= 2) {
            int b = st[--sp], a = st[sp - 1], r;
            if (op == 10)
                r = a + b;
            else if (op == 11)
                r = a - b;
            else if (op == 12)
                r = a * b;
            else
                r = a > b ? a : b;
            st[sp - 1] = r;
        }
    }
    int s = sp;
    for (int k = 0; k < sp; k++)
        s = s * 31 + st[k];
    out[t] = s;
}

// Each point goes to its nearest of 16 centroids (squared distance, the lowest index on a
// tie); the centroids sit in shared memory and each cluster's count is an atomic add.
extern "C" __global__ void kmeans_assign(const float2 *pts, const float2 *cent, int *label,
                                         int *count, int n)
{
    __shared__ float2 c[16];
    if (threadIdx.x < 16)
        c[threadIdx.x] = cent[threadIdx.x];
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float2 p = pts[i];
    int best = 0;
    float bd = 3.0e38f;
    for (int k = 0; k < 16; k++) {
        float dx = p.x - c[k].x, dy = p.y - c[k].y;
        float d = dx * dx + dy * dy;
        if (d < bd) {
            bd = d;
            best = k;
        }
    }
    label[i] = best;
    atomicAdd(&count[best], 1);
}

// Occurrences of a 6-letter pattern (overlaps counted) in each thread's 128-letter window
// of a text over 4 letters, by Knuth-Morris-Pratt; thread 0 builds the failure table.
extern "C" __global__ void kmp_search(const unsigned char *text, const unsigned char *pat,
                                      int *hits, int n)
{
    __shared__ unsigned char pt[6];
    __shared__ int fail[6];
    if (threadIdx.x == 0) {
        for (int k = 0; k < 6; k++)
            pt[k] = pat[k];
        fail[0] = 0;
        int j = 0;
        for (int k = 1; k < 6; k++) {
            while (j > 0 && pt[k] != pt[j])
                j = fail[j - 1];
            if (pt[k] == pt[j])
                j++;
            fail[k] = j;
        }
    }
    __syncthreads();
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    const unsigned char *s = text + (size_t)t * 128;
    int j = 0, found = 0;
    for (int k = 0; k < 128; k++) {
        unsigned char ch = s[k];
        while (j > 0 && ch != pt[j])
            j = fail[j - 1];
        if (ch == pt[j])
            j++;
        if (j == 6) {
            found++;
            j = fail[5];
        }
    }
    hits[t] = found;
}

// Each thread sorts its 12 values by bubble sort, stopping after a pass without a swap, and
// writes a checksum of the sorted order and the number of passes.
extern "C" __global__ void bubble_early(const int *in, int *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int a[12];
    for (int k = 0; k < 12; k++)
        a[k] = in[(size_t)t * 12 + k];
    int passes = 0;
    for (int end = 11; end > 0; end--) {
        int swapped = 0;
        for (int k = 0; k < end; k++)
            if (a[k] > a[k + 1]) {
                int x = a[k];
                a[k] = a[k + 1];
                a[k + 1] = x;
                swapped = 1;
            }
        passes++;
        if (!swapped)
            break;
    }
    int s = passes;
    for (int k = 0; k < 12; k++)
        s = s * 131 + a[k];
    out[t] = s;
}

// Escape counts (up to 64) of the points of a 256 x 256 grid over [-2, 0.5] x [-1.25, 1.25]
// in Q3.28 fixed point, each product of two 32-bit values taken in 64 bits.
extern "C" __global__ void fixed_mandel(int *iters, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int px = t % 256, py = (t / 256) % 256;
    const long long one = 1LL << 28;
    int cx = (int)(-2 * one + (long long)px * (5 * one / 2) / 256);
    int cy = (int)(-5 * one / 4 + (long long)py * (5 * one / 2) / 256);
    int x = 0, y = 0, k = 0;
    for (; k < 64; k++) {
        long long xx = (long long)x * x >> 28, yy = (long long)y * y >> 28;
        if (xx + yy > 4 * one)
            break;
        long long xy = (long long)x * y >> 27;
        x = (int)(xx - yy + cx);
        y = (int)(xy + cy);
    }
    iters[t] = k;
}

// Each warp keeps, in order, the values of its 8 x 32 inputs that are multiples of 3 (a
// ballot, a popcount of the lanes below, a shared buffer), and writes them with their count.
extern "C" __global__ void ballot_compact(const unsigned *in, unsigned *out, int *counts, int n)
{
    __shared__ unsigned buf[4][256];
    int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    int gw = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    if (gw * 256 >= n)
        return;
    int base = 0;
    for (int r = 0; r < 8; r++) {
        unsigned v = in[(size_t)gw * 256 + r * 32 + lane];
        int keep = v % 3 == 0;
        unsigned mask = __ballot_sync(0xffffffffu, keep);
        if (keep)
            buf[w][base + __popc(mask & ((1u << lane) - 1))] = v;
        base += __popc(mask);
    }
    __syncwarp();
    for (int k = lane; k < 256; k += 32)
        out[(size_t)gw * 256 + k] = k < base ? buf[w][k] : 0;
    if (lane == 0)
        counts[gw] = base;
}
