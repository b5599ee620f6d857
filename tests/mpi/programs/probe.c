// SPDX-License-Identifier: Apache-2.0
/*
 * probe.c - MPI_Probe then allocate and receive by MPI_Get_count, MPI_Iprobe
 * polling, ANY_SOURCE/ANY_TAG probes, probes of MPI_PROC_NULL; matched probes
 * (MPI_Mprobe, MPI_Improbe) whose message no other receive can take, received with
 * MPI_Mrecv and MPI_Imrecv, and matched probes of MPI_PROC_NULL.
 */
#include "check.h"
#include <stdlib.h>

static const char *PROG = "probe";
static int rank, size;

static int len_from(int src) { return (src * 37) % 200 + (src % 3 == 2 ? 0 : 1); }

/* each rank sends a message of rank-dependent length to its right neighbour */
static void test_probe_alloc(void)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int n = len_from(rank), i, got = -1, got_bytes = -1, bad = -1, expect = len_from(left);
    int *out = malloc((size_t)(n + 1) * sizeof(int)), *in;
    MPI_Request req;
    MPI_Status st;
    for (i = 0; i < n; i++)
        out[i] = rank * 1000 + i;
    MPI_Isend(out, n, MPI_INT, right, 10, MPI_COMM_WORLD, &req);
    MPI_Probe(left, 10, MPI_COMM_WORLD, &st);
    CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 10, "probe status %d %d", st.MPI_SOURCE, st.MPI_TAG);
    MPI_Get_count(&st, MPI_INT, &got);
    MPI_Get_count(&st, MPI_BYTE, &got_bytes);
    CHECK(got == expect, "probed count %d expected %d", got, expect);
    CHECK(got_bytes == expect * (int)sizeof(int), "probed byte count %d", got_bytes);
    in = malloc((size_t)(got + 1) * sizeof(int));
    MPI_Recv(in, got, MPI_INT, left, 10, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_INT, &got);
    CHECK(got == expect, "received count %d expected %d", got, expect);
    for (i = 0; i < expect; i++)
        if (in[i] != left * 1000 + i) {
            bad = i;
            break;
        }
    CHECK(bad < 0, "payload wrong at %d", bad);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    free(in);
    free(out);
    check_section(PROG, "probe then allocate and receive", 1);
}

/* rank 0 probes with ANY_SOURCE/ANY_TAG and receives exactly the probed message */
static void test_any_probe(void)
{
    if (size >= 2) {
        if (rank == 0) {
            char *seen = calloc((size_t)size, 1);
            int m, i;
            for (m = 1; m < size; m++) {
                MPI_Status st;
                int src, tag, got = -1, got2 = -1, bad = -1, *buf;
                MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
                src = st.MPI_SOURCE;
                tag = st.MPI_TAG;
                CHECK(src >= 1 && src < size && !seen[src], "probed unexpected source %d", src);
                seen[src] = 1;
                CHECK(tag == 20 + src % 10, "probed tag %d from %d", tag, src);
                MPI_Get_count(&st, MPI_DOUBLE, &got);
                CHECK(got == src % 5 + 1, "probed count %d from %d", got, src);
                buf = malloc((size_t)(got + 1) * sizeof(double));
                MPI_Recv(buf, got, MPI_DOUBLE, src, tag, MPI_COMM_WORLD, &st);
                MPI_Get_count(&st, MPI_DOUBLE, &got2);
                CHECK(got2 == got, "received %d after probing %d", got2, got);
                for (i = 0; i < got; i++)
                    if (((double *)buf)[i] != src + i * 0.5)
                        bad = i;
                CHECK(bad < 0, "payload from %d wrong at %d", src, bad);
                free(buf);
            }
            free(seen);
        } else {
            double buf[5];
            int i;
            for (i = 0; i < 5; i++)
                buf[i] = rank + i * 0.5;
            MPI_Send(buf, rank % 5 + 1, MPI_DOUBLE, 0, 20 + rank % 10, MPI_COMM_WORLD);
        }
    }
    check_section(PROG, "any-source probe", size >= 2);
}

static void test_iprobe(void)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int out[3] = {rank, rank + 1, rank + 2}, in[3] = {-1, -1, -1}, flag = 0, got = -1;
    MPI_Request req;
    MPI_Status st;

    /* nobody ever sends tag 999 */
    MPI_Iprobe(MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &flag, &st);
    CHECK(flag == 0, "Iprobe found a message that was never sent");
    MPI_Barrier(MPI_COMM_WORLD);

    MPI_Isend(out, 3, MPI_INT, right, 30, MPI_COMM_WORLD, &req);
    flag = 0;
    while (!flag)
        MPI_Iprobe(left, 30, MPI_COMM_WORLD, &flag, &st);
    CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 30, "iprobe status %d %d", st.MPI_SOURCE, st.MPI_TAG);
    MPI_Get_count(&st, MPI_INT, &got);
    CHECK(got == 3, "iprobe count %d", got);
    /* probing again finds the same message */
    flag = 0;
    MPI_Iprobe(MPI_ANY_SOURCE, 30, MPI_COMM_WORLD, &flag, &st);
    CHECK(flag && st.MPI_SOURCE == left, "second iprobe flag %d source %d", flag, st.MPI_SOURCE);
    MPI_Recv(in, 3, MPI_INT, left, 30, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(in[0] == left && in[2] == left + 2, "iprobed payload %d", in[0]);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    /* the message is consumed: nothing left with tag 30 from left */
    flag = 0;
    MPI_Iprobe(left, 30, MPI_COMM_WORLD, &flag, &st);
    CHECK(flag == 0, "Iprobe found a message that was already received");
    check_section(PROG, "iprobe polling", 1);
}

static void test_probe_proc_null(void)
{
    int flag = 0, got = -1;
    MPI_Status st;
    MPI_Probe(MPI_PROC_NULL, 5, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_INT, &got);
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && got == 0,
          "probe of MPI_PROC_NULL: source %d tag %d count %d", st.MPI_SOURCE, st.MPI_TAG, got);
    MPI_Iprobe(MPI_PROC_NULL, 5, MPI_COMM_WORLD, &flag, &st);
    CHECK(flag && st.MPI_SOURCE == MPI_PROC_NULL, "iprobe of MPI_PROC_NULL: flag %d source %d", flag,
          st.MPI_SOURCE);
    check_section(PROG, "probe proc null", 1);
}

static void test_matched_probe(void)
{
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int out[2][5], in[5], k, flag = 0, count = -1, rc;
    double d = -1;
    MPI_Message msg = MPI_MESSAGE_NULL;
    MPI_Request sreq[2], rreq;
    MPI_Status st;
    for (k = 0; k < 5; k++) {
        out[0][k] = rank * 100 + k;
        out[1][k] = rank * 100 + 50 + k;
    }
    /* Two messages on one tag to the right: a matched probe takes the first, a receive
       posted after the probe gets the second, and MPI_Mrecv still gets the first. */
    MPI_Isend(out[0], 5, MPI_INT, right, 20, MPI_COMM_WORLD, &sreq[0]);
    MPI_Isend(out[1], 3, MPI_INT, right, 20, MPI_COMM_WORLD, &sreq[1]);
    CHECK_RC(MPI_Mprobe(MPI_ANY_SOURCE, 20, MPI_COMM_WORLD, &msg, &st), "MPI_Mprobe");
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(msg != MPI_MESSAGE_NULL && st.MPI_SOURCE == left && st.MPI_TAG == 20 && count == 5,
          "MPI_Mprobe: source %d tag %d count %d", st.MPI_SOURCE, st.MPI_TAG, count);
    MPI_Recv(in, 5, MPI_INT, left, 20, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == 3 && in[0] == left * 100 + 50, "the receive after the probe gets the second message (%d, %d)",
          count, in[0]);
    CHECK_RC(MPI_Mrecv(in, 5, MPI_INT, &msg, &st), "MPI_Mrecv");
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(msg == MPI_MESSAGE_NULL && count == 5 && in[4] == left * 100 + 4 && st.MPI_SOURCE == left,
          "MPI_Mrecv gets the probed message (%d, %d)", count, in[4]);
    MPI_Waitall(2, sreq, MPI_STATUSES_IGNORE);
    /* MPI_Improbe polled until the message is there, then MPI_Imrecv. */
    MPI_Isend(out[1], 4, MPI_INT, right, 21, MPI_COMM_WORLD, &sreq[0]);
    do /* how many polls it takes is timing's: one check of them all */
        rc = MPI_Improbe(left, 21, MPI_COMM_WORLD, &flag, &msg, &st);
    while (rc == MPI_SUCCESS && !flag);
    CHECK_RC(rc, "MPI_Improbe");
    CHECK_RC(MPI_Imrecv(in, 5, MPI_INT, &msg, &rreq), "MPI_Imrecv");
    MPI_Wait(&rreq, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(msg == MPI_MESSAGE_NULL && count == 4 && in[3] == left * 100 + 53 && st.MPI_TAG == 21,
          "MPI_Imrecv's wait gives the message's status (%d, %d)", count, in[3]);
    MPI_Wait(&sreq[0], MPI_STATUS_IGNORE);
    /* A matched probe of MPI_PROC_NULL: MPI_MESSAGE_NO_PROC, received as from MPI_PROC_NULL. */
    MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &msg, &st);
    CHECK(msg == MPI_MESSAGE_NO_PROC && st.MPI_SOURCE == MPI_PROC_NULL, "MPI_Mprobe of MPI_PROC_NULL");
    MPI_Mrecv(&d, 1, MPI_DOUBLE, &msg, &st);
    MPI_Get_count(&st, MPI_DOUBLE, &count);
    CHECK(msg == MPI_MESSAGE_NULL && st.MPI_SOURCE == MPI_PROC_NULL && count == 0 && d == -1,
          "MPI_Mrecv of MPI_MESSAGE_NO_PROC: nothing received");
    MPI_Barrier(MPI_COMM_WORLD);
    check_section(PROG, "matched probes", 1);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    test_probe_alloc();
    test_any_probe();
    test_iprobe();
    test_probe_proc_null();
    test_matched_probe();
    check_report(PROG);
    MPI_Finalize();
    return 0;
}
