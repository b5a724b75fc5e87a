// val_branch.cu — validation branch path unification (bench/validation, not a seed): each
// item runs path A (LA rounds of a multiply-add) or path B (LB rounds of shifts and xors)
// by bit 0 of its key, so a warp's lanes split. Written differently from
// kernels/branch_unification.cu: the same two paths as one loop whose trip count and
// step are picked by select, both paths computed and the result selected, and DPT items a
// thread walked with two cursors that pair one A item with one B item each step.

#ifndef BLOCKS
#define BLOCKS 132
#endif
#ifndef THREADS
#define THREADS 128
#endif
#ifndef DPT
#define DPT 16
#endif
#ifndef LA
#define LA 64
#endif
#ifndef LB
#define LB 96
#endif

#define N (BLOCKS * THREADS * DPT)

__device__ inline unsigned step_a(unsigned x) { return x * 1664525u + 1013904223u; }
__device__ inline unsigned step_b(unsigned x) { return ((x ^ (x << 7)) ^ (x >> 9)) + 0x9e3779b9u; }

__device__ unsigned path_a(unsigned x)
{
    for (int t = 0; t < LA; t++)
        x = step_a(x);
    return x;
}

__device__ unsigned path_b(unsigned x)
{
    for (int t = 0; t < LB; t++)
        x = step_b(x);
    return x;
}

// One item a thread, if/else on the key: the base.
__global__ void vb_branch(const int *key, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= N)
        return;
    unsigned x = (unsigned)key[i];
    if (key[i] & 1)
        out[i] = path_a(x);
    else
        out[i] = path_b(x);
}

// One item a thread, one loop: the trip count and each round's result are selected.
__global__ void vb_select(const int *key, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= N)
        return;
    unsigned x = (unsigned)key[i];
    int a = key[i] & 1;
    int trips = a ? LA : LB;
    for (int t = 0; t < trips; t++) {
        unsigned xa = step_a(x), xb = step_b(x);
        x = a ? xa : xb;
    }
    out[i] = x;
}

// One item a thread, both paths run in full, the result selected: no branch, LA + LB rounds.
__global__ void vb_both(const int *key, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= N)
        return;
    unsigned x = (unsigned)key[i];
    unsigned ra = path_a(x), rb = path_b(x);
    out[i] = (key[i] & 1) ? ra : rb;
}

// DPT items a thread (items t, t + T, ... of the grid's T threads): one cursor walks the A
// items, one the B items; each step runs one of each, then the leftovers of one kind.
__global__ void vb_pair(const int *key, unsigned *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x, T = gridDim.x * blockDim.x;
    int ia = 0, ib = 0;
    while (ia < DPT && !(key[t + ia * T] & 1)) ia++;
    while (ib < DPT && (key[t + ib * T] & 1)) ib++;
    while (ia < DPT || ib < DPT) {
        if (ia < DPT) {
            int i = t + ia * T;
            out[i] = path_a((unsigned)key[i]);
            do ia++; while (ia < DPT && !(key[t + ia * T] & 1));
        }
        if (ib < DPT) {
            int i = t + ib * T;
            out[i] = path_b((unsigned)key[i]);
            do ib++; while (ib < DPT && (key[t + ib * T] & 1));
        }
    }
}
