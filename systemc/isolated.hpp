// SPDX-License-Identifier: Apache-2.0
// Runs a function in a forked child process and returns what it reported. SystemC cannot
// build a second simulation in one process, so whatever runs several machines (the tests,
// `collnet compare`) runs each one here.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <exception>
#include <functional>
#include <string>

namespace collnet::sim {

struct Isolated {
  bool exited = false;  // the child ran to completion (it did not crash or get killed)
  std::string report;   // what the function returned, or the exception it threw
};

inline Isolated run_isolated(const std::function<std::string()>& fn) {
  int fds[2];
  if (pipe(fds) != 0) return {false, "pipe failed"};
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid < 0) return {false, "fork failed"};
  if (pid == 0) {
    close(fds[0]);
    std::string out;
    try {
      out = fn();
    } catch (const std::exception& e) {
      out = std::string("exception: ") + e.what();
    }
    for (size_t off = 0; off < out.size();) {
      const ssize_t n = write(fds[1], out.data() + off, out.size() - off);
      if (n <= 0) break;
      off += static_cast<size_t>(n);
    }
    close(fds[1]);
    std::fflush(stdout);
    _exit(0);
  }
  close(fds[1]);
  std::string report;
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) report.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  Isolated r;
  r.exited = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  r.report = r.exited ? report : "child process died (status " + std::to_string(status) + ")";
  return r;
}

}  // namespace collnet::sim
