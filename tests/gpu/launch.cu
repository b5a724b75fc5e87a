// launch.cu — kernels for the launch-sequence GPU check (test_launch.sh): a repeated
// increment, a loop variable in the arguments, and a device flag a host `while` reads.
__global__ void add1(int *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] += 1;
}

__global__ void addk(int *a, int n, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = a[i] * 3 + k;
}

__global__ void halve(int *c, int *trips)
{
    if (threadIdx.x == 0) {
        c[0] /= 2;
        trips[0] += 1;
    }
}

// A __device__ counter: one module for the whole sequence keeps it from launch to launch,
// and every profiling pass starts from the state before its launch.
__device__ int counter = 10;
__global__ void bump(int *u)
{
    if (threadIdx.x == 0)
        u[0] = ++counter;
}
