#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make bench: one machine in one process and in two partitions (docs/partitions.md), side
# by side: an allreduce of 8192 u64 on 8x8x8 and an alltoall of 1 KiB per pair (128 u64)
# on 4x4x4, each run PARTITIONS_RUNS times (default 3) alternately with 1 and 2 partitions.
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
