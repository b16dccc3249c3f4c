// The command line of xreduce (CLI11): subcommands, options, help text with the exit codes, and
// the dispatch to the commands. Parse errors are one line and exit 2; --help exits 0.
#include "cli.hpp"

#include <cstdint>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "cli_flags.hpp"
#include "commands.hpp"
#include "xreduce/error.hpp"

namespace xr::app {
namespace {

constexpr const char* kFooter =
    R"(Primitives: reduce (n elements -> one value; the default), scan (n -> n prefixes, --scan
inclusive or exclusive), sort (n keys -> the keys in order, --order asc or desc, --values u32
or u64 for pairs) and histogram (n samples -> --bins counts over --range LO:HI, u8 samples by
default); a variant id is unique within its primitive.
Sizes: 1000, 64K, 16M, 1G (K/M/G are powers of 1024) or 2^24.
Generated data: seed 42 unless --seed (a whole number, 0 to 2^64 - 1); --dist small (default:
integers in [0,255], floats in [-1,1)), full (every bit pattern / floats in [-2^20,2^20)) or
extremes; for sort only also few, sorted, reversed, top-digit or bottom-digit; a histogram's
samples uniform (its default), one-bin, skewed, image or part-out, over its range.

Exit codes:
  0  ok
  1  a result failed its check against the host reference, or a row is slower than
     --baseline (diff: OLD) beyond noise by more than --fail-above PCT
  2  usage or bad input (flags, sizes, files)
  3  backend, device, variant or dtype/op combination unavailable or unsupported
  4  out of memory (n larger than the device or the host can hold)
  5  device lost or internal error

See docs/cli.md for the JSON schemas.)";

// The command as reports and headers show it: printable, since an argument may hold any byte.
std::string joined_command_line(int argc, char** argv) {
  std::string s = "xreduce";
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    bool quote = a.empty() || a.find_first_of(" \t'\"*?$") != std::string::npos;
    s += ' ';
    s += quote ? "'" + a + "'" : a;
  }
  return printable(s);
}

constexpr const char* kFailAboveHelp =
    "Exit 1 when a row is slower than the baseline beyond noise by more than PCT %, naming it";

struct ListCommand {
  CLI::App* cmd;
  ListOptions options;
  explicit ListCommand(CLI::App& app)
      : cmd(app.add_subcommand("list", "Show every built backend, its devices and variants")) {
    cmd->add_option("--format", options.format, "text | json")
        ->capture_default_str()
        ->type_name("FMT");
    add_kernel_flags(cmd, options.kernels);
  }
};

struct CheckCommand {
  CLI::App* cmd;
  CheckOptions options;
  explicit CheckCommand(CLI::App& app)
      : cmd(app.add_subcommand("check",
                               "Run the conformance cases on your --kernel (or on --backend's "
                               "--variant): every claimed dtype, op and kind, edge and random "
                               "sizes; failures with the first wrong element")) {
    CheckOptions& o = options;
    add_kernel_flags(cmd, o.kernels);
    cmd->add_option("--backend", o.backend,
                    "Check built-in variants of this backend (with --variant)")
        ->type_name("B");
    cmd->add_option("--variant", o.variants, "Glob(s) over variant ids (default: the kernels')")
        ->type_name("GLOB");
    cmd->add_option("--device", o.device, "SEL for every GPU backend")->type_name("SEL");
    cmd->add_option("--seed", o.seed, "Seed of the random sizes and data")
        ->capture_default_str()
        ->type_name("S")
        ->transform(kWholeNumber);
    cmd->add_flag(
        "--every-size", o.every_size,
        "Every size for every dtype (default: past 70000 elements the 32-bit types only)");
    cmd->add_option("--max-size", o.max_size, "Largest n checked (default: no cap, up to 2^20 + 3)")
        ->type_name("N")
        ->transform(kWholeNumber);
    cmd->add_option("--format", o.format, "text | json")->capture_default_str()->type_name("FMT");
  }
};

struct InspectCommand {
  CLI::App* cmd;
  InspectOptions options;
  std::unique_ptr<OptionalText> scan, op, dtype, n;
  std::unique_ptr<SortListFlags> sort;
  std::unique_ptr<HistogramOptionFlags> histogram;
  explicit InspectCommand(CLI::App& app)
      : cmd(app.add_subcommand(
            "inspect",
            "Show what each variant compiled into and how one call launches it: per pass block, "
            "grid, registers, shared and local memory, stack, binary size and occupancy")) {
    InspectOptions& o = options;
    add_kernel_flags(cmd, o.kernels);
    cmd->add_option("--backend", o.backends,
                    "A list, e.g. cuda,vulkan (default: every available GPU backend)")
        ->type_name("LIST");
    cmd->add_option("--variant", o.variants, "Glob(s) over variant ids, e.g. 'smem/*,fast/*'")
        ->capture_default_str()
        ->type_name("GLOB");
    cmd->add_option("--primitive", o.primitives,
                    "reduce | scan | sort | histogram | all (default all, or the --kernel files')")
        ->type_name("P");
    scan = std::make_unique<OptionalText>(
        cmd, "--scan", "inclusive | exclusive, or a list (scan; default inclusive)", "KIND");
    sort = std::make_unique<SortListFlags>(cmd);
    histogram = std::make_unique<HistogramOptionFlags>(cmd);
    op = std::make_unique<OptionalText>(cmd, "--op", "sum | min | max, or a list (default sum)",
                                        "OP");
    dtype = std::make_unique<OptionalText>(
        cmd, "--dtype", "i32 | u32 | f32 | i64 | u64 | f64 | f16 | bf16, or a list (default i32)",
        "T");
    n = std::make_unique<OptionalText>(cmd, "--n",
                                       "Size(s) the grids are planned for (default 16M)", "N[,N]");
    cmd->add_option("--device", o.device, "SEL for every GPU backend, or backend=SEL[,backend=SEL]")
        ->type_name("SEL");
    cmd->add_option("--format", o.format, "text | md | csv | json")
        ->capture_default_str()
        ->type_name("FMT");
    cmd->add_option("--out", o.out, "Write the report to FILE (atomically) instead of stdout")
        ->type_name("FILE")
        ->check(kFileName);
  }

  const InspectOptions& finish() {
    scan->copy_to(options.scans);
    sort->copy_to(options.orders, options.values, options.bits, options.counts);
    histogram->copy_to(options.histogram);
    op->copy_to(options.ops);
    dtype->copy_to(options.dtypes);
    n->copy_to(options.n);
    return options;
  }
};

struct KernelHeaderCommand {
  CLI::App* cmd;
  KernelHeaderOptions options;
  std::unique_ptr<OptionalText> dtype, op, scan;
  explicit KernelHeaderCommand(CLI::App& app)
      : cmd(app.add_subcommand("kernel-header",
                               "Print the macros (and headers) xreduce defines before a --kernel's "
                               "source, to build a .cubin/.ptx/.spv with nvcc or glslc")) {
    KernelHeaderOptions& o = options;
    cmd->add_option("--kernel", o.kernel, "The kernel whose declarations apply")
        ->required()
        ->type_name("FILE")
        ->check(kFileName);
    cmd->add_option("--kernel-spec", o.spec, "Declarations, as for run and compare")
        ->type_name("WORDS");
    dtype =
        std::make_unique<OptionalText>(cmd, "--dtype", "Element type (default: its first)", "T");
    op = std::make_unique<OptionalText>(cmd, "--op", "Operator (default: its first)", "OP");
    scan = std::make_unique<OptionalText>(cmd, "--scan", "Scan kind (default: its first)", "KIND");
    cmd->add_option("--pass", o.pass, "The pass's index: XR_PASS")
        ->capture_default_str()
        ->type_name("K")
        ->transform(kWholeNumber);
    cmd->add_flag("--partials", o.partials,
                  "A reduce's later passes, which read the partials (XR_T = XR_ACC)");
  }

  const KernelHeaderOptions& finish() {
    dtype->copy_to(options.dtype);
    op->copy_to(options.op);
    scan->copy_to(options.scan);
    return options;
  }
};

struct RunCommand {
  CLI::App* cmd;
  RunOptions options;
  CLI::Option* reps;
  std::unique_ptr<OptionalText> primitive, scan, output, op, dtype, n, input, order, values, bits,
      values_output;
  std::unique_ptr<HistogramOptionFlags> histogram;

  explicit RunCommand(CLI::App& app)
      : cmd(app.add_subcommand("run", "Run and check one variant on one backend")) {
    RunOptions& o = options;
    cmd->add_option("--backend", o.backend, "cpu, cuda, vulkan or opencl (default: the --kernel's)")
        ->type_name("B");
    cmd->add_option("--variant", o.variant,
                    "Variant id, e.g. smem/sequential (default: the --kernel's)")
        ->type_name("ID");
    add_kernel_flags(cmd, o.kernels);
    primitive = std::make_unique<OptionalText>(
        cmd, "--primitive", "reduce | scan | sort | histogram (default reduce, or the --kernel's)",
        "P");
    scan = std::make_unique<OptionalText>(
        cmd, "--scan", "inclusive | exclusive (scan; default inclusive)", "KIND");
    output = std::make_unique<OptionalText>(
        cmd, "--output",
        "Write the scanned or sorted array, or a histogram's counts, to FILE.npy (scan, sort, "
        "histogram; written whole or not at all)",
        "FILE");
    order = std::make_unique<OptionalText>(cmd, "--order", "asc | desc (sort; default asc)", "O");
    values = std::make_unique<OptionalText>(
        cmd, "--values",
        "none | u32 | u64: sort pairs, the values the keys' input positions (a u64's high 32 bits "
        "their complement; sort)",
        "V");
    bits = std::make_unique<OptionalText>(
        cmd, "--bits", "B:E, the ordered bits sorted by (sort; default every bit)", "B:E");
    values_output = std::make_unique<OptionalText>(
        cmd, "--values-output", "Write a sort of pairs' values to FILE.npy", "FILE");
    histogram = std::make_unique<HistogramOptionFlags>(cmd);
    op = std::make_unique<OptionalText>(
        cmd, "--op", "sum | min | max (default sum, or the --kernel's first claim)", "OP");
    dtype = std::make_unique<OptionalText>(cmd, "--dtype",
                                           "i32 | u32 | f32 | i64 | u64 | f64 | f16 | bf16 "
                                           "(default i32, the .npy's, or the --kernel's first)",
                                           "T");
    n = std::make_unique<OptionalText>(cmd, "--n", "Elements to generate, e.g. 16M or 2^24", "N");
    input = std::make_unique<OptionalText>(cmd, "--input",
                                           "Read the elements from FILE.npy or FILE.bin", "FILE");
    // The data is generated (--n, --seed, --dist) or read (--input), never both.
    const DataFlags data = add_data_flags(cmd, o.seed, o.dist);
    for (CLI::Option* generated : {n->option(), data.seed, data.dist})
      generated->excludes(input->option());
    cmd->add_option("--device", o.device, "Device index, name substring or UUID")->type_name("SEL");
    reps = add_stat_flags(cmd, o.stats);
    cmd->add_option("--format", o.format, "text | json")->capture_default_str()->type_name("FMT");
  }

  // The options with the optional texts that were given.
  const RunOptions& finish() {
    check_reps(reps, options.stats);
    primitive->copy_to(options.primitive);
    scan->copy_to(options.scan);
    output->copy_to(options.output);
    op->copy_to(options.op);
    dtype->copy_to(options.dtype);
    n->copy_to(options.n);
    input->copy_to(options.input);
    order->copy_to(options.order);
    values->copy_to(options.values);
    bits->copy_to(options.bits);
    values_output->copy_to(options.values_output);
    histogram->copy_to(options.histogram);
    return options;
  }
};

struct CompareCommand {
  CLI::App* cmd;
  CompareOptions options;
  CLI::Option* reps;
  std::unique_ptr<OptionalText> scan, op, dtype, n, sweep, transfer_sizes, fail_above;
  std::unique_ptr<SortListFlags> sort;
  std::unique_ptr<HistogramOptionFlags> histogram;

  explicit CompareCommand(CLI::App& app)
      : cmd(app.add_subcommand(
            "compare",
            "Measure the variant ladders of several backends and print them side by side")) {
    add_selection();
    add_measurement();
    add_output();
  }

  // What is measured: backends, variants, primitives, operations, types, sizes, data, devices.
  void add_selection() {
    CompareOptions& o = options;
    add_kernel_flags(cmd, o.kernels);
    cmd->add_option("--backend", o.backends,
                    "all (every available backend) or a list, e.g. cpu,vulkan")
        ->capture_default_str()
        ->type_name("LIST");
    cmd->add_option("--variant", o.variants, "Glob(s) over variant ids, e.g. 'smem/*,fast/*'")
        ->capture_default_str()
        ->type_name("GLOB");
    cmd->add_option("--primitive", o.primitives,
                    "reduce | scan | sort | histogram | all (default reduce, or the --kernel "
                    "files')")
        ->type_name("P");
    scan = std::make_unique<OptionalText>(
        cmd, "--scan", "inclusive | exclusive, or a list (scan; default inclusive)", "KIND");
    sort = std::make_unique<SortListFlags>(cmd);
    histogram = std::make_unique<HistogramOptionFlags>(cmd);
    op = std::make_unique<OptionalText>(
        cmd, "--op", "sum | min | max, or a list (default sum, or the --kernel files' claim)",
        "OP");
    dtype = std::make_unique<OptionalText>(cmd, "--dtype",
                                           "i32 | u32 | f32 | i64 | u64 | f64 | f16 | bf16, or a "
                                           "list (default i32, or the --kernel files' claim)",
                                           "T");
    n = std::make_unique<OptionalText>(cmd, "--n", "Size(s): N[,N...] (default 16M)", "N[,N]");
    sweep = std::make_unique<OptionalText>(
        cmd, "--sweep", "LO:HI (every power of two between) or LO:HI:STEP", "LO:HI[:STEP]");
    n->option()->excludes(sweep->option());
    add_data_flags(cmd, o.seed, o.dist);
    cmd->add_option("--device", o.device, "SEL for every GPU backend, or backend=SEL[,backend=SEL]")
        ->type_name("SEL");
  }

  // How: statistics and modes, end to end, and the costs measured beside the ladders.
  void add_measurement() {
    CompareOptions& o = options;
    reps = add_stat_flags(cmd, o.stats);
    cmd->add_flag("--include-transfer", o.include_transfer,
                  "Time upload + reduce + readback on the host (the end-to-end cost)");
    cmd->add_flag("--overheads", o.overheads,
                  "Also measure each GPU API's launch, submit and round-trip costs");
    auto* transfers = cmd->add_flag(
        "--transfers", o.transfers,
        "Also measure each GPU backend's uploads and read-backs against its host link");
    transfer_sizes = std::make_unique<OptionalText>(
        cmd, "--transfer-sizes",
        "Bytes per transfer of --transfers, N[,N...] (default 1M,16M,64M,256M,1G)", "N[,N]");
    transfer_sizes->option()->needs(transfers);
  }

  // Where the report goes, and what joins it.
  void add_output() {
    CompareOptions& o = options;
    cmd->add_option("--format", o.format, "text | md | csv | json")
        ->capture_default_str()
        ->type_name("FMT");
    cmd->add_option("--out", o.out, "Write the report to FILE (atomically) instead of stdout")
        ->type_name("FILE")
        ->check(kFileName);
    cmd->add_option("--plot", o.plot,
                    "Also draw time against n (log-log, Vulkan/CUDA ratio) into FILE.svg, .png or "
                    ".pdf (python3 + matplotlib)")
        ->type_name("FILE")
        ->check(kFileName);
    cmd->add_option("--save-json", o.save_json,
                    "Also write the JSON report to FILE (for plots and later analysis)")
        ->type_name("FILE")
        ->check(kFileName);
    cmd->add_flag("--quiet,-q", o.quiet, "No progress and notes on stderr");
    cmd->add_option("--merge", o.merge,
                    "Fold the rows and devices of another JSON report into this one (e.g. "
                    "bench/peers.py's torch and cupy rows); repeatable")
        ->type_name("FILE")
        ->check(kFileName);
    cmd->add_option("--baseline", o.baseline,
                    "Compare every row with the same row of this saved JSON report (faster, "
                    "slower or same beyond both runs' noise)")
        ->type_name("FILE")
        ->check(kFileName);
    fail_above = std::make_unique<OptionalText>(cmd, "--fail-above", kFailAboveHelp, "PCT");
  }

  const CompareOptions& finish(int argc, char** argv) {
    check_reps(reps, options.stats);
    n->copy_to(options.n);
    sweep->copy_to(options.sweep);
    scan->copy_to(options.scans);
    sort->copy_to(options.orders, options.values, options.bits, options.counts);
    histogram->copy_to(options.histogram);
    op->copy_to(options.ops);
    dtype->copy_to(options.dtypes);
    transfer_sizes->copy_to(options.transfer_sizes);
    options.fail_above = parse_fail_above(*fail_above);
    options.command_line = joined_command_line(argc, argv);
    return options;
  }
};

struct DiffCommand {
  CLI::App* cmd;
  DiffOptions options;
  std::unique_ptr<OptionalText> fail_above;

  explicit DiffCommand(CLI::App& app)
      : cmd(app.add_subcommand("diff",
                               "Compare two saved compare reports (--save-json) row by row: "
                               "faster, slower or same beyond both runs' noise; no device")) {
    DiffOptions& o = options;
    cmd->add_option("old", o.old_path, "The baseline: a compare JSON report")
        ->required()
        ->type_name("OLD.json");
    cmd->add_option("new", o.new_path, "The report compared with it")
        ->required()
        ->type_name("NEW.json");
    fail_above = std::make_unique<OptionalText>(cmd, "--fail-above", kFailAboveHelp, "PCT");
    cmd->add_option("--backend", o.backends, "Only the rows of these backends, e.g. cuda,vulkan")
        ->type_name("LIST");
    cmd->add_option("--variant", o.variants, "Only the rows whose variant matches a glob")
        ->type_name("GLOB");
    cmd->add_option("--dtype", o.dtypes, "Only the rows of these dtypes")->type_name("T");
    cmd->add_option("--mode", o.modes, "Only the rows of these modes: cold, batch or all")
        ->type_name("MODE");
    cmd->add_option("--format", o.format, "text | md | csv | json")
        ->capture_default_str()
        ->type_name("FMT");
    cmd->add_option("--out", o.out, "Write the diff to FILE (atomically) instead of stdout")
        ->type_name("FILE")
        ->check(kFileName);
    cmd->add_option("--plot", o.plot,
                    "Also draw the new/old time ratio per variant against n into FILE.svg, .png "
                    "or .pdf (python3 + matplotlib)")
        ->type_name("FILE")
        ->check(kFileName);
    cmd->add_flag("--quiet,-q", o.quiet, "No notes on stderr");
  }

  const DiffOptions& finish(int argc, char** argv) {
    options.fail_above = parse_fail_above(*fail_above);
    options.command_line = joined_command_line(argc, argv);
    return options;
  }
};

// CLI11's parse, with xreduce's one-line errors: an unknown first word is an unknown command,
// not CLI11's "A subcommand is required". Returns the exit code of --help and --version.
std::optional<int> parse(CLI::App& app, int argc, char** argv) {
  const std::string first = argc > 1 ? argv[1] : "";
  if (!first.empty() && first[0] != '-' && first != "list" && first != "run" &&
      first != "compare" && first != "diff" && first != "check" && first != "kernel-header" &&
      first != "inspect")
    throw Error(
        ErrorCategory::usage,
        fmt::format("unknown command '{}' (expected list, run, compare, diff, check, inspect "
                    "or kernel-header; see xreduce --help)",
                    first));
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help, --version
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string msg = e.what();
    if (dynamic_cast<const CLI::RequiredError*>(&e) && app.get_subcommands().empty())
      msg =
          "a command is required: list, run, compare, diff, check, inspect or kernel-header (see "
          "xreduce --help)";
    throw Error(ErrorCategory::usage, msg);
  }
  return std::nullopt;
}

}  // namespace

int run_cli(int argc, char** argv) {
  CLI::App app{
      "xreduce: parallel reduction, prefix-sum and sort ladders in CUDA, Vulkan compute, OpenCL "
      "and on the CPU, measured side by side on the same GPU.",
      "xreduce"};
  app.footer(kFooter);
  app.set_version_flag("--version", std::string("xreduce ") + XR_VERSION);
  app.require_subcommand(1);
  app.get_formatter()->column_width(34);
  ListCommand list(app);
  RunCommand run(app);
  CompareCommand compare(app);
  CheckCommand check(app);
  KernelHeaderCommand header(app);
  InspectCommand inspect(app);
  DiffCommand diff(app);
  if (const std::optional<int> done = parse(app, argc, argv)) return *done;
  if (header.cmd->parsed()) return run_kernel_header(header.finish());
  if (diff.cmd->parsed()) return run_diff(diff.finish(argc, argv));

  Registry registry;
  register_builtin_backends(registry);
  if (list.cmd->parsed()) return run_list(registry, list.options);
  if (run.cmd->parsed()) return run_run(registry, run.finish());
  if (check.cmd->parsed()) return run_check(registry, check.options);
  if (inspect.cmd->parsed()) return run_inspect(registry, inspect.finish());
  return run_compare(registry, compare.finish(argc, argv));
}

}  // namespace xr::app
