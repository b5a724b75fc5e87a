/* expr.c — the integer expressions of workload specs: constants, counts, launch shapes.
 * A recursive-descent evaluator over C precedence; overflow and division by zero are
 * errors, never undefined behaviour. Knows nothing about where names come from. */
#include "core/core_internal.h"

#include <ctype.h>
#include <string.h>

typedef struct ws_expr {
    const char *text, *p;
    const ws_expr_env *env;
} ws_expr;

static int ws_expr_fail(ws_expr *x, const char *what)
{
    return ws_error_at(x->env->err, WS_ERR_SPEC, x->env->file, x->env->line,
                       "bad expression '%s': %s", x->text, what);
}

static void ws_expr_skip(ws_expr *x)
{
    while (isspace((unsigned char)*x->p))
        x->p++;
}

static int ws_expr_accept(ws_expr *x, const char *tok)
{
    ws_expr_skip(x);
    size_t n = strlen(tok);
    if (strncmp(x->p, tok, n) != 0)
        return 0;
    x->p += n;
    return 1;
}

static int ws_expr_shift(ws_expr *x, int64_t *v);

static int ws_expr_number(ws_expr *x, int64_t *v)
{
    const char *p = x->p;
    uint64_t acc = 0;
    int base = 10;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && isxdigit((unsigned char)p[2])) {
        base = 16;
        p += 2;
    }
    for (; isalnum((unsigned char)*p); p++) {
        int d = isdigit((unsigned char)*p) ? *p - '0'
                : (base == 16 && isxdigit((unsigned char)*p)) ? tolower(*p) - 'a' + 10 : -1;
        if (d < 0)
            return ws_expr_fail(x, "not an integer literal");
        if (acc > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
            return ws_expr_fail(x, "integer literal too large");
        acc = acc * (uint64_t)base + (uint64_t)d;
    }
    if (*p == '.')
        return ws_expr_fail(x, "not an integer (fractions are not allowed here)");
    if (acc > (uint64_t)INT64_MAX)
        return ws_expr_fail(x, "integer literal too large");
    x->p = p;
    *v = (int64_t)acc;
    return WS_OK;
}

/* min(a,b) / max(a,b) after the name was read. */
static int ws_expr_call(ws_expr *x, int is_max, int64_t *v)
{
    int64_t a, b;
    int rc;
    if (!ws_expr_accept(x, "("))
        return ws_expr_fail(x, "expected '(' after min/max");
    if ((rc = ws_expr_shift(x, &a)) != WS_OK)
        return rc;
    if (!ws_expr_accept(x, ","))
        return ws_expr_fail(x, "expected ',' in min/max");
    if ((rc = ws_expr_shift(x, &b)) != WS_OK)
        return rc;
    if (!ws_expr_accept(x, ")"))
        return ws_expr_fail(x, "expected ')' after min/max arguments");
    *v = is_max ? (a > b ? a : b) : (a < b ? a : b);
    return WS_OK;
}

static int ws_expr_name(ws_expr *x, int64_t *v)
{
    char name[WS_NAME_MAX];
    size_t n = 0;
    while (isalnum((unsigned char)x->p[n]) || x->p[n] == '_')
        n++;
    if (n >= sizeof name)
        return ws_expr_fail(x, "name too long");
    memcpy(name, x->p, n);
    name[n] = '\0';
    x->p += n;
    ws_expr_skip(x);
    if (*x->p == '(' && (strcmp(name, "min") == 0 || strcmp(name, "max") == 0))
        return ws_expr_call(x, name[1] == 'a', v);
    if (!x->env->lookup)
        return ws_error_at(x->env->err, WS_ERR_SPEC, x->env->file, x->env->line,
                           "unknown constant '%s' in '%s'", name, x->text);
    return x->env->lookup(x->env->ctx, name, v, x->env->err);
}

static int ws_expr_primary(ws_expr *x, int64_t *v)
{
    ws_expr_skip(x);
    char c = *x->p;
    if (c == '(') {
        x->p++;
        int rc = ws_expr_shift(x, v);
        if (rc != WS_OK)
            return rc;
        return ws_expr_accept(x, ")") ? WS_OK : ws_expr_fail(x, "missing ')'");
    }
    if (isdigit((unsigned char)c))
        return ws_expr_number(x, v);
    if (isalpha((unsigned char)c) || c == '_')
        return ws_expr_name(x, v);
    return ws_expr_fail(x, c ? "unexpected character" : "unexpected end");
}

static int ws_expr_unary(ws_expr *x, int64_t *v)
{
    if (ws_expr_accept(x, "-")) {
        int rc = ws_expr_unary(x, v);
        if (rc != WS_OK)
            return rc;
        if (*v == INT64_MIN)
            return ws_expr_fail(x, "integer overflow");
        *v = -*v;
        return WS_OK;
    }
    if (ws_expr_accept(x, "+"))
        return ws_expr_unary(x, v);
    return ws_expr_primary(x, v);
}

static int ws_expr_mul(ws_expr *x, int64_t *v)
{
    int rc = ws_expr_unary(x, v);
    while (rc == WS_OK) {
        ws_expr_skip(x);
        char op = *x->p;
        if (op != '*' && op != '/' && op != '%')
            break;
        x->p++;
        int64_t r;
        if ((rc = ws_expr_unary(x, &r)) != WS_OK)
            break;
        if (op == '*') {
            if (__builtin_mul_overflow(*v, r, v))
                return ws_expr_fail(x, "integer overflow");
            continue;
        }
        if (r == 0)
            return ws_expr_fail(x, "division by zero");
        if (*v == INT64_MIN && r == -1)
            return ws_expr_fail(x, "integer overflow");
        *v = op == '/' ? *v / r : *v % r;
    }
    return rc;
}

static int ws_expr_add(ws_expr *x, int64_t *v)
{
    int rc = ws_expr_mul(x, v);
    while (rc == WS_OK) {
        ws_expr_skip(x);
        char op = *x->p;
        if (op != '+' && op != '-')
            break;
        x->p++;
        int64_t r;
        if ((rc = ws_expr_mul(x, &r)) != WS_OK)
            break;
        int over = op == '+' ? __builtin_add_overflow(*v, r, v) : __builtin_sub_overflow(*v, r, v);
        if (over)
            return ws_expr_fail(x, "integer overflow");
    }
    return rc;
}

static int ws_expr_shift(ws_expr *x, int64_t *v)
{
    int rc = ws_expr_add(x, v);
    while (rc == WS_OK) {
        int left = ws_expr_accept(x, "<<");
        if (!left && !ws_expr_accept(x, ">>"))
            break;
        int64_t r;
        if ((rc = ws_expr_add(x, &r)) != WS_OK)
            break;
        if (r < 0 || r > 62)
            return ws_expr_fail(x, "shift count out of range 0..62");
        if (left) {
            if (*v < 0 || *v > (INT64_MAX >> r))
                return ws_expr_fail(x, "integer overflow");
            *v <<= r;
        } else {
            *v >>= r; /* arithmetic, as gcc does for negative values */
        }
    }
    return rc;
}

int ws_expr_eval(const char *text, const ws_expr_env *env, int64_t *out)
{
    ws_expr x = {text, text, env};
    int64_t v = 0;
    int rc = ws_expr_shift(&x, &v);
    if (rc != WS_OK)
        return rc;
    ws_expr_skip(&x);
    if (*x.p)
        return ws_expr_fail(&x, "unexpected text after the expression");
    *out = v;
    return WS_OK;
}

int ws_is_ident(const char *s)
{
    if (!(isalpha((unsigned char)*s) || *s == '_'))
        return 0;
    for (s++; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_'))
            return 0;
    return 1;
}
