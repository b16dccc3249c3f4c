// `xreduce check`: the conformance cases of the Catch2 suite (core's run_conformance) on a
// user's --kernel, or on built-in variants (--backend, --variant), with every failure's context
// and first wrong element; exit 1 when any check fails.
#include <cstdio>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "xreduce/conformance.hpp"
#include "xreduce/error.hpp"

namespace xr::app {
namespace {

using json = nlohmann::ordered_json;

// Failures printed per variant: the first ones name the bug; the count says the rest.
constexpr std::size_t kFailuresShown = 10;

struct Target {
  std::string backend;
  Primitive primitive;
  std::string id;
};

struct Failure {
  std::string where, what, message;
};

class CollectingListener final : public ConformanceListener {
 public:
  void check(bool ok, const CheckContext& where, std::string_view what,
             std::string_view message) override {
    if (!ok && failures.size() < kFailuresShown)
      failures.push_back({where.describe(), std::string(what), std::string(message)});
  }
  std::vector<Failure> failures;
};

struct Checked {
  Target target;
  std::string device;
  ConformanceSummary summary;
  std::vector<Failure> failures;
};

// The kernels' variants, or --backend's variants matching --variant (by default the kernels' of
// that backend where there are kernels, else every one).
std::vector<Target> targets(const Registry& registry, const std::vector<UserKernel>& kernels,
                            const CheckOptions& o) {
  std::vector<Target> out;
  if (!o.backend.empty()) {
    std::string globs = o.variants;
    for (const UserKernel& k : kernels)
      if (o.variants.empty() && runs_on(k.language, o.backend))
        globs += (globs.empty() ? "" : ",") + k.id;
    if (globs.empty()) globs = "*";
    for (const VariantInfo& v : registry.get(o.backend).variants())
      for (const std::string& g : split_list(globs))
        if (glob_match(g, v.id)) {
          out.push_back({o.backend, v.primitive, v.id});
          break;
        }
  } else {
    for (const UserKernel& k : kernels)
      out.push_back({std::string(backend_of(k.language)), k.primitive, k.id});
  }
  if (out.empty())
    throw Error(ErrorCategory::usage,
                kernels.empty() && o.backend.empty()
                    ? "check needs --kernel FILE, or --backend B [--variant GLOB]"
                    : "--variant '" + o.variants + "' matches no variant of " + o.backend);
  return out;
}

Checked check_target(const Registry& registry, const Target& t, const CheckOptions& o) {
  Backend& backend = get_available_backend(registry, t.backend, o.device);
  ConformanceOptions options;
  options.seed = o.seed;
  options.every_size = o.every_size;
  options.max_size = o.max_size;
  CollectingListener listener;
  Checked c{t, backend.device().name, {}, {}};
  c.summary = run_conformance(backend, t.primitive, t.id, options, listener);
  c.failures = std::move(listener.failures);
  return c;
}

std::string text_of(const Checked& c, const Style& st) {
  const ConformanceSummary& s = c.summary;
  std::string out = fmt::format("{} {} on {} ({}): {} checks, {} failed{}  {}\n",
                                to_string(c.target.primitive), c.target.id, c.target.backend,
                                c.device, s.checks, s.failures, s.stopped ? " (stopped there)" : "",
                                s.failures ? st.bad("FAILED") : st.good("ok"));
  for (const Failure& f : c.failures)
    out += fmt::format("  {}: {}{}\n", printable(f.where), printable(f.what),
                       f.message.empty() ? "" : ": " + printable(one_line(f.message)));
  return out;
}

json json_of(const Checked& c) {
  json failed = json::array();
  for (const Failure& f : c.failures)
    failed.push_back({{"where", f.where}, {"check", f.what}, {"message", f.message}});
  return {{"backend", c.target.backend},  {"primitive", to_string(c.target.primitive)},
          {"variant", c.target.id},       {"device", c.device},
          {"checks", c.summary.checks},   {"failures", c.summary.failures},
          {"stopped", c.summary.stopped}, {"first_failures", failed}};
}

}  // namespace

int run_check(const Registry& registry, const CheckOptions& o) {
  if (o.format != "text" && o.format != "json")
    throw Error(ErrorCategory::usage,
                fmt::format("unknown --format '{}' for check (expected text or json)", o.format));
  const std::vector<UserKernel> kernels = add_user_kernels(registry, o.kernels);
  const Style st = style_for(stdout, false);
  bool failed = false;
  json all = json::array();
  for (const Target& t : targets(registry, kernels, o)) {
    const Checked c = check_target(registry, t, o);
    failed = failed || c.summary.failures > 0;
    if (o.format == "json") {
      all.push_back(json_of(c));
    } else {
      const std::string text = text_of(c, st);
      std::fwrite(text.data(), 1, text.size(), stdout);
      std::fflush(stdout);
    }
  }
  if (o.format == "json") {
    const std::string s = all.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
    std::fwrite(s.data(), 1, s.size(), stdout);
  }
  return failed ? exit_code(ErrorCategory::check_failed) : 0;
}

}  // namespace xr::app
