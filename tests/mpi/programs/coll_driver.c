// SPDX-License-Identifier: Apache-2.0
/*
 * coll_driver.c - a collective test driver in the manner of MPI implementations' own
 * suites: it builds every kind of intracommunicator such suites run on (the world, a
 * duplicate, the halves of a split, a reversed group made by MPI_Comm_create_group, a
 * merged intercommunicator, the rows of a Cartesian grid by MPI_Cart_sub) and runs every
 * collective on each - blocking, non-blocking and with a user op - checking each result
 * from the ranks' numbers alone.
 */
#include <stdlib.h>

#include "check.h"

static int wrank, wsize;

/* Element i of rank r's contribution. */
static int value(int r, int i) { return 1000 * r + i; }

static void my_sum(void* in, void* inout, int* len, MPI_Datatype* type) {
    (void)type;
    for (int i = 0; i < *len; i++) ((int*)inout)[i] += ((int*)in)[i];
}

static void run_all(MPI_Comm c, const char* kind) {
    int r, n;
    MPI_Comm_rank(c, &r);
    MPI_Comm_size(c, &n);
    const int k = 3; /* elements per block */
    int* send = malloc(sizeof(int) * (size_t)(k * n));
    int* recv = malloc(sizeof(int) * (size_t)(k * n));
    int* counts = malloc(sizeof(int) * (size_t)n);
    int* displs = malloc(sizeof(int) * (size_t)n);
    int ok;

    MPI_Barrier(c);
    /* bcast from the last rank */
    for (int i = 0; i < k; i++) send[i] = r == n - 1 ? value(n - 1, i) : -1;
    MPI_Bcast(send, k, MPI_INT, n - 1, c);
    ok = 1;
    for (int i = 0; i < k; i++) ok &= send[i] == value(n - 1, i);
    CHECK(ok, "%s: bcast", kind);
    /* reduce and allreduce (sum, max, a user op) */
    for (int i = 0; i < k; i++) send[i] = value(r, i);
    MPI_Reduce(send, recv, k, MPI_INT, MPI_SUM, 0, c);
    if (r == 0) {
        ok = 1;
        for (int i = 0; i < k; i++) ok &= recv[i] == 1000 * n * (n - 1) / 2 + n * i;
        CHECK(ok, "%s: reduce", kind);
    }
    MPI_Allreduce(send, recv, k, MPI_INT, MPI_MAX, c);
    ok = 1;
    for (int i = 0; i < k; i++) ok &= recv[i] == value(n - 1, i);
    CHECK(ok, "%s: allreduce max", kind);
    MPI_Op op;
    MPI_Op_create(my_sum, 1, &op);
    MPI_Allreduce(send, recv, k, MPI_INT, op, c);
    ok = 1;
    for (int i = 0; i < k; i++) ok &= recv[i] == 1000 * n * (n - 1) / 2 + n * i;
    CHECK(ok, "%s: allreduce with a user op", kind);
    MPI_Op_free(&op);
    /* gather, allgather, scatter, alltoall */
    MPI_Gather(send, k, MPI_INT, recv, k, MPI_INT, 0, c);
    if (r == 0) {
        ok = 1;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < k; i++) ok &= recv[j * k + i] == value(j, i);
        CHECK(ok, "%s: gather", kind);
    }
    MPI_Allgather(send, k, MPI_INT, recv, k, MPI_INT, c);
    ok = 1;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < k; i++) ok &= recv[j * k + i] == value(j, i);
    CHECK(ok, "%s: allgather", kind);
    for (int j = 0; j < n * k; j++) send[j] = r == 0 ? 7 * j : -1;
    MPI_Scatter(send, k, MPI_INT, recv, k, MPI_INT, 0, c);
    ok = 1;
    for (int i = 0; i < k; i++) ok &= recv[i] == 7 * (r * k + i);
    CHECK(ok, "%s: scatter", kind);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < k; i++) send[j * k + i] = value(r, j * 10 + i);
    MPI_Alltoall(send, k, MPI_INT, recv, k, MPI_INT, c);
    ok = 1;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < k; i++) ok &= recv[j * k + i] == value(j, r * 10 + i);
    CHECK(ok, "%s: alltoall", kind);
    /* the v-forms: rank j's block has j % k + 1 elements */
    int at = 0;
    for (int j = 0; j < n; j++) {
        counts[j] = j % k + 1;
        displs[j] = at;
        at += counts[j];
    }
    for (int i = 0; i < k; i++) send[i] = value(r, i);
    MPI_Allgatherv(send, counts[r], MPI_INT, recv, counts, displs, MPI_INT, c);
    ok = 1;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < counts[j]; i++) ok &= recv[displs[j] + i] == value(j, i);
    CHECK(ok, "%s: allgatherv", kind);
    MPI_Gatherv(send, counts[r], MPI_INT, recv, counts, displs, MPI_INT, n - 1, c);
    if (r == n - 1) {
        ok = 1;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < counts[j]; i++) ok &= recv[displs[j] + i] == value(j, i);
        CHECK(ok, "%s: gatherv", kind);
    }
    /* reduce_scatter(_block), scan, exscan */
    for (int j = 0; j < n * k; j++) send[j] = value(r, j);
    MPI_Reduce_scatter_block(send, recv, k, MPI_INT, MPI_SUM, c);
    ok = 1;
    for (int i = 0; i < k; i++) ok &= recv[i] == 1000 * n * (n - 1) / 2 + n * (r * k + i);
    CHECK(ok, "%s: reduce_scatter_block", kind);
    for (int j = 0; j < n; j++) counts[j] = 1;
    MPI_Reduce_scatter(send, recv, counts, MPI_INT, MPI_SUM, c);
    CHECK(recv[0] == 1000 * n * (n - 1) / 2 + n * r, "%s: reduce_scatter", kind);
    int mine = r + 1, sum = -1;
    MPI_Scan(&mine, &sum, 1, MPI_INT, MPI_SUM, c);
    CHECK(sum == (r + 1) * (r + 2) / 2, "%s: scan", kind);
    MPI_Exscan(&mine, &sum, 1, MPI_INT, MPI_SUM, c);
    if (r > 0) CHECK(sum == r * (r + 1) / 2, "%s: exscan", kind);
    /* non-blocking */
    MPI_Request req[3];
    int a = r, b = -1, bc = r == 0 ? 99 : 0;
    for (int j = 0; j < n; j++) send[j] = r * n + j;
    MPI_Iallreduce(&a, &b, 1, MPI_INT, MPI_SUM, c, &req[0]);
    MPI_Ibcast(&bc, 1, MPI_INT, 0, c, &req[1]);
    MPI_Ialltoall(send, 1, MPI_INT, recv, 1, MPI_INT, c, &req[2]);
    MPI_Waitall(3, req, MPI_STATUSES_IGNORE);
    ok = b == n * (n - 1) / 2 && bc == 99;
    for (int j = 0; j < n; j++) ok &= recv[j] == j * n + r;
    CHECK(ok, "%s: non-blocking allreduce, bcast, alltoall", kind);
    free(send);
    free(recv);
    free(counts);
    free(displs);
}

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);

    run_all(MPI_COMM_WORLD, "world");
    check_section("coll_driver", "MPI_COMM_WORLD", 1);

    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    run_all(dup, "dup");
    MPI_Comm_free(&dup);
    check_section("coll_driver", "a duplicate of the world", 1);

    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, wrank < wsize / 2, wsize - wrank, &half);
    run_all(half, "split");
    MPI_Comm_free(&half);
    check_section("coll_driver", "the halves of a split (reversed)", 1);

    /* The world in reverse order, made by the group's members only. */
    MPI_Group world, reversed;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int range[1][3] = {{wsize - 1, 0, -1}};
    MPI_Group_range_incl(world, 1, range, &reversed);
    MPI_Comm rev;
    MPI_Comm_create_group(MPI_COMM_WORLD, reversed, 3, &rev);
    run_all(rev, "create_group");
    MPI_Comm_free(&rev);
    MPI_Group_free(&reversed);
    MPI_Group_free(&world);
    check_section("coll_driver", "MPI_Comm_create_group, reversed", 1);

    if (wsize >= 2) {
        MPI_Comm local, inter, merged;
        MPI_Comm_split(MPI_COMM_WORLD, wrank % 2, wrank, &local);
        MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, wrank % 2 ? 0 : 1, 12, &inter);
        MPI_Intercomm_merge(inter, wrank % 2 == 0, &merged);
        run_all(merged, "merged intercommunicator");
        MPI_Comm_free(&merged);
        MPI_Comm_free(&inter);
        MPI_Comm_free(&local);
    }
    check_section("coll_driver", "a merged intercommunicator", wsize >= 2);

    int dims[2] = {0, 0}, periods[2] = {1, 0}, keep[2] = {0, 1};
    MPI_Dims_create(wsize, 2, dims);
    MPI_Comm cart, row;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    MPI_Cart_sub(cart, keep, &row);
    run_all(row, "Cartesian row");
    MPI_Comm_free(&row);
    MPI_Comm_free(&cart);
    check_section("coll_driver", "the rows of a Cartesian grid", 1);

    check_report("coll_driver");
    MPI_Finalize();
    return 0;
}
