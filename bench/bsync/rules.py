#!/usr/bin/env python3
"""rules.py — test a rule for the BSYNC class against the H200's one-warp loops.

usage: rules.py RULE [r|m]     (r or m: only the rolled or the unrolled loops)

The loops of bench/bsync/{trips,seq,many}.spec (bench/records/bsync-probes-gpu-h200.tar.xz,
groups-savings.json: form r (leavers fall through to the BSYNC, a rolled loop) or m (they
branch to it, an unrolled one), the lanes of the groups leaving at trips 1, 2, ..., and how
many BSYNC issues an iteration the GPU saves against one per group). At each divergent exit,
the leavers either issue the BSYNC at once or are deferred: the lanes that stay run first,
and the deferred lanes issue it with the next group that gets there (one issue saved). RULE
is a Python expression over the exit's state that is true where the leavers are deferred:
  e, s      the lanes leaving and staying;  T = e + s
  last, mx  the lanes of the last and of the largest group at the BSYNC so far (deferred
            groups count with the group they wait for); n how many groups
  prev      the e and s of every earlier exit of the iteration, as a list of pairs
  form      'r' or 'm', the loop's form
Prints each loop the rule gets wrong and the count right. Example, a rule fitted to
seq.spec that many.spec refutes (docs/results/unseen-kernels-h200.txt):
  rules.py 'n and (last > T and mx >= 2*last if form == "r" else last >= T and mx > last)'
"""
import json, os, sys, tarfile

def savings(form, groups, rule):
    last = mx = n = deferred = saved = 0
    prev, rem = [], sum(groups)
    for e in groups:
        s = rem - e
        if e == 0:
            continue
        if s == 0:
            break
        st = dict(e=e, s=s, T=e + s, last=last, mx=mx, n=n, prev=list(prev), form=form)
        if eval(rule, {}, st):
            deferred += e
            last, n, saved = e, n + 1, saved + 1
            mx = max(mx, e)
        else:
            last, n, deferred = deferred + e, n + 1, 0
            mx = max(mx, last)
        prev.append((e, s))
        rem = s
    return saved

def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    rule, only = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None
    try:
        savings('r', [16, 8, 4, 2, 1, 1], rule)  # names and syntax, on a loop that tries both
    except Exception as e:
        print("rules.py: bad rule '%s': %s" % (rule, e), file=sys.stderr)
        sys.exit(2)
    tar = tarfile.open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'records',
                                    'bsync-probes-gpu-h200.tar.xz'))
    loops = json.load(tar.extractfile('./groups-savings.json'))
    right = total = 0
    for form, groups, saved, name in loops:
        if only and form != only:
            continue
        got = savings(form, groups, rule)
        total += 1
        right += got == saved
        if got != saved:
            print('%s %s %s: GPU saves %d, the rule %d' % (form, name, groups, saved, got))
    print('%d of %d loops right' % (right, total))

if __name__ == '__main__':
    main()
