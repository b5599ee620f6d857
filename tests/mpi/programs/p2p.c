// SPDX-License-Identifier: Apache-2.0
/*
 * p2p.c - blocking point-to-point: typed send/recv of several sizes, ring,
 * ANY_SOURCE/ANY_TAG with status checks, non-overtaking order, MPI_PROC_NULL,
 * Ssend, Rsend, Bsend, Sendrecv, Sendrecv_replace, messages to self.
 */
#include "check.h"
#include <stdlib.h>
#include <string.h>

static const char *PROG = "p2p";
static int rank, size;

/* ---- element kinds used by the typed test ---- */
enum { K_CHAR, K_SHORT, K_INT, K_LONG_LONG, K_FLOAT, K_DOUBLE, K_UINT8, NKINDS };

static MPI_Datatype kind_type(int k)
{
    switch (k) {
    case K_CHAR: return MPI_CHAR;
    case K_SHORT: return MPI_SHORT;
    case K_INT: return MPI_INT;
    case K_LONG_LONG: return MPI_LONG_LONG;
    case K_FLOAT: return MPI_FLOAT;
    case K_DOUBLE: return MPI_DOUBLE;
    default: return MPI_UINT8_T;
    }
}

/* value of element i of a message of kind k sent by rank s (exact in every kind) */
static double kind_val(int k, int s, int i)
{
    int v = (s * 31 + i * 7 + k) % 101 - 50;   /* -50..50 */
    if (k == K_UINT8)
        return v + 50;
    if (k == K_FLOAT || k == K_DOUBLE)
        return v + 0.5;
    if (k == K_LONG_LONG)
        return (double)v * 1000000000.0;     /* needs 64 bits, still exact */
    return v;
}

static void kind_set(int k, void *buf, int i, double v)
{
    switch (k) {
    case K_CHAR: ((char *)buf)[i] = (char)v; break;
    case K_SHORT: ((short *)buf)[i] = (short)v; break;
    case K_INT: ((int *)buf)[i] = (int)v; break;
    case K_LONG_LONG: ((long long *)buf)[i] = (long long)v; break;
    case K_FLOAT: ((float *)buf)[i] = (float)v; break;
    case K_DOUBLE: ((double *)buf)[i] = v; break;
    default: ((unsigned char *)buf)[i] = (unsigned char)v; break;
    }
}

static double kind_get(int k, const void *buf, int i)
{
    switch (k) {
    case K_CHAR: return ((const char *)buf)[i];
    case K_SHORT: return ((const short *)buf)[i];
    case K_INT: return ((const int *)buf)[i];
    case K_LONG_LONG: return (double)((const long long *)buf)[i];
    case K_FLOAT: return ((const float *)buf)[i];
    case K_DOUBLE: return ((const double *)buf)[i];
    default: return ((const unsigned char *)buf)[i];
    }
}

/* partner in pairs (0,1), (2,3), ...; -1 for the last rank of an odd size */
static int pair_partner(void)
{
    int p = (rank % 2 == 0) ? rank + 1 : rank - 1;
    return p < size ? p : -1;
}

static void test_typed(void)
{
    static const int counts[4] = {0, 1, 100, 10000};
    int partner = pair_partner();
    if (partner >= 0) {
        void *buf = malloc(10005 * sizeof(double));
        int k, c;
        for (k = 0; k < NKINDS; k++) {
            for (c = 0; c < 4; c++) {
                int n = counts[c], tag = k * 10 + c, i, got = -1, bad = -1;
                int rcount = n + (k % 2) * 5; /* sometimes a larger receive buffer */
                MPI_Status st;
                for (i = 0; i < n; i++)
                    kind_set(k, buf, i, kind_val(k, rank, i));
                if (rank % 2 == 0)
                    MPI_Send(buf, n, kind_type(k), partner, tag, MPI_COMM_WORLD);
                memset(buf, 0x5a, 10005 * sizeof(double));
                MPI_Recv(buf, rcount, kind_type(k), partner, tag, MPI_COMM_WORLD, &st);
                MPI_Get_count(&st, kind_type(k), &got);
                CHECK(st.MPI_SOURCE == partner && st.MPI_TAG == tag,
                      "status source %d tag %d, expected %d %d", st.MPI_SOURCE, st.MPI_TAG, partner, tag);
                CHECK(got == n, "kind %d: Get_count %d expected %d", k, got, n);
                for (i = 0; i < n; i++)
                    if (kind_get(k, buf, i) != kind_val(k, partner, i)) {
                        bad = i;
                        break;
                    }
                CHECK(bad < 0, "kind %d count %d: element %d is %g expected %g", k, n, bad,
                      bad < 0 ? 0.0 : kind_get(k, buf, bad), bad < 0 ? 0.0 : kind_val(k, partner, bad));
                if (rank % 2 == 1) {
                    for (i = 0; i < n; i++)
                        kind_set(k, buf, i, kind_val(k, rank, i));
                    MPI_Send(buf, n, kind_type(k), partner, tag, MPI_COMM_WORLD);
                }
            }
        }
        free(buf);
    }
    check_section(PROG, "typed send/recv 0/1/100/10000 elements", size >= 2);
}

/* ring: rank 0 sends first, the others receive first and pass on */
static void test_ring(void)
{
    if (size >= 2) {
        int right = (rank + 1) % size, left = (rank + size - 1) % size;
        int out[3], in[3] = {-1, -1, -1};
        MPI_Status st;
        out[0] = rank;
        out[1] = rank * 2;
        out[2] = -rank;
        if (rank == 0) {
            MPI_Send(out, 3, MPI_INT, right, 20, MPI_COMM_WORLD);
            MPI_Recv(in, 3, MPI_INT, left, 20, MPI_COMM_WORLD, &st);
        } else {
            MPI_Recv(in, 3, MPI_INT, left, 20, MPI_COMM_WORLD, &st);
            MPI_Send(out, 3, MPI_INT, right, 20, MPI_COMM_WORLD);
        }
        CHECK(in[0] == left && in[1] == 2 * left && in[2] == -left, "ring got %d %d %d from %d",
              in[0], in[1], in[2], left);
        CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 20, "ring status %d %d", st.MPI_SOURCE, st.MPI_TAG);
    }
    check_section(PROG, "ring", size >= 2);
}

/* rank 0 receives one message from every other rank with ANY_SOURCE/ANY_TAG */
static void test_any_source(void)
{
    if (size >= 2) {
        if (rank == 0) {
            char *seen = calloc((size_t)size, 1);
            int i, j, buf[8];
            for (i = 1; i < size; i++) {
                MPI_Status st;
                int src, got = -1, bad = -1;
                for (j = 0; j < 8; j++)
                    buf[j] = -1;
                MPI_Recv(buf, 8, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
                src = st.MPI_SOURCE;
                CHECK(src >= 1 && src < size && !seen[src], "unexpected or repeated source %d", src);
                seen[src] = 1;
                CHECK(st.MPI_TAG == 100 + src, "tag %d from %d", st.MPI_TAG, src);
                MPI_Get_count(&st, MPI_INT, &got);
                CHECK(got == src % 4 + 1, "count %d from %d", got, src);
                for (j = 0; j < src % 4 + 1; j++)
                    if (buf[j] != src * 10 + j)
                        bad = j;
                CHECK(bad < 0, "payload from %d wrong at %d", src, bad);
            }
            free(seen);
        } else {
            int j, buf[8];
            for (j = 0; j < 8; j++)
                buf[j] = rank * 10 + j;
            MPI_Send(buf, rank % 4 + 1, MPI_INT, 0, 100 + rank, MPI_COMM_WORLD);
        }
    }
    check_section(PROG, "any source / any tag", size >= 2);
}

/* messages from one sender on one communicator are matched in order */
static void test_order(void)
{
    int sender = size >= 2 ? 1 : 0;
    MPI_Request reqs[22];
    static int payload[20];
    int *big = NULL;
    static int small = 222;
    int i;
    if (rank == sender) {
        big = malloc(5000 * sizeof(int));
        for (i = 0; i < 5000; i++)
            big[i] = 111 + i;
        for (i = 0; i < 20; i++) {
            payload[i] = i;
            MPI_Isend(&payload[i], 1, MPI_INT, 0, (i % 2 == 0) ? 5 : 6, MPI_COMM_WORLD, &reqs[i]);
        }
        /* a large message then a small one with the same tag */
        MPI_Isend(big, 5000, MPI_INT, 0, 9, MPI_COMM_WORLD, &reqs[20]);
        MPI_Isend(&small, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, &reqs[21]);
    }
    if (rank == 0) {
        int v, got;
        int *rbuf = malloc(5000 * sizeof(int));
        MPI_Status st;
        for (i = 0; i < 10; i++) {
            v = -1;
            MPI_Recv(&v, 1, MPI_INT, sender, 6, MPI_COMM_WORLD, &st);
            CHECK(v == 2 * i + 1, "tag 6 message %d carries %d", i, v);
        }
        for (i = 0; i < 10; i++) {
            v = -1;
            MPI_Recv(&v, 1, MPI_INT, sender, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            CHECK(v == 2 * i && st.MPI_TAG == 5, "any-tag message %d carries %d tag %d", i, v, st.MPI_TAG);
        }
        MPI_Recv(rbuf, 5000, MPI_INT, sender, 9, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_INT, &got);
        CHECK(got == 5000 && rbuf[0] == 111 && rbuf[4999] == 111 + 4999,
              "large message overtaken: count %d first %d", got, rbuf[0]);
        MPI_Recv(rbuf, 5000, MPI_INT, sender, 9, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_INT, &got);
        CHECK(got == 1 && rbuf[0] == 222, "small message: count %d value %d", got, rbuf[0]);
        free(rbuf);
    }
    if (rank == sender) {
        MPI_Waitall(22, reqs, MPI_STATUSES_IGNORE);
        free(big);
    }
    check_section(PROG, "non-overtaking order", 1);
}

static void test_proc_null(void)
{
    int out[3] = {1, 2, 3}, in[3] = {7, 7, 7}, rc, got = -1;
    MPI_Status st;
    rc = MPI_Send(out, 3, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD);
    CHECK_RC(rc, "MPI_Send to MPI_PROC_NULL");
    rc = MPI_Recv(in, 3, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &st);
    CHECK_RC(rc, "MPI_Recv from MPI_PROC_NULL");
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL, "source %d", st.MPI_SOURCE);
    CHECK(st.MPI_TAG == MPI_ANY_TAG, "tag %d", st.MPI_TAG);
    MPI_Get_count(&st, MPI_INT, &got);
    CHECK(got == 0, "count %d", got);
    CHECK(in[0] == 7 && in[1] == 7 && in[2] == 7, "receive buffer modified");
    rc = MPI_Sendrecv(out, 3, MPI_INT, MPI_PROC_NULL, 2, in, 3, MPI_INT, MPI_PROC_NULL, 2,
                      MPI_COMM_WORLD, &st);
    CHECK_RC(rc, "MPI_Sendrecv with MPI_PROC_NULL");
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG, "sendrecv status %d %d",
          st.MPI_SOURCE, st.MPI_TAG);
    CHECK(in[0] == 7, "sendrecv modified the buffer");
    check_section(PROG, "proc null", 1);
}

static void test_ssend(void)
{
    int partner = pair_partner();
    if (partner >= 0) {
        static const int counts[2] = {50, 20000};
        int *buf = malloc(20000 * sizeof(int));
        int c, i, bad;
        for (c = 0; c < 2; c++) {
            int n = counts[c];
            if (rank % 2 == 0) {
                for (i = 0; i < n; i++)
                    buf[i] = rank + i;
                MPI_Ssend(buf, n, MPI_INT, partner, 40 + c, MPI_COMM_WORLD);
            }
            for (i = 0; i < n; i++)
                buf[i] = -1;
            MPI_Recv(buf, n, MPI_INT, partner, 40 + c, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            bad = -1;
            for (i = 0; i < n; i++)
                if (buf[i] != partner + i) {
                    bad = i;
                    break;
                }
            CHECK(bad < 0, "ssend count %d: element %d wrong", n, bad);
            if (rank % 2 == 1) {
                for (i = 0; i < n; i++)
                    buf[i] = rank + i;
                MPI_Ssend(buf, n, MPI_INT, partner, 40 + c, MPI_COMM_WORLD);
            }
        }
        free(buf);
    }
    check_section(PROG, "ssend", size >= 2);
}

/* Rsend after the matching receive is known to be posted (Irecv, Barrier, Rsend) */
static void test_rsend(void)
{
    int partner = rank ^ 1;
    int out[16], in[16], i, bad = -1;
    MPI_Request req;
    if (partner >= size)
        partner = rank; /* last rank of an odd size talks to itself */
    for (i = 0; i < 16; i++) {
        out[i] = rank * 16 + i;
        in[i] = -1;
    }
    MPI_Irecv(in, 16, MPI_INT, partner, 50, MPI_COMM_WORLD, &req);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Rsend(out, 16, MPI_INT, partner, 50, MPI_COMM_WORLD);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    for (i = 0; i < 16; i++)
        if (in[i] != partner * 16 + i)
            bad = i;
    CHECK(bad < 0, "rsend payload wrong at %d", bad);
    check_section(PROG, "rsend", 1);
}

/* Bsend three messages around the ring (to self when size == 1) */
static void test_bsend(void)
{
    static const int counts[3] = {100, 1, 3000};
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int bufsize = 0, c, i, dsize = -1;
    char *attach;
    void *detached = NULL;
    int *out[3], *in = malloc(3000 * sizeof(int));
    for (c = 0; c < 3; c++)
        bufsize += counts[c] * (int)sizeof(int) + MPI_BSEND_OVERHEAD;
    attach = malloc((size_t)bufsize);
    MPI_Buffer_attach(attach, bufsize);
    for (c = 0; c < 3; c++) {
        out[c] = malloc((size_t)counts[c] * sizeof(int));
        for (i = 0; i < counts[c]; i++)
            out[c][i] = rank * 7 + c + i;
        MPI_Bsend(out[c], counts[c], MPI_INT, right, 60 + c, MPI_COMM_WORLD);
    }
    /* buffered sends are complete: the user buffers may be reused at once */
    for (c = 0; c < 3; c++) {
        for (i = 0; i < counts[c]; i++)
            out[c][i] = -2;
    }
    for (c = 0; c < 3; c++) {
        int got = -1, bad = -1;
        MPI_Status st;
        MPI_Recv(in, 3000, MPI_INT, left, 60 + c, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_INT, &got);
        CHECK(got == counts[c], "bsend message %d count %d", c, got);
        for (i = 0; i < counts[c]; i++)
            if (in[i] != left * 7 + c + i) {
                bad = i;
                break;
            }
        CHECK(bad < 0, "bsend message %d wrong at %d", c, bad);
    }
    MPI_Buffer_detach(&detached, &dsize);
    CHECK(detached == (void *)attach, "detach returned another buffer");
    CHECK(dsize == bufsize, "detach size %d expected %d", dsize, bufsize);
    for (c = 0; c < 3; c++)
        free(out[c]);
    free(in);
    free(attach);
    check_section(PROG, "bsend", 1);
}

static void test_sendrecv(void)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int out[10], in[12], buf[64], i, bad = -1, got = -1;
    MPI_Status st;
    for (i = 0; i < 10; i++)
        out[i] = rank * 10 + i;
    for (i = 0; i < 12; i++)
        in[i] = -1;
    MPI_Sendrecv(out, 10, MPI_INT, right, 70, in, 12, MPI_INT, left, 70, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_INT, &got);
    CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 70 && got == 10, "sendrecv status %d %d %d",
          st.MPI_SOURCE, st.MPI_TAG, got);
    for (i = 0; i < 10; i++)
        if (in[i] != left * 10 + i)
            bad = i;
    CHECK(bad < 0 && in[10] == -1, "sendrecv payload wrong at %d", bad);

    for (i = 0; i < 64; i++)
        buf[i] = rank * 100 + i;
    MPI_Sendrecv_replace(buf, 64, MPI_INT, right, 71, left, 71, MPI_COMM_WORLD, &st);
    bad = -1;
    for (i = 0; i < 64; i++)
        if (buf[i] != left * 100 + i)
            bad = i;
    CHECK(bad < 0, "sendrecv_replace payload wrong at %d", bad);
    CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 71, "sendrecv_replace status %d %d", st.MPI_SOURCE,
          st.MPI_TAG);
    check_section(PROG, "sendrecv and sendrecv_replace ring", 1);
}

static void test_self(void)
{
    int out[10], in[10], i, bad = -1;
    int *big = malloc(5000 * sizeof(int)), *rbig = malloc(5000 * sizeof(int));
    MPI_Request req;
    MPI_Status st;
    for (i = 0; i < 10; i++) {
        out[i] = rank + i;
        in[i] = -1;
    }
    MPI_Sendrecv(out, 10, MPI_INT, rank, 80, in, 10, MPI_INT, rank, 80, MPI_COMM_WORLD, &st);
    for (i = 0; i < 10; i++)
        if (in[i] != rank + i)
            bad = i;
    CHECK(bad < 0 && st.MPI_SOURCE == rank, "sendrecv to self wrong at %d", bad);

    for (i = 0; i < 5000; i++) {
        big[i] = i * 3 + rank;
        rbig[i] = -1;
    }
    MPI_Isend(big, 5000, MPI_INT, rank, 81, MPI_COMM_WORLD, &req);
    MPI_Recv(rbig, 5000, MPI_INT, rank, 81, MPI_COMM_WORLD, &st);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    bad = -1;
    for (i = 0; i < 5000; i++)
        if (rbig[i] != i * 3 + rank) {
            bad = i;
            break;
        }
    CHECK(bad < 0, "isend/recv to self wrong at %d", bad);
    CHECK(st.MPI_SOURCE == rank && st.MPI_TAG == 81, "self status %d %d", st.MPI_SOURCE, st.MPI_TAG);
    /* also through MPI_COMM_SELF */
    in[0] = -1;
    MPI_Sendrecv(out, 1, MPI_INT, 0, 82, in, 1, MPI_INT, 0, 82, MPI_COMM_SELF, &st);
    CHECK(in[0] == rank && st.MPI_SOURCE == 0, "COMM_SELF sendrecv gave %d from %d", in[0], st.MPI_SOURCE);
    free(big);
    free(rbig);
    check_section(PROG, "message to self", 1);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    test_typed();
    test_ring();
    test_any_source();
    test_order();
    test_proc_null();
    test_ssend();
    test_rsend();
    test_bsend();
    test_sendrecv();
    test_self();
    check_report(PROG);
    MPI_Finalize();
    return 0;
}
