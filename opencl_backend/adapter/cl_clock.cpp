#include "cl_clock.hpp"

#include <cmath>
#include <sstream>

#include "cl_probe_kernel.hpp"
#include "xreduce/error.hpp"

namespace xr::opencl {
namespace {

// A reading averages the SM clock over this window (as CUDA's and Vulkan's probes).
constexpr double kWindowNs = 100e3;
// warm() enqueues windows of this length back to back and waits for the last.
constexpr double kSpinNs = 1e6;

Pass clock_pass(std::uint32_t window_ns) {
  Pass pass = probe_pass("probe_clock", 1, 1);
  pass.params.param = window_ns;
  return pass;
}

// Never handed out (Probes::clock returns nullptr for it): it only keeps the reason.
class UnmeasuredClock final : public ClockProbe {
 public:
  explicit UnmeasuredClock(std::string reason) : reason_(std::move(reason)) {}
  double read_mhz() override { return 0; }
  double reference_mhz() override { return 0; }
  void warm(double) override {}
  std::string method() const override { return reason_; }
  const std::string& reason() const { return reason_; }

 private:
  std::string reason_;
};

// The line of a failed build's message that says what failed: the log's first error line, else
// its first line (the message's own first line holds only the kernel and its options).
std::string build_error_line(const std::string& message) {
  std::istringstream lines(message);
  std::string line, header, first;
  std::getline(lines, header);
  while (std::getline(lines, line)) {
    if (line.find("error") != std::string::npos) return line;
    if (first.empty()) first = line;
  }
  return first.empty() ? header : first;
}

}  // namespace

OpenClClock::OpenClClock(std::shared_ptr<Device> device)
    : device_(std::move(device)), result_(make_buffer(*device_, sizeof host_)) {
  programs_of(*device_).kernel(clock_pass(0).key);
  if (!(read_mhz() > 0))
    throw Error(ErrorCategory::unsupported, "kernels/probe_clock.cl read no cycles or no time on " +
                                                device_->facts().info.name);
}

void OpenClClock::enqueue_window(std::uint32_t window_ns, cl_event* event) {
  enqueue_probe(*device_, clock_pass(window_ns), nullptr, result_.get(), {{}, nullptr, event});
}

double OpenClClock::read_mhz() {
  enqueue_window(static_cast<std::uint32_t>(kWindowNs), nullptr);
  cl_event raw = nullptr;
  XR_CL_CHECK(clEnqueueReadBuffer(device_->queue(), result_.get(), CL_FALSE, 0, sizeof host_,
                                  host_.data(), 0, nullptr, &raw));
  device_->flush_and_wait(raw, "the clock probe");
  return host_[1] ? static_cast<double>(host_[0]) / static_cast<double>(host_[1]) * 1e3 : 0;
}

double OpenClClock::reference_mhz() {
  return device_->facts().max_clock_mhz;
}

void OpenClClock::warm(double ms) {
  const int windows = std::max(1, static_cast<int>(std::ceil(ms * 1e6 / kSpinNs)));
  cl_event raw = nullptr;
  for (int i = 0; i < windows; ++i)
    enqueue_window(static_cast<std::uint32_t>(kSpinNs), i + 1 == windows ? &raw : nullptr);
  device_->flush_and_wait(raw, "the clock probe's warm-up");
}

std::string OpenClClock::method() const {
  return "clock64 against %globaltimer by inline PTX (NVIDIA OpenCL)";
}

namespace {

// Why `f` has no PTX clock probe, in one line; empty where it may have one.
std::string no_ptx_reason(const DeviceFacts& f) {
  if (f.subgroups == SubgroupPath::nvidia_ptx) return {};
  if (!f.has("cl_nv_device_attribute_query"))
    return "not measured: OpenCL has no clock query; " + f.info.name +
           " is not NVIDIA's, whose %clock64 is read by inline PTX";
  return "not measured: OpenCL has no clock query, and inline PTX is off on " + f.info.name + " (" +
         f.subgroup_note + ")";
}

}  // namespace

std::unique_ptr<ClockProbe> make_clock(std::shared_ptr<Device> device) {
  const std::string name = device->facts().info.name;
  if (std::string why = no_ptx_reason(device->facts()); !why.empty())
    return std::make_unique<UnmeasuredClock>(std::move(why));
  try {
    return std::make_unique<OpenClClock>(std::move(device));
  } catch (const Error& e) {
    // A probe that does not build or reads nothing leaves the clock unmeasured; anything else
    // (a lost device) is the caller's.
    if (e.category() == ErrorCategory::usage)
      return std::make_unique<UnmeasuredClock>(
          "not measured: kernels/probe_clock.cl did not build on " + name + ": " +
          build_error_line(e.what()));
    if (e.category() == ErrorCategory::unsupported)
      return std::make_unique<UnmeasuredClock>("not measured: " + std::string(e.what()));
    throw;
  }
}

bool measured(const ClockProbe& clock) {
  return dynamic_cast<const UnmeasuredClock*>(&clock) == nullptr;
}

std::string unmeasured_reason(const ClockProbe& clock) {
  const auto* none = dynamic_cast<const UnmeasuredClock*>(&clock);
  return none ? none->reason() : std::string();
}

}  // namespace xr::opencl
