// fuzz_bsync_arms.cu — a kernel differential fuzzing of the two models found (2026-11-25):
// both arms of an if/else use convergence barrier B1 (BSSY B1 ... BSYNC B1 at two PCs); lanes
// that skip the atomicAnd loop wait at the first BSYNC B1 while the else arm's lanes wait
// at the second. The SASS model released them all at one PC (the else arm's), so 24 lanes
// ran its code; now each group goes on at its own PC. test_cli_sass compares the models.
#define EMIT() do { out[tid * 6 + 0] = r0; out[tid * 6 + 1] = r1; out[tid * 6 + 2] = r2; out[tid * 6 + 3] = r3; out[tid * 6 + 4] = r4; out[tid * 6 + 5] = r5; } while (0)
__device__ __noinline__ unsigned h0(unsigned x, unsigned y, int z, unsigned *gacc) {
  unsigned lane = threadIdx.x & 31u; unsigned acc = 0xffffffffu;
  acc += (x & (__funnelshift_l(lane, 31u, __funnelshift_r((unsigned)z, 0x80000000u, y)) | (__brev((unsigned)z) >> (__funnelshift_l((unsigned)z, 1u, lane) & 31u))));
  return acc;
}

extern "C" __global__ void fuzz_bsync_arms(const unsigned *in, const float *fin, const int *sm, unsigned *out, int n) {
  unsigned ltid = threadIdx.x + threadIdx.y * blockDim.x;
  unsigned bsize = blockDim.x * blockDim.y;
  int tid = (int)(blockIdx.x * bsize + ltid);
  unsigned lane = ltid & 31u;
  unsigned *gacc = out + n * 6;
  unsigned a = in[tid], b = in[(tid * 7 + 3) % n], c = (unsigned)sm[tid];
  int s = sm[(tid * 5 + 1) % n], t = (int)in[(tid + 11) % n];
  float f = fin[tid];
  unsigned long long w = ((unsigned long long)in[(tid + 1) % n] << 32) | b;
  unsigned r0 = 0u, r1 = 0u, r2 = 0u, r3 = 0u, r4 = 0u, r5 = 0u;
  if (((int)__float_as_uint((float)a) > (int)b)) {
    if (((__byte_perm((unsigned)w, (unsigned)w, __sad((int)__brev((unsigned)s), (16), (unsigned)__float2uint_rd(f))) & 4u) != 0u)) {
      for (int i0 = 0; i0 < (int)((int)__brev((unsigned)(s ^ t)) & 7); i0++) {
        atomicAnd(&gacc[10u + (__funnelshift_l((unsigned)__ffs((unsigned)(w >> 32)), (unsigned)w, __vadd4(c, a))) % 2u], (((((-76) / 10) == 0 ? 0 : ((i0 - s) >> 1) % ((-76) / 10)) < max((unsigned)__clz(b), (unsigned)__clz((unsigned)w))) ? (c >> (0xffffffffu & 31u)) : (unsigned)__ffs(a)) | 0xff00ff00u);
      }
      a = h0(threadIdx.x, (unsigned)w, ((int)lane - 16), gacc);
    } else {
      r3 = __sad((max((s >> (lane & 31u)), (int)__brev((unsigned)t)) + min(((-2147483647 - 1) & (28)), (-17))), ((int)b == 0 ? 0 : ((int)((long long)5196704076369501626ull >> 53) >> 1) % (int)b), (unsigned)__ffs((unsigned)__ffs(__funnelshift_l(threadIdx.x, blockIdx.x, blockIdx.x))));
    }
  }
  EMIT();
}
