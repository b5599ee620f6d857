#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make bench, scale part: a barrier and a one-packet allreduce (32 u64 per rank) on machines
# from 8x8x8 up to Blue Gene/L's full 64x32x32 (65,536 nodes), each verified, with the
# host memory per node and the wall time.
# Usage: scripts/bench_scale.sh BUILD_DIR
# SCALE_SHAPES: the shapes (default "8x8x8 16x16x16 32x32x16 32x32x32 64x32x32").
# Run as root, it raises vm.max_map_count for the big machines (raise_map_count).
set -euo pipefail
source "$(dirname "$0")/bench_lib.sh"
build=${1:-build}
collnet="$build/collnet"
out="$build/bench/scale"
mkdir -p "$out"
shapes=${SCALE_SHAPES:-"8x8x8 16x16x16 32x32x16 32x32x32 64x32x32"}

echo "## Whole machines up to 64x32x32: barrier and one-packet allreduce"
echo
raise_map_count
echo
echo "| torus | nodes | collective | cycles | verified | wall seconds | peak memory (MB) | memory per node (KB) |"
echo "|---|---|---|---|---|---|---|---|"


for t in $shapes; do
  for spec in "barrier" "allreduce --count 32"; do
    set -- $spec
    name="${t}_$1"
    nodes=$(echo "$t" | awk -F x '{ print $1 * $2 * $3 }')
    if /usr/bin/time -f "%M %e" -o "$out/$name.time" "$collnet" run "$@" --torus "$t" --json "$out/$name.json" \
         > "$out/$name.out" 2> "$out/$name.err"; then
      read -r kb wall < "$out/$name.time"
      awk -v t="$t" -v n="$nodes" -v c="$1" -v cy="$(field "$out/$name.json" cycles)" -v v="$(field "$out/$name.json" verified)" \
          -v w="$wall" -v kb="$kb" \
        'BEGIN { printf "| %s | %d | %s | %d | %s | %.1f | %.0f | %.1f |\n", t, n, c, cy, v, w, kb / 1024, kb / n }'
    else
      echo "| $t | $nodes | $1 | - | refused or failed: $(grep -v '^$' "$out/$name.err" | grep -v '^Command' | head -1 | cut -c1-200) | | | |"
    fi
  done
done
echo
