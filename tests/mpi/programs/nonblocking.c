// SPDX-License-Identifier: Apache-2.0
/*
 * nonblocking.c - Isend/Irecv with Waitall, Waitany, Test, Testall, Testany,
 * MPI_Request_free on a send request, Issend, MPI_REQUEST_NULL handling, and MPI_Cancel
 * of a receive nothing matches (MPI_Test_cancelled), the next receive still getting its
 * message; MPI_Request_get_status (the request left for its wait, which gives the same
 * status) and a status set by hand (MPI_Status_set_elements, _set_cancelled); generalized
 * requests (start, complete, the query, free and cancel functions); MPI_Ibarrier while the
 * rank goes on receiving (a sparse exchange: MPI_Issend, MPI_Iprobe, then the barrier) and
 * while it receives from a rank that sends synchronously before it enters, and while
 * other collectives run on its communicator; a blocking reduction and a neighbourhood
 * exchange while a non-blocking reduction goes on.
 */
#include "check.h"
#include <stdlib.h>

static const char *PROG = "nonblocking";
static int rank, size;

#define MAXN 8   /* neighbours (including self) a rank exchanges with */
#define MAXC 17  /* ints per message */

static int nb_count(void) { return size < MAXN ? size : MAXN; }
static int msg_len(int k) { return (k * 5) % MAXC; } /* 0 for k == 0 */
static int msg_val(int src, int k, int i) { return src * 1000 + k * 20 + i; }

/*
 * Post K receives (from rank-k, tag k) and K sends (to rank+k, tag k).
 * reqs[0..K) are the receives, reqs[K..2K) the sends.
 */
static void post_exchange(int base_tag, int *sbuf, int *rbuf, MPI_Request *reqs)
{
    int K = nb_count(), k, i;
    for (k = 0; k < K * MAXC; k++)
        rbuf[k] = -1;
    for (k = 0; k < K; k++)
        MPI_Irecv(rbuf + k * MAXC, MAXC, MPI_INT, (rank - k + size) % size, base_tag + k,
                  MPI_COMM_WORLD, &reqs[k]);
    for (k = 0; k < K; k++) {
        for (i = 0; i < msg_len(k); i++)
            sbuf[k * MAXC + i] = msg_val(rank, k, i);
        MPI_Isend(sbuf + k * MAXC, msg_len(k), MPI_INT, (rank + k) % size, base_tag + k,
                  MPI_COMM_WORLD, &reqs[K + k]);
    }
}

/* check receive k of an exchange (status and payload) */
static void check_recv(int k, int base_tag, const int *rbuf, const MPI_Status *st)
{
    int src = (rank - k + size) % size, got = -1, i, bad = -1;
    CHECK(st->MPI_SOURCE == src && st->MPI_TAG == base_tag + k, "recv %d: status source %d tag %d", k,
          st->MPI_SOURCE, st->MPI_TAG);
    MPI_Get_count(st, MPI_INT, &got);
    CHECK(got == msg_len(k), "recv %d: count %d expected %d", k, got, msg_len(k));
    for (i = 0; i < MAXC; i++) {
        int expect = i < msg_len(k) ? msg_val(src, k, i) : -1;
        if (rbuf[k * MAXC + i] != expect) {
            bad = i;
            break;
        }
    }
    CHECK(bad < 0, "recv %d: payload wrong at %d", k, bad);
}

static void test_waitall(void)
{
    int K = nb_count(), k, allnull = 1;
    int *sbuf = malloc(MAXN * MAXC * sizeof(int)), *rbuf = malloc(MAXN * MAXC * sizeof(int));
    MPI_Request reqs[2 * MAXN];
    MPI_Status sts[2 * MAXN];
    post_exchange(100, sbuf, rbuf, reqs);
    MPI_Waitall(2 * K, reqs, sts);
    for (k = 0; k < K; k++)
        check_recv(k, 100, rbuf, &sts[k]);
    for (k = 0; k < 2 * K; k++)
        if (reqs[k] != MPI_REQUEST_NULL)
            allnull = 0;
    CHECK(allnull, "Waitall left a request non-null");
    /* again with MPI_STATUSES_IGNORE */
    post_exchange(200, sbuf, rbuf, reqs);
    MPI_Waitall(2 * K, reqs, MPI_STATUSES_IGNORE);
    CHECK(rbuf[(K - 1) * MAXC] == (K > 1 ? msg_val((rank - K + 1 + size) % size, K - 1, 0) : -1),
          "payload after Waitall(STATUSES_IGNORE)");
    free(sbuf);
    free(rbuf);
    check_section(PROG, "isend/irecv pairs with waitall", 1);
}

static void test_waitany(void)
{
    int K = nb_count(), k, idx, done[MAXN] = {0};
    int *sbuf = malloc(MAXN * MAXC * sizeof(int)), *rbuf = malloc(MAXN * MAXC * sizeof(int));
    MPI_Request reqs[2 * MAXN];
    MPI_Status st;
    post_exchange(300, sbuf, rbuf, reqs);
    for (k = 0; k < K; k++) {
        idx = -5;
        MPI_Waitany(K, reqs, &idx, &st);
        CHECK(idx >= 0 && idx < K && !done[idx], "Waitany index %d", idx);
        done[idx] = 1;
        CHECK(reqs[idx] == MPI_REQUEST_NULL, "Waitany did not free request %d", idx);
        check_recv(idx, 300, rbuf, &st);
    }
    idx = -5;
    MPI_Waitany(K, reqs, &idx, &st);
    CHECK(idx == MPI_UNDEFINED, "Waitany on completed requests gave index %d", idx);
    /* complete the sends with Waitany as well */
    for (k = 0; k < K; k++) {
        MPI_Waitany(K, reqs + K, &idx, MPI_STATUS_IGNORE);
        CHECK(idx >= 0 && idx < K, "Waitany on sends index %d", idx);
    }
    free(sbuf);
    free(rbuf);
    check_section(PROG, "waitany until all done", 1);
}

static void test_test_loops(void)
{
    int K = nb_count(), k, idx, flag, completed, done[MAXN] = {0};
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int out = rank * 3 + 1, in = -1;
    int *sbuf = malloc(MAXN * MAXC * sizeof(int)), *rbuf = malloc(MAXN * MAXC * sizeof(int));
    MPI_Request reqs[2 * MAXN], rreq, sreq;
    MPI_Status st, sts[2 * MAXN];

    /* MPI_Test polling */
    MPI_Irecv(&in, 1, MPI_INT, left, 400, MPI_COMM_WORLD, &rreq);
    MPI_Isend(&out, 1, MPI_INT, right, 400, MPI_COMM_WORLD, &sreq);
    flag = 0;
    while (!flag)
        MPI_Test(&rreq, &flag, &st);
    CHECK(rreq == MPI_REQUEST_NULL, "Test did not free the request");
    CHECK(in == left * 3 + 1 && st.MPI_SOURCE == left && st.MPI_TAG == 400, "Test recv got %d", in);
    flag = 0;
    while (!flag)
        MPI_Test(&sreq, &flag, MPI_STATUS_IGNORE);
    CHECK(sreq == MPI_REQUEST_NULL, "Test did not free the send request");

    /* MPI_Testall polling */
    post_exchange(500, sbuf, rbuf, reqs);
    flag = 0;
    while (!flag)
        MPI_Testall(2 * K, reqs, &flag, sts);
    for (k = 0; k < K; k++)
        check_recv(k, 500, rbuf, &sts[k]);

    /* MPI_Testany polling */
    post_exchange(600, sbuf, rbuf, reqs);
    completed = 0;
    while (completed < K) {
        idx = -5;
        flag = 0;
        MPI_Testany(K, reqs, &idx, &flag, &st);
        if (flag && idx != MPI_UNDEFINED) {
            CHECK(idx >= 0 && idx < K && !done[idx], "Testany index %d", idx);
            done[idx] = 1;
            check_recv(idx, 600, rbuf, &st);
            completed++;
        }
    }
    idx = -5;
    flag = 0;
    MPI_Testany(K, reqs, &idx, &flag, &st);
    CHECK(flag && idx == MPI_UNDEFINED, "Testany on completed requests: flag %d index %d", flag, idx);
    MPI_Waitall(K, reqs + K, MPI_STATUSES_IGNORE);
    free(sbuf);
    free(rbuf);
    check_section(PROG, "test/testall/testany polling", 1);
}

static int freed_send_buf[32]; /* never modified after the send is started */

static void test_request_free(void)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size, i, bad = -1;
    int in[32];
    MPI_Request req;
    for (i = 0; i < 32; i++)
        freed_send_buf[i] = rank + 5 * i;
    MPI_Isend(freed_send_buf, 32, MPI_INT, right, 700, MPI_COMM_WORLD, &req);
    MPI_Request_free(&req);
    CHECK(req == MPI_REQUEST_NULL, "Request_free did not set MPI_REQUEST_NULL");
    MPI_Recv(in, 32, MPI_INT, left, 700, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (i = 0; i < 32; i++)
        if (in[i] != left + 5 * i)
            bad = i;
    CHECK(bad < 0, "message of a freed send request wrong at %d", bad);
    check_section(PROG, "request_free on a send request", 1);
}

static void test_issend(void)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int out[4] = {rank, 1, 2, 3}, in[4] = {-1, -1, -1, -1}, flag = -1;
    MPI_Request reqs[2];

    /* to self: cannot complete before the receive is posted */
    MPI_Issend(out, 4, MPI_INT, rank, 800, MPI_COMM_WORLD, &reqs[0]);
    MPI_Test(&reqs[0], &flag, MPI_STATUS_IGNORE);
    CHECK(flag == 0, "Issend to self completed before the receive was posted");
    MPI_Irecv(in, 4, MPI_INT, rank, 800, MPI_COMM_WORLD, &reqs[1]);
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    CHECK(in[0] == rank && in[3] == 3, "Issend to self payload %d", in[0]);

    /* to the right neighbour, which posts its receive only after a barrier */
    in[0] = -1;
    flag = -1;
    MPI_Issend(out, 4, MPI_INT, right, 801, MPI_COMM_WORLD, &reqs[0]);
    MPI_Test(&reqs[0], &flag, MPI_STATUS_IGNORE);
    CHECK(flag == 0, "Issend completed before the receive was posted");
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Irecv(in, 4, MPI_INT, left, 801, MPI_COMM_WORLD, &reqs[1]);
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    CHECK(in[0] == left && in[1] == 1, "Issend payload %d from %d", in[0], left);
    check_section(PROG, "issend", 1);
}

static void check_empty_status(const MPI_Status *st, const char *what)
{
    int got = -1;
    MPI_Get_count(st, MPI_INT, &got);
    CHECK(st->MPI_SOURCE == MPI_ANY_SOURCE && st->MPI_TAG == MPI_ANY_TAG && got == 0,
          "%s: status not empty (source %d tag %d count %d)", what, st->MPI_SOURCE, st->MPI_TAG, got);
}

static void test_request_null(void)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int out = rank + 40, in = -1, idx = -5, flag = -1, rc;
    MPI_Request req = MPI_REQUEST_NULL, reqs[4];
    MPI_Status st, sts[4];

    rc = MPI_Wait(&req, &st);
    CHECK_RC(rc, "MPI_Wait(MPI_REQUEST_NULL)");
    check_empty_status(&st, "Wait on MPI_REQUEST_NULL");
    rc = MPI_Test(&req, &flag, &st);
    CHECK(rc == MPI_SUCCESS && flag, "Test on MPI_REQUEST_NULL: rc %d flag %d", rc, flag);
    check_empty_status(&st, "Test on MPI_REQUEST_NULL");

    reqs[0] = reqs[1] = reqs[2] = reqs[3] = MPI_REQUEST_NULL;
    rc = MPI_Waitany(4, reqs, &idx, &st);
    CHECK(rc == MPI_SUCCESS && idx == MPI_UNDEFINED, "Waitany on all-null: rc %d index %d", rc, idx);
    check_empty_status(&st, "Waitany on all-null");
    idx = -5;
    flag = -1;
    rc = MPI_Testany(4, reqs, &idx, &flag, &st);
    CHECK(rc == MPI_SUCCESS && flag && idx == MPI_UNDEFINED, "Testany on all-null: flag %d index %d",
          flag, idx);
    flag = -1;
    rc = MPI_Testall(4, reqs, &flag, MPI_STATUSES_IGNORE);
    CHECK(rc == MPI_SUCCESS && flag, "Testall on all-null: flag %d", flag);
    rc = MPI_Waitall(4, reqs, sts);
    CHECK_RC(rc, "Waitall on all-null");
    check_empty_status(&sts[2], "Waitall on all-null");
    rc = MPI_Waitall(0, reqs, MPI_STATUSES_IGNORE);
    CHECK_RC(rc, "Waitall with count 0");

    /* mixed: null, recv, null, send */
    MPI_Irecv(&in, 1, MPI_INT, left, 900, MPI_COMM_WORLD, &reqs[1]);
    MPI_Isend(&out, 1, MPI_INT, right, 900, MPI_COMM_WORLD, &reqs[3]);
    rc = MPI_Waitall(4, reqs, sts);
    CHECK_RC(rc, "Waitall mixed");
    CHECK(in == left + 40 && sts[1].MPI_SOURCE == left && sts[1].MPI_TAG == 900, "mixed Waitall recv %d", in);
    check_empty_status(&sts[0], "Waitall null entry");
    check_empty_status(&sts[2], "Waitall null entry");
    CHECK(reqs[1] == MPI_REQUEST_NULL && reqs[3] == MPI_REQUEST_NULL, "Waitall did not free requests");

    /* Waitany skips null entries */
    in = -1;
    MPI_Irecv(&in, 1, MPI_INT, left, 901, MPI_COMM_WORLD, &reqs[2]);
    MPI_Isend(&out, 1, MPI_INT, right, 901, MPI_COMM_WORLD, &reqs[0]);
    MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
    idx = -5;
    MPI_Waitany(4, reqs, &idx, &st);
    CHECK(idx == 2 && in == left + 40, "Waitany with null entries gave index %d value %d", idx, in);
    check_section(PROG, "request null handling", 1);
}

/* A receive for any source and any tag, posted before collectives and waited for after
   them, takes the message sent after them, never a collective's own. */
static void test_wildcard_across_collectives(void)
{
    int got = -1;
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Status st;
    if (rank == 0)
        MPI_Irecv(&got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &req);
    const int count = 512;
    long *s = malloc(sizeof(long) * count * size), *d = malloc(sizeof(long) * count * size);
    for (int i = 0; i < count * size; i++)
        s[i] = rank * 1000000L + i;
    MPI_Alltoall(s, count, MPI_LONG, d, count, MPI_LONG, MPI_COMM_WORLD);
    for (int j = 0; j < size; j++)
        CHECK(d[j * count] == j * 1000000L + rank * count, "alltoall block %d", j);
    MPI_Allgather(s, count, MPI_LONG, d, count, MPI_LONG, MPI_COMM_WORLD);
    for (int j = 0; j < size; j++)
        CHECK(d[j * count] == j * 1000000L, "allgather block %d", j);
    if (rank == size - 1) {
        int x = 77;
        MPI_Send(&x, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
    }
    if (rank == 0) {
        MPI_Wait(&req, &st);
        CHECK(got == 77 && st.MPI_SOURCE == size - 1 && st.MPI_TAG == 5,
              "the wildcard receive got %d from %d with tag %d", got, st.MPI_SOURCE, st.MPI_TAG);
    }
    free(s);
    free(d);
    check_section(PROG, "a wildcard receive across collectives", 1);
}

static void test_cancel(void)
{
    /* A receive from the left neighbour on a tag nobody sends: withdrawn. */
    const int left = (rank + size - 1) % size, right = (rank + 1) % size;
    int never = -1, got = -1, flag = 0, value = rank * 3;
    MPI_Request r;
    MPI_Status st;
    MPI_Irecv(&never, 1, MPI_INT, left, 777, MPI_COMM_WORLD, &r);
    CHECK_RC(MPI_Cancel(&r), "MPI_Cancel");
    MPI_Wait(&r, &st);
    MPI_Test_cancelled(&st, &flag);
    CHECK(flag && never == -1 && r == MPI_REQUEST_NULL, "a cancelled receive completes cancelled, untouched");
    /* A message on that tag afterwards (once every rank has withdrawn its receive) goes to
       the next receive, not the withdrawn one. */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Sendrecv(&value, 1, MPI_INT, right, 777, &got, 1, MPI_INT, left, 777, MPI_COMM_WORLD, &st);
    MPI_Test_cancelled(&st, &flag);
    CHECK(got == left * 3 && !flag, "the next receive gets the message (%d)", got);
    check_section(PROG, "MPI_Cancel of a receive", 1);
}

static void test_request_get_status(void)
{
    const int left = (rank + size - 1) % size, right = (rank + 1) % size;
    int in[3] = {-1, -1, -1}, out[3] = {rank, rank + 1, rank + 2}, flag = 0, count = -1, rc;
    MPI_Request r, null_req = MPI_REQUEST_NULL;
    MPI_Status st, st2;
    MPI_Irecv(in, 3, MPI_INT, left, 55, MPI_COMM_WORLD, &r);
    MPI_Send(out, 3, MPI_INT, right, 55, MPI_COMM_WORLD);
    do /* how many polls it takes is timing's: one check of them all */
        rc = MPI_Request_get_status(r, &flag, &st);
    while (rc == MPI_SUCCESS && !flag);
    CHECK_RC(rc, "MPI_Request_get_status");
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(r != MPI_REQUEST_NULL && st.MPI_SOURCE == left && st.MPI_TAG == 55 && count == 3 && in[2] == left + 2,
          "MPI_Request_get_status: done, the request kept, source %d tag %d count %d", st.MPI_SOURCE, st.MPI_TAG,
          count);
    MPI_Wait(&r, &st2);
    MPI_Get_count(&st2, MPI_INT, &count);
    CHECK(r == MPI_REQUEST_NULL && st2.MPI_SOURCE == left && st2.MPI_TAG == 55 && count == 3,
          "the wait after it gives the same status");
    MPI_Request_get_status(null_req, &flag, &st);
    CHECK(flag && st.MPI_TAG == MPI_ANY_TAG && st.MPI_SOURCE == MPI_ANY_SOURCE,
          "MPI_Request_get_status of MPI_REQUEST_NULL: done, the empty status");
    /* A status filled in by hand, as a generalized request's query function would. */
    MPI_Status_set_elements(&st, MPI_DOUBLE, 5);
    MPI_Get_count(&st, MPI_DOUBLE, &count);
    CHECK(count == 5, "MPI_Status_set_elements(5 doubles): MPI_Get_count %d", count);
    MPI_Get_elements(&st, MPI_DOUBLE, &count);
    CHECK(count == 5, "MPI_Get_elements %d", count);
    MPI_Status_set_cancelled(&st, 1);
    MPI_Test_cancelled(&st, &flag);
    CHECK(flag, "MPI_Status_set_cancelled(1): MPI_Test_cancelled says so");
    MPI_Status_set_cancelled(&st, 0);
    MPI_Test_cancelled(&st, &flag);
    CHECK(!flag, "MPI_Status_set_cancelled(0): not cancelled");
    check_section(PROG, "MPI_Request_get_status and statuses set by hand", 1);
}

static int queried, freed, cancelled;
static int greq_query(void *extra, MPI_Status *st)
{
    queried++;
    MPI_Status_set_elements(st, MPI_INT, *(int *)extra);
    MPI_Status_set_cancelled(st, 0);
    st->MPI_SOURCE = MPI_UNDEFINED;
    st->MPI_TAG = MPI_UNDEFINED;
    return MPI_SUCCESS;
}
static int greq_free(void *extra)
{
    (void)extra;
    freed++;
    return MPI_SUCCESS;
}
static int greq_cancel(void *extra, int complete)
{
    (void)extra;
    cancelled += complete ? 10 : 1;
    return MPI_SUCCESS;
}

static void test_generalized(void)
{
    int n = 7, flag = -1, count = -1;
    MPI_Request r;
    MPI_Status st;
    MPI_Grequest_start(greq_query, greq_free, greq_cancel, &n, &r);
    MPI_Test(&r, &flag, &st);
    CHECK(!flag && r != MPI_REQUEST_NULL, "a generalized request is not done before MPI_Grequest_complete");
    MPI_Grequest_complete(r);
    MPI_Request_get_status(r, &flag, &st);
    CHECK(flag && r != MPI_REQUEST_NULL && queried == 1 && freed == 0,
          "MPI_Request_get_status runs the query function only (queried %d, freed %d)", queried, freed);
    MPI_Wait(&r, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(r == MPI_REQUEST_NULL && count == 7 && st.MPI_TAG == MPI_UNDEFINED && queried == 2 && freed == 1,
          "the wait: the query function's status (count %d), then the free function (queried %d, freed %d)", count,
          queried, freed);
    MPI_Grequest_start(greq_query, greq_free, greq_cancel, &n, &r);
    MPI_Cancel(&r);
    MPI_Grequest_complete(r);
    MPI_Wait(&r, &st);
    CHECK(cancelled == 1 && freed == 2, "MPI_Cancel runs the cancel function, not yet complete (%d)", cancelled);
    check_section(PROG, "generalized requests", 1);
}

static void test_ibarrier_progress(void)
{
    /* A sparse exchange as libraries write it (the NBX algorithm): each rank sends to a few
       others with MPI_Issend, receives whatever arrives, and once its own sends are matched
       enters MPI_Ibarrier, receiving on until the barrier completes. No rank knows how many
       messages it gets: the barrier says when all are in. */
    const int nt = size - 1 < 3 ? size - 1 : 3;
    int k, got = 0, sum = 0, expect = 0, done = 0, entered = 0, flag = 0, in = -1, out[3];
    MPI_Request sends[3], barrier = MPI_REQUEST_NULL;
    MPI_Status st;
    for (k = 0; k < nt; k++) {
        out[k] = rank * 10 + k + 1;
        MPI_Issend(&out[k], 1, MPI_INT, (rank + k + 1) % size, 77, MPI_COMM_WORLD, &sends[k]);
        expect += ((rank - k - 1 + size) % size) * 10 + k + 1;
    }
    while (!done) { /* how many turns it takes is timing's: no check inside */
        MPI_Iprobe(MPI_ANY_SOURCE, 77, MPI_COMM_WORLD, &flag, &st);
        if (flag) {
            MPI_Recv(&in, 1, MPI_INT, st.MPI_SOURCE, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            got++;
            sum += in;
        }
        if (!entered) {
            MPI_Testall(nt, sends, &flag, MPI_STATUSES_IGNORE);
            if (flag) {
                MPI_Ibarrier(MPI_COMM_WORLD, &barrier);
                entered = 1;
            }
        } else {
            MPI_Test(&barrier, &done, MPI_STATUS_IGNORE);
        }
    }
    CHECK(got == nt && sum == expect, "the sparse exchange got %d messages summing to %d (expected %d, %d)", got, sum,
          nt, expect);
    /* Rank 0 enters the barrier, then receives from the last rank, which sends (a
       synchronous send: complete only once matched) before it enters: the barrier must
       not hold rank 0 from that receive. */
    {
        int value = rank + 100, recvd = -1;
        if (rank == 0) {
            MPI_Ibarrier(MPI_COMM_WORLD, &barrier);
            if (size > 1) MPI_Recv(&recvd, 1, MPI_INT, size - 1, 78, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Wait(&barrier, MPI_STATUS_IGNORE);
            CHECK(size == 1 || recvd == size + 99, "rank 0 received %d while in the barrier", recvd);
        } else {
            if (rank == size - 1) MPI_Ssend(&value, 1, MPI_INT, 0, 78, MPI_COMM_WORLD);
            MPI_Ibarrier(MPI_COMM_WORLD, &barrier);
            MPI_Wait(&barrier, MPI_STATUS_IGNORE);
        }
    }
    check_section(PROG, "MPI_Ibarrier while receiving (a sparse exchange)", 1);
}

static void add_ints(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

static void test_ibarrier_under_collectives(void)
{
    /* A barrier started and not yet waited for while the rank runs other collectives on the
       same communicator (a reduce with a user op, a non-blocking allreduce, a dup, a blocking
       reduce): each gets its own messages, whatever the order the ranks progress in. */
    MPI_Comm comm, dup;
    MPI_Op add;
    MPI_Request reqs[2];
    int in[10], out[10], round, it, i;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Op_create(add_ints, 1, &add);
    for (round = 0; round < 12; round++) {
        it = round / 3; /* each kind three times over */
        for (i = 0; i < 10; i++) {
            in[i] = rank + i * it;
            out[i] = -1;
        }
        MPI_Ibarrier(comm, &reqs[0]);
        reqs[1] = MPI_REQUEST_NULL;
        if (it == 0) {
            MPI_Ireduce(in, out, 10, MPI_INT, add, size - 1, comm, &reqs[1]);
        } else if (it == 1) {
            MPI_Iallreduce(in, out, 10, MPI_INT, add, comm, &reqs[1]);
        } else if (it == 2) {
            MPI_Comm_dup(comm, &dup);
            MPI_Allreduce(in, out, 10, MPI_INT, add, dup);
            MPI_Comm_free(&dup);
        } else {
            MPI_Reduce(in, out, 10, MPI_INT, add, 0, comm);
        }
        MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
        if ((it == 0 && rank == size - 1) || it == 1 || it == 2 || (it == 3 && rank == 0))
            for (i = 0; i < 10; i++)
                CHECK(out[i] == size * (size - 1) / 2 + size * i * it, "round %d: element %d is %d", round, i, out[i]);
    }
    MPI_Op_free(&add);
    MPI_Comm_free(&comm);
    check_section(PROG, "MPI_Ibarrier outstanding while other collectives run on its communicator", 1);
}

static void test_started_then_blocking(void)
{
    /* A non-blocking reduction with a user op still going (in coprocessor mode it runs on
       the node's second processor) while the rank runs a blocking one, and a neighbourhood
       exchange, on the same communicator: each gets its own data. */
    MPI_Op add;
    MPI_Request req;
    MPI_Comm ring;
    int a[8], b[8], c[8], d[8], it, i, left = -1, right = -1, dims[1], periods[1] = {1};
    MPI_Op_create(add_ints, 1, &add);
    dims[0] = size;
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
    for (it = 0; it < 5; it++) {
        int nb[2] = {-1, -1}, mine = rank * 7 + it;
        for (i = 0; i < 8; i++) {
            a[i] = rank + i;
            c[i] = 2 * rank + i * it;
        }
        MPI_Iallreduce(a, b, 8, MPI_INT, add, ring, &req);
        MPI_Reduce(c, d, 8, MPI_INT, add, size - 1, ring);
        MPI_Neighbor_allgather(&mine, 1, MPI_INT, nb, 1, MPI_INT, ring);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        for (i = 0; i < 8; i++) {
            CHECK(b[i] == size * (size - 1) / 2 + size * i, "round %d: the allreduce's element %d is %d", it, i, b[i]);
            if (rank == size - 1)
                CHECK(d[i] == size * (size - 1) + size * i * it, "round %d: the reduce's element %d is %d", it, i, d[i]);
        }
        MPI_Cart_shift(ring, 0, 1, &left, &right);
        CHECK(nb[0] == left * 7 + it && nb[1] == right * 7 + it, "round %d: the neighbours sent %d and %d", it, nb[0],
              nb[1]);
    }
    MPI_Comm_free(&ring);
    MPI_Op_free(&add);
    check_section(PROG, "a blocking reduction while a non-blocking one goes on", 1);
}

static void test_type_freed_before_completion(void)
{
    /* MPI lets a program free the datatype of a non-blocking collective as soon as it has
       started it: the collective still completes. (The op and the communicator may be
       freed early too, but Open MPI 4.1, which this output is compared with, crashes.) */
    MPI_Comm dup;
    MPI_Datatype pair;
    MPI_Op add;
    MPI_Request reqs[2];
    int *s = malloc(sizeof(int) * 2 * size), *d = malloc(sizeof(int) * 2 * size), in = rank + 1, sum = 0;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    MPI_Op_create(add_ints, 1, &add);
    for (int j = 0; j < size; j++) {
        s[2 * j] = rank * 100 + j;
        s[2 * j + 1] = -(rank * 100 + j);
    }
    MPI_Ialltoall(s, 1, pair, d, 1, pair, dup, &reqs[0]);
    MPI_Iallreduce(&in, &sum, 1, MPI_INT, add, dup, &reqs[1]);
    MPI_Type_free(&pair);
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    MPI_Op_free(&add);
    MPI_Comm_free(&dup);
    for (int j = 0; j < size; j++)
        CHECK(d[2 * j] == j * 100 + rank && d[2 * j + 1] == -(j * 100 + rank), "block %d is %d, %d", j, d[2 * j],
              d[2 * j + 1]);
    CHECK(sum == size * (size + 1) / 2, "the sum is %d", sum);
    CHECK(pair == MPI_DATATYPE_NULL && add == MPI_OP_NULL && dup == MPI_COMM_NULL, "the handles are null");
    free(s);
    free(d);
    check_section(PROG, "a non-blocking collective's datatype freed before its wait", 1);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    test_waitall();
    test_waitany();
    test_test_loops();
    test_request_free();
    test_issend();
    test_request_null();
    test_wildcard_across_collectives();
    test_cancel();
    test_request_get_status();
    test_generalized();
    test_ibarrier_progress();
    test_ibarrier_under_collectives();
    test_started_then_blocking();
    test_type_freed_before_completion();
    check_report(PROG);
    MPI_Finalize();
    return 0;
}
