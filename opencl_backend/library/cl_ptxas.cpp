#include "cl_ptxas.hpp"

#include <cctype>
#include <string>

namespace xr::opencl {

std::optional<std::uint64_t> number_before(std::string_view text, std::string_view words) {
  const std::size_t at = text.find(words);
  if (at == std::string_view::npos) return std::nullopt;
  std::size_t begin = at;
  while (begin > 0 && std::isdigit(static_cast<unsigned char>(text[begin - 1]))) --begin;
  if (begin == at) return std::nullopt;
  return std::stoull(std::string(text.substr(begin, at - begin)));
}

void read_ptxas(std::string_view log, CompiledPass& pass) {
  if (auto v = number_before(log, " registers")) pass.registers = static_cast<int>(*v);
  if (auto v = number_before(log, " bytes smem")) pass.static_shared = *v;
  if (auto v = number_before(log, " bytes stack frame")) pass.stack_bytes = *v;
  if (auto v = number_before(log, " bytes spill stores")) pass.local_bytes = *v;
  if (auto v = number_before(log, " bytes cmem[0]")) pass.constant_bytes = *v;
  std::size_t at = 0;
  while (at < log.size()) {
    std::size_t end = log.find('\n', at);
    if (end == std::string_view::npos) end = log.size();
    const std::string_view line = log.substr(at, end - at);
    if (line.find("ptxas") != std::string_view::npos ||
        line.find("bytes stack") != std::string_view::npos)
      pass.statistics.push_back({"ptxas", std::string(line), "the build log (-cl-nv-verbose)"});
    at = end + 1;
  }
}

void read_entry_ptxas(std::string_view log, std::string_view entry, CompiledPass& pass) {
  constexpr std::string_view marker = "Compiling entry function '";
  if (log.find(marker) == std::string_view::npos) return read_ptxas(log, pass);
  const std::size_t begin = log.find(std::string(marker) + std::string(entry) + "'");
  if (begin == std::string_view::npos) return;
  const std::size_t end = log.find(marker, begin + marker.size());
  read_ptxas(log.substr(begin, end == std::string_view::npos ? end : end - begin), pass);
}

bool has_ptxas_lines(std::string_view log) {
  return log.find("ptxas") != std::string_view::npos;
}

std::string registers_missing_reason(bool nvidia_verbose, std::string_view log) {
  if (!nvidia_verbose)
    return "registers not reported by this driver (NVIDIA's come from -cl-nv-verbose)";
  if (!has_ptxas_lines(log))
    return "registers not reported: NVIDIA's driver ran no ptxas for this program, even for a "
           "build no compute cache holds";
  return "registers not in ptxas's lines of the build log";
}

}  // namespace xr::opencl
