// unseen19.cu — a nineteenth set of kernels written as a new user would, before its first
// GPU run: linear algebra and stencils as they are first ported to CUDA (the PolyBench
// shapes), one thread an output element, row-major float matrices of DIM x DIM: a naive
// matrix product, the two halves of atax and bicg as single kernels, a matrix-vector
// product with its transpose (mvt), a column covariance, one FDTD-2D step and one Jacobi-2D
// step, and a 3 x 3 convolution.
// bench/unseen/unseen19.spec launches them; docs/results/unseen-kernels-h200.txt has what an
// H200 and the model gave. Every checked output is deterministic.

// C = A B, one thread an element, k innermost (the classic first port).
extern "C" __global__ void gemm_naive(const float *a, const float *b, float *c, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= n || col >= n)
        return;
    float s = 0.0f;
    for (int k = 0; k < n; k++)
        s += a[row * n + k] * b[k * n + col];
    c[row * n + col] = 1.5f * s;
}

// atax's first half, tmp = A x, one thread a row (strided reads: each thread walks a row).
extern "C" __global__ void atax_rows(const float *a, const float *x, float *tmp, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float s = 0.0f;
    for (int j = 0; j < n; j++)
        s += a[i * n + j] * x[j];
    tmp[i] = s;
}

// bicg's second half, q = A^T r, one thread a column (coalesced reads down the columns).
extern "C" __global__ void bicg_cols(const float *a, const float *r, float *q, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= n)
        return;
    float s = 0.0f;
    for (int i = 0; i < n; i++)
        s += r[i] * a[i * n + j];
    q[j] = s;
}

// mvt: x1 += A y1 and x2 += A^T y2 in one kernel, a thread a row and a column.
extern "C" __global__ void mvt_both(const float *a, const float *y1, const float *y2, float *x1,
                                    float *x2, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float s1 = x1[i], s2 = x2[i];
    for (int j = 0; j < n; j++) {
        s1 += a[i * n + j] * y1[j];
        s2 += a[j * n + i] * y2[j];
    }
    x1[i] = s1;
    x2[i] = s2;
}

// Covariance of column j with column j2 = (j * 7) % n over the n rows, after the mean of
// each; a thread a column, the means computed by the same thread (twice the reads).
extern "C" __global__ void covar_cols(const float *d, float *cov, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= n)
        return;
    int j2 = (j * 7) % n;
    float m1 = 0.0f, m2 = 0.0f;
    for (int i = 0; i < n; i++) {
        m1 += d[i * n + j];
        m2 += d[i * n + j2];
    }
    m1 /= n;
    m2 /= n;
    float s = 0.0f;
    for (int i = 0; i < n; i++)
        s += (d[i * n + j] - m1) * (d[i * n + j2] - m2);
    cov[j] = s / (n - 1);
}

// One FDTD-2D step of the three fields (ey, ex, then hz from the updated ones would need a
// grid barrier: here hz from the old ey and ex), a thread a cell, the borders as PolyBench.
extern "C" __global__ void fdtd_step(const float *ex, const float *ey, const float *hz,
                                     float *ex2, float *ey2, float *hz2, int n, int t)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= n || j >= n)
        return;
    int k = i * n + j;
    ey2[k] = i == 0 ? (float)t : ey[k] - 0.5f * (hz[k] - hz[k - n]);
    ex2[k] = j == 0 ? ex[k] : ex[k] - 0.5f * (hz[k] - hz[k - 1]);
    if (i < n - 1 && j < n - 1)
        hz2[k] = hz[k] - 0.7f * (ex[k + 1] - ex[k] + ey[k + n] - ey[k]);
    else
        hz2[k] = hz[k];
}

// One Jacobi-2D step: the 5-point average inside, the border copied.
extern "C" __global__ void jacobi_step(const float *a, float *b, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= n || j >= n)
        return;
    int k = i * n + j;
    if (i == 0 || j == 0 || i == n - 1 || j == n - 1)
        b[k] = a[k];
    else
        b[k] = 0.2f * (a[k] + a[k - 1] + a[k + 1] + a[k - n] + a[k + n]);
}

// A 3 x 3 convolution with PolyBench's weights, the border left zero.
extern "C" __global__ void conv3x3(const float *a, float *b, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= n || j >= n)
        return;
    float r = 0.0f;
    if (i > 0 && j > 0 && i < n - 1 && j < n - 1) {
        const float *p = a + (i - 1) * n + (j - 1);
        r = 0.2f * p[0] + 0.5f * p[1] - 0.8f * p[2] - 0.3f * p[n] + 0.6f * p[n + 1] -
            0.9f * p[n + 2] + 0.4f * p[2 * n] + 0.7f * p[2 * n + 1] + 0.1f * p[2 * n + 2];
    }
    b[i * n + j] = r;
}
