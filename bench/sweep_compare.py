#!/usr/bin/env python3
"""sweep_compare.py GPU_DIR MODEL_DIR... — tests/gpu/sweep.spec's outputs (warpscope run/sim
--dump) of each model beside the GPU's: per variant, buffer and result slot (the kernel
writes SLOTS results per thread), how many of the 256 threads differ and by how many units
in the last place (f32, f64, each half of a packed half2, f16) or, for integers, whether
they differ at all. Prints the slots where some model differs and a count of the rest
(slots the kernel leaves zero everywhere are not counted);
exit 0 (a report, not a test)."""
import math
import os
import struct
import sys

THREADS = 256
# variant -> [(buffer, element format, kind)]: kind int (exact), f32, f64, h2 (two f16 in a
# u32), h (one f16)
OUTPUTS = {
    "imath": [("o", "I", "int"), ("ob", "Q", "int")],
    "fmath": [("fo", "f", "f32"), ("fod", "d", "f64")],
    "halfy": [("ho", "I", "h2"), ("hob", "H", "h"), ("hof", "f", "f32")],
}


def load(path, fmt):
    with open(path, "rb") as f:
        data = f.read()
    n = len(data) // struct.calcsize(fmt)
    return struct.unpack("<%d%s" % (n, fmt), data[: n * struct.calcsize(fmt)])


def ordered(bits, width):
    """Sign-magnitude float bits as integers in numeric order (ulps apart = difference)."""
    sign = 1 << (width - 1)
    return -(bits & (sign - 1)) if bits & sign else bits


def is_nan(bits, width):
    exp_bits = {16: 5, 32: 8, 64: 11}[width]
    man = width - 1 - exp_bits
    return (bits >> man) & ((1 << exp_bits) - 1) == (1 << exp_bits) - 1 and bits & ((1 << man) - 1)


def ulps(a, b, kind):
    """Units in the last place between a and b (0 equal, inf: NaN against a number)."""
    if kind == "int":
        return 0 if a == b else math.inf
    if kind == "h2":
        return max(ulps(a & 0xFFFF, b & 0xFFFF, "h"), ulps(a >> 16, b >> 16, "h"))
    width = {"h": 16, "f32": 32, "f64": 64}[kind]
    if kind == "f32":
        a, b = struct.unpack("<I", struct.pack("<f", a))[0], struct.unpack("<I", struct.pack("<f", b))[0]
    elif kind == "f64":
        a, b = struct.unpack("<Q", struct.pack("<d", a))[0], struct.unpack("<Q", struct.pack("<d", b))[0]
    na, nb = is_nan(a, width), is_nan(b, width)
    if na or nb:
        return 0 if na and nb else math.inf
    return abs(ordered(a, width) - ordered(b, width))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    gpu, models = sys.argv[1], sys.argv[2:]
    names = [os.path.basename(m.rstrip("/")) for m in models]
    print("%-7s %-4s %4s  " % ("variant", "buf", "slot") +
          "  ".join("%-22s" % (n + ": threads, max ulps") for n in names))
    totals = {n: [0, 0] for n in names}
    same = 0
    for variant, outs in OUTPUTS.items():
        for buf, fmt, kind in outs:
            path = os.path.join(gpu, "%s.%s.bin" % (variant, buf))
            if not os.path.exists(path):
                print("%-7s %-4s  (no GPU dump)" % (variant, buf))
                continue
            g = load(path, fmt)
            ms = [load(os.path.join(m, "%s.%s.bin" % (variant, buf)), fmt) for m in models]
            slots = len(g) // THREADS
            for s in range(slots):
                if not any(g[t * slots + s] for t in range(THREADS)) and not any(
                        m[t * slots + s] for m in ms for t in range(THREADS)):
                    continue  # a slot the kernel does not write
                cells = []
                for n, m in zip(names, ms):
                    diffs = [ulps(m[t * slots + s], g[t * slots + s], kind) for t in range(THREADS)]
                    bad = sum(1 for d in diffs if d)
                    worst = max(diffs)
                    totals[n][0] += bad
                    totals[n][1] += THREADS
                    cells.append("%-22s" % ("equal" if not bad else "%d, %s" % (
                        bad, "NaN/int" if worst == math.inf else "%d" % worst)))
                if all(c.strip() == "equal" for c in cells):
                    same += 1
                else:
                    print("%-7s %-4s %4d  %s" % (variant, buf, s, "  ".join(cells)))
    print("result slots equal to the GPU's on every model: %d (slots no thread writes left out)" % same)
    print("results differing from the GPU's: " + ", ".join(
        "%s %d of %d" % (n, b, t) for n, (b, t) in totals.items()))


if __name__ == "__main__":
    main()
