// SPDX-License-Identifier: Apache-2.0
// mpi.h: attributes of the program's own on communicators, datatypes and windows: keyvals with copy
// and delete callbacks, values set, read and deleted. (The predefined attributes,
// MPI_TAG_UB and the others, are MPI_Comm_get_attr's in api_comm.cpp.)
#include <algorithm>
#include <string>

#include "mpi/api_support.hpp"
#include "mpi/attributes.hpp"
#include "mpi/window.hpp"

using namespace collnet::mpi;

namespace {

using Object = Rank::Object;

const char* object_name(Object o) {
  return o == Object::Comm ? "communicator" : o == Object::Type ? "datatype" : "window";
}

Rank::Keyval& keyval(Rank& r, int k, Object object, bool live = true) {
  const long i = static_cast<long>(k) - Rank::kFirstKeyval;
  if (i < 0 || static_cast<size_t>(i) >= r.keyvals.size() || r.keyvals[static_cast<size_t>(i)].object != object)
    fail(MPI_ERR_KEYVAL, "keyval " + std::to_string(k) + " is not a " + object_name(object) + " keyval of this rank");
  Rank::Keyval& kv = r.keyvals[static_cast<size_t>(i)];
  if (live && kv.freed) fail(MPI_ERR_KEYVAL, "keyval " + std::to_string(k) + " was freed");
  return kv;
}

int create(Rank& r, void* copy, void* del, void* extra, Object object) {
  r.keyvals.push_back(Rank::Keyval{copy, del, extra, object, false});
  return Rank::kFirstKeyval + static_cast<int>(r.keyvals.size() - 1);
}

void check_rc(int rc, const char* which, int k) {
  if (rc != MPI_SUCCESS)
    fail(MPI_ERR_OTHER, std::string("the ") + which + " callback of keyval " + std::to_string(k) + " returned " +
                            std::to_string(rc));
}

// The delete callback of keyval k on `value` of object `obj`.
template <class Handle, class DeleteFn>
void run_delete(Rank& r, Handle obj, int k, void* value, Object object) {
  Rank::Keyval& kv = keyval(r, k, object, false);
  if (kv.del) check_rc(reinterpret_cast<DeleteFn*>(kv.del)(obj, k, value, kv.extra), "delete", k);
}

// Copies `from`'s attributes into `to` through their copy callbacks.
template <class Handle, class CopyFn>
std::map<int, void*> copied(Rank& r, Handle from, const std::map<int, void*>& attributes, Object object) {
  std::map<int, void*> out;
  for (const auto& [k, value] : attributes) {
    Rank::Keyval& kv = keyval(r, k, object, false);
    if (!kv.copy) continue;
    void* result = nullptr;
    int flag = 0;
    check_rc(reinterpret_cast<CopyFn*>(kv.copy)(from, k, kv.extra, value, &result, &flag), "copy", k);
    if (flag) out[k] = result;
  }
  return out;
}

}  // namespace

void collnet::mpi::copy_comm_attributes(Rank& r, MPI_Comm from, MPI_Comm to) {
  const std::map<int, void*> attrs = r.comm(from).attributes;
  std::map<int, void*> out = copied<MPI_Comm, MPI_Comm_copy_attr_function>(r, from, attrs, Object::Comm);
  std::vector<int> order;
  for (int k : r.comm(from).attribute_order)
    if (out.count(k)) order.push_back(k);
  r.comm(to).attributes = std::move(out);
  r.comm(to).attribute_order = std::move(order);
}

void collnet::mpi::delete_comm_attributes(Rank& r, MPI_Comm comm) {
  // The last set first (MPI-3.1 8.7.1 asks it of MPI_COMM_SELF's at MPI_Finalize).
  const std::vector<int> order = r.comm(comm).attribute_order;
  for (auto k = order.rbegin(); k != order.rend(); ++k) {
    auto& attrs = r.comm(comm).attributes;
    auto it = attrs.find(*k);
    if (it == attrs.end()) continue;  // a delete callback deleted it
    void* value = it->second;
    attrs.erase(it);
    run_delete<MPI_Comm, MPI_Comm_delete_attr_function>(r, comm, *k, value, Object::Comm);
  }
  r.comm(comm).attributes.clear();
  r.comm(comm).attribute_order.clear();
}

void collnet::mpi::copy_type_attributes(Rank& r, MPI_Datatype from, MPI_Datatype to) {
  auto it = r.type_attributes.find(from);
  if (it == r.type_attributes.end()) return;
  const std::map<int, void*> attrs = it->second;
  r.type_attributes[to] = copied<MPI_Datatype, MPI_Type_copy_attr_function>(r, from, attrs, Object::Type);
}

void collnet::mpi::delete_type_attributes(Rank& r, MPI_Datatype type) {
  auto it = r.type_attributes.find(type);
  if (it == r.type_attributes.end()) return;
  const std::map<int, void*> attrs = it->second;
  for (const auto& [k, value] : attrs)
    run_delete<MPI_Datatype, MPI_Type_delete_attr_function>(r, type, k, value, Object::Type);
  r.type_attributes.erase(type);
}

void collnet::mpi::delete_win_attributes(Rank& r, MPI_Win win) {
  const std::map<int, void*> attrs = window(r, win).attributes;
  for (const auto& [k, value] : attrs)
    run_delete<MPI_Win, MPI_Win_delete_attr_function>(r, win, k, value, Object::Win);
  window(r, win).attributes.clear();
}

extern "C" {

// The predefined callbacks.
int MPI_Collnet_comm_null_copy_fn(MPI_Comm, int, void*, void*, void*, int* flag) {
  *flag = 0;
  return MPI_SUCCESS;
}
int MPI_Collnet_comm_dup_fn(MPI_Comm, int, void*, void* in, void* out, int* flag) {
  *static_cast<void**>(out) = in;
  *flag = 1;
  return MPI_SUCCESS;
}
int MPI_Collnet_comm_null_delete_fn(MPI_Comm, int, void*, void*) { return MPI_SUCCESS; }
int MPI_Collnet_type_null_copy_fn(MPI_Datatype, int, void*, void*, void*, int* flag) {
  *flag = 0;
  return MPI_SUCCESS;
}
int MPI_Collnet_type_dup_fn(MPI_Datatype, int, void*, void* in, void* out, int* flag) {
  *static_cast<void**>(out) = in;
  *flag = 1;
  return MPI_SUCCESS;
}
int MPI_Collnet_type_null_delete_fn(MPI_Datatype, int, void*, void*) { return MPI_SUCCESS; }

int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function* copy, MPI_Comm_delete_attr_function* del, int* comm_keyval,
                           void* extra_state) {
  return api("MPI_Comm_create_keyval", MPI_COMM_WORLD, [&](Rank& r) {
    *comm_keyval = create(r, reinterpret_cast<void*>(copy), reinterpret_cast<void*>(del), extra_state, Object::Comm);
  });
}

int MPI_Comm_free_keyval(int* comm_keyval) {
  return api("MPI_Comm_free_keyval", MPI_COMM_WORLD, [&](Rank& r) {
    keyval(r, *comm_keyval, Object::Comm).freed = true;
    *comm_keyval = MPI_KEYVAL_INVALID;
  });
}

int MPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void* attribute_val) {
  return api("MPI_Comm_set_attr", comm, [&](Rank& r) {
    keyval(r, comm_keyval, Object::Comm);
    auto& attrs = r.comm(comm).attributes;
    auto it = attrs.find(comm_keyval);
    if (it != attrs.end())
      run_delete<MPI_Comm, MPI_Comm_delete_attr_function>(r, comm, comm_keyval, it->second, Object::Comm);
    else
      r.comm(comm).attribute_order.push_back(comm_keyval);
    r.comm(comm).attributes[comm_keyval] = attribute_val;
  });
}

int MPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval) {
  return api("MPI_Comm_delete_attr", comm, [&](Rank& r) {
    keyval(r, comm_keyval, Object::Comm, false);
    auto& attrs = r.comm(comm).attributes;
    auto it = attrs.find(comm_keyval);
    if (it == attrs.end()) fail(MPI_ERR_KEYVAL, "the communicator has no attribute of keyval " + std::to_string(comm_keyval));
    void* value = it->second;
    run_delete<MPI_Comm, MPI_Comm_delete_attr_function>(r, comm, comm_keyval, value, Object::Comm);
    r.comm(comm).attributes.erase(comm_keyval);
    std::vector<int>& order = r.comm(comm).attribute_order;
    order.erase(std::remove(order.begin(), order.end(), comm_keyval), order.end());
  });
}

int MPI_Type_create_keyval(MPI_Type_copy_attr_function* copy, MPI_Type_delete_attr_function* del, int* type_keyval,
                           void* extra_state) {
  return api("MPI_Type_create_keyval", MPI_COMM_WORLD, [&](Rank& r) {
    *type_keyval = create(r, reinterpret_cast<void*>(copy), reinterpret_cast<void*>(del), extra_state, Object::Type);
  });
}

int MPI_Type_free_keyval(int* type_keyval) {
  return api("MPI_Type_free_keyval", MPI_COMM_WORLD, [&](Rank& r) {
    keyval(r, *type_keyval, Object::Type).freed = true;
    *type_keyval = MPI_KEYVAL_INVALID;
  });
}

int MPI_Type_set_attr(MPI_Datatype datatype, int type_keyval, void* attribute_val) {
  return api("MPI_Type_set_attr", MPI_COMM_WORLD, [&](Rank& r) {
    r.any_type(datatype);
    keyval(r, type_keyval, Object::Type);
    auto& attrs = r.type_attributes[datatype];
    auto it = attrs.find(type_keyval);
    if (it != attrs.end())
      run_delete<MPI_Datatype, MPI_Type_delete_attr_function>(r, datatype, type_keyval, it->second, Object::Type);
    r.type_attributes[datatype][type_keyval] = attribute_val;
  });
}

int MPI_Type_get_attr(MPI_Datatype datatype, int type_keyval, void* attribute_val, int* flag) {
  return api("MPI_Type_get_attr", MPI_COMM_WORLD, [&](Rank& r) {
    r.any_type(datatype);
    keyval(r, type_keyval, Object::Type, false);
    *flag = 0;
    auto t = r.type_attributes.find(datatype);
    if (t == r.type_attributes.end()) return;
    auto it = t->second.find(type_keyval);
    if (it == t->second.end()) return;
    *flag = 1;
    *static_cast<void**>(attribute_val) = it->second;
  });
}

int MPI_Type_delete_attr(MPI_Datatype datatype, int type_keyval) {
  return api("MPI_Type_delete_attr", MPI_COMM_WORLD, [&](Rank& r) {
    r.any_type(datatype);
    keyval(r, type_keyval, Object::Type, false);
    auto t = r.type_attributes.find(datatype);
    if (t == r.type_attributes.end() || !t->second.count(type_keyval))
      fail(MPI_ERR_KEYVAL, "the datatype has no attribute of keyval " + std::to_string(type_keyval));
    void* value = t->second[type_keyval];
    run_delete<MPI_Datatype, MPI_Type_delete_attr_function>(r, datatype, type_keyval, value, Object::Type);
    r.type_attributes[datatype].erase(type_keyval);
  });
}

int MPI_Collnet_win_null_copy_fn(MPI_Win, int, void*, void*, void*, int* flag) {
  *flag = 0;
  return MPI_SUCCESS;
}
int MPI_Collnet_win_dup_fn(MPI_Win, int, void*, void* in, void* out, int* flag) {
  *static_cast<void**>(out) = in;
  *flag = 1;
  return MPI_SUCCESS;
}
int MPI_Collnet_win_null_delete_fn(MPI_Win, int, void*, void*) { return MPI_SUCCESS; }

int MPI_Win_create_keyval(MPI_Win_copy_attr_function* copy, MPI_Win_delete_attr_function* del, int* win_keyval,
                          void* extra_state) {
  return api("MPI_Win_create_keyval", MPI_COMM_WORLD, [&](Rank& r) {
    *win_keyval = create(r, reinterpret_cast<void*>(copy), reinterpret_cast<void*>(del), extra_state, Object::Win);
  });
}

int MPI_Win_free_keyval(int* win_keyval) {
  return api("MPI_Win_free_keyval", MPI_COMM_WORLD, [&](Rank& r) {
    keyval(r, *win_keyval, Object::Win).freed = true;
    *win_keyval = MPI_KEYVAL_INVALID;
  });
}

int MPI_Win_set_attr(MPI_Win win, int win_keyval, void* attribute_val) {
  return api("MPI_Win_set_attr", MPI_COMM_WORLD, [&](Rank& r) {
    auto& attrs = window(r, win).attributes;
    keyval(r, win_keyval, Object::Win);
    auto it = attrs.find(win_keyval);
    if (it != attrs.end())
      run_delete<MPI_Win, MPI_Win_delete_attr_function>(r, win, win_keyval, it->second, Object::Win);
    window(r, win).attributes[win_keyval] = attribute_val;
  });
}

int MPI_Win_get_attr(MPI_Win win, int win_keyval, void* attribute_val, int* flag) {
  return api("MPI_Win_get_attr", MPI_COMM_WORLD, [&](Rank& r) {
    WinEntry& w = window(r, win);
    *flag = 1;
    void* value = nullptr;
    switch (win_keyval) {  // the predefined ones: pointers to the values, but MPI_WIN_BASE the base itself
      case MPI_WIN_BASE: value = w.attr_base; break;
      case MPI_WIN_SIZE: value = &w.attr_size; break;
      case MPI_WIN_DISP_UNIT: value = &w.attr_disp_unit; break;
      case MPI_WIN_CREATE_FLAVOR: value = &w.attr_flavor; break;
      case MPI_WIN_MODEL: value = &w.attr_model; break;
      default: {
        keyval(r, win_keyval, Object::Win, false);
        auto it = w.attributes.find(win_keyval);
        if (it == w.attributes.end()) {
          *flag = 0;
          return;
        }
        value = it->second;
      }
    }
    *static_cast<void**>(attribute_val) = value;
  });
}

int MPI_Win_delete_attr(MPI_Win win, int win_keyval) {
  return api("MPI_Win_delete_attr", MPI_COMM_WORLD, [&](Rank& r) {
    keyval(r, win_keyval, Object::Win, false);
    auto& attrs = window(r, win).attributes;
    auto it = attrs.find(win_keyval);
    if (it == attrs.end()) fail(MPI_ERR_KEYVAL, "the window has no attribute of keyval " + std::to_string(win_keyval));
    void* value = it->second;
    run_delete<MPI_Win, MPI_Win_delete_attr_function>(r, win, win_keyval, value, Object::Win);
    window(r, win).attributes.erase(win_keyval);
  });
}

// MPI-1's names (deprecated in MPI-2, still in MPI-3.1): the communicator functions.
int MPI_Keyval_create(MPI_Copy_function* copy_fn, MPI_Delete_function* delete_fn, int* keyval, void* extra_state) {
  return MPI_Comm_create_keyval(copy_fn, delete_fn, keyval, extra_state);
}
int MPI_Keyval_free(int* keyval) { return MPI_Comm_free_keyval(keyval); }
int MPI_Attr_put(MPI_Comm comm, int keyval, void* attribute_val) { return MPI_Comm_set_attr(comm, keyval, attribute_val); }
int MPI_Attr_get(MPI_Comm comm, int keyval, void* attribute_val, int* flag) {
  return MPI_Comm_get_attr(comm, keyval, attribute_val, flag);
}
int MPI_Attr_delete(MPI_Comm comm, int keyval) { return MPI_Comm_delete_attr(comm, keyval); }

}  // extern "C"
