// memory.cu — addressing and race-shadow cases found on real kernels: a shared-memory base
// below zero plus an offset (32-bit wrap), lanes writing different bytes of one word (not
// a race), two lanes writing one byte (a race), and an access before a buffer's start.
extern "C" __global__ void shared_wrap(const int *in, int *out, int k)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    if (t + 4 >= blockDim.x)
        return;
    int acc = 0;
#pragma unroll
    for (int j = 4; j < 8; j++)
        acc += s[t - k + j]; // @wrap: [base+16] with base = &s - 4*k
    out[t] = acc;
}

extern "C" __global__ void byte_flags(unsigned char *flags, int *out)
{
    __shared__ unsigned char s[256];
    int t = threadIdx.x;
    s[t] = (unsigned char)t;           // one byte per lane: four lanes share a word
    flags[blockIdx.x * 256 + t] = (unsigned char)(t & 1); // the same in global (a BFS mask)
    __syncthreads();
    out[blockIdx.x * 256 + t] = s[255 - t] + flags[blockIdx.x * 256 + t];
}

extern "C" __global__ void byte_race(unsigned char *flags)
{
    flags[threadIdx.x / 2] = (unsigned char)threadIdx.x; // @byterace: two lanes per byte
}

extern "C" __global__ void underflow(const int *S, const int *J, int *out, int back)
{
    out[threadIdx.x] = S[threadIdx.x] + J[(int)threadIdx.x - back]; // @under
}

// A __device__ variable whose mangled name is longer than 127 characters (as libcu++'s
// internal globals are: cuda::std::ignore in an anonymous namespace of the file): the SASS
// reaches it through a relocation that names it in full.
namespace a_namespace_whose_name_is_long_enough_to_make_the_mangled_name_of_its_variables {
namespace another_level_of_nesting_as_in_libcudacxx_internals_of_the_cuda_std_library {
__device__ int counter_with_a_long_mangled_name;
}
}
extern "C" __global__ void long_name(int *out)
{
    using namespace a_namespace_whose_name_is_long_enough_to_make_the_mangled_name_of_its_variables::
        another_level_of_nesting_as_in_libcudacxx_internals_of_the_cuda_std_library;
    atomicAdd(&counter_with_a_long_mangled_name, 1);
    __syncthreads();
    out[threadIdx.x] = counter_with_a_long_mangled_name;
}

// The CUDA Programming Guide's CAS retry loop: the plain load reads the guess that the CAS
// checks, so it is no race with the other lanes' CASes (a stale read fails and retries).
extern "C" __global__ void cas_guess(float *mx, const int *in)
{
    int *a = (int *)mx;
    float v = (float)in[threadIdx.x];
    int old = *a, assumed; // @guess
    do {
        assumed = old;
        if (__int_as_float(assumed) >= v)
            break;
        old = atomicCAS(a, assumed, __float_as_int(v));
    } while (assumed != old);
}

// A plain read of a word that another warp adds to atomically, used as it is: a race.
extern "C" __global__ void atomic_peek(int *c, int *out)
{
    if (threadIdx.x < 32)
        atomicAdd(c, 1);
    else
        out[threadIdx.x] = *c; // @peek
}

// A spin lock around plain accesses: the critical sections do not race (a CAS takes the
// word from 0, an exchange by the holder gives it back).
__device__ void locked_increment(int *lock, int *c)
{
    bool done = false;
    while (!done) {
        if (atomicCAS(lock, 0, 1) == 0) {
            *c += 1;
            __threadfence();
            atomicExch(lock, 0);
            done = true;
        }
    }
}

extern "C" __global__ void spin_lock(int *lock, int *c)
{
    locked_increment(lock, c);
}

// The same, with one thread writing the word outside the lock: a race.
extern "C" __global__ void lock_leak(int *lock, int *c)
{
    if (threadIdx.x == 40) {
        *c = 7; // @leak
        return;
    }
    locked_increment(lock, c);
}

// A leader takes the lock for its group: lane 0 for its warp (between __syncwarp()s), thread
// 0 for its CTA (between __syncthreads()); the group's accesses are its critical section.
extern "C" __global__ void warp_leader_lock(int *lock, int *c)
{
    int lane = threadIdx.x & 31;
    if (lane == 0)
        while (atomicCAS(lock, 0, 1) != 0) {
        }
    __syncwarp();
    c[lane] += 1;
    __threadfence();
    __syncwarp();
    if (lane == 0)
        atomicExch(lock, 0);
}

extern "C" __global__ void cta_leader_lock(int *lock, int *c)
{
    if (threadIdx.x == 0)
        while (atomicCAS(lock, 0, 1) != 0) {
        }
    __syncthreads();
    c[threadIdx.x] += 1;
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0)
        atomicExch(lock, 0);
    if (threadIdx.x != 0) // the lanes whose lock ended with the leader's release
        c[threadIdx.x] += 1; // @after
}

// The CUDA samples' last-block reduction: each CTA's thread 0 writes its partial sum, makes
// a fence and takes a ticket; the CTA that takes the last ticket reads every partial sum. The
// fence and the atomic publish the write to the CTA whose own atomic comes after; without
// the fence (`fence` 0) nothing orders the write before the other CTA's read: a race.
__device__ unsigned int tickets = 0;

extern "C" __global__ void last_block_sum(int *partial, int *total, int fence)
{
    __shared__ bool last;
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = blockIdx.x + 1; // @partial
        if (fence)
            __threadfence();
        last = atomicInc(&tickets, gridDim.x) == gridDim.x - 1;
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        int s = 0;
        for (int k = 0; k < (int)gridDim.x; k++)
            s += ((volatile int *)partial)[k];
        *total = s;
        tickets = 0;
    }
}

// A flag one CTA sets with a volatile store and another polls (a decoupled look-back's
// status word): with volatile loads (`mode` 1) or ld.acquire.gpu (2) the accesses are morally
// strong and do not race; read with a plain load (0) it races with the store.
extern "C" __global__ void flag_poll(int *flag, int *out, int mode)
{
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x == 0) {
        ((volatile int *)flag)[0] = 5; // @flagset
    } else if (mode == 1) {
        int v;
        while ((v = ((volatile int *)flag)[0]) == 0) {
        }
        out[blockIdx.x] = v;
    } else if (mode == 2) {
        int v;
        do
            asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(flag) : "memory");
        while (v == 0);
        out[blockIdx.x] = v;
    } else {
        out[blockIdx.x] = flag[0]; // @flagpeek
    }
}

// A warp keeps the multiples of 3 among its lanes' values in a shared buffer (a ballot and
// the popcount of the lanes below), then reads the buffer back: the __syncwarp orders the
// divergent writes before the converged reads, and ptxas, knowing the warp converged,
// lowers it to a NOP. No race.
extern "C" __global__ void warp_compact(const int *in, int *out)
{
    __shared__ int buf[64];
    int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    int v = in[threadIdx.x] * 7;
    int keep = v % 3 == 0;
    unsigned mask = __ballot_sync(0xffffffffu, keep);
    if (keep)
        buf[w * 32 + __popc(mask & ((1u << lane) - 1))] = v;
    __syncwarp();
    out[threadIdx.x] = lane < __popc(mask) ? buf[w * 32 + lane] : -1;
}

// The upper half of a warp reads words the lower half writes, each after a loop, in the two
// arms of a branch and with no __syncwarp: a race.
extern "C" __global__ void warp_unsynced(const int *in, int *out, int n)
{
    __shared__ int s[16];
    int lane = threadIdx.x & 31;
    if (lane < 16) {
        int acc = 0;
        for (int k = 0; k < n + lane; k++)
            acc += in[k & 63];
        s[lane] = acc;
    } else {
        int acc = 0;
        for (int k = 0; k < n + lane; k++)
            acc ^= in[(3 * k) & 63];
        out[lane] = s[lane - 16] + acc; // @unsynced
    }
}

// Two instances of one template: `kernel tscale` is ambiguous, a mangled name picks one.
template <typename T> __global__ void tscale(T *x, T a)
{
    x[threadIdx.x] *= a;
}
template __global__ void tscale<float>(float *, float);
template __global__ void tscale<int>(int *, int);
