#!/bin/sh
# test_cli_launch.sh — launch sequences end to end (`launch`, `repeat`, `while`, `set`,
# `end`) on real nvcc PTX, in both simulator models: outputs against files written here,
# loop variables in args and grids, a device flag read back by `while`, per-launch rows in
# the database and the JSON, each spec error as one spec:line, and a failing variant that
# does not stop the next one (non-zero exit at the end; --fail-fast stops at once).
# usage: test_cli_launch.sh PATH/TO/warpscope
ws=$1
. "$(dirname "$0")/cli_lib.sh"
db=$tmp/l.db

cat > "$tmp/seq.cu" <<'CU'
__global__ void add1(int *a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) a[i] += 1; }
__global__ void addk(int *a, int n, int k) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) a[i] += k; }
__global__ void mark(int *a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) a[i] = a[i] * 2 + blockIdx.x; }
__global__ void halve(int *c, int *trips) { if (threadIdx.x == 0) { c[0] /= 2; trips[0] += 1; } }
__global__ void oob(int *a, int n) { a[n + 4096 + threadIdx.x] = 1; }
__device__ int counter = 10;
__global__ void bump(int *t) { if (threadIdx.x == 0) { counter += 1; t[0] = counter; } }
CU
# The expected contents: a = iota + R (R launches of add1), trips = 7 (100 halves to 0 in 7).
python3 - "$tmp" <<'PY'
import struct, sys
d = sys.argv[1]
open(d + "/rep.bin", "wb").write(struct.pack("1000i", *[i + 6 for i in range(1000)]))
PY
head() { # the common spec head
  printf 'workload seq\nsource seq.cu\nconst N = 1000\nconst R = 5\n'
  printf 'buffer a i32 N iota 0 1\nbuffer c i32 1 const 100\nbuffer t i32 1 zero\n'
}
{ head; cat <<'EOF2'
check a file rep.bin
variant rep
  launch add1 grid (N+127)/128 block 128 args a N
  repeat R
    launch add1 grid (N+255)/256 block 256 args a N
  end
EOF2
} > "$tmp/rep.spec"
{ head; cat <<'EOF2'
variant nested
  repeat 3 as I
    repeat I+1 as J
      launch addk grid (N+63)/64,1 block 64 args a N (I*10)+J
    end
  end
  repeat 2 as G
    launch mark grid 1+G block N/(1+G)+1 args a N
  end
EOF2
} > "$tmp/nested.spec"
{ head; cat <<'EOF2'
check t
check c
variants independent
variant halve
  set c[0] = 100
  while c[0] != 0 max 20 as T
    launch halve grid 1 block 32 args c t
  end
variant equal
  set c[0] = 1
  while c[0] == 1 max 5
    launch halve grid 1 block 32 args c t
  end
EOF2
} > "$tmp/halve.spec"
{ head; cat <<'EOF2'
check t
variant carry
  launch bump grid 1 block 32 args t
  repeat 3
    launch bump grid 1 block 32 args t
  end
EOF2
} > "$tmp/carry.spec"

for model in ptx sass; do
  if [ $model = sass ] && ! "$ws" sim "$tmp/rep.spec" --model sass --no-db > "$tmp/probe" 2>&1 &&
     grep -q nvdisasm "$tmp/probe"; then
    echo "test_cli_launch: SASS model skipped: no nvdisasm"
    continue
  fi
  # repeat: 1 + R launches of add1, the outputs equal to the file.
  check '$ws sim "$tmp/rep.spec" --model $model --db "$db" --json > "$tmp/rep.json"' "$model: rep runs"
  check 'python3 - "$tmp/rep.json" <<PY
import json, sys
d = json.load(open(sys.argv[1]))
d = d["runs"][0] if "runs" in d else d
assert d["outputs_checked"] and d["outputs_match"], d["check_message"]
assert [l["kernel"] for l in d["launches"]] == ["add1"] * 6, d["launches"]
assert d["launches"][1]["grid"] == [4, 1, 1] and d["launches"][0]["grid"] == [8, 1, 1]
insts = sum(l["metrics"]["smsp__inst_executed.sum"] for l in d["launches"])
assert d["metrics"]["smsp__inst_executed.sum"] == insts, (insts, d["metrics"])
assert d["metrics"]["sim__ctas"] == 8 + 5 * 4
PY' "$model: repeat gives 6 launches whose counts sum to the variant's"

  # nested loops: loop variables in args, in the grid and in the block.
  check '$ws sim "$tmp/nested.spec" --model $model --no-db --json --dump "$tmp/d$model" > "$tmp/nested.json"' \
        "$model: nested runs"
  check 'python3 - "$tmp/nested.json" "$tmp/d$model/nested.a.bin" <<PY
import json, struct, sys
d = json.load(open(sys.argv[1]))
d = d["runs"][0] if "runs" in d else d
assert [l["vars"] for l in d["launches"]] == ["I=0 J=0", "I=1 J=0", "I=1 J=1", "I=2 J=0",
    "I=2 J=1", "I=2 J=2", "G=0", "G=1"], d["launches"]
assert d["launches"][7]["grid"] == [2, 1, 1] and d["launches"][7]["block"] == [501, 1, 1]
a = struct.unpack("1000i", open(sys.argv[2], "rb").read())
want = [i + 84 for i in range(1000)]
want = [x * 2 for x in want]                          # G=0: one block of 1001
want = [x * 2 + (i // 501) for i, x in enumerate(want)]  # G=1: two blocks of 501
assert list(a) == want, (a[:4], want[:4], a[600], want[600])
PY' "$model: nested loops: values of I, J and G reach args and launch shapes"

  # A __device__ variable keeps its value from launch to launch, as in the GPU's one module:
  # 10 + 4 bumps.
  check '$ws sim "$tmp/carry.spec" --model $model --no-db --dump "$tmp/c$model" > /dev/null' "$model: carry runs"
  check '[ "$(python3 -c "import struct,sys; print(struct.unpack(\"i\", open(sys.argv[1],\"rb\").read())[0])" "$tmp/c$model/carry.t.bin")" = 14 ]' \
        "$model: a __device__ counter carries through the sequence's launches"

  # while on a device flag, after a host `set`: 7 halvings of 100; `==` loops while equal.
  check '$ws sim "$tmp/halve.spec" --model $model --no-db --json --dump "$tmp/h$model" > "$tmp/halve.json"' \
        "$model: halve runs"
  check 'python3 - "$tmp/halve.json" "$tmp/h$model" <<PY
import json, struct, sys
d = {r["variant"]: r for r in json.load(open(sys.argv[1]))["runs"]}
assert len(d["halve"]["launches"]) == 7 and d["halve"]["launches"][6]["vars"] == "T=6"
assert len(d["equal"]["launches"]) == 1 and d["equal"]["launches"][0]["vars"] == ""
t = struct.unpack("i", open(sys.argv[2] + "/halve.t.bin", "rb").read())[0]
c = struct.unpack("i", open(sys.argv[2] + "/halve.c.bin", "rb").read())[0]
assert (t, c) == (7, 0), (t, c)
PY' "$model: while reads the flag back after every trip"
done

# Argument forms of a variant work in launch lines, loop variables in them: a buffer plus
# an offset that moves with the loop.
{ head; cat <<'EOF2'
variant offsets
  repeat 4 as I
    launch add1 grid 1 block 256 args a+(I*250) 250
  end
EOF2
} > "$tmp/offs.spec"
check '$ws sim "$tmp/offs.spec" --model ptx --no-db --dump "$tmp/o" > /dev/null' "offsets runs"
check 'python3 -c "import struct,sys; a=struct.unpack(\"1000i\", open(sys.argv[1],\"rb\").read()); assert list(a)==[i+1 for i in range(1000)], a[:3]" "$tmp/o/offsets.a.bin"' \
      "a+(I*250): each launch adds to its quarter"

# Per-launch rows in the database: one per launch, each with its metrics.
check '[ "$(python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute(\"select count(*) from launches l join runs r on r.id=l.run_id where r.variant=\x27rep\x27\").fetchone()[0])" "$db")" -ge 6 ]' \
      "launches rows stored"
check '[ "$(python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute(\"select count(*) from launch_metrics m join launches l on l.id=m.launch_id where l.launch_index=5 and m.name=\x27smsp__inst_executed.sum\x27\").fetchone()[0])" "$db")" -ge 1 ]' \
      "launch metrics stored"
$ws show 1 --db "$db" > "$tmp/show.txt"
check 'grep -q "launches: 6" "$tmp/show.txt" && grep -q "#5 *add1" "$tmp/show.txt"' "show lists the launches"
check '$ws show 1 --db "$db" --json | python3 -c "import json,sys; assert len(json.load(sys.stdin)[\"launches\"]) == 6"' \
      "show --json has the launches"

# Errors: one line naming the spec and line, non-zero exit, nothing stored.
err_case() { # BODY-LINES WANT-LINE WANT-TEXT
  { head; printf '%b' "$1"; } > "$tmp/e.spec"
  if $ws sim "$tmp/e.spec" --db "$db" --model ptx > /dev/null 2> "$tmp/e.err"; then
    bad "accepted: $3"
  elif [ "$(wc -l < "$tmp/e.err")" -ne 1 ]; then
    bad "not one line: $(cat "$tmp/e.err")"
  elif ! grep -q "e.spec:$2: .*$3" "$tmp/e.err"; then
    bad "want e.spec:$2: ...$3, got: $(cat "$tmp/e.err")"
  else
    ok
  fi
}
runs_before=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from runs').fetchone()[0])" "$db")
err_case 'variant v\n  repeat 3\n    launch add1 grid 1 block 32 args a N\n' 9 "'repeat' is never closed by 'end'"
err_case 'variant v\n  repeat 3\n  launch add1 grid 1 block 32 args a N\nvariant w\n  launch add1 grid 1 block 32 args a N\n' 9 "'repeat' is never closed"
err_case 'variant v\n  launch add1 grid 1 block 32 args a N\n  end\n' 10 "'end' without 'repeat' or 'while'"
err_case 'variant v\n  while c[0] 0 max 3\n  launch halve grid 1 block 32 args c t\n  end\n' 9 "expected 'while BUFFER\[INDEX\] != VALUE max COUNT"
err_case 'variant v\n  while c != 0 max 3\n  launch halve grid 1 block 32 args c t\n  end\n' 9 "'c' is not BUFFER\[INDEX\]"
err_case 'variant v\n  while c[0] != 0 max 3 as\n  launch halve grid 1 block 32 args c t\n  end\n' 9 "expected 'while"
err_case 'variant v\n  set c[0] 5\n  launch halve grid 1 block 32 args c t\n' 9 "expected 'set BUFFER\[INDEX\] = VALUE'"
err_case 'variant v\n  set c[1] = 5\n  launch halve grid 1 block 32 args c t\n' 9 "set c\[1\]: the index is outside the buffer (1 elements)"
err_case 'variant v\n  set q[0] = 5\n  launch halve grid 1 block 32 args c t\n' 9 "set: unknown buffer 'q'"
err_case 'variant v\n  set c[0] = 1\n  while c[0] != 0 max 3 as T\n    launch addk grid 1 block 32 args c 1 0\n  end\n' 10 "while c\[0\] != 0: still going after max 3 trips"
deep='variant v\n'; i=0
while [ $i -lt 9 ]; do deep="$deep  repeat 1\n"; i=$((i+1)); done
err_case "$deep  launch add1 grid 1 block 32 args a N\n" 17 "loops nested more than 8 deep"
err_case 'variant v\n  kernel add1\n  launch add1 grid 1 block 32 args a N\n' 10 "mixes 'launch' lines with 'kernel'"
err_case 'variant v\n  launch add1 grid 1 block 32 args a N\n  grid 4\n' 10 "mixes 'grid' with 'launch' lines (line 9)"
err_case 'variant v\n  kernel add1\n  repeat 2\n' 10 "'repeat' belongs to a sequence of 'launch' lines"
err_case 'repeat 2\n' 8 "'repeat' outside a variant"
err_case 'variant v\n  repeat 2\n  end\n' 8 "variant 'v' has no 'launch' line"
err_case 'variant v\n  launch add1 grid 1 args a N\n' 9 "variant 'v' has no block"
err_case 'variant v\n  launch add1 grid 1 block 32 flags a N\n' 9 "unexpected 'flags'"
err_case 'variant v\n  repeat 2 as N\n  launch add1 grid 1 block 32 args a N\n  end\n' 9 "loop variable 'N' has the name of a constant"
err_case 'variant v\n  repeat 2 as K\n  repeat 2 as K\n  launch add1 grid 1 block 32 args a N\n  end\n  end\n' 10 "loop variable 'K' is already the variable of the loop at line 9"
err_case 'variant v\n  repeat 2 as K\n  launch add1 grid 1 block 32 args a N/K\n  end\n' 10 "division by zero"
err_case 'variant v\n  repeat 2 as K\n  launch add1 grid 1 block 32 args a N J\n  end\n' 10 "unknown buffer or constant 'J'"
err_case 'variant v\n  repeat -1\n  launch add1 grid 1 block 32 args a N\n  end\n' 9 "repeat count -1 is negative"
err_case 'variant v\n  launch add1 grid 1 block 32 args a\n' 9 "launch 0 (add1): variant 'v': kernel _Z4add1Pii takes 2 parameters but the spec gives 1"
runs_after=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from runs').fetchone()[0])" "$db")
check '[ "$runs_after" = "$runs_before" ]' "failed runs store nothing"

# A failing variant does not stop the next: its error is printed, the next one runs and
# is stored, the exit is non-zero; with --fail-fast the first failure ends the command.
{ head; cat <<'EOF2'
variant bad
  launch add1 grid 1 block 32 args a N
  launch oob grid 1 block 32 args a N
variant good
  repeat 2
    launch add1 grid 8 block 128 args a N
  end
variant bad2
  launch oob grid 1 block 32 args a N
EOF2
} > "$tmp/iso.spec"
rm -f "$tmp/iso.db"
$ws sim "$tmp/iso.spec" --db "$tmp/iso.db" --model ptx > "$tmp/iso.out" 2> "$tmp/iso.err"
check '[ $? -ne 0 ]' "a failed variant makes the exit non-zero"
check 'grep -q "^warpscope: .*launch 1 (oob, iso.spec:10).*out of bounds\|^warpscope: .*launch 1 (oob, iso.spec:10).*past the end" "$tmp/iso.err"' \
      "the failing launch is named: $(head -n 1 "$tmp/iso.err")"
check 'grep -q "seq: 2 variants failed (the first: .bad.; the errors are above)" "$tmp/iso.err"' \
      "the closing error counts the failures: $(tail -n 1 "$tmp/iso.err")"
check 'grep -q "seq / good" "$tmp/iso.out"' "the next variant still runs"
check '[ "$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(\"select group_concat(variant) from runs\").fetchone()[0])" "$tmp/iso.db")" = good ]' \
      "only the good variant is stored"
rm -f "$tmp/iso.db"
$ws sim "$tmp/iso.spec" --db "$tmp/iso.db" --model ptx --fail-fast > "$tmp/iso.out" 2> "$tmp/iso.err"
check '[ $? -ne 0 ] && [ "$(wc -l < "$tmp/iso.err")" -eq 1 ]' "--fail-fast: one error line, non-zero exit"
check '! grep -q "seq / good" "$tmp/iso.out"' "--fail-fast stops at the first failure"

# A flag that threads set races in every launch of a host loop: one warning for the loop,
# not one a launch (each launch finds other lanes racing between the same two stores).
cat > "$tmp/flag.cu" <<'CU'
__global__ void flag(int *f, int k) { if ((threadIdx.x + k) % 5 == 0) f[0] = 1; }
CU
printf 'workload flagloop\nsource flag.cu\nbuffer f i32 1 zero\nvariant v\n  repeat 6 as K\n    launch flag grid 2 block 64 args f K\n  end\n' > "$tmp/flag.spec"
for model in ptx sass; do
  $ws sim "$tmp/flag.spec" --no-db --model $model > "$tmp/flag.out" 2>&1
  grep -q nvdisasm "$tmp/flag.out" && continue # no SASS model here (said above)
  check '[ "$(grep -c "warning: race" "$tmp/flag.out")" -eq 1 ]' \
        "$model: one race warning for 6 launches, not $(grep -c "warning: race" "$tmp/flag.out")"
done

# Old single-launch specs print exactly what they printed (no launch rows, no new lines).
$ws sim "$tmp/rep.spec" --no-db --model ptx --json > /dev/null
check '$ws sim predication --no-db --model ptx --json | python3 -c "import json,sys; d=json.load(sys.stdin); assert all(\"launches\" not in r for r in d[\"runs\"])"' \
      "single-launch runs have no launches in JSON"

echo "test_cli_launch: $pass passed, $fail failed"
[ $fail -eq 0 ]
