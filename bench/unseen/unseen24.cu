// unseen24.cu — a twenty-fourth set of kernels written as a new user would, before its first
// GPU run: the control flow of everyday code, where each lane leaves its loop by its own data
// and ptxas is free to if-convert, unroll and merge: Collatz chains, point-in-polygon
// crossings, the common items of two sorted lists, a DFA walk over bytes, a triangle's rows
// (one more trip a lane), a search that leaves two loops by goto, a filter of continues and a
// break, and the nearest sphere a ray hits with a material switch.
// bench/unseen/unseen24.spec launches them; docs/results/unseen-kernels-h200.txt has what an
// H200 and the model gave. Every output is deterministic.

// Steps of the Collatz chain from a start below 2^17, at most 400.
extern "C" __global__ void collatz_len(const unsigned *start, int *len, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    unsigned long long x = start[t] % 131071u + 1u;
    int steps = 0;
    while (x != 1 && steps < 400) {
        x = (x & 1) ? 3 * x + 1 : x >> 1;
        steps++;
    }
    len[t] = steps;
}

// Is each point inside the polygon (even-odd rule over its nv edges)?
extern "C" __global__ void pip_count(const float *px, const float *py, const float *vx,
                                     const float *vy, int nv, int *inside, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    float x = px[t], y = py[t];
    bool in = false;
    for (int i = 0, j = nv - 1; i < nv; j = i++) {
        float yi = vy[i], yj = vy[j];
        if ((yi > y) != (yj > y) && x < (vx[j] - vx[i]) * (y - yi) / (yj - yi) + vx[i])
            in = !in;
    }
    inside[t] = in;
}

// Each thread walks two sorted lists, given by their gaps (each value is the sum of the gaps
// so far), of its own lengths (8 to 63), and counts the values both hold.
extern "C" __global__ void sorted_common(const int *gapa, const int *gapb, const int *lens,
                                         int *common, int n, int maxlen)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    const int *ga = gapa + (size_t)t * maxlen, *gb = gapb + (size_t)t * maxlen;
    int la = 8 + lens[t] % 56, lb = 8 + (lens[t] >> 8) % 56;
    int i = 0, j = 0, va = ga[0], vb = gb[0], c = 0;
    while (i < la && j < lb) {
        if (va < vb) {
            if (++i < la) va += ga[i];
        } else if (va > vb) {
            if (++j < lb) vb += gb[j];
        } else {
            c++;
            if (++i < la) va += ga[i];
            if (++j < lb) vb += gb[j];
        }
    }
    common[t] = c;
}

// A DFA of 8 states over a 4-letter alphabet walks each thread's 64 bytes: it counts the
// bytes after which it is in an accepting state (states 5 and 6) and stops in the dead
// state 7.
extern "C" __global__ void dfa_walk(const unsigned char *text, const unsigned char *delta,
                                    int *accepts, int *stopped, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    const unsigned char *s = text + (size_t)t * 64;
    int q = 0, a = 0, k = 0;
    for (; k < 64; k++) {
        q = delta[q * 4 + (s[k] & 3)];
        if (q == 7)
            break;
        if (q == 5 || q == 6)
            a++;
    }
    accepts[t] = a;
    stopped[t] = k;
}

// Row r of a lower-triangular matrix times a vector: r + 1 products, so the lanes of a warp
// leave the loop one trip after another.
extern "C" __global__ void tri_rows(const float *l, const float *v, float *y, int n, int rows)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int r = t % rows;
    const float *row = l + (size_t)(t / rows) * rows * rows + (size_t)r * rows;
    float s = 0.0f;
    for (int k = 0; k <= r; k++)
        s += row[k] * v[k];
    y[t] = s;
}

// In each thread's 12x12 tile, the first (i, j), i < j, whose mirrored entries sum to the
// target; -1 where none does. goto leaves both loops.
extern "C" __global__ void pair_goto(const int *m, int *pos, int n, int target)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    const int *a = m + (size_t)t * 144;
    int found = -1;
    for (int i = 0; i < 12; i++)
        for (int j = i + 1; j < 12; j++)
            if (a[i * 12 + j] + a[j * 12 + i] == target) {
                found = i * 12 + j;
                goto done;
            }
done:
    pos[t] = found;
}

// Each thread sums the square roots of its k values that pass three filters, and stops
// once the sum passes a limit.
extern "C" __global__ void filter_continue(const float *v, float *sum, int *used, int n, int k,
                                           float limit)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    const float *p = v + (size_t)t * k;
    float s = 0.0f;
    int u = 0;
    for (int i = 0; i < k; i++) {
        float x = p[i];
        if (x < 0.0f)
            continue;
        if (x > 0.9f)
            continue;
        if ((__float_as_uint(x) & 0x7) == 0)
            continue;
        s += sqrtf(x);
        u++;
        if (s > limit)
            break;
    }
    sum[t] = s;
    used[t] = u;
}

// The nearest of ns spheres each ray hits, and a shade by the sphere's material: 0 diffuse,
// 1 a few reflections of a power, 2 a sine stripe.
extern "C" __global__ void ray_nearest(const float *ray, const float *sph, int *hit, float *shade,
                                       int n, int ns)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    float ox = ray[6 * t], oy = ray[6 * t + 1], oz = ray[6 * t + 2];
    float dx = ray[6 * t + 3], dy = ray[6 * t + 4], dz = ray[6 * t + 5];
    float inv = rsqrtf(dx * dx + dy * dy + dz * dz);
    dx *= inv, dy *= inv, dz *= inv;
    float best = 1e30f;
    int b = -1;
    for (int s = 0; s < ns; s++) {
        const float *q = sph + 5 * s;
        float cx = q[0] - ox, cy = q[1] - oy, cz = q[2] - oz, r = q[3];
        float bb = cx * dx + cy * dy + cz * dz;
        if (bb < 0.0f)
            continue;
        float disc = bb * bb - (cx * cx + cy * cy + cz * cz) + r * r;
        if (disc < 0.0f)
            continue;
        float d = bb - sqrtf(disc);
        if (d > 0.0f && d < best) {
            best = d;
            b = s;
        }
    }
    float c = 0.0f;
    if (b >= 0) {
        int mat = (int)sph[5 * b + 4];
        switch (mat) {
        case 0:
            c = 0.8f / (1.0f + best);
            break;
        case 1: {
            float e = 1.0f;
            for (int k = 0; k < 1 + (t & 3); k++)
                e *= 0.5f + 0.25f * dx;
            c = e;
            break;
        }
        default:
            c = 0.5f + 0.5f * __sinf(8.0f * (oy + best * dy));
        }
    }
    hit[t] = b;
    shade[t] = c;
}
