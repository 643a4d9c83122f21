#include "own_ceilings.hpp"

#include <string>

namespace tl::compute {

std::optional<OwnCeilingShare> share_of_own_ceiling(const Lesson& lesson,
                                                    const LessonReport& report,
                                                    const TimingRow& row,
                                                    const DeviceCeilings* ceilings) {
  if (row.stats.empty()) return std::nullopt;
  if (const auto* own = dynamic_cast<const OwnCeilings*>(&lesson)) {
    if (const auto key = own->ceiling_row(row.key)) {
      const TimingRow* bound = report.find(*key);
      if (bound == nullptr || bound->stats.empty()) return std::nullopt;
      return share_of_row(row.flops, row.stats.median_ms, bound->name, bound->flops,
                          bound->stats.median_ms);
    }
  }
  if (!row.on_device || ceilings == nullptr) return std::nullopt;
  const auto share = share_of_ceilings(row.bytes, row.flops, row.stats.median_ms, *ceilings);
  if (!share) return std::nullopt;
  return OwnCeilingShare{share->share, std::string(share->ceiling), false};
}

}  // namespace tl::compute
