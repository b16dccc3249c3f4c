#include "xreduce/registry.hpp"

#include "xreduce/error.hpp"

namespace xr {

void Registry::add(std::unique_ptr<Backend> backend) {
  backends_.push_back(std::move(backend));
}

Backend* Registry::find(std::string_view name) const {
  for (const auto& b : backends_)
    if (b->name() == name) return b.get();
  return nullptr;
}

void Registry::note_not_built(std::string name, std::string reason) {
  not_built_.emplace_back(std::move(name), std::move(reason));
}

Backend& Registry::get(std::string_view name) const {
  if (Backend* b = find(name)) return *b;
  for (const auto& [missing, reason] : not_built_)
    if (missing == name)
      throw Error(ErrorCategory::unavailable,
                  "backend '" + missing + "' is not built into this xreduce: " + reason);
  std::string built;
  for (const auto& n : names()) built += (built.empty() ? "" : ", ") + n;
  throw Error(ErrorCategory::usage,
              "unknown backend '" + std::string(name) + "' (this build has: " + built + ")");
}

std::vector<std::string> Registry::names() const {
  std::vector<std::string> out;
  for (const auto& b : backends_) out.emplace_back(b->name());
  return out;
}

}  // namespace xr
