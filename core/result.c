/* result.c — ws_result: the growable record of one run (metrics, files, instruction and
 * block stats, atomics, timelines, warnings) and its lifetime. Aggregations over it
 * (regions, derived metrics) live in derive.c. */
#include "core/core.h"
#include "core/core_internal.h"

#include <stdarg.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

void ws_result_init(ws_result *r)
{
    memset(r, 0, sizeof *r);
}

void ws_result_free(ws_result *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->nfiles; i++)
        free(r->files[i].text);
    for (int i = 0; i < r->ntimelines; i++)
        free(r->timelines[i].slots);
    for (int i = 0; i < r->nwarnings; i++)
        free(r->warnings[i]);
    for (int i = 0; i < r->nlaunches; i++)
        free(r->launches[i].metrics);
    free(r->launches);
    free(r->metrics);
    free(r->files);
    free(r->insts);
    free(r->blocks);
    free(r->atomics);
    free(r->timelines);
    free(r->regions);
    free(r->warnings);
    ws_result_init(r);
}

/* Makes room for one more element of `size` bytes; returns the new zeroed slot or NULL. */
void *ws_core_grow(void **arr, int *n, int *cap, size_t size)
{
    if (*n >= *cap) {
        int ncap = *cap ? *cap * 2 : 16;
        void *na = realloc(*arr, (size_t)ncap * size);
        if (!na)
            return NULL;
        *arr = na;
        *cap = ncap;
    }
    void *slot = (char *)*arr + (size_t)(*n) * size;
    memset(slot, 0, size);
    (*n)++;
    return slot;
}

#define WS_GROW(r, field, count, capf) \
    ws_core_grow((void **)&(r)->field, &(r)->count, &(r)->capf, sizeof *(r)->field)

int ws_result_set_metric(ws_result *r, const char *name, double value)
{
    for (int i = 0; i < r->nmetrics; i++) {
        if (strcmp(r->metrics[i].name, name) == 0) {
            r->metrics[i].value = value;
            return WS_OK;
        }
    }
    ws_metric *m = WS_GROW(r, metrics, nmetrics, cap_metrics);
    if (!m)
        return WS_ERR_NOMEM;
    snprintf(m->name, sizeof m->name, "%s", name);
    m->value = value;
    return WS_OK;
}

const ws_metric *ws_result_metric(const ws_result *r, const char *name)
{
    for (int i = 0; i < r->nmetrics; i++)
        if (strcmp(r->metrics[i].name, name) == 0)
            return &r->metrics[i];
    return NULL;
}

double ws_result_value(const ws_result *r, const char *name)
{
    const ws_metric *m = ws_result_metric(r, name);
    return m ? m->value : NAN;
}

double ws_result_execution_rate(const ws_result *r)
{
    double v = ws_result_value(r, WS_M(SIM_EXECUTION_RATE));
    return isnan(v) ? ws_result_value(r, WS_M(THREAD_INST_PER_INST)) / 32.0 : v;
}

/* Returns the file's index (an existing one when the path is known), -1 on no memory.
 * A later call with text fills in a file first added without it. */
int ws_result_add_file(ws_result *r, const char *path, const char *text)
{
    for (int i = 0; i < r->nfiles; i++) {
        if (strcmp(r->files[i].path, path) == 0) {
            if (!r->files[i].text && text)
                r->files[i].text = strdup(text);
            return i;
        }
    }
    char *copy = NULL;
    if (text && !(copy = strdup(text)))
        return -1;
    ws_source_file *f = WS_GROW(r, files, nfiles, cap_files);
    if (!f) {
        free(copy);
        return -1;
    }
    snprintf(f->path, sizeof f->path, "%s", path);
    f->text = copy;
    return r->nfiles - 1;
}

/* Drops the files no instruction row names (and their text), keeping the others in order
 * and renumbering the rows' file indexes; returns how many were dropped. */
int ws_result_drop_unused_files(ws_result *r)
{
    if (r->nfiles == 0)
        return 0;
    int *map = calloc((size_t)r->nfiles, sizeof *map);
    if (!map)
        return 0; /* keeping them is harmless */
    for (int i = 0; i < r->ninsts; i++)
        if (r->insts[i].file >= 0 && r->insts[i].file < r->nfiles)
            map[r->insts[i].file] = 1;
    int n = 0;
    for (int f = 0; f < r->nfiles; f++) {
        if (!map[f]) {
            free(r->files[f].text);
            map[f] = -1;
            continue;
        }
        r->files[n] = r->files[f];
        map[f] = n++;
    }
    for (int i = 0; i < r->ninsts; i++)
        if (r->insts[i].file >= 0 && r->insts[i].file < r->nfiles)
            r->insts[i].file = map[r->insts[i].file];
    int dropped = r->nfiles - n;
    r->nfiles = n;
    free(map);
    return dropped;
}

/* The new instruction starts with file and block unknown (-1), every count zero. */
ws_inst_stat *ws_result_add_inst(ws_result *r)
{
    ws_inst_stat *s = WS_GROW(r, insts, ninsts, cap_insts);
    if (s) {
        s->file = -1;
        s->block = -1;
    }
    return s;
}

ws_block_info *ws_result_add_block(ws_result *r)
{
    ws_block_info *b = WS_GROW(r, blocks, nblocks, cap_blocks);
    if (b)
        b->ipdom = -1;
    return b;
}

ws_atomic_stat *ws_result_add_atomic(ws_result *r)
{
    return WS_GROW(r, atomics, natomics, cap_atomics);
}

ws_timeline *ws_result_add_timeline(ws_result *r)
{
    return WS_GROW(r, timelines, ntimelines, cap_timelines);
}

int ws_result_add_warning(ws_result *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *text = NULL;
    int k = vasprintf(&text, fmt, ap);
    va_end(ap);
    if (k < 0)
        return WS_ERR_NOMEM;
    char **slot = WS_GROW(r, warnings, nwarnings, cap_warnings);
    if (!slot) {
        free(text);
        return WS_ERR_NOMEM;
    }
    *slot = text;
    return WS_OK;
}
