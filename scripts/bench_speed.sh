#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make bench, speed part: the simulator's speed now against a baseline commit's binary, run
# side by side in the same bench run (this machine's speed varies by a third from run to
# run, so numbers from different runs do not compare). Each figure is the median of three
# runs, with the range beside it.
# Usage: scripts/bench_speed.sh BUILD_DIR [BASELINE_COLLNET]
#   BASELINE_COLLNET: the baseline's collnet binary (scripts/baseline_build.sh builds one);
#   without it only the current binary is measured.
# SPEED_SCALE=n multiplies the simulated cycles (default 1). SPEED_ROWS=busy measures only
# busy traffic on one thread (make bench's second table, against another baseline).
set -euo pipefail
source "$(dirname "$0")/bench_lib.sh"
build=${1:-build}
base=${2:-}
collnet="$build/collnet"
out="$build/bench/speed"
mkdir -p "$out"
scale=${SPEED_SCALE:-1}


# median3 NAME BIN KIND ARGS... -> "median lo hi" of node-cycles/s over three runs.
# KIND: run (a collective; node-cycles from sim_cycles and wall_seconds) or traffic.
median3() {
  local name=$1 bin=$2 kind=$3
  shift 3
  local vals=""
  for r in 1 2 3; do
    local f="$out/${name}_$r.json"
    "$bin" "$kind" "$@" --json "$f" > /dev/null
    if [ "$kind" = run ]; then
      vals="$vals$(awk -v n="$(field "$f" nodes)" -v c="$(field "$f" sim_cycles)" -v w="$(field "$f" wall_seconds)" \
        'BEGIN { printf "%.6g", n * c / w }')\n"
    else
      vals="$vals$(field "$f" node_cycles_per_second)\n"
    fi
  done
  printf "$vals" | sort -g | awk '{ v[NR] = $1 } END { printf "%.6g %.6g %.6g\n", v[2], v[1], v[3] }'
}

# row LABEL NAME KIND ARGS...: one table row, the baseline (if any) and now, and their ratio.
row() {
  local label=$1 name=$2 kind=$3
  shift 3
  read -r now lo hi < <(median3 "now_$name" "$collnet" "$kind" "$@")
  if [ -n "$base" ]; then
    # The baseline binary predates --idle-skip: strip it from its arguments.
    local args=() skip=0
    for a in "$@"; do
      if [ $skip = 1 ]; then skip=0; continue; fi
      if [ "$a" = --idle-skip ]; then skip=1; continue; fi
      args+=("$a")
    done
    read -r was blo bhi < <(median3 "base_$name" "$base" "$kind" "${args[@]}")
    awk -v l="$label" -v w="$was" -v bl="$blo" -v bh="$bhi" -v n="$now" -v lo="$lo" -v hi="$hi" \
      'BEGIN { printf "| %s | %.3g (%.3g to %.3g) | %.3g (%.3g to %.3g) | %.2fx |\n", l, w, bl, bh, n, lo, hi, n / w }'
  else
    awk -v l="$label" -v n="$now" -v lo="$lo" -v hi="$hi" \
      'BEGIN { printf "| %s | - | %.3g (%.3g to %.3g) | - |\n", l, n, lo, hi }'
  fi
}

echo "## Simulator speed against the baseline, side by side"
echo
if [ -n "$base" ]; then
  echo "Baseline: $(cat "$(dirname "$base")/BASELINE_COMMIT" 2>/dev/null || echo "unknown commit"). Node-cycles per second, the median of three runs with their range; the last column is now / baseline."
else
  echo "No baseline binary (BENCH_BASELINE= was empty): current binary only."
fi
echo
echo "| workload | baseline | now | speedup |"
echo "|---|---|---|---|"
ar_count=8192
tcycles=$((3000 * scale))
if [ "${SPEED_ROWS:-all}" = busy ]; then
  row "uniform traffic at 0.2, 8x8x8, DOR, 1-chunk packets, 1 thread" tr_busy traffic --torus 8x8x8 \
    --pattern uniform --routing dor --size 1 --rate 0.2 --warmup 500 --cycles $tcycles --threads 1
  echo
  exit 0
fi
row "allreduce 8192 u64, 8x8x8, 1 thread" ar8 run allreduce --torus 8x8x8 --count $ar_count
row "allreduce 8192 u64, 8x8x8, idle skipping off" ar8_off run allreduce --torus 8x8x8 --count $ar_count --idle-skip off
for rate in 0.2 0.05; do
  for threads in 1 2; do
    row "uniform traffic at $rate, 8x8x8, DOR, 1-chunk packets, $threads thread$([ $threads = 1 ] || echo s)" \
      "tr_${rate}_$threads" traffic --torus 8x8x8 --pattern uniform --routing dor --size 1 --rate $rate \
      --warmup 500 --cycles $tcycles --threads $threads
  done
done
row "uniform traffic at 0.2, 8x8x8, DOR, 1 thread, idle skipping off" tr_0.2_off traffic --torus 8x8x8 \
  --pattern uniform --routing dor --size 1 --rate 0.2 --warmup 500 --cycles $tcycles --idle-skip off
echo
