#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""A view zoomed on one packet, for the docs' picture of decoded headers (make docs-figures).

Reads a view collnet wrote (VIEW.gtkw) and its FST, finds the first cycle at which
SIGNAL (a one-bit port, e.g. node0.nd_tree_net.tree1_out_hdr_o) is 1, and writes OUT.gtkw:
the same view zoomed on the cycles around it, with the primary marker on it, so that the
names pane shows every trace's value there, the decoded header among them.

Usage: wave_figure.py VIEW.gtkw SIGNAL OUT.gtkw"""
import math
import pathlib
import re
import sys

import fst_signals

WAVE_PIXELS = 1076  # systemc/wave_view.cpp: the wave area's width in the views collnet writes


def first_high(fst, signal):
    changes, names = fst_signals.read(fst)
    if signal not in names:
        sys.exit(f"wave_figure.py: no {signal} in {fst}")
    for time, value in changes.get(signal, []):
        if value == "1":
            return time
    sys.exit(f"wave_figure.py: {signal} is never 1 in {fst}")


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    view, signal, out = pathlib.Path(sys.argv[1]), sys.argv[2], pathlib.Path(sys.argv[3])
    g = view.read_text()
    fst = view.parent / re.search(r'\[dumpfile\] "([^"]+)"', g).group(1)
    at = first_high(fst, signal)
    begin, end = max(0, at - 6), at + 34  # the header and its packet's 32 payload flits
    zoom = -math.log2(200 * (end - begin + 1) / (WAVE_PIXELS - 4))
    g = re.sub(r"\[timestart\] \d+", f"[timestart] {begin}", g)
    g = re.sub(r"^\*-?[0-9.]+ -?\d+", f"*{zoom:.6f} {at}", g, flags=re.M)
    g = re.sub(r'\[savefile\] "[^"]+"', f'[savefile] "{out.name}"', g)
    out.write_text(g)
    print(f"wave_figure.py: {signal} first 1 at cycle {at}; {out} shows cycles {begin} to {end}")


if __name__ == "__main__":
    main()
