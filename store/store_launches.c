/* store_launches.c — the rows of a launch sequence: one `launches` row per launch and its
 * metrics in `launch_metrics`, written inside the run's transaction and read back with
 * it. The run's other tables are store_save.c's and store_load.c's. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_internal.h"

static int step_done(ws_store *st, sqlite3_stmt *s, const char *what, ws_error *err)
{
    int rc = sqlite3_step(s);
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    return rc == SQLITE_DONE ? WS_OK : ws_store_fail(st, err, what);
}

static int save_one(ws_store *st, int64_t run_id, const ws_launch_stat *l, sqlite3_stmt *ins,
                    sqlite3_stmt *met, ws_error *err)
{
    int k = 1;
    sqlite3_bind_int64(ins, k++, run_id);
    sqlite3_bind_int(ins, k++, l->index);
    ws_store_bind_text(ins, k++, l->kernel);
    for (int d = 0; d < 3; d++)
        sqlite3_bind_int64(ins, k++, l->grid[d]);
    for (int d = 0; d < 3; d++)
        sqlite3_bind_int64(ins, k++, l->block[d]);
    sqlite3_bind_int64(ins, k++, l->smem_dynamic);
    ws_store_bind_text(ins, k++, l->vars);
    sqlite3_bind_int(ins, k++, l->line);
    int rc = step_done(st, ins, "inserting a launch", err);
    int64_t launch_id = sqlite3_last_insert_rowid(st->db);
    for (int m = 0; rc == WS_OK && m < l->nmetrics; m++) {
        sqlite3_bind_int64(met, 1, launch_id);
        ws_store_bind_text(met, 2, l->metrics[m].name);
        if (isnan(l->metrics[m].value))
            sqlite3_bind_null(met, 3);
        else
            sqlite3_bind_double(met, 3, l->metrics[m].value);
        rc = step_done(st, met, "inserting a launch metric", err);
    }
    return rc;
}

int ws_store_save_launches(ws_store *st, int64_t run_id, const ws_result *r, ws_error *err)
{
    if (!r->nlaunches)
        return WS_OK;
    sqlite3_stmt *ins = NULL, *met = NULL;
    int rc = ws_store_prepare(st, "INSERT INTO launches (run_id, launch_index, kernel, grid_x,"
                              " grid_y, grid_z, block_x, block_y, block_z, smem_dynamic, vars,"
                              " spec_line) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", &ins, err);
    if (rc == WS_OK)
        rc = ws_store_prepare(st, "INSERT INTO launch_metrics (launch_id, name, value)"
                              " VALUES (?,?,?)", &met, err);
    for (int i = 0; rc == WS_OK && i < r->nlaunches; i++)
        rc = save_one(st, run_id, &r->launches[i], ins, met, err);
    sqlite3_finalize(ins);
    sqlite3_finalize(met);
    return rc;
}

static int load_metrics(ws_store *st, int64_t launch_id, ws_launch_stat *l, ws_error *err)
{
    sqlite3_stmt *s;
    int rc = ws_store_prepare(st, "SELECT name, value FROM launch_metrics WHERE launch_id = ?1"
                              " ORDER BY id", &s, err);
    if (rc != WS_OK)
        return rc;
    sqlite3_bind_int64(s, 1, launch_id);
    int step;
    while (rc == WS_OK && (step = sqlite3_step(s)) == SQLITE_ROW) {
        ws_metric *grown = realloc(l->metrics, (size_t)(l->nmetrics + 1) * sizeof *grown);
        if (!grown) {
            rc = ws_error_set(err, WS_ERR_NOMEM, "out of memory reading launch metrics");
            break;
        }
        l->metrics = grown;
        ws_metric *m = &l->metrics[l->nmetrics++];
        ws_store_column_text(s, 0, m->name, sizeof m->name);
        m->value = sqlite3_column_type(s, 1) == SQLITE_NULL ? NAN : sqlite3_column_double(s, 1);
    }
    if (rc == WS_OK && step != SQLITE_DONE)
        rc = ws_store_fail(st, err, "reading launch metrics");
    sqlite3_finalize(s);
    return rc;
}

static int load_row(ws_store *st, sqlite3_stmt *s, ws_result *r, ws_error *err)
{
    if (r->nlaunches == r->cap_launches) {
        int cap = r->cap_launches ? 2 * r->cap_launches : 16;
        ws_launch_stat *grown = realloc(r->launches, (size_t)cap * sizeof *grown);
        if (!grown)
            return ws_error_set(err, WS_ERR_NOMEM, "out of memory reading launches");
        r->launches = grown;
        r->cap_launches = cap;
    }
    ws_launch_stat *l = &r->launches[r->nlaunches++];
    memset(l, 0, sizeof *l);
    int k = 1;
    l->index = sqlite3_column_int(s, k++);
    ws_store_column_text(s, k++, l->kernel, sizeof l->kernel);
    for (int d = 0; d < 3; d++)
        l->grid[d] = (uint32_t)sqlite3_column_int64(s, k++);
    for (int d = 0; d < 3; d++)
        l->block[d] = (uint32_t)sqlite3_column_int64(s, k++);
    l->smem_dynamic = (uint32_t)sqlite3_column_int64(s, k++);
    ws_store_column_text(s, k++, l->vars, sizeof l->vars);
    l->line = sqlite3_column_int(s, k++);
    return load_metrics(st, sqlite3_column_int64(s, 0), l, err);
}

int ws_store_load_launches(ws_store *st, int64_t run_id, ws_result *r, ws_error *err)
{
    sqlite3_stmt *s;
    int rc = ws_store_prepare(st, "SELECT id, launch_index, kernel, grid_x, grid_y, grid_z,"
                              " block_x, block_y, block_z, smem_dynamic, vars, spec_line"
                              " FROM launches WHERE run_id = ?1 ORDER BY launch_index", &s, err);
    if (rc != WS_OK)
        return rc;
    sqlite3_bind_int64(s, 1, run_id);
    int step;
    while (rc == WS_OK && (step = sqlite3_step(s)) == SQLITE_ROW)
        rc = load_row(st, s, r, err);
    if (rc == WS_OK && step != SQLITE_DONE)
        rc = ws_store_fail(st, err, "reading launches");
    sqlite3_finalize(s);
    return rc;
}
