#include "recording.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <cstring>
#include <memory>

#include "xreduce/error.hpp"

namespace xr::onebin {

std::string_view to_string(Slot s) {
  switch (s) {
    case Slot::keys_in:
      return "keys_in";
    case Slot::keys_out:
      return "keys_out";
    case Slot::values_in:
      return "values_in";
    case Slot::values_out:
      return "values_out";
    case Slot::temp:
      return "temp";
  }
  return "?";
}

std::vector<std::byte> bind_params(const KernelStep& k, const SlotBases& bases) {
  std::vector<std::byte> out = k.param_bytes;
  for (const Pointer& p : k.pointers) {
    if (p.at > out.size() || out.size() - p.at < sizeof(std::uint64_t) ||
        static_cast<unsigned>(p.slot) >= kSlots)
      throw Error(ErrorCategory::check_failed,
                  "the recording of " + short_name(k) + " has a pointer at byte " +
                      std::to_string(p.at) + " of its " + std::to_string(out.size()) +
                      "-byte parameter block, or into no allocation of the call");
    const std::uint64_t address = bases[static_cast<unsigned>(p.slot)] + p.offset;
    std::memcpy(out.data() + p.at, &address, sizeof address);
  }
  return out;
}

std::uint32_t fill_word(const FillStep& f) {
  switch (f.element_size) {
    case 1:
      return (f.value & 0xffu) * 0x01010101u;
    case 2:
      return (f.value & 0xffffu) * 0x00010001u;
    default:
      return f.value;
  }
}

namespace {

// The demangled name with template arguments and parameter lists removed, then the namespaces.
std::string bare_name(const std::string& demangled) {
  std::string s;
  int depth = 0;
  for (char c : demangled) {
    if (c == '<' || c == '(') ++depth;
    if (depth == 0) s += c;
    if ((c == '>' || c == ')') && depth > 0) --depth;
  }
  if (const auto at = s.rfind("::"); at != std::string::npos) s = s.substr(at + 2);
  if (const auto at = s.rfind(' '); at != std::string::npos) s = s.substr(at + 1);
  return s;
}

}  // namespace

std::string short_name(const KernelStep& k) {
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> d(
      abi::__cxa_demangle(k.name.c_str(), nullptr, nullptr, &status), &std::free);
  return status == 0 && d ? bare_name(d.get()) : k.name;
}

std::string describe_step(const Step& s) {
  if (const auto* k = std::get_if<KernelStep>(&s)) {
    std::string grid = std::to_string(k->grid.x);
    if (k->grid.y * k->grid.z != 1)
      grid += "x" + std::to_string(k->grid.y) + "x" + std::to_string(k->grid.z);
    return short_name(*k) + " " + grid + " x " +
           std::to_string(k->block.x * k->block.y * k->block.z) + ", " +
           std::to_string(k->shared_bytes) + " B shared";
  }
  const auto& f = std::get<FillStep>(s);
  return "fill " + std::to_string(f.bytes) + " B of " + std::string(to_string(f.slot));
}

}  // namespace xr::onebin
