// A user's scan (`--kernel FILE.cl`): the kernel's passes in the declared order over (input,
// output, scratch, n), the scratch zeroed first, in one timed interval.
#include <tuple>

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

// What one (input, output, op, kind) keeps: the program and the scratch.
class UserScanCall {
 public:
  UserScanCall(const Device& device, UserPrograms& programs, const UserKernel& k, const ClArray& in,
               const ClArray& out, Op op, ScanKind kind)
      : device_(device),
        kernel_(k),
        input_(in.buffer()),
        output_(out.buffer()),
        n_(in.size()),
        program_(programs.get({.data = in.dtype(), .dtype = in.dtype(), .op = op, .kind = kind})),
        tile_(k.tile(k.block)),
        scratch_bytes_(kernel_scratch_bytes(k, n_, tile_)),
        scratch_(make_user_buffer(device, scratch_bytes_)) {}

  std::uint64_t tile() const { return tile_; }

  std::vector<CompiledPass> compiled() const {
    std::vector<CompiledPass> out;
    for (std::size_t p = 0; p < kernel_.passes.size(); ++p)
      out.push_back(program_.describe(p, kernel_.groups(kernel_.passes[p].grid, n_, tile_)));
    return out;
  }

  Timing run(int calls) {
    return run_timed(device_, calls,
                     [&](std::span<const cl_event> wait, cl_event* first, cl_event* last) {
                       enqueue(wait, first, last);
                     });
  }

 private:
  // The scratch zeroed (the call's first command: inside the timed interval, as CUDA's memset),
  // then every pass over the same four arguments.
  void enqueue(std::span<const cl_event> wait, cl_event* first, cl_event* last) {
    const cl_uchar zero = 0;
    cl_event filled = nullptr;
    XR_CL_CHECK(clEnqueueFillBuffer(device_.queue(), scratch_.get(), &zero, sizeof zero, 0,
                                    scratch_bytes_, static_cast<cl_uint>(wait.size()),
                                    wait.empty() ? nullptr : wait.data(),
                                    first ? &filled : nullptr));
    if (first) *first = filled;  // the caller releases it
    const cl_mem scratch = scratch_.get();
    const cl_uint count = static_cast<cl_uint>(n_);
    const std::size_t passes = kernel_.passes.size();
    for (std::size_t p = 0; p < passes; ++p) {
      const cl_kernel kernel = program_.pass(p);
      XR_CL_CHECK(clSetKernelArg(kernel, 0, sizeof input_, &input_));
      XR_CL_CHECK(clSetKernelArg(kernel, 1, sizeof output_, &output_));
      XR_CL_CHECK(clSetKernelArg(kernel, 2, sizeof scratch, &scratch));
      XR_CL_CHECK(clSetKernelArg(kernel, 3, sizeof count, &count));
      enqueue_user_pass(device_.queue(), kernel, kernel_.groups(kernel_.passes[p].grid, n_, tile_),
                        kernel_.block, {}, nullptr, p + 1 == passes ? last : nullptr);
    }
  }

  const Device& device_;
  const UserKernel& kernel_;
  cl_mem input_, output_;
  std::uint64_t n_;
  const UserProgram& program_;
  std::uint64_t tile_;
  std::uint64_t scratch_bytes_;
  MemOwner scratch_;
};

class UserScanner final : public DeviceScanner {
 public:
  UserScanner(std::shared_ptr<Device> device, const UserKernel& kernel)
      : DeviceScanner(kernel.info(), "n = 0: nothing is launched"),
        device_(std::move(device)),
        kernel_(kernel),
        programs_(device_, kernel) {}

 private:
  using Key = std::tuple<std::uint64_t, std::uint64_t, Op, ScanKind>;

  void prepare(DeviceArray& input, DeviceArray& output) override {
    device_array(input, *device_);
    device_array(output, *device_);
  }
  Timing run(DeviceArray& input, DeviceArray& output, Op op, ScanKind kind, int calls) override {
    UserScanCall& c = call(input, output, op, kind);
    ClArray& in = device_array(input, *device_);
    pad_with_identity(*device_, in.buffer(), in.dtype(), in.size(), op, c.tile(), kernel_.id);
    const CpuFaultGuard guard = user_call_guard(*device_, kernel_);
    return c.run(calls);
  }
  std::vector<CompiledPass> compiled(DeviceArray& input, DeviceArray& output, Op op,
                                     ScanKind kind) override {
    return call(input, output, op, kind).compiled();
  }

  UserScanCall& call(DeviceArray& input, DeviceArray& output, Op op, ScanKind kind) {
    ClArray& in = device_array(input, *device_);
    ClArray& out = device_array(output, *device_);
    return calls_.get({in.serial(), out.serial(), op, kind}, [&] {
      return std::make_unique<UserScanCall>(*device_, programs_, kernel_, in, out, op, kind);
    });
  }

  std::shared_ptr<Device> device_;
  const UserKernel& kernel_;
  UserPrograms programs_;  // before the calls, which refer to its programs
  RecentCache<Key, UserScanCall> calls_{kProgramsKept};
};

}  // namespace

std::unique_ptr<Scanner> make_user_scanner(std::shared_ptr<Device> device,
                                           const UserKernel& kernel) {
  return std::make_unique<UserScanner>(std::move(device), kernel);
}

}  // namespace xr::opencl
