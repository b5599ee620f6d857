// SPDX-License-Identifier: Apache-2.0
/*
 * check.h - tiny helpers shared by the self-checking MPI conformance programs.
 *
 * CHECK(cond, fmt, ...) counts one check; on failure it prints
 *   FAIL <file>:<line> rank R: <message>
 * to stdout and aborts the whole job with MPI_Abort(MPI_COMM_WORLD, 1).
 *
 * The number of checks a rank evaluates must depend only on (rank, size),
 * never on timing, so that the final "N checks passed" line is deterministic.
 */
#ifndef MPI_PROGRAMS_CHECK_H
#define MPI_PROGRAMS_CHECK_H

#include <mpi.h>
#include <stdio.h>
#include <string.h>

/* Number of CHECKs evaluated by this rank. */
static long long check_count = 0;

static inline void check_fail_prefix_(const char *file, int line)
{
    int rank = -1, inited = 0, finalized = 0;
    const char *base = strrchr(file, '/');
    MPI_Initialized(&inited);
    MPI_Finalized(&finalized);
    if (inited && !finalized)
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("FAIL %s:%d rank %d: ", base ? base + 1 : file, line, rank);
}

#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        check_count++;                                                       \
        if (!(cond)) {                                                       \
            check_fail_prefix_(__FILE__, __LINE__);                          \
            printf(__VA_ARGS__);                                             \
            printf("\n");                                                    \
            fflush(stdout);                                                  \
            MPI_Abort(MPI_COMM_WORLD, 1);                                    \
        }                                                                    \
    } while (0)

/* Check that an MPI call returned MPI_SUCCESS. */
#define CHECK_RC(rc, what) CHECK((rc) == MPI_SUCCESS, "%s returned %d", (what), (rc))

/*
 * End of a test section: every rank has finished its checks for the
 * section once the barrier completes; rank 0 then prints one line.
 * `ran` must depend only on the number of ranks.
 */
static inline void check_section(const char *prog, const char *name, int ran)
{
    int rank;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        printf("%s: %s %s\n", prog, name, ran ? "ok" : "skipped");
        fflush(stdout);
    }
}

/* Sum every rank's check count at rank 0 and print "<prog>: N checks passed". */
static inline void check_report(const char *prog)
{
    long long total = 0;
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Reduce(&check_count, &total, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%s: %lld checks passed\n", prog, total);
    fflush(stdout);
}

#endif /* MPI_PROGRAMS_CHECK_H */
