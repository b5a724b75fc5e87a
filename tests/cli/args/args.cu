// args.cu — a kernel that takes every argument form of a workload spec: a buffer, a buffer
// advanced by an element offset, a struct by value, a real constant, and a constant whose
// name is also the kernel's parameter name; and reads a __constant__ and a __device__
// array that `symbol` lines fill. Fixture of test_cli_args.sh and gpu_args_test.
#ifndef BIAS2
#define BIAS2 1.0 // the spec passes a real -DBIAS2
#endif

struct Params {
    int n;          // items to write
    float scale;
    long long bias; // 8-aligned: the struct is 16 bytes, .align 8
};

__constant__ float coef[4];
__device__ int table[8];

__global__ void shifted(float *out, const float *in, Params p, float alpha, int N)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < p.n)
        out[i] = alpha * in[i] * p.scale + (float)p.bias + coef[i % 4] + (float)table[i % 8] +
                 (float)N + (float)(BIAS2 * 4);
}
