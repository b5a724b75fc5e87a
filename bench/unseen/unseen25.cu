// unseen25.cu — a twenty-fifth set of kernels written as a new user would, before its first
// GPU run, after the timing model's L1 was made to fill by the 32-byte sector in sets of
// ways (written to try that change blind): loads that come back to lines already touched.
// Each thread walking its own row, a sliding dot product of two arrays, a 2-D five-point
// stencil, gathers near the thread's own index, a CSR SpMV with a thread a row, lookups in a
// small table, a naive transpose, and running sums over rows of data-dependent length.
// bench/unseen/unseen25.spec launches them; docs/results/unseen-kernels-h200.txt has what an
// H200 and the model gave. Every output is deterministic.

// Each thread sums its own row of 128 words, stepping 1 to 3 words by the value it read.
extern "C" __global__ void row_walk(const int *a, int *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    const int *row = a + (size_t)t * 128;
    int s = 0;
    for (int k = 0; k < 128; k += 1 + (row[k] & 1) + (row[k] >> 1 & 1)) // 1 to 3
        s += row[k];
    out[t] = s;
}

// out[t] = sum over k in [-8, 8] of a[t + k] * b[t + k] (zero outside).
extern "C" __global__ void slide_dot(const float *a, const float *b, float *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    float s = 0.0f;
    for (int k = -8; k <= 8; k++) {
        int i = t + k;
        if (i >= 0 && i < n)
            s += a[i] * b[i];
    }
    out[t] = s;
}

// One Jacobi step of the five-point stencil on a w x w grid, 16 x 16 threads a block.
extern "C" __global__ void stencil5(const float *in, float *out, int w)
{
    int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
    if (x >= w || y >= w)
        return;
    float c = in[y * w + x];
    float l = x > 0 ? in[y * w + x - 1] : c, r = x < w - 1 ? in[y * w + x + 1] : c;
    float u = y > 0 ? in[(y - 1) * w + x] : c, d = y < w - 1 ? in[(y + 1) * w + x] : c;
    out[y * w + x] = 0.2f * (c + l + r + u + d);
}

// 32 gathers a thread, each at most 64 elements from its own index.
extern "C" __global__ void gather_near(const int *src, const int *off, int *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int s = 0;
    for (int k = 0; k < 32; k++) {
        int i = t + off[(t * 32 + k) % 4096];
        i = i < 0 ? 0 : i >= n ? n - 1 : i;
        s += src[i];
    }
    out[t] = s;
}

// y = A x, A in CSR with 4 to 43 entries a row; a thread a row.
extern "C" __global__ void csr_scalar(const int *rowlen, const int *col, const float *val,
                                      const float *x, float *y, int rows, int nx)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    int len = 4 + rowlen[r] % 40;
    const int *c = col + (size_t)r * 48;
    const float *v = val + (size_t)r * 48;
    float s = 0.0f;
    for (int k = 0; k < len; k++)
        s += v[k] * x[c[k] % nx];
    y[r] = s;
}

// 64 lookups a thread in a 4 KB table, by a hash of the thread and the step.
extern "C" __global__ void table_lookup(const unsigned *table, unsigned *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    unsigned h = (unsigned)t * 2654435761u, s = 0;
    for (int k = 0; k < 64; k++) {
        h ^= h >> 13;
        h *= 0x5bd1e995u;
        s += table[(h ^ s) & 1023];
    }
    out[t] = s;
}

// out = in transposed, w x w, 32 x 8 threads a block, each thread 4 rows: the reads are
// coalesced, the writes a line a lane.
extern "C" __global__ void transpose_naive(const float *in, float *out, int w)
{
    int x = blockIdx.x * 32 + threadIdx.x;
    for (int j = 0; j < 32; j += 8) {
        int y = blockIdx.y * 32 + threadIdx.y + j;
        if (x < w && y < w)
            out[(size_t)x * w + y] = in[(size_t)y * w + x];
    }
}

// Running sums over each thread's row of floats, up to the first negative value or 96.
extern "C" __global__ void prefix_rows(const float *a, float *out, int *len, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    const float *row = a + (size_t)t * 96;
    float *o = out + (size_t)t * 96;
    float s = 0.0f;
    int k = 0;
    for (; k < 96; k++) {
        float v = row[k];
        if (v < 0.0f)
            break;
        s += v;
        o[k] = s;
    }
    len[t] = k;
}
