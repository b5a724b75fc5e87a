/* cmd_occupancy.c — `warpscope occupancy` (placeholder until its module lands). */
#include <stdio.h>
#include "cli/cli.h"

int ws_cmd_occupancy(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "warpscope: 'occupancy' is not available in this build yet\n");
    return 1;
}
