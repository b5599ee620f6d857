#!/usr/bin/env bash
# Builds the flat engine the way `make bench` builds its 8x8x8 model (COLLNET_FLAT_HIERARCHICAL:
# nd_node Verilated once as a block), on 2x2x2 so that it builds in minutes, and checks it:
# the same traffic gives the same report on both engines, cycle for cycle, and --trace,
# which Verilator 5.006 cannot do on such a model, is refused with a usage error.
# Usage: scripts/check_flat_hierarchical.sh [BUILD_DIR] (default build/flat-hier-2x2x2)
set -euo pipefail
dir=${1:-build/flat-hier-2x2x2}
jobs=${JOBS:-2}
[ -f "$dir/CMakeCache.txt" ] || cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release \
  -DCOLLNET_FLAT_SHAPES=2x2x2 -DCOLLNET_FLAT_HIERARCHICAL=ON > /dev/null
scripts/cmake_build.sh "$dir" "$jobs" --target collnet

report() {  # report ENGINE -> the run's report without the simulator's speed and the engine's name
  "$dir/collnet" traffic --torus 2x2x2 --rate 0.6 --cycles 3000 --warmup 200 --seed 11 --size 2 --engine "$1" |
    grep -v "simulator" | sed "s/engine $1/engine E/"
}
systemc=$(report systemc)
flat=$(report flat)
if [ "$systemc" != "$flat" ]; then
  echo "check_flat_hierarchical: the engines disagree" >&2
  diff <(echo "$systemc") <(echo "$flat") >&2 || true
  exit 1
fi
echo "$flat" | grep -q "lost 0, duplicated 0, corrupted 0" || { echo "check_flat_hierarchical: $flat" >&2; exit 1; }

status=0
err=$("$dir/collnet" traffic --torus 2x2x2 --cycles 10 --engine flat --trace "$dir/refused.fst" 2>&1 >/dev/null) || status=$?
if [ "$status" != 2 ] || ! grep -q "hierarchically" <<< "$err"; then
  echo "check_flat_hierarchical: --trace on a hierarchical flat model gave status $status: $err" >&2
  exit 1
fi
echo "check_flat_hierarchical: 2x2x2 hierarchical flat model agrees with the SystemC machine; --trace refused"
