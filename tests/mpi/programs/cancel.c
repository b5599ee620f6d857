// SPDX-License-Identifier: Apache-2.0
/*
 * cancel.c - MPI_Cancel of sends that no receive has matched: each one is withdrawn
 * (MPI_Test_cancelled true) and never delivered, while a later message of the same
 * envelope is; a send already received completes as sent (MPI_Test_cancelled false).
 * Eager (short) and rendezvous (long) sends, MPI_Issend, MPI_Ibsend (its buffer space is
 * free again), a persistent send started, cancelled and started again, and two sends of
 * one envelope of which the first is cancelled (the receive gets the second's data).
 * Rank r sends to rank (r + 1) % size, which posts nothing until the cancel is complete.
 * Open MPI withdraws no send (the standard lets a cancel fail), so this program is not
 * compared with it; the same run with several tasks per node covers sends within a node.
 */
#include <stdlib.h>

#include "check.h"

#define LONG_BYTES (64 * 1024) /* rendezvous */
#define SHORT_INTS 10          /* eager */

static int rank, size, to, from;

/* Nothing with `tag` from `from` is waiting for this rank. */
static void nothing_waiting(int tag, const char *what) {
    int flag = 1;
    MPI_Iprobe(from, tag, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    CHECK(!flag, "%s: the cancelled message was delivered anyway", what);
}

/* The send `req` (started by the caller) is cancelled, then a second message of the same
   envelope goes and is received. */
static void withdrawn(MPI_Request *req, int tag, const char *what, int ints) {
    MPI_Status st;
    int flag = 0;
    CHECK_RC(MPI_Cancel(req), "MPI_Cancel");
    CHECK_RC(MPI_Wait(req, &st), "MPI_Wait");
    MPI_Test_cancelled(&st, &flag);
    CHECK(flag, "%s: the send was not cancelled", what);
    CHECK(*req == MPI_REQUEST_NULL, "%s: the request is freed", what);
    MPI_Barrier(MPI_COMM_WORLD); /* every cancel is complete */
    nothing_waiting(tag, what);
    MPI_Barrier(MPI_COMM_WORLD);
    int *out = malloc(sizeof(int) * (size_t)ints), *in = malloc(sizeof(int) * (size_t)ints);
    for (int i = 0; i < ints; ++i) out[i] = 1000 * rank + i + 7;
    MPI_Request r;
    MPI_Irecv(in, ints, MPI_INT, from, tag, MPI_COMM_WORLD, &r);
    MPI_Send(out, ints, MPI_INT, to, tag, MPI_COMM_WORLD);
    MPI_Wait(&r, &st);
    int count = -1;
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == ints && in[0] == 1000 * from + 7 && in[ints - 1] == 1000 * from + ints - 1 + 7,
          "%s: the next message of the envelope arrives whole (%d ints, first %d)", what, count, in[0]);
    free(out);
    free(in);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    to = (rank + 1) % size;
    from = (rank + size - 1) % size;
    int *data = calloc(LONG_BYTES / sizeof(int), sizeof(int));
    MPI_Request req;

    /* Eager and rendezvous sends no receive has matched. */
    MPI_Isend(data, SHORT_INTS, MPI_INT, to, 1, MPI_COMM_WORLD, &req);
    withdrawn(&req, 1, "eager Isend", SHORT_INTS);
    MPI_Isend(data, LONG_BYTES / (int)sizeof(int), MPI_INT, to, 2, MPI_COMM_WORLD, &req);
    withdrawn(&req, 2, "rendezvous Isend", LONG_BYTES / (int)sizeof(int));
    MPI_Issend(data, SHORT_INTS, MPI_INT, to, 3, MPI_COMM_WORLD, &req);
    withdrawn(&req, 3, "Issend", SHORT_INTS);
    check_section("cancel", "Isend and Issend withdrawn", 1);

    /* Buffered: the cancelled send's space in the attached buffer is free again. */
    int bsize = 2 * (SHORT_INTS * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
    void *buffer = malloc((size_t)bsize);
    MPI_Buffer_attach(buffer, bsize);
    MPI_Ibsend(data, SHORT_INTS, MPI_INT, to, 4, MPI_COMM_WORLD, &req);
    withdrawn(&req, 4, "Ibsend", SHORT_INTS);
    int rc = MPI_Bsend(data, SHORT_INTS, MPI_INT, to, 5, MPI_COMM_WORLD);
    CHECK_RC(rc, "a Bsend after the cancelled Ibsend");
    MPI_Recv(data, SHORT_INTS, MPI_INT, from, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int detached_size;
    MPI_Buffer_detach(&buffer, &detached_size);
    free(buffer);
    check_section("cancel", "Ibsend withdrawn, its buffer space free", 1);

    /* Persistent: started, cancelled, started again and received. */
    int value = 40 + rank, got = -1;
    MPI_Send_init(&value, 1, MPI_INT, to, 6, MPI_COMM_WORLD, &req);
    MPI_Start(&req);
    MPI_Cancel(&req);
    MPI_Status st;
    MPI_Wait(&req, &st);
    int flag = 0;
    MPI_Test_cancelled(&st, &flag);
    CHECK(flag, "a started persistent send is cancelled");
    CHECK(req != MPI_REQUEST_NULL, "the persistent request stays, inactive");
    MPI_Barrier(MPI_COMM_WORLD);
    nothing_waiting(6, "persistent send");
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Start(&req);
    MPI_Recv(&got, 1, MPI_INT, from, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(got == 40 + from, "the persistent send started again arrives (%d)", got);
    MPI_Request_free(&req);
    check_section("cancel", "a persistent send withdrawn and started again", 1);

    /* Two sends of one envelope: the first withdrawn, the receive gets the second. */
    int first = 100 + rank, second = 200 + rank;
    MPI_Request reqs[2];
    MPI_Isend(&first, 1, MPI_INT, to, 7, MPI_COMM_WORLD, &reqs[0]);
    MPI_Isend(&second, 1, MPI_INT, to, 7, MPI_COMM_WORLD, &reqs[1]);
    MPI_Cancel(&reqs[0]);
    MPI_Wait(&reqs[0], &st);
    MPI_Test_cancelled(&st, &flag);
    CHECK(flag, "the first of two sends of one envelope is cancelled");
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Recv(&got, 1, MPI_INT, from, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(got == 200 + from, "the receive gets the second send's %d, not the cancelled first's", got);
    MPI_Wait(&reqs[1], &st);
    MPI_Test_cancelled(&st, &flag);
    CHECK(!flag, "the second send is not cancelled");
    nothing_waiting(7, "one envelope twice");
    check_section("cancel", "the first of two sends of one envelope withdrawn", 1);

    /* A send already received is not withdrawn. */
    MPI_Request recv;
    MPI_Irecv(&got, 1, MPI_INT, from, 8, MPI_COMM_WORLD, &recv);
    MPI_Barrier(MPI_COMM_WORLD); /* every receive is posted */
    MPI_Isend(&value, 1, MPI_INT, to, 8, MPI_COMM_WORLD, &req);
    MPI_Wait(&recv, MPI_STATUS_IGNORE); /* this rank's receive is matched */
    MPI_Barrier(MPI_COMM_WORLD);        /* and so is every rank's send */
    MPI_Cancel(&req);
    MPI_Wait(&req, &st);
    MPI_Test_cancelled(&st, &flag);
    CHECK(!flag, "a send already received is not cancelled");
    CHECK(got == 40 + from, "and its data arrived (%d)", got);
    check_section("cancel", "a received send completes as sent", 1);

    free(data);
    check_report("cancel");
    MPI_Finalize();
    return 0;
}
