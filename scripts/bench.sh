#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make bench: measured collective cycles on the combining network and simulator speed,
# printed as Markdown tables (scripts/bench_algorithms.sh has the torus algorithms).
# Usage: scripts/bench.sh [BUILD_DIR]
set -euo pipefail
source "$(dirname "$0")/bench_lib.sh"
build=${1:-build}
collnet="$build/collnet"
out="$build/bench"
mkdir -p "$out"


run() {  # run NAME ARGS... -> writes $out/NAME.json; on the combining network, whatever auto picks
  local name=$1
  shift
  "$collnet" run "$@" --algorithm tree --json "$out/$name.json" >/dev/null
}

echo "## One-packet allreduce (32 u64 per rank, sum), link latency 4"
echo
echo "Per-hop latency 5 cycles (link latency + 1 register); a packet is 33 flits (header + 32)."
echo
echo "| torus | nodes | tree depth | cycles | 2 x depth x hop + 33 | overhead | bound 2 x depth x hop + 2 x 33 + 64 |"
echo "|---|---|---|---|---|---|---|"
for t in 1x1x1 2x2x1 2x2x2 4x4x2 4x4x4 8x4x4 8x8x4 8x8x8; do
  run "one_$t" allreduce --torus "$t" --count 32
  f="$out/one_$t.json"
  c=$(field "$f" cycles)
  d=$(field "$f" tree_depth)
  model=$((2 * d * 5 + 33))
  bound=$((2 * d * 5 + 66 + 64))
  ok=$([ "$c" -le "$bound" ] && echo "" || echo " (OVER)")
  echo "| $t | $(field "$f" nodes) | $d | $c | $model | $((c - model)) | $bound$ok |"
done
echo

echo "## Gather by OR and scan by parallel-prefix broadcast on 4x4x4 (64 ranks, u64)"
echo
echo "| collective | cycles | reference | reference cycles | ratio | required |"
echo "|---|---|---|---|---|---|"
run gather_32 gather --torus 4x4x4 --count 32
run allreduce_64 allreduce --torus 4x4x4 --count 64
run scan_1 scan --torus 4x4x4 --count 1
g=$(field "$out/gather_32.json" cycles)
one=$(field "$out/one_4x4x4.json" cycles)
a=$(field "$out/allreduce_64.json" cycles)
s1=$(field "$out/scan_1.json" cycles)
# Link-rate bound of the gather: 64 ranks x 32 words = 2048 payload flits at one flit per
# cycle, plus the one-packet latency.
awk -v g="$g" -v one="$one" 'BEGIN { b = 2048 + one; printf "| gather, 32 per rank | %d | payload / 1 flit per cycle + 1-packet latency | %d | %.3f | <= 1.2 |\n", g, b, g / b }'
awk -v s="$s1" -v a="$a" 'BEGIN { printf "| scan, 1 per rank | %d | allreduce of 64 u64 | %d | %.3f | <= 1.2 |\n", s, a, s / a }'
echo

echo "## Every collective on 4x4x4 (count 256, seed 1)"
echo
echo "| collective | type | op | cycles | packets | flits per cycle |"
echo "|---|---|---|---|---|---|"
for spec in "bcast u64 -" "reduce u64 sum" "allreduce u64 sum" "allreduce i32 max" "allreduce u8 sum" \
            "allreduce f64 sum" "allreduce f64 maxloc" "gather u64 -" "allgather u64 -" "scan u64 sum" "exscan f64 sum"; do
  set -- $spec
  opt=()
  [ "$3" != "-" ] && opt=(--op "$3")
  name="all_$1_$2_$3"
  run "$name" "$1" --torus 4x4x4 --type "$2" --count 256 "${opt[@]}"
  f="$out/$name.json"
  awk -v a="$1" -v b="$2" -v o="$3" -v c="$(field "$f" cycles)" -v p="$(field "$f" packets)" -v r="$(field "$f" flits_per_cycle)" \
    'BEGIN { printf "| %s | %s | %s | %d | %d | %.3f |\n", a, b, o, c, p, r }'
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
echo "| torus | nodes | simulated cycles | wall seconds | cycles/s | node-cycles/s | tree sides skipped | torus sides skipped |"
echo "|---|---|---|---|---|---|---|---|"
for t in 2x2x2 4x4x4 8x8x8; do
  run "speed_$t" allreduce --torus "$t" --count 32768
  f="$out/speed_$t.json"
  awk -v t="$t" -v n="$(field "$f" nodes)" -v c="$(field "$f" sim_cycles)" -v w="$(field "$f" wall_seconds)" \
      -v ts="$(field "$f" tree_skipped_fraction)" -v rs="$(field "$f" torus_skipped_fraction)" \
    'BEGIN { printf "| %s | %d | %d | %.3f | %.0f | %.3g | %.1f%% | %.1f%% |\n", t, n, c, w, c / w, n * c / w, 100 * ts, 100 * rs }'
done
