// heap.cu — the device heap (malloc and free in kernels) on both models: blocks a thread
// keeps for itself, a block one thread allocates for its CTA (its pointer through shared
// memory), a loop that allocates and frees far more than the heap holds (so free must give
// memory back), malloc(0) (not NULL on an H200) and a request past the 8 MiB heap (NULL).
// Every output is independent of where the blocks land.
#include <cstdlib>

extern "C" __global__ void heap_own(int *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x, n = t % 7 + 1;
    int *p = (int *)malloc(n * sizeof(int));
    if (!p) {
        out[t] = -1;
        return;
    }
    for (int i = 0; i < n; i++)
        p[i] = t * (i + 1);
    int s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    free(p);
    out[t] = s;
}

extern "C" __global__ void heap_cta(int *out)
{
    __shared__ int *buf;
    int t = threadIdx.x;
    if (t == 0)
        buf = (int *)malloc(blockDim.x * sizeof(int));
    __syncthreads();
    if (buf)
        buf[t] = t * t + (int)blockIdx.x;
    __syncthreads();
    if (t == 0) {
        int s = -1;
        if (buf) {
            s = 0;
            for (unsigned i = 0; i < blockDim.x; i++)
                s += buf[i];
            free(buf);
        }
        out[blockIdx.x] = s;
    }
}

// 64 rounds of 1 KiB a thread: 64 MiB in all through an 8 MiB heap
extern "C" __global__ void heap_reuse(int *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x, got = 0;
    for (int r = 0; r < 64; r++) {
        char *p = (char *)malloc(1024);
        if (p) {
            p[t & 1023] = (char)r;
            got += p[t & 1023] == (char)r;
            free(p);
        }
    }
    out[t] = got;
    if (t == 0) /* malloc(0): a pointer; more than the heap holds: NULL */
        out[blockDim.x * gridDim.x] = (malloc(0) == NULL) + 2 * (malloc(16u << 20) == NULL);
}

// the second free of one block: an error naming the lane
extern "C" __global__ void heap_double_free(int *out)
{
    int *p = (int *)malloc(16);
    free(p);
    if (threadIdx.x == 3)
        free(p);
    out[threadIdx.x] = 1;
}
