#include "core/timing/timing_key.hpp"

#include <array>
#include <utility>

namespace tl {
namespace {

constexpr std::array<std::pair<TimingRole, std::string_view>, 8> kRoleNames{{
    {TimingRole::kKernel, "kernel"},
    {TimingRole::kEndToEndPageable, "end-to-end-pageable"},
    {TimingRole::kEndToEndPinned, "end-to-end-pinned"},
    {TimingRole::kCopy, "copy"},
    {TimingRole::kCpuOneThread, "cpu-one-thread"},
    {TimingRole::kCpuAllThreads, "cpu-all-threads"},
    {TimingRole::kLibrary, "library"},
    {TimingRole::kChainStep, "chain-step"},
}};

}  // namespace

std::string_view to_string(TimingRole role) {
  for (const auto& [value, name] : kRoleNames) {
    if (value == role) return name;
  }
  return "unknown";
}

std::optional<TimingRole> parse_timing_role(std::string_view text) {
  for (const auto& [value, name] : kRoleNames) {
    if (name == text) return value;
  }
  return std::nullopt;
}

std::string to_string(const TimingKey& key) {
  std::string text(to_string(key.role));
  if (!key.variant.empty()) text += "/" + key.variant;
  return text;
}

}  // namespace tl
