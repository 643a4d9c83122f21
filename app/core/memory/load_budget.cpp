#include "core/memory/load_budget.hpp"

#include <algorithm>
#include <utility>

namespace tl::memory {

double LoadBudget::loads_per_element() const {
  return block_elements == 0
             ? 0.0
             : static_cast<double>(element_loads) / static_cast<double>(block_elements);
}

std::vector<LoadBudget> load_budgets(std::span<const LaneRecord> records,
                                     std::span<const ArrayExtent> arrays) {
  std::vector<LoadBudget> budgets(arrays.size());
  // Per array, (block, element) of every element load; sorted, the distinct pairs are the
  // elements each block loaded. A recording holds a few blocks, so this stays a few million pairs
  // at most, where a hash set per block would cost more to build.
  std::vector<std::vector<std::pair<std::uint64_t, std::uint64_t>>> touched(arrays.size());
  for (const LaneRecord& r : records) {
    if (r.space != MemorySpace::kGlobal || r.kind != AccessKind::kLoad || r.bytes == 0) continue;
    for (std::size_t a = 0; a < arrays.size(); ++a) {
      const ArrayExtent& array = arrays[a];
      if (array.element_bytes == 0 || r.address - array.address >= array.bytes) continue;
      const std::uint64_t first = (r.address - array.address) / array.element_bytes;
      const std::uint64_t end_byte = std::min(r.address + r.bytes, array.address + array.bytes);
      const std::uint64_t last = (end_byte - 1 - array.address) / array.element_bytes;
      for (std::uint64_t e = first; e <= last; ++e) touched[a].emplace_back(r.block, e);
      budgets[a].element_loads += last - first + 1;
      break;
    }
  }
  for (std::size_t a = 0; a < arrays.size(); ++a) {
    auto& pairs = touched[a];
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
    budgets[a].block_elements = pairs.size();
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      if (i == 0 || pairs[i].first != pairs[i - 1].first) ++budgets[a].blocks;
    }
  }
  return budgets;
}

}  // namespace tl::memory
