#pragma once
// One mapping view: the renderer that draws a trace's records as the picture of which thread wrote
// which element, and where that picture sits in its panel (fitted until the user zooms or pans).
// The lesson's mapping view (AppController) and the Kernel Lab's (LabController) are two of these,
// so that both fit, zoom, pan and pick the same way. Each keeps its MappingCamera in the state its
// panels read; the records stay with their owner (the lesson's buffer must outlive the launch
// session that writes into it). Needs the OpenGL context current on the calling thread.

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "core/mapping_layout.hpp"
#include "core/result.hpp"
#include "mapping_camera.hpp"
#include "render/mapping_renderer.hpp"
#include "render/trace_buffer.hpp"

namespace tl::ui {

// What the mouse is over, against the cell the view describes already: a view reads a record back
// (from the GPU, or searches the Lab's wrong elements) only when the mouse reaches a new cell.
struct HoverChange {
  enum class Kind { kNoCell, kSameCell, kNewCell };
  Kind kind = Kind::kNoCell;
  CellHit hit;  // for kNewCell
};

class MappingViewController {
 public:
  // `camera` is where this view's position is kept (in the state its panels read); it must outlive
  // the controller.
  static Result<std::unique_ptr<MappingViewController>> create(MappingCamera& camera);
  MappingViewController(const MappingViewController&) = delete;
  MappingViewController& operator=(const MappingViewController&) = delete;

  // The mouse wheel about a pixel and a drag: the picture stops following the panel's size.
  void zoom(double factor, double pixel_x, double pixel_y);
  void pan(double dx, double dy);
  // The Fit button, and a new picture: fitted on the next frame, and kept fitted.
  void fit();

  // What is under `pixel` (none: the mouse left the view) in a picture of `layout`; `shown` is the
  // cell the view describes now, if any.
  [[nodiscard]] HoverChange hover_change(const MappingLayout& layout,
                                         std::optional<PixelPoint> pixel, Viewport viewport,
                                         const CellHit* shown) const;

  // Draws `records` as `view` says, at the camera's position (fitted first where due: a new
  // picture, or a resized panel while it follows the fit); returns the GL texture name.
  Result<std::uint32_t> render(const render::TraceBuffer& records, render::MappingView view,
                               Viewport viewport);
  // The last picture drawn, RGBA, top row first (for the tests).
  [[nodiscard]] Result<std::vector<std::uint8_t>> read_pixels() const {
    return renderer_->read_pixels();
  }

 private:
  MappingViewController(MappingCamera& camera, std::unique_ptr<render::MappingRenderer> renderer)
      : camera_(camera), renderer_(std::move(renderer)) {}

  MappingCamera& camera_;
  std::unique_ptr<render::MappingRenderer> renderer_;
};

}  // namespace tl::ui
