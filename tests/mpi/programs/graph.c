// SPDX-License-Identifier: Apache-2.0
/*
 * graph.c - graph and distributed graph topologies: MPI_Graph_create of a ring with
 * chords (MPI_Graphdims_get, _get, _neighbors_count, _neighbors, MPI_Topo_test), its
 * neighbourhood allgather; MPI_Dist_graph_create_adjacent (each rank receiving from the
 * two ranks below it and sending to the two above) with MPI_Neighbor_alltoall(v/w) and
 * the non-blocking allgather; MPI_Dist_graph_create from edges every rank declares for
 * itself, and the neighbours each rank then has.
 */
#include <stdlib.h>

#include "check.h"

static int rank, size;

static int cmp(const void* a, const void* b) { return *(const int*)a - *(const int*)b; }

static void graph(void) {
    /* Node i's neighbours: i-1, i+1 and, with an even 4 or more nodes, i+size/2 (the graph
       must be symmetric: each rank sends to and receives from its adjacency list). */
    int* index = malloc(sizeof(int) * (size_t)size);
    int* edges = malloc(sizeof(int) * (size_t)size * 3);
    int e = 0;
    for (int i = 0; i < size; i++) {
        if (size > 1) {
            edges[e++] = (i + size - 1) % size;
            edges[e++] = (i + 1) % size;
        }
        if (size >= 4 && size % 2 == 0) edges[e++] = (i + size / 2) % size;
        index[i] = e;
    }
    MPI_Comm g;
    CHECK_RC(MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &g), "MPI_Graph_create");
    int status, nnodes, nedges, count;
    MPI_Topo_test(g, &status);
    MPI_Graphdims_get(g, &nnodes, &nedges);
    CHECK(status == MPI_GRAPH && nnodes == size && nedges == e, "a graph of %d nodes and %d edges", nnodes, nedges);
    MPI_Graph_neighbors_count(g, rank, &count);
    int nb[3] = {-1, -1, -1};
    MPI_Graph_neighbors(g, rank, 3, nb);
    const int first = rank ? index[rank - 1] : 0;
    int ok = count == index[rank] - first;
    for (int k = 0; k < count; k++) ok &= nb[k] == edges[first + k];
    CHECK(ok, "its neighbours, in the order given");
    int* gi = malloc(sizeof(int) * (size_t)size);
    int* ge = malloc(sizeof(int) * (size_t)(e > 0 ? e : 1));
    MPI_Graph_get(g, size, e, gi, ge);
    ok = 1;
    for (int i = 0; i < size; i++) ok &= gi[i] == index[i];
    for (int k = 0; k < e; k++) ok &= ge[k] == edges[k];
    CHECK(ok, "MPI_Graph_get gives back the graph");
    int* got = malloc(sizeof(int) * 3);
    int me = 100 + rank;
    MPI_Neighbor_allgather(&me, 1, MPI_INT, got, 1, MPI_INT, g);
    ok = 1;
    for (int k = 0; k < count; k++) ok &= got[k] == 100 + nb[k];
    CHECK(ok, "a neighbourhood allgather on the graph");
    free(got);
    free(gi);
    free(ge);
    MPI_Comm_free(&g);
    free(index);
    free(edges);
    check_section("graph", "MPI_Graph_create", 1);
}

static void adjacent(void) {
    const int n = size >= 3 ? 2 : size - 1;
    int src[2], dst[2], w[2] = {1, 2};
    for (int k = 0; k < n; k++) {
        src[k] = (rank + size - 1 - k) % size;
        dst[k] = (rank + 1 + k) % size;
    }
    MPI_Comm dg;
    CHECK_RC(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, n, src, w, n, dst, w, MPI_INFO_NULL, 0, &dg),
             "MPI_Dist_graph_create_adjacent");
    int status, in, out, weighted;
    MPI_Topo_test(dg, &status);
    MPI_Dist_graph_neighbors_count(dg, &in, &out, &weighted);
    CHECK(status == MPI_DIST_GRAPH && in == n && out == n && weighted, "a distributed graph: %d in, %d out", in, out);
    int s2[2], d2[2], sw[2], dw[2];
    MPI_Dist_graph_neighbors(dg, 2, s2, sw, 2, d2, dw);
    int ok = 1;
    for (int k = 0; k < n; k++) ok &= s2[k] == src[k] && d2[k] == dst[k] && sw[k] == w[k] && dw[k] == w[k];
    CHECK(ok, "its neighbours and weights as given");
    /* alltoall: block k goes to dst[k]; block k received comes from src[k]. */
    int sendb[2] = {rank * 10, rank * 10 + 1}, recvb[2] = {-1, -1};
    MPI_Neighbor_alltoall(sendb, 1, MPI_INT, recvb, 1, MPI_INT, dg);
    ok = 1;
    for (int k = 0; k < n; k++) ok &= recvb[k] == src[k] * 10 + k;
    CHECK(ok, "a neighbourhood alltoall");
    int counts[2] = {1, 1}, displs[2] = {1, 0};
    MPI_Neighbor_alltoallv(sendb, counts, displs, MPI_INT, recvb, counts, displs, MPI_INT, dg);
    ok = 1;
    for (int k = 0; k < n; k++) ok &= recvb[displs[k]] == src[k] * 10 + displs[k];
    CHECK(ok, "a neighbourhood alltoallv with displacements swapped");
    double dsend[2], drecv[2] = {0, 0};
    for (int k = 0; k < n; k++) dsend[k] = rank + 0.25 * k;
    MPI_Aint bd[2] = {0, sizeof(double)};
    MPI_Datatype types[2] = {MPI_DOUBLE, MPI_DOUBLE};
    MPI_Neighbor_alltoallw(dsend, counts, bd, types, drecv, counts, bd, types, dg);
    ok = 1;
    for (int k = 0; k < n; k++) ok &= drecv[k] == src[k] + 0.25 * k;
    CHECK(ok, "a neighbourhood alltoallw");
    int all[2] = {-1, -1};
    MPI_Request q;
    MPI_Ineighbor_allgather(&rank, 1, MPI_INT, all, 1, MPI_INT, dg, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    ok = 1;
    for (int k = 0; k < n; k++) ok &= all[k] == src[k];
    CHECK(ok, "a non-blocking neighbourhood allgather");
    MPI_Comm_free(&dg);
    check_section("graph", "MPI_Dist_graph_create_adjacent", 1);
}

static void general(void) {
    /* MPI_UNWEIGHTED through a variable: GCC takes the constant for an array it may not read. */
    int* volatile unweighted = MPI_UNWEIGHTED;
    /* Each rank declares its own out-edges: to rank+1 and rank+3. */
    int src = rank, degree = size > 1 ? 2 : 0, dst[2] = {(rank + 1) % size, (rank + 3) % size};
    MPI_Comm dg;
    CHECK_RC(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &src, &degree, dst, unweighted, MPI_INFO_NULL, 0, &dg),
             "MPI_Dist_graph_create");
    int in, out, weighted;
    MPI_Dist_graph_neighbors_count(dg, &in, &out, &weighted);
    CHECK(in == degree && out == degree && !weighted, "%d in, %d out", in, out);
    int s[2], d[2];
    MPI_Dist_graph_neighbors(dg, 2, s, unweighted, 2, d, unweighted);
    qsort(s, (size_t)in, sizeof(int), cmp);
    qsort(d, (size_t)out, sizeof(int), cmp);
    int want_s[2] = {(rank + size - 1) % size, (rank + size - 3 % size + size) % size};
    int want_d[2] = {dst[0], dst[1]};
    qsort(want_s, 2, sizeof(int), cmp);
    qsort(want_d, 2, sizeof(int), cmp);
    int ok = 1;
    for (int k = 0; k < degree; k++) ok &= s[k] == want_s[k] && d[k] == want_d[k];
    CHECK(ok, "the neighbours every rank's declarations give");
    /* An allgather over it: what arrives from each source is that source's number. */
    int got[2] = {-1, -1};
    int srcs[2];
    MPI_Dist_graph_neighbors(dg, 2, srcs, unweighted, 2, d, unweighted);
    MPI_Neighbor_allgather(&rank, 1, MPI_INT, got, 1, MPI_INT, dg);
    ok = 1;
    for (int k = 0; k < in; k++) ok &= got[k] == srcs[k];
    CHECK(ok, "a neighbourhood allgather in the sources' order");
    MPI_Comm_free(&dg);
    check_section("graph", "MPI_Dist_graph_create", 1);
}

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    graph();
    adjacent();
    general();
    check_report("graph");
    MPI_Finalize();
    return 0;
}
