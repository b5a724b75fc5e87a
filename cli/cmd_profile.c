/* cmd_profile.c — `warpscope profile`: `warpscope run` with CUPTI on (Range Profiler
 * metrics, SASS Metrics per instruction, Activity duration); the work is in cmd_run.c.
 * `warpscope profile [options] -- APP ARGS...` profiles an application's launches
 * (cmd_app.c). */
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"

int ws_cmd_profile(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--"))
            return ws_cli_app_command(argc, argv, 0);
    int rc = ws_cli_gpu_command(argc, argv, 1);
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("\n");
            ws_cli_app_help("profile");
            break;
        }
    return rc;
}
