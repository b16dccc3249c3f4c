// xreduce_one_binary: is the portable sorts' gap to CUDA the API's or the compiler's? CUDA's own
// radix/onesweep, captured from the library's call, and its very PTX replayed through CUDA,
// Vulkan and OpenCL, each on its own buffers, timed by its own timer, step by step (README.md).
//   xreduce_one_binary [--sizes 16M,2^28] [--cases u32,u32+u32,f32] [--rounds 15] [--warmup 5]
//                      [--ptx FILE] [--json FILE] [--markdown FILE]
#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "experiment.hpp"
#include "print_json.hpp"
#include "print_markdown.hpp"
#include "xreduce/size.hpp"

namespace {

using namespace xr::onebin;
using xr::PtxModule;
using xr::text_digest;

constexpr const char* kPtxSource =
    "nvcc -ptx of cuda_backend/library/dispatch_sort_onesweep.cu with the xreduce_cuda target's "
    "flags (compute_90, the PTX its object carries beside the sm_90 SASS), written at build time";

struct Options {
  std::string sizes = "16M,2^28";
  std::string cases = "u32,u32+u32,f32";
  CaseOptions run;
  std::string ptx, json, markdown;
};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw xr::Error(xr::ErrorCategory::usage, "cannot read " + path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void write(const std::string& path, const std::string& text) {
  if (path.empty()) return;
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw xr::Error(xr::ErrorCategory::usage, "cannot write " + path);
}

// "u32", "u32+u32", "f32"
CaseSpec parse_case(const std::string& text) {
  const auto plus = text.find('+');
  const auto keys = xr::parse_dtype(text.substr(0, plus));
  if (!keys) throw xr::Error(xr::ErrorCategory::usage, "no key type in case " + text);
  CaseSpec c{*keys, xr::SortValues::none};
  if (plus != std::string::npos) {
    const auto v = xr::parse_sort_values(text.substr(plus + 1));
    if (!v) throw xr::Error(xr::ErrorCategory::usage, "no value type in case " + text);
    c.values = *v;
  }
  return c;
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> parts;
  std::stringstream in(s);
  for (std::string p; std::getline(in, p, ',');) parts.push_back(p);
  return parts;
}

// The build's check of the PTX against the library's SASS (same_sass.py), beside the PTX.
std::string ptx_source(const std::string& ptx) {
  std::ifstream in(ptx + ".check");
  std::string line;
  std::getline(in, line);
  return std::string(kPtxSource) + "; " +
         (line.empty() ? "not compared (no " + ptx + ".check)" : line);
}

// The report so far, printed and written: after each case, so that a run stopped midway keeps
// the cases it finished.
void emit(const Options& o, const Report& r, bool print) {
  const auto a = analyze(r);
  const std::string md = markdown_report(r, a);
  if (print) std::fputs(md.c_str(), stdout);
  write(o.markdown, md);
  write(o.json, json_report(r, a));
}

Report run(const Options& o, const std::string& command_line) {
  const std::string text = slurp(o.ptx);
  Session s(PtxModule::parse(text));
  Report r{s.cuda.name(),
           uuid_text(s.cuda.uuid()),
           s.cuda.driver_api(),
           s.vulkan_refused.empty() ? s.vulkan : "unavailable: " + s.vulkan_refused,
           s.opencl ? s.opencl->describe() : "unavailable: " + s.opencl_refused,
           o.ptx,
           ptx_source(o.ptx),
           text_digest(text),
           text.size(),
           command_line,
           {},
           {}};
  for (std::uint64_t n : xr::parse_count_list(o.sizes))
    for (const std::string& c : split(o.cases)) {
      try {
        r.cases.push_back(run_case(s, parse_case(c), n, o.run));
      } catch (const std::exception& e) {
        r.failed.push_back(c + " at n = " + std::to_string(n) + ": " + e.what());
        std::fprintf(stderr, "%s\n", r.failed.back().c_str());
      }
      emit(o, r, false);
    }
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  o.ptx = (std::filesystem::path(argv[0]).parent_path() / "onesweep.ptx").string();
  CLI::App app{"CUDA's onesweep PTX through CUDA, Vulkan and OpenCL, each timed by its own timer"};
  app.add_option("--sizes", o.sizes, "key counts, comma-separated (16M, 2^28)");
  app.add_option("--cases", o.cases, "keys[+values], comma-separated (u32, u32+u32, f32)");
  app.add_option("--rounds", o.run.timed, "timed rounds: one cold sample a column each");
  app.add_option("--warmup", o.run.warmup, "untimed rounds first");
  app.add_option("--seed", o.run.seed, "the keys' seed");
  app.add_option("--skip", o.run.skip, "column ids not to make (vulkan-ptx-static, ...)")
      ->delimiter(',');
  app.add_flag("--vulkan-past-limit", o.run.vulkan_past_limit,
               "launch Vulkan replays past VK_NVX_binary_import's 48 KiB of shared memory");
  app.add_option("--ptx", o.ptx, "the PTX file (default: onesweep.ptx beside the binary)");
  app.add_option("--json", o.json, "write the report as JSON here");
  app.add_option("--markdown", o.markdown, "write the report as markdown here");
  CLI11_PARSE(app, argc, argv);
  std::string command_line;
  for (int i = 0; i < argc; ++i) command_line += (i ? " " : "") + std::string(argv[i]);
  try {
    const Report r = run(o, command_line);
    emit(o, r, true);
    return r.failed.empty() ? 0 : 1;
  } catch (const xr::Error& e) {
    std::fprintf(stderr, "xreduce_one_binary: %s\n", e.what());
    return xr::exit_code(e.category());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "xreduce_one_binary: %s\n", e.what());
    return 1;
  }
}
