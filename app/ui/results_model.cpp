#include "results_model.hpp"

#include <algorithm>

#include "compute/lessons/lesson_series.hpp"
#include "compute/lessons/roofline_inputs.hpp"
#include "core/format.hpp"
#include "core/occupancy.hpp"
#include "core/plot/ceiling_notes.hpp"
#include "core/plot/tick_format.hpp"
#include "core/reference_gpus.hpp"
#include "core/timing/row_label.hpp"
#include "series_style.hpp"

namespace tl::ui {
namespace {

// Earlier sweeps kept, faded, beside the current one: enough to compare a few tries, few enough
// for the legend.
constexpr std::size_t kMaxEarlierSeries = 16;

}  // namespace

void ResultsModel::start_sweep(SweepKind kind) {
  if (launches_.runner_running()) {
    post(Severity::kWarning, "Measurements are already running.");
    return;
  }
  compute::Lesson& lesson = launches_.lesson();
  lesson.release_device_data();  // the sweep's largest sizes need the memory
  TimingPlot& plot = state_.timing;
  // Keep the previous sweep, faded, to compare with the new one: only a sweep of the same kind,
  // whose x means the same thing.
  if (plot.kind != kind) plot.earlier.clear();
  for (auto& s : plot.series) {
    if (s.points.empty() || plot.kind != kind) continue;
    s.faint = true;
    s.name += " (earlier)";
    plot.earlier.push_back(s);
  }
  while (plot.earlier.size() > kMaxEarlierSeries) plot.earlier.erase(plot.earlier.begin());
  plot.series.clear();
  plot.markers.clear();
  plot.kind = kind;

  // Each point: its x, its label, and the parameters the lesson runs with there.
  struct SweepStep {
    double x;
    std::string label;
    lessons::ParamValues values;
  };
  std::vector<SweepStep> steps;
  if (kind == SweepKind::kSize) {
    plot.x_title = lesson.size_label();
    for (std::uint64_t size : lesson.sweep_sizes(launches_.device())) {
      steps.push_back({static_cast<double>(size),
                       lesson.size_label() + " = " + format_power_of_two(size),
                       lesson.values_for_size(size)});
    }
  } else {
    plot.x_title = "threads per block, at " + lesson.size_label() + " = " +
                   format_count(state_.controls.elements());
    for (const compute::BlockStep& step : lesson.block_sweep()) {
      steps.push_back({static_cast<double>(step.block.volume()), "block " + to_string(step.block),
                       step.values});
    }
  }
  refresh_plot();

  std::vector<SweepJob> jobs;
  compute::Device* device = &launches_.device();
  for (SweepStep& step : steps) {
    auto copy = launches_.session().copy_lesson();
    if (!copy) break;
    std::shared_ptr<compute::Lesson> job_lesson(std::move(*copy));
    const Status configured = job_lesson->configure(step.values);
    if (!configured) continue;
    // The CPU does not care about the GPU's block size: over blocks only the kernels are timed.
    if (kind == SweepKind::kBlock) job_lesson->set_time_cpu(false);
    const double x = step.x;
    jobs.push_back({std::move(step.label),
                    [device, x, job_lesson](const std::atomic<bool>& cancel) -> Result<SweepPoint> {
                      if (const Status safe = job_lesson->check_watchdog(*device); !safe) {
                        return safe.error();
                      }
                      auto report = job_lesson->run_timed(*device, &cancel);
                      if (!report) return report.error();
                      // Cancelled on the way (a CPU reference cut short): not a point.
                      if (cancel) return Error{ErrorKind::kCancelled, "cancelled"};
                      if (report->check && !report->check->passed) {
                        return Error{ErrorKind::kCudaError, report->check->description};
                      }
                      return compute::to_sweep_point(x, *report);
                    }});
  }
  const Status started = launches_.start_sweep(std::move(jobs));
  if (!started) post(Severity::kError, started.message());
  plot.sweeping = started.is_ok();
}

void ResultsModel::collect_sweep(bool running) {
  SweepRunner& runner = launches_.runner();
  for (const SweepPoint& point : runner.take_new_points()) record_sweep_point(point);
  for (const auto& failure : runner.take_new_failures()) {
    post(Severity::kError, failure.label + ": " + failure.error.message);
    if (failure.error.kind == ErrorKind::kCudaStickyError) {
      launches_.recover(failure.error);
      break;  // the sweep's later failures are this fault again
    }
  }
  state_.timing.progress = runner.progress();
  state_.timing.sweeping = running;
}

void ResultsModel::clear_plot() {
  if (launches_.runner_running() && launches_.runner_work() == RunnerWork::kSweep) return;
  state_.timing.series.clear();
  state_.timing.earlier.clear();
  state_.timing.markers.clear();
  refresh_plot();
}

void ResultsModel::set_quantity(plot::PlotQuantity quantity) {
  state_.timing.quantity = quantity;
  refresh_plot();
}

void ResultsModel::refresh_plot() {
  TimingPlot& plot = state_.timing;
  std::vector<plot::PlotSeries> all;
  all.reserve(plot.earlier.size() + plot.series.size());
  all.insert(all.end(), plot.earlier.begin(), plot.earlier.end());
  all.insert(all.end(), plot.series.begin(), plot.series.end());
  plot.quantities.clear();
  for (plot::PlotQuantity quantity : plot::all_plot_quantities()) {
    if (quantity == plot::PlotQuantity::kTime || plot::has_quantity(all, quantity)) {
      plot.quantities.push_back(quantity);
    }
  }
  const bool available = std::find(plot.quantities.begin(), plot.quantities.end(), plot.quantity) !=
                         plot.quantities.end();
  plot.shown_quantity = available ? plot.quantity : plot::PlotQuantity::kTime;
  plot.shown = plot::as_quantity(all, plot.shown_quantity);
  // On the emulator every device series would read "Emulated ... (CPU)": the plot's title says it
  // once and the legend names what each series measures, as the timing table does (the exports
  // keep the full names).
  if (!is_gpu(state_.backend)) {
    for (plot::PlotSeries& s : plot.shown) s.name = row_label_without_backend(s.name);
  }
  // On a rate axis, the device's measured ceiling for that rate, as a line to read the curves
  // against.
  plot.guides.clear();
  if (state_.ceilings && !plot.shown.empty()) {
    const DeviceCeilings& c = *state_.ceilings;
    if (plot.shown_quantity == plot::PlotQuantity::kBandwidth && c.copy_bytes_per_second > 0) {
      const std::string name = is_gpu(state_.backend) ? "device-to-device copy" : "host memcpy";
      // Measured over a buffer larger than the caches: a sweep's smaller sizes fit in them (the
      // CPU's, or the GPU's L2) and can run faster than this line.
      plot.guides.push_back(
          {.y = c.copy_bytes_per_second,
           .label = name + "\nmeasured: " +
                    plot::format_value(c.copy_bytes_per_second, plot::TickFormat::kByteRate, 3),
           .name = name,
           .above_reason =
               "It was measured copying " +
               (c.copy_buffer_bytes > 0 ? format_bytes(static_cast<double>(c.copy_buffer_bytes))
                                        : std::string("a large buffer")) +
               ", more than the caches hold: smaller data can stay in the " +
               (is_gpu(state_.backend) ? "GPU's L2 cache." : "CPU's caches.")});
    }
    if (plot.shown_quantity == plot::PlotQuantity::kFlopRate && c.sgemm_flops_per_second > 0) {
      plot.guides.push_back(
          {.y = c.sgemm_flops_per_second,
           .label = "cuBLAS SGEMM " + std::to_string(c.sgemm_size) + "³\nmeasured: " +
                    plot::format_value(c.sgemm_flops_per_second, plot::TickFormat::kFlopRate, 3),
           .name = "cuBLAS SGEMM",
           .above_reason = "It is cuBLAS at " + std::to_string(c.sgemm_size) +
                           "³ only: other sizes, or lower precision, can run faster."});
    }
  }
  plot.ceiling_notes = plot::notes_above_guides(plot.shown, plot.guides, plot::TickFormat::kCount);
}

void ResultsModel::record_sweep_point(const SweepPoint& point) {
  compute::add_sweep_point(state_.timing.series, point);
  style_timing_series(state_.timing.series);
  state_.timing.markers.clear();
  // Where the GPU overtakes the CPU is a matter of size; over block sizes nothing crosses.
  if (const auto pair = launches_.lesson().crossover();
      pair && state_.timing.kind == SweepKind::kSize) {
    if (auto crossover = compute::find_series_crossover(state_.timing.series, *pair)) {
      const auto name_of = [this](const TimingKey& key) {
        for (const plot::PlotSeries& s : state_.timing.series) {
          if (!s.faint && s.key == key) return s.name;
        }
        return to_string(key);
      };
      state_.timing.markers.push_back(
          plot::PlotMarker{*crossover, name_of(pair->second) + " beats " + name_of(pair->first)});
    }
  }
  refresh_plot();
}

void ResultsModel::refresh_roofline() {
  // What the roofline depends on, in a few characters: the run's times and work, the ceilings.
  std::string source =
      std::string(launches_.lesson().info().id) + (is_gpu(state_.backend) ? "/gpu" : "/emu");
  const std::optional<compute::LessonReport>& report = state_.timed.report;
  if (report) {
    for (const compute::TimingRow& row : report->rows) {
      source += "/" + std::to_string(row.stats.median_ms) + ":" + std::to_string(row.bytes) + ":" +
                std::to_string(row.flops);
    }
  }
  if (state_.ceilings) {
    source += "/c" + std::to_string(state_.ceilings->copy_bytes_per_second) + ":" +
              std::to_string(state_.ceilings->sgemm_flops_per_second);
  }
  const bool refused =
      !state_.launch_problems.empty() || !state_.trace.error.empty() || !state_.timed.error.empty();
  source += refused ? "/refused" : "/ok";
  if (source == state_.roofline.source) return;
  state_.roofline.source = std::move(source);
  state_.roofline.emulator = report ? !report->on_gpu : !is_gpu(state_.backend);
  const plot::RooflineInputs inputs =
      report ? compute::roofline_inputs(launches_.lesson(), *report,
                                        state_.ceilings ? &*state_.ceilings : nullptr)
             : plot::RooflineInputs{};
  state_.roofline.roofline = plot::build_roofline(inputs);
  if (!report && refused) {
    state_.roofline.roofline.empty_reason =
        "Nothing timed: the launch was refused or failed (the launch controls say why).";
  }
}

void ResultsModel::refresh_occupancy() {
  OccupancyView& view = state_.controls.occupancy;
  view = {};
  const auto kernel = launches_.lesson().occupancy_kernel();
  if (!kernel) {
    view.unavailable = "This path runs cuBLAS's own kernels, which ThreadLab cannot inspect.";
    return;
  }
  view.kernel = *kernel;
  KernelResources resources;
  if (can_compute_occupancy(launches_.device().info())) {
    auto cached = kernel_resources_.find(*kernel);
    if (cached == kernel_resources_.end()) {
      auto read = launches_.device().kernel_resources(*kernel);
      if (!read) {
        view.unavailable = read.message();
        return;
      }
      cached = kernel_resources_.emplace(*kernel, *read).first;
    }
    resources = cached->second;
    view.device = launches_.device().info();
  } else {
    // No SMs to fill and no compiler output to read: the chosen reference GPU's published limits,
    // with the kernel's registers and shared memory as the user assumes them.
    const OccupancyModelChoice& choice = state_.controls.occupancy_model;
    const ReferenceGpu gpu = find_reference_gpu(choice.gpu).value_or(reference_gpus().front());
    view.device = reference_device_info(gpu);
    view.model_label = occupancy_model_label(gpu);
    resources.registers_per_thread = choice.registers_per_thread;
    resources.static_shared_bytes = choice.shared_bytes_per_block;
  }
  view.resources = resources;
  const std::uint64_t threads = state_.controls.resolved.block.volume();
  view.current =
      compute_occupancy(view.device, resources,
                        static_cast<std::uint32_t>(std::min<std::uint64_t>(threads, 1u << 20)));
  view.limit_reason = describe_limit(view.current, view.device);
  view.by_block_size = occupancy_by_block_size(view.device, resources);
}

void ResultsModel::set_occupancy_model(const OccupancyModelChoice& choice) {
  if (!find_reference_gpu(choice.gpu)) {
    post(Severity::kError, "No reference GPU named '" + choice.gpu + "'");
    return;
  }
  if (choice.registers_per_thread < 1 || choice.registers_per_thread > kMaxRegistersPerThread) {
    post(Severity::kError, "Registers per thread must be 1 to " +
                               std::to_string(kMaxRegistersPerThread) + ", not " +
                               std::to_string(choice.registers_per_thread));
    return;
  }
  state_.controls.occupancy_model = choice;
  refresh_occupancy();
}

void ResultsModel::forget_kernel_resources() {
  kernel_resources_.clear();
}

}  // namespace tl::ui
