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


/* ---------------------------------------------------------------- capture files */

/* A capture file (`warpscope capture -- APP`): the launches of an application with their
 * modules, argument bytes and the device memory they reach before and after; an SQLite
 * file of its own, documented in docs/capture-format.md. Written by the injection library
 * as the application runs, read back by `warpscope sim CAPTURE`. */
typedef struct ws_capture ws_capture;

typedef struct ws_capture_region {
    uint64_t address, size;   /* the allocation's device address and bytes */
    uint8_t *before, *after;  /* its contents before and after the launch; after may be NULL */
} ws_capture_region;

typedef struct ws_capture_launch {
    int64_t index;            /* the application's kernel launches counted from 0 */
    char kernel[256];         /* mangled entry name */
    char api[64];             /* the driver call: "cuLaunchKernel", "cuGraphLaunch", ... */
    char status[256];         /* "" when captured; else why not ("cooperative launch ...") */
    uint32_t grid[3], block[3], smem_dynamic;
    uint8_t *params;          /* the parameter block as the kernel sees it */
    size_t param_bytes;
    int nregions;
    ws_capture_region *regions;
} ws_capture_launch;

/* Creates a new capture file at `path` (replacing one there). */
int ws_capture_create(const char *path, ws_capture **out, ws_error *err);
/* Opens an existing one; "FILE is not a warpscope capture file" when it is not. */
int ws_capture_open(const char *path, ws_capture **out, ws_error *err);
void ws_capture_close(ws_capture *c);
/* 1 when `path` is a readable capture file (a cheap check for `warpscope sim ARG`). */
int ws_capture_is_file(const char *path);
int ws_capture_set_meta(ws_capture *c, const char *key, const char *value, ws_error *err);
/* The value of `key` into buf ("" when absent). */
int ws_capture_get_meta(ws_capture *c, const char *key, char *buf, size_t n, ws_error *err);
/* Adds a module image ("ptx", "fatbin", "cubin") once: an image already there (same bytes)
 * gives its id again. `ptx` (may be NULL) is its PTX text where known. */
int ws_capture_add_module(ws_capture *c, const char *kind, const void *image, size_t size,
                          const char *ptx, int64_t *id, ws_error *err);
/* Module ids and kinds whose PTX is not known yet, for the CLI to extract. Caller frees. */
int ws_capture_modules_without_ptx(ws_capture *c, int64_t **ids, int *n, ws_error *err);
int ws_capture_module_image(ws_capture *c, int64_t id, void **image, size_t *size,
                            char *kind, size_t kind_n, ws_error *err);
int ws_capture_set_module_ptx(ws_capture *c, int64_t id, const char *ptx, ws_error *err);
/* The PTX of the first module with an `.entry KERNEL`; WS_ERR_NOTFOUND when none has.
 * Caller frees *ptx. */
int ws_capture_find_ptx(ws_capture *c, const char *kernel, char **ptx, ws_error *err);
/* Writes one launch with its regions in one transaction. */
int ws_capture_add_launch(ws_capture *c, const ws_capture_launch *l, ws_error *err);
/* Launch indexes in the file, ascending (captured or not).
 * Caller frees *indexes. */
int ws_capture_launches(ws_capture *c, int64_t **indexes, int *n, ws_error *err);
/* Reads launch `index` (WS_ERR_NOTFOUND: "no launch 7 in FILE (launches: 0-5)"). */
int ws_capture_load_launch(ws_capture *c, int64_t index, ws_capture_launch *out, ws_error *err);
void ws_capture_launch_free(ws_capture_launch *l);

#ifdef __cplusplus
}
#endif
#endif
