// control_flow.cu — bench/control_flow.sh's kernels: what SASS control flow costs per loop
// trip on a Volta+ GPU, in three loops that differ only in how a lane finds its next item.
// Each item is a loop of trips (input / 4 of them), each trip LOOP_NUM dependent multiply-
// adds; 32 blocks x 128 threads share 1024 items a block.
//   atomic: next item from atomicAdd on a shared counter (dynamic_assignment's after
//           kernel): a loop left on an atomic's value, so ptxas places YIELD in it, and a
//           branch body that may diverge (BSSY/BSYNC) every trip;
//   static: next item = this one + blockDim.x: BSSY/BSYNC every trip, no YIELD;
//   flag:   as static, but the loop test reads a volatile shared word: YIELD again.
// The timing model charges latency.branch, branch.reconverge_cycles and
// branch.yield_cycles for these (sim/presets/h100.gpu).
#ifndef LOOP_NUM
#define LOOP_NUM 4
#endif
#define APB 1024
__device__ int function(int tmp)
{
#pragma unroll 128
    for (int i = 0; i < LOOP_NUM; i++)
        tmp = 0xffff & (tmp * tmp + tmp);
    return tmp;
}
__device__ int trip_count(int v) { return (v + 3) / 4; }
// atomic: as dynamic_assignment's kernelEnhanced
__global__ void da_atomic(const int *input_array, int *out_array)
{
    __shared__ int counter;
    __shared__ int res[APB];
    const int *bi = input_array + blockIdx.x * APB;
    if (threadIdx.x == 0) counter = blockDim.x;
    __syncthreads();
    int cur = threadIdx.x, v = bi[cur], num = v, trips = trip_count(v);
    while (cur < APB) {
        num = function(num);
        trips--;
        if (trips == 0) {
            res[cur] = num;
            cur = atomicAdd(&counter, 1);
            if (cur < APB) { v = bi[cur]; num = v; trips = trip_count(v); }
        }
    }
    __syncthreads();
    for (int i = threadIdx.x; i < APB; i += blockDim.x) out_array[blockIdx.x * APB + i] = res[i];
}
// static: the same loop, the next item by a fixed stride; it is left on registers only
__global__ void da_static(const int *input_array, int *out_array)
{
    __shared__ int res[APB];
    const int *bi = input_array + blockIdx.x * APB;
    int cur = threadIdx.x, v = bi[cur], num = v, trips = trip_count(v);
    while (cur < APB) {
        num = function(num);
        trips--;
        if (trips == 0) {
            res[cur] = num;
            cur += blockDim.x;
            if (cur < APB) { v = bi[cur]; num = v; trips = trip_count(v); }
        }
    }
    __syncthreads();
    for (int i = threadIdx.x; i < APB; i += blockDim.x) out_array[blockIdx.x * APB + i] = res[i];
}
// flag: the static loop, left on a volatile shared word read every trip
__global__ void da_flag(const int *input_array, int *out_array)
{
    __shared__ int res[APB];
    __shared__ int limit;
    if (threadIdx.x == 0) limit = APB;
    __syncthreads();
    const int *bi = input_array + blockIdx.x * APB;
    int cur = threadIdx.x, v = bi[cur], num = v, trips = trip_count(v);
    while (cur < *(volatile int *)&limit) {
        num = function(num);
        trips--;
        if (trips == 0) {
            res[cur] = num;
            cur += blockDim.x;
            if (cur < APB) { v = bi[cur]; num = v; trips = trip_count(v); }
        }
    }
    __syncthreads();
    for (int i = threadIdx.x; i < APB; i += blockDim.x) out_array[blockIdx.x * APB + i] = res[i];
}
