// Helpers shared by the xreduce commands: argument parsing into core types, capacity checks
// before anything is allocated, terminal styling, aligned tables and atomic file output.
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "xreduce/backend.hpp"
#include "xreduce/generate.hpp"
#include "xreduce/harness.hpp"
#include "xreduce/printable.hpp"
#include "xreduce/registry.hpp"
#include "xreduce/types.hpp"

namespace xr::app {

// The fixed default seed of generated inputs (documented in `xreduce --help` and docs/cli.md),
// so two runs without --seed measure the same data.
inline constexpr std::uint64_t kDefaultSeed = 42;

// ---- arguments -------------------------------------------------------------------------------
Op parse_op_arg(std::string_view text);
DType parse_dtype_arg(std::string_view text);
Primitive parse_primitive_arg(std::string_view text);
// --primitive of compare and inspect: a list, or all; in the order of Primitive, each once.
std::vector<Primitive> parse_primitive_list(std::string_view text);
// --op names a reduce's or a scan's operator: Error(usage) "--op applies to reduce and scan, not
// sort" when it is given and every primitive asked for is a sort.
void check_op_applies(bool op_given, const std::vector<Primitive>& primitives);
ScanKind parse_scan_kind_arg(std::string_view text);
Distribution parse_distribution_arg(std::string_view text);
SortOrder parse_sort_order_arg(std::string_view text);
// --values: none (keys alone), u32 or u64 (a sort of pairs).
SortValues parse_values_arg(std::string_view text);
BitRange parse_bits_arg(std::string_view text);
// "a,b,,c" -> {"a","b","c"} (empty items dropped, spaces trimmed).
std::vector<std::string> split_list(std::string_view text, char sep = ',');
// Shell-style glob (`*`, `?`, `[...]`) over a variant id; `*` also matches '/'.
bool glob_match(std::string_view pattern, std::string_view text);

// Statistics flags shared by run and compare.
struct StatFlags {
  int reps = 0;  // 0: adaptive (min 5, until the median's spread < 1% or max_time)
  int warmup = 1;
  bool hot = false;           // keep caches warm (no Backend::flush_cache between repetitions)
  std::string mode = "cold";  // cold | batch (run); or a list, or all (compare)
  double max_time = 2.0;      // seconds per point for adaptive repetitions
  // --throttle-threshold: a sample under this % of the reference clock is retaken (0: never).
  double throttle_pct = 100 * kThrottleThreshold;
};
// The options of one mode (`flags.mode` when it names one, else cold).
MeasureOptions measure_options(const StatFlags& flags);
// --mode: cold, batch, a list of them, or all (both); Error(usage) otherwise.
std::vector<TimingMode> parse_modes(std::string_view text);

// The backend by name, available, with the device chosen by `selector` (empty: its default).
// Error(usage) for an unknown name, Error(unavailable) with the backend's reason otherwise.
Backend& get_available_backend(const Registry& registry, std::string_view name,
                               const std::string& selector);
// Backend::knobs, each name and value printable(): they are bytes of the environment, which reach
// the terminal in run's knob lines and compare's notes.
std::vector<std::pair<std::string, std::string>> printable_knobs(const Backend& backend);
// Backends a build left out, with configure's reason (from Registry::get's error).
std::vector<std::pair<std::string, std::string>> not_built_backends(const Registry& registry);
// The `primitive` variant `id` of `backend`: Error(usage) when no backend knows the id (not in
// that primitive's catalog), Error(unsupported) when the catalog has it but this backend does not
// implement it.
VariantInfo find_variant(Backend& backend, Primitive primitive, std::string_view id);
// What of (dtype, operation) the variant does not claim, in words ("dtype u32 (it supports: i32,
// f32)"); empty when it claims all of it.
std::string unclaimed(const VariantInfo& v, DType dtype, const Operation& operation);
// Error(unsupported) "<backend> variant '<id>' does not support <unclaimed>" when that is not
// empty.
void check_claims(const Backend& backend, const VariantInfo& v, DType dtype,
                  const Operation& operation);

// Device arrays of n elements of `t` one call of `primitive` needs: the input, a scan's output,
// a sort's output and its values (`values` the widest a call asks for).
int device_arrays(Primitive primitive, DType t, SortValues values = SortValues::u32);
// Refuses, before anything is allocated, an n the device or the host cannot hold:
// Error(out_of_memory) "n = ... needs ... GiB, the <backend> device holds at most ...".
// `device_copies`: arrays of n elements on the device (device_arrays()); `host_copies`: host
// arrays of n elements the caller keeps (the pristine input, a scan's read-back outputs).
void check_capacity(const Backend& backend, DType dtype, std::uint64_t n, int host_copies = 1,
                    int device_copies = 1);
std::uint64_t host_available_bytes();

// ---- output ----------------------------------------------------------------------------------
std::string format_bytes(double bytes);  // "512 MiB", "3.50 GiB"
std::string format_ms(double ms);        // fixed precision that keeps 4 significant digits
std::string format_n(std::uint64_t n);   // "16M" or "1000"; with the exact count when abbreviated
std::string one_line(std::string text);  // newlines -> "; " so every message is one line
// The clock a measurement ran at, in words: "1980 MHz (every sample >= 97 % of the 1980 MHz
// reference)", with the retaken and throttled samples where there were any.
std::string clock_text(const ClockStats& clock);

bool is_terminal(std::FILE* stream);

// ANSI colours, or nothing when off (not a terminal, NO_COLOR set, output to a file).
struct Style {
  bool enabled = false;
  std::string paint(std::string_view text, std::string_view code) const;
  std::string good(std::string_view t) const { return paint(t, "32"); }
  std::string bad(std::string_view t) const { return paint(t, "1;31"); }
  std::string warn(std::string_view t) const { return paint(t, "33"); }
  std::string dim(std::string_view t) const { return paint(t, "2"); }
  std::string bold(std::string_view t) const { return paint(t, "1"); }
};
Style style_for(std::FILE* stream, bool to_file);

// An aligned table rendered as text (columns padded, colours applied after padding) or markdown.
class Table {
 public:
  enum class Align { left, right };
  enum class Tone { plain, good, bad, warn, dim };
  struct Cell {
    std::string text;
    Tone tone = Tone::plain;
  };
  void add_column(std::string header, Align align);
  void add_row(std::vector<Cell> cells);
  bool empty() const { return rows_.empty(); }
  std::string text(const Style& style, std::string_view indent = "  ") const;
  std::string markdown() const;

 private:
  std::vector<std::string> headers_;
  std::vector<Align> aligns_;
  std::vector<std::vector<Cell>> rows_;
};

}  // namespace xr::app
