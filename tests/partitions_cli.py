#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`collnet run` and `collnet traffic` with --partitions P give what one process gives, cycle
for cycle and bit for bit.

Usage: tests/partitions_cli.py COLLNET [run|traffic|mpirun]

Every collective, with every algorithm `collnet algorithms` lists for it, runs on 4x4x2 in
one process and in 2, 3 or 4 partitions in turn (2 cuts y; 3 cuts x unevenly, 8+4+4 nodes
... as sim::PartitionPlan decides; 4 cuts two dimensions). Then runs with faults and the
rest of what a run can be asked for (bit errors, a link cut mid-run, nodes down, two tasks
per node, a subset communicator, samples, idle-skip checking) in 1, 2, 3 and 4 partitions.
Each pair must agree on the exit status, the report on standard output and the --json
report, apart from host timing (wall_seconds) and the partitions' own report.

`traffic`: synthetic torus traffic with bit errors and samples, a link going down mid-run
(the recovery: sources paused, the network drained, packets sent again around it), nodes
and links down from boot, a node cut off mid-run, threads within partitions, lockstep and
idle-skip checking, in 1 and 2, 3 and 4 partitions; the same agreement, apart from the
simulator's speed.

With --trace (run and traffic), every partition's FST (a.p<k>.fst) holds its traced nodes'
signals with the same changes as one process's trace, and together they hold all of them.

`mpirun`: MPI programs (collectives, communicators, point-to-point, non-blocking calls, a
halo exchange with bit errors, a ring around a node that is down, globals, a deadlock,
MPI_Abort, an exit status) under `collnet mpirun` in one process and in 2, 3 or 4
partitions: the same exit status, report and --json apart from host times, and every
rank's output the same, line for line (the processes' outputs interleave as the host runs
them). One-sided communication across partitions is refused.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))
import fst_signals  # noqa: E402  (scripts/fst_signals.py)

# What may differ: the host's time and speed, the cut.
HOST_ONLY = {"wall_seconds", "partitions", "sim_cycles_per_second", "node_cycles_per_second"}
HOST_LINES = ("  partitions", "  simulator")


def json_report(path):
    """The --json a run wrote, without what may differ (HOST_ONLY); None if it wrote none."""
    if not os.path.exists(path):
        return None
    report = json.load(open(path))
    for key in HOST_ONLY:
        report.pop(key, None)
    return report


def run(collnet, command, args, partitions, tmp):
    path = os.path.join(tmp, "p%d.json" % partitions)
    if os.path.exists(path):
        os.remove(path)
    cmd = [collnet, command] + args + ["--json", path]
    if partitions > 1:
        cmd += ["--partitions", str(partitions)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    report = json_report(path)
    text = [line for line in p.stdout.splitlines() if not line.startswith(HOST_LINES)]
    return p.returncode, text, report, p.stderr


def differences(a, b, where=""):
    if type(a) is not type(b):
        return ["%s: %r against %r" % (where, a, b)]
    if isinstance(a, dict):
        out = []
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append("%s/%s: only in %s" % (where, k, "one process" if k in a else "partitions"))
            else:
                out += differences(a[k], b[k], where + "/" + k)
        return out
    if isinstance(a, list):
        if len(a) != len(b):
            return ["%s: %d items against %d" % (where, len(a), len(b))]
        out = []
        for i, (x, y) in enumerate(zip(a, b)):
            out += differences(x, y, "%s[%d]" % (where, i))
        return out
    return [] if a == b else ["%s: %r against %r" % (where, a, b)]


def agree(collnet, args, counts, tmp, failures, expect_ok=True, command="run"):
    one = run(collnet, command, args, 1, tmp)
    if one[2] is None:
        failures.append("%s: one process wrote no JSON: %s" % (" ".join(args), one[3]))
        return
    if expect_ok and one[0] != 0:
        failures.append("%s: one process failed (%d): %s" % (" ".join(args), one[0], one[3]))
        return
    for p in counts:
        many = run(collnet, command, args, p, tmp)
        what = "%s in %d partitions" % (" ".join(args), p)
        if many[2] is None:
            failures.append("%s: no JSON (status %d): %s" % (what, many[0], many[3]))
            continue
        bad = differences(one[2], many[2])
        if many[0] != one[0]:
            bad.append("exit status %d against %d" % (one[0], many[0]))
        if many[1] != one[1]:
            bad.append("standard output %r against %r" % (one[1], many[1]))
        if bad:
            failures.append("%s differs from one process: %s" % (what, "; ".join(bad[:6])))
        else:
            cycles = one[2].get("cycles") if command == "run" else one[2].get("simulated_cycles")
            print("ok: %s: %s cycles, status %d" % (what, cycles, one[0]))


def algorithms(collnet):
    """(collective, algorithm) for every algorithm `collnet algorithms` lists."""
    out = subprocess.run([collnet, "algorithms"], capture_output=True, text=True, check=True).stdout
    pairs = []
    for line in out.splitlines()[1:]:
        if not line.strip():
            break
        name, rest = line.split(None, 1)
        pairs += [(name, a.strip()) for a in rest.split(",")]
    return pairs


def same_traces(collnet, command, args, partitions, tmp, failures):
    """--trace in one process and in `partitions`: every partition's FST (a.p<k>.fst) holds
    its traced nodes' signals with the same changes, and together they hold every one."""
    one_path = os.path.join(tmp, "one.fst")
    many_path = os.path.join(tmp, "many.fst")
    what = "%s %s --trace in %d partitions" % (command, " ".join(args), partitions)
    for stale in [one_path] + [os.path.join(tmp, "many.p%d.fst" % k) for k in range(partitions)]:
        if os.path.exists(stale):
            os.remove(stale)
    subprocess.run([collnet, command] + args + ["--trace", one_path], capture_output=True, timeout=600)
    subprocess.run([collnet, command] + args + ["--trace", many_path, "--partitions", str(partitions)],
                   capture_output=True, timeout=600)
    parts = [os.path.join(tmp, "many.p%d.fst" % k) for k in range(partitions)]
    parts = [p for p in parts if os.path.exists(p)]
    if not os.path.exists(one_path) or not parts:
        failures.append("%s: no trace written" % what)
        return
    one, one_names = fst_signals.read(one_path)
    covered, bad = set(), []
    for part in parts:
        theirs, names = fst_signals.read(part)
        covered |= names
        bad += ["%s: %s" % (os.path.basename(part), n) for n in names if one.get(n, []) != theirs.get(n, [])]
    bad += ["in no partition's trace: %s" % n for n in sorted(one_names - covered)]
    if bad:
        failures.append("%s: %d signals differ from one process's trace: %s" % (what, len(bad), "; ".join(bad[:4])))
    else:
        print("ok: %s: %d FSTs, %d signals as in one process's trace" % (what, len(parts), len(covered)))


def refused(collnet, command, cases, failures):
    """Usage errors, before anything starts: status 2 and a message naming `want`."""
    for args, want in cases:
        p = subprocess.run([collnet, command] + args, capture_output=True, text=True, timeout=60)
        if p.returncode != 2 or want not in p.stderr:
            failures.append("%s: status %d, %r (want status 2 naming %s)" % (" ".join(args), p.returncode,
                                                                              p.stderr.strip(), want))
        else:
            print("ok: refused: %s" % p.stderr.strip().splitlines()[0])


def traffic(collnet, tmp, failures):
    small = ["--torus", "4x4x2", "--cycles", "1500", "--warmup", "200"]
    cases = [
        # bit errors on every link, samples of the links, the link table
        (small + ["--rate", "0.2", "--link-ber", "1e-4", "--sample-every", "250"], [2, 3, 4]),
        # a link going down mid-run: paused, drained, sent again around it
        (small + ["--rate", "0.15", "--link-down", "5:x+@700", "--seed", "3"], [2, 3, 4]),
        # nodes and a link down from boot: routed around them (software routes)
        (small + ["--rate", "0.1", "--down-nodes", "6,9", "--down-links", "3:y+", "--routing", "dor"], [2, 3, 4]),
        # a node cut off mid-run (its every link): its packets abandoned
        (["--torus", "4x2x1", "--cycles", "1200", "--warmup", "100", "--rate", "0.1", "--link-down",
          "1:x+@400,1:x-@400,1:y+@400,1:y-@400"], [2, 3]),
        # a hotspot, threads inside the partitions, idle skipping checked
        (small + ["--pattern", "hotspot", "--hotspot", "17", "--rate", "0.1", "--threads", "2",
                  "--idle-skip", "check"], [2, 4]),
        # every node under the kernel a cycle at a time
        (["--torus", "4x2x2", "--cycles", "600", "--warmup", "100", "--rate", "0.2", "--lockstep"], [2, 3]),
    ]
    for args, counts in cases:
        agree(collnet, args, counts, tmp, failures, command="traffic")
    same_traces(collnet, "traffic", ["--torus", "4x2x2", "--cycles", "300", "--warmup", "50", "--rate", "0.2",
                                     "--trace-nodes", "0,9,15"], 3, tmp, failures)
    # A run that fails in the partitions (no route around the nodes down): every process
    # ends, with status 1 and the reason.
    p = subprocess.run([collnet, "traffic", "--torus", "4x1x1", "--down-nodes", "1,3", "--partitions", "2"],
                       capture_output=True, text=True, timeout=120)
    if p.returncode != 1 or "no route from node 0 to node 2" not in p.stderr:
        failures.append("a failing run in 2 partitions: status %d, %r" % (p.returncode, p.stderr.strip()))
    else:
        print("ok: a failing run in 2 partitions ends with status 1: %s" % p.stderr.strip().splitlines()[0])
    refused(collnet, "traffic", [
        (["--torus", "2x2x1", "--partitions", "5"], "--partitions"),
        (["--torus", "4x4x2", "--partitions", "2", "--engine", "flat"], "flat engine"),
        (["--torus", "4x4x2", "--partitions", "2", "--sweep", "0.1:0.2:0.1"], "--sweep"),
    ], failures)


def mpirun_once(collnet, args, program, partitions, tmp):
    """(status, stdout by rank, report lines, --json) of one `collnet mpirun`."""
    path = os.path.join(tmp, "m%d.json" % partitions)
    if os.path.exists(path):
        os.remove(path)
    cmd = [collnet, "mpirun", "--compute-scale", "0", "--tag-output", "--json", path] + args
    if partitions > 1:
        cmd += ["--partitions", str(partitions)]
    p = subprocess.run(cmd + ["--"] + program, capture_output=True, text=True, timeout=600)
    report = json_report(path)
    # Each rank's lines in its order (the processes' outputs interleave as the host runs them).
    by_rank = {}
    for line in p.stdout.splitlines():
        by_rank.setdefault(line.split("]")[0], []).append(line)
    lines = [re.sub(r", wall [0-9.e+-]+ s", "", line) for line in p.stderr.splitlines()
             if not line.startswith(HOST_LINES)]
    return p.returncode, by_rank, lines, report


def mpi_programs(collnet, tmp, failures):
    """MPI programs under `collnet mpirun --partitions P`, against one process."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    mpicc = os.path.join(os.path.dirname(collnet), "collnet-mpicc")

    def build(source):
        exe = os.path.join(tmp, os.path.basename(source)[:-2])
        subprocess.run([mpicc, "-O1", "-o", exe, os.path.join(root, source)], check=True)
        return exe

    programs = "tests/mpi/programs/"
    cases = [
        # each checks itself and prints its checks; collectives, communicators, point-to-point
        (["-n", "16", "--torus", "4x2x2"], [build(programs + "collectives.c")], [2, 3, 4]),
        (["-n", "16", "--torus", "4x4x1"], [build(programs + "comm.c")], [2, 4]),  # 4: x and y cut
        (["-n", "16", "--tasks", "2", "--torus", "4x2x1"], [build(programs + "p2p.c")], [2, 3]),
        (["-n", "12", "--torus", "3x2x2"], [build(programs + "nonblocking.c")], [2, 3]),
        # a Cartesian halo exchange, reordered onto the torus, with bit errors on every link
        (["-n", "32", "--tasks", "2", "--torus", "4x2x2", "--link-ber", "1e-4"],
         [build("examples/mpi/halo.c"), "4", "2", "2", "4", "4", "2", "-c", "32", "-i", "2"], [2, 4]),
        # a node down: its ranks elsewhere, packets forwarded around it
        (["-n", "15", "--torus", "4x2x2", "--down-nodes", "5"], [build(programs + "ring.c")], [2, 3]),
        # each rank's own globals; a deadlock named per rank; MPI_Abort; an exit status
        (["-n", "6"], [build(programs + "globals.c")], [2, 3]),
        (["-n", "4"], [build(programs + "deadlock.c")], [2, 4]),
        (["-n", "3"], [build(programs + "abort.c")], [2, 3]),
        (["-n", "3"], [build(programs + "exit_code.c")], [3]),
    ]
    for args, program, counts in cases:
        what = " ".join(args + [os.path.basename(program[0])] + program[1:])
        one = mpirun_once(collnet, args, program, 1, tmp)
        if one[3] is None:
            failures.append("%s: one process wrote no JSON: %s" % (what, one[2]))
            continue
        for p in counts:
            many = mpirun_once(collnet, args, program, p, tmp)
            bad = []
            if many[3] is None:
                bad.append("no JSON")
            else:
                bad += differences(one[3], many[3])
            if many[0] != one[0]:
                bad.append("exit status %d against %d" % (one[0], many[0]))
            if many[1] != one[1]:
                bad.append("the ranks' output differs")
            if many[2] != one[2]:
                bad.append("report %r against %r" % (one[2], many[2]))
            if bad:
                failures.append("%s in %d partitions differs from one process: %s" % (what, p, "; ".join(bad[:6])))
            else:
                print("ok: %s in %d partitions: %s cycles, status %d, %d lines of output" %
                      (what, p, one[3].get("cycles"), one[0], sum(len(v) for v in one[1].values())))
    # One-sided communication shares a window's state in one process's memory: refused
    # across partitions, naming why.
    rc, _, lines, _ = mpirun_once(collnet, ["-n", "4"], [build(programs + "rma.c")], 2, tmp)
    if rc == 0 or not any("partitions" in line for line in lines):
        failures.append("rma in 2 partitions: status %d, %r (want a failure naming partitions)" % (rc, lines[-3:]))
    else:
        print("ok: rma in 2 partitions refused: %s" % [line for line in lines if "partitions" in line][0])


def main():
    collnet = sys.argv[1]
    command = sys.argv[2] if len(sys.argv) > 2 else "run"
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        # collnet gives each launch a session directory of its own under TMPDIR, which it
        # removes when the run ends: here a directory of this test's, empty at the end.
        sessions = os.path.join(tmp, "sessions")
        os.makedirs(sessions)
        os.environ["TMPDIR"] = sessions
        os.environ.pop("OMPI_MCA_orte_tmpdir_base", None)
        if command == "traffic":
            traffic(collnet, tmp, failures)
        elif command == "mpirun":
            mpi_programs(collnet, tmp, failures)
        else:
            collectives(collnet, tmp, failures)
        left = [n for n in os.listdir(sessions) if n.startswith("collnet-ompi-")]
        if left:
            failures.append("session directories left behind in TMPDIR: " + ", ".join(left))
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


def collectives(collnet, tmp, failures):
    pairs = algorithms(collnet)
    if len(pairs) < 30:
        failures.append("collnet algorithms listed only %d pairs" % len(pairs))
    pairs += [(c, "auto") for c in ("alltoallv", "scatterv", "gatherv", "reduce_scatter", "reduce_scatter_block")]
    for i, (coll, algorithm) in enumerate(pairs):
        args = [coll, "--torus", "4x4x2", "--algorithm", algorithm, "--count", "24", "--seed", str(i + 1)]
        agree(collnet, args, [2 + i % 3], tmp, failures)
    cases = [
        # bit errors on every link, two tasks per node, samples of the links
        (["allreduce", "--torus", "4x4x4", "--algorithm", "torus-ring", "--link-ber", "2e-4", "--tasks", "2",
          "--sample-every", "300", "--count", "200"], True),
        # a link cut mid-run: the run fails, the same way
        (["alltoall", "--torus", "4x4x2", "--link-down", "5:x+@300", "--count", "32"], False),
        # nodes down from boot: packets forwarded around them, tasks serving until all are done
        (["alltoall", "--torus", "4x4x2", "--down-nodes", "6,9", "--count", "16"], True),
        (["allreduce", "--torus", "4x4x2", "--down-nodes", "3", "--type", "f64", "--count", "100"], True),
        # a subset communicator, checked arguments, idle skipping checked
        (["reduce", "--torus", "4x4x2", "--ranks", "random:11", "--root", "3", "--check-args",
          "--idle-skip", "check", "--algorithm", "torus-binomial"], True),
        (["barrier", "--torus", "4x4x2", "--seed", "5"], True),
    ]
    for args, ok in cases:
        agree(collnet, args, [2, 3, 4], tmp, failures, ok)
    same_traces(collnet, "run", ["allreduce", "--torus", "4x4x2", "--count", "64", "--trace-nodes", "0,5,31"], 2,
                tmp, failures)
    same_traces(collnet, "run", ["alltoall", "--torus", "4x2x2", "--count", "8"], 4, tmp, failures)
    refused(collnet, "run", [
        (["allreduce", "--torus", "2x2x1", "--partitions", "5"], "--partitions"),
        (["pingpong", "--ranks", "0,5", "--partitions", "2"], "--partitions"),
    ], failures)


if __name__ == "__main__":
    sys.exit(main())
