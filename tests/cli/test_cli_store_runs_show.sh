#!/bin/sh
# test_cli_store_runs_show.sh — `warpscope runs` and `warpscope show` over a database that
# `warpscope sim --db` wrote, their --json forms, every error a user can see from them, and
# two `warpscope sim --db same.db` processes at once. Usage: test_cli_store_runs_show.sh WARPSCOPE
set -u
WS=${1:?usage: $0 path/to/warpscope}
T=${TMPDIR:-/tmp}/ws-cli-store.$$
mkdir -p "$T"
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "check failed: $*" >&2; }
# expect DESCRIPTION COMMAND...: the command succeeds
expect() { d=$1; shift; if "$@"; then ok; else bad "$d"; fi; }

DB=$T/w.db
W=divergence_examples

# --- a real run, stored by sim
"$WS" sim $W --variant tid_eq_0 --db "$DB" --quiet > "$T/sim.out" 2> "$T/sim.err"
expect "sim --db exits 0 ($(cat "$T/sim.err"))" [ $? -eq 0 ]
"$WS" sim $W --variant warp_uniform --db "$DB" --quiet > /dev/null 2>&1
expect "second sim exits 0" [ $? -eq 0 ]

# --- runs: the table lists both, newest last
"$WS" runs --db "$DB" > "$T/runs.out" 2>&1
expect "runs exits 0" [ $? -eq 0 ]
expect "runs has a header" grep -q "^ *id  when (UTC) .*exec %.*outputs" "$T/runs.out"
expect "runs lists run 1" grep -q "^ *1  .*sim:[a-z]* .*$W .*tid_eq_0" "$T/runs.out"
expect "runs lists run 2" grep -q "^ *2  .*sim:[a-z]* .*$W .*warp_uniform" "$T/runs.out"
expect "runs shows 3 lines" [ "$(wc -l < "$T/runs.out")" -eq 3 ]
# the rate printed equals the database's (computed here with the sqlite3 shell)
if command -v sqlite3 > /dev/null 2>&1; then
    want=$(sqlite3 "$DB" "select printf('%.1f', 100.0*execution_rate) from kernel_summary where run_id=1")
    expect "runs rate of run 1 is $want" grep -q "^ *1  .* $want  " "$T/runs.out"
    lines=$(sqlite3 "$DB" "select count(*) from line_stats where run_id = 1")
    expect "line_stats has rows for run 1 ($lines)" [ "$lines" -gt 0 ]
else
    echo "skipped: no sqlite3 shell"
fi

# --- runs --json parses and holds both runs
"$WS" runs --db "$DB" --json > "$T/runs.json"
expect "runs --json exits 0" [ $? -eq 0 ]
if command -v python3 > /dev/null 2>&1; then
    expect "runs --json is a list of 2 runs" python3 -c "
import json,sys; r=json.load(open(sys.argv[1]))
assert [x['id'] for x in r]==[1,2], r
assert r[0]['workload']=='$W' and r[0]['variant']=='tid_eq_0'
assert 0 < r[0]['execution_rate'] <= 1" "$T/runs.json"
fi

# --- show: description, metrics, regions, hottest lines
"$WS" show 1 --db "$DB" > "$T/show.out" 2>&1
expect "show exits 0" [ $? -eq 0 ]
expect "show names the run" grep -q "^run 1  sim:[a-z]*" "$T/show.out"
expect "show has the workload" grep -q "workload  $W, variant tid_eq_0" "$T/show.out"
expect "show has metrics" grep -q "smsp__inst_executed.sum" "$T/show.out"
expect "show has regions" grep -q "^regions (" "$T/show.out"
expect "show has hottest lines" grep -q "^hottest lines (top" "$T/show.out"
expect "show has a .cu line" grep -q "divergence_examples.cu:[0-9]" "$T/show.out"
"$WS" show 1 --db "$DB" --json > "$T/show.json"
expect "show --json exits 0" [ $? -eq 0 ]
if command -v python3 > /dev/null 2>&1 && command -v sqlite3 > /dev/null 2>&1; then
    issued=$(sqlite3 "$DB" "select cast(value as integer) from metrics where run_id=1 and name='smsp__inst_executed.sum'")
    expect "show --json metrics equal the database's ($issued)" python3 -c "
import json,sys; s=json.load(open(sys.argv[1]))
assert s['id']==1 and s['variant']=='tid_eq_0'
assert int(s['metrics']['smsp__inst_executed.sum'])==$issued, s['metrics']
assert len(s['hot_lines'])>0 and len(s['hot_lines'])<=15
assert s['hot_lines'][0]['issued'] >= s['hot_lines'][-1]['issued']" "$T/show.json"
fi

# --- errors: one clear line, non-zero exit
err_case() { # DESCRIPTION EXPECTED_RC EXPECTED_TEXT COMMAND...
    d=$1; want_rc=$2; want=$3; shift 3
    "$@" > "$T/e.out" 2> "$T/e.err"
    rc=$?
    if [ $rc -eq "$want_rc" ] && grep -qF -- "$want" "$T/e.err"; then ok; else
        bad "$d: rc $rc (want $want_rc), stderr: $(cat "$T/e.err")"; fi
}
err_case "missing run" 1 "warpscope: no run 42 in $DB (runs: 1-2)" "$WS" show 42 --db "$DB"
err_case "missing db" 1 "warpscope: no database $T/none.db" "$WS" runs --db "$T/none.db"
expect "missing db not created" [ ! -e "$T/none.db" ]
err_case "missing db (show)" 1 "warpscope: no database $T/none.db" "$WS" show 1 --db "$T/none.db"
echo "just some text, not a database at all, long enough to have a header......" > "$T/text.db"
err_case "text file" 1 "$T/text.db is not a warpscope database" "$WS" runs --db "$T/text.db"
err_case "text file (show)" 1 "$T/text.db is not a warpscope database" "$WS" show 1 --db "$T/text.db"
if command -v sqlite3 > /dev/null 2>&1; then
    sqlite3 "$T/other.db" "create table t(x)"
    err_case "foreign db" 1 "is an SQLite database but not a warpscope one" "$WS" runs --db "$T/other.db"
fi
err_case "show without RUN" 2 "show: which run?" "$WS" show --db "$DB"
err_case "show bad RUN" 2 "RUN must be a run id (a positive integer), not 'x1'" "$WS" show x1 --db "$DB"
err_case "show two RUNs" 2 "unexpected argument '2'" "$WS" show 1 2 --db "$DB"
err_case "runs bad option" 2 "runs: unknown option '--nope'" "$WS" runs --nope
err_case "runs --db without FILE" 2 "runs: --db needs a FILE" "$WS" runs --db
err_case "show --db without FILE" 2 "show: --db needs a FILE" "$WS" show 1 --db
"$WS" runs --help > "$T/help.out"
expect "runs --help" grep -q "usage: warpscope runs" "$T/help.out"
"$WS" show --help > "$T/help.out"
expect "show --help" grep -q "usage: warpscope show RUN" "$T/help.out"

# --- two sim processes on one fresh database at once: both land
C=$T/concurrent.db
"$WS" sim $W --db "$C" --quiet > "$T/c1.out" 2>&1 &
p1=$!
"$WS" sim $W --db "$C" --quiet > "$T/c2.out" 2>&1 &
p2=$!
wait $p1; r1=$?
wait $p2; r2=$?
expect "concurrent sims exit 0 ($(cat "$T/c1.out" "$T/c2.out" | grep warpscope:))" test $r1 -eq 0 -a $r2 -eq 0
"$WS" runs --db "$C" --json > "$T/c.json"
if command -v python3 > /dev/null 2>&1; then
    nv=$("$WS" list 2>/dev/null | awk -v w=$W '$1==w{on=1;next} /^[^ ]/{on=0} on && $1=="variant"{n++} END{print n+0}')
    expect "both sims landed all $nv variants each" python3 -c "
import json,sys; r=json.load(open(sys.argv[1])); assert len(r)==2*$nv and $nv>0, len(r)" "$T/c.json"
fi

# --- a sim killed with SIGKILL leaves the database valid and without a partial run
K=$T/killed.db
"$WS" sim $W --variant tid_eq_0 --db "$K" --quiet > /dev/null 2>&1
"$WS" sim branch_unification -D LOOP=2000 --db "$K" --quiet > /dev/null 2>&1 &
pk=$!
sleep 1
kill -9 $pk 2> /dev/null
wait $pk 2> /dev/null
"$WS" runs --db "$K" --json > "$T/k.json" 2> "$T/k.err"
expect "runs after a killed sim exits 0 ($(cat "$T/k.err"))" [ $? -eq 0 ]
if command -v sqlite3 > /dev/null 2>&1; then
    expect "integrity_check ok after kill" [ "$(sqlite3 "$K" 'pragma integrity_check')" = ok ]
    # a run row without its instructions or metrics would be a partial run
    partial=$(sqlite3 "$K" "select count(*) from runs r where not exists (select 1 from instructions i where i.run_id = r.id) or not exists (select 1 from metrics m where m.run_id = r.id)")
    expect "no partial run after kill ($partial)" [ "$partial" -eq 0 ]
    expect "earlier run intact" [ "$(sqlite3 "$K" "select count(*) from instructions where run_id = 1")" -gt 0 ]
fi

echo "cli_store: $pass passed, $fail failed"
[ $fail -eq 0 ]
