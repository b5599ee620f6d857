// SPDX-License-Identifier: Apache-2.0
// The state each rank owns (mpi/rank/), against the C library it stands in for: the same
// getopt results for random command lines and option strings, and the same random numbers
// for the same seeds. The library's files are compiled here with their names prefixed
// (collnet_getopt, collnet_optind, ...: tests/CMakeLists.txt), so both run in one process.
#include <getopt.h>
#include <stdlib.h>

#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

extern "C" {
extern char* collnet_optarg;
extern int collnet_optind, collnet_opterr, collnet_optopt;
int collnet_getopt(int, char* const*, const char*);
int collnet_getopt_long(int, char* const*, const char*, const struct option*, int*);
int collnet_getopt_long_only(int, char* const*, const char*, const struct option*, int*);
int collnet_rand(void);
void collnet_srand(unsigned);
long collnet_random(void);
void collnet_srandom(unsigned);
char* collnet_initstate(unsigned, char*, size_t);
double collnet_drand48(void);
long collnet_lrand48(void);
long collnet_mrand48(void);
void collnet_srand48(long);
double collnet_erand48(unsigned short[3]);
unsigned short* collnet_seed48(unsigned short[3]);
}

namespace {

const struct option kLongOptions[] = {{"alpha", no_argument, nullptr, 'a'},
                                      {"alpine", required_argument, nullptr, 'p'},
                                      {"beta", required_argument, nullptr, 'b'},
                                      {"gamma", optional_argument, nullptr, 'g'},
                                      {"flag", no_argument, nullptr, 'f'},
                                      {"flagged", no_argument, nullptr, 'f'},
                                      {nullptr, 0, nullptr, 0}};

// One parse: what each call returned and left in the globals, and argv at the end.
std::string parse(bool ours, int mode, const char* optstring, std::vector<std::string> args) {
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const int argc = static_cast<int>(args.size());
  std::string out;
  if (ours) {
    collnet_optind = 0;
    collnet_opterr = 0;
  } else {
    optind = 0;
    opterr = 0;
  }
  for (int step = 0; step < 64; ++step) {
    int index = -1, c;
    if (ours)
      c = mode == 0   ? collnet_getopt(argc, argv.data(), optstring)
          : mode == 1 ? collnet_getopt_long(argc, argv.data(), optstring, kLongOptions, &index)
                      : collnet_getopt_long_only(argc, argv.data(), optstring, kLongOptions, &index);
    else
      c = mode == 0   ? getopt(argc, argv.data(), optstring)
          : mode == 1 ? getopt_long(argc, argv.data(), optstring, kLongOptions, &index)
                      : getopt_long_only(argc, argv.data(), optstring, kLongOptions, &index);
    const char* arg = ours ? collnet_optarg : optarg;
    char line[256];
    std::snprintf(line, sizeof line, "[%d optarg=%s optind=%d optopt=%d index=%d] ", c, arg ? arg : "null",
                  ours ? collnet_optind : optind, ours ? collnet_optopt : optopt, index);
    out += line;
    if (c == -1) break;
  }
  out += "argv:";
  for (int i = 0; i < argc; ++i) out += std::string(" ") + argv[i];
  return out;
}

TEST(RankState, GetoptParsesRandomCommandLinesAsTheCLibraryDoes) {
  const unsigned seed = std::random_device{}();
  std::printf("seed %u\n", seed);
  std::mt19937 rng(seed);
  const std::vector<std::string> tokens = {
      "-a",      "-b",      "-bx",   "-ab",     "-ba",    "-c",         "-cz",    "-x",     "-",     "--",
      "file",    "other",   "--al",  "--alpha", "--alp",  "--alpine=3", "--beta", "--beta=", "--bet=7", "--gamma",
      "--gamma=", "--gam=v", "--fla", "--flag",  "--flagged", "--nope", "-alpha", "-beta", "-W",    "alpha",
      "-Walpha", "-q",     "value", "--alpha=1", "-:",     "-g"};
  const std::vector<const char*> optstrings = {"ab:c::",  "+ab:c::", "-ab:c::", ":ab:c::", "ab:c::W;",
                                               "+:ab:W;", "abg:",    "-:b:",    "a"};
  for (int round = 0; round < 4000; ++round) {
    std::vector<std::string> args = {"prog"};
    const int n = static_cast<int>(rng() % 8);
    for (int i = 0; i < n; ++i) args.push_back(tokens[rng() % tokens.size()]);
    const char* optstring = optstrings[rng() % optstrings.size()];
    const int mode = static_cast<int>(rng() % 3);
    const std::string theirs = parse(false, mode, optstring, args);
    const std::string ours = parse(true, mode, optstring, args);
    std::string cmd;
    for (const std::string& a : args) cmd += " " + a;
    ASSERT_EQ(ours, theirs) << "mode " << mode << ", option string \"" << optstring << "\", command line" << cmd
                            << " (seed " << seed << ")";
  }
}

TEST(RankState, PosixlyCorrectStopsAtTheFirstOperand) {
  setenv("POSIXLY_CORRECT", "1", 1);
  const std::string theirs = parse(false, 1, "ab:", {"prog", "-a", "file", "-b", "x"});
  const std::string ours = parse(true, 1, "ab:", {"prog", "-a", "file", "-b", "x"});
  unsetenv("POSIXLY_CORRECT");
  EXPECT_EQ(ours, theirs);
  EXPECT_NE(ours.find("argv: prog -a file -b x"), std::string::npos) << ours;
}

TEST(RankState, RandomNumbersAreTheCLibrarysForTheSameSeed) {
  // Unseeded, both start as if seeded with 1.
  for (int i = 0; i < 5; ++i) EXPECT_EQ(collnet_rand(), rand());
  for (unsigned seed : {0u, 1u, 7u, 123456789u, 4294967295u}) {
    collnet_srand(seed);
    srand(seed);
    for (int i = 0; i < 50; ++i) ASSERT_EQ(collnet_rand(), rand()) << "seed " << seed;
    collnet_srandom(seed + 3);
    srandom(seed + 3);
    for (int i = 0; i < 50; ++i) ASSERT_EQ(collnet_random(), random()) << "seed " << seed;
  }
  // Other state sizes.
  for (size_t size : {8u, 32u, 64u, 128u, 256u}) {
    static char ours[256], theirs[256];
    char* old_ours = collnet_initstate(11, ours, size);
    char* old_theirs = initstate(11, theirs, size);
    for (int i = 0; i < 50; ++i) ASSERT_EQ(collnet_random(), random()) << "state of " << size << " bytes";
    collnet_initstate(1, old_ours, 128);
    initstate(1, old_theirs, 128);
  }
  for (long seed : {0L, 42L, -5L, 1L << 40}) {
    collnet_srand48(seed);
    srand48(seed);
    for (int i = 0; i < 20; ++i) {
      ASSERT_EQ(collnet_drand48(), drand48());
      ASSERT_EQ(collnet_lrand48(), lrand48());
      ASSERT_EQ(collnet_mrand48(), mrand48());
    }
  }
  unsigned short a[3] = {1, 2, 3}, b[3] = {1, 2, 3};
  for (int i = 0; i < 20; ++i) ASSERT_EQ(collnet_erand48(a), erand48(b));
  unsigned short s1[3] = {9, 8, 7}, s2[3] = {9, 8, 7};
  const unsigned short* o1 = collnet_seed48(s1);
  const unsigned short* o2 = seed48(s2);
  EXPECT_EQ(std::memcmp(o1, o2, 3 * sizeof(unsigned short)), 0);
  EXPECT_EQ(collnet_drand48(), drand48());
}

}  // namespace
