// The flags several of xreduce's commands share (CLI11): the validators of a FILE and of a whole
// number, the statistics, the generated data, the users' kernels, a sort's lists, --fail-above,
// and a string option set only when given. cli.cpp builds the commands from them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "commands.hpp"

namespace xr::app {

// A FILE argument: an empty name is refused, not taken as "no file" (which would write a report
// to stdout, or read nothing).
extern const CLI::Validator kFileName;

// An unsigned option (--seed, --max-size, --pass): decimal digits, 0 to 2^64 - 1. CLI11 alone
// reads it with strtoull, which wraps -1, keeps 2^64 - 1 for anything past it and reads 010 as
// octal; the text it converts is the number without leading zeros.
extern const CLI::Validator kWholeNumber;

// --reps, --warmup, --max-time, --hot, --mode and --throttle-threshold; returns --reps.
CLI::Option* add_stat_flags(CLI::App* cmd, StatFlags& s);

// The generated data of run and compare: its seed and distribution.
struct DataFlags {
  CLI::Option* seed;
  CLI::Option* dist;
};
DataFlags add_data_flags(CLI::App* cmd, std::uint64_t& seed, std::string& dist);

// --reps given explicitly must be a count; 0 is the internal "adaptive".
void check_reps(const CLI::Option* opt, const StatFlags& s);

// --kernel, --kernel-spec, --kernel-id (docs/kernels.md).
void add_kernel_flags(CLI::App* cmd, KernelFlags& k);

// A string option that is set only when given (its std::optional field stays empty otherwise).
class OptionalText {
 public:
  OptionalText(CLI::App* cmd, const std::string& name, const std::string& help,
               const std::string& type);
  CLI::Option* option() const { return option_; }
  void copy_to(std::optional<std::string>& field) const {
    if (option_->count()) field = text_;
  }

 private:
  std::string text_;
  CLI::Option* option_;
};

// A sort's --order, --values, --bits and --count, each a list but --bits, as compare and
// inspect take them.
struct SortListFlags {
  explicit SortListFlags(CLI::App* cmd)
      : order(cmd, "--order", "asc | desc, or a list (sort; default asc)", "O"),
        values(cmd, "--values",
               "none | u32 | u64, or a list: keys, or pairs of that value (sort; default none)",
               "V"),
        bits(cmd, "--bits", "B:E, the ordered bits sorted by (sort; default every bit)", "B:E"),
        count(cmd, "--count",
              "host | device, or a list: the count given on the host, or read by the GPU from a "
              "device word, the libraries' indirect calls (sort; default host)",
              "C") {}
  void copy_to(std::optional<std::string>& orders, std::optional<std::string>& values_field,
               std::optional<std::string>& bits_field,
               std::optional<std::string>& counts_field) const {
    order.copy_to(orders);
    values.copy_to(values_field);
    bits.copy_to(bits_field);
    count.copy_to(counts_field);
  }
  OptionalText order, values, bits, count;
};

// A histogram's --bins, --range and --counters, as run, compare and inspect take them.
struct HistogramOptionFlags {
  explicit HistogramOptionFlags(CLI::App* cmd)
      : bins(cmd, "--bins", "Bins of a histogram, 1 to 2^24 (histogram; default 256)", "N"),
        range(cmd, "--range", "LO:HI, the levels' range [LO, HI) (histogram; default 0:256)",
              "LO:HI"),
        counters(cmd, "--counters",
                 "u32 | u64, the counters' width; u64 where n may pass 2^32 - 1 (histogram; "
                 "default u32)",
                 "W") {}
  void copy_to(HistogramFlags& flags) const {
    bins.copy_to(flags.bins);
    range.copy_to(flags.range);
    counters.copy_to(flags.counters);
  }
  OptionalText bins, range, counters;
};

// --fail-above PCT: a percentage, at least 0; nullopt when not given.
std::optional<double> parse_fail_above(const OptionalText& flag);

}  // namespace xr::app
