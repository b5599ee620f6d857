#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""scripts/check_house.py on small trees made for the purpose: a tree that keeps every rule
passes, and each rule, broken once, is reported with its file and line."""
import pathlib
import subprocess
import sys
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import check_house  # noqa: E402

SPDX = "// SPDX-License-Identifier: Apache-2.0\n"
GOOD = {
    "firmware/bus.hpp": SPDX + "#pragma once\nstruct Bus {};\n",
    "driver/communicator.hpp": SPDX + '#pragma once\n#include "firmware/bus.hpp"\nstruct Communicator {};\n',
    "driver/job.cpp": SPDX + '#include "driver/communicator.hpp"\nint job() {\n  return 1;\n}\n',
    "cli/run_command.cpp": SPDX + '#include "driver/communicator.hpp"\n#include "Vtree_net.h"\nint run() { return 0; }\n',
    "tests/cli_test.cpp": SPDX + '#include "cli/run_command.cpp"\n',
    "scripts/tool.py": "#!/usr/bin/env python3\n# SPDX-License-Identifier: Apache-2.0\n",
}


class HouseRules(unittest.TestCase):
    def tree(self, changes):
        """A git tree of GOOD with `changes` ({path: text, or None to remove}) applied."""
        d = tempfile.TemporaryDirectory()
        self.addCleanup(d.cleanup)
        root = pathlib.Path(d.name)
        files = dict(GOOD)
        files.update(changes)
        for path, text in files.items():
            if text is None:
                continue
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(text)
        subprocess.run(["git", "init", "-q"], cwd=root, check=True)
        subprocess.run(["git", "add", "-A"], cwd=root, check=True)
        return root

    def breaches(self, changes, rule):
        root = self.tree(changes)
        return [(f, line, msg) for f, line, msg in check_house.RULES[rule](root, check_house.tracked(root))]

    def test_a_tree_that_keeps_every_rule_passes(self):
        root = self.tree({})
        files = check_house.tracked(root)
        for name, rule in check_house.RULES.items():
            self.assertEqual(list(rule(root, files)), [], name)

    def test_the_driver_including_the_command_line_is_a_layer_breach(self):
        got = self.breaches({"driver/job.cpp": SPDX + '#include "cli/run_command.cpp"\n'}, "layers")
        self.assertEqual(len(got), 1, got)
        self.assertEqual(got[0][:2], ("driver/job.cpp", 2))
        self.assertIn('"cli/run_command.cpp"', got[0][2])

    def test_tests_may_include_any_layer(self):
        self.assertEqual(self.breaches({}, "layers"), [])

    def test_an_include_not_rooted_at_the_repository_is_reported(self):
        got = self.breaches({"driver/job.cpp": SPDX + '#include "communicator.hpp"\n'}, "includes")
        self.assertEqual([g[:2] for g in got], [("driver/job.cpp", 2)])

    def test_two_files_of_one_name_are_reported(self):
        got = self.breaches({"cli/communicator.hpp": SPDX}, "names")
        self.assertEqual(len(got), 1, got)
        self.assertIn("communicator.hpp", got[0][2])

    def test_a_source_without_its_license_line_is_reported(self):
        got = self.breaches({"driver/job.cpp": "int job();\n"}, "spdx")
        self.assertEqual([g[0] for g in got], ["driver/job.cpp"])

    def test_a_function_over_the_limit_is_reported_with_its_length(self):
        body = "".join(f"  x += {i};\n" for i in range(check_house.FUNCTION_LIMIT))
        got = self.breaches({"driver/job.cpp": SPDX + "int job(int x) {\n" + body + "  return x;\n}\n"}, "functions")
        self.assertEqual(len(got), 1, got)
        self.assertEqual(got[0][:2], ("driver/job.cpp", 2))
        self.assertIn(f"{check_house.FUNCTION_LIMIT + 3} lines", got[0][2])

    def test_a_function_at_the_limit_passes(self):
        body = "".join(f"  x += {i};\n" for i in range(check_house.FUNCTION_LIMIT - 3))
        self.assertEqual(self.breaches({"driver/job.cpp": SPDX + "int job(int x) {\n" + body + "  return x;\n}\n"},
                                       "functions"), [])

    def test_a_facade_header_of_too_many_declarations_is_reported(self):
        decls = "".join(f"  void f{i}();\n  // a comment does not count\n\n" for i in range(check_house.FACADE_LIMIT))
        got = self.breaches({"driver/communicator.hpp": SPDX + "struct C {\n" + decls + "};\n"}, "facade")
        self.assertEqual(len(got), 1, got)
        self.assertIn(f"{check_house.FACADE_LIMIT + 2} lines of declarations", got[0][2])


if __name__ == "__main__":
    unittest.main()
