// SPDX-License-Identifier: Apache-2.0
/*
 * exit_code.c - every rank calls MPI_Finalize; rank 0 then returns 3 from
 * main, the others 0.  The job's exit code must be 3.  NOT compared with
 * Open MPI.
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
    if (rank == 0) {
        printf("exit_code: %d ranks, rank 0 returns 3 after MPI_Finalize\n", size);
        fflush(stdout);
    }
    MPI_Finalize();
    return rank == 0 ? 3 : 0;
}
