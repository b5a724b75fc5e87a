/* cmd_occupancy.c — `warpscope occupancy`: seed 004's occupancy calculator. Prints active
 * blocks, warps and threads per SM, occupancy and which limit binds, as a table or JSON.
 * The arithmetic lives in sim/occupancy.c; this file only parses and prints. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "sim/sim.h"

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
    ws_json j;
    ws_json_begin(&j, stdout);
    ws_json_object(&j, NULL);
    ws_json_str(&j, "cc", o->cc);
    ws_json_int(&j, "threads", o->threads);
    ws_json_int(&j, "regs", o->regs);
    ws_json_int(&j, "smem", o->smem);
    ws_json_int(&j, "active_blocks", o->active_blocks);
    ws_json_int(&j, "active_warps", o->active_warps);
    ws_json_int(&j, "active_threads", o->active_threads);
    ws_json_num(&j, "occupancy", o->occupancy);
    ws_json_str(&j, "binding", ws_occupancy_limit_name(o->binding));
    ws_json_object(&j, "limits");
    ws_json_int(&j, "blocks", o->limit[WS_OCC_LIMIT_BLOCKS]);
    ws_json_int(&j, "warps", o->limit[WS_OCC_LIMIT_WARPS]);
    ws_json_int(&j, "registers", o->limit[WS_OCC_LIMIT_REGS]);
    ws_json_int(&j, "shared_memory", o->limit[WS_OCC_LIMIT_SMEM]);
    ws_json_end(&j);
    ws_json_int(&j, "max_warps_per_sm", o->max_warps_sm);
    ws_json_end(&j);
    printf("\n");
}

int ws_cmd_occupancy(int argc, char **argv)
{
    ws_error err;
    ws_error_clear(&err);
    const char *cc = NULL;
    int threads = -1, regs = 0, smem = 0, json = 0, npos = 0;
    char cc_help[256] = "compute capability:";
    for (int i = 0; ws_occupancy_cc_name(i); i++) {
        size_t len = strlen(cc_help);
        snprintf(cc_help + len, sizeof cc_help - len, " %s", ws_occupancy_cc_name(i));
    }
    const ws_opt opts[] = {
        {"--cc", WS_OPT_STRING, &cc, "X.Y", cc_help, 0, 0},
        {"--threads", WS_OPT_INT, &threads, "N", "threads per block", 0, 1 << 30},
        {"--regs", WS_OPT_INT, &regs, "R",
         "registers per thread (default 0 = not limiting)", 0, 1 << 30},
        {"--smem", WS_OPT_INT, &smem, "B",
         "shared memory per block in bytes (default 0)", 0, 1 << 30},
        WS_CLI_OPT_JSON(&json, "one JSON object instead of the table"),
    };
    const ws_cli_cmd cmd = {"occupancy", "warpscope occupancy --cc X.Y --threads N [--regs R] [--smem B] [--json]",
                            "How many blocks of N threads, R registers per thread and B bytes of shared memory\n"
                            "per block are resident on one SM of compute capability X.Y, and which limit binds\n"
                            "(blocks, warps, registers or shared memory per SM), as NVIDIA's occupancy\n"
                            "calculator computes it.", opts, WS_CLI_NOPTS(opts)};
    int rc = ws_cli_parse(&cmd, argc, argv, NULL, 0, &npos, &err);
    if (rc > 0) return 0;
    if (rc < 0) return ws_cli_fail(&err);
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
