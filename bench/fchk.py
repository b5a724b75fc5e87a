#!/usr/bin/env python3
"""fchk.py — FCHK's rule (which operands send IEEE single division to its slow path), from
bench/fchk/fchk.spec's timed divisions.

  fchk.py records DIR [DIR...]   the GPU's dumps (`warpscope run bench/fchk/fchk.spec
                                 --no-sim --dump DIR`) as records: for each exponent field
                                 of a, the ranges of b's exponent field whose 8 pairs all
                                 took the slow path (the least time over the dumps at or
                                 above THRESHOLD cycles); cells where only some did are
                                 listed apart
  fchk.py compare RECORDS DIR    a simulator's dump (`warpscope sim ... --dump DIR`, whose
                                 clock counts issued instructions: the fast path is the
                                 least) against the records; exit 1 naming the cells that
                                 differ

Pair i of the spec has a's exponent field (i >> 11) & 255 and b's (i >> 3) & 255."""
import array, sys

THRESHOLD = 190   # cycles: the H200's fast path took at most 175, the slow path 200 or more
N = 1 << 19


def read(path, code):
    x = array.array(code)
    with open(path, 'rb') as f:
        x.frombytes(f.read())
    return x


def cells(slow):
    """(ea, eb) -> how many of the cell's 8 pairs took the slow path"""
    out = {}
    for i in range(N):
        k = ((i >> 11) & 255, (i >> 3) & 255)
        out[k] = out.get(k, 0) + bool(slow[i])
    return out


def ranges(ebs):
    out, start = [], None
    for e in range(257):
        if e < 256 and e in ebs:
            start = e if start is None else start
        elif start is not None:
            out.append('%d' % start if start == e - 1 else '%d-%d' % (start, e - 1))
            start = None
    return ' '.join(out) or '-'


def records(dirs):
    dts = [read(d + '/time.dt.bin', 'q') for d in dirs]
    c = cells([min(dt[i] for dt in dts) >= THRESHOLD for i in range(N)])
    print('# FCHK on the GPU: a\'s exponent field, then the ranges of b\'s whose 8 pairs all '
          'took the slow path')
    print('# (bench/fchk.py records over %d dump(s), threshold %d cycles)' % (len(dirs), THRESHOLD))
    for ea in range(256):
        print('%d: %s' % (ea, ranges({eb for eb in range(256) if c[(ea, eb)] == 8})))
    for (ea, eb), n in sorted(c.items()):
        if 0 < n < 8:
            print('mixed %d %d %d' % (ea, eb, n))


def load(path):
    slow, mixed = {}, set()
    for line in open(path):
        if line.startswith('#') or not line.strip():
            continue
        if line.startswith('mixed'):
            _, ea, eb, _n = line.split()
            mixed.add((int(ea), int(eb)))
            continue
        ea, rest = line.split(':')
        for r in rest.split():
            if r == '-':
                continue
            lo, _, hi = r.partition('-')
            for eb in range(int(lo), int(hi or lo) + 1):
                slow[(int(ea), eb)] = True
    return slow, mixed


def compare(path, d):
    slow, mixed = load(path)
    dt = read(d + '/time.dt.bin', 'q')
    fast = min(dt)
    c = cells([x > fast for x in dt])
    bad = [(k, n) for k, n in sorted(c.items())
           if k not in mixed and n != (8 if slow.get(k) else 0)]
    for (ea, eb), n in bad[:20]:
        print('cell a %d b %d: %d of 8 slow in the model, %s on the GPU' %
              (ea, eb, n, 'all' if slow.get((ea, eb)) else 'none'))
    print('%d of %d cells as on the GPU (%d mixed cells left out)' %
          (len(c) - len(bad) - len(mixed), len(c) - len(mixed), len(mixed)))
    return 1 if bad else 0


if __name__ == '__main__':
    if len(sys.argv) >= 3 and sys.argv[1] == 'records':
        records(sys.argv[2:])
    elif len(sys.argv) == 4 and sys.argv[1] == 'compare':
        sys.exit(compare(sys.argv[2], sys.argv[3]))
    else:
        sys.exit(__doc__)
