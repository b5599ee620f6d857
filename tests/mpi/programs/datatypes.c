// SPDX-License-Identifier: Apache-2.0
/*
 * datatypes.c - derived datatypes: contiguous, vector (a matrix column),
 * indexed, struct (a C struct with padding, offsetof), resized; Type_size
 * and Type_get_extent; send/recv with a derived type on one side and basic
 * types on the other; Bcast and Gather with derived types; Allreduce sums
 * over a contiguous of MPI_INT and a vector of MPI_DOUBLE (user-defined sum
 * operators: predefined operators on derived types are not portable);
 * names (MPI_Type_set_name, _get_name: predefined, unnamed, named, freed), the
 * MPI_Count forms (Type_size_x, _get_extent_x, _get_true_extent_x,
 * Get_elements_x) and address arithmetic (MPI_Aint_add, MPI_Aint_diff); data at absolute
 * addresses (MPI_BOTTOM with a struct of MPI_Get_address's) in point-to-point, broadcast
 * and packing; a receive's datatype freed before the receive completes; MPI_Get_elements
 * of mixed structs, whole and partly received, and of pairs; sizes beyond an int; the
 * Fortran kinds C programs name (MPI_LOGICAL1..8, MPI_REAL16, MPI_COMPLEX32).
 */
#include "check.h"
#include <stddef.h>
#include <stdlib.h>

static const char *PROG = "datatypes";
static int rank, size, right, left;

#define ROWS 8
#define COLS 6

static void check_type(MPI_Datatype t, int esize, MPI_Aint elb, MPI_Aint eext, const char *what)
{
    int s = -1;
    MPI_Aint lb = -1, ext = -1;
    MPI_Type_size(t, &s);
    MPI_Type_get_extent(t, &lb, &ext);
    CHECK(s == esize, "%s: Type_size %d expected %d", what, s, esize);
    CHECK(lb == elb && ext == eext, "%s: lb %ld extent %ld expected %ld %ld", what, (long)lb, (long)ext,
          (long)elb, (long)eext);
}

static void test_contiguous(void)
{
    MPI_Datatype c5;
    int out[15], in[15], i, bad = -1, got = -1;
    MPI_Status st;
    MPI_Type_contiguous(5, MPI_INT, &c5);
    MPI_Type_commit(&c5);
    check_type(c5, 5 * (int)sizeof(int), 0, 5 * (MPI_Aint)sizeof(int), "contiguous(5, MPI_INT)");
    for (i = 0; i < 15; i++) {
        out[i] = rank * 100 + i;
        in[i] = -1;
    }
    /* 3 x contiguous(5) sent, 15 MPI_INT received */
    MPI_Sendrecv(out, 3, c5, right, 1, in, 15, MPI_INT, left, 1, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_INT, &got);
    CHECK(got == 15, "received %d ints", got);
    for (i = 0; i < 15; i++)
        if (in[i] != left * 100 + i)
            bad = i;
    CHECK(bad < 0, "contiguous -> int wrong at %d", bad);
    /* 15 MPI_INT sent, 3 x contiguous(5) received */
    for (i = 0; i < 15; i++)
        in[i] = -1;
    MPI_Sendrecv(out, 15, MPI_INT, right, 2, in, 3, c5, left, 2, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, c5, &got);
    CHECK(got == 3, "Get_count with the derived type gave %d", got);
    bad = -1;
    for (i = 0; i < 15; i++)
        if (in[i] != left * 100 + i)
            bad = i;
    CHECK(bad < 0, "int -> contiguous wrong at %d", bad);
    MPI_Type_free(&c5);
    CHECK(c5 == MPI_DATATYPE_NULL, "Type_free did not set MPI_DATATYPE_NULL");
    check_section(PROG, "contiguous", 1);
}

static double mval(int r, int row, int col) { return r * 100 + row * COLS + col + 0.5; }

static void test_vector(void)
{
    MPI_Datatype col, col_resized;
    double *m = malloc(ROWS * COLS * sizeof(double)), *rm = malloc(ROWS * COLS * sizeof(double));
    double v[ROWS * COLS];
    int i, j, bad = -1;
    MPI_Type_vector(ROWS, 1, COLS, MPI_DOUBLE, &col);
    MPI_Type_commit(&col);
    check_type(col, ROWS * (int)sizeof(double), 0, ((ROWS - 1) * COLS + 1) * (MPI_Aint)sizeof(double),
               "vector column");
    for (i = 0; i < ROWS; i++)
        for (j = 0; j < COLS; j++)
            m[i * COLS + j] = mval(rank, i, j);
    /* column 2 sent as a vector, received as ROWS contiguous doubles */
    for (i = 0; i < ROWS; i++)
        v[i] = -1.0;
    MPI_Sendrecv(m + 2, 1, col, right, 3, v, ROWS, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (i = 0; i < ROWS; i++)
        if (v[i] != mval(left, i, 2))
            bad = i;
    CHECK(bad < 0, "vector -> doubles wrong at %d", bad);
    /* ROWS doubles received into column 4 of a matrix; the rest untouched */
    for (i = 0; i < ROWS; i++)
        v[i] = rank + i * 0.25;
    for (i = 0; i < ROWS * COLS; i++)
        rm[i] = -1.0;
    MPI_Sendrecv(v, ROWS, MPI_DOUBLE, right, 4, rm + 4, 1, col, left, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    bad = -1;
    for (i = 0; i < ROWS; i++)
        for (j = 0; j < COLS; j++)
            if (rm[i * COLS + j] != (j == 4 ? left + i * 0.25 : -1.0))
                bad = i * COLS + j;
    CHECK(bad < 0, "doubles -> vector wrong at %d", bad);
    /* resized column (extent one double): COLS of them send the transpose */
    MPI_Type_create_resized(col, 0, (MPI_Aint)sizeof(double), &col_resized);
    MPI_Type_commit(&col_resized);
    check_type(col_resized, ROWS * (int)sizeof(double), 0, (MPI_Aint)sizeof(double), "resized column");
    MPI_Sendrecv(m, COLS, col_resized, right, 5, v, ROWS * COLS, MPI_DOUBLE, left, 5, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    bad = -1;
    for (j = 0; j < COLS; j++)
        for (i = 0; i < ROWS; i++)
            if (v[j * ROWS + i] != mval(left, i, j))
                bad = j * ROWS + i;
    CHECK(bad < 0, "transpose through a resized vector wrong at %d", bad);

    /* bcast of one column from the last rank: the other entries stay */
    for (i = 0; i < ROWS * COLS; i++)
        rm[i] = rank == size - 1 ? mval(size - 1, i / COLS, i % COLS) : -1.0;
    MPI_Bcast(rm + 1, 1, col, size - 1, MPI_COMM_WORLD);
    bad = -1;
    for (i = 0; i < ROWS; i++)
        for (j = 0; j < COLS; j++) {
            double e = (j == 1 || rank == size - 1) ? mval(size - 1, i, j) : -1.0;
            if (rm[i * COLS + j] != e)
                bad = i * COLS + j;
        }
    CHECK(bad < 0, "bcast of a column wrong at %d", bad);
    MPI_Type_free(&col_resized);
    MPI_Type_free(&col);
    free(m);
    free(rm);
    check_section(PROG, "vector and resized", 1);
}

static void test_indexed(void)
{
    MPI_Datatype idx;
    int blens[3] = {1, 2, 3}, displs[3] = {0, 3, 8}, src[11], in[6], i, bad = -1;
    static const int picked[6] = {0, 3, 4, 8, 9, 10};
    MPI_Type_indexed(3, blens, displs, MPI_INT, &idx);
    MPI_Type_commit(&idx);
    check_type(idx, 6 * (int)sizeof(int), 0, 11 * (MPI_Aint)sizeof(int), "indexed");
    for (i = 0; i < 11; i++)
        src[i] = rank * 50 + i;
    for (i = 0; i < 6; i++)
        in[i] = -1;
    MPI_Sendrecv(src, 1, idx, right, 6, in, 6, MPI_INT, left, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (i = 0; i < 6; i++)
        if (in[i] != left * 50 + picked[i])
            bad = i;
    CHECK(bad < 0, "indexed -> ints wrong at %d", bad);
    /* and back: 6 ints scattered by the indexed type */
    for (i = 0; i < 11; i++)
        src[i] = -1;
    for (i = 0; i < 6; i++)
        in[i] = rank * 10 + i;
    MPI_Sendrecv(in, 6, MPI_INT, right, 7, src, 1, idx, left, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    bad = -1;
    for (i = 0; i < 11; i++) {
        int k, e = -1;
        for (k = 0; k < 6; k++)
            if (picked[k] == i)
                e = left * 10 + k;
        if (src[i] != e)
            bad = i;
    }
    CHECK(bad < 0, "ints -> indexed wrong at %d", bad);
    MPI_Type_free(&idx);
    check_section(PROG, "indexed", 1);
}

struct particle {
    char tag;     /* padding follows */
    double pos;
    int id[3];
    short kind;   /* padding follows */
};

static void fill_particle(struct particle *p, int r, int k)
{
    p->tag = (char)('a' + (r + k) % 26);
    p->pos = r * 2.5 + k;
    p->id[0] = r;
    p->id[1] = k;
    p->id[2] = r * 1000 + k;
    p->kind = (short)(k - 3);
}

static int same_particle(const struct particle *p, int r, int k)
{
    struct particle e;
    fill_particle(&e, r, k);
    return p->tag == e.tag && p->pos == e.pos && p->id[0] == e.id[0] && p->id[1] == e.id[1] &&
           p->id[2] == e.id[2] && p->kind == e.kind;
}

static MPI_Datatype particle_type(void)
{
    MPI_Datatype raw, t;
    int blens[4] = {1, 1, 3, 1};
    MPI_Aint displs[4];
    MPI_Datatype types[4];
    displs[0] = offsetof(struct particle, tag);
    displs[1] = offsetof(struct particle, pos);
    displs[2] = offsetof(struct particle, id);
    displs[3] = offsetof(struct particle, kind);
    types[0] = MPI_CHAR;
    types[1] = MPI_DOUBLE;
    types[2] = MPI_INT;
    types[3] = MPI_SHORT;
    MPI_Type_create_struct(4, blens, displs, types, &raw);
    MPI_Type_create_resized(raw, 0, (MPI_Aint)sizeof(struct particle), &t);
    MPI_Type_free(&raw);
    MPI_Type_commit(&t);
    return t;
}

static void test_struct(void)
{
    MPI_Datatype pt = particle_type();
    struct particle out[4], in[4];
    struct particle *all = malloc((size_t)size * sizeof(struct particle));
    int k, bad = -1, got = -1, root;
    MPI_Status st;
    check_type(pt, 1 + (int)sizeof(double) + 3 * (int)sizeof(int) + (int)sizeof(short), 0,
               (MPI_Aint)sizeof(struct particle), "struct resized");
    for (k = 0; k < 4; k++) {
        fill_particle(&out[k], rank, k);
        fill_particle(&in[k], -1, -1);
    }
    MPI_Sendrecv(out, 4, pt, right, 8, in, 4, pt, left, 8, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, pt, &got);
    CHECK(got == 4, "Get_count of structs %d", got);
    for (k = 0; k < 4; k++)
        if (!same_particle(&in[k], left, k))
            bad = k;
    CHECK(bad < 0, "struct send/recv wrong at %d", bad);

    /* gather one struct from everyone */
    root = size / 2;
    for (k = 0; k < size; k++)
        fill_particle(&all[k], -1, -1);
    MPI_Gather(&out[1], 1, pt, all, 1, pt, root, MPI_COMM_WORLD);
    if (rank == root) {
        bad = -1;
        for (k = 0; k < size; k++)
            if (!same_particle(&all[k], k, 1))
                bad = k;
        CHECK(bad < 0, "gather of structs wrong at %d", bad);
    }
    /* bcast of structs */
    for (k = 0; k < 4; k++)
        if (rank != 0)
            fill_particle(&out[k], -1, -1);
        else
            fill_particle(&out[k], 0, k + 10);
    MPI_Bcast(out, 4, pt, 0, MPI_COMM_WORLD);
    bad = -1;
    for (k = 0; k < 4; k++)
        if (!same_particle(&out[k], 0, k + 10))
            bad = k;
    CHECK(bad < 0, "bcast of structs wrong at %d", bad);
    MPI_Type_free(&pt);
    free(all);
    check_section(PROG, "struct with padding", 1);
}

static void test_gather_contig(void)
{
    MPI_Datatype c4;
    int mine[4], *all = malloc((size_t)size * 4 * sizeof(int)), i, bad = -1, root = size - 1;
    MPI_Type_contiguous(4, MPI_INT, &c4);
    MPI_Type_commit(&c4);
    for (i = 0; i < 4; i++)
        mine[i] = rank * 4 + i;
    for (i = 0; i < size * 4; i++)
        all[i] = -1;
    /* senders use 4 x MPI_INT, the root receives 1 x contiguous(4) per rank */
    MPI_Gather(mine, 4, MPI_INT, all, 1, c4, root, MPI_COMM_WORLD);
    if (rank == root) {
        for (i = 0; i < size * 4; i++)
            if (all[i] != i)
                bad = i;
        CHECK(bad < 0, "gather into contiguous wrong at %d", bad);
    }
    MPI_Type_free(&c4);
    free(all);
    check_section(PROG, "gather with a contiguous type", 1);
}

/*
 * MPI-3.1 section 5.9.2 allows the predefined operators only on the basic
 * types listed there (Open MPI rejects MPI_SUM on a derived type), so the
 * sums over derived types use user-defined operators, which MPI allows on
 * any datatype.  The function walks the layout of the derived type.
 */
static MPI_Datatype g_c3 = MPI_DATATYPE_NULL, g_vec = MPI_DATATYPE_NULL;

static void derived_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    int j, k;
    if (*dt == g_c3) {
        const int *a = in;
        int *b = inout;
        for (j = 0; j < *len * 3; j++)
            b[j] += a[j];
    } else if (*dt == g_vec) {
        /* vector(4, 1, 3, MPI_DOUBLE): extent 10 doubles, elements 0, 3, 6, 9 */
        const double *a = in;
        double *b = inout;
        for (j = 0; j < *len; j++)
            for (k = 0; k < 4; k++)
                b[j * 10 + k * 3] += a[j * 10 + k * 3];
    } else {
        printf("FAIL datatypes.c: derived_sum called with an unexpected datatype\n");
        fflush(stdout);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

static void test_allreduce_derived(void)
{
    MPI_Op sum;
    int in[6], out[6], i, bad = -1;
    double din[20], dout[20];
    MPI_Type_contiguous(3, MPI_INT, &g_c3);
    MPI_Type_commit(&g_c3);
    MPI_Type_vector(4, 1, 3, MPI_DOUBLE, &g_vec);
    MPI_Type_commit(&g_vec);
    MPI_Op_create(derived_sum, 1, &sum);

    /* 2 x contiguous(3, MPI_INT) */
    for (i = 0; i < 6; i++) {
        in[i] = rank + i;
        out[i] = -1;
    }
    MPI_Allreduce(in, out, 2, g_c3, sum, MPI_COMM_WORLD);
    for (i = 0; i < 6; i++)
        if (out[i] != size * (size - 1) / 2 + size * i)
            bad = i;
    CHECK(bad < 0, "allreduce sum over contiguous(3, MPI_INT) wrong at %d", bad);

    /* 2 x vector of 4 doubles with stride 3: only every third element is reduced */
    check_type(g_vec, 4 * (int)sizeof(double), 0, 10 * (MPI_Aint)sizeof(double), "vector(4, 1, 3)");
    for (i = 0; i < 20; i++) {
        din[i] = rank * 0.5 + i;
        dout[i] = -1.0;
    }
    MPI_Allreduce(din, dout, 2, g_vec, sum, MPI_COMM_WORLD);
    bad = -1;
    for (i = 0; i < 20; i++) {
        double e = (i % 10) % 3 == 0 ? 0.25 * size * (size - 1) + (double)size * i : -1.0;
        if (dout[i] != e)
            bad = i;
    }
    CHECK(bad < 0, "allreduce sum over a vector of MPI_DOUBLE wrong at %d", bad);
    MPI_Op_free(&sum);
    MPI_Type_free(&g_vec);
    MPI_Type_free(&g_c3);
    check_section(PROG, "allreduce with derived types", 1);
}

/* MPI_Type_create_darray: a 6x5 global array of ints, rows in blocks and columns cyclic
   in pairs over a process grid of size x 1 (C order) and, in Fortran order, 1 x size. Each
   rank receives through the type from itself: its elements in type-map order. */
static void test_darray(void)
{
    enum { R = 6, C = 5 };
    int global[R * C], local[R * C], want[R * C];
    for (int i = 0; i < R * C; i++) global[i] = i;
    for (int f = 0; f < 2; f++) {
        int gsizes[2] = {R, C}, distribs[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
        int dargs[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2}, psizes[2] = {size, 1};
        if (f) { psizes[0] = 1; psizes[1] = size; }
        MPI_Datatype t;
        CHECK_RC(MPI_Type_create_darray(size, rank, 2, gsizes, distribs, dargs, psizes,
                                        f ? MPI_ORDER_FORTRAN : MPI_ORDER_C, MPI_INT, &t), "MPI_Type_create_darray");
        MPI_Type_commit(&t);
        /* The elements this rank holds, computed here: row block, column pairs dealt round. */
        const int p0 = psizes[0], p1 = psizes[1], c0 = rank / p1, c1 = rank % p1;
        const int b0 = (R + p0 - 1) / p0;
        int n = 0;
        if (!f) {
            for (int i = c0 * b0; i < R && i < (c0 + 1) * b0; i++)
                for (int j = 0; j < C; j++)
                    if ((j / 2) % p1 == c1) want[n++] = i * C + j;
        } else { /* Fortran order: the first index fastest, element (i, j) at i + j * R */
            for (int j = 0; j < C; j++)
                if ((j / 2) % p1 == c1)
                    for (int i = c0 * b0; i < R && i < (c0 + 1) * b0; i++) want[n++] = i + j * R;
        }
        int tsize;
        MPI_Aint lb, extent;
        MPI_Type_size(t, &tsize);
        MPI_Type_get_extent(t, &lb, &extent);
        CHECK(tsize == n * (int)sizeof(int) && lb == 0 && extent == R * C * (MPI_Aint)sizeof(int),
              "darray %d: size %d (want %d), extent %ld", f, tsize, n * (int)sizeof(int), (long)extent);
        for (int i = 0; i < R * C; i++) local[i] = -1;
        MPI_Sendrecv(global, 1, t, 0, 40, local, n, MPI_INT, 0, 40, MPI_COMM_SELF, MPI_STATUS_IGNORE);
        int ok = 1;
        for (int i = 0; i < n; i++) ok &= local[i] == want[i];
        CHECK(ok, "darray %d: the elements in type-map order", f);
        int ni, na, nd, comb;
        MPI_Type_get_envelope(t, &ni, &na, &nd, &comb);
        CHECK(comb == MPI_COMBINER_DARRAY && ni == 4 * 2 + 4 && na == 0 && nd == 1, "darray's envelope");
        MPI_Type_free(&t);
    }
    check_section(PROG, "MPI_Type_create_darray", 1);
}

static void test_names_and_counts(void)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1, buf[4], k, got;
    MPI_Datatype vec;
    MPI_Count size_x = -1, lb_x = -1, ext_x = -1, tlb_x = -1, text_x = -1, elements = -1;
    MPI_Aint a, b;
    MPI_Status st;
    MPI_Type_get_name(MPI_INT, name, &len);
    CHECK(strcmp(name, "MPI_INT") == 0 && len == 7, "MPI_INT's name is '%s' (%d)", name, len);
    MPI_Type_get_name(MPI_DOUBLE, name, &len);
    CHECK(strcmp(name, "MPI_DOUBLE") == 0 && len == 10, "MPI_DOUBLE's name is '%s' (%d)", name, len);
    MPI_Type_vector(3, 2, 4, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    MPI_Type_get_name(vec, name, &len);
    CHECK(len == 0 && name[0] == 0, "a derived type has no name until given one ('%s', %d)", name, len);
    MPI_Type_set_name(vec, "three pairs");
    MPI_Type_get_name(vec, name, &len);
    CHECK(strcmp(name, "three pairs") == 0 && len == 11, "the name set is '%s' (%d)", name, len);
    MPI_Type_size_x(vec, &size_x);
    MPI_Type_get_extent_x(vec, &lb_x, &ext_x);
    MPI_Type_get_true_extent_x(vec, &tlb_x, &text_x);
    CHECK(size_x == 24 && lb_x == 0 && ext_x == 40 && tlb_x == 0 && text_x == 40,
          "vector(3, 2, 4) of MPI_INT: size %lld, extent %lld at %lld, true %lld at %lld", (long long)size_x,
          (long long)ext_x, (long long)lb_x, (long long)text_x, (long long)tlb_x);
    /* Elements of a message received with the vector: six ints from the left. */
    {
        int send[6], recv[10];
        for (k = 0; k < 6; k++) send[k] = rank * 10 + k;
        MPI_Sendrecv(send, 6, MPI_INT, right, 31, recv, 1, vec, left, 31, MPI_COMM_WORLD, &st);
        MPI_Get_elements_x(&st, vec, &elements);
        MPI_Get_count(&st, vec, &got);
        CHECK(elements == 6 && got == 1 && recv[4] == left * 10 + 2 && recv[9] == left * 10 + 5,
              "a vector received: %lld elements, count %d, recv[4] %d", (long long)elements, got, recv[4]);
    }
    MPI_Type_free(&vec);
    MPI_Get_address(&buf[3], &a);
    MPI_Get_address(&buf[0], &b);
    CHECK(MPI_Aint_diff(a, b) == 3 * (MPI_Aint)sizeof(int) && MPI_Aint_add(b, 3 * sizeof(int)) == a,
          "MPI_Aint_diff %ld, MPI_Aint_add", (long)MPI_Aint_diff(a, b));
    check_section(PROG, "MPI_Type_get_name and the MPI_Count forms", 1);
}

/* A struct of absolute addresses (MPI_Get_address) names data anywhere: the buffer is
   MPI_BOTTOM. A ring, blocking and not, a broadcast, a pack and an unpack. */
static void test_absolute_addresses(void)
{
    double d[3], rd[3];
    int i[2], ri[2];
    MPI_Aint at[2], rat[2];
    int lens[2] = {3, 2};
    MPI_Datatype types[2] = {MPI_DOUBLE, MPI_INT}, mine, theirs;
    MPI_Get_address(d, &at[0]);
    MPI_Get_address(i, &at[1]);
    MPI_Get_address(rd, &rat[0]);
    MPI_Get_address(ri, &rat[1]);
    MPI_Type_create_struct(2, lens, at, types, &mine);
    MPI_Type_create_struct(2, lens, rat, types, &theirs);
    MPI_Type_commit(&mine);
    MPI_Type_commit(&theirs);
    for (int k = 0; k < 3; k++)
        d[k] = rank + 0.5 * k, rd[k] = -1;
    i[0] = rank, i[1] = -rank, ri[0] = ri[1] = -7;
    MPI_Sendrecv(MPI_BOTTOM, 1, mine, right, 5, MPI_BOTTOM, 1, theirs, left, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(rd[2] == left + 1.0 && ri[0] == left && ri[1] == -left, "MPI_Sendrecv at MPI_BOTTOM: %g %d %d", rd[2],
          ri[0], ri[1]);
    MPI_Request q[2];
    ri[0] = -7;
    MPI_Irecv(MPI_BOTTOM, 1, theirs, left, 6, MPI_COMM_WORLD, &q[0]);
    MPI_Isend(MPI_BOTTOM, 1, mine, right, 6, MPI_COMM_WORLD, &q[1]);
    MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
    CHECK(ri[0] == left, "MPI_Isend and MPI_Irecv at MPI_BOTTOM: %d", ri[0]);
    MPI_Bcast(MPI_BOTTOM, 1, mine, size - 1, MPI_COMM_WORLD);
    CHECK(d[1] == size - 1 + 0.5 && i[1] == -(size - 1), "MPI_Bcast at MPI_BOTTOM: %g %d", d[1], i[1]);
    char packed[64];
    int pos = 0, size_bytes = 0;
    MPI_Pack_size(1, mine, MPI_COMM_WORLD, &size_bytes);
    CHECK(size_bytes >= 32 && size_bytes <= 64, "MPI_Pack_size %d", size_bytes);
    MPI_Pack(MPI_BOTTOM, 1, mine, packed, sizeof packed, &pos, MPI_COMM_WORLD);
    CHECK(pos == 32, "MPI_Pack from MPI_BOTTOM packs %d bytes", pos);
    pos = 0;
    ri[1] = 0;
    MPI_Unpack(packed, sizeof packed, &pos, MPI_BOTTOM, 1, theirs, MPI_COMM_WORLD);
    CHECK(ri[1] == -(size - 1) && rd[1] == size - 1 + 0.5, "MPI_Unpack to MPI_BOTTOM: %d %g", ri[1], rd[1]);
    MPI_Type_free(&mine);
    MPI_Type_free(&theirs);
    check_section(PROG, "absolute addresses (MPI_BOTTOM)", 1);
}

/* A receive's datatype may be freed while the receive is pending: it completes as started. */
static void test_free_while_pending(void)
{
    int in[12], out[12];
    MPI_Datatype every_third;
    MPI_Type_vector(4, 1, 3, MPI_INT, &every_third);
    MPI_Type_commit(&every_third);
    for (int k = 0; k < 12; k++)
        in[k] = -1, out[k] = rank * 100 + k;
    MPI_Request q;
    MPI_Irecv(in, 1, every_third, left, 7, MPI_COMM_WORLD, &q);
    MPI_Type_free(&every_third);
    CHECK(every_third == MPI_DATATYPE_NULL, "the freed handle is MPI_DATATYPE_NULL");
    MPI_Datatype other; /* takes the freed handle's place, if handles are reused */
    MPI_Type_contiguous(2, MPI_DOUBLE, &other);
    MPI_Type_commit(&other);
    MPI_Send(out, 4, MPI_INT, right, 7, MPI_COMM_WORLD);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    CHECK(in[0] == left * 100 && in[3] == left * 100 + 1 && in[9] == left * 100 + 3 && in[1] == -1 && in[10] == -1,
          "the receive unpacked with the freed type: %d %d %d %d", in[0], in[3], in[9], in[1]);
    MPI_Type_free(&other);
    check_section(PROG, "a receive's datatype freed while it is pending", 1);
}

/* Basic elements counted along the type map: a struct of two doubles and three ints whole
   (5) and partly received (two doubles and two ints: 4, MPI_Get_count MPI_UNDEFINED), pairs
   (one each as themselves, two each in a derived type, as Open MPI counts); a type of 4 GiB (MPI_Type_size MPI_UNDEFINED, _x the bytes); the Fortran
   kinds' names and sizes. */
static void test_elements_and_kinds(void)
{
    struct {
        double d[2];
        int i[3];
    } in, out = {{1.5, 2.5}, {3, 4, 5}};
    int lens[2] = {2, 3}, two[2] = {2, 2}, n = -1;
    MPI_Aint at[2] = {offsetof(__typeof__(in), d), offsetof(__typeof__(in), i)};
    MPI_Datatype types[2] = {MPI_DOUBLE, MPI_INT}, full, part;
    MPI_Type_create_struct(2, lens, at, types, &full);
    MPI_Type_create_struct(2, two, at, types, &part);
    MPI_Type_commit(&full);
    MPI_Type_commit(&part);
    MPI_Status st;
    MPI_Sendrecv(&out, 1, full, right, 8, &in, 1, full, left, 8, MPI_COMM_WORLD, &st);
    MPI_Get_elements(&st, full, &n);
    CHECK(n == 5, "MPI_Get_elements of a whole struct of 2 doubles and 3 ints: %d", n);
    MPI_Sendrecv(&out, 1, part, right, 9, &in, 1, full, left, 9, MPI_COMM_WORLD, &st);
    MPI_Get_elements(&st, full, &n);
    CHECK(n == 4, "MPI_Get_elements of 2 doubles and 2 ints of it: %d", n);
    MPI_Get_count(&st, full, &n);
    CHECK(n == MPI_UNDEFINED, "MPI_Get_count of part of an element: %d", n);
    struct {
        float v;
        int k;
    } pairs_out[3] = {{1, 1}, {2, 2}, {3, 3}}, pairs_in[3];
    MPI_Sendrecv(pairs_out, 3, MPI_FLOAT_INT, right, 10, pairs_in, 3, MPI_FLOAT_INT, left, 10, MPI_COMM_WORLD, &st);
    MPI_Get_elements(&st, MPI_FLOAT_INT, &n);
    CHECK(n == 3, "MPI_Get_elements of 3 MPI_FLOAT_INT: %d", n);
    MPI_Datatype three_pairs;
    MPI_Type_contiguous(3, MPI_FLOAT_INT, &three_pairs);
    MPI_Type_commit(&three_pairs);
    MPI_Get_elements(&st, three_pairs, &n);
    CHECK(n == 6, "MPI_Get_elements of a contiguous of 3 MPI_FLOAT_INT: %d", n);
    MPI_Type_free(&three_pairs);
    MPI_Type_free(&full);
    MPI_Type_free(&part);
    MPI_Datatype big;
    MPI_Type_contiguous(1 << 30, MPI_INT, &big);
    MPI_Type_commit(&big);
    int size_int = 0;
    MPI_Count size_x = 0;
    MPI_Type_size(big, &size_int);
    MPI_Type_size_x(big, &size_x);
    CHECK(size_int == MPI_UNDEFINED && size_x == 4294967296LL, "a 4 GiB type: MPI_Type_size %d, _x %lld", size_int,
          (long long)size_x);
    MPI_Type_free(&big);
    const MPI_Datatype kinds[] = {MPI_LOGICAL1, MPI_LOGICAL2, MPI_LOGICAL4, MPI_LOGICAL8, MPI_REAL16, MPI_COMPLEX32};
    const char *names[] = {"MPI_LOGICAL1", "MPI_LOGICAL2", "MPI_LOGICAL4", "MPI_LOGICAL8", "MPI_REAL16", "MPI_COMPLEX32"};
    const int sizes[] = {1, 2, 4, 8, 16, 32};
    for (int k = 0; k < 6; k++) {
        char name[MPI_MAX_OBJECT_NAME];
        int len = 0, size_k = 0;
        MPI_Type_get_name(kinds[k], name, &len);
        MPI_Type_size(kinds[k], &size_k);
        CHECK(strcmp(name, names[k]) == 0 && size_k == sizes[k], "%s: named %s, %d bytes", names[k], name, size_k);
    }
    check_section(PROG, "elements along the type map, sizes beyond an int, Fortran kinds", 1);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;
    test_contiguous();
    test_vector();
    test_indexed();
    test_struct();
    test_gather_contig();
    test_allreduce_derived();
    test_darray();
    test_names_and_counts();
    test_absolute_addresses();
    test_free_while_pending();
    test_elements_and_kinds();
    check_report(PROG);
    MPI_Finalize();
    return 0;
}
