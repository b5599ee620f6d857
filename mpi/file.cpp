// SPDX-License-Identifier: Apache-2.0
#include "mpi/file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "mpi/api_support.hpp"

namespace collnet::mpi {

namespace {

// The MPI error class of a failed file system call's errno (MPI-3.1 13.7).
int io_class(int err) {
  switch (err) {
    case ENOENT: return MPI_ERR_NO_SUCH_FILE;
    case EEXIST: return MPI_ERR_FILE_EXISTS;
    case EACCES:
    case EPERM: return MPI_ERR_ACCESS;
    case EROFS: return MPI_ERR_READ_ONLY;
    case ENOSPC: return MPI_ERR_NO_SPACE;
    case EDQUOT: return MPI_ERR_QUOTA;
    case ENAMETOOLONG:
    case ENOTDIR:
    case EISDIR:
    case ELOOP: return MPI_ERR_BAD_FILE;
    case ETXTBSY: return MPI_ERR_FILE_IN_USE;
    default: return MPI_ERR_IO;
  }
}

// The path of `filename`: a leading "ufs:", "nfs:" or "posix:" names the file system (as
// ROMIO's prefixes do) and is dropped.
std::string path_of(const char* filename) {
  std::string s = filename;
  for (const char* prefix : {"ufs:", "nfs:", "posix:"})
    if (s.rfind(prefix, 0) == 0) return s.substr(std::strlen(prefix));
  return s;
}

void check_amode(int amode) {
  const int access = (amode & MPI_MODE_RDONLY ? 1 : 0) + (amode & MPI_MODE_WRONLY ? 1 : 0) +
                     (amode & MPI_MODE_RDWR ? 1 : 0);
  const int known = MPI_MODE_CREATE | MPI_MODE_RDONLY | MPI_MODE_WRONLY | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE |
                    MPI_MODE_UNIQUE_OPEN | MPI_MODE_EXCL | MPI_MODE_APPEND | MPI_MODE_SEQUENTIAL;
  if (amode & ~known) fail(MPI_ERR_AMODE, "amode " + std::to_string(amode) + " has bits no MPI_MODE_ constant has");
  if (access != 1)
    fail(MPI_ERR_AMODE, "amode " + std::to_string(amode) +
                            " must have exactly one of MPI_MODE_RDONLY, MPI_MODE_WRONLY and MPI_MODE_RDWR");
  if ((amode & MPI_MODE_RDONLY) && (amode & (MPI_MODE_CREATE | MPI_MODE_EXCL)))
    fail(MPI_ERR_AMODE, "MPI_MODE_RDONLY with MPI_MODE_CREATE or MPI_MODE_EXCL");
  if ((amode & MPI_MODE_RDWR) && (amode & MPI_MODE_SEQUENTIAL))
    fail(MPI_ERR_AMODE, "MPI_MODE_RDWR with MPI_MODE_SEQUENTIAL");
}

int open_flags(int amode) {
  return (amode & MPI_MODE_RDONLY ? O_RDONLY : amode & MPI_MODE_WRONLY ? O_WRONLY : O_RDWR) | O_CLOEXEC;
}

// A communicator's (not MPI_COMM_SELF's) collective, or nothing on one rank alone.
bool alone(CommEntry& c) { return c.self || comm_size(c) == 1; }

void free_file_comm(Rank& r, MPI_Comm fc) {
  CommEntry& c = r.comm(fc);
  if (!c.self) c.comm->free();
  r.comm_slot(fc) = CommEntry{};
}

// Every rank of the file must run in this process for the shared state to be one.
void check_local(FileEntry& f, const char* what) {
  if (f.shared->elsewhere >= 0)
    fail(MPI_ERR_UNSUPPORTED_OPERATION, std::string(what) + " needs the file's ranks in one process, and world rank " +
                                            std::to_string(f.shared->elsewhere) +
                                            " runs in another partition (run without --partitions)");
}

}  // namespace

void fail_io(int err, const std::string& what) { fail(io_class(err), what + ": " + std::strerror(err)); }

void agree(Rank& r, FileEntry& f, int64_t value, const std::string& what) {
  CommEntry& c = r.comm(f.comm);
  if (alone(c)) return;
  const int64_t mine[2] = {value, -value};
  int64_t both[2];
  c.comm->allreduce(mine, both, 2, driver::Op::Max);
  if (both[0] != -both[1])
    fail(MPI_ERR_NOT_SAME, "the ranks gave different " + what + " (" + std::to_string(-both[1]) + " to " +
                               std::to_string(both[0]) + ")");
}

void delete_file(const char* filename) {
  if (!filename || !*filename) fail(MPI_ERR_BAD_FILE, "filename is null or empty");
  const std::string path = path_of(filename);
  if (::unlink(path.c_str()) != 0) fail_io(errno, "cannot delete \"" + path + "\"");
}

FileEntry& file(Rank& r, MPI_File f) {
  if (!is_open_file(r, f)) fail(MPI_ERR_FILE, "file " + std::to_string(f) + " is not an open file");
  return *r.files[static_cast<size_t>(f) - 1];
}

bool is_open_file(Rank& r, MPI_File f) {
  return f >= 1 && static_cast<size_t>(f) <= r.files.size() && r.files[static_cast<size_t>(f) - 1];
}

MPI_File open_file(Rank& r, MPI_Comm comm, const char* filename, int amode, const Rank::Info& hints) {
  CommEntry& c = r.comm(comm);
  if (c.inter) fail(MPI_ERR_COMM, "a file is opened on an intracommunicator");
  if (!filename || !*filename) fail(MPI_ERR_BAD_FILE, "filename is null or empty");
  check_amode(amode);
  const std::string path = path_of(filename);
  const bool self = c.self;
  const MPI_Comm fc = r.add_comm(self ? *c.comm : c.comm->dup());  // collective; `c` may move
  CommEntry& fcomm = r.comm(fc);
  fcomm.self = self;
  fcomm.name = "a file's communicator";
  const bool one = alone(fcomm);
  const int me = comm_rank(fcomm);
  // Rank 0 creates the file if asked (and refuses an existing one with MPI_MODE_EXCL); its
  // outcome (an errno) and the file's serial go to all, then the others open what it made.
  int64_t first[2] = {0, 0};
  int fd = -1;
  if (me == 0) {
    const int flags = open_flags(amode) | (amode & MPI_MODE_CREATE ? O_CREAT : 0) | (amode & MPI_MODE_EXCL ? O_EXCL : 0);
    fd = ::open(path.c_str(), flags, 0666);
    first[0] = fd < 0 ? errno : 0;
    first[1] = static_cast<int64_t>(++r.runtime().file_serial);
  }
  if (!one) r.comm(fc).comm->bcast(first, 2, driver::Datatype::I64, 0);
  if (first[0]) {
    free_file_comm(r, fc);
    fail_io(static_cast<int>(first[0]), "cannot open \"" + path + "\"");
  }
  int64_t mine = 0;
  if (me != 0) {
    fd = ::open(path.c_str(), open_flags(amode), 0666);
    mine = fd < 0 ? errno : 0;
  }
  int64_t worst = mine;
  if (!one) r.comm(fc).comm->allreduce(&mine, &worst, 1, driver::Op::Max);
  if (worst) {
    if (fd >= 0) ::close(fd);
    free_file_comm(r, fc);
    fail_io(static_cast<int>(worst), "a rank cannot open \"" + path + "\"");
  }
  auto f = std::make_shared<FileEntry>();
  f->fd = fd;
  f->comm = fc;
  f->amode = amode;
  f->path = path;
  f->hints = hints;
  const TypeDesc& byte = r.type(MPI_BYTE);
  f->view.etype_desc = f->view.filetype_desc = std::make_shared<const TypeDesc>(byte);
  f->view.run_starts = {0};
  // The ranks of one open share one FileShared, found by the serial rank 0 sent.
  const uint64_t serial = static_cast<uint64_t>(first[1]);
  std::weak_ptr<FileShared>& slot = r.runtime().files[serial];
  f->shared = slot.lock();
  if (!f->shared) {
    f->shared = std::make_shared<FileShared>();
    f->shared->serial = serial;
    for (unsigned w : members(r, r.comm(fc)))
      if (!r.runtime().local(w)) {
        f->shared->elsewhere = static_cast<int>(w);
        break;
      }
    slot = f->shared;
  }
  if (amode & MPI_MODE_APPEND) {  // both pointers start at the end
    f->pointer = file_size(*f);
    f->shared->pointer = f->pointer;
  }
  r.files.push_back(f);
  const MPI_File handle = static_cast<MPI_File>(r.files.size());
  r.comm_slot(fc).file = handle;
  r.comm_slot(fc).errhandler = r.file_errhandler;
  return handle;
}

void close_file(Rank& r, MPI_File& handle) {
  FileEntry& f = file(r, handle);
  if (f.split) fail(MPI_ERR_OTHER, std::string("the split collective ") + f.split + " has not ended");
  const int err = ::close(f.fd) == 0 ? 0 : errno;
  f.fd = -1;
  file_barrier(r, f);  // every rank has closed it
  const bool remove = (f.amode & MPI_MODE_DELETE_ON_CLOSE) && comm_rank(r.comm(f.comm)) == 0;
  const std::string path = f.path;
  const uint64_t serial = f.shared->serial;
  free_file_comm(r, f.comm);
  r.files[static_cast<size_t>(handle) - 1].reset();
  handle = MPI_FILE_NULL;
  auto& files = r.runtime().files;
  if (auto it = files.find(serial); it != files.end() && it->second.expired()) files.erase(it);
  if (remove && ::unlink(path.c_str()) != 0) fail_io(errno, "cannot delete \"" + path + "\" on close");
  if (err) fail_io(err, "closing \"" + path + "\"");
}

void file_barrier(Rank& r, FileEntry& f) {
  CommEntry& c = r.comm(f.comm);
  if (!alone(c)) c.comm->barrier();
}

void set_view(Rank& r, FileEntry& f, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
              const std::string& datarep) {
  if (datarep != "native" && datarep != "internal")
    fail(MPI_ERR_UNSUPPORTED_DATAREP,
         "datarep \"" + datarep + "\": collnet's files hold the native representation (\"native\", \"internal\") only" +
             (r.datareps.count(datarep) ? " (a registered representation's conversions are not applied)" : ""));
  if (f.split) fail(MPI_ERR_OTHER, std::string("the split collective ") + f.split + " has not ended");
  if (disp == MPI_DISPLACEMENT_CURRENT) {
    if (!(f.amode & MPI_MODE_SEQUENTIAL))
      fail(MPI_ERR_ARG, "MPI_DISPLACEMENT_CURRENT is for files opened with MPI_MODE_SEQUENTIAL");
    disp = static_cast<MPI_Offset>(f.view.byte_of(static_cast<uint64_t>(f.shared->pointer) * f.view.etype_size()));
  }
  if (disp < 0) fail(MPI_ERR_ARG, "disp " + std::to_string(disp) + " is negative");
  const TypeDesc& e = r.type(etype, "etype");
  const TypeDesc& ft = r.type(filetype, "filetype");
  if (e.size == 0) fail(MPI_ERR_TYPE, "etype " + e.name + " holds no data");
  if (ft.size == 0 || ft.size % e.size != 0)
    fail(MPI_ERR_TYPE, "filetype " + ft.name + " (" + std::to_string(ft.size) + " bytes of data) is not made of whole etypes of " +
                           e.name + " (" + std::to_string(e.size) + " bytes)");
  // Its data must lie at non-negative, increasing displacements, and a tile must end before
  // the next begins.
  std::vector<size_t> starts;
  size_t data = 0;
  for (size_t i = 0; i < ft.runs.size(); ++i) {
    const TypeDesc::Run& run = ft.runs[i];
    if (run.offset < 0 || (i > 0 && run.offset < ft.runs[i - 1].offset + static_cast<ptrdiff_t>(ft.runs[i - 1].bytes)))
      fail(MPI_ERR_TYPE, "filetype " + ft.name + "'s displacements are not non-negative and increasing");
    starts.push_back(data);
    data += run.bytes;
  }
  const TypeDesc::Run& last = ft.runs.back();
  if (last.offset + static_cast<ptrdiff_t>(last.bytes) - ft.runs.front().offset > ft.extent)
    fail(MPI_ERR_TYPE, "filetype " + ft.name + "'s data spans more than its extent (" + std::to_string(ft.extent) +
                           "), so one tile would overlap the next");
  // The shared file pointer goes back to 0 before the ranks agree, so that no rank's
  // access after the view (it returns once all have agreed) is undone.
  f.shared->pointer = 0;
  agree(r, f, static_cast<int64_t>(e.size), "etype sizes in bytes");
  f.view.disp = disp;
  f.view.etype = etype;
  f.view.filetype = filetype;
  f.view.etype_desc = std::make_shared<const TypeDesc>(e);
  f.view.filetype_desc = std::make_shared<const TypeDesc>(ft);
  f.view.datarep = datarep;
  f.view.run_starts = std::move(starts);
  f.view.contiguous = ft.contiguous();
  f.pointer = 0;
}

uint64_t FileView::byte_of(uint64_t p) const {
  uint64_t byte = 0;
  for_each_piece(p, 1, [&](uint64_t at, size_t, size_t) { byte = at; });
  return byte;
}

uint64_t FileView::data_before(uint64_t size) const {
  if (size <= static_cast<uint64_t>(disp)) return 0;
  const uint64_t bytes = size - static_cast<uint64_t>(disp);
  if (contiguous) return bytes;
  const TypeDesc& ft = *filetype_desc;
  const uint64_t tiles = bytes / static_cast<uint64_t>(ft.extent);
  const uint64_t rest = bytes % static_cast<uint64_t>(ft.extent);
  uint64_t data = tiles * ft.packed;
  for (const TypeDesc::Run& run : ft.runs)
    if (rest > static_cast<uint64_t>(run.offset))
      data += std::min<uint64_t>(run.bytes, rest - static_cast<uint64_t>(run.offset));
  return data;
}

MPI_Offset file_size(FileEntry& f) {
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) fail_io(errno, "cannot read the size of \"" + f.path + "\"");
  return static_cast<MPI_Offset>(st.st_size);
}

MPI_Offset end_offset(FileEntry& f) {
  const uint64_t data = f.view.data_before(static_cast<uint64_t>(file_size(f)));
  const uint64_t e = f.view.etype_size();
  return static_cast<MPI_Offset>((data + e - 1) / e);  // a part of an etype counts whole
}

MPI_Offset etypes_of(Rank& r, FileEntry& f, int count, MPI_Datatype type) {
  check_count(count);
  const TypeDesc& t = r.type(type);
  const size_t bytes = as_size(count) * t.size;
  if (bytes % f.view.etype_size() != 0)
    fail(MPI_ERR_TYPE, std::to_string(count) + " of " + t.name + " (" + std::to_string(bytes) +
                           " bytes) are not a whole number of the view's etype (" + f.view.etype_desc->name + ", " +
                           std::to_string(f.view.etype_size()) + " bytes)");
  return static_cast<MPI_Offset>(bytes / f.view.etype_size());
}

MPI_Offset transfer(Rank& r, FileEntry& f, bool write, MPI_Offset offset, void* buf, int count, MPI_Datatype type,
                    MPI_Status* status) {
  const MPI_Offset etypes = etypes_of(r, f, count, type);  // checks the count and the type against the etype
  const TypeDesc& t = r.type(type);
  check_buffer(buf, as_size(count), t);
  if (offset < 0) fail(MPI_ERR_ARG, "offset " + std::to_string(offset) + " is negative");
  if (write && (f.amode & MPI_MODE_RDONLY)) fail(MPI_ERR_READ_ONLY, "\"" + f.path + "\" is open MPI_MODE_RDONLY");
  if (!write && (f.amode & MPI_MODE_WRONLY)) fail(MPI_ERR_ACCESS, "\"" + f.path + "\" is open MPI_MODE_WRONLY");
  const uint64_t start = static_cast<uint64_t>(offset) * f.view.etype_size();
  size_t moved = 0;
  if (write) {
    const Packed data(t, buf, as_size(count));
    f.view.for_each_piece(start, data.bytes, [&](uint64_t at, size_t from, size_t n) {
      for (size_t done = 0; done < n;) {
        const ssize_t w = ::pwrite(f.fd, data.data + from + done, n - done, static_cast<off_t>(at + done));
        if (w < 0) {
          if (errno == EINTR) continue;
          fail_io(errno, "writing \"" + f.path + "\"");
        }
        done += static_cast<size_t>(w);
      }
      moved += n;
    });
  } else {
    Unpacked room(t, buf, as_size(count));
    bool end = false;
    f.view.for_each_piece(start, room.bytes, [&](uint64_t at, size_t from, size_t n) {
      for (size_t done = 0; done < n && !end;) {
        const ssize_t got = ::pread(f.fd, room.data + from + done, n - done, static_cast<off_t>(at + done));
        if (got < 0) {
          if (errno == EINTR) continue;
          fail_io(errno, "reading \"" + f.path + "\"");
        }
        if (got == 0) end = true;  // the end of the file: what follows is not there
        done += static_cast<size_t>(got);
        moved += static_cast<size_t>(got);
      }
    });
    room.finish(moved);  // whole elements (a contiguous buffer holds a partial last one already)
  }
  if (status != MPI_STATUS_IGNORE) {
    status->MPI_SOURCE = MPI_ANY_SOURCE;
    status->MPI_TAG = MPI_ANY_TAG;
    status->MPI_ERROR = MPI_SUCCESS;
    status->collnet_cancelled = 0;
    status->collnet_bytes = moved;
  }
  return etypes;
}

MPI_Offset take_shared(Rank& r, FileEntry& f, MPI_Offset etypes) {
  check_local(f, "the shared file pointer");
  const MPI_Offset at = f.shared->pointer;
  f.shared->pointer += etypes;
  return at;
}

MPI_Offset take_ordered(Rank& r, FileEntry& f, MPI_Offset etypes) {
  check_local(f, "the shared file pointer");
  CommEntry& c = r.comm(f.comm);
  // Every rank reads the pointer after the others' earlier accesses and before it enters the
  // scan, and the last rank's scan ends only once all have entered: it moves the pointer,
  // and the barrier keeps every rank from a next access until it has.
  if (alone(c)) return take_shared(r, f, etypes);
  c.comm->barrier();  // every rank's shared accesses before this one are done
  const MPI_Offset base = f.shared->pointer;
  int64_t mine = etypes, upto = 0;
  c.comm->scan(&mine, &upto, 1, driver::Datatype::I64, driver::Op::Sum);
  if (comm_rank(c) == comm_size(c) - 1) f.shared->pointer = base + upto;
  c.comm->barrier();
  return base + upto - etypes;
}

void set_shared(Rank& r, FileEntry& f, MPI_Offset offset) {
  check_local(f, "the shared file pointer");
  agree(r, f, offset, "shared file pointer offsets");  // also: every rank's shared accesses are done
  if (offset < 0) fail(MPI_ERR_ARG, "the shared file pointer would move to " + std::to_string(offset));
  if (comm_rank(r.comm(f.comm)) == 0) f.shared->pointer = offset;
  file_barrier(r, f);
}

}  // namespace collnet::mpi
