// trips.cu — lanes of one warp leave an inner loop after their own number of trips, 12
// times over (an outer loop), in the shape of bench/unseen/unseen21.cu's varint decoder:
// how many times does the GPU issue the BSYNC where they meet? (bench/bsync/trips.spec,
// docs/results/unseen-kernels-h200.txt.) `pat` picks how many trips each lane makes:
//   0  1 + lane % 5              1  lane 0: 5, the rest 1      2  lane 0: 1, the rest 5
//   3  lanes 0-15: 1, 16-31: 2   4  0-14: 1, the rest 2        5  0-16: 1, the rest 2
//   6  1 + lane / 8              7  4 - lane / 8               8  lanes 0-3: lane + 1, the rest 5
//   9  20 lanes 1, 6 lanes 2, 4 lanes 3, one 4, one 5 (from lane 0 up)
//  10  the same counts from lane 31 down                      11  1 + lane * 7 % 5
//  12-27: a few lanes splitting at the end, in the counts the comments name (exit:stay)
// varint_trips reads each trip's byte from global memory (as the decoder does); alu_trips
// runs the same loops on registers alone; match_trips (below) leaves an unrolled loop.
__device__ int trips_of(int lane, int pat)
{
    switch (pat) {
    case 0: return 1 + lane % 5;
    case 1: return lane == 0 ? 5 : 1;
    case 2: return lane == 0 ? 1 : 5;
    case 3: return lane < 16 ? 1 : 2;
    case 4: return lane < 15 ? 1 : 2;
    case 5: return lane < 17 ? 1 : 2;
    case 6: return 1 + lane / 8;
    case 7: return 4 - lane / 8;
    case 8: return lane < 4 ? lane + 1 : 5;
    case 9: return lane < 20 ? 1 : lane < 26 ? 2 : lane < 30 ? 3 : lane < 31 ? 4 : 5;
    case 10: return lane >= 12 ? 1 : lane >= 6 ? 2 : lane >= 2 ? 3 : lane >= 1 ? 4 : 5;
    case 11: return 1 + lane * 7 % 5;
    /* small groups splitting at the end (the lanes not named make 1 trip) */
    case 12: return lane == 30 ? 2 : lane == 31 ? 3 : 1;                 /* 1:1 */
    case 13: return lane >= 30 ? 3 : lane >= 28 ? 2 : 1;                 /* 2:2 */
    case 14: return lane >= 30 ? 3 : lane == 29 ? 2 : 1;                 /* 1:2 */
    case 15: return lane == 31 ? 3 : lane >= 29 ? 2 : 1;                 /* 2:1 */
    case 16: return lane >= 30 ? 3 : lane >= 26 ? 2 : 1;                 /* 4:2 */
    case 17: return lane >= 30 ? 3 : lane >= 27 ? 2 : 1;                 /* 3:2 */
    case 18: return lane == 31 ? 3 : lane >= 28 ? 2 : 1;                 /* 3:1 */
    case 19: return lane >= 28 ? 3 : lane >= 24 ? 2 : 1;                 /* 4:4 */
    case 20: return lane < 28 ? 1 : lane - 26;                           /* 1:3, 1:2, 1:1 */
    case 21: return lane < 29 ? 1 : lane - 27;                           /* 1:2, 1:1 */
    case 22: return lane < 16 ? 1 : lane < 30 ? 2 : lane - 27;           /* 14:2, 1:1 */
    case 23: return trips_of(lane * 13 % 32, 9);                         /* 9, lanes permuted */
    case 24: return lane == 0 ? 1 : 2;        /* launched with 2 threads: 1:1 */
    case 25: return lane == 0 ? 2 : 1;        /* the same, lanes swapped */
    case 26: return lane == 0 ? 1 : 2;        /* launched with 3 threads: 1:2 */
    default: return lane < 2 ? 1 : 2;         /* launched with 4 threads: 2:2 */
    }
}

extern "C" __global__ void varint_trips(unsigned char *scratch, unsigned *out, int pat)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x, n = trips_of(threadIdx.x & 31, pat);
    unsigned char *p = scratch + (size_t)t * 64;
    for (int k = 0; k < 64; k++) // 12 varints of n bytes: continuation bits on all but the last
        p[k] = (unsigned char)((k % n == n - 1 ? 0x00 : 0x80) | (k & 0x7f));
    unsigned sum = 0;
    int pos = 0;
    for (int count = 0; count < 12 && pos < 64; count++) {
        unsigned v = 0, b;
        int shift = 0;
        do {
            b = p[pos++];
            v |= (b & 0x7fu) << shift;
            shift += 7;
        } while ((b & 0x80u) && pos < 64 && shift < 35);
        sum += v * (unsigned)(count + 1);
    }
    out[t] = sum;
}

extern "C" __global__ void alu_trips(unsigned *out, int pat)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x, n = trips_of(threadIdx.x & 31, pat);
    unsigned sum = 0;
    int pos = 0;
    for (int count = 0; count < 12 && pos < 64; count++) {
        unsigned v = 0, b;
        int shift = 0;
        do {
            b = (unsigned)((pos % n == n - 1 ? 0x00 : 0x80) | (pos & 0x7f));
            pos++;
            v |= (b & 0x7fu) << shift;
            shift += 7;
        } while ((b & 0x80u) && pos < 64 && shift < 35);
        sum += v * (unsigned)(count + 1);
    }
    out[t] = sum;
}

// The shape of unseen21.cu's lz_match: a compare loop that ptxas unrolls, each lane leaving
// by a forward branch after trips_of() compares (its first trips_of() - 1 bytes match), 12
// times over.
extern "C" __global__ void match_trips(unsigned char *scratch, int *out, int pat)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x, n = trips_of(threadIdx.x & 31, pat);
    unsigned char *p = scratch + (size_t)t * 64;
    for (int k = 0; k < 32; k++) {
        p[k] = (unsigned char)(k & 0x7f);
        p[32 + k] = (unsigned char)(k < n - 1 ? k & 0x7f : (k & 0x7f) ^ 1);
    }
    int best = 0;
    for (int c = 0; c < 12; c++) {
        int len = 0;
        while (len < 16 && p[len] == p[32 + len])
            len++;
        best += len * (c + 1);
        out[t] = best; /* may alias p: the next compare loop reads p again */
    }
}
