/* cmd_run.c — `warpscope run` (placeholder until its module lands). */
#include <stdio.h>
#include "cli/cli.h"

int ws_cmd_run(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "warpscope: 'run' is not available in this build yet\n");
    return 1;
}
