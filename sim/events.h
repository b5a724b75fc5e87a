/* events.h — the narrow interface between functional execution and what consumes it
 * (statistics, lane timelines, the timing and contention model). The warp step turns a
 * handler's effect into one event per issued warp-instruction and hands it to statistics
 * and to every sink; a consumer never reaches into executor state. Private to sim/. */
#ifndef WS_SIM_EVENTS_H
#define WS_SIM_EVENTS_H

#include "sim/ir.h"

/* One issued warp-instruction, as the functional executor saw it. */
typedef struct ws_warp_event {
    const ws_function *fn;   /* the function the instruction belongs to */
    const ws_inst *inst;
    int pc;
    uint32_t cta;            /* linear CTA id */
    uint32_t warp;           /* warp index within the CTA */
    uint32_t active;         /* lanes active at issue (not diverged away, not exited) */
    uint32_t pred_on;        /* of those, lanes whose guard predicate was true */
    const uint64_t *addr;    /* [32] effective (generic) addresses for ld/st/atom/red, else NULL */
    uint8_t addr_space;      /* ws_space the addresses resolved to (global/shared/local/const) */
    uint8_t access_bytes;    /* bytes per lane per access (vector width included) */
    uint8_t taken;           /* branches: 1 = some lanes took it, 2 = all active lanes did */
    uint8_t groups;          /* warp-wide .sync ops: distinct member masks among the lanes
                              * (the hardware runs the op once per group); else 1 */
    uint32_t cas_ok;         /* atom.cas: lanes whose compare matched (their swap happened) */
    uint8_t printf_call;     /* a device printf call: its pred_on lanes print */
    uint16_t printf_chars;   /* the length of its format */
} ws_warp_event;

typedef struct ws_event_sink {
    void *ctx;
    void (*warp_inst)(void *ctx, const ws_warp_event *ev);
    void (*cta_begin)(void *ctx, uint32_t cta, int nwarps);
    void (*cta_end)(void *ctx, uint32_t cta);
    void (*barrier)(void *ctx, uint32_t cta, uint32_t warp, int pc); /* warp arrived */
} ws_event_sink;

#endif
