// SPDX-License-Identifier: Apache-2.0
// The C++ standard streams of the programs collnet mpirun runs. std::cout and its kin are
// one object for every rank in the process (the program's copies share the C++ library),
// so while the ranks run, std::cout writes through the running rank's own line-buffered
// stdout, as its C stdio does (Runtime::write_output; with --tag-output std::cerr and
// std::clog through its stderr, tagged), and each rank keeps its own format of each
// stream: the flags, precision, width and fill a rank sets are the ones its next output
// uses, whatever other ranks set meanwhile.
#pragma once

#include <ios>
#include <memory>
#include <ostream>
#include <streambuf>
#include <vector>

namespace collnet::mpi {

class Runtime;
class Rank;

class RankStreams {
 public:
  // Routes the streams through `rt`'s ranks until destroyed.
  explicit RankStreams(Runtime& rt);
  ~RankStreams();
  RankStreams(const RankStreams&) = delete;
  RankStreams& operator=(const RankStreams&) = delete;

  // The running rank changes from `from` (null: none yet) to `to`: the streams take `to`'s
  // format, keeping `from`'s for its return.
  void switch_rank(const Rank* from, const Rank& to);

 private:
  struct Format {
    std::ios_base::fmtflags flags;
    std::streamsize precision, width;
    char fill;
  };
  // Writes to the running rank's stream `stream` (1 stdout, 2 stderr), or, outside a rank,
  // to the stream's own buffer.
  class Buffer : public std::streambuf {
   public:
    Buffer(Runtime& rt, int stream, std::streambuf* own) : rt_(rt), stream_(stream), own_(own) {}
    std::streambuf* own() const { return own_; }

   protected:
    int_type overflow(int_type c) override;
    std::streamsize xsputn(const char* s, std::streamsize n) override;
    int sync() override;

   private:
    Runtime& rt_;
    int stream_;
    std::streambuf* own_;
  };
  struct Routed {
    std::ostream* os;
    std::unique_ptr<Buffer> buffer;
    std::vector<Format> formats;  // per world rank
    Format before;                // the stream's own, restored after the run
  };

  static Format format_of(const std::ostream& os);
  static void set_format(std::ostream& os, const Format& f);

  Runtime& rt_;
  std::vector<Routed> routed_;
};

}  // namespace collnet::mpi
