/* cmd_runs.c — `warpscope runs` (placeholder until its module lands). */
#include <stdio.h>
#include "cli/cli.h"

int ws_cmd_runs(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "warpscope: 'runs' is not available in this build yet\n");
    return 1;
}
