// SPDX-License-Identifier: Apache-2.0
/*
 * deadlock.c - a deliberate deadlock, for the simulator's deadlock detector.
 * NOT run under Open MPI (it would hang there).
 *
 * size >= 2: ranks 0 and 1 each MPI_Recv from the other first (tag 7) and
 *            would only then send; every other rank waits in MPI_Barrier,
 *            which never completes.
 * size == 1: rank 0 receives from itself and nobody ever sends.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, in = -1, out;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    out = rank;
    if (rank == 0) {
        printf("deadlock: %d ranks, %s\n", size,
               size >= 2 ? "ranks 0 and 1 both receive first" : "rank 0 receives from itself");
        fflush(stdout);
    }
    if (size >= 2) {
        if (rank <= 1) {
            int other = 1 - rank;
            MPI_Recv(&in, 1, MPI_INT, other, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&out, 1, MPI_INT, other, 7, MPI_COMM_WORLD);
        }
    } else {
        MPI_Recv(&in, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    /* never reached */
    printf("deadlock: rank %d ERROR: the deadlock was not detected\n", rank);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
