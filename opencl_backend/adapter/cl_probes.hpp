// The measurement seams of the compare tool on OpenCL: the cache flush, the read and copy probes,
// the per-API overheads, the host link and the SM clock, with the scratch they keep.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cl_device.hpp"
#include "xreduce/backend.hpp"
#include "xreduce/clock.hpp"

namespace xr::opencl {

class Probes {
 public:
  explicit Probes(std::shared_ptr<Device> device);
  ~Probes();
  // Backend::flush_cache: fills a scratch buffer larger than the device's last-level cache.
  void flush_cache();
  std::optional<double> read_bandwidth_gbps();
  std::optional<double> copy_bandwidth_gbps();
  std::vector<Overhead> overheads();
  std::optional<LinkRate> link(std::uint64_t bytes);
  // The SM clock probe where the device has one (NVIDIA: %clock64 against %globaltimer by
  // inline PTX), else nullptr and clock_unmeasured_reason() says why.
  ClockProbe* clock();
  std::string clock_unmeasured_reason();

 private:
  std::shared_ptr<Device> device_;
  MemOwner flush_buffer_;
  std::uint32_t flush_value_ = 0;
  std::unique_ptr<ClockProbe> clock_;
};

}  // namespace xr::opencl
