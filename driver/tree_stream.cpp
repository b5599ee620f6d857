// SPDX-License-Identifier: Apache-2.0
#include "driver/tree_stream.hpp"

#include <algorithm>
#include <array>

#include "driver/error.hpp"

namespace collnet::driver {

using fw::regmap::kPayloadFlits;
using fw::regmap::kVectorWords;

namespace {

// Whole vectors only: a packet's payload is a whole number of vectors, so the words that
// are left over always complete one later, and every payload access is a vector access.
size_t whole_vectors(size_t words) { return words / kVectorWords * kVectorWords; }

}  // namespace

StreamStats tree_stream(fw::TreeFirmware& fw, const fw::Header& hdr, size_t count, const Contribution& mine,
                        uint64_t* out, const std::function<void()>& on_poll) {
  constexpr size_t kMaxIdentityPackets = fw::regmap::field_mask(fw::regmap::kInjIdentityCountW);
  StreamStats st;
  const size_t packets = (count + kPayloadFlits - 1) / kPayloadFlits;
  st.packets = packets;

  // A packet carries written payload if it holds a word this node owns; the others are
  // identity packets, which the identity-injection unit sends without a payload word.
  const size_t own_end = std::min(mine.own_end, count);
  auto written = [&](size_t p) {
    return mine.word && std::max(p * kPayloadFlits, mine.own_begin) < std::min((p + 1) * kPayloadFlits, own_end);
  };
  auto next_written = [&](size_t p) {
    while (p < packets && !written(p)) ++p;
    return p;
  };

  size_t sent_entries = 0;                // packets whose header-FIFO entry was pushed
  size_t word_pkt = next_written(0);      // the written packet whose payload goes next
  size_t word_off = 0;                    // words of it already pushed
  size_t got_hdrs = 0, got_words = 0;     // reception progress
  const size_t words = packets * kPayloadFlits;
  std::array<uint64_t, kPayloadFlits> buf;

  while (got_words < words) {
    if (on_poll) on_poll();
    const fw::TreeStatus s = fw.status();
    ++st.status_polls;
    if (s.error) fw.check_errors();

    // Inject. The entry of packet p goes once the payload of the packets before it is
    // complete: a run of identity packets is one register write; a written packet's
    // header is followed by its words, as many whole vectors as the payload FIFO has room
    // for (the rest in a later round).
    if (sent_entries < packets && word_pkt >= sent_entries && s.inj_hdr_free > 0) {
      if (written(sent_entries)) {
        fw.push_header(hdr);
        ++sent_entries;
      } else {
        size_t k = 1;
        while (k < kMaxIdentityPackets && sent_entries + k < packets && !written(sent_entries + k)) ++k;
        fw.push_identity(hdr, static_cast<unsigned>(k));
        sent_entries += k;
      }
    }
    if (word_pkt < packets) {
      const size_t n = std::min(whole_vectors(s.inj_data_free), kPayloadFlits - word_off);
      for (size_t i = 0; i < n; ++i) {
        const size_t w = word_pkt * kPayloadFlits + word_off + i;
        buf[i] = w < count ? mine.word(w) : mine.pad;
      }
      fw.push_words(buf.data(), n);
      word_off += n;
      if (word_off == kPayloadFlits) {
        word_pkt = next_written(word_pkt + 1);
        word_off = 0;
      }
    }

    // Receive: a header announces each packet; its words follow, in whole vectors, as
    // they arrive. The padding of the last packet is read but not copied out.
    if (got_hdrs * kPayloadFlits <= got_words && got_hdrs < packets && s.rcv_hdrs > 0) {
      const fw::Header h = fw.pop_header();
      if (!(h == hdr))
        throw Error("node " + std::to_string(fw.personality().rank) + ": received packet " + h.describe() +
                    " while expecting " + hdr.describe());
      ++got_hdrs;
    }
    const size_t n = whole_vectors(std::min<size_t>(s.rcv_data, got_hdrs * kPayloadFlits - got_words));
    fw.pop_words(buf.data(), n);
    if (got_words < count) std::copy_n(buf.begin(), std::min(n, count - got_words), out + got_words);
    got_words += n;
  }
  return st;
}

}  // namespace collnet::driver
