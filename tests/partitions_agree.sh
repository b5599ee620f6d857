#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A partitioned machine is cycle for cycle one process's: PROGRAM SHAPE (which prints every
# task's collectives' cycles and the run's) gives the same output in one process and in
# each partition count of COUNTS, run under Open MPI's launcher.
# Usage: tests/partitions_agree.sh MPIRUN PROGRAM SHAPE COUNTS (e.g. 2,3,4) [PROGRAM'S ARGUMENTS...]
set -euo pipefail
mpirun=$1 program=$2 shape=$3 counts=$4
shift 4
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
one=$("$program" "$shape" "$@")
grep -q "^run: ok" <<<"$one" || { echo "FAIL: one process: $one"; exit 1; }
grep -q WRONG <<<"$one" && { echo "FAIL: a collective's result is wrong in one process:"; echo "$one"; exit 1; }
for p in ${counts//,/ }; do
  many=$("$mpirun" -np "$p" --oversubscribe --bind-to none "$program" "$shape" "$@" 2>"$tmp")
  if [[ $many != "$one" ]]; then
    echo "FAIL: $shape in $p partitions differs from one process:"
    diff <(echo "$one") <(echo "$many") | head -20
    exit 1
  fi
  echo "ok: $shape in $(cat "$tmp"): $(tail -1 <<<"$many")"
done
