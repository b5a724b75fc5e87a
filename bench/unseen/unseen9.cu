// unseen9.cu — a ninth set of kernels written as a new user would, to check the timing model's
// spin locks on layouts it has not seen: locks inside 16-byte records, one lock per warp's
// leader among 32, and a lock guarding a longer critical section. bench/unseen/unseen9.spec
// launches them; docs/results/unseen-kernels-h200.txt has what an H200 and the model gave.

struct record { int lock; int count; float sum; int last; };

// 256 records of 16 bytes (two to a 32-byte sector), each with its own lock; a thread adds
// its value to the record its key picks.
extern "C" __global__ void record_lock(const int *in, const float *x, record *recs, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    record *r = &recs[in[t] & 255];
    bool done = false;
    while (!done) {
        if (atomicCAS(&r->lock, 0, 1) == 0) {
            volatile record *v = r;
            v->count = v->count + 1;
            v->sum = v->sum + x[t];
            v->last = t;
            __threadfence();
            atomicExch(&r->lock, 0);
            done = true;
        }
    }
}

// Each warp's first lane takes one of 32 locks (by the warp's number) and adds the warp's
// count of odd values to that lock's total.
extern "C" __global__ void leader_locks32(const int *in, int *locks, int *totals, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned odd = __ballot_sync(0xffffffffu, t < n && (in[t] & 1));
    if ((threadIdx.x & 31) == 0) {
        int w = (t >> 5) & 31;
        while (atomicCAS(&locks[w], 0, 1) != 0)
            ;
        volatile int *s = totals;
        s[w] = s[w] + __popc(odd);
        __threadfence();
        atomicExch(&locks[w], 0);
    }
}

// 8 locks 128 bytes apart; the holder walks 8 links of a small table in its critical section
// (dependent loads) and writes where it ended.
extern "C" __global__ void long_section(const int *in, const int *next, int *locks, int *ends, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int b = (in[t] >> 4) & 7;
    bool done = false;
    while (!done) {
        if (atomicCAS(&locks[b * 32], 0, 1) == 0) {
            volatile int *e = ends;
            int j = e[b];
            for (int k = 0; k < 8; k++)
                j = next[(j + t) & 1023];
            e[b] = j;
            __threadfence();
            atomicExch(&locks[b * 32], 0);
            done = true;
        }
    }
}
