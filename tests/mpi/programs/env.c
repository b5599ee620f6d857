// SPDX-License-Identifier: Apache-2.0
/*
 * env.c - MPI environment: Initialized/Finalized flags, version, processor
 * name, Wtime/Wtick, MPI_COMM_SELF and MPI_COMM_WORLD basics, MPI_Pcontrol, MPI_TAG_UB;
 * MPI_Finalize deleting MPI_COMM_SELF's attributes first, the last set first, while MPI is
 * not yet finalized (where libraries hook their cleanup).
 */
#include "check.h"
#include <stdlib.h>
#include <string.h>

static const char *PROG = "env";

/* What MPI_Finalize's deletion of MPI_COMM_SELF's attributes saw: their values in the
   order deleted, and MPI_Finalized's answer meanwhile. */
static int deleted[2], deletions = 0, finalized_meanwhile = -1;

static int note_deletion(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm, (void)keyval, (void)extra;
    if (deletions < 2)
        deleted[deletions] = *(int *)value;
    deletions++;
    MPI_Finalized(&finalized_meanwhile);
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    int before_init = -1, fin_before_init = -1;
    int flag, rank, size, rc;

    /* These two may be called before MPI_Init. */
    MPI_Initialized(&before_init);
    MPI_Finalized(&fin_before_init);

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* flags */
    CHECK(before_init == 0, "MPI_Initialized before MPI_Init gave %d", before_init);
    CHECK(fin_before_init == 0, "MPI_Finalized before MPI_Init gave %d", fin_before_init);
    flag = -1;
    rc = MPI_Initialized(&flag);
    CHECK_RC(rc, "MPI_Initialized");
    CHECK(flag != 0, "MPI_Initialized after MPI_Init gave %d", flag);
    flag = -1;
    rc = MPI_Finalized(&flag);
    CHECK_RC(rc, "MPI_Finalized");
    CHECK(flag == 0, "MPI_Finalized before MPI_Finalize gave %d", flag);
    check_section(PROG, "init flags", 1);

    /* version */
    {
        int version = -1, subversion = -1;
        rc = MPI_Get_version(&version, &subversion);
        CHECK_RC(rc, "MPI_Get_version");
        CHECK(version >= 1, "version %d", version);
        CHECK(subversion >= 0, "subversion %d", subversion);
    }
    check_section(PROG, "version", 1);

    /* processor name */
    {
        char name[MPI_MAX_PROCESSOR_NAME + 1];
        int len = -1;
        memset(name, 'x', sizeof(name));
        rc = MPI_Get_processor_name(name, &len);
        CHECK_RC(rc, "MPI_Get_processor_name");
        CHECK(len > 0 && len < MPI_MAX_PROCESSOR_NAME, "processor name length %d", len);
        CHECK(name[len] == '\0', "processor name not terminated at length %d", len);
        CHECK((int)strlen(name) == len, "strlen %d != len %d", (int)strlen(name), len);
    }
    check_section(PROG, "processor name", 1);

    /* Wtime / Wtick */
    {
        double tick = MPI_Wtick();
        double t0, t1, prev;
        int i;
        CHECK(tick > 0.0, "MPI_Wtick %g", tick);
        CHECK(tick < 1.0, "MPI_Wtick %g is not below one second", tick);
        t0 = MPI_Wtime();
        MPI_Barrier(MPI_COMM_WORLD);
        t1 = MPI_Wtime();
        CHECK(t1 >= t0, "Wtime went backwards across a barrier: %g -> %g", t0, t1);
        prev = t1;
        for (i = 0; i < 10; i++) {
            double t = MPI_Wtime();
            if (t < prev)
                break;
            prev = t;
        }
        CHECK(i == 10, "Wtime went backwards in a loop");
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        CHECK(t0 >= t1, "Wtime went backwards across a second barrier");
    }
    check_section(PROG, "wtime", 1);

    /* MPI_COMM_SELF and MPI_COMM_WORLD */
    {
        int srank = -1, ssize = -1, sum = 0, one = 1, result;
        rc = MPI_Comm_size(MPI_COMM_SELF, &ssize);
        CHECK_RC(rc, "MPI_Comm_size(SELF)");
        rc = MPI_Comm_rank(MPI_COMM_SELF, &srank);
        CHECK_RC(rc, "MPI_Comm_rank(SELF)");
        CHECK(ssize == 1, "COMM_SELF size %d", ssize);
        CHECK(srank == 0, "COMM_SELF rank %d", srank);
        CHECK(size >= 1, "COMM_WORLD size %d", size);
        CHECK(rank >= 0 && rank < size, "COMM_WORLD rank %d of %d", rank, size);
        rc = MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        CHECK_RC(rc, "MPI_Allreduce");
        CHECK(sum == size, "allreduce of ones %d != size %d", sum, size);
        result = -1;
        rc = MPI_Allreduce(&rank, &result, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF);
        CHECK_RC(rc, "MPI_Allreduce(SELF)");
        CHECK(result == rank, "allreduce on COMM_SELF %d != %d", result, rank);
        MPI_Barrier(MPI_COMM_SELF);
    }
    check_section(PROG, "comm self/world", 1);

    /* MPI_Pcontrol: any level, no effect the program can see */
    CHECK_RC(MPI_Pcontrol(0), "MPI_Pcontrol(0)");
    CHECK_RC(MPI_Pcontrol(1), "MPI_Pcontrol(1)");
    CHECK_RC(MPI_Pcontrol(2, "a tool's argument"), "MPI_Pcontrol(2, ...)");
    check_section(PROG, "MPI_Pcontrol", 1);

    /* MPI_TAG_UB */
    {
        int *tag_ub = NULL;
        flag = 0;
        rc = MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag);
        CHECK_RC(rc, "MPI_Comm_get_attr(MPI_TAG_UB)");
        CHECK(flag != 0, "MPI_TAG_UB attribute not set");
        CHECK(flag != 0 && tag_ub != NULL && *tag_ub >= 32767, "MPI_TAG_UB %d < 32767",
              (flag && tag_ub) ? *tag_ub : -1);
    }
    check_section(PROG, "tag ub", 1);

    /*
     * Finish: one more check per rank is done after MPI_Finalize (the
     * Finalized/Initialized flags), so it is added to the reported total.
     */
    {
        long long total = 0;
        const int post_checks = 3;
        static int first = 1, second = 2;
        int key1, key2;
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, note_deletion, &key1, NULL);
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, note_deletion, &key2, NULL);
        MPI_Comm_set_attr(MPI_COMM_SELF, key2, &first); /* the keyvals' order is not the order set */
        MPI_Comm_set_attr(MPI_COMM_SELF, key1, &second);
        MPI_Reduce(&check_count, &total, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
        fflush(stdout);
        MPI_Finalize();
        if (deletions != 2 || deleted[0] != 2 || deleted[1] != 1 || finalized_meanwhile != 0) {
            printf("FAIL env.c:%d rank %d: MPI_Finalize deleted MPI_COMM_SELF's attributes %d times (%d, %d), "
                   "finalized meanwhile %d\n", __LINE__, rank, deletions, deleted[0], deleted[1], finalized_meanwhile);
            fflush(stdout);
            return 1;
        }
        if (rank == 0)
            printf("%s: MPI_COMM_SELF's attributes deleted first, the last set first ok\n", PROG);

        flag = 0;
        MPI_Finalized(&flag);
        if (!flag) {
            printf("FAIL env.c:%d rank %d: MPI_Finalized after MPI_Finalize gave 0\n", __LINE__, rank);
            fflush(stdout);
            return 1;
        }
        flag = 0;
        MPI_Initialized(&flag);
        if (!flag) {
            printf("FAIL env.c:%d rank %d: MPI_Initialized after MPI_Finalize gave 0\n", __LINE__, rank);
            fflush(stdout);
            return 1;
        }
        if (rank == 0) {
            printf("%s: finalize flags ok\n", PROG);
            printf("%s: %lld checks passed\n", PROG, total + (long long)post_checks * size);
        }
        fflush(stdout);
    }
    return 0;
}
