/* occupancy.c — the occupancy calculator of seed 004: how many CTAs of a given shape fit on
 * one SM of a compute capability, and which resource limit binds. Per-CC limits are data
 * (the table below); the arithmetic follows NVIDIA's cuda_occupancy.h. Not a timing model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/sim.h"

/* Physical limits per compute capability. Sources: CUDA C++ Programming Guide, "Technical
 * Specifications per Compute Capability" (threads/warps/blocks/registers/shared memory per
 * SM, per block), the CUDA Occupancy Calculator spreadsheet (allocation units and
 * granularities; the 1.3 and 2.0 columns are quoted in seed 004) and cuda_occupancy.h
 * (register sub-partitions, shared-memory allocation granularity, 1 KB reserved per block
 * on 8.x/9.x). Shared memory per SM is the largest carveout (what the driver picks when no
 * preference is set); per block the opt-in maximum. */
typedef struct ws_occ_cc {
    const char *cc;
    int max_threads_sm, max_warps_sm, max_blocks_sm;
    int regs_sm, regs_per_block, reg_unit, reg_per_block_gran; /* gran: 1 = per block (1.x) */
    int warp_alloc_gran;        /* 1.x: warps rounded up to this before register allocation */
    int reg_partitions;         /* register file split across schedulers (2.x: 2, 3.x+: 4) */
    int max_regs_thread;
    int smem_sm, smem_unit, smem_reserved_block, smem_max_block;
    int max_threads_block;
} ws_occ_cc;

static const ws_occ_cc ws_occ_table[] = {
    /* cc    thr/SM warps blk  regs/SM regs/blk unit blk? wgran part maxreg smem/SM unit rsv smem/blk thr/blk */
    { "1.3",  1024, 32,  8,  16384, 16384, 512, 1, 2, 1, 124,  16384, 512,    0,  16384,  512 },
    { "2.0",  1536, 48,  8,  32768, 32768,  64, 0, 1, 2,  63,  49152, 128,    0,  49152, 1024 },
    { "7.0",  2048, 64, 32,  65536, 65536, 256, 0, 1, 4, 255,  98304, 256,    0,  98304, 1024 },
    { "7.5",  1024, 32, 16,  65536, 65536, 256, 0, 1, 4, 255,  65536, 256,    0,  65536, 1024 },
    { "8.0",  2048, 64, 32,  65536, 65536, 256, 0, 1, 4, 255, 167936, 128, 1024, 166912, 1024 },
    { "8.6",  1536, 48, 16,  65536, 65536, 256, 0, 1, 4, 255, 102400, 128, 1024, 101376, 1024 },
    { "8.9",  1536, 48, 24,  65536, 65536, 256, 0, 1, 4, 255, 102400, 128, 1024, 101376, 1024 },
    { "9.0",  2048, 64, 32,  65536, 65536, 256, 0, 1, 4, 255, 233472, 128, 1024, 232448, 1024 },
};
#define WS_OCC_NCC ((int)(sizeof ws_occ_table / sizeof ws_occ_table[0]))

int ws_occupancy_cc_count(void) { return WS_OCC_NCC; }
const char *ws_occupancy_cc_name(int i) { return i >= 0 && i < WS_OCC_NCC ? ws_occ_table[i].cc : NULL; }

const char *ws_occupancy_limit_name(ws_occ_limit l)
{
    switch (l) {
    case WS_OCC_LIMIT_WARPS: return "warps";
    case WS_OCC_LIMIT_REGS: return "registers";
    case WS_OCC_LIMIT_SMEM: return "shared memory";
    case WS_OCC_LIMIT_BLOCKS: return "blocks";
    }
    return "?";
}

static int round_up(int v, int unit) { return unit > 0 ? (v + unit - 1) / unit * unit : v; }

static const ws_occ_cc *find_cc(const char *cc, ws_error *err)
{
    for (int i = 0; i < WS_OCC_NCC; i++)
        if (cc && strcmp(ws_occ_table[i].cc, cc) == 0) return &ws_occ_table[i];
    char known[128] = "";
    for (int i = 0; i < WS_OCC_NCC; i++) {
        strcat(known, i ? ", " : "");
        strcat(known, ws_occ_table[i].cc);
    }
    ws_error_set(err, WS_ERR_USAGE, "unknown compute capability '%s' (known: %s)",
                 cc ? cc : "", known);
    return NULL;
}

static int check_input(const ws_occ_cc *t, int threads, int regs, int smem, ws_error *err)
{
    if (threads <= 0 || threads > t->max_threads_block)
        return ws_error_set(err, WS_ERR_USAGE, "threads per block must be 1..%d on CC %s, not %d",
                            t->max_threads_block, t->cc, threads);
    if (regs < 0 || regs > t->max_regs_thread)
        return ws_error_set(err, WS_ERR_USAGE, "registers per thread must be 0..%d on CC %s, not %d",
                            t->max_regs_thread, t->cc, regs);
    if (smem < 0 || smem > t->smem_max_block)
        return ws_error_set(err, WS_ERR_USAGE,
                            "shared memory per block must be 0..%d bytes on CC %s, not %d",
                            t->smem_max_block, t->cc, smem);
    return 0;
}

/* Blocks per SM allowed by the register file (cudaOccMaxBlocksPerSMRegsLimit). */
static int regs_limit(const ws_occ_cc *t, int warps, int regs, int *alloc_per_block)
{
    if (regs == 0) { *alloc_per_block = 0; return t->max_blocks_sm; }
    if (t->reg_per_block_gran) { /* 1.x: registers allocated per block */
        int per_block = round_up(round_up(warps, t->warp_alloc_gran) * 32 * regs, t->reg_unit);
        *alloc_per_block = per_block;
        return per_block > t->regs_per_block ? 0 : t->regs_sm / per_block;
    }
    int per_warp = round_up(regs * 32, t->reg_unit);
    *alloc_per_block = per_warp * warps;
    if (per_warp * round_up(warps, t->reg_partitions) > t->regs_per_block) return 0;
    int warps_per_part = (t->regs_sm / t->reg_partitions) / per_warp;
    return warps_per_part * t->reg_partitions / warps;
}

int ws_occupancy_calc(const char *cc, int threads, int regs, int smem, ws_occupancy *out,
                      ws_error *err)
{
    memset(out, 0, sizeof *out);
    const ws_occ_cc *t = find_cc(cc, err);
    if (!t) return WS_ERR_USAGE;
    if (check_input(t, threads, regs, smem, err)) return WS_ERR_USAGE;
    int warps = (threads + 31) / 32;
    snprintf(out->cc, sizeof out->cc, "%s", t->cc);
    out->threads = threads; out->regs = regs; out->smem = smem;
    out->max_threads_sm = t->max_threads_sm;
    out->max_warps_sm = t->max_warps_sm;
    out->max_blocks_sm = t->max_blocks_sm;
    out->regs_sm = t->regs_sm;
    out->smem_sm = t->smem_sm;
    out->limit[WS_OCC_LIMIT_BLOCKS] = t->max_blocks_sm;
    out->limit[WS_OCC_LIMIT_WARPS] = t->max_warps_sm / warps;
    out->limit[WS_OCC_LIMIT_REGS] = regs_limit(t, warps, regs, &out->regs_alloc_block);
    int smem_block = smem + t->smem_reserved_block;
    out->smem_alloc_block = round_up(smem_block, t->smem_unit);
    out->limit[WS_OCC_LIMIT_SMEM] = out->smem_alloc_block > 0 ? t->smem_sm / out->smem_alloc_block
                                                               : t->max_blocks_sm;
    /* The binding limit: the smallest of those that limit at all (no registers or no
     * shared memory given do not); ties go to the first in this order. */
    static const ws_occ_limit order[] = { WS_OCC_LIMIT_WARPS, WS_OCC_LIMIT_REGS,
                                          WS_OCC_LIMIT_SMEM, WS_OCC_LIMIT_BLOCKS };
    out->binding = WS_OCC_LIMIT_BLOCKS;
    for (int i = 3; i >= 0; i--) {
        ws_occ_limit l = order[i];
        if ((l == WS_OCC_LIMIT_REGS && regs == 0) ||
            (l == WS_OCC_LIMIT_SMEM && out->smem_alloc_block == 0))
            continue;
        if (out->limit[l] <= out->limit[out->binding]) out->binding = l;
    }
    out->active_blocks = out->limit[out->binding];
    out->active_warps = out->active_blocks * warps;
    out->active_threads = out->active_blocks * threads;
    out->occupancy = (double)out->active_warps / t->max_warps_sm;
    return 0;
}
