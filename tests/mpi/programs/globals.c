// SPDX-License-Identifier: Apache-2.0
/*
 * globals.c - per-process global state: a global counter, a global array
 * and a global pointer that every rank fills with its own values and later
 * verifies nobody else changed (after barriers, point-to-point exchanges and
 * collectives), plus a function-local static called repeatedly.  Catches an
 * implementation that runs ranks as threads sharing one copy of globals.
 * Every rank prints "rank R: global counter C".
 */
#include "check.h"
#include <stdlib.h>

static const char *PROG = "globals";

int g_counter = 0;
int g_array[256];
int *g_heap = NULL;
static int g_rank = -1;
static char g_name[32];

static int next_call(void)
{
    static int calls = 0; /* one per process */
    return ++calls;
}

static int array_bad(void)
{
    int i;
    for (i = 0; i < 256; i++)
        if (g_array[i] != g_rank * 1000 + i || g_heap[i] != g_rank * 7 + i)
            return i;
    return -1;
}

int main(int argc, char **argv)
{
    int size, round, i, k, right, left, calls = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    right = (g_rank + 1) % size;
    left = (g_rank + size - 1) % size;

    g_heap = malloc(256 * sizeof(int));
    for (i = 0; i < 256; i++) {
        g_array[i] = g_rank * 1000 + i;
        g_heap[i] = g_rank * 7 + i;
    }
    for (i = 0; i < 31; i++)
        g_name[i] = (char)('A' + (g_rank + i) % 26);
    g_name[31] = '\0';
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(array_bad() < 0, "global array changed at %d after a barrier", array_bad());

    /* four rounds: bump the counter a rank-dependent number of times between exchanges */
    for (round = 0; round < 4; round++) {
        int token = g_counter, got = -1;
        for (k = 0; k < g_rank % 5 + 3; k++) {
            g_counter++;
            calls = next_call();
        }
        MPI_Barrier(MPI_COMM_WORLD);
        /* send the counter value of the previous round around the ring */
        MPI_Sendrecv(&token, 1, MPI_INT, right, round, &got, 1, MPI_INT, left, round, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        CHECK(got == round * (left % 5 + 3), "left neighbour's counter was %d in round %d", got, round);
        CHECK(g_counter == (round + 1) * (g_rank % 5 + 3), "global counter %d in round %d", g_counter, round);
        CHECK(calls == g_counter, "static local counted %d calls, expected %d", calls, g_counter);
        {
            int sum = -1, expect = 0, r;
            MPI_Allreduce(&g_counter, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
            for (r = 0; r < size; r++)
                expect += (round + 1) * (r % 5 + 3);
            CHECK(sum == expect, "sum of counters %d expected %d", sum, expect);
        }
        CHECK(array_bad() < 0, "global array changed at %d in round %d", array_bad(), round);
    }
    /* exchange the whole global array with the neighbours, then check ours is intact */
    {
        int *in = malloc(256 * sizeof(int)), bad = -1;
        MPI_Sendrecv(g_array, 256, MPI_INT, right, 50, in, 256, MPI_INT, left, 50, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        for (i = 0; i < 256; i++)
            if (in[i] != left * 1000 + i)
                bad = i;
        CHECK(bad < 0, "neighbour's global array wrong at %d", bad);
        free(in);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(array_bad() < 0, "global array changed at %d at the end", array_bad());
    for (i = 0; i < 31; i++)
        if (g_name[i] != (char)('A' + (g_rank + i) % 26))
            break;
    CHECK(i == 31, "global string changed at %d", i);
    CHECK(g_rank >= 0 && g_rank < size, "global rank variable changed to %d", g_rank);

    printf("rank %d: global counter %d\n", g_rank, g_counter);
    check_report(PROG);
    free(g_heap);
    MPI_Finalize();
    return 0;
}
