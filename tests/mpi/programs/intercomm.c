// SPDX-License-Identifier: Apache-2.0
/*
 * intercomm.c - intercommunicators and communicators made among their members, as MPI
 * test suites build them: MPI_Comm_create_group of the even ranks (the odd ones do not
 * call it); an intercommunicator between the even and the odd ranks
 * (MPI_Intercomm_create over MPI_COMM_WORLD), its remote size and group,
 * MPI_Comm_test_inter, messages across it, its collectives (barrier, bcast with
 * MPI_ROOT, reduce, allreduce, gather, allgather(v), scatter, alltoall,
 * reduce_scatter_block), MPI_Comm_dup of it, MPI_Intercomm_merge both ways round;
 * MPI_Comm_split and MPI_Comm_create of it (intercommunicators of the parts).
 */
#include <stdlib.h>

#include "check.h"

static int rank, size;

static void create_group(void) {
    MPI_Group world, evens;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int n = (size + 1) / 2, ranks[64];
    for (int i = 0; i < n; i++) ranks[i] = 2 * i;
    MPI_Group_incl(world, n, ranks, &evens);
    if (rank % 2 == 0) {
        MPI_Comm c;
        CHECK_RC(MPI_Comm_create_group(MPI_COMM_WORLD, evens, 7, &c), "MPI_Comm_create_group");
        int r, s, sum = 0;
        MPI_Comm_rank(c, &r);
        MPI_Comm_size(c, &s);
        CHECK(r == rank / 2 && s == n, "the even ranks' communicator (rank %d of %d)", r, s);
        MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, c);
        CHECK(sum == n * (n - 1), "an allreduce over it (%d)", sum);
        MPI_Comm_free(&c);
    }
    MPI_Group_free(&evens);
    MPI_Group_free(&world);
    check_section("intercomm", "MPI_Comm_create_group", 1);
}

static void inter(void) {
    const int ran = size >= 2;
    if (!ran) {
        check_section("intercomm", "an intercommunicator of the even and odd ranks", 0);
        return;
    }
    const int colour = rank % 2;
    MPI_Comm local, ic;
    MPI_Comm_split(MPI_COMM_WORLD, colour, rank, &local);
    int lrank, lsize;
    MPI_Comm_rank(local, &lrank);
    MPI_Comm_size(local, &lsize);
    /* Leaders: world rank 0 for the evens, 1 for the odds. */
    CHECK_RC(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, colour ? 0 : 1, 99, &ic), "MPI_Intercomm_create");
    int flag = 0, rsize = 0, r, s;
    MPI_Comm_test_inter(ic, &flag);
    MPI_Comm_remote_size(ic, &rsize);
    MPI_Comm_rank(ic, &r);
    MPI_Comm_size(ic, &s);
    const int other = colour ? (size + 1) / 2 : size / 2;
    CHECK(flag && rsize == other && r == lrank && s == lsize, "inter %d, rank %d of %d, remote size %d", flag, r, s,
          rsize);
    MPI_Group rg;
    MPI_Comm_remote_group(ic, &rg);
    int zero = 0, world0;
    MPI_Group wg;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_translate_ranks(rg, 1, &zero, wg, &world0);
    CHECK(world0 == (colour ? 0 : 1), "the remote group's rank 0 is world rank %d", world0);
    MPI_Group_free(&rg);
    MPI_Group_free(&wg);
    int tflag = 0;
    MPI_Comm_test_inter(local, &tflag);
    CHECK(!tflag, "an intracommunicator is not inter");

    /* Messages: each rank sends to the remote rank of its own number (if there is one). */
    if (lrank < rsize) {
        int out = rank * 10, in = -1;
        MPI_Status st;
        MPI_Sendrecv(&out, 1, MPI_INT, lrank, 5, &in, 1, MPI_INT, lrank, 5, ic, &st);
        const int peer_world = colour ? 2 * lrank : 2 * lrank + 1;
        CHECK(in == peer_world * 10 && st.MPI_SOURCE == lrank, "a message across (%d from %d)", in, st.MPI_SOURCE);
    }

    /* Collectives. The evens' rank 0 is the root of bcast, reduce, gather and scatter. */
    MPI_Barrier(ic);
    const int root = colour == 0 ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    int v[4] = {0, 0, 0, 0};
    if (root == MPI_ROOT) for (int i = 0; i < 4; i++) v[i] = 40 + i;
    MPI_Bcast(v, 4, MPI_INT, root, ic);
    if (colour == 1) CHECK(v[0] == 40 && v[3] == 43, "bcast across");
    int mine = rank + 1, total = -1;
    MPI_Reduce(&mine, &total, 1, MPI_INT, MPI_SUM, root, ic);
    int odd_sum = 0, even_sum = 0;
    for (int i = 0; i < size; i++) *(i % 2 ? &odd_sum : &even_sum) += i + 1;
    if (root == MPI_ROOT) CHECK(total == odd_sum, "reduce of the odd ranks at the evens' root (%d)", total);
    MPI_Allreduce(&mine, &total, 1, MPI_INT, MPI_SUM, ic);
    CHECK(total == (colour ? even_sum : odd_sum), "allreduce gives the other group's sum (%d)", total);
    int* all = malloc(sizeof(int) * (size_t)(rsize > 0 ? rsize : 1) * 2);
    MPI_Gather(&rank, 1, MPI_INT, all, 1, MPI_INT, root, ic);
    if (root == MPI_ROOT) {
        int ok = 1;
        for (int j = 0; j < rsize; j++) ok &= all[j] == 2 * j + 1;
        CHECK(ok, "gather of the odd ranks");
    }
    MPI_Allgather(&rank, 1, MPI_INT, all, 1, MPI_INT, ic);
    int ok = 1;
    for (int j = 0; j < rsize; j++) ok &= all[j] == (colour ? 2 * j : 2 * j + 1);
    CHECK(ok, "allgather of the other group");
    int counts[64], displs[64];
    for (int j = 0; j < rsize; j++) { counts[j] = 1; displs[j] = rsize - 1 - j; }
    MPI_Allgatherv(&rank, 1, MPI_INT, all, counts, displs, MPI_INT, ic);
    ok = 1;
    for (int j = 0; j < rsize; j++) ok &= all[rsize - 1 - j] == (colour ? 2 * j : 2 * j + 1);
    CHECK(ok, "allgatherv, reversed");
    int piece = -1;
    int* scat = malloc(sizeof(int) * (size_t)(rsize > 0 ? rsize : 1));
    for (int j = 0; j < rsize; j++) scat[j] = 500 + j;
    MPI_Scatter(scat, 1, MPI_INT, &piece, 1, MPI_INT, root, ic);
    if (colour == 1) CHECK(piece == 500 + lrank, "scatter across (%d)", piece);
    int* sendb = malloc(sizeof(int) * (size_t)rsize);
    int* recvb = malloc(sizeof(int) * (size_t)rsize);
    for (int j = 0; j < rsize; j++) sendb[j] = rank * 100 + j;
    MPI_Alltoall(sendb, 1, MPI_INT, recvb, 1, MPI_INT, ic);
    ok = 1;
    for (int j = 0; j < rsize; j++) ok &= recvb[j] == (colour ? 2 * j : 2 * j + 1) * 100 + lrank;
    CHECK(ok, "alltoall across");
    /* alltoallw: block j a double (as two ints' bytes reversed) or an int, by the partner's parity. */
    int* wcounts = malloc(sizeof(int) * (size_t)rsize);
    int* wdispls = malloc(sizeof(int) * (size_t)rsize);
    MPI_Datatype* wtypes = malloc(sizeof(MPI_Datatype) * (size_t)rsize);
    double* wsend = malloc(sizeof(double) * (size_t)rsize);
    double* wrecv = malloc(sizeof(double) * (size_t)rsize);
    for (int j = 0; j < rsize; j++) {
        wcounts[j] = 1;
        wdispls[j] = (int)sizeof(double) * (rsize - 1 - j);
        wtypes[j] = MPI_DOUBLE;
        wsend[rsize - 1 - j] = rank + 0.25 * j;
        wrecv[j] = -1;
    }
    MPI_Alltoallw(wsend, wcounts, wdispls, wtypes, wrecv, wcounts, wdispls, wtypes, ic);
    ok = 1;
    for (int j = 0; j < rsize; j++) ok &= wrecv[rsize - 1 - j] == (colour ? 2 * j : 2 * j + 1) + 0.25 * lrank;
    CHECK(ok, "alltoallw across, blocks reversed");
    free(wcounts);
    free(wdispls);
    free(wtypes);
    free(wsend);
    free(wrecv);
    /* reduce_scatter_block: each group's vectors have one element per rank of the other. */
    int* vec = malloc(sizeof(int) * (size_t)lsize);
    for (int j = 0; j < lsize; j++) vec[j] = rank + j;
    (void)vec;
    int* rvec = malloc(sizeof(int) * (size_t)rsize);
    for (int j = 0; j < rsize; j++) rvec[j] = rank + j;
    int got = -1;
    if (lsize == rsize) {
        MPI_Reduce_scatter_block(rvec, &got, 1, MPI_INT, MPI_SUM, ic);
        int want = 0;
        for (int j = 0; j < rsize; j++) want += (colour ? 2 * j : 2 * j + 1) + lrank;
        CHECK(got == want, "reduce_scatter_block across (%d, wanted %d)", got, want);
    }
    free(vec);
    free(rvec);
    free(sendb);
    free(recvb);
    free(scat);
    free(all);

    /* A duplicate is an intercommunicator too; merging puts the low group first. */
    MPI_Comm dup, merged, merged2;
    MPI_Comm_dup(ic, &dup);
    MPI_Comm_test_inter(dup, &flag);
    CHECK(flag, "a duplicate of an intercommunicator is one");
    MPI_Intercomm_merge(dup, colour, &merged);
    int mr, ms;
    MPI_Comm_rank(merged, &mr);
    MPI_Comm_size(merged, &ms);
    const int evens = (size + 1) / 2;
    CHECK(ms == size && mr == (colour ? evens + lrank : lrank), "merged with the odds high: rank %d", mr);
    MPI_Intercomm_merge(ic, !colour, &merged2);
    MPI_Comm_rank(merged2, &mr);
    CHECK(mr == (colour ? lrank : size / 2 + lrank), "merged with the evens high: rank %d", mr);
    int one = 1, n = 0;
    MPI_Allreduce(&one, &n, 1, MPI_INT, MPI_SUM, merged2);
    CHECK(n == size, "an allreduce over the merged communicator");
    MPI_Comm_free(&merged);
    MPI_Comm_free(&merged2);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&ic);
    MPI_Comm_free(&local);
    check_section("intercomm", "an intercommunicator of the even and odd ranks", 1);
}

/* A new intercommunicator's sizes and a collective across it: each rank's sum over the
   remote group of its members' world ranks. */
static void check_made(MPI_Comm nc, int lsize_want, int rsize_want, const char* what) {
    int flag = 0, ls = -1, rs = -1, mine = rank, sum = -1, want = 0, i;
    MPI_Comm_test_inter(nc, &flag);
    MPI_Comm_size(nc, &ls);
    MPI_Comm_remote_size(nc, &rs);
    MPI_Group rg, wg;
    MPI_Comm_remote_group(nc, &rg);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    for (i = 0; i < rs; i++) {
        int w = -1;
        MPI_Group_translate_ranks(rg, 1, &i, wg, &w);
        want += w;
    }
    MPI_Group_free(&rg);
    MPI_Group_free(&wg);
    MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, nc);
    CHECK(flag && ls == lsize_want && rs == rsize_want && sum == want,
          "%s: inter %d, size %d (want %d), remote size %d (want %d), remote sum %d (want %d)", what, flag, ls,
          lsize_want, rs, rsize_want, sum, want);
}

static void split_and_create(void) {
    /* MPI_Comm_split and MPI_Comm_create on an intercommunicator give intercommunicators
       (MPI-3.1 6.4.2): each group splits, a colour's part pairs with the other group's part
       of the same colour; a rank whose colour the other group lacks, or outside the group it
       passes, gets MPI_COMM_NULL. */
    const int ran = size >= 2;
    if (!ran) {
        check_section("intercomm", "MPI_Comm_split and MPI_Comm_create on an intercommunicator", 0);
        return;
    }
    const int colour = rank % 2;
    MPI_Comm local, ic, nc;
    MPI_Comm_split(MPI_COMM_WORLD, colour, rank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, colour ? 0 : 1, 98, &ic);
    int lrank, lsize, rsize;
    MPI_Comm_rank(ic, &lrank);
    MPI_Comm_size(ic, &lsize);
    MPI_Comm_remote_size(ic, &rsize);
    /* Split by the local rank's parity, ranked in reverse. */
    CHECK_RC(MPI_Comm_split(ic, lrank % 2, -lrank, &nc), "MPI_Comm_split of an intercommunicator");
    {
        const int mine = lrank % 2 ? lsize / 2 : (lsize + 1) / 2, theirs = lrank % 2 ? rsize / 2 : (rsize + 1) / 2;
        if (theirs == 0) {
            CHECK(nc == MPI_COMM_NULL, "a colour the other group lacks gives MPI_COMM_NULL");
        } else {
            int nr = -1;
            MPI_Comm_rank(nc, &nr);
            check_made(nc, mine, theirs, "split by parity");
            CHECK(nr == (mine - 1) - lrank / 2, "split by parity: rank %d in reverse order of %d", nr, lrank);
            MPI_Comm_free(&nc);
        }
    }
    /* Without each group's rank 0. */
    {
        MPI_Group g, g2;
        int zero = 0;
        MPI_Comm_group(ic, &g);
        MPI_Group_excl(g, 1, &zero, &g2);
        CHECK_RC(MPI_Comm_create(ic, g2, &nc), "MPI_Comm_create of an intercommunicator");
        if (lrank == 0 || lsize == 1 || rsize == 1) {
            CHECK(nc == MPI_COMM_NULL, "outside the group, or with the other group empty: MPI_COMM_NULL");
        } else {
            int nr = -1;
            MPI_Comm_rank(nc, &nr);
            check_made(nc, lsize - 1, rsize - 1, "created without rank 0");
            CHECK(nr == lrank - 1, "created without rank 0: rank %d for %d", nr, lrank);
            MPI_Comm_free(&nc);
        }
        MPI_Group_free(&g);
        MPI_Group_free(&g2);
    }
    MPI_Comm_free(&ic);
    MPI_Comm_free(&local);
    check_section("intercomm", "MPI_Comm_split and MPI_Comm_create on an intercommunicator", 1);
}

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    create_group();
    inter();
    split_and_create();
    check_report("intercomm");
    MPI_Finalize();
    return 0;
}
