// SPDX-License-Identifier: Apache-2.0
/*
 * bench.c - a micro-benchmark written the way widely used MPI benchmark suites are (its
 * output is timing, NOT compared with Open MPI): options from getopt_long, buffers from
 * MPI_Alloc_mem, and per message size the latency of a send/recv ping-pong, of MPI_Put
 * and MPI_Get under a passive-target lock (ranks 0 and 1), and of MPI_Allreduce,
 * MPI_Bcast and MPI_Alltoall over every rank. Each test checks the data it moved.
 *
 *   bench [-m MIN:MAX] [-i ITERATIONS] [-x WARMUP] [-t TEST,TEST...]
 *         --message-size MIN:MAX  --iterations N  --warmup N  --tests latency,put,get,allreduce,bcast,alltoall
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size;
static long min_size = 1, max_size = 4096, iterations = 20, warmup = 2;
static char tests[256] = "latency,put,get,allreduce,bcast,alltoall";

static int wanted(const char* test) {
    char copy[256];
    strncpy(copy, tests, sizeof copy - 1);
    copy[sizeof copy - 1] = 0;
    for (char* t = strtok(copy, ","); t; t = strtok(NULL, ","))
        if (strcmp(t, test) == 0) return 1;
    return 0;
}

static int options(int argc, char** argv) {
    static const struct option longs[] = {{"message-size", required_argument, 0, 'm'},
                                          {"iterations", required_argument, 0, 'i'},
                                          {"warmup", required_argument, 0, 'x'},
                                          {"tests", required_argument, 0, 't'},
                                          {0, 0, 0, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "m:i:x:t:", longs, NULL)) != -1) {
        switch (c) {
            case 'm': {
                char* colon = strchr(optarg, ':');
                min_size = strtol(optarg, NULL, 10);
                max_size = colon ? strtol(colon + 1, NULL, 10) : min_size;
                break;
            }
            case 'i': iterations = strtol(optarg, NULL, 10); break;
            case 'x': warmup = strtol(optarg, NULL, 10); break;
            case 't': strncpy(tests, optarg, sizeof tests - 1); break;
            default: return 0;
        }
    }
    return optind == argc && min_size >= 1 && max_size >= min_size && iterations >= 1 && warmup >= 0;
}

static void report(const char* test, long bytes, double seconds) {
    if (rank == 0) printf("%-10s %8ld %12.3f\n", test, bytes, seconds * 1e6 / (double)iterations);
}

static void fill(char* buf, long n, int seed) {
    for (long i = 0; i < n; i++) buf[i] = (char)(seed + i);
}
static int filled(const char* buf, long n, int seed) {
    for (long i = 0; i < n; i++)
        if (buf[i] != (char)(seed + i)) return 0;
    return 1;
}

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (!options(argc, argv)) {
        if (rank == 0) printf("usage: bench [-m MIN:MAX] [-i ITERATIONS] [-x WARMUP] [-t TESTS]\n");
        MPI_Finalize();
        return 2;
    }
    char *sbuf, *rbuf, *win_mem;
    const long room = max_size * (size > 0 ? size : 1);
    CHECK_RC(MPI_Alloc_mem(room, MPI_INFO_NULL, &sbuf), "MPI_Alloc_mem");
    CHECK_RC(MPI_Alloc_mem(room, MPI_INFO_NULL, &rbuf), "MPI_Alloc_mem");
    CHECK_RC(MPI_Alloc_mem(max_size, MPI_INFO_NULL, &win_mem), "MPI_Alloc_mem");
    MPI_Win win;
    MPI_Win_create(win_mem, max_size, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 0) printf("# %-8s %8s %12s\n", "test", "bytes", "latency(us)");

    for (long n = min_size; n <= max_size; n *= 2) {
        double t0 = 0;
        if (wanted("latency") && size >= 2) {
            fill(sbuf, n, rank);
            for (long it = 0; it < warmup + iterations; it++) {
                if (it == warmup) t0 = MPI_Wtime();
                if (rank == 0) {
                    MPI_Send(sbuf, (int)n, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
                    MPI_Recv(rbuf, (int)n, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                } else if (rank == 1) {
                    MPI_Recv(rbuf, (int)n, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    MPI_Send(sbuf, (int)n, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
                }
            }
            if (rank < 2) CHECK(filled(rbuf, n, 1 - rank), "latency %ld: the data came back", n);
            report("latency", n, (MPI_Wtime() - t0) / 2);
        }
        if (wanted("put") && size >= 2) {
            fill(sbuf, n, 7);
            MPI_Barrier(MPI_COMM_WORLD);
            for (long it = 0; it < warmup + iterations; it++) {
                if (it == warmup) t0 = MPI_Wtime();
                if (rank == 0) {
                    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
                    MPI_Put(sbuf, (int)n, MPI_CHAR, 1, 0, (int)n, MPI_CHAR, win);
                    MPI_Win_unlock(1, win);
                }
            }
            const double t = MPI_Wtime() - t0;
            MPI_Barrier(MPI_COMM_WORLD);
            if (rank == 1) CHECK(filled(win_mem, n, 7), "put %ld: the data landed", n);
            report("put", n, t);
        }
        if (wanted("get") && size >= 2) {
            if (rank == 1) fill(win_mem, n, 11);
            MPI_Barrier(MPI_COMM_WORLD);
            for (long it = 0; it < warmup + iterations; it++) {
                if (it == warmup) t0 = MPI_Wtime();
                if (rank == 0) {
                    MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
                    MPI_Get(rbuf, (int)n, MPI_CHAR, 1, 0, (int)n, MPI_CHAR, win);
                    MPI_Win_unlock(1, win);
                }
            }
            const double t = MPI_Wtime() - t0;
            if (rank == 0) CHECK(filled(rbuf, n, 11), "get %ld: the data came", n);
            MPI_Barrier(MPI_COMM_WORLD);
            report("get", n, t);
        }
        if (wanted("allreduce") && n % (long)sizeof(int) == 0) {
            const int count = (int)(n / (long)sizeof(int));
            for (int i = 0; i < count; i++) ((int*)sbuf)[i] = rank + i;
            MPI_Barrier(MPI_COMM_WORLD);
            for (long it = 0; it < warmup + iterations; it++) {
                if (it == warmup) t0 = MPI_Wtime();
                MPI_Allreduce(sbuf, rbuf, count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
            }
            const double t = MPI_Wtime() - t0;
            int ok = 1;
            for (int i = 0; i < count; i++) ok &= ((int*)rbuf)[i] == size * (size - 1) / 2 + size * i;
            CHECK(ok, "allreduce %ld: the sums", n);
            report("allreduce", n, t);
        }
        if (wanted("bcast")) {
            MPI_Barrier(MPI_COMM_WORLD);
            for (long it = 0; it < warmup + iterations; it++) {
                if (it == warmup) t0 = MPI_Wtime();
                fill(sbuf, n, rank == 0 ? 3 : 4);
                MPI_Bcast(sbuf, (int)n, MPI_CHAR, 0, MPI_COMM_WORLD);
            }
            const double t = MPI_Wtime() - t0;
            CHECK(filled(sbuf, n, 3), "bcast %ld: the root's data", n);
            report("bcast", n, t);
        }
        if (wanted("alltoall")) {
            fill(sbuf, n * size, rank);
            MPI_Barrier(MPI_COMM_WORLD);
            for (long it = 0; it < warmup + iterations; it++) {
                if (it == warmup) t0 = MPI_Wtime();
                MPI_Alltoall(sbuf, (int)n, MPI_CHAR, rbuf, (int)n, MPI_CHAR, MPI_COMM_WORLD);
            }
            const double t = MPI_Wtime() - t0;
            int ok = 1;
            for (int j = 0; j < size; j++) ok &= rbuf[j * n] == (char)(j + rank * n);
            CHECK(ok, "alltoall %ld: each rank's block", n);
            report("alltoall", n, t);
        }
    }
    MPI_Win_free(&win);
    MPI_Free_mem(win_mem);
    MPI_Free_mem(rbuf);
    MPI_Free_mem(sbuf);
    check_report("bench");
    MPI_Finalize();
    return 0;
}
