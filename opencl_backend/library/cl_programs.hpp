// Kernels built once per device and kept: in memory for the process, and as program binaries on
// disk between runs (core's KernelCache, suffix .clbin, keyed by the device, its driver, the
// source and the options). A build that fails throws with the driver's build log.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cl_device_facts.hpp"
#include "cl_handles.hpp"
#include "xreduce/kernel_cache.hpp"
#include "xreduce/types.hpp"

namespace xr::opencl {

// The driver's build log of `program` for `device`, its trailing NULs and newlines dropped; empty
// where there is none.
std::string build_log(cl_program program, cl_device_id device);
// The first lines of a failed build's log, "..." where it goes on: what an error carries.
std::string first_lines(const std::string& log);

// One built-in kernel build: kernels/<kernel>.cl after common.cl and group.cl, with -D options.
struct KernelKey {
  std::string kernel;  // "smem_sequential"
  DType dtype = DType::i32;
  Op op = Op::sum;
  std::uint32_t workgroup = 256;
  std::uint32_t unroll = 1;
  bool idx64 = false;         // 64-bit element indices
  bool dst_elements = false;  // the destination holds elements (a scan's output)
  std::string defines = {};   // further options ("-DXR_WIDE_DST")
  auto operator<=>(const KernelKey&) const = default;
};

// Whether the compiler's own output on stderr is shown while a program compiles: quiet for a
// user's kernel, whose build log (which the error carries) holds all of it.
enum class CompilerOutput { shown, quiet };

// A built program and what its build said.
struct BuiltProgram {
  ProgramOwner program;
  std::string options;
  std::string log;          // the build log (NVIDIA's -cl-nv-verbose: ptxas's resource lines)
  bool from_cache = false;  // loaded from a program binary
  std::uint64_t binary_bytes = 0;
  std::string source;    // what was built: for a build again
  std::string disk_key;  // its entry in the disk cache
  std::string memo_key;  // and in this process's
  CompilerOutput output = CompilerOutput::shown;
  std::string binary;          // the program binary kept there
  bool ptxas_rebuilt = false;  // log_with_ptxas built it once more: it does not again
};

class Programs {
 public:
  // `defines`: options every built-in kernel is built with (the knobs' -D).
  Programs(cl_context context, const DeviceFacts& facts, std::string defines = {});

  // The kernel xr_main of `key`, built on first use; owned by the cache (valid as long as it).
  cl_kernel kernel(const KernelKey& key);
  // The program `key` was built into (after kernel(key)).
  const BuiltProgram& program(const KernelKey& key);
  // Any source with any options (users' kernels): built on first use, by the same cache.
  const BuiltProgram& build(const std::string& source, const std::string& options,
                            const std::string& what, CompilerOutput output = CompilerOutput::shown);

  // The options of a built-in kernel's build.
  std::string options(const KernelKey& key) const;

  // The build log of `built` with ptxas's lines (registers, spills) where the driver can give
  // them. NVIDIA's driver runs ptxas, and logs, only for machine code its compute cache
  // (~/.nv/ComputeCache) lacks, so a program any process built before logs nothing; its source is
  // then built once more beside an empty kernel of a name no cache holds, whose log has every
  // kernel's lines, and that log is kept with the binary in the disk cache for later processes.
  const std::string& log_with_ptxas(const BuiltProgram& built);

 private:
  struct Entry {
    const BuiltProgram* program = nullptr;
    KernelOwner kernel;
  };
  BuiltProgram compile(const std::string& source, const std::string& options,
                       const std::string& what, CompilerOutput output);
  // clBuildProgram of `source`; the program and its status, the log in `log`.
  std::pair<ProgramOwner, cl_int> build_source(const std::string& source, const std::string& all,
                                               CompilerOutput output, std::string& log) const;

  cl_context context_;
  const DeviceFacts& facts_;
  std::string defines_;
  KernelCache disk_;
  std::map<std::string, std::unique_ptr<BuiltProgram>> built_;  // by source + options hash
  std::map<KernelKey, Entry> kernels_;
};

}  // namespace xr::opencl
