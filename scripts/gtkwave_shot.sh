#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Opens a GTKWave view on a virtual display (xvfb-run, 1600x1000) and saves a screenshot
# of it: for the waveform tests (tests/waves_test.py) and the docs' pictures
# (scripts/docs_figures.sh). With a Tcl file, GTKWave runs it once the view is loaded
# (for example `gtkwave::setZoomRangeTimes 20 140` to zoom in). Exits 3, printing what
# GTKWave said, if GTKWave ends by itself (it does when the view's FST cannot be loaded),
# and 4 if it could not load something else (a filter program, say).
# Usage: scripts/gtkwave_shot.sh VIEW.gtkw OUT.png [SCRIPT.tcl]
set -euo pipefail
gtkw=$(readlink -f "${1:?usage: gtkwave_shot.sh VIEW.gtkw OUT.png [SCRIPT.tcl]}")
png=$(readlink -m "${2:?usage: gtkwave_shot.sh VIEW.gtkw OUT.png [SCRIPT.tcl]}")
tcl=${3:+$(readlink -f "$3")}
rc=$(mktemp)
log=$(mktemp)
trap 'rm -f "$rc" "$log"' EXIT
echo "splash_disable 1" > "$rc"
xvfb-run -a -s "-screen 0 1600x1000x24" bash -c '
  gtkw=$0 png=$1 rc=$2 tcl=$3 log=$4
  if [ -n "$tcl" ]; then gtkwave -r "$rc" -S "$tcl" "$gtkw" > "$log" 2>&1 &
  else gtkwave -r "$rc" "$gtkw" > "$log" 2>&1 & fi
  pid=$!
  for i in $(seq 1 150); do
    sleep 0.2
    kill -0 $pid 2>/dev/null || { wait $pid || true; echo "gtkwave ended by itself:"; cat "$log"; exit 3; }
    grep -q "FSTLOAD | Extracting\|GTKWAVE | Could not" "$log" && break
  done
  # A big view takes a while to draw: grab until the screen is no longer one colour.
  /usr/bin/python3 - "$DISPLAY" "$png" <<"PY"
import sys, time
from PIL import ImageGrab
for attempt in range(40):
    time.sleep(1.5)
    img = ImageGrab.grab(xdisplay=sys.argv[1])
    colours = img.convert("RGB").getcolors(maxcolors=1 << 16)
    if colours is None or max(n for n, _ in colours) < 0.9 * img.width * img.height:
        break
img.save(sys.argv[2])
PY
  kill -0 $pid 2>/dev/null || { echo "gtkwave ended while drawing:"; cat "$log"; exit 3; }
  kill $pid; wait $pid 2>/dev/null || true
' "$gtkw" "$png" "$rc" "$tcl" "$log"
if grep -q "Could not" "$log"; then
  cat "$log" >&2
  exit 4
fi
