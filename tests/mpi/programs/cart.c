// SPDX-License-Identifier: Apache-2.0
/*
 * cart.c - Cartesian topologies as stencil codes use them: a 2-D and a 3-D grid shaped by
 * MPI_Dims_create over all ranks (periodic and not), coordinates and ranks both ways,
 * MPI_Cart_shift neighbours and a halo exchange with them (MPI_PROC_NULL at the edges of a
 * non-periodic grid), MPI_Cart_get, MPI_Cartdim_get, MPI_Topo_test, rows and columns by
 * MPI_Cart_sub with a reduction in each, a grid smaller than the communicator (the ranks
 * left out get MPI_COMM_NULL), MPI_Cart_map, a duplicate that keeps the topology, and the
 * neighbourhood collectives (allgather, alltoall, alltoallv, iallgatherv) on 1-D to 3-D
 * grids, periodic (where a 2- or 1-wide dimension makes a rank a neighbour twice) and open.
 */
#include <stdlib.h>

#include "check.h"

static int rank, size;

static void grid(int ndims, int periodic) {
    int dims[3] = {0, 0, 0}, periods[3] = {periodic, periodic, periodic}, coords[3], back;
    MPI_Comm cart;
    MPI_Dims_create(size, ndims, dims);
    CHECK_RC(MPI_Cart_create(MPI_COMM_WORLD, ndims, dims, periods, 0, &cart), "MPI_Cart_create");
    CHECK(cart != MPI_COMM_NULL, "every rank is in a grid of all ranks");
    int crank, status, nd;
    MPI_Comm_rank(cart, &crank);
    MPI_Topo_test(cart, &status);
    CHECK(status == MPI_CART, "MPI_Topo_test says MPI_CART");
    MPI_Cartdim_get(cart, &nd);
    CHECK(nd == ndims, "MPI_Cartdim_get gives %d", nd);
    MPI_Cart_coords(cart, crank, ndims, coords);
    MPI_Cart_rank(cart, coords, &back);
    CHECK(back == crank, "coordinates and back: %d, not %d", back, crank);
    int gdims[3], gperiods[3], gcoords[3];
    MPI_Cart_get(cart, ndims, gdims, gperiods, gcoords);
    for (int d = 0; d < ndims; d++)
        CHECK(gdims[d] == dims[d] && gperiods[d] == periodic && gcoords[d] == coords[d], "MPI_Cart_get, dimension %d", d);
    /* Row-major: the last dimension varies fastest. */
    int expect = 0;
    for (int d = 0; d < ndims; d++) expect = expect * dims[d] + coords[d];
    CHECK(expect == crank, "rank %d at row-major place %d", crank, expect);

    /* A halo exchange along every dimension. */
    for (int d = 0; d < ndims; d++) {
        int src, dst, got = -2;
        MPI_Cart_shift(cart, d, 1, &src, &dst);
        int exp_dst = MPI_PROC_NULL, exp_src = MPI_PROC_NULL, c2[3];
        for (int k = 0; k < ndims; k++) c2[k] = coords[k];
        if (periodic || coords[d] + 1 < dims[d]) {
            c2[d] = (coords[d] + 1) % dims[d];
            MPI_Cart_rank(cart, c2, &exp_dst);
        }
        c2[d] = coords[d];
        if (periodic || coords[d] > 0) {
            c2[d] = (coords[d] - 1 + dims[d]) % dims[d];
            MPI_Cart_rank(cart, c2, &exp_src);
        }
        CHECK(src == exp_src && dst == exp_dst, "shift along %d: %d -> %d, expected %d -> %d", d, src, dst, exp_src,
              exp_dst);
        MPI_Sendrecv(&crank, 1, MPI_INT, dst, 40 + d, &got, 1, MPI_INT, src, 40 + d, cart, MPI_STATUS_IGNORE);
        CHECK(got == (src == MPI_PROC_NULL ? -2 : src), "the halo from %d holds %d", src, got);
    }

    /* One sub-grid per place of the first dimension: the others kept. */
    int remain[3] = {0, 1, 1}, sub_size, sub_rank, sum = 0;
    MPI_Comm sub;
    CHECK_RC(MPI_Cart_sub(cart, remain, &sub), "MPI_Cart_sub");
    MPI_Comm_size(sub, &sub_size);
    MPI_Comm_rank(sub, &sub_rank);
    CHECK(sub_size == size / dims[0], "a sub-grid of %d ranks", sub_size);
    MPI_Cartdim_get(sub, &nd);
    CHECK(nd == ndims - 1, "the sub-grid has %d dimensions", nd);
    MPI_Allreduce(&coords[0], &sum, 1, MPI_INT, MPI_SUM, sub);
    CHECK(sum == coords[0] * sub_size, "everyone in the sub-grid shares coordinate 0 (%d)", sum);

    MPI_Comm dup;
    MPI_Comm_dup(cart, &dup);
    MPI_Topo_test(dup, &status);
    CHECK(status == MPI_CART, "a duplicate keeps the topology");
    MPI_Comm_free(&dup);
    MPI_Comm_free(&sub);
    MPI_Comm_free(&cart);
    if (rank == 0) printf("cart: %dD grid %d x %d x %d, %s\n", ndims, dims[0], ndims > 1 ? dims[1] : 1,
                          ndims > 2 ? dims[2] : 1, periodic ? "periodic" : "not periodic");
    check_section("cart", ndims == 2 ? "2-D grid" : "3-D grid", 1);
}

static void smaller_grid(void) {
    int dims[1] = {size > 1 ? size - 1 : 1}, periods[1] = {1}, status, newrank;
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 1, &cart);
    MPI_Cart_map(MPI_COMM_WORLD, 1, dims, periods, &newrank);
    if (rank < dims[0]) {
        CHECK(cart != MPI_COMM_NULL && newrank == rank, "rank %d is in the smaller grid (map %d)", rank, newrank);
        MPI_Topo_test(cart, &status);
        CHECK(status == MPI_CART, "the smaller grid is Cartesian");
        MPI_Comm_free(&cart);
    } else {
        /* (MPI_Cart_map's answer here is MPI_UNDEFINED by the standard; Open MPI 4.1
           gives the rank itself, so the program does not look.) */
        CHECK(cart == MPI_COMM_NULL, "the rank left out gets MPI_COMM_NULL");
    }
    MPI_Topo_test(MPI_COMM_WORLD, &status);
    CHECK(status == MPI_UNDEFINED, "MPI_COMM_WORLD has no topology");
    check_section("cart", "a grid smaller than the communicator", 1);
}

/* The neighbourhood collectives: neighbour j is, for dimension j / 2, the one below (j
   even) or above (j odd); off a non-periodic edge it is MPI_PROC_NULL and its slot is left
   as it was. */
static void neighbourhood(int ndims, int periodic) {
    int dims[3] = {0, 0, 0}, periods[3] = {periodic, periodic, periodic};
    MPI_Comm cart;
    MPI_Dims_create(size, ndims, dims);
    MPI_Cart_create(MPI_COMM_WORLD, ndims, dims, periods, 0, &cart);
    int crank, nbrs[6];
    MPI_Comm_rank(cart, &crank);
    for (int d = 0; d < ndims; d++) MPI_Cart_shift(cart, d, 1, &nbrs[2 * d], &nbrs[2 * d + 1]);
    const int n = 2 * ndims;
    int got[6], sendblocks[6], sums = 0;
    for (int j = 0; j < n; j++) got[j] = -1;
    CHECK_RC(MPI_Neighbor_allgather(&crank, 1, MPI_INT, got, 1, MPI_INT, cart), "MPI_Neighbor_allgather");
    for (int j = 0; j < n; j++) CHECK(got[j] == (nbrs[j] == MPI_PROC_NULL ? -1 : nbrs[j]), "allgather slot %d", j);
    /* Alltoall: block j goes to neighbour j; from a neighbour below comes its block for
       the one above it (2d + 1), from one above its block for the one below (2d). */
    for (int j = 0; j < n; j++) { sendblocks[j] = crank * 100 + j; got[j] = -1; }
    MPI_Neighbor_alltoall(sendblocks, 1, MPI_INT, got, 1, MPI_INT, cart);
    for (int j = 0; j < n; j++) {
        const int expect = nbrs[j] == MPI_PROC_NULL ? -1 : nbrs[j] * 100 + (j % 2 == 0 ? j + 1 : j - 1);
        CHECK(got[j] == expect, "alltoall slot %d holds %d, expected %d", j, got[j], expect);
    }
    /* The v-forms: j + 1 ints for neighbour j, two slots apart. */
    int vsend[21], vrecv[48], counts[6], displs[6], rdispls[6];
    for (int j = 0, at = 0; j < n; j++) {
        counts[j] = j + 1;
        displs[j] = at;
        rdispls[j] = 8 * j;
        for (int i = 0; i <= j; i++) vsend[at + i] = crank * 1000 + j * 10 + i;
        at += j + 1;
    }
    for (int i = 0; i < 48; i++) vrecv[i] = -1;
    /* Each receives from neighbour j what it sends its neighbour there: as many ints as
       that neighbour's block for it holds (the same j +- 1 rule). */
    int rcounts[6];
    for (int j = 0; j < n; j++) rcounts[j] = (j % 2 == 0 ? j + 1 : j - 1) + 1;
    MPI_Neighbor_alltoallv(vsend, counts, displs, MPI_INT, vrecv, rcounts, rdispls, MPI_INT, cart);
    int ok = 1;
    for (int j = 0; j < n; j++) {
        const int from_slot = j % 2 == 0 ? j + 1 : j - 1;
        for (int i = 0; i < rcounts[j]; i++)
            ok &= vrecv[8 * j + i] == (nbrs[j] == MPI_PROC_NULL ? -1 : nbrs[j] * 1000 + from_slot * 10 + i);
    }
    CHECK(ok, "neighbor_alltoallv");
    int gcounts[6], gdispls[6], gathered[12];
    for (int j = 0; j < n; j++) { gcounts[j] = 2; gdispls[j] = 2 * j; }
    for (int i = 0; i < 12; i++) gathered[i] = -1;
    int mine[2] = {crank, -crank};
    /* Non-blocking, with the same block for every neighbour (Open MPI 4.1's non-blocking
       forms match a rank that is a neighbour twice in another order than its blocking ones
       do, so only this form says nothing of that order). */
    MPI_Request req;
    MPI_Ineighbor_allgatherv(mine, 2, MPI_INT, gathered, gcounts, gdispls, MPI_INT, cart, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    for (int j = 0; j < n; j++)
        if (nbrs[j] != MPI_PROC_NULL) sums += gathered[2 * j] + gathered[2 * j + 1];
    CHECK(sums == 0, "ineighbor_allgatherv pairs cancel");
    MPI_Comm_free(&cart);
    if (rank == 0) printf("cart: neighbourhood collectives on %d-D %s\n", ndims, periodic ? "periodic" : "open");
    check_section("cart", "neighbourhood collectives", 1);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    grid(2, 1);
    grid(2, 0);
    grid(3, 1);
    grid(3, 0);
    smaller_grid();
    neighbourhood(1, 1);
    neighbourhood(2, 1);
    neighbourhood(2, 0);
    neighbourhood(3, 0);
    check_report("cart");
    MPI_Finalize();
    return 0;
}
