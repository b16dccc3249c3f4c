// `xreduce compare`: the variant ladders of several backends over sizes, dtypes and ops. Data is
// generated once per (dtype, size), uploaded once per backend and reused by every variant.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <string>

#include <fmt/format.h>

#include "commands.hpp"
#include "report.hpp"
#include "xreduce/catalog.hpp"
#include "xreduce/error.hpp"
#include "xreduce/generate.hpp"
#include "xreduce/reference.hpp"
#include "xreduce/size.hpp"

extern char** environ;

namespace xr::app {
namespace {

// Default size of compare: seed 000's 2^24 elements.
constexpr std::uint64_t kDefaultN = std::uint64_t{1} << 24;

// Progress with an ETA on stderr, only on a terminal. Work is weighted by elements plus a fixed
// per-point cost, so a sweep's large sizes count for more than its small ones.
class Progress {
 public:
  Progress(bool enabled, double total_weight)
      : enabled_(enabled), total_(total_weight), start_(std::chrono::steady_clock::now()) {}
  ~Progress() { clear(); }
  void note(const std::string& what) {
    if (!enabled_) return;
    std::string eta;
    const double elapsed = seconds();
    if (done_ > 0 && elapsed > 1) {
      const double left = elapsed * (total_ - done_) / done_;
      eta = fmt::format("  ETA {}", left >= 60
                                        ? fmt::format("{}m{:02}s", int(left) / 60, int(left) % 60)
                                        : fmt::format("{}s", int(left + 0.5)));
    }
    std::string line =
        fmt::format("[{:3.0f}%] {}{}", total_ > 0 ? 100 * done_ / total_ : 0, what, eta);
    if (line.size() > 100) line.resize(100);
    std::fprintf(stderr, "\r\x1b[K%s", line.c_str());
    std::fflush(stderr);
    shown_ = true;
  }
  void advance(double weight) { done_ += weight; }
  void clear() {
    if (enabled_ && shown_) std::fprintf(stderr, "\r\x1b[K");
    shown_ = false;
  }

 private:
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  bool enabled_;
  double total_;
  double done_ = 0;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_;
};

double point_weight(std::uint64_t n) {
  return static_cast<double>(n) + 1e6;
}

struct Planned {
  Backend* backend;
  std::vector<VariantInfo> variants;  // matching the globs, in ladder order
};

std::string stats_words(const MeasureOptions& m, const StatFlags& f) {
  if (f.reps > 0) return fmt::format("{} reps after {} warm-up", f.reps, f.warmup);
  return fmt::format(
      "adaptive reps ({}..{}, until the median's spread < {:g}% or {:g} s per point)", m.min_reps,
      m.max_reps, m.target_rel_spread * 100, m.max_seconds);
}

// upload + reduce (+ readback, part of reduce) timed on the host: a copy of the host data into an
// array allocated once, then the reduction.
Measurement measure_end_to_end(Backend& backend, Reducer& reducer, HostView data, Op op,
                               const MeasureOptions& o) {
  Measurement m;
  bool have = false;
  // Allocated once, outside the timed region, as an application would: every repetition then
  // times what it repeats, copying fresh host data in, reducing and reading the result back.
  auto array = backend.upload(data);
  auto once = [&](bool timed, std::vector<double>* samples) {
    if (o.flush_cache) backend.flush_cache();
    const auto t0 = std::chrono::steady_clock::now();
    array->write(data);
    Reduction r = reducer.reduce(*array, op);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (!have) {
      m.result = r.value;
      have = true;
    } else if (!r.value.bitwise_equal(m.result)) {
      m.deterministic = false;
    }
    if (timed) samples->push_back(ms);
  };
  for (int i = 0; i < o.warmup; ++i) once(false, nullptr);
  std::vector<double> samples;
  const auto start = std::chrono::steady_clock::now();
  const int min_reps = std::max(1, o.min_reps), max_reps = std::max(min_reps, o.max_reps);
  for (int rep = 0; rep < max_reps; ++rep) {
    once(true, &samples);
    if (rep + 1 < min_reps) continue;
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >=
        o.max_seconds)
      break;
    if (o.target_rel_spread > 0 && summarize(samples).rel_spread < o.target_rel_spread) break;
  }
  m.device_ms = summarize(samples);
  m.host_ms = m.device_ms;
  m.device_timer = false;
  return m;
}

// ---- plotting --------------------------------------------------------------------------------

std::filesystem::path self_dir() {
  std::error_code ec;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path() : exe.parent_path();
}

// bench/plot.py: $XREDUCE_PLOT_SCRIPT, else the copy next to the binary (the build tree puts it
// there), else the source tree this binary was built from.
std::filesystem::path plot_script() {
  if (const char* env = std::getenv("XREDUCE_PLOT_SCRIPT"); env && *env) return env;
  std::error_code ec;
  const auto beside = self_dir() / "xreduce-plot.py";
  if (std::filesystem::exists(beside, ec)) return beside;
  const auto source = std::filesystem::path(XR_SOURCE_DIR) / "bench" / "plot.py";
  if (std::filesystem::exists(source, ec)) return source;
  throw Error(ErrorCategory::unavailable,
              "--plot needs bench/plot.py, found neither next to xreduce nor in " +
                  std::string(XR_SOURCE_DIR) + " (set XREDUCE_PLOT_SCRIPT)");
}

// A temporary file name in `dir` that keeps `path`'s extension (matplotlib picks the format
// from it).
std::filesystem::path temp_beside(const std::filesystem::path& path) {
  auto dir = path.parent_path();
  if (dir.empty()) dir = ".";
  return dir /
         fmt::format(".{}.tmp-{}{}", path.stem().string(), getpid(), path.extension().string());
}

// Runs `python3 plot.py JSON OUT`; its output goes to a log whose last line is the error.
void draw_plot(const std::string& report_json, const std::filesystem::path& out) {
  const auto script = plot_script();
  char json_tmp[] = "/tmp/xreduce-plot-XXXXXX";
  int fd = mkstemp(json_tmp);
  if (fd < 0) throw Error(ErrorCategory::usage, "--plot: cannot create a temporary file");
  bool written =
      write(fd, report_json.data(), report_json.size()) == static_cast<ssize_t>(report_json.size());
  close(fd);
  std::string log = std::string(json_tmp) + ".log";
  struct Cleanup {
    std::string a, b;
    ~Cleanup() {
      unlink(a.c_str());
      unlink(b.c_str());
    }
  } cleanup{json_tmp, log};
  if (!written) throw Error(ErrorCategory::usage, "--plot: cannot write the temporary JSON");

  // $XREDUCE_PYTHON, else python3 on PATH, then Debian's own (a pyenv or venv python3 first
  // on PATH often lacks matplotlib); plot.py exits 3 when matplotlib is missing.
  std::vector<std::string> pythons;
  if (const char* env = std::getenv("XREDUCE_PYTHON"); env && *env)
    pythons = {env};
  else
    pythons = {"python3", "/usr/bin/python3"};
  std::string s = script.string(), o = out.string(), j = json_tmp;
  std::string failure;
  for (auto& py : pythons) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    char* argv[] = {py.data(), s.data(), j.data(), o.data(), nullptr};
    pid_t pid;
    int rc = posix_spawnp(&pid, py.c_str(), &actions, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
      failure = fmt::format("cannot run {}: {}", py, std::strerror(rc));
      continue;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
    std::ifstream in(log);
    std::string line, last;
    while (std::getline(in, line))
      if (line.find_first_not_of(" \t") != std::string::npos) last = line;
    failure = last.empty() ? py + " exited with an error" : last;
    if (!(WIFEXITED(status) && WEXITSTATUS(status) == 3)) break;  // only "no matplotlib" retries
  }
  unlink(out.c_str());
  throw Error(ErrorCategory::unavailable,
              fmt::format("--plot failed ({}): {}", script.string(), failure));
}

}  // namespace

int run_compare(const Registry& registry, const CompareOptions& o) {
  // ---- every flag is checked before anything is measured ----
  const std::string fmt_name = o.format;
  if (fmt_name != "text" && fmt_name != "md" && fmt_name != "csv" && fmt_name != "json")
    throw Error(ErrorCategory::usage,
                fmt::format("unknown --format '{}' for compare (expected text, md, csv or json)",
                            fmt_name));
  std::vector<Op> ops;
  for (const auto& s : split_list(o.ops)) ops.push_back(parse_op_arg(s));
  std::vector<DType> dtypes;
  for (const auto& s : split_list(o.dtypes)) dtypes.push_back(parse_dtype_arg(s));
  if (ops.empty()) throw Error(ErrorCategory::usage, "--op is empty");
  if (dtypes.empty()) throw Error(ErrorCategory::usage, "--dtype is empty");
  std::vector<std::uint64_t> ns = o.sweep ? parse_sweep(*o.sweep)
                                  : o.n   ? parse_count_list(*o.n)
                                          : std::vector<std::uint64_t>{kDefaultN};
  std::sort(ns.begin(), ns.end());
  ns.erase(std::unique(ns.begin(), ns.end()), ns.end());
  const Distribution dist = parse_distribution_arg(o.dist);
  const MeasureOptions mopts = measure_options(o.stats);
  const auto globs = split_list(o.variants);
  if (globs.empty()) throw Error(ErrorCategory::usage, "--variant is empty");
  if (!o.out.empty()) check_output_path(o.out);
  if (!o.save_json.empty()) check_output_path(o.save_json);
  if (!o.plot.empty()) {
    const auto ext = std::filesystem::path(o.plot).extension().string();
    if (ext != ".svg" && ext != ".png" && ext != ".pdf")
      throw Error(ErrorCategory::usage,
                  fmt::format("--plot '{}': expected a .svg, .png or .pdf file name", o.plot));
    check_output_path(o.plot);
  }

  // ---- backends and their devices ----
  CompareReport report;
  std::vector<Backend*> backends;
  if (o.backends == "all") {
    for (const auto& b : registry.backends()) {
      if (b->available())
        backends.push_back(b.get());
      else
        report.skipped.emplace_back(std::string(b->name()),
                                    "unavailable: " + b->unavailable_reason());
    }
    for (const auto& [name, why] : not_built_backends(registry))
      report.skipped.emplace_back(name, "not built: " + why);
  } else {
    for (const auto& name : split_list(o.backends)) {
      Backend& b = get_available_backend(registry, name, "");  // explicit: must be available
      if (std::find(backends.begin(), backends.end(), &b) == backends.end()) backends.push_back(&b);
    }
    if (backends.empty()) throw Error(ErrorCategory::usage, "--backend is empty");
  }
  if (backends.empty())
    throw Error(ErrorCategory::unavailable, "no backend is available on this machine");

  // --device SEL (every GPU backend) or backend=SEL,...
  std::map<std::string, std::string> selectors;
  if (!o.device.empty()) {
    if (o.device.find('=') == std::string::npos) {
      for (Backend* b : backends)
        if (b->name() != "cpu") selectors[std::string(b->name())] = o.device;
    } else {
      for (const auto& item : split_list(o.device)) {
        auto eq = item.find('=');
        if (eq == std::string::npos)
          throw Error(
              ErrorCategory::usage,
              fmt::format("--device '{}': expected SEL or backend=SEL[,backend=SEL]", o.device));
        std::string name = item.substr(0, eq);
        if (std::none_of(backends.begin(), backends.end(),
                         [&](Backend* b) { return b->name() == name; }))
          throw Error(ErrorCategory::usage,
                      fmt::format("--device names backend '{}', which is not compared", name));
        selectors[name] = item.substr(eq + 1);
      }
    }
  }
  for (Backend* b : backends)
    if (auto it = selectors.find(std::string(b->name())); it != selectors.end())
      b->select_device(DeviceChoice{it->second, ""});
  // A chosen CUDA device moves Vulkan's default with it, so both still measure the same GPU.
  Backend* cuda = registry.find("cuda");
  Backend* vulkan = registry.find("vulkan");
  if (cuda && vulkan && selectors.count("cuda") && !selectors.count("vulkan") &&
      vulkan->available())
    vulkan->select_device(DeviceChoice{"", cuda->device().uuid});

  // ---- variants ----
  std::vector<Planned> plan;
  bool any = false;
  for (Backend* b : backends) {
    Planned p{b, {}};
    for (const auto& v : b->variants())
      if (std::any_of(globs.begin(), globs.end(),
                      [&](const std::string& g) { return glob_match(g, v.id); }))
        p.variants.push_back(v);
    std::stable_sort(p.variants.begin(), p.variants.end(),
                     [](const VariantInfo& a, const VariantInfo& c) {
                       return ladder_position(a.id) < ladder_position(c.id);
                     });
    any |= !p.variants.empty();
    plan.push_back(std::move(p));
  }
  if (!any) {
    std::string names;
    for (Backend* b : backends) names += (names.empty() ? "" : ", ") + std::string(b->name());
    const bool in_catalog = std::any_of(catalog().begin(), catalog().end(), [&](const auto& e) {
      return std::any_of(globs.begin(), globs.end(),
                         [&](const std::string& g) { return glob_match(g, e.id); });
    });
    throw Error(in_catalog ? ErrorCategory::unsupported : ErrorCategory::usage,
                fmt::format("--variant '{}' matches no variant of {} ({})", o.variants, names,
                            in_catalog ? "the catalog has it, these backends do not implement it"
                                       : "see xreduce list"));
  }

  // ---- capacity, before anything is allocated ----
  for (const auto& p : plan)
    for (DType t : dtypes)
      for (std::uint64_t n : ns) check_capacity(*p.backend, t, n, 1);

  // ---- report header ----
  report.version = XR_VERSION;
  report.command = o.command_line;
  report.stats = stats_words(mopts, o.stats);
  report.cold = mopts.flush_cache;
  report.include_transfer = o.include_transfer;
  report.seed = o.seed;
  report.dist = std::string(to_string(dist));

  double per_variant = 0;
  for (std::uint64_t n : ns) per_variant += point_weight(n);
  per_variant *= static_cast<double>(ops.size() * dtypes.size());
  double total = 0;
  for (const auto& p : plan) total += per_variant * static_cast<double>(p.variants.size());
  Progress progress(!o.quiet && is_terminal(stderr), total);

  for (const auto& p : plan) {
    DeviceRecord d{std::string(p.backend->name()), p.backend->device(), std::nullopt};
    progress.note(fmt::format("{}: measuring the read bandwidth", d.backend));
    d.peak_gbps = p.backend->measure_read_bandwidth_gbps();
    report.devices.push_back(std::move(d));
  }

  // ---- measurements ----
  bool failed = false;
  for (DType dtype : dtypes) {
    for (std::uint64_t n : ns) {
      progress.note(fmt::format("generating {} {}", format_count(n), to_string(dtype)));
      const HostArray data = generate(dtype, static_cast<std::size_t>(n), o.seed, dist);
      std::vector<Reference> refs;
      for (Op op : ops) refs.push_back(reference_reduce(data.view(), op));

      for (const auto& p : plan) {
        Backend& b = *p.backend;
        const bool end_to_end = o.include_transfer && b.name() != "cpu";
        std::unique_ptr<DeviceArray> array;
        for (const auto& v : p.variants) {
          std::unique_ptr<Reducer> reducer;
          for (std::size_t k = 0; k < ops.size(); ++k) {
            const Op op = ops[k];
            ResultRow row;
            row.backend = std::string(b.name());
            row.variant = v.id;
            row.op = op;
            row.dtype = dtype;
            row.n = n;
            progress.note(fmt::format("{} {} {} {} n={}", row.backend, v.id, to_string(op),
                                      to_string(dtype), format_count(n)));
            try {
              check_claims(b, v, dtype, op);
              if (std::string why = b.unsupported_reason(v.id); !why.empty())
                throw Error(ErrorCategory::unsupported, why);
              if (n > v.max_elements)
                throw Error(ErrorCategory::unsupported, fmt::format("accepts at most {} elements",
                                                                    format_count(v.max_elements)));
              if (!reducer) reducer = b.make_reducer(v.id);
              Measurement m;
              if (end_to_end) {
                m = measure_end_to_end(b, *reducer, data.view(), op, mopts);
              } else {
                if (!array) array = b.upload(data.view());
                m = measure(b, *reducer, *array, data.view(), op, mopts);
              }
              const Verdict verdict = validate(m.result, refs[k], op);
              row.status = verdict.ok && m.deterministic ? RowStatus::ok : RowStatus::failed;
              row.reason = verdict.message;
              if (!m.deterministic)
                row.reason += std::string(row.reason.empty() ? "" : "; ") +
                              "repetitions returned different values";
              row.ms = m.device_ms;
              row.host_ms = m.host_ms;
              row.timing = end_to_end ? "end-to-end" : m.device_timer ? "device" : "host";
              row.result = m.result.to_string();
              row.reference = refs[k].value.to_string();
              row.gbps = gbps(reduce_bytes(n, dtype), row.ms.median);
              failed |= row.status == RowStatus::failed;
            } catch (const Error& e) {
              if (e.category() != ErrorCategory::unsupported) throw;
              row.status = RowStatus::unsupported;
              // Drop the "<variant> does not support" prefix check_claims words for run.
              std::string why = e.what();
              if (auto at = why.find("' does not support "); at != std::string::npos)
                why = "no " + why.substr(at + 19);
              row.reason = why;
            }
            report.rows.push_back(std::move(row));
            progress.advance(point_weight(n));
          }
        }
      }
    }
  }
  progress.clear();
  derive(report);

  // ---- output: plot and --out are produced whole, then renamed into place ----
  std::string text;
  if (fmt_name == "json")
    text = render_json(report);
  else if (fmt_name == "csv")
    text = render_csv(report);
  else if (fmt_name == "md")
    text = render_markdown(report);
  else
    text = render_text(report, style_for(stdout, !o.out.empty()));

  // Every file is written whole (temporary + rename); on a failure the ones already placed are
  // removed again, so a failed run leaves no output behind.
  const std::string json_text =
      fmt_name == "json" ? text
                         : (o.plot.empty() && o.save_json.empty() ? "" : render_json(report));
  std::filesystem::path plot_tmp;
  std::vector<std::string> placed;
  try {
    if (!o.plot.empty()) {
      plot_tmp = temp_beside(o.plot);
      draw_plot(json_text, plot_tmp);
    }
    if (!o.save_json.empty()) {
      write_file_atomically(o.save_json, json_text);
      placed.push_back(o.save_json);
    }
    if (!o.out.empty()) {
      write_file_atomically(o.out, text);
      placed.push_back(o.out);
    }
    if (!plot_tmp.empty() && std::rename(plot_tmp.c_str(), o.plot.c_str()) != 0)
      throw Error(ErrorCategory::usage,
                  fmt::format("cannot write '{}': {}", o.plot, std::strerror(errno)));
  } catch (...) {
    if (!plot_tmp.empty()) unlink(plot_tmp.c_str());
    for (const auto& p : placed) unlink(p.c_str());
    throw;
  }
  if (o.out.empty()) std::fwrite(text.data(), 1, text.size(), stdout);
  if (!o.quiet) {
    if (!o.out.empty()) std::fprintf(stderr, "xreduce: wrote %s\n", o.out.c_str());
    if (!o.plot.empty()) std::fprintf(stderr, "xreduce: wrote %s\n", o.plot.c_str());
    if (!o.save_json.empty()) std::fprintf(stderr, "xreduce: wrote %s\n", o.save_json.c_str());
  }
  return failed ? exit_code(ErrorCategory::check_failed) : 0;
}

}  // namespace xr::app
