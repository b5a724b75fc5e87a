/* test_core_spawn.c — ws_spawn, the one way core runs nvcc and ptxas: exit status, output
 * captured to the file, a program that cannot start, a child that is killed. */
#include "core/core_internal.h"
#include "tests/check.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
    char out[64];
    snprintf(out, sizeof out, "spawn-test.%d.out", (int)getpid());
    char *say[] = {"sh", "-c", "echo to-stdout; echo to-stderr >&2; exit 3", NULL};
    CHECK(ws_spawn(say, out, NULL) == 3, "exit status");
    char *text = NULL;
    ws_error err;
    CHECK(ws_read_file(out, &text, NULL, &err) == WS_OK && text &&
              strstr(text, "to-stdout") && strstr(text, "to-stderr"),
          "stdout and stderr in the file: %s", text ? text : "(none)");
    free(text);
    char *ok[] = {"true", NULL};
    CHECK(ws_spawn(ok, out, NULL) == 0, "success is 0");
    char *missing[] = {"/nonexistent/ws-no-such-tool", NULL};
    errno = 0;
    CHECK(ws_spawn(missing, out, NULL) == -1 && errno == ENOENT, "cannot start: -1, ENOENT (%d)", errno);
    char *killed[] = {"sh", "-c", "kill -9 $$", NULL};
    CHECK(ws_spawn(killed, out, NULL) == -2, "killed: -2");
    unlink(out);
    return ws_test_finish("test_core_spawn");
}
