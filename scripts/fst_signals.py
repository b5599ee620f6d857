# SPDX-License-Identifier: Apache-2.0
"""The value changes an FST holds, read through GTKWave's fst2vcd: for scripts/wave_figure.py
and the tests that compare traces (tests/partitions_cli.py)."""
import subprocess


def read(fst):
    """({signal's full name: [(time, value), ...]}, every signal's full name). A full name is
    its scopes and its name joined by dots (node0.nd_tree_net.tree1_out_hdr_o); a value is
    the VCD's: "0", "1", "x" or "z" for one bit, "b0101..." for a vector, "r1.5" for a real."""
    vcd = subprocess.run(["fst2vcd", "-f", str(fst)], capture_output=True, text=True, check=True).stdout
    ids, scope, changes, names, t = {}, [], {}, set(), 0
    for line in vcd.splitlines():
        w = line.split()
        if not w:
            continue
        if w[0] == "$scope":
            scope.append(w[2])
        elif w[0] == "$upscope":
            scope.pop()
        elif w[0] == "$var":
            name = ".".join(scope + [w[4]])
            ids.setdefault(w[3], []).append(name)
            names.add(name)
        elif w[0][0] == "#":
            t = int(w[0][1:])
        elif w[0][0] in "bBrR" and len(w) == 2:
            for n in ids.get(w[1], []):
                changes.setdefault(n, []).append((t, w[0]))
        elif w[0][0] in "01xzXZ":
            for n in ids.get(w[0][1:], []):
                changes.setdefault(n, []).append((t, w[0][0]))
    return changes, names
