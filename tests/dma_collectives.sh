#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every collective, by every algorithm, on nodes with the torus DMA engine (two FIFOs each
# way): `collnet compare` runs each algorithm and verifies each result (exit 1 if one is
# wrong), `collnet run` the collectives with one algorithm; 2x2x2 with one and two tasks
# per node, 8 bytes and 1 KiB per rank. The engine changes only what goes by it (alltoall,
# rendezvous messages); everything else must still deliver what MPI says.
# Usage: tests/dma_collectives.sh COLLNET
set -euo pipefail
collnet=$1
fail=0
for tasks in 1 2; do
  for c in barrier bcast reduce allreduce gather allgather allgatherv scatter alltoall scan exscan; do
    if ! out=$("$collnet" compare "$c" --torus 2x2x2 --tasks "$tasks" --rtl torus.dma=2 --sizes 8,1k 2>&1); then
      echo "FAIL: compare $c --tasks $tasks on nodes with the engine:"; echo "$out"; fail=1
    fi
  done
  for c in alltoallv scatterv gatherv reduce_scatter reduce_scatter_block; do
    if ! out=$("$collnet" run "$c" --torus 2x2x2 --tasks "$tasks" --rtl torus.dma=2 --count 130 2>&1) ||
       [[ $out != *verified* ]]; then
      echo "FAIL: run $c --tasks $tasks on nodes with the engine:"; echo "$out"; fail=1
    fi
  done
done
((fail == 0)) && echo "every collective and algorithm verified on nodes with the DMA engine (2x2x2, 1 and 2 tasks per node)"
exit $fail
