/* ptx_test.h — helpers shared by the PTX front-end tests: read files, find "// @marker"
 * lines in .cu sources, parse PTX text, find functions by C name, and an independent
 * statement counter over PTX text (a cross-check of the parser's instruction counts). */
#ifndef WS_TEST_PTX_TEST_H
#define WS_TEST_PTX_TEST_H

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/ir.h"
#include "tests/check.h"

static inline char *pt_slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = 0;
    fclose(f);
    return s;
}

/* Line (1-based) of the comment "// @marker" in text; 0 when absent. */
static inline int pt_marker_line(const char *text, const char *marker)
{
    char pat[96];
    snprintf(pat, sizeof pat, "// @%s", marker);
    size_t n = strlen(pat);
    int line = 1;
    for (const char *p = text; *p; p++) {
        if (*p == '\n')
            line++;
        else if (strncmp(p, pat, n) == 0 && !isalnum((unsigned char)p[n]) && p[n] != '_')
            return line;
    }
    return 0;
}

/* The function whose mangled name is _Z<len><cname>... or exactly cname. */
static inline const ws_function *pt_find(const ws_module *m, const char *cname)
{
    char pre[160];
    snprintf(pre, sizeof pre, "_Z%zu%s", strlen(cname), cname);
    for (int i = 0; i < m->nfuncs; i++)
        if (strcmp(m->funcs[i].name, cname) == 0 ||
            strncmp(m->funcs[i].name, pre, strlen(pre)) == 0)
            return &m->funcs[i];
    return NULL;
}

static inline ws_module *pt_parse(const char *text, const char *name, ws_error *err)
{
    ws_module *m = NULL;
    if (ws_ptx_parse(text, strlen(text), name, &m, err) != WS_OK)
        return NULL;
    return m;
}

/* Counts instruction statements per the PTX layout nvcc writes: inside function bodies, a
 * line that starts with a lowercase opcode or '@' begins a statement, which ends at ';'.
 * .section blocks and directives are skipped. Independent of the parser on purpose. */
static inline int pt_count_statements(const char *text)
{
    int depth = 0, in_section = 0, continuing = 0, count = 0;
    const char *p = text;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char line[1024];
        size_t n = len < sizeof line - 1 ? len : sizeof line - 1;
        memcpy(line, p, n);
        line[n] = 0;
        char *cm = strstr(line, "//");
        if (cm)
            *cm = 0;
        char *s = line;
        while (*s == ' ' || *s == '\t')
            s++;
        size_t sl = strlen(s);
        while (sl && isspace((unsigned char)s[sl - 1]))
            s[--sl] = 0;
        if (strncmp(s, ".section", 8) == 0)
            in_section = 1;
        int body = depth > 0 && !in_section;
        if (body && continuing) {
            if (sl && s[sl - 1] == ';')
                continuing = 0;
        } else if (body && (islower((unsigned char)s[0]) || s[0] == '@')) {
            count++;
            continuing = !(sl && s[sl - 1] == ';');
        }
        for (char *q = s; *q; q++) {
            if (*q == '{')
                depth++;
            else if (*q == '}' && --depth == 0)
                in_section = 0;
        }
        p = eol ? eol + 1 : p + len;
    }
    return count;
}

#endif
