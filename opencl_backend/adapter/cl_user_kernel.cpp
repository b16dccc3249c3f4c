#include "cl_user_kernel.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "cl_internal.hpp"
#include "cl_user_ptx.hpp"
#include "xreduce/cpu_fault_guard.hpp"
#include "xreduce/error.hpp"

namespace xr::opencl {
namespace {

[[noreturn]] void refuse_user_kernel(const UserKernel& k, const std::string& what) {
  throw Error(ErrorCategory::usage, k.path.string() + ": " + what);
}

std::string abi_arguments(Primitive primitive) {
  return primitive == Primitive::reduce
             ? "(__global const XR_T* in, __global XR_ACC* partials, uint n)"
             : "(__global const XR_T* in, __global XR_T* out, __global uchar* scratch, uint n)";
}

cl_uint abi_argument_count(Primitive primitive) {
  return primitive == Primitive::reduce ? 3 : 4;
}

template <class V>
V user_kernel_value(cl_kernel kernel, cl_device_id device, cl_kernel_work_group_info what) {
  V v{};
  XR_CL_CHECK(clGetKernelWorkGroupInfo(kernel, device, what, sizeof v, &v, nullptr));
  return v;
}

// A build log with the file's own name and line numbers. pocl's compiler honours the prelude's
// #line; NVIDIA's names the source `<kernel>` and counts its lines from the prelude's first:
// respelled `FILE:LINE:` here, as CUDA's NVRTC locations are.
std::string file_locations(const std::string& log, const UserKernel& k, const std::string& source) {
  const std::string directive = "#line 1 \"" + k.path.string() + "\"\n";
  const std::size_t at = source.find(directive);
  if (at == std::string::npos) return log;
  const auto offset = static_cast<std::uint64_t>(
      std::count(source.begin(), source.begin() + static_cast<std::ptrdiff_t>(at), '\n') + 1);
  const std::string tag = "<kernel>:";
  std::string out;
  std::size_t from = 0;
  for (std::size_t m = log.find(tag); m != std::string::npos; m = log.find(tag, from)) {
    std::size_t digits = m + tag.size();
    while (digits < log.size() && std::isdigit(static_cast<unsigned char>(log[digits]))) ++digits;
    out.append(log, from, m - from);
    from = m + tag.size();
    if (digits == m + tag.size() || digits >= log.size() || log[digits] != ':') {
      out += tag;  // not a location: kept as it is
      continue;
    }
    const std::uint64_t line = std::stoull(log.substr(m + tag.size(), digits - m - tag.size()));
    out += line > offset ? k.path.string() + ":" + std::to_string(line - offset) + ":"
                         : log.substr(m, digits + 1 - m);
    from = digits + 1;
  }
  out.append(log, from, std::string::npos);
  return out;
}

// The build, through the device's program cache; a build that fails is the compiler's messages
// under the file's name (the prelude's #line keeps the file's own name and line numbers).
const BuiltProgram& build_user_program(const Device& device, const UserKernel& k,
                                       const std::string& source) {
  try {
    return state_of(device.library())
        .programs->build(source, kUserBuildOptions, k.path.string(), CompilerOutput::quiet);
  } catch (const Error& e) {
    if (e.category() != ErrorCategory::usage) throw;
    // "<what> did not build for <device> (<status>, options ...):\n<log>": the log is the news.
    const std::string what = e.what();
    const std::size_t log = what.find(":\n");
    refuse_user_kernel(
        k, "does not compile for " + device.facts().info.name + ": " +
               file_locations(log == std::string::npos ? what : what.substr(log + 2), k, source));
  }
}

// The kernels' names in `program`, for the message of a missing entry point.
std::string program_kernel_names(cl_program program) {
  std::size_t size = 0;
  if (clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, 0, nullptr, &size) != CL_SUCCESS)
    return "?";
  std::string names(size, '\0');
  if (clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, size, names.data(), nullptr) != CL_SUCCESS)
    return "?";
  while (!names.empty() && names.back() == '\0') names.pop_back();
  std::string out;
  for (char c : names) out += c == ';' ? std::string(", ") : std::string(1, c);
  return out.empty() ? "none" : out;
}

KernelOwner find_entry(const UserKernel& k, cl_program program, const std::string& entry) {
  cl_int status = CL_SUCCESS;
  KernelOwner kernel(clCreateKernel(program, entry.c_str(), &status));
  if (status == CL_SUCCESS) return kernel;
  if (status != CL_INVALID_KERNEL_NAME) check_call(status, __FILE__, __LINE__, "clCreateKernel");
  refuse_user_kernel(k, "no kernel '" + entry +
                            "' (the program has: " + program_kernel_names(program) +
                            "); declare it with entry= or pass=, and define it __kernel");
}

// The type name of argument `index` as the source spells it ("uint", "float"); empty where the
// driver keeps no names.
std::string argument_type_name(cl_kernel kernel, cl_uint index) {
  std::size_t size = 0;
  if (clGetKernelArgInfo(kernel, index, CL_KERNEL_ARG_TYPE_NAME, 0, nullptr, &size) != CL_SUCCESS)
    return {};
  std::string name(size, '\0');
  if (clGetKernelArgInfo(kernel, index, CL_KERNEL_ARG_TYPE_NAME, size, name.data(), nullptr) !=
      CL_SUCCESS)
    return {};
  while (!name.empty() && name.back() == '\0') name.pop_back();
  return name;
}

// The ABI's arguments: their count (CL_KERNEL_NUM_ARGS), then each set as the launch sets it (a
// buffer, then uint n), which the driver refuses for an argument of another size or kind
// (a __local pointer, a ulong n).
void check_arguments(const UserKernel& k, cl_kernel kernel, const std::string& entry) {
  const cl_uint expected = abi_argument_count(k.primitive);
  const std::string abi = "the " + std::string(to_string(k.primitive)) + " ABI's are " +
                          std::to_string(expected) + ", " + abi_arguments(k.primitive) +
                          " (docs/kernels.md)";
  cl_uint count = 0;
  XR_CL_CHECK(clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof count, &count, nullptr));
  if (count != expected)
    refuse_user_kernel(k, "kernel '" + entry + "' takes " + std::to_string(count) +
                              (count == 1 ? " argument; " : " arguments; ") + abi);
  for (cl_uint i = 0; i < expected; ++i) {
    const bool buffer = i + 1 < expected;
    const cl_mem none = nullptr;
    const cl_uint zero = 0;
    const cl_int status = buffer ? clSetKernelArg(kernel, i, sizeof none, &none)
                                 : clSetKernelArg(kernel, i, sizeof zero, &zero);
    if (status != CL_SUCCESS)
      refuse_user_kernel(k, "kernel '" + entry + "' argument " + std::to_string(i + 1) +
                                " is not " + (buffer ? "a __global pointer" : "a uint") +
                                " (clSetKernelArg: " + error_name(status) + "); " + abi);
  }
  // A floating-point n has a uint's size, so clSetKernelArg takes it: its type name tells, where
  // the driver kept the names (CL_KERNEL_ARG_INFO_NOT_AVAILABLE otherwise: the size check stands).
  const std::string n_type = argument_type_name(kernel, expected - 1);
  if (n_type == "float" || n_type == "half" || n_type == "double")
    refuse_user_kernel(k, "kernel '" + entry + "' argument " + std::to_string(expected) + " is a " +
                              n_type + ", not a uint; " + abi);
}

// A CPU device runs a work-group on one of its worker threads' stack, each work-item's private
// arrays on it: past that stack the process dies of a SIGSEGV no handler can catch (it has no
// stack left to run on). Checked where the driver reports the private memory; pocl 3.1 reports
// 1024 bytes whatever a kernel holds, so a kernel there is caught only as it overflows
// (docs/kernels.md, "Bad kernels").
void check_private_memory(const UserKernel& k, cl_kernel kernel, const std::string& name,
                          const DeviceFacts& f) {
  if (!(f.type & CL_DEVICE_TYPE_CPU)) return;
  const auto per_item = user_kernel_value<cl_ulong>(kernel, f.device, CL_KERNEL_PRIVATE_MEM_SIZE);
  // A quarter kept for the driver's own frames, as pocl's later versions keep.
  const std::uint64_t stack = new_thread_stack_bytes() / 4 * 3;
  if (stack && per_item * k.block > stack)
    refuse_user_kernel(
        k, name + " uses " + std::to_string(per_item) +
               " bytes of private memory a work-item (CL_KERNEL_PRIVATE_MEM_SIZE): " +
               std::to_string(per_item * k.block) + " at block=" + std::to_string(k.block) +
               ", past the " + std::to_string(stack) + " bytes of stack " + f.info.name +
               " runs a work-group on");
}

// The declared block must fit the device, the kernel (its registers and local memory:
// CL_KERNEL_WORK_GROUP_SIZE) and its reqd_work_group_size, and its local memory the device's:
// checked before the first launch, which would otherwise fail with CL_INVALID_WORK_GROUP_SIZE or
// CL_OUT_OF_RESOURCES.
void check_block(const UserKernel& k, cl_kernel kernel, const std::string& entry,
                 const DeviceFacts& f) {
  const std::string name = "kernel '" + entry + "'";
  if (k.block > f.max_work_group)
    refuse_user_kernel(k, "block=" + std::to_string(k.block) + " is past " + f.info.name + "'s " +
                              std::to_string(f.max_work_group) +
                              " work-items per work-group (CL_DEVICE_MAX_WORK_GROUP_SIZE)");
  const auto most = user_kernel_value<std::size_t>(kernel, f.device, CL_KERNEL_WORK_GROUP_SIZE);
  if (k.block > most)
    refuse_user_kernel(k, name + " runs at most " + std::to_string(most) +
                              " work-items per work-group on " + f.info.name +
                              " (CL_KERNEL_WORK_GROUP_SIZE: its registers and local memory), "
                              "not block=" +
                              std::to_string(k.block));
  std::size_t required[3] = {0, 0, 0};
  XR_CL_CHECK(clGetKernelWorkGroupInfo(kernel, f.device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                       sizeof required, required, nullptr));
  if (required[0] != 0 && (required[0] != k.block || required[1] > 1 || required[2] > 1))
    refuse_user_kernel(k, name + " requires work-groups of (" + std::to_string(required[0]) + ", " +
                              std::to_string(required[1]) + ", " + std::to_string(required[2]) +
                              ") (reqd_work_group_size); it is launched as (" +
                              std::to_string(k.block) +
                              ", 1, 1): declare block=" + std::to_string(required[0]));
  const auto local = user_kernel_value<cl_ulong>(kernel, f.device, CL_KERNEL_LOCAL_MEM_SIZE);
  if (local > f.local_memory)
    refuse_user_kernel(k, name + " uses " + std::to_string(local) + " bytes of local memory; " +
                              f.info.name + " allows " + std::to_string(f.local_memory) +
                              " (CL_DEVICE_LOCAL_MEM_SIZE)");
  check_private_memory(k, kernel, name, f);
}

}  // namespace

UserProgram::UserProgram(const Device& device, const UserKernel& k, const UserProgramKey& key)
    : device_(device),
      kernel_(k),
      ptx_(k.language == KernelLanguage::ptx
               ? std::make_unique<BuiltProgram>(build_user_ptx(device, k))
               : nullptr),
      built_(ptx_ ? ptx_.get() : &build_user_program(device, k, user_source(k, key))) {
  for (const KernelPass& pass : k.passes) {
    KernelOwner kernel = find_entry(k, built_->program.get(), pass.entry);
    check_arguments(k, kernel.get(), pass.entry);
    check_block(k, kernel.get(), pass.entry, device.facts());
    passes_.push_back(std::move(kernel));
  }
}

CompiledPass UserProgram::describe(std::size_t i, std::uint64_t groups) const {
  const DeviceFacts& f = device_.facts();
  const std::string& entry = kernel_.passes.at(i).entry;
  CompiledPass c;
  c.kernel = kernel_.path.filename().string() + ": " + entry;
  c.block = kernel_.block;
  c.grid = groups;
  c.subgroup_size = f.subgroup_size();
  c.max_threads = static_cast<int>(
      user_kernel_value<std::size_t>(pass(i), f.device, CL_KERNEL_WORK_GROUP_SIZE));
  const auto local = user_kernel_value<cl_ulong>(pass(i), f.device, CL_KERNEL_LOCAL_MEM_SIZE);
  const auto priv = user_kernel_value<cl_ulong>(pass(i), f.device, CL_KERNEL_PRIVATE_MEM_SIZE);
  c.binary_bytes = built_->binary_bytes;
  c.binary =
      std::string(ptx_ ? "PTX" : "OpenCL C") + ", " + f.platform_name + " " + f.info.driver_version;
  c.statistics.push_back({"CL_KERNEL_LOCAL_MEM_SIZE", std::to_string(local), "local memory"});
  c.statistics.push_back(
      {"CL_KERNEL_PRIVATE_MEM_SIZE", std::to_string(priv), "private memory per work-item"});
  // A PTX build is its own, not the cache's: its log is what its one build said.
  const std::string& log =
      ptx_ ? ptx_->log : state_of(device_.library()).programs->log_with_ptxas(*built_);
  read_entry_ptxas(log, entry, c);
  if (!c.static_shared) c.static_shared = local;
  if (!c.registers)
    c.not_reported = ptx_ && !has_ptxas_lines(log)
                         ? "registers not reported: the driver's build log of a PTX program "
                           "binary holds no ptxas lines (CUDA's row of the same PTX has them)"
                         : registers_missing_reason(f.has("cl_nv_compiler_options"), log);
  return c;
}

UserProgram& UserPrograms::get(const UserProgramKey& key) {
  if (auto it = programs_.find(key); it != programs_.end()) return *it->second;
  auto program = std::make_unique<UserProgram>(*device_, kernel_, key);
  return *programs_.emplace(key, std::move(program)).first->second;
}

std::string user_kernel_missing(const UserKernel& k, const DeviceFacts& f) {
  for (DType t : k.dtypes) {
    const bool half = t == DType::f16 && !f.has("cl_khr_fp16");
    if (half || (t == DType::f64 && !f.fp64()))
      return "declares " + std::string(to_string(t)) + ", which OpenCL C has only with " +
             (half ? "cl_khr_fp16" : "cl_khr_fp64") + ", and " + f.info.name +
             " lacks it (--kernel-spec 'dtypes=...' overrides the file's dtypes=)";
  }
  return {};
}

void compile_first_claim(const std::shared_ptr<Device>& device, const UserKernel& k) {
  UserPrograms programs(device, k);
  const DType t = k.dtypes.front();
  programs.get({.data = t, .dtype = t, .op = k.ops.front(), .kind = k.kinds.front()});
}

void pad_with_identity(const Device& device, cl_mem buffer, DType t, std::uint64_t n, Op op,
                       std::uint64_t tile, std::string_view id) {
  const std::uint64_t padded = kernel_padded(n, tile, t, id);
  if (padded == n) return;
  const std::vector<std::byte> pad = identity_bytes(t, op, padded - n);
  device.write(buffer, n * size_of(t), pad.size(), pad.data());
}

MemOwner make_user_buffer(const Device& device, std::uint64_t bytes) {
  return make_buffer(device, bytes + kKernelSlackBytes);
}

CpuFaultGuard user_call_guard(const Device& device, const UserKernel& kernel) {
  return CpuFaultGuard((device.facts().type & CL_DEVICE_TYPE_CPU) != 0, "opencl", kernel.id,
                       device.facts().info.name);
}

void enqueue_user_pass(cl_command_queue queue, cl_kernel kernel, std::uint64_t groups,
                       std::uint32_t block, std::span<const cl_event> wait, cl_event* first,
                       cl_event* last) {
  const std::size_t local = block;
  const std::size_t global = static_cast<std::size_t>(groups) * local;
  cl_event event = nullptr;
  XR_CL_CHECK(clEnqueueNDRangeKernel(
      queue, kernel, 1, nullptr, &global, &local, static_cast<cl_uint>(wait.size()),
      wait.empty() ? nullptr : wait.data(), first || last ? &event : nullptr));
  const EventOwner owner(event);
  for (cl_event* to : {first, last})
    if (to) {
      XR_CL_CHECK(clRetainEvent(event));
      *to = event;
    }
}

}  // namespace xr::opencl
