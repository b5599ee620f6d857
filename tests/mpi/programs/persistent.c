// SPDX-License-Identifier: Apache-2.0
/*
 * persistent.c - persistent requests as iterative codes use them: a ring exchange set up
 * once with MPI_Send_init/MPI_Recv_init and run five times with MPI_Startall and
 * MPI_Waitall (the send buffer changed between starts), MPI_Ssend_init, MPI_Rsend_init and
 * MPI_Bsend_init (with an attached buffer) started with MPI_Start; an inactive request
 * completing at once with an empty status in MPI_Wait and MPI_Test and counting as null
 * in MPI_Waitany; MPI_Request_free of inactive requests.
 */
#include <stdlib.h>

#include "check.h"

static int rank, size;

static void ring(void) {
    const int to = (rank + 1) % size, from = (rank + size - 1) % size;
    int out[4], in[4];
    MPI_Request reqs[2];
    MPI_Send_init(out, 4, MPI_INT, to, 11, MPI_COMM_WORLD, &reqs[0]);
    MPI_Recv_init(in, 4, MPI_INT, from, 11, MPI_COMM_WORLD, &reqs[1]);
    for (int iter = 0; iter < 5; iter++) {
        for (int i = 0; i < 4; i++) { out[i] = rank * 100 + iter * 10 + i; in[i] = -1; }
        CHECK_RC(MPI_Startall(2, reqs), "MPI_Startall");
        MPI_Status st[2];
        MPI_Waitall(2, reqs, st);
        CHECK(reqs[0] != MPI_REQUEST_NULL && reqs[1] != MPI_REQUEST_NULL, "persistent requests stay after a wait");
        int ok = st[1].MPI_SOURCE == from && st[1].MPI_TAG == 11;
        for (int i = 0; i < 4; i++) ok &= in[i] == from * 100 + iter * 10 + i;
        CHECK(ok, "iteration %d's message", iter);
    }
    /* Inactive now: a wait and a test complete at once, with an empty status. */
    MPI_Status st;
    int flag = 0;
    MPI_Wait(&reqs[1], &st);
    CHECK(st.MPI_SOURCE == MPI_ANY_SOURCE && st.MPI_TAG == MPI_ANY_TAG, "an inactive request's empty status");
    MPI_Test(&reqs[0], &flag, &st);
    CHECK(flag, "an inactive request tests complete");
    MPI_Request_free(&reqs[0]);
    MPI_Request_free(&reqs[1]);
    CHECK(reqs[0] == MPI_REQUEST_NULL && reqs[1] == MPI_REQUEST_NULL, "freed persistent requests are null");
    check_section("persistent", "a ring started five times", 1);
}

static void modes(void) {
    const int to = (rank + 1) % size, from = (rank + size - 1) % size;
    int bufsize = 4 * (100 * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
    char *attached = malloc((size_t)bufsize);
    MPI_Buffer_attach(attached, bufsize);
    int data[100], got[100];
    MPI_Request send, recv, other[2];
    for (int mode = 0; mode < 3; mode++) {
        for (int i = 0; i < 100; i++) { data[i] = rank * 1000 + mode * 100 + i; got[i] = -1; }
        MPI_Recv_init(got, 100, MPI_INT, from, 20 + mode, MPI_COMM_WORLD, &recv);
        if (mode == 0) MPI_Ssend_init(data, 100, MPI_INT, to, 20, MPI_COMM_WORLD, &send);
        if (mode == 1) MPI_Rsend_init(data, 100, MPI_INT, to, 21, MPI_COMM_WORLD, &send);
        if (mode == 2) MPI_Bsend_init(data, 100, MPI_INT, to, 22, MPI_COMM_WORLD, &send);
        MPI_Start(&recv);
        MPI_Barrier(MPI_COMM_WORLD); /* every receive is posted (ready mode needs it) */
        MPI_Start(&send);
        /* Waitany over an inactive request and the two started: the inactive one is skipped. */
        MPI_Request inactive;
        MPI_Send_init(data, 1, MPI_INT, to, 99, MPI_COMM_WORLD, &inactive);
        other[0] = inactive;
        other[1] = recv;
        int index = -1;
        MPI_Waitany(2, other, &index, MPI_STATUS_IGNORE);
        CHECK(index == 1, "MPI_Waitany passes over an inactive request (index %d)", index);
        recv = other[1];
        MPI_Wait(&send, MPI_STATUS_IGNORE);
        int ok = 1;
        for (int i = 0; i < 100; i++) ok &= got[i] == from * 1000 + mode * 100 + i;
        CHECK(ok, "send mode %d delivers", mode);
        MPI_Request_free(&inactive);
        MPI_Request_free(&send);
        MPI_Request_free(&recv);
    }
    void *back;
    int back_size;
    MPI_Buffer_detach(&back, &back_size);
    free(attached);
    check_section("persistent", "synchronous, ready and buffered modes", 1);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    ring();
    modes();
    check_report("persistent");
    MPI_Finalize();
    return 0;
}
