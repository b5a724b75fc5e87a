/* cmd_profile.c — `warpscope profile`: `warpscope run` with CUPTI on (Range Profiler
 * metrics, SASS Metrics per instruction, Activity duration); the work is in cmd_run.c. */
#include "cli/cli.h"

int ws_cmd_profile(int argc, char **argv)
{
    return ws_cli_gpu_command(argc, argv, 1);
}
