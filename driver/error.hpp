// SPDX-License-Identifier: Apache-2.0
// The error every misuse of the collectives library raises: the message names the call
// and the argument that was wrong.
#pragma once

#include <stdexcept>
#include <string>

namespace collnet {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

// A receive whose message was longer than its buffer (MPI_ERR_TRUNCATE).
class TruncatedError : public Error {
 public:
  using Error::Error;
  // With the message's sender (a task of the job) and tag, which its status still names.
  TruncatedError(const std::string& what, unsigned source, unsigned tag)
      : Error(what), source(source), tag(tag), has_envelope(true) {}
  unsigned source = 0, tag = 0;
  bool has_envelope = false;
};

}  // namespace collnet
