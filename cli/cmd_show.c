/* cmd_show.c — `warpscope show` (placeholder until its module lands). */
#include <stdio.h>
#include "cli/cli.h"

int ws_cmd_show(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "warpscope: 'show' is not available in this build yet\n");
    return 1;
}
