#include "cli_flags.hpp"

#include <charconv>
#include <exception>

#include <fmt/format.h>

#include "xreduce/error.hpp"

namespace xr::app {

const CLI::Validator kFileName(
    [](std::string& name) {
      return name.empty() ? std::string("an empty file name") : std::string();
    },
    "", "file name");

const CLI::Validator kWholeNumber(
    [](std::string& text) {
      std::uint64_t value = 0;
      const char* end = text.data() + text.size();
      const auto [stop, error] = std::from_chars(text.data(), end, value);
      if (text.empty() || error != std::errc{} || stop != end)
        return fmt::format("'{}' is not a whole number from 0 to {}", text, UINT64_MAX);
      text = std::to_string(value);
      return std::string();
    },
    "", "whole number");

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
  cmd->add_option("--throttle-threshold", s.throttle_pct,
                  "Retake a sample whose SM clock is under PCT % of the reference clock, after a "
                  "warm-up, within --max-time (0: keep every sample; as nvbench's)")
      ->capture_default_str()
      ->type_name("PCT");
  return reps;
}

DataFlags add_data_flags(CLI::App* cmd, std::uint64_t& seed, std::string& dist) {
  return {cmd->add_option("--seed", seed, "Seed of the generated data")
              ->capture_default_str()
              ->type_name("S")
              ->transform(kWholeNumber),
          cmd->add_option("--dist", dist,
                          "small (default) | full | extremes; for sort also few | sorted | "
                          "reversed | top-digit | bottom-digit; for histogram uniform (its "
                          "default) | one-bin | skewed | image | part-out")
              ->type_name("D")};
}

void check_reps(const CLI::Option* opt, const StatFlags& s) {
  if (opt->count() && s.reps < 1)
    throw Error(ErrorCategory::usage, fmt::format("--reps must be at least 1, not {}", s.reps));
}

void add_kernel_flags(CLI::App* cmd, KernelFlags& k) {
  cmd->add_option("--kernel", k.files,
                  "Your kernel as a variant: .cu/.ptx/.cubin (CUDA), .comp/.glsl/.hlsl/.spv "
                  "(Vulkan), .cl (OpenCL); repeatable (docs/kernels.md)")
      ->type_name("FILE")
      ->check(kFileName);
  cmd->add_option("--kernel-spec", k.spec,
                  "Declarations for every --kernel, as in its `// xreduce:` lines (needed by "
                  ".cubin and .spv), e.g. 'dtypes=f32 ops=sum block=256'")
      ->type_name("WORDS");
  cmd->add_option("--kernel-id", k.id, "The id of every --kernel: user/ID (default: the file stem)")
      ->type_name("ID");
}

OptionalText::OptionalText(CLI::App* cmd, const std::string& name, const std::string& help,
                           const std::string& type)
    : option_(cmd->add_option(name, text_, help)->type_name(type)) {
  if (type == "FILE") option_->check(kFileName);
}

std::optional<double> parse_fail_above(const OptionalText& flag) {
  std::optional<std::string> text;
  flag.copy_to(text);
  if (!text) return std::nullopt;
  std::size_t used = 0;
  double pct = -1;
  try {
    pct = std::stod(*text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text->size() || !(pct >= 0) || pct > 1e6)
    throw Error(
        ErrorCategory::usage,
        fmt::format("--fail-above must be a percentage of at least 0, e.g. 5, not '{}'", *text));
  return pct;
}

}  // namespace xr::app
