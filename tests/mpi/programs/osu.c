// SPDX-License-Identifier: Apache-2.0
/*
 * osu.c - OSU-style micro benchmarks (output is timing, NOT compared with
 * Open MPI): ping-pong latency between ranks 0 and 1, windowed bandwidth
 * (8 Isend/Irecv then a 1-byte ack), and MPI_Allreduce latency over all
 * ranks.  The p2p parts need >= 2 ranks and are skipped with 1.
 */
#include "check.h"
#include <stdlib.h>
#include <string.h>

static const char *PROG = "osu";
static int rank, size;

#define WARMUP 2
#define ITERS 10
#define WINDOW 8
#define MAXBYTES 262144

static void latency(char *sbuf, char *rbuf)
{
    static const int sizes[6] = {0, 8, 64, 512, 4096, 32768};
    int s, it;
    for (s = 0; s < 6; s++) {
        int n = sizes[s];
        double t0 = 0.0, t1;
        if (rank < 2) {
            memset(sbuf, rank + 1, (size_t)n);
            for (it = 0; it < WARMUP + ITERS; it++) {
                if (it == WARMUP)
                    t0 = MPI_Wtime();
                if (rank == 0) {
                    MPI_Send(sbuf, n, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
                    MPI_Recv(rbuf, n, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                } else {
                    MPI_Recv(rbuf, n, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    MPI_Send(sbuf, n, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
                }
            }
            t1 = MPI_Wtime();
            CHECK(n == 0 || rbuf[n - 1] == (char)(2 - rank), "ping-pong payload wrong");
            if (rank == 0)
                printf("latency %d B: %.3f us\n", n, (t1 - t0) * 1e6 / (2.0 * ITERS));
        }
    }
}

static void bandwidth(char *sbuf, char *rbuf)
{
    static const int sizes[3] = {4096, 32768, 65536};
    int s, it, w;
    char ack = 0;
    MPI_Request reqs[WINDOW];
    for (s = 0; s < 3; s++) {
        int n = sizes[s];
        double t0 = 0.0, t1;
        if (rank >= 2)
            continue;
        memset(sbuf, 3, (size_t)n);
        for (it = 0; it < WARMUP + ITERS; it++) {
            if (it == WARMUP)
                t0 = MPI_Wtime();
            if (rank == 0) {
                for (w = 0; w < WINDOW; w++)
                    MPI_Isend(sbuf, n, MPI_CHAR, 1, 2, MPI_COMM_WORLD, &reqs[w]);
                MPI_Waitall(WINDOW, reqs, MPI_STATUSES_IGNORE);
                MPI_Recv(&ack, 1, MPI_CHAR, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                /* each receive of the window gets its own part of the buffer */
                for (w = 0; w < WINDOW; w++)
                    MPI_Irecv(rbuf + (size_t)w * n, n, MPI_CHAR, 0, 2, MPI_COMM_WORLD, &reqs[w]);
                MPI_Waitall(WINDOW, reqs, MPI_STATUSES_IGNORE);
                MPI_Send(&ack, 1, MPI_CHAR, 0, 3, MPI_COMM_WORLD);
            }
        }
        t1 = MPI_Wtime();
        if (rank == 1)
            CHECK(rbuf[n - 1] == 3 && rbuf[(size_t)WINDOW * n - 1] == 3, "bandwidth payload wrong");
        if (rank == 0)
            printf("bandwidth %d B: %.2f MB/s\n", n, (double)n * WINDOW * ITERS / ((t1 - t0) * 1e6));
    }
}

static void allreduce(void)
{
    static const int counts[5] = {1, 8, 64, 512, 1024};
    double *in = malloc(1024 * sizeof(double)), *out = malloc(1024 * sizeof(double));
    int c, it, i, bad;
    for (c = 0; c < 5; c++) {
        int n = counts[c];
        double t0 = 0.0, t, tmax = 0.0;
        for (i = 0; i < n; i++)
            in[i] = rank * 0.5 + i;
        MPI_Barrier(MPI_COMM_WORLD);
        for (it = 0; it < WARMUP + ITERS; it++) {
            if (it == WARMUP)
                t0 = MPI_Wtime();
            MPI_Allreduce(in, out, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        }
        t = (MPI_Wtime() - t0) / ITERS;
        bad = -1;
        for (i = 0; i < n; i++)
            if (out[i] != 0.25 * size * (size - 1) + (double)size * i)
                bad = i;
        CHECK(bad < 0, "allreduce result wrong at %d", bad);
        MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (rank == 0)
            printf("allreduce %d doubles: %.3f us\n", n, tmax * 1e6);
    }
    free(in);
    free(out);
}

int main(int argc, char **argv)
{
    char *sbuf, *rbuf;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    sbuf = malloc(MAXBYTES);
    rbuf = malloc((size_t)WINDOW * MAXBYTES);
    if (rank == 0)
        printf("osu: %d ranks, %d warm-up + %d timed iterations\n", size, WARMUP, ITERS);
    if (size >= 2) {
        latency(sbuf, rbuf);
        MPI_Barrier(MPI_COMM_WORLD);
        bandwidth(sbuf, rbuf);
    } else if (rank == 0) {
        printf("osu: latency and bandwidth skipped (needs 2 ranks)\n");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    allreduce();
    free(sbuf);
    free(rbuf);
    check_report(PROG);
    MPI_Finalize();
    return 0;
}
