/* ptx_lex.c — the PTX lexer: text -> tokens with line numbers, plus the small string map
 * the parser uses for names. Knows nothing about PTX grammar beyond what a token is;
 * dotted opcodes (ld.global.u32) and registers (%tid.x) stay one WORD token. */
#include <stdlib.h>
#include <string.h>
#include "sim/ptx_parse.h"

static int is_word_start(int ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' || ch == '$' ||
           ch == '%' || ch == '.';
}

static int is_word_char(int ch)
{
    return is_word_start(ch) || (ch >= '0' && ch <= '9');
}

static int is_num_char(int ch)
{
    return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
           ch == '.';
}

static int push_tok(ws_tok **toks, int *n, int *cap, int kind, int line, const char *s, int len)
{
    if (*n == *cap) {
        int nc = *cap ? *cap * 2 : 1024;
        ws_tok *nt = realloc(*toks, (size_t)nc * sizeof **toks);
        if (!nt)
            return -1;
        *toks = nt;
        *cap = nc;
    }
    ws_tok *t = &(*toks)[(*n)++];
    t->kind = kind;
    t->line = line;
    t->s = s;
    t->len = len;
    return 0;
}

/* Length of a word starting at p: word characters, and '::' inside (shared::cta). */
static size_t word_len(const char *p, const char *end)
{
    const char *q = p + 1;
    for (;;) {
        while (q < end && is_word_char((unsigned char)*q))
            q++;
        if (q + 2 < end && q[0] == ':' && q[1] == ':' && is_word_char((unsigned char)q[2]))
            q += 2;
        else
            break;
    }
    return (size_t)(q - p);
}

int ws_ptx_lex(const char *text, size_t len, const char *name, ws_tok **toks, int *ntoks,
               ws_error *err)
{
    const char *p = text, *end = text + len;
    int line = 1, n = 0, cap = 0;
    ws_tok *out = NULL;
    while (p < end) {
        int ch = (unsigned char)*p;
        if (ch == '\n') { line++; p++; continue; }
        if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v') { p++; continue; }
        if (ch == '/' && p + 1 < end && p[1] == '/') {
            while (p < end && *p != '\n')
                p++;
            continue;
        }
        if (ch == '/' && p + 1 < end && p[1] == '*') {
            int start = line;
            p += 2;
            while (p + 1 < end && !(p[0] == '*' && p[1] == '/')) {
                if (*p == '\n')
                    line++;
                p++;
            }
            if (p + 1 >= end) {
                free(out);
                return ws_error_at(err, WS_ERR_PTX, name, start, "unterminated comment");
            }
            p += 2;
            continue;
        }
        const char *s = p;
        int kind;
        if (ch == '"') {
            p++;
            while (p < end && *p != '"' && *p != '\n')
                p++;
            if (p >= end || *p != '"') {
                free(out);
                if (p >= end)
                    return ws_error_at(err, WS_ERR_PTX, name, line, "unexpected end of file "
                                       "inside a string (truncated PTX?)");
                return ws_error_at(err, WS_ERR_PTX, name, line, "unterminated string");
            }
            if (push_tok(&out, &n, &cap, WS_TK_STR, line, s + 1, (int)(p - s - 1)))
                goto nomem;
            p++;
            continue;
        }
        if (ch >= '0' && ch <= '9') {
            kind = WS_TK_NUM;
            while (p < end && is_num_char((unsigned char)*p))
                p++;
        } else if (is_word_start(ch)) {
            kind = WS_TK_WORD;
            p += word_len(p, end);
        } else if (strchr("{}()[],;:@!|+-<>=", ch)) {
            kind = WS_TK_PUNCT;
            p++;
        } else {
            free(out);
            return ws_error_at(err, WS_ERR_PTX, name, line, "unexpected character '%c'",
                               ch >= 32 && ch < 127 ? ch : '?');
        }
        if (push_tok(&out, &n, &cap, kind, line, s, (int)(p - s)))
            goto nomem;
    }
    /* end of file is reported at the last line that held a token */
    if (push_tok(&out, &n, &cap, WS_TK_EOF, n ? out[n - 1].line : 1, end, 0))
        goto nomem;
    *toks = out;
    *ntoks = n;
    return WS_OK;
nomem:
    free(out);
    return ws_error_set(err, WS_ERR_NOMEM, "out of memory lexing %s", name);
}

/* ---------------------------------------------------------------- string map */

static uint32_t hash_str(const char *s, int len)
{
    uint32_t h = 2166136261u;
    for (int i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

void ws_strmap_init(ws_strmap *m)
{
    m->slots = NULL;
    m->cap = m->n = 0;
}

void ws_strmap_clear(ws_strmap *m)
{
    for (int i = 0; i < m->cap; i++) {
        free(m->slots[i].key);
        m->slots[i].key = NULL;
    }
    m->n = 0;
}

void ws_strmap_free(ws_strmap *m)
{
    ws_strmap_clear(m);
    free(m->slots);
    ws_strmap_init(m);
}

static ws_strmap_slot *find_slot(const ws_strmap *m, const char *s, int len)
{
    uint32_t mask = (uint32_t)m->cap - 1, i = hash_str(s, len) & mask;
    for (;;) {
        ws_strmap_slot *sl = &m->slots[i];
        if (!sl->key || (sl->len == len && memcmp(sl->key, s, (size_t)len) == 0))
            return sl;
        i = (i + 1) & mask;
    }
}

int ws_strmap_get(const ws_strmap *m, const char *s, int len)
{
    if (!m->cap)
        return -1;
    const ws_strmap_slot *sl = find_slot(m, s, len);
    return sl->key ? sl->val : -1;
}

static int grow(ws_strmap *m)
{
    int nc = m->cap ? m->cap * 2 : 64;
    ws_strmap_slot *old = m->slots;
    int oc = m->cap;
    m->slots = calloc((size_t)nc, sizeof *m->slots);
    if (!m->slots) {
        m->slots = old;
        return -1;
    }
    m->cap = nc;
    for (int i = 0; i < oc; i++)
        if (old[i].key)
            *find_slot(m, old[i].key, old[i].len) = old[i];
    free(old);
    return 0;
}

int ws_strmap_put(ws_strmap *m, const char *s, int len, int val)
{
    if ((m->n + 1) * 2 > m->cap && grow(m))
        return -2;
    ws_strmap_slot *sl = find_slot(m, s, len);
    if (sl->key) {
        int prev = sl->val;
        sl->val = val;
        return prev;
    }
    sl->key = malloc((size_t)len + 1);
    if (!sl->key)
        return -2;
    memcpy(sl->key, s, (size_t)len);
    sl->key[len] = 0;
    sl->len = len;
    sl->val = val;
    m->n++;
    return -1;
}
