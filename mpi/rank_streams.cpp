// SPDX-License-Identifier: Apache-2.0
#include "mpi/rank_streams.hpp"

#include <iostream>

#include "mpi/runtime.hpp"

namespace collnet::mpi {

RankStreams::RankStreams(Runtime& rt) : rt_(rt) {
  std::cout.flush();
  std::vector<std::pair<std::ostream*, int>> streams{{&std::cout, 1}};
  if (rt.options().tag_output) streams.insert(streams.end(), {{&std::cerr, 2}, {&std::clog, 2}});
  for (auto [os, stream] : streams) {
    Routed r{os, std::make_unique<Buffer>(rt, stream, os->rdbuf()), {}, format_of(*os)};
    r.formats.assign(rt.size(), r.before);
    os->rdbuf(r.buffer.get());
    routed_.push_back(std::move(r));
  }
  rt.set_streams(this);
}

RankStreams::~RankStreams() {
  rt_.set_streams(nullptr);
  for (Routed& r : routed_) {
    r.os->rdbuf(r.buffer->own());
    set_format(*r.os, r.before);  // not the last rank's: the report's output follows
  }
}

void RankStreams::switch_rank(const Rank* from, const Rank& to) {
  for (Routed& r : routed_) {
    if (from) r.formats.at(from->world_rank()) = format_of(*r.os);
    set_format(*r.os, r.formats.at(to.world_rank()));
  }
}

RankStreams::Format RankStreams::format_of(const std::ostream& os) {
  return {os.flags(), os.precision(), os.width(), os.fill()};
}

void RankStreams::set_format(std::ostream& os, const Format& f) {
  os.flags(f.flags);
  os.precision(f.precision);
  os.width(f.width);
  os.fill(f.fill);
}

RankStreams::Buffer::int_type RankStreams::Buffer::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  const char ch = traits_type::to_char_type(c);
  return xsputn(&ch, 1) == 1 ? c : traits_type::eof();
}

std::streamsize RankStreams::Buffer::xsputn(const char* s, std::streamsize n) {
  Rank* r = Runtime::current_or_null();
  if (!r) return own_->sputn(s, n);
  rt_.write_output(*r, stream_, s, static_cast<size_t>(n));
  return n;
}

int RankStreams::Buffer::sync() {
  // std::flush, std::endl: a partial line of stdout goes out, as the C library's fflush.
  if (Rank* r = Runtime::current_or_null(); r && stream_ == 1) rt_.flush_partial(*r);
  return own_->pubsync();
}

}  // namespace collnet::mpi
