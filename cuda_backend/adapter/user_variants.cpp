// Users' kernels as CUDA variants (`--kernel FILE.cu|.ptx|.cubin`): a Reducer that runs the
// kernel's one pass again over its partials until one value is left (the classic recursive
// reduction), and a Scanner that runs its passes in order over (input, output, zeroed scratch);
// both plan once per (n, dtype, op) and time their launches behind the gate like the built-in
// variants (timing.hpp).
#include "user_variants.hpp"

#include <cstring>
#include <functional>

#include "array.hpp"
#include "compiled_call.hpp"
#include "launch.hpp"
#include "planned_scratch.hpp"
#include "timing.hpp"
#include "xreduce/device_variant.hpp"
#include "xreduce/error.hpp"
#include "xreduce/units.hpp"

namespace xr::cuda {
namespace {

// What a user variant does with each of a call's passes: launch it on a stream (a timed call) or
// describe it (inspect: compiled_launch). One loop over the plan serves both.
using Launcher =
    std::function<void(cudaKernel_t, std::uint64_t grid, std::uint32_t block, void** args)>;

Launcher launch_on(cudaStream_t s) {
  return [s](cudaKernel_t kernel, std::uint64_t grid, std::uint32_t block, void** args) {
    XR_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(kernel), dim3(to_grid(grid)),
                                   dim3(block), args, 0, s));
  };
}

// The passes a launcher was shown, described.
CompiledCall describe(const std::function<void(const Launcher&)>& passes) {
  CompiledCall call;
  passes([&](cudaKernel_t kernel, std::uint64_t grid, std::uint32_t block, void**) {
    call.passes.push_back(compiled_launch(reinterpret_cast<const void*>(kernel), grid, block));
  });
  return call;
}

// Writes the identity of `op` into `count` elements of `t` at `at` (blocking, untimed).
void write_identity(Context& ctx, void* at, DType t, Op op, std::uint64_t count) {
  if (count == 0) return;
  const std::vector<std::byte> pad = identity_bytes(t, op, count);
  ctx.upload(at, pad.data(), pad.size());
}

// [n, n rounded up to whole tiles) of `array` holds the identity: what a kernel reading its whole
// last tile finds past n (the array's slack, kKernelSlackBytes).
void pad_input(Context& ctx, const CudaArray& array, Op op, std::uint64_t tile,
               std::string_view id) {
  const std::uint64_t n = array.size(), padded = kernel_padded(n, tile, array.dtype(), id);
  write_identity(ctx, static_cast<char*>(array.data()) + n * size_of(array.dtype()), array.dtype(),
                 op, padded - n);
}

// ---- reduce ----------------------------------------------------------------------------------

// One pass of a user's reduce: `count` elements at `src` (kInput: the input array) into one
// partial per tile at `dst`, byte offsets into the plan's scratch.
struct UserReduceLaunch {
  static constexpr std::size_t kInput = static_cast<std::size_t>(-1);
  std::size_t src = kInput;
  std::size_t dst = 0;
  std::uint64_t count = 0;
  std::uint64_t groups = 1;  // the partials written at dst...
  std::uint64_t padded = 1;  // ...and the elements the next pass reads there: whole tiles
};

// The levels above the input, one after another in scratch (each on a 256-byte boundary and
// padded to whole tiles), and the passes between them; the last level holds the one value.
struct UserReducePlan {
  std::size_t n = 0;
  DType dtype{};
  Op op{};
  std::size_t scratch_bytes = 0;
  std::vector<UserReduceLaunch> launches;
  std::size_t result = 0;  // byte offset of the one value

  std::size_t scratch_size() const { return scratch_bytes; }

  static UserReducePlan make(const UserKernel& k, DType t, Op op, std::size_t n) {
    UserReducePlan plan;
    plan.n = n;
    plan.dtype = t;
    plan.op = op;
    const DType acc = accumulator_of(t);
    const std::uint64_t tile = k.tile(k.block);
    const std::vector<std::uint64_t> counts = kernel_reduce_levels(n, tile, k.max_groups);
    std::size_t src = UserReduceLaunch::kInput;
    for (std::size_t i = 0; i + 1 < counts.size(); ++i) {
      const std::size_t dst = plan.scratch_bytes;
      const std::uint64_t padded = kernel_padded(counts[i + 1], tile, acc, k.id);
      plan.launches.push_back({src, dst, counts[i], counts[i + 1], padded});
      plan.scratch_bytes = align256(dst + padded * size_of(acc));
      src = dst;
    }
    plan.result = src;
    return plan;
  }
};

class UserReducer final : public DeviceReducer {
 public:
  UserReducer(std::shared_ptr<Context> ctx, const UserKernel& kernel, UserModules& modules)
      : DeviceReducer(kernel.info(), "n = 0: nothing is launched"),
        ctx_((ctx->activate(), std::move(ctx))),
        kernel_(kernel),
        modules_(modules),
        host_result_(16) {}

 private:
  void prepare(DeviceArray& input) override { device_array(input, *ctx_); }

  // The host time counts from the first launch, as Vulkan's counts from the submit: the modules'
  // look-up and the padding's upload are the framework's, outside it like the harness's restore.
  Reduction run(DeviceArray& input, Op op, int calls) override {
    CudaArray& array = device_array(input, *ctx_);
    const DType t = array.dtype(), acc = accumulator_of(t);
    ctx_->activate();
    UserModule& first = modules_.get(kernel_, {t, t, op}, ctx_->limits());
    UserModule& rest = modules_.get(kernel_, {acc, t, op}, ctx_->limits());
    plan_call(array, op);
    const cudaStream_t s = ctx_->stream();
    const bool warm = planned_.launches() > 0 && first.launched() && rest.launched();
    const Launcher launch = launch_on(s);  // made once, outside the host's interval
    const auto t0 = HostClock::now();
    timer_.record(s, warm && ctx_->knobs().gate, calls, [&] {
      enqueue(array, first, rest, launch);
      planned_.launched();
    });
    first.mark_launched();
    rest.mark_launched();
    auto* scratch = static_cast<char*>(planned_.scratch());
    XR_CUDA_CHECK(cudaMemcpyAsync(host_result_.get(), scratch + planned_.call().result,
                                  size_of(acc), cudaMemcpyDeviceToHost, s));
    const float device_ms = timer_.finish(s, ctx_->knobs().timeout) / static_cast<float>(calls);
    return {value_of(t), Timing{device_ms, ms_since(t0) / calls, true}};
  }

  std::vector<CompiledPass> compiled(DeviceArray& input, Op op) override {
    CudaArray& array = device_array(input, *ctx_);
    const DType t = array.dtype();
    ctx_->activate();
    UserModule& first = modules_.get(kernel_, {t, t, op}, ctx_->limits());
    UserModule& rest = modules_.get(kernel_, {accumulator_of(t), t, op}, ctx_->limits());
    plan_call(array, op);
    return describe([&](const Launcher& l) { enqueue(array, first, rest, l); }).passes;
  }

  // The plan and its scratch for this (n, dtype, op), each level's tail past its partials
  // holding the identity (written once: a kernel writes partials only), then the input's tail.
  void plan_call(const CudaArray& array, Op op) {
    const DType t = array.dtype(), acc = accumulator_of(t);
    planned_.ensure(*ctx_, t, op, array.size(),
                    [&] { return UserReducePlan::make(kernel_, t, op, array.size()); });
    const UserReducePlan& plan = planned_.call();
    if (planned_.launches() == 0)
      for (const UserReduceLaunch& l : plan.launches)
        write_identity(*ctx_,
                       static_cast<char*>(planned_.scratch()) + l.dst + l.groups * size_of(acc),
                       acc, op, l.padded - l.groups);
    pad_input(*ctx_, array, op, kernel_.tile(kernel_.block), kernel_.id);
  }

  void enqueue(const CudaArray& array, const UserModule& first, const UserModule& rest,
               const Launcher& launch) {
    auto* scratch = static_cast<char*>(planned_.scratch());
    for (const UserReduceLaunch& l : planned_.call().launches) {
      const bool from_input = l.src == UserReduceLaunch::kInput;
      const void* src = from_input ? array.data() : scratch + l.src;
      void* dst = scratch + l.dst;
      unsigned count = static_cast<unsigned>(l.count);
      void* args[] = {&src, &dst, &count};
      launch((from_input ? first : rest).pass(0), l.groups, kernel_.block, args);
    }
  }

  // The one value, read back as the accumulator and rounded once to a 16-bit dtype.
  Value value_of(DType t) const {
    return visit_element_dtype(t, [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (HalfFloat<T>) {
        float acc;
        std::memcpy(&acc, host_result_.get(), sizeof acc);
        return Value::of(narrow<T>(acc));
      } else {
        T v;
        std::memcpy(&v, host_result_.get(), sizeof v);
        return Value::of(v);
      }
    });
  }

  std::shared_ptr<Context> ctx_;
  const UserKernel& kernel_;
  UserModules& modules_;
  PlannedScratch<UserReducePlan> planned_;
  PinnedBuffer host_result_;
  CallTimer timer_;
};

// ---- scan ------------------------------------------------------------------------------------

struct UserScanPlan {
  std::size_t n = 0;
  DType dtype{};
  Op op{};
  std::size_t scratch_bytes = 0;  // zeroed before every call, inside the timed interval

  std::size_t scratch_size() const { return scratch_bytes; }
};

class UserScanner final : public DeviceScanner {
 public:
  UserScanner(std::shared_ptr<Context> ctx, const UserKernel& kernel, UserModules& modules)
      : DeviceScanner(kernel.info(), "n = 0: nothing is launched"),
        ctx_((ctx->activate(), std::move(ctx))),
        kernel_(kernel),
        modules_(modules) {}

 private:
  // The module, the plan and its scratch for this (n, dtype, op, kind), and the input's tail.
  UserModule& plan_call(const CudaArray& in, Op op, ScanKind kind) {
    const DType t = in.dtype();
    const std::size_t n = in.size();
    ctx_->activate();
    UserModule& module = modules_.get(kernel_, {t, t, op, kind}, ctx_->limits());
    const std::uint64_t tile = kernel_.tile(kernel_.block);
    planned_.ensure(*ctx_, t, op, n, [&] {
      return UserScanPlan{n, t, op, kernel_scratch_bytes(kernel_, n, tile)};
    });
    pad_input(*ctx_, in, op, tile, kernel_.id);
    return module;
  }

  void prepare(DeviceArray& input, DeviceArray& output) override {
    device_array(input, *ctx_);
    device_array(output, *ctx_);
  }

  // The host time counts from the first launch, as the reducer's.
  Timing run(DeviceArray& input, DeviceArray& output, Op op, ScanKind kind, int calls) override {
    CudaArray& in = device_array(input, *ctx_);
    CudaArray& out = device_array(output, *ctx_);
    UserModule& module = plan_call(in, op, kind);
    const cudaStream_t s = ctx_->stream();
    const Launcher launch = launch_on(s);  // made once, outside the host's interval
    const auto t0 = HostClock::now();
    timer_.record(s, planned_.launches() > 0 && module.launched() && ctx_->knobs().gate, calls,
                  [&] {
                    enqueue(in, out, module, s, launch);
                    planned_.launched();
                  });
    module.mark_launched();
    const float device_ms = timer_.finish(s, ctx_->knobs().timeout) / static_cast<float>(calls);
    return Timing{device_ms, ms_since(t0) / calls, true};
  }

  std::vector<CompiledPass> compiled(DeviceArray& input, DeviceArray& output, Op op,
                                     ScanKind kind) override {
    CudaArray& in = device_array(input, *ctx_);
    CudaArray& out = device_array(output, *ctx_);
    UserModule& module = plan_call(in, op, kind);
    return describe([&](const Launcher& l) { launch_passes(in, out, module, l); }).passes;
  }

  void enqueue(const CudaArray& in, const CudaArray& out, const UserModule& module, cudaStream_t s,
               const Launcher& launch) {
    XR_CUDA_CHECK(cudaMemsetAsync(planned_.scratch(), 0, planned_.call().scratch_bytes, s));
    launch_passes(in, out, module, launch);
  }

  void launch_passes(const CudaArray& in, const CudaArray& out, const UserModule& module,
                     const Launcher& launch) {
    void* scratch = planned_.scratch();
    const void* src = in.data();
    void* dst = out.data();
    unsigned count = static_cast<unsigned>(in.size());
    void* args[] = {&src, &dst, &scratch, &count};
    const std::uint64_t tile = kernel_.tile(kernel_.block);
    for (std::size_t p = 0; p < kernel_.passes.size(); ++p)
      launch(module.pass(p), kernel_.groups(kernel_.passes[p].grid, in.size(), tile), kernel_.block,
             args);
  }

  std::shared_ptr<Context> ctx_;
  const UserKernel& kernel_;
  UserModules& modules_;
  PlannedScratch<UserScanPlan> planned_;
  CallTimer timer_;
};

}  // namespace

std::unique_ptr<Reducer> make_user_reducer(std::shared_ptr<Context> ctx, const UserKernel& kernel,
                                           UserModules& modules) {
  return std::make_unique<UserReducer>(std::move(ctx), kernel, modules);
}

std::unique_ptr<Scanner> make_user_scanner(std::shared_ptr<Context> ctx, const UserKernel& kernel,
                                           UserModules& modules) {
  return std::make_unique<UserScanner>(std::move(ctx), kernel, modules);
}

void compile_first_claim(const UserKernel& kernel, UserModules& modules,
                         const DeviceLimits& limits) {
  modules.get(
      kernel,
      {kernel.dtypes.front(), kernel.dtypes.front(), kernel.ops.front(), kernel.kinds.front()},
      limits);
}

}  // namespace xr::cuda
