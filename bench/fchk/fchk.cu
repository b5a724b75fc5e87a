// fchk.cu — which operands send IEEE single division to its slow path on the GPU.
// ptxas divides a / b with a reciprocal and FFMA refinement, and FCHK P, a, b decides whether
// that fast path may be wrong; where it may, the lane calls a slow routine. FCHK's rule is
// not documented, so this measures it: one lane per warp divides one pair between two clock
// reads, and the slow path takes hundreds of cycles more than the fast one.
// Pair i covers exponent field (i >> 11) & 255 of a and (i >> 3) & 255 of b, with mantissas
// by i & 7: zero or all ones on each side (0-3), random (4-7); signs random. The pairs are
// written out beside the times. bench/fchk.py reads them (docs/results/fchk-h200.txt).
__device__ unsigned mantissa(int c, unsigned r) { return c == 0 ? 0 : c == 1 ? 0x7fffff : r & 0x7fffff; }

extern "C" __global__ void fchk_time(const unsigned *rnd, float *a, float *b, float *q,
                                     long long *dt, int n)
{
    int i = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if ((threadIdx.x & 31) || i >= n)
        return;
    unsigned ra = rnd[2 * i], rb = rnd[2 * i + 1];
    int c = i & 7;
    unsigned ma = mantissa(c < 4 ? (c & 1) : 2, ra), mb = mantissa(c < 4 ? (c >> 1) : 2, rb);
    float x = __uint_as_float((ra & 0x80000000u) | (unsigned)((i >> 11) & 255) << 23 | ma);
    float y = __uint_as_float((rb & 0x80000000u) | (unsigned)((i >> 3) & 255) << 23 | mb);
    // Each clock read follows, in issue order, a test of the values before it: of the
    // operands (t0) and of the quotient (t1). The tests are never true for these inputs.
    unsigned long long t0, t1;
    unsigned dep = __float_as_uint(x) ^ __float_as_uint(y);
    asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 1234567; @p mov.u64 %0, %%clock64;"
                 " @!p mov.u64 %0, 0; }" : "=l"(t0) : "r"(dep) : "memory");
    float r = x / y;
    asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 1234567; @p mov.u64 %0, %%clock64;"
                 " @!p mov.u64 %0, 0; }" : "=l"(t1) : "r"(__float_as_uint(r)) : "memory");
    a[i] = x;
    b[i] = y;
    q[i] = r;
    dt[i] = (long long)(t1 - t0);
}
