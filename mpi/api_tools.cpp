// SPDX-License-Identifier: Apache-2.0
// The tools information interface (MPI_T, MPI-3.1 chapter 14) on collnet: its control
// variables are the run's settings (read-only: they are fixed for the whole run), its
// performance variables each rank's statistics of the run's report, and one category,
// "collnet", holds them all. No enumeration is defined. The functions return their codes
// (MPI_T_ERR_*) without an error handler, and work before MPI_Init and after MPI_Finalize.
#include <cstring>
#include <string>

#include "mpi/api_support.hpp"

using namespace collnet::mpi;

namespace {

// An MPI_T failure: the code the function returns.
struct ToolsError {
  int code;
};

// Runs `body` as MPI_T function `name` on the current rank (a call like any other: it
// counts, and charges the computation before it); `initialized`: it needs
// MPI_T_init_thread first (all but MPI_T_init_thread).
template <class F>
int tools_api(const char* name, F&& body, bool initialized = true) {
  rank_or_die(name);
  Call call(name);
  try {
    if (initialized && call.rank().tools.inits == 0) return MPI_T_ERR_NOT_INITIALIZED;
    body(call.rank());
    return MPI_SUCCESS;
  } catch (const ToolsError& e) {
    return e.code;
  } catch (const std::bad_alloc&) {
    return MPI_T_ERR_MEMORY;
  }
}

// MPI-3.1 14.3.3's way of returning a string: at most len - 1 characters and a null into
// `buf`; `len` becomes the string's length plus one. No buffer or a length of 0: only the
// length; no length: nothing.
void give_string(const std::string& s, char* buf, int* len) {
  if (!len) return;
  if (buf && *len > 0) {
    const size_t n = std::min(s.size(), static_cast<size_t>(*len - 1));
    std::memcpy(buf, s.data(), n);
    buf[n] = '\0';
  }
  *len = static_cast<int>(s.size()) + 1;
}

struct Cvar {
  const char* name;
  MPI_Datatype type;  // MPI_DOUBLE or MPI_UNSIGNED_LONG_LONG, what `read` writes
  const char* desc;
  void (*read)(const Runtime::Options& o, void* buf);
};
const Cvar kCvars[] = {
    {"collnet_clock_mhz", MPI_DOUBLE, "the processors' clock in MHz: MPI_Wtime's cycles per microsecond (--machine)",
     [](const Runtime::Options& o, void* buf) { *static_cast<double*>(buf) = o.clock_mhz; }},
    {"collnet_compute_scale", MPI_DOUBLE,
     "simulated seconds per host CPU second of the program's code between calls (--compute-scale; 0: none)",
     [](const Runtime::Options& o, void* buf) { *static_cast<double*>(buf) = o.compute_scale; }},
    {"collnet_deadlock_cycles", MPI_UNSIGNED_LONG_LONG,
     "cycles with every rank in a call and nothing moving after which the run is reported deadlocked",
     [](const Runtime::Options& o, void* buf) { *static_cast<unsigned long long*>(buf) = o.deadlock_cycles; }},
};
constexpr int kNumCvars = sizeof kCvars / sizeof kCvars[0];

struct Pvar {
  const char* name;
  int var_class;
  const char* desc;
  uint64_t Rank::*value;  // null: the calls
};
const Pvar kPvars[] = {
    {"collnet_mpi_cycles", MPI_T_PVAR_CLASS_TIMER, "processor cycles the rank spent in MPI calls", &Rank::mpi_cycles},
    {"collnet_compute_cycles", MPI_T_PVAR_CLASS_TIMER,
     "processor cycles the rank computed between MPI calls (--compute-scale, MPIX_Compute_cycles)",
     &Rank::compute_cycles},
    {"collnet_bytes_sent", MPI_T_PVAR_CLASS_COUNTER, "bytes of data the rank sent, in messages and collectives",
     &Rank::bytes_sent},
    {"collnet_bytes_received", MPI_T_PVAR_CLASS_COUNTER,
     "bytes of data the rank received, in messages and collectives", &Rank::bytes_received},
    {"collnet_mpi_calls", MPI_T_PVAR_CLASS_COUNTER, "MPI calls the rank made (MPI_T's own included)", nullptr},
};
constexpr int kNumPvars = sizeof kPvars / sizeof kPvars[0];

const char* const kCategory = "collnet";
const char* const kCategoryDesc = "the simulated machine's settings and each rank's statistics of the run's report";

uint64_t pvar_value(Rank& r, int index) {
  const Pvar& p = kPvars[index];
  if (p.value) return r.*(p.value);
  uint64_t calls = 0;
  for (const auto& [name, n] : r.calls) calls += n;
  return calls;
}

// The variable a control variable handle reads (MPI_T_ERR_INVALID_HANDLE if not one).
int& cvar_handle(Rank& r, MPI_T_cvar_handle handle) {
  if (handle < 1 || handle > static_cast<int>(r.tools.cvar_handles.size()) || r.tools.cvar_handles[handle - 1] < 0)
    throw ToolsError{MPI_T_ERR_INVALID_HANDLE};
  return r.tools.cvar_handles[handle - 1];
}

// MPI_T_ERR_INVALID_SESSION unless `session` is one of the rank's, not freed.
void check_session(Rank& r, MPI_T_pvar_session session) {
  if (session < 1 || session > static_cast<int>(r.tools.sessions.size()) || !r.tools.sessions[session - 1])
    throw ToolsError{MPI_T_ERR_INVALID_SESSION};
}

ToolsState::PvarHandle& pvar_handle(Rank& r, MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
  check_session(r, session);
  if (handle < 1 || handle > static_cast<int>(r.tools.pvar_handles.size()) ||
      r.tools.pvar_handles[handle - 1].session != session)
    throw ToolsError{MPI_T_ERR_INVALID_HANDLE};
  return r.tools.pvar_handles[handle - 1];
}

uint64_t pvar_read(Rank& r, const ToolsState::PvarHandle& h) {
  return h.counted + (h.started ? pvar_value(r, h.index) - h.started_at : 0);
}

// MPI_T_pvar_start, _stop, _reset (as mpi.h call `name`): `fn` on the handle, or on every
// handle of the session (MPI_T_PVAR_ALL_HANDLES).
template <class F>
int on_handles(const char* name, MPI_T_pvar_session session, MPI_T_pvar_handle handle, F&& fn) {
  return tools_api(name, [&](Rank& r) {
    if (handle != MPI_T_PVAR_ALL_HANDLES) {
      fn(r, pvar_handle(r, session, handle));
      return;
    }
    check_session(r, session);
    for (ToolsState::PvarHandle& h : r.tools.pvar_handles)
      if (h.session == session) fn(r, h);
  });
}

// MPI_T_category_get_cvars and _get_pvars: the first `len` of the category's `n` variables.
int category_members(const char* name, int cat_index, int len, int* indices, int n) {
  return tools_api(name, [&](Rank&) {
    if (cat_index != 0) throw ToolsError{MPI_T_ERR_INVALID_INDEX};
    if (len < 0 || (len > 0 && !indices)) throw ToolsError{MPI_T_ERR_INVALID};
    for (int i = 0; i < std::min(len, n); ++i) indices[i] = i;
  });
}

}  // namespace

extern "C" {

int MPI_T_init_thread(int required, int* provided) {
  return tools_api(
      "MPI_T_init_thread",
      [&](Rank& r) {
        if (required < MPI_THREAD_SINGLE || required > MPI_THREAD_MULTIPLE) throw ToolsError{MPI_T_ERR_INVALID};
        if (provided) *provided = MPI_THREAD_SINGLE;
        ++r.tools.inits;
      },
      false);
}

int MPI_T_finalize(void) {
  return tools_api("MPI_T_finalize", [&](Rank& r) { --r.tools.inits; });
}

int MPI_T_enum_get_info(MPI_T_enum, int*, char*, int*) {
  return tools_api("MPI_T_enum_get_info", [&](Rank&) { throw ToolsError{MPI_T_ERR_INVALID_HANDLE}; });
}

int MPI_T_enum_get_item(MPI_T_enum, int, int*, char*, int*) {
  return tools_api("MPI_T_enum_get_item", [&](Rank&) { throw ToolsError{MPI_T_ERR_INVALID_HANDLE}; });
}

int MPI_T_cvar_get_num(int* num_cvar) {
  return tools_api("MPI_T_cvar_get_num", [&](Rank&) {
    if (!num_cvar) throw ToolsError{MPI_T_ERR_INVALID};
    *num_cvar = kNumCvars;
  });
}

int MPI_T_cvar_get_info(int cvar_index, char* name, int* name_len, int* verbosity, MPI_Datatype* datatype,
                        MPI_T_enum* enumtype, char* desc, int* desc_len, int* bind, int* scope) {
  return tools_api("MPI_T_cvar_get_info", [&](Rank&) {
    if (cvar_index < 0 || cvar_index >= kNumCvars) throw ToolsError{MPI_T_ERR_INVALID_INDEX};
    const Cvar& c = kCvars[cvar_index];
    give_string(c.name, name, name_len);
    give_string(c.desc, desc, desc_len);
    if (verbosity) *verbosity = MPI_T_VERBOSITY_USER_BASIC;
    if (datatype) *datatype = c.type;
    if (enumtype) *enumtype = MPI_T_ENUM_NULL;
    if (bind) *bind = MPI_T_BIND_NO_OBJECT;
    if (scope) *scope = MPI_T_SCOPE_CONSTANT;
  });
}

int MPI_T_cvar_get_index(const char* name, int* cvar_index) {
  return tools_api("MPI_T_cvar_get_index", [&](Rank&) {
    if (!name || !cvar_index) throw ToolsError{MPI_T_ERR_INVALID};
    for (int i = 0; i < kNumCvars; ++i)
      if (std::strcmp(name, kCvars[i].name) == 0) {
        *cvar_index = i;
        return;
      }
    throw ToolsError{MPI_T_ERR_INVALID_NAME};
  });
}

int MPI_T_cvar_handle_alloc(int cvar_index, void*, MPI_T_cvar_handle* handle, int* count) {
  return tools_api("MPI_T_cvar_handle_alloc", [&](Rank& r) {
    if (cvar_index < 0 || cvar_index >= kNumCvars) throw ToolsError{MPI_T_ERR_INVALID_INDEX};
    if (!handle || !count) throw ToolsError{MPI_T_ERR_INVALID};
    r.tools.cvar_handles.push_back(cvar_index);
    *handle = static_cast<int>(r.tools.cvar_handles.size());
    *count = 1;
  });
}

int MPI_T_cvar_handle_free(MPI_T_cvar_handle* handle) {
  return tools_api("MPI_T_cvar_handle_free", [&](Rank& r) {
    if (!handle) throw ToolsError{MPI_T_ERR_INVALID_HANDLE};
    cvar_handle(r, *handle) = -1;
    *handle = MPI_T_CVAR_HANDLE_NULL;
  });
}

int MPI_T_cvar_read(MPI_T_cvar_handle handle, void* buf) {
  return tools_api("MPI_T_cvar_read", [&](Rank& r) {
    const int index = cvar_handle(r, handle);
    if (!buf) throw ToolsError{MPI_T_ERR_INVALID};
    kCvars[index].read(r.runtime().options(), buf);
  });
}

int MPI_T_cvar_write(MPI_T_cvar_handle handle, const void*) {
  return tools_api("MPI_T_cvar_write", [&](Rank& r) {
    cvar_handle(r, handle);
    throw ToolsError{MPI_T_ERR_CVAR_SET_NEVER};  // every one is the run's setting (MPI_T_SCOPE_CONSTANT)
  });
}

int MPI_T_pvar_get_num(int* num_pvar) {
  return tools_api("MPI_T_pvar_get_num", [&](Rank&) {
    if (!num_pvar) throw ToolsError{MPI_T_ERR_INVALID};
    *num_pvar = kNumPvars;
  });
}

int MPI_T_pvar_get_info(int pvar_index, char* name, int* name_len, int* verbosity, int* var_class,
                        MPI_Datatype* datatype, MPI_T_enum* enumtype, char* desc, int* desc_len, int* bind,
                        int* readonly, int* continuous, int* atomic) {
  return tools_api("MPI_T_pvar_get_info", [&](Rank&) {
    if (pvar_index < 0 || pvar_index >= kNumPvars) throw ToolsError{MPI_T_ERR_INVALID_INDEX};
    const Pvar& p = kPvars[pvar_index];
    give_string(p.name, name, name_len);
    give_string(p.desc, desc, desc_len);
    if (verbosity) *verbosity = MPI_T_VERBOSITY_USER_BASIC;
    if (var_class) *var_class = p.var_class;
    if (datatype) *datatype = MPI_UNSIGNED_LONG_LONG;
    if (enumtype) *enumtype = MPI_T_ENUM_NULL;
    if (bind) *bind = MPI_T_BIND_NO_OBJECT;
    if (readonly) *readonly = 1;
    if (continuous) *continuous = 0;
    if (atomic) *atomic = 0;
  });
}

int MPI_T_pvar_get_index(const char* name, int var_class, int* pvar_index) {
  return tools_api("MPI_T_pvar_get_index", [&](Rank&) {
    if (!name || !pvar_index) throw ToolsError{MPI_T_ERR_INVALID};
    for (int i = 0; i < kNumPvars; ++i)
      if (kPvars[i].var_class == var_class && std::strcmp(name, kPvars[i].name) == 0) {
        *pvar_index = i;
        return;
      }
    throw ToolsError{MPI_T_ERR_INVALID_NAME};
  });
}

int MPI_T_pvar_session_create(MPI_T_pvar_session* session) {
  return tools_api("MPI_T_pvar_session_create", [&](Rank& r) {
    if (!session) throw ToolsError{MPI_T_ERR_INVALID};
    r.tools.sessions.push_back(true);
    *session = static_cast<int>(r.tools.sessions.size());
  });
}

int MPI_T_pvar_session_free(MPI_T_pvar_session* session) {
  return tools_api("MPI_T_pvar_session_free", [&](Rank& r) {
    if (!session) throw ToolsError{MPI_T_ERR_INVALID_SESSION};
    check_session(r, *session);
    r.tools.sessions[*session - 1] = false;
    for (ToolsState::PvarHandle& h : r.tools.pvar_handles)  // its handles go with it
      if (h.session == *session) h.session = 0;
    *session = MPI_T_PVAR_SESSION_NULL;
  });
}

int MPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index, void*, MPI_T_pvar_handle* handle,
                            int* count) {
  return tools_api("MPI_T_pvar_handle_alloc", [&](Rank& r) {
    check_session(r, session);
    if (pvar_index < 0 || pvar_index >= kNumPvars) throw ToolsError{MPI_T_ERR_INVALID_INDEX};
    if (!handle || !count) throw ToolsError{MPI_T_ERR_INVALID};
    ToolsState::PvarHandle h;
    h.session = session;
    h.index = pvar_index;
    r.tools.pvar_handles.push_back(h);  // stopped, at 0 (MPI-3.1 14.3.7)
    *handle = static_cast<int>(r.tools.pvar_handles.size());
    *count = 1;
  });
}

int MPI_T_pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle* handle) {
  return tools_api("MPI_T_pvar_handle_free", [&](Rank& r) {
    if (!handle) throw ToolsError{MPI_T_ERR_INVALID_HANDLE};
    pvar_handle(r, session, *handle).session = 0;
    *handle = MPI_T_PVAR_HANDLE_NULL;
  });
}

int MPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
  return on_handles("MPI_T_pvar_start", session, handle, [](Rank& r, ToolsState::PvarHandle& h) {
    if (h.started) return;
    h.started = true;
    h.started_at = pvar_value(r, h.index);
  });
}

int MPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
  return on_handles("MPI_T_pvar_stop", session, handle, [](Rank& r, ToolsState::PvarHandle& h) {
    h.counted = pvar_read(r, h);
    h.started = false;
  });
}

int MPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
  return on_handles("MPI_T_pvar_reset", session, handle, [](Rank& r, ToolsState::PvarHandle& h) {
    h.counted = 0;
    h.started_at = pvar_value(r, h.index);
  });
}

int MPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void* buf) {
  return tools_api("MPI_T_pvar_read", [&](Rank& r) {
    if (handle == MPI_T_PVAR_ALL_HANDLES) throw ToolsError{MPI_T_ERR_INVALID_HANDLE};
    const ToolsState::PvarHandle& h = pvar_handle(r, session, handle);
    if (!buf) throw ToolsError{MPI_T_ERR_INVALID};
    *static_cast<unsigned long long*>(buf) = pvar_read(r, h);
  });
}

int MPI_T_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void* buf) {
  return tools_api("MPI_T_pvar_readreset", [&](Rank& r) {
    if (handle == MPI_T_PVAR_ALL_HANDLES) throw ToolsError{MPI_T_ERR_INVALID_HANDLE};
    ToolsState::PvarHandle& h = pvar_handle(r, session, handle);
    if (!buf) throw ToolsError{MPI_T_ERR_INVALID};
    *static_cast<unsigned long long*>(buf) = pvar_read(r, h);
    h.counted = 0;
    h.started_at = pvar_value(r, h.index);
  });
}

int MPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void*) {
  return tools_api("MPI_T_pvar_write", [&](Rank& r) {
    if (handle == MPI_T_PVAR_ALL_HANDLES) throw ToolsError{MPI_T_ERR_INVALID_HANDLE};
    pvar_handle(r, session, handle);
    throw ToolsError{MPI_T_ERR_PVAR_NO_WRITE};  // every one is read-only
  });
}

int MPI_T_category_get_num(int* num_cat) {
  return tools_api("MPI_T_category_get_num", [&](Rank&) {
    if (!num_cat) throw ToolsError{MPI_T_ERR_INVALID};
    *num_cat = 1;
  });
}

int MPI_T_category_get_info(int cat_index, char* name, int* name_len, char* desc, int* desc_len, int* num_cvars,
                            int* num_pvars, int* num_categories) {
  return tools_api("MPI_T_category_get_info", [&](Rank&) {
    if (cat_index != 0) throw ToolsError{MPI_T_ERR_INVALID_INDEX};
    give_string(kCategory, name, name_len);
    give_string(kCategoryDesc, desc, desc_len);
    if (num_cvars) *num_cvars = kNumCvars;
    if (num_pvars) *num_pvars = kNumPvars;
    if (num_categories) *num_categories = 0;
  });
}

int MPI_T_category_get_index(const char* name, int* cat_index) {
  return tools_api("MPI_T_category_get_index", [&](Rank&) {
    if (!name || !cat_index) throw ToolsError{MPI_T_ERR_INVALID};
    if (std::strcmp(name, kCategory) != 0) throw ToolsError{MPI_T_ERR_INVALID_NAME};
    *cat_index = 0;
  });
}

int MPI_T_category_get_cvars(int cat_index, int len, int indices[]) {
  return category_members("MPI_T_category_get_cvars", cat_index, len, indices, kNumCvars);
}

int MPI_T_category_get_pvars(int cat_index, int len, int indices[]) {
  return category_members("MPI_T_category_get_pvars", cat_index, len, indices, kNumPvars);
}

int MPI_T_category_get_categories(int cat_index, int len, int indices[]) {
  return category_members("MPI_T_category_get_categories", cat_index, len, indices, 0);
}

int MPI_T_category_changed(int* stamp) {
  return tools_api("MPI_T_category_changed", [&](Rank&) {
    if (!stamp) throw ToolsError{MPI_T_ERR_INVALID};
    *stamp = 0;  // the variables and categories never change during a run
  });
}

}  // extern "C"
