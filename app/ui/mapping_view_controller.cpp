#include "mapping_view_controller.hpp"

namespace tl::ui {
namespace {

// The pixels left around a fitted picture, so that its edge cells are not cut by the panel's.
constexpr double kFitMarginPixels = 4.0;

}  // namespace

Result<std::unique_ptr<MappingViewController>> MappingViewController::create(
    MappingCamera& camera) {
  auto renderer = render::MappingRenderer::create();
  if (!renderer) return renderer.error();
  return std::unique_ptr<MappingViewController>(
      new MappingViewController(camera, std::move(*renderer)));
}

void MappingViewController::zoom(double factor, double pixel_x, double pixel_y) {
  camera_.transform = zoom_about(camera_.transform, factor, pixel_x, pixel_y);
  camera_.follow_fit = false;
}

void MappingViewController::pan(double dx, double dy) {
  camera_.transform = pan_by_pixels(camera_.transform, dx, dy);
  camera_.follow_fit = false;
}

void MappingViewController::fit() {
  camera_.fit_pending = true;
  camera_.follow_fit = true;
}

HoverChange MappingViewController::hover_change(const MappingLayout& layout,
                                                std::optional<PixelPoint> pixel, Viewport viewport,
                                                const CellHit* shown) const {
  if (!pixel) return {};
  const CellHit hit = element_at(layout, camera_.transform, static_cast<int>(pixel->x),
                                 static_cast<int>(pixel->y), viewport);
  if (hit.kind == CellKind::kNone) return {};
  if (shown != nullptr && shown->cell == hit.cell && shown->kind == hit.kind) {
    return {HoverChange::Kind::kSameCell, hit};
  }
  return {HoverChange::Kind::kNewCell, hit};
}

Result<std::uint32_t> MappingViewController::render(const render::TraceBuffer& records,
                                                    render::MappingView view, Viewport viewport) {
  const bool resized = viewport.width != camera_.fitted_viewport.width ||
                       viewport.height != camera_.fitted_viewport.height;
  if (camera_.fit_pending || (camera_.follow_fit && resized)) {
    camera_.transform = fit_to_view(view.layout, viewport, kFitMarginPixels);
    camera_.fit_pending = false;
    camera_.fitted_viewport = viewport;
  }
  view.transform = camera_.transform;
  TL_RETURN_IF_ERROR(renderer_->render(records, view, viewport));
  return renderer_->color_texture();
}

}  // namespace tl::ui
