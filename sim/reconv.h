/* reconv.h — the pluggable reconvergence policy of the SIMT executor (private to sim/).
 * A policy owns how a warp's lanes split at divergent branches and where they join again;
 * the executor only reads w->pc / w->active / w->stop_pc and calls these hooks.
 * One implementation now: `ipdom` (the classic SIMT stack, immediate post-dominators). */
#ifndef WS_SIM_RECONV_H
#define WS_SIM_RECONV_H

#include "sim/exec.h"

struct ws_reconv_policy {
    const char *name;
    /* A warp starts at `pc` with `mask` lanes. Returns 0, or WS_ERR_NOMEM. */
    int (*reset)(ws_warp *w, int pc, uint32_t mask);
    /* A branch at the current pc: `taken` lanes go to `target`, `not_taken` to `fallthrough`
     * (both subsets of w->active, their union is the executing lanes). */
    int (*on_branch)(ws_warp *w, const ws_inst *in, uint32_t taken, uint32_t not_taken,
                     int target, int fallthrough);
    /* w->pc reached w->stop_pc: join the lanes waiting there. */
    void (*on_reach_pc)(ws_warp *w);
    /* `lanes` leave the function activation whose first stack entry is at depth `base`
     * (ret from a .func; exit/ret from the entry uses base 0 and also sets w->exited).
     * Returns 1 when no lane of that activation is left (the frame is finished). */
    int (*on_leave)(ws_warp *w, uint32_t lanes, int base);
    /* A call: the current lanes continue at `return_pc` afterwards and run the callee from
     * pc 0 now. Returns the new activation's base depth, or -1 on out of memory. */
    int (*on_call)(ws_warp *w, int return_pc);
};

/* NULL or "ipdom" -> ipdom; NULL return for an unknown name. */
const ws_reconv_policy *ws_reconv_find(const char *name);

#endif
