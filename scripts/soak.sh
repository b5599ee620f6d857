#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make soak: torus traffic at saturation with bit errors on every link, every packet
# checked at its destination (lost, duplicated, corrupted), across shapes and both
# routings, SOAK_PACKETS packets in all (10^8 by default: about two hours on two cores).
# Prints a Markdown table (docs/performance.md, "Soak with bit errors") and fails if a
# single packet was lost, duplicated or corrupted, or if a run saw no bit error at all.
# Usage: scripts/soak.sh BUILD_DIR
#   SOAK_PACKETS  packets in all, split evenly over the runs (default 100000000)
#   SOAK_BER      bit error rate of every link (default 1e-5)
#   SOAK_THREADS  host threads per run (default 2)
#   SOAK_SPECS    the runs, "SHAPE:ROUTING ..." (default below)
# A run whose JSON is already in BUILD_DIR/soak (same shape, routing, packets, error rate)
# is not run again, so a soak that was stopped goes on where it was.
set -euo pipefail
build=${1:-build}
collnet="$build/collnet"
out="$build/soak"
mkdir -p "$out"
packets=${SOAK_PACKETS:-100000000}
ber=${SOAK_BER:-1e-5}
threads=${SOAK_THREADS:-2}
specs=(${SOAK_SPECS:-8x8x8:adaptive 8x8x8:dor 3x5x7:adaptive 3x5x7:dor 4x4x4:adaptive 4x4x4:dor \
       2x2x2:adaptive 2x2x2:dor 1x1x16:adaptive 1x1x16:dor 4x4x1:adaptive 4x4x1:dor})
# 0.5% more than an even share: a run offers about per_run packets, and twelve runs of an
# even share once delivered 0.014% short of 10^8.
per_run=$(( packets / ${#specs[@]} * 1005 / 1000 + 1 ))
flits=5  # --size 1: a header flit and one chunk of four

echo "## Torus: soak with bit errors (link BER $ber, offered 1.0 flits/node/cycle), every packet checked"
echo
echo "Each run offers about $per_run packets of $flits flits over its window (more than the network accepts), then drains every one of them."
echo
echo "| torus | routing | packets delivered | lost | duplicated | corrupted | flits sent | CRC errors | flits resent | timeouts | wall seconds |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
seed=0
jsons=()
for spec in "${specs[@]}"; do
  shape=${spec%%:*}
  routing=${spec##*:}
  seed=$((seed + 1))
  nodes=$(echo "$shape" | awk -F x '{ print $1 * $2 * $3 }')
  cycles=$(( per_run * flits / nodes + 1 ))
  json="$out/soak_${shape}_${routing}_${per_run}_${ber}.json"
  jsons+=("$json")
  if [ ! -s "$json" ]; then
    "$collnet" traffic --torus "$shape" --routing "$routing" --size 1 --rate 1.0 --warmup 0 --cycles "$cycles" \
      --seed "$seed" --link-ber "$ber" --fault-seed "$seed" --threads "$threads" --idle-limit 100000 \
      --json "$json.part" > "$out/soak_${shape}_${routing}.txt"
    mv "$json.part" "$json"
  fi
  python3 - "$json" "$shape" "$routing" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["links"]["torus"]
row = [sys.argv[2], sys.argv[3], d["packets_delivered"], d["packets_lost"], d["packets_duplicated"],
       d["packets_corrupted"], t["tx_flits"], t["crc_errors"], t["resent"], t["timeouts"],
       "%.0f" % d["wall_seconds"]]
print("| " + " | ".join(str(v) for v in row) + " |")
EOF
done
python3 - "$packets" "${jsons[@]}" <<'EOF'
import json, sys
target = int(sys.argv[1])
runs = [json.load(open(f)) for f in sys.argv[2:]]
total = lambda k: sum(r[k] for r in runs)
links = lambda k: sum(r["links"]["torus"][k] for r in runs)
print("| **all** | | **%d** | **%d** | **%d** | **%d** | %d | %d | %d | %d | %.0f |" % (
    total("packets_delivered"), total("packets_lost"), total("packets_duplicated"), total("packets_corrupted"),
    links("tx_flits"), links("crc_errors"), links("resent"), links("timeouts"), total("wall_seconds")))
bad = [f for f in runs if f["packets_lost"] or f["packets_duplicated"] or f["packets_corrupted"]]
quiet = [f for f in runs if f["links"]["torus"]["crc_errors"] == 0]
if bad:
    sys.exit("soak: %d run(s) lost, duplicated or corrupted packets" % len(bad))
if quiet:
    sys.exit("soak: %d run(s) saw no CRC error: the bit error rate is too low to test anything" % len(quiet))
if total("packets_delivered") < target:
    sys.exit("soak: %d packets delivered, fewer than the %d asked for" % (total("packets_delivered"), target))
EOF
