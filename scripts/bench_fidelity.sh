#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make bench, fidelity part: collnet with --machine bgl beside Blue Gene/L's published
# figures (docs/fidelity.md): tree bandwidth per link, tree latency across the whole
# machine, the full-system barrier, torus latency per hop, torus bandwidth between
# neighbours and point-to-point latency. Each row is measured afresh, verified.
# Usage: scripts/bench_fidelity.sh BUILD_DIR
# FIDELITY_SHAPE: the whole machine's shape (default 64x32x32; smaller runs in seconds,
# the full system takes about six minutes and 11 GB per run).
set -euo pipefail
source "$(dirname "$0")/bench_lib.sh"
build=${1:-build}
collnet="$build/collnet"
out="$build/bench/fidelity"
mkdir -p "$out"
shape=${FIDELITY_SHAPE:-64x32x32}
raise_map_count

run() {  # run NAME ARGS...: a verified run with --json NAME.json
  local name=$1
  shift
  "$collnet" "$@" --machine bgl --json "$out/$name.json" > "$out/$name.txt"
}
run tree_bw run allreduce --torus 2x2x2 --count 131072
run tree_latency run allreduce --torus "$shape" --count 32
run barrier run barrier --torus "$shape"
run hop1 run pingpong --torus 8x8x8 --ranks 0,1 --sizes 0 --iterations 2
run hop4 run pingpong --torus 8x8x8 --ranks 0,4 --sizes 0 --iterations 2
run p2p_bw run pingpong --torus 4x1x1 --ranks 0,1 --sizes 1M --iterations 1

python3 - "$out" "$shape" <<'PY'
import json, sys
out, shape = sys.argv[1], sys.argv[2]
j = lambda n: json.load(open(f"{out}/{n}.json"))
mhz = j("tree_bw")["clock_mhz"]
rows = []
def row(what, published, measured, unit, note):
    diff = (measured - published) / published * 100 if published else None
    rows.append((what, published, measured, unit, diff, note))
tb = j("tree_bw")
row("tree link bandwidth, per direction", 350, tb["bytes"] / tb["cycles"] * mhz, "MB/s",
    "1 MiB allreduce on 2x2x2: each byte crosses each link once each way; a 256-byte packet is 264 bytes on the wire (its header is a flit)")
tl = j("tree_latency")
row(f"tree latency across the machine ({shape})", 2.5, tl["cycles"] / mhz, "us",
    "one-packet allreduce: up to the root and down to every leaf; tree.latency is calibrated to it")
b = j("barrier")
row(f"full-system barrier ({shape})", 1.5, b["cycles"] / mhz, "us",
    "last arrival to last departure on the barrier wires; barrier.latency is calibrated to it (2 us is the worst-case budget)")
h1, h4 = j("hop1")["sizes"][0]["cycles_one_way"], j("hop4")["sizes"][0]["cycles_one_way"]
row("torus latency per hop", 100, (h4 - h1) / 3 / mhz * 1000, "ns",
    "0-byte ping-pong 4 hops against 1 hop on 8x8x8; the link layer bounds a link at 60 cycles")
p = j("p2p_bw")["sizes"][0]
row("torus bandwidth between neighbours, payload", 175, p["mb_per_s"], "MB/s",
    "1 MiB ping-pong (rendezvous, adaptive): 256 payload bytes per 264 on the wire, and the receiver's processor")
row("point-to-point latency between neighbours, 0 bytes", 0, h1 / mhz, "us",
    "no published figure sourced here; collnet's software path is not MPICH's")
print("## collnet --machine bgl against Blue Gene/L")
print()
print("| figure | published | collnet --machine bgl | difference | how it was measured |")
print("|---|---|---|---|---|")
for what, pub, got, unit, diff, note in rows:
    pub_text = f"{pub:g} {unit}" if pub else "—"
    d = f"{diff:+.1f}%" if diff is not None else "—"
    print(f"| {what} | {pub_text} | {got:.3g} {unit} | {d} | {note} |")
print()
PY
