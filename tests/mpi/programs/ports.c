// SPDX-License-Identifier: Apache-2.0
/*
 * ports.c - establishing communication between groups of one job (MPI-3.1 10.4), on 3
 * or more ranks: rank 0 opens a port and publishes it; the even ranks accept on it, the
 * odd ranks look the name up and connect; the intercommunicator's sizes, an allreduce
 * over it (each group gets the other's sum), Intercomm_merge and Comm_disconnect. Then
 * two ports of rank 0 accepted in one order while ranks 1 and 2 connect to them in the
 * other (a request that arrives for the port not yet accepted waits for its accept).
 * Then Comm_join over a socket pair between ranks 0 and 1; Unpublish_name, Lookup_name
 * of a name no longer published (MPI_ERR_NAME), Close_port, and a port name that is not
 * one (MPI_ERR_PORT). Rank 0 prints the port's name.
 */
#include "check.h"
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static const char *PROG = "ports";

int main(int argc, char **argv)
{
    int rank, size, cls;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 3) {
        if (rank == 0)
            printf("%s: needs 3 ranks\n", PROG);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    /* The even ranks accept, the odd ranks connect. */
    MPI_Comm half, inter, merged;
    char port[MPI_MAX_PORT_NAME] = "";
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    if (rank == 0) {
        MPI_Open_port(MPI_INFO_NULL, port);
        MPI_Publish_name("ports-test", MPI_INFO_NULL, port);
        printf("%s: port %s\n", PROG, port);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank % 2 == 0) {
        MPI_Comm_accept(port, MPI_INFO_NULL, 0, half, &inter);
    } else {
        if (rank == 1)
            MPI_Lookup_name("ports-test", MPI_INFO_NULL, port);
        MPI_Comm_connect(port, MPI_INFO_NULL, 0, half, &inter);
    }
    int remote, is_inter, sum = 0, mine = rank, want = 0, merged_rank, evens = (size + 1) / 2;
    MPI_Comm_remote_size(inter, &remote);
    MPI_Comm_test_inter(inter, &is_inter);
    CHECK(is_inter && remote == (rank % 2 ? evens : size - evens), "the intercommunicator's remote size is %d", remote);
    MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, inter);
    for (int r = 0; r < size; r++)
        if (r % 2 != rank % 2)
            want += r;
    CHECK(sum == want, "the allreduce over the intercommunicator gave %d, the other group's sum is %d", sum, want);
    MPI_Intercomm_merge(inter, rank % 2, &merged);
    MPI_Comm_rank(merged, &merged_rank);
    CHECK(merged_rank == (rank % 2 ? evens + rank / 2 : rank / 2), "rank %d of the merged communicator", merged_rank);
    MPI_Comm_disconnect(&inter);
    CHECK(inter == MPI_COMM_NULL, "MPI_Comm_disconnect leaves MPI_COMM_NULL");
    MPI_Comm_free(&merged);
    MPI_Comm_free(&half);
    check_section(PROG, "accept and connect", 1);

    /* Two ports, accepted A then B, while rank 1 connects to B and rank 2 to A. */
    char ports[2][MPI_MAX_PORT_NAME];
    if (rank == 0) {
        MPI_Open_port(MPI_INFO_NULL, ports[0]);
        MPI_Open_port(MPI_INFO_NULL, ports[1]);
        CHECK(strcmp(ports[0], ports[1]) != 0, "two ports have two names");
    }
    MPI_Bcast(ports, sizeof ports, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Comm a, b;
        int from_a = -1, from_b = -1;
        MPI_Comm_accept(ports[0], MPI_INFO_NULL, 0, MPI_COMM_SELF, &a);
        MPI_Comm_accept(ports[1], MPI_INFO_NULL, 0, MPI_COMM_SELF, &b);
        MPI_Recv(&from_a, 1, MPI_INT, 0, 3, a, MPI_STATUS_IGNORE);
        MPI_Recv(&from_b, 1, MPI_INT, 0, 3, b, MPI_STATUS_IGNORE);
        CHECK(from_a == 2 && from_b == 1, "port A joined rank %d, port B rank %d", from_a, from_b);
        MPI_Comm_disconnect(&a);
        MPI_Comm_disconnect(&b);
        MPI_Close_port(ports[0]);
        MPI_Close_port(ports[1]);
    } else if (rank == 1 || rank == 2) {
        MPI_Comm c;
        MPI_Comm_connect(ports[rank == 1 ? 1 : 0], MPI_INFO_NULL, 0, MPI_COMM_SELF, &c);
        MPI_Send(&rank, 1, MPI_INT, 0, 3, c);
        MPI_Comm_disconnect(&c);
    }
    check_section(PROG, "two ports, connected in the other order", 1);

    /* MPI_Comm_join over a socket pair: rank 0 makes it and hands rank 1 its end. */
    if (rank < 2) {
        int sv[2], got = -1, mine2 = rank * 10 + 7;
        if (rank == 0) {
            CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0, "socketpair");
            MPI_Send(&sv[1], 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
        } else {
            MPI_Recv(&sv[1], 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        MPI_Comm joined;
        MPI_Comm_join(rank == 0 ? sv[0] : sv[1], &joined);
        MPI_Comm_remote_size(joined, &remote);
        MPI_Sendrecv(&mine2, 1, MPI_INT, 0, 1, &got, 1, MPI_INT, 0, 1, joined, MPI_STATUS_IGNORE);
        CHECK(remote == 1 && got == (1 - rank) * 10 + 7, "the joined rank sent %d", got);
        MPI_Comm_free(&joined);
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0) {
            close(sv[0]);
            close(sv[1]);
        }
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
    }
    check_section(PROG, "join", 1);

    /* Names and ports that are no more. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0) {
        MPI_Unpublish_name("ports-test", MPI_INFO_NULL, port);
        MPI_Close_port(port);
        MPI_Error_class(MPI_Close_port(port), &cls);
        CHECK(cls == MPI_ERR_PORT, "closing a closed port: class %d", cls);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Error_class(MPI_Lookup_name("ports-test", MPI_INFO_NULL, port), &cls);
    CHECK(cls == MPI_ERR_NAME, "a name no longer published: class %d", cls);
    MPI_Comm bad;
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Error_class(MPI_Comm_connect("no-such-port", MPI_INFO_NULL, 0, MPI_COMM_SELF, &bad), &cls);
    CHECK(cls == MPI_ERR_PORT, "a port name that is not one: class %d", cls);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    check_section(PROG, "names and ports that are no more", 1);

    check_report(PROG);
    MPI_Finalize();
    return 0;
}
