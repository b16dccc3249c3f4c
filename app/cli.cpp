// The command line of xreduce (CLI11): subcommands, options, help text with the exit codes, and
// the dispatch to the commands. Parse errors are one line and exit 2; --help exits 0.
#include "cli.hpp"

#include <cstdio>
#include <iostream>
#include <string>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "xreduce/error.hpp"

namespace xr::app {
namespace {

constexpr const char* kFooter =
    R"(Primitives: reduce (n elements -> one value; the default) and scan (n -> n prefixes,
--scan inclusive or exclusive); a variant id is unique within its primitive.
Sizes: 1000, 64K, 16M, 1G (K/M/G are powers of 1024) or 2^24.
Generated data: seed 42 unless --seed; --dist small (default: integers in [0,255], floats in
[-1,1)), full (every bit pattern / floats in [-2^20,2^20)) or extremes.

Exit codes:
  0  ok
  1  a result failed its check against the host reference
  2  usage or bad input (flags, sizes, files)
  3  backend, device, variant or dtype/op combination unavailable or unsupported
  4  out of memory (n larger than the device or the host can hold)
  5  device lost or internal error

See docs/cli.md for the JSON schemas.)";

std::string joined_command_line(int argc, char** argv) {
  std::string s = "xreduce";
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    bool quote = a.empty() || a.find_first_of(" \t'\"*?$") != std::string::npos;
    s += ' ';
    s += quote ? "'" + a + "'" : a;
  }
  return s;
}

CLI::Option* add_stat_flags(CLI::App* cmd, StatFlags& s) {
  CLI::Option* reps =
      cmd->add_option("--reps", s.reps,
                      "Timed repetitions per point (default: adaptive, at least 5, until the "
                      "median's relative spread is under 1% or --max-time)")
          ->type_name("R");
  cmd->add_option("--warmup", s.warmup, "Untimed runs before timing")
      ->capture_default_str()
      ->type_name("W");
  cmd->add_option("--max-time", s.max_time, "Seconds per point for adaptive repetitions")
      ->capture_default_str()
      ->type_name("SEC");
  cmd->add_flag("--hot", s.hot, "Keep caches warm (default: flush the L2 before every repetition)");
  cmd->add_option("--mode", s.mode,
                  "cold: one call per sample, L2 flushed, GPU time with no launch gap; batch: the "
                  "same call back to back, time per call; compare also takes a list or all")
      ->capture_default_str()
      ->type_name("MODE");
  return reps;
}

// --reps given explicitly must be a count; 0 is the internal "adaptive".
void check_reps(const CLI::Option* opt, const StatFlags& s) {
  if (opt->count() && s.reps < 1)
    throw Error(ErrorCategory::usage, fmt::format("--reps must be at least 1, not {}", s.reps));
}

}  // namespace

int run_cli(int argc, char** argv) {
  CLI::App app{
      "xreduce: parallel reduction and prefix-sum ladders in CUDA, Vulkan compute and on the "
      "CPU, measured side by side on the same GPU.",
      "xreduce"};
  app.footer(kFooter);
  app.set_version_flag("--version", std::string("xreduce ") + XR_VERSION);
  app.require_subcommand(1);
  app.get_formatter()->column_width(34);

  ListOptions list;
  CLI::App* list_cmd =
      app.add_subcommand("list", "Show every built backend, its devices and variants");
  list_cmd->add_option("--format", list.format, "text | json")
      ->capture_default_str()
      ->type_name("FMT");

  RunOptions run;
  std::string run_dtype, run_n, run_input, run_scan, run_output;
  CLI::App* run_cmd = app.add_subcommand("run", "Run and check one variant on one backend");
  run_cmd->add_option("--backend", run.backend, "cpu, cuda or vulkan")->required()->type_name("B");
  run_cmd->add_option("--variant", run.variant, "Variant id, e.g. smem/sequential")
      ->required()
      ->type_name("ID");
  run_cmd->add_option("--primitive", run.primitive, "reduce | scan")
      ->capture_default_str()
      ->type_name("P");
  auto* run_scan_opt =
      run_cmd->add_option("--scan", run_scan, "inclusive | exclusive (scan; default inclusive)")
          ->type_name("KIND");
  auto* run_output_opt =
      run_cmd
          ->add_option("--output", run_output,
                       "Write the scanned array to FILE.npy (scan; written whole or not at all)")
          ->type_name("FILE");
  run_cmd->add_option("--op", run.op, "sum | min | max")->capture_default_str()->type_name("OP");
  auto* run_dtype_opt =
      run_cmd
          ->add_option(
              "--dtype", run_dtype,
              "i32 | u32 | f32 | i64 | u64 | f64 | f16 | bf16 (default i32, or the .npy's)")
          ->type_name("T");
  auto* run_n_opt =
      run_cmd->add_option("--n", run_n, "Elements to generate, e.g. 16M or 2^24")->type_name("N");
  auto* run_input_opt =
      run_cmd->add_option("--input", run_input, "Read the elements from FILE.npy or FILE.bin")
          ->type_name("FILE");
  run_n_opt->excludes(run_input_opt);
  run_cmd->add_option("--seed", run.seed, "Seed of the generated data")
      ->capture_default_str()
      ->type_name("S");
  run_cmd->add_option("--dist", run.dist, "small | full | extremes")
      ->capture_default_str()
      ->type_name("D");
  run_cmd->add_option("--device", run.device, "Device index, name substring or UUID")
      ->type_name("SEL");
  CLI::Option* run_reps = add_stat_flags(run_cmd, run.stats);
  run_cmd->add_option("--format", run.format, "text | json")
      ->capture_default_str()
      ->type_name("FMT");

  CompareOptions cmp;
  CLI::App* cmp_cmd = app.add_subcommand(
      "compare", "Measure the variant ladders of several backends and print them side by side");
  cmp_cmd
      ->add_option("--backend", cmp.backends,
                   "all (every available backend) or a list, e.g. cpu,vulkan")
      ->capture_default_str()
      ->type_name("LIST");
  cmp_cmd->add_option("--variant", cmp.variants, "Glob(s) over variant ids, e.g. 'smem/*,fast/*'")
      ->capture_default_str()
      ->type_name("GLOB");
  cmp_cmd->add_option("--primitive", cmp.primitives, "reduce | scan | all")
      ->capture_default_str()
      ->type_name("P");
  std::string cmp_scan;
  auto* cmp_scan_opt =
      cmp_cmd
          ->add_option("--scan", cmp_scan,
                       "inclusive | exclusive, or a list (scan; default inclusive)")
          ->type_name("KIND");
  cmp_cmd->add_option("--op", cmp.ops, "sum | min | max, or a list")
      ->capture_default_str()
      ->type_name("OP");
  cmp_cmd
      ->add_option("--dtype", cmp.dtypes,
                   "i32 | u32 | f32 | i64 | u64 | f64 | f16 | bf16, or a list")
      ->capture_default_str()
      ->type_name("T");
  std::string cmp_n, cmp_sweep;
  auto* cmp_n_opt =
      cmp_cmd->add_option("--n", cmp_n, "Size(s): N[,N...] (default 16M)")->type_name("N[,N]");
  auto* cmp_sweep_opt =
      cmp_cmd->add_option("--sweep", cmp_sweep, "LO:HI (every power of two between) or LO:HI:STEP")
          ->type_name("LO:HI[:STEP]");
  cmp_n_opt->excludes(cmp_sweep_opt);
  cmp_cmd->add_option("--seed", cmp.seed, "Seed of the generated data")
      ->capture_default_str()
      ->type_name("S");
  cmp_cmd->add_option("--dist", cmp.dist, "small | full | extremes")
      ->capture_default_str()
      ->type_name("D");
  cmp_cmd
      ->add_option("--device", cmp.device,
                   "SEL for every GPU backend, or backend=SEL[,backend=SEL]")
      ->type_name("SEL");
  CLI::Option* cmp_reps = add_stat_flags(cmp_cmd, cmp.stats);
  cmp_cmd->add_flag("--include-transfer", cmp.include_transfer,
                    "Time upload + reduce + readback on the host (the end-to-end cost)");
  cmp_cmd->add_option("--format", cmp.format, "text | md | csv | json")
      ->capture_default_str()
      ->type_name("FMT");
  cmp_cmd->add_option("--out", cmp.out, "Write the report to FILE (atomically) instead of stdout")
      ->type_name("FILE");
  cmp_cmd
      ->add_option(
          "--plot", cmp.plot,
          "Also draw time against n (log-log, Vulkan/CUDA ratio) into FILE.svg, .png or .pdf "
          "(python3 + matplotlib)")
      ->type_name("FILE");
  cmp_cmd
      ->add_option("--save-json", cmp.save_json,
                   "Also write the JSON report to FILE (for plots and later analysis)")
      ->type_name("FILE");
  cmp_cmd->add_flag("--quiet,-q", cmp.quiet, "No progress and notes on stderr");
  cmp_cmd->add_flag("--overheads", cmp.overheads,
                    "Also measure each GPU API's launch, submit and round-trip costs");
  auto* cmp_transfers = cmp_cmd->add_flag(
      "--transfers", cmp.transfers,
      "Also measure each GPU backend's uploads and read-backs against its host link");
  std::string cmp_transfer_sizes;
  auto* cmp_transfer_sizes_opt =
      cmp_cmd
          ->add_option("--transfer-sizes", cmp_transfer_sizes,
                       "Bytes per transfer of --transfers, N[,N...] (default 1M,16M,64M,256M,1G)")
          ->type_name("N[,N]")
          ->needs(cmp_transfers);
  cmp_cmd
      ->add_option("--merge", cmp.merge,
                   "Fold the rows and devices of another JSON report into this one (e.g. "
                   "bench/peers.py's torch and cupy rows); repeatable")
      ->type_name("FILE");

  // An unknown first word is an unknown command, not CLI11's "A subcommand is required".
  const std::string first = argc > 1 ? argv[1] : "";
  if (!first.empty() && first[0] != '-' && first != "list" && first != "run" && first != "compare")
    throw Error(ErrorCategory::usage,
                fmt::format("unknown command '{}' (expected list, run or compare; see xreduce "
                            "--help)",
                            first));
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help, --version
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string msg = e.what();
    if (dynamic_cast<const CLI::RequiredError*>(&e) && app.get_subcommands().empty())
      msg = "a command is required: list, run or compare (see xreduce --help)";
    throw Error(ErrorCategory::usage, msg);
  }

  Registry registry;
  register_builtin_backends(registry);

  if (list_cmd->parsed()) return run_list(registry, list);
  if (run_cmd->parsed()) {
    check_reps(run_reps, run.stats);
    if (run_dtype_opt->count()) run.dtype = run_dtype;
    if (run_n_opt->count()) run.n = run_n;
    if (run_input_opt->count()) run.input = run_input;
    if (run_scan_opt->count()) run.scan = run_scan;
    if (run_output_opt->count()) run.output = run_output;
    return run_run(registry, run);
  }
  check_reps(cmp_reps, cmp.stats);
  if (cmp_n_opt->count()) cmp.n = cmp_n;
  if (cmp_sweep_opt->count()) cmp.sweep = cmp_sweep;
  if (cmp_scan_opt->count()) cmp.scans = cmp_scan;
  if (cmp_transfer_sizes_opt->count()) cmp.transfer_sizes = cmp_transfer_sizes;
  cmp.command_line = joined_command_line(argc, argv);
  return run_compare(registry, cmp);
}

}  // namespace xr::app
