#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make bench: one machine in one process and in two partitions (docs/partitions.md), side
# by side: an allreduce of 8192 u64 on 8x8x8 and an alltoall of 1 KiB per pair (128 u64)
# on 4x4x4, each run PARTITIONS_RUNS times (default 3) alternately with 1 and 2 partitions;
# then uniform torus traffic at 0.2 on 8x8x8 on one thread, on two threads (--threads 2)
# and in two partitions, in turn.
# Wall time of the whole command (the launch of the processes included), the median with
# the range; the speedup is one process's median over two partitions'. Each pair's JSON
# must agree apart from host times (the run is the same cycle for cycle), and the cycle
# counts are printed beside.
# Usage: scripts/bench_partitions.sh [BUILD_DIR]
set -euo pipefail
source "$(dirname "$0")/bench_lib.sh"
build=${1:-build}
collnet="$build/collnet"
runs=${PARTITIONS_RUNS:-3}
out="$build/bench/partitions"
mkdir -p "$out"

median_range() {  # the median and the range of the numbers on standard input
  sort -g | awk '{ v[NR] = $1 } END { printf "%.2f (%.2f to %.2f)", v[int((NR + 1) / 2)], v[1], v[NR] }'
}

echo "## One machine in two partitions against one process ($(nproc) cores)"
echo
echo "| workload | cycles | one process, s | 2 partitions, s | speedup | required | waiting in the exchanges, s |"
echo "|---|---|---|---|---|---|---|"
while IFS='|' read -r name args; do
  : >"$out/one.times"
  : >"$out/two.times"
  for ((i = 0; i < runs; i++)); do
    for p in 1 2; do
      t0=$(date +%s.%N)
      # shellcheck disable=SC2086
      "$collnet" run $args --partitions "$p" --json "$out/p$p.json" </dev/null >/dev/null
      awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN { print a - b }' >>"$out/$([ "$p" = 1 ] && echo one || echo two).times"
    done
    python3 - "$out/p1.json" "$out/p2.json" <<'EOF'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
for j in (a, b):
    j.pop("wall_seconds", None)
    j.pop("partitions", None)
if a != b:
    sys.exit("bench_partitions: one process and two partitions disagree")
EOF
  done
  one=$(median_range <"$out/one.times")
  two=$(median_range <"$out/two.times")
  waits=$(python3 -c "import json; print(', '.join('%.2f' % p['sync_seconds'] for p in json.load(open('$out/p2.json'))['partitions']['each']))")
  awk -v n="$name" -v c="$(field "$out/p1.json" cycles)" -v one="$one" -v two="$two" -v w="$waits" \
    'BEGIN { s = one / two; printf "| %s | %d | %s | %s | %.2fx | >= 1.7x%s | %s |\n", n, c, one, two, s, (s >= 1.7 ? "" : " (UNDER)"), w }'
done <<'EOF'
allreduce 8192 u64, 8x8x8|allreduce --torus 8x8x8 --count 8192
alltoall 1 KiB per pair, 4x4x4|alltoall --torus 4x4x4 --count 128
EOF
echo

echo "## Torus traffic: two partitions against two threads ($(nproc) cores)"
echo
traffic_args="traffic --torus 8x8x8 --rate 0.2 --cycles 5000 --warmup 500"
: >"$out/t1.times"
: >"$out/t2.times"
: >"$out/tp.times"
for ((i = 0; i < runs; i++)); do
  for how in 1 2 p; do
    case $how in
      1) extra="" ;;
      2) extra="--threads 2" ;;
      p) extra="--partitions 2" ;;
    esac
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086
    "$collnet" $traffic_args $extra --json "$out/t$how.json" </dev/null >/dev/null
    awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN { print a - b }' >>"$out/t$how.times"
  done
  python3 - "$out/t1.json" "$out/t2.json" "$out/tp.json" <<'EOF'
import json, sys
runs = [json.load(open(p)) for p in sys.argv[1:]]
for j in runs:
    for key in ("wall_seconds", "partitions", "sim_cycles_per_second", "node_cycles_per_second", "threads"):
        j.pop(key, None)
if runs[0] != runs[1] or runs[0] != runs[2]:
    sys.exit("bench_partitions: traffic on one thread, two threads and two partitions disagree")
EOF
done
t1=$(median_range <"$out/t1.times")
t2=$(median_range <"$out/t2.times")
tp=$(median_range <"$out/tp.times")
echo "| uniform 0.2, 8x8x8, $(field "$out/t1.json" simulated_cycles) cycles | s | speedup over one thread |"
echo "|---|---|---|"
awk -v t1="$t1" -v t2="$t2" -v tp="$tp" 'BEGIN {
  printf "| one thread | %s | 1.00x |\n", t1
  printf "| --threads 2 | %s | %.2fx |\n", t2, t1 / t2
  printf "| --partitions 2 | %s | %.2fx%s |\n", tp, t1 / tp, ((t1 / tp >= t1 / t2) ? "" : " (UNDER --threads 2)")
}'
echo
