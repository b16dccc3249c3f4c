// The CPU scan variants (the CPU row of the BIT scan's table). Float sums accumulate in double and
// round once per element, as the reduce variants do (f64 in long double), so the reference backend
// is the most accurate one; integer sums wrap like the GPUs'.
#include <algorithm>
#include <execution>
#include <numeric>
#include <string>

#include "cpu_reducers.hpp"
#include "fold.hpp"
#include "xreduce/call_check.hpp"
#include "xreduce/catalog.hpp"
#include "xreduce/error.hpp"
#include "xreduce/units.hpp"

namespace xr::cpu {
namespace {

// Scans xs into ys from `acc` (the prefix before xs[0]); the op is a template constant so each
// loop is specialised.
template <class T>
void scan_from(std::span<const T> xs, std::span<T> ys, Op op, ScanKind kind, HostAcc<T> acc) {
  with_op_constant(op, [&](auto op_constant) {
    if (kind == ScanKind::inclusive) {
      for (std::size_t i = 0; i < xs.size(); ++i) {
        acc = apply<HostAcc<T>>(op_constant.value, acc, static_cast<HostAcc<T>>(xs[i]));
        ys[i] = narrow<T>(acc);
      }
    } else {
      for (std::size_t i = 0; i < xs.size(); ++i) {
        ys[i] = narrow<T>(acc);
        acc = apply<HostAcc<T>>(op_constant.value, acc, static_cast<HostAcc<T>>(xs[i]));
      }
    }
  });
}

// Two passes over fixed chunks: each chunk's total in parallel, the totals' exclusive prefix in
// order, then each chunk scanned from its prefix in parallel.
template <class T>
void parallel_scan(std::span<const T> xs, std::span<T> ys, Op op, ScanKind kind) {
  const std::size_t chunks = (xs.size() + kParallelChunk - 1) / kParallelChunk;
  auto part = [&](auto span, std::size_t c) {
    return span.subspan(c * kParallelChunk,
                        std::min(kParallelChunk, xs.size() - c * kParallelChunk));
  };
  std::vector<HostAcc<T>> prefix(chunks);
  std::vector<std::size_t> index(chunks);
  std::iota(index.begin(), index.end(), std::size_t{0});
  std::for_each(std::execution::par, index.begin(), index.end(),
                [&](std::size_t c) { prefix[c] = fold<T>(part(xs, c), op, host_identity<T>(op)); });
  HostAcc<T> running = host_identity<T>(op);
  for (HostAcc<T>& p : prefix) running = apply<HostAcc<T>>(op, running, std::exchange(p, running));
  std::for_each(std::execution::par, index.begin(), index.end(), [&](std::size_t c) {
    scan_from<T>(part(xs, c), part(ys, c), op, kind, prefix[c]);
  });
}

enum class ScanAlgorithm { sequential, parallel };

class CpuScanner final : public Scanner {
 public:
  CpuScanner(VariantInfo info, ScanAlgorithm kind) : info_(std::move(info)), kind_(kind) {}
  const VariantInfo& info() const override { return info_; }

  Timing scan(DeviceArray& input, DeviceArray& output, Op op, ScanKind kind) override {
    check_scan_call(info_, input, output, op, kind, 1);
    auto* in = &own_array<CpuArray>(input, "cpu");
    auto* out = &own_array<CpuArray>(output, "cpu");
    const auto start = HostClock::now();
    visit_element_dtype(in->dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      auto xs = in->view().as<T>();
      auto ys = out->span<T>();
      if (kind_ == ScanAlgorithm::sequential)
        scan_from<T>(xs, ys, op, kind, host_identity<T>(op));
      else
        parallel_scan<T>(xs, ys, op, kind);
    });
    const double ms = ms_since(start);
    return Timing{ms, ms, true};
  }

 private:
  VariantInfo info_;
  ScanAlgorithm kind_;
};

// The CPU scan table: the one list of ids both cpu_scan_variants() and make_cpu_scanner() read.
constexpr std::pair<std::string_view, ScanAlgorithm> kScanVariants[] = {
    {"cpu/sequential", ScanAlgorithm::sequential}, {"cpu/parallel", ScanAlgorithm::parallel}};

VariantInfo scan_info(std::string_view id) {
  return catalog_variant(Primitive::scan, id,
                         {std::begin(kElementDTypes), std::end(kElementDTypes)},
                         {Op::sum, Op::min, Op::max});
}

}  // namespace

std::vector<VariantInfo> cpu_scan_variants() {
  std::vector<VariantInfo> out;
  for (const auto& [id, kind] : kScanVariants) out.push_back(scan_info(id));
  return out;
}

std::unique_ptr<Scanner> make_cpu_scanner(std::string_view id) {
  for (const auto& [name, kind] : kScanVariants)
    if (name == id) return std::make_unique<CpuScanner>(scan_info(id), kind);
  throw Error(ErrorCategory::usage, "unknown cpu scan variant '" + std::string(id) + "'");
}

}  // namespace xr::cpu
