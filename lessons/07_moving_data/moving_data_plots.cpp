#include "moving_data_plots.hpp"

#include "core/format.hpp"

namespace tl::compute {

MovingDataPlot copy_plot(const MovingDataReport& report) {
  MovingDataPlot plot;
  for (const CopySeries& s : report.copies) {
    plot::PlotSeries series;
    series.name = std::string(s.to_device ? "host → device" : "device → host") + ", " +
                  (s.pinned ? "pinned" : "pageable") + (report.on_gpu ? "" : " (host memcpy)");
    series.key = {s.pinned ? TimingRole::kEndToEndPinned : TimingRole::kEndToEndPageable,
                  s.variant()};
    series.dash = s.to_device ? plot::LineDash::kSolid : plot::LineDash::kDashed;
    for (const lessons::CopyPoint& p : s.points) {
      plot::PlotPoint point;
      point.x = static_cast<double>(p.bytes);
      point.y = p.bytes_per_second();
      point.bytes = static_cast<double>(p.bytes);
      series.points.push_back(point);
    }
    if (s.pinned && s.to_device && s.knee) {
      plot.markers.push_back({s.knee->knee_bytes, "knee " + format_bytes(s.knee->knee_bytes)});
    }
    plot.series.push_back(std::move(series));
  }
  if (report.link.known) {
    plot.guides.push_back({report.link.bytes_per_second,
                           "link ceiling, PCIe " + std::to_string(report.link.generation) + " x" +
                               std::to_string(report.link.width)});
  }
  return plot;
}

MovingDataPlot batch_plot(const MovingDataReport& report) {
  MovingDataPlot plot;
  plot::PlotSeries device;
  device.name = report.on_gpu ? "GPU, copies included" : "emulated (CPU), copies included";
  device.key = {report.batches.pinned ? TimingRole::kEndToEndPinned : TimingRole::kEndToEndPageable,
                "batches"};
  plot::PlotSeries cpu;
  cpu.name = "CPU, all threads";
  cpu.key = {TimingRole::kCpuAllThreads, "batches"};
  for (const lessons::BatchPoint& p : report.batches.points) {
    device.points.push_back({static_cast<double>(p.batch), p.device_samples_per_second});
    if (p.cpu_samples_per_second > 0) {
      cpu.points.push_back({static_cast<double>(p.batch), p.cpu_samples_per_second});
    }
  }
  plot.series.push_back(std::move(device));
  if (!cpu.points.empty()) plot.series.push_back(std::move(cpu));
  if (report.batches.crossover) {
    plot.markers.push_back({static_cast<double>(*report.batches.crossover),
                            "GPU ahead from batch " + std::to_string(*report.batches.crossover)});
  }
  return plot;
}

}  // namespace tl::compute
