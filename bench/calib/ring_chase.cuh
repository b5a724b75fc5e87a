// ring_chase.cuh — bench/calib local_chase's work, shared with bench/placement's chase: a
// 32-word ring in local memory (an array indexed by values the compiler cannot know), written
// at once, then ITERS x REPS dependent loads through it (LDL after LDL). Returns where the
// chase ended, for the caller to store.
#ifndef WS_RING_CHASE_CUH
#define WS_RING_CHASE_CUH
#define LRING 32
__device__ __forceinline__ int ring_chase(int zero)
{
    int a[LRING];
#pragma unroll
    for (int k = 0; k < LRING; k++)
        a[k] = (k + 1 + zero) & (LRING - 1);
    int j = zero;
#pragma unroll 1
    for (int i = 0; i < ITERS; i++)
#pragma unroll
        for (int r = 0; r < REPS; r++)
            j = a[j];
    return j;
}
#endif
