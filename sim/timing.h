/* timing.h — the timing and contention model (private to sim/). It consumes the functional
 * executor's warp-instruction events (events.h) and predicts cycles and time for a launch
 * on a GPU described by a preset file (sim/presets/NAME.gpu). */
#ifndef WS_SIM_TIMING_H
#define WS_SIM_TIMING_H

#include "sim/events.h"

typedef struct ws_timing ws_timing;

typedef struct ws_launch_shape {
    uint32_t grid[3], block[3];
    uint32_t smem_bytes;       /* static + dynamic shared memory per CTA */
    int regs_per_thread;       /* from ws_ptx_resources; 0 = unknown */
} ws_launch_shape;

/* preset: a name ("h100", "fermi") looked up in sim/presets, or a path. */
int ws_timing_new(const char *preset, const ws_function *fn, const ws_launch_shape *shape,
                  ws_timing **out, ws_error *err);
/* The sink to hand to the executor; valid while `t` lives. */
ws_event_sink ws_timing_sink(ws_timing *t);
/* Adds sim__cycles, sim__time_ns, stall breakdown, achieved occupancy, ... to `r`. */
int ws_timing_finish(ws_timing *t, ws_result *r, ws_error *err);
void ws_timing_free(ws_timing *t);

#endif
