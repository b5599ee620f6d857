// SPDX-License-Identifier: Apache-2.0
// Fuzz harness: the MPI layer's datatypes (mpi/datatypes.hpp): derived types built from
// the fuzzer's bytes (contiguous, vector, indexed, struct, resized, nested up to 4 deep,
// with the arguments MPI_Type_* would pass: strides and displacements in the old type's
// extents or in bytes, negative ones too), then pack and unpack of a few elements in
// buffers exactly as large as the type map says.
//   - the description is consistent: packed is the sum of the runs, size <= packed, the
//     runs lie within [lb, lb + extent) of an element unless the type was resized;
//   - pack reads only the element's bytes and unpack writes only them (AddressSanitizer
//     sees any byte outside the buffer), and unpack(pack(x)) gives x back wherever the
//     elements' bytes do not overlap;
//   - a contiguous() type packs as a plain copy.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "fuzz/fuzz_util.hpp"
#include "mpi/datatypes.hpp"

using collnet::fuzz::Bytes;
using collnet::mpi::TypeDesc;

namespace {

constexpr size_t kMaxRuns = 4096;
constexpr size_t kMaxBytes = 1 << 16;

bool small_enough(const TypeDesc& t) {
  return t.runs.size() <= kMaxRuns && t.packed <= kMaxBytes && std::llabs(t.extent) <= static_cast<long long>(kMaxBytes) &&
         std::llabs(t.lb) <= static_cast<long long>(kMaxBytes);
}

// Whether the type being built is, or is built on, a resized type (whose runs may lie
// outside its bounds).
bool resized_somewhere = false;

ptrdiff_t small_signed(Bytes& in, int range) { return static_cast<ptrdiff_t>(in.u8() % (2 * range + 1)) - range; }

TypeDesc build(Bytes& in, unsigned depth) {
  const std::vector<TypeDesc>& pre = collnet::mpi::predefined_types();
  const unsigned kind = depth == 0 ? 0 : in.u8() % 6;
  if (kind == 0) return pre[1 + in.below(static_cast<unsigned>(pre.size() - 1))];
  switch (kind) {
    case 1: {
      const TypeDesc old = build(in, depth - 1);
      return collnet::mpi::make_contiguous(in.u8() % 5, old);
    }
    case 2: {  // MPI_Type_vector: the stride in extents of old; create_hvector: in bytes
      const TypeDesc old = build(in, depth - 1);
      const size_t count = in.u8() % 5, block = in.u8() % 4;
      const ptrdiff_t stride = in.flag() ? small_signed(in, 4) * old.extent : small_signed(in, 64);
      return collnet::mpi::make_vector(count, block, stride, old);
    }
    case 3: {  // MPI_Type_indexed
      const TypeDesc old = build(in, depth - 1);
      std::vector<size_t> lengths;
      std::vector<ptrdiff_t> displs;
      for (unsigned n = in.u8() % 5; n-- > 0;) {
        lengths.push_back(in.u8() % 4);
        displs.push_back(small_signed(in, 6) * old.extent);
      }
      return collnet::mpi::make_indexed(lengths, displs, old);
    }
    case 4: {  // MPI_Type_create_struct: displacements in bytes
      std::vector<TypeDesc> olds;
      std::vector<size_t> lengths;
      std::vector<ptrdiff_t> displs;
      for (unsigned n = in.u8() % 4; n-- > 0;) {
        olds.push_back(build(in, depth - 1));
        lengths.push_back(in.u8() % 4);
        displs.push_back(small_signed(in, 64));
      }
      std::vector<const TypeDesc*> ptrs;
      for (const TypeDesc& t : olds) ptrs.push_back(&t);
      return collnet::mpi::make_struct(lengths, displs, ptrs);
    }
    default: {  // MPI_Type_create_resized
      const TypeDesc old = build(in, depth - 1);
      resized_somewhere = true;
      return collnet::mpi::make_resized(old, small_signed(in, 32), small_signed(in, 64));
    }
  }
}


}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Bytes in(data, size);
  resized_somewhere = false;
  const TypeDesc t = build(in, in.u8() % 5);
  if (!small_enough(t)) return 0;
  if (std::getenv("COLLNET_FUZZ_VERBOSE")) {
    std::fprintf(stderr, "%s: size %zu packed %zu lb %td extent %td align %zu runs", t.name.c_str(), t.size, t.packed,
                 t.lb, t.extent, t.align);
    for (const TypeDesc::Run& r : t.runs) std::fprintf(stderr, " [%td,+%zu)", r.offset, r.bytes);
    std::fprintf(stderr, "\n");
  }

  size_t sum = 0;
  for (const TypeDesc::Run& r : t.runs) sum += r.bytes;
  FUZZ_CHECK(sum == t.packed);
  FUZZ_CHECK(t.size <= t.packed);
  if (!resized_somewhere && t.extent > 0)
    for (const TypeDesc::Run& r : t.runs)
      if (r.bytes) FUZZ_CHECK(r.offset >= t.lb && r.offset + static_cast<ptrdiff_t>(r.bytes) <= t.lb + t.extent + static_cast<ptrdiff_t>(t.align));

  const size_t count = in.u8() % 4;
  // The bytes `count` elements touch: [lo, hi) relative to the buffer's start.
  ptrdiff_t lo = 0, hi = 0;
  bool any = false;
  for (size_t i = 0; i < count; ++i)
    for (const TypeDesc::Run& r : t.runs) {
      if (r.bytes == 0) continue;
      const ptrdiff_t a = static_cast<ptrdiff_t>(i) * t.extent + r.offset, b = a + static_cast<ptrdiff_t>(r.bytes);
      lo = any ? std::min(lo, a) : a;
      hi = any ? std::max(hi, b) : b;
      any = true;
    }
  if (t.contiguous() && count > 0 && t.packed > 0) {  // the plain copy reads [0, count * packed)
    lo = std::min<ptrdiff_t>(lo, 0);
    hi = std::max<ptrdiff_t>(hi, static_cast<ptrdiff_t>(count * t.packed));
    any = true;
  }
  if (!any) {
    collnet::mpi::pack(t, nullptr, count, nullptr);
    collnet::mpi::unpack(t, nullptr, count, nullptr);
    return 0;
  }
  // Exactly [lo, hi): AddressSanitizer reports any access outside.
  std::vector<uint8_t> user(static_cast<size_t>(hi - lo)), packed(count * t.packed), back(user.size(), 0);
  for (size_t i = 0; i < user.size(); ++i) user[i] = static_cast<uint8_t>(i * 131 + 7);
  collnet::mpi::pack(t, user.data() - lo, count, packed.data());
  collnet::mpi::unpack(t, packed.data(), count, back.data() - lo);

  // Which bytes the elements cover, and how often.
  std::vector<unsigned> cover(user.size(), 0);
  for (size_t i = 0; i < count; ++i)
    for (const TypeDesc::Run& r : t.runs)
      for (size_t k = 0; k < r.bytes; ++k) ++cover[static_cast<size_t>(static_cast<ptrdiff_t>(i) * t.extent + r.offset + static_cast<ptrdiff_t>(k) - lo)];
  const bool overlap = std::any_of(cover.begin(), cover.end(), [](unsigned c) { return c > 1; });
  for (size_t i = 0; i < user.size(); ++i) {
    if (cover[i] == 0) FUZZ_CHECK(back[i] == 0);  // unpack wrote nothing there
    else if (!overlap) FUZZ_CHECK(back[i] == user[i]);
  }
  if (t.contiguous() && !overlap)
    FUZZ_CHECK(std::memcmp(packed.data(), user.data() - lo, count * t.packed) == 0);
  return 0;
}
