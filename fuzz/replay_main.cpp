// SPDX-License-Identifier: Apache-2.0
// A main() for a fuzz harness without libFuzzer: runs every file named on the command line
// (directories: every file in them, in name order) through LLVMFuzzerTestOneInput once.
// The `fuzz` tests (tests/CMakeLists.txt) build each harness with it, with the project's
// compiler, and replay fuzz/corpus/<harness> and fuzz/regressions/<harness>, so every
// input that once crashed stays tested without clang. A directory that does not exist is
// skipped (a harness may have no regressions); no input at all is a failure.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <dirent.h>
#include <sys/stat.h>

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv);
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

std::string absolute(const std::string& p) {
  char* r = realpath(p.c_str(), nullptr);
  if (!r) return "";
  std::string s(r);
  std::free(r);
  return s;
}

void collect(const std::string& path, std::vector<std::string>& out) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return;
  if (S_ISREG(st.st_mode)) {
    out.push_back(path);
    return;
  }
  if (!S_ISDIR(st.st_mode)) return;
  DIR* d = opendir(path.c_str());
  if (!d) return;
  std::vector<std::string> names;
  while (const dirent* e = readdir(d))
    if (e->d_name[0] != '.') names.push_back(e->d_name);
  closedir(d);
  std::sort(names.begin(), names.end());
  for (const std::string& n : names) collect(path + "/" + n, out);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string a = absolute(argv[i]);  // before the harness changes directory
    if (a.empty()) {
      std::fprintf(stderr, "replay: %s does not exist, skipped\n", argv[i]);
      continue;
    }
    collect(a, files);
  }
  if (files.empty()) {
    std::fprintf(stderr, "replay: no input to replay\n");
    return 1;
  }
  LLVMFuzzerInitialize(&argc, &argv);
  for (const std::string& f : files) {
    std::ifstream in(f, std::ios::binary);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (std::getenv("COLLNET_FUZZ_VERBOSE")) std::fprintf(stderr, "replay: %s\n", f.c_str());
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  }
  std::fprintf(stderr, "replay: %zu inputs, none failed\n", files.size());
  return 0;
}
