// The CPU variants. Floats accumulate sums in double (f64 in long double), the host's natural
// wide accumulator, so the reference backend is the most accurate one; integer sums wrap like
// the GPUs'.
#include "cpu_reducers.hpp"
#include "fold.hpp"

#include <algorithm>
#include <execution>
#include <numeric>
#include <string>
#include <variant>

#include "xreduce/call_check.hpp"
#include "xreduce/catalog.hpp"
#include "xreduce/error.hpp"
#include "xreduce/units.hpp"

namespace xr::cpu {
namespace {

// The classic recursiveReduce: interleaved pairs data[i] op= data[i + stride], halving the size.
// Made correct for odd sizes (the middle element carries over) and non-destructive: the first
// level reads the input and writes a scratch buffer the later levels reduce in place. The pairs
// combine in the device's accumulator type (float for f16/bf16), as the GPUs' trees do.
template <class T>
using PairAcc = std::conditional_t<HalfFloat<T>, float, T>;

template <class T>
T recursive_reduce(std::span<const T> in, Op op, std::vector<PairAcc<T>>& scratch) {
  using A = PairAcc<T>;
  std::size_t size = in.size();
  if (size == 0) return identity<T>(op);
  if (size == 1) return in[0];
  scratch.resize((size + 1) / 2);
  std::size_t stride = size / 2;
  for (std::size_t i = 0; i < stride; ++i)
    scratch[i] = apply(op, static_cast<A>(in[i]), static_cast<A>(in[i + stride]));
  if (size % 2) scratch[stride] = static_cast<A>(in[2 * stride]);
  size = stride + size % 2;
  while (size > 1) {
    stride = size / 2;
    for (std::size_t i = 0; i < stride; ++i)
      scratch[i] = apply(op, scratch[i], scratch[i + stride]);
    if (size % 2) scratch[stride] = scratch[2 * stride];
    size = stride + size % 2;
  }
  return narrow<T>(scratch[0]);
}

template <class T>
HostAcc<T> parallel_reduce(std::span<const T> xs, Op op) {
  const std::size_t chunks = (xs.size() + kParallelChunk - 1) / kParallelChunk;
  std::vector<HostAcc<T>> partials(chunks);
  std::vector<std::size_t> index(chunks);
  std::iota(index.begin(), index.end(), std::size_t{0});
  std::for_each(std::execution::par, index.begin(), index.end(), [&](std::size_t c) {
    auto part =
        xs.subspan(c * kParallelChunk, std::min(kParallelChunk, xs.size() - c * kParallelChunk));
    partials[c] = fold<T>(part, op, host_identity<T>(op));
  });
  HostAcc<T> acc = host_identity<T>(op);
  for (HostAcc<T> p : partials) acc = apply<HostAcc<T>>(op, acc, p);
  return acc;
}

enum class ReduceAlgorithm { recursive, sequential, parallel };

class CpuReducer final : public Reducer {
 public:
  CpuReducer(VariantInfo info, ReduceAlgorithm kind) : info_(std::move(info)), kind_(kind) {}
  const VariantInfo& info() const override { return info_; }

  Reduction reduce(DeviceArray& input, Op op) override {
    check_reduce_call(info_, input, op, 1);
    auto& array = own_array<CpuArray>(input, "cpu");
    const auto start = HostClock::now();
    Value v = visit_element_dtype(array.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      auto xs = array.view().as<T>();
      switch (kind_) {
        case ReduceAlgorithm::recursive: {
          // Reused across calls: only the first (warm-up) run allocates.
          using Scratch = std::vector<PairAcc<T>>;
          if (!std::holds_alternative<Scratch>(scratch_)) scratch_ = Scratch{};
          return Value::of(recursive_reduce<T>(xs, op, std::get<Scratch>(scratch_)));
        }
        case ReduceAlgorithm::sequential:
          return Value::of(narrow<T>(fold<T>(xs, op, host_identity<T>(op))));
        case ReduceAlgorithm::parallel:
          return Value::of(narrow<T>(parallel_reduce<T>(xs, op)));
      }
      return Value::of(identity<T>(op));
    });
    const double ms = ms_since(start);
    return {v, Timing{ms, ms, true}};
  }

 private:
  VariantInfo info_;
  ReduceAlgorithm kind_;
  std::variant<std::monostate, std::vector<std::int32_t>, std::vector<std::uint32_t>,
               std::vector<float>, std::vector<std::int64_t>, std::vector<std::uint64_t>,
               std::vector<double>>
      scratch_;
};

const std::vector<DType> kTypes(std::begin(kElementDTypes), std::end(kElementDTypes));
const std::vector<Op> kOps{Op::sum, Op::min, Op::max};

// The CPU variant table: the one list of ids both variants() and make_cpu_reducer() read.
constexpr std::pair<std::string_view, ReduceAlgorithm> kVariants[] = {
    {"cpu/recursive", ReduceAlgorithm::recursive},
    {"cpu/sequential", ReduceAlgorithm::sequential},
    {"cpu/parallel", ReduceAlgorithm::parallel}};

}  // namespace

std::vector<VariantInfo> cpu_variants() {
  std::vector<VariantInfo> out;
  for (const auto& [id, kind] : kVariants)
    out.push_back(catalog_variant(Primitive::reduce, id, kTypes, kOps));
  return out;
}

std::unique_ptr<Reducer> make_cpu_reducer(std::string_view id) {
  for (const auto& [name, kind] : kVariants)
    if (name == id)
      return std::make_unique<CpuReducer>(catalog_variant(Primitive::reduce, id, kTypes, kOps),
                                          kind);
  throw Error(ErrorCategory::usage, "unknown cpu variant '" + std::string(id) + "'");
}

}  // namespace xr::cpu
