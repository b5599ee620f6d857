// SPDX-License-Identifier: Apache-2.0
/*
 * ring.c - a token passed K times around the ring (K = argv[1], default 3),
 * each rank adding its rank; rank 0 checks the total K * N * (N - 1) / 2.
 * Then a bidirectional ring exchange of 1 KiB buffers with MPI_Sendrecv.
 * Prints "ring: N ranks, K laps, token T".
 */
#include "check.h"
#include <stdlib.h>

static const char *PROG = "ring";

int main(int argc, char **argv)
{
    int rank, size, laps = 3, lap, right, left;
    long long token = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1)
        laps = atoi(argv[1]);
    CHECK(laps >= 0 && laps <= 1000, "bad lap count %d", laps);
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;

    for (lap = 0; lap < laps; lap++) {
        if (rank == 0) {
            long long back = -1;
            /* send and receive at once so that a single rank works too */
            MPI_Sendrecv(&token, 1, MPI_LONG_LONG, right, lap, &back, 1, MPI_LONG_LONG, left, lap,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            token = back;
        } else {
            MPI_Recv(&token, 1, MPI_LONG_LONG, left, lap, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            token += rank;
            MPI_Send(&token, 1, MPI_LONG_LONG, right, lap, MPI_COMM_WORLD);
        }
    }
    if (rank == 0) {
        long long expect = (long long)laps * size * (size - 1) / 2;
        CHECK(token == expect, "token %lld expected %lld", token, expect);
        printf("%s: %d ranks, %d laps, token %lld\n", PROG, size, laps, token);
    }

    /* bidirectional ring with 1 KiB buffers */
    {
        unsigned char *to_r = malloc(1024), *to_l = malloc(1024), *from_l = malloc(1024), *from_r = malloc(1024);
        int i, it, bad;
        for (it = 0; it < 3; it++) {
            for (i = 0; i < 1024; i++) {
                to_r[i] = (unsigned char)(rank * 3 + i + it);
                to_l[i] = (unsigned char)(rank * 5 + i * 7 + it);
                from_l[i] = from_r[i] = 0;
            }
            MPI_Sendrecv(to_r, 1024, MPI_BYTE, right, 100 + it, from_l, 1024, MPI_BYTE, left, 100 + it,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Sendrecv(to_l, 1024, MPI_BYTE, left, 200 + it, from_r, 1024, MPI_BYTE, right, 200 + it,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            bad = -1;
            for (i = 0; i < 1024; i++)
                if (from_l[i] != (unsigned char)(left * 3 + i + it) ||
                    from_r[i] != (unsigned char)(right * 5 + i * 7 + it))
                    bad = i;
            CHECK(bad < 0, "bidirectional ring iteration %d wrong at %d", it, bad);
        }
        free(to_r);
        free(to_l);
        free(from_l);
        free(from_r);
    }
    check_section(PROG, "bidirectional ring of 1 KiB", 1);
    check_report(PROG);
    MPI_Finalize();
    return 0;
}
