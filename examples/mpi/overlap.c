// SPDX-License-Identifier: Apache-2.0
/* Communication that overlaps computation (docs/coprocessor.md): a non-blocking collective,
 * then about as long a computation, then MPI_Wait. The program times the collective alone,
 * the computation alone (sized to take about as long) and the two overlapped, each the
 * slowest rank's, in simulated time. Build and run:
 *   build/collnet-mpicc -O2 -o overlap examples/mpi/overlap.c
 *   build/collnet mpirun -n 64 --coprocessor -- ./overlap allreduce 65536
 *   build/collnet mpirun -n 64 --coprocessor -- ./overlap alltoall 4096
 * `allreduce BYTES`: MPI_Iallreduce of BYTES of doubles; `alltoall BYTES`: MPI_Ialltoall of
 * BYTES to each rank. Without --coprocessor the overlapped run takes about their sum.
 * A third argument `exact` models the computation with collnet's MPIX_Compute_cycles
 * instead of host code: exactly as many cycles as the collective took, the same on every
 * host and at any --compute-scale (0 too):
 *   build/collnet mpirun -n 64 --coprocessor --compute-scale 0 -- ./overlap allreduce 65536 exact */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile double sink;
static int exact; /* the computation is MPIX_Compute_cycles's */

/* The computation: `n` rounds of dependent floating-point work, or `n` cycles (`exact`). */
static void compute(long n) {
  double a = 1.0;
  long i;
#ifdef MPIX_COMPUTE_CYCLES
  if (exact) {
    MPIX_Compute_cycles(n);
    return;
  }
#endif
  for (i = 0; i < n; i++) a = a * 1.0000001 + 1e-9;
  sink = a;
}

/* The slowest rank's time from t0 to t1, in cycles. */
static double slowest(double t0, double t1) {
  double mine = (t1 - t0) / MPI_Wtick(), all;
  MPI_Allreduce(&mine, &all, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return all;
}

int main(int argc, char** argv) {
  int rank, size, alltoall, i;
  long bytes, count, rounds = 1000;
  double *in, *out, t0, t_comm, t_compute, t_both;
  MPI_Request req;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 2 || argc > 4 || (strcmp(argv[1], "allreduce") != 0 && strcmp(argv[1], "alltoall") != 0) ||
      (argc > 3 && strcmp(argv[3], "exact") != 0)) {
    if (rank == 0) fprintf(stderr, "usage: overlap allreduce|alltoall [BYTES [exact]]\n");
    MPI_Finalize();
    return 2;
  }
  alltoall = strcmp(argv[1], "alltoall") == 0;
  exact = argc > 3 && strcmp(argv[3], "exact") == 0;
#ifndef MPIX_COMPUTE_CYCLES
  if (exact) {
    if (rank == 0) fprintf(stderr, "overlap: `exact` needs collnet's MPIX_Compute_cycles\n");
    MPI_Finalize();
    return 2;
  }
#endif
  bytes = argc > 2 ? atol(argv[2]) : alltoall ? 4096 : 65536;
  count = bytes / (long)sizeof(double);
  if (count < 1) count = 1;
  in = malloc((size_t)count * sizeof(double) * (alltoall ? size : 1));
  out = malloc((size_t)count * sizeof(double) * (alltoall ? size : 1));
  for (i = 0; i < count * (alltoall ? size : 1); i++) in[i] = rank * 1000.0 + i;

#define START()                                                                                          \
  (alltoall ? MPI_Ialltoall(in, (int)count, MPI_DOUBLE, out, (int)count, MPI_DOUBLE, MPI_COMM_WORLD, &req) \
            : MPI_Iallreduce(in, out, (int)count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req))

  /* The collective alone, after a first untimed one (the first call's set-up). */
  START();
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  t0 = MPI_Wtime();
  START();
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  t_comm = slowest(t0, MPI_Wtime());

  /* Rounds of computation that take about as long: rank 0 finds a first estimate, then
   * every rank computes and the count is scaled by the slowest rank's time, three times. */
  if (exact) rounds = (long)t_comm; /* cycles: the refinement below only adds the call's own */
  t0 = MPI_Wtime();
  compute(rounds);
  {
    double took = (MPI_Wtime() - t0) / MPI_Wtick();
    while (took < t_comm / 4 && rounds < 100000000L) { /* too short to measure: more */
      rounds *= 10;
      t0 = MPI_Wtime();
      compute(rounds);
      took = (MPI_Wtime() - t0) / MPI_Wtick();
    }
    if (took <= 0) { /* computation takes no simulated time (--compute-scale 0): nothing to overlap */
      if (rank == 0) printf("the computation takes no simulated time: run with --compute-scale auto or S > 0\n");
      MPI_Finalize();
      return 2;
    }
    rounds = (long)((double)rounds * t_comm / took);
  }
  MPI_Bcast(&rounds, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  for (i = 0; i < 3; i++) {
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    compute(rounds);
    t_compute = slowest(t0, MPI_Wtime());
    if (i < 2) rounds = (long)((double)rounds * t_comm / t_compute) + 1;
  }

  /* The two overlapped. */
  MPI_Barrier(MPI_COMM_WORLD);
  t0 = MPI_Wtime();
  START();
  compute(rounds);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  t_both = slowest(t0, MPI_Wtime());

  for (i = 0; i < count * (alltoall ? size : 1); i++) {
    double want = alltoall ? (i / count) * 1000.0 + rank * count + i % count
                           : 1000.0 * size * (size - 1) / 2 + (double)size * i;
    if (out[i] != want) {
      printf("rank %d: element %d is %g, not %g\n", rank, i, out[i], want);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  }
  if (rank == 0)
    printf("%s of %ld bytes on %d ranks: communication %.0f cycles, computation %.0f, both %.0f: "
           "%.2f of the longer, %.2f of their sum\n",
           alltoall ? "MPI_Ialltoall" : "MPI_Iallreduce", bytes, size, t_comm, t_compute, t_both,
           t_both / (t_comm > t_compute ? t_comm : t_compute), t_both / (t_comm + t_compute));
  free(in);
  free(out);
  MPI_Finalize();
  return 0;
}
