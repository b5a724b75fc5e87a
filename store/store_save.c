/* store_save.c — writing one ws_result as one run, in one IMMEDIATE transaction: either
 * every row lands or none does (an error or a killed process rolls it all back).
 * Prepared statements with bound parameters only. Not for reading runs back. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_internal.h"

/* One save in progress: the handle, the new run's id, and the first error. */
typedef struct save_ctx {
    ws_store *st;
    const ws_result *r;
    int64_t run_id;
    int64_t *file_ids;  /* source_files.id per result file index */
    ws_error *err;
} save_ctx;

static void bind_u64(sqlite3_stmt *s, int col, uint64_t v)
{
    sqlite3_bind_int64(s, col, (sqlite3_int64)v);
}

static void bind_real(sqlite3_stmt *s, int col, double v)
{
    if (isnan(v))
        sqlite3_bind_null(s, col);
    else
        sqlite3_bind_double(s, col, v);
}

/* -1 (unknown) is stored as NULL. */
static void bind_opt_int(sqlite3_stmt *s, int col, int v)
{
    if (v < 0)
        sqlite3_bind_null(s, col);
    else
        sqlite3_bind_int(s, col, v);
}

/* Steps a bound insert and resets it for the next row. */
static int step_insert(save_ctx *c, sqlite3_stmt *s, const char *what)
{
    int rc = sqlite3_step(s);
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    if (rc != SQLITE_DONE)
        return ws_store_fail(c->st, c->err, what);
    return WS_OK;
}

static int insert_run(save_ctx *c)
{
    static const char sql[] =
        "INSERT INTO runs (tool_version, git_revision, source, workload, variant, kernel,"
        " grid_x, grid_y, grid_z, block_x, block_y, block_z, smem_dynamic, params, seed,"
        " device_json, outputs_checked, outputs_match, check_message)"
        " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
    const ws_result *r = c->r;
    sqlite3_stmt *s;
    if (ws_store_prepare(c->st, sql, &s, c->err))
        return c->err->code;
    int k = 1;
    ws_store_bind_text(s, k++, ws_version());
    ws_store_bind_text(s, k++, ws_git_revision());
    ws_store_bind_text(s, k++, r->source);
    ws_store_bind_text(s, k++, r->workload);
    ws_store_bind_text(s, k++, r->variant);
    ws_store_bind_text(s, k++, r->kernel);
    for (int d = 0; d < 3; d++)
        sqlite3_bind_int64(s, k++, r->grid[d]);
    for (int d = 0; d < 3; d++)
        sqlite3_bind_int64(s, k++, r->block[d]);
    sqlite3_bind_int64(s, k++, r->smem_dynamic);
    ws_store_bind_text(s, k++, r->params);
    bind_u64(s, k++, r->seed);
    ws_store_bind_text(s, k++, r->device_json);
    sqlite3_bind_int(s, k++, r->outputs_checked);
    sqlite3_bind_int(s, k++, r->outputs_match);
    ws_store_bind_text(s, k++, r->check_message);
    int rc = step_insert(c, s, "inserting the run");
    sqlite3_finalize(s);
    c->run_id = sqlite3_last_insert_rowid(c->st->db);
    return rc;
}

static int insert_metrics(save_ctx *c, sqlite3_stmt *s)
{
    for (int i = 0; i < c->r->nmetrics; i++) {
        sqlite3_bind_int64(s, 1, c->run_id);
        ws_store_bind_text(s, 2, c->r->metrics[i].name);
        bind_real(s, 3, c->r->metrics[i].value);
        if (step_insert(c, s, "inserting metric"))
            return c->err->code;
    }
    return WS_OK;
}

static int insert_files(save_ctx *c, sqlite3_stmt *s)
{
    for (int i = 0; i < c->r->nfiles; i++) {
        sqlite3_bind_int64(s, 1, c->run_id);
        sqlite3_bind_int(s, 2, i);
        ws_store_bind_text(s, 3, c->r->files[i].path);
        ws_store_bind_text(s, 4, c->r->files[i].text);
        if (step_insert(c, s, "inserting source file"))
            return c->err->code;
        c->file_ids[i] = sqlite3_last_insert_rowid(c->st->db);
    }
    return WS_OK;
}

static int insert_insts(save_ctx *c, sqlite3_stmt *s)
{
    for (int i = 0; i < c->r->ninsts; i++) {
        const ws_inst_stat *in = &c->r->insts[i];
        if (in->file >= c->r->nfiles)
            return ws_error_set(c->err, WS_ERR_DB,
                                "instruction %d (%s pc %d) names file %d of %d", i,
                                in->function, in->pc, in->file, c->r->nfiles);
        int k = 1;
        sqlite3_bind_int64(s, k++, c->run_id);
        ws_store_bind_text(s, k++, in->function);
        sqlite3_bind_int(s, k++, in->pc);
        sqlite3_bind_int(s, k++, in->ptx_line);
        if (in->file >= 0)
            sqlite3_bind_int64(s, k++, c->file_ids[in->file]);
        else
            sqlite3_bind_null(s, k++);
        sqlite3_bind_int(s, k++, in->line);
        bind_opt_int(s, k++, in->block);
        ws_store_bind_text(s, k++, in->text);
        bind_u64(s, k++, in->issued);
        bind_u64(s, k++, in->active_threads);
        bind_u64(s, k++, in->pred_on_threads);
        bind_u64(s, k++, in->branch_targets);
        bind_u64(s, k++, in->divergent_branches);
        if (step_insert(c, s, "inserting instruction"))
            return c->err->code;
    }
    return WS_OK;
}

static int insert_blocks(save_ctx *c, sqlite3_stmt *s)
{
    for (int i = 0; i < c->r->nblocks; i++) {
        const ws_block_info *b = &c->r->blocks[i];
        int k = 1;
        sqlite3_bind_int64(s, k++, c->run_id);
        ws_store_bind_text(s, k++, b->function);
        sqlite3_bind_int(s, k++, b->id);
        sqlite3_bind_int(s, k++, b->first_pc);
        sqlite3_bind_int(s, k++, b->last_pc);
        bind_opt_int(s, k++, b->nsucc > 0 ? b->succ[0] : -1);
        bind_opt_int(s, k++, b->nsucc > 1 ? b->succ[1] : -1);
        bind_opt_int(s, k++, b->ipdom);
        if (step_insert(c, s, "inserting basic block"))
            return c->err->code;
    }
    return WS_OK;
}

static int insert_regions(save_ctx *c, sqlite3_stmt *s)
{
    for (int i = 0; i < c->r->nregions; i++) {
        const ws_region_stat *g = &c->r->regions[i];
        int k = 1;
        sqlite3_bind_int64(s, k++, c->run_id);
        ws_store_bind_text(s, k++, g->name);
        sqlite3_bind_int(s, k++, g->first_line);
        sqlite3_bind_int(s, k++, g->last_line);
        bind_u64(s, k++, g->issued);
        bind_u64(s, k++, g->active_threads);
        bind_u64(s, k++, g->pred_on_threads);
        bind_u64(s, k++, g->branch_targets);
        bind_u64(s, k++, g->divergent_branches);
        bind_real(s, k++, g->execution_rate);
        if (step_insert(c, s, "inserting region"))
            return c->err->code;
    }
    return WS_OK;
}

static int insert_atomics(save_ctx *c, sqlite3_stmt *s, sqlite3_stmt *hist)
{
    for (int i = 0; i < c->r->natomics; i++) {
        const ws_atomic_stat *a = &c->r->atomics[i];
        int k = 1;
        sqlite3_bind_int64(s, k++, c->run_id);
        ws_store_bind_text(s, k++, a->function);
        sqlite3_bind_int(s, k++, a->pc);
        sqlite3_bind_int(s, k++, a->line);
        ws_store_bind_text(s, k++, a->text);
        bind_u64(s, k++, a->warp_execs);
        bind_u64(s, k++, a->lanes);
        if (step_insert(c, s, "inserting atomic"))
            return c->err->code;
        int64_t atomic_id = sqlite3_last_insert_rowid(c->st->db);
        for (int d = 0; d <= 32; d++) {
            if (!a->distinct_hist[d])
                continue;
            sqlite3_bind_int64(hist, 1, atomic_id);
            sqlite3_bind_int(hist, 2, d);
            bind_u64(hist, 3, a->distinct_hist[d]);
            if (step_insert(c, hist, "inserting atomic histogram"))
                return c->err->code;
        }
    }
    return WS_OK;
}

/* Packs slots as little-endian (int32 pc, uint32 active, uint32 pred_on) records. */
static void pack_slots(const ws_timeline *t, unsigned char *out)
{
    for (int i = 0; i < t->nslots; i++) {
        uint32_t v[3] = {(uint32_t)t->slots[i].pc, t->slots[i].active, t->slots[i].pred_on};
        for (int w = 0; w < 3; w++)
            for (int b = 0; b < 4; b++)
                *out++ = (unsigned char)(v[w] >> (8 * b));
    }
}

static int insert_timelines(save_ctx *c, sqlite3_stmt *s)
{
    for (int i = 0; i < c->r->ntimelines; i++) {
        const ws_timeline *t = &c->r->timelines[i];
        size_t bytes = (size_t)t->nslots * 12;
        unsigned char *blob = malloc(bytes ? bytes : 1);
        if (!blob)
            return ws_error_set(c->err, WS_ERR_NOMEM, "out of memory packing a timeline");
        pack_slots(t, blob);
        int k = 1;
        sqlite3_bind_int64(s, k++, c->run_id);
        ws_store_bind_text(s, k++, t->function);
        sqlite3_bind_int64(s, k++, t->cta);
        sqlite3_bind_int(s, k++, t->warp);
        sqlite3_bind_int(s, k++, t->nslots);
        sqlite3_bind_int(s, k++, t->truncated);
        sqlite3_bind_blob64(s, k++, blob, bytes, SQLITE_STATIC);
        int rc = step_insert(c, s, "inserting timeline");
        free(blob);
        if (rc)
            return rc;
    }
    return WS_OK;
}

static int insert_warnings(save_ctx *c, sqlite3_stmt *s)
{
    for (int i = 0; i < c->r->nwarnings; i++) {
        sqlite3_bind_int64(s, 1, c->run_id);
        ws_store_bind_text(s, 2, c->r->warnings[i] ? c->r->warnings[i] : "");
        if (step_insert(c, s, "inserting warning"))
            return c->err->code;
    }
    return WS_OK;
}

enum { S_METRIC, S_FILE, S_INST, S_BLOCK, S_REGION, S_ATOMIC, S_HIST, S_TIMELINE, S_WARNING,
       S__COUNT };
static const char *const insert_sql[S__COUNT] = {
    [S_METRIC] = "INSERT INTO metrics (run_id, name, value) VALUES (?,?,?)",
    [S_FILE] = "INSERT INTO source_files (run_id, file_index, path, text) VALUES (?,?,?,?)",
    [S_INST] = "INSERT INTO instructions (run_id, function, pc, ptx_line, file_id, line, block,"
               " text, issued, active_threads, pred_on_threads, branch_targets,"
               " divergent_branches) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
    [S_BLOCK] = "INSERT INTO basic_blocks (run_id, function, block_id, first_pc, last_pc,"
                " succ0, succ1, ipdom) VALUES (?,?,?,?,?,?,?,?)",
    [S_REGION] = "INSERT INTO regions (run_id, name, first_line, last_line, issued,"
                 " active_threads, pred_on_threads, branch_targets, divergent_branches,"
                 " execution_rate) VALUES (?,?,?,?,?,?,?,?,?,?)",
    [S_ATOMIC] = "INSERT INTO atomics (run_id, function, pc, line, text, warp_execs, lanes)"
                 " VALUES (?,?,?,?,?,?,?)",
    [S_HIST] = "INSERT INTO atomic_distinct_hist (atomic_id, distinct_addresses, count)"
               " VALUES (?,?,?)",
    [S_TIMELINE] = "INSERT INTO timelines (run_id, function, cta, warp, nslots, truncated,"
                   " slots) VALUES (?,?,?,?,?,?,?)",
    [S_WARNING] = "INSERT INTO warnings (run_id, text) VALUES (?,?)",
};

/* Everything after the runs row, with the statements prepared once. */
static int insert_children(save_ctx *c)
{
    sqlite3_stmt *s[S__COUNT] = {0};
    int rc = WS_OK;
    for (int i = 0; i < S__COUNT && !rc; i++)
        rc = ws_store_prepare(c->st, insert_sql[i], &s[i], c->err);
    if (!rc)
        rc = insert_metrics(c, s[S_METRIC]);
    if (!rc)
        rc = insert_files(c, s[S_FILE]);
    if (!rc)
        rc = insert_insts(c, s[S_INST]);
    if (!rc)
        rc = insert_blocks(c, s[S_BLOCK]);
    if (!rc)
        rc = insert_regions(c, s[S_REGION]);
    if (!rc)
        rc = insert_atomics(c, s[S_ATOMIC], s[S_HIST]);
    if (!rc)
        rc = insert_timelines(c, s[S_TIMELINE]);
    if (!rc)
        rc = insert_warnings(c, s[S_WARNING]);
    if (!rc)
        rc = ws_store_save_launches(c->st, c->run_id, c->r, c->err);
    for (int i = 0; i < S__COUNT; i++)
        sqlite3_finalize(s[i]);
    return rc;
}

int ws_store_save_result(ws_store *st, const ws_result *r, int64_t *run_id, ws_error *err)
{
    save_ctx c = {st, r, 0, NULL, err};
    c.file_ids = calloc((size_t)r->nfiles + 1, sizeof *c.file_ids);
    if (!c.file_ids)
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory saving a run");
    int rc = ws_store_exec(st, "BEGIN IMMEDIATE", err);
    if (!rc) {
        rc = insert_run(&c);
        if (!rc)
            rc = insert_children(&c);
        if (!rc)
            rc = ws_store_exec(st, "COMMIT", err);
        if (rc)
            sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
    }
    free(c.file_ids);
    if (!rc && run_id)
        *run_id = c.run_id;
    return rc;
}
