#pragma once
// Draws a trace as cells: one per data element (1D wrapped into rows, or a 2D matrix) and, in 1D,
// one per idle thread after the data; coloured by block, thread, warp, SM or write count. A
// fragment shader does the work per pixel (pixel -> cell -> record -> colour), so the cost follows
// the image size, not the element count: millions of elements draw at interactive rates.
//
// Needs a current OpenGL 4.3 context. Picking uses tl::element_at with the same layout and view.

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "core/color_scheme.hpp"
#include "core/launch_config.hpp"
#include "core/mapping_layout.hpp"
#include "core/result.hpp"
#include "render/cell_marks.hpp"
#include "render/offscreen_target.hpp"
#include "render/shader_program.hpp"
#include "render/trace_buffer.hpp"

namespace tl::render {

struct MappingView {
  MappingLayout layout;  // which cell is which element / idle thread
  LaunchConfig launch;   // decodes the records' linear block and thread indices
  std::uint32_t warp_size = 32;
  ColorBy color_by = ColorBy::kBlock;
  ViewTransform transform;  // zoom and pan; fit_to_view gives the whole picture
  std::optional<std::uint64_t> highlighted_cell;  // outlined (filled when cells are tiny)
  // Cells outlined in red and tinted (filled when cells are tiny): the Lab's wrong elements. Null
  // or empty: none. The hovered cell's outline goes over a mark.
  const CellMarks* marks = nullptr;
  bool grid_lines = true;   // thin lines between cells, once cells are big enough
  bool block_lines = true;  // black lines where the writing block changes, once big enough
};

// Cells narrower than these (in pixels) get no lines: lines would cover the colours.
inline constexpr float kGridLineMinCellPixels = 6.0f;
inline constexpr float kBlockLineMinCellPixels = 3.0f;

struct MappingRendererOptions {
  // Records per shader storage binding; 0 uses the driver's limit. Tests set it low to exercise
  // the range-by-range drawing on small traces.
  std::uint64_t max_records_per_binding = 0;
};

class MappingRenderer {
 public:
  static Result<std::unique_ptr<MappingRenderer>> create(MappingRendererOptions options = {});
  ~MappingRenderer();
  MappingRenderer(const MappingRenderer&) = delete;
  MappingRenderer& operator=(const MappingRenderer&) = delete;

  // Draws into the offscreen target, resized to `size`. Elements past trace.count() draw as
  // unwritten. Leaves the default framebuffer bound.
  Status render(const TraceBuffer& trace, const MappingView& view, Viewport size);

  // The RGBA8 texture drawn into (bottom row first; see OffscreenTarget).
  [[nodiscard]] std::uint32_t color_texture() const { return target_->color_texture(); }
  [[nodiscard]] int width() const { return target_->width(); }
  [[nodiscard]] int height() const { return target_->height(); }
  // RGBA, top row first.
  Result<std::vector<std::uint8_t>> read_pixels() const { return target_->read_pixels(); }

 private:
  MappingRenderer(ShaderProgram program, std::unique_ptr<OffscreenTarget> target,
                  std::uint64_t records_per_binding, std::uint64_t binding_alignment_records);

  ShaderProgram program_;
  std::unique_ptr<OffscreenTarget> target_;
  std::uint64_t records_per_binding_;
  std::uint64_t binding_alignment_records_;
  std::uint32_t vertex_array_ = 0;   // core profile needs one bound, even with no attributes
  std::uint32_t empty_records_ = 0;  // bound when a pass has no records to read
};

}  // namespace tl::render
