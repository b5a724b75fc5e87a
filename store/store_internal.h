/* store_internal.h — what the store's .c files share: the handle and SQLite helpers.
 * Private to store/; everyone else speaks store.h. */
#ifndef WS_STORE_INTERNAL_H
#define WS_STORE_INTERNAL_H

#include <sqlite3.h>
#include "store/store.h"

struct ws_store {
    sqlite3 *db;
    char path[WS_PATH_MAX];
};

/* Fills err with WS_ERR_DB: "PATH: WHAT: sqlite message"; returns WS_ERR_DB. */
int ws_store_fail(ws_store *st, ws_error *err, const char *what);
/* Prepares `sql`; on failure fills err. */
int ws_store_prepare(ws_store *st, const char *sql, sqlite3_stmt **stmt, ws_error *err);
/* Runs SQL without results (BEGIN, COMMIT, ...). */
int ws_store_exec(ws_store *st, const char *sql, ws_error *err);
/* Binds text (NULL -> SQL NULL) with the statement borrowing it until its next step. */
void ws_store_bind_text(sqlite3_stmt *s, int col, const char *text);
/* Copies column text (NULL -> "") into buf, truncating to n. */
void ws_store_column_text(sqlite3_stmt *s, int col, char *buf, size_t n);

/* store_launches.c: a launch sequence's rows (launches, launch_metrics) of run `run_id`,
 * inside the caller's transaction. */
int ws_store_save_launches(ws_store *st, int64_t run_id, const ws_result *r, ws_error *err);
int ws_store_load_launches(ws_store *st, int64_t run_id, ws_result *r, ws_error *err);

/* Applies the migrations of `schema` (text in schema.sql's format) that the database has
 * not had yet, in one transaction. ws_store_open does this with the embedded schema.sql;
 * tests call it with a longer text to exercise a future migration. */
int ws_store_migrate_text(ws_store *st, const char *schema, ws_error *err);

#endif
