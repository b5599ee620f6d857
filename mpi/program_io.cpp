// SPDX-License-Identifier: Apache-2.0
// What a program's calls to exit() and to the C library's output functions become under
// collnet mpirun. collnet-mpicc links programs with --wrap for these names, so that
// exit() ends the rank (not the simulator), a rank's stdout is its own line-buffered
// stream (as a process's terminal is under Open MPI: ranks' lines never mix within a
// line), and, with --tag-output, every line a rank writes to stdout or stderr is prefixed
// with its rank. The C++ streams take the same way while the ranks run (RankStreams).
#include <cstdarg>
#include <cstdio>
#include <string>

#include "mpi/runtime.hpp"

using collnet::mpi::Rank;
using collnet::mpi::Runtime;

namespace {

int stream_of(FILE* f) { return f == stdout ? 1 : f == stderr ? 2 : 0; }

// The rank whose stream `f` is, or null when the output goes straight out (another file,
// or stderr in a run that does not tag: unbuffered, as a process's stderr is).
Rank* rank_stream(FILE* f) {
  Rank* r = Runtime::current_or_null();
  const int stream = stream_of(f);
  if (!r || stream == 0 || (stream == 2 && !r->runtime().options().tag_output)) return nullptr;
  return r;
}

int out_v(FILE* f, const char* fmt, va_list ap) {
  Rank* r = rank_stream(f);
  if (!r) return vfprintf(f, fmt, ap);
  va_list copy;
  va_copy(copy, ap);
  const int n = vsnprintf(nullptr, 0, fmt, copy);
  va_end(copy);
  if (n < 0) return n;
  std::string s(static_cast<size_t>(n) + 1, '\0');
  vsnprintf(s.data(), s.size(), fmt, ap);
  r->runtime().write_output(*r, stream_of(f), s.data(), static_cast<size_t>(n));
  return n;
}

int out(FILE* f, const char* data, size_t n) {
  Rank* r = rank_stream(f);
  if (!r) return static_cast<int>(fwrite(data, 1, n, f));
  r->runtime().write_output(*r, stream_of(f), data, n);
  return static_cast<int>(n);
}

}  // namespace

extern "C" {

[[noreturn]] void __wrap_exit(int status) {
  if (!Runtime::current_or_null()) exit(status);
  throw collnet::mpi::RankExit(status, false);
}

int __wrap_printf(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const int n = out_v(stdout, fmt, ap);
  va_end(ap);
  return n;
}

int __wrap_fprintf(FILE* f, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const int n = out_v(f, fmt, ap);
  va_end(ap);
  return n;
}

int __wrap_vprintf(const char* fmt, va_list ap) { return out_v(stdout, fmt, ap); }
int __wrap_vfprintf(FILE* f, const char* fmt, va_list ap) { return out_v(f, fmt, ap); }

int __wrap_puts(const char* s) {
  const std::string line = std::string(s) + "\n";
  return out(stdout, line.data(), line.size()) < 0 ? EOF : 1;
}

int __wrap_fputs(const char* s, FILE* f) { return out(f, s, std::char_traits<char>::length(s)) < 0 ? EOF : 1; }

int __wrap_putchar(int c) {
  const char ch = static_cast<char>(c);
  out(stdout, &ch, 1);
  return static_cast<unsigned char>(c);
}

int __wrap_fputc(int c, FILE* f) {
  const char ch = static_cast<char>(c);
  out(f, &ch, 1);
  return static_cast<unsigned char>(c);
}

int __wrap_putc(int c, FILE* f) { return __wrap_fputc(c, f); }

size_t __wrap_fwrite(const void* p, size_t size, size_t n, FILE* f) {
  if (!rank_stream(f)) return fwrite(p, size, n, f);
  out(f, static_cast<const char*>(p), size * n);
  return n;
}

int __wrap_fflush(FILE* f) {
  // fflush(NULL) flushes every stream; a rank's partial line is one of them.
  if (Rank* r = rank_stream(f ? f : stdout)) r->runtime().flush_partial(*r);
  return fflush(f);
}

}  // extern "C"
