/* region.c — resolves a spec's regions against its .cu: checks line ranges and finds a
 * __device__ function's definition (its first line to its closing brace); marks the
 * constants the .cu declares as names (passed to nvcc as WS_NAME). A light C scanner that
 * skips comments, strings and character literals; not a C parser. */
#include "core/core_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define WS_SPEC_FAIL(p, line, ...) ws_error_at((p)->err, WS_ERR_SPEC, (p)->path, line, __VA_ARGS__)

typedef struct ws_scan {
    const char *p;
    int line;
} ws_scan;

/* Skips a comment, string or character literal at sc->p; returns 1 when it did. */
static int ws_scan_skip_literal(ws_scan *sc)
{
    const char *p = sc->p;
    if (p[0] == '/' && p[1] == '/') {
        while (*p && *p != '\n')
            p++;
    } else if (p[0] == '/' && p[1] == '*') {
        for (p += 2; *p && !(p[0] == '*' && p[1] == '/'); p++)
            sc->line += *p == '\n';
        if (*p)
            p += 2;
    } else if (p[0] == '"' || p[0] == '\'') {
        char q = *p++;
        for (; *p && *p != q && *p != '\n'; p++)
            if (*p == '\\' && p[1])
                p++;
        if (*p == q)
            p++;
    } else {
        return 0;
    }
    sc->p = p;
    return 1;
}

/* Advances one character (or one literal), counting lines. */
static void ws_scan_step(ws_scan *sc)
{
    if (ws_scan_skip_literal(sc))
        return;
    sc->line += *sc->p == '\n';
    sc->p++;
}

static void ws_scan_space(ws_scan *sc)
{
    while (*sc->p && (isspace((unsigned char)*sc->p) || ws_scan_skip_literal(sc)))
        if (isspace((unsigned char)*sc->p))
            ws_scan_step(sc);
}

/* Moves past the bracket that closes the one at sc->p; 0 when unbalanced. */
static int ws_scan_match(ws_scan *sc, char open, char close)
{
    int depth = 0;
    while (*sc->p) {
        char c = *sc->p;
        if (ws_scan_skip_literal(sc))
            continue;
        ws_scan_step(sc);
        if (c == open)
            depth++;
        else if (c == close && --depth == 0)
            return 1;
    }
    return 0;
}

/* Finds the definition of `name` in `text`: "name(...) {...}". */
static int ws_find_function(const char *text, const char *name, int *first, int *last)
{
    size_t n = strlen(name);
    ws_scan sc = {text, 1};
    while (*sc.p) {
        if (ws_scan_skip_literal(&sc))
            continue;
        int boundary = sc.p == text || !(isalnum((unsigned char)sc.p[-1]) || sc.p[-1] == '_');
        if (!boundary || strncmp(sc.p, name, n) != 0 ||
            isalnum((unsigned char)sc.p[n]) || sc.p[n] == '_') {
            ws_scan_step(&sc);
            continue;
        }
        int name_line = sc.line;
        sc.p += n;
        ws_scan_space(&sc);
        if (*sc.p != '(')
            continue;
        if (!ws_scan_match(&sc, '(', ')'))
            return 0;
        ws_scan_space(&sc);
        if (*sc.p != '{')
            continue; /* a call or a declaration */
        if (!ws_scan_match(&sc, '{', '}'))
            return 0;
        *first = name_line;
        *last = sc.line;
        return 1;
    }
    return 0;
}

/* ---------------------------------------------------------------- constants in the .cu */

/* Words after which an identifier is an expression, not a name being declared. */
static int ws_expr_keyword(const char *w, size_t n)
{
    static const char *const kw[] = {"return", "case", "sizeof", "else", "do", "goto", "throw",
                                     "new", "delete", "alignof", "co_return", "co_yield",
                                     "co_await", "defined", NULL};
    for (int i = 0; kw[i]; i++)
        if (strlen(kw[i]) == n && strncmp(w, kw[i], n) == 0)
            return 1;
    return 0;
}

/* A built-in type name (int, float4, uint2, size_t, ...): `TYPE *NAME` declares NAME. */
static int ws_type_word(const char *w, size_t n)
{
    static const char *const types[] = {"void", "char", "short", "int", "long", "float",
                                        "double", "signed", "unsigned", "bool", "half", "__half",
                                        "uint", "uchar", "ushort", "ulong", "longlong",
                                        "ulonglong", "__nv_bfloat16", NULL};
    if (n > 2 && w[n - 2] == '_' && w[n - 1] == 't')
        return 1;
    while (n > 1 && isdigit((unsigned char)w[n - 1]))
        n--;
    for (int i = 0; types[i]; i++)
        if (strlen(types[i]) == n && strncmp(w, types[i], n) == 0)
            return 1;
    return 0;
}

static size_t ws_ident_len(const char *p)
{
    size_t n = 0;
    if (!(isalpha((unsigned char)*p) || *p == '_'))
        return 0;
    while (isalnum((unsigned char)p[n]) || p[n] == '_')
        n++;
    return n;
}

/* A preprocessor line at sc->p ('#'): `name` after #define/#undef/#ifdef/#ifndef, or
 * anywhere on #if/#elif, is a macro use. Moves past the line (continuations too). */
static void ws_scan_directive(ws_scan *sc, const char *name, int *macro)
{
    size_t want = strlen(name);
    sc->p++;
    ws_scan_space(sc);
    size_t dn = ws_ident_len(sc->p);
    const char *d = sc->p;
    int cond = (dn == 2 && !strncmp(d, "if", 2)) || (dn == 4 && !strncmp(d, "elif", 4));
    int names = (dn == 6 && (!strncmp(d, "define", 6) || !strncmp(d, "ifndef", 6))) ||
                (dn == 5 && (!strncmp(d, "undef", 5) || !strncmp(d, "ifdef", 5)));
    sc->p += dn;
    int first = 1;
    while (*sc->p && *sc->p != '\n') {
        if (sc->p[0] == '\\' && sc->p[1] == '\n') {
            sc->p += 2;
            sc->line++;
            continue;
        }
        if (ws_scan_skip_literal(sc))
            continue;
        size_t n = ws_ident_len(sc->p);
        int boundary = !(isalnum((unsigned char)sc->p[-1]) || sc->p[-1] == '_');
        if (n && boundary) {
            if (n == want && !strncmp(sc->p, name, n) && (cond || (names && first)))
                *macro = 1;
            first = 0;
            sc->p += n;
            continue;
        }
        sc->p++;
    }
}

/* Does the .cu use `name` as a macro, and does it declare it: an identifier right after
 * another that is not an expression keyword (`int N`, `struct N`), after a built-in type
 * and stars (`float *N`), or after . or ->? */
static void ws_scan_const_uses(const char *text, const char *name, int *macro, int *declared)
{
    size_t want = strlen(name);
    ws_scan sc = {text, 1};
    int after_word = 0, after_type = 0, line_start = 1;
    *macro = *declared = 0;
    while (*sc.p) {
        if (ws_scan_skip_literal(&sc))
            continue;
        char c = *sc.p;
        if (c == '#' && line_start) {
            ws_scan_directive(&sc, name, macro);
            after_word = after_type = 0;
            continue;
        }
        if (isspace((unsigned char)c)) {
            line_start |= c == '\n';
            ws_scan_step(&sc);
            continue;
        }
        line_start = 0;
        size_t n = ws_ident_len(sc.p);
        if (isdigit((unsigned char)c)) {
            while (isalnum((unsigned char)*sc.p) || *sc.p == '.' || *sc.p == '_')
                sc.p++;
            after_word = after_type = 0;
        } else if (n) {
            if (n == want && !strncmp(sc.p, name, n) && after_word)
                *declared = 1;
            after_word = !ws_expr_keyword(sc.p, n);
            after_type = ws_type_word(sc.p, n);
            sc.p += n;
        } else {
            int star = (c == '*' || c == '&') && after_type; /* float *N, int **N, T &N */
            after_word = c == '.' || (c == '>' && sc.p > text && sc.p[-1] == '-') || star;
            after_type = star;
            sc.p++;
        }
    }
}

int ws_source_mentions(const char *text, const char *name)
{
    size_t want = strlen(name);
    ws_scan sc = {text, 1};
    while (*sc.p) {
        if (ws_scan_skip_literal(&sc))
            continue;
        size_t n = ws_ident_len(sc.p);
        if (n && (sc.p == text || !(isalnum((unsigned char)sc.p[-1]) || sc.p[-1] == '_'))) {
            if (n == want && !strncmp(sc.p, name, n))
                return 1;
            sc.p += n;
        } else {
            sc.p++;
        }
    }
    return 0;
}

/* A constant the .cu declares but never uses as a macro reaches nvcc as WS_NAME only. */
static void ws_spec_namespace_consts(ws_parse *p, const char *text)
{
    for (int i = 0; i < p->s->nconsts; i++) {
        ws_const *c = &p->s->consts[i];
        int macro, declared;
        ws_scan_const_uses(text, c->name, &macro, &declared);
        c->namespaced = declared && !macro;
    }
}

static int ws_count_lines(const char *text)
{
    int lines = 0;
    const char *q = text;
    for (; *q; q++)
        lines += *q == '\n';
    if (q > text && q[-1] != '\n')
        lines++;
    return lines;
}

int ws_spec_resolve_regions(ws_parse *p)
{
    ws_spec *s = p->s;
    char *text = NULL;
    ws_error ioerr;
    ws_error_clear(&ioerr);
    if (ws_read_file(s->source, &text, NULL, &ioerr) != WS_OK)
        return WS_SPEC_FAIL(p, p->source_line, "source: %s", ioerr.msg);
    int lines = ws_count_lines(text), rc = WS_OK;
    ws_spec_namespace_consts(p, text);
    for (int i = 0; i < s->nregions && rc == WS_OK; i++) {
        ws_region *r = &s->regions[i];
        if (r->kind == WS_REGION_FUNCTION) {
            if (!ws_find_function(text, r->function, &r->first_line, &r->last_line))
                rc = WS_SPEC_FAIL(p, r->line, "region '%s': function '%s' not found in %s",
                                  r->name, r->function, s->source);
        } else if (r->last_line > lines) {
            rc = WS_SPEC_FAIL(p, r->line, "region '%s': lines %d-%d outside %s (%d lines)",
                              r->name, r->first_line, r->last_line, s->source, lines);
        }
    }
    free(text);
    return rc;
}
