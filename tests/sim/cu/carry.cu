// carry.cu — the extended-precision carry chain of double-precision cos: for large
// arguments nvcc's slow-path argument reduction multiplies by 2/pi in 32-bit limbs with
// mad.lo.cc / madc.hi / madc.hi.cc. test_sim_arith.c compares with the host's cos().
extern "C" __global__ void dcos(double *out)
{
    int t = threadIdx.x;
    // (1 + t/64) * 2^(20 + 15 t): from 2^20 (fast path) up to 2^965 (slow path)
    double scale = __longlong_as_double((long long)(1023 + 20 + 15 * t) << 52);
    out[t] = cos((1.0 + t * 0.015625) * scale); // exact: no rounding for fma to change
}
