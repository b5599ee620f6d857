#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make bench: communication that overlaps computation (docs/dma.md#progress-while-the-rank-computes,
# docs/coprocessor.md#measured). examples/mpi/overlap.c starts MPI_Iallreduce of 64 KiB of
# doubles (and MPI_Ialltoall of 4 KiB a pair), computes for as many cycles as the collective
# alone took (`exact`: MPIX_Compute_cycles, the same on every host), then waits; on 8 ranks
# (2x2x2) and 64 (4x4x4), on nodes without the DMA engine, with it (torus.dma=2) and in
# coprocessor mode. The issue's bar: at most 1.2 of the longer with the engine and in
# coprocessor mode (without either, the two take their sum).
# Usage: scripts/bench_overlap.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
collnet="$build/collnet"
out="$build/bench/overlap"
mkdir -p "$out"
"$build/collnet-mpicc" -O2 -o "$out/overlap" "$(dirname "$0")/../examples/mpi/overlap.c"

echo "## Overlap: a started collective and as long a computation (examples/mpi/overlap.c, exact)"
echo
echo "| collective | ranks | nodes | alone | both | of the longer | of their sum |"
echo "|---|---|---|---|---|---|---|"
for spec in "allreduce 65536" "alltoall 4096"; do
  set -- $spec
  for n in 8 64; do
    shape=$([ "$n" = 8 ] && echo 2x2x2 || echo 4x4x4)
    for mode in plain dma coprocessor; do
      case $mode in
        plain) extra=(); label="without the engine" ;;
        dma) extra=(--rtl torus.dma=2); label="with the engine (torus.dma=2)" ;;
        coprocessor) extra=(--coprocessor); label="coprocessor mode" ;;
      esac
      line=$("$collnet" mpirun -n "$n" --torus "$shape" "${extra[@]}" --compute-scale 0 -q -- \
        "$out/overlap" "$1" "$2" exact | head -1)
      # "MPI_Iallreduce of B bytes on N ranks: communication C cycles, computation C, both B: X of the longer, Y of their sum"
      echo "$line" | sed -n "s/^\(MPI_[A-Za-z]*\) of \([0-9]*\) bytes on [0-9]* ranks: communication \([0-9]*\) cycles, computation [0-9]*, both \([0-9]*\): \([0-9.]*\) of the longer, \([0-9.]*\) of their sum.*/| \1 \2 B | $n | $label | \3 | \4 | \5 | \6 |/p"
    done
  done
done
echo
