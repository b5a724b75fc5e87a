// indirect.cu — indirect control transfers whose lanes go to several targets: a call through
// a table of function pointers (CALL.REL.NOINC R), an indirect branch through a table of
// labels (BRX) and a return to two call sites (RET.REL.NODEC after a __syncwarp inside the
// callee joins lanes that called it from different places). `pattern` says which target
// each lane of a warp takes (pick below), the same in every warp, so each warp-instruction
// of the transfer splits the warp the same way: tests/gpu/indirect.spec measures how the
// GPU counts such an instruction per SASS PC and in its kernel totals.
__device__ __noinline__ int ind_op0(int x) { return x + 1; }
__device__ __noinline__ int ind_op1(int x) { return x * 3; }
__device__ __noinline__ int ind_op2(int x) { return x ^ 0x55; }
__device__ __noinline__ int ind_op3(int x) { return x - 7; }

typedef int (*ind_fn)(int);
__device__ ind_fn ind_table[4] = { ind_op0, ind_op1, ind_op2, ind_op3 };

// Which of 4 targets lane `l` takes under each pattern (uniform across the warp's lanes'
// control flow: `pattern` is a kernel argument).
__device__ __forceinline__ int pick(int pattern, int l)
{
    switch (pattern) {
    case 1: return l < 16 ? 0 : 1;
    case 2: return l < 8 ? 0 : 1;
    case 3: return l < 24 ? 0 : 1;
    case 4: return l & 1;
    case 5: return l >> 3;
    case 6: return l & 3;
    case 7: return 3 - (l >> 3);
    case 8: return l < 4 ? 0 : l < 12 ? 1 : l < 28 ? 2 : 3;
    case 9: return l < 8 ? 1 : 0;
    default: return 0;
    }
}

extern "C" __global__ void ind_call(const int *in, int *out, int pattern)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = ind_table[pick(pattern, threadIdx.x & 31)](in[t]);
}

extern "C" __global__ void ind_brx(const int *in, int *out, int pattern)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x, r;
    unsigned k = (unsigned)pick(pattern, threadIdx.x & 31);
    asm volatile("{\n\t"
                 ".reg .u32 %%t;\n\t"
                 "ind_ts: .branchtargets ind_l0, ind_l1, ind_l2, ind_l3;\n\t"
                 "brx.idx %1, ind_ts;\n\t"
                 "ind_l0: mov.u32 %0, 10; bra.uni ind_done;\n\t"
                 "ind_l1: mov.u32 %0, 20; bra.uni ind_done;\n\t"
                 "ind_l2: mov.u32 %0, 30; bra.uni ind_done;\n\t"
                 "ind_l3: mov.u32 %0, 40;\n\t"
                 "ind_done:\n\t"
                 "}" : "=r"(r) : "r"(k));
    out[t] = r + in[t];
}

__device__ __noinline__ int ind_meet(int x)
{
    __syncwarp();
    return x * 5 + 1;
}

extern "C" __global__ void ind_ret(const int *in, int *out, int pattern)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x, r;
    if (pick(pattern, threadIdx.x & 31) & 1)
        r = ind_meet(in[t]) + 2;
    else
        r = ind_meet(in[t] + 1) * 2;
    out[t] = r;
}

// The same with each lane's target read from `tab` (tab[lane & 31], 0-3): irregular splits.
extern "C" __global__ void ind_call_tab(const int *in, int *out, const int *tab)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = ind_table[tab[threadIdx.x & 31] & 3](in[t]);
}

extern "C" __global__ void ind_ret_tab(const int *in, int *out, const int *tab)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x, r, x = in[t];
    switch (tab[threadIdx.x & 31] & 3) {
    case 0: r = ind_meet(x) + 2; break;
    case 1: r = ind_meet(x + 1) * 2; break;
    case 2: r = ind_meet(x ^ 3) - 9; break;
    default: r = ind_meet(x * 7) ^ 5; break;
    }
    out[t] = r;
}
