/* store_load.c — reading runs back: one run into a ws_result (exactly as it was saved),
 * the list of all runs, and the newest run of a workload/variant. Reads only; the
 * writing side is store_save.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_internal.h"

/* One load in progress. */
typedef struct load_ctx {
    ws_store *st;
    int64_t run_id;
    ws_result *r;
    int64_t *file_ids;  /* source_files.id of each loaded file ... */
    int *file_index;    /* ... and its index in r->files */
    int nfiles;
    ws_error *err;
} load_ctx;

static uint64_t col_u64(sqlite3_stmt *s, int col)
{
    return (uint64_t)sqlite3_column_int64(s, col);
}

static double col_real(sqlite3_stmt *s, int col)
{
    return sqlite3_column_type(s, col) == SQLITE_NULL ? NAN : sqlite3_column_double(s, col);
}

/* NULL reads back as -1 (unknown). */
static int col_opt_int(sqlite3_stmt *s, int col)
{
    return sqlite3_column_type(s, col) == SQLITE_NULL ? -1 : sqlite3_column_int(s, col);
}

static const char *col_str(sqlite3_stmt *s, int col)
{
    const unsigned char *t = sqlite3_column_text(s, col);
    return t ? (const char *)t : "";
}

/* Prepares a per-run query and binds the run id as ?1. */
static int prepare_run_query(load_ctx *c, const char *sql, sqlite3_stmt **s)
{
    if (ws_store_prepare(c->st, sql, s, c->err))
        return c->err->code;
    sqlite3_bind_int64(*s, 1, c->run_id);
    return WS_OK;
}

/* 1 while rows come; 0 at the end or on error (then *rc is set). */
static int step_row(load_ctx *c, sqlite3_stmt *s, const char *what, int *rc)
{
    int k = sqlite3_step(s);
    if (k == SQLITE_ROW)
        return 1;
    if (k != SQLITE_DONE)
        *rc = ws_store_fail(c->st, c->err, what);
    return 0;
}

static int out_of_memory(load_ctx *c, const char *what)
{
    return ws_error_set(c->err, WS_ERR_NOMEM, "out of memory reading %s of run %lld", what,
                        (long long)c->run_id);
}

/* "no run 42 in warpscope.db (runs: 1-7)" */
static int run_not_found(load_ctx *c)
{
    sqlite3_stmt *s;
    int64_t lo = 0, hi = 0, n = 0;
    if (ws_store_prepare(c->st, "SELECT min(id), max(id), count(*) FROM runs", &s, c->err))
        return c->err->code;
    if (sqlite3_step(s) == SQLITE_ROW) {
        lo = sqlite3_column_int64(s, 0);
        hi = sqlite3_column_int64(s, 1);
        n = sqlite3_column_int64(s, 2);
    }
    sqlite3_finalize(s);
    if (n == 0)
        return ws_error_set(c->err, WS_ERR_NOTFOUND, "no run %lld in %s (it holds no runs yet)",
                            (long long)c->run_id, c->st->path);
    return ws_error_set(c->err, WS_ERR_NOTFOUND, "no run %lld in %s (runs: %lld-%lld)",
                        (long long)c->run_id, c->st->path, (long long)lo, (long long)hi);
}

static int load_run_row(load_ctx *c)
{
    static const char sql[] =
        "SELECT source, workload, variant, kernel, grid_x, grid_y, grid_z, block_x, block_y,"
        " block_z, smem_dynamic, params, seed, device_json, outputs_checked, outputs_match,"
        " check_message FROM runs WHERE id = ?1";
    sqlite3_stmt *s;
    int rc = WS_OK;
    ws_result *r = c->r;
    if (prepare_run_query(c, sql, &s))
        return c->err->code;
    if (!step_row(c, s, "reading the run", &rc)) {
        sqlite3_finalize(s);
        return rc ? rc : run_not_found(c);
    }
    int k = 0;
    ws_store_column_text(s, k++, r->source, sizeof r->source);
    ws_store_column_text(s, k++, r->workload, sizeof r->workload);
    ws_store_column_text(s, k++, r->variant, sizeof r->variant);
    ws_store_column_text(s, k++, r->kernel, sizeof r->kernel);
    for (int d = 0; d < 3; d++)
        r->grid[d] = (uint32_t)sqlite3_column_int64(s, k++);
    for (int d = 0; d < 3; d++)
        r->block[d] = (uint32_t)sqlite3_column_int64(s, k++);
    r->smem_dynamic = (uint32_t)sqlite3_column_int64(s, k++);
    ws_store_column_text(s, k++, r->params, sizeof r->params);
    r->seed = col_u64(s, k++);
    ws_store_column_text(s, k++, r->device_json, sizeof r->device_json);
    r->outputs_checked = sqlite3_column_int(s, k++);
    r->outputs_match = sqlite3_column_int(s, k++);
    ws_store_column_text(s, k++, r->check_message, sizeof r->check_message);
    sqlite3_finalize(s);
    return WS_OK;
}

static int load_metrics(load_ctx *c)
{
    sqlite3_stmt *s;
    int rc = WS_OK;
    if (prepare_run_query(c, "SELECT name, value FROM metrics WHERE run_id = ?1 ORDER BY id", &s))
        return c->err->code;
    while (!rc && step_row(c, s, "reading metrics", &rc))
        if (ws_result_set_metric(c->r, col_str(s, 0), col_real(s, 1)) != WS_OK)
            rc = out_of_memory(c, "metrics");
    sqlite3_finalize(s);
    return rc;
}

static int remember_file(load_ctx *c, int64_t id, int index)
{
    int64_t *ids = realloc(c->file_ids, (size_t)(c->nfiles + 1) * sizeof *ids);
    if (!ids)
        return out_of_memory(c, "source files");
    c->file_ids = ids;
    int *idx = realloc(c->file_index, (size_t)(c->nfiles + 1) * sizeof *idx);
    if (!idx)
        return out_of_memory(c, "source files");
    c->file_index = idx;
    ids[c->nfiles] = id;
    idx[c->nfiles++] = index;
    return WS_OK;
}

static int load_files(load_ctx *c)
{
    sqlite3_stmt *s;
    int rc = WS_OK;
    if (prepare_run_query(c, "SELECT id, path, text FROM source_files WHERE run_id = ?1"
                             " ORDER BY file_index", &s))
        return c->err->code;
    while (!rc && step_row(c, s, "reading source files", &rc)) {
        const char *text = (const char *)sqlite3_column_text(s, 2);
        int idx = ws_result_add_file(c->r, col_str(s, 1), text);
        rc = idx < 0 ? out_of_memory(c, "source files")
                     : remember_file(c, sqlite3_column_int64(s, 0), idx);
    }
    sqlite3_finalize(s);
    return rc;
}

/* source_files.id -> index in r->files; -1 for NULL. */
static int file_index_of(load_ctx *c, sqlite3_stmt *s, int col)
{
    if (sqlite3_column_type(s, col) == SQLITE_NULL)
        return -1;
    int64_t id = sqlite3_column_int64(s, col);
    for (int i = 0; i < c->nfiles; i++)
        if (c->file_ids[i] == id)
            return c->file_index[i];
    return -1;
}

static int load_insts(load_ctx *c)
{
    static const char sql[] =
        "SELECT function, pc, ptx_line, file_id, line, block, text, issued, active_threads,"
        " pred_on_threads, branch_targets, divergent_branches"
        " FROM instructions WHERE run_id = ?1 ORDER BY id";
    sqlite3_stmt *s;
    int rc = WS_OK;
    if (prepare_run_query(c, sql, &s))
        return c->err->code;
    while (!rc && step_row(c, s, "reading instructions", &rc)) {
        ws_inst_stat *in = ws_result_add_inst(c->r);
        if (!in) {
            rc = out_of_memory(c, "instructions");
            break;
        }
        int k = 0;
        ws_store_column_text(s, k++, in->function, sizeof in->function);
        in->pc = sqlite3_column_int(s, k++);
        in->ptx_line = sqlite3_column_int(s, k++);
        in->file = file_index_of(c, s, k++);
        in->line = sqlite3_column_int(s, k++);
        in->block = col_opt_int(s, k++);
        ws_store_column_text(s, k++, in->text, sizeof in->text);
        in->issued = col_u64(s, k++);
        in->active_threads = col_u64(s, k++);
        in->pred_on_threads = col_u64(s, k++);
        in->branch_targets = col_u64(s, k++);
        in->divergent_branches = col_u64(s, k++);
    }
    sqlite3_finalize(s);
    return rc;
}

static int load_blocks(load_ctx *c)
{
    static const char sql[] =
        "SELECT function, block_id, first_pc, last_pc, succ0, succ1, ipdom"
        " FROM basic_blocks WHERE run_id = ?1 ORDER BY id";
    sqlite3_stmt *s;
    int rc = WS_OK;
    if (prepare_run_query(c, sql, &s))
        return c->err->code;
    while (!rc && step_row(c, s, "reading basic blocks", &rc)) {
        ws_block_info *b = ws_result_add_block(c->r);
        if (!b) {
            rc = out_of_memory(c, "basic blocks");
            break;
        }
        ws_store_column_text(s, 0, b->function, sizeof b->function);
        b->id = sqlite3_column_int(s, 1);
        b->first_pc = sqlite3_column_int(s, 2);
        b->last_pc = sqlite3_column_int(s, 3);
        b->succ[0] = col_opt_int(s, 4);
        b->succ[1] = col_opt_int(s, 5);
        b->nsucc = (b->succ[0] >= 0) + (b->succ[1] >= 0);
        b->ipdom = col_opt_int(s, 6);
    }
    sqlite3_finalize(s);
    return rc;
}

/* core has no ws_result_add_region: grow r->regions like its other arrays. */
static ws_region_stat *add_region(ws_result *r)
{
    if (r->nregions == r->cap_regions) {
        int cap = r->cap_regions ? 2 * r->cap_regions : 8;
        ws_region_stat *g = realloc(r->regions, (size_t)cap * sizeof *g);
        if (!g)
            return NULL;
        r->regions = g;
        r->cap_regions = cap;
    }
    ws_region_stat *g = &r->regions[r->nregions++];
    memset(g, 0, sizeof *g);
    return g;
}

static int load_regions(load_ctx *c)
{
    static const char sql[] =
        "SELECT name, first_line, last_line, issued, active_threads, pred_on_threads,"
        " branch_targets, divergent_branches, execution_rate"
        " FROM regions WHERE run_id = ?1 ORDER BY id";
    sqlite3_stmt *s;
    int rc = WS_OK;
    if (prepare_run_query(c, sql, &s))
        return c->err->code;
    while (!rc && step_row(c, s, "reading regions", &rc)) {
        ws_region_stat *g = add_region(c->r);
        if (!g) {
            rc = out_of_memory(c, "regions");
            break;
        }
        int k = 0;
        ws_store_column_text(s, k++, g->name, sizeof g->name);
        g->first_line = sqlite3_column_int(s, k++);
        g->last_line = sqlite3_column_int(s, k++);
        g->issued = col_u64(s, k++);
        g->active_threads = col_u64(s, k++);
        g->pred_on_threads = col_u64(s, k++);
        g->branch_targets = col_u64(s, k++);
        g->divergent_branches = col_u64(s, k++);
        g->execution_rate = col_real(s, k++);
    }
    sqlite3_finalize(s);
    return rc;
}

static int load_atomic_hist(load_ctx *c, int64_t atomic_id, ws_atomic_stat *a)
{
    sqlite3_stmt *s;
    int rc = WS_OK;
    if (ws_store_prepare(c->st, "SELECT distinct_addresses, count FROM atomic_distinct_hist"
                                " WHERE atomic_id = ?1", &s, c->err))
        return c->err->code;
    sqlite3_bind_int64(s, 1, atomic_id);
    while (step_row(c, s, "reading atomic histograms", &rc)) {
        int d = sqlite3_column_int(s, 0);
        if (d >= 0 && d <= 32)
            a->distinct_hist[d] = col_u64(s, 1);
    }
    sqlite3_finalize(s);
    return rc;
}

static int load_atomics(load_ctx *c)
{
    static const char sql[] =
        "SELECT id, function, pc, line, text, warp_execs, lanes"
        " FROM atomics WHERE run_id = ?1 ORDER BY id";
    sqlite3_stmt *s;
    int rc = WS_OK;
    if (prepare_run_query(c, sql, &s))
        return c->err->code;
    while (!rc && step_row(c, s, "reading atomics", &rc)) {
        ws_atomic_stat *a = ws_result_add_atomic(c->r);
        if (!a) {
            rc = out_of_memory(c, "atomics");
            break;
        }
        ws_store_column_text(s, 1, a->function, sizeof a->function);
        a->pc = sqlite3_column_int(s, 2);
        a->line = sqlite3_column_int(s, 3);
        ws_store_column_text(s, 4, a->text, sizeof a->text);
        a->warp_execs = col_u64(s, 5);
        a->lanes = col_u64(s, 6);
        memset(a->distinct_hist, 0, sizeof a->distinct_hist);
        rc = load_atomic_hist(c, sqlite3_column_int64(s, 0), a);
    }
    sqlite3_finalize(s);
    return rc;
}

static uint32_t read_le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int unpack_slots(load_ctx *c, sqlite3_stmt *s, int col, ws_timeline *t)
{
    const unsigned char *blob = sqlite3_column_blob(s, col);
    size_t bytes = (size_t)sqlite3_column_bytes(s, col);
    if (t->nslots < 0 || bytes != (size_t)t->nslots * 12)
        return ws_error_set(c->err, WS_ERR_DB, "%s: run %lld: a timeline's slots are %zu bytes,"
                            " not 12 x %d", c->st->path, (long long)c->run_id, bytes, t->nslots);
    t->slots = calloc((size_t)t->nslots + 1, sizeof *t->slots);
    if (!t->slots)
        return out_of_memory(c, "timelines");
    for (int i = 0; i < t->nslots; i++, blob += 12) {
        t->slots[i].pc = (int32_t)read_le32(blob);
        t->slots[i].active = read_le32(blob + 4);
        t->slots[i].pred_on = read_le32(blob + 8);
    }
    return WS_OK;
}

static int load_timelines(load_ctx *c)
{
    static const char sql[] =
        "SELECT function, cta, warp, nslots, truncated, slots"
        " FROM timelines WHERE run_id = ?1 ORDER BY id";
    sqlite3_stmt *s;
    int rc = WS_OK;
    if (prepare_run_query(c, sql, &s))
        return c->err->code;
    while (!rc && step_row(c, s, "reading timelines", &rc)) {
        ws_timeline *t = ws_result_add_timeline(c->r);
        if (!t) {
            rc = out_of_memory(c, "timelines");
            break;
        }
        ws_store_column_text(s, 0, t->function, sizeof t->function);
        t->cta = (uint32_t)sqlite3_column_int64(s, 1);
        t->warp = sqlite3_column_int(s, 2);
        t->nslots = sqlite3_column_int(s, 3);
        t->truncated = sqlite3_column_int(s, 4);
        t->slots = NULL;
        rc = unpack_slots(c, s, 5, t);
    }
    sqlite3_finalize(s);
    return rc;
}

static int load_warnings(load_ctx *c)
{
    sqlite3_stmt *s;
    int rc = WS_OK;
    if (prepare_run_query(c, "SELECT text FROM warnings WHERE run_id = ?1 ORDER BY id", &s))
        return c->err->code;
    while (!rc && step_row(c, s, "reading warnings", &rc))
        if (ws_result_add_warning(c->r, "%s", col_str(s, 0)) != WS_OK)
            rc = out_of_memory(c, "warnings");
    sqlite3_finalize(s);
    return rc;
}

int ws_store_load_result(ws_store *st, int64_t run_id, ws_result *r, ws_error *err)
{
    load_ctx c = {st, run_id, r, NULL, NULL, 0, err};
    /* one read transaction: a consistent snapshot even while others write */
    int rc = ws_store_exec(st, "BEGIN", err);
    if (rc)
        return rc;
    rc = load_run_row(&c);
    if (!rc)
        rc = load_metrics(&c);
    if (!rc)
        rc = load_files(&c);
    if (!rc)
        rc = load_insts(&c);
    if (!rc)
        rc = load_blocks(&c);
    if (!rc)
        rc = load_regions(&c);
    if (!rc)
        rc = load_atomics(&c);
    if (!rc)
        rc = load_timelines(&c);
    if (!rc)
        rc = load_warnings(&c);
    if (!rc)
        rc = ws_store_load_launches(st, run_id, r, err);
    sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL);
    free(c.file_ids);
    free(c.file_index);
    return rc;
}

/* ---------------------------------------------------------------- listing */

static void fill_run_row(sqlite3_stmt *s, ws_run_row *w)
{
    memset(w, 0, sizeof *w);
    w->id = sqlite3_column_int64(s, 0);
    ws_store_column_text(s, 1, w->created, sizeof w->created);
    ws_store_column_text(s, 2, w->source, sizeof w->source);
    ws_store_column_text(s, 3, w->workload, sizeof w->workload);
    ws_store_column_text(s, 4, w->variant, sizeof w->variant);
    ws_store_column_text(s, 5, w->kernel, sizeof w->kernel);
    ws_store_column_text(s, 6, w->params, sizeof w->params);
    for (int d = 0; d < 3; d++) {
        w->grid[d] = (uint32_t)sqlite3_column_int64(s, 7 + d);
        w->block[d] = (uint32_t)sqlite3_column_int64(s, 10 + d);
    }
    w->execution_rate = sqlite3_column_type(s, 13) == SQLITE_NULL ? -1 : sqlite3_column_double(s, 13);
    w->time_ns = sqlite3_column_type(s, 14) == SQLITE_NULL ? -1 : sqlite3_column_double(s, 14);
    w->outputs_match = col_opt_int(s, 15);
    ws_store_column_text(s, 16, w->tool_version, sizeof w->tool_version);
    ws_store_column_text(s, 17, w->git_revision, sizeof w->git_revision);
    ws_store_column_text(s, 18, w->check_message, sizeof w->check_message);
}

#define RUN_ROW_SELECT                                                                        \
    "SELECT k.run_id, k.created, k.source, k.workload, k.variant, k.kernel, k.params,"      \
    " k.grid_x, k.grid_y, k.grid_z, k.block_x, k.block_y, k.block_z, k.execution_rate,"    \
    " k.time_ns, k.outputs_match, r.tool_version, r.git_revision, r.check_message"          \
    " FROM kernel_summary k JOIN runs r ON r.id = k.run_id"

int ws_store_get_run(ws_store *st, int64_t run_id, ws_run_row *row, ws_error *err)
{
    sqlite3_stmt *s;
    load_ctx c = {st, run_id, NULL, NULL, NULL, 0, err};
    if (ws_store_prepare(st, RUN_ROW_SELECT " WHERE k.run_id = ?1", &s, err))
        return err->code;
    sqlite3_bind_int64(s, 1, run_id);
    int rc = WS_OK;
    if (step_row(&c, s, "reading the run", &rc))
        fill_run_row(s, row);
    else if (!rc)
        rc = run_not_found(&c);
    sqlite3_finalize(s);
    return rc;
}

int ws_store_list_runs(ws_store *st, ws_run_row **rows, int *n, ws_error *err)
{
    static const char sql[] = RUN_ROW_SELECT " ORDER BY k.run_id";
    sqlite3_stmt *s;
    int rc = WS_OK, cap = 0;
    *rows = NULL;
    *n = 0;
    if (ws_store_prepare(st, sql, &s, err))
        return err->code;
    for (;;) {
        int k = sqlite3_step(s);
        if (k == SQLITE_DONE)
            break;
        if (k != SQLITE_ROW) {
            rc = ws_store_fail(st, err, "listing runs");
            break;
        }
        if (*n == cap) {
            cap = cap ? 2 * cap : 16;
            ws_run_row *g = realloc(*rows, (size_t)cap * sizeof *g);
            if (!g) {
                rc = ws_error_set(err, WS_ERR_NOMEM, "out of memory listing runs");
                break;
            }
            *rows = g;
        }
        fill_run_row(s, &(*rows)[(*n)++]);
    }
    sqlite3_finalize(s);
    if (rc) {
        free(*rows);
        *rows = NULL;
        *n = 0;
    }
    return rc;
}

int ws_store_latest_run(ws_store *st, const char *workload, const char *variant,
                        const char *source_prefix, int64_t *run_id, ws_error *err)
{
    static const char sql[] =
        "SELECT id FROM runs WHERE (?1 IS NULL OR workload = ?1) AND (?2 IS NULL OR variant = ?2)"
        " AND (?3 IS NULL OR substr(source, 1, length(?3)) = ?3) ORDER BY id DESC LIMIT 1";
    sqlite3_stmt *s;
    if (ws_store_prepare(st, sql, &s, err))
        return err->code;
    ws_store_bind_text(s, 1, workload);
    ws_store_bind_text(s, 2, variant);
    ws_store_bind_text(s, 3, source_prefix);
    int k = sqlite3_step(s);
    int rc = WS_OK;
    if (k == SQLITE_ROW)
        *run_id = sqlite3_column_int64(s, 0);
    else if (k == SQLITE_DONE)
        rc = ws_error_set(err, WS_ERR_NOTFOUND, "no %s run of %s%s%s in %s",
                          source_prefix ? source_prefix : "", workload ? workload : "any workload",
                          variant ? " variant " : "", variant ? variant : "", st->path);
    else
        rc = ws_store_fail(st, err, "finding the latest run");
    sqlite3_finalize(s);
    return rc;
}
