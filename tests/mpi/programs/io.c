// SPDX-License-Identifier: Apache-2.0
/*
 * io.c - MPI-IO as applications use it: opening and closing a file of all ranks
 * (MPI_File_get_amode, _get_group, _get_size, _set_size, _preallocate, _get_info and
 * _set_info, atomicity); explicit offsets (write_at, write_at_all, sync, read_at,
 * read_at_all of another rank's block, short counts at the end of the file); the
 * individual file pointer (seek from the start, the current position and the end,
 * get_position, get_byte_offset, write/read and their _all forms); a file view whose
 * filetype interleaves the ranks, read back through the view and as plain bytes
 * (get_view, get_type_extent, get_byte_offset through the view) and a strided memory
 * type written to contiguous bytes; the shared file pointer (write_shared records seen as
 * a set, write_ordered/read_ordered in rank order, seek_shared, get_position_shared);
 * the nonblocking calls (iwrite_at, iread_at, iwrite, iread, their _all forms,
 * iwrite_shared, iread_shared); the split collectives; a file per rank on MPI_COMM_SELF
 * (preallocate growing it, MPI_MODE_EXCL, MPI_MODE_APPEND, MPI_MODE_DELETE_ON_CLOSE);
 * error classes that return, error handlers on a file and on MPI_FILE_NULL (the
 * program's own, called through MPI_File_call_errhandler); MPI_File_c2f/_f2c and
 * MPI_File_delete. Files are named from rank 0's process id, put in $TMPDIR (or the
 * current directory) and deleted at the end of each section.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <unistd.h>

#include "check.h"

#define B 16 /* ints in a rank's block */
#define R 4  /* ints in a record written at the shared file pointer */

static int rank, size, other;
static MPI_Offset blk; /* a block's bytes */
static char prefix[512];

/* File n's name (who >= 0: rank who's own file n) from the prefix rank 0 sent. */
static void name_of(char *out, size_t len, int n, int who) {
    if (who < 0)
        snprintf(out, len, "%s_%d.dat", prefix, n);
    else
        snprintf(out, len, "%s_%d_%d.dat", prefix, n, who);
}

/* Delete a file of all ranks once every rank has closed it. */
static void remove_file(const char *name) {
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) CHECK_RC(MPI_File_delete(name, MPI_INFO_NULL), "MPI_File_delete");
}

/* What rank r writes as element i of its block in region k. */
static int val(int r, int k, int i) { return r * 10000 + k * 1000 + i; }

static void fill(int *buf, int r, int k) {
    for (int i = 0; i < B; i++) buf[i] = val(r, k, i);
}

static int block_ok(const int *buf, int n, int r, int k) {
    int ok = 1;
    for (int i = 0; i < n; i++) ok &= buf[i] == val(r, k, i);
    return ok;
}

static int count_of(MPI_Status *st, MPI_Datatype type) {
    int count = -1;
    MPI_Get_count(st, type, &count);
    return count;
}

/* Make writes of every rank visible to every rank (nonatomic mode). */
static void sync_all(MPI_File fh) {
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);
}

static int error_class(int rc) {
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

static void free_if_derived(MPI_Datatype *type) {
    int ni, na, nd, combiner;
    MPI_Type_get_envelope(*type, &ni, &na, &nd, &combiner);
    if (combiner != MPI_COMBINER_NAMED) MPI_Type_free(type);
}

/* Create file n of all ranks, for reading and writing. */
static MPI_File create(char *name, size_t len, int n) {
    MPI_File fh = MPI_FILE_NULL;
    name_of(name, len, n, -1);
    CHECK_RC(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh), "MPI_File_open");
    return fh;
}

static void open_close(void) {
    char name[640];
    MPI_File fh = create(name, sizeof name, 1);
    CHECK(fh != MPI_FILE_NULL, "an open file is not MPI_FILE_NULL");
    int amode = -1, cmp = -1;
    CHECK_RC(MPI_File_get_amode(fh, &amode), "MPI_File_get_amode");
    CHECK(amode == (MPI_MODE_CREATE | MPI_MODE_RDWR), "the access mode is %d", amode);
    MPI_Group group, world;
    CHECK_RC(MPI_File_get_group(fh, &group), "MPI_File_get_group");
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_compare(group, world, &cmp);
    CHECK(cmp == MPI_IDENT, "the file's group is the world's (%d)", cmp);
    MPI_Group_free(&group);
    MPI_Group_free(&world);
    MPI_Offset sz = -1;
    CHECK_RC(MPI_File_get_size(fh, &sz), "MPI_File_get_size");
    CHECK(sz == 0, "a new file has %lld bytes", (long long)sz);
    /* set_size grows and truncates, preallocate never shrinks. A barrier before each call:
     * otherwise a rank could look at the size after a faster rank's next call. Only a
     * preallocate below the size here, one that grows the file is on a file of
     * MPI_COMM_SELF (self_files): Open MPI 4.1's ompio makes a collective call only on the
     * ranks that saw the old size (mismatched collectives when rank 0 grew it first), and
     * its preallocate to the current size copies the file after itself, doubling it. */
    const MPI_Offset to[3] = {1000, 100, 10}, want[3] = {1000, 100, 100};
    for (int k = 0; k < 3; k++) {
        MPI_Barrier(MPI_COMM_WORLD);
        const char *call = k < 2 ? "MPI_File_set_size" : "MPI_File_preallocate";
        const int rc = k < 2 ? MPI_File_set_size(fh, to[k]) : MPI_File_preallocate(fh, to[k]);
        CHECK_RC(rc, call);
        MPI_File_get_size(fh, &sz);
        CHECK(sz == want[k], "%s(%lld) leaves %lld bytes", call, (long long)to[k], (long long)sz);
    }

    MPI_Info info = MPI_INFO_NULL, hints;
    int nkeys = -1;
    CHECK_RC(MPI_File_get_info(fh, &info), "MPI_File_get_info");
    CHECK(info != MPI_INFO_NULL && MPI_Info_get_nkeys(info, &nkeys) == MPI_SUCCESS && nkeys >= 0,
          "MPI_File_get_info gives an info object");
    CHECK_RC(MPI_Info_free(&info), "MPI_Info_free");
    MPI_Info_create(&hints);
    MPI_Info_set(hints, "access_style", "read_mostly");
    MPI_Info_set(hints, "collnet_unknown_hint", "1");
    CHECK_RC(MPI_File_set_info(fh, hints), "MPI_File_set_info");
    MPI_Info_free(&hints);
    CHECK_RC(MPI_File_get_info(fh, &info), "MPI_File_get_info after set_info");
    CHECK_RC(MPI_Info_free(&info), "MPI_Info_free");

    int atomic = -1;
    CHECK_RC(MPI_File_get_atomicity(fh, &atomic), "MPI_File_get_atomicity");
    CHECK(atomic == 0, "a new file is not in atomic mode");
    CHECK_RC(MPI_File_set_atomicity(fh, 1), "MPI_File_set_atomicity(true)");
    MPI_File_get_atomicity(fh, &atomic);
    CHECK(atomic != 0, "atomic mode set");
    MPI_File_set_atomicity(fh, 0);
    MPI_File_get_atomicity(fh, &atomic);
    CHECK(atomic == 0, "atomic mode cleared");
    CHECK_RC(MPI_File_close(&fh), "MPI_File_close");
    CHECK(fh == MPI_FILE_NULL, "a closed file is MPI_FILE_NULL");

    CHECK_RC(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh), "MPI_File_open(RDONLY)");
    MPI_File_get_amode(fh, &amode);
    MPI_File_get_size(fh, &sz);
    CHECK(amode == MPI_MODE_RDONLY && sz == 100, "reopened read-only: mode %d, %lld bytes", amode, (long long)sz);
    MPI_File_close(&fh);
    if (rank == 0) printf("io: after set_size(100) and preallocate(10) the file has %lld bytes\n", (long long)sz);
    remove_file(name);
    check_section("io", "open, close, sizes, info and atomicity", 1);
}

static void explicit_offsets(void) {
    char name[640];
    MPI_File fh = create(name, sizeof name, 2);
    MPI_Status st;
    int out[B], in[B];
    fill(out, rank, 0);
    CHECK_RC(MPI_File_write_at(fh, rank * blk, out, B, MPI_INT, &st), "MPI_File_write_at");
    CHECK(count_of(&st, MPI_INT) == B, "write_at wrote %d ints", count_of(&st, MPI_INT));
    fill(out, rank, 1);
    CHECK_RC(MPI_File_write_at_all(fh, (size + rank) * blk, out, B, MPI_INT, &st), "MPI_File_write_at_all");
    CHECK(count_of(&st, MPI_INT) == B, "write_at_all wrote %d ints", count_of(&st, MPI_INT));
    sync_all(fh);

    CHECK_RC(MPI_File_read_at(fh, other * blk, in, B, MPI_INT, &st), "MPI_File_read_at");
    CHECK(count_of(&st, MPI_INT) == B && block_ok(in, B, other, 0), "read_at of rank %d's block", other);
    CHECK_RC(MPI_File_read_at_all(fh, (size + other) * blk, in, B, MPI_INT, &st), "MPI_File_read_at_all");
    CHECK(count_of(&st, MPI_INT) == B && block_ok(in, B, other, 1), "read_at_all of rank %d's block", other);
    MPI_Offset sz = -1;
    MPI_File_get_size(fh, &sz);
    CHECK(sz == 2 * size * blk, "the file has %lld bytes", (long long)sz);

    /* Reads that reach past the end of the file stop there. */
    const MPI_Offset end = 2 * size * blk;
    CHECK_RC(MPI_File_read_at(fh, end - 3 * (MPI_Offset)sizeof(int), in, B, MPI_INT, &st), "read_at near the end");
    int got = count_of(&st, MPI_INT);
    CHECK(got == 3 && in[0] == val(size - 1, 1, B - 3) && in[2] == val(size - 1, 1, B - 1),
          "a read 3 ints before the end gets %d", got);
    CHECK_RC(MPI_File_read_at(fh, end, in, B, MPI_INT, &st), "read_at at the end");
    CHECK(count_of(&st, MPI_INT) == 0, "a read at the end gets %d ints", count_of(&st, MPI_INT));
    /* The standard: a program detects the end of file by a read's count being less than
     * asked for. Open MPI 4.1's collective reads (ompio's aggregating fcoll components and
     * romio alike) give the count asked for, so the count of this read_at_all is not
     * checked, only the ints before the end. */
    const int want = rank % 4 + 1;
    CHECK_RC(MPI_File_read_at_all(fh, end - want * (MPI_Offset)sizeof(int), in, B, MPI_INT, &st),
             "read_at_all near the end");
    CHECK(in[want - 1] == val(size - 1, 1, B - 1) && in[0] == val(size - 1, 1, B - want),
          "read_at_all %d ints before the end gets them", want);
    if (rank == 0) printf("io: a read of %d ints 3 ints before the end gets %d\n", B, got);
    MPI_File_close(&fh);
    remove_file(name);
    check_section("io", "explicit offsets", 1);
}

static void file_pointers(void) {
    char name[640];
    MPI_File fh = create(name, sizeof name, 3);
    MPI_Status st;
    MPI_Offset pos = -1, byte = -1;
    int out[B], in[B];
    MPI_File_get_position(fh, &pos);
    CHECK(pos == 0, "a new file's position is %lld", (long long)pos);
    CHECK_RC(MPI_File_seek(fh, rank * blk, MPI_SEEK_SET), "MPI_File_seek(SEEK_SET)");
    CHECK_RC(MPI_File_get_position(fh, &pos), "MPI_File_get_position");
    CHECK(pos == rank * blk, "after seek the position is %lld", (long long)pos);
    fill(out, rank, 0);
    CHECK_RC(MPI_File_write(fh, out, B / 2, MPI_INT, &st), "MPI_File_write");
    MPI_File_get_position(fh, &pos);
    CHECK(count_of(&st, MPI_INT) == B / 2 && pos == rank * blk + blk / 2, "a write moves the position to %lld",
          (long long)pos);
    MPI_File_write(fh, out + B / 2, B / 2, MPI_INT, &st);
    MPI_File_get_position(fh, &pos);
    CHECK(pos == (rank + 1) * blk, "a second write moves the position to %lld", (long long)pos);
    CHECK_RC(MPI_File_get_byte_offset(fh, pos, &byte), "MPI_File_get_byte_offset");
    CHECK(byte == pos, "with the default view a position is its byte offset (%lld)", (long long)byte);
    fill(out, rank, 1);
    MPI_File_seek(fh, (size + rank) * blk, MPI_SEEK_SET);
    CHECK_RC(MPI_File_write_all(fh, out, B, MPI_INT, &st), "MPI_File_write_all");
    MPI_File_get_position(fh, &pos);
    CHECK(count_of(&st, MPI_INT) == B && pos == (size + rank + 1) * blk, "write_all moves the position to %lld",
          (long long)pos);
    sync_all(fh);

    MPI_File_seek(fh, other * blk + 8, MPI_SEEK_SET);
    CHECK_RC(MPI_File_seek(fh, -8, MPI_SEEK_CUR), "MPI_File_seek(SEEK_CUR)");
    MPI_File_get_position(fh, &pos);
    CHECK(pos == other * blk, "SEEK_CUR back 8 bytes gives %lld", (long long)pos);
    CHECK_RC(MPI_File_read(fh, in, B, MPI_INT, &st), "MPI_File_read");
    CHECK(count_of(&st, MPI_INT) == B && block_ok(in, B, other, 0), "read of rank %d's block", other);
    CHECK_RC(MPI_File_seek(fh, -blk, MPI_SEEK_END), "MPI_File_seek(SEEK_END)");
    MPI_File_get_position(fh, &pos);
    CHECK(pos == (2 * size - 1) * blk, "SEEK_END back one block gives %lld", (long long)pos);
    CHECK_RC(MPI_File_read_all(fh, in, B, MPI_INT, &st), "MPI_File_read_all");
    MPI_File_get_position(fh, &pos);
    CHECK(count_of(&st, MPI_INT) == B && block_ok(in, B, size - 1, 1) && pos == 2 * size * blk,
          "read_all of the last block, then the position is the end (%lld)", (long long)pos);
    MPI_File_seek(fh, (size + other) * blk, MPI_SEEK_SET);
    MPI_File_read_all(fh, in, B, MPI_INT, &st);
    CHECK(count_of(&st, MPI_INT) == B && block_ok(in, B, other, 1), "read_all of rank %d's block", other);
    MPI_File_close(&fh);
    remove_file(name);
    check_section("io", "individual file pointers", 1);
}

static void views(void) {
    enum { H = 16, M = 8 }; /* a header of H ints, then M ints of every rank, interleaved */
    char name[640];
    MPI_File fh = create(name, sizeof name, 4);
    MPI_Status st;
    int header[H], out[M], in[M];
    for (int i = 0; i < H; i++) header[i] = -1;
    if (rank == 0) CHECK_RC(MPI_File_write_at(fh, 0, header, H, MPI_INT, &st), "write_at of the header");
    sync_all(fh);

    /* Rank r sees every size-th int from the header's end plus r ints: two per tile. */
    MPI_Datatype pair, tile;
    MPI_Type_vector(2, 1, size, MPI_INT, &pair);
    MPI_Type_create_resized(pair, 0, 2 * size * (MPI_Aint)sizeof(int), &tile);
    MPI_Type_commit(&tile);
    MPI_Type_free(&pair);
    const MPI_Offset disp = (H + rank) * (MPI_Offset)sizeof(int);
    CHECK_RC(MPI_File_set_view(fh, disp, MPI_INT, tile, "native", MPI_INFO_NULL), "MPI_File_set_view");
    MPI_Offset pos = -1, byte = -1;
    MPI_File_get_position(fh, &pos);
    CHECK(pos == 0, "set_view resets the position (%lld)", (long long)pos);
    for (int i = 0; i < M; i++) out[i] = 100000 + i * size + rank;
    CHECK_RC(MPI_File_write_all(fh, out, M, MPI_INT, &st), "write_all through the view");
    MPI_File_get_position(fh, &pos);
    CHECK(count_of(&st, MPI_INT) == M && pos == M, "through the view the position counts ints (%lld)",
          (long long)pos);
    MPI_File_get_byte_offset(fh, 1, &byte);
    CHECK(byte == disp + size * (MPI_Offset)sizeof(int), "the view's int 1 is at byte %lld", (long long)byte);
    MPI_File_get_byte_offset(fh, M, &byte);
    CHECK(byte == disp + M * size * (MPI_Offset)sizeof(int), "the view's int %d is at byte %lld", M,
          (long long)byte);
    if (rank == 0) printf("io: the view's int %d is at byte %lld\n", M, (long long)byte);

    MPI_Offset vdisp = -1;
    MPI_Datatype etype, filetype;
    char rep[MPI_MAX_DATAREP_STRING + 1] = "";
    CHECK_RC(MPI_File_get_view(fh, &vdisp, &etype, &filetype, rep), "MPI_File_get_view");
    int esize = -1, fsize = -1;
    MPI_Aint lb = -1, extent = -1, fextent = -1;
    MPI_Type_size(etype, &esize);
    MPI_Type_size(filetype, &fsize);
    MPI_Type_get_extent(filetype, &lb, &extent);
    CHECK(vdisp == disp && strcmp(rep, "native") == 0, "get_view: displacement %lld, representation %s",
          (long long)vdisp, rep);
    CHECK(esize == (int)sizeof(int) && fsize == 2 * (int)sizeof(int) && lb == 0 &&
              extent == 2 * size * (MPI_Aint)sizeof(int),
          "get_view's types: etype size %d, filetype size %d extent %ld", esize, fsize, (long)extent);
    free_if_derived(&etype);
    free_if_derived(&filetype);
    CHECK_RC(MPI_File_get_type_extent(fh, MPI_INT, &extent), "MPI_File_get_type_extent");
    MPI_File_get_type_extent(fh, tile, &fextent);
    CHECK(extent == sizeof(int) && fextent == 2 * size * (MPI_Aint)sizeof(int),
          "extents in the file: int %ld, tile %ld", (long)extent, (long)fextent);
    sync_all(fh);
    CHECK_RC(MPI_File_read_at_all(fh, 0, in, M, MPI_INT, &st), "read_at_all through the view");
    int ok = count_of(&st, MPI_INT) == M;
    for (int i = 0; i < M; i++) ok &= in[i] == out[i];
    CHECK(ok, "read_at_all through the view gets the rank's own ints");

    /* The whole file as bytes: the header, then the ranks' ints interleaved. */
    CHECK_RC(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL), "set_view back to bytes");
    const int total = H + M * size;
    int *whole = malloc((size_t)total * sizeof(int));
    CHECK_RC(MPI_File_read_at(fh, 0, whole, total, MPI_INT, &st), "read_at of the whole file");
    ok = count_of(&st, MPI_INT) == total;
    for (int i = 0; i < H; i++) ok &= whole[i] == -1;
    for (int j = 0; j < M * size; j++) ok &= whole[H + j] == 100000 + j;
    CHECK(ok, "the file holds the header and the interleaved ints");
    if (rank == 0)
        printf("io: interleaved file of %d ints: %d %d ... %d\n", total, whole[H], whole[H + 1], whole[total - 1]);
    free(whole);

    /* Every other int of memory to contiguous ints in the file, and back. */
    MPI_Datatype strided;
    MPI_Type_vector(M, 1, 2, MPI_INT, &strided);
    MPI_Type_commit(&strided);
    int mem[2 * M], back[2 * M];
    for (int i = 0; i < M; i++) mem[2 * i] = 200000 + rank * M + i, mem[2 * i + 1] = -5;
    const MPI_Offset at = (MPI_Offset)total * sizeof(int);
    CHECK_RC(MPI_File_write_at(fh, at + rank * M * (MPI_Offset)sizeof(int), mem, 1, strided, &st),
             "write_at of a strided memory type");
    CHECK(count_of(&st, strided) == 1, "one strided element written");
    sync_all(fh);
    MPI_File_read_at(fh, at + other * M * (MPI_Offset)sizeof(int), in, M, MPI_INT, &st);
    ok = 1;
    for (int i = 0; i < M; i++) ok &= in[i] == 200000 + other * M + i;
    CHECK(ok, "the strided ints are contiguous in the file");
    for (int i = 0; i < 2 * M; i++) back[i] = -7;
    MPI_File_read_at(fh, at + other * M * (MPI_Offset)sizeof(int), back, 1, strided, &st);
    ok = count_of(&st, strided) == 1;
    for (int i = 0; i < M; i++) ok &= back[2 * i] == 200000 + other * M + i && back[2 * i + 1] == -7;
    CHECK(ok, "contiguous ints read into a strided memory type leave the gaps");
    MPI_Type_free(&strided);
    MPI_Type_free(&tile);
    MPI_File_close(&fh);
    remove_file(name);
    check_section("io", "file views and strided memory", 1);
}

/* A record of rank r at the shared file pointer. */
static void make_record(int *rec, int r) {
    rec[0] = r, rec[1] = 3 * r + 1, rec[2] = -r, rec[3] = 4242;
}

static int record_ok(const int *rec) {
    return rec[0] >= 0 && rec[0] < size && rec[1] == 3 * rec[0] + 1 && rec[2] == -rec[0] && rec[3] == 4242;
}

static void shared_pointer(void) {
    char name[640];
    MPI_File fh = create(name, sizeof name, 5);
    MPI_Status st;
    MPI_Offset pos = -1;
    const MPI_Offset rec_bytes = R * (MPI_Offset)sizeof(int);
    int rec[R];
    make_record(rec, rank);
    CHECK_RC(MPI_File_write_shared(fh, rec, R, MPI_INT, &st), "MPI_File_write_shared");
    CHECK(count_of(&st, MPI_INT) == R, "write_shared wrote %d ints", count_of(&st, MPI_INT));
    sync_all(fh);
    CHECK_RC(MPI_File_get_position_shared(fh, &pos), "MPI_File_get_position_shared");
    CHECK(pos == size * rec_bytes, "after every rank's record the shared position is %lld", (long long)pos);
    int *all = malloc((size_t)(size * R) * sizeof(int)), *seen = calloc((size_t)size, sizeof(int));
    MPI_File_read_at(fh, 0, all, size * R, MPI_INT, &st);
    int ok = count_of(&st, MPI_INT) == size * R;
    for (int k = 0; k < size && ok; k++)
        if ((ok = record_ok(all + k * R))) seen[all[k * R]]++;
    for (int r = 0; r < size; r++) ok &= seen[r] == 1;
    CHECK(ok, "every rank's record is in the file once");
    free(all);
    free(seen);

    /* Ordered writes after the records: rank r writes r+1 ints, in rank order. */
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_RC(MPI_File_seek_shared(fh, 0, MPI_SEEK_END), "MPI_File_seek_shared(SEEK_END)");
    MPI_File_get_position_shared(fh, &pos);
    const MPI_Offset base = size * rec_bytes, ordered = size * (size + 1) / 2 * (MPI_Offset)sizeof(int);
    CHECK(pos == base, "seek_shared to the end gives %lld", (long long)pos);
    int *out = malloc((size_t)size * sizeof(int)), *in = malloc((size_t)size * sizeof(int));
    for (int i = 0; i <= rank; i++) out[i] = 300000 + rank * 100 + i;
    CHECK_RC(MPI_File_write_ordered(fh, out, rank + 1, MPI_INT, &st), "MPI_File_write_ordered");
    CHECK(count_of(&st, MPI_INT) == rank + 1, "write_ordered wrote %d ints", count_of(&st, MPI_INT));
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_get_position_shared(fh, &pos);
    CHECK(pos == base + ordered, "after write_ordered the shared position is %lld", (long long)pos);
    sync_all(fh);
    CHECK_RC(MPI_File_seek_shared(fh, -ordered, MPI_SEEK_CUR), "MPI_File_seek_shared(SEEK_CUR)");
    MPI_File_get_position_shared(fh, &pos);
    CHECK(pos == base, "seek_shared back gives %lld", (long long)pos);
    CHECK_RC(MPI_File_read_ordered(fh, in, rank + 1, MPI_INT, &st), "MPI_File_read_ordered");
    ok = count_of(&st, MPI_INT) == rank + 1;
    for (int i = 0; i <= rank; i++) ok &= in[i] == out[i];
    CHECK(ok, "read_ordered gets the rank's own ints");
    MPI_File_read_at(fh, base + other * (other + 1) / 2 * (MPI_Offset)sizeof(int), in, other + 1, MPI_INT, &st);
    ok = count_of(&st, MPI_INT) == other + 1;
    for (int i = 0; i <= other; i++) ok &= in[i] == 300000 + other * 100 + i;
    CHECK(ok, "rank %d's ordered ints are where rank order puts them", other);
    CHECK_RC(MPI_File_seek_shared(fh, base, MPI_SEEK_SET), "MPI_File_seek_shared(SEEK_SET)");
    MPI_File_get_position_shared(fh, &pos);
    CHECK(pos == base, "seek_shared to %lld gives %lld", (long long)base, (long long)pos);
    if (rank == 0) printf("io: %d records and %lld ordered bytes\n", size, (long long)ordered);
    free(out);
    free(in);
    MPI_File_close(&fh);
    remove_file(name);
    check_section("io", "shared file pointer", 1);
}

static void nonblocking(void) {
    char name[640];
    MPI_File fh = create(name, sizeof name, 6);
    MPI_Request req[3];
    MPI_Status st[3];
    int w[4][B], r[4][B], rec[R], got[R];
    for (int k = 0; k < 4; k++) fill(w[k], rank, k);
    /* Regions 0 to 3 of size blocks each, then the records. */
    MPI_File_seek(fh, (size + rank) * blk, MPI_SEEK_SET);
    CHECK_RC(MPI_File_iwrite_at(fh, rank * blk, w[0], B, MPI_INT, &req[0]), "MPI_File_iwrite_at");
    CHECK_RC(MPI_File_iwrite(fh, w[1], B, MPI_INT, &req[1]), "MPI_File_iwrite");
    CHECK_RC(MPI_File_iwrite_at_all(fh, (3 * size + rank) * blk, w[3], B, MPI_INT, &req[2]),
             "MPI_File_iwrite_at_all");
    CHECK_RC(MPI_Waitall(3, req, st), "MPI_Waitall");
    CHECK(count_of(&st[0], MPI_INT) == B && count_of(&st[1], MPI_INT) == B && count_of(&st[2], MPI_INT) == B,
          "the nonblocking writes wrote their blocks");
    MPI_File_seek(fh, (2 * size + rank) * blk, MPI_SEEK_SET);
    CHECK_RC(MPI_File_iwrite_all(fh, w[2], B, MPI_INT, &req[0]), "MPI_File_iwrite_all");
    MPI_Wait(&req[0], &st[0]);
    CHECK(count_of(&st[0], MPI_INT) == B && req[0] == MPI_REQUEST_NULL, "iwrite_all wrote its block");
    MPI_File_seek_shared(fh, 4 * size * blk, MPI_SEEK_SET);
    make_record(rec, rank);
    CHECK_RC(MPI_File_iwrite_shared(fh, rec, R, MPI_INT, &req[0]), "MPI_File_iwrite_shared");
    MPI_Wait(&req[0], &st[0]);
    CHECK(count_of(&st[0], MPI_INT) == R, "iwrite_shared wrote a record");
    sync_all(fh);

    CHECK_RC(MPI_File_iread_at(fh, other * blk, r[0], B, MPI_INT, &req[0]), "MPI_File_iread_at");
    MPI_File_seek(fh, (size + other) * blk, MPI_SEEK_SET);
    CHECK_RC(MPI_File_iread(fh, r[1], B, MPI_INT, &req[1]), "MPI_File_iread");
    CHECK_RC(MPI_File_iread_at_all(fh, (3 * size + other) * blk, r[3], B, MPI_INT, &req[2]),
             "MPI_File_iread_at_all");
    MPI_Waitall(3, req, st);
    CHECK(count_of(&st[0], MPI_INT) == B && block_ok(r[0], B, other, 0), "iread_at of rank %d's block", other);
    CHECK(count_of(&st[1], MPI_INT) == B && block_ok(r[1], B, other, 1), "iread of rank %d's block", other);
    CHECK(count_of(&st[2], MPI_INT) == B && block_ok(r[3], B, other, 3), "iread_at_all of rank %d's block", other);
    MPI_File_seek(fh, (2 * size + other) * blk, MPI_SEEK_SET);
    CHECK_RC(MPI_File_iread_all(fh, r[2], B, MPI_INT, &req[0]), "MPI_File_iread_all");
    MPI_Wait(&req[0], &st[0]);
    CHECK(count_of(&st[0], MPI_INT) == B && block_ok(r[2], B, other, 2), "iread_all of rank %d's block", other);
    /* Each rank reads one record at the shared pointer: together they read every record once. */
    MPI_File_seek_shared(fh, 4 * size * blk, MPI_SEEK_SET);
    CHECK_RC(MPI_File_iread_shared(fh, got, R, MPI_INT, &req[0]), "MPI_File_iread_shared");
    MPI_Wait(&req[0], &st[0]);
    CHECK(count_of(&st[0], MPI_INT) == R && record_ok(got), "iread_shared got a record");
    int *owners = malloc((size_t)size * sizeof(int)), *seen = calloc((size_t)size, sizeof(int)), ok = 1;
    MPI_Allgather(&got[0], 1, MPI_INT, owners, 1, MPI_INT, MPI_COMM_WORLD);
    for (int k = 0; k < size; k++)
        if ((ok &= owners[k] >= 0 && owners[k] < size)) seen[owners[k]]++;
    for (int k = 0; k < size; k++) ok &= seen[k] == 1;
    CHECK(ok, "the ranks' iread_shared calls read every record once");
    free(owners);
    free(seen);
    MPI_File_close(&fh);
    remove_file(name);
    check_section("io", "nonblocking reads and writes", 1);
}

static void split_collectives(void) {
    char name[640];
    MPI_File fh = create(name, sizeof name, 7);
    MPI_Status st;
    int w[3][B], r[3][B];
    for (int k = 0; k < 3; k++) fill(w[k], rank, k);
    CHECK_RC(MPI_File_write_at_all_begin(fh, rank * blk, w[0], B, MPI_INT), "MPI_File_write_at_all_begin");
    CHECK_RC(MPI_File_write_at_all_end(fh, w[0], &st), "MPI_File_write_at_all_end");
    CHECK(count_of(&st, MPI_INT) == B, "write_at_all_end: %d ints", count_of(&st, MPI_INT));
    MPI_File_seek(fh, (size + rank) * blk, MPI_SEEK_SET);
    CHECK_RC(MPI_File_write_all_begin(fh, w[1], B, MPI_INT), "MPI_File_write_all_begin");
    CHECK_RC(MPI_File_write_all_end(fh, w[1], &st), "MPI_File_write_all_end");
    CHECK(count_of(&st, MPI_INT) == B, "write_all_end: %d ints", count_of(&st, MPI_INT));
    MPI_File_seek_shared(fh, 2 * size * blk, MPI_SEEK_SET);
    CHECK_RC(MPI_File_write_ordered_begin(fh, w[2], B, MPI_INT), "MPI_File_write_ordered_begin");
    CHECK_RC(MPI_File_write_ordered_end(fh, w[2], &st), "MPI_File_write_ordered_end");
    CHECK(count_of(&st, MPI_INT) == B, "write_ordered_end: %d ints", count_of(&st, MPI_INT));
    sync_all(fh);

    CHECK_RC(MPI_File_read_at_all_begin(fh, other * blk, r[0], B, MPI_INT), "MPI_File_read_at_all_begin");
    CHECK_RC(MPI_File_read_at_all_end(fh, r[0], &st), "MPI_File_read_at_all_end");
    CHECK(count_of(&st, MPI_INT) == B && block_ok(r[0], B, other, 0), "read_at_all_begin/end of rank %d", other);
    MPI_File_seek(fh, (size + other) * blk, MPI_SEEK_SET);
    CHECK_RC(MPI_File_read_all_begin(fh, r[1], B, MPI_INT), "MPI_File_read_all_begin");
    CHECK_RC(MPI_File_read_all_end(fh, r[1], &st), "MPI_File_read_all_end");
    CHECK(count_of(&st, MPI_INT) == B && block_ok(r[1], B, other, 1), "read_all_begin/end of rank %d", other);
    MPI_File_seek_shared(fh, 2 * size * blk, MPI_SEEK_SET);
    CHECK_RC(MPI_File_read_ordered_begin(fh, r[2], B, MPI_INT), "MPI_File_read_ordered_begin");
    CHECK_RC(MPI_File_read_ordered_end(fh, r[2], &st), "MPI_File_read_ordered_end");
    CHECK(count_of(&st, MPI_INT) == B && block_ok(r[2], B, rank, 2), "read_ordered_begin/end gets the own block");
    MPI_File_read_at(fh, (2 * size + other) * blk, r[2], B, MPI_INT, &st);
    CHECK(block_ok(r[2], B, other, 2), "write_ordered_begin/end put rank %d's block in rank order", other);
    MPI_File_close(&fh);
    remove_file(name);
    check_section("io", "split collectives", 1);
}

static void self_files(void) {
    char name[640];
    name_of(name, sizeof name, 8, rank);
    MPI_File fh = MPI_FILE_NULL;
    MPI_Status st;
    MPI_Offset pos = -1, sz = -1;
    int out[B], in[B + B / 2], cmp = -1;
    CHECK_RC(MPI_File_open(MPI_COMM_SELF, name, MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_RDWR, MPI_INFO_NULL, &fh),
             "MPI_File_open(SELF, CREATE|EXCL)");
    MPI_Group group, self;
    MPI_File_get_group(fh, &group);
    MPI_Comm_group(MPI_COMM_SELF, &self);
    MPI_Group_compare(group, self, &cmp);
    CHECK(cmp == MPI_IDENT, "a file of MPI_COMM_SELF has its group (%d)", cmp);
    MPI_Group_free(&group);
    MPI_Group_free(&self);
    fill(out, rank, 0);
    MPI_File_write(fh, out, B, MPI_INT, &st);
    CHECK(count_of(&st, MPI_INT) == B, "a write to the rank's own file");
    CHECK_RC(MPI_File_preallocate(fh, 4096), "MPI_File_preallocate(4096)");
    MPI_File_get_size(fh, &sz);
    CHECK(sz == 4096, "preallocate(4096) grows the file to %lld bytes", (long long)sz);
    MPI_File_read_at(fh, 0, in, B, MPI_INT, &st);
    CHECK(block_ok(in, B, rank, 0), "preallocate keeps what was written");
    MPI_File_set_size(fh, blk);
    MPI_File_close(&fh);

    int rc = MPI_File_open(MPI_COMM_SELF, name, MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    CHECK(rc != MPI_SUCCESS && error_class(rc) == MPI_ERR_FILE_EXISTS, "CREATE|EXCL of an existing file: class %d",
          error_class(rc));

    CHECK_RC(MPI_File_open(MPI_COMM_SELF, name, MPI_MODE_WRONLY | MPI_MODE_APPEND, MPI_INFO_NULL, &fh),
             "MPI_File_open(APPEND)");
    MPI_File_get_position(fh, &pos);
    CHECK(pos == blk, "MPI_MODE_APPEND starts at the end (%lld)", (long long)pos);
    fill(out, rank, 1);
    MPI_File_write(fh, out, B / 2, MPI_INT, &st);
    MPI_File_get_position(fh, &pos);
    CHECK(pos == blk + blk / 2, "the appended ints end at %lld", (long long)pos);
    MPI_File_close(&fh);

    CHECK_RC(MPI_File_open(MPI_COMM_SELF, name, MPI_MODE_RDONLY | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh),
             "MPI_File_open(DELETE_ON_CLOSE)");
    MPI_File_get_size(fh, &sz);
    MPI_File_read(fh, in, B + B / 2, MPI_INT, &st);
    CHECK(sz == blk + blk / 2 && count_of(&st, MPI_INT) == B + B / 2 && block_ok(in, B, rank, 0) &&
              block_ok(in + B, B / 2, rank, 1),
          "the file holds the block and the appended ints (%lld bytes)", (long long)sz);
    MPI_File_close(&fh);
    rc = MPI_File_open(MPI_COMM_SELF, name, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    CHECK(rc != MPI_SUCCESS && error_class(rc) == MPI_ERR_NO_SUCH_FILE,
          "MPI_MODE_DELETE_ON_CLOSE deleted the file: class %d", error_class(rc));
    if (rank == 0) printf("io: a rank's own file had %lld bytes\n", (long long)sz);
    check_section("io", "files of MPI_COMM_SELF: preallocate, EXCL, APPEND, DELETE_ON_CLOSE", 1);
}

static int handled = 0, handled_code = -1;
static MPI_File handled_file;
static void count_errors(MPI_File *fh, int *code, ...) {
    handled++;
    handled_code = *code;
    handled_file = *fh;
}

static void errors(void) {
    char name[640], missing[640];
    name_of(name, sizeof name, 9, -1);
    name_of(missing, sizeof missing, 99, -1); /* never created */
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL, mine;
    MPI_File fh = MPI_FILE_NULL;
    MPI_Status st;
    CHECK_RC(MPI_File_get_errhandler(MPI_FILE_NULL, &eh), "MPI_File_get_errhandler(MPI_FILE_NULL)");
    CHECK(eh == MPI_ERRORS_RETURN, "files' default error handler is MPI_ERRORS_RETURN");

    int rc = MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    CHECK(rc != MPI_SUCCESS && error_class(rc) == MPI_ERR_NO_SUCH_FILE, "opening a missing file: class %d",
          error_class(rc));
    CHECK_RC(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh),
             "MPI_File_open");
    MPI_File_close(&fh);
    rc = MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    CHECK(rc != MPI_SUCCESS && error_class(rc) == MPI_ERR_FILE_EXISTS, "CREATE|EXCL of an existing file: class %d",
          error_class(rc));
    rc = MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDONLY | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    CHECK(rc != MPI_SUCCESS && error_class(rc) == MPI_ERR_AMODE, "RDONLY|WRONLY: class %d", error_class(rc));

    CHECK_RC(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh), "MPI_File_open(RDONLY)");
    MPI_File_get_errhandler(fh, &eh);
    CHECK(eh == MPI_ERRORS_RETURN, "a new file gets MPI_FILE_NULL's handler");
    int one = 1;
    rc = MPI_File_write_at(fh, 0, &one, 1, MPI_INT, &st);
    int cls = error_class(rc);
    CHECK(rc != MPI_SUCCESS && (cls == MPI_ERR_READ_ONLY || cls == MPI_ERR_ACCESS),
          "writing a read-only file: class %d", cls);

    /* The program's own handler on the file, by an error and by MPI_File_call_errhandler. */
    CHECK_RC(MPI_File_create_errhandler(count_errors, &mine), "MPI_File_create_errhandler");
    CHECK_RC(MPI_File_set_errhandler(fh, mine), "MPI_File_set_errhandler");
    MPI_File_get_errhandler(fh, &eh);
    CHECK(eh == mine, "MPI_File_get_errhandler gives the handler set");
    rc = MPI_File_write_at(fh, 0, &one, 1, MPI_INT, &st);
    cls = error_class(handled_code);
    CHECK(rc != MPI_SUCCESS && handled == 1 && handled_file == fh &&
              (cls == MPI_ERR_READ_ONLY || cls == MPI_ERR_ACCESS),
          "the handler ran once for the failed write (%d, class %d)", handled, cls);
    CHECK_RC(MPI_File_call_errhandler(fh, MPI_ERR_OTHER), "MPI_File_call_errhandler");
    CHECK(handled == 2 && handled_code == MPI_ERR_OTHER && handled_file == fh,
          "MPI_File_call_errhandler ran the handler with its code");
    MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN);
    MPI_File_get_errhandler(fh, &eh);
    CHECK(eh == MPI_ERRORS_RETURN, "MPI_ERRORS_RETURN back on the file");
    MPI_File_close(&fh);

    /* On MPI_FILE_NULL the handler takes the errors of opening. */
    CHECK_RC(MPI_File_set_errhandler(MPI_FILE_NULL, mine), "MPI_File_set_errhandler(MPI_FILE_NULL)");
    MPI_File_get_errhandler(MPI_FILE_NULL, &eh);
    CHECK(eh == mine, "MPI_FILE_NULL has the program's handler");
    rc = MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    CHECK(rc != MPI_SUCCESS && handled == 3 && handled_file == MPI_FILE_NULL &&
              error_class(handled_code) == MPI_ERR_NO_SUCH_FILE,
          "MPI_FILE_NULL's handler ran for the failed open (%d)", handled);
    MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN);
    MPI_File_get_errhandler(MPI_FILE_NULL, &eh);
    CHECK(eh == MPI_ERRORS_RETURN, "MPI_ERRORS_RETURN back on MPI_FILE_NULL");
    CHECK_RC(MPI_Errhandler_free(&mine), "MPI_Errhandler_free");
    CHECK(mine == MPI_ERRHANDLER_NULL, "a freed handler is MPI_ERRHANDLER_NULL");

    rc = MPI_File_delete(missing, MPI_INFO_NULL);
    CHECK(rc != MPI_SUCCESS && error_class(rc) == MPI_ERR_NO_SUCH_FILE, "deleting a missing file: class %d",
          error_class(rc));
    remove_file(name);
    check_section("io", "error classes and error handlers", 1);
}

static void handles_and_delete(void) {
    char name[640];
    MPI_File fh = create(name, sizeof name, 10);
    MPI_Status st;
    MPI_Fint f = MPI_File_c2f(fh);
    MPI_File back = MPI_File_f2c(f);
    CHECK(back == fh, "a file through MPI_Fint");
    CHECK(MPI_File_f2c(MPI_File_c2f(MPI_FILE_NULL)) == MPI_FILE_NULL, "MPI_FILE_NULL through MPI_Fint");
    int out[B];
    fill(out, rank, 0);
    CHECK_RC(MPI_File_write_at_all(back, rank * blk, out, B, MPI_INT, &st), "write_at_all through the f2c handle");
    sync_all(back);
    MPI_Offset sz = -1;
    MPI_File_get_size(fh, &sz);
    CHECK(sz == size * blk, "the file has %lld bytes", (long long)sz);
    MPI_File_close(&fh);
    remove_file(name);
    MPI_Barrier(MPI_COMM_WORLD);
    int rc = MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    CHECK(rc != MPI_SUCCESS && error_class(rc) == MPI_ERR_NO_SUCH_FILE, "a deleted file is gone: class %d",
          error_class(rc));
    check_section("io", "MPI_File_c2f/f2c and MPI_File_delete", 1);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    other = (rank + 1) % size;
    blk = B * (MPI_Offset)sizeof(int);
    if (rank == 0) {
        const char *dir = getenv("TMPDIR");
        if (dir && dir[0] && strlen(dir) < 400)
            snprintf(prefix, sizeof prefix, "%s/collnet_io_%ld", dir, (long)getpid());
        else
            snprintf(prefix, sizeof prefix, "collnet_io_%ld", (long)getpid());
    }
    MPI_Bcast(prefix, (int)sizeof prefix, MPI_CHAR, 0, MPI_COMM_WORLD);
    open_close();
    explicit_offsets();
    file_pointers();
    views();
    shared_pointer();
    nonblocking();
    split_collectives();
    self_files();
    errors();
    handles_and_delete();
    check_report("io");
    MPI_Finalize();
    return 0;
}
