#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes docs/mpi-functions.md: every MPI_ function mpi/include/mpi.h declares (so every
one a program can link), what it runs as on collnet and what it does not do. The area
a function belongs to is the mpi.h section it is declared under; AREAS says what the
functions of an area run as, NOTES what one function adds or leaves out. --check fails
(naming it) when a function has no area, or when the file is not what this would write.

    scripts/mpi_function_table.py           # write the table
    scripts/mpi_function_table.py --check   # ctest MPI.FunctionTableIsCurrent
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADER = os.path.join(ROOT, "mpi", "include", "mpi.h")
OUT = os.path.join(ROOT, "docs", "mpi-functions.md")

# mpi.h's section comment (its first words) -> (area, what the functions run as).
AREAS = [
    ("Environment", "environment", "the rank's own state in `mpi::Rank`; no simulated time"),
    ("Info objects", "info", "(key, value) lists of the rank's; collnet acts on no hint"),
    ("Errors", "errors", "the communicator's error handler (`Rank::raise`)"),
    ("MPI-1's names of datatype", "datatypes", "the MPI-2 functions of the same meaning"),
    ("MPI-1's names of the communicator attribute", "attributes", "the MPI-2 functions of the same meaning"),
    ("MPI-1's names", "errors", "the MPI-2 functions of the same meaning"),
    ("Error classes and codes", "errors", "codes and texts of the rank's (classes 74..127)"),
    ("Communicators and groups", "communicators",
     "the driver's communicators (split, dup, free: a class route when one is free, the torus otherwise); "
     "groups are lists of world ranks"),
    ("Process creation", "communicators", "refused, `MPI_ERR_SPAWN`: the machine runs the ranks mpirun started"),
    ("Establishing communication", "communicators",
     "a request to the port's owner over MPI_COMM_SELF's world-wide transport; the two groups bridged as by "
     "MPI_Intercomm_create"),
    ("Collective over the group", "communicators", "`driver::Communicator::of_members`: no class route"),
    ("Intercommunicators", "intercommunicators", "a driver communicator over both groups (`mpi/intercomm.hpp`)"),
    ("Attributes of the program", "attributes", "the rank's keyvals and values; callbacks on dup and free"),
    ("Point-to-point", "point-to-point",
     "the node's point-to-point engine: eager or rendezvous over the torus, node memory between tasks"),
    ("Persistent requests", "point-to-point", "the same operation, restarted by `MPI_Start`"),
    ("Generalized requests", "point-to-point", "the program's own operation, done once it calls MPI_Grequest_complete"),
    ("Collectives", "collectives",
     "the driver's collective: the combining network when the communicator has a class route and the op "
     "maps onto the ALU, a torus algorithm otherwise (`auto`)"),
    ("Non-blocking collectives", "collectives",
     "started: the blocking collective in the background of the rank's waits, on the torus (a fiber of its "
     "processor; a communicator's in the order started); coprocessor mode: on the coprocessor, in the order posted"),
    ("Persistent collectives", "collectives", "MPI_Start starts the collective as the non-blocking ones are"),
    ("Fortran's parameterised types", "datatypes", "the sized Fortran type of the kind, made once"),
    ("Datatypes", "datatypes", "type maps of the rank's; data moves packed"),
    ("Packing in the portable", "datatypes", "external32: each basic element big-endian at the standard's size"),
    ("Packing", "datatypes", "collnet's packed format (the bytes in type-map order)"),
    ("Topologies", "topologies", "a Cartesian topology on a split of the communicator"),
    ("Graph and distributed graph", "topologies", "a graph topology on a split of the communicator (rank order kept)"),
    ("Neighbourhood collectives", "topologies", "point-to-point messages to the neighbours"),
    ("Persistent neighbourhood collectives", "topologies", "MPI_Start starts the neighbourhood collective in the "
     "background, as the non-blocking collectives are"),
    ("Operations", "ops", "the rank's user ops: folded by the processors along a binomial tree"),
    ("One-sided", "one-sided",
     "messages over the torus that the target's processor applies (docs/mpi.md#one-sided-communication)"),
    ("Request-based operations", "one-sided", "the operation, then a flush: complete when it returns"),
    ("The tools information interface", "tools",
     "collnet's variables: the run's settings (read-only) and the rank's statistics (docs/mpi.md#the-tools-interface)"),
    ("Files (MPI-IO", "files",
     "the host's file, read and written at once through the view (`mpi/file.hpp`); no simulated time"),
    ("Data representations", "files", "a name of the rank's; a view in it is refused"),
    ("Handles between C and Fortran", "handles", "the same integer: collnet's handles are ints on both sides"),
    ("A status as Fortran holds it", "handles", "copies the fields to and from MPI_F_STATUS_SIZE integers"),
]

# Function -> (what it runs as, what it does not do); either may be None (the area's / nothing).
NOTES = {
    "MPI_File_open": ("the host's file, opened by every rank; the outcome agreed over the file's own communicator",
                      "hints are kept, none acted on"),
    "MPI_File_close": ("closes it, then a barrier (MPI_MODE_DELETE_ON_CLOSE: rank 0 deletes it)", None),
    "MPI_File_set_view": ("the view; the ranks agree on the etype's size", "\"native\" and \"internal\" only"),
    "MPI_File_set_atomicity": ("the flag, agreed by the ranks; each access is written whole before another rank runs",
                               "atomic mode across partitions"),
    "MPI_File_sync": ("fdatasync of the rank's file", None),
    "MPI_File_set_size": ("ftruncate, then a barrier", None),
    "MPI_File_preallocate": ("grows the file to the size (rank 0), between barriers", "reserves no blocks itself"),
    "MPI_File_read_shared": ("the shared file pointer, shared by the ranks in this process", "across partitions"),
    "MPI_File_write_shared": ("the shared file pointer, shared by the ranks in this process", "across partitions"),
    "MPI_File_iread_shared": ("the shared file pointer, shared by the ranks in this process", "across partitions"),
    "MPI_File_iwrite_shared": ("the shared file pointer, shared by the ranks in this process", "across partitions"),
    "MPI_File_read_ordered": ("a barrier and a scan of the counts give each rank its place", "across partitions"),
    "MPI_File_write_ordered": ("a barrier and a scan of the counts give each rank its place", "across partitions"),
    "MPI_File_seek_shared": ("barriers around rank 0's move; the offsets agreed", "across partitions"),
    "MPI_Register_datarep": (None, "conversions: a view in a registered representation is refused"),
    "MPI_Init_thread": (None, "provides MPI_THREAD_FUNNELED at most: only a rank's main thread may call MPI"),
    "MPI_Query_thread": (None, "what MPI_Init_thread provided"),
    "MPI_Wtime": ("simulated cycles at the report clock, after charging the compute time since the last call",
                  None),
    "MPI_Wtick": ("one cycle at the report clock", None),
    "MPI_Abort": ("ends the whole run with the code", "only MPI_COMM_WORLD's ranks exist: any comm ends all"),
    "MPI_Alloc_mem": ("host memory", "hints ignored; no special memory"),
    "MPI_Get_processor_name": ("collnet-nodeN, the rank's node", None),
    "MPI_Comm_split_type": ("MPI_COMM_TYPE_SHARED: the ranks of one node", "no other split type"),
    "MPI_Comm_idup": ("MPI_Comm_dup; complete when it returns", None),
    "MPI_Comm_create": ("a split with the group's order as key (of an intercommunicator: an intercommunicator of the "
                        "two groups' parts)", None),
    "MPI_Comm_split": ("the driver's split (of an intercommunicator: each colour's parts of the two groups paired "
                       "in a new intercommunicator)", None),
    "MPI_Rsend": ("a standard send", "no ready-mode protocol"),
    "MPI_Irsend": ("a standard send", "no ready-mode protocol"),
    "MPI_Rsend_init": ("a standard send, persistent", "no ready-mode protocol"),
    "MPI_Ssend": ("rendezvous always: complete once matched", None),
    "MPI_Bsend": ("copied into the attached buffer's room, then sent", None),
    "MPI_Reduce_local": ("`driver::reduce_local`: the values a two-rank collective gives", None),
    "MPI_Scan": (None, "not on an intercommunicator (MPI_ERR_COMM)"),
    "MPI_Exscan": (None, "not on an intercommunicator (MPI_ERR_COMM)"),
    "MPI_Alltoallw": ("each block packed, moved as MPI_Alltoallv moves bytes", ""),
    "MPI_Ialltoallw": (None, "not on an intercommunicator"),
    "MPI_Cart_create": ("reorder places a grid whose dimensions are the machine's axes on the torus "
                        "(cartesian.hpp: TorusEmbedding; the run report says which mapping)",
                        "no folded embeddings (a grid of other shape keeps rank order)"),
    "MPI_Cart_map": ("the rank in row-major order", "MPI_UNDEFINED outside the grid"),
    "MPI_Dims_create": ("Open MPI's factorisation", None),
    "MPI_Topo_test": (None, "no graph topologies: MPI_CART or MPI_UNDEFINED"),
    "MPI_Type_get_true_extent": (None, "a (value, index) pair counts its padding"),
    "MPI_Type_match_size": ("the C types", None),
    "MPI_Win_allocate_shared": ("one block for the node's ranks, in rank order", "ranks of one node only"),
    "MPI_Win_flush_local": ("MPI_Win_flush (complete at the target too)", None),
    "MPI_Win_flush_local_all": ("MPI_Win_flush_all", None),
    "MPI_Win_sync": ("nothing: the memory model is unified", None),
    "MPI_Win_lock": ("exclusive: a request and its grant; shared: taken with the first operations", None),
    "MPI_Win_set_info": (None, "hints kept nowhere"),
    "MPI_Win_get_info": ("an empty info object", None),
    "MPI_Op_create": (None, "not usable in one-sided accumulates (predefined ops only, as MPI says)"),
    "MPI_Errhandler_free": ("nothing to free: handlers live as long as the rank", None),
    "MPI_Pcontrol": ("nothing: collnet's report needs no profiling levels", None),
    "MPI_Comm_set_info": (None, "hints kept nowhere"),
    "MPI_Comm_get_info": ("an empty info object", None),
    "MPI_Comm_dup_with_info": ("MPI_Comm_dup (the hints checked, then ignored)", None),
    "MPI_Comm_get_parent": ("MPI_COMM_NULL: no rank is spawned", "no MPI_Comm_spawn"),
    "MPI_Ibarrier": ("started: a dissemination over point-to-point messages, advanced in every call that waits "
                     "(coprocessor mode: the blocking barrier on the coprocessor)", None),
    "MPI_Ialltoall": ("on nodes with the torus DMA engine the blocks go by the engines' puts, started at the call "
                      "(docs/dma.md); elsewhere started in the background", None),
    "MPI_Ineighbor_allgather": ("started in the background, as the non-blocking collectives are", None),
    "MPI_Ineighbor_allgatherv": ("started in the background, as the non-blocking collectives are", None),
    "MPI_Ineighbor_alltoall": ("started in the background, as the non-blocking collectives are", None),
    "MPI_Ineighbor_alltoallv": ("started in the background, as the non-blocking collectives are", None),
    "MPI_Ineighbor_alltoallw": ("started in the background, as the non-blocking collectives are", None),
    "MPI_Grequest_start": (None, "no second thread: waiting for one not yet completed is MPI_ERR_REQUEST"),
    "MPI_Mprobe": ("MPI_Probe, then a receive of the message found (its data moves then), kept for MPI_Mrecv", None),
    "MPI_Improbe": ("MPI_Iprobe, then as MPI_Mprobe when a message is there", None),
    "MPI_Imrecv": ("MPI_Mrecv (the matched probe received the message): complete when it returns", None),
    "MPI_Request_get_status": ("MPI_Test that leaves the request for its wait (the status kept)", None),
    "MPI_Type_get_name": ("the name set, the predefined type's own, or empty", None),
    "MPI_Cancel": ("withdraws a receive or a send no receive has matched (a send at another node is asked back "
                   "there: its wait completes once the answer is in)",
                   "a non-blocking collective's request (erroneous in MPI)"),
}


def functions():
    """(name, section) for every MPI_ function mpi.h declares, in its order."""
    out, section = [], None
    for line in open(HEADER):
        m = re.match(r"/\* (.*)", line)
        if m:
            section = m.group(1)
        m = re.match(r"(?:int|double|MPI_[A-Za-z]+) (MPI_\w+)\(", line)
        if m:
            out.append((m.group(1), section))
    return out


def area(section):
    for prefix, name, runs_as in AREAS:
        if section and section.startswith(prefix):
            return name, runs_as
    return None


def table():
    rows, missing = [], []
    for name, section in functions():
        a = area(section)
        if a is None:
            missing.append("%s (under '%s')" % (name, section))
            continue
        runs_as, limits = NOTES.get(name, (None, None))
        rows.append("| `%s` | %s | %s | %s |" % (name, a[0], runs_as or a[1], limits or ""))
    return rows, missing


def text(rows):
    return ("# Every MPI function collnet has\n\n"
            "<!-- Written by scripts/mpi_function_table.py from mpi/include/mpi.h; edit the script. -->\n\n"
            "Every `MPI_` function a program compiled with `collnet-mpicc` can call (%d, each with its\n"
            "`PMPI_` twin): what it runs as on the simulated machine and what it does not do. A\n"
            "function not here fails the program's link, naming it ([mpi.md](mpi.md)).\n\n"
            "| function | area | runs as | does not |\n| --- | --- | --- | --- |\n" % len(rows) +
            "\n".join(rows) + "\n")


def main():
    rows, missing = table()
    if missing:
        sys.exit("mpi_function_table: no area for " + ", ".join(missing) + " (add its mpi.h section to AREAS)")
    want = text(rows)
    if "--check" in sys.argv[1:]:
        have = open(OUT).read() if os.path.exists(OUT) else ""
        if have != want:
            sys.exit("mpi_function_table: docs/mpi-functions.md is not current: run scripts/mpi_function_table.py")
        print("mpi_function_table: %d functions, the table is current" % len(rows))
        return
    with open(OUT, "w") as f:
        f.write(want)
    print("mpi_function_table: wrote docs/mpi-functions.md (%d functions)" % len(rows))


if __name__ == "__main__":
    main()
