// SPDX-License-Identifier: Apache-2.0
// What the fuzz harnesses share: a reader over the fuzzer's bytes, the split of an input
// into command-line words, a scratch working directory, quiet standard streams and a
// check that aborts (which libFuzzer reports as a crash, with the input kept).
//
// Every harness defines LLVMFuzzerInitialize and LLVMFuzzerTestOneInput; the same source
// builds under libFuzzer with clang (fuzz/CMakeLists.txt, `make fuzz`) and under gcc with
// fuzz/replay_main.cpp (the `fuzz` ctest label), which replays fuzz/corpus/<harness> and
// fuzz/regressions/<harness>.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <streambuf>
#include <string>
#include <vector>

#include <unistd.h>

#define FUZZ_CHECK(cond)                                                                         \
  do {                                                                                           \
    if (!(cond)) {                                                                               \
      std::fprintf(stderr, "FUZZ_CHECK failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
      std::abort();                                                                              \
    }                                                                                            \
  } while (0)

namespace collnet::fuzz {

// The fuzzer's bytes, taken from the front; past the end every read gives zeros.
class Bytes {
 public:
  Bytes(const uint8_t* data, size_t size) : p_(data), n_(size) {}
  bool empty() const { return n_ == 0; }
  size_t left() const { return n_; }
  uint8_t u8() {
    if (n_ == 0) return 0;
    --n_;
    return *p_++;
  }
  uint16_t u16() { return static_cast<uint16_t>(u8() | u8() << 8); }
  uint32_t u32() { return static_cast<uint32_t>(u16()) | static_cast<uint32_t>(u16()) << 16; }
  uint64_t u64() { return static_cast<uint64_t>(u32()) | static_cast<uint64_t>(u32()) << 32; }
  bool flag() { return u8() & 1; }
  // 0 .. n-1 (n >= 1).
  unsigned below(unsigned n) { return n <= 256 ? u8() % n : u32() % n; }
  // Up to `max` bytes, length first.
  std::string str(size_t max) {
    size_t len = u8();
    if (len > max) len = max;
    if (len > n_) len = n_;
    std::string s(reinterpret_cast<const char*>(p_), len);
    p_ += len;
    n_ -= len;
    return s;
  }
  std::string rest() {
    std::string s(reinterpret_cast<const char*>(p_), n_);
    p_ += n_;
    n_ = 0;
    return s;
  }

 private:
  const uint8_t* p_;
  size_t n_;
};

// Words separated by newlines or NULs (a corpus file is one word per line); an empty line
// is an empty word, and a newline at the very end ends the last word.
inline std::vector<std::string> split_words(const uint8_t* data, size_t size) {
  std::vector<std::string> words(1);
  for (size_t i = 0; i < size; ++i) {
    const char c = static_cast<char>(data[i]);
    if (c == '\n' || c == '\0') {
      if (i + 1 < size) words.emplace_back();
    } else {
      words.back() += c;
    }
  }
  if (size == 0) words.clear();
  return words;
}

// A fresh empty directory as the working directory, so that file names in an input
// (without a '/', which the harnesses refuse) can only name what the harness put there
// (write_scratch_file). Removed at a normal exit.
struct Scratch {
  std::string dir;
  std::vector<std::string> files;
  static Scratch& get() {
    static Scratch s;
    return s;
  }
};

inline const std::string& enter_scratch_dir() {
  Scratch& s = Scratch::get();
  if (!s.dir.empty()) return s.dir;
  const char* tmp = std::getenv("TMPDIR");
  const std::string tmpl = std::string(tmp && *tmp ? tmp : "/tmp") + "/collnet-fuzz-XXXXXX";
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  if (!mkdtemp(buf.data()) || chdir(buf.data()) != 0) {
    std::perror("collnet fuzz: scratch directory");
    std::abort();
  }
  s.dir = buf.data();
  std::atexit([] {
    Scratch& x = Scratch::get();
    for (const std::string& f : x.files) unlink((x.dir + "/" + f).c_str());
    rmdir(x.dir.c_str());
  });
  return s.dir;
}

// The harness's own arguments (corpus directories, inputs to replay) made absolute, so
// that they still name the same files once enter_scratch_dir has changed directory:
// LLVMFuzzerInitialize runs before libFuzzer opens them. Flags (-x=...) stay as they are.
inline void absolute_arguments(int* argc, char*** argv) {
  if (!argc || !argv) return;
  for (int i = 1; i < *argc; ++i) {
    const char* a = (*argv)[i];
    if (a[0] == '-' || a[0] == '/') continue;
    if (char* r = realpath(a, nullptr)) (*argv)[i] = r;  // kept for the run
  }
}

// A file in the scratch directory (enter_scratch_dir first).
inline void write_scratch_file(const std::string& name, const std::string& text) {
  FILE* f = std::fopen(name.c_str(), "wb");
  if (!f) {
    std::perror(name.c_str());
    std::abort();
  }
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
  Scratch::get().files.push_back(name);
}

// std::cout and std::cerr to nowhere (the command line prints help and usage errors),
// unless COLLNET_FUZZ_VERBOSE is set. Sanitizer and FUZZ_CHECK reports go to fd 2 still.
inline void quiet() {
  if (std::getenv("COLLNET_FUZZ_VERBOSE")) return;
  struct Null : std::streambuf {
    int overflow(int c) override { return c; }
    std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
  };
  // Never destroyed: the streams are flushed at exit, after function-local statics are gone.
  static Null* const null = new Null;
  std::cout.rdbuf(null);
  std::cerr.rdbuf(null);
}

}  // namespace collnet::fuzz
