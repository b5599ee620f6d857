#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make bench: MPI_Reduce and MPI_Allreduce with a user-defined op, which the processors fold
# along a binomial tree over the torus (docs/mpi.md), against MPI_SUM of the same doubles on
# the torus (`collnet run --algorithm`, off the combining network) and on the tree, on 64
# ranks (4x4x4). The user op must take at most twice the torus MPI_SUM's cycles.
# USEROP_COUNT doubles per rank (default 1048576, 8 MiB: about 2.5 hours of one core for
# the MPI program, and beside it the torus allreduce, then the torus reduce, 47 minutes of
# one core on its own); the torus references are the fastest torus algorithms measured at
# 2 Ki and 16 Ki doubles per rank (16 and 128 KiB): torus-ring for allreduce (29,069 and
# 219,509 cycles; Rabenseifner 37,447 and 291,588) and USEROP_REDUCE_ALGORITHM for reduce
# (default torus-neighbourhood: 71,052 and 563,061; binomial 73,086 and 576,552).
# Usage: scripts/bench_userop.sh [BUILD_DIR]
set -euo pipefail
source "$(dirname "$0")/bench_lib.sh"
build=${1:-build}
collnet="$build/collnet"
count=${USEROP_COUNT:-1048576}
reduce_alg=${USEROP_REDUCE_ALGORITHM:-torus-neighbourhood}
out="$build/bench/userop"
mkdir -p "$out"

"$build/collnet-mpicc" -O2 -std=c99 -o "$out/userop_scale" "$(dirname "$0")/../tests/mpi/programs/userop_scale.c"
start=$(date +%s)
"$collnet" run allreduce --torus 4x4x4 --type f64 --count "$count" --algorithm torus-ring --watchdog 2000000000 \
  --json "$out/allreduce.json" >/dev/null &
torus_allreduce=$!
"$collnet" mpirun -n 64 --torus 4x4x4 --compute-scale 0 --watchdog 2000000000 -- "$out/userop_scale" time "$count" \
  >"$out/userop.out" 2>"$out/userop.err" || { cat "$out/userop.err" >&2; exit 1; }  # the report, kept beside it
wait $torus_allreduce
"$collnet" run reduce --torus 4x4x4 --type f64 --count "$count" --algorithm "$reduce_alg" --watchdog 2000000000 \
  --json "$out/reduce.json" >/dev/null

cycles() {  # cycles NAME -> the program's line "NAME: 64 ranks, N doubles, C cycles"
  sed -n "s/^$1: .* \([0-9]*\) cycles$/\1/p" "$out/userop.out"
}
echo "## User-defined ops against MPI_SUM, $count doubles per rank on 64 ranks (4x4x4), $(($(date +%s) - start)) s"
echo
echo "| collective | user op (binomial tree over the torus) | MPI_SUM on the torus | algorithm | ratio | required | MPI_SUM on the tree |"
echo "|---|---|---|---|---|---|---|"
for c in reduce allreduce; do
  u=$(cycles "$c user op")
  t=$(field "$out/$c.json" cycles)
  alg=$([ "$c" = reduce ] && echo "$reduce_alg" || echo torus-ring)
  awk -v c="$c" -v u="$u" -v t="$t" -v a="$alg" -v tree="$(cycles "$c MPI_SUM")" \
    'BEGIN { r = u / t; printf "| %s | %d | %d | %s | %.2f | <= 2%s | %d |\n", c, u, t, a, r, r <= 2 ? "" : " (OVER)", tree }'
done
echo
