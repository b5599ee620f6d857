// SPDX-License-Identifier: Apache-2.0
// The MPI job collnet mpirun runs: one Rank (an MPI process) per task of a driver::Job,
// each with its own handles, calls, statistics and exit code, and the Runtime that holds
// them all. The C functions of mpi.h find their rank through Runtime::current(): tasks
// are SystemC threads of one host thread that switch only while a call waits on the
// simulated machine, so the rank whose code runs is the one that last entered or left a
// call (Call keeps it so). That pointer and the runtime's are the only process-wide state
// the interface has, and the only way a C function without a context argument can find
// its rank.
#pragma once

#include <array>
#include <cstdint>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "driver/communicator.hpp"
#include "driver/job.hpp"
#include "mpi/cartesian.hpp"
#include "mpi/compute_time.hpp"
#include "mpi/datatypes.hpp"
#include "mpi/graph.hpp"
#include "mpi/include/mpi.h"
#include "mpi/rank_streams.hpp"
#include "mpi/tools.hpp"

namespace collnet::mpi {

// An MPI error: its class (MPI_ERR_*) and what was wrong.
struct MpiError {
  int cls;
  std::string what;
};
[[noreturn]] inline void fail(int cls, std::string what) { throw MpiError{cls, std::move(what)}; }

// Thrown through a rank's code to end it: exit() (`code`), MPI_Abort or a fatal error
// (`aborted`), or the end of a run that was stopped (deadlock, another rank's abort).
struct RankExit : std::runtime_error {
  RankExit(int c, bool a) : std::runtime_error("the MPI run ended"), code(c), aborted(a) {}
  int code;
  bool aborted;
};

struct UserOp {
  MPI_User_function* fn = nullptr;
  bool commute = true;
};

struct CommEntry {
  driver::Communicator* comm = nullptr;  // the driver's communicator (MPI_COMM_SELF: a dup of the world)
  std::shared_ptr<driver::Communicator> owned;  // it, unless it is the task's world
  bool self = false;                         // MPI_COMM_SELF: one rank, collectives are local copies
  MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
  std::string name;
  std::optional<Cartesian> cart;  // a Cartesian topology
  std::optional<Graph> graph;     // a graph or distributed graph topology
  std::map<int, void*> attributes;  // the program's, by keyval (api_attributes.cpp)
  std::vector<int> attribute_order;  // their keyvals in the order set: deleted last first
  MPI_Win win = MPI_WIN_NULL;       // the window whose transport it is (its handler is the window's)
  MPI_File file = MPI_FILE_NULL;    // the file whose communicator it is (its handler is the file's)
  // An intercommunicator (intercomm.cpp): `comm` spans both groups, the one holding the
  // lower world rank first; where each group sits in it, and a duplicate
  // of it for the collectives' messages.
  struct Inter {
    unsigned local_offset = 0, local_size = 0, remote_offset = 0, remote_size = 0;
    std::shared_ptr<driver::Communicator> coll;
  };
  std::optional<Inter> inter;
};

class Rank;
struct WinEntry;
struct WindowShared;
struct FileEntry;
struct FileShared;

// A request handle's operation: a driver request, or one already complete (a
// non-blocking collective, a send to MPI_PROC_NULL), with what to do once it completes
// (unpack a derived type, free a bsend copy).
struct RequestEntry {
  bool used = false;
  MPI_Comm comm = MPI_COMM_NULL;  // a send's or receive's: its errors go to its handler
  driver::Request req;
  driver::Communicator* dcomm = nullptr;             // its communicator, kept alive past MPI_Comm_free
  std::shared_ptr<driver::Communicator> keep;
  bool self = false;                                 // on MPI_COMM_SELF: sources are rank 0
  unsigned shift = 0;                                // on an intercommunicator: the remote group's offset
  bool is_recv = false;
  bool proc_null = false;
  std::function<void(const driver::Status&)> on_done;
  std::shared_ptr<std::vector<uint8_t>> buffer;  // a packed copy the operation works on
  // A persistent request (MPI_Send_init, ...): how MPI_Start starts its operation again,
  // and whether one is started. Completing it leaves it inactive, not freed.
  std::function<RequestEntry(Rank&)> start;
  bool active = true;
  // Work posted to the node's coprocessor (coprocessor_work.hpp): completing the request
  // waits for its ticket there, polling as the task's processor does.
  fw::Coprocessor* coprocessor = nullptr;
  uint64_t ticket = 0;
  // A collective started on the torus DMA engines (driver::Communicator::start_alltoall):
  // done when its counters say so; completing it finishes it.
  std::shared_ptr<driver::PendingCollective> pending;
  // A generalized request (MPI_Grequest_start): the program's functions and state, and
  // whether it has called MPI_Grequest_complete.
  struct Generalized {
    MPI_Grequest_query_function* query = nullptr;
    MPI_Grequest_free_function* free = nullptr;
    MPI_Grequest_cancel_function* cancel = nullptr;
    void* extra_state = nullptr;
    bool complete = false;
  };
  std::shared_ptr<Generalized> generalized;
  // Completed by MPI_Request_get_status, which leaves the request: the status its wait or
  // test then gives without completing it again.
  std::optional<MPI_Status> completed;
};

class Runtime;

class Rank {
 public:
  Rank(Runtime& rt, unsigned world_rank) : rt_(rt), world_rank_(world_rank) {}
  Runtime& runtime() { return rt_; }
  unsigned world_rank() const { return world_rank_; }
  driver::Task& task() { return *task_; }
  bool attached() const { return task_ != nullptr; }  // run_rank has given it its task

  // ------------------------------------------------ handles
  static constexpr MPI_Datatype kFirstDerived = 128;
  static constexpr MPI_Op kFirstUserOp = 32;
  static constexpr MPI_Op kLastPredefinedOp = MPI_MINLOC;
  CommEntry& comm(MPI_Comm c, const char* what = "communicator");  // MPI_ERR_COMM if not valid
  driver::Communicator& dcomm(MPI_Comm c) { return *comm(c).comm; }
  MPI_Comm add_comm(driver::Communicator c);
  const TypeDesc& type(MPI_Datatype t, const char* what = "datatype");  // committed; MPI_ERR_TYPE otherwise
  TypeDesc& any_type(MPI_Datatype t, const char* what = "datatype");    // committed or not
  MPI_Datatype add_type(TypeDesc t);
  void free_type(MPI_Datatype& t);
  const UserOp* user_op(MPI_Op op);  // null for a predefined op; MPI_ERR_OP if not valid
  MPI_Op add_op(UserOp op);
  void free_op(MPI_Op& op);
  std::vector<unsigned>& group(MPI_Group g);  // world ranks, in group order; MPI_ERR_GROUP if not valid
  MPI_Group add_group(std::vector<unsigned> world_ranks);
  void free_group(MPI_Group& g);
  // Info objects: (key, value) pairs in the order first set. MPI_INFO_ENV is predefined
  // (made on first use from the rank's command line); MPI_ERR_INFO if not valid.
  using Info = std::vector<std::pair<std::string, std::string>>;
  Info& info(MPI_Info i);
  MPI_Info add_info(Info i);
  void free_info(MPI_Info& i);
  RequestEntry& request(MPI_Request r);  // MPI_ERR_REQUEST if not valid
  MPI_Request add_request(RequestEntry e);
  void drop_request(MPI_Request& r);

  // ------------------------------------------------ errors
  // An error raised in `call` on communicator `comm`: with MPI_ERRORS_RETURN its code (a
  // code of its own whose class is `cls` and whose string says what was wrong), with
  // MPI_ERRORS_ARE_FATAL the run ends.
  int raise(MPI_Comm comm, const char* call, int cls, const std::string& what);
  // The same error's code, no handler called (a status's MPI_ERROR in MPI_ERR_IN_STATUS).
  int error_code(const char* call, int cls, const std::string& what);
  std::string error_string(int code) const;
  // Error handlers of the program's own (MPI_Comm_create_errhandler), from handle
  // kFirstUserErrhandler; null for the predefined ones; MPI_ERR_ARG if not valid.
  static constexpr MPI_Errhandler kFirstUserErrhandler = 3;
  MPI_Comm_errhandler_function* user_errhandler(MPI_Errhandler eh);
  MPI_Errhandler add_errhandler(MPI_Comm_errhandler_function* fn);
  // Runs comm's error handler on `code` (MPI_Comm_call_errhandler, and raise): the run ends
  // (MPI_ERRORS_ARE_FATAL), nothing (MPI_ERRORS_RETURN) or the program's function runs.
  void call_errhandler(MPI_Comm comm, int code, const std::string& fatal_text);
  // The same for an error of a file call with no file (MPI_File_open, MPI_File_delete, a
  // call on MPI_FILE_NULL): the default file error handler, file_errhandler, handles it.
  int raise_file(const char* call, int cls, const std::string& what);
  void call_file_errhandler(int code, const std::string& fatal_text);
  // Runs handler `eh` on `code` for the object `handle` (a communicator, window or file).
  void handle_error(MPI_Errhandler eh, int handle, int code, const std::string& fatal_text);
  // Error classes and codes of the program's own (MPI_Add_error_class, _code, _string).
  int add_error_class();
  int add_error_code(int cls);
  // MPI_LASTUSEDCODE's value: the largest error class or code in use (the predefined
  // ones' last until the program adds its own).
  int last_used_code = MPI_ERR_LASTCODE;
  // Messages a matched probe (MPI_Mprobe, MPI_Improbe) took from matching, by handle, until
  // MPI_Mrecv or MPI_Imrecv receives them: their bytes, source and tag.
  struct Matched {
    std::vector<uint8_t> bytes;
    int source = 0, tag = 0;
  };
  std::map<MPI_Message, Matched> matched;
  MPI_Message next_message = MPI_MESSAGE_NO_PROC + 1;
  // The tools information interface's sessions and handles (MPI_T, api_tools.cpp).
  ToolsState tools;
  // Ports (api_ports.cpp): the next port's number, the ports open, and connection
  // requests that arrived while this rank waited for another port's (source, port, group).
  int next_port = 0;
  std::set<int> open_ports;
  struct PortRequest {
    unsigned source;
    uint64_t port;
    std::vector<unsigned> group;
  };
  std::vector<PortRequest> port_requests;
  // Names the program gave datatypes (MPI_Type_set_name), predefined ones too.
  std::map<MPI_Datatype, std::string> type_names;
  // The types MPI_Type_create_f90_* made, by (combiner, p, r): one handle for each.
  std::map<std::array<int, 3>, MPI_Datatype> f90_types;
  void set_error_string(int code, std::string text);
  static int error_class(int code) { return code % kCodesPerClass; }
  static constexpr int kCodesPerClass = 128;

  // ------------------------------------------------ attributes (api_attributes.cpp)
  // A keyval: its callbacks (copy, delete; a communicator's or a datatype's), their extra
  // state, and whether the program freed it (attributes set with it stay until deleted).
  enum class Object { Comm, Type, Win };  // what a keyval's attributes are set on
  struct Keyval {
    void* copy = nullptr;
    void* del = nullptr;
    void* extra = nullptr;
    Object object = Object::Comm;
    bool freed = false;
  };
  static constexpr int kFirstKeyval = 100;  // above the predefined attribute keys
  std::vector<Keyval> keyvals;               // keyval kFirstKeyval + i
  std::map<MPI_Datatype, std::map<int, void*>> type_attributes;

  // ------------------------------------------------ windows (window.hpp)
  std::vector<std::shared_ptr<WinEntry>> windows;  // handle i + 1
  // ------------------------------------------------ files (file.hpp)
  std::vector<std::shared_ptr<FileEntry>> files;  // handle i + 1; null once closed
  MPI_Errhandler file_errhandler = MPI_ERRORS_RETURN;  // MPI_FILE_NULL's: files opened get it
  std::set<std::string> datareps;  // MPI_Register_datarep's names
  bool serving_windows = false;  // a window of several members: its handler serves them

  // ------------------------------------------------ state
  bool initialized = false, finalized = false;
  std::vector<std::string> args;  // argv, kept alive for the program
  std::vector<char*> argv;
  // Buffered sends (MPI_Bsend): the attached buffer's size and the sends still going.
  void* bsend_buffer = nullptr;
  size_t bsend_size = 0, bsend_used = 0;
  std::vector<MPI_Request> bsends;
  // Receives MPI_Request_free let go of before they completed.
  std::vector<MPI_Request> freed_recvs;
  // The call this rank is in (null outside calls), since which cycle; for deadlock reports.
  const char* in_call = nullptr;
  std::string call_detail;
  uint64_t call_cycle = 0;
  bool done = false;  // its program returned
  bool computing = false;  // its processor idles for the program's computation (compute())
  int exit_code = 0;
  // Statistics (the run's report).
  uint64_t mpi_cycles = 0, compute_cycles = 0, bytes_sent = 0, bytes_received = 0;
  std::map<std::string, uint64_t> calls;
  HostTime left_call;        // the host's time when its code resumed (--compute-scale)
  double compute_carry = 0;  // host seconds computed and not yet charged (less than a cycle's)
  // Charges the compute time since its code resumed (the processor idles that long,
  // serving its windows' requests meanwhile), as every call does first: it is paid
  // (pay_compute) just before the call first uses the machine (fw::Processor::
  // before_next_use), so calls that do not use it add to the next one's. `at_call`: charged
  // at a call's entry (or MPIX_Compute_cycles's), between the program's calls; a rank whose
  // computation interrupts run its started collectives (interrupted_by_lines) pays there
  // and then, where the message layer is not mid-step.
  void charge_compute(bool at_call = false);
  void pay_compute(bool between_calls = false);
  // The machine's time for this rank in seconds, its computation since it resumed counted
  // (and charged at its next call): MPI_Wtime's, and the C and C++ clocks' (mpi/rank/clock.c).
  double wtime();
  // Host seconds the program has computed from left_call to `now` (stretch_seconds).
  double computed_since(const HostTime& now) const;
  // Computes `cycles` more (MPIX_Compute_cycles): the processor idles that long, counted as
  // compute time. Interrupts break it up: the requests that arrive for the rank's windows
  // are served meanwhile, and, `between_calls`, on a node with the DMA engine its started
  // collectives advance; the processor time they take adds to the computation's.
  void compute(uint64_t cycles, bool between_calls = false);
  // Whether a computation between calls is interrupted by the node's lines: the node has
  // the DMA engine and the rank has started collectives running in fibers.
  bool interrupted_by_lines();
  // Runs the program's code that a call calls back (a user op's function): its host CPU
  // time is simulated as the processor's, as between calls (--compute-scale > 0).
  void user_code(const std::function<void()>& code);
  int thread_level = MPI_THREAD_SINGLE;  // what MPI_Init_thread provided
  int saved_errno = 0;  // its errno while other ranks run (the C library's is one for all)
  // Program output: the part of a line not yet written, per stream (1 stdout, 2 stderr).
  std::string pending_out[3];

  void attach(driver::Task& t);
  // MPI_Init's part: MPI_COMM_SELF's transport, a duplicate of the world (collective).
  void init_self();
  CommEntry& comm_slot(MPI_Comm c) { return comms_.at(c); }

 private:
  Runtime& rt_;
  unsigned world_rank_;
  driver::Task* task_ = nullptr;
  std::vector<CommEntry> comms_;
  std::vector<std::optional<TypeDesc>> types_;  // derived, from handle kFirstDerived
  std::vector<std::optional<UserOp>> ops_;
  std::vector<std::optional<std::vector<unsigned>>> groups_;
  std::vector<std::optional<Info>> infos_ = std::vector<std::optional<Info>>(2);  // [1]: MPI_INFO_ENV
  std::vector<RequestEntry> requests_;
  std::vector<std::string> error_texts_;
  std::vector<MPI_Comm_errhandler_function*> errhandlers_;  // from kFirstUserErrhandler
  // A new error code of class `cls` whose string is `call: what`; `fatal_text` the line a
  // fatal handler ends the run with.
  int new_error(const char* call, int cls, const std::string& what, std::string& fatal_text);
  int next_user_class_ = kFirstUserClass;
  std::map<int, std::string> user_error_strings_;  // by class or code
  std::set<int> user_codes_;                       // MPI_Add_error_code's
  static constexpr int kFirstUserClass = 74;  // above MPI_ERR_IO
};

class Runtime {
 public:
  struct Options {
    double clock_mhz = 700.0;
    double compute_scale = 0.0;  // host seconds between calls -> simulated time (0: none)
    bool tag_output = false;
    uint64_t deadlock_cycles = 100'000;  // a run quiet this long with every rank in a call is deadlocked
    std::function<void()> stop;          // ends the simulation (the machine's stop())
    // A machine in partitions, one process each (sim::Machine), each running the ranks of
    // its nodes: which ranks run here, and how the partitions' runtimes pool what the
    // deadlock check counts (`sum`, element by element) and lists (`gather_text`: every
    // partition's text, on every partition). Unset: every rank runs here.
    struct Parts {
      std::function<bool(unsigned world_rank)> local;
      std::function<void(std::vector<uint64_t>& values)> sum;
      std::function<std::vector<std::string>(const std::string& mine)> gather_text;
    };
    std::optional<Parts> parts;
  };
  using Main = std::function<int(int, char**)>;

  Runtime(unsigned ranks, Options o);
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  // A task's program: runs `main` as rank task.rank() with `args` (argv[0] first).
  void run_rank(driver::Task& task, const Main& main, const std::vector<std::string>& args);

  // The rank whose code runs now (throws std::logic_error outside a run).
  static Rank& current();
  static Runtime* active() { return active_; }
  static Rank* current_or_null() { return active_ ? active_->current_ : nullptr; }
  // Whether the calling host thread is the one the ranks run on (the simulation's): a
  // program's own threads (OpenMP's, say) are not, and may not call MPI
  // (MPI_THREAD_FUNNELED).
  bool on_ranks_thread() const { return std::this_thread::get_id() == ranks_thread_; }
  void set_current(Rank& r) {
    if (current_ == &r) return;
    if (streams_) streams_->switch_rank(current_, r);
    current_ = &r;
  }
  // The C++ streams' routing while the ranks run (RankStreams registers itself).
  void set_streams(RankStreams* s) { streams_ = s; }

  const Options& options() const { return options_; }
  // The job's published service names and their ports (MPI_Publish_name).
  std::map<std::string, std::string>& published() { return published_; }
  // MPI_Comm_get_attr's values, indexed by key (MPI_TAG_UB .. MPI_APPNUM).
  int* attribute(int key) { return key >= MPI_TAG_UB && key <= MPI_APPNUM ? &attributes_[key] : nullptr; }
  Rank& rank(unsigned r) { return *ranks_.at(r); }
  unsigned size() const { return static_cast<unsigned>(ranks_.size()); }

  // Ends the run now (MPI_Abort, a fatal error, a rank that exited early): records why
  // and with which exit code, stops the simulation and unwinds the calling rank.
  [[noreturn]] void abort_run(Rank& r, int code, const std::string& message);
  // The monitor's check, every `deadlock_cycles / 2` cycles: `traffic` is a count that
  // grows while any packet moves. Stops the run when every unfinished rank has sat in a
  // call with nothing moving for deadlock_cycles.
  void check_deadlock(uint64_t cycle, uint64_t traffic);

  // How the run ended, for the report.
  bool aborted() const { return aborted_; }
  bool deadlocked() const { return deadlocked_; }
  const std::string& end_message() const { return end_message_; }
  int exit_code() const;
  // Whether rank `r` runs in this process (Options::parts).
  bool local(unsigned r) const { return !options_.parts || options_.parts->local(r); }
  // How the run ended, as this process saw it. An abort is the run's first MPI_Abort or
  // fatal error in the machine's time: at `cycle`, by `rank` (abort_run).
  struct Ending {
    bool aborted = false, deadlocked = false;
    int abort_code = 0;
    std::string message;
    uint64_t cycle = 0;
    unsigned rank = 0;
  };
  Ending ending() const { return {aborted_, deadlocked_, abort_code_, end_message_, abort_cycle_, abort_rank_}; }
  // Another partition's ending (the report's partition hears every one): the run's is the
  // first abort in the machine's time, as abort_run decides within a process; a deadlock
  // every partition saw alike.
  void merge_ending(const Ending& e);

  // Writes a rank's program output: whole lines, each rank's stdout its own line-buffered
  // stream (--tag-output: stderr too, and lines are prefixed "[1,R]<stdout>:").
  void write_output(Rank& r, int stream, const char* data, size_t n);
  // The program's fflush of its stdout: the partial line goes out (not when tagging).
  void flush_partial(Rank& r);
  // At a rank's end, and the run's (for ranks an abort or a deadlock stopped).
  void flush_output(Rank& r);
  void flush_all_output();

 private:
  static Runtime* active_;
  Options options_;

 public:
  // How the run placed ranks where a program let it (MPI_Cart_create with reorder): each
  // description and how many times it happened, for the report.
  void note_mapping(const std::string& what, unsigned times = 1) { mappings_[what] += times; }
  const std::map<std::string, unsigned>& mappings() const { return mappings_; }

  // Windows being made and in use, by serial (window.cpp): how their members find the
  // state they share.
  std::map<uint64_t, std::shared_ptr<WindowShared>> windows;
  uint64_t window_serial = 0;
  // Files open, by serial (file.cpp): how the ranks that opened one together find the
  // state they share (its shared file pointer).
  std::map<uint64_t, std::weak_ptr<FileShared>> files;
  uint64_t file_serial = 0;

 private:
  std::map<std::string, unsigned> mappings_;
  int attributes_[MPI_APPNUM + 1] = {};
  std::vector<std::unique_ptr<Rank>> ranks_;
  Rank* current_ = nullptr;
  RankStreams* streams_ = nullptr;
  bool aborted_ = false, deadlocked_ = false;
  int abort_code_ = 0;
  std::string end_message_;
  uint64_t abort_cycle_ = 0;
  unsigned abort_rank_ = 0;
  std::thread::id ranks_thread_ = std::this_thread::get_id();
  std::map<std::string, std::string> published_;
  uint64_t calls_left_ = 0, last_calls_left_ = ~0ull, last_traffic_ = ~0ull;
  uint64_t last_check_ = 0;  // the cycle check_deadlock last ran at
  uint64_t quiet_since_ = 0;
  friend class Call;
};

// The frame of one mpi.h call on the current rank: charges the compute time before it
// (--compute-scale), counts it, records where the rank waits, and on leaving makes the
// rank current again (other ranks ran while it waited) and adds its cycles.
class Call {
 public:
  explicit Call(const char* name);
  ~Call();
  Rank& rank() { return r_; }
  void detail(std::string d) { r_.call_detail = std::move(d); }

 private:
  Rank& r_;
  uint64_t start_;
};

}  // namespace collnet::mpi
