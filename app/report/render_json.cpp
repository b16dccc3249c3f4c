#include "report/render.hpp"

#include <nlohmann/json.hpp>

#include "knobs_json.hpp"
#include "report/baseline.hpp"
#include "report/compiled.hpp"
#include "report/format.hpp"
#include "report/json_opt.hpp"
#include "report/operation_json.hpp"

namespace xr::app {
namespace {

using json = nlohmann::ordered_json;

// An entry of a summary: the keys of its section, then `fields` in their order.
json section_entry(const Section& sec, const json& fields) {
  json j = {{"primitive", to_string(sec.primitive())},
            {"scan", scan_json(sec.operation)},
            {"sort", sort_json(sec.operation)},
            {"histogram", histogram_json(sec.operation)},
            {"op", op_json(sec.operation)},
            {"dtype", to_string(sec.dtype)},
            {"mode", to_string(sec.mode)}};
  for (const auto& [key, value] : fields.items()) j[key] = value;
  return j;
}

json config_json(const CompareReport& r) {
  json modes = json::array();
  for (TimingMode m : r.modes) modes.push_back(to_string(m));
  return {{"timing", r.include_transfer ? "end-to-end" : "device"},
          {"cache", r.cold ? "cold" : "hot"},
          {"statistics", r.stats},
          {"include_transfer", r.include_transfer},
          {"seed", r.seed},
          {"dist", r.dist},
          {"modes", modes}};
}

json overheads_json(const std::vector<Overhead>& os) {
  json a = json::array();
  for (const auto& o : os)
    a.push_back({{"kind", to_string(o.kind)},
                 {"what", o.what},
                 {"path", o.path},
                 {"median_us", o.median_us},
                 {"min_us", o.min_us},
                 {"samples", o.samples},
                 {"note", o.note}});
  return a;
}

json transfers_json(const std::optional<TransferTable>& t,
                    const std::vector<TransferShares>& shares) {
  if (!t) return nullptr;
  json rows = json::array();
  for (std::size_t i = 0; i < t->rows.size(); ++i) {
    const TransferRow& row = t->rows[i];
    rows.push_back({{"bytes", row.bytes},
                    {"upload_gbps", row.upload_gbps},
                    {"upload_over_link", opt_json(shares[i].upload.share)},
                    {"readback_gbps", row.readback_gbps},
                    {"readback_over_link", opt_json(shares[i].readback.share)},
                    {"samples", row.samples}});
  }
  return {{"link",
           {{"bytes", t->link.bytes},
            {"upload_gbps", t->link.upload_gbps},
            {"readback_gbps", t->link.readback_gbps},
            {"samples", t->link.samples},
            {"how", t->link.how}}},
          {"path", kTransferPath},
          {"rows", rows},
          {"notes", t->notes}};
}

json device_json(const DeviceRecord& d, const std::vector<TransferShares>& shares) {
  json props = json::object();
  for (const auto& [k, v] : d.info.properties) props[k] = v;
  return {{"backend", d.backend},
          {"index", d.info.index},
          {"name", d.info.name},
          {"uuid", d.info.uuid},
          {"api_version", d.info.api_version},
          {"driver_version", d.info.driver_version},
          {"memory_bytes", d.info.memory_bytes},
          {"read_peak_gbps", opt_json(d.read_peak_gbps)},
          {"copy_peak_gbps", opt_json(d.copy_peak_gbps)},
          {"properties", props},
          {"overheads", overheads_json(d.overheads)},
          {"transfers", transfers_json(d.transfers, shares)},
          {"merged_from", d.merged_from.empty() ? json(nullptr) : json(d.merged_from)},
          {"knobs", knobs_json(d.knobs)},
          {"reference_clock_mhz", opt_json(d.reference_clock_mhz)},
          {"clock", d.clock}};
}

// What a row measured: the key rows are matched by.
json key_json(const ResultRow& row) {
  return {{"backend", row.backend},
          {"variant", row.variant},
          {"primitive", to_string(row.operation.primitive)},
          {"scan", scan_json(row.operation)},
          {"sort", sort_json(row.operation)},
          {"histogram", histogram_json(row.operation)},
          {"op", op_json(row.operation)},
          {"dtype", to_string(row.dtype)},
          {"n", row.n},
          {"mode", to_string(row.mode)}};
}

json row_json(const ResultRow& row, const RowMetrics& rm) {
  const bool m = row.measured();
  auto mnum = [&](double v) { return m ? json(v) : json(nullptr); };
  json j = key_json(row);
  const json rest = {{"batch_calls", row.batch_calls ? json(row.batch_calls) : json(nullptr)},
                     {"status", to_string(row.status)},
                     {"median_ms", mnum(row.ms.median)},
                     {"min_ms", mnum(row.ms.min)},
                     {"max_ms", mnum(row.ms.max)},
                     {"host_median_ms", mnum(row.host_ms.median)},
                     {"reps", m ? json(row.ms.count) : json(nullptr)},
                     {"rel_spread", mnum(row.ms.rel_spread)},
                     {"gbps", mnum(rm.gbps)},
                     {"gkeys_per_s", opt_json(rm.gkeys_per_s)},
                     {"pct_peak", opt_json(rm.pct_peak)},
                     {"above_peak", rm.pct_peak ? json(rm.above_peak) : json(nullptr)},
                     {"step_speedup", opt_json(rm.step_speedup)},
                     {"cumulative_speedup", opt_json(rm.cumulative_speedup)},
                     {"vs_cub", opt_json(rm.vs_cub)},
                     {"ok", m ? json(row.status == RowStatus::ok) : json(nullptr)},
                     {"timing", m ? json(row.timing) : json(nullptr)},
                     {"result", m ? json(row.result) : json(nullptr)},
                     {"reference", m ? json(row.reference) : json(nullptr)},
                     {"reason", row.reason},
                     {"diagnostics", row.diagnostics},
                     {"clock_mhz", row.clock_median_mhz ? json{{"min", *row.clock_min_mhz},
                                                               {"median", *row.clock_median_mhz}}
                                                        : json(nullptr)},
                     {"clock_retaken", row.clock_retaken},
                     {"throttled", row.throttled},
                     {"compiled", compiled_json(row.compiled)}};
  for (const auto& [k, v] : rest.items()) j[k] = v;
  return j;
}

// The facts of a partner's compiled passes that differ from CUDA's; null where a row has none.
json differences_json(const Partner& p) {
  if (!p.compiled_differences) return nullptr;
  json out = json::array();
  for (const FactDifference& d : *p.compiled_differences)
    out.push_back({{"fact", d.fact}, {"pass", d.pass}, {"cuda", d.a}, {p.backend, d.b}});
  return out;
}

// A side by side: CUDA's time, then per API compared in the report its time, its ratio and its
// compiled differences (null where it did not measure the variant here). Vulkan's differences
// keep the key they had when it was the only partner.
json side_by_side_json(const AnalyzedReport& ar, const SideBySide& x,
                       const std::vector<std::string>& apis) {
  json j = {{"n", x.n}, {"variant", x.variant}, {"cuda_ms", ar.row(x.cuda).ms.median}};
  for (const std::string& api : apis) {
    const Partner* p = x.partner(api);
    j[api + "_ms"] = p ? json(ar.row(p->row).ms.median) : json(nullptr);
    j[api + "_over_cuda"] = p ? json(p->ratio) : json(nullptr);
    j[api == "vulkan" ? "compiled_differences" : api + "_compiled_differences"] =
        p ? differences_json(*p) : json(nullptr);
  }
  return section_entry(x.sec, j);
}

// side_by_side, best, crossovers and versus_libraries, each entry keyed by its section.
void add_summaries(const AnalyzedReport& ar, json& j) {
  const Analysis& a = ar.analysis;
  const std::vector<std::string> apis = partner_apis(a.side_by_side);
  json sbs = json::array();
  for (const auto& x : a.side_by_side) sbs.push_back(side_by_side_json(ar, x, apis));
  j["side_by_side"] = std::move(sbs);
  json best = json::array();
  for (const auto& b : a.bests)
    best.push_back(section_entry(b.sec, {{"n", b.n},
                                         {"backend", b.backend},
                                         {"variant", ar.row(b.row).variant},
                                         {"median_ms", ar.row(b.row).ms.median},
                                         {"gbps", ar.metrics(b.row).gbps}}));
  j["best"] = std::move(best);
  json cross = json::array();
  for (const auto& x : a.crossovers)
    cross.push_back(
        section_entry(x.sec, {{"backend", x.backend},
                              {"versus", "cpu"},
                              {"n", x.n ? json(*x.n) : json(nullptr)},
                              {"faster_everywhere", x.everywhere},
                              {"timing", ar.report.include_transfer ? "end-to-end" : "device"}}));
  j["crossovers"] = std::move(cross);
  json vl = json::array();
  for (const auto& v : a.versus_libraries) {
    json libs = json::object();
    for (const auto& [name, row] : v.libs) libs[name] = ar.row(row).ms.median;
    vl.push_back(section_entry(v.sec, {{"n", v.n},
                                       {"xreduce_backend", ar.row(v.ours).backend},
                                       {"xreduce_variant", ar.row(v.ours).variant},
                                       {"xreduce_ms", ar.row(v.ours).ms.median},
                                       {"libraries_ms", libs},
                                       {"best_library", v.best_library},
                                       {"best_library_ms", ar.row(v.best_lib).ms.median},
                                       {"speedup", v.speedup}}));
  }
  j["versus_libraries"] = std::move(vl);
}

// ---- the baseline section (compare --baseline, xreduce diff) ---------------------------------

json run_json(const RunIdentity& run) {
  return {{"path", run.path.empty() ? json(nullptr) : json(run.path)},
          {"xreduce_version", run.version},
          {"commit", run.commit.empty() ? json(nullptr) : json(run.commit)},
          {"command", run.command}};
}

json device_identity_json(const std::optional<DeviceRecord>& d) {
  if (!d) return nullptr;
  return {{"name", d->info.name},
          {"uuid", d->info.uuid},
          {"api_version", d->info.api_version},
          {"driver_version", d->info.driver_version},
          {"knobs", knobs_json(d->knobs)}};
}

json matched_json(const MatchedRow& m) {
  json j = key_json(m.new_row);
  j["old_median_ms"] = m.old_row.ms.median;
  j["new_median_ms"] = m.new_row.ms.median;
  j["old_rel_spread"] = m.old_row.ms.rel_spread;
  j["new_rel_spread"] = m.new_row.ms.rel_spread;
  j["ratio"] = m.ratio;
  j["band"] = m.band;
  j["verdict"] = to_string(m.verdict);
  j["over_limit"] = m.over_limit;
  json changes = json::array();
  for (const FactDifference& d : m.compiled_changes)
    changes.push_back({{"fact", d.fact}, {"pass", d.pass}, {"old", d.a}, {"new", d.b}});
  j["compiled_changes"] = std::move(changes);
  return j;
}

json only_json(const ResultRow& row) {
  json j = key_json(row);
  j["status"] = to_string(row.status);
  j["median_ms"] = row.measured() ? json(row.ms.median) : json(nullptr);
  return j;
}

json baseline_json(const BaselineDiff& d) {
  json devices = json::array();
  for (const auto& c : d.devices)
    devices.push_back({{"backend", c.backend},
                       {"old", device_identity_json(c.old_device)},
                       {"new", device_identity_json(c.new_device)},
                       {"differences", c.differences}});
  json summaries = json::array(), rows = json::array(), statuses = json::array(),
       only_old = json::array(), only_new = json::array();
  for (const auto& s : d.summaries) {
    json e = section_entry(s.sec, {{"rows", s.rows},
                                   {"slower", s.slower},
                                   {"same", s.same},
                                   {"faster", s.faster},
                                   {"geomean_ratio", s.geomean_ratio},
                                   {"worst_ratio", s.worst_ratio}});
    json with_backend = {{"backend", s.backend}};
    with_backend.update(e);
    summaries.push_back(std::move(with_backend));
  }
  for (const auto& m : d.rows) rows.push_back(matched_json(m));
  for (const auto& u : d.not_comparable) {
    json j = key_json(u.new_row);
    j["old_status"] = to_string(u.old_row.status);
    j["new_status"] = to_string(u.new_row.status);
    j["old_reason"] = u.old_row.reason;
    j["new_reason"] = u.new_row.reason;
    statuses.push_back(std::move(j));
  }
  for (const auto& row : d.only_old) only_old.push_back(only_json(row));
  for (const auto& row : d.only_new) only_new.push_back(only_json(row));
  return {{"old", run_json(d.old_run)},
          {"new", run_json(d.new_run)},
          {"differences", d.differences},
          {"devices", devices},
          {"rule",
           {{"spread", "MAD / median"},
            {"scale", d.rule.scale},
            {"floor", d.rule.floor},
            {"floor_us", d.rule.floor_us}}},
          {"fail_above_pct", d.fail_above_pct ? json(*d.fail_above_pct) : json(nullptr)},
          {"counts",
           {{"matched", d.rows.size()},
            {"slower", d.count(Verdict::slower)},
            {"same", d.count(Verdict::same)},
            {"faster", d.count(Verdict::faster)},
            {"over_limit", d.over_limit().size()},
            {"not_comparable", d.not_comparable.size()},
            {"only_old", d.only_old.size()},
            {"only_new", d.only_new.size()},
            {"duplicates", d.duplicates}}},
          {"summaries", summaries},
          {"rows", rows},
          {"not_comparable", statuses},
          {"only_old", only_old},
          {"only_new", only_new}};
}

std::string dump(const json& j) {
  return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace

std::string render_diff_json(const BaselineDiff& d, const std::string& version,
                             const std::string& commit, const std::string& command) {
  json j;
  j["schema_version"] = kReportSchema;
  j["xreduce_version"] = version;
  j["commit"] = commit.empty() ? json(nullptr) : json(commit);
  j["command"] = command;
  j["baseline"] = baseline_json(d);
  return dump(j);
}

std::string render_json(const AnalyzedReport& ar) {
  const CompareReport& r = ar.report;
  json j;
  j["schema_version"] = kReportSchema;
  j["xreduce_version"] = r.version;
  j["commit"] = r.commit.empty() ? json(nullptr) : json(r.commit);
  j["command"] = r.command;
  j["config"] = config_json(r);
  json devices = json::array();
  for (std::size_t i = 0; i < r.devices.size(); ++i)
    devices.push_back(device_json(r.devices[i], ar.analysis.transfer_shares[i]));
  j["devices"] = std::move(devices);
  j["same_gpu"] = ar.analysis.same_gpu ? json(ar.analysis.same_gpu->same) : json(nullptr);
  json skipped = json::array();
  for (const auto& [b, why] : r.skipped) skipped.push_back({{"backend", b}, {"reason", why}});
  j["skipped"] = std::move(skipped);
  j["notes"] = r.notes;
  json results = json::array();
  for (RowIndex i = 0; i < r.rows.size(); ++i)
    results.push_back(row_json(ar.row(i), ar.metrics(i)));
  j["results"] = std::move(results);
  add_summaries(ar, j);
  if (ar.baseline) j["baseline"] = baseline_json(*ar.baseline);
  return dump(j);
}

// A scan's kind; null for reduce and sort.
json scan_json(const Operation& op) {
  return op.primitive == Primitive::scan ? json(to_string(op.scan)) : json(nullptr);
}

// A sort's order, values, bit range ("all" or "B:E") and where its count is ("host", or
// "device": the indirect call); null for reduce and scan.
json sort_json(const Operation& op) {
  if (op.primitive != Primitive::sort) return json(nullptr);
  return {{"order", to_string(op.order)},
          {"values", to_string(op.values)},
          {"bits", sort_bits_text(op)},
          {"count", op.count_on_device ? "device" : "host"}};
}

json histogram_json(const Operation& op) {
  if (op.primitive != Primitive::histogram) return json(nullptr);
  return {{"bins", op.levels.bins},
          {"range", range_text(op.levels)},
          {"counters", to_string(op.levels.counts)},
          {"count", op.count_on_device ? "device" : "host"}};
}

// A reduce's or scan's operator; null for sort and histogram.
json op_json(const Operation& op) {
  const bool has_op = op.primitive == Primitive::reduce || op.primitive == Primitive::scan;
  return has_op ? json(to_string(op.op)) : json(nullptr);
}

}  // namespace xr::app
