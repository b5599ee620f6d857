// Runs a program with arguments and captures its exit status, standard output and error.
#pragma once

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

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

inline CommandResult run_command(const std::vector<std::string>& argv) {
  // Output goes to temporary files so neither pipe can fill and block the child.
  char out_name[] = "/tmp/collnet-test-out-XXXXXX";
  char err_name[] = "/tmp/collnet-test-err-XXXXXX";
  const int out_fd = mkstemp(out_name), err_fd = mkstemp(err_name);
  CommandResult r;
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(out_fd, 1);
    dup2(err_fd, 2);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  lseek(out_fd, 0, SEEK_SET);
  lseek(err_fd, 0, SEEK_SET);
  r.out = slurp(out_fd);
  r.err = slurp(err_fd);
  close(out_fd);
  close(err_fd);
  unlink(out_name);
  unlink(err_name);
  return r;
}

}  // namespace collnet::test
