// unseen22.cu — a twenty-second set of kernels written as a new user would, before its first
// GPU run: searches and updates whose lanes part by their data and meet at words other
// warps write. Eight-queens backtracking with a stack in local memory, a merge path of two
// sorted arrays, a float atomicMax made of atomicCAS on 64 bins, a lock-free push onto 256
// linked lists and the walk of each list, rejection sampling in a disk, neighbour counts over
// a grid of cells, Floyd-Warshall on small graphs in shared memory, and Bresenham lines drawn
// with atomicAdd onto a canvas. bench/unseen/unseen22.spec launches them;
// docs/results/unseen-kernels-h200.txt has what an H200 and the model gave. Every checked
// output is deterministic: the lists' order follows the GPU's timing, but their lengths and
// the sums of their members do not.

// Eight queens, the first three rows' columns from the thread's number (t & 511: three
// octal digits); the other five rows by backtracking over bit masks, one stack level a row.
// Each thread writes how many full boards its prefix leads to (the 512 sum to 92).
extern "C" __global__ void nqueens_bt(int *count, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    const unsigned full = 0xffu;
    int p = t & 511;
    unsigned cols = 0, ld = 0, rd = 0;
    int ok = 1;
    for (int r = 0; r < 3; r++) {
        unsigned b = 1u << ((p >> (3 * r)) & 7);
        if ((cols | ld | rd) & b) {
            ok = 0;
            break;
        }
        cols |= b;
        ld = ((ld | b) << 1) & full;
        rd = (rd | b) >> 1;
    }
    int found = 0;
    if (ok) {
        unsigned sc[5], sl[5], sr[5], sa[5];
        int d = 0;
        sc[0] = cols;
        sl[0] = ld;
        sr[0] = rd;
        sa[0] = ~(cols | ld | rd) & full;
        while (d >= 0) {
            unsigned a = sa[d];
            if (!a) {
                d--;
                continue;
            }
            unsigned b = a & (0u - a);
            sa[d] = a ^ b;
            if (d == 4) {
                found++;
                continue;
            }
            unsigned c2 = sc[d] | b, l2 = ((sl[d] | b) << 1) & full, r2 = (sr[d] | b) >> 1;
            d++;
            sc[d] = c2;
            sl[d] = l2;
            sr[d] = r2;
            sa[d] = ~(c2 | l2 | r2) & full;
        }
    }
    count[t] = found;
}

__device__ __forceinline__ unsigned mix32(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

// Two sorted arrays of n: a grows evenly (65 a step), b as i*i/64 + i (dense first, sparse
// last), each with its own small jitter that keeps it sorted.
extern "C" __global__ void fill_sorted(int *a, int *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    a[i] = 65 * i + (int)(mix32((unsigned)i) % 65u);
    b[i] = (int)(((long long)i * i) >> 6) + i;
}

// Merge path: thread t writes outputs 8t .. 8t+7 of the merge of a and b: a binary search
// along its diagonal for where the two inputs split, then 8 steps of the sequential merge
// (a first on ties).
extern "C" __global__ void merge_path(const int *a, const int *b, int *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int diag = t * 8;
    if (diag >= 2 * n)
        return;
    int lo = max(0, diag - n), hi = min(diag, n);
    while (lo < hi) {
        int mid = (lo + hi) >> 1;
        if (a[mid] <= b[diag - 1 - mid])
            lo = mid + 1;
        else
            hi = mid;
    }
    int i = lo, j = diag - lo;
    for (int k = 0; k < 8 && diag + k < 2 * n; k++) {
        bool take_a = j >= n || (i < n && a[i] <= b[j]);
        out[diag + k] = take_a ? a[i++] : b[j++];
    }
}

// A float atomicMax as users write it from atomicCAS: each value goes to one of nbins bins
// by a hash of its index and is swapped in while it is larger than what the bin holds.
extern "C" __global__ void fmax_cas(const float *val, int *bins, int n, int nbins)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    float v = val[t];
    int *addr = &bins[mix32((unsigned)t) % (unsigned)nbins];
    int old = *addr;
    while (__int_as_float(old) < v) {
        int assumed = old;
        old = atomicCAS(addr, assumed, __float_as_int(v));
        if (old == assumed)
            break;
    }
}

// A lock-free push of node i onto the list of bucket key[i] % nb (head -1: empty).
extern "C" __global__ void list_push(const int *key, int *head, int *next, int n, int nb)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int *h = &head[key[i] % nb];
    int old;
    do {
        old = *h;
        next[i] = old;
    } while (atomicCAS(h, old, i) != old);
}

// Each bucket's list walked: its length and the sum of its nodes.
extern "C" __global__ void list_walk(const int *head, const int *next, int *len, int *sum,
                                     int nb)
{
    int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= nb)
        return;
    int c = 0, s = 0;
    for (int p = head[b]; p >= 0; p = next[p]) {
        c++;
        s += p;
    }
    len[b] = c;
    sum[b] = s;
}

// Rejection sampling: xorshift32 draws of two 12-bit coordinates until one falls inside the
// disk of radius 1843 (0.45 of the square's side) about the corner, four times; each
// thread keeps the sum of x ^ y over its accepted points and how many draws it made.
extern "C" __global__ void reject_sample(const unsigned *seed, unsigned *acc, int *tries, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    unsigned s = seed[t] | 1u, sum = 0;
    int k = 0;
    for (int got = 0; got < 4; got++) {
        unsigned x, y;
        do {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            x = s & 0xfffu;
            y = (s >> 12) & 0xfffu;
            k++;
        } while (x * x + y * y >= 1843u * 1843u);
        sum += x ^ y;
    }
    acc[t] = sum;
    tries[t] = k;
}

// Particles in a g x g grid of unit cells, up to 8 a cell (ccount[c] of them, in slots
// c*8 ..), each at its cell's corner plus (fx, fy)/256. Each particle counts the others
// within one cell's width among the 3 x 3 cells around its own; empty slots write -1.
extern "C" __global__ void cell_count(const int *ccount, const int *fx, const int *fy, int *near,
                                      int g)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int cell = t >> 3, slot = t & 7;
    if (cell >= g * g)
        return;
    if (slot >= ccount[cell]) {
        near[t] = -1;
        return;
    }
    int cx = cell % g, cy = cell / g;
    int x = cx * 256 + fx[t], y = cy * 256 + fy[t];
    int cnt = 0;
    for (int dy = -1; dy <= 1; dy++) {
        int ny = cy + dy;
        if (ny < 0 || ny >= g)
            continue;
        for (int dx = -1; dx <= 1; dx++) {
            int nx = cx + dx;
            if (nx < 0 || nx >= g)
                continue;
            int nc = ny * g + nx, m = ccount[nc];
            for (int s = 0; s < m; s++) {
                int q = nc * 8 + s;
                if (q == t)
                    continue;
                int ddx = nx * 256 + fx[q] - x, ddy = ny * 256 + fy[q] - y;
                if (ddx * ddx + ddy * ddy < 256 * 256)
                    cnt++;
            }
        }
    }
    near[t] = cnt;
}

// Floyd-Warshall on one 32-vertex graph a CTA, its distance matrix in shared memory; the
// diagonal is 0 whatever the input says.
extern "C" __global__ void floyd_smem(int *dist)
{
    __shared__ int d[32 * 32];
    int *g = dist + (size_t)blockIdx.x * 1024;
    for (int e = threadIdx.x; e < 1024; e += blockDim.x)
        d[e] = (e >> 5) == (e & 31) ? 0 : g[e];
    __syncthreads();
    for (int k = 0; k < 32; k++) {
        for (int e = threadIdx.x; e < 1024; e += blockDim.x) {
            int i = e >> 5, j = e & 31;
            int via = d[i * 32 + k] + d[k * 32 + j];
            if (via < d[e])
                d[e] = via;
        }
        __syncthreads();
    }
    for (int e = threadIdx.x; e < 1024; e += blockDim.x)
        g[e] = d[e];
}

// Bresenham: segment s from (seg[4s], seg[4s+1]) to (seg[4s+2], seg[4s+3]) on a 64 x 64
// canvas, each pixel it passes counted with atomicAdd.
extern "C" __global__ void bresenham(const int *seg, int *canvas, int nseg)
{
    int s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= nseg)
        return;
    int x0 = seg[4 * s], y0 = seg[4 * s + 1], x1 = seg[4 * s + 2], y1 = seg[4 * s + 3];
    int dx = abs(x1 - x0), sx = x0 < x1 ? 1 : -1;
    int dy = -abs(y1 - y0), sy = y0 < y1 ? 1 : -1;
    int err = dx + dy;
    while (true) {
        atomicAdd(&canvas[y0 * 64 + x0], 1);
        if (x0 == x1 && y0 == y1)
            break;
        int e2 = 2 * err;
        if (e2 >= dy) {
            err += dy;
            x0 += sx;
        }
        if (e2 <= dx) {
            err += dx;
            y0 += sy;
        }
    }
}
