#!/usr/bin/env python3
"""Tallies bench/placement's dumps: per launch, how many CTAs each SM ran, how many ran on one
SM at once, how long CTAs took, %nsmid and %nwarpid, and the SMs of the first CTAs in launch order (with
how many of the first %nsmid CTAs ran on the SM of their own index, as round-robin by index
would put them).

usage: placement.py WHERE.bin [LABEL]
WHERE.bin is `warpscope run bench/placement/placement.spec --dump DIR`'s VARIANT.where.bin:
three little-endian u64 per CTA (SM, with %nsmid in bits 32-47 and %nwarpid in 48-63; start
ns; end ns)."""
import collections
import statistics
import struct
import sys


def load(path):
    data = open(path, 'rb').read()
    n = len(data) // 24
    return [struct.unpack_from('<QQQ', data, 24 * i) for i in range(n)]


def split(ctas):
    """The CTAs as (SM, start, end), %nsmid and %nwarpid (0 where the upper bits are empty)."""
    return ([(w & 0xffffffff, s, e) for w, s, e in ctas], max((w >> 32 & 0xffff for w, _, _ in ctas), default=0),
            max((w >> 48 for w, _, _ in ctas), default=0))


def tally(ctas):
    ctas, nsmid, nwarpid = split(ctas)
    by_index = sum(1 for i, (sm, _, _) in enumerate(ctas[:nsmid]) if sm == i)
    per_sm = collections.Counter(sm for sm, _, _ in ctas)
    t0 = min(s for _, s, _ in ctas)
    span = max(e for _, _, e in ctas) - t0
    durs = sorted(e - s for _, s, e in ctas)
    # the most CTAs one SM held at once: sweep its start/end events
    most = 0
    for sm in per_sm:
        ev = sorted([(s, 1) for m, s, _ in ctas if m == sm] + [(e, -1) for m, _, e in ctas if m == sm])
        cur = 0
        for _, d in ev:
            cur += d
            most = max(most, cur)
    hist = collections.Counter(per_sm.values())
    return {
        'ctas': len(ctas), 'sms': len(per_sm), 'per_sm': dict(sorted(hist.items())),
        'most_at_once': most, 'span_us': span / 1e3,
        'cta_us': (durs[0] / 1e3, statistics.median(durs) / 1e3, durs[-1] / 1e3),
        'nsmid': nsmid, 'nwarpid': nwarpid, 'first': [sm for sm, _, _ in ctas[:12]], 'by_index': by_index,
        'indexed': min(len(ctas), nsmid),
    }


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    t = tally(load(sys.argv[1]))
    label = sys.argv[2] if len(sys.argv) > 2 else sys.argv[1]
    hist = ' '.join('%d:%d' % kv for kv in t['per_sm'].items())
    print('%-40s %4d CTAs on %3d SMs  CTAs/SM {%s}  at once <= %d  span %8.1f us  CTA us min/med/max '
          '%.1f/%.1f/%.1f' % (label, t['ctas'], t['sms'], hist, t['most_at_once'], t['span_us'],
                              *t['cta_us']))
    print('%-40s nsmid %d  nwarpid %d  SMs of the first CTAs %s  on the SM of their index: %d of %d' %
          ('', t['nsmid'], t['nwarpid'], ' '.join(map(str, t['first'])), t['by_index'], t['indexed']))


if __name__ == '__main__':
    main()
