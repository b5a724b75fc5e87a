// async.cu — cp.async (4, 8 and 16 bytes, with zero fill) and its groups, mbarrier
// objects through cuda::barrier and the __mbarrier primitives, and bulk copies
// (cp.async.bulk) with transaction counts (test_sim_async).
#include <cuda_awbarrier_primitives.h>
#include <cuda_pipeline.h>
#include <cuda/barrier>
#include <cuda/ptx>

#pragma nv_diag_suppress static_var_with_dynamic_init

// 128 threads: each copies 4, 8 and 16 bytes of `in` to shared memory; the 16-byte copy
// of thread t fills its last (t % 4) * 4 bytes with zeros. out[t * 7 + k]: what thread t
// reads back from other threads' copies.
extern "C" __global__ void copies(const int *in, int *out)
{
    __shared__ int s4[128];
    __shared__ int2 s8[128];
    __shared__ int4 s16[128];
    int t = threadIdx.x;
    __pipeline_memcpy_async(&s4[t], &in[t], 4);
    __pipeline_memcpy_async(&s8[t], (const int2 *)in + t, 8);
    __pipeline_commit();
    __pipeline_memcpy_async(&s16[t], (const int4 *)in + t, 16, (t % 4) * 4);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    int u = 127 - t;
    int *o = out + t * 7;
    o[0] = s4[u];
    o[1] = s8[u].x;
    o[2] = s8[u].y;
    o[3] = s16[u].x;
    o[4] = s16[u].y;
    o[5] = s16[u].z;
    o[6] = s16[u].w;
}

// cuda::barrier with memcpy_async (cp.async + cp.async.mbarrier.arrive, mbarrier.arrive,
// try_wait on the token), reused for `rounds` phases: out[r * 128 + t] = in[127 - t] * (r + 1).
extern "C" __global__ void phases(const int *in, int *out, int rounds)
{
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ int s[2][128];
    int t = threadIdx.x;
    if (t == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    for (int r = 0; r < rounds; r++) {
        cuda::memcpy_async(&s[r & 1][t], &in[t], sizeof(int), bar);
        bar.arrive_and_wait();
        out[r * 128 + t] = s[r & 1][127 - t] * (r + 1);
    }
}

// The __mbarrier primitives: test_wait on tokens, arrive_and_drop, pending counts,
// cp.async.mbarrier.arrive.noinc (__pipeline_arrive_on) and inval. 64 threads;
// info[0..3]: pending count of thread 0's first token, phase-complete flags, ...
extern "C" __global__ void primitives(const int *in, int *out, int *info)
{
    __shared__ __mbarrier_t bar, one;
    __shared__ int s[64];
    int t = threadIdx.x;
    if (t == 0) {
        __mbarrier_init(&bar, 64);
        __mbarrier_init(&one, 3);
    }
    __syncthreads();
    if (t == 0) {
        __mbarrier_token_t a = __mbarrier_arrive(&one);
        info[0] = __mbarrier_token_pending_count(a);
        info[1] = __mbarrier_test_wait(&one, a);
        __mbarrier_token_t b = __mbarrier_arrive_and_drop(&one);
        info[2] = __mbarrier_token_pending_count(b);
        __mbarrier_token_t c = __mbarrier_arrive(&one); // completes phase 0: 2 expected now
        info[3] = __mbarrier_test_wait(&one, c);
        __mbarrier_arrive(&one);
        __mbarrier_token_t d = __mbarrier_arrive(&one); // completes phase 1
        info[4] = __mbarrier_test_wait(&one, d);
        __mbarrier_inval(&one);
    }
    __pipeline_memcpy_async(&s[t], &in[t], 4);
    __pipeline_arrive_on(&bar);
    __mbarrier_token_t tok = __mbarrier_arrive(&bar);
    while (!__mbarrier_test_wait(&bar, tok)) {
    }
    out[t] = s[63 - t] + 1;
}

// cuda::ptx: each thread arrives twice per phase (cp.async.mbarrier.arrive.noinc after its
// copy, then mbarrier.arrive.expect_tx of 0 bytes) and waits with try_wait.parity;
// out[r * 64 + t] = in[r * 64 + 63 - t]; info[0..1]: test_wait.parity of the last
// completed phase's parity and of the current one's.
extern "C" __global__ void parity(const int *in, int *out, int *info, int rounds)
{
    __shared__ uint64_t bar;
    __shared__ int s[2][64];
    int t = threadIdx.x;
    if (t == 0)
        cuda::ptx::mbarrier_init(&bar, 128);
    __syncthreads();
    for (int r = 0; r < rounds; r++) {
        __pipeline_memcpy_async(&s[r & 1][t], &in[r * 64 + t], 4);
        cuda::ptx::cp_async_mbarrier_arrive_noinc(&bar);
        cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release, cuda::ptx::scope_cta,
                                             cuda::ptx::space_shared, &bar, 0);
        while (!cuda::ptx::mbarrier_try_wait_parity(&bar, r & 1)) {
        }
        out[r * 64 + t] = s[r & 1][63 - t];
    }
    if (t == 0) {
        info[0] = cuda::ptx::mbarrier_test_wait_parity(&bar, (rounds - 1) & 1);
        info[1] = cuda::ptx::mbarrier_test_wait_parity(&bar, rounds & 1);
    }
}

// Bulk copies (cp.async.bulk, Hopper's UBLKCP): 256 threads, `rounds` rounds of 256 ints.
// Thread 0 brings a round's 1024 bytes into shared memory in two copies of 768 and 256
// bytes that complete their bytes on an mbarrier of one arrival; even rounds announce the
// bytes with arrive.expect_tx, odd ones with expect_tx and then a plain arrive, after the
// copies. Every thread waits for the phase (try_wait.parity), adds 1 to its int, and
// thread 0 copies the round back out with a bulk store (bulk_group, wait_group.read).
// out[r * 256 + t] = in[r * 256 + t] + 1; info[0]: the phases completed.
extern "C" __global__ void bulk(const int *in, int *out, int *info, int rounds)
{
    __shared__ alignas(128) int s[2][256];
    __shared__ uint64_t bar;
    int t = threadIdx.x;
    if (t == 0) {
        cuda::ptx::mbarrier_init(&bar, 1);
        cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
    }
    __syncthreads();
    for (int r = 0; r < rounds; r++) {
        int *dst = s[r & 1];
        if (t == 0 && !(r & 1)) {
            cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release, cuda::ptx::scope_cta,
                                                 cuda::ptx::space_shared, &bar, 1024);
            cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global, dst,
                                     &in[r * 256], 768, &bar);
            cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global,
                                     dst + 192, &in[r * 256 + 192], 256, &bar);
        } else if (t == 0) {
            cuda::ptx::mbarrier_expect_tx(cuda::ptx::sem_relaxed, cuda::ptx::scope_cta,
                                          cuda::ptx::space_shared, &bar, 1024);
            cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global,
                                     dst + 192, &in[r * 256 + 192], 256, &bar);
            cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global, dst,
                                     &in[r * 256], 768, &bar);
            cuda::ptx::mbarrier_arrive(&bar);
        }
        while (!cuda::ptx::mbarrier_try_wait_parity(&bar, r & 1)) {
        }
        dst[t] += 1;
        cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
        __syncthreads();
        if (t == 0) {
            cuda::ptx::cp_async_bulk(cuda::ptx::space_global, cuda::ptx::space_shared,
                                     &out[r * 256], dst, 1024);
            cuda::ptx::cp_async_bulk_commit_group();
            cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<0>());
        }
        __syncthreads();
    }
    if (t == 0)
        info[0] = rounds;
}

// Uses an mbarrier that was never initialised.
extern "C" __global__ void uninit(int *out)
{
    __shared__ __mbarrier_t bar;
    __mbarrier_token_t tok = __mbarrier_arrive(&bar);
    out[threadIdx.x] = __mbarrier_test_wait(&bar, tok);
}

// Arrives with a count larger than the barrier's pending count.
extern "C" __global__ void overarrive(int *out)
{
    __shared__ uint64_t bar;
    if (threadIdx.x == 0)
        cuda::ptx::mbarrier_init(&bar, 2);
    __syncthreads();
    if (threadIdx.x == 0)
        cuda::ptx::mbarrier_arrive(&bar, 5);
    out[threadIdx.x] = 1;
}

// One misuse per `kind`, each an error of the simulator: 0 a cp.async from a misaligned
// address, 1 a source size larger than the copy, 2 an mbarrier in global memory, 3
// mbarrier.init with count 0, 4 arrive.expect_tx of 2^20 bytes (more than a transaction
// count holds), 5 an arrival of count 0, 6 a bulk copy that reads past the end of `in`,
// 7 a bulk copy of 8 bytes (not a multiple of 16), 8 a bulk copy completing on an
// mbarrier that was never initialised.
extern "C" __global__ void misuse(const int *in, int *out, int kind)
{
    __shared__ int4 s[32];
    __shared__ uint64_t bar, never;
    int t = threadIdx.x;
    unsigned sa = (unsigned)__cvta_generic_to_shared(&s[t]);
    unsigned ba = (unsigned)__cvta_generic_to_shared(&bar);
    if (kind == 0)
        __pipeline_memcpy_async(&s[t], (const int4 *)(in + 1) + t, 16);
    else if (kind == 1)
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(sa), "l"(in + t),
                     "r"(kind * 8));
    else if (kind == 2)
        asm volatile("mbarrier.init.b64 [%0], 1;" ::"l"(out));
    else if (kind == 3)
        asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(ba), "r"(kind - 3));
    else if (kind == 8) {
        if (t == 0)
            cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global, s, in,
                                     512, &never);
    } else if (t == 0) {
        cuda::ptx::mbarrier_init(&bar, 1);
        if (kind == 5)
            asm volatile("mbarrier.arrive.shared.b64 _, [%0], %1;" ::"r"(ba), "r"(kind - 5));
        else if (kind == 6)
            cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global, s,
                                     in + 1024 - 64, 512, &bar);
        else if (kind == 7)
            cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global, s, in,
                                     kind + 1, &bar);
        else
            cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release, cuda::ptx::scope_cta,
                                                 cuda::ptx::space_shared, &bar,
                                                 (unsigned)kind << 18);
    }
    __pipeline_commit();
    __pipeline_wait_prior(0);
    out[t] = s[t].x;
}
