// SPDX-License-Identifier: Apache-2.0
/*
 * errors.c - error handlers and error classes: with MPI_ERRORS_RETURN on
 * MPI_COMM_WORLD (and MPI_COMM_SELF), provoke errors and check the class of
 * the returned code: MPI_ERR_RANK, MPI_ERR_TAG, MPI_ERR_COUNT, MPI_ERR_TYPE,
 * MPI_ERR_COMM, MPI_ERR_ROOT, MPI_ERR_OP, MPI_ERR_TRUNCATE; MPI_Error_string;
 * then restore MPI_ERRORS_ARE_FATAL and check MPI_Comm_get_errhandler; the program's own
 * handlers, classes and codes (MPI_LASTUSEDCODE covering them); errors in completing
 * requests: MPI_ERR_IN_STATUS with each status's error, the handler of the request's
 * communicator; a receive freed before its message comes.
 * Only the names of the checked classes are printed, never the
 * implementation's error strings.
 */
#include "check.h"
#include <string.h>

static const char *PROG = "errors";
static int rank, size;

static void check_class(int rc, int expect, const char *name)
{
    int cls = -1, len = -1;
    char msg[MPI_MAX_ERROR_STRING];
    CHECK(rc != MPI_SUCCESS, "expected %s but the call succeeded", name);
    MPI_Error_class(rc, &cls);
    CHECK(cls == expect, "expected class %s (%d), got class %d (code %d)", name, expect, cls, rc);
    msg[0] = '\0';
    MPI_Error_string(rc, msg, &len);
    CHECK(len > 0 && len < MPI_MAX_ERROR_STRING && (int)strlen(msg) == len, "Error_string length %d for %s",
          len, name);
    if (rank == 0)
        printf("%s: %s ok\n", PROG, name);
}

/* An error handler of the program's own: it counts and records what it saw. */
static int handled, handled_code;
static MPI_Comm handled_comm;
static void counting_handler(MPI_Comm *comm, int *code, ...)
{
    handled++;
    handled_code = *code;
    handled_comm = *comm;
}

static void own_handlers_and_classes(void)
{
    MPI_Errhandler mine, got;
    int buf = 0, rc, cls = -1, code = -1, len = -1;
    char msg[MPI_MAX_ERROR_STRING];
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    CHECK_RC(MPI_Comm_create_errhandler(counting_handler, &mine), "MPI_Comm_create_errhandler");
    CHECK_RC(MPI_Comm_set_errhandler(dup, mine), "MPI_Comm_set_errhandler(mine)");
    MPI_Comm_get_errhandler(dup, &got);
    CHECK(got == mine, "the communicator's handler is the program's");
    rc = MPI_Send(&buf, 1, MPI_INT, size, 0, dup);
    MPI_Error_class(rc, &cls);
    CHECK(handled == 1 && handled_code == rc && handled_comm == dup && cls == MPI_ERR_RANK,
          "the handler ran once with the call's code (%d runs)", handled);
    /* The program's own class, code and strings, and calling the handler. */
    int my_class, my_code;
    CHECK_RC(MPI_Add_error_class(&my_class), "MPI_Add_error_class");
    CHECK_RC(MPI_Add_error_code(my_class, &my_code), "MPI_Add_error_code");
    MPI_Add_error_string(my_class, "a class of the program's");
    MPI_Add_error_string(my_code, "the solver did not converge");
    MPI_Error_class(my_code, &code);
    CHECK(code == my_class, "the code's class is the program's class");
    {
        int *last = NULL, flag = 0;
        MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag);
        CHECK(flag && last && *last >= my_code && *last >= MPI_ERR_LASTCODE,
              "MPI_LASTUSEDCODE covers the program's code (%d)", flag && last ? *last : -1);
    }
    MPI_Error_string(my_code, msg, &len);
    CHECK(strcmp(msg, "the solver did not converge") == 0 && len == (int)strlen(msg), "the code's string: %s", msg);
    MPI_Error_string(my_class, msg, &len);
    CHECK(strcmp(msg, "a class of the program's") == 0, "the class's string: %s", msg);
    CHECK_RC(MPI_Comm_call_errhandler(dup, my_code), "MPI_Comm_call_errhandler");
    CHECK(handled == 2 && handled_code == my_code, "MPI_Comm_call_errhandler ran the handler");
    /* A code of the program's in a predefined class. */
    int arg_code = -1;
    CHECK_RC(MPI_Add_error_code(MPI_ERR_ARG, &arg_code), "MPI_Add_error_code(MPI_ERR_ARG)");
    MPI_Add_error_string(arg_code, "an argument of the solver's is wrong");
    MPI_Error_class(arg_code, &code);
    MPI_Error_string(arg_code, msg, &len);
    CHECK(code == MPI_ERR_ARG && arg_code != MPI_ERR_ARG && strcmp(msg, "an argument of the solver's is wrong") == 0,
          "a code of MPI_ERR_ARG's: class %d, string %s", code, msg);
    MPI_Errhandler_free(&mine);
    CHECK(mine == MPI_ERRHANDLER_NULL, "a freed handler is MPI_ERRHANDLER_NULL");
    MPI_Comm_free(&dup);
    check_section(PROG, "the program's handlers, classes and codes", 1);
}

static int class_of(int code)
{
    int cls = -1;
    MPI_Error_class(code, &cls);
    return cls;
}

/* A truncated receive on a duplicate whose handler is MPI_ERRORS_RETURN (the world's stays
   fatal: the error goes to the request's communicator) returns from MPI_Wait with its
   status naming the message, and from MPI_Waitall, MPI_Testall and MPI_Waitsome as
   MPI_ERR_IN_STATUS, each status's MPI_ERROR its request's; both requests are done with.
   Between two ranks: Open MPI does not report a truncation on a rank's message to itself. */
static void completion_errors(void)
{
    if (size == 1) {
        check_section(PROG, "errors completing requests", 0);
        return;
    }
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    const int to = (rank + 1) % size, from = (rank + size - 1) % size;
    int out[4] = {1, 2, 3, 4}, a[4], b[2];
    for (int way = 0; way < 4; way++) {
        MPI_Request q[2];
        MPI_Status st[2];
        int rc = MPI_SUCCESS, flag = 0, n = 0, idx[2], in_status = 0, done = 0;
        MPI_Irecv(a, 4, MPI_INT, from, 1, dup, &q[0]);
        MPI_Irecv(b, 2, MPI_INT, from, 2, dup, &q[1]);
        MPI_Send(out, 4, MPI_INT, to, 1, dup);
        MPI_Send(out, 4, MPI_INT, to, 2, dup); /* four ints for two: truncated */
        st[0].MPI_ERROR = st[1].MPI_ERROR = -1;
        if (way == 0) {
            rc = MPI_Wait(&q[1], &st[1]);
            CHECK(class_of(rc) == MPI_ERR_TRUNCATE, "MPI_Wait of the truncated receive: class %d", class_of(rc));
            CHECK(st[1].MPI_SOURCE == from && st[1].MPI_TAG == 2, "its status names source %d tag %d",
                  st[1].MPI_SOURCE, st[1].MPI_TAG);
            CHECK_RC(MPI_Wait(&q[0], &st[0]), "MPI_Wait of the other");
            continue;
        }
        if (way == 1)
            rc = MPI_Waitall(2, q, st);
        while (way == 2 && rc == MPI_SUCCESS && !flag)
            rc = MPI_Testall(2, q, &flag, st);
        while (way == 3 && done < 2) {
            MPI_Status some[2];
            rc = MPI_Waitsome(2, q, &n, idx, some);
            for (int k = 0; k < n; k++)
                st[idx[k]] = some[k];
            done += n;
            in_status += rc == MPI_ERR_IN_STATUS;
        }
        CHECK(way == 3 ? in_status == 1 : rc == MPI_ERR_IN_STATUS, "way %d: MPI_ERR_IN_STATUS (%d)", way, rc);
        CHECK(class_of(st[0].MPI_ERROR) == MPI_SUCCESS && class_of(st[1].MPI_ERROR) == MPI_ERR_TRUNCATE,
              "way %d: the statuses' errors are classes %d and %d", way, class_of(st[0].MPI_ERROR),
              class_of(st[1].MPI_ERROR));
        CHECK(q[0] == MPI_REQUEST_NULL && q[1] == MPI_REQUEST_NULL, "way %d: both requests are done with", way);
    }
    /* A receive freed before its message comes takes it all the same (its sender's next
       message, received after, came after it). */
    MPI_Request q;
    int got = -1, next = -1;
    MPI_Irecv(&got, 1, MPI_INT, from, 3, dup, &q);
    CHECK(MPI_Request_free(&q) == MPI_SUCCESS && q == MPI_REQUEST_NULL, "MPI_Request_free of a pending receive");
    MPI_Send(&rank, 1, MPI_INT, to, 3, dup);
    MPI_Send(&rank, 1, MPI_INT, to, 4, dup);
    MPI_Recv(&next, 1, MPI_INT, from, 4, dup, MPI_STATUS_IGNORE);
    CHECK(got == from && next == from, "the freed receive got %d", got);
    MPI_Comm_free(&dup);
    check_section(PROG, "errors completing requests", 1);
}

int main(int argc, char **argv)
{
    int buf[10], rc, i, cls = -1, len = -1;
    char msg[MPI_MAX_ERROR_STRING];
    MPI_Errhandler eh;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (i = 0; i < 10; i++)
        buf[i] = rank + i;

    rc = MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK_RC(rc, "MPI_Comm_set_errhandler(WORLD)");
    rc = MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    CHECK_RC(rc, "MPI_Comm_set_errhandler(SELF)");
    rc = MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
    CHECK(rc == MPI_SUCCESS && eh == MPI_ERRORS_RETURN, "get_errhandler after set: not MPI_ERRORS_RETURN");
    check_section(PROG, "set MPI_ERRORS_RETURN", 1);

    /* MPI_SUCCESS itself */
    MPI_Error_class(MPI_SUCCESS, &cls);
    CHECK(cls == MPI_SUCCESS, "class of MPI_SUCCESS is %d", cls);
    MPI_Error_string(MPI_SUCCESS, msg, &len);
    CHECK(len > 0 && len < MPI_MAX_ERROR_STRING, "Error_string(MPI_SUCCESS) length %d", len);
    /* a class is its own class */
    MPI_Error_class(MPI_ERR_TRUNCATE, &cls);
    CHECK(cls == MPI_ERR_TRUNCATE, "class of MPI_ERR_TRUNCATE is %d", cls);

    rc = MPI_Send(buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
    check_class(rc, MPI_ERR_RANK, "MPI_ERR_RANK");
    rc = MPI_Send(buf, 1, MPI_INT, rank, -5, MPI_COMM_WORLD);
    check_class(rc, MPI_ERR_TAG, "MPI_ERR_TAG");
    rc = MPI_Send(buf, -1, MPI_INT, rank, 0, MPI_COMM_WORLD);
    check_class(rc, MPI_ERR_COUNT, "MPI_ERR_COUNT");
    rc = MPI_Send(buf, 1, MPI_DATATYPE_NULL, rank, 0, MPI_COMM_WORLD);
    check_class(rc, MPI_ERR_TYPE, "MPI_ERR_TYPE");
    rc = MPI_Send(buf, 1, MPI_INT, 0, 0, MPI_COMM_NULL);
    check_class(rc, MPI_ERR_COMM, "MPI_ERR_COMM");
    rc = MPI_Bcast(buf, 1, MPI_INT, size, MPI_COMM_WORLD);
    check_class(rc, MPI_ERR_ROOT, "MPI_ERR_ROOT");
    rc = MPI_Allreduce(buf, buf + 5, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD);
    check_class(rc, MPI_ERR_OP, "MPI_ERR_OP");

    /* truncation: 10 ints sent to self, receive buffer of 5 */
    {
        MPI_Request req;
        int out[10], in[5];
        for (i = 0; i < 10; i++)
            out[i] = rank * 10 + i;
        MPI_Isend(out, 10, MPI_INT, rank, 77, MPI_COMM_WORLD, &req);
        rc = MPI_Recv(in, 5, MPI_INT, rank, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        check_class(rc, MPI_ERR_TRUNCATE, "MPI_ERR_TRUNCATE");
        rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
        CHECK_RC(rc, "MPI_Wait of the truncated isend");
    }
    check_section(PROG, "error classes", 1);

    /* the communicator still works after the errors */
    {
        int sum = -1;
        rc = MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        CHECK(rc == MPI_SUCCESS && sum == size * (size - 1) / 2, "allreduce after errors gave %d", sum);
    }
    check_section(PROG, "communicator usable after errors", 1);

    rc = MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    CHECK_RC(rc, "MPI_Comm_set_errhandler(ERRORS_ARE_FATAL)");
    rc = MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
    CHECK_RC(rc, "MPI_Comm_set_errhandler(SELF, ERRORS_ARE_FATAL)");
    rc = MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
    CHECK(rc == MPI_SUCCESS && eh == MPI_ERRORS_ARE_FATAL, "get_errhandler: not MPI_ERRORS_ARE_FATAL");
    check_section(PROG, "restore MPI_ERRORS_ARE_FATAL", 1);

    own_handlers_and_classes();
    completion_errors();
    check_report(PROG);
    MPI_Finalize();
    return 0;
}
