#include "core/memory/request_picture.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace tl::memory {

RequestPicture request_picture(const WarpRequest& request) {
  RequestPicture picture;
  picture.space = request.space;
  picture.kind = request.kind;
  const bool global = request.space == MemorySpace::kGlobal;
  if (global) {
    const GlobalRequestCost cost = global_request_cost(request.lanes);
    picture.actual = cost.sectors;
    picture.ideal = cost.ideal_sectors;
    picture.lines = cost.lines;
  } else {
    const SharedRequestCost cost = shared_request_cost(request.lanes);
    picture.actual = cost.wavefronts;
    picture.ideal = cost.ideal_wavefronts();
    picture.conflict_degree = cost.conflict_degree;
    picture.broadcast = cost.broadcast;
  }

  // The targets: the sectors touched (sorted by address) or every bank.
  std::map<std::uint64_t, std::set<std::uint64_t>> words_of;  // target id -> distinct words
  for (const LaneAccess& l : request.lanes) {
    const std::uint64_t id = global ? l.address / kSectorBytes : shared_bank(l.address);
    words_of[id].insert(l.address / kBankWordBytes);
  }
  if (global) {
    for (const auto& [id, words] : words_of) {
      picture.targets.push_back(
          {id, id * kSectorBytes / kLineBytes, 0, static_cast<std::uint32_t>(words.size())});
    }
  } else {
    for (std::uint32_t bank = 0; bank < kBankCount; ++bank) {
      const auto found = words_of.find(bank);
      picture.targets.push_back(
          {bank, 0, 0,
           found == words_of.end() ? 0u : static_cast<std::uint32_t>(found->second.size())});
    }
  }

  for (const LaneAccess& l : request.lanes) {
    const std::uint64_t id = global ? l.address / kSectorBytes : shared_bank(l.address);
    const auto at = std::lower_bound(
        picture.targets.begin(), picture.targets.end(), id,
        [](const PictureTarget& t, std::uint64_t wanted) { return t.id < wanted; });
    const auto index = static_cast<std::uint32_t>(at - picture.targets.begin());
    ++at->lanes;
    picture.lanes.push_back({l.lane, l.address, l.bytes, index});
  }
  std::sort(picture.lanes.begin(), picture.lanes.end(),
            [](const PictureLane& a, const PictureLane& b) { return a.lane < b.lane; });
  return picture;
}

}  // namespace tl::memory
