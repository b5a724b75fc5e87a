// calib.cu — microbenchmarks that each isolate one mechanism of the timing model, for
// bench/calibrate.py: dependent chains and issue rates of one instruction class (written as
// inline PTX so the chain is exactly what the model and the GPU run), pointer chases in
// shared memory, L1, L2 and DRAM, taken branches, barriers, and atomics on one address,
// one L2 atomic unit or many. Every kernel takes its repetition counts from -D constants.

#ifndef REPS
#define REPS 16 // chained operations per loop trip
#endif
#ifndef ITERS
#define ITERS 64 // loop trips (never unrolled)
#endif
#ifndef CHAINS
#define CHAINS 1 // independent chains per thread (1: latency; 8: issue rate)
#endif
#ifndef RING
#define RING 32 // pointer-chase ring entries
#endif
#ifndef GROUPS
#define GROUPS 1 // member-mask groups (redux_groups); words (atomics SPREAD=5)
#endif
#ifndef BINS
#define BINS 1 // random words (SPREAD=6)
#endif
#ifndef STRIDE
#define STRIDE 32 // elements between ring entries (32 x 4 B: one line each)
#endif
#ifndef SPREAD
#define SPREAD 0 // how the atomics' lanes pick words (atomics, leader_loop)
#endif
#ifndef LANES
#define LANES 32 // lanes of a warp that take part (atomics)
#endif
#ifndef CTAS
#define CTAS 1 // the grid (chase_global's rings when RINGS is not given)
#endif

// One class of operation: CHAINS chains of REPS x ITERS dependent operations ASM.
#define OP_KERNEL(name, T, C, ASM)                                                        \
    extern "C" __global__ void name(T *out)                                               \
    {                                                                                     \
        T x[CHAINS], y = (T)((threadIdx.x + 1) & 31);                                     \
        _Pragma("unroll") for (int c = 0; c < CHAINS; c++) x[c] = (T)(threadIdx.x + c);   \
        _Pragma("unroll 1") for (int i = 0; i < ITERS; i++)                               \
            _Pragma("unroll") for (int k = 0; k < REPS; k++)                              \
                _Pragma("unroll") for (int c = 0; c < CHAINS; c++)                        \
                    asm volatile(ASM : "+" C(x[c]) : C(y));                               \
        T s = 0;                                                                          \
        _Pragma("unroll") for (int c = 0; c < CHAINS; c++) s += x[c];                     \
        out[blockIdx.x * blockDim.x + threadIdx.x] = s;                                   \
    }

// Two ALU operations a step (add then xor: nothing for ptxas to fold).
OP_KERNEL(op_alu, int, "r", "add.s32 %0, %0, %1;\n\txor.b32 %0, %0, %1;")
OP_KERNEL(op_mul, int, "r", "mad.lo.s32 %0, %0, %0, %1;")
// Two operations of the integer ALU pipe a step (a funnel shift, an xor): op_alu's add runs
// as IMAD.IADD on the FMA pipe on sm_90, so this one measures the ALU pipe alone.
OP_KERNEL(op_shf, int, "r", "shf.l.wrap.b32 %0, %0, %0, 7;\n\txor.b32 %0, %0, %1;")
// An add of a constant (VIADD on sm_90) behind an xor: whether it costs what IADD3 does.
OP_KERNEL(op_viadd, int, "r", "add.s32 %0, %0, 12345;\n\txor.b32 %0, %0, %1;")
OP_KERNEL(op_fp32, float, "f", "fma.rn.f32 %0, %0, %1, %1;")
OP_KERNEL(op_fp64, double, "d", "fma.rn.f64 %0, %0, %1, %1;")
OP_KERNEL(op_sfu, float, "f", "ex2.approx.ftz.f32 %0, %0;")
OP_KERNEL(op_div, float, "f", "div.rn.f32 %0, %1, %0;")
OP_KERNEL(op_shfl, int, "r", "shfl.sync.idx.b32 %0, %0, %1, 31, -1;")
// The parts of an integer division by a divisor only known at run time (ptxas: I2F.U32.RP,
// MUFU.RCP, F2I.U32.TRUNC, then IMAD.HI steps): the high multiply and the two conversions
// alone (MUFU as op_sfu), then the whole remainder; a 32 x 32 -> 64 multiply (IMAD.WIDE).
OP_KERNEL(op_mulhi, int, "r", "mul.hi.u32 %0, %0, %1;\n\txor.b32 %0, %0, %1;")
OP_KERNEL(op_mulwide, unsigned long long, "l",
          "{ .reg .u32 a, h, b; mov.b64 {a, h}, %0; xor.b32 a, a, h; cvt.u32.u64 b, %1;\n\t"
          "mul.wide.u32 %0, a, b; }")
OP_KERNEL(op_i2f, int, "r",
          "{ .reg .f32 t; cvt.rp.f32.u32 t, %0; mov.b32 %0, t; xor.b32 %0, %0, %1; }")
OP_KERNEL(op_f2i, int, "r",
          "{ .reg .f32 t; mov.b32 t, %0; cvt.rzi.ftz.u32.f32 %0, t; xor.b32 %0, %0, %1; }")
// One MUFU and four IMADs a step: whether the multi-function unit and the FMA pipe that
// IMAD uses overlap (a step costs the larger of the two) or not (their sum).
OP_KERNEL(op_sfu_mul, int, "r",
          "{ .reg .f32 f; mov.b32 f, %0; ex2.approx.ftz.f32 f, f; mov.b32 %0, f;\n\t"
          "mad.lo.s32 %0, %0, %1, %1; mad.lo.s32 %0, %0, %1, %1;\n\t"
          "mad.lo.s32 %0, %0, %1, %1; mad.lo.s32 %0, %0, %1, %1; }")
OP_KERNEL(op_urem, int, "r",
          "{ .reg .u32 t; or.b32 %0, %0, 1; rem.u32 t, 1000003, %0; add.u32 %0, %0, t; }")
// Bit operations and a vote, each behind an xor (BREV, FLO, POPC; ISETP + VOTE): whether they
// cost what an ALU operation does.
OP_KERNEL(op_brev, int, "r", "brev.b32 %0, %0;\n\txor.b32 %0, %0, %1;")
OP_KERNEL(op_clz, int, "r", "clz.b32 %0, %0;\n\txor.b32 %0, %0, %1;")
OP_KERNEL(op_popc, int, "r", "popc.b32 %0, %0;\n\txor.b32 %0, %0, %1;")
OP_KERNEL(op_vote, int, "r", "{ .reg .pred p; setp.ne.s32 p, %0, %1; vote.sync.ballot.b32 %0, p, -1; }")

// Shared-memory pointer chase: every lane follows the same ring of byte offsets. The ring
// has its own fixed size: RING sizes the global chases, up to 4096 entries (128 KB here,
// past the 48 KB of static shared memory a kernel may have, which fails the whole module).
#define SRING 32
extern "C" __global__ void chase_shared(int *out)
{
    __shared__ unsigned ring[SRING * 8];
    unsigned base = (unsigned)__cvta_generic_to_shared(ring);
    for (int i = threadIdx.x; i < SRING; i += blockDim.x)
        ring[i * 8] = base + ((i + 1) % SRING) * 32;
    __syncthreads();
    unsigned a = base;
#pragma unroll 1
    for (int i = 0; i < ITERS; i++)
#pragma unroll
        for (int k = 0; k < REPS; k++)
            asm volatile("ld.shared.u32 %0, [%0];" : "+r"(a));
    out[blockIdx.x * blockDim.x + threadIdx.x] = a;
}

// Constant-memory chase: a = cring[(a + lane * SPREAD) & 255] with cring[i] = i + 1 (the
// spec's `symbol cring`): SPREAD = 0, every lane on one word; 1, each lane its own word (32
// distinct words a load). `a` starts from out[], zero, so ptxas cannot make it uniform.
__constant__ unsigned cring[256];
extern "C" __global__ void chase_const(int *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned a = (unsigned)out[t], lane = threadIdx.x & 31;
#pragma unroll 1
    for (int i = 0; i < ITERS; i++)
#pragma unroll
        for (int k = 0; k < REPS; k++)
            a = cring[(a + lane * SPREAD) & 255];
    out[t] = (int)a;
}

// Global pointer chase over a ring the kernel writes first (RING lines STRIDE elements
// apart): a small ring stays in L1, a ring larger than L1 comes from L2. SPREAD = 1 starts
// lane l l lines further on, so that each load's lanes touch 32 lines (SPREAD = 0: one). CTA b chases ring
// b mod RINGS (RINGS = 1: every CTA the same ring, from a line of its own: the L2's latency
// with every SM asking, the footprint one ring's).
#ifndef RINGS
#define RINGS CTAS
#endif
extern "C" __global__ void chase_global(unsigned long long *buf, int *out)
{
    unsigned long long *ring = buf + (size_t)(blockIdx.x % RINGS) * RING * STRIDE;
    for (int i = threadIdx.x; i < RING; i += blockDim.x)
        ring[(size_t)i * STRIDE] = (unsigned long long)(ring + (size_t)((i + 1) % RING) * STRIDE);
    __syncthreads();
    unsigned long long a = (unsigned long long)(ring + (size_t)((blockIdx.x / RINGS * 97 + (threadIdx.x & 31) * SPREAD) % RING) * STRIDE);
#pragma unroll 1
    for (int i = 0; i < ITERS; i++)
#pragma unroll
        for (int k = 0; k < REPS; k++)
            asm volatile("ld.global.u64 %0, [%0];" : "+l"(a));
    out[blockIdx.x * blockDim.x + threadIdx.x] = (int)a;
}

// DRAM: a chase through never-touched lines, buf[i] = i + STRIDE (the spec's iota), an
// index a step (mul.wide + add + load); each CTA chases through a region of its own.
extern "C" __global__ void chase_dram(const int *buf, int *out)
{
    int idx = blockIdx.x * (ITERS * REPS * STRIDE);
    unsigned long long t;
#pragma unroll 1
    for (int i = 0; i < ITERS; i++)
#pragma unroll
        for (int k = 0; k < REPS; k++)
            asm volatile("mul.wide.s32 %1, %0, 4;\n\tadd.s64 %1, %1, %2;\n\tld.global.u32 %0, [%1];"
                         : "+r"(idx), "=l"(t) : "l"(buf));
    out[blockIdx.x * blockDim.x + threadIdx.x] = idx + (t == 1); // t, an address, is never 1
}

// Taken branches: a loop of ITERS trips of a counter, a compare and a taken back edge
// (`#pragma unroll 1` reaches ptxas as .pragma "nounroll").
extern "C" __global__ void loop_branch(int *out)
{
    int n = ITERS + (out[0] & 0x40000000); // a trip count the compilers cannot see
    int x = n;
#pragma unroll 1
    for (int i = 0; i < n; i++) // one add a trip keeps the loop: ptxas drops an empty one
        asm volatile("add.s32 %0, %0, 1;" : "+r"(x));
    out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

// Barriers: the same loop with a bar.sync each trip.
extern "C" __global__ void loop_barrier(int *out)
{
    int n = ITERS + (out[0] & 0x40000000);
#pragma unroll 1
    for (int i = 0; i < n; i++)
        __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = n;
}

// A branch that may diverge each trip (odd lanes run a body too long to predicate): the
// warps wait at its reconvergence point (BSSY/BSYNC in SASS).
extern "C" __global__ void loop_diverge(int *out)
{
    int n = ITERS + (out[0] & 0x40000000), x = threadIdx.x, y = 3;
#pragma unroll 1
    for (int i = 0; i < n; i++)
        if (threadIdx.x & 1)
#pragma unroll
            for (int k = 0; k < 8; k++)
                asm volatile("add.s32 %0, %0, %1;\n\txor.b32 %0, %0, %1;" : "+r"(x) : "r"(y));
    out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

// A loop left on a volatile shared flag no thread sets: a spin loop (YIELD in SASS).
extern "C" __global__ void loop_spin(int *out)
{
    __shared__ volatile int flag;
    if (threadIdx.x == 0) flag = 0;
    __syncthreads();
    int n = ITERS + (out[0] & 0x40000000), i = 0;
#pragma unroll 1
    for (; i < n; i++)
        if (flag == 12345) break;
    out[blockIdx.x * blockDim.x + threadIdx.x] = i;
}

// CTAs that do almost nothing: their start on an SM, wave after wave; with one CTA, the
// launch itself.
extern "C" __global__ void empty_ctas(int *out)
{
    if (out[0] == 12345) out[blockIdx.x] = threadIdx.x; // never: the input is zero
}

// Streaming reads: each thread sums REPS ints a grid stride apart, N = grid x REPS ints.
extern "C" __global__ void stream_read(const int *buf, int *out)
{
    size_t stride = (size_t)gridDim.x * blockDim.x, i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    int s = 0;
#pragma unroll 4
    for (int k = 0; k < REPS; k++, i += stride) s += buf[i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// L2 reads: ITERS passes over a buffer of CTAS x RING ints that fits in L2; on each pass a
// CTA reads another CTA's part, which its L1 has not seen.
extern "C" __global__ void l2_read(const int *buf, int *out)
{
    int s = 0;
#pragma unroll 1
    for (int p = 0; p < ITERS; p++) {
        const int4 *part = (const int4 *)(buf + (size_t)((blockIdx.x + 1 + p) % gridDim.x) * RING);
        for (int i = threadIdx.x; i < RING / 4; i += blockDim.x) { // 16 B a lane: 4 lines a warp
            int4 v = __ldcg(&part[i]); // past L1: two CTAs of an SM may read one part
            s += v.x + v.y + v.z + v.w;
        }
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// __reduce_add_sync whose lanes name GROUPS member masks (lane i with the lanes of its
// residue mod GROUPS), the mask found by __match_any_sync as a histogram's lanes find their
// bin's: ptxas emits WARPSYNC.EXCLUSIVE, and the warp runs the reduction once per group.
extern "C" __global__ void redux_groups(int *out)
{
    int lane = threadIdx.x & 31, x = threadIdx.x;
#pragma unroll 1
    for (int i = 0; i < REPS; i++) {
        unsigned mask = __match_any_sync(0xffffffffu, (lane + i) % GROUPS);
        x += __reduce_add_sync(mask, x & 7);
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

// A global reduction's source register rewritten right after it, REPS times: the RED reads
// its operands late (the memory pipe's own time), so the add that writes the register next
// waits for that read (a write-after-read hazard; ptxas renames it away in straight code but
// not across a loop's back edge, where the leader loop below meets it too).
extern "C" __global__ void red_war(int *out, int zero)
{
    int x = threadIdx.x;
    int *p = out + blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll 1
    for (int i = 0; i < REPS; i++)
        asm volatile("red.global.add.u32 [%1], %0;\n\tadd.s32 %0, %0, %2;" : "+r"(x) : "l"(p), "r"(zero));
    out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

// A ballot/leader loop over GROUPS distinct keys a warp (lane i's key is i mod GROUPS), REPS
// rounds: the lowest waiting lane broadcasts its key, the lanes with that key vote, the leader
// adds their count and they leave, one trip per key. SPREAD = 0: the leader's add is a global
// atomicAdd on the key's word (a RED); 1: a register add, so a trip's cost without the RED.
extern "C" __global__ void leader_loop(int *hist, int zero)
{
    int lane = threadIdx.x & 31, acc = 0;
#pragma unroll 1
    for (int r = 0; r < REPS; r++) {
        int key = (lane % GROUPS) + (r & zero);
        unsigned waiting = __ballot_sync(0xffffffffu, key >= 0);
        while (waiting) {
            int leader = __ffs(waiting) - 1;
            int lkey = __shfl_sync(0xffffffffu, key, leader);
            unsigned same = __ballot_sync(0xffffffffu, key == lkey);
            if (lane == leader) {
                if (SPREAD == 0)
                    atomicAdd(&hist[lkey], __popc(same));
                else
                    acc += __popc(same) + lkey;
            }
            waiting &= ~same;
        }
    }
    if (acc == -1) hist[0] = 0; // keeps the register adds live
}

// Atomics from every warp of the grid, REPS per thread: SPREAD = 0: all lanes on one word;
// 1: each lane its own word within one 4 KB range; 2: each lane of each warp its own
// word, warps 4 KB apart; 3: lane i on word i x STRIDE of one range; 4: each lane of each
// warp its own word on its own 128-byte line (what random bins give); 5: GROUPS words
// STRIDE apart, lane i on word i mod GROUPS (32 / GROUPS lanes on each); 6: each lane a
// pseudo-random word of the first BINS, a new one each repetition; 7: the 32 lanes on the 32
// words of one line, each repetition the warp's next line of GROUPS lines. LANES lanes of each
// warp take part. `zero` (0 at run time) keeps ptxas from proving SPREAD=0's address
// uniform: it would turn a warp's 32 same-word adds into one (VOTEU + POPC + one RED),
// which is the compiler's work, not the L2's.

template <typename T> __device__ void atomics(T *buf, int zero)
{
    int lane = threadIdx.x & 31;
    if (lane >= LANES) return;
    size_t warp = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) / 32;
    size_t at = SPREAD == 0 ? (size_t)(lane & zero) : SPREAD == 1 ? lane
                : SPREAD == 2 ? warp * 1024 + lane : SPREAD == 3 ? (size_t)lane * STRIDE
                : SPREAD == 5 ? (size_t)(lane % GROUPS) * STRIDE : (warp * 32 + lane) * 32;
    unsigned x = (unsigned)(warp * 32 + lane) * 2654435761u + 12345u;
#pragma unroll 1
    for (int i = 0; i < REPS; i++) {
        if (SPREAD == 6) {
            x = x * 1664525u + 1013904223u;
            at = (x >> 8) % BINS;
        }
        if (SPREAD == 7)
            at = ((warp + i) % GROUPS) * 32 + lane;
        atomicAdd(&buf[at], (T)1);
    }
}
extern "C" __global__ void atomic_int(int *buf, int zero) { atomics(buf, zero); }

// A dependent chain of global atomics: each add's address waits for the value the last one
// returned (`v & zero` is 0 at run time), so a warp has one atomic in flight: the round
// trip. SPREAD = 0: all lanes on one word; 1: each lane its own word.
extern "C" __global__ void atomic_chain(int *buf, int zero)
{
    int lane = threadIdx.x & 31;
    if (lane >= LANES) return;
    size_t at = SPREAD == 0 ? (size_t)(lane & zero) : (size_t)lane;
    int v = 0;
#pragma unroll 1
    for (int i = 0; i < REPS; i++)
        v = atomicAdd(&buf[at + (v & zero)], 1);
    if (v == -1) buf[1] = 0; // keeps the chain live
}
extern "C" __global__ void atomic_float(float *buf, int zero) { atomics(buf, zero); }

// CAS round trips under contention: the thread adds 1 to *word REPS times with an atomicCAS
// retry loop.
template <typename T> __device__ void cas_increments(T *word)
{
#pragma unroll 1
    for (int r = 0; r < REPS; r++) {
        T old = *(volatile T *)word, assumed;
        do {
            assumed = old;
            old = atomicCAS(word, assumed, assumed + 1);
        } while (old != assumed);
    }
}

// All threads of the grid contend for one word.
extern "C" __global__ void cas_loop(unsigned *word) { cas_increments(word); }

// CAS increment loops on WORDS words, thread t on word t mod WORDS, the words STRIDE words
// apart: how far apart contended words must be for their attempts not to queue together.
#ifndef WORDS
#define WORDS 64
#endif
extern "C" __global__ void cas_words(unsigned *buf)
{
    cas_increments(buf + (size_t)((blockIdx.x * blockDim.x + threadIdx.x) % WORDS) * STRIDE);
}

// The same loops written with a reload at the top of every try (a volatile load, then the
// CAS): a try is two round trips, a load's and the CAS's, where the do-while's is one.
extern "C" __global__ void cas_words_reload(unsigned *buf)
{
    unsigned *word = buf + (size_t)((blockIdx.x * blockDim.x + threadIdx.x) % WORDS) * STRIDE;
#pragma unroll 1
    for (int r = 0; r < REPS; r++)
        while (1) {
            unsigned cur = *(volatile unsigned *)word;
            if (atomicCAS(word, cur, cur + 1) == cur)
                break;
        }
}

// CAS increment loops on a pseudo-random word of the first BINS, a new one each repetition:
// what CAS attempts cost where few threads, or none, contend for a word.
extern "C" __global__ void cas_random(unsigned *buf)
{
    unsigned x = (blockIdx.x * blockDim.x + threadIdx.x) * 2654435761u + 12345u;
#pragma unroll 1
    for (int r = 0; r < REPS; r++) {
        x = x * 1664525u + 1013904223u;
        unsigned *word = buf + (x >> 8) % BINS, old = *(volatile unsigned *)word, assumed;
        do {
            assumed = old;
            old = atomicCAS(word, assumed, assumed + 1);
        } while (old != assumed);
    }
}

// A max through a CAS loop that stops once the word holds at least its value, on WORDS words
// (thread t on word t mod WORDS): each repetition's values are above every earlier one's, in
// a scrambled order among the threads, so each repetition the threads of a word race to
// raise it and most leave after a failed CAS or none.
extern "C" __global__ void cas_max_words(unsigned *buf)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned *word = buf + (size_t)(t % WORDS) * STRIDE;
#pragma unroll 1
    for (int r = 0; r < REPS; r++) {
        unsigned v = (unsigned)r * (1u << 22) + ((t * 2654435761u) >> 11) + 1u;
        unsigned old = *(volatile unsigned *)word;
        while (old < v) {
            unsigned got = atomicCAS(word, old, v);
            if (got == old)
                break;
            old = got;
        }
    }
}

// The same on a 64-bit word: atomicCAS on unsigned long long (a double add's CAS loop).
extern "C" __global__ void cas_loop64(unsigned long long *word) { cas_increments(word); }

// Shared-memory atomics from every warp, REPS per thread, on the warp's own 1024 words:
// SPREAD = 0: all lanes on one word; 1: each lane its own word and bank; 3: lane i on word
// i x STRIDE; 6: each lane a pseudo-random word of the first BINS, a new one each repetition.
extern "C" __global__ void shared_atomics(int *out, int zero)
{
    __shared__ int s[8 * 1024];
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    int *mine = s + (warp % 8) * 1024; // 8 copies of 4 KB (32 KB): the 32 warps share them
    for (int i = threadIdx.x; i < 8 * 1024; i += blockDim.x)
        s[i] = 0;
    __syncthreads();
    unsigned x = (unsigned)(blockIdx.x * blockDim.x + threadIdx.x) * 2654435761u + 12345u;
    int at = SPREAD == 0 ? (lane & zero) : SPREAD == 1 ? lane : (lane * STRIDE) % 1024;
#pragma unroll 1
    for (int i = 0; i < REPS; i++) {
        if (SPREAD == 6) {
            x = x * 1664525u + 1013904223u;
            at = (x >> 8) % BINS;
        }
        atomicAdd(&mine[at], 1);
    }
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = s[lane + zero];
}

// Shared-memory atomics, one warp: each lane adds 1 to a shared word REPS x ITERS times,
// the next word picked by the value the last add returned (a dependent chain). SPREAD = 0:
// all lanes on one word; 1: each lane its own word.
extern "C" __global__ void atomic_shared(int *out)
{
    __shared__ int s[32];
    int lane = threadIdx.x & 31;
    s[lane] = 0;
    __syncwarp();
    int v = 0;
#pragma unroll 1
    for (int i = 0; i < ITERS; i++)
#pragma unroll
        for (int k = 0; k < REPS; k++)
            v = atomicAdd(&s[SPREAD ? lane : 0] + (v >> 30), 1); // v < 2^30: the same word
    out[blockIdx.x * blockDim.x + threadIdx.x] = v + s[lane];
}

// ---------------------------------------------------------------- local memory and calls
// A thread's array indexed by values the compiler cannot know lives in local memory
// (interleaved per lane, cached in L1): LDL and STL.
#include "ring_chase.cuh" /* LRING, ring_chase: shared with bench/placement */
// LDL chase through a ring the thread wrote long before: a local load's latency.
extern "C" __global__ void local_chase(int *out, int zero)
{
    int j = ring_chase(zero);
    out[blockIdx.x * blockDim.x + threadIdx.x] = j;
}

// STL then an LDL of the word just stored, the next index from it: a spill and its reload
// back to back, as a call's saved registers are (ITERS x REPS of them from index j).
__device__ __forceinline__ int spill_ring(int *a, int j, int zero)
{
#pragma unroll 1
    for (int i = 0; i < ITERS; i++)
#pragma unroll
        for (int r = 0; r < REPS; r++) {
            a[j] = j + r + 1;
            j = a[j ^ zero] & (LRING - 1);
        }
    return j;
}

extern "C" __global__ void local_spill(int *out, int zero)
{
    int a[LRING];
#pragma unroll
    for (int k = 0; k < LRING; k++)
        a[k] = k + zero;
    out[blockIdx.x * blockDim.x + threadIdx.x] = spill_ring(a, zero, zero);
}

// local_spill with the lanes on different words: each STL writes 32 lines, one sector
// of each (a per-thread array indexed by data, as a local histogram's), then the LDL of
// the word just stored.
extern "C" __global__ void local_scatter(int *out, int zero)
{
    int a[LRING];
    int lane = threadIdx.x & 31;
#pragma unroll
    for (int k = 0; k < LRING; k++)
        a[k] = k + zero;
    int j = zero;
#pragma unroll 1
    for (int i = 0; i < ITERS; i++)
#pragma unroll
        for (int r = 0; r < REPS; r++) {
            int k = (j + lane * 5) & (LRING - 1);
            a[k] = j + r + 1;
            j = a[k ^ zero] & (LRING - 1);
        }
    out[blockIdx.x * blockDim.x + threadIdx.x] = j;
}

// local_spill run by one lane of each warp: each STL writes one sector of one line.
extern "C" __global__ void local_sparse(int *out, int zero)
{
    int a[LRING];
#pragma unroll
    for (int k = 0; k < LRING; k++)
        a[k] = k + zero;
    int j = zero;
    if ((threadIdx.x & 31) == zero)
        j = spill_ring(a, j, zero);
    out[blockIdx.x * blockDim.x + threadIdx.x] = j;
}

// A recursion REPS calls deep that no compiler can turn into a loop (the result is not an
// accumulation): each call a CALL, its frame's STL and LDL, and a RET.
__device__ __noinline__ int descend(int d, int zero)
{
    if (d <= zero)
        return zero;
    int r = descend(d - 1, zero);
    return (r ^ d) * 3 + zero;
}
extern "C" __global__ void call_chain(int *out, int zero)
{
    int s = zero;
#pragma unroll 1
    for (int i = 0; i < ITERS; i++)
        s += descend(REPS + (s & zero), zero);
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// A spin lock on LOCKS words STRIDE words apart (thread t on word t mod LOCKS), taken REPS times
// by every thread: atomicCAS(lock, 0, 1) until it returns 0, the critical section, then
// atomicExch(lock, 0), the form that cannot deadlock a warp whose lanes share a lock (the
// lanes that fail wait at the branch's convergence barrier for the one that holds it). The
// critical section adds 1 to the word after the lock (its load and its store): what one
// acquisition costs when every resident thread spins on the same word.
#ifndef LOCKS
#define LOCKS 1
#endif
template <bool FENCE> __device__ void lock_increments(int *buf)
{
    int *lock = buf + (size_t)((blockIdx.x * blockDim.x + threadIdx.x) % LOCKS) * STRIDE;
#pragma unroll 1
    for (int r = 0; r < REPS; r++) {
        bool done = false;
        while (!done) {
            if (atomicCAS(lock, 0, 1) == 0) {
                lock[1] += 1;
                if (FENCE)
                    __threadfence();
                atomicExch(lock, 0);
                done = true;
            }
        }
    }
}
extern "C" __global__ void spin_lock(int *buf) { lock_increments<false>(buf); }
// The same with __threadfence() before the release (a fence the holder waits for).
extern "C" __global__ void spin_lock_fence(int *buf) { lock_increments<true>(buf); }

// Device printf from LANES lanes of the first WARPS warps of each CTA, REPS times each (a loop
// of the whole call): what a printf costs the GPU. FMTLEN 1 uses a 69-character format for
// the 8-character one, with the same two arguments (whether the device's vprintf reads the format).
#ifndef WARPS
#define WARPS 32
#endif
#ifndef FMTLEN
#define FMTLEN 0
#endif
#include <cstdio>
extern "C" __global__ void printf_lanes(int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, s = 0;
    if ((threadIdx.x & 31) < LANES && (int)(threadIdx.x >> 5) < WARPS) {
#pragma unroll 1
        for (int r = 0; r < REPS; r++) {
            if (FMTLEN)
                printf("calib printf_lanes: thread %d of the grid, repetition %d of the loop\n", i, r);
            else
                printf("p %d %d\n", i, r);
            s += r;
        }
    }
    out[i] = s;
}
