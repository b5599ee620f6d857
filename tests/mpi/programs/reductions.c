// SPDX-License-Identifier: Apache-2.0
/*
 * reductions.c - every predefined reduction op on every basic type it
 * applies to: SUM/PROD/MAX/MIN on integer and floating types, LAND/LOR/LXOR
 * on integer types, BAND/BOR/BXOR on integer types and MPI_BYTE;
 * MAXLOC/MINLOC on MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT, MPI_2INT,
 * MPI_SHORT_INT with ties (the smaller index wins); MPI_Reduce_local.
 * All values are small so no result overflows and floating sums are exact.
 */
#include "check.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *PROG = "reductions";
static int rank, size;

#define N 23 /* elements per reduction */

typedef struct {
    MPI_Datatype type;
    const char *name;
    int bytes;     /* element size */
    int is_signed; /* for integers */
    int is_float;
    int is_byte;   /* MPI_BYTE: bitwise ops only */
} tinfo;

enum { OP_SUM, OP_PROD, OP_MAX, OP_MIN, OP_LAND, OP_LOR, OP_LXOR, OP_BAND, OP_BOR, OP_BXOR, NOPS };
static const char *op_names[NOPS] = {"SUM", "PROD", "MAX", "MIN", "LAND", "LOR", "LXOR", "BAND", "BOR", "BXOR"};

static MPI_Op op_handle(int o)
{
    switch (o) {
    case OP_SUM: return MPI_SUM;
    case OP_PROD: return MPI_PROD;
    case OP_MAX: return MPI_MAX;
    case OP_MIN: return MPI_MIN;
    case OP_LAND: return MPI_LAND;
    case OP_LOR: return MPI_LOR;
    case OP_LXOR: return MPI_LXOR;
    case OP_BAND: return MPI_BAND;
    case OP_BOR: return MPI_BOR;
    default: return MPI_BXOR;
    }
}

static int op_applies(const tinfo *t, int o)
{
    if (t->is_byte)
        return o == OP_BAND || o == OP_BOR || o == OP_BXOR;
    if (t->is_float)
        return o == OP_SUM || o == OP_PROD || o == OP_MAX || o == OP_MIN;
    return 1;
}

/* ---- element access ---- */
static void put_int(const tinfo *t, void *buf, int i, long long v)
{
    switch (t->bytes * 2 + (t->is_signed ? 1 : 0)) {
    case 3: ((int8_t *)buf)[i] = (int8_t)v; break;
    case 2: ((uint8_t *)buf)[i] = (uint8_t)v; break;
    case 5: ((int16_t *)buf)[i] = (int16_t)v; break;
    case 4: ((uint16_t *)buf)[i] = (uint16_t)v; break;
    case 9: ((int32_t *)buf)[i] = (int32_t)v; break;
    case 8: ((uint32_t *)buf)[i] = (uint32_t)v; break;
    case 17: ((int64_t *)buf)[i] = (int64_t)v; break;
    default: ((uint64_t *)buf)[i] = (uint64_t)v; break;
    }
}

static long long get_int(const tinfo *t, const void *buf, int i)
{
    switch (t->bytes * 2 + (t->is_signed ? 1 : 0)) {
    case 3: return ((const int8_t *)buf)[i];
    case 2: return ((const uint8_t *)buf)[i];
    case 5: return ((const int16_t *)buf)[i];
    case 4: return ((const uint16_t *)buf)[i];
    case 9: return ((const int32_t *)buf)[i];
    case 8: return ((const uint32_t *)buf)[i];
    case 17: return (long long)((const int64_t *)buf)[i];
    default: return (long long)((const uint64_t *)buf)[i];
    }
}

static void put_flt(const tinfo *t, void *buf, int i, double v)
{
    if (t->bytes == 4)
        ((float *)buf)[i] = (float)v;
    else
        ((double *)buf)[i] = v;
}

static double get_flt(const tinfo *t, const void *buf, int i)
{
    return t->bytes == 4 ? ((const float *)buf)[i] : ((const double *)buf)[i];
}

/* ---- input values: element i of rank r for op o ---- */
static long long int_value(const tinfo *t, int o, int r, int i)
{
    switch (o) {
    case OP_SUM: /* |sum| <= 64 */
        return t->is_signed ? (r + 2 * i) % 3 - 1 : (r + 2 * i) % 2;
    case OP_PROD: /* at most six factors of 2 (and -1 for signed): |product| <= 64 */
        if (r % 11 == i % 11)
            return 2;
        if (t->is_signed && r % 13 == (i + 5) % 13)
            return -1;
        return 1;
    case OP_MAX:
    case OP_MIN:
        return t->is_signed ? (r * 7 + i * 3) % 13 - 6 : (r * 7 + i * 3) % 13;
    case OP_LAND:
    case OP_LOR:
    case OP_LXOR:
        return (r * 3 + i) % 17 == 0 ? 0 : (r * 5 + i) % 7 + 1;
    default: { /* bitwise: non-negative, fits the type */
        long long mask = t->bytes == 1 ? 0x7f : (t->bytes == 2 ? 0x7fff : 0x7fffffff);
        long long v = ((long long)r * 2654435761LL + (long long)i * 40503LL + 12345) & mask;
        if (t->bytes == 8)
            v |= (long long)((r + i) % 4) << 33;
        return v;
    }
    }
}

static double flt_value(int o, int r, int i)
{
    switch (o) {
    case OP_SUM:
        return ((r + 2 * i) % 3 - 1) * 0.5;
    case OP_PROD:
        if (r % 11 == i % 11)
            return 2.0;
        if (r % 13 == (i + 5) % 13)
            return -0.5;
        return 1.0;
    default:
        return ((r * 7 + i * 3) % 13 - 6) * 0.5;
    }
}

static long long int_combine(int o, long long a, long long b)
{
    switch (o) {
    case OP_SUM: return a + b;
    case OP_PROD: return a * b;
    case OP_MAX: return a > b ? a : b;
    case OP_MIN: return a < b ? a : b;
    case OP_LAND: return (a != 0) && (b != 0);
    case OP_LOR: return (a != 0) || (b != 0);
    case OP_LXOR: return (a != 0) != (b != 0);
    case OP_BAND: return a & b;
    case OP_BOR: return a | b;
    default: return a ^ b;
    }
}

static double flt_combine(int o, double a, double b)
{
    switch (o) {
    case OP_SUM: return a + b;
    case OP_PROD: return a * b;
    case OP_MAX: return a > b ? a : b;
    default: return a < b ? a : b;
    }
}

/* one reduction of type t with op o; index selects Allreduce or Reduce to a root */
static void run_one(const tinfo *t, int o, int index, void *in, void *out)
{
    int i, r, bad = -1, root = index % size, use_all = index % 2 == 0;
    for (i = 0; i < N; i++) {
        if (t->is_float)
            put_flt(t, in, i, flt_value(o, rank, i));
        else
            put_int(t, in, i, int_value(t, o, rank, i));
    }
    memset(out, 0x55, (size_t)N * 8);
    if (use_all)
        MPI_Allreduce(in, out, N, t->type, op_handle(o), MPI_COMM_WORLD);
    else
        MPI_Reduce(in, out, N, t->type, op_handle(o), root, MPI_COMM_WORLD);
    if (!use_all && rank != root)
        return;
    for (i = 0; i < N && bad < 0; i++) {
        if (t->is_float) {
            double acc = flt_value(o, 0, i);
            for (r = 1; r < size; r++)
                acc = flt_combine(o, acc, flt_value(o, r, i));
            if (get_flt(t, out, i) != acc)
                bad = i;
        } else {
            long long acc = int_value(t, o, 0, i), got = get_int(t, out, i);
            for (r = 1; r < size; r++)
                acc = int_combine(o, acc, int_value(t, o, r, i));
            if (o == OP_LAND || o == OP_LOR || o == OP_LXOR) {
                if ((got != 0) != (acc != 0))
                    bad = i;
            } else if (got != acc) {
                bad = i;
            }
        }
    }
    CHECK(bad < 0, "%s %s on %s wrong at element %d", use_all ? "allreduce" : "reduce", op_names[o],
          t->name, bad);
}

static void test_predefined(void)
{
    tinfo types[22];
    int nt = 0, t, o, index = 0;
    void *in = malloc(N * 8), *out = malloc(N * 8);
#define T(ty, nm, by, sg, fl, bt)                                                                  \
    do {                                                                                           \
        types[nt].type = ty;                                                                       \
        types[nt].name = nm;                                                                       \
        types[nt].bytes = by;                                                                      \
        types[nt].is_signed = sg;                                                                  \
        types[nt].is_float = fl;                                                                   \
        types[nt].is_byte = bt;                                                                    \
        nt++;                                                                                      \
    } while (0)
    T(MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR", 1, 1, 0, 0);
    T(MPI_UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR", 1, 0, 0, 0);
    T(MPI_SHORT, "MPI_SHORT", (int)sizeof(short), 1, 0, 0);
    T(MPI_UNSIGNED_SHORT, "MPI_UNSIGNED_SHORT", (int)sizeof(unsigned short), 0, 0, 0);
    T(MPI_INT, "MPI_INT", (int)sizeof(int), 1, 0, 0);
    T(MPI_UNSIGNED, "MPI_UNSIGNED", (int)sizeof(unsigned), 0, 0, 0);
    T(MPI_LONG, "MPI_LONG", (int)sizeof(long), 1, 0, 0);
    T(MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG", (int)sizeof(unsigned long), 0, 0, 0);
    T(MPI_LONG_LONG, "MPI_LONG_LONG", (int)sizeof(long long), 1, 0, 0);
    T(MPI_LONG_LONG_INT, "MPI_LONG_LONG_INT", (int)sizeof(long long), 1, 0, 0);
    T(MPI_UNSIGNED_LONG_LONG, "MPI_UNSIGNED_LONG_LONG", (int)sizeof(unsigned long long), 0, 0, 0);
    T(MPI_INT8_T, "MPI_INT8_T", 1, 1, 0, 0);
    T(MPI_INT16_T, "MPI_INT16_T", 2, 1, 0, 0);
    T(MPI_INT32_T, "MPI_INT32_T", 4, 1, 0, 0);
    T(MPI_INT64_T, "MPI_INT64_T", 8, 1, 0, 0);
    T(MPI_UINT8_T, "MPI_UINT8_T", 1, 0, 0, 0);
    T(MPI_UINT16_T, "MPI_UINT16_T", 2, 0, 0, 0);
    T(MPI_UINT32_T, "MPI_UINT32_T", 4, 0, 0, 0);
    T(MPI_UINT64_T, "MPI_UINT64_T", 8, 0, 0, 0);
    T(MPI_FLOAT, "MPI_FLOAT", (int)sizeof(float), 0, 1, 0);
    T(MPI_DOUBLE, "MPI_DOUBLE", (int)sizeof(double), 0, 1, 0);
    T(MPI_BYTE, "MPI_BYTE", 1, 0, 0, 1);
#undef T
    for (t = 0; t < nt; t++) {
        for (o = 0; o < NOPS; o++) {
            if (!op_applies(&types[t], o))
                continue;
            run_one(&types[t], o, index++, in, out);
        }
        if (rank == 0)
            printf("%s: %s ok\n", PROG, types[t].name);
    }
    free(in);
    free(out);
    check_section(PROG, "predefined ops on basic types", 1);
}

/* ---- MAXLOC / MINLOC ---- */
typedef struct { float v; int i; } float_int;
typedef struct { double v; int i; } double_int;
typedef struct { long v; int i; } long_int;
typedef struct { int v; int i; } two_int;
typedef struct { short v; int i; } short_int;

#define LN 9
static int loc_v(int r, int k) { return (r * 5 + k) % 4; } /* many ties */

/* expected value and location for MAXLOC (is_max) or MINLOC */
static void loc_expect(int is_max, int k, int *v, int *loc)
{
    int r;
    *v = loc_v(0, k);
    *loc = 0;
    for (r = 1; r < size; r++) {
        int x = loc_v(r, k);
        if (is_max ? x > *v : x < *v) {
            *v = x;
            *loc = r;
        }
    }
}

static void test_loc(void)
{
    float_int fi[LN], fo[LN];
    double_int di[LN], dout[LN];
    long_int li[LN], lo[LN];
    two_int ti[LN], to[LN];
    short_int si[LN], so[LN];
    int k, m, v, loc, bad;
    for (m = 0; m < 2; m++) {
        MPI_Op op = m ? MPI_MAXLOC : MPI_MINLOC;
        const char *nm = m ? "MAXLOC" : "MINLOC";
        for (k = 0; k < LN; k++) {
            fi[k].v = (float)(loc_v(rank, k) * 0.5);
            fi[k].i = rank;
            di[k].v = loc_v(rank, k) - 1.5;
            di[k].i = rank;
            li[k].v = (long)loc_v(rank, k) * 100000L - 7;
            li[k].i = rank;
            ti[k].v = loc_v(rank, k) * 3;
            ti[k].i = rank;
            si[k].v = (short)(loc_v(rank, k) - 2);
            si[k].i = rank;
        }
        MPI_Allreduce(fi, fo, LN, MPI_FLOAT_INT, op, MPI_COMM_WORLD);
        MPI_Allreduce(di, dout, LN, MPI_DOUBLE_INT, op, MPI_COMM_WORLD);
        MPI_Allreduce(li, lo, LN, MPI_LONG_INT, op, MPI_COMM_WORLD);
        MPI_Reduce(ti, to, LN, MPI_2INT, op, size - 1, MPI_COMM_WORLD);
        /* in place */
        memcpy(so, si, sizeof(si));
        MPI_Allreduce(MPI_IN_PLACE, so, LN, MPI_SHORT_INT, op, MPI_COMM_WORLD);
        bad = -1;
        for (k = 0; k < LN; k++) {
            loc_expect(m, k, &v, &loc);
            if (fo[k].v != (float)(v * 0.5) || fo[k].i != loc)
                bad = k;
        }
        CHECK(bad < 0, "%s on MPI_FLOAT_INT wrong at %d", nm, bad);
        bad = -1;
        for (k = 0; k < LN; k++) {
            loc_expect(m, k, &v, &loc);
            if (dout[k].v != v - 1.5 || dout[k].i != loc)
                bad = k;
        }
        CHECK(bad < 0, "%s on MPI_DOUBLE_INT wrong at %d", nm, bad);
        bad = -1;
        for (k = 0; k < LN; k++) {
            loc_expect(m, k, &v, &loc);
            if (lo[k].v != (long)v * 100000L - 7 || lo[k].i != loc)
                bad = k;
        }
        CHECK(bad < 0, "%s on MPI_LONG_INT wrong at %d", nm, bad);
        if (rank == size - 1) {
            bad = -1;
            for (k = 0; k < LN; k++) {
                loc_expect(m, k, &v, &loc);
                if (to[k].v != v * 3 || to[k].i != loc)
                    bad = k;
            }
            CHECK(bad < 0, "%s on MPI_2INT wrong at %d", nm, bad);
        }
        bad = -1;
        for (k = 0; k < LN; k++) {
            loc_expect(m, k, &v, &loc);
            if (so[k].v != v - 2 || so[k].i != loc)
                bad = k;
        }
        CHECK(bad < 0, "in-place %s on MPI_SHORT_INT wrong at %d", nm, bad);
    }
    check_section(PROG, "MAXLOC/MINLOC with ties", 1);
}

static void test_reduce_local(void)
{
    int a[4] = {1, -2, 3, 40}, b[4] = {10, 20, -30, 4}, i, bad = -1;
    double da[3] = {0.5, -1.0, 7.0}, db[3] = {1.5, -0.5, 2.0};
    unsigned char ua[3] = {0x0f, 0xff, 0x00}, ub[3] = {0xf0, 0x0f, 0x00};
    two_int la[2] = {{5, 3}, {2, 9}}, lb[2] = {{5, 1}, {4, 0}};
    MPI_Reduce_local(a, b, 4, MPI_INT, MPI_SUM);
    for (i = 0; i < 4; i++)
        if (b[i] != (i == 0 ? 11 : i == 1 ? 18 : i == 2 ? -27 : 44))
            bad = i;
    CHECK(bad < 0, "Reduce_local SUM int wrong at %d", bad);
    MPI_Reduce_local(da, db, 3, MPI_DOUBLE, MPI_MAX);
    CHECK(db[0] == 1.5 && db[1] == -0.5 && db[2] == 7.0, "Reduce_local MAX double gave %g %g %g", db[0],
          db[1], db[2]);
    MPI_Reduce_local(ua, ub, 3, MPI_UINT8_T, MPI_BXOR);
    CHECK(ub[0] == 0xff && ub[1] == 0xf0 && ub[2] == 0, "Reduce_local BXOR gave %x %x %x", ub[0], ub[1],
          ub[2]);
    MPI_Reduce_local(la, lb, 2, MPI_2INT, MPI_MINLOC);
    CHECK(lb[0].v == 5 && lb[0].i == 1 && lb[1].v == 2 && lb[1].i == 9, "Reduce_local MINLOC gave (%d,%d) (%d,%d)",
          lb[0].v, lb[0].i, lb[1].v, lb[1].i);
    MPI_Reduce_local(a, b, 4, MPI_INT, MPI_PROD);
    CHECK(b[0] == 11 && b[1] == -36 && b[2] == -81 && b[3] == 1760, "Reduce_local PROD gave %d %d %d %d",
          b[0], b[1], b[2], b[3]);
    check_section(PROG, "reduce_local", 1);
}

/* MPI_LONG_DOUBLE and the complex types: sums and products (and long double's max and
   min) with Allreduce, Reduce at the last rank, Scan and Reduce_local. Every value is a
   small integer (each complex factor 1 or i), so each result is exact whatever the order
   of the folding. */
#define NC 3
typedef struct { float re, im; } cfloat;
typedef struct { double re, im; } cdouble;

static void cmul(double *re, double *im, double b_re, double b_im)
{
    double r = *re * b_re - *im * b_im, i = *re * b_im + *im * b_re;
    *re = r;
    *im = i;
}

static void test_complex_and_long_double(void)
{
    /* Rank r contributes, in element k, 1 or i: ((r + k) % 2) + (1 - (r + k) % 2) i. */
    double sum_re[NC], sum_im[NC], prod_re[NC], prod_im[NC], scan_re[NC], scan_im[NC];
    for (int k = 0; k < NC; k++) {
        sum_re[k] = sum_im[k] = 0;
        prod_re[k] = 1;
        prod_im[k] = 0;
        for (int r = 0; r < size; r++) {
            sum_re[k] += (r + k) % 2;
            sum_im[k] += 1 - (r + k) % 2;
            cmul(&prod_re[k], &prod_im[k], (r + k) % 2, 1 - (r + k) % 2);
            if (r == rank) {
                scan_re[k] = sum_re[k];
                scan_im[k] = sum_im[k];
            }
        }
    }
    cdouble d_in[NC], d_out[NC];
    cfloat f_in[NC], f_out[NC];
    for (int k = 0; k < NC; k++) {
        d_in[k].re = f_in[k].re = (float)((rank + k) % 2);
        d_in[k].im = f_in[k].im = (float)(1 - (rank + k) % 2);
    }
    const MPI_Datatype dtypes[] = {MPI_C_DOUBLE_COMPLEX, MPI_DOUBLE_COMPLEX};
    const MPI_Datatype ftypes[] = {MPI_C_FLOAT_COMPLEX, MPI_COMPLEX};
    for (int t = 0; t < 2; t++) {
        MPI_Allreduce(d_in, d_out, NC, dtypes[t], MPI_SUM, MPI_COMM_WORLD);
        for (int k = 0; k < NC; k++)
            CHECK(d_out[k].re == sum_re[k] && d_out[k].im == sum_im[k], "double complex sum, element %d", k);
        MPI_Allreduce(f_in, f_out, NC, ftypes[t], MPI_PROD, MPI_COMM_WORLD);
        for (int k = 0; k < NC; k++)
            CHECK(f_out[k].re == (float)prod_re[k] && f_out[k].im == (float)prod_im[k],
                  "float complex product, element %d: %g%+gi, expected %g%+gi", k, f_out[k].re, f_out[k].im,
                  prod_re[k], prod_im[k]);
        memset(d_out, 0, sizeof d_out);
        MPI_Reduce(d_in, d_out, NC, dtypes[t], MPI_PROD, size - 1, MPI_COMM_WORLD);
        if (rank == size - 1)
            for (int k = 0; k < NC; k++)
                CHECK(d_out[k].re == prod_re[k] && d_out[k].im == prod_im[k], "double complex product at the root");
        MPI_Scan(d_in, d_out, NC, dtypes[t], MPI_SUM, MPI_COMM_WORLD);
        for (int k = 0; k < NC; k++)
            CHECK(d_out[k].re == scan_re[k] && d_out[k].im == scan_im[k], "double complex scan, element %d", k);
    }
    long double l_in[NC], l_out[NC];
    for (int k = 0; k < NC; k++)
        l_in[k] = (long double)(rank * (k + 1) - 3);
    MPI_Allreduce(l_in, l_out, NC, MPI_LONG_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    for (int k = 0; k < NC; k++)
        CHECK(l_out[k] == (long double)((k + 1) * size * (size - 1) / 2 - 3 * size), "long double sum, element %d", k);
    MPI_Allreduce(l_in, l_out, NC, MPI_LONG_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    for (int k = 0; k < NC; k++)
        CHECK(l_out[k] == (long double)((size - 1) * (k + 1) - 3), "long double max, element %d", k);
    MPI_Allreduce(l_in, l_out, NC, MPI_LONG_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    for (int k = 0; k < NC; k++)
        CHECK(l_out[k] == -3.0L, "long double min, element %d", k);
    /* Reduce_local: inout = in op inout. */
    cdouble a[1] = {{2, 1}}, b[1] = {{3, -1}};
    MPI_Reduce_local(a, b, 1, MPI_C_DOUBLE_COMPLEX, MPI_PROD);
    CHECK(b[0].re == 7 && b[0].im == 1, "Reduce_local of (2+i)(3-i): %g%+gi", b[0].re, b[0].im);
    /* A bitwise op on a complex type is refused. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int cls = -1;
    MPI_Error_class(MPI_Allreduce(d_in, d_out, NC, MPI_C_DOUBLE_COMPLEX, MPI_MAX, MPI_COMM_WORLD), &cls);
    CHECK(cls == MPI_ERR_OP, "MPI_MAX on a complex type is refused (class %d)", cls);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    check_section(PROG, "long double and complex types", 1);
}

/* The types a C program may name beyond C's own: Fortran's (with gfortran's default kinds)
   and C++'s. Rank 0 prints each one's name, size and extent. The integer ones take the
   arithmetic and bitwise ops, the real ones the arithmetic, the logical ones the logical
   ops, the pairs MAXLOC/MINLOC (ties: the smaller index), the complex ones sums. */
typedef struct { long double v; int i; } long_double_int;
typedef struct { float v, i; } two_real;
typedef struct { double v, i; } two_double;

static void print_type(MPI_Datatype type)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len, tsize;
    MPI_Aint lb, extent;
    MPI_Type_get_name(type, name, &len);
    MPI_Type_size(type, &tsize);
    MPI_Type_get_extent(type, &lb, &extent);
    if (rank == 0)
        printf("%s: %s size %d extent %ld\n", PROG, name, tsize, (long)extent);
}

static void test_other_languages_types(void)
{
    const MPI_Datatype all[] = {MPI_LONG_DOUBLE_INT, MPI_CXX_BOOL, MPI_CXX_FLOAT_COMPLEX, MPI_CXX_DOUBLE_COMPLEX,
                                MPI_CXX_LONG_DOUBLE_COMPLEX, MPI_CHARACTER, MPI_LOGICAL, MPI_INTEGER, MPI_REAL,
                                MPI_DOUBLE_PRECISION, MPI_2INTEGER, MPI_2REAL, MPI_2DOUBLE_PRECISION, MPI_INTEGER1,
                                MPI_INTEGER2, MPI_INTEGER4, MPI_INTEGER8, MPI_REAL4, MPI_REAL8, MPI_COMPLEX8,
                                MPI_COMPLEX16};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
        print_type(all[k]);
    tinfo types[9];
    int nt = 0, index = 1000;
    void *in = malloc(N * 8), *out = malloc(N * 8);
#define T(ty, by, sg, fl)                                                                          \
    do {                                                                                           \
        types[nt].type = ty;                                                                       \
        types[nt].name = #ty;                                                                      \
        types[nt].bytes = by;                                                                      \
        types[nt].is_signed = sg;                                                                  \
        types[nt].is_float = fl;                                                                   \
        types[nt].is_byte = 0;                                                                     \
        nt++;                                                                                      \
    } while (0)
    T(MPI_INTEGER, 4, 1, 0);
    T(MPI_INTEGER1, 1, 1, 0);
    T(MPI_INTEGER2, 2, 1, 0);
    T(MPI_INTEGER4, 4, 1, 0);
    T(MPI_INTEGER8, 8, 1, 0);
    T(MPI_REAL, 4, 0, 1);
    T(MPI_REAL4, 4, 0, 1);
    T(MPI_REAL8, 8, 0, 1);
    T(MPI_DOUBLE_PRECISION, 8, 0, 1);
#undef T
    /* MPI allows the logical ops on Fortran's integers no more than on its reals. */
    for (int t = 0; t < nt; t++)
        for (int o = 0; o < NOPS; o++)
            if (op_applies(&types[t], o) && o != OP_LAND && o != OP_LOR && o != OP_LXOR)
                run_one(&types[t], o, index++, in, out);
    free(in);
    free(out);
    /* Logical types: LAND, LOR, LXOR of rank-dependent truth values. */
    {
        int li[N], lo[N], all_true, any_true, odd;
        unsigned char bi[N], bo[N];
        const MPI_Op ops[3] = {MPI_LAND, MPI_LOR, MPI_LXOR};
        for (int o = 0; o < 3; o++) {
            for (int i = 0; i < N; i++) {
                li[i] = (rank * 3 + i) % 5 != 0;
                bi[i] = (unsigned char)((rank + i) % 4 != 0);
            }
            MPI_Allreduce(li, lo, N, MPI_LOGICAL, ops[o], MPI_COMM_WORLD);
            MPI_Allreduce(bi, bo, N, MPI_CXX_BOOL, ops[o], MPI_COMM_WORLD);
            for (int i = 0; i < N; i++) {
                int want_l, want_b;
                all_true = 1, any_true = 0, odd = 0;
                for (int r = 0; r < size; r++) {
                    int v = (r * 3 + i) % 5 != 0;
                    all_true &= v, any_true |= v, odd ^= v;
                }
                want_l = o == 0 ? all_true : o == 1 ? any_true : odd;
                all_true = 1, any_true = 0, odd = 0;
                for (int r = 0; r < size; r++) {
                    int v = (r + i) % 4 != 0;
                    all_true &= v, any_true |= v, odd ^= v;
                }
                want_b = o == 0 ? all_true : o == 1 ? any_true : odd;
                CHECK(lo[i] == want_l, "MPI_LOGICAL op %d element %d: %d, expected %d", o, i, lo[i], want_l);
                CHECK(bo[i] == want_b, "MPI_CXX_BOOL op %d element %d: %d, expected %d", o, i, bo[i], want_b);
            }
        }
    }
    /* Pairs. */
    for (int m = 0; m < 2; m++) {
        MPI_Op op = m ? MPI_MAXLOC : MPI_MINLOC;
        long_double_int ldi[LN], ldo[LN];
        two_real ri[LN], ro[LN];
        two_double di[LN], dout[LN];
        two_int ii[LN];
        int v, loc;
        memset(ldi, 0, sizeof ldi);
        for (int k = 0; k < LN; k++) {
            ldi[k].v = loc_v(rank, k) * 0.25L - 1;
            ldi[k].i = rank;
            ri[k].v = (float)loc_v(rank, k);
            ri[k].i = (float)rank;
            di[k].v = loc_v(rank, k) * 2.5;
            di[k].i = rank;
            ii[k].v = -loc_v(rank, k);
            ii[k].i = rank;
        }
        MPI_Allreduce(ldi, ldo, LN, MPI_LONG_DOUBLE_INT, op, MPI_COMM_WORLD);
        MPI_Allreduce(ri, ro, LN, MPI_2REAL, op, MPI_COMM_WORLD);
        MPI_Reduce(di, dout, LN, MPI_2DOUBLE_PRECISION, op, size / 2, MPI_COMM_WORLD);
        MPI_Allreduce(MPI_IN_PLACE, ii, LN, MPI_2INTEGER, m ? MPI_MINLOC : MPI_MAXLOC, MPI_COMM_WORLD);
        for (int k = 0; k < LN; k++) {
            loc_expect(m, k, &v, &loc);
            CHECK(ldo[k].v == v * 0.25L - 1 && ldo[k].i == loc, "MPI_LONG_DOUBLE_INT op %d element %d", m, k);
            CHECK(ro[k].v == (float)v && ro[k].i == (float)loc, "MPI_2REAL op %d element %d: (%g, %g)", m, k,
                  ro[k].v, ro[k].i);
            if (rank == size / 2)
                CHECK(dout[k].v == v * 2.5 && dout[k].i == loc, "MPI_2DOUBLE_PRECISION op %d element %d", m, k);
            CHECK(-ii[k].v == v && ii[k].i == loc, "MPI_2INTEGER op %d element %d", m, k);
        }
    }
    /* Complex: the sum of rank + k i over the ranks. */
    {
        cfloat f_in[NC], f_out[NC];
        cdouble d_in[NC], d_out[NC];
        long double l_in[2 * NC], l_out[2 * NC];
        const MPI_Datatype ftypes[] = {MPI_CXX_FLOAT_COMPLEX, MPI_COMPLEX8};
        const MPI_Datatype dtypes[] = {MPI_CXX_DOUBLE_COMPLEX, MPI_COMPLEX16};
        for (int k = 0; k < NC; k++) {
            f_in[k].re = (float)rank, f_in[k].im = (float)k;
            d_in[k].re = rank, d_in[k].im = -k;
            l_in[2 * k] = rank, l_in[2 * k + 1] = k + 1;
        }
        for (int t = 0; t < 2; t++) {
            MPI_Allreduce(f_in, f_out, NC, ftypes[t], MPI_SUM, MPI_COMM_WORLD);
            MPI_Allreduce(d_in, d_out, NC, dtypes[t], MPI_SUM, MPI_COMM_WORLD);
            for (int k = 0; k < NC; k++) {
                CHECK(f_out[k].re == (float)(size * (size - 1) / 2) && f_out[k].im == (float)(k * size),
                      "float complex sum %d element %d", t, k);
                CHECK(d_out[k].re == size * (size - 1) / 2 && d_out[k].im == -k * size,
                      "double complex sum %d element %d", t, k);
            }
        }
        MPI_Allreduce(l_in, l_out, NC, MPI_CXX_LONG_DOUBLE_COMPLEX, MPI_SUM, MPI_COMM_WORLD);
        for (int k = 0; k < NC; k++)
            CHECK(l_out[2 * k] == size * (size - 1) / 2 && l_out[2 * k + 1] == (k + 1) * size,
                  "long double complex sum element %d", k);
    }
    check_section(PROG, "Fortran's and C++'s types", 1);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    test_predefined();
    test_loc();
    test_reduce_local();
    test_complex_and_long_double();
    test_other_languages_types();
    check_report(PROG);
    MPI_Finalize();
    return 0;
}
