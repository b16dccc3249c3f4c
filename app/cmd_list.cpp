// `xreduce list`: every built backend (available or not, with the reason), its devices and its
// variants, and the backends this build left out.
#include <algorithm>
#include <cstdio>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "xreduce/catalog.hpp"
#include "xreduce/error.hpp"

namespace xr::app {
namespace {

using json = nlohmann::ordered_json;

std::string join(const std::vector<std::string>& xs, std::string_view sep) {
  std::string s;
  for (const auto& x : xs) s += (s.empty() ? "" : std::string(sep)) + x;
  return s;
}
template <class E>
std::vector<std::string> names(const std::vector<E>& xs) {
  std::vector<std::string> out;
  for (E x : xs) out.emplace_back(to_string(x));
  return out;
}

// Variants by primitive (reduce first), each primitive's in ladder order, as every table of the
// tool shows them.
std::vector<VariantInfo> ladder_sorted(const Backend& b) {
  auto vs = b.variants();
  std::stable_sort(vs.begin(), vs.end(), [](const VariantInfo& a, const VariantInfo& c) {
    return std::pair(a.primitive, ladder_position(a.primitive, a.id)) <
           std::pair(c.primitive, ladder_position(c.primitive, c.id));
  });
  return vs;
}

json device_json(const DeviceInfo& d) {
  json props = json::object();
  for (const auto& [k, v] : d.properties) props[k] = v;
  return {{"index", d.index},
          {"name", d.name},
          {"uuid", d.uuid},
          {"api_version", d.api_version},
          {"driver_version", d.driver_version},
          {"memory_bytes", d.memory_bytes},
          {"properties", props}};
}

json list_json(const Registry& registry) {
  json backends = json::array();
  for (const auto& b : registry.backends()) {
    json jb = {{"name", b->name()},
               {"built", true},
               {"available", b->available()},
               {"reason", b->available() ? "" : b->unavailable_reason()}};
    json devices = json::array();
    if (b->available()) {
      const std::string selected = b->device().uuid;
      const int selected_index = b->device().index;
      for (const auto& d : b->devices()) {
        json jd = device_json(d);
        jd["selected"] = selected.empty() ? d.index == selected_index : d.uuid == selected;
        devices.push_back(jd);
      }
    }
    jb["devices"] = devices;
    json variants = json::array();
    for (const auto& v : ladder_sorted(*b)) {
      json jv = {{"id", v.id},
                 {"primitive", to_string(v.primitive)},
                 {"mirrors", v.mirrors},
                 {"dtypes", names(v.dtypes)},
                 {"ops", names(v.ops)},
                 {"scan_kinds", names(v.scan_kinds)},
                 {"writes_input", v.writes_input},
                 {"deterministic", v.deterministic},
                 {"requirements", v.requirements}};
      if (v.max_elements != UINT64_MAX) jv["max_elements"] = v.max_elements;
      if (v.primitive == Primitive::histogram) {
        jv["max_bins"] = v.max_bins;
        jv["count_on_device"] = v.count_on_device;
      }
      if (b->available()) {
        std::string why = b->unsupported_reason(v.primitive, v.id);
        jv["supported"] = why.empty();
        if (!why.empty()) jv["unsupported_reason"] = why;
      }
      variants.push_back(jv);
    }
    jb["variants"] = variants;
    backends.push_back(jb);
  }
  for (const auto& [name, reason] : not_built_backends(registry))
    backends.push_back({{"name", name},
                        {"built", false},
                        {"available", false},
                        {"reason", reason},
                        {"devices", json::array()},
                        {"variants", json::array()}});
  return {{"backends", backends}};
}

std::string list_text(const Registry& registry, const Style& st) {
  std::string out;
  for (const auto& b : registry.backends()) {
    if (!b->available()) {
      out += fmt::format("{}  {}\n\n", st.bold(std::string(b->name())),
                         st.warn("unavailable: " + one_line(b->unavailable_reason())));
      // Variants are static: still worth showing what this backend would run.
    } else {
      out += fmt::format("{}  {}\n", st.bold(std::string(b->name())), st.good("available"));
    }
    if (b->available()) {
      const DeviceInfo selected = b->device();
      for (const auto& d : b->devices()) {
        const bool is_selected =
            selected.uuid.empty() ? d.index == selected.index : d.uuid == selected.uuid;
        out +=
            fmt::format("  device {}{}: {}\n", d.index, is_selected ? " (selected)" : "", d.name);
        Table t;
        t.add_column("", Table::Align::left);
        t.add_column("", Table::Align::left);
        std::vector<std::pair<std::string, std::string>> shown;
        auto row = [&](std::string k, std::string v) {
          // A backend may repeat a standard field among its properties: show it once.
          if (v.empty() || std::find(shown.begin(), shown.end(), std::pair(k, v)) != shown.end())
            return;
          shown.emplace_back(k, v);
          t.add_row({{std::move(k)}, {std::move(v)}});
        };
        row("api", d.api_version);
        row("driver", d.driver_version == "-" ? "" : d.driver_version);
        row("uuid", d.uuid);
        row("memory", d.memory_bytes ? format_bytes(static_cast<double>(d.memory_bytes)) : "");
        for (const auto& [k, v] : d.properties) row(k, v);
        // Skip the (empty) header line of the key/value table.
        std::string body = t.text(Style{}, "    ");
        out += body.substr(body.find('\n') + 1);
      }
    }
    const auto variants = ladder_sorted(*b);
    for (Primitive p : kAllPrimitives) {
      Table vt;
      vt.add_column(std::string(to_string(p)), Table::Align::left);
      vt.add_column("dtypes", Table::Align::left);
      vt.add_column("ops", Table::Align::left);
      vt.add_column("mirrors", Table::Align::left);
      for (const auto& v : variants) {
        if (v.primitive != p) continue;
        std::string mirrors = v.mirrors;
        if (v.writes_input) mirrors += " [writes its input]";
        if (!v.deterministic) mirrors += " [floats vary run to run]";
        if (!v.requirements.empty()) mirrors += " [needs " + join(v.requirements, ", ") + "]";
        if (p == Primitive::histogram) mirrors += " [1 to " + std::to_string(v.max_bins) + " bins]";
        Table::Cell id{v.id};
        if (b->available()) {
          if (std::string why = b->unsupported_reason(p, v.id); !why.empty()) {
            mirrors = "unsupported: " + one_line(why);
            id.tone = Table::Tone::dim;
          }
        }
        vt.add_row({id, {join(names(v.dtypes), " ")}, {join(names(v.ops), " ")}, {mirrors}});
      }
      if (!vt.empty()) out += vt.text(st, "  ");
    }
    out += "\n";
  }
  for (const auto& [name, reason] : not_built_backends(registry))
    out += fmt::format("{}  {}\n", st.bold(name), st.dim("not built: " + one_line(reason)));
  while (out.size() > 1 && out[out.size() - 2] == '\n') out.pop_back();
  return out;
}

}  // namespace

int run_list(const Registry& registry, const ListOptions& options) {
  add_user_kernels(registry, options.kernels);
  if (options.format == "json") {
    std::string s = list_json(registry).dump(2, ' ', false, json::error_handler_t::replace) + "\n";
    std::fwrite(s.data(), 1, s.size(), stdout);
  } else if (options.format == "text") {
    std::string s = list_text(registry, style_for(stdout, false));
    std::fwrite(s.data(), 1, s.size(), stdout);
  } else {
    throw Error(
        ErrorCategory::usage,
        fmt::format("unknown --format '{}' for list (expected text or json)", options.format));
  }
  return 0;
}

}  // namespace xr::app
