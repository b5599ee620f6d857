// SPDX-License-Identifier: Apache-2.0
// mpi.h: info objects (MPI_Info_*), the hints a program passes to calls that take one.
// collnet keeps them as the standard says and acts on none.
#include <algorithm>
#include <cstring>
#include <string>

#include "mpi/api_support.hpp"

using namespace collnet::mpi;

namespace {

// The key, checked: MPI_ERR_INFO_KEY if empty or longer than MPI_MAX_INFO_KEY.
std::string info_key(const char* key) {
  if (!key) fail(MPI_ERR_INFO_KEY, "key is null");
  const size_t n = std::strlen(key);
  if (n == 0) fail(MPI_ERR_INFO_KEY, "key is empty");
  if (n > MPI_MAX_INFO_KEY)
    fail(MPI_ERR_INFO_KEY, "key of " + std::to_string(n) + " characters is longer than MPI_MAX_INFO_KEY (" +
                               std::to_string(MPI_MAX_INFO_KEY) + ")");
  return key;
}

Rank::Info::iterator find(Rank::Info& info, const std::string& key) {
  return std::find_if(info.begin(), info.end(), [&](const auto& kv) { return kv.first == key; });
}

}  // namespace

extern "C" {

int MPI_Info_create(MPI_Info* info) {
  return api("MPI_Info_create", MPI_COMM_WORLD, [&](Rank& r) { *info = r.add_info({}); });
}

int MPI_Info_set(MPI_Info info, const char* key, const char* value) {
  return api("MPI_Info_set", MPI_COMM_WORLD, [&](Rank& r) {
    Rank::Info& i = r.info(info);
    if (info == MPI_INFO_ENV) fail(MPI_ERR_INFO, "MPI_INFO_ENV is predefined and cannot be changed");
    const std::string k = info_key(key);
    if (!value) fail(MPI_ERR_INFO_VALUE, "value of key \"" + k + "\" is null");
    const size_t n = std::strlen(value);
    if (n > MPI_MAX_INFO_VAL)
      fail(MPI_ERR_INFO_VALUE, "value of key \"" + k + "\" (" + std::to_string(n) +
                                   " characters) is longer than MPI_MAX_INFO_VAL (" + std::to_string(MPI_MAX_INFO_VAL) +
                                   ")");
    auto it = find(i, k);
    if (it != i.end())
      it->second = value;
    else
      i.emplace_back(k, value);
  });
}

int MPI_Info_get(MPI_Info info, const char* key, int valuelen, char* value, int* flag) {
  return api("MPI_Info_get", MPI_COMM_WORLD, [&](Rank& r) {
    Rank::Info& i = r.info(info);
    const std::string k = info_key(key);
    if (valuelen < 0) fail(MPI_ERR_ARG, "valuelen " + std::to_string(valuelen) + " is negative");
    auto it = find(i, k);
    *flag = it != i.end();
    if (!*flag) return;
    // At most valuelen characters and the terminating null (value holds valuelen + 1).
    const size_t n = std::min(it->second.size(), static_cast<size_t>(valuelen));
    std::memcpy(value, it->second.data(), n);
    value[n] = '\0';
  });
}

int MPI_Info_get_valuelen(MPI_Info info, const char* key, int* valuelen, int* flag) {
  return api("MPI_Info_get_valuelen", MPI_COMM_WORLD, [&](Rank& r) {
    Rank::Info& i = r.info(info);
    auto it = find(i, info_key(key));
    *flag = it != i.end();
    if (*flag) *valuelen = static_cast<int>(it->second.size());
  });
}

int MPI_Info_get_nkeys(MPI_Info info, int* nkeys) {
  return api("MPI_Info_get_nkeys", MPI_COMM_WORLD,
             [&](Rank& r) { *nkeys = static_cast<int>(r.info(info).size()); });
}

int MPI_Info_get_nthkey(MPI_Info info, int n, char* key) {
  return api("MPI_Info_get_nthkey", MPI_COMM_WORLD, [&](Rank& r) {
    Rank::Info& i = r.info(info);
    if (n < 0 || static_cast<size_t>(n) >= i.size())
      fail(MPI_ERR_ARG, "n " + std::to_string(n) + " is not the number of a key (the info has " +
                            std::to_string(i.size()) + ")");
    std::strcpy(key, i[static_cast<size_t>(n)].first.c_str());
  });
}

int MPI_Info_delete(MPI_Info info, const char* key) {
  return api("MPI_Info_delete", MPI_COMM_WORLD, [&](Rank& r) {
    Rank::Info& i = r.info(info);
    if (info == MPI_INFO_ENV) fail(MPI_ERR_INFO, "MPI_INFO_ENV is predefined and cannot be changed");
    const std::string k = info_key(key);
    auto it = find(i, k);
    if (it == i.end()) fail(MPI_ERR_INFO_NOKEY, "key \"" + k + "\" is not in the info");
    i.erase(it);
  });
}

int MPI_Info_dup(MPI_Info info, MPI_Info* newinfo) {
  return api("MPI_Info_dup", MPI_COMM_WORLD, [&](Rank& r) {
    Rank::Info copy = r.info(info);
    *newinfo = r.add_info(std::move(copy));
  });
}

int MPI_Info_free(MPI_Info* info) {
  return api("MPI_Info_free", MPI_COMM_WORLD, [&](Rank& r) { r.free_info(*info); });
}

}  // extern "C"
