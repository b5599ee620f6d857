// SPDX-License-Identifier: Apache-2.0
/*
 * vcollectives.c - Gatherv, Scatterv, Allgatherv, Alltoallv with
 * rank-dependent counts (including zeros) and displacements with gaps;
 * Reduce_scatter and Reduce_scatter_block (also in place).
 */
#include "check.h"
#include <stdlib.h>

static const char *PROG = "vcollectives";
static int rank, size;

/* count contributed by rank r: 3,0,2,4,1,3,0,... (zero for r % 5 == 1) */
static int cnt(int r) { return (r * 7 + 3) % 5; }
/* gap left after rank r's block */
static int gap(int r) { return 1 + r % 2; }
static int val(int r, int i) { return r * 100 + i; }

/* displacements with a gap of 2 before the first block and gap(r) after each */
static int layout(int *counts, int *displs)
{
    int r, d = 2;
    for (r = 0; r < size; r++) {
        counts[r] = cnt(r);
        displs[r] = d;
        d += cnt(r) + gap(r);
    }
    return d; /* total length including gaps */
}

/* check a gathered buffer: blocks hold val(r, i), gaps hold -1 */
static int bad_gathered(const int *buf, const int *displs, int total)
{
    int r, i, pos = 0;
    for (r = 0; r < size; r++) {
        for (; pos < displs[r]; pos++)
            if (buf[pos] != -1)
                return pos;
        for (i = 0; i < cnt(r); i++, pos++)
            if (buf[pos] != val(r, i))
                return pos;
    }
    for (; pos < total; pos++)
        if (buf[pos] != -1)
            return pos;
    return -1;
}

static void test_gatherv_scatterv(void)
{
    int *counts = malloc((size_t)size * sizeof(int)), *displs = malloc((size_t)size * sizeof(int));
    int total = layout(counts, displs);
    int *buf = malloc((size_t)total * sizeof(int));
    int mine[6], root, i, bad;
    for (root = 0; root < size; root++) {
        int in_place = root % 2 == 1;
        /* gatherv */
        for (i = 0; i < 6; i++)
            mine[i] = i < cnt(rank) ? val(rank, i) : -7;
        for (i = 0; i < total; i++)
            buf[i] = -1;
        if (rank == root && in_place) {
            for (i = 0; i < cnt(root); i++)
                buf[displs[root] + i] = val(root, i);
            MPI_Gatherv(MPI_IN_PLACE, cnt(rank), MPI_INT, buf, counts, displs, MPI_INT, root, MPI_COMM_WORLD);
        } else {
            MPI_Gatherv(mine, cnt(rank), MPI_INT, buf, counts, displs, MPI_INT, root, MPI_COMM_WORLD);
        }
        if (rank == root) {
            bad = bad_gathered(buf, displs, total);
            CHECK(bad < 0, "gatherv root %d%s wrong at %d", root, in_place ? " in place" : "", bad);
        }
        /* scatterv: the root's buffer has -1 in the gaps, they must not be sent */
        for (i = 0; i < total; i++)
            buf[i] = -1;
        if (rank == root) {
            int r;
            for (r = 0; r < size; r++)
                for (i = 0; i < cnt(r); i++)
                    buf[displs[r] + i] = val(r, i);
        }
        for (i = 0; i < 6; i++)
            mine[i] = -1;
        if (rank == root && in_place) {
            MPI_Scatterv(buf, counts, displs, MPI_INT, MPI_IN_PLACE, cnt(rank), MPI_INT, root, MPI_COMM_WORLD);
            bad = bad_gathered(buf, displs, total);
            CHECK(bad < 0, "in-place scatterv changed the root's buffer at %d", bad);
        } else {
            MPI_Scatterv(buf, counts, displs, MPI_INT, mine, cnt(rank), MPI_INT, root, MPI_COMM_WORLD);
            bad = -1;
            for (i = 0; i < 6; i++)
                if (mine[i] != (i < cnt(rank) ? val(rank, i) : -1))
                    bad = i;
            CHECK(bad < 0, "scatterv root %d wrong at %d", root, bad);
        }
    }
    free(buf);
    free(counts);
    free(displs);
    check_section(PROG, "gatherv/scatterv every root (and in place)", 1);
}

static void test_allgatherv(void)
{
    int *counts = malloc((size_t)size * sizeof(int)), *displs = malloc((size_t)size * sizeof(int));
    int total = layout(counts, displs);
    int *buf = malloc((size_t)total * sizeof(int));
    int mine[6], i, bad, pass;
    for (pass = 0; pass < 2; pass++) {
        for (i = 0; i < 6; i++)
            mine[i] = val(rank, i);
        for (i = 0; i < total; i++)
            buf[i] = -1;
        if (pass == 0) {
            MPI_Allgatherv(mine, cnt(rank), MPI_INT, buf, counts, displs, MPI_INT, MPI_COMM_WORLD);
        } else {
            for (i = 0; i < cnt(rank); i++)
                buf[displs[rank] + i] = val(rank, i);
            MPI_Allgatherv(MPI_IN_PLACE, cnt(rank), MPI_INT, buf, counts, displs, MPI_INT, MPI_COMM_WORLD);
        }
        bad = bad_gathered(buf, displs, total);
        CHECK(bad < 0, "allgatherv%s wrong at %d", pass ? " in place" : "", bad);
    }
    free(buf);
    free(counts);
    free(displs);
    check_section(PROG, "allgatherv (and in place)", 1);
}

/* number of ints rank s sends to rank d: 0..3 */
static int a2a_cnt(int s, int d) { return (s + 2 * d) % 4; }
static int a2a_val(int s, int d, int k) { return s * 10000 + d * 100 + k; }

static void test_alltoallv(void)
{
    int *sc = malloc((size_t)size * sizeof(int)), *sd = malloc((size_t)size * sizeof(int));
    int *rc = malloc((size_t)size * sizeof(int)), *rd = malloc((size_t)size * sizeof(int));
    int *sbuf, *rbuf, stot = 0, rtot = 2, j, k, bad = -1, pos = 0;
    for (j = 0; j < size; j++) {
        sc[j] = a2a_cnt(rank, j);
        sd[j] = stot;
        stot += sc[j] + 1; /* gap of one after each block */
        rc[j] = a2a_cnt(j, rank);
        rd[j] = rtot;
        rtot += rc[j] + 2; /* gap of two after each block */
    }
    sbuf = malloc((size_t)stot * sizeof(int));
    rbuf = malloc((size_t)rtot * sizeof(int));
    for (k = 0; k < stot; k++)
        sbuf[k] = -5;
    for (j = 0; j < size; j++)
        for (k = 0; k < sc[j]; k++)
            sbuf[sd[j] + k] = a2a_val(rank, j, k);
    for (k = 0; k < rtot; k++)
        rbuf[k] = -1;
    MPI_Alltoallv(sbuf, sc, sd, MPI_INT, rbuf, rc, rd, MPI_INT, MPI_COMM_WORLD);
    for (j = 0; j < size && bad < 0; j++) {
        for (; pos < rd[j]; pos++)
            if (rbuf[pos] != -1)
                bad = pos;
        for (k = 0; k < rc[j]; k++, pos++)
            if (rbuf[pos] != a2a_val(j, rank, k))
                bad = pos;
    }
    for (; pos < rtot && bad < 0; pos++)
        if (rbuf[pos] != -1)
            bad = pos;
    CHECK(bad < 0, "alltoallv wrong at %d", bad);
    free(sbuf);
    free(rbuf);
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    check_section(PROG, "alltoallv", 1);
}

static void test_reduce_scatter(void)
{
    int *counts = malloc((size_t)size * sizeof(int));
    int total = 0, start = 0, r, e, k, bad, S = size * (size - 1) / 2;
    int *in, *out;
    double *din;
    for (r = 0; r < size; r++) {
        counts[r] = cnt(r);
        if (r < rank)
            start += cnt(r);
        total += cnt(r);
    }
    in = malloc((size_t)total * sizeof(int));
    out = malloc((size_t)(total + 1) * sizeof(int));
    din = malloc((size_t)total * sizeof(double));

    /* reduce_scatter, int SUM: element e of rank r is r + e */
    for (e = 0; e < total; e++)
        in[e] = rank + e;
    for (e = 0; e <= total; e++)
        out[e] = -1;
    MPI_Reduce_scatter(in, out, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    bad = -1;
    for (k = 0; k < cnt(rank); k++)
        if (out[k] != S + size * (start + k))
            bad = k;
    CHECK(bad < 0 && out[cnt(rank)] == -1, "reduce_scatter wrong at %d", bad);

    /* in place, double SUM: element e of rank r is r * 0.5 + e */
    for (e = 0; e < total; e++)
        din[e] = rank * 0.5 + e;
    MPI_Reduce_scatter(MPI_IN_PLACE, din, counts, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    bad = -1;
    for (k = 0; k < cnt(rank); k++)
        if (din[k] != 0.5 * S + (double)size * (start + k))
            bad = k;
    CHECK(bad < 0, "in-place reduce_scatter wrong at %d", bad);

    /* reduce_scatter MAX with the same counts */
    for (e = 0; e < total; e++)
        in[e] = (rank * 5 + e) % 9;
    MPI_Reduce_scatter(in, out, counts, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    bad = -1;
    for (k = 0; k < cnt(rank); k++) {
        int m = 0;
        for (r = 0; r < size; r++)
            m = (r * 5 + start + k) % 9 > m ? (r * 5 + start + k) % 9 : m;
        if (out[k] != m)
            bad = k;
    }
    CHECK(bad < 0, "reduce_scatter MAX wrong at %d", bad);
    free(in);
    free(out);
    free(din);
    free(counts);
    check_section(PROG, "reduce_scatter (and in place)", 1);
}

#define B 3
static void test_reduce_scatter_block(void)
{
    int *in = malloc((size_t)size * B * sizeof(int)), out[B + 1], e, k, bad, pass;
    int S = size * (size - 1) / 2;
    for (pass = 0; pass < 2; pass++) {
        for (e = 0; e < size * B; e++)
            in[e] = rank * 2 + e;
        for (k = 0; k <= B; k++)
            out[k] = -1;
        if (pass == 0)
            MPI_Reduce_scatter_block(in, out, B, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        else
            MPI_Reduce_scatter_block(MPI_IN_PLACE, in, B, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        bad = -1;
        for (k = 0; k < B; k++)
            if ((pass == 0 ? out[k] : in[k]) != 2 * S + size * (rank * B + k))
                bad = k;
        CHECK(bad < 0, "reduce_scatter_block%s wrong at %d", pass ? " in place" : "", bad);
        if (pass == 0)
            CHECK(out[B] == -1, "reduce_scatter_block wrote past its block");
    }
    free(in);
    check_section(PROG, "reduce_scatter_block (and in place)", 1);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    test_gatherv_scatterv();
    test_allgatherv();
    test_alltoallv();
    test_reduce_scatter();
    test_reduce_scatter_block();
    check_report(PROG);
    MPI_Finalize();
    return 0;
}
