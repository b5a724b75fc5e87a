/* test_store.c — the results database on its own: schema version and migration from an
 * empty file, exact round-trip of a fully populated ws_result, rollback of a failing save,
 * clear errors for files that are not warpscope databases and for missing runs, listing.
 * Crashes and concurrency are in test_store_crash.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sqlite3.h>

#include "store/store.h"
#include "store/store_internal.h" /* ws_store_migrate_text: a future migration on a v1 file */
#include "tests/check.h"

#define DIR WS_BINARY_DIR "/tests/store-tmp"

static void remove_db(const char *path)
{
    char p[600];
    unlink(path);
    snprintf(p, sizeof p, "%s-wal", path);
    unlink(p);
    snprintf(p, sizeof p, "%s-shm", path);
    unlink(p);
}

static void fresh_path(char *buf, size_t n, const char *name)
{
    snprintf(buf, n, DIR "/%s", name);
    remove_db(buf);
}

/* How many migrations schema.sql declares, counted here independently of the store. */
static int count_migrations(void)
{
    FILE *f = fopen(WS_SOURCE_DIR "/store/schema.sql", "r");
    char line[512];
    int n = 0;
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "-- @migration ", 14) == 0)
            n++;
    fclose(f);
    return n;
}

/* Runs a one-integer query straight through SQLite, bypassing the store. */
static long long sql_int(const char *path, const char *sql)
{
    sqlite3 *db;
    sqlite3_stmt *s;
    long long v = -1;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(db, sql, -1, &s, NULL) == SQLITE_OK) {
        if (sqlite3_step(s) == SQLITE_ROW)
            v = sqlite3_column_int64(s, 0);
        sqlite3_finalize(s);
    }
    sqlite3_close(db);
    return v;
}

/* A result with every field and every array populated, values chosen to be distinct. */
static void build_result(ws_result *r, const char *tag)
{
    ws_result_init(r);
    snprintf(r->source, sizeof r->source, "sim:ipdom");
    snprintf(r->workload, sizeof r->workload, "wl_%s", tag);
    snprintf(r->variant, sizeof r->variant, "after");
    snprintf(r->kernel, sizeof r->kernel, "kernelEnhanced");
    r->grid[0] = 64; r->grid[1] = 2; r->grid[2] = 3;
    r->block[0] = 128; r->block[1] = 1; r->block[2] = 5;
    r->smem_dynamic = 4096;
    snprintf(r->params, sizeof r->params, "LOOP=100 DPT=16 it's \"quoted\"; DROP TABLE runs;--");
    r->seed = 0xfedcba9876543210ull;  /* above INT64_MAX: must survive the signed column */
    snprintf(r->device_json, sizeof r->device_json, "{\"model\":\"ipdom\",\"preset\":\"h100\"}");
    r->outputs_checked = 1;
    r->outputs_match = 0;
    snprintf(r->check_message, sizeof r->check_message, "out[17]: 3 != 4");
    ws_result_set_metric(r, "smsp__inst_executed.sum", 123456789.0);
    ws_result_set_metric(r, "smsp__thread_inst_executed_per_inst_executed.ratio", 25.6);
    ws_result_set_metric(r, "sim__time_ns", 1.0 / 3.0);
    ws_result_set_metric(r, "sim__nan_metric", NAN);
    ws_result_add_file(r, "/src/a.cu", "int main() {}\n// ünïcode line\n");
    ws_result_add_file(r, "/src/b.cuh", NULL);
    for (int i = 0; i < 50; i++) {
        ws_inst_stat *in = ws_result_add_inst(r);
        snprintf(in->function, sizeof in->function, "%s", i < 30 ? "_Z6kernelPi" : "_Z3fooi");
        in->pc = i;
        in->ptx_line = 100 + i;
        in->file = i % 3 == 0 ? -1 : i % 2;
        in->line = in->file < 0 ? 0 : 10 + i / 4;
        in->block = i % 5 == 0 ? -1 : i / 7;
        snprintf(in->text, sizeof in->text, "op.%d", i);
        in->issued = 1000 + (uint64_t)i;
        in->active_threads = (1000 + (uint64_t)i) * 17;
        in->pred_on_threads = (1000 + (uint64_t)i) * 11;
        in->branch_targets = (uint64_t)i % 3;
        in->divergent_branches = (uint64_t)i % 2;
    }
    {
        ws_inst_stat *in = ws_result_add_inst(r);
        snprintf(in->function, sizeof in->function, "_Z6kernelPi");
        in->pc = 9999;
        in->issued = 1ull << 40;
        in->active_threads = 1ull << 45;
    }
    for (int i = 0; i < 4; i++) {
        ws_block_info *b = ws_result_add_block(r);
        snprintf(b->function, sizeof b->function, "_Z6kernelPi");
        b->id = i;
        b->first_pc = i * 10;
        b->last_pc = i * 10 + 9;
        b->nsucc = i == 3 ? 0 : (i == 0 ? 2 : 1);
        b->succ[0] = b->nsucc > 0 ? i + 1 : -1;
        b->succ[1] = b->nsucc > 1 ? 2 : -1;
        b->ipdom = i == 3 ? -1 : 3;
    }
    r->nregions = 2;
    r->cap_regions = 2;
    r->regions = calloc(2, sizeof *r->regions);
    snprintf(r->regions[0].name, sizeof r->regions[0].name, "branch");
    r->regions[0].first_line = 12; r->regions[0].last_line = 20;
    r->regions[0].issued = 777; r->regions[0].active_threads = 9999;
    r->regions[0].pred_on_threads = 8888; r->regions[0].branch_targets = 55;
    r->regions[0].divergent_branches = 44; r->regions[0].execution_rate = 9999.0 / (32 * 777);
    snprintf(r->regions[1].name, sizeof r->regions[1].name, "empty");
    r->regions[1].execution_rate = NAN;
    for (int i = 0; i < 2; i++) {
        ws_atomic_stat *a = ws_result_add_atomic(r);
        snprintf(a->function, sizeof a->function, "_Z6kernelPi");
        a->pc = 40 + i;
        a->line = 33;
        snprintf(a->text, sizeof a->text, "atom.global.add.u32");
        a->warp_execs = 500 + (uint64_t)i;
        a->lanes = 16000;
        a->distinct_hist[1] = 400;
        a->distinct_hist[32] = 100 + (uint64_t)i;
        a->distinct_hist[0] = (uint64_t)i;
    }
    for (int i = 0; i < 3; i++) {
        ws_timeline *t = ws_result_add_timeline(r);
        snprintf(t->function, sizeof t->function, "_Z6kernelPi");
        t->cta = 7u + (uint32_t)i;
        t->warp = i;
        t->nslots = i == 2 ? 0 : 1000 * (i + 1);
        t->truncated = i == 1;
        t->slots = calloc((size_t)t->nslots + 1, sizeof *t->slots);
        for (int k = 0; k < t->nslots; k++) {
            t->slots[k].pc = k % 3 == 0 ? -1 : k;
            t->slots[k].active = 0xffffffffu >> (k % 32);
            t->slots[k].pred_on = 0x80000001u & t->slots[k].active;
        }
    }
    ws_result_add_warning(r, "race on shared[%d] between pc %d and pc %d", 4, 10, 12);
    ws_result_add_warning(r, "second warning, with 'quotes'");
}

static int same_double(double a, double b)
{
    return (isnan(a) && isnan(b)) || a == b;
}

static void check_header_equal(const ws_result *a, const ws_result *b)
{
    CHECK(!strcmp(a->source, b->source), "source %s", b->source);
    CHECK(!strcmp(a->workload, b->workload), "workload %s", b->workload);
    CHECK(!strcmp(a->variant, b->variant), "variant %s", b->variant);
    CHECK(!strcmp(a->kernel, b->kernel), "kernel %s", b->kernel);
    CHECK(!memcmp(a->grid, b->grid, sizeof a->grid), "grid");
    CHECK(!memcmp(a->block, b->block, sizeof a->block), "block");
    CHECK(a->smem_dynamic == b->smem_dynamic, "smem %u", b->smem_dynamic);
    CHECK(!strcmp(a->params, b->params), "params %s", b->params);
    CHECK(a->seed == b->seed, "seed %llx", (unsigned long long)b->seed);
    CHECK(!strcmp(a->device_json, b->device_json), "device_json %s", b->device_json);
    CHECK(a->outputs_checked == b->outputs_checked && a->outputs_match == b->outputs_match,
          "outputs %d %d", b->outputs_checked, b->outputs_match);
    CHECK(!strcmp(a->check_message, b->check_message), "check_message %s", b->check_message);
}

static void check_arrays_equal(const ws_result *a, const ws_result *b)
{
    CHECK(a->nmetrics == b->nmetrics, "nmetrics %d", b->nmetrics);
    for (int i = 0; i < a->nmetrics && i < b->nmetrics; i++)
        CHECK(!strcmp(a->metrics[i].name, b->metrics[i].name) &&
              same_double(a->metrics[i].value, b->metrics[i].value), "metric %d %s=%.17g", i,
              b->metrics[i].name, b->metrics[i].value);
    CHECK(a->nfiles == b->nfiles, "nfiles %d", b->nfiles);
    for (int i = 0; i < a->nfiles && i < b->nfiles; i++) {
        CHECK(!strcmp(a->files[i].path, b->files[i].path), "file %d path", i);
        CHECK((!a->files[i].text && !b->files[i].text) ||
              (a->files[i].text && b->files[i].text && !strcmp(a->files[i].text, b->files[i].text)),
              "file %d text", i);
    }
    CHECK(a->ninsts == b->ninsts, "ninsts %d", b->ninsts);
    for (int i = 0; i < a->ninsts && i < b->ninsts; i++)
        CHECK(!memcmp(&a->insts[i], &b->insts[i], sizeof a->insts[i]) ||
              (!strcmp(a->insts[i].function, b->insts[i].function) &&
               !strcmp(a->insts[i].text, b->insts[i].text) && a->insts[i].pc == b->insts[i].pc &&
               a->insts[i].ptx_line == b->insts[i].ptx_line && a->insts[i].file == b->insts[i].file &&
               a->insts[i].line == b->insts[i].line && a->insts[i].block == b->insts[i].block &&
               a->insts[i].issued == b->insts[i].issued &&
               a->insts[i].active_threads == b->insts[i].active_threads &&
               a->insts[i].pred_on_threads == b->insts[i].pred_on_threads &&
               a->insts[i].branch_targets == b->insts[i].branch_targets &&
               a->insts[i].divergent_branches == b->insts[i].divergent_branches),
              "instruction %d", i);
    CHECK(a->nblocks == b->nblocks, "nblocks %d", b->nblocks);
    for (int i = 0; i < a->nblocks && i < b->nblocks; i++)
        CHECK(!strcmp(a->blocks[i].function, b->blocks[i].function) &&
              a->blocks[i].id == b->blocks[i].id && a->blocks[i].first_pc == b->blocks[i].first_pc &&
              a->blocks[i].last_pc == b->blocks[i].last_pc && a->blocks[i].nsucc == b->blocks[i].nsucc &&
              a->blocks[i].succ[0] == b->blocks[i].succ[0] &&
              a->blocks[i].succ[1] == b->blocks[i].succ[1] && a->blocks[i].ipdom == b->blocks[i].ipdom,
              "block %d", i);
    CHECK(a->nregions == b->nregions, "nregions %d", b->nregions);
    for (int i = 0; i < a->nregions && i < b->nregions; i++) {
        const ws_region_stat *x = &a->regions[i], *y = &b->regions[i];
        CHECK(!strcmp(x->name, y->name) && x->first_line == y->first_line &&
              x->last_line == y->last_line && x->issued == y->issued &&
              x->active_threads == y->active_threads && x->pred_on_threads == y->pred_on_threads &&
              x->branch_targets == y->branch_targets &&
              x->divergent_branches == y->divergent_branches &&
              same_double(x->execution_rate, y->execution_rate), "region %d", i);
    }
    CHECK(a->natomics == b->natomics, "natomics %d", b->natomics);
    for (int i = 0; i < a->natomics && i < b->natomics; i++)
        CHECK(!memcmp(&a->atomics[i], &b->atomics[i], sizeof a->atomics[i]), "atomic %d", i);
    CHECK(a->ntimelines == b->ntimelines, "ntimelines %d", b->ntimelines);
    for (int i = 0; i < a->ntimelines && i < b->ntimelines; i++) {
        const ws_timeline *x = &a->timelines[i], *y = &b->timelines[i];
        CHECK(!strcmp(x->function, y->function) && x->cta == y->cta && x->warp == y->warp &&
              x->nslots == y->nslots && x->truncated == y->truncated, "timeline %d", i);
        CHECK(x->nslots == y->nslots &&
              !memcmp(x->slots, y->slots, (size_t)x->nslots * sizeof *x->slots),
              "timeline %d slots", i);
    }
    CHECK(a->nwarnings == b->nwarnings, "nwarnings %d", b->nwarnings);
    for (int i = 0; i < a->nwarnings && i < b->nwarnings; i++)
        CHECK(!strcmp(a->warnings[i], b->warnings[i]), "warning %d: %s", i, b->warnings[i]);
}

static void test_fresh_schema(void)
{
    char path[512];
    ws_store *st;
    ws_error err;
    fresh_path(path, sizeof path, "fresh.db");
    int want = count_migrations();
    CHECK(want >= 1, "schema.sql declares %d migrations", want);
    CHECK(ws_store_open(path, &st, &err) == WS_OK, "open fresh: %s", err.msg);
    if (!st)
        return;
    CHECK(ws_store_schema_version(st) == want, "version %d, want %d", ws_store_schema_version(st),
          want);
    ws_store_close(st);
    CHECK(sql_int(path, "PRAGMA user_version") == want, "user_version on disk");
    CHECK(sql_int(path, "SELECT count(*) FROM schema_migrations") == want, "migrations recorded");
    CHECK(sql_int(path, "SELECT count(*) FROM sqlite_master WHERE type='view' AND name IN "
                        "('line_stats','kernel_summary')") == 2, "views exist");
    CHECK(sql_int(path, "SELECT count(*) FROM sqlite_master WHERE type='table' AND name IN ('runs',"
                        "'metrics','instructions','source_files','basic_blocks','regions','atomics',"
                        "'atomic_distinct_hist','timelines','warnings')") == 10, "tables exist");
    /* opening again must not migrate again */
    CHECK(ws_store_open(path, &st, &err) == WS_OK, "reopen: %s", err.msg);
    ws_store_close(st);
    CHECK(sql_int(path, "SELECT count(*) FROM schema_migrations") == want, "migrated once");
    CHECK(sql_int(path, "SELECT journal_mode = 'wal' FROM pragma_journal_mode") == 1, "WAL mode");
}

static void test_round_trip(void)
{
    char path[512];
    ws_store *st;
    ws_error err;
    ws_result a, b;
    int64_t id = -1, id2 = -1;
    fresh_path(path, sizeof path, "roundtrip.db");
    CHECK(ws_store_open(path, &st, &err) == WS_OK, "open: %s", err.msg);
    if (!st)
        return;
    build_result(&a, "rt");
    CHECK(ws_store_save_result(st, &a, &id, &err) == WS_OK, "save: %s", err.msg);
    CHECK(ws_store_save_result(st, &a, &id2, &err) == WS_OK && id2 == id + 1, "second save %lld",
          (long long)id2);
    ws_result_init(&b);
    CHECK(ws_store_load_result(st, id, &b, &err) == WS_OK, "load: %s", err.msg);
    check_header_equal(&a, &b);
    check_arrays_equal(&a, &b);
    ws_result_free(&b);
    /* SQL injection text stayed data */
    CHECK(sql_int(path, "SELECT count(*) FROM runs") == 2, "runs table intact");
    /* the views agree with the instructions we wrote */
    CHECK(sql_int(path, "SELECT count(*) FROM line_stats WHERE run_id = 1") > 0, "line_stats rows");
    long long issued_a = 0;
    for (int i = 0; i < a.ninsts; i++)
        if (a.insts[i].file == 0 && a.insts[i].line == 12)
            issued_a += (long long)a.insts[i].issued;
    CHECK(sql_int(path, "SELECT issued FROM line_stats WHERE run_id = 1 AND file = '/src/a.cu'"
                        " AND line = 12") == issued_a, "line_stats issued for a.cu:12 = %lld",
          issued_a);
    ws_run_row *rows = NULL;
    int n = 0;
    CHECK(ws_store_list_runs(st, &rows, &n, &err) == WS_OK && n == 2, "list: %d", n);
    if (n == 2) {
        CHECK(rows[0].id == id && rows[1].id == id2, "ids");
        CHECK(fabs(rows[0].execution_rate - 25.6 / 32) < 1e-12, "rate %g", rows[0].execution_rate);
        CHECK(rows[0].time_ns == 1.0 / 3.0, "time %g", rows[0].time_ns);
        CHECK(rows[0].outputs_match == 0, "outputs %d", rows[0].outputs_match);
        CHECK(strlen(rows[0].created) == 20 && rows[0].created[10] == 'T', "created %s",
              rows[0].created);
        CHECK(!strcmp(rows[0].workload, "wl_rt") && rows[0].grid[2] == 3 && rows[0].block[0] == 128,
              "row fields");
    }
    free(rows);
    ws_run_row one;
    CHECK(ws_store_get_run(st, id, &one, &err) == WS_OK, "get_run: %s", err.msg);
    CHECK(one.id == id && !strcmp(one.tool_version, ws_version()) &&
          !strcmp(one.git_revision, ws_git_revision()) &&
          !strcmp(one.check_message, a.check_message) && !strcmp(one.params, a.params),
          "get_run fields: %s %s %s", one.tool_version, one.git_revision, one.check_message);
    CHECK(ws_store_get_run(st, 99, &one, &err) == WS_ERR_NOTFOUND &&
          strstr(err.msg, "no run 99 in ") && strstr(err.msg, "(runs: 1-2)"), "get_run 99: %s",
          err.msg);
    int64_t latest = 0;
    CHECK(ws_store_latest_run(st, "wl_rt", "after", "sim", &latest, &err) == WS_OK &&
          latest == id2, "latest %lld", (long long)latest);
    CHECK(ws_store_latest_run(st, "wl_rt", "after", "gpu", &latest, &err) == WS_ERR_NOTFOUND,
          "no gpu run");
    CHECK(strstr(err.msg, "no gpu run of wl_rt variant after") != NULL, "msg: %s", err.msg);
    ws_result_free(&a);
    ws_store_close(st);
}

static void test_not_found(void)
{
    char path[512];
    ws_store *st;
    ws_error err;
    ws_result r;
    fresh_path(path, sizeof path, "notfound.db");
    CHECK(ws_store_open(path, &st, &err) == WS_OK, "open: %s", err.msg);
    if (!st)
        return;
    ws_result_init(&r);
    CHECK(ws_store_load_result(st, 42, &r, &err) == WS_ERR_NOTFOUND, "empty db");
    CHECK(strstr(err.msg, "no run 42 in ") && strstr(err.msg, "(it holds no runs yet)"), "msg: %s",
          err.msg);
    ws_result a;
    build_result(&a, "nf");
    for (int i = 0; i < 3; i++)
        ws_store_save_result(st, &a, NULL, &err);
    ws_result_free(&a);
    CHECK(ws_store_load_result(st, 42, &r, &err) == WS_ERR_NOTFOUND, "absent");
    char want[600];
    snprintf(want, sizeof want, "no run 42 in %s (runs: 1-3)", path);
    CHECK(!strcmp(err.msg, want), "msg: %s", err.msg);
    ws_result_free(&r);
    ws_store_close(st);
}

static void test_not_a_database(void)
{
    char path[512];
    ws_store *st = (ws_store *)1;
    ws_error err;
    fresh_path(path, sizeof path, "text.db");
    FILE *f = fopen(path, "w");
    fputs("this is a text file, not a database\n", f);
    for (int i = 0; i < 100; i++)
        fputs("padding padding padding padding padding padding padding padding\n", f);
    fclose(f);
    CHECK(ws_store_open(path, &st, &err) == WS_ERR_DB && st == NULL, "text file refused");
    CHECK(strstr(err.msg, "is not a warpscope database (file is not a database)") != NULL,
          "msg: %s", err.msg);
    CHECK(strstr(err.msg, path) != NULL, "msg names the file: %s", err.msg);

    /* another program's SQLite database */
    fresh_path(path, sizeof path, "foreign.db");
    sqlite3 *db;
    sqlite3_open(path, &db);
    sqlite3_exec(db, "CREATE TABLE customers(id, name)", NULL, NULL, NULL);
    sqlite3_close(db);
    CHECK(ws_store_open(path, &st, &err) == WS_ERR_DB, "foreign db refused");
    CHECK(strstr(err.msg, "is an SQLite database but not a warpscope one") != NULL, "msg: %s",
          err.msg);
    CHECK(sql_int(path, "SELECT count(*) FROM sqlite_master WHERE name = 'runs'") == 0,
          "foreign db left without our tables");
    CHECK(sql_int(path, "SELECT journal_mode = 'delete' FROM pragma_journal_mode") == 1,
          "foreign db left in its journal mode");

    /* a newer schema than this build knows */
    fresh_path(path, sizeof path, "newer.db");
    CHECK(ws_store_open(path, &st, &err) == WS_OK, "open: %s", err.msg);
    ws_store_close(st);
    sqlite3_open(path, &db);
    sqlite3_exec(db, "PRAGMA user_version = 999", NULL, NULL, NULL);
    sqlite3_close(db);
    CHECK(ws_store_open(path, &st, &err) == WS_ERR_DB, "newer refused");
    CHECK(strstr(err.msg, "has schema version 999, newer than this warpscope knows") != NULL,
          "msg: %s", err.msg);

    CHECK(ws_store_open(DIR "/no/such/dir/x.db", &st, &err) == WS_ERR_DB, "bad dir");
    CHECK(strstr(err.msg, "cannot open database " DIR "/no/such/dir/x.db") != NULL, "msg: %s",
          err.msg);
}

static void test_rollback(void)
{
    char path[512];
    ws_store *st;
    ws_error err;
    ws_result a;
    fresh_path(path, sizeof path, "rollback.db");
    CHECK(ws_store_open(path, &st, &err) == WS_OK, "open: %s", err.msg);
    if (!st)
        return;
    build_result(&a, "rb");
    CHECK(ws_store_save_result(st, &a, NULL, &err) == WS_OK, "first save: %s", err.msg);
    /* a duplicate metric name violates UNIQUE(run_id, name) after the run row and the
     * other metrics were written; the whole run must vanish */
    memcpy(a.metrics[a.nmetrics - 1].name, a.metrics[0].name, sizeof a.metrics[0].name);
    CHECK(ws_store_save_result(st, &a, NULL, &err) == WS_ERR_DB, "duplicate metric fails");
    CHECK(strstr(err.msg, "UNIQUE constraint failed: metrics.run_id, metrics.name") != NULL,
          "msg: %s", err.msg);
    /* a bad file index fails late, after instructions started */
    snprintf(a.metrics[a.nmetrics - 1].name, sizeof a.metrics[0].name, "sim__fixed");
    a.insts[a.ninsts - 1].file = 7;
    CHECK(ws_store_save_result(st, &a, NULL, &err) == WS_ERR_DB, "bad file index fails");
    CHECK(strstr(err.msg, "names file 7 of 2") != NULL, "msg: %s", err.msg);
    ws_store_close(st);
    CHECK(sql_int(path, "SELECT count(*) FROM runs") == 1, "only the good run");
    static const char *const tables[] = {"metrics", "instructions", "source_files",
                                         "basic_blocks", "regions", "atomics", "timelines",
                                         "warnings"};
    for (size_t i = 0; i < sizeof tables / sizeof *tables; i++) {
        char sql[160];
        snprintf(sql, sizeof sql, "SELECT count(*) FROM %s WHERE run_id <> 1", tables[i]);
        CHECK(sql_int(path, sql) == 0, "no rows of a failed run in %s", tables[i]);
    }
    /* and the store still works afterwards */
    a.insts[a.ninsts - 1].file = 1;
    CHECK(ws_store_open(path, &st, &err) == WS_OK, "reopen: %s", err.msg);
    int64_t id = 0;
    CHECK(ws_store_save_result(st, &a, &id, &err) == WS_OK && id >= 2, "save after failures: %s",
          err.msg);
    ws_store_close(st);
    ws_result_free(&a);
}

/* schema.sql plus `extra` sections, as a later version of warpscope would carry it. */
static char *schema_plus(const char *extra)
{
    FILE *f = fopen(WS_SOURCE_DIR "/store/schema.sql", "r");
    char *text = calloc(1, 1 << 20);
    size_t n = f ? fread(text, 1, (1 << 20) - 4096, f) : 0;
    if (f)
        fclose(f);
    snprintf(text + n, 4096, "%s", extra);
    return text;
}

/* The documented way to delete a run removes every row of it, and only of it. */
static void test_delete_cascades(void)
{
    char path[512];
    ws_store *st;
    ws_error err;
    ws_result a;
    fresh_path(path, sizeof path, "delete.db");
    CHECK(ws_store_open(path, &st, &err) == WS_OK, "open: %s", err.msg);
    if (!st)
        return;
    build_result(&a, "del");
    ws_store_save_result(st, &a, NULL, &err);
    ws_store_save_result(st, &a, NULL, &err);
    ws_store_close(st);
    ws_result_free(&a);
    sqlite3 *db;
    sqlite3_open(path, &db);
    CHECK(sqlite3_exec(db, "PRAGMA foreign_keys=ON; DELETE FROM runs WHERE id = 1", NULL, NULL,
                       NULL) == SQLITE_OK, "delete: %s", sqlite3_errmsg(db));
    sqlite3_close(db);
    static const char *const tables[] = {"metrics", "instructions", "source_files",
                                         "basic_blocks", "regions", "atomics", "timelines",
                                         "warnings"};
    for (size_t i = 0; i < sizeof tables / sizeof *tables; i++) {
        char sql[160];
        snprintf(sql, sizeof sql, "SELECT count(*) FROM %s WHERE run_id = 1", tables[i]);
        CHECK(sql_int(path, sql) == 0, "run 1 gone from %s", tables[i]);
        snprintf(sql, sizeof sql, "SELECT count(*) > 0 FROM %s WHERE run_id = 2", tables[i]);
        CHECK(sql_int(path, sql) == 1, "run 2 kept in %s", tables[i]);
    }
    CHECK(sql_int(path, "SELECT count(*) FROM atomic_distinct_hist WHERE atomic_id NOT IN "
                        "(SELECT id FROM atomics)") == 0, "histograms cascade");
    CHECK(sql_int(path, "SELECT count(*) FROM atomic_distinct_hist") > 0, "run 2's histograms");
}

static void test_future_migration(void)
{
    char path[512];
    ws_store *st;
    ws_error err;
    ws_result a, b;
    int64_t id = 0;
    int v1 = count_migrations();
    fresh_path(path, sizeof path, "migrate.db");
    CHECK(ws_store_open(path, &st, &err) == WS_OK, "open: %s", err.msg);
    if (!st)
        return;
    build_result(&a, "mig");
    CHECK(ws_store_save_result(st, &a, &id, &err) == WS_OK, "save: %s", err.msg);
    char extra[256];
    snprintf(extra, sizeof extra, "\n-- @migration %d\nALTER TABLE runs ADD COLUMN note TEXT "
             "NOT NULL DEFAULT 'n/a';\nCREATE TABLE extra (x);\n", v1 + 1);
    char *next = schema_plus(extra);
    CHECK(ws_store_migrate_text(st, next, &err) == WS_OK, "migrate to %d: %s", v1 + 1, err.msg);
    CHECK(ws_store_schema_version(st) == v1 + 1, "version %d", ws_store_schema_version(st));
    CHECK(sql_int(path, "SELECT count(*) FROM runs WHERE note = 'n/a'") == 1, "old run kept");
    ws_result_init(&b);
    CHECK(ws_store_load_result(st, id, &b, &err) == WS_OK && b.ninsts == a.ninsts,
          "load after migration: %s", err.msg);
    ws_result_free(&b);
    /* a failing migration rolls back whole: version and tables stay */
    snprintf(extra, sizeof extra, "\n-- @migration %d\nCREATE TABLE extra2 (y);\n"
             "CREATE TABLE extra (x);\n", v1 + 2);
    char both[512]; /* the section already applied (skipped now), then the failing one */
    snprintf(both, sizeof both, "\n-- @migration %d\nSELECT 1;\n%s", v1 + 1, extra);
    char *bad = schema_plus(both);
    CHECK(ws_store_migrate_text(st, bad, &err) == WS_ERR_DB, "failing migration");
    char want[64];
    snprintf(want, sizeof want, "applying schema migration %d", v1 + 2);
    CHECK(strstr(err.msg, want) && strstr(err.msg, "table extra already exists"), "msg: %s",
          err.msg);
    CHECK(ws_store_schema_version(st) == v1 + 1, "version stays %d", ws_store_schema_version(st));
    CHECK(sql_int(path, "SELECT count(*) FROM sqlite_master WHERE name = 'extra2'") == 0,
          "half a migration left nothing");
    ws_store_close(st);
    /* this build's schema is older than the file's now */
    CHECK(ws_store_open(path, &st, &err) == WS_ERR_DB && strstr(err.msg, "newer than this"),
          "older build refuses: %s", err.msg);
    free(next);
    free(bad);
    ws_result_free(&a);
}

int main(void)
{
    if (system("mkdir -p " DIR) != 0)
        return 1;
    test_fresh_schema();
    test_round_trip();
    test_not_found();
    test_not_a_database();
    test_rollback();
    test_future_migration();
    test_delete_cascades();
    return ws_test_finish("store");
}
