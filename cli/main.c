/* main.c — the `warpscope` command: finds the subcommand and hands it argv.
 * Subcommands live in cmd_*.c; none of them is more than glue over the modules. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

typedef struct ws_command {
    const char *name;
    ws_cmd_fn fn;
    const char *summary;
} ws_command;

static const ws_command ws_commands[] = {
    {"list", ws_cmd_list, "list workloads with their variants, constants and regions"},
    {"sim", ws_cmd_sim, "simulate a workload on the SIMT warp simulator and store the run"},
    {"predict", ws_cmd_predict, "simulate every variant with the timing model; predict after/before"},
    {"occupancy", ws_cmd_occupancy, "occupancy calculator for a compute capability"},
    {"run", ws_cmd_run, "run a workload on the GPU (CUDA driver API), check against the simulator"},
    {"profile", ws_cmd_profile, "run and profile on the GPU with CUPTI, store the measurement"},
    {"capture", ws_cmd_capture, "record an application's launches (-- APP ARGS) for 'sim CAPTURE'"},
    {"compare", ws_cmd_compare, "put a simulator run beside a GPU run"},
    {"runs", ws_cmd_runs, "list the runs in the database"},
    {"show", ws_cmd_show, "print one run: metrics, regions, hottest lines, atomics"},
    {"map", ws_cmd_map, "draw divergence maps (HTML, or --term for the terminal)"},
    {"metrics", ws_cmd_metrics, "the metrics a run stores: name, unit, who computes it, meaning"},
};
#define WS_NCOMMANDS (sizeof ws_commands / sizeof ws_commands[0])

static void usage(FILE *f)
{
    fprintf(f,
            "warpscope %s — predict and measure branch divergence and atomic contention\n\n"
            "usage: warpscope COMMAND [options]   (warpscope COMMAND --help for more)\n\n"
            "commands:\n",
            ws_version());
    for (size_t i = 0; i < WS_NCOMMANDS; i++)
        fprintf(f, "  %-10s %s\n", ws_commands[i].name, ws_commands[i].summary);
    fprintf(f,
            "\nWorkloads are kernels/NAME.cu + kernels/NAME.spec; pass a NAME or a path to a .spec.\n"
            "'profile -- APP ARGS' and 'capture -- APP ARGS' work on an unmodified CUDA application.\n"
            "Results go to ./warpscope.db unless --db FILE or $WARPSCOPE_DB says otherwise.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *name = argv[1];
    if (!strcmp(name, "-h") || !strcmp(name, "--help") || !strcmp(name, "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(name, "--version") || !strcmp(name, "version")) {
        printf("warpscope %s (%s)\n", ws_version(), ws_git_revision());
        return 0;
    }
    for (size_t i = 0; i < WS_NCOMMANDS; i++)
        if (!strcmp(name, ws_commands[i].name))
            return ws_commands[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "warpscope: unknown command '%s' (try 'warpscope --help')\n", name);
    return 2;
}
