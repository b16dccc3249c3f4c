// The CSV and JSON renderings, until each moves to a file of its own.
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "report/format.hpp"
#include "report/render.hpp"

namespace xr::app {
namespace {

using json = nlohmann::ordered_json;

json opt_json(const std::optional<double>& v) {
  return v ? json(*v) : json(nullptr);
}

json modes_json(const std::vector<TimingMode>& modes) {
  json a = json::array();
  for (TimingMode m : modes) a.push_back(to_string(m));
  return a;
}

json overheads_json(const std::vector<Overhead>& os) {
  json a = json::array();
  for (const auto& o : os)
    a.push_back({{"what", o.what},
                 {"path", o.path},
                 {"median_us", o.median_us},
                 {"min_us", o.min_us},
                 {"samples", o.samples},
                 {"note", o.note}});
  return a;
}

// The user path's share of the host link in one direction; null without a link rate.
json share_json(const LinkShare& s) {
  return s.share ? json(*s.share) : json(nullptr);
}

json transfers_json(const std::optional<TransferTable>& t,
                    const std::vector<TransferShares>& shares) {
  if (!t) return nullptr;
  json rows = json::array();
  for (std::size_t i = 0; i < t->rows.size(); ++i) {
    const TransferRow& row = t->rows[i];
    rows.push_back({{"bytes", row.bytes},
                    {"upload_gbps", row.upload_gbps},
                    {"upload_over_link", share_json(shares[i].upload)},
                    {"readback_gbps", row.readback_gbps},
                    {"readback_over_link", share_json(shares[i].readback)},
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

// A scan's kind; null for reduce.
json scan_json(const Operation& op) {
  return op.primitive == Primitive::scan ? json(to_string(op.scan)) : json(nullptr);
}

}  // namespace

std::string render_csv(const AnalyzedReport& ar) {
  const CompareReport& r = ar.report;
  auto field = [](const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  };
  auto num = [](const std::optional<double>& v) { return v ? fmt_csv_number(*v) : std::string(); };
  std::map<std::string, const DeviceRecord*> dev;
  for (const auto& d : r.devices) dev[d.backend] = &d;
  std::string out =
      "backend,device,device_uuid,variant,primitive,scan,op,dtype,n,status,median_ms,min_ms,"
      "max_ms,"
      "host_median_ms,reps,rel_spread,gbps,pct_peak,step_speedup,cumulative_speedup,vs_cub,ok,"
      "timing,reason,mode,batch_calls,above_peak\n";
  for (RowIndex i = 0; i < r.rows.size(); ++i) {
    const ResultRow& row = ar.row(i);
    const RowMetrics& rm = ar.metrics(i);
    const DeviceRecord* d = dev[row.backend];
    const bool m = row.measured();
    auto mnum = [&](double v) { return m ? fmt_csv_number(v) : std::string(); };
    const bool scan = row.operation.primitive == Primitive::scan;
    out += fmt::format(
        "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
        field(row.backend), field(d ? d->info.name : ""), d ? d->info.uuid : "", field(row.variant),
        to_string(row.operation.primitive), scan ? to_string(row.operation.scan) : "",
        to_string(row.operation.op), to_string(row.dtype), row.n, to_string(row.status),
        mnum(row.ms.median), mnum(row.ms.min), mnum(row.ms.max), mnum(row.host_ms.median),
        m ? std::to_string(row.ms.count) : "", mnum(row.ms.rel_spread), mnum(rm.gbps),
        num(rm.pct_peak), num(rm.step_speedup), num(rm.cumulative_speedup), num(rm.vs_cub),
        m ? (row.status == RowStatus::ok ? "true" : "false") : "", row.timing, field(row.reason),
        to_string(row.mode), row.batch_calls ? std::to_string(row.batch_calls) : "",
        m && rm.pct_peak ? (rm.above_peak ? "true" : "false") : "");
  }
  return out;
}

std::string render_json(const AnalyzedReport& ar) {
  const CompareReport& r = ar.report;
  const Analysis& a = ar.analysis;
  json j;
  j["xreduce_version"] = r.version;
  j["command"] = r.command;
  j["config"] = {{"timing", r.include_transfer ? "end-to-end" : "device"},
                 {"cache", r.cold ? "cold" : "hot"},
                 {"statistics", r.stats},
                 {"include_transfer", r.include_transfer},
                 {"seed", r.seed},
                 {"dist", r.dist},
                 {"modes", modes_json(r.modes)}};
  json devices = json::array();
  for (std::size_t i = 0; i < r.devices.size(); ++i) {
    const DeviceRecord& d = r.devices[i];
    json props = json::object();
    for (const auto& [k, v] : d.info.properties) props[k] = v;
    devices.push_back(
        {{"backend", d.backend},
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
         {"transfers", transfers_json(d.transfers, a.transfer_shares[i])},
         {"merged_from", d.merged_from.empty() ? json(nullptr) : json(d.merged_from)}});
  }
  j["devices"] = devices;
  j["same_gpu"] = a.same_gpu ? json(a.same_gpu->same) : json(nullptr);
  json skipped = json::array();
  for (const auto& [b, why] : r.skipped) skipped.push_back({{"backend", b}, {"reason", why}});
  j["skipped"] = skipped;
  j["notes"] = r.notes;

  json results = json::array();
  for (RowIndex i = 0; i < r.rows.size(); ++i) {
    const ResultRow& row = ar.row(i);
    const RowMetrics& rm = ar.metrics(i);
    const bool m = row.measured();
    auto mnum = [&](double v) { return m ? json(v) : json(nullptr); };
    results.push_back({{"backend", row.backend},
                       {"variant", row.variant},
                       {"primitive", to_string(row.operation.primitive)},
                       {"scan", scan_json(row.operation)},
                       {"op", to_string(row.operation.op)},
                       {"dtype", to_string(row.dtype)},
                       {"n", row.n},
                       {"mode", to_string(row.mode)},
                       {"batch_calls", row.batch_calls ? json(row.batch_calls) : json(nullptr)},
                       {"status", to_string(row.status)},
                       {"median_ms", mnum(row.ms.median)},
                       {"min_ms", mnum(row.ms.min)},
                       {"max_ms", mnum(row.ms.max)},
                       {"host_median_ms", mnum(row.host_ms.median)},
                       {"reps", m ? json(row.ms.count) : json(nullptr)},
                       {"rel_spread", mnum(row.ms.rel_spread)},
                       {"gbps", mnum(rm.gbps)},
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
                       {"diagnostics", row.diagnostics}});
  }
  j["results"] = results;

  json sbs = json::array();
  for (const auto& x : a.side_by_side)
    sbs.push_back({{"primitive", to_string(x.sec.primitive())},
                   {"scan", scan_json(x.sec.operation)},
                   {"op", to_string(x.sec.operation.op)},
                   {"dtype", to_string(x.sec.dtype)},
                   {"mode", to_string(x.sec.mode)},
                   {"n", x.n},
                   {"variant", x.variant},
                   {"cuda_ms", ar.row(x.cuda).ms.median},
                   {"vulkan_ms", ar.row(x.vulkan).ms.median},
                   {"vulkan_over_cuda", x.ratio}});
  j["side_by_side"] = sbs;
  json best = json::array();
  for (const auto& b : a.bests)
    best.push_back({{"primitive", to_string(b.sec.primitive())},
                    {"scan", scan_json(b.sec.operation)},
                    {"op", to_string(b.sec.operation.op)},
                    {"dtype", to_string(b.sec.dtype)},
                    {"mode", to_string(b.sec.mode)},
                    {"n", b.n},
                    {"backend", b.backend},
                    {"variant", ar.row(b.row).variant},
                    {"median_ms", ar.row(b.row).ms.median},
                    {"gbps", ar.metrics(b.row).gbps}});
  j["best"] = best;
  json cross = json::array();
  for (const auto& x : a.crossovers)
    cross.push_back({{"primitive", to_string(x.sec.primitive())},
                     {"scan", scan_json(x.sec.operation)},
                     {"op", to_string(x.sec.operation.op)},
                     {"dtype", to_string(x.sec.dtype)},
                     {"mode", to_string(x.sec.mode)},
                     {"backend", x.backend},
                     {"versus", "cpu"},
                     {"n", x.n ? json(*x.n) : json(nullptr)},
                     {"faster_everywhere", x.everywhere},
                     {"timing", r.include_transfer ? "end-to-end" : "device"}});
  j["crossovers"] = cross;
  json vl = json::array();
  for (const auto& v : a.versus_libraries) {
    json libs = json::object();
    for (const auto& [name, row] : v.libs) libs[name] = ar.row(row).ms.median;
    vl.push_back({{"primitive", to_string(v.sec.primitive())},
                  {"scan", scan_json(v.sec.operation)},
                  {"op", to_string(v.sec.operation.op)},
                  {"dtype", to_string(v.sec.dtype)},
                  {"mode", to_string(v.sec.mode)},
                  {"n", v.n},
                  {"xreduce_backend", ar.row(v.ours).backend},
                  {"xreduce_variant", ar.row(v.ours).variant},
                  {"xreduce_ms", ar.row(v.ours).ms.median},
                  {"libraries_ms", libs},
                  {"best_library", v.best_library},
                  {"best_library_ms", ar.row(v.best_lib).ms.median},
                  {"speedup", v.speedup}});
  }
  j["versus_libraries"] = vl;
  return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace xr::app
