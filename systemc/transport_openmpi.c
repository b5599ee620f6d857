// SPDX-License-Identifier: Apache-2.0
/*
 * libcollnet_transport.so: the one object that sees Open MPI. A partitioned machine's
 * processes (systemc/transport.hpp) carry their boundary wires and their agreements through
 * these few ct_* functions. The simulator never links libmpi: it loads this library into
 * a link-map namespace of its own (dlmopen), because the collnet executable exports the
 * MPI_* functions of its own MPI to the programs `collnet mpirun` runs, and Open MPI's
 * names must not meet them. Only ct_* and dlopen leave this library (transport.map).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>

/*
 * Open MPI opens its components (and PMIx its plugins) with RTLD_GLOBAL; inside a dlmopen
 * namespace glibc crashes on that. This library is the namespace's first object, so its
 * dlopen is the one they bind to: it drops RTLD_GLOBAL. The components find libmpi anyway,
 * through the namespace's global scope, which is this library's dependencies.
 */
void *dlopen(const char *file, int mode)
{
    static void *(*real)(const char *, int);
    if (!real) real = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");
    return real(file, mode & ~RTLD_GLOBAL);
}

int ct_init(int *rank, int *size)
{
    int provided = 0, e = MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided);
    if (e != MPI_SUCCESS) return e;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    return MPI_Comm_size(MPI_COMM_WORLD, size);
}

/*
 * One round with `n` peers: sends[i] (send_len[i] bytes, possibly 0) to peers[i] and, from
 * each, a message of any length, received into the buffer `place(ctx, i, length)` returns.
 */
int ct_exchange(int n, const int *peers, const void *const *sends, const uint64_t *send_len,
                void *(*place)(void *ctx, int i, uint64_t length), void *ctx, int tag)
{
    MPI_Request *req = malloc(sizeof(MPI_Request) * (size_t)(n > 0 ? n : 1));
    int e = MPI_SUCCESS;
    for (int i = 0; i < n && e == MPI_SUCCESS; i++)
        e = MPI_Isend(sends[i], (int)send_len[i], MPI_BYTE, peers[i], tag, MPI_COMM_WORLD, &req[i]);
    for (int i = 0; i < n && e == MPI_SUCCESS; i++) {
        MPI_Status st;
        int count = 0;
        e = MPI_Probe(peers[i], tag, MPI_COMM_WORLD, &st);
        if (e == MPI_SUCCESS) e = MPI_Get_count(&st, MPI_BYTE, &count);
        if (e == MPI_SUCCESS)
            e = MPI_Recv(place(ctx, i, (uint64_t)count), count, MPI_BYTE, peers[i], tag, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
    }
    if (e == MPI_SUCCESS) e = MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
    free(req);
    return e;
}

/* op: 0 sum, 1 max, 2 min, over n unsigned 64-bit values, in place. */
int ct_allreduce_u64(uint64_t *values, int n, int op)
{
    const MPI_Op ops[3] = {MPI_SUM, MPI_MAX, MPI_MIN};
    if (op < 0 || op > 2) return MPI_ERR_OP;
    return MPI_Allreduce(MPI_IN_PLACE, values, n, MPI_UINT64_T, ops[op], MPI_COMM_WORLD);
}

/* Every process's `length` bytes at `data`, to `root`: there, into `place(ctx, p, length)`
   for each process p (its own included). */
int ct_gather(const void *data, uint64_t length, int root, void *(*place)(void *ctx, int p, uint64_t length),
              void *ctx)
{
    int rank, size, e;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long long mine = (long long)length;
    long long *lengths = rank == root ? malloc(sizeof(long long) * (size_t)size) : NULL;
    e = MPI_Gather(&mine, 1, MPI_LONG_LONG, lengths, 1, MPI_LONG_LONG, root, MPI_COMM_WORLD);
    if (e == MPI_SUCCESS && rank != root) e = MPI_Send(data, (int)length, MPI_BYTE, root, 1, MPI_COMM_WORLD);
    for (int p = 0; p < size && e == MPI_SUCCESS && rank == root; p++) {
        void *to = place(ctx, p, (uint64_t)lengths[p]);
        if (p == root) {
            for (uint64_t b = 0; b < length; b++) ((char *)to)[b] = ((const char *)data)[b];
        } else {
            e = MPI_Recv(to, (int)lengths[p], MPI_BYTE, p, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    }
    free(lengths);
    return e;
}

/* `root`'s bytes to every process: elsewhere into `place(ctx, 0, length)`. */
int ct_bcast(const void *data, uint64_t length, int root, void *(*place)(void *ctx, int p, uint64_t length), void *ctx)
{
    int rank, e;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    long long n = (long long)length;
    e = MPI_Bcast(&n, 1, MPI_LONG_LONG, root, MPI_COMM_WORLD);
    if (e != MPI_SUCCESS) return e;
    void *buf = rank == root ? (void *)data : place(ctx, 0, (uint64_t)n);
    return MPI_Bcast(buf, (int)n, MPI_BYTE, root, MPI_COMM_WORLD);
}

int ct_barrier(void) { return MPI_Barrier(MPI_COMM_WORLD); }

int ct_abort(int code) { return MPI_Abort(MPI_COMM_WORLD, code); }

int ct_finalize(void) { return MPI_Finalize(); }

/* Open MPI's text for an error code (into buf, len bytes). */
void ct_error_string(int code, char *buf, int len)
{
    char s[MPI_MAX_ERROR_STRING];
    int n = 0;
    if (MPI_Error_string(code, s, &n) != MPI_SUCCESS) n = 0;
    if (len <= 0) return;
    if (n >= len) n = len - 1;
    for (int i = 0; i < n; i++) buf[i] = s[i];
    buf[n] = 0;
}
