#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the rules that keep the source tree easy to walk (docs/architecture.md#house-rules).

  layers     a folder includes only the folders below it (LAYERS): the driver never sees the
             simulator, the reference model never sees the command line, and so on
  includes   every quoted #include names its file from the repository's root
  names      no two source files share a name
  spdx       every source file opens with its SPDX license line
  functions  no function in cli/ or driver/ is longer than 120 lines (universal-ctags)
  facade     driver/communicator.hpp holds under 200 lines of declarations

Usage: check_house.py [--root SRC] [RULE ...]. Exit status 1 lists every breach with the
file, the line and the rule; no rules named runs them all.
"""
import argparse
import pathlib
import re
import shutil
import subprocess
import sys

# The folders a folder's sources may include from. A folder not listed (tests/, tb/, fuzz/)
# may include anything: they test the layers. fuzz/'s harnesses test the command line itself.
LAYERS = {
    "firmware": {"firmware"},
    "workload": {"workload", "firmware"},
    "driver": {"driver", "firmware"},
    "reference": {"reference", "driver", "firmware"},
    "systemc": {"systemc", "workload", "firmware"},
    "mpi": {"mpi", "driver", "firmware"},
    "cli": {"cli", "reference", "mpi", "driver", "systemc", "workload", "firmware"},
    "examples": {"driver", "systemc", "workload", "firmware"},
}
SOURCE_SUFFIXES = {".cpp", ".hpp", ".h", ".c", ".sv", ".svh", ".vlt", ".in", ".py", ".sh", ".cmake"}
# Headers that are not in the tree: Verilator's runtime, the models it writes (V<top>.h and
# their internals) and the C programs' own header beside them (tests/mpi/programs).
EXTERNAL_HEADER = re.compile(r"^(verilated[a-z_]*\.h|vltstd/.*|V[A-Za-z0-9_]+\.h|mpi\.h)$")
# Programs that are compiled the way a user compiles theirs (collnet-mpicc), not by the build.
USER_PROGRAMS = ("tests/mpi/programs/",
                 "mpi/include/")  # the MPI programs' own header, found with -I (and installed) as a folder
# Files that may share a name: the build's and the folders' front pages, and data.
SHARED_NAMES = {"CMakeLists.txt", "README.md"}
FUNCTION_LIMIT = 120
FUNCTION_FOLDERS = ("cli", "driver")
FACADE = "driver/communicator.hpp"
FACADE_LIMIT = 200
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def tracked(root):
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=root,
                         capture_output=True, text=True, check=True).stdout.split()
    return sorted(p for p in set(out) if (root / p).is_file())


def sources(files):
    for f in files:
        p = pathlib.PurePosixPath(f)
        if p.suffix in SOURCE_SUFFIXES or p.name in {"CMakeLists.txt", "Makefile"}:
            yield f


def includes(root, f):
    text = (root / f).read_text(errors="replace")
    for m in INCLUDE.finditer(text):
        yield text.count("\n", 0, m.start()) + 1, m.group(1)


def check_layers(root, files):
    for f in files:
        if not f.endswith((".cpp", ".hpp", ".h", ".c", ".in")):
            continue
        allowed = LAYERS.get(f.split("/", 1)[0])
        if allowed is None:
            continue
        for line, inc in includes(root, f):
            top = inc.split("/", 1)[0]
            if "/" in inc and top in LAYERS and top not in allowed:
                yield f, line, f'includes "{inc}": {f.split("/", 1)[0]}/ may include only {", ".join(sorted(allowed))}'


def check_includes(root, files):
    for f in files:
        if not f.endswith((".cpp", ".hpp", ".h", ".c", ".in")) or f.startswith(USER_PROGRAMS):
            continue
        for line, inc in includes(root, f):
            if EXTERNAL_HEADER.match(inc) or (root / inc).is_file():
                continue
            yield f, line, f'includes "{inc}", which is not a path from the repository root'


def check_names(root, files):
    seen = {}
    for f in sources(files):
        name = pathlib.PurePosixPath(f).name
        if name in SHARED_NAMES:
            continue
        if name in seen:
            yield f, 1, f"shares its name with {seen[name]}"
        else:
            seen[name] = f


def check_spdx(root, files):
    for f in sources(files):
        head = (root / f).read_text(errors="replace")[:300]
        if "SPDX-License-Identifier:" not in head:
            yield f, 1, "does not open with an SPDX-License-Identifier line"


def check_functions(root, files):
    ctags = shutil.which("ctags")
    if ctags is None:
        raise SystemExit("check_house: the functions rule needs universal-ctags (make deps installs it)")
    targets = [f for f in files if f.split("/", 1)[0] in FUNCTION_FOLDERS and f.endswith((".cpp", ".hpp"))]
    out = subprocess.run([ctags, "--languages=C++", "--kinds-C++=f", "--fields=+ne", "-f", "-"] + targets,
                         cwd=root, capture_output=True, text=True, check=True).stdout
    for row in out.splitlines():
        cols = row.split("\t")
        fields = dict(c.split(":", 1) for c in cols[3:] if ":" in c)
        if "line" not in fields or "end" not in fields:
            continue
        start, end = int(fields["line"]), int(fields["end"])
        if end - start + 1 > FUNCTION_LIMIT:
            yield cols[1], start, f"{cols[0]} is {end - start + 1} lines long (at most {FUNCTION_LIMIT})"


def declaration_lines(text):
    """Lines of a header that are neither blank nor comments."""
    n, in_block = 0, False
    for raw in text.splitlines():
        line = raw.strip()
        if in_block:
            in_block = "*/" not in line
            continue
        if not line or line.startswith("//"):
            continue
        if line.startswith("/*"):
            in_block = "*/" not in line
            continue
        n += 1
    return n


def check_facade(root, files):
    if FACADE not in files:
        return
    n = declaration_lines((root / FACADE).read_text())
    if n >= FACADE_LIMIT:
        yield FACADE, 1, f"holds {n} lines of declarations (under {FACADE_LIMIT}: the communicator is a façade)"


RULES = {"layers": check_layers, "includes": check_includes, "names": check_names, "spdx": check_spdx,
         "functions": check_functions, "facade": check_facade}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=pathlib.Path, default=pathlib.Path(__file__).resolve().parent.parent)
    ap.add_argument("rules", nargs="*", metavar="RULE", help="rules to check (default: all): " + ", ".join(RULES))
    args = ap.parse_args(argv)
    unknown = [r for r in args.rules if r not in RULES]
    if unknown:
        ap.error(f"no rule {', '.join(unknown)} (the rules: {', '.join(RULES)})")
    root = args.root.resolve()
    files = tracked(root)
    breaches = []
    for name in args.rules or RULES:
        breaches += [(f, line, name, msg) for f, line, msg in RULES[name](root, files)]
    for f, line, name, msg in breaches:
        print(f"{f}:{line}: [{name}] {msg}", file=sys.stderr)
    if breaches:
        print(f"check_house: {len(breaches)} breaches (docs/architecture.md#house-rules)", file=sys.stderr)
        return 1
    print(f"check_house: {len(files)} files keep every rule ({', '.join(args.rules or RULES)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
