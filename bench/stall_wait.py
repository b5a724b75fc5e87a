#!/usr/bin/env python3
"""bench/stall_wait.py — the SASS model's "wait" beside Nsight Compute's, kernel by kernel.

"Stall Wait" is the part of a warp's cycles between issues that ptxas's fixed stall counts
(the control bits of each SASS instruction) hold it; the timing model issues the SASS by
those counts and reports them as sim__stall_wait_cycles. For every saved Nsight Compute
output NCU_DIR/SET/ncu-VARIANT.txt (bench/ncu_stalls.sh writes them; SET names
bench/unseen/SET.spec), this runs `warpscope sim` on the same launch and prints both
figures a warp-instruction, then how many agree within 15 % and 25 %. Beside them, for
what the stall counts do not explain: Nsight Compute's long-scoreboard stall (waits on
L1/L2/local memory) and the model's memory stall, a warp-instruction.

usage: bench/stall_wait.py WARPSCOPE NCU_DIR PRESET [-D NAME=VALUE]... [--only RE]
"""
import json
import os
import re
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def ncu_kernel_section(text):
    """The last kernel section of Nsight Compute's text output that is not warpscope's
    clock-spin kernel (ws_spin), or None. bench/ncu_stalls.sh reads its summary here too."""
    parts = re.split(r"\n  (?=\w+ \(\d+, \d+, \d+\)x\()", text)
    mine = [p for p in parts if not p.startswith("ws_spin") and re.match(r"\w+ \(\d+", p)]
    return mine[-1] if mine else None


def ncu_value(section, name):
    """The number printed for metric `name` in a section after its unit, if any (cycle,
    sector, %, ...), as written ("21,111,049"), or None."""
    m = re.search(r"(?m)^\s+" + re.escape(name) + r"\s+(?:[A-Za-z%/]+\s+)?([\d.,]+)\s*$",
                  section)
    return m.group(1) if m else None


def ncu_wait(path):
    """Stall Wait, cycles between issues and Stall Long Scoreboard of the kernel's own
    section."""
    t = ncu_kernel_section(open(path).read())
    if t is None:
        return None, None, None

    def val(name):
        v = ncu_value(t, name)
        return float(v.replace(",", "")) if v is not None else None
    return val("Stall Wait"), val("Warp Cycles Per Issued Instruction"), val("Stall Long Scoreboard")


def sim_metrics(ws, spec, variant, preset, defines):
    """(metrics, None) of `warpscope sim` on the SASS model with the timing model, or (None,
    the error's last line). bench/store_requests.py runs its launches here too."""
    cmd = [ws, "sim", spec, "--variant", variant, "--model", "sass", "--timing", "--preset",
           preset, "--json", "--no-db", "--no-races", "--quiet"]
    for d in defines:
        cmd += ["-D", d]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    if p.returncode:
        err = (p.stderr or p.stdout).strip().splitlines()
        return None, err[-1] if err else "exit status %d" % p.returncode
    return json.loads(p.stdout.splitlines()[0])["metrics"], None


def model_wait(ws, spec, variant, preset, defines):
    m, err = sim_metrics(ws, spec, variant, preset, defines)
    if m is None:
        return None, None, err
    n = m["smsp__inst_executed.sum"]
    return m["sim__stall_wait_cycles"] / n, m["sim__stall_memory_cycles"] / n, None


def parse_args(argv, name, usage):
    """WARPSCOPE NCU_DIR PRESET [-D NAME=VALUE]... [--only RE] -> (ws, ncu_dir, preset,
    defines, only); a bad command line exits with the usage."""
    args, defines, only = [], [], None
    it = iter(argv)
    for a in it:
        if a == "-D":
            defines.append(next(it, ""))
        elif a == "--only":
            only = re.compile(next(it, ""))
        elif a.startswith("-"):
            sys.exit("%s: unknown option '%s'\n%s" % (name, a, usage))
        else:
            args.append(a)
    if len(args) != 3:
        sys.exit(usage)
    return args[0], args[1], args[2], defines, only


def ncu_outputs(ncu_dir, only):
    """(set, spec, variant, path) of every saved output NCU_DIR/SET/ncu-VARIANT.txt whose SET
    names a bench/unseen spec, variants matching `only` (a compiled pattern) if given."""
    for s in sorted(os.listdir(ncu_dir)):
        spec = os.path.join(REPO, "bench", "unseen", s + ".spec")
        d = os.path.join(ncu_dir, s)
        if not os.path.isdir(d) or not os.path.exists(spec):
            continue
        for f in sorted(os.listdir(d)):
            m = re.match(r"ncu-(\w+)\.txt$", f)
            if m and not (only and not only.search(m.group(1))):
                yield s, spec, m.group(1), os.path.join(d, f)


def main(argv):
    ws, ncu_dir, preset, defines, only = parse_args(argv, "stall_wait",
                                                    __doc__.split("\n\n")[-1].strip())
    rows = []
    for s, spec, variant, path in ncu_outputs(ncu_dir, only):
        gpu, per_issue, long_sb = ncu_wait(path)
        model, memory, err = model_wait(ws, spec, variant, preset, defines)
        rows.append((s, variant, gpu, per_issue, model, err, long_sb, memory))
        if gpu is None or model is None:
            print("%-8s %-18s no figure: %s" % (s, variant, err or "no Stall Wait in " + path))
        else:
            print("%-8s %-18s ncu wait %5.2f of %6.2f cycles/issue   model %5.2f   model/ncu %.2f"
                  "   (long scoreboard: ncu %5.2f, model's memory %5.2f)"
                  % (s, variant, gpu, per_issue, model, model / gpu,
                     long_sb if long_sb is not None else float("nan"), memory), flush=True)
    ok = [r for r in rows if r[2] and r[4] is not None]
    if not ok:
        sys.exit("stall_wait: no kernel with both figures under %s" % ncu_dir)
    ratios = sorted(r[4] / r[2] for r in ok)
    w15 = sum(abs(x - 1) <= 0.15 for x in ratios)
    w25 = sum(abs(x - 1) <= 0.25 for x in ratios)
    print("%d kernels: model/ncu wait median %.2f (%.2f .. %.2f); within 15 %%: %d, within 25 %%: %d"
          % (len(ratios), ratios[len(ratios) // 2], ratios[0], ratios[-1], w15, w25))
    mem = sorted(r[7] / r[6] for r in ok if r[6] and r[6] >= 1 and r[7] is not None)
    if mem:
        print("long scoreboard, where ncu has at least 1 cycle a warp-instruction (%d kernels): "
              "model's memory stall / ncu's median %.2f (%.2f .. %.2f)"
              % (len(mem), mem[len(mem) // 2], mem[0], mem[-1]))
    return 0 if len(ok) == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
