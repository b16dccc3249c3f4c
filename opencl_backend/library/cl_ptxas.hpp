// NVIDIA's -cl-nv-verbose build log: ptxas's lines for a kernel ("Used 16 registers, 1024 bytes
// smem, ...") read into a CompiledPass, for built-in and users' kernels alike. Plain string
// scanning: GCC 12 warns inside <regex> at -O1 (the sanitizer build).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "xreduce/compiled.hpp"

namespace xr::opencl {

// The decimal number just before `words` in `text` ("16" of "Used 16 registers" for
// " registers"), if any.
std::optional<std::uint64_t> number_before(std::string_view text, std::string_view words);

// Registers, shared, stack, spill and constant bytes and every ptxas line of `log`.
void read_ptxas(std::string_view log, CompiledPass& pass);
// The same for the kernel `entry` of a program's log: ptxas's lines from its "Compiling entry
// function" line to the next one (a log naming no entry is read whole).
void read_entry_ptxas(std::string_view log, std::string_view entry, CompiledPass& pass);

// Whether `log` holds ptxas's lines: NVIDIA's driver writes them only when ptxas runs.
bool has_ptxas_lines(std::string_view log);

// Why a pass has no register count: NVIDIA's driver (`nvidia_verbose`: it took -cl-nv-verbose)
// logs ptxas only when ptxas runs, and a build whose machine code its compute cache
// (~/.nv/ComputeCache) already holds runs none; other drivers report none at all.
std::string registers_missing_reason(bool nvidia_verbose, std::string_view log);

}  // namespace xr::opencl
