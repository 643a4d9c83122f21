#include "compute/lessons/roofline_inputs.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "compute/lessons/own_ceilings.hpp"
#include "core/timing/row_label.hpp"

namespace tl::compute {

plot::RooflineInputs roofline_inputs(const Lesson& lesson, const LessonReport& report,
                                     const DeviceCeilings* ceilings) {
  const bool on_gpu = report.on_gpu;
  plot::RooflineInputs in;
  if (ceilings != nullptr) {
    in.bandwidth_bytes_per_second = ceilings->copy_bytes_per_second;
    in.bandwidth_name =
        on_gpu ? "device copy, measured" : std::string(kEmulatorCopyCeiling) + ", measured";
    if (ceilings->sgemm_flops_per_second > 0) {
      in.roofs.push_back(
          {"FP32: cuBLAS SGEMM " + std::to_string(ceilings->sgemm_size) + "³, measured",
           ceilings->sgemm_flops_per_second});
    } else if (!ceilings->sgemm_absent.empty()) {
      in.left_out.push_back("No FP32 roof: " + ceilings->sgemm_absent);
    }
  }
  // The rows this lesson names as other rows' ceilings: each a roof of its own, once, and not also
  // a point (read against the FP32 roof, cuBLAS in FP16 would show as 1400 % of a ceiling that is
  // not its own).
  std::vector<TimingKey> roof_rows;
  if (const auto* own = dynamic_cast<const OwnCeilings*>(&lesson)) {
    for (const TimingRow& row : report.rows) {
      const auto key = own->ceiling_row(row.key);
      if (!key) continue;
      const TimingRow* bound = report.find(*key);
      if (bound == nullptr || bound->stats.empty() || !(bound->flops > 0) ||
          !(bound->stats.median_ms > 0)) {
        continue;
      }
      const std::string name = row_label_without_backend(bound->name) + ", this run";
      const bool known = std::any_of(in.roofs.begin(), in.roofs.end(),
                                     [&](const plot::RooflineRoof& r) { return r.name == name; });
      if (!known) in.roofs.push_back({name, bound->flops / (bound->stats.median_ms * 1e-3)});
      if (std::find(roof_rows.begin(), roof_rows.end(), *key) == roof_rows.end()) {
        roof_rows.push_back(*key);
      }
    }
  }
  std::size_t off_device = 0;
  std::size_t as_roofs = 0;
  for (const TimingRow& row : report.rows) {
    if (row.stats.empty()) continue;
    if (std::find(roof_rows.begin(), roof_rows.end(), row.key) != roof_rows.end()) {
      ++as_roofs;
      continue;
    }
    if (!against_device_ceilings(report, row)) {
      ++off_device;
      continue;
    }
    plot::RooflineKernel kernel;
    kernel.name = row_label_without_backend(row.name);
    kernel.bytes = row.bytes;
    kernel.flops = row.flops;
    kernel.milliseconds = row.stats.median_ms;
    if (const auto share = share_of_own_ceiling(lesson, report, row, ceilings)) {
      kernel.share = share->share;
      kernel.ceiling = share->ceiling;
    }
    in.kernels.push_back(std::move(kernel));
  }
  if (as_roofs > 0) {
    in.left_out.push_back(
        as_roofs == 1 ? std::string("1 library row is drawn as a roof, with its rate in the "
                                    "roof's label, not as a point.")
                      : std::to_string(as_roofs) +
                            " library rows are drawn as roofs, with their rates in "
                            "the roofs' labels, not as points.");
  }
  if (off_device > 0) {
    in.left_out.push_back(std::to_string(off_device) + (off_device == 1 ? " row" : " rows") +
                          " not plotted (the CPU's, copies between host and device, end to end, "
                          "library calls on the emulator): the device's ceilings do not bound "
                          "them.");
  }
  return in;
}

}  // namespace tl::compute
