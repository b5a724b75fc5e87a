/* check.h — the tests' whole framework: CHECK(cond, fmt...) records a failure and goes on;
 * TEST_MAIN prints "N passed, N failed" and exits non-zero on any failure. */
#ifndef WS_TEST_CHECK_H
#define WS_TEST_CHECK_H
#include <stdio.h>

static int ws_test_passed, ws_test_failed;

#define CHECK(cond, ...)                                                         \
    do {                                                                         \
        if (cond) {                                                              \
            ws_test_passed++;                                                    \
        } else {                                                                 \
            ws_test_failed++;                                                    \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                        \
            fputc('\n', stderr);                                                 \
        }                                                                        \
    } while (0)

/* Prints the closing line and returns main's exit code. */
static inline int ws_test_finish(const char *suite)
{
    printf("%s: %d passed, %d failed\n", suite, ws_test_passed, ws_test_failed);
    return ws_test_failed ? 1 : 0;
}
#endif
