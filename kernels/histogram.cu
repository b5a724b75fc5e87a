// histogram.cu — seed 001 (Tabaru, Nakahira, "reducing atomic contention in reductions"),
// the histogram benchmark: N uniform doubles in [0,1) into BINS equal bins, by
// TOTAL_THREADS threads of THREADS per block in a grid-stride loop, adding 1 per item with
// an atomic. Few bins = many lanes of a warp hitting one address = contention; the warp-
// aggregated atomicAddW (Fig. 1, 3, 5) turns a warp's same-address adds into one.
// Bin type: BIN_T = int | double; every kernel takes both bin arrays and uses the one of
// BIN_T (the other stays zero). Variants (one kernel each):
//   hist_atomic       plain atomicAdd per item (native atomicAdd on doubles too, sm_60+)
//   hist_warp_smem    atomicAddW through shared memory (Fig. 3; __ballot -> __activemask)
//   hist_warp_shfl    atomicAddW through shuffles (Fig. 5; __shfl -> __shfl_sync)
//   hist_block        block-level aggregation with barriers (Fig. 4); every thread of a
//                     block runs the same number of rounds, idle ones flagged inactive
//   hist_block_hazard the same, but each thread leaves its loop when its own items end,
//                     so a warp with no item in the last round skips the barriers; the
//                     others read its stale slots from the round before (wrong counts)
//   hist_double_cas   add through an atomicCAS retry loop (CUDA Programming Guide; the
//                     seed's only double add; with BIN_T=int a 32-bit CAS loop)
//   hist_match        __match_any_sync groups same-bin lanes, __reduce_add_sync counts them

#ifndef N
#define N 10000000 // items (the seed's 10^7)
#endif
#ifndef BINS
#define BINS 1 // the seed swept 1, 10, ..., 10^7
#endif
#ifndef THREADS
#define THREADS 128 // threads per block (the seed's)
#endif
#ifndef TOTAL_THREADS
#define TOTAL_THREADS 1048576 // threads in the grid (the seed's)
#endif
#ifndef BIN_T
#define BIN_T int
#endif

typedef BIN_T bin_t;

// The bin array of BIN_T out of the two the kernels take.
__device__ inline int *pick_bins(int *hist_i, double *, int *) { return hist_i; }
__device__ inline double *pick_bins(int *, double *hist_d, double *) { return hist_d; }

// Bin of a value in [0,1). The product may round up to BINS for x just below 1: clamp.
__device__ inline int bin_of(double x)
{
    int b = (int)(x * BINS);
    return b < BINS ? b : BINS - 1;
}

__device__ inline int lane_id(void)
{
    int lane;
    asm("mov.s32 %0, %%laneid;" : "=r"(lane));
    return lane;
}

// ---------------------------------------------------------------- plain atomicAdd
__global__ void hist_atomic(const double *data, int *hist_i, double *hist_d)
{
    bin_t *hist = pick_bins(hist_i, hist_d, (bin_t *)0);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        atomicAdd(&hist[bin_of(data[i])], (bin_t)1);
}

// ---------------------------------------------------------------- Fig. 3: atomicAddW, shared memory
// Lanes publish (addr, data) in shared memory; each lane scans the warp's active lanes,
// sums the data of higher lanes with its address and finds the lowest such lane (the
// writer), which alone does the atomic. The old value is passed back through dataBuf (the
// printed code stored it into addrBuf). __syncwarp keeps the warp's shared slots ordered.
__device__ bin_t atomicAddW(bin_t *addr, bin_t data, bin_t *dataBuf, bin_t **addrBuf)
{
    int threadID = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    int laneID = lane_id();
    unsigned mask = __activemask();
    dataBuf[threadID] = data;
    addrBuf[threadID] = addr;
    __syncwarp(mask);
    int warpTop = threadID - laneID;
    bin_t *wData = &dataBuf[warpTop];
    bin_t **wAddr = &addrBuf[warpTop];
    int writerID = laneID;
    bin_t sum = 0;

    unsigned active = __brev(mask);
    for (int aID = __popc(active); aID--;) {
        int rID = __clz(active);              // next active lane, lowest first
        active ^= 1u << (warpSize - 1 - rID);
        if (addr == wAddr[rID]) {
            if (laneID < rID)
                sum += wData[rID];
            if (rID < writerID)
                writerID = rID;
        }
    }
    __syncwarp(mask);
    if (writerID == laneID)
        wData[laneID] = atomicAdd(addr, sum + data);
    __syncwarp(mask);
    return wData[writerID] + sum;
}

__global__ void hist_warp_smem(const double *data, int *hist_i, double *hist_d)
{
    __shared__ bin_t dataBuf[THREADS];
    __shared__ bin_t *addrBuf[THREADS];
    bin_t *hist = pick_bins(hist_i, hist_d, (bin_t *)0);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        atomicAddW(&hist[bin_of(data[i])], (bin_t)1, dataBuf, addrBuf);
}

// ---------------------------------------------------------------- Fig. 5: atomicAddW, shuffles
// Same algorithm; the lanes' addresses (as two 32-bit halves) and data travel by shuffle.
__device__ bin_t atomicAddWShfl(bin_t *addr, bin_t data)
{
    int addrH = (int)((unsigned long long)addr >> 32);
    int addrL = (int)(unsigned long long)addr;
    int laneID = lane_id();
    unsigned mask = __activemask();
    int writerID = laneID;
    bin_t sum = 0;

    unsigned active = __brev(mask);
    for (int aID = __popc(active); aID--;) {
        int rID = __clz(active);
        active ^= 1u << (warpSize - 1 - rID);
        int sameL = addrL == __shfl_sync(mask, addrL, rID);
        int sameH = addrH == __shfl_sync(mask, addrH, rID);
        bin_t dataI = __shfl_sync(mask, data, rID);
        if (sameL && sameH) {
            if (laneID < rID)
                sum += dataI;
            if (rID < writerID)
                writerID = rID;
        }
    }
    bin_t oldValue = 0;
    if (writerID == laneID)
        oldValue = atomicAdd(addr, sum + data);
    oldValue = __shfl_sync(mask, oldValue, writerID);
    return oldValue + sum;
}

__global__ void hist_warp_shfl(const double *data, int *hist_i, double *hist_d)
{
    bin_t *hist = pick_bins(hist_i, hist_d, (bin_t *)0);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        atomicAddWShfl(&hist[bin_of(data[i])], (bin_t)1);
}

// ---------------------------------------------------------------- Fig. 4: block-level aggregation
// Every thread of the block must call this the same number of times (it has barriers);
// a thread without an item passes active = 0. addrBuf[t] == 0 marks thread t inactive.
__device__ bin_t atomicAddB(bin_t *addr, bin_t data, int active, bin_t *dataBuf, bin_t **addrBuf)
{
    int threadID = threadIdx.x;
    __syncthreads();                         // the previous round's reads are done
    addrBuf[threadID] = active ? addr : 0;
    dataBuf[threadID] = data;
    __syncthreads();
    int writerID = threadID;
    bin_t sum = 0;
    if (active) {
        for (int a = 0; a < blockDim.x; a++) {
            if (addrBuf[a] == addr) {
                if (threadID < a)
                    sum += dataBuf[a];
                if (a < writerID)
                    writerID = a;
            }
        }
    }
    __syncthreads();
    if (active && writerID == threadID)
        dataBuf[threadID] = atomicAdd(addr, sum + data);
    __syncthreads();
    return active ? dataBuf[writerID] + sum : 0;
}

__global__ void hist_block(const double *data, int *hist_i, double *hist_d)
{
    __shared__ bin_t dataBuf[THREADS];
    __shared__ bin_t *addrBuf[THREADS];
    bin_t *hist = pick_bins(hist_i, hist_d, (bin_t *)0);
    int stride = gridDim.x * blockDim.x;
    int rounds = (N + stride - 1) / stride;  // the same for every thread of the grid
    for (int r = 0; r < rounds; r++) {
        int i = r * stride + blockIdx.x * blockDim.x + threadIdx.x;
        int active = i < N;
        atomicAddB(active ? &hist[bin_of(data[i])] : hist, (bin_t)1, active, dataBuf, addrBuf);
    }
}

// The hazard of Fig. 4 (seed 001 section 2.1): the natural loop, where a thread leaves when
// its own items end. When the last round ends inside a block, the warps with no item left
// exit and skip the barriers; an exited warp no longer holds a barrier back, so the others
// go on and scan the exited warp's slots, which still hold last round's addresses: they add
// those stale counts (too many) or pick an exited thread as writer (counts lost). At the
// paper's size the last round ends on a block boundary (10^7 - 9*2^20 = 4397*128), so the
// hazard is latent there; e.g. N=100000 TOTAL_THREADS=8192 shows it.
__global__ void hist_block_hazard(const double *data, int *hist_i, double *hist_d)
{
    __shared__ bin_t dataBuf[THREADS];
    __shared__ bin_t *addrBuf[THREADS];
    bin_t *hist = pick_bins(hist_i, hist_d, (bin_t *)0);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        atomicAddB(&hist[bin_of(data[i])], (bin_t)1, 1, dataBuf, addrBuf);
}

// ---------------------------------------------------------------- atomicCAS retry loop
// CUDA Programming Guide's atomicAdd for doubles on GPUs without one: read, add, CAS,
// retry while another thread changed the word in between. Lanes of a warp on one address
// succeed one per round, so contention shows up as retries.
__device__ double atomicAddCAS(double *address, double val)
{
    unsigned long long *address_as_ull = (unsigned long long *)address;
    unsigned long long old = *address_as_ull, assumed;
    do {
        assumed = old;
        old = atomicCAS(address_as_ull, assumed,
                        __double_as_longlong(val + __longlong_as_double((long long)assumed)));
    } while (assumed != old);
    return __longlong_as_double((long long)old);
}

__device__ int atomicAddCAS(int *address, int val)
{
    int old = *address, assumed;
    do {
        assumed = old;
        old = atomicCAS(address, assumed, assumed + val);
    } while (assumed != old);
    return old;
}

__global__ void hist_double_cas(const double *data, int *hist_i, double *hist_d)
{
    bin_t *hist = pick_bins(hist_i, hist_d, (bin_t *)0);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        atomicAddCAS(&hist[bin_of(data[i])], (bin_t)1);
}

// ---------------------------------------------------------------- Volta+/Ampere+ intrinsics
// __match_any_sync gives each lane the mask of lanes with its bin; __reduce_add_sync over
// that mask counts them (every item adds 1); the group's lowest lane does one atomicAdd.
__global__ void hist_match(const double *data, int *hist_i, double *hist_d)
{
    bin_t *hist = pick_bins(hist_i, hist_d, (bin_t *)0);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x) {
        int bin = bin_of(data[i]);
        unsigned mask = __activemask();
        unsigned group = __match_any_sync(mask, bin);
#if __CUDA_ARCH__ >= 800
        unsigned count = __reduce_add_sync(group, 1u);
#else
        unsigned count = __popc(group); // REDUX is sm_80+; the same count on Turing
#endif
        if (lane_id() == __ffs(group) - 1)
            atomicAdd(&hist[bin], (bin_t)count);
    }
}
