// SPDX-License-Identifier: Apache-2.0
/*
 * comm.c - communicators and groups: Comm_split (colours, reversed keys,
 * MPI_UNDEFINED), Comm_dup, Comm_compare, Comm_free, group constructors and
 * queries, Comm_create from a group of the even ranks, collectives and p2p
 * on sub-communicators, context isolation between a dup and its parent,
 * and creating/freeing 50 communicators in a loop.
 */
#include "check.h"
#include <stdlib.h>

static const char *PROG = "comm";
static int rank, size;

static void test_split(void)
{
    MPI_Comm sub, sub2;
    int colour = rank % 3, srank = -1, ssize = -1, r, expect_size = 0, expect_rank = 0, sum = -1, expect_sum = 0;
    int token = -1, right, left;
    MPI_Status st;
    MPI_Comm_split(MPI_COMM_WORLD, colour, size - rank, &sub); /* reversed order */
    MPI_Comm_size(sub, &ssize);
    MPI_Comm_rank(sub, &srank);
    for (r = 0; r < size; r++)
        if (r % 3 == colour) {
            expect_size++;
            expect_sum += r;
            if (r > rank)
                expect_rank++;
        }
    CHECK(ssize == expect_size, "split size %d expected %d", ssize, expect_size);
    CHECK(srank == expect_rank, "split rank %d expected %d", srank, expect_rank);

    /* collective on the sub-communicator: sum of world ranks of the colour */
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, sub);
    CHECK(sum == expect_sum, "allreduce on split gave %d expected %d", sum, expect_sum);
    /* bcast from sub rank 0, which is the largest world rank of the colour */
    token = srank == 0 ? rank : -1;
    MPI_Bcast(&token, 1, MPI_INT, 0, sub);
    {
        int largest = -1;
        for (r = 0; r < size; r++)
            if (r % 3 == colour)
                largest = r;
        CHECK(token == largest, "bcast on split gave %d expected %d", token, largest);
    }
    /* p2p ring inside the sub-communicator; the neighbour's world rank is known */
    right = (srank + 1) % ssize;
    left = (srank + ssize - 1) % ssize;
    token = -1;
    MPI_Sendrecv(&rank, 1, MPI_INT, right, 5, &token, 1, MPI_INT, left, 5, sub, &st);
    {
        /* world rank of sub rank `left`: ranks of the colour in descending order */
        int k = 0, w = -1;
        for (r = size - 1; r >= 0; r--)
            if (r % 3 == colour) {
                if (k == left)
                    w = r;
                k++;
            }
        CHECK(token == w && st.MPI_SOURCE == left, "split ring got %d from %d, expected %d from %d", token,
              st.MPI_SOURCE, w, left);
    }
    /* split of a split: keep the same order */
    MPI_Comm_split(sub, srank % 2, srank, &sub2);
    {
        int s2 = -1, r2 = -1;
        MPI_Comm_size(sub2, &s2);
        MPI_Comm_rank(sub2, &r2);
        CHECK(s2 == (srank % 2 == 0 ? (ssize + 1) / 2 : ssize / 2) && r2 == srank / 2,
              "split of split: size %d rank %d", s2, r2);
    }
    MPI_Comm_free(&sub2);
    MPI_Comm_free(&sub);
    CHECK(sub == MPI_COMM_NULL, "Comm_free did not set MPI_COMM_NULL");

    /* MPI_UNDEFINED colour */
    MPI_Comm_split(MPI_COMM_WORLD, rank % 4 == 3 ? MPI_UNDEFINED : 0, 0, &sub);
    if (rank % 4 == 3) {
        CHECK(sub == MPI_COMM_NULL, "MPI_UNDEFINED colour gave a communicator");
    } else {
        int n = 0;
        for (r = 0; r < size; r++)
            if (r % 4 != 3)
                n++;
        MPI_Comm_size(sub, &ssize);
        MPI_Comm_rank(sub, &srank);
        CHECK(ssize == n && srank == rank - rank / 4, "undefined split: size %d rank %d", ssize, srank);
        MPI_Comm_free(&sub);
    }
    check_section(PROG, "split", 1);
}

static void test_dup_compare(void)
{
    MPI_Comm dup, rev, same, half;
    int res = -1, sum = -1, dsize = -1, drank = -1;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_size(dup, &dsize);
    MPI_Comm_rank(dup, &drank);
    CHECK(dsize == size && drank == rank, "dup size %d rank %d", dsize, drank);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, dup);
    CHECK(sum == size * (size - 1) / 2, "allreduce on dup gave %d", sum);

    MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, &res);
    CHECK(res == MPI_IDENT, "compare(world, world) = %d", res);
    MPI_Comm_compare(MPI_COMM_WORLD, dup, &res);
    CHECK(res == MPI_CONGRUENT, "compare(world, dup) = %d", res);
    MPI_Comm_compare(dup, dup, &res);
    CHECK(res == MPI_IDENT, "compare(dup, dup) = %d", res);

    MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &rev);
    MPI_Comm_compare(MPI_COMM_WORLD, rev, &res);
    CHECK(res == (size > 1 ? MPI_SIMILAR : MPI_CONGRUENT), "compare(world, reversed split) = %d", res);
    MPI_Comm_split(MPI_COMM_WORLD, 0, 0, &same); /* equal keys: old order kept */
    MPI_Comm_compare(MPI_COMM_WORLD, same, &res);
    CHECK(res == MPI_CONGRUENT, "compare(world, same-order split) = %d", res);
    MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_SELF, &res);
    CHECK(res == (size > 1 ? MPI_UNEQUAL : MPI_CONGRUENT), "compare(world, self) = %d", res);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Comm_compare(MPI_COMM_WORLD, half, &res);
    CHECK(res == (size > 1 ? MPI_UNEQUAL : MPI_CONGRUENT), "compare(world, half) = %d", res);
    MPI_Comm_free(&half);
    MPI_Comm_free(&same);
    MPI_Comm_free(&rev);
    MPI_Comm_free(&dup);
    CHECK(dup == MPI_COMM_NULL, "Comm_free did not set MPI_COMM_NULL");
    check_section(PROG, "dup and compare", 1);
}

static void test_groups(void)
{
    MPI_Group world, even, odd, uni, inter, diff, empty;
    int neven = (size + 1) / 2, nodd = size / 2, i, res = -1, gs = -1, gr = -1, bad;
    int *ranks = malloc((size_t)size * sizeof(int)), *out = malloc((size_t)size * sizeof(int));
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_size(world, &gs);
    MPI_Group_rank(world, &gr);
    CHECK(gs == size && gr == rank, "world group size %d rank %d", gs, gr);

    for (i = 0; i < neven; i++)
        ranks[i] = 2 * i;
    MPI_Group_incl(world, neven, ranks, &even);
    MPI_Group_excl(world, neven, ranks, &odd);
    MPI_Group_size(even, &gs);
    MPI_Group_rank(even, &gr);
    CHECK(gs == neven && gr == (rank % 2 == 0 ? rank / 2 : MPI_UNDEFINED), "even group size %d rank %d", gs, gr);
    MPI_Group_size(odd, &gs);
    MPI_Group_rank(odd, &gr);
    CHECK(gs == nodd && gr == (rank % 2 == 1 ? rank / 2 : MPI_UNDEFINED), "odd group size %d rank %d", gs, gr);

    /* translate ranks even -> world and world -> odd */
    for (i = 0; i < neven; i++)
        ranks[i] = i;
    MPI_Group_translate_ranks(even, neven, ranks, world, out);
    bad = -1;
    for (i = 0; i < neven; i++)
        if (out[i] != 2 * i)
            bad = i;
    CHECK(bad < 0, "translate even->world wrong at %d", bad);
    for (i = 0; i < size; i++)
        ranks[i] = i;
    MPI_Group_translate_ranks(world, size, ranks, odd, out);
    bad = -1;
    for (i = 0; i < size; i++)
        if (out[i] != (i % 2 == 1 ? i / 2 : MPI_UNDEFINED))
            bad = i;
    CHECK(bad < 0, "translate world->odd wrong at %d", bad);

    /* union: evens then odds -> same members as world, other order if size > 2 */
    MPI_Group_union(even, odd, &uni);
    MPI_Group_size(uni, &gs);
    CHECK(gs == size, "union size %d", gs);
    MPI_Group_compare(uni, world, &res);
    CHECK(res == (size > 2 ? MPI_SIMILAR : MPI_IDENT), "compare(union, world) = %d", res);
    MPI_Group_rank(uni, &gr);
    CHECK(gr == (rank % 2 == 0 ? rank / 2 : neven + rank / 2), "rank in union %d", gr);

    MPI_Group_intersection(world, even, &inter);
    MPI_Group_compare(inter, even, &res);
    CHECK(res == MPI_IDENT, "compare(world & even, even) = %d", res);
    MPI_Group_difference(world, even, &diff);
    MPI_Group_compare(diff, odd, &res);
    CHECK(res == MPI_IDENT, "compare(world - even, odd) = %d", res);
    MPI_Group_difference(even, world, &empty);
    MPI_Group_size(empty, &gs);
    CHECK(gs == 0, "even - world has size %d", gs);
    MPI_Group_compare(empty, MPI_GROUP_EMPTY, &res);
    CHECK(res == MPI_IDENT, "compare(empty, MPI_GROUP_EMPTY) = %d", res);
    MPI_Group_compare(even, odd, &res);
    CHECK(res == MPI_UNEQUAL, "compare(even, odd) = %d", res);
    MPI_Group_compare(world, world, &res);
    CHECK(res == MPI_IDENT, "compare(world, world) = %d", res);
    MPI_Group_rank(MPI_GROUP_EMPTY, &gr);
    MPI_Group_size(MPI_GROUP_EMPTY, &gs);
    CHECK(gs == 0 && gr == MPI_UNDEFINED, "MPI_GROUP_EMPTY size %d rank %d", gs, gr);

    MPI_Group_free(&empty);
    MPI_Group_free(&diff);
    MPI_Group_free(&inter);
    MPI_Group_free(&uni);
    MPI_Group_free(&odd);
    MPI_Group_free(&even);
    MPI_Group_free(&world);
    CHECK(world == MPI_GROUP_NULL && even == MPI_GROUP_NULL, "Group_free did not set MPI_GROUP_NULL");
    free(ranks);
    free(out);
    check_section(PROG, "groups", 1);
}

static void test_create(void)
{
    MPI_Group world, even;
    MPI_Comm ecomm;
    int neven = (size + 1) / 2, i, *ranks = malloc((size_t)size * sizeof(int));
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    for (i = 0; i < neven; i++)
        ranks[i] = 2 * i;
    MPI_Group_incl(world, neven, ranks, &even);
    MPI_Comm_create(MPI_COMM_WORLD, even, &ecomm);
    if (rank % 2 == 1) {
        CHECK(ecomm == MPI_COMM_NULL, "odd rank got a communicator from Comm_create");
    } else {
        int es = -1, er = -1, sum = -1, right, left, got = -1, res = -1;
        MPI_Group g;
        MPI_Status st;
        MPI_Comm_size(ecomm, &es);
        MPI_Comm_rank(ecomm, &er);
        CHECK(es == neven && er == rank / 2, "even comm size %d rank %d", es, er);
        MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, ecomm);
        CHECK(sum == 2 * (neven * (neven - 1) / 2), "allreduce on even comm gave %d", sum);
        right = (er + 1) % es;
        left = (er + es - 1) % es;
        MPI_Sendrecv(&rank, 1, MPI_INT, right, 9, &got, 1, MPI_INT, left, 9, ecomm, &st);
        CHECK(got == 2 * left && st.MPI_SOURCE == left, "even ring got %d from %d", got, st.MPI_SOURCE);
        MPI_Barrier(ecomm);
        MPI_Comm_group(ecomm, &g);
        MPI_Group_compare(g, even, &res);
        CHECK(res == MPI_IDENT, "group of created comm differs: %d", res);
        MPI_Group_free(&g);
        MPI_Comm_free(&ecomm);
    }
    MPI_Group_free(&even);
    MPI_Group_free(&world);
    free(ranks);
    check_section(PROG, "comm_create of even ranks", 1);
}

/* a message sent on a dup is never received on the parent */
static void test_isolation(void)
{
    MPI_Comm dup;
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int on_dup = 1000 + rank, on_world = rank, a = -1, b = -1;
    MPI_Request reqs[2];
    MPI_Status st;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Isend(&on_dup, 1, MPI_INT, right, 3, dup, &reqs[0]);
    MPI_Isend(&on_world, 1, MPI_INT, right, 3, MPI_COMM_WORLD, &reqs[1]);
    MPI_Recv(&a, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    CHECK(a == left && st.MPI_SOURCE == left && st.MPI_TAG == 3, "world receive got %d (from %d)", a,
          st.MPI_SOURCE);
    MPI_Recv(&b, 1, MPI_INT, left, 3, dup, &st);
    CHECK(b == 1000 + left, "dup receive got %d", b);
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    MPI_Comm_free(&dup);
    check_section(PROG, "context isolation", 1);
}

static void test_many(void)
{
    int i, ok = 1;
    for (i = 0; i < 50; i++) {
        MPI_Comm c;
        int s = -1, one = 1, expect;
        if (i % 2 == 0) {
            MPI_Comm_dup(MPI_COMM_WORLD, &c);
            expect = size;
        } else {
            MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &c);
            expect = rank % 2 == 0 ? (size + 1) / 2 : size / 2;
        }
        MPI_Allreduce(&one, &s, 1, MPI_INT, MPI_SUM, c);
        if (s != expect)
            ok = 0;
        MPI_Comm_free(&c);
        if (c != MPI_COMM_NULL)
            ok = 0;
    }
    CHECK(ok, "creating and freeing 50 communicators failed");
    check_section(PROG, "create and free 50 communicators", 1);
}

/* Group ranges, a node's shared-memory communicator and a non-blocking duplicate. */
static void test_ranges_split_type_idup(void)
{
    MPI_Group world, evens, rest, odd_desc;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int r1[1][3] = {{0, size - 1, 2}};
    MPI_Group_range_incl(world, 1, r1, &evens);
    int n_even = -1, expect_rank = rank % 2 == 0 ? rank / 2 : MPI_UNDEFINED, g_rank = -2;
    MPI_Group_size(evens, &n_even);
    MPI_Group_rank(evens, &g_rank);
    CHECK(n_even == (size + 1) / 2 && g_rank == expect_rank, "range (0, %d, 2): size %d, rank %d", size - 1, n_even,
          g_rank);
    MPI_Group_range_excl(world, 1, r1, &rest);
    int n_rest = -1;
    MPI_Group_size(rest, &n_rest);
    CHECK(n_rest == size / 2, "excluding the even ranks leaves %d", n_rest);
    /* A descending range: the odd ranks, highest first. */
    int last_odd = size % 2 == 0 ? size - 1 : size - 2;
    if (last_odd >= 1) {
        int r2[1][3] = {{last_odd, 1, -2}};
        MPI_Group_range_incl(world, 1, r2, &odd_desc);
        int first = -1, zero = 0;
        MPI_Group_translate_ranks(odd_desc, 1, &zero, world, &first);
        CHECK(first == last_odd, "a descending range starts at %d, not %d", first, last_odd);
        MPI_Group_free(&odd_desc);
    }
    MPI_Group_free(&evens);
    MPI_Group_free(&rest);
    MPI_Group_free(&world);

    /* The ranks that share this one's memory: at least itself, each sees the same count. */
    MPI_Comm shared, none;
    CHECK_RC(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &shared),
             "MPI_Comm_split_type");
    int n_shared = 0, one = 1, counted = 0;
    MPI_Comm_size(shared, &n_shared);
    MPI_Allreduce(&one, &counted, 1, MPI_INT, MPI_SUM, shared);
    CHECK(n_shared >= 1 && n_shared <= size && counted == n_shared, "a shared communicator of %d (%d counted)",
          n_shared, counted);
    MPI_Comm_free(&shared);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_UNDEFINED, rank, MPI_INFO_NULL, &none);
    CHECK(none == MPI_COMM_NULL, "MPI_UNDEFINED gives MPI_COMM_NULL");

    MPI_Comm dup;
    MPI_Request req;
    int result = -1;
    CHECK_RC(MPI_Comm_idup(MPI_COMM_WORLD, &dup, &req), "MPI_Comm_idup");
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(req == MPI_REQUEST_NULL, "the idup request completes");
    MPI_Comm_compare(MPI_COMM_WORLD, dup, &result);
    CHECK(result == MPI_CONGRUENT, "an idup is congruent with its parent");
    MPI_Comm_free(&dup);
    check_section(PROG, "group ranges, split_type and idup", 1);
}

/* Attributes of the program's own: copied by a dup through the copy callback, deleted
   through the delete callback on free, on delete_attr and when replaced. */
static int deletes, copies;
static int count_delete(MPI_Comm comm, int key, void *value, void *extra)
{
    (void)comm; (void)key; (void)value;
    deletes += *(int *)extra;
    return MPI_SUCCESS;
}
static int count_copy(MPI_Comm comm, int key, void *extra, void *in, void *out, int *flag)
{
    (void)comm; (void)key; (void)extra;
    copies++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}
static int type_delete(MPI_Datatype t, int key, void *value, void *extra)
{
    (void)t; (void)key; (void)value; (void)extra;
    deletes += 100;
    return MPI_SUCCESS;
}

static void test_attributes(void)
{
    static int one = 1, value_a = 42, value_b = 7;
    int copied_key, plain_key, tkey, flag = -1;
    void *got = NULL;
    MPI_Comm_create_keyval(count_copy, count_delete, &copied_key, &one);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &plain_key, NULL);
    MPI_Comm dup, dup2;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_set_attr(dup, copied_key, &value_a);
    MPI_Comm_set_attr(dup, plain_key, &value_b);
    MPI_Comm_get_attr(dup, copied_key, &got, &flag);
    CHECK(flag && got == &value_a, "the attribute set is read back");
    MPI_Comm_get_attr(MPI_COMM_WORLD, copied_key, &got, &flag);
    CHECK(!flag, "another communicator has no such attribute");
    MPI_Comm_dup(dup, &dup2);
    CHECK(copies == 1, "the copy callback ran once (%d)", copies);
    MPI_Comm_get_attr(dup2, copied_key, &got, &flag);
    CHECK(flag && got == &value_a, "the duplicate has the copied attribute");
    MPI_Comm_get_attr(dup2, plain_key, &got, &flag);
    CHECK(!flag, "MPI_COMM_NULL_COPY_FN copies nothing");
    MPI_Comm_set_attr(dup, copied_key, &value_b); /* replaces: the delete callback runs */
    CHECK(deletes == 1, "replacing a value deletes the old one (%d)", deletes);
    MPI_Comm_delete_attr(dup, copied_key);
    CHECK(deletes == 2, "delete_attr runs the delete callback (%d)", deletes);
    MPI_Comm_free(&dup2);
    CHECK(deletes == 3, "freeing the duplicate deletes its attribute (%d)", deletes);
    MPI_Comm_free(&dup);
    CHECK(deletes == 3, "a freed communicator without the attribute deletes nothing (%d)", deletes);
    MPI_Comm_free_keyval(&copied_key);
    CHECK(copied_key == MPI_KEYVAL_INVALID, "a freed keyval is MPI_KEYVAL_INVALID");
    MPI_Comm_free_keyval(&plain_key);

    MPI_Datatype t, t2;
    MPI_Type_contiguous(2, MPI_INT, &t);
    MPI_Type_create_keyval(MPI_TYPE_DUP_FN, type_delete, &tkey, NULL);
    MPI_Type_set_attr(t, tkey, &value_a);
    MPI_Type_dup(t, &t2);
    MPI_Type_get_attr(t2, tkey, &got, &flag);
    CHECK(flag && got == &value_a, "MPI_TYPE_DUP_FN copies a datatype's attribute");
    MPI_Type_free(&t2);
    MPI_Type_free(&t);
    CHECK(deletes == 203, "freeing the types deletes both attributes (%d)", deletes);
    MPI_Type_free_keyval(&tkey);
    check_section(PROG, "attributes", 1);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    test_split();
    test_dup_compare();
    test_groups();
    test_create();
    test_isolation();
    test_many();
    test_ranges_split_type_idup();
    test_attributes();
    check_report(PROG);
    MPI_Finalize();
    return 0;
}
