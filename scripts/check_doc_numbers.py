#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the numbers the documentation quotes against fresh runs of build/collnet.

Two kinds of quotes are checked, in README.md and docs/*.md:

1. A line of `collnet run` output inside a code block, such as
       allreduce op=sum type=u64 count=1024 torus=4x4x4 nodes=64: 1122 cycles (...), ..., verified
   The line names its own run (the collective and every key=value before the colon), so
   the checker runs exactly that and expects the very same line back.

2. A number in prose, marked by a comment just before it:
       <!-- docnum: run scan --torus 4x2x1 --count 8 => cycles -->102 cycles
   The checker runs `collnet run scan --torus 4x2x1 --count 8 --json F` and compares the
   number after the comment with the JSON value `cycles`. The key `trace_mb` instead runs
   with --trace and compares the FST's size in megabytes (10^6 bytes), rounded.

Usage: check_doc_numbers.py BUILD_DIR [--root SRC]. Exit status 1 lists every quote that
differs, with the file and line, what the docs say and what the run gave.
"""
import argparse
import json
import pathlib
import re
import subprocess
import sys
import tempfile

OUTPUT_LINE = re.compile(r"^(?P<collective>[a-z]+) (?P<fields>(?:[a-z_]+=\S+ )*)nodes=\d+: \d+ cycles")
MARKER = re.compile(r"<!-- docnum: (?P<args>.+?) => (?P<key>\w+) -->\s*(?P<value>[0-9][0-9,.]*)")
# key=value fields of an output line, and the option each came from
OPTIONS = {"op": "--op", "type": "--type", "count": "--count", "torus": "--torus", "ranks": "--ranks",
           "root": "--root", "tasks": "--tasks", "algorithm": "--algorithm", "down": "--down-nodes"}


def quotes(path):
    """(line number, kind, payload) for every checkable quote in a Markdown file."""
    in_code = False
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if line.startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            m = OUTPUT_LINE.match(line)
            if m:
                yield n, "line", (m, line)
        for m in MARKER.finditer(line):
            yield n, "marker", m


def run(collnet, args, tmp, trace=False):
    json_path = tmp / "run.json"
    cmd = [str(collnet)] + args + ["--json", str(json_path)]
    if trace:
        cmd += ["--trace", str(tmp / "run.fst")]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"`{' '.join(cmd)}` failed ({r.returncode}): {r.stderr.strip()}")
    return r.stdout, json.loads(json_path.read_text())


def check_line(collnet, m, line, tmp):
    args = ["run", m.group("collective")]
    for field in m.group("fields").split():
        key, value = field.split("=", 1)
        if key not in OPTIONS:
            return f"cannot tell which option gives {key}= (known: {', '.join(OPTIONS)})"
        args += [OPTIONS[key], value]
    out, _ = run(collnet, args, tmp)
    got = next((l for l in out.splitlines() if l.startswith(m.group("collective") + " ")), "")
    return None if got == line else f"`collnet {' '.join(args)}` now prints:\n      {got}\n    the docs say:\n      {line}"


def check_marker(collnet, m, tmp):
    args, key, quoted = m.group("args").split(), m.group("key"), m.group("value").replace(",", "")
    if key == "trace_mb":
        run(collnet, args, tmp, trace=True)
        got = round((tmp / "run.fst").stat().st_size / 1e6)
    else:
        _, data = run(collnet, args, tmp)
        if key not in data:
            return f"`collnet {' '.join(args)}` reports no JSON key {key!r}"
        got = data[key]
    same = float(quoted) == float(got)
    return None if same else f"`collnet {' '.join(args)}` gives {key} = {got}, the docs say {quoted}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build", type=pathlib.Path)
    ap.add_argument("--root", type=pathlib.Path, default=pathlib.Path(__file__).resolve().parent.parent)
    args = ap.parse_args()
    collnet = args.build.resolve() / "collnet"
    if not collnet.is_file():
        print(f"check_doc_numbers: {collnet} does not exist (build it first)", file=sys.stderr)
        return 2
    files = [args.root / "README.md"] + sorted((args.root / "docs").glob("*.md"))
    checked, wrong = 0, []
    with tempfile.TemporaryDirectory() as d:
        tmp = pathlib.Path(d)
        for path in files:
            for n, kind, payload in quotes(path):
                where = f"{path.relative_to(args.root)}:{n}"
                try:
                    problem = check_line(collnet, *payload, tmp) if kind == "line" else check_marker(collnet, payload, tmp)
                except RuntimeError as e:
                    problem = str(e)
                checked += 1
                if problem:
                    wrong.append(f"  {where}: {problem}")
    if checked == 0:
        print("check_doc_numbers: found no quoted numbers to check", file=sys.stderr)
        return 1
    if wrong:
        print(f"check_doc_numbers: {len(wrong)} of {checked} quoted numbers differ from fresh runs:", file=sys.stderr)
        print("\n".join(wrong), file=sys.stderr)
        return 1
    print(f"check_doc_numbers: {checked} quoted numbers match fresh runs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
