/* cmd_predict.c — `warpscope predict` (placeholder until its module lands). */
#include <stdio.h>
#include "cli/cli.h"

int ws_cmd_predict(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "warpscope: 'predict' is not available in this build yet\n");
    return 1;
}
