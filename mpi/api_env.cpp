// SPDX-License-Identifier: Apache-2.0
// mpi.h: the environment (init, finalize, abort, time, version) and error handling.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "mpi/api_support.hpp"
#include "mpi/attributes.hpp"
#include "mpi/coprocessor_work.hpp"

using namespace collnet::mpi;

namespace {

// A Fortran status's integers past MPI_F_ERROR (mpi.h): the cancelled flag, then the
// message's length in bytes, low and high 32 bits.
constexpr int kFCancelled = 3, kFBytesLow = 4, kFBytesHigh = 5;
static_assert(kFBytesHigh < MPI_F_STATUS_SIZE, "the status fits MPI_F_STATUS_SIZE integers");

int init(const char* name) {
  return api(
      name, MPI_COMM_WORLD,
      [](Rank& r) {
        if (r.initialized) fail(MPI_ERR_OTHER, "MPI is already initialized (MPI_Init called twice)");
        r.initialized = true;
        r.init_self();
      },
      false);
}

}  // namespace

extern "C" {

int MPI_Init(int*, char***) { return init("MPI_Init"); }

int MPI_Init_thread(int*, char***, int required, int* provided) {
  const int rc = init("MPI_Init_thread");
  // A rank's main thread is the simulated processor's, and the only one that may call
  // MPI: a program may run threads of its own (OpenMP) around its calls.
  Rank& r = rank_or_die("MPI_Init_thread");
  r.thread_level = required >= MPI_THREAD_FUNNELED ? MPI_THREAD_FUNNELED : MPI_THREAD_SINGLE;
  if (provided) *provided = r.thread_level;
  return rc;
}

int MPI_Query_thread(int* provided) {
  return api("MPI_Query_thread", MPI_COMM_WORLD, [&](Rank& r) { *provided = r.thread_level; });
}

int MPI_Finalize(void) {
  return api("MPI_Finalize", MPI_COMM_WORLD, [&](Rank& r) {
    // As if MPI_COMM_SELF were freed first: its attributes' delete callbacks run, the last
    // set first, while MPI is still up (MPI-3.1 8.7.1: libraries hook their cleanup there).
    delete_comm_attributes(r, MPI_COMM_SELF);
    // Buffered sends still going finish first; then every rank meets, so that no message
    // is left half-delivered when a rank's program ends.
    finish_pending_sends(r);
    settle_posted(r);  // and collectives started and never waited for
    r.dcomm(MPI_COMM_WORLD).barrier();
    r.finalized = true;
  });
}

int MPI_Initialized(int* flag) {
  *flag = rank_or_die("MPI_Initialized").initialized;
  return MPI_SUCCESS;
}

int MPI_Finalized(int* flag) {
  *flag = rank_or_die("MPI_Finalized").finalized;
  return MPI_SUCCESS;
}

int MPI_Abort(MPI_Comm comm, int errorcode) {
  Rank& r = rank_or_die("MPI_Abort");
  Call call("MPI_Abort");
  std::string which = comm == MPI_COMM_WORLD ? "MPI_COMM_WORLD" : "communicator " + std::to_string(comm);
  r.runtime().abort_run(r, errorcode, "rank " + std::to_string(r.world_rank()) + " called MPI_Abort(" + which + ", " +
                                          std::to_string(errorcode) + ")");
}

double MPI_Wtime(void) { return rank_or_die("MPI_Wtime").wtime(); }

int MPIX_Compute_cycles(long long cycles) {
  Rank& r = rank_or_die("MPIX_Compute_cycles");
  if (cycles < 0 || !r.initialized || r.finalized)
    return api("MPIX_Compute_cycles", MPI_COMM_WORLD, [&](Rank&) {
      fail(MPI_ERR_ARG, "cycles " + std::to_string(cycles) + " is negative");
    });
  r.charge_compute(true);  // the host code before it first, as at a call
  r.compute(static_cast<uint64_t>(cycles), true);
  return MPI_SUCCESS;
}

double MPI_Wtick(void) { return 1.0 / (rank_or_die("MPI_Wtick").runtime().options().clock_mhz * 1e6); }

int MPI_Get_library_version(char* version, int* resultlen) {
  // Callable before MPI_Init and after MPI_Finalize, like MPI_Get_version.
  const int n = std::snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
                              "collnet MPI (MPI %d.%d on a simulated machine: docs/mpi.md)", MPI_VERSION,
                              MPI_SUBVERSION);
  *resultlen = n < MPI_MAX_LIBRARY_VERSION_STRING ? n : MPI_MAX_LIBRARY_VERSION_STRING - 1;
  return MPI_SUCCESS;
}

int MPI_Is_thread_main(int* flag) {
  // Asked from a thread of the program's own, it answers without touching the machine.
  Runtime* rt = Runtime::active();
  if (rt && !rt->on_ranks_thread()) {
    *flag = 0;
    return MPI_SUCCESS;
  }
  return api("MPI_Is_thread_main", MPI_COMM_WORLD, [&](Rank&) { *flag = 1; });
}

int MPI_Alloc_mem(MPI_Aint size, MPI_Info info, void* baseptr) {
  return api("MPI_Alloc_mem", MPI_COMM_WORLD, [&](Rank& r) {
    if (info != MPI_INFO_NULL) r.info(info);  // hints are checked, then ignored
    if (size < 0) fail(MPI_ERR_ARG, "size " + std::to_string(size) + " is negative");
    void* p = std::malloc(size > 0 ? static_cast<size_t>(size) : 1);
    if (!p) fail(MPI_ERR_NO_MEM, "cannot allocate " + std::to_string(size) + " bytes");
    *static_cast<void**>(baseptr) = p;
  });
}

int MPI_Pcontrol(const int level, ...) {
  // Profiling levels are for tools that wrap MPI_ calls (the PMPI_ interface); collnet's
  // own report needs none. MPI-3.1 14.2.4: any level is allowed, and nothing need happen.
  (void)level;
  return api("MPI_Pcontrol", MPI_COMM_WORLD, [](Rank&) {}, false);
}

int MPI_Free_mem(void* base) {
  return api("MPI_Free_mem", MPI_COMM_WORLD, [&](Rank&) { std::free(base); });
}

int MPI_Get_processor_name(char* name, int* resultlen) {
  Rank& r = rank_or_die("MPI_Get_processor_name");
  const std::string n = "collnet-node" + std::to_string(r.task().node());
  std::snprintf(name, MPI_MAX_PROCESSOR_NAME, "%s", n.c_str());
  *resultlen = static_cast<int>(n.size());
  return MPI_SUCCESS;
}

int MPI_Get_version(int* version, int* subversion) {
  *version = MPI_VERSION;
  *subversion = MPI_SUBVERSION;
  return MPI_SUCCESS;
}

int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler) {
  return api("MPI_Comm_set_errhandler", comm, [&](Rank& r) {
    CommEntry& c = r.comm(comm);
    r.user_errhandler(errhandler);  // MPI_ERR_ARG unless predefined or the program's
    c.errhandler = errhandler;
  });
}

int MPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler) {
  return MPI_Comm_set_errhandler(comm, errhandler);
}

int MPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler* errhandler) {
  return MPI_Comm_get_errhandler(comm, errhandler);
}

int MPI_Errhandler_create(MPI_Handler_function* function, MPI_Errhandler* errhandler) {
  return MPI_Comm_create_errhandler(function, errhandler);
}

int MPI_Comm_create_errhandler(MPI_Comm_errhandler_function* function, MPI_Errhandler* errhandler) {
  return api("MPI_Comm_create_errhandler", MPI_COMM_WORLD, [&](Rank& r) {
    if (!function) fail(MPI_ERR_ARG, "function is null");
    *errhandler = r.add_errhandler(function);
  });
}

int MPI_Comm_call_errhandler(MPI_Comm comm, int errorcode) {
  return api("MPI_Comm_call_errhandler", comm, [&](Rank& r) {
    r.comm(comm);
    r.call_errhandler(comm, errorcode, "MPI_Comm_call_errhandler: " + r.error_string(errorcode));
  });
}

int MPI_Add_error_class(int* errorclass) {
  return api("MPI_Add_error_class", MPI_COMM_WORLD, [&](Rank& r) { *errorclass = r.add_error_class(); });
}

int MPI_Add_error_code(int errorclass, int* errorcode) {
  return api("MPI_Add_error_code", MPI_COMM_WORLD, [&](Rank& r) { *errorcode = r.add_error_code(errorclass); });
}

int MPI_Add_error_string(int errorcode, const char* string) {
  return api("MPI_Add_error_string", MPI_COMM_WORLD, [&](Rank& r) {
    if (!string) fail(MPI_ERR_ARG, "string is null");
    if (std::strlen(string) >= MPI_MAX_ERROR_STRING)
      fail(MPI_ERR_ARG, "the string is longer than MPI_MAX_ERROR_STRING - 1");
    r.set_error_string(errorcode, string);
  });
}

int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler* errhandler) {
  return api("MPI_Comm_get_errhandler", comm, [&](Rank& r) { *errhandler = r.comm(comm).errhandler; });
}

int MPI_Errhandler_free(MPI_Errhandler* errhandler) {
  *errhandler = MPI_ERRHANDLER_NULL;
  return MPI_SUCCESS;
}

int MPI_Error_string(int errorcode, char* string, int* resultlen) {
  const std::string s = rank_or_die("MPI_Error_string").error_string(errorcode);
  std::snprintf(string, MPI_MAX_ERROR_STRING, "%s", s.c_str());
  *resultlen = static_cast<int>(std::min<size_t>(s.size(), MPI_MAX_ERROR_STRING - 1));
  return MPI_SUCCESS;
}

int MPI_Error_class(int errorcode, int* errorclass) {
  *errorclass = Rank::error_class(errorcode);
  return MPI_SUCCESS;
}

// Handles between C and Fortran: collnet's handles are ints, the same on both sides.
MPI_Fint MPI_Comm_c2f(MPI_Comm comm) { return static_cast<MPI_Fint>(comm); }
MPI_Comm MPI_Comm_f2c(MPI_Fint comm) { return static_cast<MPI_Comm>(comm); }
MPI_Fint MPI_Type_c2f(MPI_Datatype datatype) { return static_cast<MPI_Fint>(datatype); }
MPI_Datatype MPI_Type_f2c(MPI_Fint datatype) { return static_cast<MPI_Datatype>(datatype); }
MPI_Fint MPI_Group_c2f(MPI_Group group) { return static_cast<MPI_Fint>(group); }
MPI_Group MPI_Group_f2c(MPI_Fint group) { return static_cast<MPI_Group>(group); }
MPI_Fint MPI_Request_c2f(MPI_Request request) { return static_cast<MPI_Fint>(request); }
MPI_Request MPI_Request_f2c(MPI_Fint request) { return static_cast<MPI_Request>(request); }
MPI_Fint MPI_Info_c2f(MPI_Info info) { return static_cast<MPI_Fint>(info); }
MPI_Info MPI_Info_f2c(MPI_Fint info) { return static_cast<MPI_Info>(info); }
MPI_Fint MPI_Op_c2f(MPI_Op op) { return static_cast<MPI_Fint>(op); }
MPI_Op MPI_Op_f2c(MPI_Fint op) { return static_cast<MPI_Op>(op); }
MPI_Fint MPI_Errhandler_c2f(MPI_Errhandler errhandler) { return static_cast<MPI_Fint>(errhandler); }
MPI_Errhandler MPI_Errhandler_f2c(MPI_Fint errhandler) { return static_cast<MPI_Errhandler>(errhandler); }
MPI_Fint MPI_Win_c2f(MPI_Win win) { return static_cast<MPI_Fint>(win); }
MPI_Win MPI_Win_f2c(MPI_Fint win) { return static_cast<MPI_Win>(win); }
MPI_Fint MPI_Message_c2f(MPI_Message message) { return static_cast<MPI_Fint>(message); }
MPI_Message MPI_Message_f2c(MPI_Fint message) { return static_cast<MPI_Message>(message); }

int MPI_Status_c2f(const MPI_Status* c_status, MPI_Fint* f_status) {
  return api("MPI_Status_c2f", MPI_COMM_WORLD, [&](Rank&) {
    if (!c_status) fail(MPI_ERR_ARG, "c_status is MPI_STATUS_IGNORE (or null)");
    if (!f_status) fail(MPI_ERR_ARG, "f_status is MPI_F_STATUS_IGNORE (or null)");
    f_status[MPI_F_SOURCE] = c_status->MPI_SOURCE;
    f_status[MPI_F_TAG] = c_status->MPI_TAG;
    f_status[MPI_F_ERROR] = c_status->MPI_ERROR;
    f_status[kFCancelled] = c_status->collnet_cancelled;
    const uint64_t bytes = c_status->collnet_bytes;
    f_status[kFBytesLow] = static_cast<MPI_Fint>(static_cast<uint32_t>(bytes));
    f_status[kFBytesHigh] = static_cast<MPI_Fint>(static_cast<uint32_t>(bytes >> 32));
  });
}

int MPI_Status_f2c(const MPI_Fint* f_status, MPI_Status* c_status) {
  return api("MPI_Status_f2c", MPI_COMM_WORLD, [&](Rank&) {
    if (!f_status) fail(MPI_ERR_ARG, "f_status is MPI_F_STATUS_IGNORE (or null)");
    if (!c_status) fail(MPI_ERR_ARG, "c_status is MPI_STATUS_IGNORE (or null)");
    c_status->MPI_SOURCE = f_status[MPI_F_SOURCE];
    c_status->MPI_TAG = f_status[MPI_F_TAG];
    c_status->MPI_ERROR = f_status[MPI_F_ERROR];
    c_status->collnet_cancelled = f_status[kFCancelled];
    c_status->collnet_bytes = static_cast<size_t>(static_cast<uint32_t>(f_status[kFBytesLow])) |
                              static_cast<size_t>(static_cast<uint32_t>(f_status[kFBytesHigh])) << 32;
  });
}

}  // extern "C"
