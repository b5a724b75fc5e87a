#!/usr/bin/env python3
"""atomic_probe.py — how the L2 serves global atomics: one request's cost against the shape of
its lanes (how many words, sectors, lines, address ranges; lanes on one word; lanes of a
warp taking part), and a CAS loop's cost per success against how many threads contend.
Each point is two runs of one bench/calib kernel that differ only in REPS, so the time of
the difference is the mechanism's alone; it is printed per warp-request (atomics) or per
successful CAS (loops), measured beside what the timing model predicts for the same points.

  atomic_probe.py measure WARPSCOPE RECORDS.json [--trials N] [--groups G,...]
                          [--stand-in PRESET]    (a GPU; or the simulator in its place: tests)
  atomic_probe.py report  WARPSCOPE RECORDS.json [PRESET] [--groups G,...]
                                                 (the model beside them)

These points explain the model's structure (docs/results/atomic-probe-h100.txt); the keys
are fitted by calibrate.py to its own points, a few of which are among these.
"""
import json
import os
import statistics
import sys

import calibrate as cal

ATOMS = dict(cal.ATOMS)  # 132 CTAs of 256 threads: 8 warps on each SM

# (group, label, variant, fixed -D, varied, A, B, unit): unit "request" = per warp-request
# of the B - A difference (the L2 serves the whole GPU), "sm-request" = per warp-request of one
# SM (shared memory, warp-wide ops), "success" = per successful CAS, "trip" = per dependent trip.
POINTS = []
for s in (1, 2, 4, 8, 16, 32, 64, 128, 256, 1024):
    POINTS.append(("span", "32 lanes, word i x %d (%d B)" % (s, 128 * s), "atomic_int",
                   dict(ATOMS, SPREAD=3, STRIDE=s, LANES=32), "REPS", 16, 32, "request"))
for g, s in ((2, 1), (4, 1), (8, 1), (16, 1), (4, 8), (16, 8), (4, 32)):
    POINTS.append(("groups", "%d words %d B apart, %d lanes each" % (g, 4 * s, 32 // g),
                   "atomic_int", dict(ATOMS, SPREAD=5, GROUPS=g, STRIDE=s, LANES=32), "REPS",
                   16, 32, "request"))
for b in (1, 8, 32, 100, 1000, 10000, 100000, 1000000):
    POINTS.append(("random", "32 lanes, random words of %d" % b, "atomic_int",
                   dict(ATOMS, SPREAD=6, BINS=b, LANES=32), "REPS", 16, 32, "request"))
for b in (3000, 30000):
    POINTS.append(("random", "32 lanes, random words of %d" % b, "atomic_int",
                   dict(ATOMS, SPREAD=6, BINS=b, LANES=32), "REPS", 16, 32, "request"))
POINTS.append(("random", "32 lanes, random words of 10000, 528 CTAs", "atomic_int",
               dict(ATOMS, CTAS=528, SPREAD=6, BINS=10000, LANES=32), "REPS", 16, 32, "request"))
for n in (1, 8, 16):
    POINTS.append(("lanes", "%d lanes, consecutive words" % n, "atomic_int",
                   dict(ATOMS, SPREAD=1, LANES=n), "REPS", 16, 32, "request"))
POINTS.append(("lanes", "8 lanes, words 32 B apart", "atomic_int",
               dict(ATOMS, SPREAD=3, STRIDE=8, LANES=8), "REPS", 16, 32, "request"))
for ctas, lanes in ((1, 1), (1, 32), (132, 1), (132, 32)):
    POINTS.append(("chain", "dependent chain, %d CTAs of one warp, %d lane(s) on one word"
                   % (ctas, lanes), "atomic_chain", dict(CTAS=ctas, THREADS=32, SPREAD=0,
                                                         LANES=lanes), "REPS", 16, 32, "trip"))
POINTS.append(("chain", "dependent chain, one warp, each lane its own word", "atomic_chain",
               dict(CTAS=1, THREADS=32, SPREAD=1, LANES=32), "REPS", 16, 32, "trip"))
for s in (1, 16, 64, 1024):
    POINTS.append(("caswords", "cas_words, 64 words %d B apart, 67584 threads" % (4 * s),
                   "cas_words", dict(CTAS=264, THREADS=256, WORDS=64, STRIDE=s), "REPS", 1, 2,
                   "success"))
for sp, g in ((1, 1), (5, 4), (5, 16)):
    POINTS.append(("float", "atomicAdd(float), SPREAD=%d GROUPS=%d STRIDE=1" % (sp, g),
                   "atomic_float", dict(ATOMS, SPREAD=sp, GROUPS=g, STRIDE=1, LANES=32), "REPS",
                   16, 32, "request"))
for g in (1, 2, 8, 32):
    for ctas, threads in ((1, 32), (132, 1024)):
        POINTS.append(("groupsx", "redux over %d member masks, %d CTAs of %d" % (g, ctas, threads),
                       "redux_groups", dict(CTAS=ctas, THREADS=threads, GROUPS=g), "REPS", 16, 32,
                       "sm-request"))
for ctas, stride, iters in ((1, 8192, 128), (1, 32, 64), (132, 32, 64), (1056, 32, 64)):
    POINTS.append(("dram", "index chase, %d CTAs of one warp, lines %d B apart" % (ctas, 4 * stride),
                   "chase_dram", dict(CTAS=ctas, THREADS=32, ITERS=iters, STRIDE=stride), "REPS", 16,
                   32, "trip"))
# Whole lines taken in turn: each request's 32 lanes on the 32 words of one line, the warps
# going round GROUPS lines (a per-warp sub-histogram merged into the global bins).
for g in (8, 32, 128):
    POINTS.append(("linesx", "32 lanes on one line, warps round %d lines (%d B)" % (g, 128 * g),
                   "atomic_int", dict(ATOMS, SPREAD=7, GROUPS=g, LANES=32), "REPS", 16, 32,
                   "request"))
# A ballot/leader loop's trip (val_hist's leader written again, one mechanism): 32 trips a
# round, with the leader's RED and without it; one warp, and 8 warps of one SM.
for spread in (0, 1):
    for threads in (32, 256):
        POINTS.append(("leader", "leader loop, 32 keys, %s, %d threads of one CTA"
                       % ("RED" if spread == 0 else "no RED", threads), "leader_loop",
                       dict(CTAS=1, THREADS=threads, GROUPS=32, SPREAD=spread), "REPS", 4, 8,
                       "sm-request"))
# Dependent chains of bit operations and votes, one warp: each step the op and an xor.
for op in ("op_alu", "op_brev", "op_clz", "op_popc", "op_vote"):
    POINTS.append(("bitops", "%s chain, one warp" % op, op, dict(CTAS=1, THREADS=32, ITERS=64),
                   "REPS", 16, 32, "trip"))
# The L2's latency with every SM asking: CTAs of one warp chasing one 512 KB ring (past L1,
# in L2) from lines of their own, against one warp alone.
for ctas in (1, 132, 528):
    POINTS.append(("l2load", "L2 chase, %d CTAs of one warp on one ring" % ctas, "chase_global",
                   dict(CTAS=ctas, THREADS=32, RINGS=1, ITERS=64, RING=4096, STRIDE=16), "REPS",
                   16, 32, "trip"))
for what, d in (("one word", dict(SPREAD=0)), ("a word a bank", dict(SPREAD=1)),
                ("32 words of one bank", dict(SPREAD=3, STRIDE=32)),
                ("16 words, 2 banks", dict(SPREAD=3, STRIDE=16)),
                ("random words of 64", dict(SPREAD=6, BINS=64)),
                ("random words of 1024", dict(SPREAD=6, BINS=1024))):
    POINTS.append(("shared", "shared atomicAdd, 32 lanes: %s" % what, "shared_atomics",
                   dict(CTAS=132, THREADS=1024, **d), "REPS", 16, 32, "sm-request"))
for kern in ("cas_loop", "cas_loop64"):
    for ctas, threads in ((1, 32), (1, 64), (1, 256), (4, 256), (16, 256), (64, 256)):
        a, b = (4, 8) if ctas * threads <= 256 else (1, 2)
        POINTS.append(("cas", "%s, %d threads (%d CTAs of %d) on one word"
                       % (kern, ctas * threads, ctas, threads), kern,
                       dict(CTAS=ctas, THREADS=threads), "REPS", a, b, "success"))

# One lane a warp on one word: a float add waits for the word's last result (a chain across
# requests), an integer add does not.
for kern in ("atomic_int", "atomic_float"):
    POINTS.append(("float1", "%s, one lane a warp, one word" % kern, kern,
                   dict(ATOMS, SPREAD=0, LANES=1), "REPS", 16, 32, "request"))
# CAS loops where each word has few contenders, spread over the SMs (thread t on word t mod
# WORDS: a word's threads are WORDS apart), and on random words of BINS (none contend).
for ctas, threads, words in ((132, 128, 64), (132, 128, 1024), (132, 128, 16384)):
    POINTS.append(("casspread", "cas_words, %d words 4 B apart, %d threads"
                   % (words, ctas * threads), "cas_words",
                   dict(CTAS=ctas, THREADS=threads, WORDS=words, STRIDE=1), "REPS", 1, 2, "success"))
for bins in (4096, 65536, 1048576):
    POINTS.append(("casspread", "cas_random, random words of %d, 67584 threads" % bins,
                   "cas_random", dict(CTAS=264, THREADS=256, BINS=bins), "REPS", 1, 2, "success"))
# The loop shape: a reload at the top of every try, against cas_words' do-while.
for ctas, threads, words in ((132, 128, 1024), (4, 256, 1)):
    POINTS.append(("casreload", "cas_words_reload, %d words 4 B apart, %d threads"
                   % (words, ctas * threads), "cas_words_reload",
                   dict(CTAS=ctas, THREADS=threads, WORDS=words, STRIDE=1), "REPS", 1, 2, "success"))
# A max loop that leaves once the word holds its value: per thread and repetition.
for ctas, threads, words in ((8, 128, 1), (132, 512, 32)):
    POINTS.append(("casmax", "cas_max_words, %d words, %d threads" % (words, ctas * threads),
                   "cas_max_words", dict(CTAS=ctas, THREADS=threads, WORDS=words, STRIDE=1),
                   "REPS", 1, 2, "success"))


def per_unit(pt, dt_ns, ghz):
    group, label, variant, fixed, var, a, b, unit = pt
    threads = fixed["CTAS"] * fixed["THREADS"]
    warps = fixed["CTAS"] * ((fixed["THREADS"] + 31) // 32)
    reps = b - a
    sm_warps = warps / min(fixed["CTAS"], 132)  # the warps of one SM (one CTA a SM here)
    n = {"request": warps * reps, "sm-request": sm_warps * reps, "trip": reps * fixed.get("ITERS", 1),
         "success": threads * reps}[unit]
    return dt_ns * ghz / n


def measure(ws, out, trials, groups=None, stand_in=None):
    rec = {"source": "stand-in " + stand_in if stand_in else "gpu", "trials": trials,
           "times_ns": {}}
    for pt in POINTS:
        group, label, variant, fixed, var, a, b, unit = pt
        if groups and group not in groups:
            continue
        for v in (a, b):
            pid = cal.point_id(variant, fixed, var, v)
            if pid in rec["times_ns"]:
                continue
            defs = cal.defines(fixed, var, v)
            t = cal.sim_time(ws, variant, defs, stand_in) if stand_in else statistics.median(
                cal.gpu_time(ws, variant, defs) for _ in range(trials))
            rec["times_ns"][pid] = t
            print("%-70s %12.1f ns" % (pid, t), flush=True)
    with open(out, "w") as f:
        json.dump(rec, f, indent=1, sort_keys=True)


def report(ws, records, preset, groups=None):
    with open(records) as f:
        times = json.load(f)["times_ns"]
    path = preset if "/" in preset else os.path.join(cal.HERE, "..", "sim", "presets", preset + ".gpu")
    ghz = None
    for line in open(path):
        if line.split("=")[0].strip() == "clock_mhz":
            ghz = float(line.split("=")[1].split("#")[0]) / 1000
    print("%-7s %-58s %10s %10s %8s" % ("group", "point", "meas cyc", "pred cyc", "pred/meas"))
    print("-" * 97)
    for pt in POINTS:
        group, label, variant, fixed, var, a, b, unit = pt
        if groups and group not in groups:
            continue
        ta = times.get(cal.point_id(variant, fixed, var, a))
        tb = times.get(cal.point_id(variant, fixed, var, b))
        if ta is None or tb is None:
            continue
        meas = per_unit(pt, tb - ta, ghz)
        pa = cal.sim_time(ws, variant, cal.defines(fixed, var, a), preset)
        pb = cal.sim_time(ws, variant, cal.defines(fixed, var, b), preset)
        pred = per_unit(pt, pb - pa, ghz)
        print("%-7s %-58s %10.1f %10.1f %8.2f" % (group, label + " /" + unit, meas, pred,
                                                 pred / meas if meas > 0 else float("nan")),
              flush=True)


def main(argv):
    if len(argv) < 3 or argv[0] not in ("measure", "report"):
        sys.stderr.write(__doc__)
        return 2
    def opt(name):
        return argv[argv.index(name) + 1] if name in argv else None
    groups = opt("--groups").split(",") if opt("--groups") else None
    if argv[0] == "measure":
        measure(argv[1], argv[2], int(opt("--trials") or 1), groups, opt("--stand-in"))
    else:
        rest = [a for i, a in enumerate(argv[3:], 3) if not a.startswith("--") and
                not argv[i - 1].startswith("--")]
        report(argv[1], argv[2], rest[0] if rest else "h100", groups)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
