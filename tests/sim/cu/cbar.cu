// cbar.cu — kernels for the SASS model's convergence-barrier rules (test_sass_cbar.c):
// a divergent if/else joined at BSYNC, a loop left by `break` (BREAK), lanes that exit
// early, __syncwarp over half a warp, and __reduce_add_sync over __match_any_sync groups
// (WARPSYNC.EXCLUSIVE). Marked lines are found by their comments.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;
__device__ __noinline__ int work(const int *in, int n)
{
    int acc = 0;
    for (int i = 0; i < n; i++)
        acc = acc * 3 + in[i];
    return acc;
}

extern "C" __global__ void ifelse(const int *in, int *out)
{
    int lane = threadIdx.x & 31, r;
    if (lane < 8)
        r = work(in, lane + 1) + 1; // THEN
    else
        r = work(in + 8, lane) - 1; // ELSE
    out[threadIdx.x] = r ^ lane; // JOIN
}

extern "C" __global__ void loop_break(const int *in, int *out)
{
    int lane = threadIdx.x & 31, acc = 0;
    for (int i = 0; i < 64; i++) {
        int v = in[(lane + i) & 63];
        if (v < 0 && i > lane)
            break;
        acc += v; // BODY
    }
    out[threadIdx.x] = acc; // AFTER_LOOP
}

extern "C" __global__ void early_exit(const int *in, int *out)
{
    int lane = threadIdx.x & 31;
    if (in[lane] > 1000)
        return;
    out[threadIdx.x] = work(in, lane & 7) + lane; // AFTER_EXIT
}

extern "C" __global__ void half_syncwarp(const int *in, int *out)
{
    __shared__ int s[64];
    int lane = threadIdx.x & 31;
    s[threadIdx.x] = in[threadIdx.x];
    if (lane < 16) {
        s[threadIdx.x] += work(in, lane & 3);
        __syncwarp(0xffff);
        out[threadIdx.x] = s[(threadIdx.x & ~15) | ((lane + 1) & 15)]; // AFTER_SYNC
    } else {
        out[threadIdx.x] = -lane;
    }
}

extern "C" __global__ void reduce_groups(const int *in, int *out)
{
    int key = in[threadIdx.x] & 3;
    unsigned group = __match_any_sync(0xffffffffu, key);
    unsigned count = __reduce_add_sync(group, 1u); // REDUCE
    out[threadIdx.x] = (int)count * 10 + key;
}

// A CAS retry loop (YIELD inside, BSSY B1 around it) in a loop whose trip count differs per
// lane, inside an outer BSSY B0: lanes leave the CAS loop one at a time, pass its BSYNC
// alone (the YIELD rule), and the ones done with the outer loop wait at BSYNC B0 while the
// others re-enter. Found by differential fuzzing: the model deadlocked there, because lanes
// that had passed a BSYNC were still pending on its barrier.
extern "C" __global__ void nested_cas(const int *in, int *out)
{
    unsigned lane = threadIdx.x;
    for (int i = 0; i < (int)(lane & 3u); i++) {
        int *p = &out[32];
        int o = *p, e;
        do { e = o; o = atomicCAS(p, e, e + 1); } while (o != e);
    }
    out[lane] = (int)lane + in[0] * 0;
}

// ptxas's `@!P0 BREAK P4, B1` (a BREAK with a predicate: only the lanes where P4 holds too
// leave B1) before the matching `@!P0 BRA P4, ...`, in an unrolled loop of per-lane trip
// counts. Found by differential fuzzing: the SASS model refused the two-operand BREAK.
extern "C" __global__ void pred_break(const unsigned *in, unsigned *out)
{
    unsigned tid = threadIdx.x, b = in[tid], r = 0, t = 0, n = in[tid + 32] & 7u;
    while (n-- > 0u) {
        if (blockIdx.x & 4u)
            r = b;
        if (b <= in[tid + 64])
            t += 0x7fffffffu;
    }
    out[blockIdx.x * 32 + tid] = r + t;
}

// A CAS loop that every lane leaves on its first try (each lane has its own word), so that
// its YIELD runs with the whole warp, then a split whose two sides both end at the outer
// if's BSYNC. The GPU joins the lanes there (fz740072 on the H200,
// docs/results/fuzz-gpu-h200.txt): a YIELD that every live lane of a barrier runs together
// leaves the barrier as it was.
extern "C" __global__ void yield_converged(const int *in, int *out)
{
    unsigned lane = threadIdx.x;
    int v = in[lane];
    if (in[32] != 12345) {
        int *p = &out[32 + lane];
        int o = *p, e;
        do { e = o; o = atomicCAS(p, e, e + v); } while (o != e);
        if (v & 1) {
            for (int i = 0; i < (v & 7); i++)
                v = v * 3 + i;
        } else {
            v = v + 7;
        }
    } else {
        v = -v;
    }
    out[lane] = v; // YJOIN
}

// Every thread of a CTA of four warps adds its weight to one float in shared memory.
// ptxas makes atomicAdd on a shared float a loop: read the word, add, ATOMS.CAST.SPIN
// (store where the word still holds what was read), retry otherwise. The CTA's warps run
// at once, so each warp reads the word before the others' swaps land, and of all the lanes
// that read the same value one succeeds.
extern "C" __global__ void shared_fadd(const int *in, int *out)
{
    __shared__ float sum;
    if (threadIdx.x == 0)
        sum = 0.0f;
    __syncthreads();
    atomicAdd(&sum, (float)(1 + (in[threadIdx.x & 63] & 15))); // SFADD
    __syncthreads();
    if (threadIdx.x == 0)
        out[0] = (int)sum;
}

// A sum, a shuffle and votes in 8-lane tiles of cooperative groups (thread_block_tile<8>),
// whose masks differ from tile to tile: ptxas tests the mask's uniformity (R2UR P0) before
// a BRA.DIV that the whole warp takes when any lane's mask differs, and runs each vote
// between WARPSYNC.COLLECTIVE and ENDCOLLECTIVE once per tile, each tile's lanes alone.
// Found by bench/unseen/unseen17 cg_tiles on an H200.
extern "C" __global__ void tile_vote(const int *in, int *out)
{
    cg::thread_block_tile<8> tile = cg::tiled_partition<8>(cg::this_thread_block());
    int v = in[threadIdx.x], s = v;
    for (int d = tile.size() / 2; d > 0; d /= 2)
        s += tile.shfl_down(s, d);
    s = tile.shfl(s, 0);
    int f = tile.any(v > 900) | tile.all(v > 100) << 1 | (int)tile.ballot(v & 1) << 2; // TILE_VOTE
    out[threadIdx.x] = s * 16 + f;
}
