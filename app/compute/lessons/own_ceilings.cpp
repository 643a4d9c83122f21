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
  if (!against_device_ceilings(report, row) || ceilings == nullptr) return std::nullopt;
  const auto share = share_of_ceilings(row.bytes, row.flops, row.stats.median_ms, *ceilings);
  if (!share) return std::nullopt;
  // On the emulator the only measured ceiling is the host's memcpy (no cuBLAS: the FP32 ceiling
  // is absent, so a compute-bound row has no share); it is named for what it is.
  return OwnCeilingShare{share->share,
                         report.on_gpu ? std::string(share->ceiling) : kEmulatorCopyCeiling, false};
}

bool against_device_ceilings(const LessonReport& report, const TimingRow& row) {
  if (report.on_gpu) return row.on_device;
  return row.key.role == TimingRole::kKernel || row.key.role == TimingRole::kChainStep;
}

}  // namespace tl::compute
