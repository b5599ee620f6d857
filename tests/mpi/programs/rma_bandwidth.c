// SPDX-License-Identifier: Apache-2.0
/*
 * rma_bandwidth.c - one-sided against two-sided between ranks 0 and 1 (output is timing,
 * NOT compared with Open MPI): the simulated cycles of an MPI_Send/MPI_Recv of BYTES
 * (argument 1, default 262144), of an MPI_Put of as many in a fence epoch and of an
 * MPI_Get, each checked for its data. Needs 2 ranks.
 */
#include "check.h"
#include <stdlib.h>


static int rank, n;
static long bytes;
static double hz;

/* One fence epoch in which rank 1 puts its buffer into rank 0's window (or gets rank 0's
 * window into its buffer); the rank the data landed at checks the last double and prints
 * the epoch's cycles. */
static void one_sided(int get, double *buf, double *mem, MPI_Win win) {
  double t0 = MPI_Wtime(), t1;
  const double *landed = get ? buf : mem;
  if (rank == 1 && get) MPI_Get(buf, n, MPI_DOUBLE, 0, 0, n, MPI_DOUBLE, win);
  if (rank == 1 && !get) MPI_Put(buf, n, MPI_DOUBLE, 0, 0, n, MPI_DOUBLE, win);
  MPI_Win_fence(0, win);
  t1 = MPI_Wtime();
  if (rank == (get ? 1 : 0)) {
    CHECK(landed[n - 1] == 1e6 + n - 1, "the %s's last double is %g", get ? "get" : "put", landed[n - 1]);
    printf("%s %ld B: %.0f cycles\n", get ? "get" : "put", bytes, (t1 - t0) * hz);
  }
}

int main(int argc, char **argv) {
  int size, i;
  double *buf, *mem, t0, t1;
  MPI_Win win;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size == 2, "runs on 2 ranks, not %d", size);
  bytes = argc > 1 ? atol(argv[1]) : 262144;
  n = (int)(bytes / 8);
  hz = 1.0 / MPI_Wtick();
  buf = malloc((size_t)n * 8);
  mem = malloc((size_t)n * 8);
  for (i = 0; i < n; i++) {
    buf[i] = rank * 1e6 + i;
    mem[i] = -1;
  }
  MPI_Win_create(mem, (MPI_Aint)n * 8, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &win);

  MPI_Barrier(MPI_COMM_WORLD);
  t0 = MPI_Wtime();
  if (rank == 0) MPI_Send(buf, n, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
  else MPI_Recv(mem, n, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  t1 = MPI_Wtime();
  if (rank == 1) {
    CHECK(mem[n - 1] == n - 1, "the message's last double is %g", mem[n - 1]);
    printf("send %ld B: %.0f cycles\n", bytes, (t1 - t0) * hz);
  }

  MPI_Win_fence(0, win);
  one_sided(0, buf, mem, win);
  one_sided(1, buf, mem, win);
  MPI_Win_free(&win);
  free(buf);
  free(mem);
  MPI_Finalize();
  return 0;
}
