// A PTX module's text, cut into its entries as nvcc writes them (an entry from its `.entry` line
// to the `}` that closes it at the start of a line) and everything between them (the header,
// module-scope declarations, file directives), so that a replay can keep the entries it runs
// and add parameters to an entry's list without touching a line of its body.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace xr {

class PtxModule {
 public:
  // Error(usage) when the text has no .version or .target, or an entry does not close.
  static PtxModule parse(std::string_view text);

  std::string text() const;
  // The .version, .target and .address_size lines: a header for kernels of our own beside it.
  const std::string& header() const { return header_; }
  std::vector<std::string> entries() const;
  // The text of `entry`, from its `.entry` line to its closing brace. Error(usage) when the
  // module does not define it.
  const std::string& entry_text(std::string_view entry) const;
  // The module with the named entries alone, beside every non-entry segment. Error(usage)
  // naming an entry the module does not define.
  PtxModule keep(const std::vector<std::string>& entries) const;
  // The module with `params` (full declarations, ".param .u64 .ptr .global .align 16 x")
  // appended to `entry`'s parameter list. Error(usage) when the entry is not defined.
  PtxModule with_params(std::string_view entry, const std::vector<std::string>& params) const;
  // The module with the one `.extern .shared` array that `entry` uses declared `.shared` of
  // `bytes` instead: its dynamic shared memory made static, for an API that cannot size a
  // launch's dynamic shared memory past 48 KiB. Error(unsupported) when the entry uses more than
  // one (they alias in CUDA, and would not here).
  PtxModule with_static_shared(std::string_view entry, std::uint64_t bytes) const;
  // The module with `entry` named `name` (its parameters, named after it, renamed alike).
  PtxModule renamed(std::string_view entry, const std::string& name) const;
  // `entry`'s parameter declarations in order, each as written without the separating comma
  // (".param .u64 xr_reduce_param_0"). Error(usage) when the entry is not defined or has no
  // parameter list.
  std::vector<std::string> params(std::string_view entry) const;
  // The module with `entry`'s parameter `index` declared `declaration` instead. Error(usage) when
  // the entry is not defined or has no such parameter.
  PtxModule with_param(std::string_view entry, std::size_t index,
                       const std::string& declaration) const;

 private:
  struct Segment {
    std::string entry;  // empty: not an entry
    std::string text;
  };
  // The segment of `entry` in `segments`; Error(usage) when the module does not define it.
  template <class Segments>
  static auto& segment_of(Segments& segments, std::string_view entry);

  std::vector<Segment> segments_;
  std::string header_;
};

// FNV-1a of the text, in 16 hex digits: which PTX a report was made with.
std::string text_digest(std::string_view text);

}  // namespace xr
