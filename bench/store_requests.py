#!/usr/bin/env python3
"""bench/store_requests.py — the timing model's L2 write requests beside Nsight Compute's
L1 store wavefronts, kernel by kernel.

L1 writes every store through to the L2 (global and local ones); the timing model counts a
store warp-instruction's sectors in groups of up to 8 as its write requests
(sim__l2_write_requests, timing_memcost.c) and bounds them by the L2's rate for them
(mem.l2_write_requests_per_cycle). Nsight Compute counts what L1 sends on as its store
wavefronts (l1tex__t_output_wavefronts_pipe_lsu_mem_{global,local}_op_st.sum). For every
saved output NCU_DIR/SET/ncu-VARIANT.txt (bench/ncu_stalls.sh writes them; SET names
bench/unseen/SET.spec) this runs `warpscope sim` on the same launch and prints both counts,
the store sectors of each side, and how many kernels agree within 10 % and 25 %.

usage: bench/store_requests.py WARPSCOPE NCU_DIR PRESET [-D NAME=VALUE]... [--only RE]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stall_wait import ncu_kernel_section, ncu_outputs, ncu_value, parse_args, sim_metrics  # noqa: E402

USAGE = __doc__.split("\n\n")[-1].strip()


def ncu_stores(path):
    """(store wavefronts, store sectors) of the kernel's own section, global and local."""
    t = ncu_kernel_section(open(path).read())
    if t is None:
        return None, None
    total = []
    for what in ("t_output_wavefronts", "t_sectors"):
        v = [ncu_value(t, "l1tex__%s_pipe_lsu_mem_%s_op_st.sum" % (what, space))
             for space in ("global", "local")]
        total.append(None if None in v else sum(float(x.replace(",", "")) for x in v))
    return total[0], total[1]


def model_stores(ws, spec, variant, preset, defines):
    m, err = sim_metrics(ws, spec, variant, preset, defines)
    return (m["sim__l2_write_requests"], None) if m else (None, err)


def main(argv):
    ws, ncu_dir, preset, defines, only = parse_args(argv, "store_requests", USAGE)
    rows = []
    for s, spec, variant, path in ncu_outputs(ncu_dir, only):
        wf, sectors = ncu_stores(path)
        model, err = model_stores(ws, spec, variant, preset, defines)
        rows.append((wf, model))
        if wf is None or model is None:
            print("%-8s %-18s no figure: %s" % (s, variant, err or "no store counts in " + path))
        else:
            print("%-8s %-18s ncu store wavefronts %10.0f (%10.0f sectors)   model requests %10.0f"
                  "   model/ncu %s" % (s, variant, wf, sectors, model,
                                       "%.2f" % (model / wf) if wf else "-"), flush=True)
    ok = [r for r in rows if r[0] is not None and r[1] is not None]
    if not ok:
        sys.exit("store_requests: no kernel with both counts under %s" % ncu_dir)
    both = [r[1] / r[0] for r in ok if r[0] > 0]
    none = sum(1 for r in ok if r[0] == 0 and r[1] == 0)
    ratios = sorted(both)
    w10 = sum(abs(x - 1) <= 0.10 for x in ratios)
    w25 = sum(abs(x - 1) <= 0.25 for x in ratios)
    print("%d kernels: %d store on both sides, %d on neither; model/ncu median %.2f (%.2f .. %.2f);"
          " within 10 %%: %d, within 25 %%: %d"
          % (len(ok), len(ratios), none, ratios[len(ratios) // 2] if ratios else float("nan"),
             ratios[0] if ratios else float("nan"), ratios[-1] if ratios else float("nan"), w10, w25))
    return 0 if len(ok) == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
