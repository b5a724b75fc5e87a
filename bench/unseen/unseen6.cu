// unseen6.cu — a sixth set of kernels written as a new user would, after the timing model
// learned what calls and stores cost (branch.call_cycles, the L2 write-request bound), to
// see whether that holds on code it was not built from: a recursive quicksort of a local
// array, a recursive walk of an implicit tree, a per-thread local histogram, recursive
// Euclid and fast power, shape areas through a table of function pointers, a 4x4
// elimination in local memory, a scatter by a stride coprime to the size, and an array-of-structs
// copy. bench/unseen/unseen6.spec launches them; docs/results/unseen-kernels-h200.txt has
// what an H200 and the models gave.

#define QN 16

__device__ __noinline__ void qsort_rec(int *a, int lo, int hi)
{
    if (lo >= hi)
        return;
    int p = a[(lo + hi) / 2], i = lo, j = hi;
    while (i <= j) {
        while (a[i] < p) i++;
        while (a[j] > p) j--;
        if (i <= j) {
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
            i++;
            j--;
        }
    }
    qsort_rec(a, lo, j);
    qsort_rec(a, i, hi);
}

// Each thread sorts QN values of its own, recursively, and writes their checksum.
extern "C" __global__ void quicksort_local(const int *in, int *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int a[QN];
    for (int k = 0; k < QN; k++)
        a[k] = in[(t * 7 + k * 13) % n] % 1000;
    qsort_rec(a, 0, QN - 1);
    int s = 0;
    for (int k = 0; k < QN; k++)
        s = s * 31 + a[k];
    out[t] = s;
}

// Nodes of an implicit binary tree (children 2i+1, 2i+2) weigh w[i]; a walk goes down while
// the weight is odd, both ways.
__device__ __noinline__ int walk(const int *w, int node, int nodes, int depth)
{
    if (node >= nodes || depth > 12)
        return 0;
    int v = w[node];
    if ((v & 1) == 0)
        return v & 7;
    return 1 + walk(w, 2 * node + 1, nodes, depth + 1) + walk(w, 2 * node + 2, nodes, depth + 1);
}

extern "C" __global__ void tree_walk(const int *w, const int *start, int *out, int n, int nodes)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n)
        out[t] = walk(w, start[t] % 64, nodes, 0);
}

// A histogram of 32 bins per thread, in local memory, over 64 values; the fullest bin out.
extern "C" __global__ void local_hist(const int *in, int *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int h[32];
    for (int b = 0; b < 32; b++)
        h[b] = 0;
    for (int k = 0; k < 64; k++)
        h[(in[(t + k * 17) % n] >> 3) & 31]++;
    int best = 0;
    for (int b = 1; b < 32; b++)
        if (h[b] > h[best])
            best = b;
    out[t] = best * 100 + h[best];
}

__device__ __noinline__ int gcd_rec(int a, int b)
{
    return b == 0 ? a : gcd_rec(b, a % b);
}

__device__ __noinline__ unsigned pow_rec(unsigned x, int e)
{
    if (e == 0)
        return 1u;
    unsigned h = pow_rec(x, e / 2);
    return (e & 1) ? h * h * x : h * h;
}

// Recursive Euclid of two inputs, and x^e by halving e (e from 0 to 63).
extern "C" __global__ void gcd_pow(const int *in, int *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int a = in[t] & 0xffff, b = in[(t * 5 + 1) % n] & 0xffff;
    out[t] = gcd_rec(a + 1, b + 1) + (int)pow_rec((unsigned)a | 1u, b & 63);
}

typedef float (*area_fn)(float, float);
__device__ float area_rect(float a, float b) { return a * b; }
__device__ float area_tri(float a, float b) { return 0.5f * a * b; }
__device__ float area_ellipse(float a, float b) { return 3.14159265f * a * b; }
__device__ float area_trap(float a, float b) { return 0.5f * (a + b) * b; }

// Areas of shapes by kind, through a table of device function pointers.
extern "C" __global__ void shape_areas(const int *kind, const float *da, const float *db,
                                       float *area, int n)
{
    area_fn table[4] = { area_rect, area_tri, area_ellipse, area_trap };
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    float s = 0.f;
    for (int k = 0; k < 4; k++) {
        int i = (t + k * 97) % n;
        s += table[kind[i] & 3](da[i], db[i]);
    }
    area[t] = s;
}

// Gaussian elimination with partial pivoting of a 4x4 system per thread, in local memory
// (the pivot row is picked at run time), solved; the solution's sum out.
extern "C" __global__ void solve4(const float *m, float *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    float a[4][5];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 5; c++)
            a[r][c] = m[(t * 20 + r * 5 + c) % (n * 20)] + (r == c ? 4.f : 0.f);
    for (int c = 0; c < 4; c++) {
        int p = c;
        for (int r = c + 1; r < 4; r++)
            if (fabsf(a[r][c]) > fabsf(a[p][c]))
                p = r;
        for (int k = 0; k < 5; k++) {
            float x = a[c][k];
            a[c][k] = a[p][k];
            a[p][k] = x;
        }
        for (int r = c + 1; r < 4; r++) {
            float f = a[r][c] / a[c][c];
            for (int k = c; k < 5; k++)
                a[r][k] -= f * a[c][k];
        }
    }
    float x[4], s = 0.f;
    for (int r = 3; r >= 0; r--) {
        float v = a[r][4];
        for (int k = r + 1; k < 4; k++)
            v -= a[r][k] * x[k];
        x[r] = v / a[r][r];
        s += x[r];
    }
    out[t] = s;
}

// out[i * 7919 mod n] = in[i] * 3 (a permutation while n has no factor 7919): every lane a
// line of its own.
extern "C" __global__ void scatter_perm(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[(int)((long long)i * 7919 % n)] = in[i] * 3;
}

struct particle { float x, y, z; };

// An array of 12-byte structs moved by a velocity: strided loads and stores.
extern "C" __global__ void aos_move(const particle *p, const float *v, particle *q, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    particle a = p[i];
    float s = v[i];
    a.x += s;
    a.y -= 0.5f * s;
    a.z += 2.f * s;
    q[i] = a;
}
