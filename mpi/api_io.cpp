// SPDX-License-Identifier: Apache-2.0
// mpi.h: files (MPI-IO). Opening, views, the file pointers and the data access are
// file.hpp's; here the C functions check their arguments. A call on an open file raises
// its errors to the file's handler, a call without one (MPI_File_open, MPI_File_delete,
// MPI_FILE_NULL) to the default file handler: MPI_ERRORS_RETURN unless the program set
// another on MPI_FILE_NULL. The non-blocking calls and the split collectives do their
// access at once: their request, or their end, gives its status.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "mpi/api_support.hpp"
#include "mpi/file.hpp"

using namespace collnet::mpi;

namespace {

// Runs `body` as the file call `name` on file `fh`.
template <class F>
int file_api(const char* name, MPI_File fh, F&& body) {
  return api_raising(
      name,
      [&](Rank& r, int cls, const std::string& what) {
        return is_open_file(r, fh) ? r.raise(file(r, fh).comm, name, cls, what) : r.raise_file(name, cls, what);
      },
      [&](Rank& r) { body(r, file(r, fh)); });
}

// A call with no open file: errors go to the default file handler.
template <class F>
int no_file_api(const char* name, F&& body) {
  return api_raising(
      name, [&](Rank& r, int cls, const std::string& what) { return r.raise_file(name, cls, what); },
      [&](Rank& r) { body(r); });
}

// A request already complete with `status`.
void completed(Rank& r, MPI_Request* request, const MPI_Status& status) {
  if (!request) fail(MPI_ERR_ARG, "request is null");
  RequestEntry e;
  e.completed = status;
  *request = r.add_request(std::move(e));
}

void check_individual(FileEntry& f) {
  if (f.amode & MPI_MODE_SEQUENTIAL)
    fail(MPI_ERR_UNSUPPORTED_OPERATION, "the file is open MPI_MODE_SEQUENTIAL: only the shared file pointer reads "
                                        "and writes it");
}

// An access at explicit etype `offset`.
void at(Rank& r, FileEntry& f, bool write, MPI_Offset offset, const void* buf, int count, MPI_Datatype type,
        MPI_Status* status) {
  check_individual(f);
  transfer(r, f, write, offset, const_cast<void*>(buf), count, type, status);
}

// An access at the individual file pointer, which moves past the etypes asked for.
void individual(Rank& r, FileEntry& f, bool write, const void* buf, int count, MPI_Datatype type,
                MPI_Status* status) {
  check_individual(f);
  f.pointer += transfer(r, f, write, f.pointer, const_cast<void*>(buf), count, type, status);
}

// An access at the shared file pointer.
void shared(Rank& r, FileEntry& f, bool write, const void* buf, int count, MPI_Datatype type, MPI_Status* status) {
  const MPI_Offset n = etypes_of(r, f, count, type);
  transfer(r, f, write, take_shared(r, f, n), const_cast<void*>(buf), count, type, status);
}

// Collective: an access in rank order from the shared file pointer.
void ordered(Rank& r, FileEntry& f, bool write, const void* buf, int count, MPI_Datatype type, MPI_Status* status) {
  const MPI_Offset n = etypes_of(r, f, count, type);
  transfer(r, f, write, take_ordered(r, f, n), const_cast<void*>(buf), count, type, status);
}

// A split collective's begin: the access, its status kept for the end.
template <class Access>
int begin(const char* name, MPI_File fh, Access&& access) {
  return file_api(name, fh, [&](Rank& r, FileEntry& f) {
    if (f.split) fail(MPI_ERR_OTHER, std::string("the split collective ") + f.split + " has not ended (one at a time)");
    MPI_Status s{};
    access(r, f, &s);
    f.split = name;
    f.split_status = s;
  });
}

int end(const char* name, const char* began, MPI_File fh, MPI_Status* status) {
  return file_api(name, fh, [&](Rank&, FileEntry& f) {
    if (!f.split || std::strcmp(f.split, began) != 0)
      fail(MPI_ERR_OTHER, std::string("no ") + began + " to end" + (f.split ? std::string(" (") + f.split + " is)" : ""));
    f.split = nullptr;
    if (status != MPI_STATUS_IGNORE) *status = f.split_status;
  });
}

// A non-blocking access: done at once, its request complete with the status.
template <class Access>
int started(const char* name, MPI_File fh, MPI_Request* request, Access&& access) {
  return file_api(name, fh, [&](Rank& r, FileEntry& f) {
    MPI_Status s{};
    access(r, f, &s);
    completed(r, request, s);
  });
}

MPI_Offset seek_base(FileEntry& f, MPI_Offset current, int whence) {
  switch (whence) {
    case MPI_SEEK_SET: return 0;
    case MPI_SEEK_CUR: return current;
    case MPI_SEEK_END: return end_offset(f);
    default:
      fail(MPI_ERR_ARG, "whence " + std::to_string(whence) + " is not MPI_SEEK_SET, MPI_SEEK_CUR or MPI_SEEK_END");
  }
}

}  // namespace

extern "C" {

int MPI_File_open(MPI_Comm comm, const char* filename, int amode, MPI_Info info, MPI_File* fh) {
  return no_file_api("MPI_File_open", [&](Rank& r) {
    if (!fh) fail(MPI_ERR_ARG, "fh is null");
    const Rank::Info hints = info == MPI_INFO_NULL ? Rank::Info{} : r.info(info);
    *fh = open_file(r, comm, filename, amode, hints);
  });
}

int MPI_File_close(MPI_File* fh) {
  if (!fh) return no_file_api("MPI_File_close", [](Rank&) { fail(MPI_ERR_ARG, "fh is null"); });
  return file_api("MPI_File_close", *fh, [&](Rank& r, FileEntry&) { close_file(r, *fh); });
}

int MPI_File_delete(const char* filename, MPI_Info info) {
  return no_file_api("MPI_File_delete", [&](Rank& r) {
    if (info != MPI_INFO_NULL) r.info(info);
    delete_file(filename);
  });
}

int MPI_File_set_size(MPI_File fh, MPI_Offset size) {
  return file_api("MPI_File_set_size", fh, [&](Rank& r, FileEntry& f) {
    if (size < 0) fail(MPI_ERR_ARG, "size " + std::to_string(size) + " is negative");
    if (f.amode & MPI_MODE_RDONLY) fail(MPI_ERR_READ_ONLY, "\"" + f.path + "\" is open MPI_MODE_RDONLY");
    if (f.amode & MPI_MODE_SEQUENTIAL) fail(MPI_ERR_UNSUPPORTED_OPERATION, "the file is open MPI_MODE_SEQUENTIAL");
    // Every rank sets the same size; the barrier keeps any from writing before all have.
    if (::ftruncate(f.fd, static_cast<off_t>(size)) != 0)
      fail_io(errno, "cannot set the size of \"" + f.path + "\"");
    file_barrier(r, f);
  });
}

int MPI_File_preallocate(MPI_File fh, MPI_Offset size) {
  return file_api("MPI_File_preallocate", fh, [&](Rank& r, FileEntry& f) {
    if (size < 0) fail(MPI_ERR_ARG, "size " + std::to_string(size) + " is negative");
    if (f.amode & MPI_MODE_RDONLY) fail(MPI_ERR_READ_ONLY, "\"" + f.path + "\" is open MPI_MODE_RDONLY");
    if (f.amode & MPI_MODE_SEQUENTIAL) fail(MPI_ERR_UNSUPPORTED_OPERATION, "the file is open MPI_MODE_SEQUENTIAL");
    file_barrier(r, f);  // the size read below is every rank's
    if (comm_rank(r.comm(f.comm)) == 0 && file_size(f) < size && ::ftruncate(f.fd, static_cast<off_t>(size)) != 0)
      fail_io(errno, "cannot preallocate \"" + f.path + "\"");
    file_barrier(r, f);
  });
}

int MPI_File_get_size(MPI_File fh, MPI_Offset* size) {
  return file_api("MPI_File_get_size", fh, [&](Rank&, FileEntry& f) {
    if (!size) fail(MPI_ERR_ARG, "size is null");
    *size = file_size(f);
  });
}

int MPI_File_get_group(MPI_File fh, MPI_Group* group) {
  return file_api("MPI_File_get_group", fh, [&](Rank& r, FileEntry& f) {
    if (!group) fail(MPI_ERR_ARG, "group is null");
    *group = r.add_group(members(r, r.comm(f.comm)));
  });
}

int MPI_File_get_amode(MPI_File fh, int* amode) {
  return file_api("MPI_File_get_amode", fh, [&](Rank&, FileEntry& f) {
    if (!amode) fail(MPI_ERR_ARG, "amode is null");
    *amode = f.amode;
  });
}

int MPI_File_set_info(MPI_File fh, MPI_Info info) {
  return file_api("MPI_File_set_info", fh, [&](Rank& r, FileEntry& f) {
    if (info == MPI_INFO_NULL) return;
    for (const auto& [key, value] : r.info(info)) {
      auto it = std::find_if(f.hints.begin(), f.hints.end(), [&](const auto& kv) { return kv.first == key; });
      if (it != f.hints.end())
        it->second = value;
      else
        f.hints.emplace_back(key, value);
    }
  });
}

int MPI_File_get_info(MPI_File fh, MPI_Info* info_used) {
  return file_api("MPI_File_get_info", fh, [&](Rank& r, FileEntry& f) {
    if (!info_used) fail(MPI_ERR_ARG, "info_used is null");
    *info_used = r.add_info(f.hints);
  });
}

int MPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype, const char* datarep,
                      MPI_Info info) {
  return file_api("MPI_File_set_view", fh, [&](Rank& r, FileEntry& f) {
    if (!datarep) fail(MPI_ERR_UNSUPPORTED_DATAREP, "datarep is null");
    if (info != MPI_INFO_NULL) r.info(info);
    set_view(r, f, disp, etype, filetype, datarep);
  });
}

int MPI_File_get_view(MPI_File fh, MPI_Offset* disp, MPI_Datatype* etype, MPI_Datatype* filetype, char* datarep) {
  return file_api("MPI_File_get_view", fh, [&](Rank& r, FileEntry& f) {
    if (!disp || !etype || !filetype || !datarep) fail(MPI_ERR_ARG, "an argument is null");
    *disp = f.view.disp;
    // A derived type comes back as a new handle of the program's, which it frees.
    auto handle = [&](MPI_Datatype t, const TypeDesc& desc) { return desc.predefined ? t : r.add_type(desc); };
    *etype = handle(f.view.etype, *f.view.etype_desc);
    *filetype = handle(f.view.filetype, *f.view.filetype_desc);
    std::strncpy(datarep, f.view.datarep.c_str(), MPI_MAX_DATAREP_STRING - 1);
    datarep[MPI_MAX_DATAREP_STRING - 1] = '\0';
  });
}

int MPI_File_read_at(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  return file_api("MPI_File_read_at", fh,
                  [&](Rank& r, FileEntry& f) { at(r, f, false, offset, buf, count, datatype, status); });
}

int MPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype,
                         MPI_Status* status) {
  return file_api("MPI_File_read_at_all", fh,
                  [&](Rank& r, FileEntry& f) { at(r, f, false, offset, buf, count, datatype, status); });
}

int MPI_File_write_at(MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype,
                      MPI_Status* status) {
  return file_api("MPI_File_write_at", fh,
                  [&](Rank& r, FileEntry& f) { at(r, f, true, offset, buf, count, datatype, status); });
}

int MPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype,
                          MPI_Status* status) {
  return file_api("MPI_File_write_at_all", fh,
                  [&](Rank& r, FileEntry& f) { at(r, f, true, offset, buf, count, datatype, status); });
}

int MPI_File_iread_at(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype,
                      MPI_Request* request) {
  return started("MPI_File_iread_at", fh, request,
                 [&](Rank& r, FileEntry& f, MPI_Status* s) { at(r, f, false, offset, buf, count, datatype, s); });
}

int MPI_File_iwrite_at(MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype,
                       MPI_Request* request) {
  return started("MPI_File_iwrite_at", fh, request,
                 [&](Rank& r, FileEntry& f, MPI_Status* s) { at(r, f, true, offset, buf, count, datatype, s); });
}

int MPI_File_iread_at_all(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype,
                          MPI_Request* request) {
  return started("MPI_File_iread_at_all", fh, request,
                 [&](Rank& r, FileEntry& f, MPI_Status* s) { at(r, f, false, offset, buf, count, datatype, s); });
}

int MPI_File_iwrite_at_all(MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype,
                           MPI_Request* request) {
  return started("MPI_File_iwrite_at_all", fh, request,
                 [&](Rank& r, FileEntry& f, MPI_Status* s) { at(r, f, true, offset, buf, count, datatype, s); });
}

int MPI_File_read(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  return file_api("MPI_File_read", fh,
                  [&](Rank& r, FileEntry& f) { individual(r, f, false, buf, count, datatype, status); });
}

int MPI_File_read_all(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  return file_api("MPI_File_read_all", fh,
                  [&](Rank& r, FileEntry& f) { individual(r, f, false, buf, count, datatype, status); });
}

int MPI_File_write(MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  return file_api("MPI_File_write", fh,
                  [&](Rank& r, FileEntry& f) { individual(r, f, true, buf, count, datatype, status); });
}

int MPI_File_write_all(MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  return file_api("MPI_File_write_all", fh,
                  [&](Rank& r, FileEntry& f) { individual(r, f, true, buf, count, datatype, status); });
}

int MPI_File_iread(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Request* request) {
  return started("MPI_File_iread", fh, request,
                 [&](Rank& r, FileEntry& f, MPI_Status* s) { individual(r, f, false, buf, count, datatype, s); });
}

int MPI_File_iwrite(MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Request* request) {
  return started("MPI_File_iwrite", fh, request,
                 [&](Rank& r, FileEntry& f, MPI_Status* s) { individual(r, f, true, buf, count, datatype, s); });
}

int MPI_File_iread_all(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Request* request) {
  return started("MPI_File_iread_all", fh, request,
                 [&](Rank& r, FileEntry& f, MPI_Status* s) { individual(r, f, false, buf, count, datatype, s); });
}

int MPI_File_iwrite_all(MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Request* request) {
  return started("MPI_File_iwrite_all", fh, request,
                 [&](Rank& r, FileEntry& f, MPI_Status* s) { individual(r, f, true, buf, count, datatype, s); });
}

int MPI_File_seek(MPI_File fh, MPI_Offset offset, int whence) {
  return file_api("MPI_File_seek", fh, [&](Rank&, FileEntry& f) {
    check_individual(f);
    const MPI_Offset to = seek_base(f, f.pointer, whence) + offset;
    if (to < 0) fail(MPI_ERR_ARG, "the file pointer would move to etype " + std::to_string(to));
    f.pointer = to;
  });
}

int MPI_File_get_position(MPI_File fh, MPI_Offset* offset) {
  return file_api("MPI_File_get_position", fh, [&](Rank&, FileEntry& f) {
    if (!offset) fail(MPI_ERR_ARG, "offset is null");
    check_individual(f);
    *offset = f.pointer;
  });
}

int MPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset, MPI_Offset* disp) {
  return file_api("MPI_File_get_byte_offset", fh, [&](Rank&, FileEntry& f) {
    if (!disp) fail(MPI_ERR_ARG, "disp is null");
    if (offset < 0) fail(MPI_ERR_ARG, "offset " + std::to_string(offset) + " is negative");
    *disp = static_cast<MPI_Offset>(f.view.byte_of(static_cast<uint64_t>(offset) * f.view.etype_size()));
  });
}

int MPI_File_read_shared(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  return file_api("MPI_File_read_shared", fh,
                  [&](Rank& r, FileEntry& f) { shared(r, f, false, buf, count, datatype, status); });
}

int MPI_File_write_shared(MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  return file_api("MPI_File_write_shared", fh,
                  [&](Rank& r, FileEntry& f) { shared(r, f, true, buf, count, datatype, status); });
}

int MPI_File_iread_shared(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Request* request) {
  return started("MPI_File_iread_shared", fh, request,
                 [&](Rank& r, FileEntry& f, MPI_Status* s) { shared(r, f, false, buf, count, datatype, s); });
}

int MPI_File_iwrite_shared(MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Request* request) {
  return started("MPI_File_iwrite_shared", fh, request,
                 [&](Rank& r, FileEntry& f, MPI_Status* s) { shared(r, f, true, buf, count, datatype, s); });
}

int MPI_File_read_ordered(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  return file_api("MPI_File_read_ordered", fh,
                  [&](Rank& r, FileEntry& f) { ordered(r, f, false, buf, count, datatype, status); });
}

int MPI_File_write_ordered(MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  return file_api("MPI_File_write_ordered", fh,
                  [&](Rank& r, FileEntry& f) { ordered(r, f, true, buf, count, datatype, status); });
}

int MPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence) {
  return file_api("MPI_File_seek_shared", fh, [&](Rank& r, FileEntry& f) {
    if (whence != MPI_SEEK_SET && whence != MPI_SEEK_CUR && whence != MPI_SEEK_END) seek_base(f, 0, whence);
    // Every rank's accesses before the call are done once all have entered it (the first
    // barrier), so the base each reads is the same.
    file_barrier(r, f);
    set_shared(r, f, seek_base(f, f.shared->pointer, whence) + offset);
  });
}

int MPI_File_get_position_shared(MPI_File fh, MPI_Offset* offset) {
  return file_api("MPI_File_get_position_shared", fh, [&](Rank& r, FileEntry& f) {
    if (!offset) fail(MPI_ERR_ARG, "offset is null");
    *offset = take_shared(r, f, 0);
  });
}

int MPI_File_read_at_all_begin(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype) {
  return begin("MPI_File_read_at_all_begin", fh,
               [&](Rank& r, FileEntry& f, MPI_Status* s) { at(r, f, false, offset, buf, count, datatype, s); });
}

int MPI_File_read_at_all_end(MPI_File fh, void*, MPI_Status* status) {
  return end("MPI_File_read_at_all_end", "MPI_File_read_at_all_begin", fh, status);
}

int MPI_File_write_at_all_begin(MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype) {
  return begin("MPI_File_write_at_all_begin", fh,
               [&](Rank& r, FileEntry& f, MPI_Status* s) { at(r, f, true, offset, buf, count, datatype, s); });
}

int MPI_File_write_at_all_end(MPI_File fh, const void*, MPI_Status* status) {
  return end("MPI_File_write_at_all_end", "MPI_File_write_at_all_begin", fh, status);
}

int MPI_File_read_all_begin(MPI_File fh, void* buf, int count, MPI_Datatype datatype) {
  return begin("MPI_File_read_all_begin", fh,
               [&](Rank& r, FileEntry& f, MPI_Status* s) { individual(r, f, false, buf, count, datatype, s); });
}

int MPI_File_read_all_end(MPI_File fh, void*, MPI_Status* status) {
  return end("MPI_File_read_all_end", "MPI_File_read_all_begin", fh, status);
}

int MPI_File_write_all_begin(MPI_File fh, const void* buf, int count, MPI_Datatype datatype) {
  return begin("MPI_File_write_all_begin", fh,
               [&](Rank& r, FileEntry& f, MPI_Status* s) { individual(r, f, true, buf, count, datatype, s); });
}

int MPI_File_write_all_end(MPI_File fh, const void*, MPI_Status* status) {
  return end("MPI_File_write_all_end", "MPI_File_write_all_begin", fh, status);
}

int MPI_File_read_ordered_begin(MPI_File fh, void* buf, int count, MPI_Datatype datatype) {
  return begin("MPI_File_read_ordered_begin", fh,
               [&](Rank& r, FileEntry& f, MPI_Status* s) { ordered(r, f, false, buf, count, datatype, s); });
}

int MPI_File_read_ordered_end(MPI_File fh, void*, MPI_Status* status) {
  return end("MPI_File_read_ordered_end", "MPI_File_read_ordered_begin", fh, status);
}

int MPI_File_write_ordered_begin(MPI_File fh, const void* buf, int count, MPI_Datatype datatype) {
  return begin("MPI_File_write_ordered_begin", fh,
               [&](Rank& r, FileEntry& f, MPI_Status* s) { ordered(r, f, true, buf, count, datatype, s); });
}

int MPI_File_write_ordered_end(MPI_File fh, const void*, MPI_Status* status) {
  return end("MPI_File_write_ordered_end", "MPI_File_write_ordered_begin", fh, status);
}

int MPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype, MPI_Aint* extent) {
  return file_api("MPI_File_get_type_extent", fh, [&](Rank& r, FileEntry&) {
    if (!extent) fail(MPI_ERR_ARG, "extent is null");
    *extent = r.type(datatype).extent;  // the native representation: the type's own extent
  });
}

int MPI_File_set_atomicity(MPI_File fh, int flag) {
  return file_api("MPI_File_set_atomicity", fh, [&](Rank& r, FileEntry& f) {
    agree(r, f, flag != 0, "atomicity flags");
    f.atomic = flag != 0;
  });
}

int MPI_File_get_atomicity(MPI_File fh, int* flag) {
  return file_api("MPI_File_get_atomicity", fh, [&](Rank&, FileEntry& f) {
    if (!flag) fail(MPI_ERR_ARG, "flag is null");
    *flag = f.atomic;
  });
}

int MPI_File_sync(MPI_File fh) {
  return file_api("MPI_File_sync", fh, [&](Rank&, FileEntry& f) {
    if (f.amode & MPI_MODE_RDONLY) return;  // nothing of this rank's to write back
    if (::fdatasync(f.fd) != 0 && errno != EINVAL)
      fail_io(errno, "cannot sync \"" + f.path + "\"");
  });
}

int MPI_File_create_errhandler(MPI_File_errhandler_function* function, MPI_Errhandler* errhandler) {
  return no_file_api("MPI_File_create_errhandler", [&](Rank& r) {
    if (!function || !errhandler) fail(MPI_ERR_ARG, "function or errhandler is null");
    // Called as the communicators' handlers are, with the file's handle (Rank::handle_error).
    *errhandler = r.add_errhandler(reinterpret_cast<MPI_Comm_errhandler_function*>(function));
  });
}

int MPI_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler) {
  if (file == MPI_FILE_NULL)
    return no_file_api("MPI_File_set_errhandler", [&](Rank& r) {
      r.user_errhandler(errhandler);  // checks it
      r.file_errhandler = errhandler;
    });
  return file_api("MPI_File_set_errhandler", file, [&](Rank& r, FileEntry& f) {
    r.user_errhandler(errhandler);
    r.comm(f.comm).errhandler = errhandler;
  });
}

int MPI_File_get_errhandler(MPI_File file, MPI_Errhandler* errhandler) {
  if (file == MPI_FILE_NULL)
    return no_file_api("MPI_File_get_errhandler", [&](Rank& r) {
      if (!errhandler) fail(MPI_ERR_ARG, "errhandler is null");
      *errhandler = r.file_errhandler;
    });
  return file_api("MPI_File_get_errhandler", file, [&](Rank& r, FileEntry& f) {
    if (!errhandler) fail(MPI_ERR_ARG, "errhandler is null");
    *errhandler = r.comm(f.comm).errhandler;
  });
}

int MPI_File_call_errhandler(MPI_File fh, int errorcode) {
  if (fh == MPI_FILE_NULL)
    return no_file_api("MPI_File_call_errhandler", [&](Rank& r) {
      r.call_file_errhandler(errorcode, "MPI_File_call_errhandler: " + r.error_string(errorcode));
    });
  return file_api("MPI_File_call_errhandler", fh, [&](Rank& r, FileEntry& f) {
    r.call_errhandler(f.comm, errorcode, "MPI_File_call_errhandler: " + r.error_string(errorcode));
  });
}

int MPI_Register_datarep(const char* datarep, MPI_Datarep_conversion_function*, MPI_Datarep_conversion_function*,
                         MPI_Datarep_extent_function* dtype_file_extent_fn, void*) {
  return no_file_api("MPI_Register_datarep", [&](Rank& r) {
    if (!datarep || !*datarep) fail(MPI_ERR_ARG, "datarep is null or empty");
    if (std::strlen(datarep) >= MPI_MAX_DATAREP_STRING)
      fail(MPI_ERR_ARG, "datarep is longer than MPI_MAX_DATAREP_STRING - 1");
    if (!dtype_file_extent_fn) fail(MPI_ERR_ARG, "dtype_file_extent_fn is null");
    const std::string name = datarep;
    if (name == "native" || name == "internal" || name == "external32" || !r.datareps.insert(name).second)
      fail(MPI_ERR_DUP_DATAREP, "datarep \"" + name + "\" is defined already");
  });
}

MPI_Fint MPI_File_c2f(MPI_File file) { return file; }
MPI_File MPI_File_f2c(MPI_Fint file) { return file; }

}  // extern "C"
