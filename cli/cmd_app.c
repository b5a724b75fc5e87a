/* cmd_app.c — `warpscope profile -- APP ARGS...` and `warpscope capture -- APP ARGS...`:
 * runs an unmodified application with the injection library (profiler/inject/) loaded by
 * the CUDA driver through CUDA_INJECTION64_PATH, its output and exit status untouched, then
 * reads what the library left: profiled runs (moved into the database) or a capture file
 * (its modules' PTX extracted). Glue; the library does the work inside the application. */
#include <errno.h>
#include <regex.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "backend/backend.h"
#include "cli/cli.h"
#include "store/store.h"

typedef struct app_args {
    const char *cmd;               /* "profile" or "capture" */
    int capture;
    const char *db, *output, *kernel, *metrics;
    int skip, count;               /* count -1: every launch */
    int no_sass, quiet;
    char **argv;                   /* the application and its arguments */
} app_args;

/* What the library's log says about one run of the application. */
typedef struct app_log {
    int present, injected;
    int launches, done, skipped, errors;
} app_log;

static const char profile_about[] =
    "Runs APP as it is with warpscope's injection library in it, and profiles each\n"
    "selected kernel launch as 'warpscope profile WORKLOAD' does (Range Profiler\n"
    "metrics, SASS Metrics per instruction, Activity duration), replaying it with\n"
    "every allocation restored before each pass and at the end. Each launch is stored\n"
    "as a GPU run: workload APP (its base name), variant KERNEL#N, N counting the\n"
    "application's launches from 0.\n\n";
static const char capture_about[] =
    "Runs APP as it is with warpscope's injection library in it, and records each\n"
    "selected kernel launch into one capture file: the module's PTX (and cubin),\n"
    "the kernel's name, grid, block, dynamic shared memory, the parameter bytes, and\n"
    "the device allocations its pointer arguments fall in, before the launch and\n"
    "after it (docs/capture-format.md). 'warpscope sim FILE --launch N' replays one\n"
    "on the simulator and checks its memory against the GPU's.\n\n";
static const char app_about_tail[] =
    "APP's output and exit status pass through; warpscope's own lines go to stderr.\n"
    "warpscope exits with APP's status when that is not 0, else 1 when no launch was\n"
    "profiled or captured, or one failed. APP that launches nothing through CUDA (or a\n"
    "machine with no GPU, where APP's own CUDA calls fail) gives \"no CUDA launches\n"
    "seen\". Graph and cooperative launches are reported by name, not replayed. The\n"
    "library is libwarpscope_inject.so beside the warpscope binary, or $WARPSCOPE_INJECT_LIB.";

/* Parses the options before "--" (argv[1..dash-1]); 1 after printing the help. */
static int app_parse(int argc, char **argv, app_args *a, ws_error *err)
{
    a->db = ws_cli_default_db();
    a->count = -1;
    char about[2048];
    snprintf(about, sizeof about, "%s%s", a->capture ? capture_about : profile_about, app_about_tail);
    const ws_opt common[] = {
        {"--kernel", WS_OPT_STRING, &a->kernel, "REGEX",
         "only kernels whose name (mangled or plain) matches", 0, 0},
        {"--launch-skip", WS_OPT_INT, &a->skip, "N",
         "skip the first N launches that match (Nsight Compute's name)", 0, INT_MAX},
        {"--launch-count", WS_OPT_INT, &a->count, "M", "then take at most M of them (default: all)",
         0, INT_MAX},
        {"--quiet", WS_OPT_FLAG, &a->quiet, NULL, "no summary on stderr (errors still)", 0, 0},
    };
    ws_opt opts[8];
    int n = 0;
    memcpy(opts, common, sizeof common);
    n = WS_CLI_NOPTS(common);
    if (a->capture) {
        opts[n++] = (ws_opt){"-o", WS_OPT_STRING, &a->output, "FILE",
                             "the capture file (default APP.capture here)", 0, 0};
    } else {
        opts[n++] = (ws_opt)WS_CLI_OPT_DB(&a->db);
        opts[n++] = (ws_opt){"--metrics", WS_OPT_STRING, &a->metrics, "LIST",
                             "Range Profiler metrics (Nsight Compute names, comma-separated)", 0, 0};
        opts[n++] = (ws_opt){"--no-sass", WS_OPT_FLAG, &a->no_sass, NULL,
                             "skip per-instruction SASS metrics", 0, 0};
    }
    char usage[96];
    snprintf(usage, sizeof usage, "warpscope %s [options] -- APP [ARGS...]", a->cmd);
    const ws_cli_cmd cmd = {a->cmd, usage, about, opts, n};
    if (!argv) {
        ws_cli_help(&cmd, stdout);
        return 1;
    }
    int dash = 1;
    while (dash < argc && strcmp(argv[dash], "--"))
        dash++;
    int npos = 0;
    int rc = ws_cli_parse(&cmd, dash, argv, NULL, 0, &npos, err);
    if (rc)
        return rc;
    if (dash + 1 >= argc)
        return -!!ws_cli_usage(err, a->cmd, "which application? ('-- APP ARGS...')");
    a->argv = argv + dash + 1;
    if (a->kernel) {
        regex_t re;
        if (regcomp(&re, a->kernel, REG_EXTENDED | REG_NOSUB))
            return -!!ws_error_set(err, WS_ERR_USAGE, "%s: --kernel '%s' is not a regular "
                                   "expression", a->cmd, a->kernel);
        regfree(&re);
    }
    return 0;
}

void ws_cli_app_help(const char *cmd)
{
    app_args a;
    memset(&a, 0, sizeof a);
    a.cmd = cmd;
    a.capture = !strcmp(cmd, "capture");
    app_parse(0, NULL, &a, NULL);
}

/* libwarpscope_inject.so: $WARPSCOPE_INJECT_LIB, else beside this executable. */
static int find_library(char *path, size_t n, ws_error *err)
{
    const char *env = getenv("WARPSCOPE_INJECT_LIB");
    if (env && *env) {
        snprintf(path, n, "%s", env);
    } else {
        char self[PATH_MAX];
        ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
        self[len > 0 ? len : 0] = '\0';
        char *slash = strrchr(self, '/');
        if (slash)
            *slash = '\0';
        if (snprintf(path, n, "%s/libwarpscope_inject.so", slash ? self : ".") >= (int)n)
            return ws_error_set(err, WS_ERR_IO, "the path of the warpscope binary is too long");
    }
    if (access(path, R_OK) != 0)
        return ws_error_set(err, WS_ERR_IO, "the injection library %s is missing (build it, or set "
                            "WARPSCOPE_INJECT_LIB)", path);
    return WS_OK;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static void set_env_count(const char *name, long long v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", v);
    setenv(name, buf, 1);
}

/* Runs the application with the library; its exit status (128 + signal when killed). */
static int run_app(const app_args *a, const char *lib, const char *out, int *status, ws_error *err)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        return ws_error_set(err, WS_ERR_IO, "%s: cannot start %s: %s", a->cmd, a->argv[0], strerror(errno));
    if (pid == 0) {
        setenv("CUDA_INJECTION64_PATH", lib, 1);
        setenv("WARPSCOPE_INJECT_MODE", a->capture ? "capture" : "profile", 1);
        setenv("WARPSCOPE_INJECT_OUT", out, 1);
        setenv("WARPSCOPE_INJECT_APP", base_name(a->argv[0]), 1);
        set_env_count("WARPSCOPE_INJECT_SKIP", a->skip);
        set_env_count("WARPSCOPE_INJECT_COUNT", a->count);
        if (a->kernel)
            setenv("WARPSCOPE_INJECT_KERNEL", a->kernel, 1);
        if (a->metrics)
            setenv("WARPSCOPE_INJECT_METRICS", a->metrics, 1);
        if (a->no_sass)
            setenv("WARPSCOPE_INJECT_NO_SASS", "1", 1);
        execvp(a->argv[0], a->argv);
        fprintf(stderr, "warpscope: %s: cannot run %s: %s\n", a->cmd, a->argv[0], strerror(errno));
        _exit(127);
    }
    int ws;
    while (waitpid(pid, &ws, 0) < 0)
        if (errno != EINTR)
            return ws_error_set(err, WS_ERR_IO, "%s: waiting for %s: %s", a->cmd, a->argv[0],
                                strerror(errno));
    *status = WIFEXITED(ws) ? WEXITSTATUS(ws) : WIFSIGNALED(ws) ? 128 + WTERMSIG(ws) : 1;
    return WS_OK;
}

/* Reads OUT.log, printing the launches reported by name and the errors. */
static void read_log(const app_args *a, const char *log_path, app_log *g)
{
    memset(g, 0, sizeof *g);
    FILE *f = fopen(log_path, "r");
    if (!f)
        return;
    g->present = 1;
    char line[2048];
    const char *verb = a->capture ? "captured" : "profiled";
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        long long idx;
        char api[64], kernel[512];
        if (!strncmp(line, "injected", 8)) {
            g->injected = 1;
        } else if (!strncmp(line, "launch ", 7)) {
            g->launches++;
        } else if (!strncmp(line, "done ", 5)) {
            g->done++;
        } else if (sscanf(line, "skipped %lld %63s %511[^:]:", &idx, api, kernel) == 3) {
            g->skipped++;
            fprintf(stderr, "warpscope: launch %lld (%s of %s) not %s: %s\n", idx, api, kernel,
                    verb, strstr(line, ": ") + 2);
        } else if (!strncmp(line, "error -1 ", 9)) {
            g->errors++;
            fprintf(stderr, "warpscope: %s: %s\n", a->cmd, line + 9);
        } else if (!strncmp(line, "error ", 6)) {
            g->errors++;
            fprintf(stderr, "warpscope: %s: launch %s\n", a->cmd, line + 6);
        }
    }
    fclose(f);
}

/* Why no launch was seen, in one line. */
static void no_launches(const app_args *a, const app_log *g, ws_error *err)
{
    const char *app = a->argv[0];
    if (g->injected) {
        ws_error_set(err, WS_ERR_NOTFOUND, "no CUDA launches seen in %s (it initialised CUDA "
                     "but launched no kernel)", app);
        return;
    }
    ws_gpu *gpu = NULL;
    ws_error why;
    ws_error_clear(&why);
    if (ws_gpu_open(NULL, 0, &gpu, &why) != WS_OK)
        ws_error_set(err, WS_ERR_GPU, "no CUDA launches seen in %s: %s", app, why.msg);
    else
        ws_error_set(err, WS_ERR_NOTFOUND, "no CUDA launches seen in %s (it never initialised "
                     "the CUDA driver: does it use CUDA?)", app);
    ws_gpu_close(gpu);
}

/* Moves every run of the library's results file into the database. */
static int store_runs(const app_args *a, const char *tmp, ws_error *err)
{
    ws_store *from = NULL, *to = NULL;
    ws_run_row *rows = NULL;
    int n = 0;
    if (ws_store_open(tmp, &from, err) || ws_store_list_runs(from, &rows, &n, err) ||
        ws_store_open(a->db, &to, err)) {
        ws_store_close(from);
        ws_store_close(to);
        free(rows);
        return err->code;
    }
    for (int i = 0; i < n && err->code == WS_OK; i++) {
        ws_result r;
        int64_t id;
        ws_result_init(&r);
        if (ws_store_load_result(from, rows[i].id, &r, err) == WS_OK &&
            ws_store_save_result(to, &r, &id, err) == WS_OK && !a->quiet)
            fprintf(stderr, "warpscope: %s / %s: stored as run %lld in %s\n", r.workload, r.variant,
                    (long long)id, a->db);
        ws_result_free(&r);
    }
    free(rows);
    ws_store_close(from);
    ws_store_close(to);
    return err->code;
}

/* The executable execvp ran: APP itself when it names a path, else the first on $PATH. */
static int resolve_app(const char *app, char *path, size_t n)
{
    if (strchr(app, '/'))
        return snprintf(path, n, "%s", app) < (int)n;
    const char *dirs = getenv("PATH");
    while (dirs && *dirs) {
        size_t len = strcspn(dirs, ":");
        if (snprintf(path, n, "%.*s/%s", (int)len, dirs, app) < (int)n && access(path, X_OK) == 0)
            return 1;
        dirs += len + (dirs[len] == ':');
    }
    return 0;
}

/* Adds the fatbinaries in the application's executable as modules: the runtime may load
 * them through calls the library does not see. The same bytes seen loaded are kept once. */
static void add_executable_fatbins(ws_capture *c, const char *app)
{
    char path[PATH_MAX], *data = NULL;
    size_t size, off[64];
    ws_error err;
    ws_error_clear(&err);
    if (!resolve_app(app, path, sizeof path) || ws_read_file(path, &data, &size, &err) != WS_OK)
        return;
    int n = ws_cuda_find_fatbins(data, size, off, 64);
    for (int i = 0; i < n; i++) {
        const char *kind;
        size_t len = ws_cuda_image_size(data + off[i], &kind);
        int64_t id;
        ws_capture_add_module(c, kind, data + off[i], len, NULL, &id, &err);
    }
    free(data);
}

/* Extracts the PTX of the modules the library recorded as images. */
static int finish_capture(const app_args *a, const char *path, ws_error *err)
{
    ws_capture *c;
    if (ws_capture_open(path, &c, err) != WS_OK)
        return err->code;
    char argv_line[1024] = "", when[32];
    for (char **p = a->argv; *p; p++) {
        size_t len = strlen(argv_line);
        snprintf(argv_line + len, sizeof argv_line - len, "%s%s", len ? " " : "", *p);
    }
    time_t now = time(NULL);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    ws_capture_set_meta(c, "app", base_name(a->argv[0]), err);
    ws_capture_set_meta(c, "argv", argv_line, err);
    ws_capture_set_meta(c, "created", when, err);
    add_executable_fatbins(c, a->argv[0]);
    int64_t *ids = NULL;
    int n = 0;
    ws_capture_modules_without_ptx(c, &ids, &n, err);
    for (int i = 0; i < n && err->code == WS_OK; i++) {
        void *image;
        size_t size;
        char kind[16], **ptx = NULL;
        int nptx = 0;
        if (ws_capture_module_image(c, ids[i], &image, &size, kind, sizeof kind, err) != WS_OK)
            break;
        ws_error why;
        ws_error_clear(&why);
        if (strcmp(kind, "cubin") && ws_cuda_image_ptx(image, size, &ptx, &nptx, &why) != WS_OK)
            fprintf(stderr, "warpscope: capture: module %lld: %s\n", (long long)ids[i], why.msg);
        if (nptx)
            ws_capture_set_module_ptx(c, ids[i], ptx[0], err);
        ws_cuda_image_ptx_free(ptx, nptx);
        free(image);
    }
    free(ids);
    ws_capture_close(c);
    return err->code;
}

static int app_command(app_args *a, ws_error *err)
{
    char lib[PATH_MAX], out[PATH_MAX], log_path[PATH_MAX + 8];
    if (find_library(lib, sizeof lib, err) != WS_OK)
        return -1;
    if (a->capture) {
        snprintf(out, sizeof out, "%s", a->output ? a->output : base_name(a->argv[0]));
        if (!a->output)
            snprintf(out + strlen(out), sizeof out - strlen(out), ".capture");
    } else {
        const char *tmp = getenv("TMPDIR");
        snprintf(out, sizeof out, "%s/warpscope-profile-%d.db", tmp && *tmp ? tmp : "/tmp", (int)getpid());
    }
    snprintf(log_path, sizeof log_path, "%s.log", out);
    unlink(out);
    unlink(log_path);
    int status = 0;
    if (run_app(a, lib, out, &status, err) != WS_OK)
        return -1;
    app_log g;
    read_log(a, log_path, &g);
    if (g.done && a->capture)
        finish_capture(a, out, err);
    else if (g.done)
        store_runs(a, out, err);
    if (status == 127 && !g.present)
        return status; /* APP did not start; the child said why */
    if (err->code == WS_OK && g.present && !g.injected)
        ws_error_set(err, WS_ERR_GPU, "%s: the injection library could not start in %s (the "
                     "line above says why)", a->cmd, a->argv[0]);
    else if (err->code == WS_OK && !g.launches)
        no_launches(a, &g, err);
    else if (err->code == WS_OK && !g.done && !g.errors && !g.skipped)
        ws_error_set(err, WS_ERR_NOTFOUND, "%s: none of the %d launches of %s matched the "
                     "selection (--kernel, --launch-skip, --launch-count)", a->cmd, g.launches, a->argv[0]);
    else if (err->code == WS_OK && !a->quiet)
        fprintf(stderr, "warpscope: %s %d of %d launch(es) of %s%s%s\n",
                a->capture ? "captured" : "profiled", g.done, g.launches, a->argv[0],
                a->capture && g.done ? " into " : "", a->capture && g.done ? out : "");
    if (!a->capture) {
        char side[PATH_MAX + 8];
        unlink(out);
        snprintf(side, sizeof side, "%s-wal", out);
        unlink(side);
        snprintf(side, sizeof side, "%s-shm", out);
        unlink(side);
    }
    unlink(log_path);
    if (err->code == WS_OK && (g.errors || !g.done))
        ws_error_set(err, WS_ERR_GPU, "%s: %d launch(es) of %s failed or were not %s", a->cmd,
                     g.errors + g.skipped, a->argv[0], a->capture ? "captured" : "profiled");
    return status;
}

int ws_cli_app_command(int argc, char **argv, int capture)
{
    ws_error err;
    ws_error_clear(&err);
    app_args a;
    memset(&a, 0, sizeof a);
    a.capture = capture;
    a.cmd = capture ? "capture" : "profile";
    int rc = app_parse(argc, argv, &a, &err);
    if (rc > 0)
        return 0;
    if (rc < 0)
        return ws_cli_fail(&err);
    int status = app_command(&a, &err);
    rc = err.code != WS_OK ? ws_cli_fail(&err) : 0;
    return status > 0 ? status : rc;
}

int ws_cmd_capture(int argc, char **argv)
{
    return ws_cli_app_command(argc, argv, 1);
}
