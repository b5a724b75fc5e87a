// unseen7.cu — a seventh set of kernels written as a new user would, after the SASS model
// learned to keep a caller's lanes waiting across a recursive call, to see how it does on
// control flow it was not built from: Collatz step counts, a tiny bytecode interpreter, an
// iterative depth-first search with a stack in local memory, a substring search that stops
// at the first match, a reduction in tiles of 8 threads over the values that pass a test,
// a loop that runs until every lane of the warp has converged (__all_sync), triangular nested
// loops, and a recursive count of integer partitions. bench/unseen/unseen7.spec launches
// them; docs/results/unseen-kernels-h200.txt has what an H200 and the model gave.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Steps of the Collatz map until 1 (at most 400).
extern "C" __global__ void collatz(const int *in, int *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    unsigned x = (unsigned)(in[t] % 5000) + 1;
    int steps = 0;
    while (x != 1 && steps < 400) {
        x = (x & 1) ? 3 * x + 1 : x >> 1;
        steps++;
    }
    out[t] = steps;
}

// A stack machine: each thread runs one of four small programs (by its input) over its value.
__constant__ unsigned char programs[4][12] = {
    {1, 2, 3, 1, 4, 0, 0, 0, 0, 0, 0, 0},      // dup add dup*3 ... halt
    {5, 1, 6, 2, 5, 3, 0, 0, 0, 0, 0, 0},
    {7, 7, 1, 2, 4, 6, 3, 0, 0, 0, 0, 0},
    {1, 1, 1, 2, 2, 7, 5, 6, 4, 3, 0, 0},
};

extern "C" __global__ void vm_interp(const int *in, int *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int v = in[t];
    const unsigned char *prog = programs[v & 3];
    int stack[8], sp = 0;
    stack[sp++] = v >> 2;
    for (int pc = 0; pc < 12; pc++) {
        int op = prog[pc];
        if (op == 0)
            break;
        switch (op) {
        case 1: stack[sp] = stack[sp - 1]; sp++; break;          // dup
        case 2: sp--; stack[sp - 1] += stack[sp]; break;          // add
        case 3: stack[sp - 1] *= 3; break;                        // triple
        case 4: stack[sp - 1] ^= 0x5a5a; break;                   // xor
        case 5: stack[sp - 1] = stack[sp - 1] >> 1; break;        // halve
        case 6: stack[sp - 1] = stack[sp - 1] % 1000 + 7; break;  // mod
        case 7: stack[sp] = pc * 11; sp++; break;                 // push
        }
        if (sp < 1)
            sp = 1;
        if (sp > 7)
            sp = 7;
    }
    out[t] = stack[sp - 1];
}

// Depth-first search of an implicit binary tree (children 2i+1, 2i+2) from each thread's
// start node, going down only into nodes of odd weight, with an explicit stack.
extern "C" __global__ void dfs_stack(const int *w, const int *start, int *out, int n, int nodes)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int stack[24], sp = 0, visited = 0, sum = 0;
    stack[sp++] = start[t] % 64;
    while (sp > 0 && visited < 64) {
        int node = stack[--sp];
        visited++;
        int v = w[node];
        sum += v & 15;
        if ((v & 1) && sp < 22) {
            if (2 * node + 2 < nodes)
                stack[sp++] = 2 * node + 2;
            if (2 * node + 1 < nodes)
                stack[sp++] = 2 * node + 1;
        }
    }
    out[t] = sum * 100 + visited;
}

// The first place the 3-letter pattern occurs in the thread's 96-letter window of a text over
// a 4-letter alphabet, or -1.
extern "C" __global__ void substr_search(const int *text, int *out, int n, int len)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int base = (t * 37) % (len - 100);
    int found = -1;
    for (int i = 0; i < 96; i++) {
        int a = text[base + i] & 3;
        if (a != 2)
            continue;
        if ((text[base + i + 1] & 3) == 0 && (text[base + i + 2] & 3) == 3) {
            found = i;
            break;
        }
    }
    out[t] = found;
}

// Each tile of 8 threads sums its values that are above a threshold, then the tile's first
// thread writes the sum; threads whose value is odd add twice.
extern "C" __global__ void tile_reduce(const int *in, int *out, int n)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<8> tile = cg::tiled_partition<8>(block);
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int v = t < n ? in[t] % 1000 : 0;
    int c = 0;
    if (v > 300) {
        c = v;
        if (v & 1)
            c += v / 2;
    }
    for (int off = 4; off > 0; off >>= 1)
        c += tile.shfl_down(c, off);
    if (tile.thread_rank() == 0 && t < n)
        out[t / 8] = c;
}

// Newton's iteration for the square root of each lane's value, run until every lane of the
// warp has converged (the warp votes each round), counting the rounds each lane needed.
extern "C" __global__ void vote_loop(const float *x, int *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float a = t < n ? x[t] : 1.0f;
    float r = a > 1.0f ? a : 1.0f;
    int mine = 0;
    bool done = false;
    for (int round = 0; round < 60; round++) {
        if (!done) {
            float next = 0.5f * (r + a / r);
            done = fabsf(next - r) <= 1e-6f * next;
            r = next;
            mine++;
        }
        if (__all_sync(0xffffffffu, done))
            break;
    }
    if (t < n)
        out[t] = mine * 1000 + (int)(r * 10.0f) % 1000;
}

// Triangular nested loops: thread t sums over i < t % 32 and j <= i of a small table.
extern "C" __global__ void triangle(const int *in, int *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int m = t % 32, s = 0;
    for (int i = 0; i < m; i++)
        for (int j = 0; j <= i; j++)
            s += in[(i * 32 + j) % n] & 0xff;
    out[t] = s;
}

// The number of partitions of k into parts of at most m, recursively.
__device__ __noinline__ int partitions(int k, int m)
{
    if (k == 0)
        return 1;
    if (k < 0 || m == 0)
        return 0;
    return partitions(k, m - 1) + partitions(k - m, m);
}

extern "C" __global__ void partition_count(const int *in, int *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int k = in[t] % 9 + 1;
    out[t] = partitions(k, k);
}
