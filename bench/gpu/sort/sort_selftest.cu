// The GPU self-test of xreduce::cuda's Sort (cuda_backend/library/include/xreduce/cuda/sort.hpp),
// standalone: build.sh beside it compiles it with the library's sources. For every variant x
// dtype x order x keys/u32 pairs/u64 pairs x bit range x size it sorts keys drawn to stress a sort
// (random bits, NaNs, infinities, both zeros, runs of equal keys, keys that differ in a few low
// bits) and compares the output bitwise with the host's std::stable_sort under the same total
// order, its own implementation of the ordered bits (not the library's). Values are the keys'
// input positions (a u64 value's high half their complement), so a pair's value checks
// stability. Outputs and temporary storage are poisoned
// before each call (temporary storage needs no zeroing), and the inputs are checked unchanged
// after it. The library's variants sort -0.0 and +0.0 as one key (CUB's rule: in the sort bits,
// after the order's flip, a float key's 0x7f..f becomes 0x80..0); lib/cub is checked against
// either zero, as its descending onesweep path (larger n) takes -0.0 where the others take +0.0,
// which differ under a bit range.
// Then, at 2^28 keys uniform over all bit patterns, for u32, i32, f32 and u64, keys and u32
// pairs: every variant's median time of 21 runs (cudaEvent), lib/cub's first, each output checked
// bitwise against lib/cub's (u32 pairs verified in O(n) as well), with the SM clock the GPU ran
// at (clock64 against the global timer, right after the runs). One line per case, a summary;
// exit 1 on any mismatch.
//   ./sort_selftest [--quick | --timing | --huge [N]] [--variant ID] [--dtype T]...
//     --quick: no 2^28 timing; --timing: the 2^28 timing alone; --huge: u32 pairs past 2^31 keys
//     alone (N, default 2^31 + 3: onesweep in 3 portions; about 48 GB of device memory);
//     --dtype: the timed dtypes (default u32 i32 f32 u64); --keys / --pairs: time only those
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "xreduce/cuda/sort.hpp"

namespace {

using xr::BitRange;
using xr::DType;
using xr::SortOrder;
using xr::SortValues;

#define CHECK_CUDA(expr)                                                            \
  do {                                                                              \
    const cudaError_t e_ = (expr);                                                  \
    if (e_ != cudaSuccess)                                                          \
      throw std::runtime_error(std::string(#expr) + ": " + cudaGetErrorString(e_)); \
  } while (0)

constexpr const char* kVariants[] = {"bitonic/smem", "radix/reduce-then-scan", "radix/onesweep",
                                     "lib/cub"};
constexpr DType kDTypes[] = {DType::u32, DType::i32, DType::f32, DType::u64,
                             DType::i64, DType::f64, DType::f16, DType::bf16};
constexpr std::size_t kSizes[] = {0, 1, 2, 31, 1000, 65537, (std::size_t{1} << 20) + 3};
constexpr std::size_t kLargeN = std::size_t{1} << 28;
constexpr int kTimedRuns = 21;

// --- device memory -------------------------------------------------------------------------------

class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
    if (bytes) CHECK_CUDA(cudaMalloc(&p_, bytes));
  }
  ~DeviceBuffer() { cudaFree(p_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void* get() const { return p_; }
  std::size_t bytes() const { return bytes_; }
  void upload(const void* host) {
    CHECK_CUDA(cudaMemcpy(p_, host, bytes_, cudaMemcpyHostToDevice));
  }
  std::vector<unsigned char> download() const {
    std::vector<unsigned char> out(bytes_);
    if (bytes_) CHECK_CUDA(cudaMemcpy(out.data(), p_, bytes_, cudaMemcpyDeviceToHost));
    return out;
  }
  void fill(int byte) {
    if (bytes_) CHECK_CUDA(cudaMemset(p_, byte, bytes_));
  }

 private:
  void* p_ = nullptr;
  std::size_t bytes_ = 0;
};

template <class T>
std::vector<T> download_as(const DeviceBuffer& b) {
  std::vector<T> out(b.bytes() / sizeof(T));
  if (b.bytes()) CHECK_CUDA(cudaMemcpy(out.data(), b.get(), b.bytes(), cudaMemcpyDeviceToHost));
  return out;
}

// --- the host's order, written apart from the library's ------------------------------------------

unsigned width_of(DType t) {
  return static_cast<unsigned>(8 * xr::size_of(t));
}
std::uint64_t all_ones(unsigned width) {
  return width == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
}
bool is_float_key(DType t) {
  return t == DType::f32 || t == DType::f64 || t == DType::f16 || t == DType::bf16;
}

std::uint64_t ordered_bits(DType t, std::uint64_t key) {
  const unsigned w = width_of(t);
  const std::uint64_t sign = std::uint64_t{1} << (w - 1);
  if (t == DType::u32 || t == DType::u64) return key;
  if (!is_float_key(t)) return key ^ sign;
  return (key & sign) ? ~key & all_ones(w) : key ^ sign;
}

// How a sort treats the float zeros: the library's variants as one key, the sort bits 0x7f..f
// (after the order's flip) taken as 0x80..0 (+0.0 ascending, -0.0 descending); CUB's as one key,
// +0.0 or -0.0 (its descending onesweep path, which runs for larger n, takes -0.0 where the
// ascending takes +0.0: the bits differ under a bit range).
enum class Zeros { merged, as_positive, as_negative };

// What a sort over `bits` (effective) in `order` compares.
std::uint64_t rank_of(DType t, std::uint64_t key, SortOrder order, BitRange bits, Zeros zeros) {
  const unsigned w = width_of(t);
  const std::uint64_t negative_zero = std::uint64_t{1} << (w - 1);
  if (is_float_key(t) && (key == 0 || key == negative_zero) && zeros != Zeros::merged)
    key = zeros == Zeros::as_positive ? 0 : negative_zero;
  std::uint64_t o = ordered_bits(t, key);
  if (order == SortOrder::descending) o = ~o & all_ones(w);
  if (is_float_key(t) && zeros == Zeros::merged && o == negative_zero - 1) o = negative_zero;
  return (o >> bits.begin) & all_ones(bits.end - bits.begin);
}

// The input positions in the stable order.
std::vector<std::uint32_t> stable_order(DType t, const std::vector<std::uint64_t>& keys,
                                        SortOrder order, BitRange bits, Zeros zeros) {
  std::vector<std::uint64_t> ranks(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) ranks[i] = rank_of(t, keys[i], order, bits, zeros);
  std::vector<std::uint32_t> perm(keys.size());
  std::iota(perm.begin(), perm.end(), 0u);
  std::stable_sort(perm.begin(), perm.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return ranks[a] < ranks[b]; });
  return perm;
}

// --- keys that stress a sort ---------------------------------------------------------------------

std::vector<std::uint64_t> special_keys(DType t) {
  switch (t) {
    case DType::f16:  // +-0, +-inf, +-NaN, +-1, +-smallest subnormal
      return {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x3c00, 0xbc00, 0x0001, 0x8001};
    case DType::bf16:
      return {0x0000, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0xffc0, 0x3f80, 0xbf80, 0x0001, 0x8001};
    case DType::f32:
      return {0,          0x80000000, 0x7f800000, 0xff800000, 0x7fc00000,
              0xffc00000, 0x3f800000, 0xbf800000, 1,          0x80000001};
    case DType::f64:
      return {0,
              0x8000000000000000,
              0x7ff0000000000000,
              0xfff0000000000000,
              0x7ff8000000000000,
              0xfff8000000000000,
              0x3ff0000000000000,
              0xbff0000000000000,
              1,
              0x8000000000000001};
    default: {  // integers: 0, 1, all ones, the sign bit, the largest signed
      const unsigned w = width_of(t);
      const std::uint64_t sign = std::uint64_t{1} << (w - 1);
      return {0, 1, all_ones(w), sign, sign - 1, sign + 1};
    }
  }
}

std::vector<std::uint64_t> make_keys(DType t, std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const unsigned w = width_of(t);
  const std::vector<std::uint64_t> specials = special_keys(t);
  std::vector<std::uint64_t> pool(16);
  for (auto& p : pool) p = rng() & all_ones(w);
  const std::uint64_t base = rng() & all_ones(w) & ~std::uint64_t{0xfff};
  std::vector<std::uint64_t> keys(n);
  for (auto& k : keys) {
    const unsigned pick = rng() % 10;
    if (pick < 5)
      k = rng() & all_ones(w);  // any bits
    else if (pick < 7)
      k = pool[rng() % pool.size()];  // runs of equal keys
    else if (pick < 8)
      k = specials[rng() % specials.size()];
    else
      k = base | (rng() & 0xfff);  // a few low digits differ
  }
  return keys;
}

// Keys as the device holds them, `width` bytes each.
std::vector<unsigned char> to_bytes(DType t, const std::vector<std::uint64_t>& keys) {
  const std::size_t w = xr::size_of(t);
  std::vector<unsigned char> out(keys.size() * w);
  for (std::size_t i = 0; i < keys.size(); ++i) std::memcpy(&out[i * w], &keys[i], w);
  return out;
}

std::uint64_t key_at(const std::vector<unsigned char>& bytes, std::size_t w, std::size_t i) {
  std::uint64_t k = 0;
  std::memcpy(&k, &bytes[i * w], w);
  return k;
}

// --- one case ------------------------------------------------------------------------------------

// The value of the key at input position `i`: the position, and for u64 values its complement in
// the high half (a value moved as two halves of different keys shows).
std::uint64_t position_value(SortValues v, std::uint32_t i) {
  return v == SortValues::u64 ? (std::uint64_t{~i} << 32) | i : i;
}

// The input positions as values of `v`, as the device holds them.
std::vector<unsigned char> position_values(SortValues v, std::size_t n) {
  const std::size_t w = xr::value_bytes(v);
  std::vector<unsigned char> out(n * w);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t value = position_value(v, static_cast<std::uint32_t>(i));
    std::memcpy(&out[i * w], &value, w);
  }
  return out;
}

struct Input {
  DType dtype;
  std::vector<std::uint64_t> keys;
  // The values' inputs, u32 and u64; one output of the wider.
  DeviceBuffer keys_in, keys_out, values32_in, values64_in, values_out;
  Input(DType t, std::vector<std::uint64_t> k)
      : dtype(t),
        keys(std::move(k)),
        keys_in(keys.size() * xr::size_of(t)),
        keys_out(keys.size() * xr::size_of(t)),
        values32_in(keys.size() * 4),
        values64_in(keys.size() * 8),
        values_out(keys.size() * 8) {
    keys_in.upload(to_bytes(t, keys).data());
    values32_in.upload(position_values(SortValues::u32, keys.size()).data());
    values64_in.upload(position_values(SortValues::u64, keys.size()).data());
  }
  const DeviceBuffer& values_in(SortValues v) const {
    return v == SortValues::u64 ? values64_in : values32_in;
  }
};

struct Case {
  const char* variant;
  SortOrder order;
  BitRange bits;  // as asked (all() or a range)
  SortValues values;
};

std::string describe_case(const Case& c, const Input& in) {
  char line[160];
  const std::string values =
      c.values == SortValues::none ? "keys" : std::string(xr::to_string(c.values)) + " pairs";
  std::snprintf(line, sizeof line, "%-22s %-4s %-4s bits %-5s %-9s n=%zu", c.variant,
                std::string(xr::to_string(in.dtype)).c_str(),
                std::string(xr::to_string(c.order)).c_str(),
                xr::to_string(c.bits, in.dtype).c_str(), values.c_str(), in.keys.size());
  return line;
}

struct Output {
  std::vector<unsigned char> keys, values;
  std::string broken;  // what the call did to its inputs, if anything
};

// Sorts with poisoned outputs and temporary storage (it needs no zeroing); checks the inputs.
Output sort_on_device(const Case& c, Input& in) {
  xr::cuda::Sort sort({in.dtype, in.keys.size(), c.order, c.bits, c.values, c.variant});
  DeviceBuffer temp(sort.temp_storage_bytes());
  temp.fill(0xff);
  in.keys_out.fill(0xab);
  in.values_out.fill(0xab);
  const DeviceBuffer& values_in = in.values_in(c.values);
  sort.enqueue(nullptr, in.keys_in.get(), in.keys_out.get(), values_in.get(), in.values_out.get(),
               temp.get());
  CHECK_CUDA(cudaDeviceSynchronize());
  Output out{in.keys_out.download(), in.values_out.download(), {}};
  if (to_bytes(in.dtype, in.keys) != in.keys_in.download()) out.broken = "keys_in was written";
  if (c.values != SortValues::none &&
      values_in.download() != position_values(c.values, in.keys.size()))
    out.broken = "values_in was written";
  return out;
}

// "" when `out` is the order `want` (input positions), else what is wrong.
std::string mismatch(const Case& c, const Input& in, const Output& out,
                     const std::vector<std::uint32_t>& want) {
  const std::size_t w = xr::size_of(in.dtype), n = in.keys.size();
  std::size_t wrong = 0, first = n;
  const std::size_t vw = xr::value_bytes(c.values);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t v = 0;
    if (vw) std::memcpy(&v, &out.values[vw * i], vw);
    const bool bad = key_at(out.keys, w, i) != in.keys[want[i]] ||
                     (vw && v != position_value(c.values, want[i]));
    if (bad && wrong++ == 0) first = i;
  }
  if (!wrong) return out.broken;
  char what[200];
  std::snprintf(what, sizeof what, "%zu wrong, first at %zu: key 0x%llx want 0x%llx", wrong, first,
                static_cast<unsigned long long>(key_at(out.keys, w, first)),
                static_cast<unsigned long long>(in.keys[want[first]]));
  return what;
}

// Runs the case; "" when the output is one of the orders in `wants`, else what is wrong with it
// against the first.
std::string run_case(const Case& c, Input& in,
                     const std::vector<const std::vector<std::uint32_t>*>& wants) {
  const Output out = sort_on_device(c, in);
  for (const auto* want : wants)
    if (mismatch(c, in, out, *want).empty()) return "";
  return mismatch(c, in, out, *wants.front());
}

struct Tally {
  int passed = 0, failed = 0;
  void record(bool ok) { ok ? ++passed : ++failed; }
};

std::vector<BitRange> bit_ranges(DType t) {
  const unsigned w = width_of(t);
  // every bit; an odd start with a partial last digit; the sign bit alone; the low half
  return {BitRange{}, BitRange{3, w - 5}, BitRange{w - 1, w}, BitRange{0, w / 2}};
}

// Every variant, order, range and keys/u32 pairs/u64 pairs over one input.
void check_input(Input& in, const std::vector<const char*>& variants, Tally& tally) {
  const bool floats = is_float_key(in.dtype);
  for (SortOrder order : xr::kAllSortOrders)
    for (BitRange bits : bit_ranges(in.dtype)) {
      const BitRange eff = xr::effective_bits(bits, in.dtype);
      const auto want = stable_order(in.dtype, in.keys, order, eff, Zeros::merged);
      std::vector<std::uint32_t> cub_positive, cub_negative;
      if (floats) cub_positive = stable_order(in.dtype, in.keys, order, eff, Zeros::as_positive);
      if (floats) cub_negative = stable_order(in.dtype, in.keys, order, eff, Zeros::as_negative);
      for (const char* variant : variants)
        for (SortValues values : xr::kAllSortValues) {
          const Case c{variant, order, bits, values};
          const bool cub = floats && std::string(variant) == "lib/cub";
          std::string why;
          try {
            why = cub ? run_case(c, in, {&cub_positive, &cub_negative}) : run_case(c, in, {&want});
          } catch (const std::exception& e) {
            why = std::string("threw: ") + e.what();
          }
          tally.record(why.empty());
          std::printf("%s %s%s%s\n", why.empty() ? "ok  " : "FAIL", describe_case(c, in).c_str(),
                      why.empty() ? "" : ": ", why.c_str());
        }
    }
  std::fflush(stdout);
}

// --- the API's refusals --------------------------------------------------------------------------

void expect_error(const char* what, xr::ErrorCategory category, const std::function<void()>& f,
                  Tally& tally) {
  std::string got = "no error";
  try {
    f();
  } catch (const xr::Error& e) {
    got = std::string(xr::to_string(e.category())) + ": " + e.what();
    if (e.category() == category) got.clear();
  }
  tally.record(got.empty());
  std::printf("%s refusal: %s%s%s\n", got.empty() ? "ok  " : "FAIL", what, got.empty() ? "" : ": ",
              got.c_str());
}

void check_refusals(Tally& tally) {
  using C = xr::ErrorCategory;
  using xr::cuda::Sort;
  using xr::cuda::SortDesc;
  auto desc = [](std::uint64_t n, BitRange bits, const char* variant) {
    return SortDesc{DType::u32, n, SortOrder::ascending, bits, SortValues::none, variant};
  };
  expect_error(
      "unknown variant", C::usage, [&] { Sort s(desc(10, {}, "radix/none")); }, tally);
  expect_error(
      "bits past the key", C::usage,
      [&] {
        Sort s(desc(10, {0, 33}, ""));
      },
      tally);
  expect_error(
      "empty bit range", C::usage,
      [&] {
        Sort s(desc(10, {7, 7}, ""));
      },
      tally);
  expect_error(
      "bitonic past 2^31", C::unsupported,
      [&] { Sort s(desc((std::uint64_t{1} << 31) + 1, {}, "bitonic/smem")); }, tally);
  expect_error(
      "onesweep past 2^40", C::unsupported,
      [&] { Sort s(desc((std::uint64_t{1} << 40) + 1, {}, "radix/onesweep")); }, tally);
  DeviceBuffer keys(4096), temp(1 << 20);
  expect_error(
      "keys_in == keys_out", C::usage,
      [&] {
        Sort s(desc(1000, {}, "radix/onesweep"));
        s.enqueue(nullptr, keys.get(), keys.get(), nullptr, nullptr, temp.get());
      },
      tally);
  expect_error(
      "misaligned keys_out", C::usage,
      [&] {
        Sort s(desc(10, {}, "radix/onesweep"));
        s.enqueue(nullptr, keys.get(), static_cast<char*>(keys.get()) + 2052, nullptr, nullptr,
                  temp.get());
      },
      tally);
}

void check_all(const std::vector<const char*>& variants, Tally& tally) {
  std::uint64_t seed = 1;
  for (DType t : kDTypes)
    for (std::size_t n : kSizes) {
      Input in(t, make_keys(t, n, seed++));
      check_input(in, variants, tally);
    }
}

// --- 2^28 keys: time and verification ----------------------------------------------------------

// Pairs over keys 0..: the output keys ascend, each the input key at its value's position,
// equal keys in ascending positions, and the values a permutation.
bool verified_pairs(const std::vector<std::uint32_t>& in, const std::vector<std::uint32_t>& keys,
                    const std::vector<std::uint32_t>& values) {
  std::vector<bool> seen(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    const std::uint32_t v = values[i];
    if (v >= in.size() || seen[v] || keys[i] != in[v]) return false;
    seen[v] = true;
    if (i && (keys[i - 1] > keys[i] || (keys[i - 1] == keys[i] && values[i - 1] > v))) return false;
  }
  return true;
}

// Keys uniform over all bit patterns, `bytes` of them (splitmix64).
std::vector<unsigned char> random_bytes(std::size_t bytes, std::uint64_t seed) {
  std::vector<unsigned char> out(bytes);
  std::uint64_t x = seed;
  for (std::size_t i = 0; i < bytes; i += 8) {
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    std::memcpy(&out[i], &z, std::min<std::size_t>(8, bytes - i));
  }
  return out;
}

// The SM clock over `ms` of spinning, in MHz: clock64 cycles per global-timer nanosecond.
__global__ void clock_probe(unsigned long long ns, unsigned long long* out) {
  unsigned long long t0, t1;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  const long long c0 = clock64();
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
  } while (t1 - t0 < ns);
  const long long c1 = clock64();
  out[0] = static_cast<unsigned long long>(c1 - c0);
  out[1] = t1 - t0;
}

double sm_clock_mhz() {
  DeviceBuffer out(16);
  clock_probe<<<1, 1>>>(5'000'000ull, static_cast<unsigned long long*>(out.get()));
  CHECK_CUDA(cudaDeviceSynchronize());
  const auto v = download_as<unsigned long long>(out);
  return 1e3 * double(v[0]) / double(v[1]);
}

// Median milliseconds of kTimedRuns calls of `call`, after one untimed call.
double median_ms(const std::function<void()>& call) {
  call();
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  std::vector<float> ms(kTimedRuns);
  for (float& m : ms) {
    CHECK_CUDA(cudaEventRecord(start));
    call();
    CHECK_CUDA(cudaEventRecord(stop));
    CHECK_CUDA(cudaEventSynchronize(stop));
    CHECK_CUDA(cudaEventElapsedTime(&m, start, stop));
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::nth_element(ms.begin(), ms.begin() + kTimedRuns / 2, ms.end());
  return ms[kTimedRuns / 2];
}

// One dtype, keys or pairs, at 2^28 uniform keys: lib/cub first (its output the reference),
// then every other variant, each line with its time against lib/cub's and the SM clock.
void time_dtype(DType t, bool pairs, const std::vector<const char*>& variants, Tally& tally) {
  const std::size_t n = kLargeN, w = xr::size_of(t);
  const std::vector<unsigned char> host_keys = random_bytes(n * w, 2028 + w);
  std::vector<std::uint32_t> positions(n);
  std::iota(positions.begin(), positions.end(), 0u);
  DeviceBuffer keys_in(n * w), keys_out(n * w), values_in(n * 4), values_out(n * 4);
  keys_in.upload(host_keys.data());
  values_in.upload(positions.data());
  std::vector<const char*> order{"lib/cub"};
  for (const char* v : variants)
    if (std::string(v) != "lib/cub") order.push_back(v);
  std::vector<unsigned char> ref_keys, ref_values;
  double cub_ms = 0;
  for (const char* variant : order) {
    try {
      const SortValues kind = pairs ? SortValues::u32 : SortValues::none;
      xr::cuda::Sort sort({t, n, SortOrder::ascending, {}, kind, variant});
      DeviceBuffer temp(sort.temp_storage_bytes());
      const double ms = median_ms([&] {
        sort.enqueue(nullptr, keys_in.get(), keys_out.get(), values_in.get(), values_out.get(),
                     temp.get());
      });
      const double mhz = sm_clock_mhz();
      std::vector<unsigned char> keys = keys_out.download(), values;
      if (pairs) values = values_out.download();
      bool ok;
      if (ref_keys.empty()) {
        ok = true;
        if (t == DType::u32 && pairs) {
          std::vector<std::uint32_t> in(n), k(n), v(n);
          std::memcpy(in.data(), host_keys.data(), 4 * n);
          std::memcpy(k.data(), keys.data(), 4 * n);
          std::memcpy(v.data(), values.data(), 4 * n);
          ok = verified_pairs(in, k, v);
        }
        ref_keys = std::move(keys);
        ref_values = std::move(values);
        cub_ms = ms;
      } else {
        ok = keys == ref_keys && values == ref_values;
      }
      tally.record(ok);
      std::printf(
          "%s time %-22s %-4s %-5s n=2^28: median %.3f ms of %d, %.2f GKeys/s, %.2fx lib/cub, SM "
          "%.0f MHz  [%s]\n",
          ok ? "ok  " : "FAIL", variant, std::string(xr::to_string(t)).c_str(),
          pairs ? "pairs" : "keys", ms, kTimedRuns, double(n) / (ms * 1e6), cub_ms / ms, mhz,
          sort.describe().c_str());
    } catch (const std::exception& e) {
      tally.record(false);
      std::printf("FAIL time %s: threw: %s\n", variant, e.what());
    }
    std::fflush(stdout);
  }
}

void time_large(const std::vector<const char*>& variants, const std::vector<DType>& dtypes,
                const std::vector<bool>& kinds, Tally& tally) {
  for (DType t : dtypes)
    for (bool pairs : kinds) time_dtype(t, pairs, variants, tally);
}

// --- past 2^31 keys: the radix variants' 64-bit indexing and onesweep's portions ---------------

std::vector<std::uint32_t> huge_keys(std::size_t n) {
  std::vector<std::uint32_t> keys(n);
  std::mt19937 rng(31);
  for (auto& k : keys) k = (rng() & 1) ? rng() : rng() & 0xffff;  // half of them repeat a lot
  return keys;
}

// u32 pairs over `n` keys (n < 2^32: the values are u32 positions), each variant that sorts
// that many, verified in O(n).
void check_huge(const std::vector<const char*>& variants, std::size_t n, Tally& tally) {
  const std::vector<std::uint32_t> keys = huge_keys(n);
  std::vector<std::uint32_t> out_keys(n), out_values(n);
  std::iota(out_values.begin(), out_values.end(), 0u);
  DeviceBuffer keys_in(4 * n), keys_out(4 * n), values_in(4 * n), values_out(4 * n);
  keys_in.upload(keys.data());
  values_in.upload(out_values.data());
  for (const char* variant : variants) {
    const xr::cuda::SortDesc desc{DType::u32,      n,      SortOrder::ascending, {},
                                  SortValues::u32, variant};
    bool ok = false;
    std::string what;
    try {
      xr::cuda::Sort sort(desc);
      DeviceBuffer temp(sort.temp_storage_bytes());
      sort.enqueue(nullptr, keys_in.get(), keys_out.get(), values_in.get(), values_out.get(),
                   temp.get());
      CHECK_CUDA(cudaDeviceSynchronize());
      out_keys = download_as<std::uint32_t>(keys_out);
      out_values = download_as<std::uint32_t>(values_out);
      ok = verified_pairs(keys, out_keys, out_values);
      what = sort.describe();
    } catch (const xr::Error& e) {
      ok = e.category() == xr::ErrorCategory::unsupported;  // bitonic/smem: at most 2^31 keys
      what = e.what();
    }
    tally.record(ok);
    std::printf("%s huge %-22s u32 pairs n=%zu  [%s]\n", ok ? "ok  " : "FAIL", variant, n,
                what.c_str());
    std::fflush(stdout);
  }
}

struct Options {
  bool checks = true, timing = true;
  std::vector<DType> timed{DType::u32, DType::i32, DType::f32, DType::u64};
  std::vector<bool> kinds{false, true};  // keys, pairs
  std::size_t huge = 0;                  // 0: no past-2^31 run
  std::vector<const char*> variants{std::begin(kVariants), std::end(kVariants)};
};

bool parse(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--quick") {
      o.timing = false;
    } else if (arg == "--timing") {
      o.checks = false;
    } else if (arg == "--huge") {
      o.checks = o.timing = false;
      o.huge = i + 1 < argc && argv[i + 1][0] != '-' ? std::stoull(argv[++i])
                                                     : (std::size_t{1} << 31) + 3;
    } else if (arg == "--variant" && i + 1 < argc) {
      o.variants = {argv[++i]};
    } else if (arg == "--dtype" && i + 1 < argc) {
      static bool first = true;
      if (first) o.timed.clear();
      first = false;
      const std::string name = argv[++i];
      bool known = false;
      for (DType t : kDTypes)
        if (name == xr::to_string(t)) o.timed.push_back(t), known = true;
      if (!known) return false;
    } else if (arg == "--keys") {
      o.kinds = {false};
    } else if (arg == "--pairs") {
      o.kinds = {true};
    } else {
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (!parse(argc, argv, o))
    return std::fprintf(stderr,
                        "usage: %s [--quick | --timing | --huge [N]] [--variant ID] [--dtype T]... "
                        "[--keys | --pairs]\n",
                        argv[0]),
           2;
  Tally tally;
  try {
    cudaDeviceProp p{};
    CHECK_CUDA(cudaGetDeviceProperties(&p, 0));
    std::printf("device: %s (sm_%d%d, %d SMs)\n", p.name, p.major, p.minor, p.multiProcessorCount);
    std::printf("library order for u32:");
    for (const std::string& id : xr::cuda::sort_variants(DType::u32))
      std::printf(" %s", id.c_str());
    std::printf("\n");
    if (o.checks) check_refusals(tally);
    if (o.checks) check_all(o.variants, tally);
    if (o.timing) time_large(o.variants, o.timed, o.kinds, tally);
    if (o.huge) check_huge(o.variants, o.huge, tally);
  } catch (const std::exception& e) {
    std::printf("FAIL: %s\n", e.what());
    tally.record(false);
  }
  std::printf("summary: %d passed, %d failed\n", tally.passed, tally.failed);
  return tally.failed ? 1 : 0;
}
