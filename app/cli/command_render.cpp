// `threadlab render`: the mapping view of one traced launch, drawn headless (EGL) into a PNG; or,
// with --memory-line, one warp's memory request of a lesson's recorded kernel, drawn by the UI's
// Memory tab code (handed over as a MemoryRequestRenderer: the CLI does not include the UI).

#include <charconv>
#include <sstream>

#include "commands.hpp"
#include "compute/lessons/memory_lesson.hpp"
#include "core/color_scheme.hpp"
#include "core/format.hpp"
#include "core/mapping_layout.hpp"
#include "interop/backend_selection.hpp"
#include "interop/gl_trace_sink.hpp"
#include "lab/lesson_memory.hpp"
#include "launch_request.hpp"
#include "platform/egl_context.hpp"
#include "render/mapping_renderer.hpp"
#include "render/png_writer.hpp"
#include "render/trace_buffer.hpp"

namespace tl::cli {

namespace {
constexpr std::uint64_t kMaxRenderedElements = std::uint64_t{1} << 24;
constexpr int kMaxImageSide = 16384;

// The options render checks before it configures the lesson (check_render_options adds that).
Status check_render_flags(const RenderOptions& options) {
  auto color_by = parse_color_by(options.color_by);
  if (!color_by) return invalid_argument("--color-by: " + color_by.message());
  if (options.width < 1 || options.height < 1 || options.width > kMaxImageSide ||
      options.height > kMaxImageSide) {
    return invalid_argument("--width and --height must be between 1 and 16384 pixels");
  }
  if (options.out_path.empty()) return invalid_argument("--out needs a file name for the PNG");
  return check_backend_name(options.launch.backend);
}

// The memory picture's own flags: --warp and --memory-kernel only with it, a width its 32 lanes
// fit.
constexpr int kLeastMemoryPictureWidth = 320;
Status check_memory_flags(const RenderOptions& options) {
  if (options.memory_line == 0) {
    if (options.warp_given) return invalid_argument("--warp is for --memory-line N");
    if (!options.memory_kernel.empty()) {
      return invalid_argument("--memory-kernel is for --memory-line N");
    }
    return Status::ok();
  }
  if (options.memory_line < 0) {
    return invalid_argument("--memory-line must be a line number of the kernel's .cuh (1 or more)");
  }
  if (options.warp < 0) return invalid_argument("--warp must be 0 or more");
  if (options.width < kLeastMemoryPictureWidth) {
    return invalid_argument("--memory-line draws 32 lanes side by side: --width must be at least " +
                            std::to_string(kLeastMemoryPictureWidth));
  }
  if (options.height_given && options.height < 64) {
    return invalid_argument("--memory-line: --height must be at least 64 (or left out to fit)");
  }
  return Status::ok();
}

// The experiment --memory-kernel names: its label, its kernel's name, or its index.
Result<std::size_t> pick_experiment(const std::vector<memory::MemoryExperiment>& experiments,
                                    const std::string& wanted, std::string_view lesson) {
  if (wanted.empty()) return std::size_t{0};
  for (std::size_t i = 0; i < experiments.size(); ++i) {
    if (experiments[i].label == wanted || experiments[i].kernel == wanted) return i;
  }
  std::size_t index = 0;
  const auto [end, error] = std::from_chars(wanted.data(), wanted.data() + wanted.size(), index);
  if (error == std::errc() && end == wanted.data() + wanted.size() && index < experiments.size()) {
    return index;
  }
  std::string names;
  for (std::size_t i = 0; i < experiments.size(); ++i) {
    names += (i > 0 ? ", " : "") + std::to_string(i) + " '" + experiments[i].label + "'";
  }
  return invalid_argument("--memory-kernel '" + wanted + "': " + std::string(lesson) + " records " +
                          names);
}

int render_memory_line(const RenderOptions& options, const MemoryRequestRenderer& draw,
                       std::ostream& out, std::ostream& err) {
  // The lesson at the session's backend-adapted defaults, as `run --memory-table` records it, so
  // that the line numbers and figures are that table's.
  std::ostringstream notes;
  auto session = open_launch(options.launch, nullptr, notes);
  if (!session) return fail(err, session.message(), open_launch_exit_status(session.error()));
  out << notes.str();
  const compute::Lesson& lesson = *(*session)->lesson();
  const compute::MemoryLesson* recording = compute::memory_lesson(lesson);
  if (recording == nullptr) {
    return fail(err,
                "--memory-line: " + std::string(lesson.info().id) +
                    " does not record its kernels' memory accesses (vector-add, 2d-blocks, "
                    "matmul and reductions do)",
                kExitUsage);
  }
  const std::vector<memory::MemoryExperiment> experiments = recording->memory_experiments();
  auto picked = pick_experiment(experiments, options.memory_kernel, lesson.info().id);
  if (!picked) return fail(err, picked.message(), kExitUsage);
  if (!draw) return fail(err, "--memory-line: this build has no UI to draw with", kExitFailure);
  auto recorded = lab::record_lesson_kernel(experiments[*picked]);
  if (!recorded) return fail(err, "--memory-line: " + recorded.message(), kExitFailure);
  auto drawn = draw(*recorded, options.memory_line, static_cast<std::size_t>(options.warp),
                    options.out_path, options.width, options.height_given ? options.height : 0);
  if (!drawn) {
    return fail(err, "--memory-line: " + drawn.message(),
                drawn.error().kind == ErrorKind::kInvalidArgument ? kExitUsage : kExitFailure);
  }
  out << "wrote " << options.out_path << ": " << *drawn << "\n";
  return kExitOk;
}

}  // namespace

Status check_render_options(const RenderOptions& options) {
  TL_RETURN_IF_ERROR(check_render_flags(options));
  TL_RETURN_IF_ERROR(check_memory_flags(options));
  auto configured = configure_lesson(options.launch);
  if (!configured) return configured.error();
  return Status::ok();
}

int command_render(const RenderOptions& options, const MemoryRequestRenderer& draw_memory,
                   std::ostream& out, std::ostream& err) {
  if (const Status checked = check_render_flags(options); !checked) {
    return fail(err, checked.message(), kExitUsage);
  }
  if (const Status checked = check_memory_flags(options); !checked) {
    return fail(err, checked.message(), kExitUsage);
  }
  if (options.memory_line != 0) return render_memory_line(options, draw_memory, out, err);
  auto color_by = parse_color_by(options.color_by);
  auto configured = configure_lesson(options.launch);
  if (!configured) return fail(err, configured.message(), kExitUsage);
  auto gl = platform::EglContext::create({});
  if (!gl) return fail(err, "no headless OpenGL context: " + gl.message(), kExitFailure);
  render::TraceBuffer buffer;
  std::ostringstream notes;
  auto session = open_launch(options.launch, std::move(*configured), &buffer, notes);
  if (!session) return fail(err, session.message(), open_launch_exit_status(session.error()));
  out << notes.str();
  const compute::Lesson& lesson = *(*session)->lesson();
  const DataShape shape = lesson.data_shape();
  if (shape.elements() > kMaxRenderedElements) {
    return fail(err,
                "render draws at most 2^24 elements (" + format_count(kMaxRenderedElements) + ")",
                kExitUsage);
  }
  // A refused or failed launch writes no picture: only why, on one line.
  auto traced = (*session)->trace();
  if (!traced) return fail(err, traced.message(), kExitFailure);
  // What ran: the dense layer's fast kernels launch with their own grid and block, by which the
  // records' blockIdx and threadIdx unfold.
  const LaunchConfig launched = traced->launch.config;
  auto layout =
      shape.rows > 1
          ? layout_2d(shape.rows, shape.cols)
          : layout_1d(shape.elements(), launched.total_threads(), 0,
                      static_cast<double>(options.width) / static_cast<double>(options.height));
  if (!layout) return fail(err, layout.message(), kExitFailure);
  auto renderer = render::MappingRenderer::create();
  if (!renderer) return fail(err, renderer.message(), kExitFailure);
  render::MappingView view;
  view.layout = *layout;
  view.launch = launched;
  view.warp_size = (*session)->device().info().limits.warp_size;
  view.color_by = *color_by;
  const Viewport viewport{options.width, options.height};
  view.transform = fit_to_view(*layout, viewport, 2.0);
  const Status drawn = (*renderer)->render(buffer, view, viewport);
  if (!drawn) return fail(err, drawn.message(), kExitFailure);
  auto pixels = (*renderer)->read_pixels();
  if (!pixels) return fail(err, pixels.message(), kExitFailure);
  const Status saved = render::write_png(options.out_path, options.width, options.height, *pixels);
  if (!saved) return fail(err, saved.message(), kExitFailure);
  if (*color_by == ColorBy::kSm && !(*session)->device().is_gpu()) {
    // Said, not refused: the picture is still the launch's shape, only without the SMs.
    err << "threadlab: warning: --color-by sm: the CPU emulator has no SMs, so every element is "
           "drawn as 'SM unknown' (grey); colour by block, warp or thread here, or render on a "
           "GPU\n";
  }
  out << "wrote " << options.out_path << ": " << lesson.info().id << launched.to_string() << ", "
      << describe_counts(shape.elements(), traced->counts) << ", colour by " << to_string(*color_by)
      << ", " << to_string((*session)->backend()) << " (" << (*gl)->renderer() << ")\n";
  return kExitOk;
}

}  // namespace tl::cli
