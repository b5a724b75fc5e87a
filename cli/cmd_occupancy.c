/* cmd_occupancy.c — `warpscope occupancy`: seed 004's occupancy calculator. Prints active
 * blocks, warps and threads per SM, occupancy and which limit binds, as a table or JSON.
 * The arithmetic lives in sim/occupancy.c; this file only parses and prints. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "sim/sim.h"

static void occ_help(void)
{
    printf("usage: warpscope occupancy --cc X.Y --threads N [--regs R] [--smem B] [--json]\n\n"
           "How many blocks of N threads, R registers per thread and B bytes of shared memory\n"
           "per block are resident on one SM of compute capability X.Y, and which limit binds\n"
           "(blocks, warps, registers or shared memory per SM), as NVIDIA's occupancy\n"
           "calculator computes it.\n\n"
           "  --cc X.Y       compute capability:");
    for (int i = 0; ws_occupancy_cc_name(i); i++) printf(" %s", ws_occupancy_cc_name(i));
    printf("\n  --threads N    threads per block\n"
           "  --regs R       registers per thread (default 0 = not limiting)\n"
           "  --smem B       shared memory per block in bytes (default 0)\n"
           "  --json         one JSON object instead of the table\n");
}

static int parse_num(const char *opt, const char *s, int *out, ws_error *err)
{
    if (ws_cli_parse_count(s, 1 << 30, out))
        return ws_error_set(err, WS_ERR_USAGE, "occupancy: %s needs a non-negative number%s%s",
                            opt, s ? ", not " : "", s ? s : "");
    return 0;
}

static void print_table(const ws_occupancy *o)
{
    printf("Compute capability %s: %d threads/block, %d registers/thread, %d bytes shared/block\n\n",
           o->cc, o->threads, o->regs, o->smem);
    printf("  Active threads per SM   %6d  (of %d)\n", o->active_threads, o->max_threads_sm);
    printf("  Active warps per SM     %6d  (of %d)\n", o->active_warps, o->max_warps_sm);
    printf("  Active blocks per SM    %6d  (of %d)\n", o->active_blocks, o->max_blocks_sm);
    printf("  Occupancy               %5.0f%%\n\n", 100.0 * o->occupancy);
    printf("  Blocks per SM allowed by each limit:\n");
    static const ws_occ_limit order[] = { WS_OCC_LIMIT_BLOCKS, WS_OCC_LIMIT_WARPS,
                                          WS_OCC_LIMIT_REGS, WS_OCC_LIMIT_SMEM };
    for (int i = 0; i < 4; i++) {
        ws_occ_limit l = order[i];
        char detail[96] = "";
        if (l == WS_OCC_LIMIT_REGS)
            snprintf(detail, sizeof detail, "(%d of %d registers per block)", o->regs_alloc_block,
                     o->regs_sm);
        else if (l == WS_OCC_LIMIT_SMEM)
            snprintf(detail, sizeof detail, "(%d of %d bytes per block, allocated)",
                     o->smem_alloc_block, o->smem_sm);
        printf("    %-14s %6d  %s%s\n", ws_occupancy_limit_name(l), o->limit[l], detail,
               l == o->binding ? "  <- binds" : "");
    }
}

static void print_json(const ws_occupancy *o)
{
    printf("{\"cc\": \"%s\", \"threads\": %d, \"regs\": %d, \"smem\": %d, "
           "\"active_blocks\": %d, \"active_warps\": %d, \"active_threads\": %d, "
           "\"occupancy\": %.4f, \"binding\": ",
           o->cc, o->threads, o->regs, o->smem, o->active_blocks, o->active_warps,
           o->active_threads, o->occupancy);
    ws_json_string(stdout, ws_occupancy_limit_name(o->binding));
    printf(", \"limits\": {\"blocks\": %d, \"warps\": %d, \"registers\": %d, "
           "\"shared_memory\": %d}, \"max_warps_per_sm\": %d}\n",
           o->limit[WS_OCC_LIMIT_BLOCKS], o->limit[WS_OCC_LIMIT_WARPS],
           o->limit[WS_OCC_LIMIT_REGS], o->limit[WS_OCC_LIMIT_SMEM], o->max_warps_sm);
}

int ws_cmd_occupancy(int argc, char **argv)
{
    ws_error err;
    ws_error_clear(&err);
    const char *cc = NULL;
    int threads = -1, regs = 0, smem = 0, json = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { occ_help(); return 0; }
        if (!strcmp(a, "--json")) { json = 1; continue; }
        int rc = 0;
        if (!strcmp(a, "--cc")) {
            if (!next) rc = ws_cli_usage(&err, "occupancy", "--cc needs a value such as 9.0");
            cc = next;
        } else if (!strcmp(a, "--threads")) rc = parse_num(a, next, &threads, &err);
        else if (!strcmp(a, "--regs")) rc = parse_num(a, next, &regs, &err);
        else if (!strcmp(a, "--smem")) rc = parse_num(a, next, &smem, &err);
        else {
            char what[160];
            snprintf(what, sizeof what, "unknown option '%s'", a);
            rc = ws_cli_usage(&err, "occupancy", what);
        }
        if (rc) return ws_cli_fail(&err);
        i++;
    }
    if (!cc || threads < 0) {
        ws_cli_usage(&err, "occupancy", "--cc and --threads are required");
        return ws_cli_fail(&err);
    }
    ws_occupancy o;
    if (ws_occupancy_calc(cc, threads, regs, smem, &o, &err)) return ws_cli_fail(&err);
    if (json) print_json(&o);
    else print_table(&o);
    return 0;
}
