#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The MPI interface's tests: the C programs of tests/mpi/programs, built with
collnet-mpicc and run with `collnet mpirun`.

  conformance RANKS [--tasks T] [--torus XxYxZ --down-nodes LIST] [--coprocessor] [--rtl KEY=VALUE] [--openmpi]
      every self-checking program on each rank count (comma-separated) passes (with
      --down-nodes, on the live nodes of a machine with those down; with --coprocessor, in
      coprocessor mode, non-blocking collectives running beside the ranks; with --rtl, on nodes
      of those sizes, e.g. torus.dma=2: the DMA engine); with --openmpi the
      same sources built with Open MPI's mpicc and run with its mpirun print the same
      lines (each rank's lines in order, ranks compared one by one).
  behaviour
      global state, user ops (growing counts on 4, 11 and 16 ranks), derived types, a deadlock, MPI_Abort, an exit status, a
      crash, a call collnet lacks, bad usage and coprocessor mode's overlap each end as docs/mpi.md and
      docs/coprocessor.md say.
  engine
      on nodes with the torus DMA engine (--rtl torus.dma=2, 2x1x1): rma_bandwidth.c's send of 256 KiB
      reaches 0.97 of the link, and its put and get (whose data travel as rendezvous messages,
      by the engine's remote get) take within 10% of the send.
  overlap
      on 2x2x2 with the engine (--rtl torus.dma=2) and no coprocessor: examples/mpi/overlap.c's
      MPI_Ialltoall of 32 KiB a pair and as long a computation (MPIX_Compute_cycles: exact
      cycles) take at most 1.2 of the longer (the engines move the blocks meanwhile; their sum
      without the engine); its MPI_Iallreduce, combined by the processors, about their sum.
  osu
      the OSU-style program's simulated latency and allreduce times agree with
      `collnet run pingpong` and `collnet compare allreduce` (within 5%).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAMS = os.path.join(HERE, "programs")
COMPARED = ["env", "p2p", "nonblocking", "probe", "collectives", "vcollectives", "reductions", "scan", "comm",
            "datatypes", "userop", "errors", "globals", "ring", "process_state", "info", "cart", "packing", "persistent",
            "rma", "intercomm", "coll_driver", "graph", "io", "nbc_order"]
# Not in coprocessor mode's runs (unless named with --programs): coprocessor mode runs a
# rank's non-blocking collectives in the order posted, and these start them in orders that
# need each to progress on its own (docs/coprocessor.md, "What to know").
NOT_IN_COPROCESSOR_MODE = {"nbc_order"}
# The command line a program runs with (the same under Open MPI).
ARGS = {"process_state": ["-s", "64", "--iters=5", "input.dat", "-v", "--name=x", "--", "-i"]}


def build(compiler, name, out_dir, extra=()):
    exe = os.path.join(out_dir, name)
    if not os.path.exists(exe):
        subprocess.run([compiler, "-O1", "-Wall", "-Wextra", "-Werror", "-std=c99", *extra, "-o", exe,
                        os.path.join(PROGRAMS, name + ".c")], check=True)
    return exe


def build_source(compiler, work, name, text, extra=(), suffix=".c"):
    """A program written here (`text`, C; C++ with suffix ".cpp") built as `name` in `work`; its path."""
    src = os.path.join(work, name + suffix)
    with open(src, "w") as f:
        f.write(text)
    exe = os.path.join(work, name)
    subprocess.run([compiler, *extra, "-o", exe, src], check=True)
    return exe


def run(cmd, timeout=1800):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def by_rank(text):
    """Lines tagged [1,R]<stdout>: grouped per rank, in order."""
    ranks = {}
    for line in text.splitlines():
        m = re.match(r"\[\d+,(\d+)\]<stdout>:(.*)$", line)
        if not m:
            raise AssertionError("untagged output line: %r" % line)
        ranks.setdefault(int(m.group(1)), []).append(m.group(2))
    return ranks


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def conformance(a, work):
    failures = 0
    for n in [int(x) for x in a.ranks.split(",")]:
        for name in (a.programs.split(",") if a.programs else COMPARED):
            if a.coprocessor and not a.programs and name in NOT_IN_COPROCESSOR_MODE:
                print("%-13s n=%-3d coprocessor: not run (its collectives start in orders the mode runs in turn)"
                      % (name, n))
                continue
            exe = build(a.mpicc, name, work)
            # Communication only (--compute-scale 0): the programs' checking code is not what
            # is tested, and simulating its time would slow the suite ten times over.
            machine = (["--torus", a.torus] if a.torus else []) + (["--down-nodes", a.down_nodes] if a.down_nodes else [])
            machine += ["--coprocessor"] if a.coprocessor else []
            machine += ["--rtl", a.rtl] if a.rtl else []
            rc, out, err = run([a.collnet, "mpirun", "-n", str(n), "--tasks", str(a.tasks), *machine, "--tag-output",
                                "--compute-scale", "0", "--", exe,
                                *ARGS.get(name, [])])
            mine = by_rank(out)
            passed = any(re.match(r"%s: \d+ checks passed$" % name, l) for l in mine.get(0, []))
            verdict = "ok" if rc == 0 and passed else "FAILED (exit %d)" % rc
            line = "%-13s n=%-3d tasks=%d%s%s%s %s" % (name, n, a.tasks,
                                                      " down=" + a.down_nodes if a.down_nodes else "",
                                                      " coprocessor" if a.coprocessor else "",
                                                      " " + a.rtl if a.rtl else "", verdict)
            if rc != 0 or not passed:
                failures += 1
                print(line + "\n" + out[-2000:] + err[-2000:])
                continue
            if a.openmpi:
                ref_dir = os.path.join(work, "openmpi")
                os.makedirs(ref_dir, exist_ok=True)
                ref = build("mpicc", name, ref_dir)
                # One-sided: Open MPI 4.1's default component (osc rdma over vader) crashes in
                # MPI_Win_lock on one host; its UCX one (and sm for shared-memory windows) does not.
                # Its session directory under this run's own directory: two Open MPI launchers
                # starting at once (ctest -j) race to create the shared one in /tmp, and the
                # loser fails ("A call to mkdir was unable to create the desired directory").
                env = dict(os.environ, OMPI_MCA_btl="self,vader", OMPI_MCA_rmaps_base_oversubscribe="1",
                           OMPI_MCA_osc="ucx,sm", OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                           OMPI_MCA_orte_tmpdir_base=os.path.join(work, "ompi"))
                cmd = ["mpirun", "--oversubscribe", "-n", str(n), "--tag-output", ref, *ARGS.get(name, [])]
                p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, timeout=600)
                if p.returncode != 0:
                    # The reference is not what is tested, and Open MPI 4.1 oversubscribed on a busy host
                    # has been seen to fail its own checks (io's ordered reads on 27 ranks, not
                    # reproduced in 15 runs after). A second failure is reported; collnet's own run
                    # is never retried.
                    print(line + ", but Open MPI's run failed (exit %d); running Open MPI again:\n%s"
                          % (p.returncode, "\n".join((p.stdout + p.stderr).splitlines()[-12:])))
                    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                                       timeout=600)
                if p.returncode != 0:
                    failures += 1
                    print(line + ", but Open MPI's run failed:\n" + p.stdout[-2000:] + p.stderr[-2000:])
                    continue
                theirs = by_rank(p.stdout)
                if theirs != mine:
                    failures += 1
                    for r in sorted(set(mine) | set(theirs)):
                        if mine.get(r) != theirs.get(r):
                            print(line + ", but rank %d's output differs from Open MPI's:\n  collnet: %s\n  Open MPI: %s"
                                  % (r, mine.get(r), theirs.get(r)))
                            break
                    continue
                line += ", same output as Open MPI (%d lines)" % sum(len(v) for v in mine.values())
            print(line)
    if failures:
        fail("%d program runs failed" % failures)


def expect(cond, msg):
    if not cond:
        fail(msg)
    print("ok: " + msg)


def behaviour(a, work):
    default = [a.collnet, "mpirun"]
    mpirun = default + ["--compute-scale", "0"]  # the checks below but the compute time's
    # Global state: each rank's globals are its own.
    rc, out, err = run(mpirun + ["-n", "6", "--", build(a.mpicc, "globals", work)])
    lines = sorted(l for l in out.splitlines() if l.startswith("rank "))
    expect(rc == 0 and lines == sorted("rank %d: global counter %d" % (r, 4 * (r % 5 + 3)) for r in range(6)),
           "every rank of globals keeps its own global counter")
    # A user-defined op and derived types (their programs check themselves).
    for name in ("userop", "datatypes"):
        rc, out, err = run(mpirun + ["-n", "5", "--", build(a.mpicc, name, work)])
        expect(rc == 0 and re.search(r"%s: \d+ checks passed" % name, out), name + " passes on 5 ranks")
    # Ports, names and join between groups of the job (Open MPI needs a server of its own
    # for them, so they are not compared).
    rc, out, err = run(mpirun + ["-n", "5", "--", build(a.mpicc, "ports", work)])
    expect(rc == 0 and re.search(r"ports: \d+ checks passed", out) and "ports: port collnet-port:0:0" in out,
           "accept, connect, join and published names on 5 ranks (%s %s)" % (out, err[-300:]))
    # A put outside the target's window is refused at the origin (MPI_ERR_RMA_RANGE, which
    # Open MPI's osc ucx does not report): the epoch stays whole, the next put arrives and
    # the window frees cleanly.
    rma_range = build_source(a.mpicc, work, "rma_range",
                             '#include <mpi.h>\n#include <stdio.h>\n'
                             'int main(int c, char** v) { int r, n, cls = -1, x = 7, mem[4] = {0}; MPI_Win w;\n'
                             '  MPI_Init(&c, &v); MPI_Comm_rank(MPI_COMM_WORLD, &r); MPI_Comm_size(MPI_COMM_WORLD, &n);\n'
                             '  MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);\n'
                             '  MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN); MPI_Win_fence(0, w);\n'
                             '  MPI_Error_class(MPI_Put(&x, 1, MPI_INT, (r + 1) % n, 100, 1, MPI_INT, w), &cls);\n'
                             '  MPI_Put(&x, 1, MPI_INT, (r + 1) % n, 3, 1, MPI_INT, w); MPI_Win_fence(0, w);\n'
                             '  printf("rank %d: class %s, mem[3] %d\\n", r, cls == MPI_ERR_RMA_RANGE ? "range" : "other", mem[3]);\n'
                             '  MPI_Win_free(&w); MPI_Finalize(); return 0; }\n')
    rc, out, err = run(mpirun + ["-n", "3", "--", rma_range])
    expect(rc == 0 and sorted(out.split("\n")[:-1]) == ["rank %d: class range, mem[3] 7" % k for k in range(3)],
           "a put outside the target's window is MPI_ERR_RMA_RANGE at the origin, and the epoch goes on (%s %s)" %
           (out, err[-300:]))
    # Open MPI's way of starting one: -np, and the program's own options after it without --
    # (a -- before the program still works, and one after it is the program's).
    args = build_source(a.mpicc, work, "args",
                        '#include <mpi.h>\n#include <stdio.h>\nint main(int c, char** v) { int r; MPI_Init(&c, &v);\n'
                        '  MPI_Comm_rank(MPI_COMM_WORLD, &r); if (r == 1) { for (int i = 1; i < c; i++) printf("[%s]", v[i]);\n'
                        '  printf("\\n"); } MPI_Finalize(); return 0; }\n')
    rc, out, err = run(default + ["-np", "2", "--compute-scale", "0", args, "-v", "--iters=5", "-np", "3", "--", "x"])
    expect(rc == 0 and out.strip() == "[-v][--iters=5][-np][3][--][x]",
           "mpirun -np 2 PROGRAM ARGS passes the program its options (%s %s)" % (out, err[-300:]))
    rc, out, err = run(default + ["-np", "2", "--compute-scale", "0", "--", args, "--", "-v"])
    expect(rc == 0 and out.strip() == "[--][-v]", "a -- before the program is mpirun's, one after it the program's (%s)" % out)
    # Run directly, a program collnet-mpicc linked runs as one rank (collnet mpirun -n 1), as
    # build systems run what they compile (autoconf's "whether we are cross compiling"): its
    # arguments and its exit status are its own.
    p = subprocess.run([args, "-v", "x y"], capture_output=True, text=True, timeout=600,
                       env=dict(os.environ, COLLNET=a.collnet))
    expect(p.returncode == 0 and p.stdout.strip() == "" and p.stderr == "",
           "a program run directly runs as one rank, quietly (%s %s)" % (p.stdout, p.stderr[-300:]))
    three = build_source(a.mpicc, work, "three", 'int main(int c, char** v) { (void)v; return c == 2 ? 3 : 1; }\n')
    p = subprocess.run([three, "arg"], capture_output=True, text=True, timeout=600, env=dict(os.environ, COLLNET=a.collnet))
    expect(p.returncode == 3, "a program run directly exits with its own status (%d %s)" % (p.returncode, p.stderr[-300:]))
    # A build system that asks the wrapper for its flags (CMake's FindMPI: --showme:compile,
    # --showme:link) and compiles and links with the plain compiler gets the same program.
    comp = subprocess.run([a.mpicc, "--showme:compile"], capture_output=True, text=True, check=True).stdout.split()
    link = subprocess.run([a.mpicc, "--showme:link"], capture_output=True, text=True, check=True).stdout.split()
    show = subprocess.run([a.mpicc, "-show"], capture_output=True, text=True, check=True).stdout.split()
    obj, plain = os.path.join(work, "three.o"), os.path.join(work, "three_plain")
    subprocess.run(["cc", *comp, "-c", os.path.join(work, "three.c"), "-o", obj], check=True)
    subprocess.run(["cc", obj, *link, "-o", plain], check=True)
    p = subprocess.run([plain, "arg"], capture_output=True, text=True, timeout=600, env=dict(os.environ, COLLNET=a.collnet))
    expect(p.returncode == 3 and show[1:] == comp + link,
           "a program built from --showme:compile and --showme:link runs (%d %s)" % (p.returncode, p.stderr[-300:]))
    # -x sets a variable for every rank (as Open MPI's), --oversubscribe is accepted.
    envp = build_source(a.mpicc, work, "envp",
                        '#include <mpi.h>\n#include <stdio.h>\n#include <stdlib.h>\nint main(int c, char** v) {\n'
                        '  MPI_Init(&c, &v); const char* f = getenv("COLLNET_TEST_X"); printf("%s\\n", f ? f : "unset");\n'
                        '  MPI_Finalize(); return 0; }\n')
    rc, out, err = run(default + ["-np", "3", "--oversubscribe", "-x", "COLLNET_TEST_X=a=b", "--compute-scale", "0", envp])
    expect(rc == 0 and out.split() == ["a=b"] * 3, "-x NAME=VALUE reaches every rank (%s %s)" % (out, err[-300:]))
    # Each rank's stdout is its own line-buffered stream, as a process's terminal under Open
    # MPI: lines built across MPI calls come out whole; a partial line goes out at fflush,
    # at the rank's end and when another rank's MPI_Abort stops the run.
    lines_c = build_source(a.mpicc, work, "lines",
                           '#include <mpi.h>\n#include <stdio.h>\nint main(int c, char** v) { int r, n, s;\n'
                           '  MPI_Init(&c, &v); MPI_Comm_rank(MPI_COMM_WORLD, &r); MPI_Comm_size(MPI_COMM_WORLD, &n);\n'
                           '  printf("rank %d:", r); for (int i = 1; i <= 3; i++) { MPI_Allreduce(&i, &s, 1, MPI_INT, MPI_SUM,\n'
                           '  MPI_COMM_WORLD); printf(" %d", s); } printf("\\n"); MPI_Barrier(MPI_COMM_WORLD);\n'
                           '  if (r == 1) { printf("flushed"); fflush(stdout); } MPI_Barrier(MPI_COMM_WORLD);\n'
                           '  if (r == 2) printf("pending"); MPI_Barrier(MPI_COMM_WORLD);\n'
                           '  if (c > 1 && r == 0) MPI_Abort(MPI_COMM_WORLD, 5); MPI_Barrier(MPI_COMM_WORLD); MPI_Finalize(); return 0; }\n')
    for abort in (False, True):
        rc, out, err = run(mpirun + ["-n", "4", "--", lines_c] + (["abort"] if abort else []))
        whole = ["rank %d: 4 8 12" % k for k in range(4)]
        expect(rc == (5 if abort else 0) and sorted(out.split("\n")[:4]) == whole and
               out.split("\n")[4:] == ["flushedpending"],
               "ranks' lines built across MPI calls come out whole, partial ones at fflush and at the end%s (%s %s)" %
               (" of an aborted run" if abort else "", out, err[-300:]))
    # OpenMP: loops and a master's MPI calls that do not wait, inside parallel regions, run
    # as in a process of their own; a rank that would wait in MPI inside a region of more
    # than one thread is stopped with a message saying why (its OpenMP state is the one host
    # thread's, which every rank shares: the run would hang).
    omp = build_source(a.mpicc, work, "omp_loops",
                       '#include <mpi.h>\n#include <omp.h>\n#include <stdio.h>\nint main(int c, char** v) {\n'
                       '  int p, r, team = 0; double sum = 0, total = 0, t = 0;\n'
                       '  MPI_Init_thread(&c, &v, MPI_THREAD_FUNNELED, &p); MPI_Comm_rank(MPI_COMM_WORLD, &r);\n'
                       '  for (int it = 0; it < 3; it++) {\n'
                       '#pragma omp parallel num_threads(3) reduction(+:sum)\n'
                       '    {\n#pragma omp master\n      { team = omp_get_num_threads(); t = MPI_Wtime(); }\n'
                       '#pragma omp for\n      for (int i = 0; i < 1000; i++) sum += i * (r + 1);\n    }\n'
                       '    MPI_Allreduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);\n  }\n'
                       '  if (c > 1) {\n#pragma omp parallel num_threads(2)\n    {\n#pragma omp master\n'
                       '      MPI_Barrier(MPI_COMM_WORLD);\n    }\n  }\n'
                       '  printf("rank %d: team %d, total %.0f, clock %d\\n", r, team, total, t > 0);\n'
                       '  MPI_Finalize(); return 0; }\n', extra=("-fopenmp",))
    rc, out, err = run(mpirun + ["-n", "3", "--", omp])
    expect(rc == 0 and sorted(out.splitlines()) == ["rank %d: team 3, total 8991000, clock 1" % k for k in range(3)],
           "OpenMP loops and a master's clock read inside parallel regions run per rank (%s %s)" % (out, err[-300:]))
    rc, out, err = run(mpirun + ["-n", "3", "--", omp, "wait"])
    expect(rc == 1 and "rank 0: MPI_Barrier waits inside an OpenMP parallel region of 2 threads" in err,
           "a rank waiting in MPI inside an OpenMP parallel region is stopped, saying why (%s %s)" % (rc, err[-400:]))
    # -q: no report, only why a run ended early.
    rc, out, err = run(default + ["-q", "-n", "2", "--compute-scale", "0", envp])
    expect(rc == 0 and out.split() == ["unset"] * 2 and err == "", "mpirun -q prints no report (%r)" % err[-300:])
    rc, out, err = run(default + ["-q", "-n", "2", "--compute-scale", "0", three, "arg"])
    expect(rc == 3 and "exit status 3" in err and "cycles" not in err, "mpirun -q still says why a run failed (%r)" % err)
    # The tools interface's variables are collnet's own (Open MPI has others): tools.c checks
    # them, and works before MPI_Init and after MPI_Finalize.
    rc, out, err = run(mpirun + ["-n", "3", "--", build(a.mpicc, "tools", work)])
    expect(rc == 0 and re.search(r"tools: \d+ checks passed", out) and
           "tools: after MPI_Finalize works, after the last MPI_T_finalize refused" in out and
           "tools: pvar collnet_bytes_sent" in out, "the tools interface (MPI_T) on 3 ranks (%s %s)" % (out, err[-300:]))
    # A user op on a derived type, repeated with growing counts at every root (once a
    # deadlock on 4 ranks, minutes on 11 and 16: every contribution went through the root).
    for n, top in ((4, 600), (11, 300), (16, 300)):
        rc, out, err = run(mpirun + ["-n", str(n), "--", build(a.mpicc, "userop_scale", work), "growing", str(top)])
        expect(rc == 0 and re.search(r"userop_scale: \d+ checks passed", out),
               "a user op on a derived type with counts growing to %d passes on %d ranks" % (top, n))
    # A deadlock is reported, naming where each rank waits.
    js = os.path.join(work, "deadlock.json")
    rc, out, err = run(mpirun + ["-n", "4", "--json", js, "--", build(a.mpicc, "deadlock", work)])
    report = json.load(open(js))
    expect(rc == 1 and "deadlock" in err and "rank 0 in MPI_Recv(source 1, tag 7" in err and
           "rank 1 in MPI_Recv(source 0, tag 7" in err and "rank 2 in MPI_Barrier" in err and report["deadlock"],
           "a deadlock ends the run with exit status 1 and says which rank waits in which call")
    # A long copy or fold inside a call moves no packet for more than --deadlock-cycles, and is
    # no deadlock: an MPI_Iallreduce of 1 MiB on 2 ranks (the 1,048,576-byte reduction is
    # some 260,000 cycles of the processors' own work between two messages).
    long_work = build_source(a.mpicc, work, "long_work", r"""
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  int rank, size, i, bad = 0, n = 131072;
  double *in = malloc(n * sizeof(double)), *out = malloc(n * sizeof(double));
  MPI_Request q;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (i = 0; i < n; i++) in[i] = rank + i;
  MPI_Iallreduce(in, out, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &q);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  for (i = 0; i < n; i++) bad += out[i] != (double)size * i + size * (size - 1) / 2;
  printf("rank %d: %d wrong\n", rank, bad);
  MPI_Finalize();
  return 0;
}
""")
    rc, out, err = run(mpirun + ["-n", "2", "--", long_work])
    expect(rc == 0 and out.count(": 0 wrong") == 2 and "deadlock" not in err,
           "a 1 MiB MPI_Iallreduce, whose copies and folds move no packet for a while, is no deadlock (%s)"
           % err[-400:])
    # MPI_Abort ends the run with its error code.
    rc, out, err = run(mpirun + ["-n", "3", "--", build(a.mpicc, "abort", work)])
    expect(rc == 42 and "rank 2 called MPI_Abort(MPI_COMM_WORLD, 42)" in err, "MPI_Abort(comm, 42) ends the run with 42")
    # A rank's exit status after MPI_Finalize is the run's.
    rc, out, err = run(mpirun + ["-n", "3", "--", build(a.mpicc, "exit_code", work)])
    expect(rc == 3, "a rank returning 3 from main makes the run's exit status 3")
    # exit() before MPI_Finalize and a crash each end the run with a message.
    src = os.path.join(work, "early.c")
    with open(src, "w") as f:
        f.write('#include <mpi.h>\n#include <stdlib.h>\n#include <string.h>\n'
                'int main(int c, char** v) { int r; MPI_Init(&c, &v); MPI_Comm_rank(MPI_COMM_WORLD, &r);\n'
                '  if (r == 1 && c > 1 && strcmp(v[1], "crash") == 0) { volatile int* p = 0; *p = 1; }\n'
                '  if (r == 1) exit(5); MPI_Barrier(MPI_COMM_WORLD); MPI_Finalize(); return 0; }\n')
    exe = os.path.join(work, "early")
    subprocess.run([a.mpicc, "-o", exe, src], check=True)
    rc, out, err = run(mpirun + ["-n", "3", "--", exe])
    expect(rc == 5 and "rank 1 exited with status 5 without calling MPI_Finalize" in err,
           "exit(5) before MPI_Finalize ends the run with 5 and says so")
    rc, out, err = run(mpirun + ["-n", "3", "--", exe, "crash"])
    expect(rc == 128 + 11 and "rank 1" in err and "signal 11" in err and "stack" not in err,
           "a rank that crashes ends the run naming it")
    # The C and C++ clocks are the machine's: 1 ms of modelled computation (700,000 cycles
    # at 700 MHz) is 1 ms to gettimeofday, clock_gettime, clock, std::chrono's clocks, as to
    # MPI_Wtime; time() is near the host's, and a clock read as the copy loads is the host's.
    clk = build_source(a.mpicc, work, "clocks",
                       '#include <mpi.h>\n#include <stdio.h>\n#include <sys/time.h>\n#include <time.h>\n'
                       'static long us(struct timespec a, struct timespec b) { return (b.tv_sec - a.tv_sec) * 1000000L + (b.tv_nsec - a.tv_nsec) / 1000; }\n'
                       'int main(int c, char** v) { MPI_Init(&c, &v); struct timeval a, b; struct timespec m0, m1, p0, p1;\n'
                       '  clock_t k0 = clock(); double w0 = MPI_Wtime(); time_t t0 = time(NULL); gettimeofday(&a, NULL);\n'
                       '  clock_gettime(CLOCK_MONOTONIC, &m0); clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &p0);\n'
                       '  MPIX_Compute_cycles(700000);\n'
                       '  gettimeofday(&b, NULL); clock_gettime(CLOCK_MONOTONIC, &m1); clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &p1);\n'
                       '  double w1 = MPI_Wtime(); clock_t k1 = clock();\n'
                       '  printf("%ld %ld %ld %ld %.0f %d\\n", (b.tv_sec - a.tv_sec) * 1000000L + (b.tv_usec - a.tv_usec), us(m0, m1),\n'
                       '         us(p0, p1), (long)((k1 - k0) * 1000000L / CLOCKS_PER_SEC), (w1 - w0) * 1e6, t0 > 1700000000);\n'
                       '  MPI_Finalize(); return 0; }\n')
    rc, out, err = run(mpirun + ["-n", "2", "--", clk])
    expect(rc == 0 and all(abs(int(float(x)) - 1000) <= 1 for x in out.split()[:5]) and out.split()[5::6] == ["1", "1"],
           "1 ms of computation is 1 ms to every C clock (%s %s)" % (out, err[-300:]))
    exe = build_source(a.mpicc.replace("collnet-mpicc", "collnet-mpicxx"), work, "clocks_cpp",
                       '#include <mpi.h>\n#include <chrono>\n#include <cstdio>\n'
                       'static const auto loaded = std::chrono::system_clock::now();\n'
                       'int main(int c, char** v) { MPI_Init(&c, &v); using namespace std::chrono;\n'
                       '  const auto a = steady_clock::now(); const auto h = high_resolution_clock::now();\n'
                       '  MPIX_Compute_cycles(1400000); const auto b = steady_clock::now(); const auto h2 = high_resolution_clock::now();\n'
                       '  const long since = duration_cast<seconds>(system_clock::now() - loaded).count();\n'
                       '  std::printf("%ld %ld %d\\n", (long)duration_cast<microseconds>(b - a).count(),\n'
                       '              (long)duration_cast<microseconds>(h2 - h).count(), since >= 0 && since < 600);\n'
                       '  MPI_Finalize(); return 0; }\n', suffix=".cpp")
    rc, out, err = run(mpirun + ["-n", "2", "--", exe])
    expect(rc == 0 and out.split() == ["2000", "2000", "1"] * 2,
           "2 ms of computation is 2 ms to std::chrono's clocks (%s %s)" % (out, err[-300:]))
    # A hybrid program (OpenMP threads around its calls) asks for MPI_THREAD_MULTIPLE and is
    # given MPI_THREAD_FUNNELED; MPI_Is_thread_main answers 1 on the rank's main thread and 0
    # on an OpenMP thread; an MPI call from an OpenMP thread ends the run, saying so.
    omp = build_source(a.mpicc, work, "hybrid",
                       '#include <mpi.h>\n#include <omp.h>\n#include <stdio.h>\n'
                       'int main(int c, char** v) { int p, q, m = -1, w = -1; MPI_Init_thread(&c, &v, MPI_THREAD_MULTIPLE, &p);\n'
                       '  MPI_Query_thread(&q);\n'
                       '  _Pragma("omp parallel num_threads(2)") { int f; MPI_Is_thread_main(&f); if (omp_get_thread_num() == 0) m = f; else w = f; }\n'
                       '  double s = 0, t, w0 = omp_get_wtime();\n'
                       '  _Pragma("omp parallel for reduction(+:s) num_threads(2)") for (int i = 0; i < 1000; i++) s += i;\n'
                       '  MPI_Allreduce(&s, &t, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); MPIX_Compute_cycles(700000);\n'
                       '  const long us = (long)((omp_get_wtime() - w0) * 1e6 + 0.5);\n'
                       '  printf("%d %d %d %d %g %d\\n", p == MPI_THREAD_FUNNELED, q == p, m, w, t, us >= 1000 && us < 1010);\n'
                       '  if (c > 1) { _Pragma("omp parallel num_threads(2)") { if (omp_get_thread_num() == 1) { int r; MPI_Comm_rank(MPI_COMM_WORLD, &r); } } }\n'
                       '  MPI_Finalize(); return 0; }\n', extra=["-fopenmp"])
    rc, out, err = run(mpirun + ["-n", "2", "--", omp])
    expect(rc == 0 and out.split() == ["1", "1", "1", "0", "999000", "1"] * 2,
           "a hybrid OpenMP program is given MPI_THREAD_FUNNELED, runs, and omp_get_wtime is the machine's (%s %s)" %
           (out, err[-300:]))
    rc, out, err = run(mpirun + ["-n", "2", "--", omp, "call-from-a-thread"])
    expect(rc == 128 + 6 and "MPI_Comm_rank called from a thread of the program's own" in err,
           "an MPI call from an OpenMP thread ends the run naming it (%d %s)" % (rc, err[-300:]))
    # 4 MiB of local arrays: within the default stack (Linux's 8 MiB); past --stack 1024 the
    # run ends naming the overflow and the size.
    deep = build_source(a.mpicc, work, "deep",
                        '#include <mpi.h>\n#include <stdio.h>\n#include <string.h>\n'
                        'static double sum(int n) { double a[512 * 1024]; memset(a, 0, sizeof a);\n'
                        '  for (int i = 0; i < 512 * 1024; i += 1024) a[i] = n; double s = 0;\n'
                        '  for (int i = 0; i < 512 * 1024; i += 1024) s += a[i]; return s; }\n'
                        'int main(int c, char** v) { int r; MPI_Init(&c, &v); MPI_Comm_rank(MPI_COMM_WORLD, &r);\n'
                        '  printf("%g\\n", sum(r)); MPI_Finalize(); return 0; }\n')
    rc, out, err = run(mpirun + ["-n", "2", "--", deep])
    expect(rc == 0 and sorted(out.split()) == ["0", "512"], "4 MiB of local arrays fit the default stack (%s)" % err[-300:])
    rc, out, err = run(mpirun + ["-n", "2", "--stack", "1024", "--", deep])
    expect(rc == 128 + 11 and "overflowed its stack" in err and "1024 KiB" in err,
           "a stack overflow ends the run naming it and the size (%s)" % err[-300:])
    # A fatal MPI error names the call, the argument and the rank.
    with open(src, "w") as f:
        f.write('#include <mpi.h>\nint main(int c, char** v) { int x = 0; MPI_Init(&c, &v);\n'
                '  MPI_Send(&x, 1, MPI_INT, 99, 0, MPI_COMM_WORLD); MPI_Finalize(); return 0; }\n')
    subprocess.run([a.mpicc, "-o", exe, src], check=True)
    rc, out, err = run(mpirun + ["-n", "2", "--", exe])
    expect(rc == 6 and "MPI_Send: destination 99 is not a rank of the communicator (size 2) (MPI_ERR_RANK)" in err,
           "a fatal error names the call and the argument and exits with its class")
    # C++: collnet-mpicxx, a global object constructed per rank (in its rank's environment,
    # as a process's), the header from C++.
    src = os.path.join(work, "hello.cpp")
    with open(src, "w") as f:
        f.write('#include <mpi.h>\n#include <cstdio>\n#include <cstdlib>\n#include <string>\n#include <vector>\n'
                'std::string who = "unset";\nconst char* loaded = std::getenv("OMPI_COMM_WORLD_RANK");\n'
                'int main(int c, char** v) { MPI_Init(&c, &v); int r, n; MPI_Comm_rank(MPI_COMM_WORLD, &r);\n'
                '  MPI_Comm_size(MPI_COMM_WORLD, &n); who = "rank " + std::to_string(r);\n'
                '  std::vector<long> x(3, r), y(3); MPI_Allreduce(x.data(), y.data(), 3, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);\n'
                '  MPI_Barrier(MPI_COMM_WORLD); std::printf("%s: sum %ld, loaded as %s\\n", who.c_str(), y[2], loaded);\n'
                '  MPI_Finalize(); return 0; }\n')
    exe = os.path.join(work, "hello")
    subprocess.run([a.mpicc.replace("collnet-mpicc", "collnet-mpicxx"), "-o", exe, src], check=True)
    rc, out, err = run(mpirun + ["-n", "4", "--", exe])
    expect(rc == 0 and sorted(out.splitlines()) == ["rank %d: sum 6, loaded as %d" % (r, r) for r in range(4)],
           "a C++ program built with collnet-mpicxx keeps a global std::string per rank, built in its environment (%s %s)"
           % (out, err[-300:]))
    # std::cout is one object for every rank: a rank's format (fixed, hex) stays its own,
    # and its lines, built across MPI calls, come out whole and tagged as its own.
    streams = build_source(a.mpicc.replace("collnet-mpicc", "collnet-mpicxx"), work, "streams",
                           '#include <mpi.h>\n#include <cstdio>\n#include <iomanip>\n#include <iostream>\n'
                           'int main(int c, char** v) { int r; MPI_Init(&c, &v); MPI_Comm_rank(MPI_COMM_WORLD, &r);\n'
                           '  if (r == 0) std::cout << std::fixed << std::setprecision(2); if (r == 1) std::cout << std::hex;\n'
                           '  MPI_Barrier(MPI_COMM_WORLD); std::cout << "rank " << r << ":"; MPI_Barrier(MPI_COMM_WORLD);\n'
                           '  std::cout << " " << 3.14159 << " " << 255 << std::endl; std::printf("c %d\\n", r);\n'
                           '  MPI_Finalize(); return 0; }\n', suffix=".cpp")
    rc, out, err = run(mpirun + ["-n", "3", "--tag-output", "--", streams])
    expect(rc == 0 and sorted(out.splitlines()) ==
           ["[1,0]<stdout>:c 0", "[1,0]<stdout>:rank 0: 3.14 255", "[1,1]<stdout>:c 1", "[1,1]<stdout>:rank 1: 3.14159 ff",
            "[1,2]<stdout>:c 2", "[1,2]<stdout>:rank 2: 3.14159 255"],
           "std::cout keeps each rank's format and tags its lines (%s %s)" % (out, err[-300:]))
    # --compute-scale: host time between calls becomes simulated time, reported per rank.
    src = os.path.join(work, "compute.c")
    with open(src, "w") as f:
        f.write('#include <mpi.h>\nvolatile double sink;\n'
                'int main(int c, char** v) { MPI_Init(&c, &v); for (long i = 0; i < 2000000; i++) sink += i;\n'
                '  MPI_Barrier(MPI_COMM_WORLD); MPI_Finalize(); return 0; }\n')
    exe = os.path.join(work, "compute")
    subprocess.run([a.mpicc, "-O1", "-o", exe, src], check=True)
    cycles = []
    for scale in ("0", "1"):
        js = os.path.join(work, "compute%s.json" % scale)
        rc, out, err = run(default + ["-n", "2", "--compute-scale", scale, "--json", js, "--", exe])
        rep = json.load(open(js))
        cycles.append((rc, rep["cycles"], min(r["compute_cycles"] for r in rep["per_rank"])))
    expect(cycles[0][0] == 0 and cycles[1][0] == 0 and cycles[0][2] == 0 and cycles[1][2] > 100000 and
           cycles[1][1] > cycles[0][1] + 100000,
           "--compute-scale 1 turns the host time between calls into simulated cycles (%s)" % (cycles,))
    # MPIX_Compute_cycles: exactly that many cycles of computation at any --compute-scale,
    # counted as the rank's compute time; a negative count is an error that names it.
    exe_c = build_source(a.mpicc, work, "compute_cycles", r'''
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  int rank, rc;
  long long n;
  double t0, t1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  n = atoll(argv[1]) * (rank + 1);
  t0 = MPI_Wtime();
  rc = MPIX_Compute_cycles(n);
  t1 = MPI_Wtime();
  printf("rank %d: rc %d, %.0f cycles\n", rank, rc, (t1 - t0) / MPI_Wtick());
  MPI_Finalize();
  return 0;
}
''')
    for scale in ("0", "1"):
        js = os.path.join(work, "compute_cycles.json")
        rc, out, err = run(default + ["-n", "2", "--compute-scale", scale, "--json", js, "--", exe_c, "12345"])
        per = json.load(open(js))["per_rank"] if rc == 0 else [{"compute_cycles": 0}] * 2
        lines = sorted(l for l in out.splitlines() if l.startswith("rank "))
        # At scale 1 the host time of the code around the call is charged too (about a
        # microsecond a resume, more on a loaded host): at least the cycles asked for.
        exact = scale == "0"
        got = [int(m.group(1)) for m in re.finditer(r"rc 0, (\d+) cycles", "\n".join(lines))]
        expect(rc == 0 and len(got) == 2 and
               all((g == 12345 * (r + 1)) if exact else (g >= 12345 * (r + 1)) for r, g in enumerate(got)) and
               all((p["compute_cycles"] == 12345 * (r + 1)) if exact else (p["compute_cycles"] >= 12345 * (r + 1))
                   for r, p in enumerate(per)),
               "MPIX_Compute_cycles(12345 per rank) takes that long (exactly at --compute-scale 0) at --compute-scale %s and is compute "
               "time (%s; %s)" % (scale, lines, [p["compute_cycles"] for p in per]))
    rc, out, err = run(mpirun + ["-n", "2", "--", exe_c, "-5"])
    expect(rc == 13 and "MPIX_Compute_cycles: cycles -5 is negative (MPI_ERR_ARG)" in err,
           "MPIX_Compute_cycles(-5) is a fatal error that names the count (%d: %s)" % (rc, err[-300:]))
    # A user op's function is the rank's code too: its host time (20 ms of CPU) is charged
    # inside the reduction, on the rank that applies it (rank 0 of 2), not lost.
    exe_op = build_source(a.mpicc, work, "slow_op",
                          '#include <mpi.h>\n#include <stdio.h>\n#include <time.h>\n'
                          'static void slow(void* in, void* io, int* n, MPI_Datatype* t) { clock_t c0 = clock();\n'
                          '  (void)n; (void)t; while (clock() - c0 < CLOCKS_PER_SEC / 50) {}\n'
                          '  *(int*)io += *(int*)in; }\n'
                          'int main(int c, char** v) { int x = 1, y = 0; MPI_Op op; MPI_Init(&c, &v);\n'
                          '  MPI_Op_create(slow, 1, &op); MPI_Allreduce(&x, &y, 1, MPI_INT, op, MPI_COMM_WORLD);\n'
                          '  printf("sum %d\\n", y); MPI_Finalize(); return 0; }\n')
    js = os.path.join(work, "slow_op.json")
    rc, out, err = run(default + ["-n", "2", "--compute-scale", "0.01", "--json", js, "--", exe_op])
    per = json.load(open(js))["per_rank"] if rc == 0 else [{"compute_cycles": 0}] * 2
    expect(rc == 0 and out.split() == ["sum", "2", "sum", "2"] and
           per[0]["compute_cycles"] - per[1]["compute_cycles"] > 100000,
           "a user op's own time is simulated on the rank that applies it (compute cycles %s)" %
           [r["compute_cycles"] for r in per])
    # A benchmark written as suites are: getopt_long options, MPI_Alloc_mem buffers, one-sided
    # put/get under locks, send/recv and collectives; every test checks its data.
    rc, out, err = run(mpirun + ["-n", "4", "--", build(a.mpicc, "bench", work), "-m", "8:256", "--iterations=3",
                                 "-x", "1", "--tests", "latency,put,get,allreduce,bcast,alltoall"])
    rows = re.findall(r"^(\w+)\s+(\d+)\s+[\d.]+$", out, re.M)
    expect(rc == 0 and len(rows) == 6 * 6 and "checks passed" in out and
           {t for t, _ in rows} == {"latency", "put", "get", "allreduce", "bcast", "alltoall"},
           "the suite-style benchmark runs unmodified: %d rows (%s)" % (len(rows), err.splitlines()[-1:]))
    # MPI_Cart_create with reorder: a grid that is the torus's axes in another order takes
    # each rank's place on the torus; its halo exchange is faster than the grid in rank order.
    halo = os.path.join(work, "halo")
    subprocess.run([a.mpicc, "-O2", "-o", halo, os.path.join(HERE, "..", "..", "examples", "mpi", "halo.c")],
                   check=True)
    rc, out, err = run(mpirun + ["-n", "16", "--torus", "4x2x2", "--", halo, "4", "2", "2", "4", "2", "2"])
    got = {int(m.group(1)): (float(m.group(2)), int(m.group(3)))
           for m in re.finditer(r"reorder (\d): .*: (\d+) cycles .* at most (\d+) hops", out)}
    expect(rc == 0 and got.get(1, (0, 9))[1] == 1 and got.get(0, (0, 0))[1] > 1 and got[1][0] < got[0][0] and
           "mapping: MPI_Cart_create reordered grid 4x2x2 along x,y,z" in err,
           "MPI_Cart_create reorder puts Cartesian neighbours one torus hop apart, and the halo exchange is "
           "faster (%s; %s)" % (got, [l for l in err.splitlines() if "mapping" in l]))
    # The default (auto): a loop of real work timed with MPI_Wtime on one rank takes time;
    # with --machine bgl the report splits each rank's time into computing and MPI.
    exe_w = build_source(a.mpicc, work, "wtime",
                         '#include <mpi.h>\n#include <stdio.h>\nvolatile double sink;\n'
                         'int main(int c, char** v) { MPI_Init(&c, &v); double t0 = MPI_Wtime();\n'
                         '  for (long i = 0; i < 300000; i++) sink += i * 0.5;\n'
                         '  double t1 = MPI_Wtime(); printf("elapsed %.9f\\n", t1 - t0); MPI_Finalize(); return 0; }\n',
                         ["-O1"])
    rc, out, err = run(default + ["-n", "1", "--", exe_w])
    elapsed = float(out.split()[1]) if rc == 0 and out.startswith("elapsed") else 0.0
    expect(rc == 0 and elapsed > 0 and "compute time auto" in err,
           "by default MPI_Wtime measures real work between calls (%g s; %s)" % (elapsed, err.splitlines()[:1]))
    js = os.path.join(work, "auto.json")
    rc, out, err = run(default + ["-n", "2", "--machine", "bgl", "--compute-scale", "auto", "--json", js, "--", exe])
    rep = json.load(open(js)) if rc == 0 else {"per_rank": [{"compute_cycles": 0, "mpi_cycles": 0}]}
    expect(rc == 0 and "cycles computing per rank" in err and "% of the ranks' time computing" in err and
           all(r["compute_cycles"] > 0 and r["mpi_cycles"] > 0 for r in rep["per_rank"]) and rep["compute_scale_auto"],
           "--compute-scale auto --machine bgl: the report splits each rank's time into compute and MPI (%s)" %
           err.splitlines()[:3])
    # Coprocessor mode: examples/mpi/overlap.c's non-blocking allreduce runs beside as long
    # a computation (both about the longer: well under their sum); without the mode, about
    # their sum. The computation is MPIX_Compute_cycles's (`exact`), so the cycles are the same
    # on every host. With no compute time there is nothing to overlap, and the program says so.
    overlap = build_overlap(a, work)
    shares = {}
    for mode in ([], ["--coprocessor"]):
        shares[bool(mode)] = overlap_share(mpirun + ["-n", "8", "--torus", "2x2x2", *mode,
                                                     "--", overlap, "allreduce", "65536", "exact"],
                                           " (coprocessor)" if mode else "")
    expect(shares[True] is not None and shares[True] <= 0.6 and shares[False] is not None and shares[False] >= 0.95,
           "overlap.c: MPI_Iallreduce and a computation take well under their sum in coprocessor mode, about "
           "their sum without (%s)" % shares)
    # A posted collective's op and communicator freed before its wait: the free waits for it.
    early = build_source(a.mpicc, work, "freed_early", r'''
#include <mpi.h>
#include <stdio.h>
static void add(void *in, void *inout, int *len, MPI_Datatype *t) {
  (void)t;
  for (int i = 0; i < *len; i++) ((int *)inout)[i] += ((int *)in)[i];
}
int main(int argc, char **argv) {
  int rank, size, in, sum = 0;
  MPI_Comm dup;
  MPI_Op op;
  MPI_Request req;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Op_create(add, 1, &op);
  in = rank + 1;
  MPI_Iallreduce(&in, &sum, 1, MPI_INT, op, dup, &req);
  MPI_Op_free(&op);
  MPI_Comm_free(&dup);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  printf("rank %d: sum %d\n", rank, sum);
  MPI_Finalize();
  return sum == size * (size + 1) / 2 ? 0 : 1;
}
''')
    rc, out, err = run(mpirun + ["-n", "4", "--coprocessor", "--", early])
    expect(rc == 0 and out.count("sum 10") == 4,
           "coprocessor mode: an op and a communicator freed right after MPI_Iallreduce (%s)" % (out + err)[-300:])
    rc, out, err = run(mpirun + ["-n", "2", "--coprocessor", "--", overlap, "allreduce"])
    expect(rc == 2 and "takes no simulated time" in out, "overlap.c says there is nothing to overlap at --compute-scale 0")
    rc, out, err = run(mpirun + ["-n", "4", "--tasks", "2", "--coprocessor", "--", overlap, "allreduce"])
    expect(rc != 0 and "coprocessor mode runs one task per node" in err, "--coprocessor with two tasks per node is refused")
    # --machine: the program runs on the preset's timing, and the report says which.
    js = os.path.join(work, "machine.json")
    rc, out, err = run(mpirun + ["-n", "2", "--machine", "bgl", "--json", js, "--", exe])
    rep = json.load(open(js)) if rc == 0 else {}
    expect(rc == 0 and rep["machine"]["torus"]["cycles_per_flit"] == 32 and rep["torus"] == "2x1x1" and
           rep["cycles"] > cycles[0][1],
           "--machine bgl: its timing (slower barrier), the shape from -n (%s %s)" % (rc, err))
    # Faults: with bits flipping on every link the link layer resends, and the program's
    # results are exact; a cut that names no link is refused before anything runs.
    hello = os.path.join(work, "hello")
    js = os.path.join(work, "ber.json")
    rc, out, err = run(mpirun + ["-n", "4", "--link-ber", "1e-3", "--fault-seed", "7", "--json", js, "--", hello])
    rep = json.load(open(js)) if rc == 0 else {}
    expect(rc == 0 and sorted(out.splitlines()) == ["rank %d: sum 6, loaded as %d" % (r, r) for r in range(4)] and
           rep["links"]["bits_flipped"] > 0 and rep["links"]["tree"]["resent"] > 0 and "bits flipped" in err,
           "--link-ber: bits flip, the link layer resends, the results are exact (%s %s)" % (rc, err))
    # Cycle 160 is inside the barrier (the allreduce, on the tree, ends near 140 and the run
    # near 200); a node cut inside the allreduce is its tree link layer's error instead.
    rc, out, err = run(mpirun + ["-n", "8", "--node-down", "3@160", "--deadlock-cycles", "5000", "--", hello])
    expect(rc == 1 and "deadlock" in err and "faults: node 3 down at cycle 160" in err,
           "a node going down mid-run ends the job with the deadlock report, which names the cut (%s %s)" % (rc, err))
    rc, out, err = run(mpirun + ["-n", "4", "--link-down", "1:tree5@100", "--", hello])
    expect(rc == 2 and "--link-down" in err and "tree5" in err, "a --link-down item naming no link is refused (%s)" % err)
    # Bad usage.
    rc, out, err = run(mpirun + ["-n", "3", "--tasks", "2", "--", exe])
    expect(rc == 2 and "not a multiple of --tasks" in err, "-n not a multiple of --tasks is refused")
    rc, out, err = run(mpirun + ["-n", "2", "--", "/bin/true"])
    expect(rc == 2 and "collnet-mpicc" in err, "a program not built with collnet-mpicc is refused, saying how to build it")
    # A call to a function collnet lacks fails the program's link, naming the function.
    src = os.path.join(work, "missing.c")
    with open(src, "w") as f:
        f.write('#include <mpi.h>\nint MPI_Collnet_no_such_call(MPI_Comm);\n'
                'int main(int c, char** v) { MPI_Init(&c, &v); MPI_Collnet_no_such_call(MPI_COMM_WORLD);\n'
                '  MPI_Finalize(); return 0; }\n')
    missing = os.path.join(work, "missing")
    p = subprocess.run([a.mpicc, "-o", missing, src], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    expect(p.returncode != 0 and "undefined reference to `MPI_Collnet_no_such_call'" in p.stderr and
           not os.path.exists(missing), "a call to an MPI function collnet lacks fails the link, naming it")
    # The profiling interface: a program's own MPI_Send and MPI_Allreduce count their calls
    # and call collnet's through PMPI_.
    profile = build_source(a.mpicc, work, "profile",
                     '#include <mpi.h>\n#include <stdio.h>\nstatic int sends, reduces;\n'
                     'int MPI_Send(const void* b, int c, MPI_Datatype t, int d, int g, MPI_Comm m) {\n'
                     '  sends++; return PMPI_Send(b, c, t, d, g, m); }\n'
                     'int MPI_Allreduce(const void* s, void* r, int c, MPI_Datatype t, MPI_Op o, MPI_Comm m) {\n'
                     '  reduces++; return PMPI_Allreduce(s, r, c, t, o, m); }\n'
                     'int main(int c, char** v) { int r, n, x = 1, sum = 0; MPI_Init(&c, &v);\n'
                     '  PMPI_Comm_rank(MPI_COMM_WORLD, &r); MPI_Comm_size(MPI_COMM_WORLD, &n);\n'
                     '  if (r == 0) for (int i = 1; i < n; i++) MPI_Send(&x, 1, MPI_INT, i, 0, MPI_COMM_WORLD);\n'
                     '  else MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n'
                     '  MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);\n'
                     '  printf("rank %d: %d sends, %d allreduces, sum %d\\n", r, sends, reduces, sum);\n'
                     '  MPI_Finalize(); return 0; }\n', extra=("-Wall", "-Werror"))
    rc, out, err = run(mpirun + ["-n", "4", "--", profile])
    expect(rc == 0 and sorted(out.splitlines()) == ["rank 0: 3 sends, 1 allreduces, sum 4"] +
           ["rank %d: 0 sends, 1 allreduces, sum 4" % i for i in (1, 2, 3)],
           "a program's MPI_ wrappers call collnet's functions through PMPI_ (%s)" % out)
    # MPI-1's error handler names (removed in MPI-3.0; Open MPI refuses them at compile time)
    # still work, as programs written for MPI-1 call them.
    mpi1 = build_source(a.mpicc, work, "mpi1",
                     '#include <mpi.h>\n#include <stdio.h>\nint main(int c, char** v) { MPI_Errhandler e; int x = 0;\n'
                     '  MPI_Init(&c, &v); MPI_Errhandler_set(MPI_COMM_WORLD, MPI_ERRORS_RETURN);\n'
                     '  MPI_Errhandler_get(MPI_COMM_WORLD, &e);\n'
                     '  int rc = MPI_Send(&x, 1, MPI_INT, 99, 0, MPI_COMM_WORLD);\n'
                     '  printf("%d %d\\n", e == MPI_ERRORS_RETURN, rc != MPI_SUCCESS); MPI_Finalize(); return 0; }\n')
    rc, out, err = run(mpirun + ["-n", "2", "--", mpi1])
    expect(rc == 0 and out.split() == ["1", "1", "1", "1"], "MPI_Errhandler_set/get, MPI-1's names, work (%s)" % out)
    # The rest of MPI-1's names that older suites call: the datatype functions removed in
    # MPI-3.0 and the attribute functions deprecated in MPI-2, each the same as its successor.
    mpi1_more = build_source(a.mpicc, work, "mpi1_more", r'''
#include <mpi.h>
#include <stdio.h>
static int deleted;
static int on_delete(MPI_Comm c, int k, void *v, void *x) { (void)c; (void)k; (void)x; deleted += *(int *)v; return 0; }
static void handler(MPI_Comm *c, int *code, ...) { (void)c; (void)code; }
int main(int argc, char **argv) {
  int bl[2] = {1, 2}, ok = 1, key, flag = 0, value = 5, *got = NULL;
  double d[4];
  MPI_Aint lb, ub, ext, disp[2], a0, a1;
  MPI_Datatype hv, hi, st, types[2] = {MPI_INT, MPI_DOUBLE};
  MPI_Errhandler eh;
  MPI_Comm dup;
  MPI_Init(&argc, &argv);
  MPI_Type_hvector(3, 1, 16, MPI_DOUBLE, &hv);
  MPI_Type_extent(hv, &ext);
  MPI_Type_lb(hv, &lb);
  MPI_Type_ub(hv, &ub);
  ok &= ext == 40 && lb == 0 && ub == 40;
  MPI_Address(&d[0], &a0);
  MPI_Address(&d[2], &a1);
  ok &= a1 - a0 == 16;
  disp[0] = 0;
  disp[1] = 24;
  MPI_Type_hindexed(2, bl, disp, MPI_DOUBLE, &hi);
  MPI_Type_extent(hi, &ext);
  ok &= ext == 40;
  disp[1] = 8;
  MPI_Type_struct(2, bl, disp, types, &st);
  MPI_Type_extent(st, &ext);
  ok &= ext == 24;
  MPI_Type_free(&hv);
  MPI_Type_free(&hi);
  MPI_Type_free(&st);
  MPI_Keyval_create(MPI_NULL_COPY_FN, on_delete, &key, NULL);
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Attr_put(dup, key, &value);
  MPI_Attr_get(dup, key, &got, &flag);
  ok &= flag && got == &value;
  MPI_Attr_delete(dup, key);
  MPI_Attr_get(dup, key, &got, &flag);
  ok &= !flag && deleted == 5;
  MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, &got, &flag);
  ok &= flag && *got >= 32767;
  MPI_Keyval_free(&key);
  MPI_Comm_free(&dup);
  MPI_Errhandler_create(handler, &eh);
  MPI_Errhandler_free(&eh);
  printf("%s\n", ok ? "ok" : "wrong");
  MPI_Finalize();
  return 0;
}
''', extra=("-Wall", "-Werror"))
    rc, out, err = run(mpirun + ["-n", "2", "--", mpi1_more])
    expect(rc == 0 and out.split() == ["ok", "ok"],
           "MPI-1's datatype and attribute names (MPI_Type_extent/_lb/_ub/_hvector/_hindexed/_struct, "
           "MPI_Address, MPI_Keyval_*, MPI_Attr_*, MPI_Errhandler_create) work (%s)" % (out + err)[-300:])
    # MPI-4's persistent collectives (Open MPI 4.1 has them only as MPIX_): set up once,
    # started three times with the buffer changed between starts.
    pc = build_source(a.mpicc, work, "pcoll",
                      '#include <mpi.h>\n#include <stdio.h>\nint main(int c, char** v) { int r, n, x, s, b = 0, ok = 1;\n'
                      '  MPI_Request q[5]; MPI_Init(&c, &v); MPI_Comm_rank(MPI_COMM_WORLD, &r);\n'
                      '  MPI_Comm_size(MPI_COMM_WORLD, &n);\n'
                      '  MPI_Allreduce_init(&x, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &q[0]);\n'
                      '  MPI_Bcast_init(&b, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &q[1]);\n'
                      '  MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &q[2]);\n'
                      '  int g[8], cnt[8], dsp[8], nb[2], dims[1] = {0}, per[1] = {1}; MPI_Comm ring;\n'
                      '  for (int i = 0; i < n; i++) { cnt[i] = 1; dsp[i] = n - 1 - i; }\n'
                      '  MPI_Dims_create(n, 1, dims); MPI_Cart_create(MPI_COMM_WORLD, 1, dims, per, 0, &ring);\n'
                      '  MPI_Allgatherv_init(&x, 1, MPI_INT, g, cnt, dsp, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &q[3]);\n'
                      '  MPI_Neighbor_allgather_init(&x, 1, MPI_INT, nb, 1, MPI_INT, ring, MPI_INFO_NULL, &q[4]);\n'
                      '  for (int it = 1; it <= 3; it++) { x = r * it; b = r == 0 ? 10 * it : -1;\n'
                      '    MPI_Startall(5, q); MPI_Waitall(5, q, MPI_STATUSES_IGNORE);\n'
                      '    ok &= s == it * n * (n - 1) / 2 && b == 10 * it && q[0] != MPI_REQUEST_NULL;\n'
                      '    for (int i = 0; i < n; i++) ok &= g[n - 1 - i] == i * it;\n'
                      '    ok &= nb[0] == ((r + n - 1) % n) * it && nb[1] == ((r + 1) % n) * it; }\n'
                      '  for (int i = 0; i < 5; i++) MPI_Request_free(&q[i]);\n'
                      '  printf("%d\\n", ok); MPI_Finalize(); return 0; }\n')
    rc, out, err = run(mpirun + ["-n", "4", "--", pc])
    expect(rc == 0 and out.split() == ["1"] * 4,
           "persistent collectives (a v-form and a neighbourhood one too) started three times (%s %s)" %
           (out, err[-300:]))
    # MPI_Type_get_contents gives back a type's constructor arguments, a derived member as a
    # new handle.
    contents = build_source(a.mpicc, work, "contents",
                     '#include <mpi.h>\n#include <stdio.h>\nint main(int c, char** v) { MPI_Init(&c, &v);\n'
                     '  MPI_Datatype vec, st, got[2]; int ints[8], sv = 0, sg = 0; MPI_Aint aints[4];\n'
                     '  MPI_Type_vector(3, 2, 5, MPI_DOUBLE, &vec);\n'
                     '  MPI_Type_get_contents(vec, 8, 4, 2, ints, aints, got);\n'
                     '  printf("%d %d %d %d\\n", ints[0], ints[1], ints[2], got[0] == MPI_DOUBLE);\n'
                     '  int lens[2] = {1, 2}; MPI_Aint d[2] = {0, 16}; MPI_Datatype ts[2] = {MPI_INT, vec};\n'
                     '  MPI_Type_create_struct(2, lens, d, ts, &st); MPI_Type_free(&vec);\n'
                     '  MPI_Type_get_contents(st, 8, 4, 2, ints, aints, got);\n'
                     '  MPI_Type_size(got[1], &sg); MPI_Type_size(st, &sv);\n'
                     '  printf("%d %d %d %ld %ld %d %d %d\\n", ints[0], ints[1], ints[2], (long)aints[0], (long)aints[1],\n'
                     '         got[0] == MPI_INT, sg, sv);\n'
                     '  MPI_Type_free(&got[1]); MPI_Type_free(&st); MPI_Finalize(); return 0; }\n')
    rc, out, err = run(mpirun + ["-n", "1", "--", contents])
    expect(rc == 0 and out.splitlines() == ["3 2 5 1", "2 1 2 0 16 1 48 100"],
           "MPI_Type_get_contents gives back the arguments, a freed derived member as a new type (%s %s)" % (out, err))
    # external32 where Open MPI strays from MPI-3.1 13.5.2 (so not in packing.c): MPI_LONG in 4
    # bytes, a long beyond them refused (nothing packed), MPI_WCHAR in 2, long double as IEEE
    # binary128 (1.5: 3fff8 then zeros) and back, another representation's name refused.
    ext = build_source(a.mpicc, work, "external32",
                       '#include <mpi.h>\n#include <stdio.h>\n#include <wchar.h>\n'
                       'int main(int c, char** v) { MPI_Init(&c, &v); MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);\n'
                       '  unsigned char b[64]; MPI_Aint pos = 0, up = 0, n1, n2, n3; int cls = -1, cls2 = -1;\n'
                       '  long l[2] = {-7, 1L << 40}; wchar_t w = 0x263a; long double x = 1.5L, y = 0;\n'
                       '  MPI_Pack_external_size("external32", 1, MPI_LONG, &n1); MPI_Pack_external_size("external32", 1, MPI_WCHAR, &n2);\n'
                       '  MPI_Pack_external_size("external32", 1, MPI_LONG_DOUBLE_INT, &n3);\n'
                       '  MPI_Pack_external("external32", l, 1, MPI_LONG, b, 64, &pos);\n'
                       '  MPI_Error_class(MPI_Pack_external("external32", l + 1, 1, MPI_LONG, b, 64, &pos), &cls);\n'
                       '  MPI_Pack_external("external32", &w, 1, MPI_WCHAR, b, 64, &pos);\n'
                       '  MPI_Pack_external("external32", &x, 1, MPI_LONG_DOUBLE, b, 64, &pos);\n'
                       '  MPI_Unpack_external("external32", b, pos, &up, l, 1, MPI_LONG);\n'
                       '  MPI_Unpack_external("external32", b, pos, &up, &w, 1, MPI_WCHAR);\n'
                       '  MPI_Unpack_external("external32", b, pos, &up, &y, 1, MPI_LONG_DOUBLE);\n'
                       '  MPI_Error_class(MPI_Pack_external("native", l, 1, MPI_LONG, b, 64, &up), &cls2);\n'
                       '  printf("%ld %ld %ld %ld %d", (long)n1, (long)n2, (long)n3, (long)pos, cls == MPI_ERR_ARG && cls2 == MPI_ERR_ARG);\n'
                       '  for (int i = 0; i < pos; i++) printf("%s%02x", i == 0 || i == 4 || i == 6 ? " " : "", b[i]);\n'
                       '  printf(" %ld %x %d\\n", l[0], (unsigned)w, y == 1.5L); MPI_Finalize(); return 0; }\n')
    rc, out, err = run(mpirun + ["-n", "1", "--", ext])
    expect(rc == 0 and out.split() == ["4", "2", "20", "22", "1", "fffffff9", "263a", "3fff8" + "0" * 27, "-7", "263a", "1"],
           "external32 at the standard's sizes: long 4, wchar 2, long double binary128 (%s %s)" % (out, err[-300:]))
    # MPI_Comm_spawn has no room on a machine that runs the ranks mpirun started: MPI_ERR_SPAWN
    # in the return, every errcode and the error string, MPI_COMM_NULL; the ranks go on.
    spawn = build_source(a.mpicc, work, "spawn",
                         '#include <mpi.h>\n#include <stdio.h>\n#include <string.h>\n'
                         'int main(int c, char** v) { MPI_Init(&c, &v);\n'
                         '  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);\n'
                         '  MPI_Comm child = MPI_COMM_WORLD, parent; int codes[3] = {0, 0, 0}, cls, len, n, u, flag;\n'
                         '  char text[MPI_MAX_ERROR_STRING]; int *usize;\n'
                         '  int rc = MPI_Comm_spawn("worker", MPI_ARGV_NULL, 3, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &child, codes);\n'
                         '  MPI_Error_class(rc, &cls); MPI_Error_string(rc, text, &len);\n'
                         '  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &usize, &flag); u = *usize;\n'
                         '  MPI_Comm_get_parent(&parent); MPI_Allreduce(&u, &n, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);\n'
                         '  printf("%d %d %d %d %d %d %d\\n", cls == MPI_ERR_SPAWN, codes[0] == MPI_ERR_SPAWN && codes[2] == MPI_ERR_SPAWN,\n'
                         '         child == MPI_COMM_NULL, parent == MPI_COMM_NULL, strstr(text, "MPI_UNIVERSE_SIZE 2") != NULL, u, n);\n'
                         '  MPI_Finalize(); return 0; }\n')
    rc, out, err = run(mpirun + ["-n", "2", "--", spawn])
    expect(rc == 0 and out.split() == ["1", "1", "1", "1", "1", "2", "4"] * 2,
           "MPI_Comm_spawn is refused with MPI_ERR_SPAWN naming the universe's size, and the ranks go on (%s %s)" %
           (out, err[-300:]))
    # A shared object with main but without the rank state collnet-mpicc links in is refused.
    src = os.path.join(work, "bare.c")
    with open(src, "w") as f:
        f.write('int main(void) { return 0; }\n')
    bare = os.path.join(work, "bare.so")
    subprocess.run(["cc", "-shared", "-fPIC", "-o", bare, src], check=True)
    rc, out, err = run(mpirun + ["-n", "2", "--", bare])
    expect(rc == 2 and "link it again" in err, "a program linked without collnet-mpicc's rank state is refused (%s)" % err)


def osu(a, work):
    rc, out, err = run([a.collnet, "mpirun", "-n", "2", "--compute-scale", "0", "--", build(a.mpicc, "osu", work)])
    if rc != 0:
        fail("osu failed:\n" + out + err)
    lat = {int(m.group(1)): float(m.group(2)) for m in re.finditer(r"latency (\d+) B: ([\d.]+) us", out)}
    red = {int(m.group(1)): float(m.group(2)) for m in re.finditer(r"allreduce (\d+) doubles: ([\d.]+) us", out)}
    rc, pp, err = run([a.collnet, "run", "pingpong", "--torus", "2x1x1", "--ranks", "0,1", "--iterations", "10",
                       "--sizes", ",".join(str(s) for s in sorted(lat))])
    ref = {int(m.group(1)): float(m.group(2)) for m in re.finditer(r"^\s+(\d+)\s+[\d.]+\s+([\d.]+)", pp, re.M)}
    js = os.path.join(work, "compare.json")
    rc, cp, err = run([a.collnet, "compare", "allreduce", "--torus", "2x1x1", "--type", "f64", "--json", js,
                       "--sizes", ",".join(str(8 * c) for c in sorted(red))])
    table = json.load(open(js))
    print(out + pp + cp)
    for size, us in sorted(lat.items()):
        want = ref[size]
        expect(abs(us - want) <= max(0.05 * want, 0.0015),
               "MPI ping-pong latency of %d B, %.3f us, agrees with collnet run pingpong's %.3f us" % (size, us, want))
    auto = {row["bytes"]: row["auto"]["cycles"] for row in table["rows"]}
    for count, us in sorted(red.items()):
        want = auto[8 * count] / 700.0
        expect(abs(us - want) <= max(0.05 * want, 0.0015),
               "MPI_Allreduce of %d doubles, %.3f us, agrees with collnet compare's %.3f us" % (count, us, want))


def engine(a, work):
    rc, out, err = run([a.collnet, "mpirun", "-n", "2", "--torus", "2x1x1", "--rtl", "torus.dma=2", "--compute-scale",
                        "0", "--", build(a.mpicc, "rma_bandwidth", work), "262144"])
    print(out.strip())
    took = {m.group(1): int(m.group(2)) for m in re.finditer(r"^(send|put|get) \d+ B: (\d+) cycles", out, re.M)}
    expect(rc == 0 and set(took) == {"send", "put", "get"}, "rma_bandwidth runs on engine nodes (%s)" % err[-300:])
    # 256 KiB: 32,768 words in 1,058 packets (1,057 of 31 words and one of 1, each with its
    # first word, in whole chunks: 33 flits and 5) of 34,886 flits, a flit a cycle on the link.
    expect(took["send"] <= 34886 * 100 // 97, "the send reaches 0.97 of the link (%d cycles)" % took["send"])
    for op in ("put", "get"):
        expect(took[op] <= took["send"] * 11 // 10,
               "one-sided %s within 10%% of the send: %d cycles against %d" % (op, took[op], took["send"]))


def build_overlap(a, work):
    exe = os.path.join(work, "overlap")
    subprocess.run([a.mpicc, "-O2", "-o", exe, os.path.join(HERE, "..", "..", "examples", "mpi", "overlap.c")],
                   check=True)
    return exe


def overlap_share(cmd, label, of="sum"):
    # Runs examples/mpi/overlap.c; prints its line and returns the overlapped run's share of
    # the collective's and the computation's sum, or (of="longer") of the longer of the two
    # (None if it failed).
    rc, out, err = run(cmd)
    m = re.search(r"both (\d+): ([\d.]+) of the longer, ([\d.]+) of their sum", out)
    print("  " + (out.strip().splitlines() or [err[-300:]])[0] + label)
    return float(m.group(2 if of == "longer" else 3)) if rc == 0 and m else None


def overlap(a, work):
    # examples/mpi/overlap.c on nodes with the engine, without a coprocessor: MPI_Ialltoall's
    # blocks are moved by the engines while the ranks compute; MPI_Iallreduce runs in the
    # background (a fiber), its messages by the engines, its steps served by interrupts that
    # break the computation up. Each with as long a computation takes about the longer.
    exe = build_overlap(a, work)
    shares = {}
    # The computation is MPIX_Compute_cycles's (`exact`): the same cycles on every host.
    for what, size in (("alltoall", "32768"), ("allreduce", "65536")):
        shares[what] = overlap_share([a.collnet, "mpirun", "-n", "8", "--torus", "2x2x2", "--rtl", "torus.dma=2",
                                      "--compute-scale", "0", "--", exe, what, size, "exact"], " (" + what + ")",
                                     "longer")
    for what in ("alltoall", "allreduce"):
        expect(shares[what] is not None and shares[what] <= 1.2,
               "overlap.c: MPI_I%s and a computation take at most 1.2 of the longer on engine nodes (%s)"
               % (what, shares))

LEAPS_PROGRAM = r"""
#include <mpi.h>
#include <stdio.h>
/* Ranks computing for different, long stretches (MPIX_Compute_cycles) between point-to-point
   messages, collectives and a started collective, printing the simulated times they see. */
int main(int argc, char **argv) {
  int rank, size, i, x, sum = 0, token = 0;
  double t0;
  MPI_Request q;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  t0 = MPI_Wtime();
  for (i = 0; i < 3; i++) {
    MPIX_Compute_cycles(2000 + 791LL * rank * (i + 1));
    x = rank + i;
    MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) MPIX_Compute_cycles(5000);
    if (size > 1) {
      if (rank == 0) MPI_Send(&sum, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
      if (rank == 1) MPI_Recv(&token, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Ibarrier(MPI_COMM_WORLD, &q);
    MPIX_Compute_cycles(3000 + 100LL * rank);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    printf("rank %d step %d: sum %d token %d at %.9f\n", rank, i, sum, token, MPI_Wtime() - t0);
  }
  MPI_Finalize();
  return 0;
}
"""


def leaps(a, work):
    # The machine leaps over cycles in which nothing acts (every node quiescent, every
    # processor computing or waiting): --idle-skip on leaps, check evaluates every edge (and
    # fails the run if a skipped one would have changed a model), off clocks everything. The
    # program's output, with the simulated times it reads, and the run's cycles must agree,
    # in coprocessor mode and on nodes with the DMA engine too.
    exe = build_source(a.mpicc, work, "leaps", LEAPS_PROGRAM)
    for extra in ([], ["--coprocessor"], ["--rtl", "torus.dma=2"]):
        seen = {}
        for mode in ("off", "check", "on"):
            rc, out, err = run([a.collnet, "mpirun", "-n", "4", "--compute-scale", "0", "--idle-skip", mode, *extra,
                                "--", exe])
            m = re.search(r"ranks on \S+ \(\d+ per node\), (\d+) cycles", err)
            expect(rc == 0 and m is not None, "leaps %s --idle-skip %s: ran (%s)" % (extra, mode, err[-500:]))
            seen[mode] = (sorted(out.splitlines()), m.group(1) if m else None)
            print("leaps %-24s --idle-skip %-5s %s cycles, %d lines" % (" ".join(extra), mode, seen[mode][1],
                                                                          len(seen[mode][0])))
        expect(seen["on"] == seen["off"] == seen["check"] and len(seen["on"][0]) == 12,
               "leaps %s: the same output and cycles with --idle-skip on, check and off" % extra)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("mode", choices=["conformance", "behaviour", "engine", "overlap", "osu", "leaps"])
    p.add_argument("ranks", nargs="?", default="1,2,8")
    p.add_argument("--collnet", required=True)
    p.add_argument("--mpicc", required=True)
    p.add_argument("--tasks", type=int, default=1)
    p.add_argument("--torus", help="conformance: the machine's shape (default: mpirun's for -n)")
    p.add_argument("--down-nodes", help="conformance: nodes down from boot (the ranks run on the others)")
    p.add_argument("--coprocessor", action="store_true", help="conformance: in coprocessor mode")
    p.add_argument("--rtl", help="conformance: a node size KEY=VALUE (e.g. torus.dma=2)")
    p.add_argument("--openmpi", action="store_true")
    p.add_argument("--programs", help="only these programs (comma-separated)")
    a = p.parse_args()
    work = tempfile.mkdtemp(prefix="collnet-mpi-")
    try:
        {"conformance": conformance, "behaviour": behaviour, "engine": engine, "overlap": overlap,
         "osu": osu, "leaps": leaps}[a.mode](a, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
