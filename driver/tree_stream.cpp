#include "tree_stream.hpp"

#include <algorithm>

#include "error.hpp"

namespace collnet::driver {

using fw::regmap::kPayloadFlits;

StreamStats tree_stream(fw::TreeFirmware& fw, const fw::Header& hdr, size_t count, const Contribution& mine,
                        uint64_t* out) {
  constexpr size_t kMaxIdentityPackets = 0xffff;
  StreamStats st;
  const size_t packets = (count + kPayloadFlits - 1) / kPayloadFlits;
  st.packets = packets;
  const size_t words = packets * kPayloadFlits;

  size_t sent_words = 0, sent_hdrs = 0;  // injection progress
  size_t got_words = 0, got_hdrs = 0;    // reception progress
  while (got_words < words) {
    const fw::TreeStatus s = fw.status();
    ++st.status_polls;
    if (s.error) fw.check_errors();

    if (!mine.word) {
      // Identity packets: one register write covers up to 65535 packets.
      if (sent_hdrs < packets && s.inj_hdr_free > 0) {
        const size_t k = std::min(packets - sent_hdrs, kMaxIdentityPackets);
        fw.push_identity(hdr, static_cast<unsigned>(k));
        sent_hdrs += k;
      }
    } else {
      // Written packets: the header first, then the words as the payload FIFO has room.
      if (sent_hdrs < packets && s.inj_hdr_free > 0 && sent_hdrs * kPayloadFlits <= sent_words) {
        fw.push_header(hdr);
        ++sent_hdrs;
      }
      size_t room = std::min<size_t>(s.inj_data_free, std::min<size_t>(words - sent_words, kPayloadFlits));
      for (; room > 0; --room, ++sent_words) fw.push_word(sent_words < count ? mine.word(sent_words) : mine.pad);
    }

    // Receive: a header announces each packet; its words follow as they arrive.
    unsigned hdrs = s.rcv_hdrs;
    if (got_hdrs * kPayloadFlits <= got_words && got_hdrs < packets && hdrs > 0) {
      const fw::Header h = fw.pop_header();
      if (!(h == hdr))
        throw Error("node " + std::to_string(fw.personality().rank) + ": received packet " + h.describe() +
                    " while expecting " + hdr.describe());
      ++got_hdrs;
    }
    size_t avail = std::min<size_t>(s.rcv_data, std::min<size_t>(got_hdrs * kPayloadFlits - got_words, kPayloadFlits));
    for (; avail > 0; --avail, ++got_words) {
      const uint64_t w = fw.pop_word();
      if (got_words < count) out[got_words] = w;
    }
  }
  return st;
}

}  // namespace collnet::driver
