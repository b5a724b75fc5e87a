// divergence.cu — seed 004/003 golden kernels for the simulator tests: divergent vs
// warp-uniform branches, nested branches, predication (@p / @!p), per-lane loop trips.
// Each branch body holds a loop so that nvcc keeps it a branch (no if-conversion).
extern "C" __global__ void diverge_tid0(int *out, int n)
{
    int t = threadIdx.x;
    if (t == 0) {
        for (int i = 0; i < n; i++)
            out[blockIdx.x * blockDim.x + t] += i;
    }
}

extern "C" __global__ void uniform_warp(int *out, int n)
{
    int t = threadIdx.x;
    if (t / 32 == 0) {
        for (int i = 0; i < n; i++)
            out[blockIdx.x * blockDim.x + t] += i;
    }
}

extern "C" __global__ void nested(int *out, int n)
{
    int t = threadIdx.x;
    if (t < 16) {
        if (t < 8) {
            for (int i = 0; i < n; i++)
                out[t] += i;
        } else {
            for (int i = 0; i < n; i++)
                out[t] += 2 * i;
        }
    } else {
        for (int i = 0; i < n; i++)
            out[t] += 3 * i;
    }
}

extern "C" __global__ void predicated(const int *in, int *out)
{
    int t = threadIdx.x;
    int x = in[t];
    int y = x;
    asm("{\n\t.reg .pred %%px;\n\t"
        "setp.ne.s32 %%px, %1, 0;\n\t"
        "@%%px add.s32 %0, %0, 7;\n\t"
        "@!%%px sub.s32 %0, %0, 5;\n\t}"
        : "+r"(y) : "r"(x & 1));
    out[t] = y;
}

extern "C" __global__ void loop_trips(const int *trips, int *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int n = trips[t];
    int acc = 0;
    #pragma unroll 1
    for (int i = 0; i < n; i++)
        acc = acc * 31 + i;
    out[t] = acc;
}
