// A user's reduce (`--kernel FILE.cl`): the kernel's one pass over the input, then again over
// its partials (built with XR_T = XR_ACC) until one value is left, each level a buffer of its own
// padded with the identity to whole tiles.
#include <cstring>
#include <deque>

#include "cl_array.hpp"
#include "cl_internal.hpp"
#include "cl_reducer.hpp"
#include "cl_timed.hpp"
#include "cl_user_kernel.hpp"
#include "cl_user_variants.hpp"
#include "xreduce/device_variant.hpp"
#include "xreduce/recent_cache.hpp"

namespace xr::opencl {
namespace {

// What one (array, op) keeps: the partials' levels, each padded with the identity to whole tiles
// (written once: a kernel writes partials only) and followed by the slack every array has, and the
// programs of the first and later passes.
class UserReduceCall {
 public:
  UserReduceCall(const Device& device, UserPrograms& programs, const UserKernel& k,
                 const ClArray& input, Op op)
      : device_(device),
        kernel_(k),
        input_(input.buffer()),
        accumulator_(accumulator_of(input.dtype())),
        first_(programs.get({.data = input.dtype(),
                             .dtype = input.dtype(),
                             .op = op,
                             .kind = ScanKind::inclusive})),
        rest_(programs.get(
            {.data = accumulator_, .dtype = input.dtype(), .op = op, .kind = ScanKind::inclusive})),
        tile_(k.tile(k.block)),
        counts_(kernel_reduce_levels(input.size(), tile_, k.max_groups)) {
    const std::size_t acc = size_of(accumulator_);
    for (std::size_t i = 1; i < counts_.size(); ++i) {
      const std::uint64_t padded = kernel_padded(counts_[i], tile_, accumulator_, k.id);
      levels_.push_back(make_user_buffer(device, padded * acc));
      const std::vector<std::byte> pad = identity_bytes(accumulator_, op, padded - counts_[i]);
      if (!pad.empty())
        device.write(levels_.back().get(), counts_[i] * acc, pad.size(), pad.data());
    }
  }

  std::uint64_t tile() const { return tile_; }

  std::vector<CompiledPass> compiled() const {
    std::vector<CompiledPass> out;
    for (std::size_t i = 0; i + 1 < counts_.size(); ++i)
      out.push_back((i == 0 ? first_ : rest_).describe(0, counts_[i + 1]));
    return out;
  }

  // `calls` calls; the last one's result, as an accumulator, and the time per call.
  std::pair<Value, Timing> run(int calls) {
    const Timing timing = run_timed(
        device_, calls, [&](std::span<const cl_event> wait, cl_event* first, cl_event* last) {
          enqueue(wait, first, last);
        });
    unsigned char bytes[16] = {};
    device_.read(levels_.back().get(), 0, size_of(accumulator_), bytes);
    Value result = visit_element_dtype(accumulator_, [&](auto tag) {
      typename decltype(tag)::type v;
      std::memcpy(&v, bytes, sizeof v);
      return Value::of(v);
    });
    return {result, timing};
  }

 private:
  void enqueue(std::span<const cl_event> wait, cl_event* first, cl_event* last) {
    const std::size_t passes = counts_.size() - 1;
    for (std::size_t i = 0; i < passes; ++i) {
      const cl_kernel kernel = (i == 0 ? first_ : rest_).pass(0);
      const cl_mem src = i == 0 ? input_ : levels_[i - 1].get();
      const cl_mem dst = levels_[i].get();
      const cl_uint count = static_cast<cl_uint>(counts_[i]);
      XR_CL_CHECK(clSetKernelArg(kernel, 0, sizeof src, &src));
      XR_CL_CHECK(clSetKernelArg(kernel, 1, sizeof dst, &dst));
      XR_CL_CHECK(clSetKernelArg(kernel, 2, sizeof count, &count));
      enqueue_user_pass(device_.queue(), kernel, counts_[i + 1], kernel_.block,
                        i == 0 ? wait : std::span<const cl_event>{}, i == 0 ? first : nullptr,
                        i + 1 == passes ? last : nullptr);
    }
  }

  const Device& device_;
  const UserKernel& kernel_;
  cl_mem input_;
  DType accumulator_;
  const UserProgram& first_;
  const UserProgram& rest_;
  std::uint64_t tile_;
  std::vector<std::uint64_t> counts_;
  std::deque<MemOwner> levels_;
};

class UserReducer final : public DeviceReducer {
 public:
  UserReducer(std::shared_ptr<Device> device, const UserKernel& kernel)
      : DeviceReducer(kernel.info(), "n = 0: nothing is launched"),
        device_(std::move(device)),
        kernel_(kernel),
        programs_(device_, kernel) {}

 private:
  void prepare(DeviceArray& input) override { device_array(input, *device_); }
  Reduction run(DeviceArray& input, Op op, int calls) override {
    ClArray& array = device_array(input, *device_);
    UserReduceCall& c = call(array, op);
    pad_with_identity(*device_, array.buffer(), array.dtype(), array.size(), op, c.tile(),
                      kernel_.id);
    const CpuFaultGuard guard = user_call_guard(*device_, kernel_);
    auto [accumulated, timing] = c.run(calls);
    return {Value::from_accumulator(array.dtype(), accumulated), timing};
  }
  std::vector<CompiledPass> compiled(DeviceArray& input, Op op) override {
    return call(device_array(input, *device_), op).compiled();
  }

  UserReduceCall& call(const ClArray& array, Op op) {
    return calls_.get({array.serial(), op}, [&] {
      return std::make_unique<UserReduceCall>(*device_, programs_, kernel_, array, op);
    });
  }

  std::shared_ptr<Device> device_;
  const UserKernel& kernel_;
  UserPrograms programs_;  // before the calls, which refer to its programs
  RecentCache<std::pair<std::uint64_t, Op>, UserReduceCall> calls_{kProgramsKept};
};

}  // namespace

std::unique_ptr<Reducer> make_user_reducer(std::shared_ptr<Device> device,
                                           const UserKernel& kernel) {
  return std::make_unique<UserReducer>(std::move(device), kernel);
}

}  // namespace xr::opencl
