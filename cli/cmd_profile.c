/* cmd_profile.c — `warpscope profile` (placeholder until its module lands). */
#include <stdio.h>
#include "cli/cli.h"

int ws_cmd_profile(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "warpscope: 'profile' is not available in this build yet\n");
    return 1;
}
