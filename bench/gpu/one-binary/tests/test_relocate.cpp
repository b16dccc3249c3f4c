// The relocation of two captures of the u32 pairs' pass, its blocks laid out as the library's
// OnesweepArgs and its loaded words read from the real PTX: the pointers found and rebased onto
// their allocations, padding that differs (once half of a stale pointer) passed as captured and
// noted, a pointer that moves within its allocation refused, and no read past a block.
#include <catch2/catch.hpp>

#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "onesweep_ptx.hpp"
#include "param_loads.hpp"
#include "relocate.hpp"
#include "xreduce/error.hpp"

namespace xr::onebin::test {
namespace {

constexpr std::uint64_t kKeys = std::uint64_t{1} << 26, kTemp = std::uint64_t{3} << 26;
const SlotSizes kSizes{kKeys, kKeys, kKeys, kKeys, kTemp};
const SlotBases kBasesA{0x7f0000000000, 0x7f0010000000, 0x7f0020000000, 0x7f0030000000,
                        0x7f0040000000};
const SlotBases kBasesB{0x7e0000000000, 0x7e0010000000, 0x7e0020000000, 0x7e0030000000,
                        0x7e0040000000};

std::uint64_t base(const SlotBases& b, Slot s) {
  return b[static_cast<unsigned>(s)];
}

void put(std::vector<std::byte>& block, std::size_t at, std::uint64_t v) {
  std::memcpy(block.data() + at, &v, sizeof v);
}

struct Pass {
  std::string entry = entry_named("13onesweep_passIjLi384ELi26ELi2ELi8EjE");
  std::vector<ParamSpan> spans = declared_spans(onesweep_ptx(), entry);
  std::map<std::string, std::vector<bool>> loaded{
      {entry, words_loaded_whole(onesweep_ptx(), entry, spans)}};

  // One capture's block over `b`: the first pass's keys and values in to the alternates in temp.
  CapturedKernel capture(const SlotBases& b) const {
    CapturedKernel k{nullptr, entry, {1681, 1, 1}, {384, 1, 1}, 96296, spans, {}};
    k.param_bytes.assign(kPassBlock, std::byte{0});
    put(k.param_bytes, kKeysIn, base(b, Slot::keys_in));
    put(k.param_bytes, kKeysOut, base(b, Slot::temp));
    put(k.param_bytes, kValuesIn, base(b, Slot::values_in));
    put(k.param_bytes, kValuesOut, base(b, Slot::temp) + kKeys);
    put(k.param_bytes, 32, std::uint64_t{1} << 24);  // n
    put(k.param_bytes, kStatus, base(b, Slot::temp) + 2 * kKeys + 4096);
    put(k.param_bytes, kCounter, base(b, Slot::temp) + 2 * kKeys + 3840);
    put(k.param_bytes, kBinsIn, base(b, Slot::temp) + 2 * kKeys + 2048);
    put(k.param_bytes, kBinsOut, base(b, Slot::temp) + 2 * kKeys + 2048 + 2048);
    return k;
  }
};

Recording relocate_one(const Pass& p, const CapturedKernel& a, const CapturedKernel& b) {
  return relocate({a}, kBasesA, {b}, kBasesB, kSizes, p.loaded);
}

const Pointer* pointer_at(const KernelStep& k, std::size_t at) {
  for (const Pointer& p : k.pointers)
    if (p.at == at) return &p;
  return nullptr;
}

}  // namespace

TEST_CASE("the pairs' pass: every pointer rebased onto its allocation") {
  const Pass p;
  const Recording r = relocate_one(p, p.capture(kBasesA), p.capture(kBasesB));
  REQUIRE(r.steps.size() == 1);
  const auto& k = std::get<KernelStep>(r.steps[0]);
  CHECK(k.pointers.size() == 8);
  const Pointer* values_out = pointer_at(k, kValuesOut);
  REQUIRE(values_out);
  CHECK(values_out->slot == Slot::temp);
  CHECK(values_out->offset == kKeys);
  REQUIRE(pointer_at(k, kValuesIn));
  CHECK(pointer_at(k, kValuesIn)->slot == Slot::values_in);
  CHECK_FALSE(pointer_at(k, kCount));  // null in both: no address
  CHECK(r.notes.empty());

  const SlotBases replay{0x100000000, 0x200000000, 0x300000000, 0x400000000, 0x500000000};
  const std::vector<std::byte> bound = bind_params(k, replay);
  std::uint64_t status = 0;
  std::memcpy(&status, bound.data() + kStatus, sizeof status);
  CHECK(status == base(replay, Slot::temp) + 2 * kKeys + 4096);
}

TEST_CASE("padding that differs, once half of a stale pointer, is passed as captured") {
  const Pass p;
  CapturedKernel a = p.capture(kBasesA), b = p.capture(kBasesB);
  // Bytes 56..59 are the digit's last field, 60..63 padding: the high half of an old pointer
  // there in one capture makes the word at 56 an address of the call in it, none in the other.
  const std::uint32_t field = 0x20;
  const auto high = static_cast<std::uint32_t>(base(kBasesA, Slot::keys_in) >> 32);
  for (CapturedKernel* k : {&a, &b}) std::memcpy(k->param_bytes.data() + 56, &field, 4);
  std::memcpy(a.param_bytes.data() + 60, &high, 4);
  const Recording r = relocate_one(p, a, b);
  const auto& k = std::get<KernelStep>(r.steps[0]);
  CHECK_FALSE(pointer_at(k, kPaddingWord));
  REQUIRE(r.notes.size() == 1);
  CHECK_THAT(r.notes[0], Catch::Contains("parameter bytes differ"));
}

TEST_CASE("a pointer that is not the same place in both captures is refused") {
  const Pass p;
  CapturedKernel b = p.capture(kBasesB);
  put(b.param_bytes, kStatus, base(kBasesB, Slot::temp) + 2 * kKeys + 8192);
  CHECK_THROWS_WITH(relocate_one(p, p.capture(kBasesA), b),
                    Catch::Contains("parameter byte 72: an address of the call in one capture"));
}

TEST_CASE("captures and analyses that do not fit are refused, never read past") {
  const Pass p;
  SECTION("no analysis of the kernel") {
    CHECK_THROWS_AS(
        relocate({p.capture(kBasesA)}, kBasesA, {p.capture(kBasesB)}, kBasesB, kSizes, {}), Error);
  }
  SECTION("an analysis shorter than the block") {
    std::map<std::string, std::vector<bool>> short_analysis{{p.entry, std::vector<bool>(3)}};
    CHECK_THROWS_AS(relocate({p.capture(kBasesA)}, kBasesA, {p.capture(kBasesB)}, kBasesB, kSizes,
                             short_analysis),
                    Error);
  }
  SECTION("a parameter past the captured block") {
    CapturedKernel a = p.capture(kBasesA), b = p.capture(kBasesB);
    a.params = b.params = {{0, kPassBlock + 8}};
    CHECK_THROWS_AS(relocate_one(p, a, b), Error);
  }
  SECTION("a recorded pointer past the block it is bound into") {
    KernelStep k;
    k.name = p.entry;
    k.param_bytes.assign(16, std::byte{0});
    k.pointers.push_back({12, Slot::keys_in, 0});
    CHECK_THROWS_AS(bind_params(k, kBasesA), Error);
  }
}

}  // namespace xr::onebin::test
