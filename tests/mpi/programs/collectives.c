// SPDX-License-Identifier: Apache-2.0
/*
 * collectives.c - Barrier, Bcast (every root), Reduce (every root,
 * SUM/MAX/MIN), Allreduce, Gather/Scatter (every root), Allgather, Alltoall,
 * MPI_IN_PLACE where MPI allows it, and the non-blocking collectives
 * Ibarrier/Ibcast/Ireduce/Iallreduce/Igather/Iscatter/Iallgather/Ialltoall.
 */
#include "check.h"
#include <stdlib.h>

static const char *PROG = "collectives";
static int rank, size;

static void test_barrier(void)
{
    int i, rc;
    MPI_Comm dup;
    for (i = 0; i < 5; i++) {
        rc = MPI_Barrier(MPI_COMM_WORLD);
        CHECK_RC(rc, "MPI_Barrier");
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    rc = MPI_Barrier(dup);
    CHECK_RC(rc, "MPI_Barrier on a dup");
    MPI_Comm_free(&dup);
    check_section(PROG, "barrier", 1);
}

static void test_bcast(void)
{
    int *buf = malloc(3000 * sizeof(int));
    double dbuf[7];
    int root, i, n, bad;
    for (root = 0; root < size; root++) {
        n = (root % 3 == 0) ? 100 : (root % 3 == 1 ? 1 : 0);
        for (i = 0; i < 101; i++)
            buf[i] = (rank == root) ? root * 1000 + i : -1;
        MPI_Bcast(buf, n, MPI_INT, root, MPI_COMM_WORLD);
        bad = -1;
        for (i = 0; i < 101; i++)
            if (buf[i] != (i < n || rank == root ? root * 1000 + i : -1))
                bad = i;
        CHECK(bad < 0, "bcast from root %d count %d wrong at %d", root, n, bad);
        if (root % 5 != 0 && root != size - 1)
            continue; /* the double broadcast only from some roots, to keep it short */
        for (i = 0; i < 7; i++)
            dbuf[i] = (rank == root) ? root + i * 0.5 : -1.0;
        MPI_Bcast(dbuf, 7, MPI_DOUBLE, root, MPI_COMM_WORLD);
        bad = -1;
        for (i = 0; i < 7; i++)
            if (dbuf[i] != root + i * 0.5)
                bad = i;
        CHECK(bad < 0, "double bcast from root %d wrong at %d", root, bad);
    }
    /* one larger broadcast */
    root = size - 1;
    for (i = 0; i < 3000; i++)
        buf[i] = (rank == root) ? i * 7 : -1;
    MPI_Bcast(buf, 3000, MPI_INT, root, MPI_COMM_WORLD);
    bad = -1;
    for (i = 0; i < 3000; i++)
        if (buf[i] != i * 7)
            bad = i;
    CHECK(bad < 0, "3000-int bcast wrong at %d", bad);
    free(buf);
    check_section(PROG, "bcast every root", 1);
}

#define RN 10
static int rval(int r, int i) { return r * 3 + i - 20; }

static int expect_int(MPI_Op op, int i)
{
    int r, acc = rval(0, i);
    for (r = 1; r < size; r++) {
        int v = rval(r, i);
        if (op == MPI_SUM)
            acc += v;
        else if (op == MPI_MAX)
            acc = v > acc ? v : acc;
        else
            acc = v < acc ? v : acc;
    }
    return acc;
}

/* one MPI_Reduce of RN ints with op o at root, checked at the root */
static void reduce_int(int o, int root, int in_place)
{
    MPI_Op ops[3];
    const char *names[3] = {"SUM", "MAX", "MIN"};
    int in[RN], out[RN], i, bad = -1;
    ops[0] = MPI_SUM;
    ops[1] = MPI_MAX;
    ops[2] = MPI_MIN;
    for (i = 0; i < RN; i++) {
        in[i] = rval(rank, i);
        out[i] = (in_place && rank == root) ? rval(rank, i) : -99;
    }
    if (in_place && rank == root)
        MPI_Reduce(MPI_IN_PLACE, out, RN, MPI_INT, ops[o], root, MPI_COMM_WORLD);
    else
        MPI_Reduce(in, out, RN, MPI_INT, ops[o], root, MPI_COMM_WORLD);
    if (rank == root) {
        for (i = 0; i < RN; i++)
            if (out[i] != expect_int(ops[o], i))
                bad = i;
        CHECK(bad < 0, "reduce %s root %d%s wrong at %d", names[o], root, in_place ? " in place" : "", bad);
    } else {
        CHECK(out[0] == -99, "reduce wrote the receive buffer on a non-root");
    }
}

/*
 * Every root gets one reduction, the op cycling through SUM/MAX/MIN and
 * MPI_IN_PLACE used at every other group of three roots; roots 0 and size-1
 * also get all three ops both ways, and a double SUM.
 */
static void test_reduce(void)
{
    int root, o, i, bad, ends[2];
    double din[RN], dout[RN];
    for (root = 0; root < size; root++)
        reduce_int(root % 3, root, (root / 3) % 2 == 1);
    ends[0] = 0;
    ends[1] = size - 1;
    for (i = 0; i < 2; i++) {
        root = ends[i];
        for (o = 0; o < 3; o++) {
            reduce_int(o, root, 0);
            reduce_int(o, root, 1);
        }
    }
    for (root = 0; root < size; root += size - 1 > 0 ? size - 1 : 1) {
        /* double SUM, exact halves, at roots 0 and size-1 */
        for (i = 0; i < RN; i++) {
            din[i] = rank * 0.5 + i;
            dout[i] = -1.0;
        }
        MPI_Reduce(din, dout, RN, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD);
        if (rank == root) {
            bad = -1;
            for (i = 0; i < RN; i++)
                if (dout[i] != 0.25 * size * (size - 1) + (double)size * i)
                    bad = i;
            CHECK(bad < 0, "double reduce root %d wrong at %d", root, bad);
        }
    }
    check_section(PROG, "reduce every root SUM/MAX/MIN", 1);
}

static void test_allreduce(void)
{
    MPI_Op ops[3];
    int o, i, bad, in[RN], out[RN];
    double din[RN], dout[RN];
    ops[0] = MPI_SUM;
    ops[1] = MPI_MAX;
    ops[2] = MPI_MIN;
    for (o = 0; o < 3; o++) {
        for (i = 0; i < RN; i++) {
            in[i] = rval(rank, i);
            out[i] = -99;
        }
        MPI_Allreduce(in, out, RN, MPI_INT, ops[o], MPI_COMM_WORLD);
        bad = -1;
        for (i = 0; i < RN; i++)
            if (out[i] != expect_int(ops[o], i))
                bad = i;
        CHECK(bad < 0, "allreduce op %d wrong at %d", o, bad);
        /* in place */
        for (i = 0; i < RN; i++)
            out[i] = rval(rank, i);
        MPI_Allreduce(MPI_IN_PLACE, out, RN, MPI_INT, ops[o], MPI_COMM_WORLD);
        bad = -1;
        for (i = 0; i < RN; i++)
            if (out[i] != expect_int(ops[o], i))
                bad = i;
        CHECK(bad < 0, "in-place allreduce op %d wrong at %d", o, bad);
    }
    for (i = 0; i < RN; i++)
        din[i] = (rank % 2 == 0) ? rank * 0.5 - i : -rank * 0.5;
    MPI_Allreduce(din, dout, RN, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    bad = -1;
    for (i = 0; i < RN; i++) {
        double expect = -1e300;
        int r;
        for (r = 0; r < size; r++) {
            double v = (r % 2 == 0) ? r * 0.5 - i : -r * 0.5;
            expect = v > expect ? v : expect;
        }
        if (dout[i] != expect)
            bad = i;
    }
    CHECK(bad < 0, "double MAX allreduce wrong at %d", bad);
    for (i = 0; i < RN; i++)
        dout[i] = rank * 0.5 + i;
    MPI_Allreduce(MPI_IN_PLACE, dout, RN, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    bad = -1;
    for (i = 0; i < RN; i++)
        if (dout[i] != 0.25 * size * (size - 1) + (double)size * i)
            bad = i;
    CHECK(bad < 0, "in-place double SUM allreduce wrong at %d", bad);
    check_section(PROG, "allreduce (and in place)", 1);
}

#define GN 3
static int gval(int r, int i) { return r * 100 + i; }

static void test_gather_scatter(void)
{
    int *all = malloc((size_t)size * GN * sizeof(int));
    int mine[GN], root, i, bad;
    for (root = 0; root < size; root++) {
        int in_place = root % 2 == 1;
        /* gather */
        for (i = 0; i < GN; i++)
            mine[i] = gval(rank, i);
        for (i = 0; i < size * GN; i++)
            all[i] = -1;
        if (rank == root && in_place) {
            for (i = 0; i < GN; i++)
                all[root * GN + i] = gval(root, i);
            MPI_Gather(MPI_IN_PLACE, GN, MPI_INT, all, GN, MPI_INT, root, MPI_COMM_WORLD);
        } else {
            MPI_Gather(mine, GN, MPI_INT, all, GN, MPI_INT, root, MPI_COMM_WORLD);
        }
        if (rank == root) {
            bad = -1;
            for (i = 0; i < size * GN; i++)
                if (all[i] != gval(i / GN, i % GN))
                    bad = i;
            CHECK(bad < 0, "gather root %d%s wrong at %d", root, in_place ? " in place" : "", bad);
        }
        /* scatter */
        for (i = 0; i < size * GN; i++)
            all[i] = (rank == root) ? gval(i / GN, i % GN) + 7 : -1;
        for (i = 0; i < GN; i++)
            mine[i] = -1;
        if (rank == root && in_place) {
            MPI_Scatter(all, GN, MPI_INT, MPI_IN_PLACE, GN, MPI_INT, root, MPI_COMM_WORLD);
            bad = -1;
            for (i = 0; i < size * GN; i++)
                if (all[i] != gval(i / GN, i % GN) + 7)
                    bad = i;
            CHECK(bad < 0, "in-place scatter changed the root's send buffer at %d", bad);
        } else {
            MPI_Scatter(all, GN, MPI_INT, mine, GN, MPI_INT, root, MPI_COMM_WORLD);
            bad = -1;
            for (i = 0; i < GN; i++)
                if (mine[i] != gval(rank, i) + 7)
                    bad = i;
            CHECK(bad < 0, "scatter root %d wrong at %d", root, bad);
        }
    }
    free(all);
    check_section(PROG, "gather/scatter every root (and in place)", 1);
}

#define AN 5
static void test_allgather_alltoall(void)
{
    int *all = malloc((size_t)size * 100 * sizeof(int));
    int *sall = malloc((size_t)size * 100 * sizeof(int));
    int mine[AN], i, bad, pass;
    for (pass = 0; pass < 2; pass++) {
        for (i = 0; i < AN; i++)
            mine[i] = rank * 10 + i;
        for (i = 0; i < size * AN; i++)
            all[i] = (pass == 1 && i / AN == rank) ? rank * 10 + i % AN : -1;
        if (pass == 0)
            MPI_Allgather(mine, AN, MPI_INT, all, AN, MPI_INT, MPI_COMM_WORLD);
        else
            MPI_Allgather(MPI_IN_PLACE, AN, MPI_INT, all, AN, MPI_INT, MPI_COMM_WORLD);
        bad = -1;
        for (i = 0; i < size * AN; i++)
            if (all[i] != (i / AN) * 10 + i % AN)
                bad = i;
        CHECK(bad < 0, "allgather%s wrong at %d", pass ? " in place" : "", bad);
    }
    /* alltoall: element k of the block for rank d from rank s is s*10000+d*100+k */
    {
        static const int counts[2] = {2, 100};
        int c;
        for (c = 0; c < 2; c++) {
            int n = counts[c];
            for (pass = 0; pass < 2; pass++) {
                int *sendp = pass == 0 ? sall : all;
                for (i = 0; i < size * n; i++) {
                    sendp[i] = rank * 10000 + (i / n) * 100 + i % n;
                    if (pass == 0)
                        all[i] = -1;
                }
                if (pass == 0)
                    MPI_Alltoall(sall, n, MPI_INT, all, n, MPI_INT, MPI_COMM_WORLD);
                else
                    MPI_Alltoall(MPI_IN_PLACE, n, MPI_INT, all, n, MPI_INT, MPI_COMM_WORLD);
                bad = -1;
                for (i = 0; i < size * n; i++)
                    if (all[i] != (i / n) * 10000 + rank * 100 + i % n)
                        bad = i;
                CHECK(bad < 0, "alltoall count %d%s wrong at %d", n, pass ? " in place" : "", bad);
            }
        }
    }
    free(all);
    free(sall);
    check_section(PROG, "allgather/alltoall (and in place)", 1);
}

/* all eight non-blocking collectives outstanding at once, completed by Waitall */
static void test_nonblocking(void)
{
    MPI_Request reqs[8];
    int bc[4], red_in[4], red_out[4] = {-1, -1, -1, -1}, ar_in[4], ar_out[4];
    int g_in[2], *g_all = malloc((size_t)size * 2 * sizeof(int));
    int *s_all = malloc((size_t)size * 2 * sizeof(int)), s_mine[2] = {-1, -1};
    int ag_in[2], *ag_all = malloc((size_t)size * 2 * sizeof(int));
    int *a2a_s = malloc((size_t)size * sizeof(int)), *a2a_r = malloc((size_t)size * sizeof(int));
    int broot = size - 1, groot = size / 2, i, bad;
    for (i = 0; i < 4; i++) {
        bc[i] = rank == broot ? 40 + i : -1;
        red_in[i] = rank + i;
        ar_in[i] = (rank * 7 + i) % 11;
        ar_out[i] = -1;
    }
    for (i = 0; i < 2; i++) {
        g_in[i] = rank * 2 + i;
        ag_in[i] = rank * 3 + i;
    }
    for (i = 0; i < size * 2; i++) {
        g_all[i] = -1;
        ag_all[i] = -1;
        s_all[i] = rank == 0 ? i + 500 : -1;
    }
    for (i = 0; i < size; i++) {
        a2a_s[i] = rank * 100 + i;
        a2a_r[i] = -1;
    }
    MPI_Ibarrier(MPI_COMM_WORLD, &reqs[0]);
    MPI_Ibcast(bc, 4, MPI_INT, broot, MPI_COMM_WORLD, &reqs[1]);
    MPI_Ireduce(red_in, red_out, 4, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD, &reqs[2]);
    MPI_Iallreduce(ar_in, ar_out, 4, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &reqs[3]);
    MPI_Igather(g_in, 2, MPI_INT, g_all, 2, MPI_INT, groot, MPI_COMM_WORLD, &reqs[4]);
    MPI_Iscatter(s_all, 2, MPI_INT, s_mine, 2, MPI_INT, 0, MPI_COMM_WORLD, &reqs[5]);
    MPI_Iallgather(ag_in, 2, MPI_INT, ag_all, 2, MPI_INT, MPI_COMM_WORLD, &reqs[6]);
    MPI_Ialltoall(a2a_s, 1, MPI_INT, a2a_r, 1, MPI_INT, MPI_COMM_WORLD, &reqs[7]);
    MPI_Waitall(8, reqs, MPI_STATUSES_IGNORE);

    CHECK(bc[0] == 40 && bc[3] == 43, "ibcast gave %d", bc[0]);
    if (rank == 0) {
        bad = -1;
        for (i = 0; i < 4; i++)
            if (red_out[i] != size * (size - 1) / 2 + size * i)
                bad = i;
        CHECK(bad < 0, "ireduce wrong at %d", bad);
    }
    bad = -1;
    for (i = 0; i < 4; i++) {
        int r, m = 0;
        for (r = 0; r < size; r++)
            m = (r * 7 + i) % 11 > m ? (r * 7 + i) % 11 : m;
        if (ar_out[i] != m)
            bad = i;
    }
    CHECK(bad < 0, "iallreduce wrong at %d", bad);
    if (rank == groot) {
        bad = -1;
        for (i = 0; i < size * 2; i++)
            if (g_all[i] != i)
                bad = i;
        CHECK(bad < 0, "igather wrong at %d", bad);
    }
    CHECK(s_mine[0] == rank * 2 + 500 && s_mine[1] == rank * 2 + 501, "iscatter gave %d", s_mine[0]);
    bad = -1;
    for (i = 0; i < size * 2; i++)
        if (ag_all[i] != (i / 2) * 3 + i % 2)
            bad = i;
    CHECK(bad < 0, "iallgather wrong at %d", bad);
    bad = -1;
    for (i = 0; i < size; i++)
        if (a2a_r[i] != i * 100 + rank)
            bad = i;
    CHECK(bad < 0, "ialltoall wrong at %d", bad);

    /* one more of each kind completed by a single MPI_Wait */
    MPI_Ibarrier(MPI_COMM_WORLD, &reqs[0]);
    MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
    CHECK(reqs[0] == MPI_REQUEST_NULL, "Wait did not free the ibarrier request");
    free(g_all);
    free(s_all);
    free(ag_all);
    free(a2a_s);
    free(a2a_r);
    check_section(PROG, "non-blocking collectives", 1);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    test_barrier();
    test_bcast();
    test_reduce();
    test_allreduce();
    test_gather_scatter();
    test_allgather_alltoall();
    test_nonblocking();
    check_report(PROG);
    MPI_Finalize();
    return 0;
}
