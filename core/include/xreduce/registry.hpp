// The explicit backend registry: filled by register_builtin_backends() from main(), never by
// static initialisers, so the order and the set of backends are visible in one function.
// Backends are made on first use: a command that names one backend does not pay for the others
// (making the Vulkan backend loads the loader and every ICD: ~0.1 s a process on lavapipe).
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "xreduce/backend.hpp"

namespace xr {

class Registry {
 public:
  using Factory = std::function<std::unique_ptr<Backend>()>;
  Registry() = default;
  Registry(const Registry&) = delete;  // factories may refer to the registry
  Registry& operator=(const Registry&) = delete;

  void add(std::unique_ptr<Backend> backend);
  // A backend called `name`, made by `make` the first time it is asked for (find, get,
  // backends).
  void add(std::string name, Factory make);
  // Records a backend this build left out and why (configure's words), so asking for it is
  // Error(unavailable) with that reason rather than "unknown backend".
  void note_not_built(std::string name, std::string reason);
  // Every backend, made now where it was not yet, in the order added.
  std::span<const std::unique_ptr<Backend>> backends() const;
  // nullptr when no backend of that name is built; made now where it was not yet.
  Backend* find(std::string_view name) const;
  // Error(unavailable) for a backend noted as not built; Error(usage) naming the built backends
  // for any other unknown name.
  Backend& get(std::string_view name) const;
  std::vector<std::string> names() const;
  // Adds a user's kernel to every built backend that takes its language (backends_taking,
  // Backend::add_kernel): Error(unavailable) when none is built.
  void add_kernel(const UserKernel& kernel) const;
  // The backends noted as not built, with configure's reason, in the order noted.
  std::span<const std::pair<std::string, std::string>> not_built() const { return not_built_; }

 private:
  Backend* make(std::size_t i) const;

  std::vector<std::string> names_;
  std::vector<Factory> factories_;  // empty where add() got the backend made
  // Made on first use: finding a backend does not change what the registry holds.
  mutable std::vector<std::unique_ptr<Backend>> backends_;
  std::vector<std::pair<std::string, std::string>> not_built_;  // name, reason
};

// Adds every backend this build has (cpu always; cuda and vulkan when built), in that order,
// and points the Vulkan backend's default device at the CUDA device's UUID when CUDA is
// available. Defined in app/builtin_backends.cpp, the one place that knows the backends.
void register_builtin_backends(Registry& registry);

}  // namespace xr
