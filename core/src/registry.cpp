#include "xreduce/registry.hpp"

#include "xreduce/error.hpp"
#include "xreduce/user_kernel.hpp"

namespace xr {

void Registry::add(std::unique_ptr<Backend> backend) {
  names_.emplace_back(backend->name());
  factories_.emplace_back();
  backends_.push_back(std::move(backend));
}

void Registry::add(std::string name, Factory make) {
  names_.push_back(std::move(name));
  factories_.push_back(std::move(make));
  backends_.emplace_back();
}

Backend* Registry::make(std::size_t i) const {
  if (!backends_[i]) backends_[i] = factories_[i]();
  return backends_[i].get();
}

std::span<const std::unique_ptr<Backend>> Registry::backends() const {
  for (std::size_t i = 0; i < backends_.size(); ++i) make(i);
  return backends_;
}

Backend* Registry::find(std::string_view name) const {
  for (std::size_t i = 0; i < names_.size(); ++i)
    if (names_[i] == name) return make(i);
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
  return names_;
}

void Registry::add_kernel(const UserKernel& kernel) const {
  bool added = false;
  for (std::string_view name : backends_taking(kernel.language))
    if (Backend* b = find(name)) {
      b->add_kernel(kernel);
      added = true;
    }
  // None built: get's error names the language's own backend and why it is missing.
  if (!added) get(backend_of(kernel.language)).add_kernel(kernel);
}

}  // namespace xr
