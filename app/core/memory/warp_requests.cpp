#include "core/memory/warp_requests.hpp"

#include <algorithm>
#include <unordered_map>

namespace tl::memory {
namespace {

constexpr std::uint32_t kWarpSize = 32;

// Mixes the fields of a key into one hash (splitmix64's finaliser per step).
std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  h ^= h >> 31;
  h *= 0xbf58476d1ce4e5b9ULL;
  return h ^ (h >> 29);
}

// A lane's running count of one instruction.
struct LaneSiteKey {
  std::uint64_t block;
  std::uint32_t thread;
  std::uint32_t site;
  MemorySpace space;
  AccessKind kind;
  bool operator==(const LaneSiteKey&) const = default;
};
struct LaneSiteHash {
  std::size_t operator()(const LaneSiteKey& k) const {
    std::uint64_t h = mix(k.block, k.thread);
    h = mix(h, (std::uint64_t{k.site} << 16) | (static_cast<std::uint64_t>(k.space) << 8) |
                   static_cast<std::uint64_t>(k.kind));
    return static_cast<std::size_t>(h);
  }
};

// One warp's instance of one instruction.
struct RequestKey {
  std::uint64_t block;
  std::uint32_t warp;
  std::uint32_t site;
  std::uint32_t occurrence;
  MemorySpace space;
  AccessKind kind;
  bool operator==(const RequestKey&) const = default;
};
struct RequestHash {
  std::size_t operator()(const RequestKey& k) const {
    std::uint64_t h = mix(k.block, k.warp);
    h = mix(h, (std::uint64_t{k.site} << 32) | k.occurrence);
    h = mix(h, (static_cast<std::uint64_t>(k.space) << 8) | static_cast<std::uint64_t>(k.kind));
    return static_cast<std::size_t>(h);
  }
};

}  // namespace

std::vector<WarpRequest> group_warp_requests(std::span<const LaneRecord> records) {
  std::unordered_map<LaneSiteKey, std::uint32_t, LaneSiteHash> occurrences;
  std::unordered_map<RequestKey, std::size_t, RequestHash> index;
  std::vector<WarpRequest> requests;
  for (const LaneRecord& r : records) {
    std::uint32_t& count = occurrences[{r.block, r.thread, r.site, r.space, r.kind}];
    const std::uint32_t occurrence = count++;
    const RequestKey key{r.block, r.thread / kWarpSize, r.site, occurrence, r.space, r.kind};
    auto [at, inserted] = index.try_emplace(key, requests.size());
    if (inserted) {
      requests.push_back(WarpRequest{r.block, key.warp, r.site, occurrence, r.space, r.kind, {}});
    }
    requests[at->second].lanes.push_back(LaneAccess{r.thread % kWarpSize, r.address, r.bytes});
  }
  // Lanes arrive in the emulator's running order, which is lane order within a warp for each
  // stretch between waits; sort anyway, so that a caller recording in another order gets the same.
  for (WarpRequest& request : requests) {
    std::stable_sort(request.lanes.begin(), request.lanes.end(),
                     [](const LaneAccess& a, const LaneAccess& b) { return a.lane < b.lane; });
  }
  return requests;
}

std::vector<std::uint64_t> blocks_to_record(std::uint64_t grid_blocks, std::uint64_t at_most) {
  std::vector<std::uint64_t> blocks;
  if (grid_blocks == 0 || at_most == 0) return blocks;
  if (grid_blocks <= at_most || at_most == 1) {
    const std::uint64_t n = std::min(grid_blocks, at_most);
    for (std::uint64_t b = 0; b < n; ++b) blocks.push_back(b);
    return blocks;
  }
  for (std::uint64_t i = 0; i < at_most; ++i) {
    // i = 0 is block 0 and i = at_most - 1 the last block; rounding keeps them distinct.
    blocks.push_back(i * (grid_blocks - 1) / (at_most - 1));
  }
  blocks.erase(std::unique(blocks.begin(), blocks.end()), blocks.end());
  return blocks;
}

}  // namespace tl::memory
