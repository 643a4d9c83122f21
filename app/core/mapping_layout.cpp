#include "core/mapping_layout.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace tl {
namespace {

std::uint64_t round_up(std::uint64_t value, std::uint64_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

Status check_cell_count(std::uint64_t cells) {
  if (cells > kMaxLayoutCells) {
    return invalid_argument("the mapping view draws at most " + std::to_string(kMaxLayoutCells) +
                            " cells; this layout needs " + std::to_string(cells));
  }
  return Status::ok();
}

}  // namespace

std::uint64_t default_columns(std::uint64_t cells, double aspect, std::uint32_t align) {
  const std::uint64_t step = std::max<std::uint32_t>(align, 1);
  if (cells == 0) return step;
  const double fit = aspect > 0 ? aspect : 1.0;
  // columns / rows == aspect with rows == cells / columns gives columns == sqrt(cells * aspect).
  const double ideal = std::sqrt(static_cast<double>(cells) * fit);
  // Of the two warp multiples around the ideal, the one whose block shape is closest to the aspect.
  const std::uint64_t below = std::max(step, static_cast<std::uint64_t>(ideal) / step * step);
  const std::uint64_t above =
      std::max(step, round_up(static_cast<std::uint64_t>(std::ceil(ideal)), step));
  auto misfit = [&](std::uint64_t columns) {
    const double rows = std::ceil(static_cast<double>(cells) / static_cast<double>(columns));
    return std::abs(std::log(static_cast<double>(columns) / rows / fit));
  };
  return misfit(below) <= misfit(above) ? below : above;
}

Result<MappingLayout> layout_1d(std::uint64_t elements, std::uint64_t threads_launched,
                                std::uint64_t columns, double aspect) {
  MappingLayout layout;
  layout.elements = elements;
  layout.idle_threads = threads_launched > elements ? threads_launched - elements : 0;
  TL_RETURN_IF_ERROR(check_cell_count(layout.cells()));
  layout.columns = columns != 0 ? columns : default_columns(layout.cells(), aspect);
  return layout;
}

Result<MappingLayout> layout_2d(std::uint64_t rows, std::uint64_t cols) {
  if (rows == 0 || cols == 0) {
    return invalid_argument("a matrix needs at least one row and one column");
  }
  if (cols > kMaxLayoutCells / rows) {
    return invalid_argument("the mapping view draws at most " + std::to_string(kMaxLayoutCells) +
                            " cells; a " + std::to_string(rows) + " x " + std::to_string(cols) +
                            " matrix has more");
  }
  MappingLayout layout;
  layout.elements = rows * cols;
  layout.columns = cols;
  layout.matrix = true;
  return layout;
}

ViewTransform fit_to_view(const MappingLayout& layout, Viewport viewport, double margin_pixels) {
  const double width = std::max(1.0, viewport.width - 2 * margin_pixels);
  const double height = std::max(1.0, viewport.height - 2 * margin_pixels);
  const double columns = static_cast<double>(std::max<std::uint64_t>(layout.columns, 1));
  const double rows = static_cast<double>(std::max<std::uint64_t>(layout.rows(), 1));
  ViewTransform view;
  view.cell_pixels =
      std::clamp(std::min(width / columns, height / rows), kMinCellPixels, kMaxCellPixels);
  // Centre: the origin sits half the unused width (in cells) before column 0.
  view.origin_x = (columns - viewport.width / view.cell_pixels) / 2.0;
  view.origin_y = (rows - viewport.height / view.cell_pixels) / 2.0;
  return view;
}

ViewTransform zoom_about(const ViewTransform& view, double factor, double pixel_x, double pixel_y) {
  ViewTransform zoomed = view;
  zoomed.cell_pixels = std::clamp(view.cell_pixels * factor, kMinCellPixels, kMaxCellPixels);
  const double anchor_x = view.origin_x + pixel_x / view.cell_pixels;
  const double anchor_y = view.origin_y + pixel_y / view.cell_pixels;
  zoomed.origin_x = anchor_x - pixel_x / zoomed.cell_pixels;
  zoomed.origin_y = anchor_y - pixel_y / zoomed.cell_pixels;
  return zoomed;
}

ViewTransform pan_by_pixels(const ViewTransform& view, double dx, double dy) {
  ViewTransform moved = view;
  moved.origin_x -= dx / view.cell_pixels;
  moved.origin_y -= dy / view.cell_pixels;
  return moved;
}

ShaderTransform shader_transform(const ViewTransform& view) {
  return {static_cast<float>(view.origin_x), static_cast<float>(view.origin_y),
          static_cast<float>(1.0 / view.cell_pixels)};
}

CellHit cell_at(const MappingLayout& layout, std::uint64_t row, std::uint64_t col) {
  CellHit hit;
  if (col >= layout.columns || row >= layout.rows()) return hit;
  const std::uint64_t cell = row * layout.columns + col;
  if (cell >= layout.cells()) return hit;
  hit.kind = cell < layout.elements ? CellKind::kElement : CellKind::kIdleThread;
  hit.cell = cell;
  hit.row = row;
  hit.col = col;
  return hit;
}

CellHit element_at(const MappingLayout& layout, const ViewTransform& view, int pixel_x, int pixel_y,
                   Viewport viewport) {
  if (pixel_x < 0 || pixel_y < 0 || pixel_x >= viewport.width || pixel_y >= viewport.height) {
    return {};
  }
  // Mirrors mapping.frag: the fragment centre (pixel + 0.5) times cells-per-pixel plus the origin,
  // all in float.
  const ShaderTransform t = shader_transform(view);
  const float x = std::floor(t.origin_x + (static_cast<float>(pixel_x) + 0.5f) * t.cells_per_pixel);
  const float y = std::floor(t.origin_y + (static_cast<float>(pixel_y) + 0.5f) * t.cells_per_pixel);
  if (x < 0 || y < 0) return {};
  return cell_at(layout, static_cast<std::uint64_t>(y), static_cast<std::uint64_t>(x));
}

PixelPoint cell_center_pixel(const MappingLayout& layout, const ViewTransform& view,
                             std::uint64_t cell) {
  const std::uint64_t columns = std::max<std::uint64_t>(layout.columns, 1);
  const double col = static_cast<double>(cell % columns) + 0.5;
  const double row = static_cast<double>(cell / columns) + 0.5;
  return {(col - view.origin_x) * view.cell_pixels, (row - view.origin_y) * view.cell_pixels};
}

}  // namespace tl
