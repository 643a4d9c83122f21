#pragma once
// Everything the panels show, as plain data. The controller writes it; the panels only read it and
// call the controller's commands. Nothing here touches OpenGL, ImGui or CUDA.

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "compute/lessons/vector_add_runner.hpp"
#include "core/color_scheme.hpp"
#include "core/device_info.hpp"
#include "core/launch_config.hpp"
#include "core/mapping_layout.hpp"
#include "core/markdown/lesson_document.hpp"
#include "core/plot/series.hpp"
#include "core/sweep/sweep_runner.hpp"
#include "core/trace.hpp"

namespace tl::ui {

// The controls of the vector-add lesson, as the user set them.
struct LaunchControls {
  std::uint64_t n = 1000;
  Dim3 grid{4, 1, 1};
  Dim3 block{256, 1, 1};
  bool auto_grid = true;  // grid follows n and the block size: ceil(n / blockDim.x)
  [[nodiscard]] LaunchConfig config() const { return {grid, block}; }
};

// The last traced launch, drawn by the mapping view.
struct TraceView {
  bool valid = false;
  std::uint64_t n = 0;
  LaunchConfig config;
  MappingLayout layout;
  std::uint64_t unwritten = 0;
  std::uint64_t written_more = 0;
  std::uint64_t idle_threads = 0;
  std::optional<lessons::CheckResult> check;
  std::string error;  // why the last traced launch failed, shown in place of the picture
};

// Where the mouse is in the mapping view.
struct HoverInfo {
  CellHit hit;
  std::optional<DecodedTrace> record;  // for data cells
};

struct ViewSettings {
  ColorBy color_by = ColorBy::kBlock;
  ViewTransform transform;
  bool fit_pending = true;  // refit the picture to the panel on the next frame
  std::optional<HoverInfo> hover;
};

// The last timed launch.
struct TimedRun {
  bool pending = false;  // measuring in the background
  std::uint64_t n = 0;
  LaunchConfig config;
  std::optional<compute::VectorAddReport> report;
  std::string error;
};

enum class Severity { kInfo, kWarning, kError };
struct Message {
  Severity severity = Severity::kInfo;
  std::string text;
};

struct TimingPlot {
  std::vector<plot::PlotSeries> series;   // the current sweep
  std::vector<plot::PlotSeries> earlier;  // earlier sweeps, drawn faint for comparison
  std::vector<plot::PlotMarker> markers;  // the CPU/GPU crossover
  SweepProgress progress;
  bool sweeping = false;
  std::uint32_t sweep_block = 256;
};

struct LessonText {
  std::string title;
  markdown::Document document;
  std::string error;
};

struct AppState {
  BackendKind backend = BackendKind::kEmulator;
  std::string backend_reason;
  DeviceInfo device;
  std::string gl_renderer;
  LaunchControls controls;
  std::vector<LaunchProblem> launch_problems;  // why the current controls are invalid, if they are
  std::uint64_t max_n = 0;                     // what memory allows for a timed run
  TraceView trace;
  ViewSettings view;
  TimedRun timed;
  TimingPlot timing;
  LessonText lesson;
  std::deque<Message> messages;  // newest last; the status bar shows the newest
};

}  // namespace tl::ui
