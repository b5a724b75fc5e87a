/* store.h — the results database: one SQLite file holding runs (simulator and GPU side by
 * side), their metrics, per-instruction, per-line and per-region counts, atomics, warp
 * timelines, basic blocks and the source text. The only module that writes SQL.
 * The schema is documented in store/schema.sql. */
#ifndef WS_STORE_H
#define WS_STORE_H

#include "core/core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ws_store ws_store;

/* Opens (creating and migrating to the current schema) the database at `path`. */
int ws_store_open(const char *path, ws_store **out, ws_error *err);
void ws_store_close(ws_store *st);
int ws_store_schema_version(ws_store *st);

/* Writes one run and everything in `r`, in one transaction; returns its id. */
int ws_store_save_result(ws_store *st, const ws_result *r, int64_t *run_id, ws_error *err);
/* Reads a run back into `r` (initialised by the caller). WS_ERR_NOTFOUND if absent. */
int ws_store_load_result(ws_store *st, int64_t run_id, ws_result *r, ws_error *err);

typedef struct ws_run_row {
    int64_t id;
    char created[32];       /* ISO 8601 UTC */
    char source[128];
    char workload[WS_NAME_MAX], variant[WS_NAME_MAX], kernel[128];
    char params[512];
    uint32_t grid[3], block[3];
    double execution_rate;  /* smsp__thread_inst_executed_per_inst_executed.ratio / 32, or -1 */
    double time_ns;         /* gpu__time_duration.sum or sim__time_ns, or -1 */
    int outputs_match;      /* -1 not checked */
    char tool_version[32];  /* warpscope version and git revision that wrote the run */
    char git_revision[64];
    char check_message[256];
} ws_run_row;

/* All runs, newest last. Caller frees *rows. */
int ws_store_list_runs(ws_store *st, ws_run_row **rows, int *n, ws_error *err);
/* One run's row, as in ws_store_list_runs; WS_ERR_NOTFOUND ("no run 42 in FILE (runs: 1-7)"). */
int ws_store_get_run(ws_store *st, int64_t run_id, ws_run_row *row, ws_error *err);
/* Newest run of workload/variant whose source starts with `source_prefix` ("sim", "gpu"). */
int ws_store_latest_run(ws_store *st, const char *workload, const char *variant,
                        const char *source_prefix, int64_t *run_id, ws_error *err);

#ifdef __cplusplus
}
#endif
#endif
