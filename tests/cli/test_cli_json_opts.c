/* test_cli_json_opts.c — the CLI's two shared pieces alone: the JSON writer (commas,
 * nesting, a run's parts, non-finite numbers as null, which every command prints with)
 * and the table-driven option parser (values, ranges, errors, -D, operands, --help). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "tests/check.h"

/* What `fn` writes through a ws_json, as a string (caller frees). */
static char *capture(void (*fn)(ws_json *, const void *), const void *arg)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ws_json j;
    ws_json_begin(&j, f);
    fn(&j, arg);
    fclose(f);
    return buf;
}

static void write_values(ws_json *j, const void *arg)
{
    (void)arg;
    ws_json_object(j, NULL);
    ws_json_num(j, "nan", NAN);
    ws_json_num(j, "inf", -INFINITY);
    ws_json_num(j, "half", 0.5);
    ws_json_int(j, "n", -3);
    ws_json_bool(j, "t", 1);
    ws_json_bool(j, "u", -1);
    ws_json_raw(j, "raw", "");
    ws_json_array(j, "a");
    ws_json_str(j, NULL, "x\"y");
    ws_json_u64(j, NULL, 7);
    ws_json_end(j);
    ws_json_end(j);
}

static void write_run(ws_json *j, const void *arg)
{
    ws_json_object(j, NULL);
    ws_json_run(j, arg);
    ws_json_end(j);
}

static void test_json(void)
{
    char *s = capture(write_values, NULL);
    CHECK(!strcmp(s, "{\"nan\": null, \"inf\": null, \"half\": 0.5, \"n\": -3, \"t\": true, "
                     "\"u\": null, \"raw\": null, \"a\": [\"x\\\"y\", 7]}"),
          "values: %s", s);
    free(s);

    ws_result r;
    ws_result_init(&r);
    snprintf(r.workload, sizeof r.workload, "w");
    ws_result_set_metric(&r, WS_M(SIM_TIME_NS), NAN);
    ws_result_set_metric(&r, WS_M(SIM_CYCLES), INFINITY);
    ws_result_set_metric(&r, WS_M(SIM_SMS), 132);
    s = capture(write_run, &r);
    CHECK(strstr(s, "\"metrics\": {\"sim__time_ns\": null, \"sim__cycles\": null, "
                    "\"sim__sms\": 132}") != NULL, "a run's non-finite metrics are null: %s", s);
    CHECK(strstr(s, "\"outputs_checked\": false, \"outputs_match\": null") != NULL,
          "unchecked outputs: %s", s);
    CHECK(strstr(s, "\"grid\": [0, 0, 0]") && strstr(s, "\"warnings\": []}"), "run: %s", s);
    free(s);
    ws_result_free(&r);
}

typedef struct args {
    int flag, n;
    const char *file;
    ws_cli_defines defs;
    const ws_opt *opts;
    int nopts;
} args;

/* Parses the words of `line` (modified) into `a`; returns ws_cli_parse's result. */
static int parse(args *a, char *line, const char **pos, int *npos, ws_error *err)
{
    char *argv[16] = {"cmd"};
    int argc = 1;
    for (char *t = strtok(line, " "); t && argc < 16; t = strtok(NULL, " "))
        argv[argc++] = t;
    const ws_cli_cmd c = {"cmd", "warpscope cmd X [options]", "About it.", a->opts, a->nopts};
    ws_error_clear(err);
    return ws_cli_parse(&c, argc, argv, pos, 1, npos, err);
}

static void test_opts(void)
{
    args a;
    memset(&a, 0, sizeof a);
    const ws_opt opts[] = {
        {"X", WS_OPT_POSITIONAL, NULL, NULL, "the operand", 0, 0},
        {"-D", WS_OPT_DEFINE, &a.defs, "NAME=VALUE", "a define", 0, 0},
        {"--flag", WS_OPT_FLAG, &a.flag, NULL, "a flag", 0, 0},
        {"--n", WS_OPT_INT, &a.n, "N", "a number\nof two lines", 2, 9},
        {"--file", WS_OPT_STRING, &a.file, "FILE", "a file", 0, 0},
    };
    a.opts = opts;
    a.nopts = WS_CLI_NOPTS(opts);
    const char *pos = NULL;
    int npos = 0;
    ws_error err;
    char line[256];

    snprintf(line, sizeof line, "--flag w --n 3 -D A=1 -DB=2 --file f");
    CHECK(parse(&a, line, &pos, &npos, &err) == 0, "good line: %s", err.msg);
    CHECK(a.flag == 1 && a.n == 3 && a.file && !strcmp(a.file, "f") && npos == 1 &&
          !strcmp(pos, "w"), "values taken");
    CHECK(a.defs.n == 2 && !strcmp(a.defs.defs[1].name, "B") && !strcmp(a.defs.defs[1].value, "2"),
          "-D separate and glued");

    struct { const char *line, *msg; } bad[] = {
        {"--n 10", "cmd: --n needs a number from 2 to 9, not '10' (try 'warpscope cmd --help')"},
        {"--n", "cmd: --n needs a number from 2 to 9 (try 'warpscope cmd --help')"},
        {"--file", "cmd: --file needs a FILE (try 'warpscope cmd --help')"},
        {"--nope", "cmd: unknown option '--nope' (try 'warpscope cmd --help')"},
        {"a b", "cmd: unexpected argument 'b' (try 'warpscope cmd --help')"},
        {"-D =1", NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(line, sizeof line, "%s", bad[i].line);
        int rc = parse(&a, line, &pos, &npos, &err);
        CHECK(rc == -1 && err.code == WS_ERR_USAGE, "'%s' fails as usage (rc %d)", bad[i].line, rc);
        CHECK(!bad[i].msg || !strcmp(err.msg, bad[i].msg), "'%s': %s", bad[i].line, err.msg);
    }

    char *help = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&help, &len);
    const ws_cli_cmd c = {"cmd", "warpscope cmd X [options]", "About it.", opts, a.nopts};
    ws_cli_help(&c, f);
    fclose(f);
    CHECK(!strcmp(help, "usage: warpscope cmd X [options]\n\nAbout it.\n\n"
                        "  X              the operand\n"
                        "  -D NAME=VALUE  a define\n"
                        "  --flag         a flag\n"
                        "  --n N          a number\n"
                        "                 of two lines\n"
                        "  --file FILE    a file\n"), "help from the table:\n%s", help);
    free(help);
}

int main(void)
{
    test_json();
    test_opts();
    return ws_test_finish("test_cli_json_opts");
}
