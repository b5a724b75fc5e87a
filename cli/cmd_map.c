/* cmd_map.c — `warpscope map` (placeholder until its module lands). */
#include <stdio.h>
#include "cli/cli.h"

int ws_cmd_map(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "warpscope: 'map' is not available in this build yet\n");
    return 1;
}
