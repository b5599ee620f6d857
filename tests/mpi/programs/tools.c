// SPDX-License-Identifier: Apache-2.0
/*
 * tools.c - the tools information interface (MPI_T) as a tool uses it: before
 * MPI_Init nothing works without MPI_T_init_thread; the control variables,
 * performance variables and categories enumerated and looked up by name (the
 * string convention: a short buffer gets a truncated string and the full length
 * plus one); collnet's performance variables counting an allreduce of 1000
 * doubles while started and nothing while stopped, reset, readreset and
 * MPI_T_PVAR_ALL_HANDLES; the errors (bad index, name, session and handle,
 * writes to read-only variables); MPI_T working after MPI_Finalize until the
 * last MPI_T_finalize. Rank 0 prints the variables' names.
 */
#include "check.h"
#include <string.h>

static const char *PROG = "tools";

#define NDOUBLES 1000

int main(int argc, char **argv)
{
    int provided, n, rank, size, rc, index, count, len;
    char name[128], desc[512];

    CHECK(MPI_T_cvar_get_num(&n) == MPI_T_ERR_NOT_INITIALIZED, "MPI_T before MPI_T_init_thread");
    CHECK_RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), "MPI_T_init_thread");
    CHECK_RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), "a second MPI_T_init_thread");
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* Control variables: every one enumerated, found by its name, read; none written. */
    CHECK_RC(MPI_T_cvar_get_num(&n), "MPI_T_cvar_get_num");
    CHECK(n >= 1, "%d control variables", n);
    for (int i = 0; i < n; i++) {
        int verbosity, bind, scope, dlen = sizeof desc;
        MPI_Datatype type;
        MPI_T_enum e;
        MPI_T_cvar_handle h;
        len = sizeof name;
        CHECK_RC(MPI_T_cvar_get_info(i, name, &len, &verbosity, &type, &e, desc, &dlen, &bind, &scope),
                 "MPI_T_cvar_get_info");
        CHECK(len == (int)strlen(name) + 1 && dlen == (int)strlen(desc) + 1 && dlen > 1, "cvar %d's lengths", i);
        CHECK_RC(MPI_T_cvar_get_index(name, &index), "MPI_T_cvar_get_index");
        CHECK(index == i, "cvar %s found at %d", name, index);
        CHECK_RC(MPI_T_cvar_handle_alloc(i, NULL, &h, &count), "MPI_T_cvar_handle_alloc");
        CHECK(count == 1 && (type == MPI_DOUBLE || type == MPI_UNSIGNED_LONG_LONG), "cvar %s's count and type", name);
        double d = -1;
        unsigned long long u = 0;
        CHECK_RC(MPI_T_cvar_read(h, type == MPI_DOUBLE ? (void *)&d : (void *)&u), "MPI_T_cvar_read");
        CHECK(type != MPI_DOUBLE || d >= 0, "cvar %s = %g", name, d);
        CHECK(MPI_T_cvar_write(h, &u) == MPI_T_ERR_CVAR_SET_NEVER, "cvar %s written", name);
        CHECK_RC(MPI_T_cvar_handle_free(&h), "MPI_T_cvar_handle_free");
        CHECK(h == MPI_T_CVAR_HANDLE_NULL, "a freed cvar handle is null");
        if (rank == 0)
            printf("%s: cvar %s\n", PROG, name);
    }
    CHECK(MPI_T_cvar_get_info(n, name, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL) == MPI_T_ERR_INVALID_INDEX,
          "cvar index %d", n);
    CHECK(MPI_T_cvar_get_index("no_such_variable", &index) == MPI_T_ERR_INVALID_NAME, "a cvar that is not");
    /* The string convention: 5 bytes hold 4 characters and the null; the length is the full one plus one. */
    len = 5;
    memset(name, 'x', sizeof name);
    CHECK_RC(MPI_T_cvar_get_info(0, name, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL), "a short buffer");
    CHECK(strlen(name) == 4 && len > 5, "a short buffer gets \"%s\" and length %d", name, len);
    len = 0;
    CHECK_RC(MPI_T_cvar_get_info(0, NULL, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL), "no buffer");
    CHECK(len > 5, "no buffer: the length only (%d)", len);
    check_section(PROG, "control variables", 1);

    /* Performance variables: collnet's statistics, counted while started. */
    int np, bytes_sent = -1, calls = -1;
    CHECK_RC(MPI_T_pvar_get_num(&np), "MPI_T_pvar_get_num");
    MPI_T_pvar_session s;
    MPI_T_pvar_handle h[16];
    CHECK(np >= 1 && np <= 16, "%d performance variables", np);
    CHECK_RC(MPI_T_pvar_session_create(&s), "MPI_T_pvar_session_create");
    for (int i = 0; i < np; i++) {
        int verbosity, var_class, bind, readonly, continuous, atomic;
        MPI_Datatype type;
        MPI_T_enum e;
        len = sizeof name;
        CHECK_RC(MPI_T_pvar_get_info(i, name, &len, &verbosity, &var_class, &type, &e, NULL, NULL, &bind, &readonly,
                                     &continuous, &atomic),
                 "MPI_T_pvar_get_info");
        CHECK(type == MPI_UNSIGNED_LONG_LONG && bind == MPI_T_BIND_NO_OBJECT && readonly && !continuous,
              "pvar %s's type and traits", name);
        CHECK_RC(MPI_T_pvar_get_index(name, var_class, &index), "MPI_T_pvar_get_index");
        CHECK(index == i, "pvar %s found at %d", name, index);
        CHECK(MPI_T_pvar_get_index(name, var_class == MPI_T_PVAR_CLASS_STATE ? MPI_T_PVAR_CLASS_LEVEL
                                                                              : MPI_T_PVAR_CLASS_STATE,
                                   &index) == MPI_T_ERR_INVALID_NAME,
              "pvar %s of another class", name);
        CHECK_RC(MPI_T_pvar_handle_alloc(s, i, NULL, &h[i], &count), "MPI_T_pvar_handle_alloc");
        if (strcmp(name, "collnet_bytes_sent") == 0)
            bytes_sent = i;
        if (strcmp(name, "collnet_mpi_calls") == 0)
            calls = i;
        if (rank == 0)
            printf("%s: pvar %s\n", PROG, name);
    }
    CHECK(bytes_sent >= 0 && calls >= 0, "collnet_bytes_sent (%d) and collnet_mpi_calls (%d)", bytes_sent, calls);
    unsigned long long v = 1, w = 1;
    CHECK_RC(MPI_T_pvar_read(s, h[bytes_sent], &v), "MPI_T_pvar_read");
    CHECK(v == 0, "a handle not yet started reads %llu", v);
    double x[NDOUBLES], y[NDOUBLES];
    for (int i = 0; i < NDOUBLES; i++)
        x[i] = rank + i;
    CHECK_RC(MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES), "MPI_T_pvar_start of all handles");
    MPI_Allreduce(x, y, NDOUBLES, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    CHECK_RC(MPI_T_pvar_stop(s, MPI_T_PVAR_ALL_HANDLES), "MPI_T_pvar_stop of all handles");
    CHECK(y[7] == (double)size * (size - 1) / 2 + 7.0 * size, "the allreduce");
    CHECK_RC(MPI_T_pvar_read(s, h[bytes_sent], &v), "MPI_T_pvar_read");
    CHECK(v == NDOUBLES * sizeof(double), "bytes sent while started: %llu", v);
    CHECK_RC(MPI_T_pvar_read(s, h[calls], &w), "MPI_T_pvar_read");
    CHECK(w >= 2, "calls while started: %llu", w);
    MPI_Allreduce(x, y, NDOUBLES, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    CHECK_RC(MPI_T_pvar_read(s, h[bytes_sent], &w), "MPI_T_pvar_read");
    CHECK(w == v, "a stopped handle counts nothing: %llu, then %llu", v, w);
    CHECK_RC(MPI_T_pvar_start(s, h[bytes_sent]), "MPI_T_pvar_start");
    MPI_Allreduce(x, y, NDOUBLES / 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    CHECK_RC(MPI_T_pvar_readreset(s, h[bytes_sent], &w), "MPI_T_pvar_readreset");
    CHECK(w == v + NDOUBLES / 2 * sizeof(double), "started again, it adds: %llu", w);
    CHECK_RC(MPI_T_pvar_read(s, h[bytes_sent], &w), "MPI_T_pvar_read");
    CHECK(w == 0, "after readreset: %llu", w);
    MPI_Allreduce(x, y, 10, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    CHECK_RC(MPI_T_pvar_reset(s, h[bytes_sent]), "MPI_T_pvar_reset");
    CHECK_RC(MPI_T_pvar_read(s, h[bytes_sent], &w), "MPI_T_pvar_read");
    CHECK(w == 0, "after reset: %llu", w);
    CHECK(MPI_T_pvar_write(s, h[bytes_sent], &w) == MPI_T_ERR_PVAR_NO_WRITE, "a read-only pvar written");
    CHECK(MPI_T_pvar_read(MPI_T_PVAR_SESSION_NULL, h[0], &w) == MPI_T_ERR_INVALID_SESSION, "the null session");
    CHECK(MPI_T_pvar_read(s, MPI_T_PVAR_HANDLE_NULL, &w) == MPI_T_ERR_INVALID_HANDLE, "the null handle");
    CHECK(MPI_T_pvar_handle_alloc(s, np, NULL, &h[15], &count) == MPI_T_ERR_INVALID_INDEX, "pvar index %d", np);
    MPI_T_pvar_handle first = h[0];
    CHECK_RC(MPI_T_pvar_handle_free(s, &h[0]), "MPI_T_pvar_handle_free");
    CHECK(h[0] == MPI_T_PVAR_HANDLE_NULL && MPI_T_pvar_read(s, first, &w) == MPI_T_ERR_INVALID_HANDLE,
          "a freed pvar handle");
    CHECK_RC(MPI_T_pvar_session_free(&s), "MPI_T_pvar_session_free");
    CHECK(s == MPI_T_PVAR_SESSION_NULL, "a freed session is null");
    check_section(PROG, "performance variables", 1);

    /* Categories: every variable in one. */
    int ncat, ncv, npv, nsub, stamp;
    int indices[16];
    CHECK_RC(MPI_T_category_get_num(&ncat), "MPI_T_category_get_num");
    CHECK(ncat >= 1, "%d categories", ncat);
    int cvars_seen = 0, pvars_seen = 0;
    for (int c = 0; c < ncat; c++) {
        len = sizeof name;
        CHECK_RC(MPI_T_category_get_info(c, name, &len, NULL, NULL, &ncv, &npv, &nsub), "MPI_T_category_get_info");
        CHECK_RC(MPI_T_category_get_index(name, &index), "MPI_T_category_get_index");
        CHECK(index == c, "category %s at %d", name, index);
        CHECK(ncv <= 16 && npv <= 16, "category %s's sizes", name);
        CHECK_RC(MPI_T_category_get_cvars(c, ncv, indices), "MPI_T_category_get_cvars");
        for (int i = 0; i < ncv; i++)
            CHECK(indices[i] >= 0 && indices[i] < n, "category %s's cvar %d", name, indices[i]);
        CHECK_RC(MPI_T_category_get_pvars(c, npv, indices), "MPI_T_category_get_pvars");
        for (int i = 0; i < npv; i++)
            CHECK(indices[i] >= 0 && indices[i] < np, "category %s's pvar %d", name, indices[i]);
        cvars_seen += ncv;
        pvars_seen += npv;
        if (rank == 0)
            printf("%s: category %s (%d control, %d performance variables, %d categories)\n", PROG, name, ncv, npv,
                   nsub);
    }
    CHECK(cvars_seen == n && pvars_seen == np, "the categories hold every variable once");
    CHECK_RC(MPI_T_category_changed(&stamp), "MPI_T_category_changed");
    CHECK(MPI_T_category_get_info(ncat, name, &len, NULL, NULL, &ncv, &npv, &nsub) == MPI_T_ERR_INVALID_INDEX,
          "category index %d", ncat);
    CHECK(MPI_T_enum_get_info(MPI_T_ENUM_NULL, &count, name, &len) == MPI_T_ERR_INVALID_HANDLE, "MPI_T_ENUM_NULL");
    check_section(PROG, "categories", 1);

    check_report(PROG);
    MPI_Finalize();
    /* Still there after MPI_Finalize, until the last MPI_T_finalize. */
    rc = MPI_T_cvar_get_num(&n);
    MPI_T_finalize();
    MPI_T_finalize();
    if (rank == 0)
        printf("%s: after MPI_Finalize %s, after the last MPI_T_finalize %s\n", PROG,
               rc == MPI_SUCCESS ? "works" : "fails",
               MPI_T_cvar_get_num(&n) == MPI_T_ERR_NOT_INITIALIZED ? "refused" : "still works");
    return 0;
}
