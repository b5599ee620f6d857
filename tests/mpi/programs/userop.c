// SPDX-License-Identifier: Apache-2.0
/*
 * userop.c - user-defined reduction operators (MPI_Op_create):
 * commutative ops on MPI_2INT pairs and on a contiguous type, and a
 * non-commutative op (2x2 integer matrix product mod 1009) whose result must
 * equal the left-to-right product in rank order; used with Reduce (every
 * root), Allreduce, Scan, Exscan and Reduce_local; MPI_Op_free; an op that calls MPI
 * (its rank in MPI_COMM_WORLD, the size of the datatype it is handed) and is never
 * called with nothing to combine.
 */
#include "check.h"
#include <stdlib.h>

static const char *PROG = "userop";
static int rank, size;

/* ---- commutative: (a, b) + (c, d) = (a + c, max(b, d)) on MPI_2INT ---- */
typedef struct { int a, b; } pair;

static void pair_op(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    const pair *x = in;
    pair *y = inout;
    int i;
    (void)dt;
    for (i = 0; i < *len; i++) {
        y[i].a += x[i].a;
        y[i].b = x[i].b > y[i].b ? x[i].b : y[i].b;
    }
}

#define PN 5
static pair pair_val(int r, int i)
{
    pair p;
    p.a = r + i + 1;
    p.b = (r * 7 + i) % 11;
    return p;
}

static pair pair_prefix(int upto, int i)
{
    pair acc = pair_val(0, i);
    int r;
    for (r = 1; r <= upto; r++) {
        pair v = pair_val(r, i);
        acc.a += v.a;
        acc.b = v.b > acc.b ? v.b : acc.b;
    }
    return acc;
}

/* ---- commutative on contiguous(3, MPI_INT): (sum, min, xor) ---- */
static void triple_op(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    const int *x = in;
    int *y = inout, i;
    (void)dt;
    for (i = 0; i < *len; i++) {
        y[3 * i] += x[3 * i];
        y[3 * i + 1] = x[3 * i + 1] < y[3 * i + 1] ? x[3 * i + 1] : y[3 * i + 1];
        y[3 * i + 2] ^= x[3 * i + 2];
    }
}

/* ---- non-commutative: 2x2 matrix product mod 1009 on contiguous(4, MPI_INT) ---- */
#define MOD 1009
static void mat_mul(const int *x, const int *y, int *z) /* z = x * y */
{
    int t[4];
    t[0] = (x[0] * y[0] + x[1] * y[2]) % MOD;
    t[1] = (x[0] * y[1] + x[1] * y[3]) % MOD;
    t[2] = (x[2] * y[0] + x[3] * y[2]) % MOD;
    t[3] = (x[2] * y[1] + x[3] * y[3]) % MOD;
    z[0] = t[0];
    z[1] = t[1];
    z[2] = t[2];
    z[3] = t[3];
}

static void mat_op(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    const int *x = in; /* the operand from the lower ranks */
    int *y = inout, i;
    (void)dt;
    for (i = 0; i < *len; i++)
        mat_mul(x + 4 * i, y + 4 * i, y + 4 * i); /* inout = in * inout */
}

#define MN 3 /* matrices per rank */
static void mat_val(int r, int k, int *m)
{
    m[0] = (r + k) % 4 + 1;
    m[1] = k + 1;
    m[2] = (r * (k + 1)) % 3;
    m[3] = (r % 5) + 1;
}

/* product M_lo * ... * M_hi, in rank order */
static void mat_fold(int lo, int hi, int k, int *out)
{
    int r, m[4];
    mat_val(lo, k, out);
    for (r = lo + 1; r <= hi; r++) {
        mat_val(r, k, m);
        mat_mul(out, m, out);
    }
}

static int mats_bad(const int *got, int hi)
{
    int k, j, e[4];
    for (k = 0; k < MN; k++) {
        mat_fold(0, hi, k, e);
        for (j = 0; j < 4; j++)
            if (got[4 * k + j] != e[j])
                return 4 * k + j;
    }
    return -1;
}

static void test_commutative(void)
{
    MPI_Op op, op3;
    MPI_Datatype c3;
    pair in[PN], out[PN];
    int root, i, bad, t_in[6], t_out[6];
    MPI_Op_create(pair_op, 1, &op);
    for (i = 0; i < PN; i++)
        in[i] = pair_val(rank, i);
    for (root = 0; root < size; root++) {
        for (i = 0; i < PN; i++)
            out[i].a = out[i].b = -1;
        MPI_Reduce(in, out, PN, MPI_2INT, op, root, MPI_COMM_WORLD);
        if (rank == root) {
            bad = -1;
            for (i = 0; i < PN; i++) {
                pair e = pair_prefix(size - 1, i);
                if (out[i].a != e.a || out[i].b != e.b)
                    bad = i;
            }
            CHECK(bad < 0, "commutative reduce root %d wrong at %d", root, bad);
        }
    }
    MPI_Allreduce(in, out, PN, MPI_2INT, op, MPI_COMM_WORLD);
    bad = -1;
    for (i = 0; i < PN; i++) {
        pair e = pair_prefix(size - 1, i);
        if (out[i].a != e.a || out[i].b != e.b)
            bad = i;
    }
    CHECK(bad < 0, "commutative allreduce wrong at %d", bad);
    MPI_Scan(in, out, PN, MPI_2INT, op, MPI_COMM_WORLD);
    bad = -1;
    for (i = 0; i < PN; i++) {
        pair e = pair_prefix(rank, i);
        if (out[i].a != e.a || out[i].b != e.b)
            bad = i;
    }
    CHECK(bad < 0, "commutative scan wrong at %d", bad);
    MPI_Op_free(&op);
    CHECK(op == MPI_OP_NULL, "Op_free did not set MPI_OP_NULL");

    /* contiguous(3, MPI_INT) elements, in place */
    MPI_Type_contiguous(3, MPI_INT, &c3);
    MPI_Type_commit(&c3);
    MPI_Op_create(triple_op, 1, &op3);
    for (i = 0; i < 2; i++) {
        t_out[3 * i] = rank + i;
        t_out[3 * i + 1] = (rank * 5 + i) % 7;
        t_out[3 * i + 2] = 1 << ((rank + i) % 10);
        t_in[3 * i] = t_out[3 * i];
    }
    MPI_Allreduce(MPI_IN_PLACE, t_out, 2, c3, op3, MPI_COMM_WORLD);
    bad = -1;
    for (i = 0; i < 2; i++) {
        int r, s = 0, mn = 1000, x = 0;
        for (r = 0; r < size; r++) {
            s += r + i;
            mn = (r * 5 + i) % 7 < mn ? (r * 5 + i) % 7 : mn;
            x ^= 1 << ((r + i) % 10);
        }
        if (t_out[3 * i] != s || t_out[3 * i + 1] != mn || t_out[3 * i + 2] != x)
            bad = i;
    }
    CHECK(bad < 0 && t_in[0] == rank, "in-place allreduce on contiguous type wrong at %d", bad);
    MPI_Op_free(&op3);
    MPI_Type_free(&c3);
    check_section(PROG, "commutative user ops", 1);
}

static void test_noncommutative(void)
{
    MPI_Op op;
    MPI_Datatype m4;
    int in[4 * MN], out[4 * MN], root, k, bad;
    MPI_Type_contiguous(4, MPI_INT, &m4);
    MPI_Type_commit(&m4);
    MPI_Op_create(mat_op, 0, &op);
    for (k = 0; k < MN; k++)
        mat_val(rank, k, in + 4 * k);
    for (root = 0; root < size; root++) {
        for (k = 0; k < 4 * MN; k++)
            out[k] = -1;
        MPI_Reduce(in, out, MN, m4, op, root, MPI_COMM_WORLD);
        if (rank == root) {
            bad = mats_bad(out, size - 1);
            CHECK(bad < 0, "non-commutative reduce root %d wrong at %d", root, bad);
        }
    }
    MPI_Allreduce(in, out, MN, m4, op, MPI_COMM_WORLD);
    bad = mats_bad(out, size - 1);
    CHECK(bad < 0, "non-commutative allreduce wrong at %d", bad);
    MPI_Scan(in, out, MN, m4, op, MPI_COMM_WORLD);
    bad = mats_bad(out, rank);
    CHECK(bad < 0, "non-commutative scan wrong at %d", bad);
    MPI_Exscan(in, out, MN, m4, op, MPI_COMM_WORLD);
    if (rank > 0) {
        bad = mats_bad(out, rank - 1);
        CHECK(bad < 0, "non-commutative exscan wrong at %d", bad);
    }
    /* Reduce_local: inout = in op inout, in is the left operand */
    {
        int a[4], b[4], e[4];
        mat_val(1, 0, a);
        mat_val(2, 1, b);
        mat_mul(a, b, e);
        MPI_Reduce_local(a, b, 1, m4, op);
        CHECK(b[0] == e[0] && b[1] == e[1] && b[2] == e[2] && b[3] == e[3],
              "Reduce_local with a non-commutative op used the wrong order");
    }
    MPI_Op_free(&op);
    CHECK(op == MPI_OP_NULL, "Op_free did not set MPI_OP_NULL");
    MPI_Type_free(&m4);
    check_section(PROG, "non-commutative user op (rank order)", 1);
}

/* ---- the op calls MPI itself: it runs as the rank that applies it ----
 * It asks MPI_COMM_WORLD for its rank and the size of the datatype it was handed; rank 0
 * makes one datatype more first, so that the ranks' handles of the type differ. Every
 * call must answer as the rank whose reduction applies it, as in its own process. */
static int op_calls, op_wrong_rank, op_wrong_size, op_empty_calls;

static void asking_op(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    const int *x = in;
    int *y = inout, i, r = -1, bytes = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Type_size(*dt, &bytes);
    op_calls++;
    op_wrong_rank += r != rank;
    op_wrong_size += bytes != 3 * (int)sizeof(int);
    op_empty_calls += *len == 0;
    for (i = 0; i < 3 * *len; i++)
        y[i] += x[i];
}

static void test_op_calling_mpi(void)
{
    MPI_Datatype spare = MPI_DATATYPE_NULL, triple;
    MPI_Op op;
    int in[3 * 4], out[3 * 4], i, ok = 1, root;
    if (rank == 0)
        MPI_Type_contiguous(2, MPI_CHAR, &spare);
    MPI_Type_contiguous(3, MPI_INT, &triple);
    MPI_Type_commit(&triple);
    MPI_Op_create(asking_op, 1, &op);
    for (i = 0; i < 12; i++)
        in[i] = rank * 100 + i;
    for (root = 0; root < size; root++) {
        MPI_Reduce(in, out, 4, triple, op, root, MPI_COMM_WORLD);
        if (rank == root)
            for (i = 0; i < 12; i++)
                ok &= out[i] == 100 * size * (size - 1) / 2 + size * i;
    }
    MPI_Allreduce(in, out, 4, triple, op, MPI_COMM_WORLD);
    for (i = 0; i < 12; i++)
        ok &= out[i] == 100 * size * (size - 1) / 2 + size * i;
    MPI_Scan(in, out, 4, triple, op, MPI_COMM_WORLD);
    for (i = 0; i < 12; i++)
        ok &= out[i] == 100 * rank * (rank + 1) / 2 + (rank + 1) * i;
    MPI_Allreduce(in, out, 0, triple, op, MPI_COMM_WORLD); /* nothing to combine */
    MPI_Reduce_local(in, out, 0, triple, op);
    CHECK(ok, "a reduction with the op that calls MPI is wrong");
    CHECK(op_wrong_rank == 0, "%d of %d calls of the op saw another rank in MPI_COMM_WORLD", op_wrong_rank, op_calls);
    CHECK(op_wrong_size == 0, "%d of %d calls of the op got a wrong size for its datatype", op_wrong_size, op_calls);
    CHECK(op_empty_calls == 0, "the op was called %d times with *len == 0", op_empty_calls);
    MPI_Op_free(&op);
    MPI_Type_free(&triple);
    if (spare != MPI_DATATYPE_NULL)
        MPI_Type_free(&spare);
    check_section(PROG, "an op that calls MPI_Comm_rank and MPI_Type_size", 1);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    test_commutative();
    test_noncommutative();
    test_op_calling_mpi();
    check_report(PROG);
    MPI_Finalize();
    return 0;
}
