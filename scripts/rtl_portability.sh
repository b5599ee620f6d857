#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# rtl_portability.sh: checks that the RTL builds outside Verilator too. Elaborates the
# design with Icarus Verilog (iverilog -g2012, then loads it with vvp) and synthesizes it
# with Yosys (read_verilog -sv -DSYNTHESIS, then a generic gate-level synthesis that keeps
# the hierarchy and keeps FIFO storage as memories; check -assert), failing on any error,
# on a failed check and on any inferred latch. Prints one summary line (docs/synthesis.md).
#
# Usage: scripts/rtl_portability.sh [--area|--elaborate] [-P NAME=VALUE]... [top]
#        top          the top module, default nd_node
#        --area       also print the area table, block by block (scripts/area_report.py)
#        --elaborate  Yosys only reads and elaborates the design (hierarchy -check), in
#                     seconds instead of minutes (the suite's Portability test)
#        -P NAME=VALUE  sets the top's parameter NAME (a node size of nd_tree_net or
#                     nd_torus_net: docs/design-space.md); repeatable
#        RTL_PORTABILITY_VERBOSE=1 ...          also print the tools' notes and warnings
# Tools: iverilog/vvp (Icarus 11) and yosys (0.23) on PATH, or IVERILOG/VVP/YOSYS set.
# Independent of the Makefile and of CMake; writes only to a temporary directory.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
area=0 elaborate=0
params=()
usage="usage: rtl_portability.sh [--area|--elaborate] [-P NAME=VALUE]... [top]"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --area) area=1; shift ;;
    --elaborate) elaborate=1; shift ;;
    -P)
      [[ "${2:-}" =~ ^[A-Za-z_][A-Za-z0-9_]*=[0-9]+$ ]] ||
        { echo "rtl_portability: -P takes NAME=VALUE (a whole number), got '${2:-}' ($usage)" >&2; exit 2; }
      params+=("$2"); shift 2 ;;
    -*) echo "rtl_portability: unknown option $1 ($usage)" >&2; exit 2 ;;
    *) break ;;
  esac
done
top="${1:-nd_node}"
ivl_params=() chparams=""
for p in "${params[@]}"; do
  ivl_params+=(-P "$top.$p")
  chparams+=" chparam -set ${p%%=*} ${p#*=} $top;"
done
verbose="${RTL_PORTABILITY_VERBOSE:-0}"
IVERILOG="${IVERILOG:-iverilog}"
VVP="${VVP:-vvp}"
YOSYS="${YOSYS:-yosys}"

for tool in "$IVERILOG" "$VVP" "$YOSYS"; do
  command -v "$tool" > /dev/null || { echo "rtl_portability: $tool not found" >&2; exit 2; }
done

# The packages first, then the shared FIFOs, then every block, then the node top.
files=(rtl/collective/cn_pkg.sv rtl/barrier/gi_pkg.sv rtl/torus/tr_pkg.sv rtl/link/lk_pkg.sv rtl/dma/dm_pkg.sv rtl/common/*.sv)
for f in rtl/collective/*.sv rtl/barrier/*.sv rtl/torus/*.sv rtl/link/*.sv rtl/dma/*.sv; do
  [[ "$f" == */cn_pkg.sv || "$f" == */gi_pkg.sv || "$f" == */tr_pkg.sv || "$f" == */lk_pkg.sv || "$f" == */dm_pkg.sv ]] ||
    files+=("$f")
done
files+=(rtl/node/nd_tree_net.sv rtl/node/nd_torus_net.sv rtl/node/nd_node.sv)
# Every module includes the assertion macros, rtl/common/cmn_assert.svh, by name.
include_dir=rtl/common

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

fail() {
  echo "rtl_portability: FAIL ($1)" >&2
  [[ -f "$2" ]] && tail -n 40 "$2" >&2
  exit 1
}

# ---------------------------------------------------------------- Icarus Verilog
if ! "$IVERILOG" -g2012 -I "$include_dir" "${ivl_params[@]}" -o "$tmp/ivl.out" -s "$top" "${files[@]}" > "$tmp/ivl.log" 2>&1; then
  fail "iverilog elaboration" "$tmp/ivl.log"
fi
# Loading the compiled design runs its initial blocks: the parameter checks, which
# cmn_assert.svh turns into checks at time 0 for Icarus; no clock runs.
if ! "$VVP" -n "$tmp/ivl.out" > "$tmp/vvp.log" 2>&1; then
  fail "vvp load" "$tmp/vvp.log"
fi
# Icarus 11 prints "sorry" notes for what it simulates conservatively (unique case taken as
# plain case, whole-vector sensitivity for constant selects in always_comb): not errors.
ivl_notes="$(grep -c 'sorry' "$tmp/ivl.log" || true)"
if [[ "$verbose" == 1 ]]; then sort "$tmp/ivl.log" | uniq -c; fi

# ---------------------------------------------------------------- Yosys
# synth's coarse steps (hierarchy, proc, opt, fsm, memory -nomap, alumacc, ...), then its
# fine steps without memory_map: a FIFO's storage stays one memory cell (for a memory
# compiler or RAM blocks to implement), not thousands of flip-flops and read multiplexers,
# which took Yosys more than three times as long. abc -fast maps the logic to generic gates. The
# hierarchy is kept: each block is synthesized once per parameter set, not per instance.
# dump lists the memories (their SIZE and WIDTH) for the area table.
ys="read_verilog -sv -DSYNTHESIS -I $include_dir ${files[*]};$chparams synth -top $top -run begin:fine; opt -fast -full; techmap; opt -fast;"
ys+=" abc -fast; opt -fast; check -assert; stat; dump t:\$mem_v2"
if [[ "$elaborate" == 1 ]]; then ys="read_verilog -sv -DSYNTHESIS -I $include_dir ${files[*]};$chparams hierarchy -check -top $top"; fi
if ! "$YOSYS" -q -l "$tmp/yosys.log" -p "$ys" > /dev/null 2>&1; then
  fail "yosys synthesis or check -assert" "$tmp/yosys.log"
fi
if [[ "$elaborate" == 1 ]]; then
  echo "rtl_portability: OK top=$top iverilog: elaborated (${ivl_notes} sorry notes) yosys: elaborated"
  exit 0
fi
# shellcheck disable=SC2016  # literal $: Yosys latch cell names in the stat listing
latch_re='Latch inferred|^ +\$_DLATCH|^ +\$dlatch'
latches="$(grep -cE "$latch_re" "$tmp/yosys.log" || true)"
if [[ "$latches" != 0 ]]; then
  grep -E "$latch_re" "$tmp/yosys.log" >&2
  fail "yosys inferred latches" /dev/null
fi
if [[ "$area" == 1 ]]; then
  python3 scripts/area_report.py --top "$top" "$tmp/yosys.log" > "$tmp/area.md" || fail "area report" /dev/null
fi
# The last "Number of cells" is the design hierarchy's: every instance, memories included.
cells="$(grep -E '^ +Number of cells:' "$tmp/yosys.log" | tail -n 1 | awk '{print $4}')"
warnings="$(grep -E '^Warning:' "$tmp/yosys.log" | sort -u || true)"
nwarn="$(printf '%s' "$warnings" | grep -c . || true)"
if [[ "$verbose" == 1 && -n "$warnings" ]]; then printf '%s\n' "$warnings"; fi

echo "rtl_portability: OK top=$top iverilog: elaborated (${ivl_notes} sorry notes)" \
     "yosys: ${cells} cells, 0 latches, ${nwarn} distinct warnings"
if [[ "$area" == 1 ]]; then cat "$tmp/area.md"; fi
