#!/usr/bin/env python3
"""sass_coverage.py FILE.sass... — which lines of nvdisasm output the SASS model would load
as the UNKNOWN row: an opcode sim/sass_ops.def lacks, a modifier sim/sass_mods.def lacks,
or a modifier the opcode's row does not list (hints, kind HINT, are accepted everywhere).
For surveying code the project has never seen (compile it with nvcc -arch=sm_90 -cubin,
disassemble with nvdisasm, pass the .sass files): one line per opcode.modifier with its
count, most frequent first. Operand counts are not checked (test_sass_parse does)."""
import collections
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def tables():
    text = open(os.path.join(ROOT, "sim", "sass_ops.def")).read()
    text = re.sub(r'"\s*\n\s*"', "", text)  # a row's modifier string continued on a line
    rows = {m.group(1): set(m.group(2).split())
            for m in re.finditer(r'WS_SOP\(\w+,\s*"([^"]*)",[^"]*?,\s*"([^"]*)"\)', text)}
    mods = {m.group(1): m.group(2) for m in re.finditer(
        r'WS_SMOD\(\w+,\s*"([^"]*)",\s*(\w+)\)', open(os.path.join(ROOT, "sim", "sass_mods.def")).read())}
    return rows, mods


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    rows, mods = tables()
    line_re = re.compile(r"\s*/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P[T0-6]\s+)?([A-Z][A-Z0-9_]*)((?:\.[A-Za-z0-9_]+)*)")
    bad, lines = collections.Counter(), 0
    for path in sys.argv[1:]:
        for line in open(path, errors="replace"):
            m = line_re.match(line)
            if not m:
                continue
            lines += 1
            op, suffixes = m.group(1), [x for x in m.group(2).split(".") if x]
            if op not in rows:
                bad[op + " (opcode not in sim/sass_ops.def)"] += 1
                continue
            for x in suffixes:
                if x not in mods:
                    bad["%s.%s (modifier not in sim/sass_mods.def)" % (op, x)] += 1
                elif mods[x] != "HINT" and x not in rows[op]:
                    bad["%s.%s (not in the %s row's list)" % (op, x, op)] += 1
    print("%d instruction lines, %d that would load as UNKNOWN" % (lines, sum(bad.values())))
    for what, n in bad.most_common():
        print("%6d  %s" % (n, what))


if __name__ == "__main__":
    main()
