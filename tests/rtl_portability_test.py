#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""scripts/rtl_portability.sh and scripts/area_report.py (docs/synthesis.md).

  elaborate   the node reads and elaborates in Icarus Verilog and in Yosys
              (rtl_portability.sh --elaborate nd_node)
  area        a block synthesized with its area table (rtl_portability.sh --area
              cn_link_rx): its memory bits are the sum over its FIFOs of Width x Depth,
              read from the parameters Yosys logged, and each column of the parent
              includes its children
  report      area_report.py on a log written here: children counted per instance,
              a latch cell fails the report, an unknown top is named
  params      a parameter check (CMN_ASSERT_PARAM, rtl/common/cmn_assert.svh) outside
              Verilator: cmn_fifo with Width 0 refused by Icarus Verilog when vvp loads
              it (with the check's message) and by Yosys at elaboration"""
import pathlib
import re
import subprocess
import sys
import tempfile

root = pathlib.Path(__file__).resolve().parent.parent
portability = root / "scripts" / "rtl_portability.sh"
report = root / "scripts" / "area_report.py"


def check(cond, what):
    if not cond:
        sys.exit("FAIL: " + what)


def rows(table):
    out = []
    for line in table.splitlines():
        if not line.startswith("| ") or line.startswith("| block"):
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        depth = cells[0].count("&nbsp;&nbsp;")
        out.append((depth, cells[0].replace("&nbsp;", ""), [int(c) for c in cells[1:]]))
    return out


def elaborate():
    r = subprocess.run([str(portability), "--elaborate", "nd_node"], capture_output=True, text=True)
    check(r.returncode == 0, "rtl_portability.sh --elaborate nd_node failed:\n" + r.stdout + r.stderr)
    check("yosys: elaborated" in r.stdout, "no Yosys elaboration reported: " + r.stdout)
    # The torus side built with the DMA engine (not in nd_node) elaborates in both too.
    r = subprocess.run([str(portability), "--elaborate", "-P", "Dma=2", "nd_torus_net"], capture_output=True, text=True)
    check(r.returncode == 0, "rtl_portability.sh --elaborate -P Dma=2 nd_torus_net failed:\n" + r.stdout + r.stderr)


def area():
    r = subprocess.run([str(portability), "--area", "cn_link_rx"], capture_output=True, text=True)
    check(r.returncode == 0, "rtl_portability.sh --area cn_link_rx failed:\n" + r.stdout + r.stderr)
    check(" 0 latches" in r.stdout, "latches reported: " + r.stdout)
    t = rows(r.stdout)
    check(len(t) >= 3 and t[0][1] == "cn_link_rx" and t[0][0] == 0, "no cn_link_rx row on top: " + r.stdout)
    top = t[0][2]
    children = [row for row in t if row[0] == 1]
    fifos = [row for row in children if row[1].startswith("cmn_fifo")]
    check(len(fifos) == 2, "cn_link_rx should hold two FIFOs: " + r.stdout)
    bits = 0
    for _, name, cols in fifos:
        m = re.search(r"Width=(\d+), Depth=(\d+)", name)
        check(m is not None, "a FIFO without its parameters: " + name)
        check(cols[3] == int(m.group(1)) * int(m.group(2)), "memory bits of %s: %d" % (name, cols[3]))
        bits += cols[0] * cols[3]
    check(top[3] == bits, "cn_link_rx's memory bits %d, its FIFOs' %d" % (top[3], bits))
    check(top[1] > sum(c[2][0] * c[2][1] for c in children), "the parent's logic should include its children's")
    check(top[2] >= sum(c[2][0] * c[2][2] for c in children), "the parent's flip-flops should include its children's")


LOG = """
=== leaf ===

   Number of wires:                  3
   Number of cells:                  4
     $_AND_                          2
     $_DFF_PN0_                      1
     $mem_v2                         1

=== top ===

   Number of wires:                  3
   Number of cells:                  4
     $_XOR_                          5
     %s
     leaf                            3

=== design hierarchy ===

   top                               1
     leaf                            3

module \\leaf
  cell $mem_v2 \\mem_q
    parameter \\SIZE 4
    parameter \\WIDTH 8
  end
end
"""


def report_cases():
    with tempfile.TemporaryDirectory() as d:
        log = pathlib.Path(d) / "yosys.log"
        log.write_text(LOG % "$_DFFE_PP_                      2")
        r = subprocess.run([sys.executable, str(report), "--top", "top", str(log)], capture_output=True, text=True)
        check(r.returncode == 0, "area_report failed: " + r.stderr)
        t = rows(r.stdout)
        check([row[1] for row in t] == ["top", "leaf"], "rows: %s" % t)
        # top: 5 + 3*2 logic cells, 2 + 3*1 flip-flops, 3*32 memory bits
        check(t[0][2][:4] == [1, 11, 5, 96], "top's totals: %s" % t[0][2])
        check(t[1][2] == [3, 2, 1, 32, 6, 3, 96], "leaf's row: %s" % t[1][2])
        log.write_text(LOG % "$_DLATCH_P_                      1")
        r = subprocess.run([sys.executable, str(report), "--top", "top", str(log)], capture_output=True, text=True)
        check(r.returncode != 0 and "latch" in r.stderr, "a latch cell should fail the report: " + r.stderr)
        r = subprocess.run([sys.executable, str(report), "--top", "nowhere", str(log)], capture_output=True, text=True)
        check(r.returncode != 0 and "nowhere" in r.stderr, "an unknown top should be named: " + r.stderr)


def params():
    src = ["-I", str(root / "rtl" / "common"), str(root / "rtl" / "common" / "cmn_fifo.sv")]
    with tempfile.TemporaryDirectory() as d:
        out = str(pathlib.Path(d) / "ivl.out")
        for width, refused in ((1, False), (0, True)):
            r = subprocess.run(["iverilog", "-g2012", "-P", "cmn_fifo.Width=%d" % width, "-s", "cmn_fifo", "-o", out] + src,
                               capture_output=True, text=True)
            check(r.returncode == 0, "iverilog failed: " + r.stdout + r.stderr)
            r = subprocess.run(["vvp", "-n", out], capture_output=True, text=True)
            said = "cmn_fifo: Width (0) must be at least 1" in r.stdout + r.stderr
            check((r.returncode != 0 and said) == refused,
                  "vvp with Width %d: exit %d, said: %s" % (width, r.returncode, r.stdout + r.stderr))
    for width, refused in ((1, False), (0, True)):
        ys = "read_verilog -sv -DSYNTHESIS -I %s %s; chparam -set Width %d cmn_fifo; hierarchy -top cmn_fifo" % (
            src[1], src[2], width)
        r = subprocess.run(["yosys", "-q", "-p", ys], capture_output=True, text=True)
        check((r.returncode != 0) == refused, "yosys with Width %d: exit %d: %s" % (width, r.returncode, r.stdout + r.stderr))


if __name__ == "__main__":
    {"elaborate": elaborate, "area": area, "report": report_cases, "params": params}[sys.argv[1]]()
    print("ok")
