#include "vk_requirements.hpp"

#include "xreduce/error.hpp"

#include <iterator>
#include <utility>
#include <vector>

namespace xr::vulkan {

std::vector<std::string> need_words(std::uint32_t needs) {
  std::vector<std::string> words;
  if (needs & need_subgroup_basic) words.push_back("subgroups in compute (basic)");
  if (needs & need_subgroup_shuffle) words.push_back("subgroup shuffle");
  if (needs & need_subgroup_shuffle_relative)
    words.push_back("subgroup shuffle-relative (subgroupShuffleUp/Down)");
  if (needs & need_subgroup_arithmetic)
    words.push_back("subgroup arithmetic (subgroupAdd/Min/Max and their scans)");
  if (needs & need_subgroup_ballot) words.push_back("subgroup ballot");
  if (needs & need_subgroup_vote) words.push_back("subgroup vote");
  if (needs & need_int64_atomics) words.push_back("64-bit buffer atomics (shaderInt64)");
  return words;
}

namespace {

// Subgroup operations that take element values (not just booleans or barriers) as operands.
constexpr std::uint32_t kValueSubgroupOps =
    need_subgroup_shuffle | need_subgroup_shuffle_relative | need_subgroup_arithmetic;

std::string needs_text(const std::vector<std::string>& words) {
  std::string text = "needs ";
  for (std::size_t i = 0; i < words.size(); ++i)
    text += (i ? (i + 1 == words.size() ? " and " : ", ") : "") + words[i];
  return text + ", which this device lacks";
}

}  // namespace

std::vector<DType> vulkan_dtypes() {
  return {std::begin(kElementDTypes), std::end(kElementDTypes)};
}

std::vector<std::string> requirement_words(std::uint32_t needs) {
  std::vector<std::string> words = need_words(needs);
  // shaderInt64 every usable device has (vk_context.cpp): i64/u64 need more only as subgroup
  // operands.
  if (needs & kValueSubgroupOps) words.push_back("i64/u64: shaderSubgroupExtendedTypes");
  words.push_back("f64: shaderFloat64");
  words.push_back("f16/bf16: storageBuffer16BitAccess");
  return words;
}

std::vector<std::string> dtype_missing(DType t, std::uint32_t needs, std::uint32_t shared_bytes_4,
                                       const DeviceFacts& f) {
  std::vector<std::string> words;
  const std::string type(to_string(t));
  if (t == DType::f64 && !f.float64) words.push_back("shaderFloat64 (" + type + ")");
  if ((t == DType::f16 || t == DType::bf16) && !f.storage16)
    words.push_back("storageBuffer16BitAccess (" + type + " elements)");
  // Vulkan's subgroup operations take doubles with shaderFloat64, 64-bit integers only with
  // shaderSubgroupExtendedTypes.
  if ((t == DType::i64 || t == DType::u64) && (needs & kValueSubgroupOps) &&
      !f.subgroup_extended_types)
    words.push_back("shaderSubgroupExtendedTypes (" + type + " subgroup operations)");
  const std::uint64_t shared = std::uint64_t{shared_bytes_4} * size_of(accumulator_of(t)) / 4;
  if (shared > f.limits.maxComputeSharedMemorySize)
    words.push_back(std::to_string(shared) + " bytes of shared memory (" + type + ")");
  return words;
}

void require_dtype(std::string_view id, DType t, std::uint32_t needs, std::uint32_t shared_bytes_4,
                   const DeviceFacts& f) {
  const std::vector<std::string> words = dtype_missing(t, needs, shared_bytes_4, f);
  const std::string type(to_string(t));
  if (!words.empty())
    throw Error(ErrorCategory::unsupported, std::string(id) + " over " + type + " on " +
                                                f.info.name + ": " + needs_text(words));
}

std::string missing_reason(std::uint32_t needs, std::uint32_t workgroup, std::uint32_t shared_bytes,
                           const DeviceFacts& f) {
  if (!f.unusable_reason.empty()) return "the device is unusable: " + f.unusable_reason;
  using F = vk::SubgroupFeatureFlagBits;
  std::uint32_t missing = 0;
  const std::pair<std::uint32_t, F> subgroup_bits[] = {
      {need_subgroup_basic, F::eBasic},
      {need_subgroup_shuffle, F::eShuffle},
      {need_subgroup_shuffle_relative, F::eShuffleRelative},
      {need_subgroup_arithmetic, F::eArithmetic},
      {need_subgroup_ballot, F::eBallot},
      {need_subgroup_vote, F::eVote}};
  for (auto [need, bit] : subgroup_bits)
    if ((needs & need) && !(f.subgroup_ops & bit)) missing |= need;
  if ((needs & need_int64_atomics) && !f.int64_atomics) missing |= need_int64_atomics;
  std::vector<std::string> words = need_words(missing);
  const auto& l = f.limits;
  if (workgroup > l.maxComputeWorkGroupInvocations || workgroup > l.maxComputeWorkGroupSize[0])
    words.push_back("workgroups of " + std::to_string(workgroup) + " invocations");
  if (shared_bytes > l.maxComputeSharedMemorySize)
    words.push_back(std::to_string(shared_bytes) + " bytes of shared memory");
  if ((needs & need_subgroup_basic) && f.max_subgroup_size > workgroup)
    words.push_back("subgroups no larger than the workgroup of " + std::to_string(workgroup));
  if (words.empty()) return {};
  return needs_text(words);
}

}  // namespace xr::vulkan
