// SPDX-License-Identifier: Apache-2.0
/*
 * userop_scale.c - user-defined ops at size (its timing lines are NOT compared with Open
 * MPI; the "checks passed" line is):
 *
 *   userop_scale growing MAX   MPI_Reduce with a user op on a contiguous derived type (3
 *                              doubles), commutative and not, at every root in turn, with
 *                              counts growing 1, 3, 7, ... up to MAX, checked at the root;
 *                              then MPI_Allreduce the same way.
 *   userop_scale time COUNT    MPI_Reduce (root 0) and MPI_Allreduce of COUNT doubles with
 *                              a commutative user op that adds (every result is checked
 *                              exactly) and with MPI_SUM; rank 0 prints each one's cycles
 *                              (the slowest rank's, from MPI_Wtime in units of MPI_Wtick).
 *                              A non-commutative op rooted at 0 takes the same tree.
 *
 * Values are small integers, so every sum of them is exact in any order.
 */
#include <stdlib.h>

#include "check.h"

static const char *PROG = "userop_scale";
static int rank, size;

static void add(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    const double *x = in;
    double *y = inout;
    int n = *len, k;
    MPI_Type_size(*dt, &k);
    n *= k / (int)sizeof(double);
    for (int i = 0; i < n; i++) y[i] += x[i];
}

static double value(int r, long i) { return (double)((r * 31 + i) % 1000); }

static double total(long i)
{
    double t = 0;
    for (int r = 0; r < size; r++) t += value(r, i);
    return t;
}

static long growing(long max)
{
    MPI_Datatype triple;
    MPI_Op ops[2];
    MPI_Type_contiguous(3, MPI_DOUBLE, &triple);
    MPI_Type_commit(&triple);
    MPI_Op_create(add, 1, &ops[0]);
    MPI_Op_create(add, 0, &ops[1]);
    long rounds = 0;
    for (long count = 1; count <= max; count = 2 * count + 1) {
        const long n = 3 * count;
        double *in = malloc((size_t)n * sizeof(double)), *out = malloc((size_t)n * sizeof(double));
        for (long i = 0; i < n; i++) in[i] = value(rank, i);
        for (int o = 0; o < 2; o++) {
            for (int root = 0; root < size; root++) {
                for (long i = 0; i < n; i++) out[i] = -1;
                CHECK_RC(MPI_Reduce(in, out, (int)count, triple, ops[o], root, MPI_COMM_WORLD), "MPI_Reduce");
                if (rank == root) {
                    long bad = -1;
                    for (long i = 0; i < n && bad < 0; i++)
                        if (out[i] != total(i)) bad = i;
                    CHECK(bad < 0, "reduce of %ld triples (%s op) at root %d: element %ld", count,
                          o ? "non-commutative" : "commutative", root, bad);
                }
            }
            CHECK_RC(MPI_Allreduce(in, out, (int)count, triple, ops[o], MPI_COMM_WORLD), "MPI_Allreduce");
            long bad = -1;
            for (long i = 0; i < n && bad < 0; i++)
                if (out[i] != total(i)) bad = i;
            CHECK(bad < 0, "allreduce of %ld triples (%s op): element %ld", count,
                  o ? "non-commutative" : "commutative", bad);
        }
        free(in);
        free(out);
        rounds++;
    }
    MPI_Op_free(&ops[0]);
    MPI_Op_free(&ops[1]);
    MPI_Type_free(&triple);
    return rounds;
}

/* The slowest rank's cycles in one call of `what` on `count` doubles. */
static void timed(const char *what, int all, MPI_Op op, long count, const double *in, double *out)
{
    for (long i = 0; i < count; i++) out[i] = -1;
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    if (all)
        CHECK_RC(MPI_Allreduce(in, out, (int)count, MPI_DOUBLE, op, MPI_COMM_WORLD), "MPI_Allreduce");
    else
        CHECK_RC(MPI_Reduce(in, out, (int)count, MPI_DOUBLE, op, 0, MPI_COMM_WORLD), "MPI_Reduce");
    long cycles = (long)((MPI_Wtime() - t0) / MPI_Wtick() + 0.5), slowest = 0;
    if (all || rank == 0) {
        long bad = -1;
        for (long i = 0; i < count && bad < 0; i++)
            if (out[i] != total(i)) bad = i;
        CHECK(bad < 0, "%s of %ld doubles: element %ld is %g, not %g", what, count, bad,
              bad < 0 ? 0 : out[bad], bad < 0 ? 0 : total(bad));
    }
    MPI_Reduce(&cycles, &slowest, 1, MPI_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("%s: %d ranks, %ld doubles, %ld cycles\n", what, size, count, slowest);
        fflush(stdout);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const long n = argc == 3 ? strtol(argv[2], NULL, 10) : 0;
    if (n < 1 || n > (1L << 28) || (strcmp(argv[1], "growing") != 0 && strcmp(argv[1], "time") != 0)) {
        if (rank == 0) fprintf(stderr, "usage: userop_scale growing MAX | time COUNT (1..2^28)\n");
        MPI_Finalize();
        return 2;
    }
    if (strcmp(argv[1], "growing") == 0) {
        const long rounds = growing(n);
        check_section(PROG, "growing counts", rounds > 0);
    } else {
        double *in = malloc((size_t)n * sizeof(double)), *out = malloc((size_t)n * sizeof(double));
        MPI_Op user;
        MPI_Op_create(add, 1, &user);
        for (long i = 0; i < n; i++) in[i] = value(rank, i);
        timed("reduce user op", 0, user, n, in, out);
        timed("reduce MPI_SUM", 0, MPI_SUM, n, in, out);
        timed("allreduce user op", 1, user, n, in, out);
        timed("allreduce MPI_SUM", 1, MPI_SUM, n, in, out);
        MPI_Op_free(&user);
        free(in);
        free(out);
    }
    check_report(PROG);
    MPI_Finalize();
    return 0;
}
