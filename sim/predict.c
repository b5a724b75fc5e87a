/* predict.c — whether a transform pays off, read off the timing model: the ratio of two
 * variants' predicted times and the reasons, named from the bounds of the slower run
 * (its limiter, atomics, control-flow stalls), execution rate and occupancy, never
 * canned; and how sure it is, from the sources of the preset keys behind the limiter.
 * `warpscope predict` prints what this returns. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/sim.h"
#include "sim/timing_internal.h"

/* The timing model's bounds, in the order of bound_words. */
static const ws_metric_id bound_metrics[] = {
    WS_METRIC_SIM_BOUND_LATENCY, WS_METRIC_SIM_BOUND_ISSUE, WS_METRIC_SIM_BOUND_LSU,
    WS_METRIC_SIM_BOUND_L2, WS_METRIC_SIM_BOUND_DRAM, WS_METRIC_SIM_BOUND_ATOMIC_ADDRESS,
    WS_METRIC_SIM_BOUND_ATOMIC_THROUGHPUT, WS_METRIC_SIM_BOUND_ATOMIC_CAS,
    WS_METRIC_SIM_BOUND_PRINTF,
};
enum { B_LATENCY, B_ISSUE, B_LSU, B_L2, B_DRAM, B_ATOM_ADDR, B_ATOM_TP, B_ATOM_CAS, B_PRINTF,
       B_COUNT };
static const char *const bound_words[] = {
    "dependent-latency chains", "instruction issue", "shared/L1 bandwidth", "L2 bandwidth",
    "DRAM bandwidth", "atomic serialization on one L2 line", "atomic throughput",
    "CAS retries and lock hand-offs on contended words",
    "device printf calls, which the GPU takes one at a time",
};
_Static_assert(sizeof bound_metrics / sizeof bound_metrics[0] == B_COUNT, "a metric per bound");
_Static_assert(sizeof bound_words / sizeof bound_words[0] == B_COUNT, "words per bound");

static double bound(const ws_result *r, int b)
{
    return ws_result_value(r, ws_metric_table[bound_metrics[b]].name);
}

static int limiter(const ws_result *r)
{
    int best = B_LATENCY;
    for (int b = 1; b < B_COUNT; b++)
        if (bound(r, b) > bound(r, best)) best = b;
    return best;
}

static void human(double v, char *buf, size_t n)
{
    if (v >= 1e9) snprintf(buf, n, "%.2fG", v / 1e9);
    else if (v >= 1e6) snprintf(buf, n, "%.2fM", v / 1e6);
    else if (v >= 1e4) snprintf(buf, n, "%.1fk", v / 1e3);
    else snprintf(buf, n, "%.0f", v);
}

static void append(char *buf, size_t n, const char *fmt, const char *a, const char *b)
{
    size_t len = strlen(buf);
    snprintf(buf + len, n - len, "%s", len ? ", " : "");
    len = strlen(buf);
    snprintf(buf + len, n - len, fmt, a, b);
}

static void pct_pair(double a, double b, char *pa, char *pb, size_t n)
{
    snprintf(pa, n, "%.0f%%", 100 * a);
    snprintf(pb, n, "%.0f%%", 100 * b);
}

static double lanes_per_address(const ws_result *r)
{
    double tx = ws_result_value(r, WS_M(SIM_ATOMIC_L2_TRANSACTIONS));
    return tx > 0 ? ws_result_value(r, WS_M(SIM_ATOMIC_LANE_OPS)) / tx : 0;
}

/* The share of a run's stall cycles that SASS control flow holds (taken branches, BSYNC,
 * the YIELD of spin loops). */
static double branch_share(const ws_result *r)
{
    static const ws_metric_id kinds[] = {
        WS_METRIC_SIM_STALL_ISSUE, WS_METRIC_SIM_STALL_DEPENDENCY, WS_METRIC_SIM_STALL_MEMORY,
        WS_METRIC_SIM_STALL_BARRIER, WS_METRIC_SIM_STALL_ATOMIC, WS_METRIC_SIM_STALL_BRANCH,
        WS_METRIC_SIM_STALL_WAIT,
    };
    double all = 0;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        double v = ws_result_value(r, ws_metric_table[kinds[i]].name);
        if (v > 0) all += v;
    }
    double b = ws_result_value(r, WS_M(SIM_STALL_BRANCH));
    return all > 0 && b > 0 ? b / all : 0;
}

/* The reason: what bounds the slower of the two, compared across both; then SASS control
 * flow where it holds the slower one back, execution rate and occupancy. */
static void reason(const ws_result *base, const ws_result *var, char *buf, size_t n)
{
    buf[0] = 0;
    int slower_is_var =
        ws_result_value(var, WS_M(SIM_TIME_NS)) >= ws_result_value(base, WS_M(SIM_TIME_NS));
    const ws_result *slow = slower_is_var ? var : base;
    int lim = limiter(slow);
    char a[32], b[32], w[256];
    double sms = ws_result_value(slow, WS_M(SIM_SMS));
    double used = ws_result_value(slow, WS_M(SIM_SMS_USED));
    if (lim == B_LATENCY && used < 0.75 * sms) {
        double warps = (double)slow->grid[0] * slow->grid[1] * slow->grid[2] *
                       ceil((double)slow->block[0] * slow->block[1] * slow->block[2] / 32.0);
        snprintf(w, sizeof w, "%s%.0f warps cannot fill %.0f SMs (%.0f CTAs: %.2f of a wave)",
                 slower_is_var ? "" : "before: ", warps, sms, ws_result_value(slow, WS_M(SIM_CTAS)),
                 ws_result_value(slow, WS_M(SIM_CTAS)) / sms);
        append(buf, n, "%s%s", w, "");
    } else if (lim == B_ATOM_ADDR || lim == B_ATOM_TP) {
        human(ws_result_value(base, WS_M(SIM_ATOMIC_MAX_SAME_ADDRESS)), a, sizeof a);
        human(ws_result_value(var, WS_M(SIM_ATOMIC_MAX_SAME_ADDRESS)), b, sizeof b);
        snprintf(w, sizeof w, "%s bound %s: lane-ops on the hottest address %s -> %s",
                 bound_words[lim], slower_is_var ? "it" : "the base", a, b);
        append(buf, n, "%s%s", w, "");
        snprintf(a, sizeof a, "%.1f", lanes_per_address(base));
        snprintf(b, sizeof b, "%.1f", lanes_per_address(var));
        append(buf, n, "lanes per address in one atomic warp-instruction %s -> %s", a, b);
    } else {
        human(bound(base, lim), a, sizeof a);
        human(bound(var, lim), b, sizeof b);
        snprintf(w, sizeof w, "%s bound %s (%%s -> %%s cycles)", bound_words[lim],
                 slower_is_var ? "it" : "the base");
        append(buf, n, w, a, b);
        if (lim == B_ATOM_CAS && ws_result_value(slow, WS_M(SIM_ATOMIC_LOCK_ACQUISITIONS)) >= 1) {
            /* A spin lock: its acquisitions come one after another, each after a release. */
            human(ws_result_value(slow, WS_M(SIM_ATOMIC_LOCK_ACQUISITIONS)), a, sizeof a);
            human(ws_result_value(slow, WS_M(SIM_ATOMIC_CAS_CONTENDERS)), b, sizeof b);
            snprintf(w, sizeof w, "%s spin-lock acquisitions, each waiting for the last one's "
                     "release, up to %s threads spinning on one word", a, b);
            append(buf, n, "%s%s", w, "");
        } else if (lim == B_ATOM_CAS && ws_result_value(slow, WS_M(SIM_ATOMIC_CAS_CONTENDERS)) >= 2) {
            /* How many threads one word has against it, and how many keep retrying:
             * half in one wave, more as waves of blocks refill the GPU. */
            human(ws_result_value(slow, WS_M(SIM_ATOMIC_CAS_CONTENDERS)), a, sizeof a);
            snprintf(b, sizeof b, "%.0f%%",
                     100 * ws_result_value(slow, WS_M(SIM_ATOMIC_CAS_RETRYING)));
            double waves = ws_result_value(slow, WS_M(SIM_WAVES));
            char in[48] = "in one wave";
            if (waves > 1.05) snprintf(in, sizeof in, "over %.1f waves of blocks", waves);
            snprintf(w, sizeof w, "up to %s threads on one word, %s of them retrying per success "
                     "%s", a, b, in);
            append(buf, n, "%s%s", w, "");
        }
    }
    /* The base's atomics spread over many addresses already: aggregating them cannot help. */
    if (lim != B_ATOM_ADDR && lim != B_ATOM_TP &&
        ws_result_value(base, WS_M(SIM_ATOMIC_REQUESTS)) > 0 &&
        ws_result_value(var, WS_M(SIM_ATOMIC_REQUESTS)) > 0 &&
        ws_result_value(base, WS_M(SIM_ATOMIC_DISTINCT_PER_REQUEST)) >= 4) {
        snprintf(a, sizeof a, "%.1f", ws_result_value(base, WS_M(SIM_ATOMIC_DISTINCT_PER_REQUEST)));
        snprintf(b, sizeof b, "%.1f", ws_result_value(var, WS_M(SIM_ATOMIC_DISTINCT_PER_REQUEST)));
        append(buf, n, "atomics already spread (distinct addresses per warp-instruction %s -> %s)",
               a, b);
    }
    /* Bounds that overlap only in part (sim__bound_overlap_cycles) lengthen the slower one. */
    double ov = ws_result_value(slow, WS_M(SIM_BOUND_OVERLAP));
    double cyc = ws_result_value(slow, WS_M(SIM_CYCLES));
    if (cyc > 0 && ov >= 0.1 * cyc) {
        snprintf(a, sizeof a, "%.0f%%", 100 * ov / cyc);
        append(buf, n, "%sits bounds overlap only in part (%s of its cycles beyond the largest)",
               slower_is_var ? "" : "the base: ", a);
    }
    double bs = branch_share(base), vs = branch_share(var);
    double slow_share = slower_is_var ? vs : bs, fast_share = slower_is_var ? bs : vs;
    if (slow_share >= 0.15 && slow_share - fast_share >= 0.1) {
        pct_pair(bs, vs, a, b, sizeof a);
        append(buf, n, "control flow (taken branches, BSYNC, spin-loop YIELD) %s -> %s of "
               "stall cycles", a, b);
    }
    pct_pair(ws_result_execution_rate(base), ws_result_execution_rate(var), a, b, sizeof a);
    append(buf, n, "execution rate %s -> %s", a, b);
    double oa = ws_result_value(base, WS_M(SIM_ACHIEVED_OCCUPANCY));
    double ob = ws_result_value(var, WS_M(SIM_ACHIEVED_OCCUPANCY));
    if (fabs(oa - ob) < 0.02) append(buf, n, "occupancy unchanged%s%s", "", "");
    else {
        pct_pair(oa, ob, a, b, sizeof a);
        append(buf, n, "achieved occupancy %s -> %s", a, b);
    }
}

void ws_predict_compare(const ws_result *base, const ws_result *var, ws_prediction *out)
{
    double ratio =
        ws_result_value(var, WS_M(SIM_TIME_NS)) / ws_result_value(base, WS_M(SIM_TIME_NS));
    const char *why = out->reasons;
    char *buf = out->verdict;
    size_t n = sizeof out->verdict;
    out->time_ratio = ratio;
    reason(base, var, out->reasons, sizeof out->reasons);
    if (ratio < 0.95)
        snprintf(buf, n, "%s is %.1fx faster than %s: %s", var->variant, 1 / ratio, base->variant, why);
    else if (ratio > 1.05)
        snprintf(buf, n, "%s is %.1fx slower than %s: %s", var->variant, ratio, base->variant, why);
    else
        snprintf(buf, n, "%s is about as fast as %s (%.2fx): %s", var->variant, base->variant,
                 1 / ratio, why);
}

/* The preset keys behind each bound, in the order of bound_words. */
static const char *const bound_keys[B_COUNT][24] = {
    [B_LATENCY] = { "latency.alu", "latency.mul", "latency.mulwide", "latency.fp32",
                    "latency.fp64", "latency.sfu", "latency.shfl", "latency.bit", "latency.vote",
                    "latency.branch", "latency.bar",
                    "mem.shared_latency", "mem.l1_latency", "mem.l2_latency", "mem.dram_latency",
                    "mem.src_read_cycles",
                    "branch.reconverge_cycles", "branch.yield_cycles", "branch.call_cycles",
                    "sched.window", "bound.overlap" },
    [B_ISSUE] = { "issue.alu", "issue.mul", "issue.mulwide", "issue.fp32", "issue.fp64",
                  "issue.sfu", "issue.shfl", "issue.bit", "issue.vote",
                  "sched.window", "sched.ifconvert_max", "bound.overlap" },
    [B_LSU] = { "mem.lsu_wavefronts_per_cycle", "bound.overlap" },
    [B_L2] = { "mem.l2_gbps", "mem.l2_write_beats_per_cycle", "bound.overlap" },
    [B_DRAM] = { "mem.dram_gbps", "bound.overlap" },
    [B_ATOM_ADDR] = { "atom.l2_unit_bytes", "atom.l2_unit_ways", "atom.l2_unit_block_bytes",
                      "atom.l2_part_cycles", "atom.l2_same_cycles", "atom.l2_same_fp_cycles" },
    [B_ATOM_TP] = { "atom.l2_ops_per_cycle", "atom.l2_line_ops_per_cycle", "atom.l2_requests_per_cycle" },
    [B_ATOM_CAS] = { "atom.cas_contended_cycles", "atom.cas_contended_256", "atom.cas_contended_1024",
                     "atom.cas_contended_4096", "atom.cas_attempt_cycles", "atom.cas_lane_cycles", "mem.l2_far_cycles",
                     "atom.cas64_scale",
                     "atom.cas_unit_bytes", "atom.cas_attempts_per_cycle",
                     "atom.cas_successes_per_cycle", "atom.lock_contender_cycles",
                     "atom.lock_hold_cycles", "atom.lock_nofence_contender_cycles",
                     "atom.lock_nofence_hold_cycles" },
    [B_PRINTF] = { "printf.serial_cycles", "printf.serial_lane_cycles", "printf.call_cycles",
                   "printf.format_char_cycles", "printf.lane_cycles" },
};

/* validate.py's names of the bounds, in the order of bound_words. */
static const char *const bound_names[B_COUNT] = {
    "latency", "issue", "lsu", "l2", "dram", "atomic_address", "atomic_throughput", "atomic_cas",
    "printf",
};

/* One line of the preset's validation file (NAME.gpu -> NAME.validation, written by
 * bench/validate.py report --errors): KIND BOUND COUNT WITHIN_1.5X MEDIAN P90 WORST. */
typedef struct val_row { int count, within; double median, p90, worst; } val_row;

static int validation_row(const char *preset_path, const char *kind, const char *bound, val_row *out)
{
    char path[600];
    size_t len = strlen(preset_path);
    if (len < 4 || strcmp(preset_path + len - 4, ".gpu")) return 0;
    snprintf(path, sizeof path, "%.*s.validation", (int)(len - 4), preset_path);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char line[256], k[32], b[32];
    int found = 0;
    while (!found && fgets(line, sizeof line, f))
        found = line[0] != '#' &&
                sscanf(line, "%31s %31s %d %d %lf %lf %lf", k, b, &out->count, &out->within,
                       &out->median, &out->p90, &out->worst) == 7 &&
                !strcmp(k, kind) && !strcmp(b, bound);
    fclose(f);
    return found;
}

/* "N launches it bounds: K within 1.5x, median pred/meas M, 90% within Fx" for one bound. */
static void validation_words(const char *preset_path, int b, char *buf, size_t n)
{
    val_row a, r;
    int has = validation_row(preset_path, "absolute", bound_names[b], &a);
    if (has < 0) {
        snprintf(buf, n, "not measured yet (no validation file beside the preset: "
                 "bench/validate.py report --errors)");
        return;
    }
    if (!has) {
        int len = snprintf(buf, n, "not measured for it (no validation launch is %s-bound)",
                           bound_names[b]);
        /* the kernels written as a new user would may have some (bench/validation/
         * unseen-points.txt) */
        if (len > 0 && (size_t)len < n && validation_row(preset_path, "unseen", bound_names[b], &a) > 0)
            snprintf(buf + len, n - (size_t)len, "; on the unseen kernels, %d of %d launches it "
                     "bounds within 1.5x (median %.2f, worst %.1fx)", a.within, a.count, a.median,
                     a.worst);
        return;
    }
    int len = snprintf(buf, n, "on the validation set, %d of %d launches it bounds within 1.5x "
                       "(predicted/measured median %.2f, 90%% within %.2fx, worst %.1fx)",
                       a.within, a.count, a.median, a.p90, a.worst);
    if (len > 0 && (size_t)len < n && validation_row(preset_path, "ratio", bound_names[b], &r) > 0)
        len += snprintf(buf + len, n - (size_t)len, ", %d of %d time ratios within 1.5x (90%% within "
                        "%.2fx)", r.within, r.count, r.p90);
    /* the kernels written as a new user would (bench/validation/unseen-points.txt) */
    if (len > 0 && (size_t)len < n && validation_row(preset_path, "unseen", bound_names[b], &a) > 0)
        snprintf(buf + len, n - (size_t)len, "; on the unseen kernels, %d of %d launches it bounds "
                 "within 1.5x (median %.2f, worst %.1fx)", a.within, a.count, a.median, a.worst);
}

void ws_predict_confidence(const ws_result *r, const char *preset, char *buf, size_t n)
{
    int b = limiter(r);
    ws_gpu_preset p;
    ws_error err;
    ws_error_clear(&err);
    if (ws_gpu_preset_load(preset, &p, &err)) {
        snprintf(buf, n, "set by %s; preset sources unknown (%s)", bound_words[b], err.msg);
        return;
    }
    int keys = 0, bench = 0, fitted = 0, unsourced = 0;
    char names[256] = "";
    for (size_t k = 0; k < sizeof bound_keys[b] / sizeof bound_keys[b][0] && bound_keys[b][k]; k++) {
        const char *src = ws_gpu_preset_source(&p, bound_keys[b][k]);
        keys++;
        if (!src || !*src) unsourced++;
        else if (!strncmp(src, "bench/calib/", 12)) bench++;
        else if (src && strstr(src, "validation workload")) {
            size_t len = strlen(names);
            snprintf(names + len, sizeof names - len, "%s%s", fitted++ ? ", " : "", bound_keys[b][k]);
        }
    }
    char none[64] = "", val[480], second[560] = "";
    if (unsourced) snprintf(none, sizeof none, ", %d with no source", unsourced);
    validation_words(p.path, b, val, sizeof val);
    /* A second bound within a factor of two of the limiter shares the kernel's time. */
    int b2 = -1;
    for (int k = 0; k < B_COUNT; k++)
        if (k != b && bound(r, k) >= 0.5 * bound(r, b) && (b2 < 0 || bound(r, k) > bound(r, b2)))
            b2 = k;
    if (b2 >= 0) {
        char v2[480];
        validation_words(p.path, b2, v2, sizeof v2);
        snprintf(second, sizeof second, "; close behind, %s: %s", bound_words[b2], v2);
    }
    snprintf(buf, n, "set by %s; of its %d preset keys %d measured by bench/calib, %d fitted to "
             "the validation workloads%s%s%s%s; error on kernels they were not fitted to: %s%s",
             bound_words[b], keys, bench, fitted, fitted ? " (" : "", names,
             fitted ? ")" : "", none, val, second);
}
