#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The area of a synthesized design, block by block, from a Yosys log (docs/synthesis.md).

Reads the log of a hierarchical Yosys run (scripts/rtl_portability.sh --area) that ends in
`stat` (one section per module, then the design hierarchy) and `dump t:$mem_v2` (every
memory cell with its SIZE and WIDTH), and prints a Markdown table of the hierarchy: per
block, how many instances the top holds, and per instance (children included) the logic
cells (Yosys's generic gates), the flip-flops (one bit each) and the memory bits (FIFO and
buffer storage kept as memories, for a memory compiler or RAM blocks to implement).

Usage: area_report.py YOSYS_LOG [--top MODULE]
"""
import argparse
import collections
import re
import sys

SECTION = re.compile(r"^=== (?P<name>.+) ===$")
CELL = re.compile(r"^ {5}(?P<type>\S+)\s+(?P<count>\d+)$")
FLOP = re.compile(r"^\$_(S?DFFS?E?|ALDFFE?|DFFSRE?)_")
LATCH = re.compile(r"^\$_(DLATCH|SR)")
DERIVED = re.compile(r"^(Generating RTLIL representation|Found cached RTLIL representation) for module `(?P<name>\$paramod.+)'\.$")


def value(v):
    """A parameter value as Yosys logs it (25, or 16'0001000000100001) for a label."""
    m = re.fullmatch(r"(\d+)'([01]+)", v)
    if m:
        return "%d'h%x" % (int(m.group(1)), int(m.group(2), 2))
    return v


def parse(path):
    """module -> Counter of cell types (its own cells and its submodule instances);
    module -> memory bits of its own memory cells; derived module -> its parameters."""
    cells = {}
    membits = collections.Counter()
    params = {}  # a derived module -> its parameters, as Yosys logged them
    pending = []
    current = None
    dump_module = None
    size = width = None
    with open(path, errors="replace") as f:
        for raw in f:
            line = raw.rstrip("\n")
            if line.startswith("Parameter \\"):
                k, _, v = line[len("Parameter \\"):].partition(" = ")
                pending.append((k, value(v)))
                continue
            m = DERIVED.match(line)
            if m:
                params.setdefault(m.group("name"), pending)
                pending = []
                continue
            if "Executing AST frontend in derive mode" in line:
                pending = []
            m = SECTION.match(line)
            if m:
                current = m.group("name")
                if current != "design hierarchy":
                    cells[current] = collections.Counter()
                continue
            if line.startswith("module "):
                dump_module, current = line[len("module "):].lstrip("\\"), None
                continue
            if current and current != "design hierarchy":
                c = CELL.match(line)
                if c:
                    cells[current][c.group("type")] += int(c.group("count"))
                elif line.startswith("   Number of") or not line.strip():
                    pass
                else:
                    current = None
                continue
            if dump_module:
                if line.startswith("  cell $mem_v2 "):
                    size = width = None
                elif line.startswith("    parameter \\SIZE "):
                    size = int(line.split()[-1])
                elif line.startswith("    parameter \\WIDTH "):
                    width = int(line.split()[-1])
                elif line == "  end" and size is not None and width is not None:
                    membits[dump_module] += size * width
                    size = width = None
    return cells, membits, params


def label(name, params):
    """A readable name: the module and its parameters. Yosys names a module derived with
    parameters $paramod\\BASE\\K=V... or $paramod$HASH\\BASE."""
    base = name
    if name.startswith("$paramod\\"):
        base = name.split("\\")[1]
    elif name.startswith("$paramod$"):
        base = name.rsplit("\\", 1)[-1]
    p = params.get(name)
    return "%s (%s)" % (base, ", ".join("%s=%s" % kv for kv in p)) if p else base


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("log")
    ap.add_argument("--top", default="nd_node")
    a = ap.parse_args()
    cells, membits, params = parse(a.log)
    if a.top not in cells:
        sys.exit("area_report: no stat section for module %s in %s" % (a.top, a.log))

    memo = {}

    def totals(mod):
        """(logic cells, flops, memory bits, latches) of one instance, children included."""
        if mod in memo:
            return memo[mod]
        logic = flops = latches = 0
        bits = membits[mod]
        for typ, n in cells[mod].items():
            if typ in cells:
                sub = totals(typ)
                logic += n * sub[0]
                flops += n * sub[1]
                bits += n * sub[2]
                latches += n * sub[3]
            elif FLOP.match(typ):
                flops += n
            elif LATCH.match(typ):
                latches += n
            elif typ.startswith("$_"):
                logic += n
        memo[mod] = (logic, flops, bits, latches)
        return memo[mod]

    print("| block | instances | logic cells | flip-flops | memory bits | logic cells, all instances | flip-flops, all instances | memory bits, all instances |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")

    def walk(mod, depth, count):
        logic, flops, bits, _ = totals(mod)
        name = label(mod, params)
        indent = "&nbsp;&nbsp;" * depth
        print("| %s%s | %d | %d | %d | %d | %d | %d | %d |"
              % (indent, name, count, logic, flops, bits, count * logic, count * flops, count * bits))
        subs = [(t, n) for t, n in cells[mod].items() if t in cells]
        for t, n in sorted(subs, key=lambda tn: -totals(tn[0])[0] * tn[1]):
            walk(t, depth + 1, count * n)

    walk(a.top, 0, 1)
    latches = totals(a.top)[3]
    if latches:
        sys.exit("area_report: %d latch cells in %s" % (latches, a.top))


if __name__ == "__main__":
    main()
