#!/usr/bin/env python3
"""bu_patterns.py — one-warp inputs for branch_unification/after (kernels/branch_unification.cu)
whose lanes leave the A and B search loops in chosen trips, to measure on the GPU which
divergent groups it issues together (bench/bu_patterns.sh) and to hold the SASS model to it.

  bu_patterns.py write OUTDIR KERNEL_CU [--cuts]
                                         writes OUTDIR/NAME.bin (the input) and NAME.spec
                                         for every pattern; prints the names. --cuts instead:
                                         for d4_rand3 and d8_rand1, the warp cut to its first
                                         K lanes (NAME_kK), and d4_rand3 with lane J left
                                         out (d4_rand3_dJ)
  bu_patterns.py table DB                one line per pattern of a profile database: the
                                         GPU's and the SASS model's issues at the loops' exits
                                         and how many SASS PCs are equal
  bu_patterns.py check DB RECORDS [RE]   the simulator runs in DB against the GPU's per-PC
                                         records (bench/records/bu-patterns-h100.txt) for the
                                         patterns matching RE; exit 1 naming each difference

Patterns: d2_* and d4_* put each lane's first A and first B item in chosen trips (two to
four items per thread); d4_rand*, d8_rand* are random mixes (fixed seed)."""
import os, random, re, sqlite3, sys


def patterns():
    P = {}
    def lanes(f): return [f(l) for l in range(32)]
    P['d2_l0BA'] = lanes(lambda l: 'BA' if l == 0 else 'AB')
    P['d2_l0AB'] = lanes(lambda l: 'AB' if l == 0 else 'BA')
    P['d2_l31BA'] = lanes(lambda l: 'BA' if l == 31 else 'AB')
    P['d2_half'] = lanes(lambda l: 'AB' if l < 16 else 'BA')
    P['d2_halfr'] = lanes(lambda l: 'BA' if l < 16 else 'AB')
    P['d2_even'] = lanes(lambda l: 'AB' if l % 2 == 0 else 'BA')
    P['d2_l0BB'] = lanes(lambda l: 'BB' if l == 0 else 'AB')
    P['d2_l0AA'] = lanes(lambda l: 'AA' if l == 0 else 'AB')
    P['d2_l0BAaa'] = lanes(lambda l: 'BA' if l == 0 else 'AA')
    P['d2_quad'] = lanes(lambda l: ['AB', 'BA', 'AA', 'BB'][l // 8])
    P['d4_lmod4'] = lanes(lambda l: 'B' * (l % 4) + 'A' + 'B' * (3 - l % 4))
    P['d4_rmod4'] = lanes(lambda l: 'B' * (3 - l % 4) + 'A' + 'B' * (l % 4))
    P['d4_l0t3'] = lanes(lambda l: 'BBAB' if l == 0 else 'ABBB')
    P['d4_l0t2'] = lanes(lambda l: 'BABB' if l == 0 else 'ABBB')
    P['d4_two'] = lanes(lambda l: 'BABB' if l in (0, 1) else 'ABBB')
    P['d4_t1t2t3'] = lanes(lambda l: ['ABBB', 'BABB', 'BBAB'][l % 3])
    P['d4_t3t2t1'] = lanes(lambda l: ['BBAB', 'BABB', 'ABBB'][l % 3])
    P['d4_blk'] = lanes(lambda l: ['ABBB', 'BABB', 'BBAB', 'BBBA'][l // 8])
    rnd = random.Random(5)
    for k in range(4):
        P['d4_rand%d' % k] = lanes(lambda l: ''.join(rnd.choice('AB') for _ in range(4)))
    for k in range(2):
        P['d8_rand%d' % k] = lanes(lambda l: ''.join(rnd.choice('AB') for _ in range(8)))
    return P


def cuts(P):
    """Smaller warps of the random inputs where the GPU merges: to find the lanes it needs."""
    out = {}
    for name in ('d4_rand3', 'd8_rand1'):
        pat = P[name]
        for k in range(1, 32):
            out['%s_k%d' % (name, k)] = pat[:k]
        for j in range(32 if name == 'd4_rand3' else 0):
            out['%s_d%d' % (name, j)] = pat[:j] + pat[j + 1:]
    return out


SPEC = """# branch_unification/after on one warp (or its first lanes), input pattern %(name)s (bench/bu_patterns.py)
workload    bu_%(name)s
description branch_unification/after, one warp, input pattern %(name)s
source      %(cu)s
seed        1
const LOOP = 10
const DPT = %(dpt)d
const N = %(lanes)d * DPT
buffer data i32 N file %(name)s.bin
buffer out  i32 N zero
check  out
variant after
  description one warp, DPT items per lane: A = 4, B = 0
  kernel  kernelEnhanced
  grid    1
  block   %(lanes)d
  args    data out
"""


def write(out, cu, with_cuts=False):
    os.makedirs(out, exist_ok=True)
    names = []
    P = patterns()
    if with_cuts:
        P = cuts(P)
    for name, pat in P.items():
        with open(os.path.join(out, name + '.bin'), 'wb') as f:
            for s in pat:
                for c in s:
                    f.write((4 if c == 'A' else 0).to_bytes(4, 'little'))
        with open(os.path.join(out, name + '.spec'), 'w') as f:
            f.write(SPEC % dict(name=name, cu=os.path.abspath(cu), dpt=len(pat[0]), lanes=len(pat)))
        names.append(name)
    print(' '.join(names))


def runs(db, source_like):
    """{pattern: {pc: (issued, threads)}} of the newest run of each pattern from `source_like`."""
    out = {}
    for rid, w in db.execute("select id, workload from runs where source like ? and workload like 'bu\\_%' "
                             "escape '\\' order by id", (source_like,)):
        out[w[3:]] = {pc: (i, t) for pc, i, t in
                      db.execute("select pc, issued, active_threads from instructions where run_id=?", (rid,))}
    return out


def exits(pcs):
    """Issues at the A loop's found path (0x160), the A loop's BSYNC (0x180) and the B loop's
    BSYNC (0x400) of the LOOP=10 SASS: where the GPU's issue counts and the model's part."""
    return [pcs.get(pc, (0, 0))[0] for pc in (0x160, 0x180, 0x400)]


def table(path):
    db = sqlite3.connect(path)
    gpu, sim = runs(db, 'gpu%'), runs(db, 'sim%')
    print('%-12s %-17s %-17s %s' % ('pattern', 'GPU 160/180/400', 'SASS 160/180/400', 'PCs equal'))
    for name in gpu:
        g, s = gpu[name], sim.get(name, {})
        eq = sum(1 for pc in g if s.get(pc) == g[pc])
        print('%-12s %-17s %-17s %d/%d' % (name, '/'.join(map(str, exits(g))), '/'.join(map(str, exits(s))), eq, len(g)))


def check(path, records, rx):
    want = {}
    for line in open(records):
        if line.startswith('#') or not line.strip():
            continue
        name, pc, i, t = line.split()
        if re.search(rx, name):
            want.setdefault(name, {})[int(pc)] = (int(i), int(t))
    sim = runs(sqlite3.connect(path), 'sim%')
    bad = 0
    for name, pcs in want.items():
        got = sim.get(name)
        if got is None:
            print('%s: no simulator run' % name); bad += 1; continue
        diff = [(pc, got.get(pc), pcs[pc]) for pc in sorted(pcs) if got.get(pc, (0, 0)) != pcs[pc]]
        if diff:
            bad += 1
            print('%s: %d PCs differ, e.g. %s' % (name, len(diff), ', '.join(
                'pc %d sim %s gpu %s' % d for d in diff[:3])))
    print('%d of %d patterns equal to the GPU at every SASS PC' % (len(want) - bad, len(want)))
    return 1 if bad else 0


if __name__ == '__main__':
    a = sys.argv[1:]
    if len(a) in (3, 4) and a[0] == 'write' and a[3:] in ([], ['--cuts']):
        write(a[1], a[2], a[3:] == ['--cuts'])
    elif len(a) == 2 and a[0] == 'table':
        table(a[1])
    elif len(a) in (3, 4) and a[0] == 'check':
        sys.exit(check(a[1], a[2], a[3] if len(a) == 4 else '.'))
    else:
        sys.exit(__doc__)
