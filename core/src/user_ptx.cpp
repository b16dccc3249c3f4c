#include "xreduce/user_ptx.hpp"

#include <algorithm>
#include <initializer_list>
#include <sstream>
#include <vector>

#include "xreduce/error.hpp"

namespace xr {
namespace {

[[noreturn]] void refuse(const UserKernel& k, const std::string& what) {
  throw Error(ErrorCategory::usage, k.path.string() + ": " + what);
}

std::string abi_params(Primitive primitive) {
  return primitive == Primitive::reduce ? "(.u64 in, .u64 partials, .u32 n)"
                                        : "(.u64 in, .u64 out, .u64 scratch, .u32 n)";
}

// A declaration's words: ".param", its type, any attributes (.ptr, .align 8), its name.
std::vector<std::string> words_of(const std::string& declaration) {
  std::istringstream in(declaration);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

// Whether `declaration` is a scalar of one of `types` (not another type, an array or a struct
// passed by value).
bool is_scalar(const std::string& declaration, std::initializer_list<const char*> types) {
  const std::vector<std::string> words = words_of(declaration);
  if (words.size() < 3 || words.front() != ".param" || declaration.find('[') != std::string::npos)
    return false;
  return std::any_of(types.begin(), types.end(), [&](const char* t) { return words[1] == t; });
}

void check_entry_params(const UserKernel& k, const PtxModule& ptx, const std::string& entry) {
  const std::vector<std::string> params = ptx.params(entry);
  const std::size_t pointers = ptx_pointer_params(k.primitive);
  const std::string abi = "the " + std::string(to_string(k.primitive)) + " ABI's are " +
                          std::to_string(pointers + 1) + ", " + abi_params(k.primitive) +
                          " (docs/kernels.md)";
  if (params.size() != pointers + 1)
    refuse(k, "entry '" + entry + "' takes " + std::to_string(params.size()) +
                  (params.size() == 1 ? " parameter; " : " parameters; ") + abi);
  for (std::size_t i = 0; i < pointers; ++i)
    if (!is_scalar(params[i], {".u64", ".b64", ".s64"}))
      refuse(k, "entry '" + entry + "' parameter " + std::to_string(i + 1) + " (" + params[i] +
                    ") is not a 64-bit pointer; " + abi);
  if (!is_scalar(params.back(), {".u32", ".b32", ".s32"}))
    refuse(k, "entry '" + entry + "' parameter " + std::to_string(pointers + 1) + " (" +
                  params.back() + ") is not a 32-bit n; " + abi);
}

}  // namespace

PtxModule checked_user_ptx(const UserKernel& k) {
  const PtxModule ptx = [&] {
    try {
      return PtxModule::parse(k.contents);
    } catch (const Error& e) {
      refuse(k, e.what());
    }
  }();
  const std::vector<std::string> entries = ptx.entries();
  for (const KernelPass& pass : k.passes) {
    if (std::find(entries.begin(), entries.end(), pass.entry) == entries.end()) {
      std::string names;
      for (const std::string& e : entries) names += (names.empty() ? "" : ", ") + e;
      refuse(k, "no entry '" + pass.entry + "' (the PTX has: " + (names.empty() ? "none" : names) +
                    "); declare it with entry= or pass=, and define it extern \"C\"");
    }
    check_entry_params(k, ptx, pass.entry);
  }
  return ptx;
}

std::size_t ptx_pointer_params(Primitive primitive) {
  return primitive == Primitive::reduce ? 2 : 3;
}

std::string ptx_param_name(const std::string& declaration) {
  const std::vector<std::string> words = words_of(declaration);
  return words.empty() ? std::string() : words.back();
}

}  // namespace xr
