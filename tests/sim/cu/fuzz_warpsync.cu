// fuzz_warpsync.cu — a kernel differential fuzzing of the two models found (2026-11-25):
// lanes leave a loop whose body holds its own BSSY B0 straight to the WARPSYNC.ALL before
// __syncthreads() (no BREAK), while the others wait at BSYNC B0. The SASS model deadlocked
// (each side waiting for the other); test_cli_sass runs it on both models and compares.
#define EMIT() do { out[tid * 6 + 0] = r0; out[tid * 6 + 1] = r1; out[tid * 6 + 2] = r2; out[tid * 6 + 3] = r3; out[tid * 6 + 4] = r4; out[tid * 6 + 5] = r5; } while (0)

extern "C" __global__ void fuzz_warpsync(const unsigned *in, const float *fin, const int *sm, unsigned *out, int n) {
  unsigned ltid = threadIdx.x + threadIdx.y * blockDim.x;
  unsigned bsize = blockDim.x * blockDim.y;
  int tid = (int)(blockIdx.x * bsize + ltid);
  unsigned lane = ltid & 31u;
  unsigned *gacc = out + n * 6;
  unsigned a = in[tid], b = in[(tid * 7 + 3) % n], c = (unsigned)sm[tid];
  int s = sm[(tid * 5 + 1) % n], t = (int)in[(tid + 11) % n];
  unsigned long long w = ((unsigned long long)in[(tid + 1) % n] << 32) | b;
  if (((lane & 2u) == 0u)) {
    switch ((int)(__funnelshift_l(__sad((int)(short)((-2147483647 - 1)), (int)__brev((unsigned)(int)a), 1u), __umulhi(7u, __funnelshift_r((unsigned)w, (((blockIdx.x & 4u) != 0u) ? c : a), (unsigned)(((unsigned long long)b << 32 | c) >> 46))), (unsigned)(float)(unsigned)(float)(unsigned)s) & 7u)) {
    case 3:
      { unsigned n3 = (unsigned)__float2uint_rz(__fadd_rn((float)(int)(short)(t), fabsf((float)(int)lane))) & 7u;
      while (n3-- > 0u) {
        w *= 14270368647326326289ull;
      } }
    }
  }
  { unsigned n11 = threadIdx.x & 7u;
  while (n11-- > 0u) {
    if (((unsigned)__clzll((0xffffffffffffffffull << (__brev(ltid) & 63u))) >= __usad((unsigned)__ffs(threadIdx.x), 0xffu, __float_as_uint((float)(int)lane)))) {
      for (int i0 = 0; i0 < (int)(int)((unsigned)t % 9u); i0++) {
        atomicXor(&gacc[4u + ((__funnelshift_l((__float_as_uint(1e30f) | ((unsigned)i0 / 65537u)), (unsigned)(w >> 32), (unsigned)((w + (unsigned long long)(long long)s) >> 38)) - min(__brev((ltid / 7u)), ((threadIdx.x + b) * a)))) % 2u], c);
      }
      if (((lane & 8u) == 0u)) continue;
    }
    if ((lane >= 17u)) break;
  } }
  __syncthreads();
}
