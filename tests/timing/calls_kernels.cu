// calls_kernels.cu — test_timing_calls.c's workload: branch unification (as in
// kernels/branch_unification.cu) written as a user might, with `extern "C"` kernels and
// the two paths as real calls (__noinline__), its input read from a file. A call pushes
// and a return pops a frame, so the instruction's function is not the warp's frame after it.

#ifndef LOOP
#define LOOP 100
#endif
#ifndef DPT
#define DPT 4
#endif
#ifndef ITEMS
#define ITEMS 4096 // elements of the input file; the kernels read it cyclically
#endif

extern "C" __device__ __noinline__ int functionA(int tmp)
{
#pragma unroll 100
    for (int i = 0; i < LOOP; i++)
        tmp = 0xffff & (tmp * tmp + tmp);
    return tmp;
}

extern "C" __device__ __noinline__ int functionB(int tmp)
{
#pragma unroll 100
    for (int i = 0; i < LOOP; i++)
        tmp = 0xffff & (tmp * tmp + tmp + 1);
    return tmp;
}

extern "C" __global__ void kernel(const int *input, int *out)
{
    int idx = threadIdx.x + blockDim.x * blockIdx.x;
    int data = idx;
    if (input[idx % ITEMS] & 0x4)
        data = functionA(data);
    else
        data = functionB(data);
    out[idx] = data;
}

extern "C" __global__ void kernelEnhanced(const int *input, int *out)
{
    int index = DPT * (threadIdx.x + blockIdx.x * blockDim.x);
    int counter_A = index, counter_B = index;
    while (true) {
        int use_data = -1;
        for (int i = counter_A; i < index + DPT; i++) {
            counter_A = i + 1;
            if (input[i % ITEMS] & 0x4) {
                use_data = i;
                break;
            }
        }
        if (use_data >= 0)
            out[use_data] = functionA(use_data);
        use_data = -1;
        for (int i = counter_B; i < index + DPT; i++) {
            counter_B = i + 1;
            if (!(input[i % ITEMS] & 0x4)) {
                use_data = i;
                break;
            }
        }
        if (use_data >= 0)
            out[use_data] = functionB(use_data);
        if (counter_A >= index + DPT && counter_B >= index + DPT)
            break;
    }
}
