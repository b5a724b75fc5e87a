/* cmd_compare.c — `warpscope compare` (placeholder until its module lands). */
#include <stdio.h>
#include "cli/cli.h"

int ws_cmd_compare(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "warpscope: 'compare' is not available in this build yet\n");
    return 1;
}
