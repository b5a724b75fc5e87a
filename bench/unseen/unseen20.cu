// unseen20.cu — a twentieth set of kernels written as a new user would, before its first
// GPU run: applications whose host code launches kernels in a loop (Rodinia's shapes), run
// as the spec's launch sequences: Gaussian elimination (two kernels a column), a
// path-finding dynamic program a row at a time, an SRAD-like diffusion (two kernels a
// step), a Jacobi solve repeated until no cell moves more than a tolerance, a histogram
// equalisation (histogram, scan, map), and k-means in fixed point (assign, then update).
// bench/unseen/unseen20.spec launches them; docs/results/unseen-kernels-h200.txt has what an
// H200 and the model gave. Every checked output is deterministic.

// Gaussian elimination, column k: the multipliers m[i][k] = a[i][k] / a[k][k] below it.
extern "C" __global__ void gauss_fan1(const float *a, float *m, int n, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x + k + 1;
    if (i >= n)
        return;
    m[i * n + k] = a[i * n + k] / a[k * n + k];
}

// ... and the rows below it: a[i][j] -= m[i][k] a[k][j], b[i] -= m[i][k] b[k].
extern "C" __global__ void gauss_fan2(float *a, float *b, const float *m, int n, int k)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y + k + 1;
    if (i >= n || j >= n || j < k)
        return;
    a[i * n + j] -= m[i * n + k] * a[k * n + j];
    if (j == k)
        b[i] -= m[i * n + k] * b[k];
}

// Path finding: the cheapest way down a grid of costs, one row a launch; each column takes
// the cheapest of its three upper neighbours. src and dst swap from launch to launch.
extern "C" __global__ void path_row(const int *wall, const int *src, int *dst, int cols, int row)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols)
        return;
    int best = src[c];
    if (c > 0 && src[c - 1] < best)
        best = src[c - 1];
    if (c < cols - 1 && src[c + 1] < best)
        best = src[c + 1];
    dst[c] = best + wall[row * cols + c];
}

// SRAD-like diffusion, step one: each cell's diffusion coefficient from its gradient.
extern "C" __global__ void srad_coef(const float *img, float *coef, int n, float q0)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= n || j >= n)
        return;
    int k = i * n + j;
    float c = img[k];
    float dn = (i > 0 ? img[k - n] : c) - c, ds = (i < n - 1 ? img[k + n] : c) - c;
    float dw = (j > 0 ? img[k - 1] : c) - c, de = (j < n - 1 ? img[k + 1] : c) - c;
    float g2 = (dn * dn + ds * ds + dw * dw + de * de) / (c * c + 1e-6f);
    float l = (dn + ds + dw + de) / (c + 1e-6f);
    float num = 0.5f * g2 - 0.0625f * l * l, den = 1.0f + 0.25f * l;
    float q = num / (den * den + 1e-6f);
    float cf = 1.0f / (1.0f + (q - q0) / (q0 * (1.0f + q0)));
    coef[k] = cf < 0.0f ? 0.0f : cf > 1.0f ? 1.0f : cf;
}

// ... step two: the image moves by the coefficients' weighted differences (into a second
// image: the host swaps the two from step to step).
extern "C" __global__ void srad_update(const float *img, const float *coef, float *out, int n,
                                       float lambda)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= n || j >= n)
        return;
    int k = i * n + j;
    float c = img[k];
    float cn = coef[k], cs = i < n - 1 ? coef[k + n] : cn, ce = j < n - 1 ? coef[k + 1] : cn;
    float dn = (i > 0 ? img[k - n] : c) - c, ds = (i < n - 1 ? img[k + n] : c) - c;
    float dw = (j > 0 ? img[k - 1] : c) - c, de = (j < n - 1 ? img[k + 1] : c) - c;
    out[k] = c + 0.25f * lambda * (cn * dn + cs * ds + cn * dw + ce * de);
}

// A Jacobi sweep for a Laplace problem with fixed borders; any cell that moves more than
// tol sets *moved (the host repeats while it is set).
extern "C" __global__ void jacobi_until(const float *a, float *b, int n, float tol, int *moved)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= n || j >= n)
        return;
    int k = i * n + j;
    if (i == 0 || j == 0 || i == n - 1 || j == n - 1) {
        b[k] = a[k];
        return;
    }
    float v = 0.25f * (a[k - 1] + a[k + 1] + a[k - n] + a[k + n]);
    b[k] = v;
    if (fabsf(v - a[k]) > tol)
        *moved = 1;
}

// Histogram equalisation: the histogram of 8-bit pixels, with a shared-memory histogram a
// CTA and one atomic a bin to the global one.
extern "C" __global__ void heq_hist(const unsigned char *img, int *hist, int npix)
{
    __shared__ int h[256];
    h[threadIdx.x] = 0;
    __syncthreads();
    for (int p = blockIdx.x * blockDim.x + threadIdx.x; p < npix; p += gridDim.x * blockDim.x)
        atomicAdd(&h[img[p]], 1);
    __syncthreads();
    if (h[threadIdx.x])
        atomicAdd(&hist[threadIdx.x], h[threadIdx.x]);
}

// ... its inclusive scan by one CTA of 256 threads (Hillis-Steele in shared memory) into a
// lookup table of the equalised levels ...
extern "C" __global__ void heq_scan(const int *hist, int *lut, int npix)
{
    __shared__ int s[256];
    int t = threadIdx.x;
    s[t] = hist[t];
    __syncthreads();
    for (int d = 1; d < 256; d *= 2) {
        int v = t >= d ? s[t - d] : 0;
        __syncthreads();
        s[t] += v;
        __syncthreads();
    }
    lut[t] = (int)((long long)s[t] * 255 / npix);
}

// ... and the map of every pixel through it.
extern "C" __global__ void heq_map(const unsigned char *img, const int *lut, unsigned char *out,
                                   int npix)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p < npix)
        out[p] = (unsigned char)lut[img[p]];
}

// k-means in fixed point (coordinates in 1/256): each point to its nearest of 8 centroids,
// sums and counts by integer atomics ...
extern "C" __global__ void km_assign(const int *pts, const int *cent, long long *sums, int *counts,
                                     int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = pts[2 * i], y = pts[2 * i + 1], best = 0;
    long long bd = 1LL << 62;
    for (int c = 0; c < 8; c++) {
        long long dx = x - cent[2 * c], dy = y - cent[2 * c + 1], d = dx * dx + dy * dy;
        if (d < bd) {
            bd = d;
            best = c;
        }
    }
    atomicAdd((unsigned long long *)&sums[2 * best], (unsigned long long)x);
    atomicAdd((unsigned long long *)&sums[2 * best + 1], (unsigned long long)y);
    atomicAdd(&counts[best], 1);
}

// ... then each centroid moves to its points' mean, and the sums clear for the next round.
extern "C" __global__ void km_update(int *cent, long long *sums, int *counts)
{
    int c = threadIdx.x;
    if (c >= 8)
        return;
    if (counts[c]) {
        cent[2 * c] = (int)(sums[2 * c] / counts[c]);
        cent[2 * c + 1] = (int)(sums[2 * c + 1] / counts[c]);
    }
    sums[2 * c] = sums[2 * c + 1] = 0;
    counts[c] = 0;
}
