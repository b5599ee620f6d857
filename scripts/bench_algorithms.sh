#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make bench, collective algorithms: every algorithm of bcast, allreduce, allgather and
# alltoall across message sizes (collnet compare) on ALG_TORUS (default 8x8x8, 512 nodes),
# and the segmented allgather against ring, Bruck and the tree with random, rank and shifted
# order and several piece sizes on SEED_TORUS (default 4x4x4; SEED_COUNT u64 per rank, default
# 512 = 4 KiB; SEED_PIECES, default 256 1024 4096 bytes), printed as
# Markdown tables. The personalised collectives' grids stop at small sizes on 8x8x8: every
# rank handles a message from each of 511 others, and a 512-node torus run simulates at
# about 1.5*10^5 node-cycles per second (an allgather of 1 KiB per rank takes 39 minutes
# across its algorithms).
# ALG_PARTS="compare" or "seed" runs one half only.
# Usage: scripts/bench_algorithms.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
collnet="$build/collnet"
torus=${ALG_TORUS:-8x8x8}
seed_torus=${SEED_TORUS:-4x4x4}
seed_count=${SEED_COUNT:-512}              # u64 elements per rank
seed_pieces=${SEED_PIECES:-256 1024 4096}  # piece bytes
out="$build/bench"
mkdir -p "$out"
parts=${ALG_PARTS:-compare seed}  # which halves to run

table() {  # table JSON: the compare JSON as a Markdown table, the fastest in bold
  python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
algs = list(d["rows"][0]["cycles"].keys())
print("| bytes per rank | " + " | ".join(algs) + " | auto | auto / fastest |")
print("|---|" + "---|" * (len(algs) + 2))
for r in d["rows"]:
    cells = []
    for a in algs:
        c = r["cycles"][a]
        cells.append("failed" if c is None else (f"**{c}**" if a == r.get("fastest") else str(c)))
    auto = r.get("auto", {})
    best = r["cycles"].get(r.get("fastest"))
    ratio = f"{auto['cycles'] / best:.2f}" if auto.get("cycles") and best else "-"
    if ratio != "-" and float(ratio) > 1.10:
        ratio += " (over 1.10)"
    cells.append(f"{auto.get('cycles')} ({auto.get('algorithm')})" if auto else "-")
    cells.append(ratio)
    print(f"| {r['bytes']} | " + " | ".join(cells) + " |")
PY
}

if [[ " $parts " == *" compare "* ]]; then
echo "## Collective algorithms on $torus (collnet compare), cycles"
for spec in "bcast 8,1k,16k" "allreduce 8,1k,16k" "allgather 8,128" "alltoall 8,64"; do
  set -- $spec
  echo
  echo "### $1"
  echo
  "$collnet" compare "$1" --torus "$torus" --sizes "$2" --json "$out/compare_$1.json" >/dev/null
  table "$out/compare_$1.json"
done
echo

"$collnet" tune --torus "$torus" --from "$out"/compare_{bcast,allreduce,allgather,alltoall}.json \
  --output "$out/tuning_$torus.json" >/dev/null
echo "The rules these measurements give: $out/tuning_$torus.json (scripts/tuning_to_cpp.py turns tables into the shipped one)."
echo
fi
[[ " $parts " == *" seed "* ]] || exit 0

echo "## The segmented allgather on $seed_torus, $((seed_count * 8)) bytes per rank"
echo
echo "| algorithm | order | piece bytes | cycles | busiest torus link, flits | all torus links, flits |"
echo "|---|---|---|---|---|---|"
run_allgather() {  # run_allgather NAME ARGS...
  local name=$1
  shift
  "$collnet" run allgather --torus "$seed_torus" --count "$seed_count" "$@" --json "$out/segment_$name.json" >/dev/null
  python3 - "$out/segment_$name.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(f"| {d['algorithm']} | {d.get('order', '')} | {d.get('piece_bytes', '')} | {d['cycles']} | "
      f"{d['torus_busiest_link_flits']} | {d['torus_link_flits']} |")
PY
}
for piece in $seed_pieces; do
  for order in random rank shifted; do
    run_allgather "seg_${piece}_$order" --algorithm alltoallv-segment --piece-bytes "$piece" --order "$order"
  done
done
for a in torus-ring torus-bruck tree; do run_allgather "$a" --algorithm "$a"; done
