// SPDX-License-Identifier: Apache-2.0
/*
 * abort.c - rank size-1 calls MPI_Abort(MPI_COMM_WORLD, 42) after a barrier;
 * the other ranks wait in a second barrier that never completes.  The job
 * must end with exit code 42.  NOT compared with Open MPI.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == size - 1) {
        printf("rank %d: calling MPI_Abort(MPI_COMM_WORLD, 42)\n", rank);
        fflush(stdout);
        MPI_Abort(MPI_COMM_WORLD, 42);
    } else {
        MPI_Barrier(MPI_COMM_WORLD); /* never completes */
    }
    /* never reached */
    printf("rank %d: ERROR: still running after MPI_Abort\n", rank);
    fflush(stdout);
    MPI_Finalize();
    return 1;
}
