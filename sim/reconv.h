/* reconv.h — the pluggable reconvergence policy of the SIMT executor (private to sim/).
 * A policy owns how a warp's lanes split at divergent branches and where they join again,
 * in a per-warp state only it reads (w->policy_state); the executor reads w->pc and
 * w->active and calls these hooks. One implementation now: `ipdom` (the classic SIMT
 * stack, immediate post-dominators); Volta+ convergence barriers plug in beside it. */
#ifndef WS_SIM_RECONV_H
#define WS_SIM_RECONV_H

#include "sim/exec.h"

struct ws_reconv_policy {
    const char *name;
    /* A warp starts at `pc` with `mask` lanes (its state is allocated on first use).
     * Returns 0, or WS_ERR_NOMEM. */
    int (*reset)(ws_warp *w, int pc, uint32_t mask);
    /* Frees the warp's policy state. */
    void (*release)(ws_warp *w);
    /* A branch at the current pc: `taken` lanes go to `target`, `not_taken` to `fallthrough`
     * (both subsets of w->active, their union is the executing lanes). */
    int (*on_branch)(ws_warp *w, const ws_inst *in, uint32_t taken, uint32_t not_taken,
                     int target, int fallthrough);
    /* The warp fell through to w->pc: join the lanes waiting there, if any. */
    void (*on_advance)(ws_warp *w);
    /* `lanes` leave the function activation that starts at level `base` (ret from a .func;
     * exit/ret from the entry uses base 0 and also sets w->exited). Returns 1 when no lane
     * of that activation is left (the frame is finished). */
    int (*on_leave)(ws_warp *w, uint32_t lanes, int base);
    /* A call: the current lanes continue at `return_pc` afterwards and run the callee from
     * pc 0 now. Returns the new activation's level, or -1 on out of memory. */
    int (*on_call)(ws_warp *w, int return_pc);
    /* The current level: an activation is finished once the level is at or below the one
     * on_call returned for it; 0 when no lane of the warp is left to run. */
    int (*level)(const ws_warp *w);
};

/* NULL or "ipdom" -> ipdom; NULL return for an unknown name. */
const ws_reconv_policy *ws_reconv_find(const char *name);

#endif
