/* spec_steps.c — launch sequences: reading `launch`, `repeat`, `while`, `end` and `set`
 * lines into a variant's steps, checking them once constants and buffers are known, and
 * running them (ws_variant_launches), loop variables bound, through a runner's host.
 * The single-launch lines are spec.c's; resolving one launch's shape and args is
 * spec_resolve.c's (shared, so launch lines take every argument form a variant does). */
#include "core/core_internal.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WS_SPEC_FAIL(p, line, ...) ws_error_at((p)->err, WS_ERR_SPEC, (p)->path, line, __VA_ARGS__)
#define WS_LAUNCHES_MAX (1 << 20) /* a sequence that launches more is an error */

static const char ws_launch_form[] =
    "expected 'launch KERNEL grid X[,Y[,Z]] block X[,Y[,Z]] [smem BYTES] [args A B ...]'";
static const char ws_while_form[] =
    "expected 'while BUFFER[INDEX] != VALUE max COUNT [as VAR]' (or '==')";
static const char ws_set_form[] = "expected 'set BUFFER[INDEX] = VALUE'";

static const char *ws_step_word(ws_step_kind k)
{
    static const char *w[] = {"launch", "repeat", "while", "end", "set"};
    return w[k];
}

static ws_variant *ws_current_variant(ws_parse *p)
{
    return &p->s->variants[p->s->nvariants - 1];
}

static ws_step *ws_step_add(ws_parse *p, ws_step_kind kind, int line)
{
    ws_variant *v = ws_current_variant(p);
    ws_step *st = ws_core_grow((void **)&v->steps, &v->nsteps, &v->cap_steps, sizeof *st);
    if (!st) {
        ws_error_set(p->err, WS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    st->kind = kind;
    st->line = line;
    st->buffer = -1;
    st->match = -1;
    return st;
}

static int ws_step_copy(ws_parse *p, int line, char *dst, const char *what, const char *text)
{
    if (strlen(text) >= WS_EXPR_MAX)
        return WS_SPEC_FAIL(p, line, "%s is too long (at most %d characters)", what,
                            WS_EXPR_MAX - 1);
    strcpy(dst, text);
    return WS_OK;
}

/* ---------------------------------------------------------------- reading lines */

/* "X,Y,Z" (commas outside parentheses) into tok[1..]; tok[0] = the directive. */
static int ws_split_dims(char *text, const char *what, char **tok)
{
    int n = 0, depth = 0;
    tok[n++] = (char *)what;
    tok[n++] = text;
    for (char *c = text; *c; c++) {
        depth += *c == '(' ? 1 : *c == ')' ? -1 : 0;
        if (*c == ',' && depth == 0) {
            *c = '\0';
            if (n == 5)
                return n;
            tok[n++] = c + 1;
        }
    }
    return n;
}

static int ws_parse_launch(ws_parse *p, int line, char **tok, int ntok)
{
    ws_variant *v = ws_current_variant(p);
    if (v->kernel[0] || v->grid_expr[0][0] || v->block_expr[0][0] || v->smem_expr[0] ||
        v->nargs)
        return WS_SPEC_FAIL(p, line, "variant '%s' mixes 'launch' lines with "
                            "'kernel'/'grid'/'block'/'smem'/'args' lines: use one form",
                            v->name);
    if (ntok < 2 || !ws_is_ident(tok[1]))
        return WS_SPEC_FAIL(p, line, "%s", ws_launch_form);
    ws_step *st = ws_step_add(p, WS_STEP_LAUNCH, line);
    if (!st)
        return p->err->code;
    ws_variant *l = st->launch = calloc(1, sizeof *l);
    if (!l)
        return ws_error_set(p->err, WS_ERR_NOMEM, "out of memory");
    snprintf(l->name, sizeof l->name, "%s", v->name);
    snprintf(l->description, sizeof l->description, "%s", v->description);
    l->line = line;
    if (strlen(tok[1]) >= sizeof l->kernel)
        return WS_SPEC_FAIL(p, line, "kernel name '%s' is too long", tok[1]);
    strcpy(l->kernel, tok[1]);
    for (int i = 2; i < ntok; i++) {
        char *dims[5];
        int rc;
        if (!strcmp(tok[i], "args"))
            return ws_launch_args(p, line, l, tok + i, ntok - i);
        if (i + 1 >= ntok)
            return WS_SPEC_FAIL(p, line, "%s ('%s' needs a value)", ws_launch_form, tok[i]);
        if (!strcmp(tok[i], "grid") || !strcmp(tok[i], "block")) {
            int n = ws_split_dims(tok[i + 1], tok[i], dims);
            rc = ws_launch_dims(p, line, dims, n,
                                 tok[i][0] == 'g' ? l->grid_expr : l->block_expr);
        } else if (!strcmp(tok[i], "smem")) {
            if (l->smem_expr[0])
                return WS_SPEC_FAIL(p, line, "launch sets smem twice");
            rc = ws_step_copy(p, line, l->smem_expr, "smem", tok[i + 1]);
        } else {
            return WS_SPEC_FAIL(p, line, "%s (unexpected '%s')", ws_launch_form, tok[i]);
        }
        if (rc != WS_OK)
            return rc;
        i++;
    }
    return WS_OK;
}

/* `as VAR` at tok[at], if there. */
static int ws_parse_loop_var(ws_parse *p, int line, char **tok, int ntok, int at, ws_step *st,
                             const char *form)
{
    if (at == ntok)
        return WS_OK;
    if (at + 2 != ntok || strcmp(tok[at], "as"))
        return WS_SPEC_FAIL(p, line, "%s", form);
    if (!ws_is_ident(tok[at + 1]) || strlen(tok[at + 1]) >= sizeof st->var)
        return WS_SPEC_FAIL(p, line, "loop variable '%s' is not an identifier", tok[at + 1]);
    const ws_variant *v = ws_current_variant(p);
    for (int k = 0; k < p->loop_depth; k++)
        if (!strcmp(v->steps[p->loop_open[k]].var, tok[at + 1]))
            return WS_SPEC_FAIL(p, line, "loop variable '%s' is already the variable of the "
                                "loop at line %d", tok[at + 1], v->steps[p->loop_open[k]].line);
    strcpy(st->var, tok[at + 1]);
    return WS_OK;
}

static int ws_open_loop(ws_parse *p, int line)
{
    ws_variant *v = ws_current_variant(p);
    if (p->loop_depth == WS_LOOP_DEPTH)
        return WS_SPEC_FAIL(p, line, "loops nested more than %d deep", WS_LOOP_DEPTH);
    p->loop_open[p->loop_depth++] = v->nsteps - 1;
    return WS_OK;
}

static int ws_parse_repeat(ws_parse *p, int line, char **tok, int ntok)
{
    static const char form[] = "expected 'repeat COUNT [as VAR]'";
    if (ntok < 2)
        return WS_SPEC_FAIL(p, line, "%s", form);
    ws_step *st = ws_step_add(p, WS_STEP_REPEAT, line);
    if (!st)
        return p->err->code;
    int rc = ws_step_copy(p, line, st->count_expr, "repeat count", tok[1]);
    if (rc == WS_OK)
        rc = ws_parse_loop_var(p, line, tok, ntok, 2, st, form);
    return rc == WS_OK ? ws_open_loop(p, line) : rc;
}

/* "BUF[INDEX]" into the step's buffer name and index expression. */
static int ws_parse_element(ws_parse *p, int line, char *word, ws_step *st, const char *form)
{
    char *open = strchr(word, '[');
    size_t n = strlen(word);
    if (!open || open == word || n < 3 || word[n - 1] != ']' || open + 1 == word + n - 1)
        return WS_SPEC_FAIL(p, line, "%s ('%s' is not BUFFER[INDEX])", form, word);
    *open = '\0';
    word[n - 1] = '\0';
    if (!ws_is_ident(word) || strlen(word) >= sizeof st->buffer_name)
        return WS_SPEC_FAIL(p, line, "%s ('%s' is not a buffer name)", form, word);
    strcpy(st->buffer_name, word);
    return ws_step_copy(p, line, st->index_expr, "index", open + 1);
}

static int ws_parse_while(ws_parse *p, int line, char **tok, int ntok)
{
    if (ntok < 6 || (strcmp(tok[2], "!=") && strcmp(tok[2], "==")) || strcmp(tok[4], "max"))
        return WS_SPEC_FAIL(p, line, "%s", ws_while_form);
    ws_step *st = ws_step_add(p, WS_STEP_WHILE, line);
    if (!st)
        return p->err->code;
    st->repeat_if_equal = tok[2][0] == '=';
    int rc = ws_parse_element(p, line, tok[1], st, ws_while_form);
    if (rc == WS_OK)
        rc = ws_step_copy(p, line, st->value_expr, "value", tok[3]);
    if (rc == WS_OK)
        rc = ws_step_copy(p, line, st->count_expr, "max", tok[5]);
    if (rc == WS_OK)
        rc = ws_parse_loop_var(p, line, tok, ntok, 6, st, ws_while_form);
    return rc == WS_OK ? ws_open_loop(p, line) : rc;
}

static int ws_parse_set(ws_parse *p, int line, char **tok, int ntok)
{
    if (ntok != 4 || strcmp(tok[2], "="))
        return WS_SPEC_FAIL(p, line, "%s", ws_set_form);
    ws_step *st = ws_step_add(p, WS_STEP_SET, line);
    if (!st)
        return p->err->code;
    int rc = ws_parse_element(p, line, tok[1], st, ws_set_form);
    return rc == WS_OK ? ws_step_copy(p, line, st->value_expr, "value", tok[3]) : rc;
}

static int ws_parse_end(ws_parse *p, int line, int ntok)
{
    if (ntok != 1)
        return WS_SPEC_FAIL(p, line, "expected 'end' alone on its line");
    if (p->loop_depth == 0)
        return WS_SPEC_FAIL(p, line, "'end' without 'repeat' or 'while'");
    ws_step *st = ws_step_add(p, WS_STEP_END, line);
    if (!st)
        return p->err->code;
    ws_variant *v = ws_current_variant(p);
    int open = p->loop_open[--p->loop_depth];
    v->steps[open].match = v->nsteps - 1;
    v->steps[v->nsteps - 1].match = open;
    return WS_OK;
}

int ws_dir_step(ws_parse *p, int line, char **tok, int ntok, int *handled)
{
    const char *d = tok[0];
    ws_variant *v = ws_current_variant(p);
    *handled = 1;
    if (!strcmp(d, "launch"))
        return ws_parse_launch(p, line, tok, ntok);
    if (strcmp(d, "repeat") && strcmp(d, "while") && strcmp(d, "end") && strcmp(d, "set")) {
        *handled = 0;
        return WS_OK;
    }
    if (v->kernel[0] || v->grid_expr[0][0] || v->block_expr[0][0] || v->nargs)
        return WS_SPEC_FAIL(p, line, "variant '%s': '%s' belongs to a sequence of 'launch' "
                            "lines, not to the 'kernel'/'grid'/'block'/'args' form", v->name, d);
    if (!strcmp(d, "repeat"))
        return ws_parse_repeat(p, line, tok, ntok);
    if (!strcmp(d, "while"))
        return ws_parse_while(p, line, tok, ntok);
    if (!strcmp(d, "set"))
        return ws_parse_set(p, line, tok, ntok);
    return ws_parse_end(p, line, ntok);
}

int ws_steps_close(ws_parse *p)
{
    if (p->loop_depth == 0)
        return WS_OK;
    const ws_step *st = &ws_current_variant(p)->steps[p->loop_open[p->loop_depth - 1]];
    p->loop_depth = 0;
    return WS_SPEC_FAIL(p, st->line, "'%s' is never closed by 'end'", ws_step_word(st->kind));
}

void ws_steps_free(ws_variant *v)
{
    for (int i = 0; i < v->nsteps; i++)
        free(v->steps[i].launch);
    free(v->steps);
    v->steps = NULL;
    v->nsteps = 0;
}

int ws_variant_is_sequence(const ws_variant *v)
{
    return v->nsteps > 0;
}

/* ---------------------------------------------------------------- running a sequence */

typedef struct ws_walk {
    ws_parse *p;
    const ws_variant *v;
    const ws_launch_host *h; /* NULL: checking only (each loop's first trip, no launch) */
    ws_variant *scratch;     /* the launch being resolved */
    ws_variant *first;       /* checking: gets the first launch's shape */
    int nlaunches;
} ws_walk;

static int ws_walk_range(ws_walk *w, int first, int last);

/* VALUE for an element of type t: its bytes (little-endian) and its value as a double. */
static int ws_encode_value(ws_parse *p, int line, ws_type t, const char *text, uint8_t *bytes,
                           double *as_double)
{
    int64_t iv = 0;
    if (ws_type_is_float(t)) {
        char *end;
        errno = 0;
        double d = strtod(text, &end);
        if (!(end != text && *end == '\0' && errno == 0 && isfinite(d))) {
            int rc = ws_spec_int_expr(p, line, text, &iv);
            if (rc != WS_OK)
                return rc;
            d = (double)iv;
        }
        ws_real_store(t, bytes, d);
        *as_double = ws_real_load(t, bytes); /* the value the element can hold */
        return WS_OK;
    }
    int rc = ws_spec_int_expr(p, line, text, &iv);
    if (rc != WS_OK)
        return rc;
    size_t size = ws_type_size(t);
    int is_signed = t == WS_T_I8 || t == WS_T_I16 || t == WS_T_I32 || t == WS_T_I64;
    if (size < 8) {
        int64_t lo = is_signed ? -((int64_t)1 << (size * 8 - 1)) : 0;
        int64_t hi = is_signed ? ((int64_t)1 << (size * 8 - 1)) - 1
                               : ((int64_t)1 << (size * 8)) - 1;
        if (iv < lo || iv > hi)
            return WS_SPEC_FAIL(p, line, "value %lld does not fit in %s", (long long)iv,
                                ws_type_name(t));
    } else if (!is_signed && iv < 0) {
        return WS_SPEC_FAIL(p, line, "value %lld does not fit in %s", (long long)iv,
                            ws_type_name(t));
    }
    for (size_t i = 0; i < size; i++)
        bytes[i] = (uint8_t)((uint64_t)iv >> (8 * i));
    *as_double = (double)iv;
    return WS_OK;
}

/* The element of a while/set step: its index, checked against the buffer. */
static int ws_step_index(ws_walk *w, const ws_step *st, uint64_t *index)
{
    const ws_buffer_spec *b = &w->p->s->buffers[st->buffer];
    int64_t i;
    int rc = ws_spec_int_expr(w->p, st->line, st->index_expr, &i);
    if (rc != WS_OK)
        return rc;
    if (i < 0 || (uint64_t)i >= b->count)
        return WS_SPEC_FAIL(w->p, st->line, "%s %s[%lld]: the index is outside the buffer "
                            "(%llu elements)", ws_step_word(st->kind), b->name, (long long)i,
                            (unsigned long long)b->count);
    *index = (uint64_t)i;
    return WS_OK;
}

static int ws_walk_launch(ws_walk *w, const ws_step *st)
{
    ws_parse *p = w->p;
    memcpy(w->scratch, st->launch, sizeof *w->scratch);
    w->scratch->cooperative |= w->v->cooperative; /* a `cooperative` line: every launch */
    int rc = ws_launch_resolve(p, w->scratch);
    if (rc != WS_OK)
        return rc;
    if (!w->h) {
        if (w->first && !w->first->kernel[0]) {
            memcpy(w->first->kernel, w->scratch->kernel, sizeof w->first->kernel);
            memcpy(w->first->grid, w->scratch->grid, sizeof w->first->grid);
            memcpy(w->first->block, w->scratch->block, sizeof w->first->block);
            w->first->smem_dynamic = w->scratch->smem_dynamic;
        }
        return WS_OK;
    }
    if (w->nlaunches == WS_LAUNCHES_MAX)
        return WS_SPEC_FAIL(p, st->line, "variant '%s' launches more than %d kernels",
                            w->v->name, WS_LAUNCHES_MAX);
    ws_launch l;
    memset(&l, 0, sizeof l);
    l.index = w->nlaunches++;
    l.v = w->scratch;
    l.nvars = p->nbound;
    size_t used = 0;
    for (int k = 0; k < p->nbound; k++) {
        snprintf(l.var_name[k], sizeof l.var_name[k], "%s", p->bound_name[k]);
        l.var_value[k] = p->bound_value[k];
        if (used < sizeof l.vars)
            used += (size_t)snprintf(l.vars + used, sizeof l.vars - used, "%s%s=%lld",
                                     k ? " " : "", p->bound_name[k],
                                     (long long)p->bound_value[k]);
    }
    return w->h->launch(w->h->ctx, &l, p->err);
}

static int ws_walk_set(ws_walk *w, const ws_step *st)
{
    uint64_t index;
    uint8_t bytes[8];
    double d;
    int rc = ws_step_index(w, st, &index);
    if (rc == WS_OK)
        rc = ws_encode_value(w->p, st->line, w->p->s->buffers[st->buffer].type, st->value_expr,
                             bytes, &d);
    if (rc != WS_OK || !w->h)
        return rc;
    return w->h->write(w->h->ctx, st->buffer, index, bytes, w->p->err);
}

/* After a trip of a while loop: 1 in *again when the element says to go on. */
static int ws_while_again(ws_walk *w, const ws_step *st, int *again)
{
    const ws_buffer_spec *b = &w->p->s->buffers[st->buffer];
    uint64_t index;
    uint8_t want[8], got[8] = {0};
    double want_d;
    int rc = ws_step_index(w, st, &index);
    if (rc == WS_OK)
        rc = ws_encode_value(w->p, st->line, b->type, st->value_expr, want, &want_d);
    if (rc != WS_OK || !w->h) {
        *again = 0;
        return rc;
    }
    if ((rc = w->h->read(w->h->ctx, st->buffer, index, got, w->p->err)) != WS_OK)
        return rc;
    int equal;
    if (ws_type_is_float(b->type)) {
        equal = ws_real_load(b->type, got) == want_d;
    } else {
        equal = memcmp(got, want, ws_type_size(b->type)) == 0;
    }
    *again = st->repeat_if_equal ? equal : !equal;
    return WS_OK;
}

static int ws_walk_loop(ws_walk *w, int i)
{
    const ws_step *st = &w->v->steps[i];
    ws_parse *p = w->p;
    int64_t count;
    int rc = ws_spec_int_expr(p, st->line, st->count_expr, &count);
    if (rc != WS_OK)
        return rc;
    int is_while = st->kind == WS_STEP_WHILE;
    if (count < (is_while ? 1 : 0))
        return WS_SPEC_FAIL(p, st->line, "%s count %lld is %s", ws_step_word(st->kind),
                            (long long)count, is_while ? "below 1" : "negative");
    int bound = st->var[0] != 0;
    if (bound) {
        p->bound_name[p->nbound] = st->var;
        p->bound_value[p->nbound++] = 0;
    }
    for (int64_t trip = 0; rc == WS_OK && trip < count; trip++) {
        if (bound)
            p->bound_value[p->nbound - 1] = trip;
        rc = ws_walk_range(w, i + 1, st->match);
        if (rc != WS_OK)
            break;
        int again = 1;
        if (is_while && (rc = ws_while_again(w, st, &again)) != WS_OK)
            break;
        if (!again || !w->h)
            break;
        if (is_while && trip + 1 == count)
            rc = WS_SPEC_FAIL(p, st->line, "while %s[%s] %s %s: still going after max %lld "
                              "trips", st->buffer_name, st->index_expr,
                              st->repeat_if_equal ? "==" : "!=", st->value_expr,
                              (long long)count);
    }
    if (bound)
        p->nbound--;
    return rc;
}

static int ws_walk_range(ws_walk *w, int first, int last)
{
    for (int i = first; i < last; i++) {
        const ws_step *st = &w->v->steps[i];
        int rc = WS_OK;
        switch (st->kind) {
        case WS_STEP_LAUNCH: rc = ws_walk_launch(w, st); break;
        case WS_STEP_SET: rc = ws_walk_set(w, st); break;
        case WS_STEP_REPEAT:
        case WS_STEP_WHILE:
            rc = ws_walk_loop(w, i);
            i = st->match;
            break;
        case WS_STEP_END: assert(0 && "an end is skipped by its loop"); break;
        }
        if (rc != WS_OK)
            return rc;
    }
    return WS_OK;
}

/* Names in steps: buffers of while/set, loop variables that clash with nothing. */
static int ws_steps_names(ws_parse *p, ws_variant *v)
{
    int nlaunch = 0;
    for (int i = 0; i < v->nsteps; i++) {
        ws_step *st = &v->steps[i];
        nlaunch += st->kind == WS_STEP_LAUNCH;
        if (st->var[0] && ws_spec_const(p->s, st->var))
            return WS_SPEC_FAIL(p, st->line, "loop variable '%s' has the name of a constant",
                                st->var);
        for (int b = 0; b < p->s->nbuffers; b++) {
            if (st->var[0] && !strcmp(p->s->buffers[b].name, st->var))
                return WS_SPEC_FAIL(p, st->line, "loop variable '%s' has the name of a buffer",
                                    st->var);
            if (st->buffer_name[0] && !strcmp(p->s->buffers[b].name, st->buffer_name))
                st->buffer = b;
        }
        if (st->buffer_name[0] && st->buffer < 0)
            return WS_SPEC_FAIL(p, st->line, "%s: unknown buffer '%s'", ws_step_word(st->kind),
                                st->buffer_name);
    }
    if (!nlaunch)
        return WS_SPEC_FAIL(p, v->line, "variant '%s' has no 'launch' line", v->name);
    return WS_OK;
}

int ws_steps_resolve(ws_parse *p, ws_variant *v)
{
    int rc = ws_steps_names(p, v);
    if (rc != WS_OK)
        return rc;
    ws_variant *scratch = malloc(sizeof *scratch);
    if (!scratch)
        return ws_error_set(p->err, WS_ERR_NOMEM, "out of memory");
    ws_walk w = {.p = p, .v = v, .scratch = scratch, .first = v};
    rc = ws_walk_range(&w, 0, v->nsteps);
    free(scratch);
    return rc;
}

int ws_variant_launches(const ws_spec *s, const ws_variant *v, const ws_launch_host *h,
                        ws_error *err)
{
    if (!v->nsteps) {
        ws_launch l;
        memset(&l, 0, sizeof l);
        l.v = v;
        return h->launch(h->ctx, &l, err);
    }
    ws_parse p = {.s = (ws_spec *)s, .err = err, .path = s->path};
    ws_variant *scratch = malloc(sizeof *scratch);
    if (!scratch)
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory");
    ws_walk w = {.p = &p, .v = v, .h = h, .scratch = scratch};
    int rc = ws_walk_range(&w, 0, v->nsteps);
    free(scratch);
    return rc;
}

/* ---------------------------------------------------------------- host-memory buffers */

static int ws_elem_at(ws_buffers *b, int buffer, uint64_t index, uint8_t **at, size_t *size,
                      ws_error *err)
{
    if (buffer < 0 || buffer >= b->n || !b->b[buffer].spec)
        return ws_error_set(err, WS_ERR_SPEC, "no buffer %d", buffer);
    *size = ws_type_size(b->b[buffer].spec->type);
    if ((index + 1) * *size > b->b[buffer].bytes)
        return ws_error_set(err, WS_ERR_SPEC, "element %llu is outside buffer '%s'",
                            (unsigned long long)index, b->b[buffer].spec->name);
    *at = (uint8_t *)b->b[buffer].data + index * *size;
    return WS_OK;
}

int ws_buffers_read_elem(void *bufs, int buffer, uint64_t index, void *elem, ws_error *err)
{
    uint8_t *at = NULL;
    size_t size = 0;
    int rc = ws_elem_at(bufs, buffer, index, &at, &size, err);
    if (rc == WS_OK)
        memcpy(elem, at, size);
    return rc;
}

int ws_buffers_write_elem(void *bufs, int buffer, uint64_t index, const void *elem,
                          ws_error *err)
{
    uint8_t *at = NULL;
    size_t size = 0;
    int rc = ws_elem_at(bufs, buffer, index, &at, &size, err);
    if (rc == WS_OK)
        memcpy(at, elem, size);
    return rc;
}
