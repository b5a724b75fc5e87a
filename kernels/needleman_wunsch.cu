// needleman_wunsch.cu — global alignment scores of two sequences of N residues (after
// Rodinia's nw): score[i][j] = max(score[i-1][j-1] + blosum[a[i-1]][b[j-1]],
// score[i][j-1] - PENALTY, score[i-1][j] - PENALTY) over an (N+1) x (N+1) matrix whose
// first row and column are -PENALTY * index (nw_init). The matrix is cut into T x T tiles;
// the tiles of one anti-diagonal are independent, so the host launches one grid per tile
// anti-diagonal: phase 1 the growing diagonals of the upper-left half, phase 2 the
// shrinking ones of the lower-right half. A block of T threads stages its tile with the row
// above and the column to its left in shared memory and sweeps the tile's own cell anti-
// diagonals, thread tx taking column tx, so the first and last diagonals leave most
// threads idle. Variants: tile16 (16 threads: half of every warp is empty) and tile32.

#ifndef N
#define N 128 // residues per sequence, a multiple of 32
#endif
#ifndef PENALTY
#define PENALTY 10
#endif
#define ALPHABET 24 // residue codes 0..23, as BLOSUM62's

// The substitution scores, filled from a spec buffer before the first launch.
__constant__ int blosum[ALPHABET * ALPHABET];

// Row 0 and column 0: the cost of aligning a prefix against nothing.
__global__ void nw_init(int *score)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= N) {
        score[i] = -i * PENALTY;
        score[i * (N + 1)] = -i * PENALTY;
    }
}

// Tile (ty, tx) of T x T cells: score[ty*T+1 .. ty*T+T][tx*T+1 .. tx*T+T].
template <int T>
__device__ void nw_tile(const unsigned char *a, const unsigned char *b, int *score, int ty,
                        int tx)
{
    __shared__ int s[T + 1][T + 1]; // the tile with the row above and the column left of it
    __shared__ int sub[T][T];       // the tile's substitution scores
    const int cols = N + 1;
    int t = threadIdx.x, row0 = ty * T, col0 = tx * T;
    for (int r = 0; r < T; r++)
        sub[r][t] = blosum[a[row0 + r] * ALPHABET + b[col0 + t]];
    if (t == 0)
        s[0][0] = score[row0 * cols + col0];
    s[t + 1][0] = score[(row0 + t + 1) * cols + col0];
    s[0][t + 1] = score[row0 * cols + col0 + t + 1];
    __syncthreads();
    // Cell diagonal d holds the cells (y, x) with y + x = d + 2, 1 <= y, x <= T.
    for (int d = 0; d < 2 * T - 1; d++) {
        int x = t + 1, y = d + 1 - t;
        if (y >= 1 && y <= T) {
            int diag = s[y - 1][x - 1] + sub[y - 1][x - 1];
            int left = s[y][x - 1] - PENALTY, up = s[y - 1][x] - PENALTY;
            s[y][x] = max(diag, max(left, up));
        }
        __syncthreads();
    }
    for (int r = 0; r < T; r++)
        score[(row0 + r + 1) * cols + col0 + t + 1] = s[r + 1][t + 1];
}

// Phase 1: tile anti-diagonal d (0-based, from the top-left); block bx takes its bx-th tile.
template <int T>
__device__ void nw_phase1(const unsigned char *a, const unsigned char *b, int *score, int d)
{
    nw_tile<T>(a, b, score, d - (int)blockIdx.x, blockIdx.x);
}

// Phase 2: tile anti-diagonal d = 1 .. N/T-1 of the lower-right half (the diagonal N/T-1+d).
template <int T>
__device__ void nw_phase2(const unsigned char *a, const unsigned char *b, int *score, int d)
{
    nw_tile<T>(a, b, score, N / T - 1 - (int)blockIdx.x, d + blockIdx.x);
}

__global__ void nw_phase1_16(const unsigned char *a, const unsigned char *b, int *score, int d)
{
    nw_phase1<16>(a, b, score, d);
}
__global__ void nw_phase2_16(const unsigned char *a, const unsigned char *b, int *score, int d)
{
    nw_phase2<16>(a, b, score, d);
}
__global__ void nw_phase1_32(const unsigned char *a, const unsigned char *b, int *score, int d)
{
    nw_phase1<32>(a, b, score, d);
}
__global__ void nw_phase2_32(const unsigned char *a, const unsigned char *b, int *score, int d)
{
    nw_phase2<32>(a, b, score, d);
}
