#!/usr/bin/env bash
# make bench: measured collective cycles and simulator speed, printed as Markdown tables.
# Usage: scripts/bench.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
collnet="$build/collnet"
out="$build/bench"
mkdir -p "$out"

field() {  # field FILE KEY -> value of a top-level JSON number/bool
  grep -o "\"$2\": *[^,}]*" "$1" | head -1 | sed 's/.*: *//'
}

run() {  # run NAME ARGS... -> writes $out/NAME.json
  local name=$1
  shift
  "$collnet" run "$@" --json "$out/$name.json" >/dev/null
}

echo "## One-packet allreduce (32 u64 per rank, sum), link latency 4"
echo
echo "| torus | nodes | tree depth | cycles | 2 x depth x hop (hop = 5) + 33 | overhead |"
echo "|---|---|---|---|---|---|"
for t in 1x1x1 2x2x1 2x2x2 4x4x2 4x4x4 8x4x4 8x8x4 8x8x8; do
  run "one_$t" allreduce --torus "$t" --count 32
  f="$out/one_$t.json"
  c=$(field "$f" cycles)
  d=$(field "$f" tree_depth)
  model=$((2 * d * 5 + 33))
  echo "| $t | $(field "$f" nodes) | $d | $c | $model | $((c - model)) |"
done
echo

echo "## Barrier on the barrier network (ranks arrive at seeded times), link latency 4"
echo
echo "| torus | nodes | tree depth | cycles from the last arrival to the last departure | bound 2 x depth x (L + 2) + 20 |"
echo "|---|---|---|---|---|"
for t in 2x2x2 4x4x4 8x8x8; do
  run "barrier_$t" barrier --torus "$t"
  f="$out/barrier_$t.json"
  d=$(field "$f" tree_depth)
  echo "| $t | $(field "$f" nodes) | $d | $(field "$f" cycles) | $((2 * d * 6 + 20)) |"
done
echo

echo "## Allreduce bandwidth on 4x4x4 (sum, u64)"
echo
echo "| count | bytes per rank | cycles | bytes per cycle per rank | flits per cycle |"
echo "|---|---|---|---|---|"
for n in 32 256 1024 8192 32768 131072; do
  run "bw_$n" allreduce --torus 4x4x4 --count "$n"
  f="$out/bw_$n.json"
  c=$(field "$f" cycles)
  awk -v n="$n" -v c="$c" 'BEGIN { printf "| %d | %d | %d | %.2f | %.3f |\n", n, n * 8, c, n * 8 / c, n / c }'
done
echo

echo "## Simulator speed (allreduce of 32768 u64, no tracing)"
echo
echo "| torus | nodes | simulated cycles | wall seconds | cycles/s | node-cycles/s |"
echo "|---|---|---|---|---|---|"
for t in 4x4x4 8x8x8; do
  run "speed_$t" allreduce --torus "$t" --count 32768
  f="$out/speed_$t.json"
  awk -v t="$t" -v n="$(field "$f" nodes)" -v c="$(field "$f" sim_cycles)" -v w="$(field "$f" wall_seconds)" \
    'BEGIN { printf "| %s | %d | %d | %.3f | %.0f | %.3g |\n", t, n, c, w, c / w, n * c / w }'
done
