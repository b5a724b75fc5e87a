/* test_viewer_cli.c — `warpscope map` end to end over a real database: the page and the
 * terminal view (plain when not a tty, ANSI colour under a pseudo-terminal), and every
 * error a user can see: bad run id, unknown run, no database, unwritable output, --warp. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "store/store.h"
#include "tests/check.h"
#include "tests/viewer/vw_fixture.h"

#define OUT WS_BINARY_DIR "/tests/out"
#define WS WS_BINARY_DIR "/warpscope"

static char out_text[1 << 20], err_text[1 << 14];

static char *slurp(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "rb");
    buf[0] = '\0';
    if (!f) return buf;
    size_t got = fread(buf, 1, n - 1, f);
    buf[got] = '\0';
    fclose(f);
    return buf;
}

/* Runs `warpscope ARGS`, stdout and stderr to files; returns the exit status. */
static int ws_run(const char *args)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s %s > %s/cli.out 2> %s/cli.err", WS, args, OUT, OUT);
    int st = system(cmd);
    slurp(OUT "/cli.out", out_text, sizeof out_text);
    slurp(OUT "/cli.err", err_text, sizeof err_text);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void save(ws_store *st, int shift, int with_text, int64_t *id)
{
    ws_result r;
    ws_error err;
    vw_fixture_build(&r, shift, with_text);
    CHECK(ws_store_save_result(st, &r, id, &err) == WS_OK, "save: %s", err.msg);
    ws_result_free(&r);
}

int main(void)
{
    mkdir(WS_BINARY_DIR "/tests", 0777);
    mkdir(OUT, 0777);
    const char *db = OUT "/viewer_cli.db";
    remove(db);
    ws_store *st = NULL;
    ws_error err;
    CHECK(ws_store_open(db, &st, &err) == WS_OK, "open: %s", err.msg);
    if (!st) return ws_test_finish("viewer_cli");
    int64_t a = 0, b = 0, notext = 0;
    save(st, 0, 1, &a);
    save(st, 4, 1, &b);
    save(st, 0, 0, &notext);
    ws_store_close(st);
    char args[1024];
    const char *page = OUT "/cli_map.html";
    remove(page);

    snprintf(args, sizeof args, "map --db %s %lld %lld -o %s", db, (long long)a, (long long)b, page);
    CHECK(ws_run(args) == 0, "map two runs: %s", err_text);
    CHECK(strstr(out_text, "wrote ") != NULL, "says what it wrote: %s", out_text);
    slurp(page, out_text, sizeof out_text);
    CHECK(strstr(out_text, "<table class=\"src cmp\">") && vw_count(out_text, "<svg class=\"cfg\"") == 2,
          "page has both runs side by side");
    snprintf(args, sizeof args, "run %lld and run %lld, side by side", (long long)a, (long long)b);
    CHECK(strstr(out_text, args) != NULL, "runs named by id");

    snprintf(args, sizeof args, "map --db %s %lld --term", db, (long long)a);
    CHECK(ws_run(args) == 0 && strstr(out_text, "acc = v * 3;") && !strchr(out_text, '\033'),
          "--term to a file is plain: %s", err_text);
    /* under a pseudo-terminal the same command colours its output */
    snprintf(args, sizeof args, "script -qec '%s map --db %s %lld --term' /dev/null", WS, db, (long long)a);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "%s > %s/cli.tty 2>&1", args, OUT);
    if (system("command -v script >/dev/null 2>&1") == 0) {
        CHECK(system(cmd) == 0, "script");
        slurp(OUT "/cli.tty", out_text, sizeof out_text);
        CHECK(strstr(out_text, "\033[38;5;") != NULL, "--term on a tty is coloured");
    }

    snprintf(args, sizeof args, "map --db %s 999 -o %s", db, page);
    CHECK(ws_run(args) == 1 && strstr(err_text, "no run 999 in"), "unknown run: %s", err_text);
    snprintf(args, sizeof args, "map --db %s 12abc", db);
    CHECK(ws_run(args) == 2 && strstr(err_text, "'12abc' is not a run id"), "bad id: %s", err_text);
    snprintf(args, sizeof args, "map --db %s abc", db);
    CHECK(ws_run(args) == 1 && strstr(err_text, "no sim run of workload 'abc' in"), "no such workload: %s", err_text);
    snprintf(args, sizeof args, "map --db %s fixture_branch 1", db);
    CHECK(ws_run(args) == 2 && strstr(err_text, "give run ids or one workload name, not both"), "mixed: %s", err_text);
    snprintf(args, sizeof args, "map --db %s fixture_branch --source gpu", db);
    CHECK(ws_run(args) == 1 && strstr(err_text, "no gpu run of workload 'fixture_branch'"), "gpu: %s", err_text);
    /* a workload name picks the newest run of each variant: before = the text-less run, after = b */
    snprintf(args, sizeof args, "map --db %s fixture_branch -o %s", db, page);
    CHECK(ws_run(args) == 0 && strstr(out_text, "(2 runs)"), "by workload: %s %s", out_text, err_text);
    slurp(page, out_text, sizeof out_text);
    snprintf(args, sizeof args, "run %lld: fixture_branch / before", (long long)notext);
    CHECK(strstr(out_text, args) != NULL, "newest before run chosen");
    snprintf(args, sizeof args, "run %lld: fixture_branch / after", (long long)b);
    CHECK(strstr(out_text, args) != NULL, "after run chosen");
    snprintf(args, sizeof args, "map --db %s", db);
    CHECK(ws_run(args) == 2 && strstr(err_text, "which run?"), "no id: %s", err_text);
    snprintf(args, sizeof args, "map --db %s 1 --bogus", db);
    CHECK(ws_run(args) == 2 && strstr(err_text, "unknown option '--bogus'"), "bad option: %s", err_text);
    CHECK(ws_run("map --db " OUT "/no-such.db 1") == 1 && strstr(err_text, "no database '"),
          "no database: %s", err_text);
    struct stat sb;
    CHECK(stat(OUT "/no-such.db", &sb) != 0, "no database created by map");
    snprintf(args, sizeof args, "map --db %s %lld -o /nonexistent-dir/map.html", db, (long long)a);
    CHECK(ws_run(args) == 1 && strstr(err_text, "cannot write '/nonexistent-dir/map.html'"),
          "unwritable output: %s", err_text);
    snprintf(args, sizeof args, "map --db %s %lld --warp 5 -o %s", db, (long long)a, page);
    CHECK(ws_run(args) == 2 && strstr(err_text, "records 1 warp timeline; --warp 5 is out of range"),
          "bad warp: %s", err_text);
    snprintf(args, sizeof args, "map --db %s %lld --warp x", db, (long long)a);
    CHECK(ws_run(args) == 2 && strstr(err_text, "--warp needs a number"), "bad warp value: %s", err_text);
    snprintf(args, sizeof args, "map --db %s %lld -o", db, (long long)a);
    CHECK(ws_run(args) == 2 && strstr(err_text, "-o needs a FILE"), "-o value: %s", err_text);

    snprintf(args, sizeof args, "map --db %s %lld -o %s", db, (long long)notext, page);
    CHECK(ws_run(args) == 0 && strstr(err_text, "has no source text for /src/fixture_branch.cu"),
          "missing source noted: %s", err_text);
    slurp(page, out_text, sizeof out_text);
    CHECK(strstr(out_text, "source text of this file is not in the result") != NULL, "page says so");
    return ws_test_finish("viewer_cli");
}
