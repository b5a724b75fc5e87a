/* cmd_list.c — `warpscope list`: the workloads in the kernels folder with their variants,
 * constants and regions, read from their specs. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void print_spec(const ws_spec *s, int verbose)
{
    printf("%-22s %s\n", s->name, s->description);
    for (int i = 0; i < s->nvariants; i++) {
        const ws_variant *v = &s->variants[i];
        printf("    variant %-14s %-18s grid %ux%ux%u block %ux%ux%u%s%s%s\n", v->name, v->kernel,
               v->grid[0], v->grid[1], v->grid[2], v->block[0], v->block[1], v->block[2],
               ws_variant_is_sequence(v) ? "  (first of a launch sequence)" : "",
               v->description[0] ? "  " : "", v->description);
    }
    if (!verbose)
        return;
    printf("    constants:");
    for (int i = 0; i < s->nconsts; i++) {
        const ws_const *c = &s->consts[i];
        if (c->is_string)
            printf(" %s=%s", c->name, c->sval);
        else if (c->is_float)
            printf(" %s=%.9g", c->name, c->fval);
        else
            printf(" %s=%lld", c->name, (long long)c->ival);
    }
    printf("\n");
    for (int i = 0; i < s->nregions; i++)
        printf("    region  %-14s lines %d-%d\n", s->regions[i].name, s->regions[i].first_line,
               s->regions[i].last_line);
}

int ws_cmd_list(int argc, char **argv)
{
    int short_list = 0, npos = 0;
    char about[WS_PATH_MAX + 256];
    snprintf(about, sizeof about,
             "Lists the workloads in %s (NAME.cu + NAME.spec; $WARPSCOPE_KERNELS\n"
             "overrides the folder) with variants, kernels, launch shapes, constants\n"
             "(override with -D NAME=VALUE) and regions.", ws_cli_kernels_dir());
    const ws_opt opts[] = {
        {"--short", WS_OPT_FLAG, &short_list, NULL, "variants only: no constants or regions", 0, 0},
    };
    const ws_cli_cmd cmd = {"list", "warpscope list [--short]", about, opts, WS_CLI_NOPTS(opts)};
    ws_error perr;
    ws_error_clear(&perr);
    int rc = ws_cli_parse(&cmd, argc, argv, NULL, 0, &npos, &perr);
    if (rc > 0)
        return 0;
    if (rc < 0)
        return ws_cli_fail(&perr);
    int verbose = !short_list;
    const char *dir = ws_cli_kernels_dir();
    DIR *d = opendir(dir);
    if (!d) {
        ws_error err;
        ws_error_set(&err, WS_ERR_IO, "cannot open the kernels folder '%s'", dir);
        return ws_cli_fail(&err);
    }
    char *names[512];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 512) {
        size_t len = strlen(e->d_name);
        if (len > 5 && !strcmp(e->d_name + len - 5, ".spec"))
            names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], by_name);
    int bad = 0;
    for (int i = 0; i < n; i++) {
        char path[WS_PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        ws_error err;
        ws_error_clear(&err);
        ws_spec *s = NULL;
        if (ws_spec_load(path, NULL, 0, &s, &err) == WS_OK)
            print_spec(s, verbose);
        else {
            ws_cli_fail(&err);
            bad = 1;
        }
        ws_spec_free(s);
        free(names[i]);
    }
    return bad;
}
