// SPDX-License-Identifier: Apache-2.0
// Runs a program with arguments and captures its exit status, standard output and error.
#pragma once

#include <fcntl.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace collnet::test {

struct CommandResult {
  int status = -1;  // exit status, or -1 if it did not exit normally
  std::string out, err;
};

inline std::string slurp(int fd) {
  std::string s;
  char buf[4096];
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) s.append(buf, static_cast<size_t>(n));
  return s;
}

// How the child runs: variables to set (NAME=VALUE) or unset (NAME alone) in its
// environment, and whether its standard error is a terminal (a pseudo-terminal whose
// output is CommandResult::err, with the terminal's CR-LF line ends) instead of a file.
struct CommandSetup {
  std::vector<std::string> env;
  bool terminal = false;
};

inline CommandResult run_command(const std::vector<std::string>& argv, const CommandSetup& setup = {}) {
  // Output goes to temporary files so neither pipe can fill and block the child.
  char out_name[] = "/tmp/collnet-test-out-XXXXXX";
  char err_name[] = "/tmp/collnet-test-err-XXXXXX";
  const int out_fd = mkstemp(out_name), err_fd = mkstemp(err_name);
  CommandResult r;
  int master = -1;
  const pid_t pid = setup.terminal ? forkpty(&master, nullptr, nullptr, nullptr) : fork();
  if (pid == 0) {
    dup2(out_fd, 1);
    if (!setup.terminal) dup2(err_fd, 2);
    for (const std::string& e : setup.env) {
      const size_t eq = e.find('=');
      if (eq == std::string::npos) unsetenv(e.c_str());
      else setenv(e.substr(0, eq).c_str(), e.substr(eq + 1).c_str(), 1);
    }
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  // A terminal's output is read as it comes (the child would block on a full one); the
  // read fails once the child has exited and closed its end.
  if (master >= 0) {
    r.err = slurp(master);
    close(master);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  lseek(out_fd, 0, SEEK_SET);
  lseek(err_fd, 0, SEEK_SET);
  r.out = slurp(out_fd);
  if (master < 0) r.err = slurp(err_fd);
  close(out_fd);
  close(err_fd);
  unlink(out_name);
  unlink(err_name);
  return r;
}

}  // namespace collnet::test
