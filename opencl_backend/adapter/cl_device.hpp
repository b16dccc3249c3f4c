// The tool's device: a context and an in-order profiling queue of its own on one device of the
// system's OpenCL platforms, and the library's Context over them.
#pragma once

#include <memory>
#include <vector>

#include "cl_device_facts.hpp"
#include "cl_handles.hpp"
#include "xreduce/opencl/context.hpp"

namespace xr::opencl {

// Every device of every platform the ICD loader reports, in platform order; devices of a
// platform that fails to answer are skipped (`problems` says which).
struct Platforms {
  std::vector<DeviceFacts> devices;
  std::vector<std::string> problems;
};
Platforms enumerate_devices();

class Device {
 public:
  explicit Device(const DeviceFacts& facts);
  const DeviceFacts& facts() const { return facts_; }
  cl_context context() const { return context_.get(); }
  cl_command_queue queue() const { return queue_.get(); }
  const Context& library() const { return *library_; }
  // Blocks until every command of the queue has completed.
  void finish() const;

 private:
  DeviceFacts facts_;
  ContextOwner context_;
  QueueOwner queue_;
  std::unique_ptr<Context> library_;
};

// A new buffer of `bytes` (at least 1). Error(out_of_memory) when the device cannot hold it.
MemOwner make_buffer(const Device& device, std::uint64_t bytes,
                     cl_mem_flags flags = CL_MEM_READ_WRITE);

}  // namespace xr::opencl
