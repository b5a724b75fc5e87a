/* cli.h — the subcommands of `warpscope`, each in its own cmd_*.c, and the few helpers
 * they share (option parsing, printing errors). Only cli/ includes this. */
#ifndef WS_CLI_H
#define WS_CLI_H

#include "core/core.h"

typedef int (*ws_cmd_fn)(int argc, char **argv); /* argv[0] is the subcommand name */

int ws_cmd_list(int argc, char **argv);
int ws_cmd_sim(int argc, char **argv);
int ws_cmd_runs(int argc, char **argv);
int ws_cmd_show(int argc, char **argv);
int ws_cmd_map(int argc, char **argv);
int ws_cmd_run(int argc, char **argv);
int ws_cmd_profile(int argc, char **argv);
int ws_cmd_compare(int argc, char **argv);
int ws_cmd_occupancy(int argc, char **argv);
int ws_cmd_predict(int argc, char **argv);

/* Prints "warpscope: <error line>" to stderr; returns the exit code for it (1, or 2 for usage). */
int ws_cli_fail(const ws_error *err);
/* Resolves a workload argument: a path to a .spec, or a workload name in the kernels folder. */
int ws_cli_spec_path(const char *arg, char *path, size_t n, ws_error *err);
/* Default database path: $WARPSCOPE_DB or ./warpscope.db. */
const char *ws_cli_default_db(void);

#endif
