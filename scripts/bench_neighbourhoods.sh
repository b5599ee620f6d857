#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make bench, regular neighbourhoods: bcast and reduce of one packet (8 bytes) and of 64 KiB per rank on
# irregular member sets of NB_TORUS (default 8x8x8; reference/member_sets.hpp), with the regular neighbourhoods'
# two-phase algorithm (torus-neighbourhood), a flat binomial on the torus and the pruned
# tree's class route, root rank 0; printed as a Markdown table, the fastest in bold.
# NB_SETS picks the member sets (default all five).
# Usage: scripts/bench_neighbourhoods.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
collnet="$build/collnet"
torus=${NB_TORUS:-8x8x8}
out="$build/bench"
mkdir -p "$out"

echo "## Regular neighbourhoods on $torus: cycles of bcast and reduce (u64 sum) on irregular member sets, root rank 0"
echo
echo "| member set | members | neighbourhoods | collective | bytes per rank | torus-neighbourhood | torus-binomial | tree |"
echo "|---|---|---|---|---|---|---|---|"
for set in ${NB_SETS:-l-shape plane-holes two-boxes checkerboard random:50}; do
  "$collnet" neighbourhoods --torus "$torus" --ranks "$set" --json "$out/neighbourhoods_${set//:/_}.json" >/dev/null
  planes=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['neighbourhoods']))" \
    "$out/neighbourhoods_${set//:/_}.json")
  for coll in bcast reduce; do
    for count in 1 8192; do
      row=()
      members=
      for a in torus-neighbourhood torus-binomial tree; do
        json="$out/neighbourhoods_${set//:/_}_${coll}_${count}_$a.json"
        "$collnet" run "$coll" --torus "$torus" --ranks "$set" --count "$count" --algorithm "$a" --json "$json" >/dev/null
        row+=("$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['cycles'])" "$json")")
        members=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['members'])" "$json")
      done
      python3 - "$set" "$members" "$planes" "$coll" "$((count * 8))" "${row[@]}" <<'PY'
import sys
s, members, planes, coll, size, *cycles = sys.argv[1:]
best = min(int(c) for c in cycles)
cells = [f"**{c}**" if int(c) == best else c for c in cycles]
print(f"| {s} | {members} | {planes} | {coll} | {size} | " + " | ".join(cells) + " |")
PY
    done
  done
done
