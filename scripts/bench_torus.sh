#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make bench, torus part: zero-load latency, latency versus offered load for both routings,
# simulator speed of both engines, and the loss soak, printed as Markdown tables.
# Usage: scripts/bench_torus.sh [BUILD_DIR [FLAT_BUILD_DIR]]
# FLAT_BUILD_DIR: a build with the 8x8x8 flat model (COLLNET_FLAT_SHAPES=8x8x8,
# COLLNET_FLAT_HIERARCHICAL=ON; `make bench` makes one), for the flat engine's 8x8x8 speed.
set -euo pipefail
source "$(dirname "$0")/bench_lib.sh"
build=${1:-build}
flat_build=${2:-}
collnet="$build/collnet"
out="$build/bench"
mkdir -p "$out"

# TORUS_BENCH: the sections to run, of "latency load speed soak" (default: all).
want() { [[ " ${TORUS_BENCH:-latency load speed soak} " == *" $1 "* ]]; }


traffic() {  # traffic NAME ARGS... -> writes $out/NAME.json (a failed run stops the bench)
  local name=$1
  shift
  "$collnet" traffic "$@" --json "$out/$name.json" >/dev/null
}

if want latency; then
echo "## Torus: zero-load latency (4x4x4, link latency 4, offered 0.005 flits/node/cycle)"
echo
echo "Latency runs from a packet's creation to the cycle its last chunk is read at the destination."
echo
echo "| pattern | routing | packet flits | avg hops | avg latency | max latency |"
echo "|---|---|---|---|---|---|"
for spec in "neighbor dor 1" "bitcomp dor 1" "uniform dor 1" "uniform adaptive 1" "uniform adaptive 8"; do
  set -- $spec
  name="zl_$1_$2_$3"
  traffic "$name" --torus 4x4x4 --pattern "$1" --routing "$2" --size "$3" --rate 0.005 --warmup 500 --cycles 20000
  f="$out/$name.json"
  awk -v p="$1" -v r="$2" -v fl="$(field "$f" packet_flits)" -v h="$(field "$f" avg_hops)" -v l="$(field "$f" avg_latency)" \
      -v m="$(field "$f" max_latency)" 'BEGIN { printf "| %s | %s | %d | %.2f | %.1f | %d |\n", p, r, fl, h, l, m }'
done
n1=$(field "$out/zl_neighbor_dor_1.json" avg_latency)
nb=$(field "$out/zl_bitcomp_dor_1.json" avg_latency)
hb=$(field "$out/zl_bitcomp_dor_1.json" avg_hops)
echo
awk -v a="$n1" -v b="$nb" -v h="$hb" 'BEGIN { hop = (b - a) / (h - 1); c = a - hop - 5;
  printf "Per-hop latency (bitcomp minus neighbor, per extra hop): **%.2f cycles**; the rest of a 1-hop, 5-flit packet: %.1f cycles, so zero-load latency = hops x %.2f + packet flits + %.1f.\n", hop, c, hop, c }'
echo
fi

if want load; then
echo "## Torus: latency versus offered load, uniform traffic on 8x8x8 (1-chunk packets of 5 flits)"
echo
echo "| offered | DOR accepted | DOR avg latency | DOR p99 | adaptive accepted | adaptive avg latency | adaptive p99 |"
echo "|---|---|---|---|---|---|---|"
for rate in 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9 1.0; do
  row="| $rate"
  for routing in dor adaptive; do
    traffic "load_${routing}_$rate" --torus 8x8x8 --pattern uniform --routing "$routing" --rate "$rate" --warmup 1000 --cycles 4000
    f="$out/load_${routing}_$rate.json"
    row="$row | $(awk -v a="$(field "$f" accepted_flits_per_node_cycle)" 'BEGIN{printf "%.3f", a}') | $(awk -v a="$(field "$f" avg_latency)" 'BEGIN{printf "%.1f", a}') | $(field "$f" p99_latency)"
  done
  echo "$row |"
done
echo
fi

if want speed; then
echo "## Torus: simulator speed, uniform traffic at 0.2 flits/node/cycle"
echo
echo "SystemC steps each node link-latency (4) cycles at a time, on --threads host threads, unless --lockstep; the flat engine is one Verilated model of the whole machine (8x8x8 from the hierarchical build in $flat_build)."
echo
echo "Each row is the median of three runs (this machine's speed varies by up to a third from run to run), with the range of the three beside it."
echo
echo "| engine | torus | node-cycles per second (median) | range of three runs | simulated cycles per second (median) |"
echo "|---|---|---|---|---|"
speed() {  # speed COLLNET ENGINE TORUS CYCLES [EXTRA...]
  local bin=$1 engine=$2 torus=$3 cycles=$4 label=$2
  shift 4
  [ $# -gt 0 ] && label="$engine $*"
  local name="speed_${engine}_${torus}$(echo "$*" | tr -d ' -')" runs=""
  for r in 1 2 3; do
    "$bin" traffic --torus "$torus" --pattern uniform --rate 0.2 --engine "$engine" --warmup 500 --cycles "$cycles" "$@" \
      --json "$out/${name}_$r.json" >/dev/null
    runs="$runs$(field "$out/${name}_$r.json" node_cycles_per_second) $(field "$out/${name}_$r.json" sim_cycles_per_second)\n"
  done
  printf "$runs" | sort -g | awk -v l="$label" -v t="$torus" '{ n[NR] = $1; s[NR] = $2 }
    END { printf "| %s | %s | %.3g | %.3g to %.3g | %.0f |\n", l, t, n[2], n[1], n[3], s[2] }'
}
speed "$collnet" systemc 8x8x8 4000
speed "$collnet" systemc 8x8x8 4000 --threads 2
speed "$collnet" systemc 8x8x8 4000 --lockstep
if [ -n "$flat_build" ]; then
  speed "$flat_build/collnet" flat 8x8x8 4000
fi
speed "$collnet" systemc 4x4x4 20000
speed "$collnet" systemc 4x4x4 20000 --threads 2
speed "$collnet" systemc 2x2x2 100000
speed "$collnet" systemc 2x2x2 100000 --lockstep
speed "$collnet" flat 2x2x2 100000
echo
fi

if want soak; then
echo "## Torus: soak at and above saturation (offered 1.0 flits/node/cycle), every packet checked"
echo
echo "Each run offers 1.05 x 10^6 packets of 5 flits over its window (more than the network accepts) and then drains every one of them."
echo
echo "| torus | routing | packets delivered | lost | duplicated | corrupted | accepted | deadlock |"
echo "|---|---|---|---|---|---|---|---|"
for spec in "8x8x8 adaptive" "8x8x8 dor" "3x5x7 adaptive" "3x5x7 dor" "2x2x2 adaptive" "2x2x2 dor" \
            "1x1x16 adaptive" "1x1x16 dor" "4x4x1 adaptive" "4x4x1 dor"; do
  set -- $spec
  cycles=$(echo "$1" | awk -F x '{ printf "%d", 1.05e6 * 5 / ($1 * $2 * $3) + 1 }')
  traffic "soak_$1_$2" --torus "$1" --routing "$2" --rate 1.0 --warmup 0 --cycles "$cycles" --seed 2
  f="$out/soak_$1_$2.json"
  echo "| $1 | $2 | $(field "$f" packets_delivered) | $(field "$f" packets_lost) | $(field "$f" packets_duplicated) | $(field "$f" packets_corrupted) | $(awk -v a="$(field "$f" accepted_flits_per_node_cycle)" 'BEGIN{printf "%.3f", a}') | $(field "$f" deadlock) |"
done
echo
fi
