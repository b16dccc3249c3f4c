// The Vulkan backend as core sees it: device listing and choice, arrays, reducers, scanners,
// sorters, histogrammers, probes.
#include "xreduce/vulkan_backend.hpp"

#include <algorithm>
#include <cstdlib>
#include <string_view>

#include "vk_array.hpp"
#include "vk_clock.hpp"
#include "vk_device.hpp"
#include "vk_histogrammer.hpp"
#include "vk_instance.hpp"
#include "vk_internal.hpp"
#include "vk_link.hpp"
#include "vk_overheads.hpp"
#include "vk_probes.hpp"
#include "vk_reducer.hpp"
#include "vk_scanner.hpp"
#include "vk_sorter.hpp"
#include "vk_user_module.hpp"
#include "vk_user_ptx.hpp"
#include "vk_user_variants.hpp"
#include "xreduce/call_check.hpp"
#include "xreduce/device_backend.hpp"
#include "xreduce/env_knobs.hpp"
#include "xreduce/error.hpp"
#include "xreduce/shapes.hpp"
#include "xreduce/user_kernel.hpp"
#include "xreduce/user_ptx.hpp"

namespace xr::vulkan {
namespace {

// The smallest block XR_VK_BLOCK_BYTES takes, 1 MiB: an array's blocks stay few (a device need
// allow no more than 4096 allocations, maxMemoryAllocationCount).
constexpr std::uint64_t kMinBlockBytes = std::uint64_t{1} << 20;

// The Vulkan knobs (docs/cli.md, "Environment knobs") from the tool's environment, once, when
// the backend is made: the library's Context takes them as data (ContextState) and reads none.
// A malformed knob's line goes to the error of what it affects (device_error, scan_error,
// sort_error, histogram_error), and only well-formed knobs to `set`; never throws. Polls, back-off,
// window, shape and sort tile set empty are malformed; the other knobs take empty as unset.
void read_vulkan_device_knobs(VulkanKnobs& k) {
  k.timeout = read_device_timeout();
  if (!k.timeout.error.empty())
    keep_first_error(k.device_error, k.timeout.error);
  else if (!k.timeout.given.empty())
    k.set.emplace_back("XR_DEVICE_TIMEOUT", k.timeout.given);
  if (const char* v = read_text_knob(k.set, "XR_VK_VALIDATION"))
    k.validation = std::string_view(v) == "1";
  if (const auto address =
          read_choice_knob(k.set, k.device_error, "XR_VK_ADDRESSING", "auto", "address"))
    k.force_address = *address;
  if (const auto compute =
          read_choice_knob(k.set, k.device_error, "XR_VK_PTX_BARRIER", "all", "compute"))
    k.ptx_compute_barriers = *compute;
  if (const char* v = read_text_knob(k.set, "XR_VK_CAPTURE_IR")) k.capture_ir_dir = v;
  if (const auto bytes =
          read_knob(k.set, k.device_error, "XR_VK_BLOCK_BYTES",
                    "a whole number of bytes from 1048576 to 18446744073709551615",
                    [](std::string_view v) { return parse_knob_whole(v, kMinBlockBytes); }))
    k.block_bytes = *bytes;
}

void read_vulkan_histogram_knobs(VulkanKnobs& k) {
  if (const auto ballots =
          read_choice_knob(k.set, k.histogram_error, "XR_VK_HISTOGRAM_MATCH", "auto", "ballots"))
    k.force_ballots = *ballots;
  using histogram::Layout;
  if (const auto layout = read_knob(k.set, k.histogram_error, "XR_VK_HISTOGRAM_LAYOUT",
                                    "auto, lane-banked, replicated or global",
                                    [](std::string_view v) -> std::optional<Layout> {
                                      if (v == "auto") return Layout::automatic;
                                      if (v == "lane-banked") return Layout::lane_banked;
                                      if (v == "replicated") return Layout::replicated;
                                      if (v == "global") return Layout::global;
                                      return std::nullopt;
                                    }))
    k.histogram_layout = *layout;
}

void read_vulkan_sort_knobs(VulkanKnobs& k) {
  k.sort_tile =
      read_sort_tile_knob(k.set, k.sort_error, "XR_VK_SORT_TILE", "384x20", EmptyKnob::malformed);
  if (const auto counting =
          read_choice_knob(k.set, k.sort_error, "XR_VK_SORT_RANKING", "auto", "counting"))
    k.force_counting = *counting;
  read_auto_choice_knob(k.set, k.sort_error, "XR_VK_SORT_GRIDS", "capacity", "device",
                        k.sort_device_grids);
}

// Words per lane a look-back poll reads: 1 to 4.
std::optional<std::uint32_t> parse_lookback_window(std::string_view value) {
  const auto words = parse_knob_whole(value, 1, 4);
  if (!words) return std::nullopt;
  return static_cast<std::uint32_t>(*words);
}

void read_vulkan_lookback_knobs(VulkanKnobs& k) {
  // The scans' patience and onesweep's: a malformed value refuses both.
  std::string polls_error;
  k.lookback_polls =
      read_u32_knob(k.set, polls_error, "XR_VK_LOOKBACK_POLLS", EmptyKnob::malformed);
  if (!polls_error.empty()) {
    keep_first_error(k.scan_error, polls_error);
    keep_first_error(k.sort_error, polls_error);
  }
  k.lookback_backoff =
      read_u32_knob(k.set, k.scan_error, "XR_VK_LOOKBACK_BACKOFF", EmptyKnob::malformed);
  if (const auto plain_loads = read_choice_knob(k.set, k.scan_error, "XR_VK_LOOKBACK_EXPERIMENT",
                                                "no-wait", "plain-loads")) {
    k.lookback_plain_loads = *plain_loads;
    k.lookback_no_wait = !*plain_loads;
  }
  k.lookback_window =
      read_knob(k.set, k.scan_error, "XR_VK_LOOKBACK_WINDOW", "1, 2, 3 or 4 (words per lane)",
                parse_lookback_window, EmptyKnob::malformed);
  k.lookback_clock = read_choice_knob(k.set, k.scan_error, "XR_VK_LOOKBACK_CLOCK", "0", "1");
  k.one_group = read_scan_one_group_knob();
  if (!k.one_group.given.empty()) k.set.emplace_back("XR_SCAN_ONE_GROUP_MAX", k.one_group.given);
  if (!k.one_group.error.empty()) keep_first_error(k.scan_error, k.one_group.error);
  k.lookback_shape =
      read_lookback_shape_knob(k.set, k.scan_error, "XR_VK_LOOKBACK_SHAPE", EmptyKnob::malformed);
}

VulkanKnobs read_vulkan_knobs() {
  VulkanKnobs knobs;
  read_vulkan_device_knobs(knobs);
  read_vulkan_sort_knobs(knobs);
  read_vulkan_histogram_knobs(knobs);
  read_vulkan_lookback_knobs(knobs);
  return knobs;
}

class VulkanBackend final : public DeviceBackend {
 public:
  VulkanBackend() : DeviceBackend("Vulkan") {
    VulkanKnobs knobs = read_vulkan_knobs();
    knobs_set_ = knobs.set;
    scan_error_ = knobs.scan_error;
    sort_error_ = knobs.sort_error;
    histogram_error_ = knobs.histogram_error;
    if (!knobs.device_error.empty()) {
      reason_ = knobs.device_error;
      return;
    }
    open([&] {
      instance_ = Instance::create(std::move(knobs));
      const auto& devices = instance_->devices();
      if (devices.empty())
        return std::string("the Vulkan loader reports no physical device (no ICD installed?)");
      std::string why = "no Vulkan device is usable:";
      for (const auto& f : devices) {
        if (f.unusable_reason.empty()) return std::string();
        why += " " + f.info.name + " (" + f.unusable_reason + ")";
      }
      return why;
    });
  }

  // Probes hold device memory; both go before the instance.
  ~VulkanBackend() override { release_device(); }

  std::string_view name() const override { return "vulkan"; }

  void add_kernel(const UserKernel& kernel) override {
    const KernelLanguage l = kernel.language;
    if (l != KernelLanguage::glsl && l != KernelLanguage::hlsl && l != KernelLanguage::spirv &&
        l != KernelLanguage::ptx)
      throw Error(ErrorCategory::unsupported,
                  "the vulkan backend runs GLSL, HLSL, SPIR-V and PTX kernels, not " +
                      std::string(to_string(l)) + " (" + kernel.path.string() + ")");
    // A PTX's entries and parameters are checked now, on any device: a bad one fails the command.
    if (l == KernelLanguage::ptx) checked_user_ptx(kernel);
    if ((l == KernelLanguage::glsl || l == KernelLanguage::hlsl) &&
        std::find(kernel.dtypes.begin(), kernel.dtypes.end(), DType::bf16) != kernel.dtypes.end())
      throw Error(ErrorCategory::usage, kernel.path.string() + ": declares bf16, which " +
                                            std::string(to_string(l)) +
                                            " has no type for (glslang 12)");
    kernels_.add(kernel, name(), Variants::has(kernel.primitive, kernel.id));
  }

  std::vector<std::pair<std::string, std::string>> knobs() const override { return knobs_set_; }

  std::unique_ptr<DeviceArray> upload(HostView data) override {
    check_fits(data.dtype, data.size);
    return std::make_unique<VulkanArray>(logical_device(), data);
  }

  std::unique_ptr<DeviceArray> allocate(DType t, std::size_t n) override {
    check_fits(t, n);
    return std::make_unique<VulkanArray>(logical_device(), t, n);
  }

  // Error(out_of_memory) past the device's memory, Error(unsupported) past the largest buffer it
  // makes (maxBufferSize, sparse address space).
  void check_fits(DType t, std::size_t n) const {
    require_available();
    const DeviceFacts& f = facts();
    if (n > max_elements(t)) {
      const std::uint64_t bytes = n * size_of(t);
      if (f.device_local_bytes && bytes > f.device_local_bytes)
        throw Error(ErrorCategory::out_of_memory,
                    "vulkan: " + std::to_string(n) + " elements (" + std::to_string(bytes) +
                        " bytes) do not fit in the " + std::to_string(f.device_local_bytes) +
                        " bytes of " + f.info.name);
      throw Error(ErrorCategory::unsupported,
                  "vulkan: " + std::to_string(n) + " " + std::string(to_string(t)) +
                      " elements exceed the " + std::to_string(max_elements(t)) +
                      " one array can hold on " + f.info.name + " (" +
                      largest_buffer(f, instance_->knobs()).why + ")");
    }
  }

  std::uint64_t max_elements(DType t) const override {
    if (!available()) return 0;
    return vulkan::max_elements(facts(), instance_->knobs(), t);
  }

  void flush_cache() override {
    require_available();
    logical_device();
    probes_->flush_cache();
  }

  std::optional<double> measure_read_bandwidth_gbps() override {
    require_available();
    logical_device();
    return probes_->read_bandwidth_gbps();
  }

  std::optional<double> measure_copy_bandwidth_gbps() override {
    require_available();
    logical_device();
    return probes_->copy_bandwidth_gbps();
  }

  ClockProbe* clock_probe() override {
    if (!available() || !clock_unmeasured_reason().empty()) return nullptr;
    if (!clock_) clock_ = std::make_unique<VulkanClock>(logical_device());
    return clock_.get();
  }

  std::string clock_unmeasured_reason() override {
    if (!available()) return "not measured: " + reason_;
    return vulkan::clock_unmeasured_reason(*logical_device());
  }

  std::vector<Overhead> measure_overheads() override {
    require_available();
    return measure_vulkan_overheads(*logical_device());
  }

  std::optional<LinkRate> measure_link(std::uint64_t bytes) override {
    require_available();
    return measure_vulkan_link(*logical_device(), bytes);
  }

 private:
  const DeviceFacts& facts() const { return instance_->devices()[selected()]; }

  std::vector<VariantInfo> builtin_variants() const override { return Variants::all(); }
  bool has_builtin(Primitive primitive, std::string_view id) const override {
    return Variants::has(primitive, id);
  }
  std::string builtin_unsupported_reason(Primitive primitive, std::string_view id) const override {
    return variant_unsupported_reason(primitive, id, facts(), lookback_policy(instance_->knobs()));
  }
  std::string user_kernel_missing(const UserKernel& kernel) const override {
    return kernel.language == KernelLanguage::ptx ? ptx_unlaunchable_reason(facts()) : "";
  }

  // A user's kernel is compiled and checked for its first claim before any measurement.
  std::unique_ptr<Reducer> make_user_reducer(const UserKernel& kernel) override {
    compile_first_claim(kernel, user_modules_, *logical_device());
    return vulkan::make_user_reducer(logical_device(), kernel, user_modules_);
  }
  std::unique_ptr<Scanner> make_user_scanner(const UserKernel& kernel) override {
    compile_first_claim(kernel, user_modules_, *logical_device());
    return vulkan::make_user_scanner(logical_device(), kernel, user_modules_);
  }
  std::unique_ptr<Reducer> make_builtin_reducer(std::string_view id) override {
    return vulkan::make_reducer(logical_device(), *find_reduce(id));
  }
  std::unique_ptr<Sorter> make_builtin_sorter(std::string_view id) override {
    if (!sort_error_.empty()) throw Error(ErrorCategory::usage, sort_error_);
    return vulkan::make_sorter(logical_device(), id);
  }
  std::unique_ptr<Histogrammer> make_builtin_histogrammer(std::string_view id) override {
    if (!histogram_error_.empty()) throw Error(ErrorCategory::usage, histogram_error_);
    return vulkan::make_histogrammer(logical_device(), id);
  }
  std::unique_ptr<Scanner> make_builtin_scanner(std::string_view id) override {
    if (!scan_error_.empty()) throw Error(ErrorCategory::usage, scan_error_);
    return vulkan::make_scanner(logical_device(), *find_scan(id));
  }

  void release_device() override {
    clock_.reset();
    probes_.reset();
    device_.reset();
  }

  // The logical device of the selected physical device, created on first use.
  std::shared_ptr<Device> logical_device() {
    if (!device_) {
      if (!facts().unusable_reason.empty())
        throw Error(ErrorCategory::unsupported, "vulkan device " + facts().info.name +
                                                    " is unusable: " + facts().unusable_reason);
      device_ = std::make_shared<Device>(instance_, selected());
      probes_ = std::make_unique<Probes>(device_);
    }
    return device_;
  }

  // The devices as core's choice sees them: a discrete GPU preferred.
  std::vector<DeviceCandidate> candidates() const override {
    std::vector<DeviceCandidate> out;
    if (!instance_) return out;
    for (const DeviceFacts& f : instance_->devices())
      out.push_back(
          {f.info, f.unusable_reason.empty(), f.type == vk::PhysicalDeviceType::eDiscreteGpu});
    return out;
  }

  std::shared_ptr<Instance> instance_;
  std::vector<std::pair<std::string, std::string>> knobs_set_;  // VulkanKnobs::set
  std::string scan_error_;       // a malformed look-back knob: every scanner is refused
  std::string sort_error_;       // a malformed sort or polls knob: every sorter is refused
  std::string histogram_error_;  // a malformed histogram knob: every histogrammer is refused
  std::shared_ptr<Device> device_;
  std::unique_ptr<Probes> probes_;
  std::unique_ptr<VulkanClock> clock_;  // made on first use
  UserModules user_modules_;
};

}  // namespace

std::unique_ptr<Backend> make_backend() {
  return std::make_unique<VulkanBackend>();
}

}  // namespace xr::vulkan
