// The commands of xreduce: list, run, compare, diff, check, inspect and kernel-header. Each takes
// its parsed options (and the registry where it needs one), writes its report to stdout (or
// --out), and returns the process exit code; errors are thrown as xr::Error and mapped to exit
// codes by main().
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common.hpp"
#include "histogram_flags.hpp"
#include "xreduce/registry.hpp"
#include "xreduce/user_kernel.hpp"

namespace xr::app {

// `--kernel FILE` (repeatable), `--kernel-spec WORDS` and `--kernel-id ID`: users' kernels
// added to the registry as variants before the command runs (docs/kernels.md).
struct KernelFlags {
  std::vector<std::string> files;
  std::string spec;
  std::string id;
};

struct ListOptions {
  std::string format = "text";  // text | json
  KernelFlags kernels;
};

struct RunOptions {
  std::string backend;  // default: the --kernel's backend
  std::string variant;  // default: the --kernel's id
  KernelFlags kernels;
  std::optional<std::string> primitive;  // default: the --kernel's, else reduce
  std::optional<std::string> scan;       // inclusive (default) | exclusive; scan only
  std::optional<std::string> output;     // scan, sort: write the result to this .npy
  std::optional<std::string> order;      // sort: asc (default) | desc
  std::optional<std::string> values;     // sort: none (default) | u32 (the keys' input positions)
  std::optional<std::string> bits;       // sort: B:E of the ordered bits (default every bit)
  std::optional<std::string> values_output;  // sort of pairs: write the values to this .npy
  HistogramFlags histogram;                  // histogram: --bins, --range, --counters
  std::optional<std::string> op;             // default sum, or the --kernel's first claim
  std::optional<std::string> dtype;  // default i32, the .npy's dtype, or the --kernel's first
  std::optional<std::string> n;
  std::optional<std::string> input;
  std::uint64_t seed = kDefaultSeed;
  std::string dist;  // empty: the primitive's default (small; a histogram's uniform)
  std::string device;
  StatFlags stats;
  std::string format = "text";  // text | json
};

struct CompareOptions {
  KernelFlags kernels;
  std::string backends = "all";
  std::string variants = "*";  // comma-separated globs
  std::string primitives;  // reduce | scan | sort, a list, or all; empty: reduce, or the --kernels'
  std::optional<std::string> scans;   // comma-separated kinds; scan only (default inclusive)
  std::optional<std::string> orders;  // sort: asc | desc, comma-separated (default asc)
  std::optional<std::string> values;  // sort: none | u32, comma-separated (default none)
  std::optional<std::string> bits;    // sort: B:E (default every bit)
  // sort, histogram: host | device, comma-separated (default host): the count given on the
  // host, or read by the GPU from a device word (the libraries' indirect calls)
  std::optional<std::string> counts;
  HistogramFlags histogram;           // --bins (a list: one histogram each), --range, --counters
  std::optional<std::string> ops;     // comma-separated (default sum, or the --kernels' claim)
  std::optional<std::string> dtypes;  // comma-separated (default i32, or the --kernels' claim)
  std::optional<std::string> n;
  std::optional<std::string> sweep;
  std::uint64_t seed = kDefaultSeed;
  std::string dist;    // empty: each primitive's default (small; a histogram's uniform)
  std::string device;  // SEL for every GPU backend, or backend=SEL[,backend=SEL]
  StatFlags stats;
  bool include_transfer = false;
  std::string format = "text";  // text | md | csv | json
  std::string out;
  std::string plot;
  std::string save_json;  // also write the JSON report here (whatever --format is)
  bool quiet = false;
  bool overheads = false;  // Backend::measure_overheads of each GPU backend
  bool transfers = false;  // uploads and read-backs against each GPU backend's host link
  std::optional<std::string> transfer_sizes;  // --transfer-sizes: bytes, N[,N...]
  std::vector<std::string> merge;             // JSON reports whose rows join this one (peers)
  std::string baseline;                       // a JSON report to compare this run against
  std::optional<double> fail_above;           // --fail-above PCT: exit 1 past it (--baseline)
  std::string command_line;                   // recorded in the report
};

// `xreduce check`: the conformance cases of every --kernel (or of --backend's variants matching
// --variant), failures with the first wrong element; exit 1 when any case fails.
struct CheckOptions {
  KernelFlags kernels;
  std::string backend;   // with --variant: check built-in variants too
  std::string variants;  // globs; default: the kernels' ids
  std::string device;    // SEL for every GPU backend
  std::uint64_t seed = 0x5EED2024u;
  bool every_size = false;      // every size for every dtype (the GPU recipe's XR_TEST_EVERY_SIZE)
  std::uint64_t max_size = 0;   // 0: no cap
  std::string format = "text";  // text | json
};

// `xreduce kernel-header`: the prelude of one --kernel for one (dtype, op, scan kind, pass),
// defaults its first claims; `partials`: a reduce's later passes, which read the accumulator.
struct KernelHeaderOptions {
  std::string kernel;
  std::string spec;
  std::optional<std::string> dtype, op, scan;
  std::size_t pass = 0;
  bool partials = false;
};

// `xreduce diff OLD NEW`: two saved compare reports, row against row (no device).
struct DiffOptions {
  std::string old_path, new_path;
  std::optional<double> fail_above;  // --fail-above PCT
  // Only the rows of these backends, variant globs, dtypes and modes (comma lists; empty: all).
  std::string backends, variants, dtypes, modes;
  std::string format = "text";  // text | md | csv | json
  std::string out, plot;
  bool quiet = false;
  std::string command_line;
};

// `xreduce inspect`: what each variant compiled into and how one call launches it, per pass
// (xreduce/compiled.hpp), with its occupancy; the same selection flags as compare.
struct InspectOptions {
  KernelFlags kernels;
  std::string backends;  // default: every available GPU backend
  std::string variants = "*";
  std::string primitives;
  std::optional<std::string> scans, ops, dtypes, n;
  std::optional<std::string> orders, values, bits, counts;  // sort: as compare's
  HistogramFlags histogram;                                 // histogram: as compare's
  std::string device;
  std::string format = "text";  // text | md | csv | json
  std::string out;
};

// Loads every --kernel (load_user_kernel), checks their ids and adds each to its backend.
// Returns them, in the order given.
std::vector<UserKernel> add_user_kernels(const Registry& registry, const KernelFlags& flags);

// Error(usage) "--kernel ok_scan.cl declares primitive=scan, which --primitive sort does not ask
// for" unless `asked` (--primitive's, spelled `asked_text`) holds the kernel's primitive: a kernel
// runs as the primitive it declares, never in place of another.
void check_kernel_primitive(const UserKernel& kernel, const std::vector<Primitive>& asked,
                            std::string_view asked_text);

// Which of --dtype, --op and --scan the user gave.
struct GivenAxes {
  bool dtype = false, op = false, kind = false;
};
// What run, compare and check take from the --kernel files for the axes the user left out: the
// first claim that every kernel makes (the first kernel's first where they share none), and the
// line the report's header says so with. Nothing without kernels or when every flag was given.
struct ClaimDefaults {
  std::optional<DType> dtype;
  std::optional<Op> op;
  std::optional<ScanKind> kind;  // where a kernel is a scan
  // "--dtype f32 --op sum: the --kernel's first claims (an HLSL step that hard-codes float and +=),
  // as no flag named them"; empty when nothing was taken.
  std::string note;
};
ClaimDefaults claim_defaults(const std::vector<UserKernel>& kernels, const GivenAxes& given);
// A command's options with its --kernel files' defaults applied, and the note that says which.
template <class Options>
struct WithKernelDefaults {
  Options options;
  std::string note;
};

// compare's and inspect's: the options with the --kernel files' defaults applied.
WithKernelDefaults<CompareOptions> with_kernel_defaults(const std::vector<UserKernel>& kernels,
                                                        CompareOptions o);

int run_list(const Registry& registry, const ListOptions& options);
int run_check(const Registry& registry, const CheckOptions& options);
int run_inspect(const Registry& registry, const InspectOptions& options);
int run_run(const Registry& registry, const RunOptions& options);
int run_compare(const Registry& registry, const CompareOptions& options);
int run_kernel_header(const KernelHeaderOptions& options);
int run_diff(const DiffOptions& options);

}  // namespace xr::app
