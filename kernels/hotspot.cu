// hotspot.cu — a HotSpot-style thermal step (after Rodinia's hotspot) on a ROWS x COLS
// chip: each cell's temperature moves toward its four neighbours, the ambient and its
// power input. A block of TILE x TILE threads stages its cells and a one-cell halo in
// shared memory; at the chip's edge a missing neighbour counts as the cell itself. One
// launch is one step from `tin` to `tout`; the host ping-pongs two buffers. Variants:
//   branchy  hotspot_step: each thread loads its cell, the threads on the tile's edges
//            also load the halo, each behind an `if` on its edge and on the chip's edge
//   clamped  hotspot_step_clamped: the block loads the whole (TILE+2)^2 tile in a strided
//            loop with clamped coordinates (min/max), no edge branches

#ifndef ROWS
#define ROWS 64 // a multiple of TILE
#endif
#ifndef COLS
#define COLS 64 // a multiple of TILE
#endif
#define TILE 16

// The step's coefficients, passed by value.
struct coefficients {
    float cap;   // step / heat capacity
    float rx;    // 1 / lateral resistance, east-west
    float ry;    // 1 / lateral resistance, north-south
    float rz;    // 1 / vertical resistance to the ambient
    float amb;   // ambient temperature
};

// The new temperature of a cell from the shared tile (its cell at t[y][x]).
__device__ inline float update(const float t[TILE + 2][TILE + 2], int y, int x, float power,
                               coefficients c)
{
    float self = t[y][x];
    float ns = t[y - 1][x] + t[y + 1][x] - 2.0f * self;
    float ew = t[y][x - 1] + t[y][x + 1] - 2.0f * self;
    return self + c.cap * (power + ns * c.ry + ew * c.rx + (c.amb - self) * c.rz);
}

// ---------------------------------------------------------------- branchy halo
__global__ void hotspot_step(const float *power, const float *tin, float *tout, coefficients c)
{
    __shared__ float t[TILE + 2][TILE + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int col = blockIdx.x * TILE + tx, row = blockIdx.y * TILE + ty;
    int at = row * COLS + col;
    float self = tin[at];
    t[ty + 1][tx + 1] = self;
    if (tx == 0)
        t[ty + 1][0] = col > 0 ? tin[at - 1] : self;
    if (tx == TILE - 1)
        t[ty + 1][TILE + 1] = col < COLS - 1 ? tin[at + 1] : self;
    if (ty == 0)
        t[0][tx + 1] = row > 0 ? tin[at - COLS] : self;
    if (ty == TILE - 1)
        t[TILE + 1][tx + 1] = row < ROWS - 1 ? tin[at + COLS] : self;
    __syncthreads();
    tout[at] = update(t, ty + 1, tx + 1, power[at], c);
}

// ---------------------------------------------------------------- clamped tile load
__global__ void hotspot_step_clamped(const float *power, const float *tin, float *tout,
                                     coefficients c)
{
    __shared__ float t[TILE + 2][TILE + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    for (int i = ty * TILE + tx; i < (TILE + 2) * (TILE + 2); i += TILE * TILE) {
        int r = min(max((int)blockIdx.y * TILE - 1 + i / (TILE + 2), 0), ROWS - 1);
        int q = min(max((int)blockIdx.x * TILE - 1 + i % (TILE + 2), 0), COLS - 1);
        t[i / (TILE + 2)][i % (TILE + 2)] = tin[r * COLS + q];
    }
    __syncthreads();
    int at = (blockIdx.y * TILE + ty) * COLS + blockIdx.x * TILE + tx;
    tout[at] = update(t, ty + 1, tx + 1, power[at], c);
}
