// SPDX-License-Identifier: Apache-2.0
/*
 * rma.c - one-sided communication as applications and benchmark suites use it: fence
 * epochs with MPI_Put, MPI_Get and MPI_Accumulate (a ring, sums into one rank, a strided
 * target datatype); MPI_Win_allocate with post/start/complete/wait; exclusive locks with
 * MPI_Fetch_and_op and MPI_Compare_and_swap (a shared counter and a ticket every rank
 * takes once); MPI_Win_lock_all with MPI_Get_accumulate, MPI_Rput/MPI_Rget and the flush
 * calls; a dynamic window with MPI_Win_attach; MPI_Win_allocate_shared on a node's ranks;
 * window attributes, names, groups, keyvals and error handlers; errors that return; a
 * rank polling its own window for the others' puts (under its own lock, by MPI_Win_sync,
 * by an atomic on itself); post/start epochs with empty groups.
 */
#include <stdlib.h>

#include "check.h"

static int rank, size;

static void fence_epochs(void) {
    int mem[8], got[8];
    for (int i = 0; i < 8; i++) mem[i] = rank * 100 + i;
    MPI_Win win;
    CHECK_RC(MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win), "MPI_Win_create");
    MPI_Win_fence(0, win);
    /* Each rank reads its right neighbour's first four and writes its last four there. */
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int out[4];
    for (int i = 0; i < 4; i++) out[i] = 1000 + rank * 10 + i;
    MPI_Get(got, 4, MPI_INT, right, 0, 4, MPI_INT, win);
    MPI_Win_fence(0, win);
    MPI_Put(out, 4, MPI_INT, right, 4, 4, MPI_INT, win);
    MPI_Win_fence(0, win);
    int ok = 1;
    for (int i = 0; i < 4; i++) ok &= got[i] == right * 100 + i && mem[4 + i] == 1000 + left * 10 + i;
    CHECK(ok, "a ring of gets and puts under fences");
    /* Every rank adds rank+1 into rank 0's mem[0] and its max into mem[1]. */
    if (rank == 0) mem[0] = mem[1] = 0;
    MPI_Win_fence(0, win);
    int one = rank + 1;
    MPI_Accumulate(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win);
    MPI_Accumulate(&one, 1, MPI_INT, 0, 1, 1, MPI_INT, MPI_MAX, win);
    MPI_Win_fence(0, win);
    if (rank == 0) CHECK(mem[0] == size * (size + 1) / 2 && mem[1] == size, "accumulated sum %d, max %d", mem[0], mem[1]);
    MPI_Win_fence(0, win); /* the check above reads what the next epoch's put may change */
    /* A strided target type: every other element of the left neighbour. */
    MPI_Datatype every_other;
    MPI_Type_vector(4, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    int four[4] = {-1, -2, -3, -rank};
    MPI_Put(four, 4, MPI_INT, left, 0, 1, every_other, win);
    MPI_Type_free(&every_other); /* the operation keeps what it needs */
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    CHECK(mem[0] == -1 && mem[2] == -2 && mem[4] == -3 && mem[6] == -right, "a put through a strided target type");
    MPI_Win_free(&win);
    CHECK(win == MPI_WIN_NULL, "MPI_Win_free sets MPI_WIN_NULL");
    check_section("rma", "fence epochs", 1);
}

static void pscw(void) {
    double* base;
    MPI_Win win;
    CHECK_RC(MPI_Win_allocate(4 * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win),
             "MPI_Win_allocate");
    for (int i = 0; i < 4; i++) base[i] = 0;
    /* Ring: each rank exposes its memory to its left neighbour and accesses its right one. */
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Group world, to_left, to_right;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &left, &to_left);
    MPI_Group_incl(world, 1, &right, &to_right);
    double v[4] = {rank + 0.5, rank + 1.5, rank + 2.5, rank + 3.5};
    for (int round = 0; round < 3; round++) {
        MPI_Win_post(to_left, 0, win);
        MPI_Win_start(to_right, 0, win);
        MPI_Accumulate(v, 4, MPI_DOUBLE, right, 0, 4, MPI_DOUBLE, MPI_SUM, win);
        MPI_Win_complete(win);
        MPI_Win_wait(win);
    }
    int ok = 1;
    for (int i = 0; i < 4; i++) ok &= base[i] == 3 * (left + i + 0.5);
    CHECK(ok, "three post/start/complete/wait rounds of accumulates");
    /* MPI_Win_test until the epoch ends. */
    MPI_Win_post(to_left, 0, win);
    MPI_Win_start(to_right, 0, win);
    double x = -1;
    MPI_Get(&x, 1, MPI_DOUBLE, right, 3, 1, MPI_DOUBLE, win);
    MPI_Win_complete(win);
    int flag = 0;
    while (!flag) MPI_Win_test(win, &flag);
    CHECK(x == 3 * (rank + 3.5), "a get in a post/start epoch (%g)", x);
    MPI_Group_free(&to_left);
    MPI_Group_free(&to_right);
    MPI_Group_free(&world);
    MPI_Win_free(&win);
    check_section("rma", "post/start/complete/wait", 1);
}

static void passive(void) {
    long* counter;
    MPI_Win win;
    MPI_Win_allocate(2 * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &counter, &win);
    counter[0] = 0;
    counter[1] = -1;
    MPI_Barrier(MPI_COMM_WORLD);
    /* Every rank adds 1 to rank 0's counter ten times; the values it fetches are distinct. */
    long seen[10];
    for (int i = 0; i < 10; i++) {
        long one = 1;
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        MPI_Fetch_and_op(&one, &seen[i], MPI_LONG, 0, 0, MPI_SUM, win);
        MPI_Win_unlock(0, win);
    }
    int ok = 1;
    for (int i = 1; i < 10; i++) ok &= seen[i] > seen[i - 1];
    CHECK(ok, "fetch-and-add fetches increasing values");
    /* A ticket: the first rank to swap -1 for its rank wins; the others see the winner. */
    long me = rank, expect = -1, was = -2;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
    MPI_Compare_and_swap(&me, &expect, &was, MPI_LONG, 0, 1, win);
    MPI_Win_unlock(0, win);
    long total = 0, winner = -1, no_op = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
    MPI_Fetch_and_op(&no_op, &total, MPI_LONG, 0, 0, MPI_NO_OP, win);
    MPI_Get(&winner, 1, MPI_LONG, 0, 1, 1, MPI_LONG, win);
    MPI_Win_unlock(0, win);
    CHECK(total == 10L * size, "the counter is %ld", total);
    CHECK(winner >= 0 && winner < size && (was == -1) == (winner == rank), "one rank won the ticket");
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    check_section("rma", "exclusive locks, fetch-and-op, compare-and-swap", 1);
}

static void lock_all(void) {
    int mem[4] = {rank, rank, rank, rank};
    MPI_Win win;
    MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_lock_all(0, win);
    const int right = (rank + 1) % size;
    int add[4] = {10, 20, 30, 40}, before[4];
    MPI_Get_accumulate(add, 4, MPI_INT, before, 4, MPI_INT, right, 0, 4, MPI_INT, MPI_SUM, win);
    MPI_Win_flush(right, win);
    CHECK(before[0] == right && before[3] == right, "get-accumulate fetched the old values");
    /* MPI_NO_OP reads the target only: the origin buffer is not looked at (null here). */
    int now[4] = {-1, -1, -1, -1};
    MPI_Get_accumulate(NULL, 0, MPI_INT, now, 4, MPI_INT, right, 0, 4, MPI_INT, MPI_NO_OP, win);
    MPI_Win_flush(right, win);
    CHECK(now[0] == right + 10 && now[3] == right + 40, "a get-accumulate with MPI_NO_OP reads the sums");
    MPI_Request req[2];
    int put = 7 * rank, back = -1;
    MPI_Rput(&put, 1, MPI_INT, right, 3, 1, MPI_INT, win, &req[0]);
    MPI_Waitall(1, req, MPI_STATUSES_IGNORE);
    MPI_Win_flush_all(win);
    MPI_Rget(&back, 1, MPI_INT, right, 3, 1, MPI_INT, win, &req[1]);
    MPI_Wait(&req[1], MPI_STATUS_IGNORE);
    CHECK(back == 7 * rank, "an Rget sees the Rput (%d)", back);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    const int left = (rank + size - 1) % size;
    CHECK(mem[0] == rank + 10 && mem[1] == rank + 20 && mem[2] == rank + 30 && mem[3] == 7 * left,
          "lock_all's operations landed");
    MPI_Win_free(&win);
    check_section("rma", "lock_all, get-accumulate, Rput/Rget, flush", 1);
}

static void dynamic(void) {
    MPI_Win win;
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    int* region = malloc(16 * sizeof(int));
    for (int i = 0; i < 16; i++) region[i] = rank * 16 + i;
    MPI_Win_attach(win, region, 16 * sizeof(int));
    MPI_Aint mine, theirs;
    MPI_Get_address(region, &mine);
    const int right = (rank + 1) % size;
    MPI_Sendrecv(&mine, 1, MPI_AINT, (rank + size - 1) % size, 0, &theirs, 1, MPI_AINT, right, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    int got[2] = {-1, -1};
    MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
    MPI_Get(got, 2, MPI_INT, right, theirs + 5 * (MPI_Aint)sizeof(int), 2, MPI_INT, win);
    MPI_Win_unlock(right, win);
    CHECK(got[0] == right * 16 + 5 && got[1] == right * 16 + 6, "a get from attached memory");
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_detach(win, region);
    MPI_Win_free(&win);
    free(region);
    check_section("rma", "dynamic windows", 1);
}

static void shared_memory(void) {
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    int nrank, nsize;
    MPI_Comm_rank(node, &nrank);
    MPI_Comm_size(node, &nsize);
    int* mine;
    MPI_Win win;
    MPI_Win_allocate_shared(2 * sizeof(int), sizeof(int), MPI_INFO_NULL, node, &mine, &win);
    mine[0] = nrank;
    mine[1] = nrank * nrank;
    MPI_Win_fence(0, win);
    int ok = 1;
    for (int r = 0; r < nsize; r++) {
        MPI_Aint sz;
        int unit;
        int* theirs;
        MPI_Win_shared_query(win, r, &sz, &unit, &theirs);
        ok &= sz == 2 * sizeof(int) && unit == sizeof(int) && theirs[0] == r && theirs[1] == r * r;
    }
    CHECK(ok, "every node rank's memory through MPI_Win_shared_query");
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Comm_free(&node);
    check_section("rma", "shared memory on a node", 1);
}

static int deleted = 0;
static int count_delete(MPI_Win w, int k, void* v, void* extra) {
    (void)w, (void)k, (void)v, (void)extra;
    deleted++;
    return MPI_SUCCESS;
}
static int handled = 0;
static void on_error(MPI_Win* w, int* code, ...) {
    (void)w, (void)code;
    handled++;
}

static void attributes_and_errors(void) {
    int mem[2] = {0, 0};
    MPI_Win win;
    MPI_Win_create(mem, sizeof mem, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    void* base;
    MPI_Aint* wsize;
    int *unit, *flavor, *model, flag;
    MPI_Win_get_attr(win, MPI_WIN_BASE, &base, &flag);
    CHECK(flag && base == mem, "MPI_WIN_BASE");
    MPI_Win_get_attr(win, MPI_WIN_SIZE, &wsize, &flag);
    CHECK(flag && *wsize == sizeof mem, "MPI_WIN_SIZE");
    MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &unit, &flag);
    CHECK(flag && *unit == 4, "MPI_WIN_DISP_UNIT");
    MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag);
    CHECK(flag && *flavor == MPI_WIN_FLAVOR_CREATE, "MPI_WIN_CREATE_FLAVOR");
    MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag);
    CHECK(flag && (*model == MPI_WIN_UNIFIED || *model == MPI_WIN_SEPARATE), "MPI_WIN_MODEL");
    MPI_Win_set_name(win, "halo window");
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    MPI_Win_get_name(win, name, &len);
    CHECK(strcmp(name, "halo window") == 0 && len == 11, "a window's name");
    MPI_Group g, world;
    int cmp;
    MPI_Win_get_group(win, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_compare(g, world, &cmp);
    CHECK(cmp == MPI_IDENT, "the window's group is the world's");
    MPI_Group_free(&g);
    MPI_Group_free(&world);
    int key;
    MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, count_delete, &key, NULL);
    static int value = 42;
    MPI_Win_set_attr(win, key, &value);
    int* got;
    MPI_Win_get_attr(win, key, &got, &flag);
    CHECK(flag && *got == 42, "a window attribute of the program's");
    /* Errors: a put outside the window, a get with no epoch. */
    MPI_Errhandler eh;
    MPI_Win_create_errhandler(on_error, &eh);
    MPI_Win_set_errhandler(win, eh);
    MPI_Win_fence(0, win);
    int v = 1, cls;
    int rc = MPI_Put(&v, 1, MPI_INT, (rank + 1) % size, 0, 1, MPI_INT, win);
    CHECK(rc == MPI_SUCCESS, "a put inside the window");
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    rc = MPI_Get(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_RMA_SYNC, "a get outside any epoch is MPI_ERR_RMA_SYNC");
    MPI_Win_set_errhandler(win, eh);
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
    MPI_Win_unlock(0, win);
    rc = MPI_Win_unlock(0, win);
    CHECK(rc != MPI_SUCCESS && handled == 1, "the window's handler runs on a second unlock");
    MPI_Errhandler_free(&eh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    CHECK(deleted == 1, "MPI_Win_free runs the delete callback");
    MPI_Win_free_keyval(&key);
    check_section("rma", "attributes, names, groups and errors", 1);
}

/* Rank 0 waits for a flag from every other rank in its own window, reading its memory as
   MPI-3 programs do: under a lock of its own, with MPI_Win_sync in a lock_all epoch, and by
   MPI_Fetch_and_op(MPI_NO_OP) on itself. The others put their flags under shared locks. */
static void polling_own_memory(void) {
    int* flags;
    MPI_Win win;
    MPI_Win_allocate(size * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &flags, &win);
    for (int way = 1; way <= 3; way++) {
        for (int i = 0; i < size; i++) flags[i] = 0;
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank != 0) {
            MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
            MPI_Put(&way, 1, MPI_INT, 0, rank, 1, MPI_INT, win);
            MPI_Win_unlock(0, win);
        } else {
            if (way == 2) MPI_Win_lock_all(0, win);
            for (int seen = 1; seen < size;) {
                seen = 1;
                if (way == 2) MPI_Win_sync(win);
                if (way == 1) MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
                for (int i = 1; i < size; i++) {
                    int got = flags[i], no_op = 0;
                    if (way == 3) {
                        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
                        MPI_Fetch_and_op(&no_op, &got, MPI_INT, 0, i, MPI_NO_OP, win);
                        MPI_Win_unlock(0, win);
                    }
                    seen += got == way;
                }
                if (way == 1) MPI_Win_unlock(0, win);
            }
            if (way == 2) MPI_Win_unlock_all(win);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        CHECK(rank != 0 || size == 1 || flags[size - 1] == way, "way %d: rank 0 saw every flag", way);
    }
    /* Post/start epochs whose groups are empty open and close. */
    CHECK_RC(MPI_Win_post(MPI_GROUP_EMPTY, 0, win), "MPI_Win_post(MPI_GROUP_EMPTY)");
    CHECK_RC(MPI_Win_start(MPI_GROUP_EMPTY, 0, win), "MPI_Win_start(MPI_GROUP_EMPTY)");
    CHECK_RC(MPI_Win_complete(win), "MPI_Win_complete of an empty group");
    CHECK_RC(MPI_Win_wait(win), "MPI_Win_wait of an empty group");
    MPI_Win_free(&win);
    check_section("rma", "polling its own window; empty post/start groups", 1);
}

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    fence_epochs();
    pscw();
    passive();
    lock_all();
    dynamic();
    shared_memory();
    attributes_and_errors();
    polling_own_memory();
    check_report("rma");
    MPI_Finalize();
    return 0;
}
