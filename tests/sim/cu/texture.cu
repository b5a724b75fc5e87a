// texture.cu — texture and surface objects: tex.1d/2d/3d with integer and float coordinates
// read from a buffer (so one kernel covers every filter and address mode the spec sets),
// suld.b/sust.b with .trap/.clamp/.zero. test_sim_texture and tests/gpu/ptx_texture.spec
// run them, on both models (the SASS one through TEX, TLD, SULD and SUST).
extern "C" __global__ void fetch1(cudaTextureObject_t t, const int *x, int *out) {
  int i = threadIdx.x;
  out[i] = tex1Dfetch<int>(t, x[i]);
}
extern "C" __global__ void t1(cudaTextureObject_t t, const float *x, float *out) {
  int i = threadIdx.x;
  float4 v = tex1D<float4>(t, x[i]);
  out[2 * i] = v.x;
  out[2 * i + 1] = v.y;
}
extern "C" __global__ void t2(cudaTextureObject_t t, const float *xy, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = tex2D<float>(t, xy[2 * i], xy[2 * i + 1]);
}
extern "C" __global__ void t2i(cudaTextureObject_t t, int *out, int w) {
  int x = threadIdx.x, y = blockIdx.x;
  int a = tex2D<int>(t, x + 0.5f, y + 0.5f);
  uint4 u = tex2D<uint4>(t, x - 2, y);
  out[y * w + x] = a * 1000 + (int)u.x;
}
extern "C" __global__ void t3(cudaTextureObject_t t, const float *xyz, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = tex3D<float>(t, xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]);
}
extern "C" __global__ void s2(cudaSurfaceObject_t s, cudaSurfaceObject_t d, int w) {
  int x = threadIdx.x, y = blockIdx.x;
  int v = surf2Dread<int>(s, (x - 4) * 4, y, cudaBoundaryModeClamp);
  int z = surf1Dread<int>(s, (x + 8) * 4, cudaBoundaryModeZero);
  unsigned char c = surf2Dread<unsigned char>(s, x * 4, y);
  surf2Dwrite(v * 10 + z * 100 + c, d, x * 4, y);
}
extern "C" __global__ void s1(cudaSurfaceObject_t d, int n) {
  int x = threadIdx.x;
  surf1Dwrite((short)(x * 3), d, x * 2, cudaBoundaryModeZero);
  surf1Dwrite(x, d, (x + n) * 4, cudaBoundaryModeTrap);
}
extern "C" __global__ void plain(int *out) {
  out[threadIdx.x] = threadIdx.x * 2;
}
