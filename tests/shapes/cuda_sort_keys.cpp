// The CUDA kernels' sort bits (kernels/sort_keys.cuh, computed without a branch) agree with
// core's total order (xreduce/sort_keys.hpp) for every dtype and both orders, on the keys where
// the order has its cases: both zeros, infinities, NaNs of either sign, the extremes of each
// integer type and random bit patterns. Host code: the codec is __host__ __device__.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "kernels/sort_keys.cuh"
#include "xreduce/sort_keys.hpp"

namespace {

using xr::DType;
using xr::SortOrder;

// Keys of `Bits` wide: every pattern whose top two and bottom two bits vary over the cases
// (zeros, the sign, all ones, the float specials' exponents) and random ones.
template <class Bits>
std::vector<Bits> probe_keys() {
  constexpr unsigned kWidth = 8 * sizeof(Bits);
  std::vector<Bits> keys;
  for (Bits top = 0; top < 4; ++top)
    for (Bits bottom = 0; bottom < 4; ++bottom) {
      const Bits high = static_cast<Bits>(top << (kWidth - 2));
      keys.push_back(static_cast<Bits>(high | bottom));
      keys.push_back(
          static_cast<Bits>(high | (static_cast<Bits>(~Bits{0}) >> 2 & ~Bits{3}) | bottom));
    }
  std::mt19937_64 rng(7);
  for (int i = 0; i < 4096; ++i) keys.push_back(static_cast<Bits>(rng()));
  return keys;
}

template <class Bits>
void check_codec(DType t) {
  const std::vector<Bits> keys = probe_keys<Bits>();
  for (SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
    const auto codec =
        xr::cuda::kernels::KeyCodec<Bits>::make(xr::cuda::kernels::key_kind(t), order);
    for (std::size_t i = 0; i < keys.size(); ++i) {
      INFO(xr::to_string(t) << (order == SortOrder::ascending ? " asc" : " desc") << " key 0x"
                            << std::hex << std::uint64_t{keys[i]});
      CHECK(std::uint64_t{codec.sort_bits(keys[i])} == xr::sort_bits(t, keys.data(), i, order));
    }
  }
}

}  // namespace

TEST_CASE("the kernels' sort bits are core's total order", "[sort]") {
  for (DType t : xr::kElementDTypes) {
    INFO(xr::to_string(t));
    switch (xr::size_of(t)) {
      case 2:
        check_codec<std::uint16_t>(t);
        break;
      case 4:
        check_codec<std::uint32_t>(t);
        break;
      default:
        check_codec<std::uint64_t>(t);
        break;
    }
  }
}
