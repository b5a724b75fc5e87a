/* test_core_expr.c — the spec's integer expressions: precedence, associativity, min/max,
 * names, and every error (division by zero, overflow, syntax). */
#include "core/core_internal.h"
#include "tests/check.h"

#include <string.h>

static int lookup(void *ctx, const char *name, int64_t *v, ws_error *err)
{
    if (strcmp(name, "N") == 0) {
        *v = 10;
        return WS_OK;
    }
    return ws_error_set(err, WS_ERR_SPEC, "unknown constant '%s'", name);
}

static void ok(const char *text, int64_t want)
{
    ws_error err;
    ws_error_clear(&err);
    ws_expr_env env = {lookup, NULL, "t.spec", 3, &err};
    int64_t v = -12345;
    int rc = ws_expr_eval(text, &env, &v);
    CHECK(rc == WS_OK && v == want, "'%s' = %lld (want %lld), rc %d %s", text, (long long)v,
          (long long)want, rc, err.msg);
}

static void bad(const char *text, const char *want)
{
    ws_error err;
    ws_error_clear(&err);
    ws_expr_env env = {lookup, NULL, "t.spec", 3, &err};
    int64_t v;
    int rc = ws_expr_eval(text, &env, &v);
    CHECK(rc == WS_ERR_SPEC && strstr(err.msg, want) != NULL, "'%s': rc %d msg '%s' (want '%s')",
          text, rc, err.msg, want);
    if (rc == WS_ERR_SPEC && strstr(want, "unknown") == NULL)
        CHECK(err.line == 3 && strcmp(err.file, "t.spec") == 0, "'%s': where %s:%d", text,
              err.file, err.line);
}

int main(void)
{
    ok("42", 42);
    ok("0x1F", 31);
    ok("2+3*4", 14);
    ok("(2+3)*4", 20);
    ok("10-4-3", 3);
    ok("100/10/5", 2);
    ok("7%3", 1);
    ok("-7%3", -1);
    ok("-7/2", -3);
    ok("2*-3", -6);
    ok("--5", 5);
    ok("+5", 5);
    ok("1<<4+1", 32);
    ok("1 << 2 * 3", 64);
    ok("256>>2>>1", 32);
    ok("-16>>2", -4);
    ok("min(3, max(1, 2))", 2);
    ok("max(N, 4) * 2", 20);
    ok("N*N - N", 90);
    ok(" ( N ) ", 10);
    ok("9223372036854775807", INT64_MAX);
    ok("-9223372036854775807-1", INT64_MIN);
    bad("1/0", "division by zero");
    bad("5%(N-10)", "division by zero");
    bad("9223372036854775807+1", "integer overflow");
    bad("4611686018427387904*2", "integer overflow");
    bad("-9223372036854775807-2", "integer overflow");
    bad("99999999999999999999", "too large");
    bad("1<<63", "shift count");
    bad("1<<-1", "shift count");
    bad("(1+2", "missing ')'");
    bad("2 3", "unexpected text");
    bad("", "unexpected end");
    bad("1.5", "fractions");
    bad("3*", "unexpected end");
    bad("@", "unexpected character");
    bad("M+1", "unknown constant 'M'");
    bad("min(1)", "expected ','");
    bad("max 1", "unknown constant 'max'");
    CHECK(ws_is_ident("A_1") && !ws_is_ident("1A") && !ws_is_ident("a-b") && !ws_is_ident(""),
          "identifiers");
    return ws_test_finish("core_expr");
}
