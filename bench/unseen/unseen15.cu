// unseen15.cu — a fifteenth set of kernels written as a new user would, before its first GPU
// run, after the integer pipes were priced (docs/results/pipes-h200.txt): Stein's binary GCD,
// a bitwise CRC-32, base64 encoding through a table, xorshift64* draws counted into shared
// bins, modular exponentiation with 64-bit products, a popcount join over 128-bit masks, and
// FNV-1a hashes of strings of varying length.
// bench/unseen/unseen15.spec launches them; docs/results/unseen-kernels-h200.txt has what an
// H200 and the model gave. Every checked output is deterministic.

// gcd(a, b) by Stein's algorithm: shifts, trailing-zero counts and subtractions.
extern "C" __global__ void binary_gcd(const unsigned *a, const unsigned *b, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned u = a[i], v = b[i];
    if (u == 0 || v == 0) {
        out[i] = u | v;
        return;
    }
    int shift = __ffs(u | v) - 1;
    u >>= __ffs(u) - 1;
    do {
        v >>= __ffs(v) - 1;
        if (u > v) {
            unsigned t = u;
            u = v;
            v = t;
        }
        v -= u;
    } while (v != 0);
    out[i] = u << shift;
}

// CRC-32 (reflected, polynomial 0xEDB88320) of each thread's 32 bytes, bit by bit.
extern "C" __global__ void crc32_bits(const unsigned char *data, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const unsigned char *p = data + (size_t)i * 32;
    unsigned crc = 0xffffffffu;
    for (int k = 0; k < 32; k++) {
        crc ^= p[k];
        for (int b = 0; b < 8; b++)
            crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
    }
    out[i] = ~crc;
}

// Base64 encoding of each thread's 12 bytes into 16 characters (a table in constant memory).
__constant__ char b64[65] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
extern "C" __global__ void base64_enc(const unsigned char *in, unsigned char *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const unsigned char *p = in + (size_t)i * 12;
    unsigned char *q = out + (size_t)i * 16;
    for (int g = 0; g < 4; g++) {
        unsigned w = (unsigned)p[3 * g] << 16 | (unsigned)p[3 * g + 1] << 8 | p[3 * g + 2];
        q[4 * g] = b64[w >> 18];
        q[4 * g + 1] = b64[(w >> 12) & 63];
        q[4 * g + 2] = b64[(w >> 6) & 63];
        q[4 * g + 3] = b64[w & 63];
    }
}

// DRAWS xorshift64* numbers per thread from its seed, counted by their top 4 bits into the
// CTA's 16 shared bins, which are then added to the global ones.
extern "C" __global__ void xorshift_bins(const unsigned long long *seeds, int *bins, int n,
                                         int draws)
{
    __shared__ int local[16];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x < 16)
        local[threadIdx.x] = 0;
    __syncthreads();
    if (i < n) {
        unsigned long long s = seeds[i] | 1ull;
        for (int k = 0; k < draws; k++) {
            s ^= s >> 12;
            s ^= s << 25;
            s ^= s >> 27;
            unsigned long long r = s * 0x2545f4914f6cdd1dull;
            atomicAdd(&local[r >> 60], 1);
        }
    }
    __syncthreads();
    if (threadIdx.x < 16)
        atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

// base^exp mod m by square-and-multiply, with 64-bit products reduced by m (below 2^31).
extern "C" __global__ void mod_pow(const unsigned *base, const unsigned *exp, const unsigned *mod,
                                   unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned long long m = mod[i], b = base[i] % m, r = 1 % m;
    unsigned e = exp[i];
    while (e) {
        if (e & 1u)
            r = r * b % m;
        b = b * b % m;
        e >>= 1;
    }
    out[i] = (unsigned)r;
}

// For each thread's 128-bit mask, the number of the 32 candidate masks that share at least
// LIMIT set bits with it, and the sum of those shared counts.
extern "C" __global__ void popc_join(const unsigned *masks, const unsigned *cands, int *hits,
                                     int *shared, int n, int limit)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const unsigned *m = masks + (size_t)i * 4;
    int h = 0, s = 0;
    for (int c = 0; c < 32; c++) {
        const unsigned *q = cands + c * 4;
        int k = __popc(m[0] & q[0]) + __popc(m[1] & q[1]) + __popc(m[2] & q[2]) +
                __popc(m[3] & q[3]);
        if (k >= limit) {
            h++;
            s += k;
        }
    }
    hits[i] = h;
    shared[i] = s;
}

// FNV-1a hash of each thread's string: its length is the first byte of its 40-byte field
// (4..39), the characters follow.
extern "C" __global__ void fnv_strings(const unsigned char *fields, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const unsigned char *p = fields + (size_t)i * 40;
    int len = 4 + p[0] % 36;
    unsigned h = 2166136261u;
    for (int k = 1; k <= len; k++) {
        h ^= p[k];
        h *= 16777619u;
    }
    out[i] = h;
}
