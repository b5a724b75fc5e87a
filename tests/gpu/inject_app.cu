// inject_app.cu — an ordinary CUDA application for `warpscope profile/capture -- APP`:
// three kernels (one taking a struct by value; a fourth, with printf and an mbarrier, is
// not launched), a host loop, cudaMalloc'd buffers, a checksum of the results on stdout. It knows nothing of warpscope. Exits 1, with the
// CUDA error, when there is no usable GPU. The kernels use integer arithmetic only, so a
// replay on the simulator must give the GPU's bytes exactly.
#include <cstdio>
#include <cstdlib>

struct Params {
    int *data;
    int n;
    int scale;
    unsigned mask;
};

__global__ void fill(int *a, int n, unsigned seed)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = (int)(((unsigned)i * 2654435761u ^ seed) % 1000u);
}

// Odd and even values take different paths: a divergent branch in every warp.
__global__ void transform(Params p)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= p.n)
        return;
    int v = p.data[i];
    if (v & 1) {
        for (int k = 0; k < (v & 7); k++)
            v = (v * p.scale + k) & (int)p.mask;
    } else {
        v = v / 2 + 3;
    }
    p.data[i] = v;
}

__global__ void histogram(const int *a, int n, unsigned *bins, int nbins)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&bins[(unsigned)a[i] % (unsigned)nbins], 1u);
}

// Not launched here: a kernel with printf and an mbarrier, for capture_writer's launch that
// both models replay (tests/cli/test_cli_capture.sh).
__global__ void note(int *a, int n)
{
    __shared__ unsigned long long bar;
    unsigned b = (unsigned)__cvta_generic_to_shared(&bar);
    if (threadIdx.x == 0)
        asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(b), "r"(blockDim.x));
    __syncthreads();
    unsigned long long st;
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(st) : "r"(b));
    asm volatile("{ .reg .pred p; W%=: mbarrier.test_wait.shared.b64 p, [%0], %1; @!p bra W%=; }"
                 ::"r"(b), "l"(st));
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0)
        printf("inject_app: first %d\n", a[0]);
    if (i < n)
        a[i] += 1;
}

static void check(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "inject_app: %s: %s\n", what, cudaGetErrorString(e));
        exit(1);
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 5000, nbins = 64, iters = 3;
    int *data;
    unsigned *bins;
    check(cudaMalloc(&data, n * sizeof(int)), "cudaMalloc data");
    check(cudaMalloc(&bins, nbins * sizeof(unsigned)), "cudaMalloc bins");
    check(cudaMemset(bins, 0, nbins * sizeof(unsigned)), "cudaMemset");
    int threads = 128, blocks = (n + threads - 1) / threads;
    fill<<<blocks, threads>>>(data, n, 0x5eedu);
    for (int it = 0; it < iters; it++) {
        Params p = {data, n, it + 3, 0xffffu};
        transform<<<blocks, threads>>>(p);
        histogram<<<blocks, threads>>>(data, n, bins, nbins);
    }
    check(cudaGetLastError(), "launch");
    check(cudaDeviceSynchronize(), "kernels");
    unsigned host[64], sum = 0;
    check(cudaMemcpy(host, bins, sizeof host, cudaMemcpyDeviceToHost), "cudaMemcpy");
    for (int b = 0; b < nbins; b++)
        sum = sum * 31u + host[b];
    printf("inject_app: %d items, %d iterations, checksum %08x\n", n, iters, sum);
    cudaFree(data);
    cudaFree(bins);
    return 0;
}
