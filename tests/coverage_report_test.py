#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""scripts/coverage_report.py on a small database written here: points of two instances of
one module count once (covered if either instance reached them), and so do points of two
parameter sets of it (Verilator's MODULE__SUFFIX), branch points count as
line points, files outside rtl/ are left out, the uncovered points are listed, and the
exit status follows --min-line."""
import pathlib
import subprocess
import sys
import tempfile

script = pathlib.Path(__file__).resolve().parent.parent / "scripts" / "coverage_report.py"


def point(f, line, page, what, hier, count):
    fields = [("f", f), ("l", str(line)), ("n", "3"), ("page", page), ("o", what), ("h", hier)]
    key = "".join("\x01%s\x02%s" % kv for kv in fields)
    return "C '%s' %d\n" % (key, count)


def main():
    with tempfile.TemporaryDirectory() as d:
        dat = pathlib.Path(d) / "merged.dat"
        unc = pathlib.Path(d) / "uncovered.txt"
        dat.write_text(
            "# SystemC::Coverage-3\n"
            # one statement of cmn_x, reached by instance a only: covered
            + point("../rtl/common/cmn_x.sv", 10, "v_line/cmn_x", "block", "tb.a", 5)
            + point("../rtl/common/cmn_x.sv", 10, "v_line/cmn_x", "block", "tb.b", 0)
            # a branch of cmn_x reached by neither instance: uncovered
            + point("../rtl/common/cmn_x.sv", 12, "v_branch/cmn_x", "if", "tb.a", 0)
            + point("../rtl/common/cmn_x.sv", 12, "v_branch/cmn_x", "if", "tb.b", 0)
            # a statement of cmn_x reached only in another parameter set of it: covered
            + point("../rtl/common/cmn_x.sv", 14, "v_line/cmn_x", "block", "tb.a", 0)
            + point("../rtl/common/cmn_x.sv", 14, "v_line/cmn_x__W20", "block", "tb.c", 3)
            # a toggle point of cmn_x, and a statement of cn_y, both covered
            + point("../rtl/common/cmn_x.sv", 3, "v_toggle/cmn_x", "d_i[0]", "tb.a", 2)
            + point("../rtl/collective/cn_y.sv", 7, "v_line/cn_y", "block", "tb.y", 1)
            # a testbench's own file: not the RTL's
            + point("../tb/wrap.sv", 4, "v_line/wrap", "block", "tb", 0))

        def run(min_line):
            return subprocess.run([sys.executable, str(script), str(dat), str(unc), "--min-line", str(min_line)],
                                  capture_output=True, text=True)

        r = run(60)
        checks = [
            (r.returncode == 0, "75.0% passes --min-line 60"),
            ("| `cmn_x` | `rtl/common/cmn_x.sv` | 2 | 2 of 3 | 66.7% | 1 of 1 | 100.0% |" in r.stdout, "cmn_x's row"),
            ("| `cn_y` | `rtl/collective/cn_y.sv` | 1 | 1 of 1 | 100.0% | 0 of 0 | - |" in r.stdout, "cn_y's row"),
            ("| **all of rtl/** | | | 3 of 4 | **75.0%** | 1 of 1 | **100.0%** |" in r.stdout, "the totals"),
            ("wrap" not in r.stdout, "a file outside rtl/ is left out"),
            (unc.read_text() == "rtl/common/cmn_x.sv:12: if (cmn_x)\n", "the one uncovered point is listed"),
        ]
        r2 = run(90)
        checks.append((r2.returncode == 1 and "below 90.0%" in r2.stderr, "75.0% fails --min-line 90"))
        failed = [what for ok, what in checks if not ok]
        if failed:
            print("coverage_report: failed: " + "; ".join(failed))
            print(r.stdout, r.stderr, r2.stderr, unc.read_text(), sep="\n")
            return 1
    print("coverage_report: %d checks passed" % len(checks))
    return 0


if __name__ == "__main__":
    sys.exit(main())
