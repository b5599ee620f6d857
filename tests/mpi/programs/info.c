// SPDX-License-Identifier: Apache-2.0
/*
 * info.c - the calls a program makes around its communication: info objects (set, get,
 * value lengths, keys by number, delete, dup, free, the errors of a missing key and of a
 * freed object), MPI_Alloc_mem and MPI_Free_mem (a message sent from and received into
 * such memory), MPI_Get_library_version, MPI_Is_thread_main and MPI_Query_thread,
 * MPI_Dims_create (free and fixed dimensions, printed by rank 0) and
 * MPI_Type_get_true_extent of derived types; communicator hints (MPI_Comm_dup_with_info,
 * MPI_Comm_set_info, MPI_Comm_get_info); MPI_Comm_get_parent, the handles' _c2f/_f2c
 * and MPI_Status_c2f/_f2c.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size;

static void info_objects(void) {
    MPI_Info info, copy;
    char value[MPI_MAX_INFO_VAL + 1], key[MPI_MAX_INFO_KEY + 1];
    int flag, len, nkeys;
    CHECK_RC(MPI_Info_create(&info), "MPI_Info_create");
    MPI_Info_get_nkeys(info, &nkeys);
    CHECK(nkeys == 0, "a new info has %d keys", nkeys);
    MPI_Info_set(info, "collnet_block", "4096");
    MPI_Info_set(info, "collnet_mode", "fast");
    MPI_Info_set(info, "collnet_block", "8192"); /* replaces the value, keeps the key's place */
    MPI_Info_get_nkeys(info, &nkeys);
    CHECK(nkeys == 2, "two keys, not %d", nkeys);
    MPI_Info_get_nthkey(info, 0, key);
    CHECK(strcmp(key, "collnet_block") == 0, "key 0 is %s", key);
    MPI_Info_get_nthkey(info, 1, key);
    CHECK(strcmp(key, "collnet_mode") == 0, "key 1 is %s", key);
    MPI_Info_get(info, "collnet_block", MPI_MAX_INFO_VAL, value, &flag);
    CHECK(flag && strcmp(value, "8192") == 0, "collnet_block is %s (flag %d)", value, flag);
    MPI_Info_get(info, "collnet_block", 2, value, &flag); /* only 2 characters fit */
    CHECK(flag && strcmp(value, "81") == 0, "a short buffer gets %s", value);
    MPI_Info_get_valuelen(info, "collnet_mode", &len, &flag);
    CHECK(flag && len == 4, "collnet_mode's value has %d characters", len);
    MPI_Info_get(info, "absent", MPI_MAX_INFO_VAL, value, &flag);
    CHECK(!flag, "an absent key is not found");
    MPI_Info_get_valuelen(info, "absent", &len, &flag);
    CHECK(!flag, "an absent key has no value length");

    CHECK_RC(MPI_Info_dup(info, &copy), "MPI_Info_dup");
    MPI_Info_delete(info, "collnet_block");
    MPI_Info_get_nkeys(info, &nkeys);
    CHECK(nkeys == 1, "one key left after delete, not %d", nkeys);
    MPI_Info_get_nkeys(copy, &nkeys);
    CHECK(nkeys == 2, "the copy keeps both keys, not %d", nkeys);
    MPI_Info_get(copy, "collnet_block", MPI_MAX_INFO_VAL, value, &flag);
    CHECK(flag && strcmp(value, "8192") == 0, "the copy's value is %s", value);

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc = MPI_Info_delete(info, "collnet_block"), cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(rc != MPI_SUCCESS && cls == MPI_ERR_INFO_NOKEY, "deleting an absent key: class %d", cls);
    CHECK_RC(MPI_Info_free(&info), "MPI_Info_free");
    CHECK(info == MPI_INFO_NULL, "a freed info is MPI_INFO_NULL");
    CHECK_RC(MPI_Info_free(&copy), "MPI_Info_free");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    check_section("info", "info objects", 1);
}

static void communicator_hints(void) {
    MPI_Info info, used;
    MPI_Comm dup;
    int dsize = -1, drank = -1, sum = 0, nkeys = -1;
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_assert_no_any_tag", "false");
    CHECK_RC(MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &dup), "MPI_Comm_dup_with_info");
    MPI_Comm_size(dup, &dsize);
    MPI_Comm_rank(dup, &drank);
    MPI_Allreduce(&drank, &sum, 1, MPI_INT, MPI_SUM, dup);
    CHECK(dsize == size && drank == rank && sum == size * (size - 1) / 2, "the duplicate works (sum %d)", sum);
    CHECK_RC(MPI_Comm_set_info(dup, info), "MPI_Comm_set_info");
    CHECK_RC(MPI_Comm_get_info(dup, &used), "MPI_Comm_get_info");
    CHECK_RC(MPI_Info_get_nkeys(used, &nkeys), "MPI_Info_get_nkeys of the info used");
    CHECK(used != MPI_INFO_NULL && nkeys >= 0, "MPI_Comm_get_info gives an info object");
    MPI_Info_free(&used);
    MPI_Info_free(&info);
    MPI_Comm_free(&dup);
    check_section("info", "communicator hints", 1);
}

static void handles(void) {
    MPI_Comm parent = MPI_COMM_WORLD, dup;
    MPI_Datatype pair;
    MPI_Group group;
    MPI_Info info;
    CHECK_RC(MPI_Comm_get_parent(&parent), "MPI_Comm_get_parent");
    CHECK(parent == MPI_COMM_NULL, "a process mpirun started has no parent");
    /* Handles through their Fortran integers and back. */
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Comm_group(dup, &group);
    MPI_Info_create(&info);
    CHECK(MPI_Comm_f2c(MPI_Comm_c2f(MPI_COMM_WORLD)) == MPI_COMM_WORLD && MPI_Comm_f2c(MPI_Comm_c2f(dup)) == dup,
          "communicators through MPI_Fint");
    CHECK(MPI_Type_f2c(MPI_Type_c2f(pair)) == pair && MPI_Type_f2c(MPI_Type_c2f(MPI_DOUBLE)) == MPI_DOUBLE,
          "datatypes through MPI_Fint");
    CHECK(MPI_Group_f2c(MPI_Group_c2f(group)) == group && MPI_Info_f2c(MPI_Info_c2f(info)) == info &&
              MPI_Op_f2c(MPI_Op_c2f(MPI_MAX)) == MPI_MAX &&
              MPI_Request_f2c(MPI_Request_c2f(MPI_REQUEST_NULL)) == MPI_REQUEST_NULL &&
              MPI_Errhandler_f2c(MPI_Errhandler_c2f(MPI_ERRORS_RETURN)) == MPI_ERRORS_RETURN,
          "groups, infos, ops, requests and error handlers through MPI_Fint");
    {
        /* A status through its Fortran integers and back (room for any MPI's status size). */
        int me, size, value = 7, got = 0, count = -1;
        MPI_Fint f_status[16];
        MPI_Status sent, back;
        MPI_Comm_rank(dup, &me);
        MPI_Comm_size(dup, &size);
        MPI_Sendrecv(&value, 1, MPI_INT, (me + 1) % size, 40 + me, &got, 1, MPI_INT, (me + size - 1) % size,
                     MPI_ANY_TAG, dup, &sent);
        CHECK_RC(MPI_Status_c2f(&sent, f_status), "MPI_Status_c2f");
        CHECK_RC(MPI_Status_f2c(f_status, &back), "MPI_Status_f2c");
        MPI_Get_count(&back, MPI_INT, &count);
        CHECK(back.MPI_SOURCE == (me + size - 1) % size && back.MPI_TAG == 40 + back.MPI_SOURCE && count == 1 &&
                  got == 7,
              "a status through MPI_Status_c2f and MPI_Status_f2c keeps its source, tag and count");
    }
    MPI_Info_free(&info);
    MPI_Group_free(&group);
    MPI_Type_free(&pair);
    MPI_Comm_free(&dup);
    check_section("info", "MPI_Comm_get_parent and handles through MPI_Fint", 1);
}

static void memory(void) {
    int *buf = NULL, *in = NULL;
    const int n = 1000;
    CHECK_RC(MPI_Alloc_mem((MPI_Aint)(n * sizeof(int)), MPI_INFO_NULL, &buf), "MPI_Alloc_mem");
    CHECK_RC(MPI_Alloc_mem((MPI_Aint)(n * sizeof(int)), MPI_INFO_NULL, &in), "MPI_Alloc_mem");
    CHECK(buf != NULL && in != NULL, "MPI_Alloc_mem gives memory");
    for (int i = 0; i < n; i++) buf[i] = rank * 100000 + i;
    const int to = (rank + 1) % size, from = (rank + size - 1) % size;
    MPI_Sendrecv(buf, n, MPI_INT, to, 5, in, n, MPI_INT, from, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int ok = 1;
    for (int i = 0; i < n; i++) ok &= in[i] == from * 100000 + i;
    CHECK(ok, "a message from and into MPI_Alloc_mem memory arrives whole");
    CHECK_RC(MPI_Free_mem(buf), "MPI_Free_mem");
    CHECK_RC(MPI_Free_mem(in), "MPI_Free_mem");
    check_section("info", "MPI_Alloc_mem and MPI_Free_mem", 1);
}

static void environment(void) {
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = -1, flag = 0, provided = -1;
    CHECK_RC(MPI_Get_library_version(version, &len), "MPI_Get_library_version");
    /* resultlen counts the characters (Open MPI counts the terminating null too) */
    CHECK(len > 0 && (int)strlen(version) > 0 && (int)strlen(version) <= len, "the library version has %d characters", len);
    MPI_Is_thread_main(&flag);
    CHECK(flag, "the thread that called MPI_Init is the main thread");
    MPI_Query_thread(&provided);
    CHECK(provided >= MPI_THREAD_SINGLE && provided <= MPI_THREAD_MULTIPLE, "MPI_Query_thread gives %d", provided);
    check_section("info", "library version and threads", 1);
}

static void dims(void) {
    static const int nodes[] = {1, 2, 6, 12, 16, 24, 27, 30, 64, 72, 97, 128, 360, 512};
    for (unsigned k = 0; k < sizeof nodes / sizeof nodes[0]; k++)
        for (int nd = 1; nd <= 4; nd++) {
            int d[4] = {0, 0, 0, 0};
            CHECK_RC(MPI_Dims_create(nodes[k], nd, d), "MPI_Dims_create");
            int product = 1;
            for (int i = 0; i < nd; i++) product *= d[i];
            CHECK(product == nodes[k], "the dimensions of %d multiply to %d", nodes[k], product);
            if (rank == 0) printf("info: MPI_Dims_create(%d, %d) = %d %d %d %d\n", nodes[k], nd, d[0], d[1], d[2], d[3]);
        }
    int fixed[3] = {0, 3, 0};
    MPI_Dims_create(36, 3, fixed);
    CHECK(fixed[1] == 3 && fixed[0] * fixed[2] == 12, "a fixed dimension is kept");
    if (rank == 0) printf("info: MPI_Dims_create(36, 3) with 3 fixed = %d %d %d\n", fixed[0], fixed[1], fixed[2]);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int bad[2] = {0, 5}, cls = -1;
    MPI_Error_class(MPI_Dims_create(12, 2, bad), &cls);
    CHECK(cls == MPI_ERR_DIMS, "a fixed dimension that does not divide nnodes: class %d", cls);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    check_section("info", "MPI_Dims_create", 1);
}

static void true_extent(void) {
    MPI_Datatype vec, resized, contig;
    MPI_Aint lb, extent, tlb, textent;
    MPI_Type_vector(3, 2, 5, MPI_DOUBLE, &vec);
    MPI_Type_create_resized(vec, -16, 200, &resized);
    MPI_Type_contiguous(4, MPI_INT, &contig);
    MPI_Datatype types[] = {MPI_INT, MPI_DOUBLE, vec, resized, contig};
    const char *names[] = {"MPI_INT", "MPI_DOUBLE", "vector(3, 2, 5) of double", "that resized to (-16, 200)",
                           "contiguous(4) of int"};
    for (int i = 0; i < 5; i++) {
        MPI_Type_commit(&types[i]);
        MPI_Type_get_extent(types[i], &lb, &extent);
        MPI_Type_get_true_extent(types[i], &tlb, &textent);
        CHECK(textent >= 0 && tlb >= lb, "true bounds inside the bounds");
        if (rank == 0)
            printf("info: %s: lb %ld extent %ld true lb %ld true extent %ld\n", names[i], (long)lb, (long)extent,
                   (long)tlb, (long)textent);
    }
    MPI_Type_free(&resized);
    MPI_Type_free(&vec);
    MPI_Type_free(&contig);
    check_section("info", "MPI_Type_get_true_extent", 1);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    info_objects();
    communicator_hints();
    handles();
    memory();
    environment();
    dims();
    true_extent();
    check_report("info");
    MPI_Finalize();
    return 0;
}
