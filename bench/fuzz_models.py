#!/usr/bin/env python3
"""fuzz_models.py WARPSCOPE [--seed S] [--count N] [--keep DIR] [--activemask] [--no-cas] [--wide-types] [--check]
       fuzz_models.py --write DIR [--seed S] [--count N] [--activemask] [--no-cas]
Differential fuzzing of the two models: random race-free CUDA kernels (nested and
data-dependent control flow, early returns, loops with per-lane trip counts, switch, warp
votes and shuffles, integer and float arithmetic, conversions, shared memory and barriers,
atomics on words of their own op, CAS retry loops, __noinline__ helpers), each run with
`warpscope sim --model ptx` and `--model sass`; a kernel whose outputs differ, or that one
model refuses, is reported with its source and spec kept in DIR (default: a temporary
folder, removed when all agree). Where the models may rightly differ it stays away:
__activemask() after divergence (the PTX model reconverges at immediate post-dominators,
the GPU at ptxas's barriers; --activemask turns it on), float2uint_ru chains (ptxas 13.0
folds `(unsigned)(float)__float2uint_ru(x)` into one F2I.TRUNC), approximate math.
A report, exit 0; with --check, exit 1 when any kernel differs.
--write only writes the kernels (DIR/SEED/k.cu and k.spec, workload fzSEED), for
bench/fuzz_gpu.sh to hold the SASS model's per-PC counts to the GPU's; --no-cas leaves CAS
retry loops out (their counts depend on the order the atomics land in), so that every
kernel's counts are deterministic.
The generator is random.Random(seed) driven: the same seed writes the same kernel."""
import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile

ACTIVEMASK = False  # --activemask
WIDE = False        # --wide-types: double and half expressions too (off: a seed's kernel stays
                    # the one recorded on the GPU, bench/records/fuzz-gpu-h100-*.tgz)
NOCAS = False       # CAS retry loops are on
K = 6           # outputs per thread
NG = 16         # global atomic words after the per-thread outputs
NS = 8          # shared atomic words

class G:
    def __init__(self, seed):
        self.R = random.Random(seed)
        self.depth = 0
        self.loopvars = []      # int loop vars in scope
        self.inloop = 0
        self.helpers = []       # names of helpers defined so far
        self.ctx = 'kernel'     # 'kernel' or 'helper'
        self.phase = 'A'
        self.nid = 0

    def r(self, n):
        return self.R.randrange(n)

    def ch(self, seq):
        return self.R.choice(seq)

    def fresh(self, p):
        self.nid += 1
        return f"{p}{self.nid}"

    # ---------------- expressions ----------------
    def uconst(self):
        return self.ch(["0u", "1u", "3u", "7u", "31u", "0xffu", "0x80000000u", "0xffffffffu",
                        f"{self.r(1<<32)}u", f"{self.r(100)}u", "0x55555555u"])

    def uleaf(self):
        if self.ctx == 'helper':
            opts = ["x", "y", "(unsigned)z", "lane", self.uconst()]
        else:
            opts = ["a", "b", "c", "(unsigned)s", "(unsigned)t", "lane", "ltid", "(unsigned)w",
                    "(unsigned)(w >> 32)", self.uconst(), "threadIdx.x", "blockIdx.x"]
        opts += [f"(unsigned){v}" for v in self.loopvars]
        return self.ch(opts)

    def ileaf(self):
        if self.ctx == 'helper':
            opts = ["z", "(int)x", "((int)lane - 16)", f"({self.r(200) - 100})"]
        else:
            opts = ["s", "t", "(int)a", "((int)lane - 16)", f"({self.r(200) - 100})", "(int)b",
                    "(-2147483647 - 1)", "2147483647"]
        opts += self.loopvars
        return self.ch(opts)

    def fleaf(self):
        if self.ctx == 'helper':
            opts = ["(float)z", "(float)x", "0.5f", "(-3.25f)"]
        else:
            opts = ["f", "g", "(float)s", "(float)a", "0.5f", "(-1.75f)", "1e30f", "3.0f", "(-0.0f)",
                    "(float)(int)lane"]
        return self.ch(opts)

    def wleaf(self):
        if self.ctx == 'helper':
            opts = ["(unsigned long long)x", "((unsigned long long)y << 32 | x)", "(unsigned long long)(long long)z"]
        else:
            opts = ["w", "(unsigned long long)a", "((unsigned long long)b << 32 | c)",
                    "(unsigned long long)(long long)s", "0xffffffffffffffffull",
                    f"{self.r(1<<64)}ull"]
        return self.ch(opts)

    def U(self, d=0):
        if d > 3 or self.r(10) < 3:
            return self.uleaf()
        k = self.r(36 if WIDE else 34)
        x = lambda: self.U(d + 1)
        if k == 34:
            return f"(unsigned)((unsigned long long)__double_as_longlong({self.D(d + 1)}) >> {self.ch([0, 20, 32])})"
        if k == 35: return f"(unsigned)__half_as_ushort({self.H(d + 1)})"
        if k < 6:
            return f"({x()} {self.ch(['+', '-', '*', '^', '&', '|'])} {x()})"
        if k == 6: return f"({x()} << ({x()} & 31u))"
        if k == 7: return f"({x()} >> ({x()} & 31u))"
        if k == 8: return f"(unsigned)__popc({x()})"
        if k == 9: return f"(unsigned)__clz({x()})"
        if k == 10: return f"__brev({x()})"
        if k == 11: return f"__byte_perm({x()}, {x()}, {x()})"
        if k == 12: return f"__funnelshift_l({x()}, {x()}, {x()})"
        if k == 13: return f"__funnelshift_r({x()}, {x()}, {x()})"
        if k == 14: return f"min({x()}, {x()})"
        if k == 15: return f"max({x()}, {x()})"
        if k == 16:
            dv = x(); return f"({dv} == 0u ? {x()} : {x()} / {dv})"
        if k == 17:
            dv = x(); return f"({dv} == 0u ? 1u : {x()} % {dv})"
        if k == 18: return f"({self.B(d + 1)} ? {x()} : {x()})"
        if k == 19: return f"(unsigned){self.I(d + 1)}"
        if k == 20: return f"__float_as_uint({self.F(d + 1)})"
        if k == 21: return f"(unsigned)({self.W(d + 1)} >> {self.r(64)})"
        if k == 22: return f"__umulhi({x()}, {x()})"
        if k == 23: return f"(unsigned)__ffs({x()})"
        if k == 24: return f"__usad({x()}, {x()}, {x()})"
        if k == 25: return f"(unsigned){self.ch(['__float2uint_rz', '__float2uint_rn', '__float2uint_rd'])}({self.F(d + 1)})"
        if k == 26: return f"(unsigned)(unsigned short)({x()})"
        if k == 27: return f"(unsigned)(signed char)({x()})"
        if k == 28: return f"__sad({self.I(d+1)}, {self.I(d+1)}, {x()})"
        if k == 29: return f"(unsigned)__popcll({self.W(d + 1)})"
        if k == 30: return f"(unsigned)__clzll({self.W(d + 1)})"
        if k == 31: return f"({x()} / {self.ch(['3u', '7u', '10u', '1000u', '65537u'])})"
        if k == 32: return f"__vadd4({x()}, {x()})"
        return f"(unsigned)(float){x()}"

    def I(self, d=0):
        if d > 3 or self.r(10) < 3:
            return self.ileaf()
        k = self.r(20)
        x = lambda: self.I(d + 1)
        if k < 4: return f"({x()} {self.ch(['+', '-', '*', '^', '&', '|'])} {x()})"
        if k == 4: return f"({x()} >> ({self.U(d+1)} & 31u))"
        if k == 5:
            return f"(({x()} >> 1) / ((({x()}) & 255) - 128 | 1))"
        if k == 6:
            dv = x(); return f"({dv} == 0 ? 0 : ({x()} >> 1) % {dv})"
        if k == 7: return f"min({x()}, {x()})"
        if k == 8: return f"max({x()}, {x()})"
        if k == 9: return f"abs({x()} >> 1)"
        if k == 10: return f"(int){self.ch(['', '__float2int_rn', '__float2int_rd', '__float2int_ru', '__float2int_rz'])}({self.F(d + 1)})"
        if k == 11: return f"({self.B(d + 1)} ? {x()} : {x()})"
        if k == 12: return f"(int)(short)({x()})"
        if k == 13: return f"__mulhi({x()}, {x()})"
        if k == 14: return f"(int)((long long){self.W(d+1)} >> {self.r(64)})"
        if k == 15: return f"(-{x()} >> 1)"
        if k == 16: return f"({x()} / {self.ch(['3', '-7', '10', '-1000'])})"
        if k == 17: return f"({x()} % {self.ch(['3', '-7', '10', '16'])})"
        if k == 18: return f"(int)__brev((unsigned){x()})"
        return f"(int){self.U(d + 1)}"

    def F(self, d=0):
        if d > 3 or self.r(10) < 3:
            return self.fleaf()
        k = self.r(20 if WIDE else 18)
        x = lambda: self.F(d + 1)
        if k == 18: return f"(float){self.D(d + 1)}"
        if k == 19: return f"__half2float({self.H(d + 1)})"
        if k == 0: return f"__fadd_rn({x()}, {x()})"
        if k == 1: return f"__fsub_rn({x()}, {x()})"
        if k == 2: return f"__fmul_rn({x()}, {x()})"
        if k == 3: return f"__fmaf_rn({x()}, {x()}, {x()})"
        if k == 4: return f"fminf({x()}, {x()})"
        if k == 5: return f"fmaxf({x()}, {x()})"
        if k == 6: return f"({x()} / {self.ch(['2.0f', '4.0f', '0.5f', '1024.0f', '-8.0f'])})"
        if k == 7: return f"fabsf({x()})"
        if k == 8: return f"(-{x()})"
        if k == 9: return f"{self.ch(['truncf', 'floorf', 'ceilf', 'rintf'])}({x()})"
        if k == 10: return f"(float){self.I(d + 1)}"
        if k == 11: return f"(float){self.U(d + 1)}"
        if k == 12: return f"({self.B(d + 1)} ? {x()} : {x()})"
        if k == 13: return f"{self.ch(['__int2float_rz', '__int2float_rd', '__int2float_ru'])}({self.I(d + 1)})"
        if k == 14: return f"(float)(double){x()}"
        if k == 15: return f"(float)((double){x()} * {self.ch(['0.25', '3.0', '-1.5'])})"
        if k == 16: return f"__int_as_float((int)({self.U(d+1)} & 0xbfffffffu))"
        return f"copysignf({x()}, {x()})"

    def D(self, d=0):
        """a double expression (--wide-types)"""
        if d > 3 or self.r(10) < 3:
            if self.ctx == 'helper':
                return self.ch(["(double)z", "(double)x", "0.1", "(-0.0)", "1e300", "4.9e-324"])
            return self.ch(["(double)f", "(double)g", "(double)s", "(double)a", "0.1", "(-0.0)",
                            "1e300", "(-2.5)", "(double)(int)lane", "4.9e-324"])
        k = self.r(16)
        x = lambda: self.D(d + 1)
        if k == 0: return f"__dadd_rn({x()}, {x()})"
        if k == 1: return f"__dsub_rn({x()}, {x()})"
        if k == 2: return f"__dmul_rn({x()}, {x()})"
        if k == 3: return f"__fma_rn({x()}, {x()}, {x()})"
        if k == 4: return f"fmin({x()}, {x()})"
        if k == 5: return f"fmax({x()}, {x()})"
        if k == 6: return f"fabs({x()})"
        if k == 7: return f"(-{x()})"
        if k == 8: return f"{self.ch(['trunc', 'floor', 'ceil', 'rint'])}({x()})"
        if k == 9: return f"({x()} / {self.ch(['3.0', '-7.0', '0.1', '1e-300'])})"
        if k == 10: return f"sqrt(fabs({x()}))"
        if k == 11: return f"(double){self.I(d + 1)}"
        if k == 12: return f"(double){self.W(d + 1)}"
        if k == 13: return f"({self.B(d + 1)} ? {x()} : {x()})"
        if k == 14: return f"__longlong_as_double((long long)({self.W(d + 1)} & 0xbfffffffffffffffull))"
        return f"copysign({x()}, {x()})"

    def H(self, d=0):
        """a half expression (--wide-types)"""
        if d > 3 or self.r(10) < 3:
            return self.ch([f"__float2half({self.F(d + 1)})", f"__float2half_rz({self.F(d + 1)})",
                            f"__ushort_as_half((unsigned short)({self.U(d + 1)} & 0xbfffu))",
                            "__float2half(-0.0f)", "__float2half(65504.0f)"])
        k = self.r(10)
        x = lambda: self.H(d + 1)
        if k == 0: return f"__hadd({x()}, {x()})"
        if k == 1: return f"__hsub({x()}, {x()})"
        if k == 2: return f"__hmul({x()}, {x()})"
        if k == 3: return f"__hfma({x()}, {x()}, {x()})"
        if k == 4: return f"__hmin({x()}, {x()})"
        if k == 5: return f"__hmax({x()}, {x()})"
        if k == 6: return f"__hneg({x()})"
        if k == 7: return f"__habs({x()})"
        if k == 8:
            p, q = x(), x()
            return f"__high2half(__hmul2(__halves2half2({p}, {q}), __halves2half2({q}, {p})))"
        return f"({self.B(d + 1)} ? {x()} : {x()})"

    def W(self, d=0):
        if d > 3 or self.r(10) < 3:
            return self.wleaf()
        k = self.r(16)
        x = lambda: self.W(d + 1)
        if k < 4: return f"({x()} {self.ch(['+', '-', '*', '^', '&', '|'])} {x()})"
        if k == 4: return f"((unsigned long long){self.U(d+1)} * {self.U(d+1)})"
        if k == 5: return f"({x()} >> ({self.U(d+1)} & 63u))"
        if k == 6: return f"({x()} << ({self.U(d+1)} & 63u))"
        if k == 7:
            dv = x(); return f"({dv} == 0ull ? {x()} : {x()} / {dv})"
        if k == 8:
            dv = x(); return f"({dv} == 0ull ? 5ull : {x()} % {dv})"
        if k == 9: return f"__brevll({x()})"
        if k == 10: return f"__umul64hi({x()}, {x()})"
        if k == 11: return f"(unsigned long long)((long long){x()} >> ({self.U(d+1)} & 63u))"
        if k == 12:
            return f"(unsigned long long)(((long long){x()} >> 1) / ((long long)({self.I(d+1)} | 1) ))"
        if k == 13: return f"(unsigned long long)(long long){self.ch(['__float2ll_rz', '__float2ll_rn', '__float2ll_rd'])}({self.F(d+1)})"
        if k == 14: return f"({self.B(d+1)} ? {x()} : {x()})"
        return f"(unsigned long long){self.U(d+1)}"

    def B(self, d=0):
        k = self.r(16)
        if k < 3: return f"({self.U(d+1)} {self.ch(['<', '>', '<=', '>=', '==', '!='])} {self.U(d+1)})"
        if k < 5: return f"({self.I(d+1)} {self.ch(['<', '>', '<=', '>='])} {self.I(d+1)})"
        if k == 5: return f"((int){self.U(d+1)} {self.ch(['<', '>'])} {self.I(d+1)})"
        if k == 6: return f"({self.I(d+1)} {self.ch(['<', '>', '<=', '>='])} {self.U(d+1)})"   # mixed signed/unsigned
        if k == 7: return f"({self.F(d+1)} {self.ch(['<', '>', '<=', '>=', '==', '!='])} {self.F(d+1)})"
        if k == 8: return f"!({self.F(d+1)} >= {self.F(d+1)})"
        if k == 9: return f"(({self.U(d+1)} & {self.ch(['1u', '3u', '4u', '8u', '0x10u'])}) != 0u)"
        if k == 10: return f"((lane {self.ch(['&', '%'])} {self.ch(['2u', '3u', '5u', '8u'])}) == {self.r(2)}u)"
        if k == 11: return f"({self.W(d+1)} {self.ch(['<', '>'])} {self.W(d+1)})"
        if k == 12: return f"((long long){self.W(d+1)} {self.ch(['<', '>'])} (long long){self.I(d+1)})"
        if k == 13:
            return f"(lane {self.ch(['<', '>=', '>'])} {self.r(33)}u)"
        if k == 14 and d < 2: return f"({self.B(d+1)} {self.ch(['&&', '||'])} {self.B(d+1)})"
        return f"(({self.U(d+1)} & 7u) {self.ch(['==', '<'])} {self.r(8)}u)"

    # ---------------- statements ----------------
    def assign(self, ind):
        if self.ctx == 'helper':
            v = self.ch(["x", "y", "z", "acc"])
            if v == "z": return f"{ind}z = {self.I()};\n"
            if v == "acc": return f"{ind}acc {self.ch(['+=', '^='])} {self.U()};\n"
            return f"{ind}{v} {self.ch(['=', '+=', '^=', '-='])} {self.U()};\n"
        k = self.r(12)
        if k < 3: return f"{ind}{self.ch(['a', 'b', 'c'])} {self.ch(['=', '+=', '^=', '-=', '|=', '*='])} {self.U()};\n"
        if k < 5: return f"{ind}{self.ch(['s', 't'])} {self.ch(['=', '+=', '^=', '-='])} {self.I()};\n"
        if k < 7: return f"{ind}{self.ch(['f', 'g'])} = {self.F()};\n"
        if k == 7: return f"{ind}w {self.ch(['=', '+=', '^=', '*='])} {self.W()};\n"
        if k == 8: return f"{ind}r{self.r(K)} += __float_as_uint({self.F()});\n"
        return f"{ind}r{self.r(K)} {self.ch(['+=', '^=', '='])} {self.U()};\n"

    def warp_div(self, ind):
        """warp op under whatever mask is active (divergent-safe)."""
        if not ACTIVEMASK:
            return self.assign(ind)
        m = self.fresh("m")
        out = f"{ind}{{ unsigned {m} = __activemask();\n"
        tgt = "acc" if self.ctx == 'helper' else f"r{self.r(K)}"
        k = self.r(9)
        if k == 0: out += f"{ind}  {tgt} += __popc(__ballot_sync({m}, {self.B()}));\n"
        elif k == 1: out += f"{ind}  {tgt} += __ballot_sync({m}, {self.B()});\n"
        elif k == 2: out += f"{ind}  {tgt} += __any_sync({m}, {self.B()}) ? 3u : 5u;\n"
        elif k == 3: out += f"{ind}  {tgt} += __all_sync({m}, {self.B()}) ? 7u : 11u;\n"
        elif k == 4: out += f"{ind}  {tgt} ^= __shfl_sync({m}, {self.U()}, __ffs({m}) - 1);\n"
        elif k == 5: out += f"{ind}  {tgt} ^= __shfl_sync({m}, {self.U()}, 31 - __clz({m}));\n"
        elif k == 6:
            v = self.fresh("v"); o = self.fresh("o"); kk = self.ch([1, 2, 4, 8, 16])
            out += f"{ind}  unsigned {v} = {self.U()};\n{ind}  unsigned {o} = __shfl_xor_sync({m}, {v}, {kk});\n"
            out += f"{ind}  {tgt} += (({m} >> (lane ^ {kk}u)) & 1u) ? {o} : {v};\n"
        elif k == 7: out += f"{ind}  {tgt} += {m};\n"
        else: out += f"{ind}  {tgt} += __reduce_add_sync({m}, {self.U()});\n"
        out += f"{ind}}}\n"
        return out

    def atomic(self, ind):
        k = self.r(8)
        if self.ctx == 'helper':
            tgt = "gacc"
        else:
            tgt = "sacc" if (self.phase == 'A' and self.r(2)) else "gacc"
        # each atomic op gets its own words so that different ops never mix on one word
        if tgt == "sacc":
            base, cnt = [(0, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1), (7, 1), (0, 2)][k]
        else:
            base, cnt = [(0, 2), (2, 2), (4, 2), (6, 2), (8, 2), (10, 2), (12, 2), (0, 2)][k]
        idx = f"{base}u + ({self.U()}) % {cnt}u"
        if k == 0: return f"{ind}atomicAdd(&{tgt}[{idx}], {self.U()});\n"
        if k == 1: return f"{ind}atomicOr(&{tgt}[{idx}], {self.U()});\n"
        if k == 2: return f"{ind}atomicXor(&{tgt}[{idx}], {self.U()});\n"
        if k == 3: return f"{ind}atomicMax(&{tgt}[{idx}], {self.U()});\n"
        if k == 4: return f"{ind}atomicMin(&{tgt}[{idx}], {self.U()});\n"
        if k == 5: return f"{ind}atomicAnd(&{tgt}[{idx}], {self.U()} | 0xff00ff00u);\n"
        if k == 6: return f"{ind}atomicMax((int*)&{tgt}[{idx}], {self.I()});\n"
        # CAS loop add
        if NOCAS:
            return f"{ind}atomicAdd(&{tgt}[{idx}], {self.U()});\n"
        p = self.fresh("p"); o = self.fresh("o"); e = self.fresh("e"); v = self.fresh("v")
        return (f"{ind}{{ unsigned *{p} = &{tgt}[{idx}]; unsigned {v} = {self.U()};\n"
                f"{ind}  unsigned {o} = *(volatile unsigned*){p}, {e};\n"
                f"{ind}  do {{ {e} = {o}; {o} = atomicCAS({p}, {e}, {e} + {v}); }} while ({o} != {e}); }}\n")

    def block(self, ind, n):
        return "".join(self.stmt(ind) for _ in range(n))

    def stmt(self, ind):
        self.depth += 1
        try:
            deep = self.depth > 3
            k = self.r(100)
            if deep or k < 30:
                if self.r(6) == 0: return self.warp_div(ind)
                if self.r(8) == 0: return self.atomic(ind)
                return self.assign(ind)
            if k < 45:
                s = f"{ind}if ({self.B()}) {{\n{self.block(ind + '  ', 1 + self.r(3))}{ind}}}"
                if self.r(2): s += f" else {{\n{self.block(ind + '  ', 1 + self.r(3))}{ind}}}"
                return s + "\n"
            if k < 58:
                iv = f"i{len(self.loopvars)}"
                bound = self.ch([f"({self.U()} & 15u)", f"({self.I()} & 7)", f"(int)(lane & 7u)", "5", f"(int)({self.U()} % 9u)"])
                s = f"{ind}for (int {iv} = 0; {iv} < (int){bound}; {iv}++) {{\n"
                self.loopvars.append(iv); self.inloop += 1
                body = self.block(ind + '  ', 1 + self.r(3))
                if self.r(3) == 0:
                    body += f"{ind}  if ({self.B()}) {self.ch(['break', 'continue'])};\n" + self.block(ind + '  ', 1)
                s += body
                self.loopvars.pop(); self.inloop -= 1
                return s + f"{ind}}}\n"
            if k < 64:
                n = self.fresh("n")
                s = f"{ind}{{ unsigned {n} = {self.U()} & 7u;\n{ind}while ({n}-- > 0u) {{\n"
                self.inloop += 1
                s += self.block(ind + '  ', 1 + self.r(2))
                if self.r(2): s += f"{ind}  if ({self.B()}) break;\n"
                self.inloop -= 1
                return s + f"{ind}}} }}\n"
            if k < 68:
                n = self.fresh("n")
                s = f"{ind}{{ int {n} = (int)({self.U()} & 3u);\n{ind}do {{\n"
                self.inloop += 1
                s += self.block(ind + '  ', 1 + self.r(2))
                if self.r(2): s += f"{ind}  if ({self.B()}) continue;\n" + self.block(ind + '  ', 1)
                self.inloop -= 1
                return s + f"{ind}}} while ({n}-- > 0); }}\n"
            if k < 76:
                s = f"{ind}switch ((int)({self.ch([self.U() + ' & 7u', '(' + self.I() + ') % 5', 'lane & 3u', 'lane >> 3'])})) {{\n"
                for cv in self.R.sample(range(-2, 8), 1 + self.r(5)):
                    s += f"{ind}case {cv}:\n" + self.block(ind + '  ', 1 + self.r(2))
                    if self.r(4): s += f"{ind}  break;\n"
                if self.r(2): s += f"{ind}default:\n" + self.block(ind + '  ', 1)
                return s + f"{ind}}}\n"
            if k < 82 and self.helpers:
                h = self.ch(self.helpers)
                if self.ctx == 'helper':
                    return f"{ind}acc ^= {h}({self.U()}, {self.U()}, {self.I()}, gacc);\n"
                return f"{ind}{self.ch(['a', 'b', 'c', 'r' + str(self.r(K))])} {self.ch(['=', '+=', '^='])} {h}({self.U()}, {self.U()}, {self.I()}, gacc);\n"
            if k < 86 and self.inloop:
                return f"{ind}if ({self.B()}) {self.ch(['break', 'continue'])};\n"
            if k < 90 and self.ctx == 'kernel' and self.phase == 'B':
                if self.r(2):
                    return f"{ind}if ({self.B()}) {{ EMIT(); return; }}\n"
                return f"{ind}if ({self.B()}) return;\n"
            if k < 90 and self.ctx == 'helper':
                return f"{ind}if ({self.B()}) return acc ^ {self.U()};\n"
            if k < 95:
                return self.warp_div(ind)
            return self.atomic(ind)
        finally:
            self.depth -= 1

    # ---------------- converged top-level items ----------------
    def conv_warp(self, ind):
        k = self.r(8)
        tgt = f"r{self.r(K)}"
        if k == 0:
            src = self.fresh("q"); o = self.fresh("o"); v = self.fresh("v")
            return (f"{ind}{{ unsigned {v} = {self.U()}; unsigned {src} = ({self.U()}) & 31u;\n"
                    f"{ind}  unsigned {o} = __shfl_sync(FM, {v}, {src});\n"
                    f"{ind}  {tgt} ^= ((FM >> {src}) & 1u) ? {o} : {v}; }}\n")
        if k == 1:
            kk = self.ch([1, 2, 4, 8, 16]); o = self.fresh("o"); v = self.fresh("v")
            return (f"{ind}{{ unsigned {v} = {self.U()}; unsigned {o} = __shfl_xor_sync(FM, {v}, {kk});\n"
                    f"{ind}  {tgt} += ((FM >> (lane ^ {kk}u)) & 1u) ? {o} : {v}; }}\n")
        if k == 2:
            dd = self.r(8) + 1; o = self.fresh("o"); v = self.fresh("v")
            fn = self.ch(["__shfl_up_sync", "__shfl_down_sync"])
            return (f"{ind}{{ unsigned {v} = {self.U()}; unsigned {o} = {fn}(FM, {v}, {dd});\n"
                    f"{ind}  {tgt} ^= {o} * ((FM >> ({('lane - ' + str(dd) + 'u') if 'up' in fn else ('lane + ' + str(dd) + 'u')} & 31u)) & 1u) * (({'lane >= ' + str(dd) + 'u' if 'up' in fn else 'lane + ' + str(dd) + 'u < 32u'}) ? 1u : 0u); }}\n")
        if k == 3: return f"{ind}{tgt} += __ballot_sync(FM, {self.B()});\n"
        if k == 4: return f"{ind}{tgt} += __reduce_{self.ch(['add', 'min', 'max', 'or', 'and', 'xor'])}_sync(FM, {self.U()});\n"
        if k == 5: return f"{ind}{tgt} += __match_any_sync(FM, {self.U()} & 3u);\n"
        if k == 6:
            o = self.fresh("o")
            return f"{ind}{{ float {o} = __shfl_sync(FM, f, __ffs(FM) - 1); g = __fadd_rn(g, {o}); }}\n"
        return f"{ind}{tgt} += (__any_sync(FM, {self.B()}) ? 1u : 0u) + (__all_sync(FM, {self.B()}) ? 2u : 0u);\n"

    def shared_item(self, ind):
        k = self.r(50)
        return (f"{ind}sh[ltid] = {self.U()};\n{ind}__syncthreads();\n"
                f"{ind}{self.ch(['a', 'b', 'c', 'r' + str(self.r(K))])} ^= sh[(ltid + {k}u + ({self.U()} & 3u)) % bsize];\n"
                f"{ind}__syncthreads();\n")

    # ---------------- whole program ----------------
    def helper(self, i):
        self.ctx = 'helper'
        name = f"h{i}"
        body = self.block("  ", 2 + self.r(4))
        s = (f"__device__ __noinline__ unsigned {name}(unsigned x, unsigned y, int z, unsigned *gacc) {{\n"
             f"  unsigned lane = threadIdx.x & 31u; unsigned acc = {self.uconst()};\n{body}"
             f"  return acc + x * 3u + y + (unsigned)z;\n}}\n\n")
        self.helpers.append(name)
        self.ctx = 'kernel'
        return s

    def program(self):
        hs = "".join(self.helper(i) for i in range(self.r(3)))
        body = ""
        for _ in range(2 + self.r(4)):
            k = self.r(10)
            if k < 5: body += self.block("  ", 1 + self.r(3))
            elif k < 8: body += self.conv_warp("  ")
            else: body += self.shared_item("  ")
        body += "  __syncthreads();\n"
        body += "".join(f"  r{j} += sacc[{(j * 3) % NS}];\n" for j in range(0, K, 2))
        self.phase = 'B'
        if self.r(3):
            body += self.block("  ", 1 + self.r(4))
        emit = "".join(f"out[tid * {K} + {j}] = r{j}; " for j in range(K))
        src = ("#include <cuda_fp16.h>\n" if WIDE else "") + f"""#define EMIT() do {{ {emit}}} while (0)
{hs}extern "C" __global__ void fz(const unsigned *in, const float *fin, const int *sm, unsigned *out, int n) {{
  __shared__ unsigned sh[1024];
  __shared__ unsigned sacc[{NS}];
  unsigned ltid = threadIdx.x + threadIdx.y * blockDim.x;
  unsigned bsize = blockDim.x * blockDim.y;
  int tid = (int)(blockIdx.x * bsize + ltid);
  unsigned lane = ltid & 31u;
  unsigned FM = __activemask();
  unsigned *gacc = out + n * {K};
  unsigned a = in[tid], b = in[(tid * 7 + 3) % n], c = (unsigned)sm[tid];
  int s = sm[(tid * 5 + 1) % n], t = (int)in[(tid + 11) % n];
  float f = fin[tid], g = fin[(tid * 3 + 2) % n];
  unsigned long long w = ((unsigned long long)in[(tid + 1) % n] << 32) | b;
  unsigned r0 = 0u, r1 = 0u, r2 = 0u, r3 = 0u, r4 = 0u, r5 = 0u;
  if (ltid < {NS}u) sacc[ltid] = 0u;
  __syncthreads();
{body}  EMIT();
}}
"""
        return src


def write_kernel(seed, d):
    """OUTDIR/k.cu and OUTDIR/k.spec for `seed`."""
    g = G(seed)
    src = g.program()
    R = random.Random(seed * 7919 + 1)
    grid = R.choice([1, 2, 3, 4, 5])
    blk = R.choice([[32], [64], [96], [50], [33], [128], [7], [100], [256], [16, 6], [8, 5],
                    [40, 3], [31], [65], [160]])
    T = grid
    for x in blk:
        T *= x
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, "k.cu"), "w").write(src)
    spec = f"""workload fz{seed}
source k.cu
variants independent
seed {seed}
buffer in  u32 {T} random_bits
buffer fin f32 {T} uniform_real -{R.choice([2, 100, 1000, 5e6])} {R.choice([2, 100, 1000, 5e6])}
buffer sm  i32 {T} uniform_int -{R.choice([3, 20, 1000])} {R.choice([3, 20, 1000])}
buffer out u32 {T * K + NG} zero
check out
variant v
  kernel fz
  grid {grid}
  block {' '.join(map(str, blk))}
  args in fin sm out {T}
"""
    open(os.path.join(d, "k.spec"), "w").write(spec)


def run_model(ws, d, model):
    """(exit code, last error line) of one model's run; its outputs in d/model/."""
    p = subprocess.run([ws, "sim", os.path.join(d, "k.spec"), "--model", model, "--no-db",
                        "--quiet", "--threads", "1", "--dump", os.path.join(d, model)],
                       capture_output=True, text=True, timeout=300)
    err = [l for l in p.stderr.splitlines() if l.startswith("warpscope:")]
    return p.returncode, err[-1] if err else ""


def main():
    global ACTIVEMASK, NOCAS, WIDE
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("warpscope", nargs="?")
    ap.add_argument("--write", metavar="DIR", help="only write the kernels into DIR")
    ap.add_argument("--no-cas", action="store_true", help="no CAS retry loops")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--keep", help="folder for every kernel (default: a temporary one)")
    ap.add_argument("--activemask", action="store_true")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--wide-types", action="store_true",
                    help="double and half expressions too (changes every seed's kernel)")
    a = ap.parse_args()
    ACTIVEMASK, NOCAS, WIDE = a.activemask, a.no_cas, a.wide_types
    if a.write:
        for seed in range(a.seed, a.seed + a.count):
            write_kernel(seed, os.path.join(a.write, str(seed)))
        return
    if not a.warpscope:
        ap.error("WARPSCOPE is needed unless --write")
    top = a.keep or tempfile.mkdtemp(prefix="fuzz_models.")
    bad = []
    for seed in range(a.seed, a.seed + a.count):
        d = os.path.join(top, str(seed))
        write_kernel(seed, d)
        rp, ep = run_model(a.warpscope, d, "ptx")
        rs, es = run_model(a.warpscope, d, "sass")
        out = os.path.join("v.out.bin")
        po, so = os.path.join(d, "ptx", out), os.path.join(d, "sass", out)
        if rp or rs:
            verdict = f"fails: ptx {rp} {ep} | sass {rs} {es}"
        elif open(po, "rb").read() != open(so, "rb").read():
            verdict = "outputs differ"
        else:
            verdict = ""
        if verdict:
            bad.append(seed)
        print(f"seed {seed}: {verdict or 'equal'}", flush=True)
    print(f"{a.count} kernels, {len(bad)} with a difference" +
          (f" (seeds {' '.join(map(str, bad))}; sources in {top})" if bad else ""))
    if not bad and not a.keep:
        shutil.rmtree(top, ignore_errors=True)
    sys.exit(1 if a.check and bad else 0)


if __name__ == "__main__":
    main()
