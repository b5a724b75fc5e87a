/* test_timing_printf.c — the timing model's device printf on real PTX runs of bench/calib's
 * printf_lanes, with the tests' preset (mech.gpu) given round printf keys:
 *   a warp waits for each call: printf.call_cycles, plus printf.format_char_cycles a
 *     character of its format and printf.lane_cycles a further lane that prints;
 *   the GPU takes the calls one after another: printf.serial_cycles a call and
 *     printf.serial_lane_cycles a further lane, a bound that sets the time where many warps
 *     print at once;
 *   with the keys at 0 (a preset that does not price printf) a call costs what a call does. */
#include <stdio.h>
#include <stdlib.h>
#include "tests/check.h"
#include "tests/timing/timing_run.h"

#define CALIB WS_SOURCE_DIR "/bench/calib/calib.spec"

static const char *preset;

/* Runs printf_lanes at `defs`; its cycles, printf bound, calls and lanes into out[0..3]. */
static int run(const char *const *defs, const char *p, double out[4])
{
    ws_result r;
    ws_error err;
    ws_error_clear(&err);
    int rc = ws_tr_run_on(CALIB, defs, "printf_lanes", p, &r, &err);
    CHECK(rc == 0, "printf_lanes: %s", err.msg);
    out[0] = ws_tr_metric(&r, "sim__cycles");
    out[1] = ws_tr_metric(&r, "sim__bound_printf_cycles");
    out[2] = ws_tr_metric(&r, "sim__printf_calls");
    out[3] = ws_tr_metric(&r, "sim__printf_lanes");
    ws_result_free(&r);
    return rc;
}

/* The cycles one warp's loop of printf calls adds from point a to point b. */
static double delta(const char *const *a, const char *const *b)
{
    double x[4], y[4];
    if (run(a, preset, x) || run(b, preset, y)) return NAN;
    return y[0] - x[0];
}

int main(void)
{
    static const char *const keys[] = {
        "printf.call_cycles", "10000", "printf.format_char_cycles", "100",
        "printf.lane_cycles", "50", "printf.serial_cycles", "2000",
        "printf.serial_lane_cycles", "30", NULL };
    char path[WS_PATH_MAX];
    preset = ws_tr_preset_edit(keys, "printf-keys", path, sizeof path);
    CHECK(preset != NULL, "writing the edited preset");
    if (!preset) return ws_test_finish("timing/printf");

    /* One lane of one warp: 4 more calls of the 8-character format ("p %d %d\n"), each
     * 10000 + 8 x 100 cycles, and a few loop instructions. */
    static const char *const r4[] = { "LANES=1", "REPS=4", NULL };
    static const char *const r8[] = { "LANES=1", "REPS=8", NULL };
    double d = delta(r4, r8) / 4;
    printf("a call, one lane, 8 characters: %.0f cycles (want 10800 and its loop's few)\n", d);
    CHECK(d >= 10800 && d < 10900, "a call of one lane costs %.0f cycles", d);
    /* The 69-character format: 61 characters more a call. */
    static const char *const f1[] = { "LANES=1", "REPS=4", "FMTLEN=1", NULL };
    d = delta(r4, f1) / 4;
    printf("61 characters more: %.0f cycles a call (want 6100)\n", d);
    CHECK(fabs(d - 6100) < 1, "61 more format characters cost %.0f cycles a call", d);
    /* 32 lanes for one: 31 further lanes a call (the loop's instructions differ a little). */
    static const char *const l32[] = { "LANES=32", "REPS=4", NULL };
    d = delta(r4, l32) / 4;
    printf("31 further lanes: %.0f cycles a call (want 1550)\n", d);
    CHECK(fabs(d - 1550) < 25, "31 further lanes cost %.0f cycles a call", d);

    /* One warp on each of 132 SMs, 4 calls each: the GPU's queue of 528 calls binds. */
    static const char *const many1[] = { "CTAS=132", "LANES=1", "REPS=4", NULL };
    static const char *const many32[] = { "CTAS=132", "LANES=32", "REPS=4", NULL };
    double a[4], b[4];
    if (!run(many1, preset, a) && !run(many32, preset, b)) {
        printf("132 warps, 4 calls each: calls %g lanes %g, bound %.0f, cycles %.0f\n", a[2], a[3],
               a[1], a[0]);
        CHECK(a[2] == 528 && a[3] == 528, "528 calls of one lane (%g, %g)", a[2], a[3]);
        CHECK(a[1] == 528 * 2000.0, "the queue: 528 calls of 2000 cycles (%.0f)", a[1]);
        CHECK(a[0] == a[1], "the queue sets the time (%.0f of %.0f cycles)", a[1], a[0]);
        CHECK(b[2] == 528 && b[3] == 528 * 32, "528 calls of 32 lanes (%g, %g)", b[2], b[3]);
        CHECK(b[1] == 528 * (2000.0 + 31 * 30.0), "each further lane 30 cycles more (%.0f)",
              b[1]);
    }
    /* One warp alone: its 4 calls in the queue (8000 cycles) are less than its waits. */
    if (!run(r4, preset, a))
        CHECK(a[1] == 4 * 2000.0 && a[0] > 4 * 10800.0,
              "one warp: its waits set the time (queue %.0f of %.0f cycles)", a[1], a[0]);

    /* A preset that does not price printf: a call costs no more than its instructions. */
    static const char *const zero[] = {
        "printf.call_cycles", "0", "printf.format_char_cycles", "0", "printf.lane_cycles", "0",
        "printf.serial_cycles", "0", "printf.serial_lane_cycles", "0", NULL };
    char zpath[WS_PATH_MAX];
    const char *zp = ws_tr_preset_edit(zero, "printf-zero", zpath, sizeof zpath);
    static const char *const none[] = { "LANES=0", "REPS=4", NULL };
    if (zp && !run(r4, zp, a) && !run(none, zp, b))
        CHECK(a[0] < b[0] + 2000 && a[1] == 0,
              "unpriced: 4 calls add %.0f cycles to a loop that does not print", a[0] - b[0]);
    return ws_test_finish("timing/printf");
}
