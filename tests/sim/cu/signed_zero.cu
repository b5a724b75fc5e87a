// signed_zero.cu — where the sign of a float zero rests on how a SASS operand modifier
// reads RZ: ptxas 13.0 writes fabsf(p ? -0.0f : 3.0f) as `FSEL Rd, -RZ, 3, P` and
// x + -0.0f (which keeps x's zero sign) as `FADD Rd, |Rx|, -RZ`. The SASS model reads -RZ
// as -0.0 (a sign flip, as every float operand's `-`); C says fabsf gives +0.0. The GPU
// (an H200, tests/gpu/signed_zero.spec) gives -0.0, as the SASS model does.
__global__ void signed_zero(const float *in, unsigned *out)
{
    unsigned t = threadIdx.x, lane = t & 31u;
    float v = in[t];
    out[t] = __float_as_uint(fabsf(lane >= 4u ? -0.0f : 3.0f));
    out[32 + t] = __float_as_uint(fabsf(v > 0.0f ? -0.0f : 3.0f));
    out[64 + t] = __float_as_uint(v > 0.0f ? -0.0f : fabsf(v));
    out[96 + t] = __float_as_uint(fabsf(v) + -0.0f);
}
