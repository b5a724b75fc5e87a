#!/usr/bin/env python3
"""validate.py — judges the timing model on the validation set (bench/validation/points.txt:
the seed workloads of kernels/ at several sizes and the workloads of bench/validation/),
none of which any preset key is fitted to (keys come from bench/calib/ alone).

  validate.py measure WARPSCOPE POINTS RECORDS.json [--stand-in PRESET [--jobs N]] [--budget S]
                      [--only RE] [--timeout S] [--trials N]
      times every (workload, size, variant) point on the GPU (`warpscope run --no-sim --no-db
      --json --repeat R`, median of R launches; with --trials N the median of N such runs,
      each its own process, and their range) or, with --stand-in, on the simulator with
      PRESET in the GPU's place (tests); writes the times (ns) as JSON records. Points not
      started within --budget seconds are recorded untimed (null).
  validate.py report WARPSCOPE RECORDS.json PRESET OUT.txt [--jobs N] [--model M] [--errors F]
                     [--unseen-errors F] [--only RE]
      predicts the same points with the timing model and PRESET (`warpscope sim --timing`,
      on the model --model names, default the one the preset was fitted on,
      on the CPU) and writes the tables: per pair (each variant against its point's base)
      predicted vs measured time ratio, direction, within 1.25x / 1.5x; per launch predicted
      vs measured time; the distribution of predicted/measured (median, 90th percentile,
      worst) and the verdict against the thresholds below, misses listed by name. --errors F
      also writes the error per bound of the model (sim/presets/NAME.validation, which
      `warpscope predict` quotes in its confidence line). --unseen-errors F puts the same
      per-bound error of the launches (not the pairs: the unseen sets' variants are unrelated
      kernels) into F as its `unseen` rows, keeping F's other rows: for the records of
      bench/validation/unseen-points.txt, the kernels written as a new user would, which
      predict quotes beside the validation set's. --only RE (both): the points whose
      'WORKLOAD SIZE' matches RE.

POINTS lines: WORKLOAD SIZE REPEAT [skip=V,...] [base=V]
  WORKLOAD  a name of kernels/ or a .spec path relative to the repository
  SIZE      '-' (the spec's defaults) or NAME=VALUE,... (the -D overrides)
  REPEAT    timed launches (median)
  skip=     variants not timed (minutes a launch); base= the variant the others are
            compared with (default: 'before', else the spec's first variant)
"""
import concurrent.futures
import json
import os
import re
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

# The bar: direction, ratio within 1.25x and 1.5x, absolute time within 1.5x.
THRESHOLDS = (("direction right", "direction", 0.95), ("ratio within 1.25x", "r125", 0.80),
              ("ratio within 1.5x", "r150", 0.95), ("absolute time within 1.5x", "a150", 0.80))
TIE = 1.1  # both ratios within 10% of 1: the same verdict (no gain), whatever the side


def fail(msg):
    sys.stderr.write("validate: %s\n" % msg)
    sys.exit(1)


# ---------------------------------------------------------------- points and specs

def spec_path(workload):
    if workload.endswith(".spec"):
        p = workload if os.path.isabs(workload) else os.path.join(REPO, workload)
    else:
        p = os.path.join(REPO, "kernels", workload + ".spec")
    if not os.path.isfile(p):
        fail("no spec '%s' (looked for %s)" % (workload, p))
    return p


def spec_variants(path):
    out = []
    with open(path) as f:
        for line in f:
            w = line.split("#", 1)[0].split()
            if len(w) >= 2 and w[0] == "variant":
                out.append(w[1])
    if not out:
        fail("%s: no variants" % path)
    return out


def read_points(path):
    points = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            w = line.split("#", 1)[0].split()
            if not w:
                continue
            if len(w) < 3 or not w[2].isdigit() or int(w[2]) < 1:
                fail("%s:%d: want 'WORKLOAD SIZE REPEAT [skip=V,...] [base=V]'" % (path, n))
            spec = spec_path(w[0])
            variants = spec_variants(spec)
            p = {"workload": w[0], "size": w[1], "repeat": int(w[2]), "skip": [], "base": None}
            for opt in w[3:]:
                k, _, v = opt.partition("=")
                if k == "skip":
                    p["skip"] = v.split(",")
                elif k == "base":
                    p["base"] = v
                else:
                    fail("%s:%d: unknown option '%s' (skip=, base=)" % (path, n, opt))
            for v in p["skip"] + ([p["base"]] if p["base"] else []):
                if v not in variants:
                    fail("%s:%d: %s has no variant '%s' (%s)" % (path, n, w[0], v, " ".join(variants)))
            if not p["base"]:
                p["base"] = "before" if "before" in variants else variants[0]
            p["variants"] = variants
            points.append(p)
    return points


def defines(size):
    out = []
    if size != "-":
        for kv in size.split(","):
            out += ["-D", kv]
    return out


def label(workload):
    """A workload as the tables name it: a spec path by its file name, less '.spec'."""
    return os.path.basename(workload)[:-5] if workload.endswith(".spec") else workload


def point_name(p):
    return "%s %s" % (label(p["workload"]), p["size"])


# ---------------------------------------------------------------- running warpscope

def run_json_lines(cmd, timeout):
    """The JSON objects a warpscope command printed (also when it failed: a check that
    fails, such as a seed's racy variant, still prints its times) and its error line."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return [], "timed out after %d s" % timeout
    objs = []
    for line in p.stdout.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                objs.append(json.loads(line))
            except ValueError:
                pass
    if not objs and p.stdout.strip().startswith("{"):
        try:
            objs.append(json.loads(p.stdout))
        except ValueError:
            pass
    err = None
    if p.returncode:
        lines = (p.stderr or p.stdout).strip().splitlines()
        err = lines[-1] if lines else "exit status %d" % p.returncode
    return objs, err


def sim_time(ws, spec, size, variant, preset, model, timeout=900):
    cmd = [ws, "sim", spec, "--variant", variant] + defines(size) + [
        "--timing", "--preset", preset, "--json", "--no-db", "--no-races", "--quiet",
        "--threads", "1"] + (["--model", model] if model else [])
    objs, err = run_json_lines(cmd, timeout)
    try:
        return objs[0]["metrics"]["sim__time_ns"], None
    except (IndexError, KeyError):
        return None, err or "no sim__time_ns in its JSON"


def gpu_times(ws, p, variants, timeout):
    """{variant: ns} of one `warpscope run` (every variant when none is skipped)."""
    base = [ws, "run", spec_path(p["workload"])] + defines(p["size"]) + [
        "--no-sim", "--no-db", "--json", "--quiet", "--warmup", "1", "--repeat", str(p["repeat"])]
    calls = [base] if len(variants) == len(p["variants"]) else [base + ["--variant", v] for v in variants]
    out, errs = {}, []
    for cmd in calls:
        objs, err = run_json_lines(cmd, timeout)
        if err:
            errs.append(err)
        for d in objs:
            if "gpu" in d and d.get("variant") in variants:
                out[d["variant"]] = d["gpu"].get("gpu__time_duration.sum")
                out.setdefault("_device", d.get("device"))
    return out, "; ".join(errs) or None


def gpu_trials(ws, p, variants, timeout, trials):
    """{variant: median ns} over `trials` separate processes (a contended atomic's time moves
    with where the allocation lands in L2, from one process to the next), the trials' range
    {variant: [min, max]} and the errors."""
    runs, errs = [], []
    for _ in range(trials):
        got, err = gpu_times(ws, p, variants, timeout)
        runs.append(got)
        if err:
            errs.append(err)
    med, spread, device = {}, {}, None
    for got in runs:
        device = device or got.get("_device")
    for v in variants:
        ts = sorted(g[v] for g in runs if g.get(v))
        if ts:
            med[v] = statistics.median(ts)
            spread[v] = [ts[0], ts[-1]]
    med["_device"] = device
    return med, spread, "; ".join(errs) or None


def measure(ws, points_file, records, stand_in, budget, only, timeout, jobs, trials=1):
    points = read_points(points_file)
    rec = {"source": "stand-in " + stand_in if stand_in else "gpu", "points_file": points_file,
           "device": None, "points": []}
    start = time.time()
    for p in points:
        timed = [v for v in p["variants"] if v not in p["skip"]]
        r = {"workload": p["workload"], "size": p["size"], "repeat": p["repeat"], "base": p["base"],
             "times_ns": {v: None for v in p["variants"]}, "error": None}
        if only and not re.search(only, point_name(p)):
            continue
        if budget and time.time() - start > budget:
            r["error"] = "not timed: past the %d s budget" % budget
        elif stand_in:
            with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
                got = list(ex.map(lambda v: sim_time(ws, spec_path(p["workload"]), p["size"], v, stand_in, None), timed))
            for v, (t, err) in zip(timed, got):
                r["times_ns"][v] = t
                r["error"] = r["error"] or err
        else:
            got, r["spread_ns"], r["error"] = gpu_trials(ws, p, timed, timeout, trials)
            rec["device"] = rec["device"] or got.pop("_device", None)
            got.pop("_device", None)
            r["times_ns"].update(got)
            r["trials"] = trials
        rec["points"].append(r)
        t = " ".join("%s=%s" % (v, "%.1fus" % (x / 1e3) if x else "-") for v, x in r["times_ns"].items())
        print("%-58s %s%s" % (point_name(p), t, "  (%s)" % r["error"] if r["error"] else ""), flush=True)
    rec["seconds"] = round(time.time() - start, 1)
    with open(records, "w") as f:
        json.dump(rec, f, indent=1, sort_keys=True)
    print("%d points in %.0f s -> %s" % (len(rec["points"]), rec["seconds"], records))


# ---------------------------------------------------------------- report

BOUNDS = ("latency", "issue", "lsu", "l2", "dram", "atomic_address", "atomic_throughput", "atomic_cas",
          "printf")


def sim_point(args):
    """(time ns, limiter, error) of one variant at one size, predicted with PRESET."""
    ws, spec, size, variant, preset, model = args
    cmd = [ws, "sim", spec, "--variant", variant] + defines(size) + [
        "--timing", "--preset", preset, "--json", "--no-db", "--no-races", "--quiet",
        "--threads", "1"] + (["--model", model] if model else [])
    objs, err = run_json_lines(cmd, 900)
    m = objs[0].get("metrics", {}) if objs else {}
    if "sim__time_ns" not in m:
        return None, None, err or "no sim__time_ns in its JSON"
    lim = max(BOUNDS, key=lambda b: m.get("sim__bound_%s_cycles" % b, 0))
    return m["sim__time_ns"], lim, None


def factor(q):
    return max(q, 1 / q)


def pct(v, p):
    v = sorted(v)
    if not v:
        return float("nan")
    k = (len(v) - 1) * p
    lo = int(k)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)


def distribution(qs):
    """median, 90th percentile and worst of predicted/measured, worst by distance from 1."""
    if not qs:
        return "-"
    worst = max(qs, key=factor)
    return "median %.2f, 90th pct %.2f (as a factor: %.2fx), worst %.2f" % (
        statistics.median(qs), pct(qs, 0.9), pct([factor(q) for q in qs], 0.9), worst)


def error_rows(kind, items):
    """KIND BOUND COUNT WITHIN_1.5X MEDIAN P90_FACTOR WORST_FACTOR rows of (bound, q) items:
    one for all, one a bound."""
    rows = []
    groups = {"all": [q for _, q in items]}
    for lim, q in items:
        groups.setdefault(lim, []).append(q)
    for g in ["all"] + sorted(k for k in groups if k != "all"):
        qs = groups[g]
        if qs:
            rows.append("%s %s %d %d %.3f %.3f %.3f" % (
                kind, g, len(qs), sum(factor(q) <= 1.5 for q in qs), statistics.median(qs),
                pct([factor(q) for q in qs], 0.9), max(factor(q) for q in qs)))
    return rows


def write_unseen_errors(path, rec, preset, launches):
    """The launches' error per bound as F's `unseen` rows (absolute times only), the rows of
    other kinds and their header kept."""
    keep = []
    if os.path.exists(path):
        keep = [l.rstrip("\n") for l in open(path)
                if not l.startswith("unseen ") and not l.startswith("# unseen:")]
    lines = keep + ["# unseen: the same for bench/validation/unseen-points.txt (kernels written as a new user "
                    "would), from %s (%s) with preset %s on %s"
                    % (rec.get("source", "?"), rec.get("device") and rec["device"].get("name", "") or "records",
                       os.path.basename(preset), time.strftime("%Y-%m-%d"))]
    lines += error_rows("unseen", [(lim, pv / tv) for _, _, _, pv, tv, lim in launches])
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def write_errors(path, rec, preset, pairs, launches, unseen_rows=()):
    """Per bound of the model (the limiter of a launch; of a pair, the slower variant's):
    how far predicted times and ratios landed from the measured ones, for `predict`'s
    confidence line (read beside the preset: h100.gpu -> h100.validation)."""
    lines = ["# %s — the timing model's error on the validation set (bench/validation/points.txt),"
             % os.path.basename(path),
             "# per bound that set the predicted time; written by bench/validate.py report from %s"
             % rec.get("source", "?"),
             "# (%s) with preset %s on %s. Nothing here is a preset key: predict only quotes it."
             % (rec.get("device") and rec["device"].get("name", "") or "records", os.path.basename(preset),
                time.strftime("%Y-%m-%d")),
             "# KIND BOUND COUNT WITHIN_1.5X MEDIAN_PRED/MEAS P90_FACTOR WORST_FACTOR"]
    for kind, items in (("absolute", [(lim, pv / tv) for _, _, _, pv, tv, lim in launches]),
                        ("ratio", [(p["lim"], p["q"]) for p in pairs])):
        lines += error_rows(kind, items)
    lines += list(unseen_rows)  # another report's (write_unseen_errors)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def report(ws, records, preset, out_txt, jobs, model, errors_out=None, only=None, unseen_out=None):
    # the report is written when every point is predicted: an older one of the same name
    # goes first, so that nobody reads it as this run's while the run goes on
    # the unseen rows of an errors file are another report's (--unseen-errors): they stay
    unseen_rows = [l.rstrip("\n") for l in open(errors_out) if l.startswith(("unseen ", "# unseen:"))] \
        if errors_out and os.path.exists(errors_out) else []
    for old in (out_txt, errors_out):
        if old and os.path.exists(old):
            os.remove(old)
    with open(records) as f:
        rec = json.load(f)
    if only:
        rec["points"] = [r for r in rec["points"] if re.search(only, "%s %s" % (label(r["workload"]), r["size"]))]
    preset_path = preset if os.path.isfile(preset) else preset
    work = []
    for r in rec["points"]:
        spec = spec_path(r["workload"])
        for v, t in r["times_ns"].items():
            if t:
                work.append((ws, spec, r["size"], v, preset_path, model))
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        preds = dict(zip([(w[1], w[2], w[3]) for w in work], ex.map(sim_point, work)))

    lines, pairs, launches, failed, spreads = [], [], [], [], {}
    hdr = "%-20s %-40s %-24s %9s %9s %6s %6s %6s" % (
        "workload", "size", "variant / base", "pred", "meas", "dir", "1.25x", "1.5x")
    lines += ["# Time ratios: time(variant) / time(base), predicted (timing model, %s, %s) vs measured (%s)"
              % (os.path.basename(preset), "%s model" % model if model else "the preset's model",
                 rec.get("source", "?")), hdr, "-" * len(hdr)]
    for r in rec["points"]:
        spec = spec_path(r["workload"])
        t = r["times_ns"]
        for v, tv in t.items():
            if not tv:
                continue
            pv, lim, err = preds[(spec, r["size"], v)]
            if err:
                failed.append("%s %s %s: %s" % (label(r["workload"]), r["size"], v, err))
                continue
            launches.append((label(r["workload"]), r["size"], v, pv, tv, lim))
            sp = (r.get("spread_ns") or {}).get(v)
            if sp and sp[0] > 0:
                spreads["%s %s %s" % (label(r["workload"]), r["size"], v)] = (sp[1] / sp[0], r.get("trials", 1))
        b = r["base"]
        tb = t.get(b)
        pb = preds.get((spec, r["size"], b), (None,))[0] if tb else None
        for v, tv in t.items():
            if v == b or not tv or not tb or not pb:
                continue
            pv = preds[(spec, r["size"], v)][0]
            if not pv:
                continue
            pr, mr = pv / pb, tv / tb
            tie = factor(pr) <= TIE and factor(mr) <= TIE
            d = tie or (pr > 1) == (mr > 1)
            q = pr / mr
            slow = preds[(spec, r["size"], v if pv >= pb else b)][1]
            pairs.append({"name": "%s %s %s/%s" % (label(r["workload"]), r["size"], v, b), "q": q, "dir": d,
                          "lim": slow,
                          "r125": factor(q) <= 1.25, "r150": factor(q) <= 1.5})
            lines.append("%-20s %-40s %-24s %9.3g %9.3g %6s %6s %6s" % (
                label(r["workload"]), r["size"], v + " / " + b, pr, mr, "yes" if d else "NO",
                "yes" if factor(q) <= 1.25 else "no", "yes" if factor(q) <= 1.5 else "NO"))
    untimed = ["%s %s %s" % (label(r["workload"]), r["size"], v) for r in rec["points"]
               for v, tv in r["times_ns"].items() if not tv]

    hdr = "%-20s %-40s %-16s %12s %12s %9s %6s  %s" % (
        "workload", "size", "variant", "pred us", "meas us", "pred/meas", "1.5x", "model's limiter")
    lines += ["", "# Launches: predicted vs measured kernel time", hdr, "-" * len(hdr)]
    for w, s, v, pv, tv, lim in launches:
        q = pv / tv
        lines.append("%-20s %-40s %-16s %12.1f %12.1f %9.2f %6s  %s" % (
            w, s, v, pv / 1e3, tv / 1e3, q, "yes" if factor(q) <= 1.5 else "NO", lim))

    n, a = len(pairs), len(launches)
    frac = {
        "direction": sum(p["dir"] for p in pairs) / n if n else 0,
        "r125": sum(p["r125"] for p in pairs) / n if n else 0,
        "r150": sum(p["r150"] for p in pairs) / n if n else 0,
        "a150": sum(factor(pv / tv) <= 1.5 for _, _, _, pv, tv, _ in launches) / a if a else 0,
    }
    lines += ["", "# Summary: %d pairs, %d launches (%s; preset %s)" % (n, a, rec.get("source", "?"), preset),
              "ratio pred/meas:    " + distribution([p["q"] for p in pairs]),
              "absolute pred/meas: " + distribution([pv / tv for _, _, _, pv, tv, _ in launches])]
    by_lim = {}
    for _, _, _, pv, tv, lim in launches:
        by_lim.setdefault(lim, []).append(pv / tv)
    for lim in sorted(by_lim):
        qs = by_lim[lim]
        lines.append("  launches the model finds %-18s (%3d): within 1.5x %3.0f%%; %s" % (
            lim + "-bound", len(qs), 100 * sum(factor(q) <= 1.5 for q in qs) / len(qs), distribution(qs)))
    ok_all = True
    for what, key, need in THRESHOLDS:
        ok = frac[key] >= need and (a if key == "a150" else n) > 0
        ok_all &= ok
        lines.append("%-4s %-26s %5.1f%% (needs >= %.0f%%)" % ("PASS" if ok else "FAIL", what, 100 * frac[key], 100 * need))
    lines.append("validation: %s" % ("PASS" if ok_all else "FAIL"))
    misses = [p["name"] + " (pred/meas %.2f%s)" % (p["q"], "" if p["dir"] else ", direction wrong")
              for p in pairs if not p["r150"] or not p["dir"]]
    def noise(name):
        sp = spreads.get(name)
        return "; the GPU's %d trials span %.2fx" % (sp[1], sp[0]) if sp and sp[1] > 1 else ""
    amiss = ["%s %s %s (pred/meas %.2f%s)" % (w, s, v, pv / tv, noise("%s %s %s" % (w, s, v)))
             for w, s, v, pv, tv, _ in launches if factor(pv / tv) > 1.5]
    if spreads:
        wide = sorted((f, n) for n, (f, k) in spreads.items() if f > 1.25)
        worst = max(spreads.items(), key=lambda kv: kv[1][0])
        lines += ["", "# The GPU against itself: each launch timed in %d separate processes (median "
                  "used above); %d of %d launches span more than 1.25x across them, the widest %s "
                  "(%.2fx)" % (max(k for _, k in spreads.values()), len(wide), len(spreads),
                               worst[0], worst[1][0])] + \
                 ["  %s: %.2fx" % (n, f) for f, n in reversed(wide)]
    lines += ["", "# Pairs outside 1.5x or in the wrong direction (%d)" % len(misses)] + ["  " + m for m in misses]
    lines += ["", "# Launches outside 1.5x (%d)" % len(amiss)] + ["  " + m for m in amiss]
    if untimed:
        lines += ["", "# Not timed (%d): %s" % (len(untimed), ", ".join(untimed))]
    if failed:
        lines += ["", "# Not predicted (%d)" % len(failed)] + ["  " + m for m in failed]
    if errors_out:
        write_errors(errors_out, rec, preset, pairs, launches, unseen_rows)
    if unseen_out:
        write_unseen_errors(unseen_out, rec, preset, launches)
    text = "\n".join(lines) + "\n"
    with open(out_txt, "w") as f:
        f.write(text)
    sys.stdout.write(text)
    return 0 if not failed else 1


def main(argv):
    usage = ("usage: validate.py measure WARPSCOPE POINTS RECORDS.json [--stand-in PRESET [--jobs N]] [--budget S] [--only RE] [--timeout S] [--trials N]\n"
             "       validate.py report WARPSCOPE RECORDS.json PRESET OUT.txt [--jobs N] [--model ptx|sass] [--errors OUT.validation] [--unseen-errors OUT.validation] [--only RE]")
    pos, opts = [], {}
    it = iter(argv[1:])
    for a in it:
        if a.startswith("--"):
            if a not in ("--stand-in", "--budget", "--only", "--timeout", "--jobs", "--model", "--errors",
                         "--trials", "--unseen-errors"):
                fail("unknown option '%s'\n%s" % (a, usage))
            opts[a] = next(it, None)
            if opts[a] is None:
                fail("%s wants a value" % a)
        else:
            pos.append(a)
    if pos[:1] == ["measure"] and len(pos) == 4:
        measure(pos[1], pos[2], pos[3], opts.get("--stand-in"), int(opts.get("--budget", 0)),
                opts.get("--only"), int(opts.get("--timeout", 300)), int(opts.get("--jobs", os.cpu_count() or 1)),
                int(opts.get("--trials", 1)))
        return 0
    if pos[:1] == ["report"] and len(pos) == 5:
        return report(pos[1], pos[2], pos[3], pos[4], int(opts.get("--jobs", os.cpu_count() or 1)),
                      opts.get("--model"), opts.get("--errors"), opts.get("--only"),
                      opts.get("--unseen-errors"))
    fail(usage)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
