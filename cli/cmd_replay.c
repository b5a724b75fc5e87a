/* cmd_replay.c — `warpscope sim CAPTURE [--launch N]`: replays a launch recorded by
 * `warpscope capture` on the simulator (its PTX, parameter bytes and the memory it
 * reached), checks the simulator's memory against the GPU's after the launch, and stores
 * the run under the application's name and "kernel#N". Glue over store/ and sim/. */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "cli/cli.h"
#include "sim/sim.h"
#include "store/store.h"

typedef struct replay_args {
    const char *capture, *db;
    int launch;         /* -1: the first captured one */
    int json, no_db, list, quiet, no_races;
    const char *model;  /* "ptx" or "sass" */
    int model_given;    /* --model named it: no fallback to the PTX model */
    ws_sim_options opt;
} replay_args;

static const char replay_about[] =
    "Replays a launch that 'warpscope capture -- APP' recorded: the kernel's PTX from\n"
    "the application's module (run as the SASS ptxas makes of it, or as PTX with\n"
    "--model ptx), its parameter bytes (pointers moved to the simulator's\n"
    "copies of the allocations they point into) and the device memory it reached.\n"
    "Checks the simulator's memory against the GPU's after the launch, byte for byte,\n"
    "and stores the run as workload APP, variant KERNEL#N (beside the run that\n"
    "'warpscope profile -- APP' stored for the same launch: 'compare' and 'map' join them).";

/* The option table; `a` receives the values. */
static int replay_parse(int argc, char **argv, replay_args *a, ws_error *err)
{
    memset(a, 0, sizeof *a);
    ws_sim_options_default(&a->opt);
    a->db = ws_cli_default_db();
    a->launch = -1;
    a->model = NULL;
    const ws_opt opts[] = {
        {"CAPTURE", WS_OPT_POSITIONAL, NULL, NULL, "a file 'warpscope capture' wrote", 0, 0},
        {"--launch", WS_OPT_INT, &a->launch, "N", "the launch to replay (default: the first captured)",
         0, INT_MAX},
        {"--list", WS_OPT_FLAG, &a->list, NULL, "list the launches in the file and exit", 0, 0},
        WS_CLI_OPT_JSON(&a->json, "one JSON object on stdout instead of text"),
        WS_CLI_OPT_DB(&a->db),
        {"--no-db", WS_OPT_FLAG, &a->no_db, NULL, "do not store the run", 0, 0},
        {"--threads", WS_OPT_INT, &a->opt.threads, "N", "host threads (default: all cores)", 0, 1 << 20},
        {"--no-races", WS_OPT_FLAG, &a->no_races, NULL, "skip race detection", 0, 0},
        {"--model", WS_OPT_STRING, &a->model, "M",
         "sass (default where nvdisasm is found): the SASS ptxas makes of the captured PTX "
         "for sm_90, under Volta+ convergence barriers (a kernel it cannot run falls back "
         "to ptx, with a warning); ptx: the PTX under an immediate-post-dominator stack",
         0, 0},
        {"--quiet", WS_OPT_FLAG, &a->quiet, NULL, "print only errors", 0, 0},
    };
    const ws_cli_cmd cmd = {"sim", "warpscope sim CAPTURE [--launch N] [options]", replay_about,
                            opts, WS_CLI_NOPTS(opts)};
    if (!argv) {
        ws_cli_help(&cmd, stdout);
        return 1;
    }
    int npos = 0;
    int rc = ws_cli_parse(&cmd, argc, argv, &a->capture, 1, &npos, err);
    if (a->no_races)
        a->opt.detect_races = 0;
    if (a->json)
        a->opt.printf_to = stderr; /* the kernel's printf: stdout holds the JSON */
    a->model_given = a->model != NULL;
    if (!a->model)
        a->model = ws_cli_default_model();
    if (rc == 0 && argv && ws_cli_check_model("sim", a->model, NULL, err) != WS_OK)
        rc = -1; /* a usage error, as ws_cli_parse's (1 is help printed) */
    return rc;
}

void ws_cli_replay_help(void)
{
    replay_args a;
    replay_parse(0, NULL, &a, NULL);
}

static int list_launches(ws_capture *c, ws_error *err)
{
    int64_t *ids;
    int n;
    if (ws_capture_launches(c, &ids, &n, err) != WS_OK)
        return err->code;
    printf("%-7s %-28s %-14s %-14s %8s  %s\n", "launch", "kernel", "grid", "block", "regions", "status");
    for (int i = 0; i < n && err->code == WS_OK; i++) {
        ws_capture_launch l;
        if (ws_capture_load_launch(c, ids[i], &l, err) != WS_OK)
            break;
        char name[160], grid[40], block[40];
        ws_launch_name(l.kernel, l.index, name, sizeof name);
        snprintf(grid, sizeof grid, "%ux%ux%u", l.grid[0], l.grid[1], l.grid[2]);
        snprintf(block, sizeof block, "%ux%ux%u", l.block[0], l.block[1], l.block[2]);
        printf("%-7lld %-28s %-14s %-14s %8d  %s\n", (long long)l.index, name, grid, block,
               l.nregions, l.status[0] ? l.status : "captured");
        ws_capture_launch_free(&l);
    }
    free(ids);
    return err->code;
}

/* The first launch that was captured (not only reported). */
static int first_captured(ws_capture *c, const char *path, int64_t *index, ws_error *err)
{
    int64_t *ids;
    int n;
    if (ws_capture_launches(c, &ids, &n, err) != WS_OK)
        return err->code;
    int found = 0;
    for (int i = 0; i < n && !found && err->code == WS_OK; i++) {
        ws_capture_launch l;
        if (ws_capture_load_launch(c, ids[i], &l, err) == WS_OK && !l.status[0]) {
            *index = l.index;
            found = 1;
        }
        ws_capture_launch_free(&l);
    }
    free(ids);
    if (err->code == WS_OK && !found)
        ws_error_set(err, WS_ERR_NOTFOUND, "%s holds no captured launch (%d reported only)", path, n);
    return err->code;
}

/* Compares the simulator's memory with the GPU's after the launch, region by region. */
static void check_regions(const ws_capture_launch *l, const ws_buffers *bufs, ws_result *res)
{
    int checked = 0;
    for (int i = 0; i < l->nregions; i++) {
        const ws_capture_region *g = &l->regions[i];
        if (!g->after)
            continue;
        checked++;
        const uint8_t *sim = bufs->b[i].data;
        for (uint64_t k = 0; k < g->size; k++)
            if (sim[k] != g->after[k]) {
                res->outputs_checked = 1;
                res->outputs_match = 0;
                snprintf(res->check_message, sizeof res->check_message,
                         "allocation 0x%" PRIx64 " (%" PRIu64 " bytes) differs from the GPU's at "
                         "byte %" PRIu64 ": simulator 0x%02x, GPU 0x%02x", g->address, g->size,
                         k, sim[k], g->after[k]);
                return;
            }
    }
    res->outputs_checked = checked > 0;
    res->outputs_match = checked > 0;
    snprintf(res->check_message, sizeof res->check_message, checked ?
             "%d allocation(s) equal to the GPU's after the launch" : "no memory after the launch "
             "was recorded", checked);
}

/* One buffer per captured allocation, holding its contents before the launch. */
static int make_buffers(const ws_capture_launch *l, ws_buffer_spec *specs, uint64_t *addr,
                        ws_buffers *bufs, ws_error *err)
{
    bufs->n = l->nregions;
    bufs->b = calloc((size_t)l->nregions + 1, sizeof *bufs->b);
    if (!bufs->b)
        return ws_error_set(err, WS_ERR_NOMEM, "out of memory");
    for (int i = 0; i < l->nregions; i++) {
        const ws_capture_region *g = &l->regions[i];
        snprintf(specs[i].name, sizeof specs[i].name, "allocation 0x%" PRIx64, g->address);
        specs[i].type = WS_T_U8;
        specs[i].count = g->size;
        addr[i] = g->address;
        bufs->b[i].spec = &specs[i];
        bufs->b[i].bytes = g->size;
        bufs->b[i].data = malloc(g->size ? g->size : 1);
        if (!bufs->b[i].data)
            return ws_error_set(err, WS_ERR_NOMEM, "out of memory for a %" PRIu64 "-byte allocation",
                                g->size);
        memcpy(bufs->b[i].data, g->before, g->size);
    }
    return WS_OK;
}

static int simulate(ws_capture *c, const replay_args *a, const ws_capture_launch *l,
                    ws_result *res, ws_error *err)
{
    if (l->status[0])
        return ws_error_set(err, WS_ERR_UNSUPPORTED, "launch %lld (%s of %s) was not captured: %s",
                            (long long)l->index, l->api, l->kernel, l->status);
    char *ptx = NULL, app[WS_NAME_MAX], variant[WS_NAME_MAX];
    ws_module *m = NULL;
    if (ws_capture_find_ptx(c, l->kernel, &ptx, err) != WS_OK)
        return err->code;
    int rc = ws_ptx_parse(ptx, strlen(ptx), a->capture, &m, err);
    free(ptx);
    if (rc != WS_OK)
        return rc;
    ws_sass_module *sm = NULL;
    char build_why[512] = "";
    if (!strcmp(a->model, "sass")) {   /* the module's PTX through ptxas and nvdisasm */
        char path[WS_PATH_MAX + 128], cubin[WS_PATH_MAX + 256], sass[WS_PATH_MAX + 256];
        ptx = NULL;
        rc = ws_capture_find_ptx(c, l->kernel, &ptx, err);
        if (rc == WS_OK)
            rc = ws_ptx_cache_put("capture", ptx, path, sizeof path, err);
        free(ptx);
        if (rc == WS_OK)
            rc = ws_sass_build_ptx(path, NULL, "sm_90", cubin, sass, sizeof cubin, err);
        if (rc == WS_OK)
            rc = ws_sass_load(sass, cubin, &sm, err);
        if (rc != WS_OK && !a->model_given) { /* no ptxas here, say: the PTX model runs it */
            snprintf(build_why, sizeof build_why, "simulated on the PTX model: no SASS for it "
                     "(%.400s)", err->msg);
            ws_error_clear(err);
            rc = WS_OK;
        } else if (rc != WS_OK) {
            ws_module_free(m);
            return rc;
        }
    }
    ws_capture_get_meta(c, "app", app, sizeof app, err);
    ws_launch_name(l->kernel, l->index, variant, sizeof variant);
    ws_buffer_spec *specs = calloc((size_t)l->nregions + 1, sizeof *specs);
    uint64_t *addr = calloc((size_t)l->nregions + 1, sizeof *addr);
    ws_buffers bufs = {0};
    rc = !specs || !addr ? ws_error_set(err, WS_ERR_NOMEM, "out of memory")
                         : make_buffers(l, specs, addr, &bufs, err);
    if (rc == WS_OK) {
        ws_sim_launch launch = {app[0] ? app : "capture", variant, l->kernel, {0}, {0},
                                l->smem_dynamic, l->params, l->param_bytes, addr};
        memcpy(launch.grid, l->grid, sizeof launch.grid);
        memcpy(launch.block, l->block, sizeof launch.block);
        rc = sm ? ws_sim_run_sass_launch(m, sm, &launch, &bufs, &a->opt, res, err)
                : ws_sim_run_launch(m, &launch, &bufs, &a->opt, res, err);
        if (sm && rc == WS_ERR_UNSUPPORTED && !a->model_given) {
            /* as `sim` does: a kernel the SASS model cannot run goes to the PTX model */
            char why[sizeof err->msg + 128];
            snprintf(why, sizeof why, "simulated on the PTX model: the SASS model does not "
                     "run it (%s)", err->msg);
            why[sizeof err->msg - 1] = '\0';
            ws_error_clear(err);
            ws_result_free(res);
            ws_result_init(res);
            ws_buffers_free(&bufs);
            rc = make_buffers(l, specs, addr, &bufs, err);
            if (rc == WS_OK)
                rc = ws_sim_run_launch(m, &launch, &bufs, &a->opt, res, err);
            if (rc == WS_OK && ws_result_add_warning(res, why))
                rc = ws_error_set(err, WS_ERR_NOMEM, "out of memory");
        }
    }
    if (rc == WS_OK && build_why[0] && ws_result_add_warning(res, build_why))
        rc = ws_error_set(err, WS_ERR_NOMEM, "out of memory");
    if (rc == WS_OK)
        check_regions(l, &bufs, res);
    ws_buffers_free(&bufs);
    free(specs);
    free(addr);
    if (sm)
        ws_sass_module_free(sm);
    ws_module_free(m);
    return rc;
}

static void print_result(const replay_args *a, const ws_result *r, int64_t run_id)
{
    if (a->json) {
        ws_json j;
        ws_json_begin(&j, stdout);
        ws_json_object(&j, NULL);
        ws_json_run_identity(&j, r);
        ws_json_int(&j, "run_id", run_id);
        ws_json_outputs(&j, r);
        ws_json_warnings(&j, "warnings", r);
        ws_json_metrics(&j, "metrics", r);
        ws_json_end(&j);
        printf("\n");
        return;
    }
    if (a->quiet)
        return;
    const ws_metric *er = ws_result_metric(r, WS_M(SIM_EXECUTION_RATE));
    printf("%s / %s   kernel %s   grid %ux%ux%u  block %ux%ux%u\n", r->workload, r->variant,
           r->kernel, r->grid[0], r->grid[1], r->grid[2], r->block[0], r->block[1], r->block[2]);
    printf("  model               %s\n", !strcmp(r->source, "sim:sass")
               ? "SASS (ptxas's cubin of the captured PTX, under convergence barriers)"
               : "PTX (immediate post-dominator reconvergence)");
    if (er)
        printf("  execution rate      %6.1f %%\n", 100.0 * er->value);
    printf("  outputs: %s%s\n", r->outputs_checked && !r->outputs_match ? "MISMATCH: " : "",
           r->check_message);
    for (int i = 0; i < r->nwarnings; i++)
        printf("  warning: %s\n", r->warnings[i]);
    if (run_id > 0)
        printf("  stored as run %lld in %s\n", (long long)run_id, a->db);
}

static int replay(const replay_args *a, ws_capture *c, ws_error *err)
{
    if (a->list)
        return list_launches(c, err);
    int64_t index = a->launch;
    if (index < 0 && first_captured(c, a->capture, &index, err) != WS_OK)
        return err->code;
    ws_capture_launch l;
    if (ws_capture_load_launch(c, index, &l, err) != WS_OK)
        return err->code;
    ws_result res;
    ws_result_init(&res);
    ws_store *store = NULL;
    int64_t run_id = 0;
    int rc = simulate(c, a, &l, &res, err);
    if (rc == WS_OK && !a->no_db && (rc = ws_store_open(a->db, &store, err)) == WS_OK)
        rc = ws_store_save_result(store, &res, &run_id, err);
    if (rc == WS_OK)
        print_result(a, &res, run_id);
    if (rc == WS_OK && res.outputs_checked && !res.outputs_match)
        rc = ws_error_set(err, WS_ERR_CHECK, "%s launch %lld (%s): %s", a->capture,
                          (long long)index, res.variant, res.check_message);
    ws_store_close(store);
    ws_result_free(&res);
    ws_capture_launch_free(&l);
    return rc;
}

int ws_cli_sim_capture(int argc, char **argv)
{
    ws_error err;
    ws_error_clear(&err);
    replay_args a;
    ws_capture *c = NULL;
    int rc = replay_parse(argc, argv, &a, &err);
    if (rc > 0)
        return 0;
    if (rc == 0 && ws_capture_open(a.capture, &c, &err) == WS_OK)
        replay(&a, c, &err);
    ws_capture_close(c);
    return err.code == WS_OK ? 0 : ws_cli_fail(&err);
}
