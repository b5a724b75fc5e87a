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
int ws_cmd_metrics(int argc, char **argv);
int ws_cmd_capture(int argc, char **argv);

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
    int model_given;  /* --model named the model: no fallback from SASS to PTX */
} ws_cli_workload;

/* Loads the spec (printing a warning line for each constant passed as -DWS_NAME only),
 * builds the PTX, loads it and generates the inputs. */
int ws_cli_workload_open(const char *arg, const ws_define *defs, int ndefs,
                         ws_cli_workload *w, ws_error *err);
void ws_cli_warn_namespaced(const ws_spec *s);
void ws_cli_workload_close(ws_cli_workload *w);
/* Builds (or takes from the cache) the workload's cubin and SASS for `arch` ("sm_90" when
 * NULL) and loads them into w->sass. */
int ws_cli_workload_sass(ws_cli_workload *w, const char *arch, ws_error *err);
/* The simulator model a run uses when none is asked for: "sass" where nvdisasm is found,
 * else "ptx". Checks a --model value: 0, or a usage error. */
const char *ws_cli_default_model(void);
/* Simulates variant v into `out` (cloned from the inputs here) on the SASS model when
 * w->sass is loaded, else the PTX model. Where the SASS model does not run the kernel
 * (an opcode without semantics, a cooperative launch) and --model did not name it, the
 * variant runs on the PTX model instead, with a warning in `res` that says why. */
int ws_cli_simulate(const ws_cli_workload *w, const ws_variant *v, const ws_sim_options *opt,
                    ws_buffers *out, ws_result *res, ws_error *err);
/* The model a timing run uses when none is asked for: the one `preset` was fitted on (its
 * `model` key), where nvdisasm allows; NULL with err when the preset does not load. */
const char *ws_cli_timing_model(const char *preset, ws_error *err);
int ws_cli_check_model(const char *cmd, const char *model, const char *arch, ws_error *err);
/* Compares the checked output buffers of `out` with the CPU reference when the spec
 * names one, else with `first` (another variant's outputs, may be NULL); records the
 * verdict in res->outputs_checked/outputs_match/check_message. */
int ws_cli_check_outputs(const ws_cli_workload *w, const ws_variant *v, const ws_buffers *out,
                         const ws_buffers *first, ws_result *res, ws_error *err);
/* --dump DIR: the variant's outputs as raw little-endian files DIR/VARIANT.BUFFER.bin (the
 * checked buffers, or every buffer when the spec checks none). */
int ws_cli_dump_outputs(const char *dir, const ws_spec *s, const ws_variant *v,
                        const ws_buffers *out, ws_error *err);

/* A variant that fails does not stop the others: ws_cli_variant_failed counts it and
 * returns WS_OK to go on (or rc itself with --fail-fast, the caller then failing with
 * err). ws_cli_failures_end gives the closing error: the failure itself when there was
 * one (printed once, as before), else every error printed as it came and one line
 * naming how many failed and which first. */
typedef struct ws_cli_failures {
    int n;
    ws_error first;
    char first_variant[WS_NAME_MAX];
} ws_cli_failures;
int ws_cli_variant_failed(ws_cli_failures *f, const ws_variant *v, int fail_fast, int rc,
                          ws_error *err);
int ws_cli_failures_end(const ws_cli_failures *f, const ws_spec *s, ws_error *err);

/* ---------------------------------------------------------------- options (opts.c) */

/* What an option takes: nothing (sets an int to 1), a word, a whole number in [lo, hi],
 * a -D NAME=VALUE; POSITIONAL rows only document an operand in the help. */
typedef enum ws_opt_kind {
    WS_OPT_FLAG, WS_OPT_STRING, WS_OPT_INT, WS_OPT_DEFINE, WS_OPT_POSITIONAL
} ws_opt_kind;
typedef struct ws_opt {
    const char *name;  /* "--db", "-o", "-D"; for POSITIONAL the operand, "WORKLOAD" */
    ws_opt_kind kind;
    void *dest;        /* int * (FLAG, INT), const char ** (STRING), ws_cli_defines * */
    const char *arg;   /* the value's name in help and errors: "FILE", "N"; NULL for flags */
    const char *help;  /* "\n" starts another line, aligned under the first */
    int lo, hi;        /* INT: accepted range */
} ws_opt;
/* A subcommand as its options see it: its name, the synopsis after "usage: ", a paragraph
 * and its option rows, in the order --help lists them. */
typedef struct ws_cli_cmd {
    const char *name, *usage, *about;
    const ws_opt *opts;
    int nopts;
} ws_cli_cmd;
#define WS_CLI_MAX_DEFINES 64
typedef struct ws_cli_defines {
    ws_define defs[WS_CLI_MAX_DEFINES];
    int n;
} ws_cli_defines;
/* Parses argv[1..] against c->opts: values into their destinations, the other words into
 * pos[] (more than maxpos is an error). With -h or --help anywhere prints the help and
 * returns 1. Returns 0, or -1 with a usage error in err ("CMD: unknown option '--x'",
 * "CMD: --db needs a FILE", "CMD: --threads needs a number >= 1, not 'x'"). */
int ws_cli_parse(const ws_cli_cmd *c, int argc, char **argv, const char **pos, int maxpos,
                 int *npos, ws_error *err);
/* The help of c: usage, paragraph, one line per option from the same table. */
void ws_cli_help(const ws_cli_cmd *c, FILE *f);
/* Adds "NAME=VALUE" (modified in place) to d. */
int ws_cli_add_define(ws_cli_defines *d, char *kv, ws_error *err);
#define WS_CLI_NOPTS(a) ((int)(sizeof(a) / sizeof((a)[0])))
/* The rows several commands share, spelled once. */
#define WS_CLI_OPT_DB(dest) \
    {"--db", WS_OPT_STRING, (dest), "FILE", "database (default $WARPSCOPE_DB or ./warpscope.db)", 0, 0}
#define WS_CLI_OPT_JSON(dest, help) {"--json", WS_OPT_FLAG, (dest), NULL, (help), 0, 0}
#define WS_CLI_OPT_DEFINES(dest) \
    {"-D", WS_OPT_DEFINE, (dest), "NAME=VALUE", "override a constant of the spec (repeatable)", 0, 0}
#define WS_CLI_OPT_VARIANT(dest) \
    {"--variant", WS_OPT_STRING, (dest), "V", "only this variant (default: every variant)", 0, 0}
#define WS_CLI_OPT_FAIL_FAST(dest) \
    {"--fail-fast", WS_OPT_FLAG, (dest), NULL, "stop at the first variant that fails (default: " \
     "report it and go on\nwith the next, exit non-zero at the end)", 0, 0}
#define WS_CLI_OPT_QUIET(dest) {"--quiet", WS_OPT_FLAG, (dest), NULL, "no progress on stderr", 0, 0}
#define WS_CLI_OPT_WORKLOAD \
    {"WORKLOAD", WS_OPT_POSITIONAL, NULL, NULL, "a name from 'warpscope list' or a path to a .spec", 0, 0}

/* ---------------------------------------------------------------- JSON (json.c) */

/* The JSON writer every command prints with: ", " between items, ": " after keys,
 * numbers as %.17g and null when not finite. Keys are NULL inside arrays. */
#define WS_JSON_DEPTH 16
typedef struct ws_json {
    FILE *f;
    int depth;
    int items[WS_JSON_DEPTH];  /* items written so far at each depth */
    char close[WS_JSON_DEPTH];
} ws_json;
void ws_json_begin(ws_json *j, FILE *f);
void ws_json_object(ws_json *j, const char *key);  /* opens {...} */
void ws_json_array(ws_json *j, const char *key);   /* opens [...] */
void ws_json_end(ws_json *j);                      /* closes the innermost */
void ws_json_str(ws_json *j, const char *key, const char *s);
void ws_json_num(ws_json *j, const char *key, double v);
void ws_json_int(ws_json *j, const char *key, long long v);
void ws_json_u64(ws_json *j, const char *key, uint64_t v);
void ws_json_bool(ws_json *j, const char *key, int v);        /* v < 0: null */
void ws_json_raw(ws_json *j, const char *key, const char *json); /* "" : null */
/* A run's parts: workload, variant, kernel, params, grid, block ... */
void ws_json_run_identity(ws_json *j, const ws_result *r);
/* ... {"NAME": value, ...} under `key` ... */
void ws_json_metrics(ws_json *j, const char *key, const ws_result *r);
/* ... "regions": {NAME: {first_line, ..., execution_rate}} ... */
void ws_json_regions(ws_json *j, const ws_result *r);
/* ... outputs_checked, outputs_match (null when unchecked), check_message ... */
void ws_json_outputs(ws_json *j, const ws_result *r);
/* ... "KEY": [the run's warnings] ("warnings", or "sim_warnings" beside a GPU run) */
void ws_json_warnings(ws_json *j, const char *key, const ws_result *r);
/* ... "launches": [{index, kernel, grid, block, smem_dynamic, vars, line, metrics}]: a
 * launch sequence's rows; nothing for a single launch. */
void ws_json_launches(ws_json *j, const ws_result *r);
/* "  launches: N" and a line per launch (a sequence's rows; nothing for a single launch). */
void ws_cli_print_launches(const ws_result *r);
/* All of the above, in that order: a run as sim and show print it. */
void ws_json_run(ws_json *j, const ws_result *r);

/* `warpscope sim CAPTURE`: replays a captured launch (cmd_replay.c). */
int ws_cli_sim_capture(int argc, char **argv);
void ws_cli_replay_help(void);
/* `warpscope profile -- APP` (capture 0) and `warpscope capture -- APP` (capture 1):
 * cmd_app.c. */
int ws_cli_app_command(int argc, char **argv, int capture);
void ws_cli_app_help(const char *cmd);

/* `warpscope run` (profile 0) and `warpscope profile` (profile 1): cmd_run.c. */
int ws_cli_gpu_command(int argc, char **argv, int profile);

#endif
