/* store_open.c — opening the results database: SQLite settings (WAL, foreign keys, busy
 * timeout), recognising files that are not warpscope databases, and applying the
 * numbered migrations of the embedded schema.sql. Not for reading or writing runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store/store_internal.h"
#include "store/schema_sql.h"

#define WS_STORE_BUSY_MS 10000
#define WS_MIGRATION_MARK "-- @migration "

int ws_store_fail(ws_store *st, ws_error *err, const char *what)
{
    return ws_error_set(err, WS_ERR_DB, "%s: %s: %s", st->path, what, sqlite3_errmsg(st->db));
}

int ws_store_prepare(ws_store *st, const char *sql, sqlite3_stmt **stmt, ws_error *err)
{
    if (sqlite3_prepare_v2(st->db, sql, -1, stmt, NULL) != SQLITE_OK) {
        *stmt = NULL;
        return ws_store_fail(st, err, "preparing a statement");
    }
    return WS_OK;
}

int ws_store_exec(ws_store *st, const char *sql, ws_error *err)
{
    if (sqlite3_exec(st->db, sql, NULL, NULL, NULL) != SQLITE_OK)
        return ws_store_fail(st, err, sql);
    return WS_OK;
}

void ws_store_bind_text(sqlite3_stmt *s, int col, const char *text)
{
    if (text)
        sqlite3_bind_text(s, col, text, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(s, col);
}

void ws_store_column_text(sqlite3_stmt *s, int col, char *buf, size_t n)
{
    const unsigned char *t = sqlite3_column_text(s, col);
    snprintf(buf, n, "%s", t ? (const char *)t : "");
}

/* Runs a query returning one integer. */
static int query_int(ws_store *st, const char *sql, int64_t *out, ws_error *err)
{
    sqlite3_stmt *s;
    if (ws_store_prepare(st, sql, &s, err))
        return err->code;
    int rc = sqlite3_step(s);
    if (rc != SQLITE_ROW) {
        ws_store_fail(st, err, "reading the database header");
        sqlite3_finalize(s);
        return err->code;
    }
    *out = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    return WS_OK;
}

/* The next migration mark of `schema` at or after `p`: a line "-- @migration <digit>...". */
static const char *next_mark(const char *schema, const char *p)
{
    size_t len = strlen(WS_MIGRATION_MARK);
    for (; (p = strstr(p, WS_MIGRATION_MARK)) != NULL; p += len)
        if ((p == schema || p[-1] == '\n') && p[len] >= '0' && p[len] <= '9')
            return p;
    return NULL;
}

/* The schema's sections: migration k (1-based) is the text after its mark. */
static int migration_count(const char *schema)
{
    int n = 0;
    for (const char *p = next_mark(schema, schema); p; p = next_mark(schema, p + 1))
        n++;
    return n;
}

/* Copies migration `version`'s SQL (without its mark line) into a new string. */
static char *migration_sql(const char *schema, int version)
{
    const char *p = next_mark(schema, schema);
    while (p && atoi(p + strlen(WS_MIGRATION_MARK)) != version)
        p = next_mark(schema, p + 1);
    if (!p)
        return NULL;
    p = strchr(p, '\n');
    if (!p)
        return NULL;
    const char *end = next_mark(schema, p);
    size_t len = end ? (size_t)(end - p) : strlen(p);
    char *sql = malloc(len + 1);
    if (sql) {
        memcpy(sql, p, len);
        sql[len] = 0;
    }
    return sql;
}

int ws_store_schema_version(ws_store *st)
{
    int64_t v = -1;
    ws_error err;
    ws_error_clear(&err);
    if (query_int(st, "PRAGMA user_version", &v, &err))
        return -1;
    return (int)v;
}

/* A file SQLite accepts but that is some other program's database. */
static int check_is_ours(ws_store *st, int64_t version, ws_error *err)
{
    int64_t ntables = 0, nmig = 0;
    if (query_int(st, "SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'",
                  &ntables, err))
        return err->code;
    if (version == 0 && ntables == 0)
        return WS_OK;
    if (query_int(st, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
                      "name IN ('schema_migrations', 'runs')", &nmig, err))
        return err->code;
    if (nmig != 2)
        return ws_error_set(err, WS_ERR_DB,
                            "%s is an SQLite database but not a warpscope one "
                            "(no runs/schema_migrations tables)", st->path);
    return WS_OK;
}

/* Newer schemas and foreign databases are refused; older warpscope ones are migrated. */
static int check_version(ws_store *st, ws_error *err)
{
    int latest = migration_count(ws_store_schema_sql);
    int64_t version = 0;
    if (query_int(st, "PRAGMA user_version", &version, err))
        return err->code;
    if (version > latest)
        return ws_error_set(err, WS_ERR_DB,
                            "%s has schema version %lld, newer than this warpscope knows (%d)",
                            st->path, (long long)version, latest);
    return check_is_ours(st, version, err);
}

static int apply_migration(ws_store *st, const char *schema, int version, ws_error *err)
{
    char *sql = migration_sql(schema, version);
    if (!sql)
        return ws_error_set(err, WS_ERR_DB, "schema migration %d is missing", version);
    char what[64], bump[128];
    snprintf(what, sizeof what, "applying schema migration %d", version);
    int rc = sqlite3_exec(st->db, sql, NULL, NULL, NULL);
    free(sql);
    if (rc != SQLITE_OK)
        return ws_store_fail(st, err, what);
    /* version is our own integer, not a user string: PRAGMA takes no bound parameters */
    snprintf(bump, sizeof bump,
             "INSERT INTO schema_migrations(version) VALUES (%d); PRAGMA user_version = %d;",
             version, version);
    if (sqlite3_exec(st->db, bump, NULL, NULL, NULL) != SQLITE_OK)
        return ws_store_fail(st, err, what);
    return WS_OK;
}

/* Brings the database to the newest schema, in one IMMEDIATE transaction so that two
 * processes opening a fresh file at once migrate it exactly once. */
int ws_store_migrate_text(ws_store *st, const char *schema, ws_error *err)
{
    int latest = migration_count(schema);
    int64_t version = 0;
    if (query_int(st, "PRAGMA user_version", &version, err))
        return err->code;
    if (version >= latest)
        return WS_OK;
    if (ws_store_exec(st, "BEGIN IMMEDIATE", err))
        return err->code;
    int rc = query_int(st, "PRAGMA user_version", &version, err);
    for (int v = (int)version + 1; !rc && v <= latest; v++)
        rc = apply_migration(st, schema, v, err);
    if (!rc)
        rc = ws_store_exec(st, "COMMIT", err);
    if (rc)
        sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

/* journal_mode=WAL needs a moment alone with the file; retry while another opener has it. */
static int set_wal(ws_store *st, ws_error *err)
{
    for (int tries = 0;; tries++) {
        sqlite3_stmt *s;
        if (ws_store_prepare(st, "PRAGMA journal_mode=WAL", &s, err))
            return err->code;
        int rc = sqlite3_step(s);
        sqlite3_finalize(s);
        if (rc == SQLITE_ROW || rc == SQLITE_DONE)
            return WS_OK;
        if ((rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED)
            return ws_store_fail(st, err, "switching to WAL mode");
        if (tries * 10 > WS_STORE_BUSY_MS)
            return ws_store_fail(st, err, "switching to WAL mode");
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

static int configure(ws_store *st, ws_error *err)
{
    int64_t n = 0;
    sqlite3_extended_result_codes(st->db, 1);
    sqlite3_busy_timeout(st->db, WS_STORE_BUSY_MS);
    /* the first read is where SQLite notices a file that is not a database */
    if (sqlite3_exec(st->db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL) != SQLITE_OK) {
        int code = sqlite3_errcode(st->db) & 0xff;
        if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT)
            return ws_error_set(err, WS_ERR_DB, "%s is not a warpscope database (%s)", st->path,
                                sqlite3_errmsg(st->db));
        return ws_store_fail(st, err, "reading the database");
    }
    /* refuse other programs' files before changing anything in them (WAL mode) */
    if (check_version(st, err))
        return err->code;
    if (set_wal(st, err))
        return err->code;
    if (ws_store_exec(st, "PRAGMA foreign_keys=ON", err))
        return err->code;
    if (query_int(st, "PRAGMA foreign_keys", &n, err))
        return err->code;
    if (n != 1)
        return ws_error_set(err, WS_ERR_DB, "%s: this SQLite has no foreign key support", st->path);
    return ws_store_migrate_text(st, ws_store_schema_sql, err);
}

int ws_store_open(const char *path, ws_store **out, ws_error *err)
{
    *out = NULL;
    ws_store *st = calloc(1, sizeof *st);
    if (!st)
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory opening %s", path);
    snprintf(st->path, sizeof st->path, "%s", path);
    int rc = sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    if (rc != SQLITE_OK) {
        ws_error_set(err, WS_ERR_DB, "cannot open database %s: %s", path,
                     st->db ? sqlite3_errmsg(st->db) : sqlite3_errstr(rc));
        ws_store_close(st);
        return WS_ERR_DB;
    }
    if (configure(st, err)) {
        ws_store_close(st);
        return err->code;
    }
    *out = st;
    return WS_OK;
}

void ws_store_close(ws_store *st)
{
    if (!st)
        return;
    sqlite3_close_v2(st->db);
    free(st);
}
