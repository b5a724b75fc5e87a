// arith.cu — integer, bit, conversion and IEEE rounding semantics, compared with a CPU
// computation in test_sim_arith.c: division by zero, shifts past the width, mul.hi/wide,
// brev/popc/clz/ffs, byte_perm (prmt), funnel shifts, sad, min/max, float<->int with each
// rounding mode and saturation, directed-rounding f32 arithmetic, f64, 64-bit integers.
#define NOUT 32
extern "C" __global__ void arith(const int *ina, const int *inb, const int *inc, int *out)
{
    int t = threadIdx.x;
    int a = ina[t], b = inb[t], c = inc[t];
    unsigned ua = (unsigned)a;
    float f = a / 4096.0f, g = c / 65536.0f + 0.5f;
    double d = (double)a * 1.25;
    long long la = (long long)a * c;
    unsigned long long ub = (unsigned long long)(unsigned)c << 20 | (unsigned)b;
    int *o = out + t * NOUT;
    o[0] = a / b;
    o[1] = a % b;
    o[2] = ua >> (b & 63);
    o[3] = __mulhi(a, c);
    o[4] = (int)(((long long)a * c) >> 7);
    o[5] = __brev(ua);
    o[6] = __popc(ua);
    o[7] = __clz(a);
    o[8] = __ffs(a);
    o[9] = __byte_perm(ua, (unsigned)c, 0x3210u ^ (unsigned)(t & 0x7777));
    o[10] = __funnelshift_l(ua, (unsigned)c, (unsigned)t);
    o[11] = __funnelshift_r(ua, (unsigned)c, (unsigned)t);
    o[12] = __sad(a, c, 7u);
    o[13] = min(a, c);
    o[14] = (int)max(ua, (unsigned)c);
    o[15] = __float2int_rn(f);
    o[16] = __float2int_rz(f);
    o[17] = __float2int_rd(f);
    o[18] = __float2int_ru(f);
    o[19] = __float_as_int(__fadd_rz(f, g));
    o[20] = __float_as_int(__fmul_ru(f, g));
    o[21] = __float_as_int(__fdiv_rn(f, g));
    o[22] = __float_as_int(sqrtf(fabsf(f)));
    o[23] = __float_as_int(fmaf(f, g, 1.0f));
    o[24] = (int)__float2uint_rn(f);
    o[25] = __double2int_rn(d);
    o[26] = (int)(short)a;
    o[27] = __float_as_int(__double2float_rz(d / 3.0));
    o[28] = (int)(la / (b ? b : 3));
    o[29] = (int)(__umul64hi(ub, (unsigned long long)la));
    o[30] = __float_as_int((float)a) ^ __float_as_int(__int2float_rz(a));
    o[31] = (int)((ua >> (t & 15)) & 31u);
}

// 128-bit unsigned arithmetic: carry chains (add.cc/addc, mad.lo.cc/madc.hi, mul.hi.u64).
extern "C" __global__ void arith128(const unsigned long long *x, unsigned long long *out)
{
    int t = threadIdx.x;
    unsigned __int128 p = (unsigned __int128)x[t] * x[t + 1];
    unsigned __int128 q = p * x[t + 2] + ((unsigned __int128)x[t + 3] << 64) + x[t + 4];
    out[t * 2] = (unsigned long long)q;
    out[t * 2 + 1] = (unsigned long long)(q >> 64);
}

// 128-bit division and remainder by constants (nvcc's inline code mixes add.cc, sub.cc,
// mad.lo.cc and subc in one chain: the carry a subtraction leaves is "no borrow"), and a
// 128-bit subtraction with borrows.
extern "C" __global__ void div128(const unsigned long long *x, unsigned long long *out)
{
    int t = threadIdx.x;
    __int128 q = (__int128)((unsigned __int128)x[t] * x[t + 1]) ^ ((__int128)x[t + 2] << 64);
    out[t * 4] = (unsigned long long)(q / 1000000007);
    out[t * 4 + 1] = (unsigned long long)((unsigned __int128)q % 998244353u);
    out[t * 4 + 2] = (unsigned long long)((unsigned __int128)q / 0x1234567890abull >> 5);
    __int128 d = q - ((__int128)x[t + 3] << 37) - x[t + 4];
    out[t * 4 + 3] = (unsigned long long)(d >> 61);
}
