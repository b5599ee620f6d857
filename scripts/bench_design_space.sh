#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make bench: the node's sizes swept (collnet sweep, docs/design-space.md), each variant
# with its area from Yosys:
#   1. the torus's dynamic-VC buffer depth on uniform traffic at 8x8x8, adaptive routing:
#      accepted against offered load per depth (plot: $out/vc.svg);
#   2. the number of torus reception FIFOs on an alltoall of 4 KiB per pair on 4x4x4;
#   3. the torus's reception FIFO depth on the same alltoall.
# Each variant first passes its smoke set (its router's and adapter's testbenches, then
# machine runs). Then the first sweep again, which builds nothing: the time of each is printed.
# DESIGN_SPACE_QUICK=1 sweeps two values each with fewer cycles and no area (a few minutes).
# The model libraries go to $COLLNET_MODEL_CACHE (default: the user's cache directory);
# DESIGN_SPACE_CACHE=DIR puts them in DIR instead.
# Usage: scripts/bench_design_space.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
collnet="$build/collnet"
out="$build/bench/design-space"
mkdir -p "$out"
[ -n "${DESIGN_SPACE_CACHE:-}" ] && export COLLNET_MODEL_CACHE="$DESIGN_SPACE_CACHE"
if [ "${DESIGN_SPACE_QUICK:-0}" = 1 ]; then
  vc=33,64 fifos=1,6 rcv=64,256 loads=0.2:1.0:0.4 cycles=1000 area=()
else
  vc=33,48,64,128 fifos=1,2,3,6 rcv=36,64,128,256,1024 loads=0.1:1.0:0.1 cycles=2000 area=(--area)
fi

sweep() {  # sweep NAME ARGS... -> the table on stdout, $out/NAME.json and .svg; prints its wall time
  local name=$1 start=$SECONDS
  shift
  "$collnet" sweep "${area[@]}" --json "$out/$name.json" --plot "$out/$name.svg" --keep "$out/$name.runs" "$@" \
    2> "$out/$name.err" | grep '^|'
  echo
  echo "Wall time: $((SECONDS - start)) s."
  echo
}

echo "## Torus VC buffer depth on uniform traffic, 8x8x8, adaptive routing (torus.vc_buffer_flits = $vc)"
echo
sweep vc --rtl "torus.vc_buffer_flits=$vc" -- traffic --torus 8x8x8 --pattern uniform --routing adaptive \
  --sweep "$loads" --warmup 1000 --cycles "$cycles"
echo "## Torus reception FIFOs on alltoall, 4 KiB per pair, 4x4x4 (torus.reception_fifos = $fifos)"
echo
sweep fifos --rtl "torus.reception_fifos=$fifos" -- run alltoall --torus 4x4x4 --count 512
echo "## Torus reception FIFO depth on alltoall, 4 KiB per pair, 4x4x4 (torus.reception_fifo_flits = $rcv)"
echo
sweep rcv --rtl "torus.reception_fifo_flits=$rcv" -- run alltoall --torus 4x4x4 --count 512
echo "## The VC sweep again: every variant's models are cached"
echo
sweep vc-again --rtl "torus.vc_buffer_flits=$vc" -- traffic --torus 8x8x8 --pattern uniform --routing adaptive \
  --sweep "$loads" --warmup 1000 --cycles "$cycles"
if grep -Eq "building (node models|tb_)" "$out/vc-again.err"; then
  echo "(OVER: the second sweep built node models or testbenches)"
fi
