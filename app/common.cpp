#include "common.hpp"

#include <fcntl.h>
#include <fnmatch.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include <fmt/format.h>

#include "xreduce/catalog.hpp"
#include "xreduce/error.hpp"
#include "xreduce/size.hpp"

namespace xr::app {

Op parse_op_arg(std::string_view text) {
  if (auto op = parse_op(text)) return *op;
  throw Error(ErrorCategory::usage,
              fmt::format("unknown op '{}' (expected sum, min or max)", text));
}

DType parse_dtype_arg(std::string_view text) {
  if (auto t = parse_dtype(text)) return *t;
  throw Error(
      ErrorCategory::usage,
      fmt::format("unknown dtype '{}' (expected i32, u32, f32, i64, u64, f64, f16, bf16, or for a "
                  "histogram u8 or u16)",
                  text));
}

Primitive parse_primitive_arg(std::string_view text) {
  if (auto p = parse_primitive(text)) return *p;
  throw Error(
      ErrorCategory::usage,
      fmt::format("unknown primitive '{}' (expected reduce, scan, sort or histogram)", text));
}

std::vector<Primitive> parse_primitive_list(std::string_view text) {
  if (text == "all") return {std::begin(kAllPrimitives), std::end(kAllPrimitives)};
  std::vector<Primitive> out;
  for (const auto& s : split_list(text)) {
    const Primitive p = parse_primitive_arg(s);
    if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  }
  if (out.empty()) throw Error(ErrorCategory::usage, "--primitive is empty");
  std::sort(out.begin(), out.end());
  return out;
}

void check_op_applies(bool op_given, const std::vector<Primitive>& primitives) {
  const auto without_op = [](Primitive p) {
    return p == Primitive::sort || p == Primitive::histogram;
  };
  if (op_given && !primitives.empty() &&
      std::all_of(primitives.begin(), primitives.end(), without_op))
    throw Error(ErrorCategory::usage,
                fmt::format("--op applies to reduce and scan, not {}", to_string(primitives[0])));
}

ScanKind parse_scan_kind_arg(std::string_view text) {
  if (auto k = parse_scan_kind(text)) return *k;
  throw Error(ErrorCategory::usage,
              fmt::format("unknown --scan '{}' (expected inclusive or exclusive)", text));
}

SortOrder parse_sort_order_arg(std::string_view text) {
  if (auto o = parse_sort_order(text)) return *o;
  throw Error(ErrorCategory::usage,
              fmt::format("unknown --order '{}' (expected asc or desc)", text));
}

SortValues parse_values_arg(std::string_view text) {
  if (auto v = parse_sort_values(text)) return *v;
  throw Error(ErrorCategory::usage,
              fmt::format("unknown --values '{}' (expected none, u32 or u64)", text));
}

BitRange parse_bits_arg(std::string_view text) {
  if (auto bits = parse_bit_range(text)) return *bits;
  throw Error(ErrorCategory::usage, fmt::format("--bits '{}': expected B:E with 0 <= B < E", text));
}

Distribution parse_distribution_arg(std::string_view text) {
  if (auto d = parse_distribution(text)) return *d;
  throw Error(ErrorCategory::usage,
              fmt::format("unknown --dist '{}' (expected small, full, extremes, or for sort few, "
                          "sorted, reversed, top-digit or bottom-digit)",
                          text));
}

std::vector<std::string> split_list(std::string_view text, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(sep, start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view item = text.substr(start, end - start);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (!item.empty()) out.emplace_back(item);
    start = end + 1;
  }
  return out;
}

bool glob_match(std::string_view pattern, std::string_view text) {
  // No FNM_PATHNAME: `smem*` and `*/sequential` both work as users expect.
  return fnmatch(std::string(pattern).c_str(), std::string(text).c_str(), 0) == 0;
}

MeasureOptions measure_options(const StatFlags& flags) {
  if (flags.reps < 0)
    throw Error(ErrorCategory::usage, fmt::format("--reps must be at least 1, not {}", flags.reps));
  if (flags.warmup < 0)
    throw Error(ErrorCategory::usage,
                fmt::format("--warmup must not be negative, not {}", flags.warmup));
  if (!(flags.max_time > 0))
    throw Error(ErrorCategory::usage, "--max-time must be a positive number of seconds");
  if (!(flags.throttle_pct >= 0 && flags.throttle_pct <= 100))
    throw Error(ErrorCategory::usage,
                fmt::format("--throttle-threshold must be a percentage from 0 to 100, not {}",
                            flags.throttle_pct));
  MeasureOptions o;
  if (const auto modes = parse_modes(flags.mode); modes.size() == 1) o.mode = modes.front();
  o.warmup = flags.warmup;
  o.flush_cache = !flags.hot;
  o.max_seconds = flags.max_time;
  o.throttle_threshold = flags.throttle_pct / 100;
  if (flags.reps > 0) {  // a fixed count: no noise-based stop, no time limit
    o.min_reps = o.max_reps = flags.reps;
    o.target_rel_spread = 0;
    o.max_seconds = 1e30;
  }
  return o;
}

std::vector<TimingMode> parse_modes(std::string_view text) {
  if (text == "all") return {TimingMode::cold, TimingMode::batch};
  std::vector<TimingMode> out;
  for (const auto& s : split_list(text)) {
    const TimingMode m = s == "cold"    ? TimingMode::cold
                         : s == "batch" ? TimingMode::batch
                                        : throw Error(ErrorCategory::usage,
                                                      fmt::format("unknown --mode '{}' (expected "
                                                                  "cold, batch or all)",
                                                                  s));
    if (std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
  }
  if (out.empty()) throw Error(ErrorCategory::usage, "--mode is empty");
  return out;
}

Backend& get_available_backend(const Registry& registry, std::string_view name,
                               const std::string& selector) {
  Backend& b = registry.get(name);
  if (!b.available())
    throw Error(ErrorCategory::unavailable,
                fmt::format("backend '{}' is unavailable: {}", name, b.unavailable_reason()));
  if (!selector.empty()) b.select_device(DeviceChoice{selector, ""});
  return b;
}

std::vector<std::pair<std::string, std::string>> printable_knobs(const Backend& backend) {
  std::vector<std::pair<std::string, std::string>> knobs = backend.knobs();
  for (auto& [name, value] : knobs) {
    name = printable(name);
    value = printable(value);
  }
  return knobs;
}

std::vector<std::pair<std::string, std::string>> not_built_backends(const Registry& registry) {
  auto noted = registry.not_built();
  return {noted.begin(), noted.end()};
}

VariantInfo find_variant(Backend& backend, Primitive primitive, std::string_view id) {
  std::vector<VariantInfo> all = backend.variants();
  std::string ids;
  for (auto& v : all) {
    if (v.primitive != primitive) continue;
    if (v.id == id) return v;
    ids += (ids.empty() ? "" : ", ") + v.id;
  }
  const std::string what = primitive == Primitive::reduce
                               ? std::string("variant")
                               : std::string(to_string(primitive)) + " variant";
  if (ids.empty()) ids = "none";
  if (in_catalog(primitive, id))
    throw Error(ErrorCategory::unsupported,
                fmt::format("{} '{}' is not implemented by backend '{}' (it has: {})", what, id,
                            backend.name(), ids));
  throw Error(ErrorCategory::usage,
              fmt::format("unknown {} '{}' (backend '{}' has: {})", what, id, backend.name(), ids));
}

namespace {
template <class E>
std::string join_names(const std::vector<E>& xs) {
  std::string s;
  for (E x : xs) s += (s.empty() ? "" : ", ") + std::string(to_string(x));
  return s;
}
}  // namespace

std::string unclaimed(const VariantInfo& v, DType dtype, const Operation& operation) {
  if (!v.claims(dtype))
    return fmt::format("dtype {} (it supports: {})", to_string(dtype), join_names(v.dtypes));
  const bool has_op =
      operation.primitive == Primitive::reduce || operation.primitive == Primitive::scan;
  if (has_op && !v.claims(operation.op))
    return fmt::format("op {} (it supports: {})", to_string(operation.op), join_names(v.ops));
  if (operation.primitive == Primitive::scan && !v.claims(operation.scan))
    return fmt::format("{} scans (it supports: {})", to_string(operation.scan),
                       join_names(v.scan_kinds));
  return {};
}

void check_claims(const Backend& backend, const VariantInfo& v, DType dtype,
                  const Operation& operation) {
  if (std::string gap = unclaimed(v, dtype, operation); !gap.empty())
    throw Error(ErrorCategory::unsupported,
                fmt::format("{} variant '{}' does not support {}", backend.name(), v.id, gap));
}

int device_arrays(Primitive primitive, DType t, SortValues values) {
  if (primitive != Primitive::sort)
    return primitive == Primitive::reduce || primitive == Primitive::histogram ? 1 : 2;
  // Keys and sorted keys, and two arrays of values (u32 ones counted for keys alone too), each as
  // many arrays of keys as its bytes take.
  const std::size_t value = std::max<std::size_t>(value_bytes(values), 4);
  return 2 + 2 * static_cast<int>((value + size_of(t) - 1) / size_of(t));
}

std::uint64_t host_available_bytes() {
  // MemAvailable is what can be allocated without swapping; physical memory if unreadable.
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (in >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * page : UINT64_MAX;
}

void check_capacity(const Backend& backend, DType dtype, std::uint64_t n, int host_copies,
                    int device_copies) {
  const double bytes = static_cast<double>(n) * static_cast<double>(size_of(dtype));
  const std::uint64_t device_max = backend.max_elements(dtype);
  if (n > device_max / std::max(device_copies, 1))
    throw Error(
        ErrorCategory::out_of_memory,
        fmt::format("n = {} {} needs {}{}, the {} device holds at most {} ({} elements)",
                    format_count(n), to_string(dtype), format_bytes(bytes * device_copies),
                    device_copies > 1 ? fmt::format(" ({} arrays)", device_copies) : "",
                    backend.name(), format_bytes(static_cast<double>(device_max) * size_of(dtype)),
                    format_count(device_max)));
  const double host_need = bytes * host_copies;
  const double host_have = static_cast<double>(host_available_bytes());
  if (host_need > host_have)
    throw Error(ErrorCategory::out_of_memory,
                fmt::format("n = {} {} needs {} of host memory, {} is available", format_count(n),
                            to_string(dtype), format_bytes(host_need), format_bytes(host_have)));
}

std::string format_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int u = 0;
  while (bytes >= 1024 && u < 6) {
    bytes /= 1024;
    ++u;
  }
  if (u == 0 || bytes == std::floor(bytes)) return fmt::format("{:.0f} {}", bytes, units[u]);
  return fmt::format("{:.2f} {}", bytes, units[u]);
}

std::string format_ms(double ms) {
  // Four significant digits, never scientific notation: 123.4, 12.34, 0.01234, 0.0001234.
  if (!(ms > 0)) return "0";
  const int decimals = std::clamp(3 - static_cast<int>(std::floor(std::log10(ms))), 0, 7);
  return fmt::format("{:.{}f}", ms, decimals);
}

std::string clock_text(const ClockStats& c) {
  const double floor = c.reference_mhz > 0 ? c.mhz.min / c.reference_mhz : 0;
  std::string s =
      fmt::format("{:.0f} MHz median (every sample ≥ {:.0f} % of the {:.0f} MHz reference",
                  c.mhz.median, std::floor(100 * floor), c.reference_mhz);
  if (c.retaken) s += fmt::format("; {} retaken under the threshold", c.retaken);
  if (c.throttled)
    s += fmt::format("; THROTTLED: {} kept under the threshold, the point's time budget spent",
                     c.throttled_samples);
  return s + ")";
}

std::string format_n(std::uint64_t n) {
  std::string s = format_count(n);
  if (s != std::to_string(n)) s += fmt::format(" ({})", n);
  return s;
}

std::string one_line(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  std::string out;
  for (char c : text) {
    if (c == '\n')
      out += "; ";
    else if (c != '\r')
      out += c;
  }
  return out;
}

bool is_terminal(std::FILE* stream) {
  return isatty(fileno(stream)) == 1;
}

std::string Style::paint(std::string_view text, std::string_view code) const {
  if (!enabled || text.empty()) return std::string(text);
  return fmt::format("\x1b[{}m{}\x1b[0m", code, text);
}

Style style_for(std::FILE* stream, bool to_file) {
  const char* no_color = std::getenv("NO_COLOR");
  const char* term = std::getenv("TERM");
  Style s;
  s.enabled = !to_file && is_terminal(stream) && !(no_color && *no_color) &&
              !(term && std::string_view(term) == "dumb");
  return s;
}

void Table::add_column(std::string header, Align align) {
  headers_.push_back(std::move(header));
  aligns_.push_back(align);
}

void Table::add_row(std::vector<Cell> cells) {
  cells.resize(headers_.size());
  rows_.push_back(std::move(cells));
}

std::string Table::text(const Style& style, std::string_view indent) const {
  std::vector<std::size_t> width(headers_.size());
  for (std::size_t c = 0; c < headers_.size(); ++c) {
    width[c] = headers_[c].size();
    for (const auto& r : rows_) width[c] = std::max(width[c], r[c].text.size());
  }
  auto pad = [&](const std::string& s, std::size_t c, bool last) {
    std::size_t fill = width[c] - std::min(width[c], s.size());
    if (aligns_[c] == Align::right) return std::string(fill, ' ') + s;
    return last ? s : s + std::string(fill, ' ');
  };
  std::string out;
  out += indent;
  for (std::size_t c = 0; c < headers_.size(); ++c) {
    if (c) out += "  ";
    out += style.bold(pad(headers_[c], c, c + 1 == headers_.size()));
  }
  out += '\n';
  for (const auto& r : rows_) {
    std::string line(indent);
    for (std::size_t c = 0; c < r.size(); ++c) {
      if (c) line += "  ";
      std::string cell = pad(r[c].text, c, c + 1 == r.size());
      switch (r[c].tone) {
        case Tone::plain:
          break;
        case Tone::good:
          cell = style.good(cell);
          break;
        case Tone::bad:
          cell = style.bad(cell);
          break;
        case Tone::warn:
          cell = style.warn(cell);
          break;
        case Tone::dim:
          cell = style.dim(cell);
          break;
      }
      line += cell;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + '\n';
  }
  return out;
}

std::string Table::markdown() const {
  auto escape = [](const std::string& s) {
    std::string o;
    for (char c : s) {
      if (c == '|') o += '\\';
      o += c;
    }
    return o;
  };
  std::string out = "|";
  for (const auto& h : headers_) out += fmt::format(" {} |", escape(h));
  out += "\n|";
  for (Align a : aligns_) out += a == Align::right ? "---:|" : "---|";
  out += '\n';
  for (const auto& r : rows_) {
    out += "|";
    for (const auto& cell : r) out += fmt::format(" {} |", escape(cell.text));
    out += '\n';
  }
  return out;
}

}  // namespace xr::app
