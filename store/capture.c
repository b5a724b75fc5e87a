/* capture.c — capture files: an application's kernel launches (module images and their
 * PTX, argument bytes, the device memory each launch reaches before and after) in an
 * SQLite file of their own, laid out as docs/capture-format.md says. Written by the
 * injection library, read by `warpscope sim CAPTURE`. Not the results database. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/store_internal.h"

#define WS_CAPTURE_FORMAT "1"

struct ws_capture {
    ws_store st; /* db + path, so the store's SQLite helpers serve here too */
};

static const char capture_schema[] =
    "CREATE TABLE capture_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);\n"
    "CREATE TABLE modules(id INTEGER PRIMARY KEY, kind TEXT NOT NULL, hash INTEGER NOT NULL,\n"
    "  image BLOB NOT NULL, ptx TEXT);\n"
    "CREATE INDEX modules_hash ON modules(hash);\n"
    "CREATE TABLE launches(id INTEGER PRIMARY KEY, kernel TEXT NOT NULL, api TEXT NOT NULL,\n"
    "  status TEXT NOT NULL, grid_x INTEGER, grid_y INTEGER, grid_z INTEGER,\n"
    "  block_x INTEGER, block_y INTEGER, block_z INTEGER, smem_dynamic INTEGER,\n"
    "  params BLOB);\n"
    "CREATE TABLE regions(launch_id INTEGER NOT NULL REFERENCES launches(id), idx INTEGER NOT NULL,\n"
    "  address INTEGER NOT NULL, size INTEGER NOT NULL, before BLOB NOT NULL, after BLOB,\n"
    "  PRIMARY KEY(launch_id, idx));\n";

static int open_db(const char *path, int flags, ws_capture **out, ws_error *err)
{
    *out = NULL;
    ws_capture *c = calloc(1, sizeof *c);
    if (!c)
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory opening %s", path);
    snprintf(c->st.path, sizeof c->st.path, "%s", path);
    if (sqlite3_open_v2(path, &c->st.db, flags, NULL) != SQLITE_OK) {
        ws_error_set(err, WS_ERR_IO, "%s: cannot open: %s", path,
                     c->st.db ? sqlite3_errmsg(c->st.db) : "out of memory");
        ws_capture_close(c);
        return WS_ERR_IO;
    }
    sqlite3_busy_timeout(c->st.db, 10000);
    *out = c;
    return WS_OK;
}

int ws_capture_create(const char *path, ws_capture **out, ws_error *err)
{
    if (unlink(path) != 0 && access(path, F_OK) == 0)
        return ws_error_set(err, WS_ERR_IO, "%s: cannot replace the file", path);
    if (open_db(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, out, err) != WS_OK)
        return err->code;
    ws_capture *c = *out;
    if (ws_store_exec(&c->st, "BEGIN", err) || ws_store_exec(&c->st, capture_schema, err) ||
        ws_capture_set_meta(c, "format", WS_CAPTURE_FORMAT, err) ||
        ws_capture_set_meta(c, "warpscope", ws_version(), err) ||
        ws_store_exec(&c->st, "COMMIT", err)) {
        ws_capture_close(c);
        *out = NULL;
        return err->code;
    }
    return WS_OK;
}

int ws_capture_open(const char *path, ws_capture **out, ws_error *err)
{
    if (access(path, R_OK) != 0)
        return ws_error_set(err, WS_ERR_IO, "%s: no such capture file", path);
    if (open_db(path, SQLITE_OPEN_READWRITE, out, err) != WS_OK)
        return err->code;
    char format[16];
    ws_error ignore;
    ws_error_clear(&ignore);
    if (ws_capture_get_meta(*out, "format", format, sizeof format, &ignore) != WS_OK || !format[0]) {
        ws_capture_close(*out);
        *out = NULL;
        return ws_error_set(err, WS_ERR_IO, "%s is not a warpscope capture file", path);
    }
    if (strcmp(format, WS_CAPTURE_FORMAT)) {
        ws_capture_close(*out);
        *out = NULL;
        return ws_error_set(err, WS_ERR_IO, "%s: capture format %s, this warpscope reads %s",
                            path, format, WS_CAPTURE_FORMAT);
    }
    return WS_OK;
}

void ws_capture_close(ws_capture *c)
{
    if (!c)
        return;
    if (c->st.db)
        sqlite3_close(c->st.db);
    free(c);
}

int ws_capture_is_file(const char *path)
{
    char head[16];
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = fread(head, 1, sizeof head, f);
    fclose(f);
    if (n != sizeof head || memcmp(head, "SQLite format 3", 16))
        return 0;
    ws_capture *c;
    ws_error err;
    ws_error_clear(&err);
    if (ws_capture_open(path, &c, &err) != WS_OK)
        return 0;
    ws_capture_close(c);
    return 1;
}

int ws_capture_set_meta(ws_capture *c, const char *key, const char *value, ws_error *err)
{
    sqlite3_stmt *s;
    if (ws_store_prepare(&c->st, "INSERT OR REPLACE INTO capture_meta(key, value) VALUES(?, ?)",
                         &s, err))
        return err->code;
    ws_store_bind_text(s, 1, key);
    ws_store_bind_text(s, 2, value ? value : "");
    int rc = sqlite3_step(s) == SQLITE_DONE ? WS_OK : ws_store_fail(&c->st, err, "writing capture_meta");
    sqlite3_finalize(s);
    return rc;
}

int ws_capture_get_meta(ws_capture *c, const char *key, char *buf, size_t n, ws_error *err)
{
    sqlite3_stmt *s;
    buf[0] = '\0';
    if (ws_store_prepare(&c->st, "SELECT value FROM capture_meta WHERE key = ?", &s, err))
        return err->code;
    ws_store_bind_text(s, 1, key);
    if (sqlite3_step(s) == SQLITE_ROW)
        ws_store_column_text(s, 0, buf, n);
    sqlite3_finalize(s);
    return WS_OK;
}

/* The id of a module with exactly these bytes, or 0. */
static int64_t find_module(ws_capture *c, const char *kind, const void *image, size_t size,
                           uint64_t hash, ws_error *err)
{
    sqlite3_stmt *s;
    int64_t id = 0;
    if (ws_store_prepare(&c->st, "SELECT id, image FROM modules WHERE hash = ? AND kind = ?", &s, err))
        return -1;
    sqlite3_bind_int64(s, 1, (int64_t)hash);
    ws_store_bind_text(s, 2, kind);
    while (!id && sqlite3_step(s) == SQLITE_ROW)
        if ((size_t)sqlite3_column_bytes(s, 1) == size &&
            !memcmp(sqlite3_column_blob(s, 1), image, size))
            id = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    return id;
}

int ws_capture_add_module(ws_capture *c, const char *kind, const void *image, size_t size,
                          const char *ptx, int64_t *id, ws_error *err)
{
    uint64_t hash = ws_hash64(image, size, 15) >> 1; /* fits an SQLite integer */
    *id = find_module(c, kind, image, size, hash, err);
    if (*id)
        return *id < 0 ? err->code : WS_OK;
    sqlite3_stmt *s;
    if (ws_store_prepare(&c->st, "INSERT INTO modules(kind, hash, image, ptx) VALUES(?, ?, ?, ?)",
                         &s, err))
        return err->code;
    ws_store_bind_text(s, 1, kind);
    sqlite3_bind_int64(s, 2, (int64_t)hash);
    sqlite3_bind_blob64(s, 3, image, size, SQLITE_STATIC);
    ws_store_bind_text(s, 4, ptx);
    int rc = sqlite3_step(s) == SQLITE_DONE ? WS_OK : ws_store_fail(&c->st, err, "writing a module");
    sqlite3_finalize(s);
    *id = rc == WS_OK ? sqlite3_last_insert_rowid(c->st.db) : 0;
    return rc;
}

int ws_capture_modules_without_ptx(ws_capture *c, int64_t **ids, int *n, ws_error *err)
{
    sqlite3_stmt *s;
    *ids = NULL;
    *n = 0;
    if (ws_store_prepare(&c->st, "SELECT id FROM modules WHERE ptx IS NULL ORDER BY id", &s, err))
        return err->code;
    int rc = WS_OK;
    while (rc == WS_OK && sqlite3_step(s) == SQLITE_ROW) {
        int64_t *p = realloc(*ids, (size_t)(*n + 1) * sizeof *p);
        if (!p)
            rc = ws_error_set(err, WS_ERR_NOMEM, "out of memory listing modules");
        else
            (*ids = p)[(*n)++] = sqlite3_column_int64(s, 0);
    }
    sqlite3_finalize(s);
    return rc;
}

int ws_capture_module_image(ws_capture *c, int64_t id, void **image, size_t *size,
                            char *kind, size_t kind_n, ws_error *err)
{
    sqlite3_stmt *s;
    *image = NULL;
    *size = 0;
    if (ws_store_prepare(&c->st, "SELECT kind, image FROM modules WHERE id = ?", &s, err))
        return err->code;
    sqlite3_bind_int64(s, 1, id);
    int rc = WS_OK;
    if (sqlite3_step(s) != SQLITE_ROW) {
        rc = ws_error_set(err, WS_ERR_NOTFOUND, "%s: no module %lld", c->st.path, (long long)id);
    } else {
        ws_store_column_text(s, 0, kind, kind_n);
        *size = (size_t)sqlite3_column_bytes(s, 1);
        *image = malloc(*size ? *size : 1);
        if (!*image)
            rc = ws_error_set(err, WS_ERR_NOMEM, "out of memory reading a module");
        else if (*size)
            memcpy(*image, sqlite3_column_blob(s, 1), *size);
    }
    sqlite3_finalize(s);
    return rc;
}

int ws_capture_set_module_ptx(ws_capture *c, int64_t id, const char *ptx, ws_error *err)
{
    sqlite3_stmt *s;
    if (ws_store_prepare(&c->st, "UPDATE modules SET ptx = ? WHERE id = ?", &s, err))
        return err->code;
    ws_store_bind_text(s, 1, ptx);
    sqlite3_bind_int64(s, 2, id);
    int rc = sqlite3_step(s) == SQLITE_DONE ? WS_OK : ws_store_fail(&c->st, err, "writing PTX");
    sqlite3_finalize(s);
    return rc;
}

/* Does `ptx` declare `.entry KERNEL` (the name followed by '(' or a blank)? */
static int has_entry(const char *ptx, const char *kernel)
{
    size_t n = strlen(kernel);
    for (const char *p = strstr(ptx, ".entry"); p; p = strstr(p + 6, ".entry")) {
        const char *q = p + 6;
        while (*q == ' ' || *q == '\t')
            q++;
        if (!strncmp(q, kernel, n) && (q[n] == '(' || q[n] == ' ' || q[n] == '\t' ||
                                       q[n] == '\n' || q[n] == '\r'))
            return 1;
    }
    return 0;
}

int ws_capture_find_ptx(ws_capture *c, const char *kernel, char **ptx, ws_error *err)
{
    sqlite3_stmt *s;
    *ptx = NULL;
    if (ws_store_prepare(&c->st, "SELECT ptx FROM modules WHERE ptx IS NOT NULL ORDER BY id", &s, err))
        return err->code;
    int rc = WS_OK;
    while (!*ptx && rc == WS_OK && sqlite3_step(s) == SQLITE_ROW) {
        const char *text = (const char *)sqlite3_column_text(s, 0);
        if (!text || !has_entry(text, kernel))
            continue;
        if (!(*ptx = strdup(text)))
            rc = ws_error_set(err, WS_ERR_NOMEM, "out of memory reading PTX");
    }
    sqlite3_finalize(s);
    if (rc == WS_OK && !*ptx)
        rc = ws_error_set(err, WS_ERR_NOTFOUND, "%s: no module with PTX for kernel %s (modules "
                          "loaded as SASS only cannot be replayed: build with PTX, e.g. "
                          "-gencode arch=compute_90,code=compute_90)", c->st.path, kernel);
    return rc;
}

static int insert_launch(ws_capture *c, const ws_capture_launch *l, ws_error *err)
{
    sqlite3_stmt *s;
    if (ws_store_prepare(&c->st, "INSERT INTO launches(id, kernel, api, status, grid_x, grid_y, "
                         "grid_z, block_x, block_y, block_z, smem_dynamic, params) "
                         "VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", &s, err))
        return err->code;
    sqlite3_bind_int64(s, 1, l->index);
    ws_store_bind_text(s, 2, l->kernel);
    ws_store_bind_text(s, 3, l->api);
    ws_store_bind_text(s, 4, l->status);
    for (int d = 0; d < 3; d++) {
        sqlite3_bind_int64(s, 5 + d, l->grid[d]);
        sqlite3_bind_int64(s, 8 + d, l->block[d]);
    }
    sqlite3_bind_int64(s, 11, l->smem_dynamic);
    if (l->params)
        sqlite3_bind_blob64(s, 12, l->params, l->param_bytes, SQLITE_STATIC);
    else
        sqlite3_bind_null(s, 12);
    int rc = sqlite3_step(s) == SQLITE_DONE ? WS_OK : ws_store_fail(&c->st, err, "writing a launch");
    sqlite3_finalize(s);
    return rc;
}

static int insert_regions(ws_capture *c, const ws_capture_launch *l, ws_error *err)
{
    sqlite3_stmt *s;
    if (ws_store_prepare(&c->st, "INSERT INTO regions(launch_id, idx, address, size, before, after) "
                         "VALUES(?, ?, ?, ?, ?, ?)", &s, err))
        return err->code;
    int rc = WS_OK;
    for (int i = 0; i < l->nregions && rc == WS_OK; i++) {
        const ws_capture_region *g = &l->regions[i];
        sqlite3_reset(s);
        sqlite3_bind_int64(s, 1, l->index);
        sqlite3_bind_int(s, 2, i);
        sqlite3_bind_int64(s, 3, (int64_t)g->address);
        sqlite3_bind_int64(s, 4, (int64_t)g->size);
        sqlite3_bind_blob64(s, 5, g->before ? (const void *)g->before : "", g->before ? g->size : 0,
                            SQLITE_STATIC);
        if (g->after)
            sqlite3_bind_blob64(s, 6, g->after, g->size, SQLITE_STATIC);
        else
            sqlite3_bind_null(s, 6);
        if (sqlite3_step(s) != SQLITE_DONE)
            rc = ws_store_fail(&c->st, err, "writing a memory region");
    }
    sqlite3_finalize(s);
    return rc;
}

int ws_capture_add_launch(ws_capture *c, const ws_capture_launch *l, ws_error *err)
{
    if (ws_store_exec(&c->st, "BEGIN", err))
        return err->code;
    if (insert_launch(c, l, err) || insert_regions(c, l, err)) {
        sqlite3_exec(c->st.db, "ROLLBACK", NULL, NULL, NULL);
        return err->code;
    }
    return ws_store_exec(&c->st, "COMMIT", err);
}

int ws_capture_launches(ws_capture *c, int64_t **indexes, int *n, ws_error *err)
{
    sqlite3_stmt *s;
    *indexes = NULL;
    *n = 0;
    if (ws_store_prepare(&c->st, "SELECT id FROM launches ORDER BY id", &s, err))
        return err->code;
    int rc = WS_OK;
    while (rc == WS_OK && sqlite3_step(s) == SQLITE_ROW) {
        int64_t *p = realloc(*indexes, (size_t)(*n + 1) * sizeof *p);
        if (!p)
            rc = ws_error_set(err, WS_ERR_NOMEM, "out of memory listing launches");
        else
            (*indexes = p)[(*n)++] = sqlite3_column_int64(s, 0);
    }
    sqlite3_finalize(s);
    return rc;
}

static uint8_t *blob_copy(sqlite3_stmt *s, int col, size_t *n)
{
    if (sqlite3_column_type(s, col) == SQLITE_NULL)
        return NULL;
    *n = (size_t)sqlite3_column_bytes(s, col);
    uint8_t *p = malloc(*n ? *n : 1);
    if (p && *n)
        memcpy(p, sqlite3_column_blob(s, col), *n);
    return p;
}

static int load_regions(ws_capture *c, ws_capture_launch *l, ws_error *err)
{
    sqlite3_stmt *s;
    if (ws_store_prepare(&c->st, "SELECT address, size, before, after FROM regions "
                         "WHERE launch_id = ? ORDER BY idx", &s, err))
        return err->code;
    sqlite3_bind_int64(s, 1, l->index);
    int rc = WS_OK;
    while (rc == WS_OK && sqlite3_step(s) == SQLITE_ROW) {
        ws_capture_region *p = realloc(l->regions, (size_t)(l->nregions + 1) * sizeof *p);
        if (!p) {
            rc = ws_error_set(err, WS_ERR_NOMEM, "out of memory reading regions");
            break;
        }
        l->regions = p;
        ws_capture_region *g = &l->regions[l->nregions++];
        size_t nb = 0, na = 0;
        g->address = (uint64_t)sqlite3_column_int64(s, 0);
        g->size = (uint64_t)sqlite3_column_int64(s, 1);
        g->before = blob_copy(s, 2, &nb);
        g->after = blob_copy(s, 3, &na);
        if (!g->before || nb != g->size || (g->after && na != g->size))
            rc = ws_error_set(err, WS_ERR_IO, "%s: launch %lld: region %d holds %zu bytes, not %llu",
                              c->st.path, (long long)l->index, l->nregions - 1, nb,
                              (unsigned long long)g->size);
    }
    sqlite3_finalize(s);
    return rc;
}

/* "0-5" or "0, 3, 7" (the first few) for a not-found message. */
static void describe_launches(ws_capture *c, char *buf, size_t n)
{
    int64_t *ids;
    int count;
    ws_error ignore;
    ws_error_clear(&ignore);
    buf[0] = '\0';
    if (ws_capture_launches(c, &ids, &count, &ignore) != WS_OK)
        return;
    if (!count)
        snprintf(buf, n, "none");
    else if (ids[count - 1] - ids[0] == count - 1)
        snprintf(buf, n, "%lld-%lld", (long long)ids[0], (long long)ids[count - 1]);
    else
        for (int i = 0; i < count && i < 8; i++) {
            size_t len = strlen(buf);
            snprintf(buf + len, n - len, "%s%lld%s", i ? ", " : "", (long long)ids[i],
                     i == 7 && count > 8 ? ", ..." : "");
        }
    free(ids);
}

int ws_capture_load_launch(ws_capture *c, int64_t index, ws_capture_launch *out, ws_error *err)
{
    sqlite3_stmt *s;
    memset(out, 0, sizeof *out);
    out->index = index;
    if (ws_store_prepare(&c->st, "SELECT kernel, api, status, grid_x, grid_y, grid_z, block_x, "
                         "block_y, block_z, smem_dynamic, params FROM launches WHERE id = ?", &s, err))
        return err->code;
    sqlite3_bind_int64(s, 1, index);
    if (sqlite3_step(s) != SQLITE_ROW) {
        sqlite3_finalize(s);
        char have[96];
        describe_launches(c, have, sizeof have);
        return ws_error_set(err, WS_ERR_NOTFOUND, "no launch %lld in %s (launches: %s)",
                            (long long)index, c->st.path, have);
    }
    ws_store_column_text(s, 0, out->kernel, sizeof out->kernel);
    ws_store_column_text(s, 1, out->api, sizeof out->api);
    ws_store_column_text(s, 2, out->status, sizeof out->status);
    for (int d = 0; d < 3; d++) {
        out->grid[d] = (uint32_t)sqlite3_column_int64(s, 3 + d);
        out->block[d] = (uint32_t)sqlite3_column_int64(s, 6 + d);
    }
    out->smem_dynamic = (uint32_t)sqlite3_column_int64(s, 9);
    out->params = blob_copy(s, 10, &out->param_bytes);
    sqlite3_finalize(s);
    int rc = load_regions(c, out, err);
    if (rc != WS_OK)
        ws_capture_launch_free(out);
    return rc;
}

void ws_capture_launch_free(ws_capture_launch *l)
{
    for (int i = 0; i < l->nregions; i++) {
        free(l->regions[i].before);
        free(l->regions[i].after);
    }
    free(l->regions);
    free(l->params);
    l->regions = NULL;
    l->params = NULL;
    l->nregions = 0;
}
