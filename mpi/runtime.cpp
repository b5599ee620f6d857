// SPDX-License-Identifier: Apache-2.0
#include "mpi/runtime.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <stdexcept>

#include "driver/p2p_envelope.hpp"
#include "firmware/coprocessor.hpp"
#include "mpi/compute_time.hpp"
#include "mpi/openmp_guard.hpp"
#include "mpi/window.hpp"

namespace collnet::mpi {

Runtime* Runtime::active_ = nullptr;

namespace {

constexpr uint64_t kInterruptCycles = 256;  // how often a computing processor looks at its interrupts (compute)

const char* class_name(int cls) {
  static const char* const names[] = {
      "MPI_SUCCESS",      "MPI_ERR_BUFFER",  "MPI_ERR_COUNT",    "MPI_ERR_TYPE",    "MPI_ERR_TAG",
      "MPI_ERR_COMM",     "MPI_ERR_RANK",    "MPI_ERR_REQUEST",  "MPI_ERR_ROOT",    "MPI_ERR_GROUP",
      "MPI_ERR_OP",       "MPI_ERR_TOPOLOGY", "MPI_ERR_DIMS",    "MPI_ERR_ARG",     "MPI_ERR_UNKNOWN",
      "MPI_ERR_TRUNCATE", "MPI_ERR_OTHER",   "MPI_ERR_INTERN",   "MPI_ERR_IN_STATUS", "MPI_ERR_PENDING",
      "MPI_ERR_KEYVAL",   "MPI_ERR_NO_MEM",  "MPI_ERR_INFO_KEY", "MPI_ERR_INFO_VALUE", "MPI_ERR_INFO_NOKEY",
      "MPI_ERR_INFO",     "MPI_ERR_BASE",    "MPI_ERR_SIZE",     "MPI_ERR_DISP",    "MPI_ERR_LOCKTYPE",
      "MPI_ERR_ASSERT",   "MPI_ERR_RMA_CONFLICT", "MPI_ERR_RMA_SYNC", "MPI_ERR_RMA_RANGE", "MPI_ERR_RMA_ATTACH",
      "MPI_ERR_RMA_SHARED", "MPI_ERR_RMA_FLAVOR", "MPI_ERR_WIN",
      "MPI_ERR_SPAWN",    "MPI_ERR_PORT",    "MPI_ERR_SERVICE",  "MPI_ERR_NAME",
      "MPI_T_ERR_MEMORY", "MPI_T_ERR_NOT_INITIALIZED", "MPI_T_ERR_CANNOT_INIT", "MPI_T_ERR_INVALID_INDEX",
      "MPI_T_ERR_INVALID_ITEM", "MPI_T_ERR_INVALID_HANDLE", "MPI_T_ERR_OUT_OF_HANDLES",
      "MPI_T_ERR_OUT_OF_SESSIONS", "MPI_T_ERR_INVALID_SESSION", "MPI_T_ERR_CVAR_SET_NOT_NOW",
      "MPI_T_ERR_CVAR_SET_NEVER", "MPI_T_ERR_PVAR_NO_STARTSTOP", "MPI_T_ERR_PVAR_NO_WRITE",
      "MPI_T_ERR_PVAR_NO_ATOMIC", "MPI_T_ERR_INVALID_NAME", "MPI_T_ERR_INVALID",
      "MPI_ERR_FILE",     "MPI_ERR_NOT_SAME", "MPI_ERR_AMODE",   "MPI_ERR_UNSUPPORTED_DATAREP",
      "MPI_ERR_UNSUPPORTED_OPERATION", "MPI_ERR_NO_SUCH_FILE", "MPI_ERR_FILE_EXISTS", "MPI_ERR_BAD_FILE",
      "MPI_ERR_ACCESS",   "MPI_ERR_NO_SPACE", "MPI_ERR_QUOTA",   "MPI_ERR_READ_ONLY", "MPI_ERR_FILE_IN_USE",
      "MPI_ERR_DUP_DATAREP", "MPI_ERR_CONVERSION", "MPI_ERR_IO"};
  if (cls >= 0 && cls < static_cast<int>(sizeof names / sizeof names[0])) return names[cls];
  return "MPI_ERR_UNKNOWN";
}

const char* class_text(int cls) {
  switch (cls) {
    case MPI_SUCCESS: return "no error";
    case MPI_ERR_BUFFER: return "invalid buffer pointer";
    case MPI_ERR_COUNT: return "invalid count argument";
    case MPI_ERR_TYPE: return "invalid datatype";
    case MPI_ERR_TAG: return "invalid tag";
    case MPI_ERR_COMM: return "invalid communicator";
    case MPI_ERR_RANK: return "invalid rank";
    case MPI_ERR_REQUEST: return "invalid request";
    case MPI_ERR_ROOT: return "invalid root";
    case MPI_ERR_GROUP: return "invalid group";
    case MPI_ERR_OP: return "invalid reduce operation";
    case MPI_ERR_ARG: return "invalid argument of some other kind";
    case MPI_ERR_TRUNCATE: return "message truncated";
    case MPI_ERR_INTERN: return "internal error";
    case MPI_ERR_NO_MEM: return "out of memory";
    case MPI_ERR_INFO_KEY: return "invalid info key";
    case MPI_ERR_INFO_VALUE: return "invalid info value";
    case MPI_ERR_INFO_NOKEY: return "info key not found";
    case MPI_ERR_INFO: return "invalid info object";
    case MPI_ERR_BASE: return "invalid base address";
    case MPI_ERR_SIZE: return "invalid size";
    case MPI_ERR_DISP: return "invalid displacement";
    case MPI_ERR_LOCKTYPE: return "invalid lock type";
    case MPI_ERR_ASSERT: return "invalid assertion";
    case MPI_ERR_RMA_CONFLICT: return "conflicting accesses to a window";
    case MPI_ERR_RMA_SYNC: return "wrong synchronisation of RMA calls";
    case MPI_ERR_RMA_RANGE: return "target memory outside the window";
    case MPI_ERR_RMA_ATTACH: return "memory cannot be attached";
    case MPI_ERR_RMA_SHARED: return "memory cannot be shared";
    case MPI_ERR_RMA_FLAVOR: return "wrong window flavor";
    case MPI_ERR_WIN: return "invalid window";
    case MPI_ERR_SPAWN: return "processes could not be spawned";
    case MPI_ERR_PORT: return "invalid port name";
    case MPI_ERR_SERVICE: return "service name not published";
    case MPI_ERR_NAME: return "service name not found";
    case MPI_ERR_FILE: return "invalid file handle";
    case MPI_ERR_NOT_SAME: return "the processes did not give the same arguments to a collective file call";
    case MPI_ERR_AMODE: return "invalid access mode";
    case MPI_ERR_UNSUPPORTED_DATAREP: return "unsupported data representation";
    case MPI_ERR_UNSUPPORTED_OPERATION: return "operation not supported on this file";
    case MPI_ERR_NO_SUCH_FILE: return "file does not exist";
    case MPI_ERR_FILE_EXISTS: return "file exists";
    case MPI_ERR_BAD_FILE: return "invalid file name";
    case MPI_ERR_ACCESS: return "permission denied";
    case MPI_ERR_NO_SPACE: return "not enough space";
    case MPI_ERR_QUOTA: return "quota exceeded";
    case MPI_ERR_READ_ONLY: return "read-only file or file system";
    case MPI_ERR_FILE_IN_USE: return "file in use by some process";
    case MPI_ERR_DUP_DATAREP: return "data representation registered already";
    case MPI_ERR_CONVERSION: return "data conversion failed";
    case MPI_ERR_IO: return "other I/O error";
    case MPI_T_ERR_NOT_INITIALIZED: return "the tools interface is not initialized";
    case MPI_T_ERR_INVALID_INDEX: return "invalid variable or category index";
    case MPI_T_ERR_INVALID_ITEM: return "invalid enumeration item";
    case MPI_T_ERR_INVALID_HANDLE: return "invalid tools interface handle";
    case MPI_T_ERR_INVALID_SESSION: return "invalid performance variable session";
    case MPI_T_ERR_CVAR_SET_NEVER: return "the control variable cannot be set";
    case MPI_T_ERR_PVAR_NO_STARTSTOP: return "the performance variable cannot be started or stopped";
    case MPI_T_ERR_PVAR_NO_WRITE: return "the performance variable cannot be written";
    case MPI_T_ERR_INVALID_NAME: return "no variable or category of that name";
    case MPI_T_ERR_INVALID: return "invalid use of the tools interface";
    default: return "other error";
  }
}

}  // namespace

// ------------------------------------------------------------------ Rank

void Rank::attach(driver::Task& t) {
  task_ = &t;
  t.cpu().set_resume_hook([this] { rt_.set_current(*this); });
  if (const std::optional<OpenMpGuard> omp = OpenMpGuard::find())
    t.cpu().set_wait_hook([this, omp = *omp] {
      if (const int team = omp.team())
        rt_.abort_run(*this, 1,
                      "rank " + std::to_string(world_rank_) + ": " + (in_call ? in_call : "an MPI call") +
                          " waits inside an OpenMP parallel region of " + std::to_string(team) +
                          " threads: every rank runs on the simulator's one host thread, whose OpenMP state the "
                          "ranks share, so a rank cannot wait in MPI while its team runs (call MPI outside "
                          "parallel regions, or set OMP_NUM_THREADS=1)");
    });
  comms_.clear();
  comms_.resize(3);
  comms_[MPI_COMM_WORLD].comm = &t.world();
  comms_[MPI_COMM_WORLD].name = "MPI_COMM_WORLD";
  comms_[MPI_COMM_SELF].self = true;
  comms_[MPI_COMM_SELF].name = "MPI_COMM_SELF";
  groups_.assign(2, std::nullopt);
  groups_[MPI_GROUP_EMPTY] = std::vector<unsigned>{};
  requests_.assign(1, RequestEntry{});
}

void Rank::init_self() {
  comms_[MPI_COMM_SELF].owned = std::make_shared<driver::Communicator>(task_->world().dup());
  comms_[MPI_COMM_SELF].comm = comms_[MPI_COMM_SELF].owned.get();
}

CommEntry& Rank::comm(MPI_Comm c, const char* what) {
  if (c == MPI_COMM_NULL) fail(MPI_ERR_COMM, std::string(what) + " is MPI_COMM_NULL");
  if (c < 0 || static_cast<size_t>(c) >= comms_.size() || !comms_[c].comm)
    fail(MPI_ERR_COMM, std::string(what) + " " + std::to_string(c) + " is not a communicator of this rank" +
                           (c == MPI_COMM_SELF ? " (MPI_COMM_SELF before MPI_Init)" : ""));
  return comms_[c];
}

MPI_Comm Rank::add_comm(driver::Communicator c) {
  CommEntry e;
  e.owned = std::make_shared<driver::Communicator>(std::move(c));
  e.comm = e.owned.get();
  for (size_t i = 3; i < comms_.size(); ++i)
    if (!comms_[i].comm) {
      comms_[i] = std::move(e);
      return static_cast<MPI_Comm>(i);
    }
  comms_.push_back(std::move(e));
  return static_cast<MPI_Comm>(comms_.size() - 1);
}

TypeDesc& Rank::any_type(MPI_Datatype t, const char* what) {
  const auto& pre = predefined_types();
  if (t == MPI_DATATYPE_NULL) fail(MPI_ERR_TYPE, std::string(what) + " is MPI_DATATYPE_NULL");
  if (t > 0 && static_cast<size_t>(t) < pre.size()) return const_cast<TypeDesc&>(pre[t]);
  const long i = static_cast<long>(t) - kFirstDerived;
  if (i < 0 || static_cast<size_t>(i) >= types_.size() || !types_[i])
    fail(MPI_ERR_TYPE, std::string(what) + " " + std::to_string(t) + " is not a datatype of this rank");
  return *types_[i];
}

const TypeDesc& Rank::type(MPI_Datatype t, const char* what) {
  const TypeDesc& d = any_type(t, what);
  if (!d.committed) fail(MPI_ERR_TYPE, std::string(what) + " " + d.name + " is not committed (MPI_Type_commit)");
  return d;
}

MPI_Datatype Rank::add_type(TypeDesc t) {
  for (size_t i = 0; i < types_.size(); ++i)
    if (!types_[i]) {
      types_[i] = std::move(t);
      return static_cast<MPI_Datatype>(kFirstDerived + i);
    }
  types_.push_back(std::move(t));
  return static_cast<MPI_Datatype>(kFirstDerived + types_.size() - 1);
}

void Rank::free_type(MPI_Datatype& t) {
  const TypeDesc& d = any_type(t);
  if (d.predefined) fail(MPI_ERR_TYPE, "cannot free the predefined datatype " + d.name);
  types_[t - kFirstDerived].reset();
  t = MPI_DATATYPE_NULL;
}

const UserOp* Rank::user_op(MPI_Op op) {
  if (op >= MPI_MAX && op <= kLastPredefinedOp) return nullptr;
  const long i = static_cast<long>(op) - kFirstUserOp;
  if (op == MPI_OP_NULL || i < 0 || static_cast<size_t>(i) >= ops_.size() || !ops_[i])
    fail(MPI_ERR_OP, op == MPI_OP_NULL ? std::string("op is MPI_OP_NULL")
                                       : (op == MPI_REPLACE || op == MPI_NO_OP)
                                             ? std::string("MPI_REPLACE and MPI_NO_OP are for one-sided calls only")
                                             : "op " + std::to_string(op) + " is not an op of this rank");
  return &*ops_[i];
}

MPI_Op Rank::add_op(UserOp op) {
  for (size_t i = 0; i < ops_.size(); ++i)
    if (!ops_[i]) {
      ops_[i] = op;
      return static_cast<MPI_Op>(kFirstUserOp + i);
    }
  ops_.push_back(op);
  return static_cast<MPI_Op>(kFirstUserOp + ops_.size() - 1);
}

void Rank::free_op(MPI_Op& op) {
  if (!user_op(op)) fail(MPI_ERR_OP, "cannot free a predefined op");
  ops_[op - kFirstUserOp].reset();
  op = MPI_OP_NULL;
}

std::vector<unsigned>& Rank::group(MPI_Group g) {
  if (g < 0 || static_cast<size_t>(g) >= groups_.size() || !groups_[g])
    fail(MPI_ERR_GROUP, g == MPI_GROUP_NULL ? std::string("group is MPI_GROUP_NULL")
                                            : "group " + std::to_string(g) + " is not a group of this rank");
  return *groups_[g];
}

MPI_Group Rank::add_group(std::vector<unsigned> world_ranks) {
  if (world_ranks.empty()) return MPI_GROUP_EMPTY;
  for (size_t i = 2; i < groups_.size(); ++i)
    if (!groups_[i]) {
      groups_[i] = std::move(world_ranks);
      return static_cast<MPI_Group>(i);
    }
  groups_.push_back(std::move(world_ranks));
  return static_cast<MPI_Group>(groups_.size() - 1);
}

void Rank::free_group(MPI_Group& g) {
  group(g);
  if (g != MPI_GROUP_EMPTY) groups_[g].reset();
  g = MPI_GROUP_NULL;
}

Rank::Info& Rank::info(MPI_Info i) {
  if (i == MPI_INFO_ENV && !infos_[i]) {
    // What the MPI standard suggests for MPI_INFO_ENV, from the rank's start.
    std::string rest;
    for (size_t a = 1; a < args.size(); ++a) rest += (a > 1 ? " " : "") + args[a];
    char cwd[4096];
    infos_[i] = Info{{"command", args.empty() ? std::string() : args[0]},
                     {"argv", rest},
                     {"maxprocs", std::to_string(rt_.size())},
                     {"wdir", getcwd(cwd, sizeof cwd) ? cwd : ""},
                     {"thread_level", "MPI_THREAD_SINGLE"}};
  }
  if (i <= MPI_INFO_NULL || static_cast<size_t>(i) >= infos_.size() || !infos_[i])
    fail(MPI_ERR_INFO, i == MPI_INFO_NULL ? std::string("info is MPI_INFO_NULL")
                                          : "info " + std::to_string(i) + " is not an info object of this rank");
  return *infos_[i];
}

MPI_Info Rank::add_info(Info i) {
  for (size_t h = 2; h < infos_.size(); ++h)
    if (!infos_[h]) {
      infos_[h] = std::move(i);
      return static_cast<MPI_Info>(h);
    }
  infos_.push_back(std::move(i));
  return static_cast<MPI_Info>(infos_.size() - 1);
}

void Rank::free_info(MPI_Info& i) {
  info(i);
  if (i == MPI_INFO_ENV) fail(MPI_ERR_INFO, "MPI_INFO_ENV is predefined and cannot be freed");
  infos_[i].reset();
  i = MPI_INFO_NULL;
}

RequestEntry& Rank::request(MPI_Request r) {
  if (r <= 0 || static_cast<size_t>(r) >= requests_.size() || !requests_[r].used)
    fail(MPI_ERR_REQUEST, "request " + std::to_string(r) + " is not an active request of this rank");
  return requests_[r];
}

MPI_Request Rank::add_request(RequestEntry e) {
  e.used = true;
  for (size_t i = 1; i < requests_.size(); ++i)
    if (!requests_[i].used) {
      requests_[i] = std::move(e);
      return static_cast<MPI_Request>(i);
    }
  requests_.push_back(std::move(e));
  return static_cast<MPI_Request>(requests_.size() - 1);
}

void Rank::drop_request(MPI_Request& r) {
  if (r > 0 && static_cast<size_t>(r) < requests_.size()) requests_[r] = RequestEntry{};
  r = MPI_REQUEST_NULL;
}

int Rank::new_error(const char* call, int cls, const std::string& what, std::string& fatal_text) {
  const std::string text = std::string(call) + ": " + what;
  fatal_text = text + " (" + class_name(cls) + ")";
  // The standard names the code a call that completes several requests returns: the
  // statuses have the errors' own.
  if (cls == MPI_ERR_IN_STATUS) return cls;
  error_texts_.push_back(text);
  return cls + kCodesPerClass * static_cast<int>(error_texts_.size());
}

int Rank::error_code(const char* call, int cls, const std::string& what) {
  std::string fatal_text;
  return new_error(call, cls, what, fatal_text);
}

int Rank::raise(MPI_Comm c, const char* call, int cls, const std::string& what) {
  if (!(c > 0 && static_cast<size_t>(c) < comms_.size() && comms_[c].comm)) c = MPI_COMM_WORLD;
  std::string fatal_text;
  const int code = new_error(call, cls, what, fatal_text);
  call_errhandler(c, code, fatal_text);
  return code;
}

void Rank::call_errhandler(MPI_Comm c, int code, const std::string& fatal_text) {
  const bool valid = static_cast<size_t>(c) < comms_.size() && comms_[c].comm;
  // A window's or a file's communicator: its handler gets the window or the file
  // (MPI_Win_create_errhandler's, MPI_File_create_errhandler's).
  const int handle = valid && comms_[c].win ? comms_[c].win : valid && comms_[c].file ? comms_[c].file : c;
  handle_error(valid ? comms_[c].errhandler : MPI_ERRORS_ARE_FATAL, handle, code, fatal_text);
}

void Rank::handle_error(MPI_Errhandler eh, int handle, int code, const std::string& fatal_text) {
  if (eh == MPI_ERRORS_ARE_FATAL)
    rt_.abort_run(*this, error_class(code), "rank " + std::to_string(world_rank_) + ": " + fatal_text);
  if (MPI_Comm_errhandler_function* fn = user_errhandler(eh)) {
    int error = code;
    fn(&handle, &error);
  }
}

int Rank::raise_file(const char* call, int cls, const std::string& what) {
  std::string fatal_text;
  const int code = new_error(call, cls, what, fatal_text);
  call_file_errhandler(code, fatal_text);
  return code;
}

void Rank::call_file_errhandler(int code, const std::string& fatal_text) {
  handle_error(file_errhandler, MPI_FILE_NULL, code, fatal_text);
}

MPI_Comm_errhandler_function* Rank::user_errhandler(MPI_Errhandler eh) {
  if (eh == MPI_ERRORS_ARE_FATAL || eh == MPI_ERRORS_RETURN) return nullptr;
  const long i = static_cast<long>(eh) - kFirstUserErrhandler;
  if (i < 0 || static_cast<size_t>(i) >= errhandlers_.size())
    fail(MPI_ERR_ARG, "error handler " + std::to_string(eh) +
                          " is not MPI_ERRORS_ARE_FATAL, MPI_ERRORS_RETURN or one MPI_Comm_create_errhandler made");
  return errhandlers_[static_cast<size_t>(i)];
}

MPI_Errhandler Rank::add_errhandler(MPI_Comm_errhandler_function* fn) {
  errhandlers_.push_back(fn);
  return kFirstUserErrhandler + static_cast<MPI_Errhandler>(errhandlers_.size() - 1);
}

int Rank::add_error_class() {
  if (next_user_class_ >= kCodesPerClass)
    fail(MPI_ERR_OTHER, "no error class left (classes " + std::to_string(kFirstUserClass) + ".." +
                            std::to_string(kCodesPerClass - 1) + " are the program's)");
  return next_user_class_++;
}

int Rank::add_error_code(int cls) {
  // A predefined class or one the program added (MPI-3.1 8.5).
  if (cls <= MPI_SUCCESS || cls >= next_user_class_)
    fail(MPI_ERR_ARG,
         "error class " + std::to_string(cls) + " is neither a predefined class nor one MPI_Add_error_class made");
  error_texts_.emplace_back();
  const int code = cls + kCodesPerClass * static_cast<int>(error_texts_.size());
  user_codes_.insert(code);
  last_used_code = std::max(last_used_code, code);
  return code;
}

void Rank::set_error_string(int code, std::string text) {
  const int cls = error_class(code);
  const bool own = (cls >= kFirstUserClass && cls < next_user_class_) || user_codes_.count(code);
  if (!own)
    fail(MPI_ERR_ARG, "error code " + std::to_string(code) + " is not the program's own (MPI_Add_error_class/_code)");
  user_error_strings_[code] = std::move(text);
}

std::string Rank::error_string(int code) const {
  const int cls = error_class(code);
  if (auto it = user_error_strings_.find(code); it != user_error_strings_.end()) return it->second;
  if (cls >= kFirstUserClass || user_codes_.count(code)) return std::string();
  std::string s = std::string(class_name(cls)) + ": " + class_text(cls);
  const int i = code / kCodesPerClass;
  if (i > 0 && static_cast<size_t>(i) <= error_texts_.size()) s += " (" + error_texts_[i - 1] + ")";
  return s;
}

// ------------------------------------------------------------------ Runtime

Runtime::Runtime(unsigned ranks, Options o) : options_(std::move(o)) {
  if (active_) throw std::logic_error("one MPI runtime per process");
  for (unsigned r = 0; r < ranks; ++r) ranks_.push_back(std::make_unique<Rank>(*this, r));
  attributes_[MPI_TAG_UB] = static_cast<int>(driver::p2p::kFirstReservedTag) - 1;  // above: the library's own
  attributes_[MPI_HOST] = MPI_PROC_NULL;
  attributes_[MPI_IO] = MPI_ANY_SOURCE;  // every rank can do I/O
  attributes_[MPI_WTIME_IS_GLOBAL] = 1;  // one simulated clock
  attributes_[MPI_UNIVERSE_SIZE] = static_cast<int>(ranks);
  attributes_[MPI_APPNUM] = 0;
  active_ = this;
}

Runtime::~Runtime() { active_ = nullptr; }

Rank& Runtime::current() {
  if (!active_ || !active_->current_) throw std::logic_error("an MPI function was called outside collnet mpirun");
  return *active_->current_;
}

void Runtime::run_rank(driver::Task& task, const Main& main, const std::vector<std::string>& args) {
  Rank& r = *ranks_.at(task.rank());
  r.attach(task);
  r.args = args;
  r.argv.clear();
  for (std::string& a : r.args) r.argv.push_back(a.data());
  r.argv.push_back(nullptr);
  set_current(r);
  r.left_call = stretch_start();
  errno = 0;  // as a process starts
  struct Undefer {  // a charge the rank left for its processor's next use is dropped with it
    Rank& r;
    ~Undefer() { r.task().cpu().before_next_use(nullptr); }
  } undefer{r};
  int code = 0;
  try {
    code = main(static_cast<int>(r.args.size()), r.argv.data());
  } catch (const RankExit& e) {
    if (e.aborted) {
      r.done = true;
      flush_output(r);
      throw;
    }
    code = e.code;
  }
  set_current(r);
  flush_output(r);
  r.done = true;
  r.exit_code = code;
  if (r.initialized && !r.finalized)
    abort_run(r, code != 0 ? code : 1,
              "rank " + std::to_string(r.world_rank()) + " " +
                  (code != 0 ? "exited with status " + std::to_string(code) : std::string("returned from main")) +
                  " without calling MPI_Finalize");
  if (!r.initialized && code != 0)
    abort_run(r, code, "rank " + std::to_string(r.world_rank()) + " exited with status " + std::to_string(code));
}

namespace {
// Whether an abort at (`cycle`, `rank`) comes before one at (`than_cycle`, `than_rank`) in
// the machine's time: the earlier cycle, and in one cycle the lower rank (the first to run).
bool aborts_first(uint64_t cycle, unsigned rank, uint64_t than_cycle, unsigned than_rank) {
  return cycle != than_cycle ? cycle < than_cycle : rank < than_rank;
}
}  // namespace

void Runtime::abort_run(Rank& r, int code, const std::string& message) {
  // Ranks may abort after this one until the run stops (at the end of the quantum): the
  // run reports the first in the machine's time, the earliest cycle and of those the
  // lowest rank, whatever order the host ran them in (and however the machine is cut into
  // processes).
  const uint64_t cycle = r.task().cycle();
  const bool first = !aborted_ && !deadlocked_;
  if (first || (aborted_ && aborts_first(cycle, r.world_rank(), abort_cycle_, abort_rank_))) {
    aborted_ = true;
    abort_code_ = code == 0 ? 1 : code;
    end_message_ = message;
    abort_cycle_ = cycle;
    abort_rank_ = r.world_rank();
    if (first && options_.stop) options_.stop();
  }
  r.done = true;
  throw RankExit(code, true);
}

int Runtime::exit_code() const {
  if (aborted_) return abort_code_;
  if (deadlocked_) return 1;
  for (const auto& r : ranks_)
    if (r->exit_code != 0) return r->exit_code;
  return 0;
}

void Runtime::merge_ending(const Ending& e) {
  if (!e.aborted && !e.deadlocked) return;
  // After a deadlock no abort counts (abort_run ignores them too); of two aborts, the first.
  const bool replaces = (!aborted_ && !deadlocked_) ||
                        (e.aborted && aborted_ && aborts_first(e.cycle, e.rank, abort_cycle_, abort_rank_));
  if (!replaces) return;
  aborted_ = e.aborted;
  deadlocked_ = e.deadlocked;
  abort_code_ = e.abort_code;
  end_message_ = e.message;
  abort_cycle_ = e.cycle;
  abort_rank_ = e.rank;
}

void Runtime::check_deadlock(uint64_t cycle, uint64_t traffic) {
  // In partitions every partition's runtime checks at the same cycle and pools its counts
  // first, whatever it has seen, so that all decide alike.
  // ended, waiting, running, calls left, flits moved, processors that worked for the
  // library since the last check (a long copy or fold moves no packet, and is not a wait)
  std::vector<uint64_t> count{aborted_ || deadlocked_ ? 1u : 0u, 0, 0, calls_left_, traffic, 0};
  for (const auto& r : ranks_) {
    if (!local(r->world_rank())) continue;
    if (r->attached()) count[5] += r->task().cpu().worked_until() > last_check_;
    if (r->done) continue;
    ++count[2];
    if (r->in_call && !r->computing) ++count[1];  // computing in a call (a user op's function) is not waiting
  }
  if (options_.parts) options_.parts->sum(count);
  if (count[0]) return;
  const uint64_t waiting = count[1], running = count[2], calls_left = count[3];
  traffic = count[4];
  const bool moved = traffic != last_traffic_ || calls_left != last_calls_left_ || count[5] > 0;
  last_traffic_ = traffic;
  last_calls_left_ = calls_left;
  last_check_ = cycle;
  if (running == 0 || waiting < running || moved) {
    quiet_since_ = cycle;
    return;
  }
  if (cycle - quiet_since_ < options_.deadlock_cycles) return;
  deadlocked_ = true;
  // The unfinished ranks, by rank (each partition lists its own, one per line).
  std::ostringstream mine;
  for (const auto& r : ranks_) {
    if (r->done || !local(r->world_rank())) continue;
    mine << r->world_rank() << " in " << r->in_call;
    if (!r->call_detail.empty()) mine << "(" << r->call_detail << ")";
    mine << " since cycle " << r->call_cycle << "\n";
  }
  std::vector<std::pair<unsigned long, std::string>> lines;
  for (const std::string& part : options_.parts ? options_.parts->gather_text(mine.str())
                                                : std::vector<std::string>{mine.str()}) {
    std::istringstream in(part);
    for (std::string line; std::getline(in, line);) lines.emplace_back(std::stoul(line), line);
  }
  std::sort(lines.begin(), lines.end());
  std::ostringstream s;
  s << "deadlock: at cycle " << cycle << " every unfinished rank has waited in an MPI call for " << cycle - quiet_since_
    << "+ cycles with no packet moving:";
  for (size_t k = 0; k < lines.size(); ++k) {
    if (k == 64) {
      s << "\n  ...";
      break;
    }
    s << "\n  rank " << lines[k].second;
  }
  end_message_ = s.str();
  if (options_.stop) options_.stop();
}

void Runtime::write_output(Rank& r, int stream, const char* data, size_t n) {
  FILE* f = stream == 2 ? stderr : stdout;
  std::string& pending = r.pending_out[stream];
  pending.append(data, n);
  if (!options_.tag_output) {  // the whole lines at once
    const size_t end = pending.rfind('\n') + 1;  // 0 with none
    fwrite(pending.data(), 1, end, f);
    pending.erase(0, end);
    return;
  }
  size_t start = 0;
  for (size_t nl; (nl = pending.find('\n', start)) != std::string::npos; start = nl + 1)
    fprintf(f, "[1,%u]<%s>:%.*s\n", r.world_rank(), stream == 2 ? "stderr" : "stdout", static_cast<int>(nl - start),
            pending.data() + start);
  pending.erase(0, start);
}

void Runtime::flush_partial(Rank& r) {
  // A tagged line waits for its end, to be tagged once; an untagged one goes as it is.
  std::string& pending = r.pending_out[1];
  if (options_.tag_output || pending.empty()) return;
  fwrite(pending.data(), 1, pending.size(), stdout);
  pending.clear();
}

void Runtime::flush_output(Rank& r) {
  if (options_.tag_output) {
    for (int s : {1, 2})
      if (!r.pending_out[s].empty()) write_output(r, s, "\n", 1);
  } else {
    flush_partial(r);
  }
  fflush(stdout);
  fflush(stderr);
}

void Runtime::flush_all_output() {
  for (const auto& r : ranks_) flush_output(*r);
}

// ------------------------------------------------------------------ Call

Call::Call(const char* name) : r_(Runtime::current()) {
  r_.saved_errno = errno;  // other ranks run while this call waits
  r_.charge_compute(true);
  ++r_.calls[name];
  r_.in_call = name;
  r_.call_detail.clear();
  start_ = r_.task().cycle();
  r_.call_cycle = start_;
}

Call::~Call() {
  Runtime& rt = r_.runtime();
  rt.set_current(r_);  // after a wait not on its processor (Machine::align's), which has no resume hook
  r_.mpi_cycles += r_.task().cycle() - start_;
  r_.in_call = nullptr;
  ++rt.calls_left_;
  errno = r_.saved_errno;
  if (rt.options().compute_scale > 0) r_.left_call = stretch_start();  // a system call: only when it counts
}

double Rank::wtime() {
  // The time the program has computed since it resumed has passed: read it, and leave the
  // charge to its next call (the processor need not idle for a clock to be read, and a
  // program polling a clock would make it idle a few cycles at a time). The read and the
  // rest of this call are the library's time, as a call's are: on the ranks' thread the
  // program's time so far moves to the carry and its next interval starts at this read.
  const Runtime::Options& o = rt_.options();
  uint64_t cycle = task().cycle();
  if (o.compute_scale > 0 && initialized) {
    const HostTime end = stretch_end();
    double computed = compute_carry + computed_since(end);
    if (rt_.on_ranks_thread()) {
      compute_carry = computed;
      left_call = next_stretch(end);
    }
    cycle += static_cast<uint64_t>(computed * o.compute_scale * o.clock_mhz * 1e6);
  }
  return static_cast<double>(cycle) / (o.clock_mhz * 1e6);
}

double Rank::computed_since(const HostTime& now) const { return stretch_seconds(left_call, now); }

void Rank::charge_compute(bool at_call) {
  const Runtime::Options& o = rt_.options();
  if (!(o.compute_scale > 0) || !initialized) return;
  const HostTime end = stretch_end();
  compute_carry += computed_since(end);
  left_call = next_stretch(end);
  // Paid when the call first uses the machine: a call that only reads the rank's own
  // state (MPI_Comm_rank, a datatype's size) leaves it to the next, and the simulation
  // does not stop for it (a stop runs the other ranks, and the caches they leave cold
  // would make the rank's next stretch look longer than its work).
  // A user op's function run by posted work on the coprocessor pays there, at once.
  if (fw::Coprocessor* co = task().coprocessor(); co && co->on_coprocessor()) return pay_compute();
  // Started collectives that advance by the computation's interrupts: paid here, at the
  // call's entry; paid later, inside the call, the interrupts would find the message layer
  // mid-step (the call's own progress holding the FIFOs) and serve nothing.
  if (at_call && interrupted_by_lines()) {
    task().cpu().before_next_use(nullptr);
    return pay_compute(true);
  }
  task().cpu().before_next_use([this] { pay_compute(); });  // one pending at most: it pays the whole carry
}

void Rank::pay_compute(bool between_calls) {
  const Runtime::Options& o = rt_.options();
  const double cycles_per_second = o.compute_scale * o.clock_mhz * 1e6;
  const auto cycles = static_cast<uint64_t>(compute_carry * cycles_per_second);
  if (cycles == 0) return;  // the fraction of a cycle stays for the next charge
  compute_carry -= static_cast<double>(cycles) / cycles_per_second;
  compute(cycles, between_calls);
}

bool Rank::interrupted_by_lines() {
  return task().has_dma() && !task().cpu().current_fiber() && task().world().background_anywhere();
}

void Rank::compute(uint64_t cycles, bool between_calls) {
  if (cycles == 0) return;
  compute_cycles += cycles;
  struct Computing {  // while the processor idles, even if the run ends meanwhile
    bool& flag;
    const bool was;
    explicit Computing(bool& f) : flag(f), was(f) { flag = true; }
    ~Computing() { flag = was; }
  } computing_now(computing);
  // Interrupts break the computation up; serving them takes the processor's time, which
  // adds to the computation's.
  driver::Communicator& world = task().world();
  bool serve = false;  // an interrupt is raised, or the last one served moved something
  while (cycles > 0) {
    // Started collectives, on a node with the DMA engine: the node's lines interrupt as
    // they change (P2pEngine::interrupt_pending), and each is served at once.
    if (between_calls && interrupted_by_lines()) {
      if (serve) {
        serve = world.serve_interrupt();
        continue;
      }
      world.enable_interrupts();
      cycles -= task().cpu().idle_until(cycles, [&world] { return world.interrupt_pending(); });
      serve = true;
      continue;
    }
    if (!serving_windows) {
      task().cpu().idle(cycles);
      break;
    }
    // Requests for the rank's windows: looked for every kInterruptCycles (wants_progress).
    const uint64_t step = std::min(cycles, kInterruptCycles);
    task().cpu().idle(step);
    cycles -= step;
    if (world.wants_progress()) world.progress();
  }
  // The simulation of those cycles ran on this thread too: not the program's time.
  if (rt_.options().compute_scale > 0) left_call = stretch_start();
}

void Rank::user_code(const std::function<void()>& code) {
  if (!(rt_.options().compute_scale > 0)) return code();
  left_call = stretch_start();
  code();
  charge_compute();
}

}  // namespace collnet::mpi
