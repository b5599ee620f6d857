#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make coverage: every model Verilated with coverage points (COLLNET_COVERAGE) in a build
# directory of its own, the whole suite run there (testbenches, machine suites, the
# command line) with every Verilator context writing what it counted, the databases
# merged, the RTL annotated, and a summary per module printed (docs/coverage.md).
# Usage: scripts/coverage.sh BUILD_DIR [JOBS]
#   COVERAGE_MIN_LINE  fail if line coverage of rtl/ is below this percentage (default 90)
set -euo pipefail
build=${1:?usage: coverage.sh BUILD_DIR [JOBS]}
jobs=${2:-2}
src=$(cd "$(dirname "$0")/.." && pwd)
# The node models' per-cycle code at -O1 (as the flat models' already is): with coverage
# points it is five times larger, and -O3 would take most of an hour to compile it.
grep -qs '^COLLNET_COVERAGE:BOOL=ON' "$build/CMakeCache.txt" ||
  cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCOLLNET_TESTS=ON -DCOLLNET_COVERAGE=ON \
        -DCOLLNET_NODE_OPT_FAST=-O1 > /dev/null
"$src/scripts/cmake_build.sh" "$build" "$jobs"
build=$(cd "$build" && pwd)
out="$build/coverage"
rm -rf "$out"
mkdir -p "$out/dat"
# Every test, and every collnet process a test starts, inherits the directory. The fuzz
# replays and the portability checks (Icarus, Yosys) run no model; the docs' numbers
# (Docs.*) are fresh runs of commands the command-line tests run too, each minutes long
# on instrumented models.
(cd "$build" && COLLNET_COVERAGE_DIR="$out/dat" ctest -j "$jobs" -LE "fuzz|portability" -E '^Docs\.' \
   --output-on-failure > "$out/ctest.log" 2>&1) || {
  tail -30 "$out/ctest.log" >&2
  echo "coverage: the suite failed under coverage; its log: $out/ctest.log" >&2
  exit 1
}
find "$out/dat" -name '*.dat' -print0 | xargs -0 verilator_coverage --write "$out/merged.dat"
# The databases name the RTL as the models were Verilated: rtl/... (from the source
# directory) or ../rtl/... (from tb/). Both resolve from $out/paths/here.
mkdir -p "$out/paths/here"
ln -sfn "$src/rtl" "$out/paths/rtl"
ln -sfn "$src/rtl" "$out/paths/here/rtl"
(cd "$out/paths/here" && verilator_coverage --annotate "$out/annotated" --annotate-min 1 "$out/merged.dat" > /dev/null)
python3 "$src/scripts/coverage_report.py" "$out/merged.dat" "$out/uncovered.txt" \
  --min-line "${COVERAGE_MIN_LINE:-90}" | tee "$out/summary.md"
echo "coverage: $(ls "$out/dat" | wc -l) databases merged; per module: $out/summary.md;" \
     "annotated RTL: $out/annotated; uncovered lines: $out/uncovered.txt"
