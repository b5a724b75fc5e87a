#!/usr/bin/env python3
"""pc_records.py — per-SASS-PC counts of a workload's runs as records, and a check of
simulator runs against such records (the GPU's, from `warpscope profile --model sass`).

  pc_records.py dump DB WORKLOAD        one line per variant and PC of the newest GPU run of
                                       each variant: VARIANT PC INST_EXECUTED THREAD_INST
                                       (PC as FUNCTION:PC where the run has several
                                       functions: a sequence of different kernels)
  pc_records.py check DB RECORDS WORKLOAD
                                       the newest simulator run of each variant in DB against
                                       the records; exit 1 naming each variant that differs;
                                       last, a line per variant: VARIANT rate GPU SIM yields N
                                       (threads per warp-instruction of the records and of the
                                       run, and its sim__diverged_yields)
  pc_records.py compare DB WORKLOAD    the newest GPU and SASS-model runs of each variant in
                                       the same DB (what `profile --model sass` stores), PC
                                       by PC; a report, exit 0
  pc_records.py totals DB WORKLOAD     the same runs' kernel totals (the Range Profiler's on
                                       the GPU side): warp- and thread-instructions, branch
                                       targets and divergent targets; exit 1 naming each
                                       variant where one differs
  pc_records.py totals-dump DB WORKLOAD
                                       the newest GPU run's kernel totals of each variant as
                                       records: VARIANT INST THREAD_INST TARGETS DIVERGENT
  pc_records.py totals-check RECORDS JSON
                                       `warpscope sim --json` output against such records
                                       (tests/gpu/indirect-h200.txt); exit 1 naming each
                                       variant that differs or is missing"""
import json, sqlite3, sys


def newest(db, workload, source_like, by_function=False):
    """{variant: {pc: (issued, threads)}} of the newest run of each variant; with
    by_function, keyed by (function, pc): a launch sequence of several kernels has PCs that
    several functions share."""
    out = {}
    for rid, v in db.execute("select id, variant from runs where workload=? and source like ? "
                             "order by id", (workload, source_like)):
        rows = db.execute("select function, pc, issued, active_threads from instructions "
                          "where run_id=?", (rid,)).fetchall()
        out[v] = {((f, pc) if by_function else pc): (i, t) for f, pc, i, t in rows}
    return out


def key_text(k):
    """A record's PC column: the PC, or FUNCTION:PC where several functions have rows."""
    return '%s:%d' % k if isinstance(k, tuple) else '%d' % k


def dump(path, workload):
    for v, pcs in newest(sqlite3.connect(path), workload, 'gpu%', True).items():
        several = len({f for f, _ in pcs}) > 1
        for f, pc in sorted(pcs):
            print('%s %s %d %d' % (v, key_text((f, pc) if several else pc), *pcs[(f, pc)]))


def compare(path, workload):
    db = sqlite3.connect(path)
    gpu, sim = newest(db, workload, 'gpu%', True), newest(db, workload, 'sim:sass', True)
    for v in sorted(gpu):
        g, s = gpu[v], sim.get(v)
        if s is None:
            print('%s / %s: no SASS-model run' % (workload, v))
            continue
        diff = [k for k in sorted(g) if s.get(k, (0, 0)) != g[k]]
        print('%s / %s: %d of %d SASS PCs equal to CUPTI\'s counts%s' % (
            workload, v, len(g) - len(diff), len(g), '' if not diff else ' (e.g. pc 0x%x of %s: '
            'sim %s, gpu %s)' % (diff[0][1], diff[0][0], s.get(diff[0]), g[diff[0]])))


def check(path, records, workload):
    want = {}
    for line in open(records):
        if line.strip() and not line.startswith('#'):
            v, pc, i, t = line.split()
            f, _, n = pc.rpartition(':')
            want.setdefault(v, {})[(f, int(n)) if f else int(n)] = (int(i), int(t))
    db = sqlite3.connect(path)
    sim, simf = newest(db, workload, 'sim%'), newest(db, workload, 'sim%', True)
    bad = 0
    for v, pcs in want.items():
        # FUNCTION:PC records compare function by function; plain PCs as they always did
        got = (simf if any(isinstance(k, tuple) for k in pcs) else sim).get(v)
        diff = [(pc, (got or {}).get(pc), pcs[pc]) for pc in sorted(pcs)
                if (got or {}).get(pc, (0, 0)) != pcs[pc]]
        if got is None or diff:
            bad += 1
            print('%s: %s' % (v, 'no simulator run' if got is None else '%d PCs differ, e.g. %s' % (
                len(diff), ', '.join('pc %s sim %s gpu %s' % (key_text(d[0]), d[1], d[2])
                                     for d in diff[:3]))))
    print('%d of %d variants equal to the GPU at every SASS PC' % (len(want) - bad, len(want)))
    for v, pcs in want.items():
        got = (simf if any(isinstance(k, tuple) for k in pcs) else sim).get(v) or {}
        row = db.execute("select m.value from metrics m join runs r on r.id = m.run_id where "
                         "r.workload=? and r.variant=? and r.source like 'sim%' and "
                         "m.name='sim__diverged_yields' order by r.id desc limit 1",
                         (workload, v)).fetchone()
        print('%s rate %.3f %.3f yields %d' % (v, ratio(pcs), ratio(got), row[0] if row else 0))
    return 1 if bad else 0


def ratio(pcs):
    """Threads per warp-instruction of {pc: (issued, threads)}."""
    issued = sum(i for i, _ in pcs.values())
    return sum(t for _, t in pcs.values()) / issued if issued else 0.0


TOTALS = ('smsp__inst_executed.sum', 'smsp__thread_inst_executed.sum',
          'smsp__sass_branch_targets.sum', 'smsp__sass_branch_targets_threads_divergent.sum')


def totals(path, workload):
    db = sqlite3.connect(path)
    runs = {}
    for rid, v, src in db.execute("select id, variant, source from runs where workload=? "
                                  "order by id", (workload,)):
        side = 'gpu' if src.startswith('gpu') else 'sim' if src == 'sim:sass' else None
        if side:
            runs.setdefault(v, {})[side] = dict(db.execute(
                "select name, value from metrics where run_id=?", (rid,)).fetchall())
    bad = 0
    print('%-12s %s' % ('variant', '  '.join('%21s' % m.split('.')[0].replace('smsp__', '')[:21]
                                               for m in TOTALS)))
    for v in sorted(runs):
        g, s = runs[v].get('gpu'), runs[v].get('sim')
        if not g or not s:
            print('%-12s no %s run' % (v, 'GPU' if not g else 'SASS-model'))
            bad += 1
            continue
        cells, same = [], True
        for m in TOTALS:
            gv, sv = g.get(m), s.get(m)
            same &= gv is not None and sv is not None and round(gv) == round(sv)
            cells.append('%10s %10s' % ('-' if gv is None else '%d' % gv,
                                        '-' if sv is None else '%d' % sv))
        print('%-12s %s%s' % (v, '  '.join(cells), '' if same else '  DIFFER'))
        bad += not same
    print('%s: %d of %d variants with kernel totals equal to the GPU\'s (GPU, SASS model)' % (
        workload, len(runs) - bad, len(runs)))
    return 1 if bad else 0


def totals_dump(path, workload):
    db = sqlite3.connect(path)
    newest = {}
    for rid, v in db.execute("select id, variant from runs where workload=? and source like "
                             "'gpu%' order by id", (workload,)):
        newest[v] = rid
    for v, rid in newest.items():
        m = dict(db.execute("select name, value from metrics where run_id=?", (rid,)).fetchall())
        print('%-9s %s' % (v, ' '.join('%d' % round(m[n]) for n in TOTALS)))


def totals_check(records, sim_json):
    runs = {r['variant']: r for r in json.load(open(sim_json)).get('runs', [])}
    want = [l.split() for l in open(records) if l.strip() and not l.startswith('#')]
    bad = 0
    for v, *gpu in want:
        r = runs.get(v)
        got = [round(r['metrics'].get(n, -1)) for n in TOTALS] if r else None
        if got != [int(x) for x in gpu]:
            bad += 1
            print('%s: GPU %s, model %s' % (v, ' '.join(gpu), got))
    print('%d of %d variants equal' % (len(want) - bad, len(want)))
    return 1 if bad or not want else 0


if __name__ == '__main__':
    a = sys.argv[1:]
    if len(a) == 3 and a[0] == 'dump':
        dump(a[1], a[2])
    elif len(a) == 4 and a[0] == 'check':
        sys.exit(check(a[1], a[2], a[3]))
    elif len(a) == 3 and a[0] == 'compare':
        compare(a[1], a[2])
    elif len(a) == 3 and a[0] == 'totals':
        sys.exit(totals(a[1], a[2]))
    elif len(a) == 3 and a[0] == 'totals-dump':
        totals_dump(a[1], a[2])
    elif len(a) == 3 and a[0] == 'totals-check':
        sys.exit(totals_check(a[1], a[2]))
    else:
        sys.exit(__doc__)
