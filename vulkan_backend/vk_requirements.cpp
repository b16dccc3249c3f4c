#include "vk_requirements.hpp"

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
  std::string text = "needs ";
  for (std::size_t i = 0; i < words.size(); ++i)
    text += (i ? (i + 1 == words.size() ? " and " : ", ") : "") + words[i];
  return text + ", which this device lacks";
}

}  // namespace xr::vulkan
