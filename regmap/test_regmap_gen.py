#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Tests of the register-map generator (ctest: Regmap.Generator).

Each test copies the description, the generator's inputs and every generated file into a
scratch source tree, so the checked-in tree is only ever read.
"""
import io
import json
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
import regmap_gen  # noqa: E402

INPUTS = ["regmap/collnet.json", "regmap/regmap_gen.py", "rtl/collective/cn_pkg_functions.svh",
          "rtl/torus/tr_pkg_functions.svh", "rtl/link/lk_pkg_functions.svh", "rtl/dma/dm_pkg_functions.svh",
          "rtl/node/nd_tree_net.sv", "rtl/node/nd_torus_net.sv"]


class ScratchTree:
    """A copy of the generator's inputs and outputs in a temporary directory."""

    def __init__(self):
        self.dir = tempfile.TemporaryDirectory(prefix="regmap-test-")
        self.root = pathlib.Path(self.dir.name)
        for rel in INPUTS + list(regmap_gen.generate(ROOT)):
            dst = self.root / rel
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(ROOT / rel, dst)

    def edit_description(self, fn):
        p = self.root / regmap_gen.DESCRIPTION
        desc = json.loads(p.read_text())
        fn(desc)
        p.write_text(json.dumps(desc, indent=1))

    def run(self, *args):
        """(exit status, stdout + stderr) of the generator run as a command on this tree."""
        r = subprocess.run([sys.executable, str(self.root / regmap_gen.GENERATOR), "--root", str(self.root), *args],
                           capture_output=True, text=True)
        return r.returncode, r.stdout + r.stderr

    def text(self, rel):
        return (self.root / rel).read_text()

    def close(self):
        self.dir.cleanup()


def package(desc, name):
    return next(p for p in desc["packages"] if p["name"] == name)


def register(desc, pkg, name):
    for item in package(desc, pkg)["items"]:
        for r in item.get("registers", []):
            if r["name"] == name:
                return r
    raise KeyError(name)


class ScratchTreeTest(unittest.TestCase):
    """A test on a scratch tree of its own, and the check that a description is refused."""

    def setUp(self):
        self.tree = ScratchTree()

    def tearDown(self):
        self.tree.close()

    def expect_refused(self, change, *words):
        self.tree.edit_description(change)
        before = self.tree.text("rtl/collective/cn_pkg.sv")
        status, out = self.tree.run()
        self.assertEqual(status, 2, out)
        for w in words:
            self.assertIn(w, out)
        self.assertEqual(self.tree.text("rtl/collective/cn_pkg.sv"), before, "a refused description wrote a file")

    def compile_cpp(self, source):
        """Compiles `source` (C++17) against the scratch tree's headers; fails the test on an error."""
        cxx = shutil.which("g++") or shutil.which("c++")
        if cxx is None:
            self.fail("no C++ compiler on PATH to compile the generated headers")
        src = self.tree.root / "check.cpp"
        src.write_text(source)
        r = subprocess.run([cxx, "-std=c++17", "-fsyntax-only", "-Wall", "-Wextra", "-Werror", "-I",
                            str(self.tree.root), str(src)], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)


class Generator(ScratchTreeTest):

    def test_checked_in_generated_files_are_current(self):
        out = io.StringIO()
        with redirect_stdout(out), redirect_stderr(out):
            status = regmap_gen.main(["--check", "--root", str(ROOT)])
        self.assertEqual(status, 0, "a checked-in generated file is stale; run `make regmap`:\n" + out.getvalue())

    def test_an_offset_and_a_width_change_regenerate_rtl_cpp_and_docs(self):
        def change(desc):
            register(desc, "cn_pkg", "RegErr")["offset"] = "0x070"
            status = register(desc, "cn_pkg", "RegStatus")
            next(f for f in status["fields"] if f["name"] == "RcvData")["width"] = 13
        self.tree.edit_description(change)

        # A stale tree fails the check, naming each side that is out of date.
        status, out = self.tree.run("--check")
        self.assertEqual(status, 1, out)
        for stale in ["rtl/collective/cn_pkg.sv", "firmware/regmap.hpp", "docs/register-map.md"]:
            self.assertIn(stale, out)
        self.assertIn("make regmap", out)
        self.assertEqual(self.tree.text("rtl/collective/cn_pkg.sv"), (ROOT / "rtl/collective/cn_pkg.sv").read_text(),
                         "--check wrote a file")

        # Regenerating moves the register and widens the field on all three sides.
        status, out = self.tree.run()
        self.assertEqual(status, 0, out)
        sv = self.tree.text("rtl/collective/cn_pkg.sv")
        cpp = self.tree.text("firmware/regmap.hpp")
        doc = self.tree.text("docs/register-map.md")
        self.assertRegex(sv, r"localparam logic \[12:0\] RegErr\s+= 13'h0070;")
        self.assertRegex(sv, r"localparam int StatusRcvDataW\s+= 13;")
        self.assertIn("inline constexpr uint32_t kRegErr = 0x070;", cpp)
        self.assertIn("inline constexpr unsigned kStatusRcvDataW = 13;", cpp)
        self.assertIn("| 0x070 | `RegErr` |", doc)
        self.assertIn("| 52:40 | RcvData |", doc)
        self.assertNotIn("| 0x030 | `RegErr` |", doc)
        status, out = self.tree.run("--check")
        self.assertEqual(status, 0, out)

    def test_a_hand_edited_generated_file_fails_the_check(self):
        p = self.tree.root / "firmware/regmap.hpp"
        p.write_text(p.read_text().replace("kRegErr = 0x030", "kRegErr = 0x038"))
        status, out = self.tree.run("--check")
        self.assertEqual(status, 1, out)
        self.assertIn("firmware/regmap.hpp", out)
        self.assertNotIn("cn_pkg.sv", out)

    def test_the_generated_header_compiles_and_its_values_hold(self):
        self.compile_cpp('#include "firmware/regmap.hpp"\n'
                         "using namespace collnet::fw::regmap;\n"
                         "static_assert(kBusDataBits == 256);\n"
                         "static_assert(reg_route_base(3) == 0x118);\n"
                         "static_assert(get_field(0xabcd'0000'0000'0000ULL, kStatusErrBit, 1) == 1);\n"
                         "static_assert(set_field(0, kHdrClassLsb, kHdrClassW, 0x1f) == 0xf0000000u);\n"
                         "static_assert(kMaxPacketFlits == 33);\n"
                         "static_assert(in_reg_route_base(0x178) && reg_route_base_index(0x178) == 15);\n"
                         "static_assert(!in_reg_route_base(0x17c) && !in_reg_route_base(0x180));\n"
                         "static_assert(in_reg_tr_inj_hdr(0x830) && !in_reg_tr_inj_hdr(0x838));\n"
                         "int main() { return 0; }\n")

    def test_the_register_table_holds_every_register_as_the_description_gives_it(self):
        self.compile_cpp('#include "firmware/regmap_table.hpp"\n'
                         "using namespace collnet::fw::regmap;\n"
                         "constexpr const RegisterInfo& row(const RegisterInfo* t, const char* name, unsigned i = 0) {\n"
                         "  for (;; ++t) {\n"
                         "    const char* a = t->name; const char* b = name;\n"
                         "    while (*a && *a == *b) ++a, ++b;\n"
                         "    if (*a == *b && i-- == 0) return *t;\n"
                         "  }\n"
                         "}\n"
                         # every package's registers, arrays by element, the system VC's window as mirrors
                         "static_assert(std::size(kCnRegisters) == 14 + kNumClasses + 8);\n"
                         "static_assert(std::size(kGiRegisters) == 4 + kGiChannels);\n"
                         "static_assert(std::size(kTrRegisters) == 6 + 2 * kTrInjFifos + 2 * kTrRcvFifos + kNumDirs);\n"
                         "static_assert(std::size(kLkRegisters) == 3 + 6);\n"
                         "static_assert(std::size(kDmRegisters) == 16 + 2 * kDmCounters);\n"
                         "static_assert(std::size(kRegisterTables) == 5);\n"
                         # reset values, access kinds, privilege, error bits
                         "static_assert(row(kCnRegisters, \"RegId\").has_reset && row(kCnRegisters, \"RegId\").reset == kRegIdValue);\n"
                         "static_assert(!row(kCnRegisters, \"RegStatus\").has_reset);\n"
                         "static_assert(row(kCnRegisters, \"RegRcvVector\").pops && row(kCnRegisters, \"RegRcvVector\").vector);\n"
                         "static_assert(row(kCnRegisters, \"RegErrClear\").access == Access::W1C);\n"
                         "static_assert(row(kCnRegisters, \"RegErrClear\").clears == kRegErr);\n"
                         "static_assert(!row(kCnRegisters, \"RegRouteBase[11]\").priv_write);\n"
                         "static_assert(row(kCnRegisters, \"RegRouteBase[12]\").priv_write);\n"
                         "static_assert(row(kCnRegisters, \"RegSysVcOffset + RegStatus\").addr == 0x088);\n"
                         "static_assert(row(kCnRegisters, \"RegSysVcOffset + RegStatus\").priv_read);\n"
                         "static_assert(row(kCnRegisters, \"RegId\").bad_access_bit == int(kErrBadAddr));\n"
                         "static_assert(row(kGiRegisters, \"RegGiResult\").bad_access_bit == kNoBit);\n"
                         "static_assert(row(kGiRegisters, \"RegGiRouteBase[2]\").priv_bit == int(kGiErrPriv));\n"
                         "static_assert(row(kTrRegisters, \"RegTrStatus\").reset ==\n"
                         "              (uint64_t{kTrInjFlits} * (1 | 1 << kTrStatusInjFreeStride | 1 << 2 * kTrStatusInjFreeStride)));\n"
                         "static_assert(row(kLkRegisters, \"RegLkTorus[5]\").err_reg == kRegTrErr);\n"
                         "static_assert(row(kLkRegisters, \"RegLkTree[0]\").err_reg == kRegErr);\n"
                         "int main() { return 0; }\n")

    def test_overlapping_fields_are_refused(self):
        def change(desc):
            fields = register(desc, "cn_pkg", "RegStatus")["fields"]
            next(f for f in fields if f["name"] == "InjHdrFree")["width"] = 9  # runs into InjDataFree at bit 8
        self.expect_refused(change, "RegStatus", "InjDataFree", "bit 8 is also field InjHdrFree")

    def test_a_field_outside_its_word_is_refused(self):
        def change(desc):
            layout = next(i for i in package(desc, "cn_pkg")["items"] if i.get("id") == "header")
            next(f for f in layout["fields"] if f["name"] == "Class")["width"] = 5
        self.expect_refused(change, "packet header", "Class", "do not fit in a 32-bit word")

    def test_two_registers_at_one_address_are_refused(self):
        self.expect_refused(lambda d: register(d, "cn_pkg", "RegErrClear").update(offset="0x030"),
                            "RegErrClear", "overlap RegErr")

    def test_a_register_array_running_into_another_is_refused(self):
        self.expect_refused(lambda d: register(d, "tr_pkg", "RegTrInjHdr").update(count=5),
                            "RegTrInjChunk", "overlap RegTrInjHdr")

    def test_a_failing_check_is_refused(self):
        payload_flits = lambda d: next(c for c in package(d, "cn_pkg")["items"][0]["constants"]
                                       if c["name"] == "PayloadFlits")
        self.expect_refused(lambda d: payload_flits(d).update(value=30),
                            "PayloadFlits % VectorWords == 0", "whole vectors")

    def test_an_undefined_name_is_refused(self):
        self.expect_refused(lambda d: register(d, "cn_pkg", "RegRouteBase").update(count="NumClases"),
                            "RegRouteBase", "NumClases", "not defined")

    def test_duplicate_flag_bits_are_refused(self):
        self.expect_refused(lambda d: register(d, "cn_pkg", "RegErr")["flags"][3].update(bit=2),
                            "RegErr", "BadOpcode", "bit 2 is also HdrMismatch")

    def test_a_doc_marker_naming_an_unknown_table_is_refused(self):
        p = self.tree.root / "docs/register-map.md"
        p.write_text(p.read_text() + "\n<!-- regmap: cn_pkg.NoSuchTable -->\n<!-- /regmap -->\n")
        status, out = self.tree.run()
        self.assertEqual(status, 2, out)
        self.assertIn("cn_pkg.NoSuchTable", out)

    def test_every_sv_constant_is_in_the_cpp_header_with_its_value(self):
        files = regmap_gen.generate(ROOT)
        cpp = files["firmware/regmap.hpp"]
        n = 0
        for path in ["rtl/collective/cn_pkg.sv", "rtl/barrier/gi_pkg.sv", "rtl/torus/tr_pkg.sv"]:
            for name in re.findall(r"localparam (?:int|logic \[\d+:0\]) (\w+)\s*=", files[path]):
                self.assertRegex(cpp, rf"inline constexpr \w+ k{name} = ", f"{name} of {path} is not in regmap.hpp")
                n += 1
        self.assertGreater(n, 130)


def size(desc, key):
    return next(e for e in desc["sizes"]["parameters"] if e["key"] == key)


class Sizes(ScratchTreeTest):
    """The catalogue of the node's sizes (description "sizes", firmware/rtl_sizes.hpp)."""

    def test_a_default_other_than_the_rtl_s_is_refused(self):
        self.expect_refused(lambda d: size(d, "torus.vc_buffer_flits").update(default=32 + 8),
                            "torus.vc_buffer_flits", "the default is 40", "nd_torus_net declares DynFlits = 64")

    def test_a_parameter_the_top_lacks_is_refused(self):
        self.expect_refused(lambda d: size(d, "tree.link_buffer_packets").update(param="LinkBuffers"),
                            "tree.link_buffer_packets", "nd_tree_net.sv declares no parameter int LinkBuffers")

    def test_bounds_that_are_not_allowed_values_are_refused(self):
        self.expect_refused(lambda d: size(d, "torus.reception_fifo_flits").update(max=4095),
                            "torus.reception_fifo_flits", "bounds 36..4095 must be allowed values")
        self.expect_refused(lambda d: size(d, "tree.retransmission_flits").update(min=48),
                            "tree.retransmission_flits", "bounds 48..128")

    def test_the_catalogue_compiles_and_has_every_entry(self):
        desc = json.loads((ROOT / regmap_gen.DESCRIPTION).read_text())
        n = len(desc["sizes"]["parameters"])
        self.compile_cpp('#include "firmware/rtl_sizes.hpp"\n#include <iterator>\n'
                         f"static_assert(std::size(collnet::fw::regmap::kSizes) == {n});\n"
                         "static_assert(collnet::fw::regmap::kSizes[0].min <= collnet::fw::regmap::kSizes[0].def);\n")
        table = regmap_gen.generate(ROOT)["docs/design-space.md"]
        for e in desc["sizes"]["parameters"]:
            self.assertIn(f"| `{e['key']}` | `{e['top']}.{e['param']}` | {e['default']} |", table)


if __name__ == "__main__":
    unittest.main()
