// SPDX-License-Identifier: Apache-2.0
/*
 * nbc_order.c - non-blocking collectives that a program may only write because started
 * collectives progress while the rank does something else: ranks starting them on two
 * communicators in opposite orders (Ibcast, Iallreduce, Ireduce with a user op, Iscan,
 * Igatherv, Ialltoallv, Iallgather, Ireduce_scatter_block, Ibarrier); a non-blocking one on
 * one communicator and a blocking one on another, in opposite orders; a rank that starts
 * a reduction and then receives from a rank that sends before starting its own; several
 * outstanding on one communicator, waited for in reverse order, with a blocking collective
 * on it in between (the ranks' order per communicator is kept); an intercommunicator's
 * Iallreduce and one on an intracommunicator in opposite orders in its two groups, one
 * group waiting for the other before it starts the second; a user op and a datatype
 * freed while their collective is outstanding, which is then polled with MPI_Test until
 * it is done; started collectives on two duplicates of the world, two on one and one on
 * the other.
 */
#include "check.h"
#include <stdlib.h>

static const char *PROG = "nbc_order";
static int rank, size, brank; /* brank: the rank in B, whose order is reversed */
static MPI_Comm A, B;

static int even(void) { return rank % 2 == 0; }

/* Ibcast on A and B, the even ranks starting A's first, the odd ones B's. */
static void test_opposite_bcasts(void)
{
    int a[5], b[3], i;
    MPI_Request req[2];
    for (i = 0; i < 5; i++)
        a[i] = rank == 0 ? 100 + i : -1;
    for (i = 0; i < 3; i++)
        b[i] = brank == size - 1 ? 200 + i : -1;
    if (even()) {
        MPI_Ibcast(a, 5, MPI_INT, 0, A, &req[0]);
        MPI_Ibcast(b, 3, MPI_INT, size - 1, B, &req[1]);
    } else {
        MPI_Ibcast(b, 3, MPI_INT, size - 1, B, &req[1]);
        MPI_Ibcast(a, 5, MPI_INT, 0, A, &req[0]);
    }
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    for (i = 0; i < 5; i++)
        CHECK(a[i] == 100 + i, "Ibcast on A: a[%d] = %d", i, a[i]);
    for (i = 0; i < 3; i++)
        CHECK(b[i] == 200 + i, "Ibcast on B: b[%d] = %d", i, b[i]);
    check_section(PROG, "Ibcast on two communicators in opposite orders", 1);
}

/* A non-blocking reduction on A and a blocking one on B, in opposite orders. */
static void test_nonblocking_then_blocking(void)
{
    long x = rank + 1, sx = 0, y = 2 * rank, sy = 0;
    double d = 0.5 * rank, sd = 0;
    MPI_Request req;
    if (even()) {
        MPI_Iallreduce(&x, &sx, 1, MPI_LONG, MPI_SUM, A, &req);
        MPI_Allreduce(&y, &sy, 1, MPI_LONG, MPI_MAX, B);
        MPI_Allreduce(&d, &sd, 1, MPI_DOUBLE, MPI_SUM, B);
    } else {
        MPI_Allreduce(&y, &sy, 1, MPI_LONG, MPI_MAX, B);
        MPI_Allreduce(&d, &sd, 1, MPI_DOUBLE, MPI_SUM, B);
        MPI_Iallreduce(&x, &sx, 1, MPI_LONG, MPI_SUM, A, &req);
    }
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(sx == (long)size * (size + 1) / 2, "Iallreduce on A: %ld", sx);
    CHECK(sy == 2L * (size - 1), "Allreduce MAX on B: %ld", sy);
    CHECK(sd == 0.25 * size * (size - 1), "Allreduce of doubles on B: %g", sd);
    check_section(PROG, "Iallreduce on one communicator, Allreduce on another, in opposite orders", 1);
}

/* Rank 2k starts a reduce, then receives from rank 2k+1, which sends before it starts. */
static void test_start_then_receive(void)
{
    int v = rank * rank, sum = -1, got = -1, expect = 0, i, partner = rank ^ 1;
    MPI_Request req;
    for (i = 0; i < size; i++)
        expect += i * i;
    if (partner >= size) {
        MPI_Ireduce(&v, &sum, 1, MPI_INT, MPI_SUM, 0, A, &req);
    } else if (even()) {
        MPI_Ireduce(&v, &sum, 1, MPI_INT, MPI_SUM, 0, A, &req);
        MPI_Recv(&got, 1, MPI_INT, partner, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(got == partner + 1000, "received %d from rank %d", got, partner);
    } else {
        int out = rank + 1000;
        MPI_Ssend(&out, 1, MPI_INT, partner, 7, MPI_COMM_WORLD);
        MPI_Ireduce(&v, &sum, 1, MPI_INT, MPI_SUM, 0, A, &req);
    }
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (rank == 0)
        CHECK(sum == expect, "Ireduce: %d, expected %d", sum, expect);
    check_section(PROG, "Ireduce, then a receive from a rank that sends before it starts its own", 1);
}

/* A non-commutative user op: 2x2 matrix product mod 1009. */
static void matmul(void *in, void *inout, int *len, MPI_Datatype *type)
{
    int *a = in, *b = inout, k;
    (void)type;
    for (k = 0; k < *len; k++, a += 4, b += 4) {
        int c0 = (a[0] * b[0] + a[1] * b[2]) % 1009, c1 = (a[0] * b[1] + a[1] * b[3]) % 1009;
        int c2 = (a[2] * b[0] + a[3] * b[2]) % 1009, c3 = (a[2] * b[1] + a[3] * b[3]) % 1009;
        b[0] = c0, b[1] = c1, b[2] = c2, b[3] = c3;
    }
}

static void mat_of(int r, int *m)
{
    m[0] = r + 1, m[1] = 2, m[2] = r % 5, m[3] = 1;
}

/* Every kind of collective on A and on B, the two started in opposite orders. */
static void test_every_kind(void)
{
    MPI_Op op;
    MPI_Datatype mat;
    int m[4], prod[4], expect[4] = {1, 0, 0, 1}, k, i, j;
    int scan_in = rank + 1, scan_out = -1, *gv_send, *gv_recv = NULL, *counts, *displs;
    int *a2a_s, *a2a_r, *sc, *sd, *rc, *rd, *ag, rsb_in[64], rsb_out = -1, bar_done = 0;
    MPI_Request ra[4], rb[4];
    MPI_Type_contiguous(4, MPI_INT, &mat);
    MPI_Type_commit(&mat);
    MPI_Op_create(matmul, 0, &op);
    mat_of(rank, m);
    counts = malloc(size * sizeof(int));
    displs = malloc(size * sizeof(int));
    for (i = 0, k = 0; i < size; i++) {
        counts[i] = i % 3;
        displs[i] = k;
        k += counts[i];
    }
    gv_send = malloc(3 * sizeof(int));
    for (i = 0; i < counts[rank]; i++)
        gv_send[i] = rank * 10 + i;
    if (rank == 0)
        gv_recv = malloc((k + 1) * sizeof(int));
    a2a_s = malloc(size * 2 * sizeof(int));
    a2a_r = malloc(size * 2 * sizeof(int));
    sc = malloc(size * sizeof(int));
    sd = malloc(size * sizeof(int));
    rc = malloc(size * sizeof(int));
    rd = malloc(size * sizeof(int));
    ag = malloc(size * sizeof(int));
    for (i = 0; i < size; i++) {
        sc[i] = (brank + i) % 2 + 1; /* to B's rank i: 1 or 2 ints */
        sd[i] = 2 * i;
        rc[i] = (i + brank) % 2 + 1;
        rd[i] = 2 * i;
        a2a_s[2 * i] = brank * 100 + i;
        a2a_s[2 * i + 1] = -brank * 100 - i;
        a2a_r[2 * i] = a2a_r[2 * i + 1] = -7;
        ag[i] = -1;
    }
    for (i = 0; i < size && i < 64; i++)
        rsb_in[i] = brank + i;

    /* A: the user-op reduction, a scan, a gatherv and a barrier; B: an alltoallv, an
     * allgather and a reduce-scatter, a barrier. */
    for (j = 0; j < 2; j++) {
        if ((j == 0) == even()) {
            MPI_Iallreduce(m, prod, 1, mat, op, A, &ra[0]);
            MPI_Iscan(&scan_in, &scan_out, 1, MPI_INT, MPI_SUM, A, &ra[1]);
            MPI_Igatherv(gv_send, counts[rank], MPI_INT, gv_recv, counts, displs, MPI_INT, 0, A, &ra[2]);
            MPI_Ibarrier(A, &ra[3]);
        } else {
            MPI_Ialltoallv(a2a_s, sc, sd, MPI_INT, a2a_r, rc, rd, MPI_INT, B, &rb[0]);
            MPI_Iallgather(&brank, 1, MPI_INT, ag, 1, MPI_INT, B, &rb[1]);
            if (size <= 64)
                MPI_Ireduce_scatter_block(rsb_in, &rsb_out, 1, MPI_INT, MPI_SUM, B, &rb[2]);
            else
                rb[2] = MPI_REQUEST_NULL;
            MPI_Ibarrier(B, &rb[3]);
        }
    }
    MPI_Waitall(4, rb, MPI_STATUSES_IGNORE);
    MPI_Waitall(4, ra, MPI_STATUSES_IGNORE);
    bar_done = 1;

    for (i = 0; i < size; i++) {
        int n[4], t[4];
        mat_of(i, n);
        memcpy(t, expect, sizeof t);
        matmul(t, n, &(int){1}, &mat); /* n = t * n, the product in rank order */
        memcpy(expect, n, sizeof n);
    }
    for (i = 0; i < 4; i++)
        CHECK(prod[i] == expect[i], "Iallreduce of a user op: [%d] = %d, expected %d", i, prod[i], expect[i]);
    CHECK(scan_out == (rank + 1) * (rank + 2) / 2, "Iscan: %d", scan_out);
    if (rank == 0)
        for (i = 0; i < size; i++)
            for (j = 0; j < counts[i]; j++)
                CHECK(gv_recv[displs[i] + j] == i * 10 + j, "Igatherv: from %d [%d] = %d", i, j,
                      gv_recv[displs[i] + j]);
    for (i = 0; i < size; i++) {
        CHECK(a2a_r[2 * i] == i * 100 + brank, "Ialltoallv: from %d got %d", i, a2a_r[2 * i]);
        if (rc[i] == 2)
            CHECK(a2a_r[2 * i + 1] == -i * 100 - brank, "Ialltoallv: from %d second %d", i, a2a_r[2 * i + 1]);
        else
            CHECK(a2a_r[2 * i + 1] == -7, "Ialltoallv: from %d wrote past its block", i);
        CHECK(ag[i] == i, "Iallgather: [%d] = %d", i, ag[i]);
    }
    if (size <= 64)
        CHECK(rsb_out == size * brank + size * (size - 1) / 2, "Ireduce_scatter_block: %d", rsb_out);
    CHECK(bar_done, "Ibarriers done");
    MPI_Op_free(&op);
    MPI_Type_free(&mat);
    free(counts), free(displs), free(gv_send), free(gv_recv), free(a2a_s), free(a2a_r);
    free(sc), free(sd), free(rc), free(rd), free(ag);
    check_section(PROG, "every kind on two communicators in opposite orders", 1);
}

/* Several outstanding on A, a blocking collective on A between them, waited in reverse. */
static void test_many_on_one(void)
{
    int v[4], s = -1, i;
    long total = 0;
    MPI_Request req[4];
    for (i = 0; i < 4; i++)
        v[i] = rank == i % size ? 10 * i + 1 : -1;
    MPI_Ibcast(&v[0], 1, MPI_INT, 0 % size, A, &req[0]);
    MPI_Ibcast(&v[1], 1, MPI_INT, 1 % size, A, &req[1]);
    MPI_Allreduce(&rank, &s, 1, MPI_INT, MPI_SUM, A); /* after the two, on every rank */
    MPI_Ibcast(&v[2], 1, MPI_INT, 2 % size, A, &req[2]);
    MPI_Ibcast(&v[3], 1, MPI_INT, 3 % size, A, &req[3]);
    for (i = 3; i >= 0; i--)
        MPI_Wait(&req[i], MPI_STATUS_IGNORE);
    for (i = 0; i < 4; i++) {
        CHECK(v[i] == 10 * i + 1, "Ibcast %d: %d", i, v[i]);
        total += v[i];
    }
    CHECK(s == size * (size - 1) / 2, "Allreduce between: %d", s);
    CHECK(total == 64, "sum of the broadcasts %ld", total);
    check_section(PROG, "four Ibcasts on one communicator, an Allreduce between, waited in reverse", 1);
}

/* Two duplicates of the world: an Ialltoallw then an Iscan on the second, then an
 * Ialltoallw on the first, waited for together. Each communicator's started collectives
 * run in their own order beside the other's: a duplicate's must not join its parent's. */
static void test_two_duplicates(void)
{
    enum { K = 3 };
    MPI_Comm d1, d2;
    MPI_Request req[3];
    int *out1 = malloc(sizeof(int) * K * size), *in1 = malloc(sizeof(int) * K * size);
    int *out2 = malloc(sizeof(int) * K * size), *in2 = malloc(sizeof(int) * K * size);
    int *counts = malloc(sizeof(int) * size), *displs = malloc(sizeof(int) * size);
    MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * size);
    int mine[K], scanned[K], i, j, bad = 0;
    MPI_Comm_dup(MPI_COMM_WORLD, &d1);
    MPI_Comm_dup(MPI_COMM_WORLD, &d2);
    for (i = 0; i < size; i++) {
        counts[i] = K;
        displs[i] = (int)sizeof(int) * K * i;
        types[i] = MPI_INT;
        for (j = 0; j < K; j++) {
            out1[i * K + j] = 1000 * rank + 10 * i + j;
            out2[i * K + j] = -(1000 * rank + 10 * i + j);
            in1[i * K + j] = in2[i * K + j] = 0;
        }
    }
    for (j = 0; j < K; j++)
        mine[j] = rank + j;
    MPI_Ialltoallw(out2, counts, displs, types, in2, counts, displs, types, d2, &req[0]);
    MPI_Iscan(mine, scanned, K, MPI_INT, MPI_SUM, d2, &req[1]);
    MPI_Ialltoallw(out1, counts, displs, types, in1, counts, displs, types, d1, &req[2]);
    MPI_Waitall(3, req, MPI_STATUSES_IGNORE);
    for (i = 0; i < size; i++)
        for (j = 0; j < K; j++) {
            bad += in1[i * K + j] != 1000 * i + 10 * rank + j;
            bad += in2[i * K + j] != -(1000 * i + 10 * rank + j);
        }
    CHECK(bad == 0, "%d elements of the two Ialltoallw wrong", bad);
    for (j = 0; j < K; j++)
        CHECK(scanned[j] == rank * (rank + 1) / 2 + (rank + 1) * j, "Iscan element %d: %d", j, scanned[j]);
    MPI_Comm_free(&d1);
    MPI_Comm_free(&d2);
    free(out1), free(in1), free(out2), free(in2), free(counts), free(displs), free(types);
    check_section(PROG, "Ialltoallw and Iscan on one duplicate of the world, Ialltoallw on another", 1);
}

/* An intercommunicator's Iallreduce (between the even and the odd ranks) and an
 * Iallreduce on A: the even ranks start the intercommunicator's first, the odd ones A's,
 * which they wait for before starting the other. */
static void test_intercommunicator(void)
{
    MPI_Comm local, inter;
    MPI_Request req[2];
    int x = rank, sum = -1, other = -1, expect = 0, i, ran = size >= 2;
    if (!ran) {
        check_section(PROG, "an intercommunicator's Iallreduce and one on A in opposite orders", 0);
        return;
    }
    for (i = 0; i < size; i++)
        if (i % 2 != rank % 2)
            expect += 10 * i;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, even() ? 1 : 0, 31, &inter);
    i = 10 * rank;
    if (even()) {
        MPI_Iallreduce(&i, &other, 1, MPI_INT, MPI_SUM, inter, &req[0]);
        MPI_Iallreduce(&x, &sum, 1, MPI_INT, MPI_SUM, A, &req[1]);
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    } else {
        MPI_Iallreduce(&x, &sum, 1, MPI_INT, MPI_SUM, A, &req[1]);
        MPI_Wait(&req[1], MPI_STATUS_IGNORE);
        MPI_Iallreduce(&i, &other, 1, MPI_INT, MPI_SUM, inter, &req[0]);
        MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    }
    CHECK(sum == size * (size - 1) / 2, "Iallreduce on A: %d", sum);
    CHECK(other == expect, "the intercommunicator's Iallreduce: %d, expected %d", other, expect);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    check_section(PROG, "an intercommunicator's Iallreduce and one on A in opposite orders", 1);
}

/* An op and a datatype freed while their collective is outstanding; then polled. */
static void maxpair(void *in, void *inout, int *len, MPI_Datatype *type)
{
    int *a = in, *b = inout, k;
    (void)type;
    for (k = 0; k < 2 * *len; k++)
        if (a[k] > b[k])
            b[k] = a[k];
}

static void test_free_while_outstanding(void)
{
    MPI_Datatype pair;
    MPI_Op op;
    int x[2] = {rank + 3, -rank}, y[2] = {-1, -1}, flag = 0;
    MPI_Request req;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    MPI_Op_create(maxpair, 1, &op);
    MPI_Iallreduce(x, y, 1, pair, op, A, &req);
    MPI_Type_free(&pair);
    MPI_Op_free(&op);
    CHECK(pair == MPI_DATATYPE_NULL && op == MPI_OP_NULL, "handles freed");
    while (!flag)
        MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    CHECK(y[0] == size + 2 && y[1] == 0, "Iallreduce with a freed op and type: %d %d", y[0], y[1]);
    check_section(PROG, "op and datatype freed while their Iallreduce is outstanding", 1);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_dup(MPI_COMM_WORLD, &A);
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &B); /* reversed ranks */
    MPI_Comm_rank(B, &brank);
    CHECK(brank == size - 1 - rank, "rank in B %d", brank);
    test_opposite_bcasts();
    test_nonblocking_then_blocking();
    test_start_then_receive();
    test_every_kind();
    test_many_on_one();
    test_two_duplicates();
    test_intercommunicator();
    test_free_while_outstanding();
    MPI_Comm_free(&A);
    MPI_Comm_free(&B);
    {
        long long total = 0;
        MPI_Reduce(&check_count, &total, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
        if (rank == 0)
            printf("%s: %lld checks passed\n", PROG, total);
    }
    MPI_Finalize();
    return 0;
}
