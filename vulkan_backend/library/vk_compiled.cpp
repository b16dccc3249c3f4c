#include "vk_compiled.hpp"

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string_view>
#include <vector>

#include "vk_check.hpp"
#include "xreduce/error.hpp"

namespace xr::vulkan {
namespace {

struct Statistic {
  DriverStatistic text;
  std::optional<std::uint64_t> count;  // integer statistics, for the shared fields
};

Statistic statistic_of(const VkPipelineExecutableStatisticKHR& s) {
  Statistic out{{s.name, "", s.description}, std::nullopt};
  switch (s.format) {
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
      out.text.value = s.value.b32 ? "true" : "false";
      break;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
      out.text.value = std::to_string(s.value.i64);
      if (s.value.i64 >= 0) out.count = static_cast<std::uint64_t>(s.value.i64);
      break;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
      out.text.value = std::to_string(s.value.u64);
      out.count = s.value.u64;
      break;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR: {
      std::ostringstream os;
      os << s.value.f64;
      out.text.value = os.str();
      break;
    }
    default:
      out.text.value = "(a format this build does not know)";
  }
  return out;
}

// The shared fields from NVIDIA's names; a sentinel is no byte count.
void read_known(CompiledPass& pass, const Statistic& s) {
  if (!s.count) return;
  const std::string_view name = s.text.name;
  const std::uint64_t v = *s.count;
  if (name == "Register Count") pass.registers = static_cast<int>(v);
  if (name == "Shared Memory Size") pass.static_shared = v;
  if (name == "Binary Size") pass.binary_bytes = v;
  if (name == "Stack Size") pass.stack_bytes = v;
  if (name == "Local Memory Size" && v < kStatisticSentinel) pass.local_bytes = v;
}

// The first executable of `pipeline` (a compute pipeline has one): its subgroup size and its
// statistics into `pass`.
void read_statistics(const vk::raii::Device& device, vk::Pipeline pipeline, CompiledPass& pass) {
  const auto& d = *device.getDispatcher();
  const VkPipelineInfoKHR info{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR, nullptr, pipeline};
  std::uint32_t count = 0;
  XR_VK_CHECK(vk::Result(d.vkGetPipelineExecutablePropertiesKHR(*device, &info, &count, nullptr)));
  std::vector<VkPipelineExecutablePropertiesKHR> executables(
      count, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR, nullptr, 0, {}, {}, 0});
  XR_VK_CHECK(vk::Result(
      d.vkGetPipelineExecutablePropertiesKHR(*device, &info, &count, executables.data())));
  if (count == 0) {
    pass.not_reported = "the driver lists no executable for this pipeline";
    return;
  }
  pass.subgroup_size = static_cast<int>(executables[0].subgroupSize);
  const VkPipelineExecutableInfoKHR exec{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR, nullptr,
                                         pipeline, 0};
  std::uint32_t stats = 0;
  XR_VK_CHECK(vk::Result(d.vkGetPipelineExecutableStatisticsKHR(*device, &exec, &stats, nullptr)));
  std::vector<VkPipelineExecutableStatisticKHR> values(
      stats, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR, nullptr, {}, {}, {}, {}});
  XR_VK_CHECK(
      vk::Result(d.vkGetPipelineExecutableStatisticsKHR(*device, &exec, &stats, values.data())));
  for (std::uint32_t i = 0; i < stats; ++i) {
    const Statistic s = statistic_of(values[i]);
    read_known(pass, s);
    pass.statistics.push_back(s.text);
  }
  if (!pass.registers || !pass.static_shared)
    pass.not_reported = "registers and shared memory not reported by this driver (" +
                        std::string(executables[0].name) + ": " + std::to_string(stats) +
                        " statistics of its own)";
}

// `bytes` into `path`, whole, or Error(usage) naming the file.
void write_file(const std::filesystem::path& path, const char* bytes, std::size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes, static_cast<std::streamsize>(size));
  if (!out.flush())
    throw Error(ErrorCategory::usage, "XR_VK_CAPTURE_IR: cannot write " + path.string());
}

// The internal representations of executable `index`: sized, then filled (the extension's
// two-call idiom, twice: the list, then each one's bytes).
std::vector<VkPipelineExecutableInternalRepresentationKHR> representations(
    const vk::raii::Device& device, vk::Pipeline pipeline, std::uint32_t index,
    std::vector<std::vector<char>>& storage) {
  const auto& d = *device.getDispatcher();
  const VkPipelineExecutableInfoKHR exec{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR, nullptr,
                                         pipeline, index};
  std::uint32_t count = 0;
  XR_VK_CHECK(vk::Result(
      d.vkGetPipelineExecutableInternalRepresentationsKHR(*device, &exec, &count, nullptr)));
  std::vector<VkPipelineExecutableInternalRepresentationKHR> irs(
      count, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INTERNAL_REPRESENTATION_KHR,
              nullptr,
              {},
              {},
              VK_FALSE,
              0,
              nullptr});
  XR_VK_CHECK(vk::Result(
      d.vkGetPipelineExecutableInternalRepresentationsKHR(*device, &exec, &count, irs.data())));
  storage.resize(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    storage[i].resize(irs[i].dataSize);
    irs[i].pData = storage[i].data();
  }
  if (count > 0)
    XR_VK_CHECK(vk::Result(
        d.vkGetPipelineExecutableInternalRepresentationsKHR(*device, &exec, &count, irs.data())));
  return irs;
}

}  // namespace

void write_internal_representations(const vk::raii::Device& device, vk::Pipeline pipeline,
                                    const std::string& dir, const std::string& stem) {
  const auto& d = *device.getDispatcher();
  const std::filesystem::path base(dir);
  std::error_code ec;
  std::filesystem::create_directories(base, ec);
  std::string file = stem;
  for (char& c : file)
    if (c == '/' || c == '\\' || c == ':') c = '_';
  const VkPipelineInfoKHR info{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR, nullptr, pipeline};
  std::uint32_t executables = 0;
  XR_VK_CHECK(
      vk::Result(d.vkGetPipelineExecutablePropertiesKHR(*device, &info, &executables, nullptr)));
  std::string listing;
  for (std::uint32_t e = 0; e < executables; ++e) {
    std::vector<std::vector<char>> storage;
    const auto irs = representations(device, pipeline, e, storage);
    for (std::size_t i = 0; i < irs.size(); ++i) {
      const std::string name = file + "-" + std::to_string(e) + "-" + std::to_string(i);
      const std::size_t size =
          irs[i].isText && !storage[i].empty() ? storage[i].size() - 1 : storage[i].size();
      write_file(base / (name + (irs[i].isText ? ".txt" : ".bin")), storage[i].data(), size);
      listing += name + ": " + irs[i].name + " (" + irs[i].description + "), " +
                 std::to_string(size) + " bytes\n";
    }
    if (irs.empty())
      listing += file + "-" + std::to_string(e) + ": the driver lists no internal representation\n";
  }
  write_file(base / (file + "-list.txt"), listing.data(), listing.size());
}

CompiledPass compiled_pass(const vk::raii::Device& device, const DeviceFacts& facts,
                           vk::Pipeline pipeline, std::string module, std::uint32_t workgroup,
                           Grid grid) {
  CompiledPass pass;
  pass.kernel = std::move(module);
  pass.block = workgroup;
  pass.grid = std::uint64_t(grid.x) * grid.y;
  pass.binary = "SPIR-V, compiled by " + facts.info.driver_version;
  if (facts.executable_statistics)
    read_statistics(device, pipeline, pass);
  else
    pass.not_reported =
        "not reported by this driver: the device has no "
        "VK_KHR_pipeline_executable_properties pipelineExecutableInfo enabled";
  return pass;
}

}  // namespace xr::vulkan
