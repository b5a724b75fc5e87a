/* test_timing_preset.c — GPU preset files: the shipped h100 and fermi presets parse and
 * say what they should; every numeric key of h100 has a source; every parse error names
 * file:line; unknown presets are errors; a preset knows when it stands in for another GPU. */
#include <stdlib.h>
#include <string.h>
#include "sim/sim.h"
#include "sim/timing_internal.h"
#include "tests/check.h"

static char *read_preset(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/sim/presets/%s.gpu", WS_SOURCE_DIR, name);
    char *text = NULL;
    size_t len;
    ws_error err;
    ws_error_clear(&err);
    if (ws_read_file(path, &text, &len, &err)) return NULL;
    return text;
}

/* Replaces the first line starting with `key` by `line` (or appends when key is NULL). */
static char *edit(const char *text, const char *key, const char *line)
{
    size_t n = strlen(text) + strlen(line) + 4;
    char *out = malloc(n);
    const char *at = key ? strstr(text, key) : NULL;
    if (!at) { snprintf(out, n, "%s%s\n", text, line); return out; }
    const char *eol = strchr(at, '\n');
    snprintf(out, n, "%.*s%s%s", (int)(at - text), text, line, eol ? eol : "");
    return out;
}

static int line_of(const char *text, const char *key)
{
    const char *at = strstr(text, key);
    int line = 1;
    for (const char *s = text; s < at; s++) line += *s == '\n';
    return line;
}

static void expect_parse_error(const char *text, int line, const char *msg)
{
    ws_gpu_preset p;
    ws_error err;
    ws_error_clear(&err);
    int rc = ws_gpu_preset_parse(text, "x.gpu", &p, &err);
    CHECK(rc == WS_ERR_SPEC, "should fail with '%s'", msg);
    CHECK(!strcmp(err.file, "x.gpu") && err.line == line, "error at %s:%d, want x.gpu:%d (%s)",
          err.file, err.line, line, err.msg);
    CHECK(strstr(err.msg, msg) != NULL, "message '%s' lacks '%s'", err.msg, msg);
}

int main(void)
{
    ws_gpu_preset p;
    ws_error err;
    ws_error_clear(&err);
    CHECK(ws_gpu_preset_load("h100", &p, &err) == 0, "h100: %s", err.msg);
    CHECK(p.sms == 132 && p.schedulers_per_sm == 4 && !strcmp(p.cc, "9.0"),
          "h100: %g SMs, %g schedulers, cc %s", p.sms, p.schedulers_per_sm, p.cc);
    CHECK(p.latency[WS_LAT_fp64] > p.latency[WS_LAT_fp32], "fp64 slower than fp32");
    CHECK(p.dram_latency > p.l2_latency && p.l2_latency > p.l1_latency, "memory hierarchy order");
    CHECK(p.latency[WS_LAT_mulwide] > p.latency[WS_LAT_mul] &&
          p.issue[WS_LAT_mulwide] > p.issue[WS_LAT_mul], "IMAD.HI/WIDE slower than IMAD");
    ws_error_clear(&err);
    CHECK(ws_gpu_preset_load("fermi", &p, &err) == 0, "fermi: %s", err.msg);
    CHECK(p.sms == 14 && !strcmp(p.cc, "2.0"), "fermi: %g SMs, cc %s", p.sms, p.cc);

    /* The preset for a device's compute capability (what run/profile predict time with). */
    char name[64] = "";
    CHECK(ws_gpu_preset_for_cc("9.0", name, sizeof name) && !strcmp(name, "h100"),
          "cc 9.0 -> '%s'", name);
    CHECK(ws_gpu_preset_for_cc("2.0", name, sizeof name) && !strcmp(name, "fermi"),
          "cc 2.0 -> '%s'", name);
    CHECK(!ws_gpu_preset_for_cc("8.6", name, sizeof name), "no preset for cc 8.6");
    /* two presets of cc 9.0: the device's own by its model word, else the first by name */
    CHECK(ws_gpu_preset_for_gpu("9.0", "NVIDIA H200", name, sizeof name) &&
          !strcmp(name, "h200"), "an H200 -> '%s'", name);
    CHECK(ws_gpu_preset_for_gpu("9.0", "NVIDIA H100 80GB HBM3", name, sizeof name) &&
          !strcmp(name, "h100"), "an H100 -> '%s'", name);
    CHECK(ws_gpu_preset_for_gpu("9.0", "NVIDIA GH200 480GB", name, sizeof name) &&
          !strcmp(name, "h100"), "a GH200 (no preset of its own) -> '%s'", name);
    CHECK(ws_gpu_preset_for_gpu("2.0", "GeForce GTX 480", name, sizeof name) &&
          !strcmp(name, "fermi"), "a GTX 480 (the fermi preset's name lacks it) -> '%s'", name);
    ws_error_clear(&err);
    CHECK(ws_gpu_preset_load("h200", &p, &err) == 0, "h200: %s", err.msg);
    CHECK(p.sms == 132 && !strcmp(p.cc, "9.0") && strstr(p.name, "H200"),
          "h200: %g SMs, cc %s, name %s", p.sms, p.cc, p.name);

    ws_error_clear(&err);
    CHECK(ws_gpu_preset_load("no_such_gpu", &p, &err) == WS_ERR_NOTFOUND, "unknown preset");
    CHECK(strstr(err.msg, "no GPU preset 'no_such_gpu'") != NULL, "message: %s", err.msg);

    char *h100 = read_preset("h100");
    CHECK(h100 != NULL, "read h100.gpu");
    if (!h100) return ws_test_finish("timing/preset");
    char *t;
    t = edit(h100, "sms =", "smz = 132");
    expect_parse_error(t, line_of(h100, "sms ="), "unknown preset key 'smz'");
    free(t);
    /* a key an earlier version had: the message names what replaced it */
    t = edit(h100, "mem.l2_write_beats_per_cycle =", "mem.l2_write_requests_per_cycle = 16.3");
    expect_parse_error(t, line_of(h100, "mem.l2_write_beats_per_cycle ="),
                       "is now mem.l2_write_beats_per_cycle, at twice its value");
    free(t);
    t = edit(h100, "clock_mhz", "clock_mhz = fast");
    expect_parse_error(t, line_of(h100, "clock_mhz"), "'clock_mhz' needs a non-negative number, not 'fast'");
    free(t);
    t = edit(h100, "latency.sfu", "latency.sfu = -3");
    expect_parse_error(t, line_of(h100, "latency.sfu"), "'latency.sfu' needs a non-negative number");
    free(t);
    t = edit(h100, "model =", "model = cuda");
    expect_parse_error(t, line_of(h100, "model ="), "'model' is sass or ptx (the simulator model "
                       "the keys were fitted on), not 'cuda'");
    free(t);
    t = edit(h100, "issue.alu", "issue.alu 2");
    expect_parse_error(t, line_of(h100, "issue.alu"), "expected 'key = value', got 'issue.alu 2'");
    free(t);
    t = edit(h100, "mem.l2_gbps", "mem.l2_gbps =");
    expect_parse_error(t, line_of(h100, "mem.l2_gbps"), "'mem.l2_gbps' has no value");
    free(t);
    t = edit(h100, NULL, "sms = 10");
    int last = line_of(t, "sms = 10\n") ;
    (void)last;
    {   /* a duplicate key is reported at its second occurrence (the last line) */
        int nlines = 0;
        for (const char *s = t; *s; s++) nlines += *s == '\n';
        expect_parse_error(t, nlines, "'sms' given twice");
    }
    free(t);
    t = edit(h100, "bound.overlap =", "bound.overlap = 0.5");
    {   /* a range is checked once every key is read: reported at the last line */
        int nlines = 0;
        for (const char *s = t; *s; s++) nlines += *s == '\n';
        expect_parse_error(t, nlines, "'bound.overlap' must be 0 (the bounds overlap completely) "
                           "or at least 1");
    }
    free(t);
    t = edit(h100, "latency.shfl", "# latency.shfl removed");
    {
        int nlines = 0;
        for (const char *s = t; *s; s++) nlines += *s == '\n';
        expect_parse_error(t, nlines, "missing preset key 'latency.shfl'");
    }
    free(t);
    t = edit(h100, "model =", "# model removed");
    {
        int nlines = 0;
        for (const char *s = t; *s; s++) nlines += *s == '\n';
        expect_parse_error(t, nlines, "missing preset key 'model'");
    }
    free(t);
    {   /* the preset of a compute capability standing in for another GPU of it */
        char made[128] = "";
        CHECK(!ws_gpu_preset_other_gpu("h100", "NVIDIA H100 80GB HBM3", made, sizeof made),
              "h100 is the H100's preset");
        CHECK(ws_gpu_preset_other_gpu("h100", "NVIDIA H200", made, sizeof made) &&
                  strstr(made, "H100"), "h100 stands in for an H200: %s", made);
        CHECK(!ws_gpu_preset_other_gpu("h200", "NVIDIA H200", made, sizeof made),
              "h200 is the H200's preset");
        CHECK(ws_gpu_preset_other_gpu("h100", "Tesla V100-SXM2-16GB", made, sizeof made),
              "h100 stands in for a V100 (its model word ends at a hyphen)");
        CHECK(!ws_gpu_preset_other_gpu("h100", "", made, sizeof made) &&
                  !ws_gpu_preset_other_gpu("no-such-preset", "NVIDIA H200", made, sizeof made),
              "no model word, or no preset: cannot be told");
    }
    {   /* the model each shipped preset was fitted on */
        char m1[8] = "", m2[8] = "";
        ws_error_clear(&err);
        CHECK(ws_gpu_preset_model("h100", m1, sizeof m1, &err) == WS_OK && !strcmp(m1, "sass") &&
                  ws_gpu_preset_model("fermi", m2, sizeof m2, &err) == WS_OK && !strcmp(m2, "ptx"),
              "h100 is fitted on the SASS model, fermi on the PTX one: %s %s %s", m1, m2, err.msg);
    }
    t = edit(h100, "mem.dram_gbps", "mem.dram_gbps = 0");
    {
        int nlines = 0;
        for (const char *s = t; *s; s++) nlines += *s == '\n';
        expect_parse_error(t, nlines, "preset has a zero rate or size");
    }
    free(t);
    const char *bad_window[] = { "sched.window = 0", "sched.window = 1.5", "sched.window = 33" };
    for (int i = 0; i < 3; i++) {
        t = edit(h100, "sched.window =", bad_window[i]);
        int nlines = 0;
        for (const char *s = t; *s; s++) nlines += *s == '\n';
        expect_parse_error(t, nlines, "'sched.window' must be a whole number from 1 to 32");
        free(t);
    }
    /* A spin lock's costs, as every number of a preset, may not be negative: the line says. */
    const char *bad_lock[][3] = {
        { "atom.lock_contender_cycles =", "atom.lock_contender_cycles = -1",
          "'atom.lock_contender_cycles' needs a non-negative number, not '-1'" },
        { "atom.lock_hold_cycles =", "atom.lock_hold_cycles = -0.5",
          "'atom.lock_hold_cycles' needs a non-negative number, not '-0.5'" } };
    for (int i = 0; i < 2; i++) {
        t = edit(h100, bad_lock[i][0], bad_lock[i][1]);
        int line = 1;
        for (const char *s = t; *s && s != strstr(t, bad_lock[i][1]); s++) line += *s == '\n';
        expect_parse_error(t, line, bad_lock[i][2]);
        free(t);
    }
    /* The atomic units' layout: ways a whole number, blocks no smaller than chunks. */
    const char *bad_units[][2] = { { "atom.l2_unit_ways =", "atom.l2_unit_ways = 1.5" },
                                   { "atom.l2_unit_ways =", "atom.l2_unit_ways = 0" },
                                   { "atom.l2_unit_block_bytes =", "atom.l2_unit_block_bytes = 128" } };
    for (int i = 0; i < 3; i++) {
        t = edit(h100, bad_units[i][0], bad_units[i][1]);
        int nlines = 0;
        for (const char *s = t; *s; s++) nlines += *s == '\n';
        expect_parse_error(t, nlines, "'atom.l2_unit_ways' must be a whole number of at least 1");
        free(t);
    }
    const char *zero_rates[] = { "atom.l2_units =", "atom.cas_attempts_per_cycle =",
                                 "atom.cas_unit_bytes =", "atom.cas_successes_per_cycle =" };
    for (int i = 0; i < 4; i++) {
        char line[96];
        snprintf(line, sizeof line, "%s 0", zero_rates[i]);
        t = edit(h100, zero_rates[i], line);
        int nlines = 0;
        for (const char *s = t; *s; s++) nlines += *s == '\n';
        expect_parse_error(t, nlines, "preset has a zero rate or size");
        free(t);
    }
    /* Sources: every numeric key of h100.gpu says where its number came from. */
    ws_error_clear(&err);
    CHECK(ws_gpu_preset_load("h100", &p, &err) == 0, "h100: %s", err.msg);
    char missing[2048];
    int n = ws_gpu_preset_unsourced(&p, missing, sizeof missing);
    CHECK(n == 0, "h100.gpu: %d keys without a source: %s", n, missing);
    const char *alu = ws_gpu_preset_source(&p, "latency.alu");
    CHECK(alu && (strstr(alu, "bench/calib op_shf") || strstr(alu, "bench/calib/calib.spec op_shf")),
          "latency.alu's source: %s", alu ? alu : "(none)");
    CHECK(ws_gpu_preset_source(&p, "no.such") == NULL, "no source for an unknown key");
    t = edit(h100, "source latency.alu", "# no source");
    ws_error_clear(&err);
    CHECK(ws_gpu_preset_parse(t, "x.gpu", &p, &err) == 0, "a key without a source parses: %s", err.msg);
    n = ws_gpu_preset_unsourced(&p, missing, sizeof missing);
    CHECK(n == 1 && !strcmp(missing, "latency.alu"), "unsourced: %d (%s)", n, missing);
    free(t);
    t = edit(h100, "source latency.alu", "source latency.alx bench");
    expect_parse_error(t, line_of(h100, "source latency.alu"), "source of unknown preset key 'latency.alx'");
    free(t);
    t = edit(h100, "source latency.alu", "source latency.alu   ");
    expect_parse_error(t, line_of(h100, "source latency.alu"), "source of 'latency.alu' has no text");
    free(t);
    t = edit(h100, "source latency.alu", "source");
    expect_parse_error(t, line_of(h100, "source latency.alu"), "'source' needs a key and a text");
    free(t);
    t = edit(h100, "source latency.mul", "source latency.alu again");
    expect_parse_error(t, line_of(h100, "source latency.mul"), "source of 'latency.alu' given twice");
    free(t);
    {
        char longer[400];
        snprintf(longer, sizeof longer, "source latency.alu %0300d", 0);
        t = edit(h100, "source latency.alu", longer);
        expect_parse_error(t, line_of(h100, "source latency.alu"),
                           "source of 'latency.alu' is longer than 239 characters");
        free(t);
    }
    free(h100);
    return ws_test_finish("timing/preset");
}
