/* test_store_process.c — the results database under real processes: a writer killed with
 * SIGKILL in the middle of a large run leaves a valid database without a partial run; two
 * concurrent writers both land all their runs; the sqlite3 shell can read the views. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <sqlite3.h>

#include "store/store.h"
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

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static long long sql_int(const char *path, const char *sql)
{
    sqlite3 *db;
    sqlite3_stmt *s;
    long long v = -1;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(db, sql, -1, &s, NULL) == SQLITE_OK) {
        if (sqlite3_step(s) == SQLITE_ROW)
            v = sqlite3_column_int64(s, 0);
        sqlite3_finalize(s);
    }
    sqlite3_close(db);
    return v;
}

static int integrity_ok(const char *path)
{
    sqlite3 *db;
    sqlite3_stmt *s;
    int ok = 0;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &s, NULL) == SQLITE_OK) {
        ok = sqlite3_step(s) == SQLITE_ROW && !strcmp((const char *)sqlite3_column_text(s, 0), "ok");
        sqlite3_finalize(s);
    }
    sqlite3_close(db);
    return ok;
}

/* A run with `ninsts` instructions on one source file and `ntimelines` timelines that all
 * share one slot array of `nslots` (the caller must not free the result normally). */
static void build_run(ws_result *r, const char *workload, int ninsts, int ntimelines,
                      ws_timeline_slot *shared_slots, int nslots)
{
    ws_result_init(r);
    snprintf(r->source, sizeof r->source, "sim:ipdom");
    snprintf(r->workload, sizeof r->workload, "%s", workload);
    snprintf(r->variant, sizeof r->variant, "before");
    snprintf(r->kernel, sizeof r->kernel, "kernel");
    r->grid[0] = r->grid[1] = r->grid[2] = 1;
    r->block[0] = 32; r->block[1] = r->block[2] = 1;
    ws_result_set_metric(r, "smsp__thread_inst_executed_per_inst_executed.ratio", 16.0);
    ws_result_add_file(r, "k.cu", "__global__ void kernel() {}\n");
    for (int i = 0; i < ninsts; i++) {
        ws_inst_stat *in = ws_result_add_inst(r);
        snprintf(in->function, sizeof in->function, "kernel");
        snprintf(in->text, sizeof in->text, "add.s32");
        in->pc = i;
        in->file = 0;
        in->line = 1 + i % 40;
        in->issued = 10;
        in->active_threads = 160;
        in->pred_on_threads = 160;
    }
    for (int i = 0; i < ntimelines; i++) {
        ws_timeline *t = ws_result_add_timeline(r);
        snprintf(t->function, sizeof t->function, "kernel");
        t->cta = (uint32_t)i;
        t->nslots = nslots;
        t->slots = shared_slots;
    }
}

/* Child: saves one huge run; never returns. */
static void big_writer(const char *path)
{
    ws_store *st;
    ws_error err;
    int nslots = 1 << 20;
    ws_timeline_slot *slots = calloc((size_t)nslots, sizeof *slots);
    for (int i = 0; i < nslots; i++) {
        slots[i].pc = i;
        slots[i].active = 0xffffffffu ^ (uint32_t)i;
    }
    ws_result r;
    build_run(&r, "huge", 200000, 400, slots, nslots);
    if (ws_store_open(path, &st, &err))
        _exit(3);
    ws_store_save_result(st, &r, NULL, &err);
    _exit(0); /* finishing at all means the test was too slow to kill it midway */
}

static long long file_size(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? (long long)sb.st_size : -1;
}

static void save_small_runs(const char *path, const char *workload, int n, int64_t *ids)
{
    ws_store *st;
    ws_error err;
    CHECK(ws_store_open(path, &st, &err) == WS_OK, "open: %s", err.msg);
    if (!st)
        return;
    for (int i = 0; i < n; i++) {
        ws_result r;
        build_run(&r, workload, 100 + i, 0, NULL, 0);
        CHECK(ws_store_save_result(st, &r, &ids[i], &err) == WS_OK, "save: %s", err.msg);
        ws_result_free(&r);
    }
    ws_store_close(st);
}

static void test_killed_writer(void)
{
    char path[512], wal[600];
    int64_t ids[3];
    snprintf(path, sizeof path, DIR "/killed.db");
    snprintf(wal, sizeof wal, "%s-wal", path);
    remove_db(path);
    save_small_runs(path, "early", 3, ids);
    long long wal_before = file_size(wal);

    pid_t pid = fork();
    if (pid == 0)
        big_writer(path);
    /* wait until the big transaction is well under way (its pages spill into the WAL) */
    long long grown = 0;
    for (int i = 0; i < 3000; i++) {
        grown = file_size(wal);
        if (grown > wal_before + (16ll << 20))
            break;
        sleep_ms(10);
    }
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
          "writer was killed midway (status %d, WAL grew to %lld bytes)", status, grown);
    CHECK(grown > wal_before + (16ll << 20), "WAL grew while writing: %lld", grown);

    ws_store *st;
    ws_error err;
    CHECK(ws_store_open(path, &st, &err) == WS_OK, "open after kill: %s", err.msg);
    CHECK(integrity_ok(path), "integrity_check ok after kill");
    CHECK(sql_int(path, "SELECT count(*) FROM runs") == 3, "no partial run");
    CHECK(sql_int(path, "SELECT count(*) FROM runs WHERE workload = 'huge'") == 0, "huge absent");
    CHECK(sql_int(path, "SELECT count(*) FROM instructions WHERE run_id > 3") == 0, "no orphans");
    CHECK(sql_int(path, "SELECT count(*) FROM timelines") == 0, "no orphan timelines");
    CHECK(sql_int(path, "SELECT count(*) FROM pragma_foreign_key_check") == 0, "foreign keys ok");
    for (int i = 0; st && i < 3; i++) {
        ws_result r;
        ws_result_init(&r);
        CHECK(ws_store_load_result(st, ids[i], &r, &err) == WS_OK && r.ninsts == 100 + i,
              "early run %d intact (%d instructions)", i, r.ninsts);
        ws_result_free(&r);
    }
    /* and writing goes on */
    int64_t next = 0;
    ws_result r;
    build_run(&r, "after-kill", 10, 0, NULL, 0);
    CHECK(st && ws_store_save_result(st, &r, &next, &err) == WS_OK && next > ids[2],
          "save after kill: %lld", (long long)next);
    ws_result_free(&r);
    ws_store_close(st);
}

/* Child: saves `n` runs of its own workload; exit status = failures. */
static void small_writer(const char *path, const char *workload, int n)
{
    ws_store *st;
    ws_error err;
    int failures = 0;
    if (ws_store_open(path, &st, &err)) {
        fprintf(stderr, "%s: open: %s\n", workload, err.msg);
        _exit(100);
    }
    for (int i = 0; i < n; i++) {
        ws_result r;
        build_run(&r, workload, 3000, 0, NULL, 0);
        if (ws_store_save_result(st, &r, NULL, &err)) {
            fprintf(stderr, "%s: save %d: %s\n", workload, i, err.msg);
            failures++;
        }
        ws_result_free(&r);
    }
    ws_store_close(st);
    _exit(failures);
}

static void test_concurrent_writers(void)
{
    char path[512];
    snprintf(path, sizeof path, DIR "/concurrent.db");
    remove_db(path); /* both children create and migrate the fresh file at once */
    pid_t pids[2];
    const char *names[2] = {"writer_a", "writer_b"};
    for (int k = 0; k < 2; k++) {
        pids[k] = fork();
        if (pids[k] == 0)
            small_writer(path, names[k], 20);
    }
    for (int k = 0; k < 2; k++) {
        int status = 0;
        waitpid(pids[k], &status, 0);
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s exit status %d", names[k],
              status);
    }
    CHECK(sql_int(path, "SELECT count(*) FROM runs WHERE workload = 'writer_a'") == 20, "a landed");
    CHECK(sql_int(path, "SELECT count(*) FROM runs WHERE workload = 'writer_b'") == 20, "b landed");
    CHECK(sql_int(path, "SELECT count(*) FROM instructions") == 40 * 3000, "all instructions");
    CHECK(sql_int(path, "SELECT count(*) FROM schema_migrations") ==
          sql_int(path, "PRAGMA user_version"), "migrated exactly once");
    CHECK(integrity_ok(path), "integrity_check ok");
}

static int have_sqlite3_shell(void)
{
    return system("command -v sqlite3 >/dev/null 2>&1") == 0;
}

/* Reads a small file into buf. */
static void slurp(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "r");
    size_t k = f ? fread(buf, 1, n - 1, f) : 0;
    buf[k] = 0;
    if (f)
        fclose(f);
}

static void test_sqlite3_shell(void)
{
    if (!have_sqlite3_shell()) {
        printf("skipped: no sqlite3 shell\n");
        return;
    }
    char path[512], out[4096];
    int64_t ids[1];
    snprintf(path, sizeof path, DIR "/shell.db");
    remove_db(path);
    save_small_runs(path, "shell", 1, ids);
    int rc = system("sqlite3 " DIR "/shell.db 'select file, line, issued, execution_rate from"
                    " line_stats where line = 1 limit 1' > " DIR "/shell.out 2>&1");
    slurp(DIR "/shell.out", out, sizeof out);
    /* build_run puts instructions 0, 40, 80 on line 1: 3 x 10 issued, rate 160/320 */
    CHECK(rc == 0 && !strcmp(out, "k.cu|1|30|0.5\n"), "line_stats via shell: rc %d, '%s'", rc, out);
    rc = system("sqlite3 " DIR "/shell.db 'select workload, execution_rate from kernel_summary'"
                " > " DIR "/shell.out 2>&1");
    slurp(DIR "/shell.out", out, sizeof out);
    CHECK(rc == 0 && !strcmp(out, "shell|0.5\n"), "kernel_summary via shell: rc %d, '%s'", rc, out);
}

int main(void)
{
    if (system("mkdir -p " DIR) != 0)
        return 1;
    test_killed_writer();
    test_concurrent_writers();
    test_sqlite3_shell();
    return ws_test_finish("store_process");
}
