#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make bench, point-to-point: ping-pong latency and bandwidth (collnet run pingpong) and an
# alltoall against the bound the torus allows, printed as Markdown tables.
# Usage: scripts/bench_p2p.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
collnet="$build/collnet"
out="$build/bench"
mkdir -p "$out"

size_field() {  # size_field FILE BYTES KEY -> KEY of the row for BYTES
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print([r for r in d['sizes'] if r['bytes']==int(sys.argv[2])][0][sys.argv[3]])" "$@"
}

echo "## Ping-pong on 4x4x4 (collnet run pingpong), one way"
echo
echo "Hop model for an eager word: 12 cycles at the two ends + 5 per hop (link latency 4 + the router's output register)."
echo
echo "| pair | hops | 0 bytes | hop model | 1 MiB, of one link's rate | required |"
echo "|---|---|---|---|---|---|"
for pair in "0,1 1 0.90" "0,21 3 1.50"; do
  set -- $pair
  "$collnet" run pingpong --torus 4x4x4 --ranks "$1" --sizes 0,1M --json "$out/pingpong_$2.json" >/dev/null
  lat=$(size_field "$out/pingpong_$2.json" 0 cycles_one_way)
  frac=$(size_field "$out/pingpong_$2.json" 1048576 link_fraction)
  model=$((12 + 5 * $2))
  met=$(python3 -c "print('' if $frac >= $3 else ' (UNMET)')")
  printf '| %s | %s | %.0f | %s | %.2f | %s%s |\n' "$1" "$2" "$lat" "$model" "$frac" "$3" "$met"
done
echo

echo "## Alltoall of 4 KiB per pair on 4x4x4"
echo
echo "Bound: 63 x 4096 bytes into each node through two reception FIFOs of a flit per cycle (31 data words per 33 flits): 17170 cycles."
echo
echo "| cycles | of the bound | required |"
echo "|---|---|---|"
"$collnet" run alltoall --torus 4x4x4 --count 512 --json "$out/alltoall_4k.json" >/dev/null
c=$(python3 -c "import json; print(json.load(open('$out/alltoall_4k.json'))['cycles'])")
frac=$(python3 -c "print(f'{17170 / $c:.2f}')")
met=$(python3 -c "print('' if $frac >= 0.6 else ' (UNMET)')")
echo "| $c | $frac | 0.60$met |"
echo
