// SPDX-License-Identifier: Apache-2.0
/*
 * halo.c - a halo exchange on a periodic Cartesian grid, over the grid as the ranks come
 * (reorder 0) and as MPI_Cart_create may place them (reorder 1): each rank swaps a face of
 * `count` doubles with both neighbours in every dimension, `iterations` times, and rank 0
 * prints each grid's cycles and the torus hops between its Cartesian neighbours (from
 * MPI_Get_processor_name's node numbers and the torus shape given).
 *
 *   collnet-mpicc -O2 -o halo examples/mpi/halo.c
 *   collnet mpirun -n 128 --tasks 2 --torus 4x4x4 --compute-scale 0 -- ./halo 4 4 4 8 4 4
 *       (torus X Y Z, then the grid's dimensions; optional: count, iterations)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int torus[3];

static int node_of(MPI_Comm comm, int rank) {
    /* Every rank's node, gathered once per communicator. */
    int size;
    MPI_Comm_size(comm, &size);
    char name[MPI_MAX_PROCESSOR_NAME];
    int len;
    MPI_Get_processor_name(name, &len);
    int mine = atoi(name + strcspn(name, "0123456789"));
    int* all = malloc(sizeof(int) * (size_t)size);
    MPI_Allgather(&mine, 1, MPI_INT, all, 1, MPI_INT, comm);
    int n = all[rank];
    free(all);
    return n;
}

static int hops(int a, int b) {
    int h = 0, ca[3] = {a % torus[0], (a / torus[0]) % torus[1], a / (torus[0] * torus[1])},
        cb[3] = {b % torus[0], (b / torus[0]) % torus[1], b / (torus[0] * torus[1])};
    for (int k = 0; k < 3; k++) {
        int d = abs(ca[k] - cb[k]);
        h += d < torus[k] - d ? d : torus[k] - d;
    }
    return h;
}

static void run(int ndims, const int* dims, int reorder, int count, int iterations) {
    int periods[8];
    for (int i = 0; i < ndims; i++) periods[i] = 1;
    MPI_Comm grid;
    MPI_Cart_create(MPI_COMM_WORLD, ndims, dims, periods, reorder, &grid);
    int rank;
    MPI_Comm_rank(grid, &rank);
    /* The largest number of hops between this rank and a neighbour, then over all ranks. */
    int far = 0;
    for (int d = 0; d < ndims; d++) {
        int lo, hi;
        MPI_Cart_shift(grid, d, 1, &lo, &hi);
        for (int s = 0; s < 2; s++) {
            const int other = s ? hi : lo;
            const int here = node_of(grid, rank), there = node_of(grid, other);
            const int h = hops(here, there);
            if (h > far) far = h;
        }
    }
    int farthest;
    MPI_Allreduce(&far, &farthest, 1, MPI_INT, MPI_MAX, grid);
    double* out = malloc(sizeof(double) * (size_t)count * 2);
    double* in = malloc(sizeof(double) * (size_t)count * 2);
    for (int i = 0; i < 2 * count; i++) out[i] = rank + i;
    MPI_Barrier(grid);
    const double t0 = MPI_Wtime();
    for (int it = 0; it < iterations; it++)
        for (int d = 0; d < ndims; d++) {
            int lo, hi;
            MPI_Cart_shift(grid, d, 1, &lo, &hi);
            MPI_Sendrecv(out, count, MPI_DOUBLE, hi, d, in, count, MPI_DOUBLE, lo, d, grid, MPI_STATUS_IGNORE);
            MPI_Sendrecv(out + count, count, MPI_DOUBLE, lo, 100 + d, in + count, count, MPI_DOUBLE, hi, 100 + d, grid,
                         MPI_STATUS_IGNORE);
        }
    MPI_Barrier(grid);
    const double t = MPI_Wtime() - t0;
    if (rank == 0)
        printf("reorder %d: %d iterations of %d doubles per face: %.0f cycles (%.2f us); neighbours at most %d hops apart\n",
               reorder, iterations, count, t / MPI_Wtick(), t * 1e6, farthest);
    free(out);
    free(in);
    MPI_Comm_free(&grid);
}

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    if (argc < 5) {
        fprintf(stderr, "usage: halo X Y Z DIM... [-c COUNT] [-i ITERATIONS]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (int k = 0; k < 3; k++) torus[k] = atoi(argv[1 + k]);
    int dims[8], ndims = 0, count = 64, iterations = 10;
    for (int i = 4; i < argc; i++) {
        if (strcmp(argv[i], "-c") == 0 && i + 1 < argc)
            count = atoi(argv[++i]);
        else if (strcmp(argv[i], "-i") == 0 && i + 1 < argc)
            iterations = atoi(argv[++i]);
        else if (ndims < 8)
            dims[ndims++] = atoi(argv[i]);
    }
    run(ndims, dims, 0, count, iterations);
    run(ndims, dims, 1, count, iterations);
    MPI_Finalize();
    return 0;
}
