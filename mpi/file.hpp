// SPDX-License-Identifier: Apache-2.0
// Files (MPI_File, MPI-IO): files of the host's file system, which the ranks of a
// communicator open together. The simulated machine has no I/O nodes in its model, so a
// file access takes no simulated time: the rank's call reads or writes the host file at
// once, through the file's view, in the native representation. What must agree between
// the ranks travels over the file's own communicator (a duplicate of the one it was opened
// on, which also holds its error handler): the open's outcome, the close (a barrier, so
// MPI_MODE_DELETE_ON_CLOSE deletes a file no rank still uses), a new view, and the shared
// file pointer's collective moves. The shared file pointer itself is state the ranks share
// in this process (FileShared); on a machine in partitions it is refused, as windows are.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mpi/runtime.hpp"

namespace collnet::mpi {

// What the ranks that opened a file together share: its shared file pointer, in etypes of
// the view (every rank's view has the same etype when the pointer is used).
struct FileShared {
  uint64_t serial = 0;  // its key in Runtime::files
  MPI_Offset pointer = 0;
  int elsewhere = -1;  // a rank that opened it and runs in another partition, if one does
};

// A view (MPI_File_set_view): the file's data seen from byte `disp` on as filetypes tiled
// one after another, in etypes; the filetype's holes are other ranks' data.
struct FileView {
  MPI_Offset disp = 0;
  MPI_Datatype etype = MPI_BYTE, filetype = MPI_BYTE;  // the handles the program gave (get_view)
  std::shared_ptr<const TypeDesc> etype_desc, filetype_desc;
  std::string datarep = "native";
  std::vector<size_t> run_starts;  // where each run of the filetype begins in its data
  bool contiguous = true;          // the filetype has no holes: data byte p is file byte disp + p

  size_t etype_size() const { return etype_desc->size; }
  // Calls piece(file_offset, data_offset, bytes) for the file bytes that hold the view's data
  // bytes [p, p + n), in order, adjacent ones merged; data_offset counts from p.
  template <class Piece>
  void for_each_piece(uint64_t p, size_t n, Piece&& piece) const;
  // The file byte that holds the view's data byte `p`.
  uint64_t byte_of(uint64_t p) const;
  // The view's data bytes that lie before file byte `size` (how much of it a file of that
  // size holds).
  uint64_t data_before(uint64_t size) const;
};

// One rank's open file (an MPI_File handle).
struct FileEntry {
  int fd = -1;
  MPI_Comm comm = MPI_COMM_NULL;  // its own communicator (a duplicate of the open's)
  int amode = 0;
  std::string path;
  bool atomic = false;            // MPI_File_set_atomicity
  FileView view;
  MPI_Offset pointer = 0;         // the individual file pointer, in etypes
  std::shared_ptr<FileShared> shared;
  Rank::Info hints;               // MPI_File_set_info's, the open's
  // A split collective begun (MPI_File_read_all_begin, ...) and not yet ended: which, and
  // the status its end gives.
  const char* split = nullptr;
  MPI_Status split_status{};
};

// The rank's open file `f`: MPI_ERR_FILE if it is not one.
FileEntry& file(Rank& r, MPI_File f);
// Whether `f` names an open file of the rank (its errors then go to its handler).
bool is_open_file(Rank& r, MPI_File f);

// Collective over `comm`: opens `filename` (an optional "ufs:" or "nfs:" prefix is the file
// system's name and is dropped) with access mode `amode`; errors raise the class the MPI
// standard names for the cause (MPI_ERR_NO_SUCH_FILE, MPI_ERR_FILE_EXISTS, ...), on every rank.
MPI_File open_file(Rank& r, MPI_Comm comm, const char* filename, int amode, const Rank::Info& hints);
// Collective: closes it (*f becomes MPI_FILE_NULL).
void close_file(Rank& r, MPI_File& f);
// Collective: the view (the individual and shared file pointers go back to 0).
void set_view(Rank& r, FileEntry& f, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
              const std::string& datarep);

// Reads (`write` false) or writes `count` elements of `type` at `buf` from the view's etype
// `offset` on; the status's length is the bytes moved (a read stops at the end of the file).
// Returns the etypes asked for (what the individual file pointer moves by).
MPI_Offset transfer(Rank& r, FileEntry& f, bool write, MPI_Offset offset, void* buf, int count, MPI_Datatype type,
                    MPI_Status* status);
// The etypes `count` elements of `type` fill (MPI_ERR_TYPE if not a whole number).
MPI_Offset etypes_of(Rank& r, FileEntry& f, int count, MPI_Datatype type);
// The view's etype offset just past the end of the file (MPI_SEEK_END's base).
MPI_Offset end_offset(FileEntry& f);
// The file's size in bytes.
MPI_Offset file_size(FileEntry& f);

// The shared file pointer: moved on by `etypes`, its value before (MPI_ERR_UNSUPPORTED_OPERATION
// on a machine in partitions whose ranks of the file run in other processes).
MPI_Offset take_shared(Rank& r, FileEntry& f, MPI_Offset etypes);
// Collective: each rank's etype offset for an ordered access of `etypes` (in rank order, from
// the shared file pointer, which moves past them all).
MPI_Offset take_ordered(Rank& r, FileEntry& f, MPI_Offset etypes);
// Collective: sets the shared file pointer (every rank gives the same `offset`).
void set_shared(Rank& r, FileEntry& f, MPI_Offset offset);

// Fails with the MPI error class of a file system call's errno `err` (MPI-3.1 13.7:
// MPI_ERR_NO_SUCH_FILE, MPI_ERR_NO_SPACE, ...), saying `what` and the host's reason.
[[noreturn]] void fail_io(int err, const std::string& what);
// Collective: every rank of the file gave the same `value` (`what`, plural), else
// MPI_ERR_NOT_SAME naming the range given. Returns once every rank has entered.
void agree(Rank& r, FileEntry& f, int64_t value, const std::string& what);
// MPI_File_delete's work: removes the file (its name as open_file takes it).
void delete_file(const char* filename);

// The file's communicator's barrier (nothing on MPI_COMM_SELF).
void file_barrier(Rank& r, FileEntry& f);

template <class Piece>
void FileView::for_each_piece(uint64_t p, size_t n, Piece&& piece) const {
  if (n == 0) return;
  if (contiguous) {
    piece(static_cast<uint64_t>(disp) + p, size_t{0}, n);
    return;
  }
  const TypeDesc& ft = *filetype_desc;
  uint64_t tile = p / ft.packed;
  size_t within = static_cast<size_t>(p % ft.packed);
  size_t k = 0;
  while (k + 1 < run_starts.size() && run_starts[k + 1] <= within) ++k;
  uint64_t at = 0;
  size_t len = 0, from = 0, done = 0;
  while (done < n) {
    const TypeDesc::Run& run = ft.runs[k];
    const size_t into = within - run_starts[k];
    const size_t take = std::min(run.bytes - into, n - done);
    const uint64_t off = static_cast<uint64_t>(disp) + tile * static_cast<uint64_t>(ft.extent) +
                         static_cast<uint64_t>(run.offset) + into;
    if (len && at + len == off) {
      len += take;
    } else {
      if (len) piece(at, from, len);
      at = off;
      from = done;
      len = take;
    }
    done += take;
    within += take;
    if (within - run_starts[k] == run.bytes && ++k == ft.runs.size()) {
      k = 0;
      within = 0;
      ++tile;
    }
  }
  piece(at, from, len);
}

}  // namespace collnet::mpi
