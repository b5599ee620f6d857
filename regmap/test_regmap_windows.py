#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Tests of the register bus's address windows in the register-map generator (ctest:
Regmap.Windows): a window changed in the description makes the checked-in generated files
stale, and regenerating them changes the decode on both sides (the SystemVerilog package
that nd_node, nd_tree_net and nd_torus_net decode with, and the C++ header that the SystemC
machine's Node decodes with); a window that no compare of address bits could decode, that
leaves what it lies in or overlaps another, and a register outside its window, are refused.

Like test_regmap_gen, every test works on a scratch copy of the generator's inputs and
outputs: the checked-in tree is only read.
"""
import shutil
import subprocess
import unittest

import test_regmap_gen as gen_tests  # the scratch tree and its checks (not its tests)


def window(desc, name):
    """The window `name` of the description, wherever it is nested."""
    def find(entries):
        for w in entries:
            if w["name"] == name:
                return w
            found = find(w.get("windows", []))
            if found:
                return found
        return None
    for pkg in desc["packages"]:
        for item in pkg["items"]:
            if item["kind"] == "windows":
                found = find(item["windows"])
                if found:
                    return found
    raise KeyError(name)


class Windows(gen_tests.ScratchTreeTest):
    def sv_decodes(self, module_body):
        """Elaborates a module of constant checks on the scratch tree's cn_pkg with Verilator:
        each `if (cond) $fatal` fires at elaboration, so a failure is a wrong decode."""
        verilator = shutil.which("verilator")
        if verilator is None:
            self.fail("no verilator on PATH to elaborate the generated package")
        src = self.tree.root / "decode_check.sv"
        src.write_text("`default_nettype none\nmodule decode_check;\n" + module_body + "endmodule\n")
        r = subprocess.run([verilator, "--lint-only", "-Wall", "--top-module", "decode_check",
                            str(self.tree.root / "rtl/collective/cn_pkg.sv"), str(src)], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_a_changed_window_fails_the_check_and_regenerates_both_decodes(self):
        # The barrier unit's window halves: 0x400-0x4ff instead of 0x400-0x5ff.
        self.tree.edit_description(lambda d: window(d, "Gi").update(size="0x100"))

        # The check fails, naming every file the window reaches, and writes nothing.
        sv_before = self.tree.text("rtl/collective/cn_pkg.sv")
        status, out = self.tree.run("--check")
        self.assertEqual(status, 1, out)
        for stale in ["rtl/collective/cn_pkg.sv", "firmware/regmap.hpp", "docs/register-map.md"]:
            self.assertIn(stale, out)
        self.assertIn("make regmap", out)
        self.assertEqual(self.tree.text("rtl/collective/cn_pkg.sv"), sv_before, "--check wrote a file")

        # Regenerated, the RTL's decode and the C++ decode both take the new window.
        status, out = self.tree.run()
        self.assertEqual(status, 0, out)
        sv = self.tree.text("rtl/collective/cn_pkg.sv")
        cpp = self.tree.text("firmware/regmap.hpp")
        self.assertRegex(sv, r"localparam int WinGiBits\s+= 8;")
        self.assertRegex(sv, r"in_win_gi = \(a\[BusAddrBits-1:WinGiBits\] == WinGiBase\[BusAddrBits-1:WinGiBits\]\);")
        self.assertIn("inline constexpr unsigned kWinGiBits = 8;", cpp)
        self.assertIn("| 0x400–0x4ff | `WinGi` |", self.tree.text("docs/register-map.md"))
        self.sv_decodes("  if (!cn_pkg::in_win_gi(13'h4f8)) begin : g_in $fatal(1, \"0x4f8 left the window\"); end\n"
                        "  if (cn_pkg::in_win_gi(13'h500)) begin : g_out $fatal(1, \"0x500 is still in it\"); end\n"
                        "  if (!cn_pkg::in_win_tree(13'h500)) begin : g_tree $fatal(1, \"0x500 left the tree side\"); end\n")
        self.compile_cpp('#include "firmware/regmap.hpp"\n'
                         "using namespace collnet::fw::regmap;\n"
                         "static_assert(in_win_gi(0x4f8) && !in_win_gi(0x500) && in_win_tree(0x500));\n"
                         "static_assert(in_win_torus(0x800) && !in_win_torus(0x7f8));\n"
                         "int main() { return 0; }\n")
        status, out = self.tree.run("--check")
        self.assertEqual(status, 0, out)

    def test_the_checked_in_decodes_take_exactly_their_windows(self):
        # Every window's decode, on both sides, at its first and last word and just outside.
        checks_sv, checks_cpp = [], []
        for name, lo, hi in [("tree", 0x000, 0x7ff), ("torus", 0x800, 0xfff), ("cn", 0x000, 0x3ff),
                             ("cn_sys_vc", 0x080, 0x0ff), ("gi", 0x400, 0x5ff), ("lk_tree", 0x600, 0x7ff),
                             ("tr", 0x800, 0x9ff), ("lk_torus", 0xa00, 0xbff), ("tr_perf", 0xc00, 0xfff),
                             ("dma", 0x1000, 0x13ff)]:
            inside, outside = [lo, hi & ~7], [a for a in (lo - 8, hi + 1) if 0 <= a < 0x2000]
            for a in inside:
                checks_sv.append(f"  if (!cn_pkg::in_win_{name}(13'h{a:04x})) begin : g_{name}_{a:x} "
                                 f"$fatal(1, \"{name} {a:#x}\"); end\n")
                checks_cpp.append(f"static_assert(in_win_{name}({a:#x}));\n")
            for a in outside:
                checks_sv.append(f"  if (cn_pkg::in_win_{name}(13'h{a:04x})) begin : g_{name}_{a:x} "
                                 f"$fatal(1, \"{name} {a:#x}\"); end\n")
                checks_cpp.append(f"static_assert(!in_win_{name}({a:#x}));\n")
        self.sv_decodes("".join(checks_sv))
        self.compile_cpp('#include "firmware/regmap.hpp"\nusing namespace collnet::fw::regmap;\n' + "".join(checks_cpp)
                         + "int main() { return 0; }\n")

    def test_a_window_no_compare_of_address_bits_decodes_or_out_of_its_place_is_refused(self):
        for name, key, value, why in [
                ("Gi", "size", "0x300", "size 0x300 is not a power of two"),
                ("LkTree", "base", "0x700", "base 0x700 is not aligned to its size 0x200"),
                ("TrPerf", "base", "0x400", "lies outside window Torus"),
                ("Dma", "base", "0x2000", "outside the bus's 13-bit address space"),
                ("LkTree", "base", "0x400", "overlaps window Gi")]:
            with self.subTest(window=name, **{key: value}):
                self.tree.close()
                self.tree = gen_tests.ScratchTree()
                self.expect_refused(lambda d: window(d, name).update({key: value}), f"window {name}", why)

    def test_a_register_outside_its_window_is_refused(self):
        def change(desc):
            regs = next(i for p in desc["packages"] for i in p["items"] if i["kind"] == "registers"
                        and any(r["name"] == "RegGiLocal" for r in i["registers"]))
            regs["window"] = "LkTree"
        self.expect_refused(change, "RegGiRouteBase", "lie outside window LkTree")

    def test_an_unknown_window_is_refused(self):
        self.expect_refused(lambda d: gen_tests.register(d, "tr_pkg", "RegTrPerf").update(window="Perf"),
                            "RegTrPerf", "names window 'Perf'")


if __name__ == "__main__":
    unittest.main()
