#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make bench, auto's table: every collective with a choice of algorithm, on each machine of
# TUNING_SHAPES (default "2x2x2 4x4x4"), at every power of two from 4 B to 64 KiB per rank,
# the reductions (reduce, allreduce, scan, exscan) at each type class's type (i32, i64,
# f32; driver/tuning.hpp) and the others at u64: `collnet compare --prune 2` per collective
# and type, TUNING_JOBS (default 2) at once. It prints, per machine, how far auto is from
# the fastest algorithm at every point (within 10% is the mark) and writes the tuning
# table those measurements give (`collnet tune --from`) to $BUILD/bench/tuning-SHAPE.json:
# copy it to driver/tuning/ and run scripts/tuning_to_cpp.py to ship it.
# On 8x8x8 only bcast, reduce and allreduce go to 64 KiB, the others to 1 KiB
# (PERSONAL_UP_TO overrides the largest size of the personalised and gathering
# collectives on every machine: alltoall of 64 KiB per pair on 4x4x4 alone takes hours).
# Measured on a 2-core host: 2x2x2 in 4 minutes; 4x4x4 with PERSONAL_UP_TO=16k in about
# 45 minutes of both cores, most of it the float scans' (the tree's prefix of floats).
# TUNING_COLLECTIVES="allreduce bcast" measures only those; TUNING_RESUME=1 keeps the
# tables an interrupted run finished (newer than the collnet binary) and runs the rest.
# Usage: scripts/bench_tuning.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
collnet="$build/collnet"
shapes=${TUNING_SHAPES:-2x2x2 4x4x4}
jobs=${TUNING_JOBS:-2}
out="$build/bench/tuning"
mkdir -p "$out"

grid() {  # grid UP_TO: the powers of two from 4 bytes up to UP_TO
  python3 -c "
import sys
units = {'k': 1024, 'M': 1 << 20}
t = sys.argv[1]
top = int(t[:-1]) * units[t[-1]] if t[-1] in units else int(t)
s, n = [], 4
while n <= top:
    s.append(str(n)); n *= 2
print(','.join(s))" "$1"
}

only=${TUNING_COLLECTIVES:-}
wanted() { [[ -z $only || " $only " == *" $1 "* ]]; }

for shape in $shapes; do
  [[ -n ${TUNING_RESUME:-} ]] || rm -f "$out/$shape"-*.json
  # One line per compare run: collective type sizes. The longest first, so the jobs end together.
  specs=()
  for c in alltoall scatter allgather allgatherv gather; do
    up=64k
    [[ $shape == 8x8x8 ]] && up=1k
    up=${PERSONAL_UP_TO:-$up}
    specs+=("$c u64 $(grid "$up")")
  done
  for c in allreduce reduce scan exscan; do
    for t in i32 i64 f32; do
      up=64k
      [[ $shape == 8x8x8 && $c == *scan ]] && up=1k
      specs+=("$c $t $(grid $up)")
    done
  done
  specs+=("bcast u64 $(grid 64k)" "barrier u64 0")
  todo=()
  for spec in "${specs[@]}"; do
    set -- $spec
    wanted "$1" || continue
    f="$out/$shape-$1-$2.json"
    [[ -n ${TUNING_RESUME:-} && -f $f && $f -nt $collnet ]] && continue
    todo+=("$spec")
  done
  start=$(date +%s)
  ((${#todo[@]})) && printf "%s $shape $out\n" "${todo[@]}" | xargs -P "$jobs" -L 1 sh -c \
    '"$0" compare "$1" --type "$2" --sizes "$3" --torus "$4" --prune 2 --json "$5/$4-$1-$2.json" >/dev/null ||
     echo "collnet compare $1 --type $2 on $4 failed" >&2' "$collnet"
  echo "## auto against the fastest algorithm on $shape ($(($(date +%s) - start)) s)"
  echo
  python3 - "$out" "$shape" <<'PY'
import glob, json, sys
out, shape = sys.argv[1], sys.argv[2]
rows, over = [], 0
for path in sorted(glob.glob(f"{out}/{shape}-*.json")):
    d = json.load(open(path))
    for r in d["rows"]:
        best = r.get("fastest")
        auto = r.get("auto", {})
        if best is None or auto.get("cycles") is None:
            rows.append((d["collective"], d["type"], r["bytes"], "failed", "", "", ""))
            continue
        b = r["cycles"][best]
        ratio = auto["cycles"] / b if b else 1.0
        flag = "" if ratio <= 1.10 else " (over 1.10)"
        over += ratio > 1.10
        rows.append((d["collective"], d["type"], r["bytes"], f"{best} {b}", f"{auto['algorithm']} {auto['cycles']}",
                     f"{ratio:.2f}{flag}", ", ".join(r.get("pruned", []))))
print("| collective | type | bytes | fastest (cycles) | auto (cycles) | auto / fastest | pruned |")
print("|---|---|---|---|---|---|---|")
for row in rows:
    print("| " + " | ".join(str(x) for x in row) + " |")
print(f"\n{len(rows)} points, {over} with auto more than 10% over the fastest")
PY
  "$collnet" tune --torus "$shape" --from "$out/$shape"-*.json --output "$build/bench/tuning-$shape.json" | tail -1
  echo
done
