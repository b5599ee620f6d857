#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make docs-figures: the pictures of docs/plots.md, each drawn by scripts/plot.py from a
# fresh run of collnet. The runs' JSON stays in BUILD_DIR/figures for a look at the
# numbers behind a picture. About five minutes.
# Usage: scripts/docs_figures.sh BUILD_DIR [OUT_DIR (default docs/figures)]
set -euo pipefail
build=$(cd "${1:?usage: docs_figures.sh BUILD_DIR [OUT_DIR]}" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
out=${2:-$src/docs/figures}
work=$build/figures
mkdir -p "$out" "$work"
collnet=$build/collnet
plot() { /usr/bin/python3 "$src/scripts/plot.py" "$@"; }
export COLLNET_PROGRESS=0

step() { printf 'docs-figures: %s\n' "$1"; }

step "torus link heat map: hotspot traffic on 8x8x2, dimension-order routing"
"$collnet" traffic --torus 8x8x2 --pattern hotspot --hotspot 27 --hotspot-fraction 0.2 --routing dor \
  --rate 0.2 --cycles 4000 --seed 1 --json "$work/heatmap.json" > /dev/null
plot links "$work/heatmap.json" -o "$out/heatmap-hotspot.png"

step "tree links by depth: allreduce of 4096 u64 on 4x4x4"
"$collnet" run allreduce --torus 4x4x4 --count 4096 --json "$work/tree.json" > /dev/null
plot links "$work/tree.json" -o "$out/tree-links.png"

step "latency against offered load: uniform traffic on 4x4x4, both routings"
for routing in dor adaptive; do
  "$collnet" traffic --torus 4x4x4 --routing "$routing" --sweep 0.1:1.0:0.1 --cycles 3000 \
    --json "$work/sweep-$routing.json" > /dev/null
  plot latency "$work/sweep-$routing.json" -o "$out/latency-$routing.png"
done

step "cycles against message size: allreduce on 4x4x4, every algorithm"
"$collnet" compare allreduce --torus 4x4x4 --sizes 8,64,512,4k,16k --json "$work/compare.json" > /dev/null
plot compare "$work/compare.json" -o "$out/compare-allreduce.png"

step "utilisation over time: a torus link goes down mid-run on 4x4x4"
"$collnet" traffic --torus 4x4x4 --rate 0.5 --warmup 1000 --cycles 6000 --link-down 21:x+@3500 \
  --sample-every 100 --json "$work/timeline.json" > /dev/null
plot timeline "$work/timeline.json" -o "$out/timeline-link-down.png"

step "waveforms: the demo's view as it opens, and zoomed on a packet (GTKWave on a virtual display)"
"$collnet" run allreduce --torus 4x4x4 --op sum --type u64 --count 1024 --trace "$work/demo.fst" > /dev/null
"$src/scripts/gtkwave_shot.sh" "$work/demo.gtkw" "$out/waves-demo.png"
"$collnet" run allreduce --torus 4x4x4 --op sum --type u64 --count 1024 --trace "$work/demo-root.fst" \
  --trace-nodes 0,1 > /dev/null
/usr/bin/python3 "$src/scripts/wave_figure.py" "$work/demo-root.gtkw" node0.nd_tree_net.tree1_out_hdr_o \
  "$work/demo-packet.gtkw"
"$src/scripts/gtkwave_shot.sh" "$work/demo-packet.gtkw" "$out/waves-packet.png"

step "written to $out"
