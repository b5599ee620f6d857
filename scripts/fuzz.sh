#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs each libFuzzer harness of fuzz/ for RUNS inputs (make fuzz; fuzz/README.md) and
# prints the runs and time of each. Seeds: fuzz/corpus/<harness> and every input that
# once crashed, fuzz/regressions/<harness> (both only read); what the fuzzer finds goes to
# BUILD_DIR/corpus/<harness>, a crashing input to BUILD_DIR/artifacts/<harness>/, and the
# fuzzer's output to BUILD_DIR/logs/<harness>.log. Exits 1 if any harness failed.
# Usage: scripts/fuzz.sh BUILD_DIR RUNS HARNESS...
set -uo pipefail
build=$(cd "${1:?usage: fuzz.sh BUILD_DIR RUNS HARNESS...}" && pwd)
runs=${2:?runs}
shift 2
src=$(cd "$(dirname "$0")/.." && pwd)
# AddressSanitizer records a stack trace at every allocation for its reports; the command
# line's parser allocates so much that this is a third of its harness's time. Without
# them a report still names the crash and the input that caused it, which replays with
# the traces (run the harness on the input with ASAN_OPTIONS unset). Set ASAN_OPTIONS to
# choose otherwise.
export ASAN_OPTIONS=${ASAN_OPTIONS:-malloc_context_size=0}
failed=()
for h in "$@"; do
  mkdir -p "$build/corpus/$h" "$build/artifacts/$h" "$build/logs"
  args=(-runs="$runs" -timeout=10 -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1
        -artifact_prefix="$build/artifacts/$h/")
  [ -f "$src/fuzz/$h.dict" ] && args+=(-dict="$src/fuzz/$h.dict")
  dirs=("$build/corpus/$h" "$src/fuzz/corpus/$h")
  [ -d "$src/fuzz/regressions/$h" ] && dirs+=("$src/fuzz/regressions/$h")
  log="$build/logs/$h.log"
  start=$(date +%s.%N)
  "$build/$h" "${args[@]}" "${dirs[@]}" > "$log" 2>&1
  status=$?
  end=$(date +%s.%N)
  done_runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
  printf 'fuzz: %-20s %9s runs in %7.1f s  (%s, corpus %s inputs)\n' "$h" "${done_runs:-?}" \
    "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" "${cov:-cov: ?}" "$(ls "$build/corpus/$h" | wc -l)"
  if [ $status -ne 0 ]; then
    echo "fuzz: $h FAILED (exit $status); its log: $log" >&2
    grep -E 'ERROR|FUZZ_CHECK|runtime error|SUMMARY|Test unit written|escaped|accepted' "$log" | head -20 >&2
    failed+=("$h")
  fi
done
if [ ${#failed[@]} -ne 0 ]; then
  echo "fuzz: failed: ${failed[*]} (keep each crashing input in fuzz/regressions/<harness>/ once fixed)" >&2
  exit 1
fi
