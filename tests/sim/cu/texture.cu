// texture.cu — texture and surface objects (tex.1d/2d/3d, suld.b, sust.b), which the
// simulator does not run yet: launching one of these kernels is one error naming the
// instruction and its PTX line (test_sim_texture); the SASS model parses TEX/TLD/SULD/SUST.
extern "C" __global__ void t1(cudaTextureObject_t t, float *out, int n) {
  int i = threadIdx.x;
  out[i] = tex1Dfetch<float>(t, i);
  float4 v = tex1D<float4>(t, i + 0.5f);
  out[i] += v.x;
}
extern "C" __global__ void t2(cudaTextureObject_t t, int *out, int w) {
  int x = threadIdx.x, y = blockIdx.x;
  out[y*w+x] = tex2D<int>(t, x + 0.5f, y + 0.5f);
  uint4 u = tex2D<uint4>(t, x, y);
  out[y*w+x] += u.y;
}
extern "C" __global__ void t3(cudaTextureObject_t t, float *out, int w) {
  int x = threadIdx.x, y = blockIdx.x;
  out[y*w+x] = tex3D<float>(t, x + 0.5f, y + 0.5f, 0.5f);
}
extern "C" __global__ void s2(cudaSurfaceObject_t s, cudaSurfaceObject_t d, int w) {
  int x = threadIdx.x, y = blockIdx.x;
  int v = surf2Dread<int>(s, x*4, y, cudaBoundaryModeClamp);
  float f = surf1Dread<float>(s, x*4, cudaBoundaryModeZero);
  unsigned char c = surf2Dread<unsigned char>(s, x, y);
  surf2Dwrite(v + 1 + c + (int)f, d, x*4, y);
  surf1Dwrite((short)v, d, x*2, cudaBoundaryModeTrap);
}
extern "C" __global__ void plain(int *out) {
  out[threadIdx.x] = threadIdx.x * 2;
}
