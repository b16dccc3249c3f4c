#include "cl_passes.hpp"

#include "cl_check.hpp"
#include "cl_ptxas.hpp"

namespace xr::opencl {
namespace {

void set_args(cl_kernel kernel, std::array<cl_mem, 3> mem, const PassArgs& p) {
  cl_uint i = 0;
  for (cl_mem m : mem) XR_CL_CHECK(clSetKernelArg(kernel, i++, sizeof(cl_mem), &m));
  const cl_ulong n = p.n;
  XR_CL_CHECK(clSetKernelArg(kernel, i++, sizeof n, &n));
  for (const std::uint32_t v :
       {p.in_offset, p.out_offset, p.groups, p.aux_offset, p.flags, p.param, p.limit}) {
    const cl_uint u = v;
    XR_CL_CHECK(clSetKernelArg(kernel, i++, sizeof u, &u));
  }
}

template <class V>
V kernel_value(cl_kernel kernel, cl_device_id device, cl_kernel_work_group_info what) {
  V v{};
  XR_CL_CHECK(clGetKernelWorkGroupInfo(kernel, device, what, sizeof v, &v, nullptr));
  return v;
}

}  // namespace

void enqueue_launch(cl_command_queue queue, cl_kernel kernel, std::size_t local,
                    std::uint64_t groups, std::size_t index, std::size_t count,
                    const EnqueueEvents& events) {
  const std::size_t global = static_cast<std::size_t>(groups) * local;
  enqueue_command(index, count, events, [&](cl_uint waits, const cl_event* wait, cl_event* event) {
    XR_CL_CHECK(
        clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, &local, waits, wait, event));
  });
}

void enqueue_passes(Programs& programs, cl_command_queue queue, std::span<const Pass> passes,
                    std::array<cl_mem, 3> buffers, const EnqueueEvents& events) {
  for (std::size_t i = 0; i < passes.size(); ++i) {
    const Pass& p = passes[i];
    cl_kernel kernel = programs.kernel(p.key);
    set_args(kernel,
             {buffers[static_cast<int>(p.roles[0])], buffers[static_cast<int>(p.roles[1])],
              buffers[static_cast<int>(p.roles[2])]},
             p.params);
    enqueue_launch(queue, kernel, p.key.workgroup, p.groups, i, passes.size(), events);
  }
}

CompiledPass compiled_kernel(Programs& programs, const DeviceFacts& facts, const KernelKey& key,
                             std::uint64_t groups) {
  cl_kernel kernel = programs.kernel(key);
  const BuiltProgram& built = programs.program(key);
  CompiledPass c;
  c.kernel = key.kernel + ".cl";
  c.block = key.workgroup;
  c.grid = groups;
  c.subgroup_size = facts.subgroup_size();
  c.max_threads =
      static_cast<int>(kernel_value<std::size_t>(kernel, facts.device, CL_KERNEL_WORK_GROUP_SIZE));
  const auto local = kernel_value<cl_ulong>(kernel, facts.device, CL_KERNEL_LOCAL_MEM_SIZE);
  const auto priv = kernel_value<cl_ulong>(kernel, facts.device, CL_KERNEL_PRIVATE_MEM_SIZE);
  c.binary_bytes = built.binary_bytes;
  c.binary = "OpenCL C, " + facts.platform_name + " " + facts.info.driver_version;
  c.statistics.push_back({"CL_KERNEL_LOCAL_MEM_SIZE", std::to_string(local), "local memory"});
  c.statistics.push_back(
      {"CL_KERNEL_PRIVATE_MEM_SIZE", std::to_string(priv), "private memory per work-item"});
  const std::string& log = programs.log_with_ptxas(built);
  read_entry_ptxas(log, "xr_main", c);
  if (!c.static_shared) c.static_shared = local;
  if (!c.registers)
    c.not_reported = registers_missing_reason(facts.has("cl_nv_compiler_options"), log);
  return c;
}

std::vector<CompiledPass> compiled_passes(Programs& programs, const DeviceFacts& facts,
                                          std::span<const Pass> passes) {
  std::vector<CompiledPass> out;
  for (const Pass& p : passes) out.push_back(compiled_kernel(programs, facts, p.key, p.groups));
  return out;
}

}  // namespace xr::opencl
