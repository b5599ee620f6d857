// SPDX-License-Identifier: Apache-2.0
/*
 * scan.c - MPI_Scan and MPI_Exscan with SUM/MAX/PROD on int and double,
 * also with MPI_IN_PLACE.  The Exscan result on rank 0 is undefined and is
 * not checked.
 */
#include "check.h"

static const char *PROG = "scan";
static int rank, size;

#define N 8
enum { O_SUM, O_MAX, O_PROD };
static const char *names[3] = {"SUM", "MAX", "PROD"};

static MPI_Op op_of(int o) { return o == O_SUM ? MPI_SUM : (o == O_MAX ? MPI_MAX : MPI_PROD); }

static int ival(int o, int r, int i)
{
    if (o == O_SUM)
        return r + i - 3;
    if (o == O_MAX)
        return (r * 7 + i) % 5 - 2;
    return r % 8 == i % 8 ? 2 : (r % 9 == i ? -1 : 1); /* at most 8 factors of 2 */
}

static double dval(int o, int r, int i)
{
    if (o == O_SUM)
        return r * 0.5 - i;
    if (o == O_MAX)
        return ((r * 7 + i) % 5 - 2) * 0.5;
    return r % 8 == i % 8 ? 2.0 : (r % 8 == (i + 4) % 8 ? 0.5 : 1.0);
}

/* combination of ranks 0..upto (inclusive) */
static int iprefix(int o, int upto, int i)
{
    int r, acc = ival(o, 0, i);
    for (r = 1; r <= upto; r++) {
        int v = ival(o, r, i);
        acc = o == O_SUM ? acc + v : (o == O_MAX ? (v > acc ? v : acc) : acc * v);
    }
    return acc;
}

static double dprefix(int o, int upto, int i)
{
    int r;
    double acc = dval(o, 0, i);
    for (r = 1; r <= upto; r++) {
        double v = dval(o, r, i);
        acc = o == O_SUM ? acc + v : (o == O_MAX ? (v > acc ? v : acc) : acc * v);
    }
    return acc;
}

static void test_scan(int exclusive)
{
    int o, i, pass, bad, in[N], out[N];
    double din[N], dout[N];
    const char *what = exclusive ? "exscan" : "scan";
    int upto = exclusive ? rank - 1 : rank;
    for (o = 0; o < 3; o++) {
        for (pass = 0; pass < 2; pass++) { /* pass 1: in place */
            for (i = 0; i < N; i++) {
                in[i] = ival(o, rank, i);
                out[i] = pass ? in[i] : -77;
                din[i] = dval(o, rank, i);
                dout[i] = pass ? din[i] : -77.0;
            }
            if (exclusive) {
                MPI_Exscan(pass ? MPI_IN_PLACE : (void *)in, out, N, MPI_INT, op_of(o), MPI_COMM_WORLD);
                MPI_Exscan(pass ? MPI_IN_PLACE : (void *)din, dout, N, MPI_DOUBLE, op_of(o), MPI_COMM_WORLD);
            } else {
                MPI_Scan(pass ? MPI_IN_PLACE : (void *)in, out, N, MPI_INT, op_of(o), MPI_COMM_WORLD);
                MPI_Scan(pass ? MPI_IN_PLACE : (void *)din, dout, N, MPI_DOUBLE, op_of(o), MPI_COMM_WORLD);
            }
            if (upto < 0)
                continue; /* rank 0 of an exscan: result undefined */
            bad = -1;
            for (i = 0; i < N; i++)
                if (out[i] != iprefix(o, upto, i))
                    bad = i;
            CHECK(bad < 0, "%s%s %s int wrong at %d", what, pass ? " in place" : "", names[o], bad);
            bad = -1;
            for (i = 0; i < N; i++)
                if (dout[i] != dprefix(o, upto, i))
                    bad = i;
            CHECK(bad < 0, "%s%s %s double wrong at %d", what, pass ? " in place" : "", names[o], bad);
        }
    }
    check_section(PROG, exclusive ? "exscan SUM/MAX/PROD int/double (and in place)"
                                  : "scan SUM/MAX/PROD int/double (and in place)", 1);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    test_scan(0);
    test_scan(1);
    check_report(PROG);
    MPI_Finalize();
    return 0;
}
