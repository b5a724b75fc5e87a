/* fuzz_timing.c — libFuzzer target for the simulator with the timing model on: any PTX
 * that parses runs its first entry (every pointer parameter a buffer of 16 ints a thread, every other one a
 * small integer) over a launch shape drawn from the input's hash, up to 72 CTAs; the run
 * must succeed or fail with an error value (never crash, leak or read out of bounds).
 * Runaway loops are bounded by the simulator's per-warp instruction limit. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/ir.h"
#include "sim/sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FZ_MAX_REGS 2048        /* bigger register files: slow, not interesting */
#define FZ_MAX_LOCAL (1u << 14)
#define FZ_MAX_SHARED (1u << 16)

static int within_limits(const ws_module *m)
{
    for (int i = 0; i < m->nfuncs; i++) {
        const ws_function *f = &m->funcs[i];
        if (f->nregs > FZ_MAX_REGS || f->local_bytes > FZ_MAX_LOCAL ||
            f->shared_bytes > FZ_MAX_SHARED || f->nparams > 32)
            return 0;
    }
    return 1;
}

/* The spec of a launch of `fn`: per 8-byte parameter a buffer of 16 ints a thread (4096 at
 * least), 3 for the others. */
static int spec_text(const ws_function *fn, uint64_t h, char *buf, size_t n)
{
    unsigned grid = 1 + (unsigned)(h % 72), block = 1 + (unsigned)((h >> 8) % 256);
    /* The spec needs a source that exists; nothing here reads it. */
    int len = snprintf(buf, n, "workload fuzz\nsource %s\n", WS_SOURCE_DIR "/tests/fuzz/fuzz_timing.c");
    for (int i = 0; i < fn->nparams; i++)
        if (fn->params[i].size == 8)
            len += snprintf(buf + len, n - (size_t)len, "buffer b%d i32 %u iota\n", i,
                            16 * grid * block < 4096 ? 4096 : 16 * grid * block);
    len += snprintf(buf + len, n - (size_t)len, "variant v\n  kernel %s\n  grid %u\n  block %u\n",
                    fn->name, grid, block);
    if (fn->nparams) len += snprintf(buf + len, n - (size_t)len, "  args");
    for (int i = 0; i < fn->nparams; i++)
        len += fn->params[i].size == 8 ? snprintf(buf + len, n - (size_t)len, " b%d", i)
                                       : snprintf(buf + len, n - (size_t)len, " 3");
    len += snprintf(buf + len, n - (size_t)len, "\n");
    return len > 0 && (size_t)len < n ? 0 : -1;
}

static void run_entry(const ws_module *m, const ws_function *fn, uint64_t h)
{
    char text[4096];
    if (spec_text(fn, h, text, sizeof text)) return;
    ws_spec *s = NULL;
    ws_buffers b = { 0 };
    ws_error err;
    ws_error_clear(&err);
    if (ws_spec_parse(text, "fuzz.spec", NULL, 0, &s, &err)) return; /* e.g. a name it refuses */
    const ws_variant *v = ws_spec_variant(s, "v", &err);
    if (v && ws_buffers_generate(s, &b, &err) == WS_OK) {
        ws_sim_options opt;
        ws_sim_options_default(&opt);
        opt.threads = 1;
        opt.detect_races = 0;
        opt.timing = 1;
        opt.gpu_preset = WS_SOURCE_DIR "/sim/presets/h100.gpu";
        opt.max_warp_insts = 2000;
        ws_result res;
        ws_result_init(&res);
        ws_error_clear(&err);
        int rc = ws_sim_run(m, s, v, &b, &opt, &res, &err);
        if (rc != WS_OK && (err.code == WS_OK || err.msg[0] == 0)) __builtin_trap();
        ws_result_free(&res);
        ws_buffers_free(&b);
    }
    ws_spec_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ws_module *m = NULL;
    ws_error err;
    ws_error_clear(&err);
    if (ws_ptx_parse((const char *)data, size, "fuzz.ptx", &m, &err) != WS_OK) return 0;
    uint64_t h = 1469598103934665603ull; /* FNV-1a: the launch shape follows the input */
    for (size_t i = 0; i < size; i++) h = (h ^ data[i]) * 1099511628211ull;
    for (int i = 0; within_limits(m) && i < m->nfuncs; i++)
        if (m->funcs[i].is_entry) {
            run_entry(m, &m->funcs[i], h);
            break;
        }
    ws_module_free(m);
    return 0;
}
