// branch_unification.cu — seed 000 (Kato, Suda, Tamada), branch path unification,
// Fig. 6-10 and appendix Fig. A.2, with the printed code's bugs fixed.
// `kernel` (before): one item per thread; bit 2 of the input picks functionA or functionB,
// so a warp runs both paths with about half its lanes each (execution rate 50%).
// `kernelEnhanced` (after): DPT items per thread; each round a thread takes its next item
// bound for A, then its next item bound for B, so most lanes have work on both paths.
// Seed 000 Table 4 (execution rate of the branch part = the lines of functionA and
// functionB): before 50.0%; after, DPT 1/4/16/64: 50.0, 51.8, 66.6, 79.5%.

#ifndef LOOP
#define LOOP 100 // work per item; the seed swept 1..10000 (Tables 2-3), 100 is the middle
#endif
#ifndef DPT
#define DPT 16 // items per thread in kernelEnhanced (the seed's DATA_PER_THREAD)
#endif

// The two paths. They must stay two distinct code paths after optimization: if they
// computed the same thing, nvcc would merge them and there would be no divergence. So B
// adds 1 in its update; both keep the seed's shape (Fig. 13) and its unroll pragma.
// The region `branch` of the spec is exactly the lines from functionA to functionB.
__device__ int functionA(int tmp)
{
#pragma unroll 100
    for (int i = 0; i < LOOP; i++)
        tmp = 0xffff & (tmp * tmp + tmp);
    return tmp;
}

__device__ int functionB(int tmp)
{
#pragma unroll 100
    for (int i = 0; i < LOOP; i++)
        tmp = 0xffff & (tmp * tmp + tmp + 1);
    return tmp;
}

// Before (Fig. 9, A.2 `kernel`): the item's own index goes through A or B by bit 2 of
// the random input. Lanes of one warp disagree about half of the time: divergence.
__global__ void kernel(const int *length_ary, int *out_ary)
{
    int idx = threadIdx.x + blockDim.x * blockIdx.x;
    int data = idx;
    if (length_ary[idx] & 0x4)
        data = functionA(data);
    else
        data = functionB(data);
    out_ary[idx] = data;
}

// After (Fig. 10, A.2 `kernelEnhanced`): thread t owns items [t*DPT, (t+1)*DPT).
// counter_A / counter_B are how far the thread has searched for A items / B items.
// The seed printed `if(!use_data >= 0)` for the B side; it is `use_data >= 0`.
__global__ void kernelEnhanced(const int *length_ary, int *out_ary)
{
    int index = DPT * (threadIdx.x + blockIdx.x * blockDim.x);
    int counter_A = index, counter_B = index;
    while (true) {
        {   // select the next item bound for A, then run A on it
            int use_data = -1;
            for (int i = counter_A; i < index + DPT; i++) {
                counter_A = i + 1;
                if (length_ary[i] & 0x4) {
                    use_data = i;
                    break;
                }
            }
            if (use_data >= 0)
                out_ary[use_data] = functionA(use_data);
        }
        {   // select the next item bound for B, then run B on it
            int use_data = -1;
            for (int i = counter_B; i < index + DPT; i++) {
                counter_B = i + 1;
                if (!(length_ary[i] & 0x4)) {
                    use_data = i;
                    break;
                }
            }
            if (use_data >= 0)
                out_ary[use_data] = functionB(use_data);
        }
        // every item of this thread has been searched on both sides: done
        if (counter_A >= index + DPT && counter_B >= index + DPT)
            break;
    }
}
