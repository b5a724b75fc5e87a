#!/usr/bin/env python3
"""calibrate.py — fits the timing model's preset keys to the microbenchmarks of
bench/calib/ (one mechanism each) and writes a preset whose fitted keys say where their
numbers came from (`source KEY ...` lines).

  calibrate.py measure WARPSCOPE RECORDS.json [--stand-in PRESET] [--keys K,...]
      runs every benchmark point on the GPU (`warpscope run --json`), or with --stand-in
      on the simulator with that preset in the GPU's place, and records the times (ns)
  calibrate.py fit WARPSCOPE RECORDS.json BASE.gpu OUT.gpu [--keys K,...]
      fits each key in turn (twice over, for keys that share a benchmark) and writes OUT.gpu:
      BASE.gpu with the fitted keys' values and sources replaced

Each benchmark is two points A and B of one kernel that differ only in how often it runs
the mechanism, so the difference of their times, T(B) - T(A), drops launch overhead and
every fixed cost. The fit runs the timing model (`warpscope sim --timing`) on the same two
points with the key at two values and takes the value whose predicted difference equals the
measured one (a secant step, repeated while it moves): the model's own accounting of
everything else in the kernel (loop counters, address arithmetic, issue gaps) stays in it.
The launch overhead, fitted last, is the one key fitted to a single point's whole time.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SPEC = os.path.join(HERE, "calib", "calib.spec")
SPEC_REL = "bench/calib/calib.spec"

ONE_WARP = {"CTAS": 1, "THREADS": 32}
FULL_ISSUE = {"CTAS": 132, "THREADS": 1024, "CHAINS": 8, "ITERS": 8}
ATOMS = {"CTAS": 132, "THREADS": 256}
LOCK_MANY = {"CTAS": 132, "THREADS": 128}  # 16896 threads on one lock
LOCK_FEW = {"CTAS": 4, "THREADS": 128}     # 512

# (key, variant, fixed -D, varied constant, A, B, what the difference isolates); B None:
# the key is fitted to the time of A itself.
BENCHES = [
    ("latency.alu", "op_shf", dict(ONE_WARP, ITERS=64), "REPS", 16, 32,
     "dependent shf.l.wrap+xor.b32 chain, one warp (SHF, LOP3: the ALU pipe alone)"),
    ("latency.mul", "op_mul", dict(ONE_WARP, ITERS=64), "REPS", 16, 32,
     "dependent mad.lo.s32 chain, one warp"),
    ("latency.mulwide", "op_mulhi", dict(ONE_WARP, ITERS=64), "REPS", 16, 32,
     "dependent mul.hi.u32+xor.b32 chain, one warp (IMAD.HI; IMAD.WIDE is priced the same)"),
    ("latency.fp32", "op_fp32", dict(ONE_WARP, ITERS=64), "REPS", 16, 32,
     "dependent fma.rn.f32 chain, one warp"),
    ("latency.fp64", "op_fp64", dict(ONE_WARP, ITERS=64), "REPS", 16, 32,
     "dependent fma.rn.f64 chain, one warp"),
    ("latency.sfu", "op_sfu", dict(ONE_WARP, ITERS=64), "REPS", 16, 32,
     "dependent ex2.approx.f32 chain, one warp"),
    ("latency.div", "op_div", dict(ONE_WARP, ITERS=16), "REPS", 8, 16,
     "dependent div.rn.f32 chain, one warp"),
    ("latency.shfl", "op_shfl", dict(ONE_WARP, ITERS=64), "REPS", 16, 32,
     "dependent shfl.sync.idx chain, one warp"),
    ("latency.bit", "op_popc", dict(ONE_WARP, ITERS=64), "REPS", 16, 32,
     "dependent popc.b32+xor.b32 chain, one warp (POPC, FLO, BREV: not the ALU's pipe)"),
    ("latency.vote", "op_vote", dict(ONE_WARP, ITERS=64), "REPS", 16, 32,
     "dependent setp+vote.ballot chain, one warp"),
    ("sched.window", "op_fp32", dict(ONE_WARP, ITERS=64, CHAINS=4), "REPS", 16, 32,
     "4 independent fma.rn.f32 chains, one warp: how far a warp issues past a waiting instruction"),
    ("issue.alu", "op_shf", FULL_ISSUE, "REPS", 4, 8,
     "8 independent shf.l.wrap+xor chains a thread, 32 warps on each of 132 SMs (op_alu's add "
     "runs as IMAD.IADD on the FMA pipe)"),
    ("issue.mul", "op_mul", FULL_ISSUE, "REPS", 4, 8,
     "8 independent mad.lo.s32 chains a thread, 32 warps on each of 132 SMs"),
    ("issue.mulwide", "op_mulhi", FULL_ISSUE, "REPS", 4, 8,
     "8 independent mul.hi.u32+xor chains a thread, 32 warps on each of 132 SMs"),
    ("issue.fp32", "op_fp32", FULL_ISSUE, "REPS", 4, 8,
     "8 independent fma.rn.f32 chains a thread, 32 warps on each of 132 SMs"),
    ("issue.fp64", "op_fp64", FULL_ISSUE, "REPS", 4, 8,
     "8 independent fma.rn.f64 chains a thread, 32 warps on each of 132 SMs"),
    ("issue.sfu", "op_sfu", FULL_ISSUE, "REPS", 4, 8,
     "8 independent ex2.approx chains a thread, 32 warps on each of 132 SMs"),
    ("issue.shfl", "op_shfl", FULL_ISSUE, "REPS", 4, 8,
     "8 independent shfl.sync chains a thread, 32 warps on each of 132 SMs"),
    ("issue.bit", "op_popc", FULL_ISSUE, "REPS", 4, 8,
     "8 independent popc+xor chains a thread, 32 warps on each of 132 SMs"),
    ("issue.vote", "op_vote", FULL_ISSUE, "REPS", 4, 8,
     "8 independent setp+vote.ballot chains a thread, 32 warps on each of 132 SMs"),
    ("mem.shared_latency", "chase_shared", dict(ONE_WARP, ITERS=64), "REPS", 16, 32,
     "shared-memory pointer chase, one warp, one address"),
    ("latency.ld", "chase_const", dict(ONE_WARP, ITERS=64, SPREAD=0), "REPS", 16, 32,
     "constant-memory chase (LDC with a register index), one warp, every lane on one word"),
    ("mem.const_address_cycles", "chase_const", dict(ONE_WARP, ITERS=64, SPREAD=1), "REPS", 16, 32,
     "the same chase, each lane its own word: 32 distinct words a load"),
    ("mem.l1_latency", "chase_global", dict(ONE_WARP, ITERS=64, RING=32, STRIDE=16), "REPS", 16, 32,
     "global pointer chase over 32 lines (4 KB, in L1), one warp"),
    ("mem.l1_line_cycles", "chase_global", dict(ONE_WARP, ITERS=64, RING=32, STRIDE=16, SPREAD=1), "REPS", 16, 32,
     "the same chase, lane l l lines on: 32 lines a load, all in L1"),
    ("mem.l2_latency", "chase_global", dict(ONE_WARP, ITERS=64, RING=4096, STRIDE=16), "REPS", 16, 32,
     "global pointer chase over 4096 lines (512 KB: past L1, in L2), one warp"),
    ("mem.dram_latency", "chase_dram", dict(ONE_WARP, ITERS=128, STRIDE=8192), "REPS", 16, 32,
     "index chase through lines 32 KB apart in 64 to 128 MB (past the L2 at both points), one warp"),
    ("latency.branch", "loop_branch", ONE_WARP, "ITERS", 1024, 2048,
     "loop trips of a counter, a compare and a taken back edge, one warp"),
    ("latency.bar", "loop_barrier", {"CTAS": 1, "THREADS": 256}, "ITERS", 512, 1024,
     "loop trips with a __syncthreads, 8 warps"),
    ("mem.src_read_cycles", "red_war", ONE_WARP, "REPS", 512, 1024,
     "a global reduction whose data register the next add writes, in a loop, one warp: when the memory pipe has read it"),
    ("branch.reconverge_cycles", "loop_diverge", ONE_WARP, "ITERS", 256, 512,
     "loop trips of a branch odd lanes take into 16 ALU steps (BSSY/BSYNC), one warp"),
    ("branch.yield_cycles", "loop_spin", ONE_WARP, "ITERS", 256, 512,
     "loop trips of a spin loop on a volatile shared flag (YIELD), one warp"),
    ("branch.call_cycles", "call_chain", dict(ONE_WARP, ITERS=64), "REPS", 8, 16,
     "a recursion REPS calls deep (CALL, five STL and five LDL of the frame, RET), one warp"),
    ("warp.group_cycles", "redux_groups", dict(ONE_WARP, GROUPS=8), "REPS", 16, 32,
     "__reduce_add_sync over the 8 member masks __match_any_sync finds (WARPSYNC.EXCLUSIVE), one warp"),
    ("warp.group_issue", "redux_groups", {"CTAS": 132, "THREADS": 1024, "GROUPS": 8}, "REPS", 16, 32,
     "__reduce_add_sync over the 8 member masks __match_any_sync finds (WARPSYNC.EXCLUSIVE), 32 warps on each of 132 SMs"),
    ("bound.overlap", "op_sfu_mul", {"CTAS": 132, "THREADS": 512, "CHAINS": 1, "ITERS": 16}, "REPS", 8, 16,
     "a dependent ex2.approx + 4 mad.lo chain a thread, 4 warps a scheduler: a warp's chain as "
     "long as the others' issue; how far they overlap"),
    ("mem.dram_gbps", "stream_read", {"CTAS": 1056, "THREADS": 256}, "REPS", 32, 64,
     "coalesced int reads of never-touched data, 32 to 64 MB, 8 CTAs of 256 on each SM"),
    ("mem.l2_write_beats_per_cycle", "local_spill", {"CTAS": 132, "THREADS": 1024, "ITERS": 64}, "REPS", 16, 32,
     "an STL and the LDL of it back, chained, 1024 threads on each SM: L1 writes each store through to the L2, a whole line, two 64-byte beats"),
    ("mem.l2_gbps", "l2_read", {"CTAS": 264, "THREADS": 1024, "RING": 8192}, "ITERS", 4, 8,
     "passes over 8.6 MB in L2, each CTA another CTA's part each pass, 64 warps on each SM"),
    ("atom.l2_part_cycles", "atomic_int", dict(ATOMS, SPREAD=0, LANES=1), "REPS", 16, 32,
     "atomicAdd(int) on one word, one lane a warp, 8 warps on each of 132 SMs"),
    ("atom.l2_same_cycles", "atomic_int", dict(ATOMS, SPREAD=0, LANES=32), "REPS", 16, 32,
     "atomicAdd(int), all 32 lanes on one word, 8 warps on each of 132 SMs"),
    ("atom.l2_same_fp_cycles", "atomic_float", dict(ATOMS, SPREAD=0, LANES=32), "REPS", 16, 32,
     "atomicAdd(float), all 32 lanes on one word, 8 warps on each of 132 SMs"),
    ("atom.l2_ops_per_cycle", "atomic_int", dict(ATOMS, CTAS=528, SPREAD=2, LANES=32), "REPS", 16, 32,
     "atomicAdd(int), every lane of every warp its own word, warps 4 KB apart, 528 CTAs"),
    ("atom.l2_unit_bytes", "atomic_int", dict(ATOMS, SPREAD=3, STRIDE=2, LANES=32), "REPS", 16, 32,
     "atomicAdd(int), lane i on word 2 i (256 bytes), 8 warps on each of 132 SMs: one L2 unit or two"),
    ("atom.l2_unit_ways", "atomic_int", dict(ATOMS, SPREAD=3, STRIDE=4, LANES=32), "REPS", 16, 32,
     "atomicAdd(int), lane i on word 4 i (512 bytes), 8 warps on each of 132 SMs: how many L2 units the lanes share"),
    ("atom.l2_unit_block_bytes", "atomic_int", dict(ATOMS, SPREAD=3, STRIDE=16, LANES=32), "REPS", 16, 32,
     "atomicAdd(int), lane i on word 16 i (2 KB), 8 warps on each of 132 SMs: how many L2 units the lanes share"),
    ("atom.l2_latency", "atomic_chain", dict(ONE_WARP, SPREAD=0, LANES=1), "REPS", 16, 32,
     "dependent atomicAdd chain, one lane of one warp: a global atomic's round trip"),
    ("atom.l2_line_ops_per_cycle", "atomic_int", dict(ATOMS, CTAS=528, SPREAD=4, LANES=32), "REPS", 16, 32,
     "atomicAdd(int), each lane its own word on its own 128-byte line, 528 CTAs"),
    ("atom.l2_units", "atomic_int", dict(ATOMS, SPREAD=6, BINS=30000, LANES=32), "REPS", 16, 32,
     "atomicAdd(int), each lane a random word of 30000 (120 KB), 8 warps on each of 132 SMs: how much of the units' work the L2 does at once"),
    ("atom.l2_requests_per_cycle", "atomic_int", dict(ATOMS, CTAS=528, SPREAD=2, LANES=1), "REPS", 16, 32,
     "atomicAdd(int), one lane a warp on its own word, warps 4 KB apart, 528 CTAs: requests"),
    ("atom.cas_unit_bytes", "cas_words", {"CTAS": 264, "THREADS": 256, "WORDS": 64, "STRIDE": 16}, "REPS", 1, 2,
     "atomicCAS increment loops on 64 words 64 bytes apart (4 KB), 67584 threads: how far apart contended words queue together"),
    ("atom.cas_attempts_per_cycle", "cas_words", {"CTAS": 264, "THREADS": 256, "WORDS": 64, "STRIDE": 1024}, "REPS", 1, 2,
     "atomicCAS increment loops on 64 words 4 KB apart, 67584 threads: the GPU's CAS attempts a cycle"),
    ("atom.cas_successes_per_cycle", "cas_random", {"CTAS": 264, "THREADS": 256, "BINS": 1048576}, "REPS", 1, 2,
     "atomicCAS increment loops on random words of 1048576 (4 MB), 67584 threads: CAS that swap (nobody contends), the GPU's rate"),
    ("atom.cas_contended_cycles", "cas_loop", ONE_WARP, "REPS", 4, 8,
     "atomicCAS increment loop on one word, the 32 lanes of one warp contending"),
    ("atom.cas_attempt_cycles", "cas_loop", {"CTAS": 256, "THREADS": 256}, "REPS", 1, 2,
     "atomicCAS increment loop on one word, 65536 threads contending in one wave"),
    ("atom.cas_contended_256", "cas_loop", {"CTAS": 1, "THREADS": 256}, "REPS", 4, 8,
     "atomicCAS increment loop on one word, the 256 threads of one CTA contending"),
    ("atom.cas_contended_1024", "cas_loop", {"CTAS": 4, "THREADS": 256}, "REPS", 1, 2,
     "atomicCAS increment loop on one word, 1024 threads of 4 CTAs contending"),
    ("atom.cas_contended_4096", "cas_loop", {"CTAS": 16, "THREADS": 256}, "REPS", 1, 2,
     "atomicCAS increment loop on one word, 4096 threads of 16 CTAs contending"),
    ("atom.cas64_scale", "cas_loop64", {"CTAS": 256, "THREADS": 256}, "REPS", 1, 2,
     "64-bit atomicCAS increment loop on one word, 65536 threads contending in one wave"),
    ("atom.lock_contender_cycles", "spin_lock_fence", LOCK_MANY, "REPS", 2, 4,
     "a spin lock on one word (atomicCAS to take it, __threadfence, atomicExch to give it back), 16896 threads taking it in turn"),
    ("atom.lock_hold_cycles", "spin_lock_fence", LOCK_FEW, "REPS", 2, 4,
     "the same spin lock, 512 threads taking it in turn: a hand-off beyond its spinners' share"),
    ("atom.lock_nofence_contender_cycles", "spin_lock", LOCK_MANY, "REPS", 2, 4,
     "the spin lock with no fence before the release, 16896 threads taking it in turn"),
    ("atom.lock_nofence_hold_cycles", "spin_lock", LOCK_FEW, "REPS", 2, 4,
     "the spin lock with no fence before the release, 512 threads taking it in turn"),
    ("latency.atom", "atomic_shared", dict(ONE_WARP, ITERS=64, SPREAD=1), "REPS", 8, 16,
     "dependent shared-memory atomicAdd chain, each lane its own word, one warp"),
    ("mem.lsu_wavefronts_per_cycle", "shared_atomics", {"CTAS": 132, "THREADS": 1024, "SPREAD": 3, "STRIDE": 32}, "REPS", 16, 32,
     "shared-memory atomicAdd, the 32 lanes on 32 words of one bank, 32 warps on each of 132 SMs: wavefronts a cycle"),
    ("atom.shared_lane_cycles", "atomic_shared", dict(ONE_WARP, ITERS=64, SPREAD=0), "REPS", 8, 16,
     "dependent shared-memory atomicAdd chain, all 32 lanes on one word, one warp"),
    ("printf.call_cycles", "printf_lanes", dict(ONE_WARP, LANES=1), "REPS", 4, 16,
     "a device printf (8-character format, two ints) from one lane of one warp, in a loop: a call's round trip"),
    ("printf.format_char_cycles", "printf_lanes", dict(ONE_WARP, LANES=1, REPS=16), "FMTLEN", 0, 1,
     "the same printf with a 69-character format for the 8-character one, one lane: each character"),
    ("printf.lane_cycles", "printf_lanes", dict(ONE_WARP, REPS=4), "LANES", 1, 32,
     "the printf from 32 lanes of one warp for one lane's: each further lane of a call"),
    ("printf.serial_cycles", "printf_lanes", {"CTAS": 132, "THREADS": 32, "LANES": 1}, "REPS", 4, 16,
     "the printf from one lane of one warp on each of 132 SMs: the GPU's queue of calls"),
    ("printf.serial_lane_cycles", "printf_lanes", {"CTAS": 132, "THREADS": 32, "REPS": 4}, "LANES", 1, 32,
     "the printf from 32 lanes of one warp on each of 132 SMs for one lane's: each further lane in the queue"),
    ("cta_launch_cycles", "empty_ctas", {"THREADS": 32}, "CTAS", 16896, 33792,
     "CTAs of one warp that do nothing, 4 to 8 waves of 32 a SM"),
    # Last: an absolute time (B None), so every other key is in place first.
    ("launch_overhead_ns", "empty_ctas", ONE_WARP, "CTAS", 1, None,
     "one CTA of one warp that does nothing: the time beyond its cycles"),
]


def fail(msg):
    sys.stderr.write("calibrate: %s\n" % msg)
    sys.exit(1)


def defines(fixed, var, value):
    d = dict(fixed)
    d[var] = value
    out = []
    for k in sorted(d):
        out += ["-D", "%s=%s" % (k, d[k])]
    return out


def point_id(variant, fixed, var, value):
    return "%s %s" % (variant, " ".join("%s=%s" % kv for kv in sorted(dict(fixed, **{var: value}).items())))


MODEL = "sass"  # the simulator model the timing model runs on (--model)


def sim_time(ws, variant, defs, preset):
    cmd = [ws, "sim", SPEC, "--variant", variant] + defs + [
        "--timing", "--preset", preset, "--json", "--no-db", "--no-races", "--quiet", "--threads", "1",
        "--model", MODEL]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        fail("%s: %s" % (" ".join(cmd[1:]), (p.stderr or p.stdout).strip()))
    return json.loads(p.stdout)["metrics"]["sim__time_ns"]


def gpu_time(ws, variant, defs):
    cmd = [ws, "run", SPEC, "--variant", variant] + defs + [
        "--json", "--no-sim", "--no-db", "--warmup", "1", "--repeat", "5", "--quiet"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        fail("%s: %s" % (" ".join(cmd[1:]), (p.stderr or p.stdout).strip()))
    for line in p.stdout.splitlines():
        line = line.strip()
        if line.startswith("{"):
            d = json.loads(line)
            if "gpu" in d:
                return d["gpu"]["gpu__time_duration.sum"]
    fail("%s: no GPU time in its JSON" % " ".join(cmd[1:]))


def measure(ws, records, stand_in, trials=1):
    """Times every point; on the GPU the median of `trials` runs, each its own process (a
    contended atomic's time moves with where its allocation lands in L2)."""
    out = {"source": "stand-in " + stand_in if stand_in else "gpu", "times_ns": {}, "trials": trials}
    for key, variant, fixed, var, a, b, _ in BENCHES:
        for value in (a, b) if b is not None else (a,):
            pid = point_id(variant, fixed, var, value)
            if pid in out["times_ns"]:
                continue
            defs = defines(fixed, var, value)
            if stand_in:
                t = sim_time(ws, variant, defs, stand_in)
            else:
                t = statistics.median(gpu_time(ws, variant, defs) for _ in range(trials))
            out["times_ns"][pid] = t
            print("%-60s %14.1f ns" % (pid, t))
    with open(records, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)


# ---------------------------------------------------------------- the preset file

def read_preset(path):
    with open(path) as f:
        return f.read().split("\n")


def key_of(line):
    s = line.split("#", 1)[0].strip()
    if "=" not in s or s.startswith("source"):
        return None
    return s.split("=", 1)[0].strip()


def set_key(lines, key, value, source, digits=None):
    """Replaces KEY's value line and its source line (added after it when missing); a
    trial value keeps DIGITS significant digits, a fitted one is rounded by fmt()."""
    at = [i for i, l in enumerate(lines) if key_of(l) == key]
    if not at:
        fail("the base preset has no key '%s'" % key)
    i = at[0]
    lines[i] = "%s = %s" % (key, ("%%.%dg" % digits) % value if digits else fmt(value))
    src = [j for j, l in enumerate(lines) if l.split("#", 1)[0].split()[:2] == ["source", key]]
    text = "source %s %s" % (key, source)
    if src:
        lines[src[0]] = text
    else:
        lines.insert(i + 1, text)


def fmt(v):
    return ("%.3g" % v) if v < 100 else ("%.0f" % v)


def with_key(base_lines, key, value, tmpdir):
    lines = list(base_lines)
    set_key(lines, key, value, "trial", digits=9)
    path = os.path.join(tmpdir, "trial.gpu")
    with open(path, "w") as f:
        f.write("\n".join(lines))
    return path


def value_of(lines, key):
    for l in lines:
        if key_of(l) == key:
            return float(l.split("#", 1)[0].split("=", 1)[1])
    fail("the base preset has no key '%s'" % key)


# Keys the model takes as whole numbers in a range: fitted by trying each value.
WHOLE_KEYS = {"sched.window": range(1, 33), "atom.l2_unit_bytes": [2 ** k for k in range(5, 11)],
              "atom.l2_unit_ways": [1, 2, 4, 8], "atom.l2_unit_block_bytes": [2 ** k for k in range(8, 15)],
              "atom.cas_unit_bytes": [2 ** k for k in range(8, 15)]}


def fit_one(ws, lines, bench, measured, tmpdir):
    key, variant, fixed, var, a, b, _ = bench
    da, db = defines(fixed, var, a), defines(fixed, var, b) if b is not None else None

    def model_delta(v):
        p = with_key(lines, key, v, tmpdir)
        if b is None:
            return sim_time(ws, variant, da, p)
        return sim_time(ws, variant, db, p) - sim_time(ws, variant, da, p)

    if key in WHOLE_KEYS:  # the nearest; on a tie the smallest (the model's time stops moving)
        deltas = {v: model_delta(v) for v in WHOLE_KEYS[key]}
        if max(deltas.values()) - min(deltas.values()) <= 1e-6 * max(abs(d) for d in deltas.values()):
            sys.stderr.write("calibrate: %s does not move the model's time of %s (%s %s -> %s): "
                             "not fitted\n" % (key, variant, var, a, b))
            return None
        return float(min(deltas, key=lambda v: (abs(deltas[v] - measured), v)))

    x0 = value_of(lines, key)
    start = x0
    x1 = x0 * 1.5 if x0 > 0 else 1.0
    f0, f1 = model_delta(x0) - measured, model_delta(x1) - measured
    for down in (10, 100, 1000, 10000):  # a rate too high to bind (a limit not measured yet):
        if f1 != f0 or x0 <= 0:          # lower it until it does, and start from there
            break
        x1 = x0 / down
        f1 = model_delta(x1) - measured
        if f1 != f0:
            x0, f0 = x1, f1
            x1 = x0 * 0.8
            f1 = model_delta(x1) - measured
    seen = [(x0, f0), (x1, f1)]
    for step in range(6):
        if f1 == f0 and step == 0:
            sys.stderr.write("calibrate: %s does not move the model's time of %s (%s %s -> %s): "
                             "another bound sets it; not fitted\n" % (key, variant, var, a, b))
            return None
        if f1 == f0:
            # The secant stepped into a range where another bound holds the model's time
            # (an issue cost below one slot, say): keep the value nearest the measurement,
            # the edge of that range on a tie.
            x, f = min(seen, key=lambda p: (abs(p[1]), -p[0]))
            sys.stderr.write("calibrate: %s: the model's time of %s stops moving at %s; "
                             "keeping %s (%.0f ns off)\n" % (key, variant, fmt(x1), fmt(x), f))
            return x
        x2 = max(1e-3, x1 - f1 * (x1 - x0) / (f1 - f0))
        if x2 > 1e4 * max(start, 1.0):  # the model's time hardly moves with it: no fit
            sys.stderr.write("calibrate: %s: the secant ran off to %s on %s (the model's time "
                             "hardly moves with it); not fitted\n" % (key, fmt(x2), variant))
            return None
        if abs(x2 - x1) <= 1e-3 * max(abs(x1), 1e-3) or fmt(x2) == fmt(x1):
            return x2
        x0, f0, x1, f1 = x1, f1, x2, model_delta(x2) - measured
        seen.append((x1, f1))
    return x1


def fit(ws, records, base, out):
    with open(records) as f:
        rec = json.load(f)
    times = rec["times_ns"]
    lines = read_preset(base)
    model_at = [i for i, l in enumerate(lines) if key_of(l) == "model"]
    if not model_at:
        fail("the base preset has no key 'model'")
    unfitted = set()
    with tempfile.TemporaryDirectory() as tmpdir:
        for sweep in range(2):  # keys that share a benchmark settle on the second sweep
            for bench in BENCHES:
                key, variant, fixed, var, a, b, what = bench
                ta = times.get(point_id(variant, fixed, var, a))
                tb = times.get(point_id(variant, fixed, var, b)) if b is not None else 0.0
                if ta is None or tb is None:
                    fail("%s: %s has no recorded time for %s %s=%s/%s" % (key, records, variant, var, a, b))
                v = fit_one(ws, lines, bench, tb - ta if b is not None else ta, tmpdir)
                if v is None:  # a value fitted on the first sweep stands
                    if sweep == 0 or key in unfitted:
                        unfitted.add(key)
                    continue
                unfitted.discard(key)
                span = "%s %s -> %s" % (var, a, b) if b is not None else "%s %s" % (var, a)
                src = "%s %s, %s: %s (measured on %s; %s model)" % (
                    SPEC_REL, variant, span, what, rec.get("source", "gpu"), MODEL)
                set_key(lines, key, v, src)
                if sweep == 1:
                    print("%-26s %10s   %s %s" % (key, fmt(v), variant, span))
    lines[model_at[0]] = ("model = %s   # the simulator model these keys were fitted on (predict and "
                          "sim --timing use it)" % MODEL)
    with open(out, "w") as f:
        f.write("\n".join(lines))
    if unfitted:
        sys.stderr.write("calibrate: not fitted (value and source kept from %s): %s\n"
                         % (base, ", ".join(sorted(unfitted))))


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(prog="calibrate.py", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("measure", help="time every benchmark point")
    m.add_argument("warpscope")
    m.add_argument("records")
    m.add_argument("--stand-in", metavar="PRESET", help="the simulator with PRESET instead of the GPU")
    m.add_argument("--trials", type=int, default=1, help="time each point in N processes, keep the median")
    f = sub.add_parser("fit", help="fit the keys to recorded times and write a preset")
    f.add_argument("warpscope")
    f.add_argument("records")
    f.add_argument("base")
    f.add_argument("out")
    for x in (m, f):
        x.add_argument("--keys", help="only these keys (comma-separated)")
        x.add_argument("--model", choices=("ptx", "sass"), default="sass",
                       help="the simulator model the timing model runs on (default sass; the "
                       "preset's `model` key records it)")
    a = ap.parse_args(argv)
    global BENCHES, MODEL
    MODEL = a.model
    if a.keys:
        want = a.keys.split(",")
        unknown = [k for k in want if k not in [b[0] for b in BENCHES]]
        if unknown:
            fail("no benchmark fits %s (known: %s)" % (", ".join(unknown), ", ".join(b[0] for b in BENCHES)))
        BENCHES = [b for b in BENCHES if b[0] in want]
    if a.cmd == "measure":
        measure(a.warpscope, a.records, a.stand_in, a.trials)
    else:
        fit(a.warpscope, a.records, a.base, a.out)


if __name__ == "__main__":
    main(sys.argv[1:])
