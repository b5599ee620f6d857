#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Summarizes a merged Verilator coverage database (make coverage, docs/coverage.md).

Reads MERGED.dat (verilator_coverage --write), keeps the points in the RTL (files under
rtl/), and prints a Markdown table per module: line coverage (Verilator's line and branch
points: a statement block or a branch taken at least once), toggle coverage (each bit of
each signal seen going both ways) and their totals over rtl/. Writes the uncovered line
and branch points, file:line and what they are, to UNCOVERED (one per line, sorted).

Usage: coverage_report.py MERGED.dat UNCOVERED [--min-line PERCENT]
Exit status 1 when the total line coverage is below --min-line (default 0: never).
"""
import argparse
import collections
import re
import sys

POINT = re.compile(rb"^C '(?P<key>.*)' (?P<count>\d+)$")


def points(path):
    with open(path, "rb") as f:
        for raw in f:
            m = POINT.match(raw.rstrip(b"\n"))
            if not m:
                continue
            fields = {}
            for item in m.group("key").split(b"\x01"):
                if b"\x02" in item:
                    k, v = item.split(b"\x02", 1)
                    fields[k.decode()] = v.decode(errors="replace")
            yield fields, int(m.group("count"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("merged")
    ap.add_argument("uncovered")
    ap.add_argument("--min-line", type=float, default=0.0)
    a = ap.parse_args()

    # (kind, module) -> [covered, total]; kind: line (line and branch points) or toggle.
    # A point is counted once per (file, line, what it is, instance-independent name):
    # the same statement in two instances of a module is one point, covered if either ran it.
    # So is the same statement in two parameter sets of a module (Verilator names a module
    # Verilated with other parameters MODULE__SUFFIX): a line of rtl/ is one point.
    seen = {}
    files = {}
    variants = collections.defaultdict(set)
    for f, count in points(a.merged):
        path = f.get("f", "")
        if "rtl/" not in path:
            continue
        page = f.get("page", "")
        kind_name, _, verilated = page.partition("/")
        module = verilated.split("__")[0]
        variants[module].add(verilated)
        kind = {"v_line": "line", "v_branch": "line", "v_toggle": "toggle"}.get(kind_name)
        if not kind:
            continue
        rel = path[path.index("rtl/"):]
        key = (kind, module, rel, f.get("l", "0"), f.get("n", ""), f.get("o", ""))
        seen[key] = seen.get(key, 0) + count
        files[module] = rel

    table = collections.defaultdict(lambda: {"line": [0, 0], "toggle": [0, 0]})
    uncovered = []
    for (kind, module, rel, line, col, what), count in seen.items():
        cell = table[module][kind]
        cell[1] += 1
        if count > 0:
            cell[0] += 1
        elif kind == "line":
            uncovered.append((rel, int(line), what, module))

    def pct(c):
        return "%.1f%%" % (100.0 * c[0] / c[1]) if c[1] else "-"

    total = {"line": [0, 0], "toggle": [0, 0]}
    print("| module | file | parameter sets | line points covered | line coverage | toggle points covered | toggle coverage |")
    print("|---|---|---|---|---|---|---|")
    for module in sorted(table):
        row = table[module]
        for k in total:
            total[k][0] += row[k][0]
            total[k][1] += row[k][1]
        print("| `%s` | `%s` | %d | %d of %d | %s | %d of %d | %s |" % (
            module, files[module], len(variants[module]), row["line"][0], row["line"][1], pct(row["line"]),
            row["toggle"][0], row["toggle"][1], pct(row["toggle"])))
    print("| **all of rtl/** | | | %d of %d | **%s** | %d of %d | **%s** |" % (
        total["line"][0], total["line"][1], pct(total["line"]),
        total["toggle"][0], total["toggle"][1], pct(total["toggle"])))

    with open(a.uncovered, "w") as out:
        for rel, line, what, module in sorted(uncovered):
            out.write("%s:%d: %s (%s)\n" % (rel, line, what, module))

    line_pct = 100.0 * total["line"][0] / total["line"][1] if total["line"][1] else 0.0
    if line_pct < a.min_line:
        print("coverage: line coverage %.1f%% is below %.1f%%" % (line_pct, a.min_line), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
