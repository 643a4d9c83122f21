// `threadlab render`: the mapping view of one traced launch, drawn headless (EGL) into a PNG.

#include "commands.hpp"
#include "core/color_scheme.hpp"
#include "core/format.hpp"
#include "core/mapping_layout.hpp"
#include "interop/backend_selection.hpp"
#include "interop/gl_trace_sink.hpp"
#include "launch_request.hpp"
#include "platform/egl_context.hpp"
#include "render/mapping_renderer.hpp"
#include "render/png_writer.hpp"
#include "render/trace_buffer.hpp"

namespace tl::cli {

namespace {
constexpr std::uint64_t kMaxRenderedElements = std::uint64_t{1} << 24;
constexpr int kMaxImageSide = 16384;
}  // namespace

int command_render(const RenderOptions& options, std::ostream& out, std::ostream& err) {
  auto lesson = configure_lesson(options.launch);
  if (!lesson) return fail(err, lesson.message(), kExitUsage);
  const DataShape shape = (*lesson)->data_shape();
  const LaunchConfig config = (*lesson)->launch_config();
  if (shape.elements() > kMaxRenderedElements) {
    return fail(err,
                "render draws at most 2^24 elements (" + format_count(kMaxRenderedElements) + ")",
                kExitUsage);
  }
  auto color_by = parse_color_by(options.color_by);
  if (!color_by) return fail(err, "--color-by: " + color_by.message(), kExitUsage);
  if (options.width < 1 || options.height < 1 || options.width > kMaxImageSide ||
      options.height > kMaxImageSide) {
    return fail(err, "--width and --height must be between 1 and 16384 pixels", kExitUsage);
  }
  auto preference = interop::parse_backend_preference(options.launch.backend);
  if (!preference) return fail(err, "--backend: " + preference.message(), kExitUsage);

  auto gl = platform::EglContext::create({});
  if (!gl) return fail(err, "no headless OpenGL context: " + gl.message(), kExitFailure);
  auto choice = interop::choose_backend(*preference, true);
  if (!choice) return fail(err, choice.message(), kExitFailure);
  const auto problems = validate(config, choice->device->info().limits);

  render::TraceBuffer buffer;
  auto layout =
      shape.rows > 1
          ? layout_2d(shape.rows, shape.cols)
          : layout_1d(shape.elements(), config.total_threads(), 0,
                      static_cast<double>(options.width) / static_cast<double>(options.height));
  if (!layout) return fail(err, layout.message(), kExitUsage);
  if (const Status safe = (*lesson)->check_watchdog(*choice->device); !safe) {
    return fail(err, safe.message(), kExitFailure);
  }
  int status = kExitOk;
  // What ran: the dense layer's fast kernels launch with their own grid and block, by which the
  // records' blockIdx and threadIdx unfold.
  LaunchConfig launched = config;
  {
    auto sink = interop::make_gl_trace_sink(choice->kind, buffer);
    auto check = (*lesson)->run_traced(*choice->device, *sink);
    if (check) launched = check->config;
    if (!check) {
      // Draw what a failed launch leaves, nothing written, and still report the failure.
      std::string message = check.message();
      if (!problems.empty() && message.find(problems.front().message) == std::string::npos) {
        message += " (why: " + problems.front().message + ")";
      }
      err << "threadlab: " << message << '\n';
      status = kExitFailure;
      const Status cleared = buffer.clear(shape.elements());
      if (!cleared) return fail(err, cleared.message(), kExitFailure);
    }
  }
  auto renderer = render::MappingRenderer::create();
  if (!renderer) return fail(err, renderer.message(), kExitFailure);
  render::MappingView view;
  view.layout = *layout;
  view.launch = launched;
  view.warp_size = choice->device->info().limits.warp_size;
  view.color_by = *color_by;
  const Viewport viewport{options.width, options.height};
  view.transform = fit_to_view(*layout, viewport, 2.0);
  const Status drawn = (*renderer)->render(buffer, view, viewport);
  if (!drawn) return fail(err, drawn.message(), kExitFailure);
  auto pixels = (*renderer)->read_pixels();
  if (!pixels) return fail(err, pixels.message(), kExitFailure);
  const Status saved = render::write_png(options.out_path, options.width, options.height, *pixels);
  if (!saved) return fail(err, saved.message(), kExitFailure);
  out << "wrote " << options.out_path << ": " << (*lesson)->info().id << launched.to_string()
      << ", " << format_count(shape.elements()) << " elements, colour by " << to_string(*color_by)
      << ", " << to_string(choice->kind) << " (" << (*gl)->renderer() << ")\n";
  return status;
}

}  // namespace tl::cli
