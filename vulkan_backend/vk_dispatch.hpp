// Dispatch layer of the Vulkan backend: the variant table (data: shader, workgroup size, shape,
// requirements), device arrays, and the reducers that plan passes, record them once into one
// command buffer per (array, n, op, dtype) and resubmit it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "vk_context.hpp"
#include "xreduce/backend.hpp"

namespace xr::vulkan {

// How a variant maps n elements to workgroups.
enum class Shape {
  per_block,    // one workgroup per `items * workgroup` elements (2-D dispatch past the 1-D
                // limit), re-dispatched over the partials until one value remains
  grid_stride,  // at most `max_groups` workgroups walk the input; re-dispatched likewise
  single_pass,  // grid-stride, and the last workgroup folds the partials in the same dispatch
};

// Device features a variant needs.
enum Need : std::uint32_t {
  need_subgroup_basic = 1u << 0,
  need_subgroup_shuffle = 1u << 1,
  need_subgroup_shuffle_relative = 1u << 2,
  need_subgroup_arithmetic = 1u << 3,
};

// One row of the variant table. Tuned numbers carry the measurement that chose them.
struct VariantSpec {
  std::string_view id;      // catalog id
  std::string_view shader;  // algorithm name in shaders/ ("<shader>.<dtype>.<op>" modules)
  Shape shape;
  std::uint32_t workgroup;   // invocations (specialization constant 0), a power of two
  std::uint32_t items;       // elements per invocation per block (per_block) or per iteration
  std::uint32_t unroll;      // specialization constant 1 (fast/*: vector loads in flight)
  std::uint32_t max_groups;  // grid_stride/single_pass: workgroups of the first pass
  std::uint32_t needs;       // Need bits
};

std::span<const VariantSpec> variant_table();
const VariantSpec* find_variant(std::string_view id);
std::vector<VariantInfo> variant_infos();
// Why the device cannot run `spec`, in words; empty when it can.
std::string unsupported_reason(const VariantSpec& spec, const DeviceFacts& facts);

// Largest n of `t` one array may hold on this device: one storage-buffer binding must cover it
// (maxStorageBufferRange), one allocation must hold it, and shader indices are 32-bit.
std::uint64_t max_elements(const DeviceFacts& facts, DType t);

// Device memory holding n elements of one dtype. Keeps its device alive.
class VulkanArray final : public DeviceArray {
 public:
  VulkanArray(std::shared_ptr<Device> device, HostView data);
  // Uninitialised: a scan's output.
  VulkanArray(std::shared_ptr<Device> device, DType t, std::size_t n);
  DType dtype() const override { return dtype_; }
  std::size_t size() const override { return size_; }
  void write(HostView src) override;
  void read_into(HostArray& out) const override;

  const Device* device() const { return device_.get(); }
  const Buffer& buffer() const { return buffer_; }
  // Unique per array for the life of the process: the key of recorded command buffers, which
  // must never be reused for a later array at the same handle.
  std::uint64_t serial() const { return serial_; }

 private:
  std::shared_ptr<Device> device_;
  DType dtype_;
  std::size_t size_;
  Buffer buffer_;
  std::uint64_t serial_;
};

std::unique_ptr<Reducer> make_reducer(std::shared_ptr<Device> device, const VariantSpec& spec);

// The measurement seams of the compare tool, with the scratch they keep between calls.
class Probes {
 public:
  explicit Probes(std::shared_ptr<Device> device) : device_(std::move(device)) {}
  // Backend::flush_cache: fills a scratch buffer of twice the largest L2 expected (64 MiB;
  // H100/H200 have 50 MiB), so earlier data is evicted; nothing on a CPU device.
  void flush_cache();
  // Backend::measure_read_bandwidth_gbps: the read_bandwidth shader over up to 1 GiB (less when
  // the device holds less), median of several timed runs.
  double read_bandwidth_gbps();
  // Backend::measure_copy_bandwidth_gbps: the copy_bandwidth shader over up to 1 GiB into another
  // buffer (not vkCmdCopyBuffer, which may use a DMA engine), bytes read + written per second,
  // median of several timed runs.
  double copy_bandwidth_gbps();

 private:
  std::shared_ptr<Device> device_;
  std::optional<Buffer> flush_buffer_;
  std::uint32_t flush_value_ = 0;
};

}  // namespace xr::vulkan
