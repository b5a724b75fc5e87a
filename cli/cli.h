/* cli.h — the subcommands of `warpscope`, each in its own cmd_*.c, and the few helpers
 * they share (option parsing, printing errors). Only cli/ includes this. */
#ifndef WS_CLI_H
#define WS_CLI_H

#include "core/core.h"
#include "sim/sim.h"

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
/* The folder of the built-in workloads: $WARPSCOPE_KERNELS, else the source tree's kernels/. */
const char *ws_cli_kernels_dir(void);
/* Sets a WS_ERR_USAGE error "CMD: WHAT (try 'warpscope CMD --help')"; returns its code. */
int ws_cli_usage(ws_error *err, const char *cmd, const char *what);
/* A whole decimal number in [lo, hi], nothing after it: 0 and *out set, else -1. */
int ws_cli_parse_int(const char *s, long long lo, long long hi, long long *out);
/* The same into an int, in [0, hi]. */
int ws_cli_parse_count(const char *s, int hi, int *out);
/* Progress of a simulation on stderr, ctx = the variant's name (ws_sim_options.progress):
 * "  simulating V: D / T CTAs (P%)", rewritten in place, cleared when done. */
void ws_cli_sim_progress(void *ctx, uint64_t done, uint64_t total);


/* A workload made ready to run: spec loaded with -D defines, PTX built (or cached), module
 * parsed, inputs generated. Shared by sim, predict, run and profile. */
typedef struct ws_module ws_module;
typedef struct ws_cli_workload {
    ws_spec *spec;
    char ptx_path[WS_PATH_MAX];
    ws_module *module;
    ws_buffers inputs;
    char cubin_path[WS_PATH_MAX], sass_path[WS_PATH_MAX]; /* the SASS model's, when built */
    ws_sass_module *sass;
} ws_cli_workload;

int ws_cli_workload_open(const char *arg, const ws_define *defs, int ndefs,
                         ws_cli_workload *w, ws_error *err);
void ws_cli_workload_close(ws_cli_workload *w);
/* Builds (or takes from the cache) the workload's cubin and SASS for `arch` ("sm_90" when
 * NULL) and loads them into w->sass. */
int ws_cli_workload_sass(ws_cli_workload *w, const char *arch, ws_error *err);
/* The simulator model a run uses when none is asked for: "sass" where nvdisasm is found,
 * else "ptx". Checks a --model value: 0, or a usage error. */
const char *ws_cli_default_model(void);
int ws_cli_check_model(const char *cmd, const char *model, const char *arch, ws_error *err);
/* Compares the checked output buffers of `out` with the CPU reference when the spec
 * names one, else with `first` (another variant's outputs, may be NULL); records the
 * verdict in res->outputs_checked/outputs_match/check_message. */
int ws_cli_check_outputs(const ws_cli_workload *w, const ws_variant *v, const ws_buffers *out,
                         const ws_buffers *first, ws_result *res, ws_error *err);
/* Collects -D NAME=VALUE / -DNAME=VALUE; returns 1 when argv[*i] was one (advancing *i). */
int ws_cli_take_define(int argc, char **argv, int *i, ws_define *defs, int *ndefs, int max,
                       ws_error *err);

/* `warpscope run` (profile 0) and `warpscope profile` (profile 1): cmd_run.c. */
int ws_cli_gpu_command(int argc, char **argv, int profile);

#endif
