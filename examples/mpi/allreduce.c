// SPDX-License-Identifier: Apache-2.0
/* One MPI_Allreduce on the simulated machine, timed in simulated cycles: the example of
 * docs/mpi.md. Build and run:
 *   build/collnet-mpicc -O2 -o allreduce examples/mpi/allreduce.c
 *   build/collnet mpirun -n 64 --trace allreduce.fst -- ./allreduce 1024
 *   gtkwave allreduce.gtkw
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  int rank, size, i, count = argc > 1 ? atoi(argv[1]) : 1024;
  double *in, *out, t0, t1, hz;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  in = malloc(count * sizeof(double));
  out = malloc(count * sizeof(double));
  for (i = 0; i < count; i++) in[i] = rank + 0.5 * i;
  MPI_Barrier(MPI_COMM_WORLD);
  t0 = MPI_Wtime();
  MPI_Allreduce(in, out, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  t1 = MPI_Wtime();
  hz = 1.0 / MPI_Wtick();
  for (i = 0; i < count; i++)
    if (out[i] != 0.5 * size * (size - 1) + 0.5 * i * size) {
      printf("rank %d: element %d is %g\n", rank, i, out[i]);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  if (rank == 0)
    printf("MPI_Allreduce of %d doubles on %d ranks: cycles %.0f to %.0f (%.0f cycles, %.2f us)\n", count, size,
           t0 * hz, t1 * hz, (t1 - t0) * hz, (t1 - t0) * 1e6);
  free(in);
  free(out);
  MPI_Finalize();
  return 0;
}
