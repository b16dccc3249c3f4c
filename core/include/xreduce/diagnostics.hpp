// What a measuring tool reads of a GPU library's object beside its calls, in every API: how each
// pass compiled and launches, the tuning entry its plan used, its look-back's tiles. A renderer
// calls none of it: an object hands it out through diagnostics(), apart from what records or
// enqueues its work; each API's Diagnostics adds what only it has.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "xreduce/compiled.hpp"

namespace xr {

class PassDiagnostics {
 public:
  // What an object reports, implemented by the library's state of it.
  class Source {
   public:
    virtual std::vector<CompiledPass> compiled() const = 0;
    virtual std::uint64_t tiles() const = 0;
    virtual std::string_view tuning() const = 0;

   protected:
    ~Source() = default;
  };

  // What each pass compiled into and how it launches (registers, shared memory, workgroup,
  // grid), for `xreduce inspect`.
  std::vector<CompiledPass> compiled() const { return source_->compiled(); }
  // Tiles of one call over every digit pass (a look-back fallback count's denominator); 0
  // without a look-back.
  std::uint64_t tiles() const { return source_->tiles(); }
  // The tile the plan runs and the tuning table's row (or the tool's knob) it came from, with
  // the measurement that chose it.
  std::string_view tuning() const { return source_->tuning(); }

 protected:
  explicit PassDiagnostics(const Source& source) : source_(&source) {}

 private:
  const Source* source_;  // the object's state: valid while the object lives, moves included
};

}  // namespace xr
