#pragma once
// Everything the panels show, as plain data. The controller writes it; the panels only read it and
// call the controller's commands. Nothing here touches OpenGL, ImGui or CUDA.

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "classroom_state.hpp"
#include "compute/lessons/lesson.hpp"
#include "core/color_scheme.hpp"
#include "core/device_ceilings.hpp"
#include "core/device_info.hpp"
#include "core/format.hpp"
#include "core/grid_diagram.hpp"
#include "core/kernel_counters.hpp"
#include "core/launch_config.hpp"
#include "core/lessons/block_timeline.hpp"
#include "core/mapping_layout.hpp"
#include "core/markdown/lesson_document.hpp"
#include "core/occupancy.hpp"
#include "core/plot/plot_quantity.hpp"
#include "core/plot/roofline.hpp"
#include "core/plot/series.hpp"
#include "core/reference_gpus.hpp"
#include "core/sweep/sweep_runner.hpp"
#include "core/trace.hpp"
#include "mapping_camera.hpp"

namespace tl::ui {

// The current kernel's theoretical occupancy at the chosen block size, and over block sizes.
struct OccupancyView {
  std::string kernel;  // as compiled, e.g. "matmul_tiled<16>"; empty when none applies
  std::optional<KernelResources> resources;
  Occupancy current;
  std::vector<Occupancy> by_block_size;
  // The SM limits the figures are for: the GPU's own, or the reference GPU modelled on the
  // emulator.
  DeviceInfo device;
  // Why the limit is the limit, in the device's figures (core/occupancy.hpp's describe_limit).
  std::string limit_reason;
  // On the emulator: "a model of H100 SXM, not measured", and the kernel's resources are the
  // user's assumptions (OccupancyModelChoice). Empty on a GPU, which reports its own.
  std::string model_label;
  std::string unavailable;  // why there is nothing to show (cuBLAS, a CUDA error)
};

// What the Occupancy tab models on the emulator: a reference GPU (core/reference_gpus.hpp) and
// the kernel's registers and shared memory, which only nvcc on a GPU build can tell.
struct OccupancyModelChoice {
  std::string gpu{reference_gpus().front().name};
  std::uint32_t registers_per_thread = kAssumedRegistersPerThread;
  std::uint64_t shared_bytes_per_block = 0;
};

// The current lesson's controls, as the user set them, and what they amount to.
struct LaunchControls {
  std::string lesson_id;
  std::vector<lessons::ParamSpec> specs;
  lessons::ParamValues values;
  std::vector<compute::LessonPreset> presets;
  // Parameters this device cannot honour, each with its reason: drawn greyed, the reason beside.
  std::map<std::string, std::string> unavailable;
  LaunchConfig resolved;  // the configuration a launch uses (an "auto" grid resolved)
  DataShape shape;        // the data the kernels work on
  std::uint32_t elements_per_thread = 1;  // 1, up to k, or kAnyElementsPerThread (a loop)
  GridDiagram grid_diagram;               // the grid of blocks and their warps, idle threads marked
  OccupancyView occupancy;
  OccupancyModelChoice occupancy_model;  // kept across lessons and launches
  [[nodiscard]] LaunchConfig config() const { return resolved; }
  [[nodiscard]] std::uint64_t elements() const { return shape.elements(); }
};

// What a launch ran with. The results it made are titled with it ("<<<65536, 256>>>, N = 2^24"),
// and greyed out once the launch fields no longer match it, so an old result is never read as the
// answer for the new fields.
struct LaunchedWith {
  std::string lesson_id;
  lessons::ParamValues values;
  LaunchConfig config;
  DataShape shape;
  [[nodiscard]] static LaunchedWith from(const LaunchControls& controls) {
    return {controls.lesson_id, controls.values, controls.config(), controls.shape};
  }
  [[nodiscard]] bool matches(const LaunchControls& controls) const {
    return lesson_id == controls.lesson_id && values == controls.values &&
           config == controls.config() && shape == controls.shape;
  }
};
// "<<<65536, 256>>>, N = 2^24", or "<<<(4, 3), (16, 16)>>>, 48 × 64" for data in rows.
[[nodiscard]] inline std::string describe_launch(const LaunchedWith& launched) {
  const std::string data =
      launched.shape.rows > 1
          ? format_count(launched.shape.rows) + " × " + format_count(launched.shape.cols)
          : "N = " + format_power_of_two(launched.shape.elements());
  return launched.config.to_string() + ", " + data;
}

// The last traced launch, drawn by the mapping view.
struct TraceView {
  LaunchedWith launched;
  std::uint64_t launch_number = 0;  // counts traced launches, so views can tell a new one
  bool valid = false;
  std::uint64_t n = 0;
  DataShape shape;
  LaunchConfig config;
  MappingLayout layout;
  std::uint64_t unwritten = 0;
  std::uint64_t written_more = 0;
  // Threads that wrote no element; none where that would not mean idle (a grid-stride loop, a
  // register tile, several threads per element).
  std::optional<std::uint64_t> idle_threads;
  std::optional<compute::LessonCheck> check;
  std::vector<BlockRecord> blocks;
  lessons::BlockTimeline timeline;  // which SM ran each block, and when (lessons that record it)
  // What tracing cost: the traced launch with its records and their delivery to OpenGL, wall
  // time. Never part of a timed kernel: those run untraced.
  double traced_milliseconds = 0;
  std::string error;  // why the last traced launch failed, shown in place of the picture
};

// A traced launch running in the background (the emulator's large grids): what it will draw and
// how far it got. The picture before it stays, drawn as the earlier launch's, until it is done.
struct TracingRun {
  bool running = false;
  LaunchedWith launched;
  float fraction = 0;  // of the blocks launched so far
};

// Where the mouse is in the mapping view.
struct HoverInfo {
  CellHit hit;
  std::optional<DecodedTrace> record;  // for data cells
};

// The tabs under the mapping view: the window's own, and the current lesson's (by id, in
// ViewSettings::lesson_tab).
enum class ResultsTab {
  kTiming,
  kGrid,
  kTimeline,
  kOccupancy,
  kLesson,
  kRoofline,
  kMemory,
  kCompiled
};
// "plot", "roofline", "grid", "timeline", "occupancy", "memory", "compiled"; other names may be
// the lesson's tabs.
Result<ResultsTab> parse_results_tab(const std::string& name);
// The views a link names that are not results tabs: the window's two workspaces.
inline constexpr std::string_view kLabView = "lab";
inline constexpr std::string_view kLessonView = "lesson";

// What the window shows under its menu bar: the lesson (text, controls, pictures, timings) or the
// lesson's Kernel Lab (exercises, editor, verdict, the learner's mapping view).
enum class Workspace { kLesson, kLab };

struct ViewSettings {
  Workspace workspace = Workspace::kLesson;
  // The UI brings `workspace` forward once per request: while these differ, one is pending.
  std::uint64_t workspace_requests = 0;
  std::uint64_t workspace_requests_shown = 0;
  ColorBy color_by = ColorBy::kBlock;
  MappingCamera camera;  // zoom and pan, or fitted to the panel
  std::optional<HoverInfo> hover;
  // A tab to bring to the front; the UI selects it once per request.
  ResultsTab results_tab = ResultsTab::kTiming;
  std::string lesson_tab;  // which of the lesson's tabs, when results_tab is kLesson
  std::uint64_t results_tab_requests = 0;
};

// The last timed launch.
struct TimedRun {
  bool pending = false;  // measuring in the background
  // While pending: how long it has run and, on the emulator, how far its current grid got.
  SweepProgress progress;
  LaunchedWith launched;
  std::uint64_t n = 0;
  LaunchConfig config;
  std::optional<compute::LessonReport> report;
  std::string error;
  bool cancelled = false;  // the error is the user's Cancel
};

// A running measurement's progress bar: its share (of the emulated grid running now, which a
// timed run launches many times; 0 where nothing counts grids, on a GPU) and its caption, e.g.
// "grid 3: 62 %, 4.2 s" or "4.2 s".
[[nodiscard]] float progress_fraction(const SweepProgress& progress);
[[nodiscard]] std::string progress_caption(const SweepProgress& progress);

// Hardware counters (core/kernel_counters.hpp) of the compared kernels, read after a timed run
// when the learner asks for them, on launches of their own.
struct HardwareCounterReading {
  bool enabled = false;  // read with every timed launch
  bool pending = false;
  LaunchedWith launched;               // the launch they were read for
  std::vector<CountedKernel> kernels;  // empty until read
  std::string unavailable;             // why they could not be read
};

// A part of the next rendered frame to save as PNG (the plot's "Export PNG"), in UI coordinates.
struct CaptureRequest {
  std::string path;
  float x = 0;
  float y = 0;
  float width = 0;
  float height = 0;
};

enum class Severity { kInfo, kWarning, kError };
struct Message {
  Severity severity = Severity::kInfo;
  std::string text;
  // Where it was posted: the lesson shown then and the workspace. The status bar shows a message
  // only in that lesson and workspace, so another lesson's "Step 8 of 9" or a lesson's launch
  // error does not follow the learner into the next lesson or the Lab.
  std::string lesson_id;
  Workspace workspace = Workspace::kLesson;
};

// What a sweep varies: the problem size, or the threads per block at the current size.
enum class SweepKind { kSize, kBlock };

struct TimingPlot {
  SweepKind kind = SweepKind::kSize;
  std::vector<plot::PlotSeries> series;   // the current sweep
  std::vector<plot::PlotSeries> earlier;  // earlier sweeps, drawn faint for comparison
  std::vector<plot::PlotMarker> markers;  // the CPU/GPU crossover
  SweepProgress progress;
  bool sweeping = false;
  std::string x_title = "elements N";
  // What the user asked the y axis to show, what it shows (time while the points carry no such
  // work), the quantities the points allow, and the series as drawn: earlier sweeps first
  // (behind), then the current one, converted to `shown_quantity`.
  plot::PlotQuantity quantity = plot::PlotQuantity::kTime;
  plot::PlotQuantity shown_quantity = plot::PlotQuantity::kTime;
  std::vector<plot::PlotQuantity> quantities{plot::PlotQuantity::kTime};
  std::vector<plot::PlotSeries> shown;
  std::vector<plot::PlotGuide> guides;  // the measured ceiling on a rate axis
  // Where a current series runs above a ceiling, and why it can (core/plot/ceiling_notes.hpp).
  std::vector<std::string> ceiling_notes;
  // Log axes show decades of sizes and times; a linear y shows small differences (two block sizes,
  // two tiles) at their true proportion.
  bool log_y = true;
};

// The timings tab has a plot to draw (points, earlier sweeps or a sweep under way), not just its
// hint.
[[nodiscard]] inline bool has_plot(const TimingPlot& timing) {
  if (timing.sweeping || !timing.earlier.empty()) return true;
  for (const auto& series : timing.series) {
    if (!series.points.empty()) return true;
  }
  return false;
}

// The roofline of the last timed run (core/plot/roofline.hpp), rebuilt by the controller when the
// run or the device's ceilings change; the Roofline tab draws it.
struct RooflineView {
  plot::Roofline roofline;
  bool emulator = false;  // the points are CPU times of emulated kernels, the slope the host's
  // What the rebuild was made from, so that it is not redone every frame.
  std::string source;
};

struct LessonText {
  std::string title;
  markdown::Document document;
  std::string error;
};

// Another lesson asked for while measurements run in the background: rather than refusing, the
// window offers to cancel them and open it (panels/switch_offer.cpp asks).
struct LessonSwitchOffer {
  std::string lesson_id;
  std::string lesson_title;
  std::string link;     // a lesson link to follow once the run stopped; empty: open the lesson
  std::string running;  // what runs now: "the timed run of <<<4096, 256>>>, N = 2^20", "a sweep"
  bool cancelling = false;  // accepted: the run is stopping, the switch follows when it has
};

struct AppState {
  BackendKind backend = BackendKind::kEmulator;
  std::string backend_reason;
  DeviceInfo device;
  // The device's copy bandwidth and cuBLAS SGEMM rate, measured with the first timed run (or read
  // from the cache): every GPU result is shown as a share of them.
  std::optional<DeviceCeilings> ceilings;
  RooflineView roofline;
  std::string gl_renderer;
  LaunchControls controls;
  std::vector<LaunchProblem> launch_problems;  // why the current controls are invalid, if they are
  TraceView trace;
  TracingRun tracing;
  // What the lesson's views made of a picked element (the matrix product: the reads of one element
  // of C); the next launch clears it.
  std::shared_ptr<compute::LessonAttachment> lesson_pick;
  // The lesson's own picture from its last timed run (the dense layer's): kept while the next run
  // measures, so its tab does not flicker empty.
  std::shared_ptr<const compute::LessonAttachment> lesson_picture;
  ViewSettings view;
  TimedRun timed;
  HardwareCounterReading counters;
  TimingPlot timing;
  LessonText lesson;
  ClassroomState classroom;
  std::optional<LessonSwitchOffer> switch_offer;
  bool quit_requested = false;
  std::deque<Message> messages;  // newest last; the status bar: current_message()
};

// Adds a line to the message log (the status bar shows the newest); the oldest lines go once the
// log is full.
void post_message(AppState& state, Severity severity, std::string text);
// The newest message posted in the lesson and workspace shown now; null when there is none.
[[nodiscard]] const Message* current_message(const AppState& state);

}  // namespace tl::ui
