// SPDX-License-Identifier: Apache-2.0
/*
 * packing.c - datatypes by byte strides and subarrays, explicit packing and the collectives
 * with a type per block: MPI_Type_create_hvector, _hindexed and _hindexed_block (sent and
 * received, compared element by element), MPI_Type_create_subarray in C and Fortran order
 * (a 6x5 block of a 10x8 array sent to a neighbour, its extent the whole array),
 * MPI_Type_match_size, MPI_Pack/MPI_Unpack of ints, doubles and a vector type sent as
 * MPI_PACKED, MPI_Pack_size, MPI_Alltoallw (a different count and type to every rank, also
 * in place) and MPI_Ialltoallw, and MPI_Ireduce_scatter; MPI_Pack_external (sizes, bytes,
 * a struct with gaps sent to the next rank).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size;

static void byte_strides(void) {
    double a[40], b[40];
    for (int i = 0; i < 40; i++) { a[i] = rank * 100 + i; b[i] = -1; }
    MPI_Datatype hv, hi, hb;
    MPI_Type_create_hvector(4, 2, 5 * sizeof(double), MPI_DOUBLE, &hv);
    int lens[3] = {1, 3, 2};
    MPI_Aint disp[3] = {0, 7 * sizeof(double), 20 * sizeof(double)};
    MPI_Type_create_hindexed(3, lens, disp, MPI_DOUBLE, &hi);
    MPI_Type_create_hindexed_block(3, 2, disp, MPI_DOUBLE, &hb);
    MPI_Datatype types[3] = {hv, hi, hb};
    const int to = (rank + 1) % size, from = (rank + size - 1) % size;
    for (int t = 0; t < 3; t++) {
        MPI_Type_commit(&types[t]);
        int sz;
        MPI_Type_size(types[t], &sz);
        for (int i = 0; i < 40; i++) b[i] = -1;
        MPI_Sendrecv(a, 1, types[t], to, t, b, 1, types[t], from, t, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        /* Received into the same layout: the selected places hold the sender's, the others -1. */
        double expect[40];
        for (int i = 0; i < 40; i++) expect[i] = -1;
        if (t == 0) for (int k = 0; k < 4; k++) for (int j = 0; j < 2; j++) expect[k * 5 + j] = from * 100 + k * 5 + j;
        if (t == 1) for (int k = 0; k < 3; k++) for (int j = 0; j < lens[k]; j++) {
            int at = (int)(disp[k] / sizeof(double)) + j;
            expect[at] = from * 100 + at;
        }
        if (t == 2) for (int k = 0; k < 3; k++) for (int j = 0; j < 2; j++) {
            int at = (int)(disp[k] / sizeof(double)) + j;
            expect[at] = from * 100 + at;
        }
        int ok = 1;
        for (int i = 0; i < 40; i++) ok &= b[i] == expect[i];
        CHECK(ok, "type %d arrives in its places", t);
        if (rank == 0) printf("packing: type %d holds %d bytes\n", t, sz);
        MPI_Type_free(&types[t]);
    }
    check_section("packing", "hvector, hindexed, hindexed_block", 1);
}

static void subarrays(void) {
    int a[10][8], b[10][8];
    for (int i = 0; i < 10; i++) for (int j = 0; j < 8; j++) { a[i][j] = rank * 1000 + i * 8 + j; b[i][j] = -1; }
    int sizes[2] = {10, 8}, sub[2] = {6, 5}, starts[2] = {3, 2};
    const int orders[2] = {MPI_ORDER_C, MPI_ORDER_FORTRAN};
    const int to = (rank + 1) % size, from = (rank + size - 1) % size;
    for (int o = 0; o < 2; o++) {
        MPI_Datatype s;
        /* In Fortran order the first dimension varies fastest: give the shape reversed. */
        int fs[2] = {8, 10}, fsub[2] = {5, 6}, fst[2] = {2, 3};
        MPI_Type_create_subarray(2, o == 0 ? sizes : fs, o == 0 ? sub : fsub, o == 0 ? starts : fst, orders[o],
                                 MPI_INT, &s);
        MPI_Type_commit(&s);
        MPI_Aint lb, extent;
        MPI_Type_get_extent(s, &lb, &extent);
        CHECK(lb == 0 && extent == (MPI_Aint)sizeof a, "a subarray's extent is the array's: %ld", (long)extent);
        for (int i = 0; i < 10; i++) for (int j = 0; j < 8; j++) b[i][j] = -1;
        MPI_Sendrecv(a, 1, s, to, 9, b, 1, s, from, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        int ok = 1;
        for (int i = 0; i < 10; i++)
            for (int j = 0; j < 8; j++) {
                const int in = i >= 3 && i < 9 && j >= 2 && j < 7;
                ok &= b[i][j] == (in ? from * 1000 + i * 8 + j : -1);
            }
        CHECK(ok, "the subarray (order %d) arrives in its place", o);
        MPI_Type_free(&s);
    }
    /* (Which type: the standard leaves it open; Open MPI gives Fortran's REAL*8.) */
    MPI_Datatype m;
    int msize = 0;
    MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, &m);
    MPI_Type_size(m, &msize);
    CHECK(msize == 8, "an 8-byte real type has %d bytes", msize);
    MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 4, &m);
    MPI_Type_size(m, &msize);
    CHECK(msize == 4, "a 4-byte integer type has %d bytes", msize);
    check_section("packing", "subarrays and match_size", 1);
}

static void explicit_packing(void) {
    int ints[3] = {rank, rank * 2, rank * 3};
    double dbl[2] = {rank + 0.5, rank + 0.25};
    double grid[12];
    for (int i = 0; i < 12; i++) grid[i] = rank * 10 + i;
    MPI_Datatype col;
    MPI_Type_vector(3, 1, 4, MPI_DOUBLE, &col);
    MPI_Type_commit(&col);
    int s1, s2, s3;
    MPI_Pack_size(3, MPI_INT, MPI_COMM_WORLD, &s1);
    MPI_Pack_size(2, MPI_DOUBLE, MPI_COMM_WORLD, &s2);
    MPI_Pack_size(1, col, MPI_COMM_WORLD, &s3);
    CHECK(s1 >= 12 && s2 >= 16 && s3 >= 24, "pack sizes cover the data (%d %d %d)", s1, s2, s3);
    const int cap = s1 + s2 + s3;
    char *buf = malloc((size_t)cap), *in = malloc((size_t)cap);
    int pos = 0;
    MPI_Pack(ints, 3, MPI_INT, buf, cap, &pos, MPI_COMM_WORLD);
    MPI_Pack(dbl, 2, MPI_DOUBLE, buf, cap, &pos, MPI_COMM_WORLD);
    MPI_Pack(grid, 1, col, buf, cap, &pos, MPI_COMM_WORLD);
    const int to = (rank + 1) % size, from = (rank + size - 1) % size;
    MPI_Status st;
    MPI_Sendrecv(buf, pos, MPI_PACKED, to, 3, in, cap, MPI_PACKED, from, 3, MPI_COMM_WORLD, &st);
    int got = 0;
    MPI_Get_count(&st, MPI_PACKED, &got);
    CHECK(got == pos, "the packed message has %d bytes, %d were packed", got, pos);
    int ri[3];
    double rd[2], rg[12];
    for (int i = 0; i < 12; i++) rg[i] = -1;
    int upos = 0;
    MPI_Unpack(in, got, &upos, ri, 3, MPI_INT, MPI_COMM_WORLD);
    MPI_Unpack(in, got, &upos, rd, 2, MPI_DOUBLE, MPI_COMM_WORLD);
    MPI_Unpack(in, got, &upos, rg, 1, col, MPI_COMM_WORLD);
    CHECK(upos == got, "unpacking used %d of %d bytes", upos, got);
    CHECK(ri[0] == from && ri[1] == from * 2 && ri[2] == from * 3, "ints unpacked");
    CHECK(rd[0] == from + 0.5 && rd[1] == from + 0.25, "doubles unpacked");
    int ok = 1;
    for (int i = 0; i < 12; i++) ok &= rg[i] == (i % 4 == 0 ? from * 10 + i : -1);
    CHECK(ok, "the column unpacked into its places");
    free(buf);
    free(in);
    MPI_Type_free(&col);
    check_section("packing", "MPI_Pack and MPI_Unpack", 1);
}

/* MPI_Pack_external: big-endian bytes at the standard's sizes for the types whose sizes
   agree everywhere (int, double, the pairs of those, a struct of them), printed by rank 0;
   a struct with gaps sent as external32 to the next rank and unpacked there. */
static void external32(void) {
    struct rec { char c; int i; double d; short s; } r[2], got[2];
    int lens[4] = {1, 1, 1, 1};
    MPI_Aint displs[4] = {offsetof(struct rec, c), offsetof(struct rec, i), offsetof(struct rec, d),
                          offsetof(struct rec, s)};
    MPI_Datatype types[4] = {MPI_CHAR, MPI_INT, MPI_DOUBLE, MPI_SHORT}, st;
    MPI_Type_create_struct(4, lens, displs, types, &st);
    MPI_Type_commit(&st);
    const MPI_Datatype sized[] = {MPI_INT, MPI_DOUBLE, MPI_SHORT, MPI_DOUBLE_INT, MPI_SHORT_INT, MPI_2INT,
                                  MPI_FLOAT_INT, st};
    MPI_Aint n;
    for (int k = 0; k < 8; k++) {
        MPI_Pack_external_size("external32", 3, sized[k], &n);
        if (rank == 0)
            printf("packing: external32 size of 3 of type %d: %ld\n", k, (long)n);
    }
    int ints[3] = {0x01020304, -2, rank};
    double d = -1.5;
    struct { double v; int i; } di = {0.75, -3};
    unsigned char buf[64];
    MPI_Aint pos = 0;
    MPI_Pack_external("external32", ints, 2, MPI_INT, buf, sizeof buf, &pos);
    MPI_Pack_external("external32", &d, 1, MPI_DOUBLE, buf, sizeof buf, &pos);
    MPI_Pack_external("external32", &di, 1, MPI_DOUBLE_INT, buf, sizeof buf, &pos);
    CHECK(pos == 8 + 8 + 12, "external32 of 2 ints, a double and a double-int: %ld bytes", (long)pos);
    if (rank == 0) {
        printf("packing: external32 bytes");
        for (int i = 0; i < pos; i++)
            printf("%s%02x", i % 4 ? "" : " ", buf[i]);
        printf("\n");
    }
    MPI_Aint upos = 0;
    int back[2];
    double dback;
    MPI_Unpack_external("external32", buf, pos, &upos, back, 2, MPI_INT);
    CHECK(upos == 8 && back[0] == ints[0] && back[1] == -2, "ints back from external32");
    MPI_Unpack_external("external32", buf, pos, &upos, &dback, 1, MPI_DOUBLE);
    CHECK(upos == 16 && dback == -1.5, "a double back from external32");
    /* A struct with gaps, two of them, to the next rank. */
    for (int k = 0; k < 2; k++) {
        r[k].c = (char)('a' + rank % 26);
        r[k].i = rank * 1000 + k;
        r[k].d = rank + k * 0.125;
        r[k].s = (short)(-rank - k);
    }
    unsigned char out[64], in[64];
    MPI_Aint opos = 0, ipos = 0;
    MPI_Pack_external("external32", r, 2, st, out, sizeof out, &opos);
    CHECK(opos == 2 * (1 + 4 + 8 + 2), "two structs in external32: %ld bytes", (long)opos);
    const int to = (rank + 1) % size, from = (rank + size - 1) % size;
    MPI_Sendrecv(out, (int)opos, MPI_BYTE, to, 9, in, (int)opos, MPI_BYTE, from, 9, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    memset(got, 0, sizeof got);
    MPI_Unpack_external("external32", in, opos, &ipos, got, 2, st);
    for (int k = 0; k < 2; k++)
        CHECK(got[k].c == (char)('a' + from % 26) && got[k].i == from * 1000 + k && got[k].d == from + k * 0.125 &&
                  got[k].s == (short)(-from - k),
              "struct %d from rank %d through external32", k, from);
    MPI_Type_free(&st);
    check_section("packing", "MPI_Pack_external", 1);
}

/* MPI_Type_create_f90_*: the sized types of Fortran's kinds, their envelopes and contents
   (rank 0 prints them), the same handle for the same arguments, a reduction over one, and
   a kind no type has refused. */
static void f90_types(void) {
    MPI_Datatype t[5], again;
    int sz, ni, na, nd, comb, ints[2], cls = 0;
    MPI_Type_create_f90_real(6, 37, &t[0]);
    MPI_Type_create_f90_real(15, MPI_UNDEFINED, &t[1]);
    MPI_Type_create_f90_integer(9, &t[2]);
    MPI_Type_create_f90_integer(18, &t[3]);
    MPI_Type_create_f90_complex(15, 307, &t[4]);
    for (int i = 0; i < 5; i++) {
        MPI_Type_size(t[i], &sz);
        MPI_Type_get_envelope(t[i], &ni, &na, &nd, &comb);
        CHECK(ni >= 1 && ni <= 2 && na == 0 && nd == 0, "f90 type %d's envelope: %d %d %d", i, ni, na, nd);
        MPI_Type_get_contents(t[i], 2, 0, 0, ints, NULL, NULL);
        if (rank == 0)
            printf("packing: f90 type %d: size %d, combiner %s, arguments %d %d\n", i, sz,
                   comb == MPI_COMBINER_F90_REAL      ? "real"
                   : comb == MPI_COMBINER_F90_INTEGER ? "integer"
                   : comb == MPI_COMBINER_F90_COMPLEX ? "complex"
                                                      : "other",
                   ints[0], ni > 1 ? ints[1] : 0);
    }
    MPI_Type_create_f90_real(6, 37, &again);
    CHECK(again == t[0], "the same arguments give the same handle");
    double x[2] = {1.5, 2.5 + rank}, y[2];
    MPI_Allreduce(x, y, 2, t[1], MPI_SUM, MPI_COMM_WORLD);
    CHECK(y[0] == 1.5 * size && y[1] == 2.5 * size + size * (size - 1) / 2, "a sum over an f90 real");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Error_class(MPI_Type_create_f90_real(40, 5000, &again), &cls);
    CHECK(cls == MPI_ERR_ARG, "a real kind no type has is MPI_ERR_ARG (%d)", cls);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    check_section("packing", "MPI_Type_create_f90_*", 1);
}

static void alltoallw_and_friends(void) {
    /* To rank j: j + 1 ints; received as j + 1... from rank j: rank + 1 ints, as a
       contiguous type of rank + 1 ints. */
    int *scounts = malloc(sizeof(int) * size), *sdispls = malloc(sizeof(int) * size);
    int *rcounts = malloc(sizeof(int) * size), *rdispls = malloc(sizeof(int) * size);
    MPI_Datatype *stypes = malloc(sizeof(MPI_Datatype) * size), *rtypes = malloc(sizeof(MPI_Datatype) * size);
    MPI_Datatype mine;
    MPI_Type_contiguous(rank + 1, MPI_INT, &mine);
    MPI_Type_commit(&mine);
    int stotal = 0;
    for (int j = 0; j < size; j++) {
        scounts[j] = j + 1;
        sdispls[j] = stotal * (int)sizeof(int);
        stypes[j] = MPI_INT;
        stotal += j + 1;
        rcounts[j] = 1;
        rdispls[j] = j * (rank + 1) * (int)sizeof(int);
        rtypes[j] = mine;
    }
    int *send = malloc(sizeof(int) * stotal), *recv = malloc(sizeof(int) * size * (rank + 1));
    for (int j = 0, k = 0; j < size; j++)
        for (int i = 0; i <= j; i++) send[k++] = rank * 1000 + j * 10 + i;
    for (int pass = 0; pass < 2; pass++) {
        MPI_Request req;
        if (pass == 0) {
            MPI_Alltoallw(send, scounts, sdispls, stypes, recv, rcounts, rdispls, rtypes, MPI_COMM_WORLD);
        } else {
            MPI_Ialltoallw(send, scounts, sdispls, stypes, recv, rcounts, rdispls, rtypes, MPI_COMM_WORLD, &req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        }
        int ok = 1;
        for (int j = 0; j < size; j++)
            for (int i = 0; i <= rank; i++) ok &= recv[j * (rank + 1) + i] == j * 1000 + rank * 10 + i;
        CHECK(ok, "alltoallw pass %d", pass);
    }
    /* Ireduce_scatter: rank j gets j + 1 sums. */
    int total = size * (size + 1) / 2;
    int *in = malloc(sizeof(int) * total), *out = malloc(sizeof(int) * (rank + 1)), *counts = malloc(sizeof(int) * size);
    for (int i = 0; i < total; i++) in[i] = rank + i;
    for (int j = 0; j < size; j++) counts[j] = j + 1;
    MPI_Request req;
    MPI_Ireduce_scatter(in, out, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    const int before = rank * (rank + 1) / 2;
    int ok = 1;
    for (int i = 0; i <= rank; i++) ok &= out[i] == size * (size - 1) / 2 + size * (before + i);
    CHECK(ok, "ireduce_scatter");
    MPI_Type_free(&mine);
    free(scounts); free(sdispls); free(rcounts); free(rdispls); free(stypes); free(rtypes);
    free(send); free(recv); free(in); free(out); free(counts);
    check_section("packing", "alltoallw, ialltoallw, ireduce_scatter", 1);
}

/* How a type was made: MPI_Type_get_envelope. (MPI_Type_get_contents crashes in Open MPI
   4.1, so the behaviour test checks collnet's alone.) */
static void envelopes(void) {
    int ni, na, nd, comb;
    MPI_Type_get_envelope(MPI_DOUBLE, &ni, &na, &nd, &comb);
    CHECK(comb == MPI_COMBINER_NAMED && ni == 0 && na == 0 && nd == 0, "a named type's envelope");
    MPI_Datatype vec, st, res;
    MPI_Type_vector(3, 2, 5, MPI_DOUBLE, &vec);
    MPI_Type_get_envelope(vec, &ni, &na, &nd, &comb);
    CHECK(comb == MPI_COMBINER_VECTOR && ni == 3 && na == 0 && nd == 1, "a vector's envelope");
    int lens[2] = {1, 2};
    MPI_Aint displs[2] = {0, 16};
    MPI_Datatype types[2] = {MPI_INT, vec};
    MPI_Type_create_struct(2, lens, displs, types, &st);
    MPI_Type_get_envelope(st, &ni, &na, &nd, &comb);
    CHECK(comb == MPI_COMBINER_STRUCT && ni == 3 && na == 2 && nd == 2, "a struct's envelope");
    MPI_Type_create_resized(vec, 8, 100, &res);
    MPI_Type_get_envelope(res, &ni, &na, &nd, &comb);
    CHECK(comb == MPI_COMBINER_RESIZED && ni == 0 && na == 2 && nd == 1, "a resized type's envelope");
    MPI_Type_free(&res);
    MPI_Type_free(&st);
    MPI_Type_free(&vec);
    check_section("packing", "envelopes", 1);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    byte_strides();
    subarrays();
    explicit_packing();
    external32();
    f90_types();
    alltoallw_and_friends();
    envelopes();
    check_report("packing");
    MPI_Finalize();
    return 0;
}
