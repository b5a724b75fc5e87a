/* opts.c — the option parser of every subcommand: each declares its options once in a
 * table (name, argument, destination, help) that parses argv and prints `--help`, so the
 * options, their error messages and their help cannot drift apart. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

/* Numbers up to this are stated with their upper bound in messages ("from 16 to 100000"). */
#define WS_OPT_BIG (1 << 20)

static const ws_opt *find_opt(const ws_cli_cmd *c, const char *arg)
{
    for (int i = 0; i < c->nopts; i++) {
        const ws_opt *o = &c->opts[i];
        if (o->kind != WS_OPT_POSITIONAL && !strcmp(o->name, arg))
            return o;
    }
    return NULL;
}

static int number_error(const ws_cli_cmd *c, const ws_opt *o, const char *value, ws_error *err)
{
    char what[256], range[64];
    if (o->hi >= WS_OPT_BIG)
        snprintf(range, sizeof range, ">= %d", o->lo);
    else
        snprintf(range, sizeof range, "from %d to %d", o->lo, o->hi);
    if (value)
        snprintf(what, sizeof what, "%s needs a number %s, not '%.100s'", o->name, range, value);
    else
        snprintf(what, sizeof what, "%s needs a number %s", o->name, range);
    return ws_cli_usage(err, c->name, what);
}

/* Takes the option at argv[*i] (and its value); advances *i past what it used. */
static int take(const ws_cli_cmd *c, const ws_opt *o, int argc, char **argv, int *i,
                ws_error *err)
{
    const char *value = *i + 1 < argc ? argv[*i + 1] : NULL;
    char what[256];
    if (o->kind == WS_OPT_FLAG) {
        *(int *)o->dest = 1;
        return WS_OK;
    }
    if (!value && o->kind == WS_OPT_INT)
        return number_error(c, o, NULL, err);
    if (!value) {
        snprintf(what, sizeof what, "%s needs a %s", o->name, o->arg);
        return ws_cli_usage(err, c->name, what);
    }
    ++*i;
    if (o->kind == WS_OPT_STRING) {
        *(const char **)o->dest = value;
        return WS_OK;
    }
    if (o->kind == WS_OPT_DEFINE)
        return ws_cli_add_define(o->dest, argv[*i], err);
    long long v;
    if (ws_cli_parse_int(value, o->lo, o->hi, &v))
        return number_error(c, o, value, err);
    *(int *)o->dest = (int)v;
    return WS_OK;
}

int ws_cli_add_define(ws_cli_defines *d, char *kv, ws_error *err)
{
    if (d->n >= WS_CLI_MAX_DEFINES)
        return ws_error_set(err, WS_ERR_USAGE, "too many -D defines (at most %d)",
                            WS_CLI_MAX_DEFINES);
    if (ws_define_parse(kv, &d->defs[d->n], err) != WS_OK)
        return err->code;
    d->n++;
    return WS_OK;
}

int ws_cli_parse(const ws_cli_cmd *c, int argc, char **argv, const char **pos, int maxpos,
                 int *npos, ws_error *err)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            ws_cli_help(c, stdout);
            return 1;
        }
    *npos = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const ws_opt *o = find_opt(c, arg);
        /* -DNAME=VALUE: a define glued to its flag. */
        if (!o && !strncmp(arg, "-D", 2) && (o = find_opt(c, "-D")) != NULL) {
            if (ws_cli_add_define(o->dest, argv[i] + 2, err) != WS_OK)
                return -1;
            continue;
        }
        char what[256];
        if (o) {
            if (take(c, o, argc, argv, &i, err) != WS_OK)
                return -1;
        } else if (arg[0] == '-' && arg[1]) {
            snprintf(what, sizeof what, "unknown option '%.200s'", arg);
            return -!!ws_cli_usage(err, c->name, what);
        } else if (*npos < maxpos) {
            pos[(*npos)++] = arg;
        } else {
            snprintf(what, sizeof what, "unexpected argument '%.200s'", arg);
            return -!!ws_cli_usage(err, c->name, what);
        }
    }
    return 0;
}

/* "--name ARG" as the help lists it. */
static void left_column(const ws_opt *o, char *buf, size_t n)
{
    if (o->kind == WS_OPT_POSITIONAL || !o->arg)
        snprintf(buf, n, "%s", o->name);
    else
        snprintf(buf, n, "%s %s", o->name, o->arg);
}

void ws_cli_help(const ws_cli_cmd *c, FILE *f)
{
    fprintf(f, "usage: %s\n", c->usage);
    if (c->about && c->about[0])
        fprintf(f, "\n%s\n", c->about);
    int width = 0;
    char left[128];
    for (int i = 0; i < c->nopts; i++) {
        left_column(&c->opts[i], left, sizeof left);
        int len = (int)strlen(left);
        width = len > width ? len : width;
    }
    if (c->nopts)
        fputc('\n', f);
    for (int i = 0; i < c->nopts; i++) {
        left_column(&c->opts[i], left, sizeof left);
        /* A help of several lines continues under its first line's text. */
        const char *h = c->opts[i].help;
        fprintf(f, "  %-*s  ", width, left);
        for (const char *nl; (nl = strchr(h, '\n')) != NULL; h = nl + 1)
            fprintf(f, "%.*s\n  %-*s  ", (int)(nl - h), h, width, "");
        fprintf(f, "%s\n", h);
    }
}
